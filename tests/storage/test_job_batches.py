"""A delivery pass's bookkeeping in a few statements: every pending job claimed at once, the
delivered ones marked done together, superseded boards skipped in one transaction, the board
message set in one statement; each of them counted."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from services.storage import Database, GameNotFound, GameRow, jobs
from services.storage.jobs import JobSpec


def counted() -> int:
    return int(REGISTRY.get_sample_value("meeple_db_statements_total") or 0)


def board(version: int, **payload: object) -> JobSpec:
    return JobSpec("board", version, payload=dict(payload))


async def test_claim_all_takes_every_pending_job_oldest_first_in_one_statement(db: Database, running: GameRow) -> None:
    await db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None, [board(1), JobSpec("hand", 1, 0)])
    await db.commit_move(running.id, 1, 1, "move 2", {"step": 2}, None, [board(2)])
    before = counted()
    claimed = await jobs.claim_all(db, running.id)
    assert counted() - before == 1
    assert [(j.kind, j.version, j.seat) for j in claimed] == [("board", 1, None), ("hand", 1, 0), ("board", 2, None)]
    assert [j.id for j in claimed] == sorted(j.id for j in claimed)
    assert all(j.attempts == 1 and j.status == "pending" for j in claimed)
    again = await jobs.claim_all(db, running.id)  # still pending until marked: claimed again, counted again
    assert [j.attempts for j in again] == [2, 2, 2]


async def test_complete_all_marks_only_pending_jobs_done_in_one_statement(db: Database, running: GameRow) -> None:
    await db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None, [board(1), JobSpec("hand", 1, 0)])
    first, hand = await jobs.claim_all(db, running.id)
    await jobs.fail(db, hand.id, "HTTP 403")
    before = counted()
    await jobs.complete_all(db, [first.id, hand.id])
    assert counted() - before == 1
    assert (await jobs.get(db, first.id)).status == "done"
    assert (await jobs.get(db, hand.id)).status == "failed"  # a job already finished keeps its status
    before = counted()
    await jobs.complete_all(db, [])
    assert counted() == before  # nothing to mark: no statement
    assert await jobs.pending(db, running.id) == []


async def test_complete_all_takes_more_ids_than_one_statement_holds(db: Database, running: GameRow) -> None:
    await db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None, [board(1, n=n) for n in range(1_203)])
    claimed = await jobs.claim_all(db, running.id)
    await jobs.complete_all(db, [job.id for job in claimed])
    assert await jobs.pending(db, running.id) == []


async def test_skip_all_into_skips_the_old_boards_and_carries_their_lines_atomically(
    db: Database, running: GameRow
) -> None:
    await db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None, [board(1)])
    await db.commit_move(running.id, 1, 1, "move 2", {"step": 2}, None, [board(2)])
    await db.commit_move(running.id, 2, 0, "move 3", {"step": 3}, None, [board(3, carried=["earlier"])])
    one, two, three = await jobs.claim_all(db, running.id)
    newer = await jobs.skip_all_into(db, [one, two], three, ["line of 1", "line of 2"])
    assert newer.payload["carried"] == ["line of 1", "line of 2", "earlier"]
    stored = await jobs.get(db, three.id)
    assert stored.payload == newer.payload and stored.status == "pending"
    assert [(await jobs.get(db, job.id)).status for job in (one, two)] == ["skipped", "skipped"]


async def test_set_board_is_one_statement_and_refuses_an_unknown_game(db: Database, running: GameRow) -> None:
    before = counted()
    await db.set_board(running.id, 987, 0)
    assert counted() - before == 1
    row = await db.get_game(running.id)
    assert (row.board_message_id, row.board_version) == (987, 0)
    with pytest.raises(GameNotFound):
        await db.set_board(running.id + 1000, 1, 0)


async def test_commit_move_returns_the_row_it_stored(db: Database, running: GameRow) -> None:
    moved = await db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None, [board(1)])
    assert moved is not None and moved == await db.get_game(running.id)
    assert (moved.version, moved.state) == (1, {"step": 1})
    assert await db.commit_move(running.id, 0, 1, "late", {"step": 9}, None) is None
