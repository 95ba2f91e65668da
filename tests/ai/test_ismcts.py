"""The computer players: legal, reproducible, honest, and better than chance."""

from __future__ import annotations

import json
import random

import pytest

from ai.ismcts import LEVELS, Level, choose, decide, playable, search
from engine import GAMES, State

QUICK = Level("test", steps=400, rollout_steps=20)
SETUPS = [
    ("fox-duet", 2),
    ("vivarium", 2),
    ("vivarium", 4),
    ("noctiluca", 1),
    ("noctiluca", 2),
    ("noctiluca", 3),
    ("tm-dice", 1),
    ("tm-dice", 2),
]


def position(game: str, players: int, seed: int, steps: int) -> State:
    rng = random.Random(seed)
    state = GAMES[game].new(players, seed, {})
    for _ in range(steps):
        if state.outcome() is not None:
            break
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(playable(state, seat)))
    if state.outcome() is not None:
        pytest.skip("the random game ended before the position")
    return state


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_a_decision_is_legal_never_gives_up_and_is_the_same_for_the_same_seed(game, players) -> None:
    for seed in range(3):
        state = position(game, players, seed, 7 + 9 * seed)
        seat = state.to_move()[0]
        before = json.dumps(state.to_dict(), sort_keys=True)
        action = choose(state, seat, QUICK, seed=seed)
        assert json.dumps(state.to_dict(), sort_keys=True) == before, "the real state is untouched"
        assert action.text in [a.text for a in state.legal_actions(seat)]
        assert state.action_kind(action) not in ("resign", "concede")
        assert choose(state, seat, QUICK, seed=seed) == action, "reproducible"


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_a_decision_does_not_depend_on_the_hidden_cards(game, players) -> None:
    """Honesty: the same view and seed give the same move, whatever the others' hidden cards and
    the decks really are. The second state is a real arrangement with the same view for the
    seat (a determinization of the first, saved and loaded as a game would be)."""
    for seed in range(3):
        state = position(game, players, 40 + seed, 5 + 11 * seed)
        seat = state.to_move()[0]
        other = GAMES[game].load(state.determinize(seat, 999 + seed).to_dict())
        assert other.view(seat) == state.view(seat)
        if players > 1 and json.dumps(other.to_dict(), sort_keys=True) == json.dumps(state.to_dict(), sort_keys=True):
            continue
        assert choose(other, seat, QUICK, seed=seed) == choose(state, seat, QUICK, seed=seed)


def test_only_a_seat_to_move_can_be_asked() -> None:
    state = GAMES["vivarium"].new(2, 3, {})
    waiting = next(s for s in range(2) if s not in state.to_move())
    with pytest.raises(ValueError):
        choose(state, waiting, "easy", seed=1)


def test_the_levels_are_budgets_in_increasing_order() -> None:
    budgets = [LEVELS[name].steps for name in ("easy", "normal", "hard")]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3
    state = GAMES["vivarium"].new(2, 5, {})
    seat = state.to_move()[0]
    assert decide(state, seat, "random", 1).text in [a.text for a in playable(state, seat)]


def test_normal_beats_random_at_two_player_vivarium() -> None:
    """A small seeded sample (the bench measures 200 games): the search is better than chance."""
    wins = 0.0
    games = 6
    for index in range(games):
        seat = index % 2
        state = GAMES["vivarium"].new(2, 500 + index, {})
        rng = random.Random(index)
        while state.outcome() is None:
            mover = state.to_move()[0]
            if mover == seat:
                action = choose(state, mover, Level("small", steps=300, rollout_steps=20), seed=rng.getrandbits(32))
            else:
                action = rng.choice(playable(state, mover))
            state.apply(mover, action)
        outcome = state.outcome()
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
    assert wins >= 5, f"the computer won {wins} of {games}"


def test_fox_duet_positions_nobody_can_score_yet_are_valued_by_the_gems_collected() -> None:
    """Fox Duet cannot be scored half played and random rollouts lose almost every game, so an
    unfinished position is valued by its public progress: more gems collected is better."""
    from ai.knowledge import evaluate

    state = GAMES["fox-duet"].new(2, 4, {})
    start = evaluate(state)
    assert start is not None and start[0] == start[1]
    rng = random.Random(4)
    for _ in range(400):
        if state.outcome() is not None or state.view(None)["public"]["gems_collected"]:
            break
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(playable(state, seat)))
    if state.view(None)["public"]["gems_collected"] and state.outcome() is None:
        later = evaluate(state)
        assert later is not None and later[0] != start[0]
    standing = evaluate(GAMES["vivarium"].new(2, 1, {}))
    assert standing is not None and len(standing) == 2, "other games are valued by the engine's standing"


def test_fox_duets_search_weighs_its_own_move_alone_and_plays_the_partner_by_the_policy() -> None:
    """Fox Duet's tree is only the root (``FoxDuetKnowledge.depth``): below the computer's own move
    the policy plays both hands of each determinization, instead of a tree choosing the partner's
    moves across every hand the partner was drawn. Elsewhere the tree grows deeper."""

    def depth(node) -> int:
        return 1 + max((depth(child) for child in node.children.values()), default=0)

    fox = position("fox-duet", 2, 6, 3)
    root = search(fox, fox.to_move()[0], QUICK, seed=6)
    assert len(root.children) == len(playable(fox, fox.to_move()[0])) > 1
    assert depth(root) == 2, "the root and the computer's own moves, nothing below"
    assert sum(child.visits for child in root.children.values()) == root.visits
    viv = position("vivarium", 2, 6, 3)
    assert depth(search(viv, viv.to_move()[0], QUICK, seed=6)) > 2


def test_confidence_asks_the_search_to_beat_the_default_by_more_than_its_noise() -> None:
    """ismcts.confident: Welch's z of the rewards backed up through each move, above 1.64."""
    from ai.ismcts import Node, confident

    def node(rewards: list[float]) -> Node:
        return Node(seat=0, visits=len(rewards), total=sum(rewards), squares=sum(r * r for r in rewards))

    steady_better, steady_worse = node([0.7, 0.72, 0.68, 0.71] * 10), node([0.5, 0.52, 0.48, 0.49] * 10)
    noisy_better, noisy_worse = node([1.0, 0.0, 1.0, 0.2]), node([0.0, 1.0, 0.6, 0.0])
    assert confident(steady_better, steady_worse)
    assert not confident(steady_worse, steady_better)
    assert not confident(noisy_better, noisy_worse)  # a better mean, but within the noise
    assert not confident(node([0.9]), steady_worse)  # one visit says nothing
    assert not confident(steady_better, node([]))


def test_tm_dice_plays_the_goal_seekers_move_unless_the_search_is_confident_of_another() -> None:
    """knowledge.default_move: in TM dice the goal-seeking player's move (read from a
    determinization) stands unless the search shows a better one beyond its noise; a budget too
    small to show anything plays it; only hard has it (easy and normal play their search alone);
    other games have no default."""
    from ai import knowledge

    tiny = Level("tiny", steps=1, rollout_steps=2)
    for seed in range(4):
        state = position("tm-dice", 2, 60 + seed, 8 + 13 * seed)
        seat = state.to_move()[0]
        options = playable(state, seat)
        default = knowledge.default_move(state, seat, options, seed)
        assert default in options
        assert choose(state, seat, tiny, seed=seed) == default
    assert not LEVELS["easy"].default and not LEVELS["normal"].default and LEVELS["hard"].default
    for game in ("vivarium", "noctiluca", "fox-duet"):
        state = position(game, 2, 3, 9)
        seat = state.to_move()[0]
        assert knowledge.default_move(state, seat, playable(state, seat), 0) is None
