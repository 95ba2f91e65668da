"""Per-game knowledge of the computer players (ai/knowledge.py, ai/noctiluca.py, ai/tm_dice.py):
rollout policies that are legal and reproducible, and evaluations that read only the state
they are given."""

from __future__ import annotations

import json
import random

import pytest

from ai import knowledge
from ai.ismcts import playable
from ai.noctiluca import jar_worth
from engine import GAMES, State

SETUPS = [
    ("fox-duet", 2),
    ("noctiluca", 1),
    ("noctiluca", 2),
    ("noctiluca", 4),
    ("tm-dice", 1),
    ("tm-dice", 2),
    ("vivarium", 2),
    ("vivarium", 4),
]


def positions(game: str, players: int, seed: int, count: int) -> list[State]:
    """Positions along one game played by the rollout policy itself (so every phase comes up)."""
    rng = random.Random(seed)
    state = GAMES[game].new(players, seed, {})
    found = []
    for step in range(count * 7):
        if state.outcome() is not None:
            break
        seat = rng.choice(state.to_move())
        if step % 7 == 0:
            found.append(GAMES[game].load(state.to_dict()))
        state.apply(seat, knowledge.policy(state, seat, playable(state, seat), rng))
    return found


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_a_rollout_move_is_legal_leaves_the_state_alone_and_is_the_same_for_the_same_seed(game, players) -> None:
    for index, state in enumerate(positions(game, players, 11, 25)):
        seat = state.to_move()[0]
        actions = playable(state, seat)
        before = json.dumps(state.to_dict(), sort_keys=True)
        move = knowledge.policy(state, seat, actions, random.Random(index))
        assert move in actions
        assert json.dumps(state.to_dict(), sort_keys=True) == before
        assert knowledge.policy(state, seat, actions, random.Random(index)) == move


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_a_rollout_played_by_the_policy_reaches_the_end_of_the_game(game, players) -> None:
    rng = random.Random(3)
    state = GAMES[game].new(players, 3, {})
    for _ in range(5000):
        if state.outcome() is not None:
            break
        seat = rng.choice(state.to_move())
        state.apply(seat, knowledge.policy(state, seat, playable(state, seat), rng))
    assert state.outcome() is not None


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_an_unfinished_position_is_valued_alike_whatever_the_hidden_things_of_the_same_view(game, players) -> None:
    """The evaluation reads the determinized copy it is given: two copies drawn with the same
    seed from states that differ only in what the seat cannot see are valued the same."""
    for state in positions(game, players, 21, 6)[1:]:
        seat = state.to_move()[0]
        other = GAMES[game].load(state.determinize(seat, 77).to_dict())
        assert other.view(seat) == state.view(seat)
        mine, theirs = state.determinize(seat, 5), other.determinize(seat, 5)
        assert knowledge.evaluate(mine) == knowledge.evaluate(theirs)
        value = knowledge.evaluate(mine)
        assert value is not None and len(value) == players and all(0.0 <= v <= 1.0 for v in value)


def test_a_noctiluca_jar_is_worth_more_the_fuller_it_is() -> None:
    """Random rollouts undervalued storing; the evaluation credits each die stored, the last
    ones most (the standing counts a point per two dice only)."""
    state = GAMES["noctiluca"].new(2, 5, {})
    rng = random.Random(5)
    while state.phase == "keep":
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(playable(state, seat)))
    jar = dict(state.jars[0][0], dice=[None] * len(state.jars[0][0]["dice"]))
    worths = []
    for filled in range(len(jar["dice"]) + 1):
        dice = ["o1"] * filled + [None] * (len(jar["dice"]) - filled)
        worths.append(jar_worth(state, dict(jar, dice=dice), state.favourites[0]) + filled // 2)
    assert worths == sorted(worths) and worths[0] == 0 < worths[-1]
    steps = [b - a for a, b in zip(worths, worths[1:], strict=False)]
    assert steps[-1] > steps[0], "the last die counts more than the first"


def test_solo_rewards_grow_with_the_score_and_a_win_outweighs_any_score() -> None:
    lost = knowledge.outcome_rewards([-5.0], [], 1)[0]
    closer = knowledge.outcome_rewards([0.0], [], 1)[0]
    won = knowledge.outcome_rewards([1.0], [0], 1)[0]
    assert lost < closer < won
    assert knowledge.outcome_rewards([40.0], [], 1)[0] < won
    assert knowledge.outcome_rewards([10.0, 3.0], [0], 2) == [1.0, 0.0]


@pytest.mark.parametrize("players", [1, 2, 4])
def test_noctiluca_search_candidates_keep_the_best_dives_best_first(players: int) -> None:
    """Move ordering (ai/noctiluca.py ``candidates``): at each step of a dive the search weighs
    the shores, paths and numbers whose best dive stores most, best first, a subset of the legal
    moves that always holds the rollout policy's best dive; other phases keep every move."""
    from ai.noctiluca import NUMBERS_SEARCHED, SHORES_SEARCHED, dive_values

    dives = 0
    for state in positions("noctiluca", players, 3, 20):
        seat = state.to_move()[0]
        actions = playable(state, seat)
        kept = knowledge.candidates(state, seat, actions)
        assert kept and set(kept) <= set(actions)
        if state.phase not in ("shore", "path", "number"):
            assert kept == actions
            continue
        dives += 1
        limit = {"shore": SHORES_SEARCHED, "path": 2, "number": NUMBERS_SEARCHED}[state.phase]
        assert len(kept) == min(limit, len(actions))
        pending = state.pending
        shores = [int(a.args[0]) for a in actions] if state.phase == "shore" else [pending["shore"]]
        paths = ("short", "long") if state.phase != "number" else (pending["path"],)
        values = dive_values(state, seat, shores, paths)
        best = max(values.values())
        word = {"shore": 0, "path": 1, "number": 2}[state.phase]
        tops = {str(key[word]) for key, value in values.items() if value == best}
        assert kept[0].args[0] in tops
    assert dives


def test_vivarium_rollouts_take_the_card_worth_most_when_one_is_reachable(monkeypatch) -> None:
    """ai/vivarium.py: in the take phase the rollout takes a reachable card by its quick worth
    (here without noise or random steps), never a gem adjustment while a card can be taken."""
    from ai import vivarium
    from engine.vivarium.grid import cell_index

    monkeypatch.setattr(vivarium, "NOISE", 0.0)
    monkeypatch.setattr(vivarium, "TAKE", 1.0)
    seen = 0
    for state in positions("vivarium", 2, 4, 30):
        seat = state.to_move()[0]
        actions = playable(state, seat)
        takes = [a for a in actions if a.verb == "take"]
        if state.phase != "take" or not takes:
            continue
        seen += 1
        chosen = knowledge.policy(state, seat, actions, random.Random(0))
        assert chosen.verb == "take"

        def value(action, position=state):
            row, col = (int(word.split("=")[1]) for word in action.args)
            return vivarium.worth(position, position.grid[cell_index(row, col)])

        assert value(chosen) == max(value(a) for a in takes)
    assert seen


def test_fox_duet_rollouts_play_each_trick_for_where_it_sends_the_tracker(monkeypatch) -> None:
    """ai/fox_duet.py: without its random steps, a follower plays the card whose finished trick
    lands the tracker best (gems, never an overshoot while anything else is possible), and the
    policy alone, both seats, wins a fair share of level 1 games where random play wins none."""
    from ai import fox_duet

    monkeypatch.setattr(fox_duet, "EXPLORE", 0.0)
    followed = 0
    for state in positions("fox-duet", 2, 5, 40):
        seat = state.to_move()[0]
        if state.phase != "play" or not state.trick_cards:
            continue
        followed += 1
        led = state.trick_cards[0]
        actions = [a for a in playable(state, seat) if a.verb == "play"]
        values = {a: fox_duet.trick_value(state, [(led["seat"], led["card"]), (seat, a.args[0])]) for a in actions}
        chosen = knowledge.policy(state, seat, playable(state, seat), random.Random(1))
        assert values[chosen] == max(values.values())
    assert followed
    monkeypatch.undo()
    won = {"policy": 0, "random": 0}
    for seed in range(40):
        for mode in won:
            state = GAMES["fox-duet"].new(2, seed, {"level": 1})
            rng = random.Random(seed)
            while state.outcome() is None:
                seat = rng.choice(state.to_move())
                actions = playable(state, seat)
                state.apply(
                    seat, knowledge.policy(state, seat, actions, rng) if mode == "policy" else rng.choice(actions)
                )
            won[mode] += bool(state.outcome().winners)
    assert won["random"] <= 2 and won["policy"] >= 10, won


def test_vivarium_and_tm_dice_value_an_unfinished_position_by_the_margin_not_by_who_leads() -> None:
    """``Knowledge.margin_scale``: an unfinished Vivarium or TM dice position is valued by each
    seat's lead over the best other score, squeezed into (0, 1): a lead of 1 is worth a little
    more than a tie, a lead of 10 much more; a finished game is still valued by its outcome."""
    from ai.knowledge import knowledge_of, margin_reward
    from engine import GAMES

    assert {game for game in GAMES if knowledge_of(game).margin_scale == 4.0} == {"vivarium", "tm-dice"}
    assert margin_reward([30, 30], 0, 4.0) == 0.5
    assert 0.5 < margin_reward([31, 30], 0, 4.0) < margin_reward([40, 30], 0, 4.0) < 1.0
    assert margin_reward([30, 40, 35], 0, 4.0) < margin_reward([30, 35, 35], 0, 4.0) < 0.5
    assert abs(margin_reward([31, 30], 0, 4.0) + margin_reward([31, 30], 1, 4.0) - 1.0) < 1e-12
    for game in ("vivarium", "tm-dice"):
        state = positions(game, 2, 9, 3)[-1]
        standing = state.standing()
        values = knowledge.evaluate(state)
        assert values == [margin_reward(list(map(float, standing.scores)), s, 4.0) for s in range(2)]
