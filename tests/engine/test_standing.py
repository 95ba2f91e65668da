"""``State.standing()``: a game scored as it stands (docs/ENGINE-EXTENSIONS.md), for tournaments
that settle a table unfinished at a round's deadline by its score."""

from __future__ import annotations

import json
import random

import pytest

from engine import GAMES


def midgame(game: str, players: int, seed: int, steps: int):
    rng = random.Random(seed)
    state = GAMES[game].new(players, seed, {})
    for _ in range(steps):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if state.action_kind(a) != "resign"]))
    return state


@pytest.mark.parametrize(
    ("game", "players"), [("vivarium", 2), ("vivarium", 4), ("noctiluca", 3), ("tm-dice", 2), ("tm-dice", 4)]
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_standing_scores_the_position_as_a_resignation_scores_the_others_and_changes_nothing(
    game, players, seed
) -> None:
    state = midgame(game, players, seed, 25 + 10 * seed)
    if state.outcome() is not None:
        pytest.skip("the random game ended early")
    before = json.dumps(state.to_dict(), sort_keys=True)
    standing = state.standing()
    assert standing is not None
    assert json.dumps(state.to_dict(), sort_keys=True) == before, "standing() changes nothing"
    assert standing.winners and all(standing.scores[w] == max(standing.scores) for w in standing.winners)
    resigned = GAMES[game].load(state.to_dict())
    resigned.resign(0)
    outcome = resigned.outcome()
    assert outcome is not None
    for seat in range(1, players):
        assert outcome.scores[seat] == standing.scores[seat], "the same final scoring as a resignation uses"


@pytest.mark.parametrize(("game", "players"), [("noctiluca", 1), ("tm-dice", 1)])
def test_an_unfinished_solo_game_standing_is_no_win(game, players) -> None:
    state = midgame(game, players, 4, 20)
    standing = state.standing()
    assert standing is not None and standing.winners == [] and len(standing.scores) == 1


def test_a_finished_game_stands_at_its_outcome_and_fox_duet_cannot_say() -> None:
    state = midgame("vivarium", 2, 9, 10_000)
    assert state.outcome() is not None and state.standing() == state.outcome()
    fox = GAMES["fox-duet"].new(2, 1, {})
    assert fox.standing() is None
