"""Delivery jobs: enqueued with the change they announce, claimed oldest first, finished once."""

from __future__ import annotations

import sqlite3

import pytest

from services.storage import Database, GameRow, jobs, seats_and_undo
from services.storage.jobs import JobSpec

BOARD = JobSpec("board", 1, payload={"events": [{"type": "played", "card": "dove-7"}]})
HAND = JobSpec("hand", 1, 0, {"reason": "game.dm.update"})


@pytest.mark.asyncio
async def test_a_move_and_its_jobs_commit_together(db: Database, running: GameRow) -> None:
    assert await db.commit_move(running.id, 0, 0, "play dove-7", {"step": 1}, None, [BOARD, HAND])
    waiting = await jobs.pending(db, running.id)
    assert [(j.kind, j.version, j.seat) for j in waiting] == [("board", 1, None), ("hand", 1, 0)]
    assert waiting[0].payload == BOARD.payload


@pytest.mark.asyncio
async def test_a_stale_move_enqueues_nothing(db: Database, running: GameRow) -> None:
    assert await db.commit_move(running.id, 0, 0, "first", {"step": 1}, None)
    assert not await db.commit_move(running.id, 0, 1, "late", {"step": 1}, None, [BOARD])
    assert await jobs.pending(db, running.id) == []


@pytest.mark.asyncio
async def test_a_job_that_cannot_be_stored_rolls_the_move_back(db: Database, running: GameRow) -> None:
    broken = JobSpec("hand", 1, None)  # a DM without a seat breaks the table's CHECK
    with pytest.raises(sqlite3.IntegrityError):
        await db.commit_move(running.id, 0, 0, "play dove-7", {"step": 1}, None, [BOARD, broken])
    assert (await db.get_game(running.id)).version == 0
    assert await db.actions(running.id) == []
    assert await jobs.pending(db, running.id) == []


@pytest.mark.asyncio
async def test_the_start_and_an_undo_enqueue_in_their_own_transaction(db: Database, lobby: GameRow) -> None:
    await db.start_game(lobby.id, {"step": 0}, jobs=[JobSpec("board", 0), JobSpec("hand", 0, 1)])
    assert await db.commit_move(lobby.id, 0, 0, "move", {"step": 1}, None)
    assert await seats_and_undo.undo_last(db, lobby.id, 1, {"step": 0}, [JobSpec("board", 0, payload={"undo": {}})])
    assert [(j.kind, j.version) for j in await jobs.pending(db, lobby.id)] == [("board", 0), ("hand", 0), ("board", 0)]


@pytest.mark.asyncio
async def test_claim_takes_the_oldest_pending_job_and_counts_the_attempt(db: Database, running: GameRow) -> None:
    await jobs.enqueue(db, running.id, [BOARD, HAND])
    first = await jobs.claim(db, running.id)
    assert first is not None and first.kind == "board" and first.attempts == 1
    await jobs.retrying(db, first.id, "HTTP 500 (code 0)")
    again = await jobs.claim(db, running.id)
    assert again is not None and again.id == first.id and again.attempts == 3
    assert again.last_error == "HTTP 500 (code 0)"
    await jobs.complete(db, first.id)
    second = await jobs.claim(db, running.id)
    assert second is not None and second.kind == "hand"
    await jobs.complete(db, second.id)
    assert await jobs.claim(db, running.id) is None
    assert await jobs.games_with_pending(db) == []


@pytest.mark.asyncio
async def test_fail_is_final_and_enqueues_its_notice_atomically(db: Database, running: GameRow) -> None:
    await jobs.enqueue(db, running.id, [HAND])
    job = await jobs.claim(db, running.id)
    assert job is not None
    notice = JobSpec("notice", 1, payload={"key": "game.dm-failed", "users": [1002]})
    await jobs.fail(db, job.id, "HTTP 403 (code 50007)", [notice])
    await jobs.complete(db, job.id)  # a finished job stays as it ended
    failed = await jobs.get(db, job.id)
    assert failed is not None and failed.status == "failed" and failed.last_error == "HTTP 403 (code 50007)"
    assert [(j.kind, j.payload["users"]) for j in await jobs.pending(db, running.id)] == [("notice", [1002])]


@pytest.mark.asyncio
async def test_a_superseded_board_is_skipped_and_its_lines_carried(db: Database, running: GameRow) -> None:
    await jobs.enqueue(db, running.id, [BOARD, HAND, JobSpec("board", 2, payload={"carried": ["older"]})])
    old = await jobs.claim(db, running.id)
    assert old is not None
    newer = await jobs.newer_board(db, old)
    assert newer is not None and newer.version == 2
    await jobs.skip_into(db, old, newer, ["Alice played the 7 of doves."])
    assert (await jobs.get(db, old.id)).status == "skipped"
    assert (await jobs.get(db, newer.id)).payload["carried"] == ["Alice played the 7 of doves.", "older"]
    assert await jobs.newer_board(db, newer) is None


@pytest.mark.asyncio
async def test_annotate_adds_lines_and_forfeits_to_the_pending_board(db: Database, running: GameRow) -> None:
    await jobs.enqueue(db, running.id, [BOARD])
    assert await jobs.annotate_board(db, running.id, 1, ["Bob ran out of time."], [1])
    assert not await jobs.annotate_board(db, running.id, 7, ["nothing at 7"])
    (job,) = await jobs.pending(db, running.id)
    assert job.payload["notes"] == ["Bob ran out of time."] and job.payload["forfeited"] == [1]


@pytest.mark.asyncio
async def test_has_board_job_sees_jobs_in_any_status(db: Database, running: GameRow) -> None:
    assert not await jobs.has_board_job(db, running.id, 1)
    await jobs.enqueue(db, running.id, [BOARD])
    job = await jobs.claim(db, running.id)
    assert job is not None
    await jobs.fail(db, job.id, "HTTP 404 (code 10003)")
    assert await jobs.has_board_job(db, running.id, 1)


def test_plain_makes_engine_events_storable() -> None:
    assert jobs.plain([{"cards": ("a", "b"), "seen": {2, 1}}]) == [{"cards": ["a", "b"], "seen": [1, 2]}]
