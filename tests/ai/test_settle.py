"""A search stops once its move is settled (ai/ismcts.py ``settled``): the most visited move
could not be overtaken by the iterations left, so the move is the one the whole budget gives,
for less work; and a sub-step with one move left to make plays it without searching."""

from __future__ import annotations

import pytest

import ai.ismcts as ismcts
from ai.ismcts import Level, Node, playable, search, settled, weigh
from ai.turn_budgets import play_turn
from engine import GAMES
from tests.ai.test_ismcts import SETUPS, position

QUICK = Level("test", steps=600, rollout_steps=12)


def root_with(**visits: int) -> Node:
    root = Node(seat=-1)
    for text, n in visits.items():
        root.children[text] = Node(seat=0, visits=n)
    return root


def test_settled_only_when_no_other_move_can_catch_up_and_the_leader_may_settle() -> None:
    root = root_with(a=30, b=10, c=3)
    assert settled(root, {"a", "b", "c"}, left=19)
    assert not settled(root, {"a", "b", "c"}, left=20), "b could tie a: the order would decide"
    assert not settled(root, {"b"}, left=0), "the leader is not one the search may stop for"
    assert settled(root_with(a=5), {"a"}, left=4), "a move alone against no other visited one"
    assert not settled(Node(seat=-1), {"a"}, left=0)


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_a_settled_search_chooses_what_the_whole_budget_chooses_for_less(game, players) -> None:
    for seed in range(3):
        state = position(game, players, 40 + seed, 5 + 6 * seed)
        seat = state.to_move()[0]
        legal = {a.text for a in playable(state, seat)}
        whole = search(state, seat, QUICK, seed)
        early = search(state, seat, QUICK, seed, settle=legal)
        assert early.steps <= whole.steps
        best = max(whole.children, key=lambda t: whole.children[t].visits)
        if early.steps < whole.steps:
            assert max(early.children, key=lambda t: early.children[t].visits) == best


def test_a_noctiluca_decision_with_a_clear_best_move_stops_before_its_budget() -> None:
    """A fixed, measured case: the search's steps with the stop and without, same move."""
    spent: list[int] = []
    real = ismcts.search

    def counted(*args, **kwargs):
        root = real(*args, **kwargs)
        spent.append(root.steps)
        return root

    state = position("noctiluca", 3, 7, 9)
    seat = state.to_move()[0]
    legal = {a.text for a in playable(state, seat)}
    budget = Level("test", steps=4000, rollout_steps=12, default=False)
    whole = real(state, seat, budget, 3)
    ismcts.search = counted
    try:
        action, root = weigh(state, seat, budget, 3)
    finally:
        ismcts.search = real
    assert root is not None and spent == [root.steps]
    assert action.text in legal
    assert root.steps < whole.steps, "stopped before the budget"
    assert action.text == max(whole.children, key=lambda t: (whole.children[t].visits, whole.children[t].total))


def test_a_forced_sub_step_is_played_without_a_search(monkeypatch) -> None:
    """Every turn that has a sub-step with one move (a Noctiluca pass with nothing to store, the
    only free shore...) makes it without calling the search."""
    searched: list[int] = []
    real = ismcts.search

    def watched(state, seat, *args, **kwargs):
        searched.append(len(playable(state, seat)))
        return real(state, seat, *args, **kwargs)

    monkeypatch.setattr(ismcts, "search", watched)
    state = GAMES["noctiluca"].new(2, 5, {})
    forced = 0
    for _ in range(300):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        options = playable(state, seat)
        searched.clear()
        moves = play_turn(state, seat, QUICK, game_seed=5, limit=1)
        if len(options) == 1:
            forced += 1
            assert searched == [] and moves == options
        state.apply(seat, moves[0])
    assert forced, "the game had forced sub-steps"
    assert all(n > 1 for n in searched)
