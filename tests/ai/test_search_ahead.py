"""Searches ahead in the computers' pool (ai/pool.py): the very search a position would get, at
the lowest CPU priority, given up at once for a search that counts; and a person's likely turns
(ai/guess.py)."""

from __future__ import annotations

import asyncio
import os

import pytest

from ai import pool as pool_module
from ai.guess import likely_turns
from ai.ismcts import Abandoned, Level, search
from ai.pool import Computers
from ai.turn_budgets import play_turn
from engine import GAMES
from tests.ai.test_ismcts import SETUPS, position

QUICK = Level("test", steps=300, rollout_steps=12)


def test_a_search_told_to_stop_gives_up_and_one_never_told_is_unchanged() -> None:
    state = position("noctiluca", 2, 71, 6)
    seat = state.to_move()[0]
    plain = search(state, seat, QUICK, 9)
    asked = search(state, seat, QUICK, 9, stop=lambda: False)
    assert {t: (c.visits, c.total) for t, c in plain.children.items()} == {
        t: (c.visits, c.total) for t, c in asked.children.items()
    }
    with pytest.raises(Abandoned):
        search(state, seat, QUICK, 9, stop=lambda: True)


@pytest.mark.parametrize(("game", "players"), [s for s in SETUPS if s[1] > 1])
def test_a_persons_likely_turns_are_whole_legal_turns_and_differ(game, players) -> None:
    state = position(game, players, 80, 5)
    seat = state.to_move()[0]
    turns = likely_turns(state, seat, 3, 4, level=QUICK)
    assert 1 <= len(turns) <= 3
    assert len({tuple(a.text for a in turn) for turn in turns}) == len(turns), "different turns"
    for turn in turns:
        world = GAMES[game].load(state.to_dict())
        for action in turn:
            world.apply(seat, action)
        assert world.outcome() is not None or world.to_move() != [seat], "the person's whole turn"


async def test_a_search_ahead_runs_in_a_worker_of_its_own_at_the_lowest_priority_until_hurried() -> None:
    computers = Computers(1)
    try:
        state = position("noctiluca", 3, 72, 3)
        seat = state.to_move()[0]
        await computers.play_turn(state, seat, "easy", 1)
        ahead = asyncio.ensure_future(computers.speculate_turn(state, seat, "normal", 2))

        def started() -> bool:
            """The search ahead has reached its worker (a new process, started on first use:
            on a loaded machine that takes a while) and the worker has lowered its priority."""
            pool = computers._ahead_pool
            processes = list(pool._processes) if pool is not None else []  # type: ignore[attr-defined]
            return len(processes) == 1 and os.getpriority(os.PRIO_PROCESS, processes[0]) == pool_module.LOWEST

        for _ in range(300):
            if started():
                break
            await asyncio.sleep(0.1)
        assert computers._ahead_pool is not None and computers._pool is not None
        (worker,) = list(computers._ahead_pool._processes)  # type: ignore[attr-defined]
        (decider,) = list(computers._pool._processes)  # type: ignore[attr-defined]
        assert worker != decider
        assert os.getpriority(os.PRIO_PROCESS, worker) == pool_module.LOWEST
        assert os.getpriority(os.PRIO_PROCESS, decider) == os.getpriority(os.PRIO_PROCESS, 0)
        if computers.hurry():  # allowed here (root, or CAP_SYS_NICE): its answer comes at full speed
            assert os.getpriority(os.PRIO_PROCESS, worker) == 0
        assert await ahead == await computers.play_turn(state, seat, "normal", 2)
        # The next search ahead lowers itself again. It is not awaited at that priority: on a
        # loaded machine a process at the lowest priority gets almost no CPU, so once it has
        # lowered itself it is hurried, and its answer then comes at full speed.
        guess = asyncio.ensure_future(computers.likely_turns(state, seat, 1, 3))
        for _ in range(300):
            if os.getpriority(os.PRIO_PROCESS, worker) == pool_module.LOWEST or guess.done():
                break
            await asyncio.sleep(0.1)
        assert os.getpriority(os.PRIO_PROCESS, worker) == pool_module.LOWEST
        computers.hurry()
        assert await guess
    finally:
        computers.close()


@pytest.mark.parametrize(("game", "players"), [s for s in SETUPS if s[1] > 1])
async def test_a_search_ahead_decides_exactly_what_a_fresh_search_decides(game, players) -> None:
    """Honesty: searched ahead or when due, the same position gives the same turn (the same
    function, inputs and seeds, in a worker either way)."""
    computers = Computers(1)
    try:
        for seed in range(2):
            state = position(game, players, 90 + seed, 4 + 5 * seed)
            seat = state.to_move()[0]
            ahead = await computers.speculate_turn(state, seat, "easy", 1000 + seed)
            fresh = await computers.play_turn(state, seat, "easy", 1000 + seed)
            assert ahead == fresh == [a.text for a in play_turn(state, seat, "easy", 1000 + seed)]
    finally:
        computers.close()


async def test_a_search_that_counts_does_not_wait_for_a_search_ahead_and_one_unwanted_gives_up() -> None:
    computers = Computers(1)  # one decision worker
    try:
        state = position("noctiluca", 3, 72, 3)
        seat = state.to_move()[0]
        await computers.play_turn(state, seat, "easy", 1)  # the decision worker started
        ahead = asyncio.ensure_future(computers.speculate_turn(state, seat, "hard", 2))
        await asyncio.sleep(0.2)
        assert not computers.free, "one search ahead at a time"
        counted = await computers.play_turn(state, seat, "easy", 3)
        assert counted == [a.text for a in play_turn(state, seat, "easy", 3)]
        assert not ahead.done(), "the move was searched while the search ahead went on"
        computers.abandon()
        with pytest.raises(Abandoned):
            await ahead
        assert computers.abandoned == 1 and computers.free
    finally:
        computers.close()
