"""A delivery worker that stops on an unexpected error says so, and leaves its jobs pending."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any, cast

import pytest

from services.delivery import Delivery
from services.shards import ALL
from services.storage import Database, jobs
from services.storage.jobs import JobSpec


async def test_a_worker_stopped_by_an_error_logs_it_and_its_jobs_stay_pending(
    db: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    row = await db.create_game("fox-duet", 1, 2, 3, {}, 5, others=[(4, None)])
    await db.start_game(row.id, {"step": 0}, jobs=[JobSpec("board", 0)])

    async def broken(game_id: int) -> None:
        raise RuntimeError("the disk is gone")

    monkeypatch.setattr(db, "get_game", broken)
    delivery = Delivery(cast(Any, SimpleNamespace(db=db)), cast(Any, None), shards=ALL)
    with caplog.at_level(logging.ERROR, logger="meeple.delivery"):
        task = delivery.kick(row.id)
        assert task is not None
        assert not await delivery.wait(row.id, timeout=30)
        await asyncio.wait({task})
        await asyncio.sleep(0)  # the done callback runs
    assert task.done() and isinstance(task.exception(), RuntimeError)
    assert any("delivery worker of game" in r.getMessage() and r.exc_info for r in caplog.records)
    assert [job.kind for job in await jobs.pending(db, row.id)] == ["board"]


async def test_forgetting_a_player_waits_for_the_step_under_way_and_drops_the_board_remembered(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Privacy: a pass that read the current board's lines (which may name the player) before she
    was forgotten finishes its step first, and what the process remembers of the board is
    dropped, so the next edit reads its lines again from storage, scrubbed."""
    from services import board_turns as turns

    row = await db.create_game("fox-duet", 1, 2, 3, {}, 5, others=[(4, None)])
    await db.start_game(row.id, {"step": 0}, jobs=[JobSpec("board", 0)])
    delivery = Delivery(cast(Any, SimpleNamespace(db=db)), cast(Any, None), shards=ALL)
    delivery._shown[row.id] = turns.Shown(1, 0, frozenset(), ("Zephyrine Quill leads the 5 of bells.",))
    stepping, step_done = asyncio.Event(), asyncio.Event()
    order: list[str] = []

    async def a_step(game_id: int, batch: list[Any]) -> None:
        stepping.set()
        await step_done.wait()
        order.append("step")

    monkeypatch.setattr(delivery, "_deliver_all", a_step)
    worker = delivery.kick(row.id)
    await asyncio.wait_for(stepping.wait(), 10)

    async def forget() -> None:
        async with delivery.forgetting([row.id]):
            order.append("forget")
            assert row.id not in delivery._shown

    forgetting = asyncio.create_task(forget())
    for _ in range(20):
        await asyncio.sleep(0)
    assert not forgetting.done(), "the anonymisation waits for the step under way"
    step_done.set()
    await asyncio.wait_for(forgetting, 10)
    assert worker is not None
    await asyncio.wait_for(worker, 10)
    assert order == ["step", "forget"]


async def test_a_wait_between_two_steps_lets_the_forgetting_through(db: Database) -> None:
    """A worker waiting (a retry's backoff, an edit's pace) holds nothing: a player is forgotten meanwhile."""
    delivery = Delivery(cast(Any, SimpleNamespace(db=db)), cast(Any, None), shards=ALL)
    gate = delivery._gate(7)
    await gate.acquire()
    delivery._holding.add(7)
    slept = asyncio.Event()
    release = asyncio.Event()

    async def sleep(_: float) -> None:
        slept.set()
        await release.wait()

    delivery._sleep = sleep
    pause = asyncio.create_task(delivery._pause(7, 1.0))
    await asyncio.wait_for(slept.wait(), 10)
    async with delivery.forgetting([7]):
        assert 7 not in delivery._holding
    release.set()
    await asyncio.wait_for(pause, 10)
    assert gate.locked() and 7 in delivery._holding, "the step after the wait holds the gate again"
