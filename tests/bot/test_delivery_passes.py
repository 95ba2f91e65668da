"""A delivery worker that stops on an unexpected error says so, and leaves its jobs pending."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.delivery import Delivery
from bot.shards import ALL
from bot.storage import Database, jobs
from bot.storage.jobs import JobSpec


async def test_a_worker_stopped_by_an_error_logs_it_and_its_jobs_stay_pending(
    db: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    row = await db.create_game("fox-duet", 1, 2, 3, {}, 5, others=[(4, None)])
    await db.start_game(row.id, {"step": 0}, jobs=[JobSpec("board", 0)])

    async def broken(game_id: int) -> None:
        raise RuntimeError("the disk is gone")

    monkeypatch.setattr(db, "get_game", broken)
    delivery = Delivery(cast(Any, SimpleNamespace(service=SimpleNamespace(db=db), shards=ALL)))
    with caplog.at_level(logging.ERROR, logger="meeple.delivery"):
        task = delivery.kick(row.id)
        assert task is not None
        assert not await delivery.wait(row.id, timeout=30)
        await asyncio.wait({task})
        await asyncio.sleep(0)  # the done callback runs
    assert task.done() and isinstance(task.exception(), RuntimeError)
    assert any("delivery worker of game" in r.getMessage() and r.exc_info for r in caplog.records)
    assert [job.kind for job in await jobs.pending(db, row.id)] == ["board"]
