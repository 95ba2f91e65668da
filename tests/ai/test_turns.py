"""A computer's whole turn decided at once (ai/turn_budgets.py): legal, complete, reproducible,
honest, and carrying the search on only where the move revealed nothing."""

from __future__ import annotations

import json

import pytest

from ai.ismcts import Level, choose, search
from ai.turn_budgets import TURN_LIMIT, move_seed, play_turn, reveals
from engine import GAMES
from tests.ai.test_ismcts import SETUPS, position

QUICK = Level("test", steps=300, rollout_steps=12)


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_a_turn_is_legal_ends_the_seats_turn_and_is_the_same_for_the_same_seed(game, players) -> None:
    for seed in range(2):
        state = position(game, players, 70 + seed, 6 + 7 * seed)
        seat = state.to_move()[0]
        before = json.dumps(state.to_dict(), sort_keys=True)
        moves = play_turn(state, seat, QUICK, game_seed=seed)
        assert json.dumps(state.to_dict(), sort_keys=True) == before, "the real state is untouched"
        assert moves, "a seat to move makes at least one move"
        world = GAMES[game].load(state.to_dict())
        for action in moves:
            assert seat in world.to_move()
            assert world.action_kind(action) not in ("resign", "concede")
            world.apply(seat, action)  # each one legal where it is made
        # The whole turn (a solo game's seat is always to move: its turn stops at the limit).
        assert seat not in world.to_move() or world.outcome() is not None or len(moves) == TURN_LIMIT
        assert play_turn(state, seat, QUICK, game_seed=seed) == moves, "reproducible"


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_a_turn_does_not_depend_on_the_hidden_cards(game, players) -> None:
    """Honesty: two real arrangements with the same view for the seat give the same moves for as
    long as the seat's view stays the same (a die rolled or a card drawn may then differ, and
    the moves after it with it)."""
    for seed in range(2):
        state = position(game, players, 90 + seed, 5 + 9 * seed)
        seat = state.to_move()[0]
        other = GAMES[game].load(state.determinize(seat, 555 + seed).to_dict())
        mine, theirs = play_turn(state, seat, QUICK, seed), play_turn(other, seat, QUICK, seed)
        a, b = GAMES[game].load(state.to_dict()), GAMES[game].load(other.to_dict())
        for one, two in zip(mine, theirs, strict=False):
            assert a.view(seat) == b.view(seat)
            assert one == two
            a.apply(seat, one)
            b.apply(seat, two)
            if a.view(seat) != b.view(seat):
                break


def test_the_first_move_of_a_turn_is_the_move_decided_alone() -> None:
    """The turn's first decision is ``choose`` at that position with that position's seed: a turn
    plays what the computer would play one move at a time."""
    for game, players in (("noctiluca", 2), ("vivarium", 2), ("tm-dice", 2)):
        state = position(game, players, 11, 9)
        seat = state.to_move()[0]
        moves = play_turn(state, seat, QUICK, game_seed=4)
        assert moves[0] == choose(state, seat, QUICK, move_seed(4, state.version, seat))


def test_a_choice_that_reveals_nothing_is_told_apart_from_a_roll() -> None:
    """Noctiluca's choice of a shore shows nothing new (the search goes on from its subtree); a TM
    dice roll shows dice nobody could know."""
    noct = GAMES["noctiluca"].new(2, 3, {})
    while noct.phase != "shore":
        seat = noct.to_move()[0]
        noct.apply(seat, noct.legal_actions(seat)[0])
    seat = noct.to_move()[0]
    assert not reveals(noct, seat, noct.legal_actions(seat)[0], seed=1)
    tm = GAMES["tm-dice"].new(2, 3, {})
    for _ in range(400):
        seat = tm.to_move()[0]
        rolls = [a for a in tm.legal_actions(seat) if a.text.startswith("roll")]
        if rolls:
            assert reveals(tm, seat, rolls[0], seed=1)
            break
        tm.apply(seat, tm.legal_actions(seat)[0])
    else:
        pytest.fail("no roll was offered")


def test_a_search_carried_on_counts_the_steps_already_spent() -> None:
    """``search`` from a tree already grown spends only what the budget has left: given a tree
    that spent the whole budget, it grows it by at most the minimum iterations."""
    state = position("vivarium", 2, 5, 4)
    seat = state.to_move()[0]
    tree = search(state, seat, QUICK, seed=1)
    assert tree.steps >= QUICK.steps
    visits = tree.visits
    again = search(state, seat, QUICK, seed=2, tree=tree)
    assert again is tree and tree.visits == visits, "nothing left to spend"
