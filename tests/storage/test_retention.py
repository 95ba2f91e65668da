"""Retention: the move-by-move record of games over before a cutoff is compacted, nothing else."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from services import player_profiles as profiles
from services.storage import Database, GameRow, ratings, retention
from services.storage import async_play as store
from services.storage import jobs as job_store
from services.storage.jobs import JobSpec
from tests.storage.conftest import ALICE, BOB, GUILD, play

pytestmark = pytest.mark.asyncio

OUTCOME = {"scores": [3, 5], "winners": [1], "details": [{}, {}]}


async def finished_game(db: Database, channel: int, moves: int = 30, game: str = "noctiluca") -> GameRow:
    """A rated two-player game on GUILD, ``moves`` moves long, finished with its results recorded."""
    row = await db.create_game(game, GUILD, channel, ALICE, {}, seed=7)
    await db.join(row.id, BOB)
    await db.start_game(row.id, {"step": 0}, jobs=[JobSpec("board", 0)])
    await play(db, row.id, moves - 1)
    board = [JobSpec("board", moves), JobSpec("hand", moves, 0, {"events": ["secret"]})]
    assert await db.commit_move(row.id, moves - 1, 1, "last", {"step": moves, "final": True}, OUTCOME, board)
    for job in await job_store.pending(db, row.id):
        await job_store.complete(db, job.id)
    finished = await db.get_game(row.id)
    assert finished is not None
    await store.record_results(db, finished, [(0, ALICE, 3, 2, False, False), (1, BOB, 5, 1, True, False)])
    return finished


async def end_days_ago(db: Database, game_id: int, days: float) -> None:
    """Move the game's end into the past (the storage clock writes it: a test cannot wait a year)."""
    when = store.stamp(datetime.now(UTC) - timedelta(days=days))
    async with db.transaction() as conn:
        await conn.execute("UPDATE games SET finished_at = ? WHERE id = ?", (when, game_id))


async def counts(db: Database, game_id: int) -> dict[str, int]:
    found = {}
    for table in ("actions", "snapshots", "delivery_jobs", "results", "rating_history", "seats", "undone_actions"):
        rows = await db.query(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game_id,))
        found[table] = int(rows[0][0])
    return found


async def test_an_old_finished_game_loses_its_record_and_keeps_its_result_and_final_board(db: Database) -> None:
    old = await finished_game(db, 301)
    await end_days_ago(db, old.id, 400)
    before = await counts(db, old.id)
    assert before["actions"] == 30 and before["snapshots"] == 2 and before["delivery_jobs"] == 3
    board = await ratings.ratings_of(db, GUILD, "noctiluca")
    played = await profiles.played(db, GUILD, BOB)

    done = await retention.compact(db, datetime.now(UTC) - timedelta(days=365))

    assert (done.games, done.actions, done.snapshots, done.jobs) == (1, 30, 2, 3)
    after = await counts(db, old.id)
    assert after == before | {"actions": 0, "snapshots": 0, "delivery_jobs": 0}
    row = await db.get_game(old.id)
    assert row is not None and row.compacted_at is not None
    assert (row.status, row.outcome, row.state, row.version) == ("finished", OUTCOME, old.state, old.version)
    assert row.board_message_id == old.board_message_id and row.finished_at is not None
    assert await db.actions(old.id) == [] and await db.latest_snapshot(old.id) is None
    assert await ratings.ratings_of(db, GUILD, "noctiluca") == board
    assert await profiles.played(db, GUILD, BOB) == played
    assert [r.game_id for r in await store.results_of(db, BOB)] == [old.id]


async def test_a_younger_game_and_a_running_one_are_left_whole(db: Database) -> None:
    young = await finished_game(db, 302)
    await end_days_ago(db, young.id, 364)
    running = await db.create_game("noctiluca", GUILD, 303, ALICE, {}, seed=1)
    await db.start_game(running.id, {"step": 0})
    await play(db, running.id, 5)
    young_before, running_before = await counts(db, young.id), await counts(db, running.id)

    done = await retention.compact(db, datetime.now(UTC) - timedelta(days=365))

    assert done.games == 0
    assert await counts(db, young.id) == young_before and await counts(db, running.id) == running_before
    for game_id in (young.id, running.id):
        row = await db.get_game(game_id)
        assert row is not None and row.compacted_at is None


async def test_an_old_abandoned_game_is_compacted_too(db: Database) -> None:
    row = await db.create_game("noctiluca", GUILD, 304, ALICE, {}, seed=1)
    await db.join(row.id, BOB)
    await db.start_game(row.id, {"step": 0})
    await play(db, row.id, 3)
    assert await db.abandon(row.id)
    await end_days_ago(db, row.id, 100)

    done = await retention.compact(db, datetime.now(UTC) - timedelta(days=30))

    assert (done.games, done.actions, done.snapshots) == (1, 3, 1)
    after = await db.get_game(row.id)
    assert after is not None and after.status == "abandoned" and after.compacted_at is not None
    assert after.state == {"step": 3}


async def test_a_game_with_a_job_still_pending_waits(db: Database) -> None:
    old = await finished_game(db, 305)
    await job_store.enqueue(db, old.id, [JobSpec("notice", old.version, payload={"key": "x"})])
    await end_days_ago(db, old.id, 400)

    assert (await retention.compact(db, datetime.now(UTC) - timedelta(days=365))).games == 0
    assert (await counts(db, old.id))["actions"] == 30

    for job in await job_store.pending(db, old.id):
        await job_store.complete(db, job.id)
    assert (await retention.compact(db, datetime.now(UTC) - timedelta(days=365))).games == 1


async def test_work_goes_in_batches_oldest_first_and_a_second_pass_finds_nothing(db: Database) -> None:
    games = [await finished_game(db, 310 + i, moves=2) for i in range(5)]
    for age, game in zip((50, 40, 30, 20, 10), games, strict=True):
        await end_days_ago(db, game.id, age)
    cutoff = datetime.now(UTC) - timedelta(days=5)

    first = await retention.compact_batch(db, cutoff, limit=2)
    assert first.games == 2
    compacted = [g.id for g in games if (row := await db.get_game(g.id)) is not None and row.compacted_at]
    assert compacted == [games[0].id, games[1].id]

    rest = await retention.compact(db, cutoff, batch=2)
    assert rest.games == 3
    assert (await retention.compact(db, cutoff, batch=2)).games == 0


async def test_undone_moves_go_and_the_log_of_a_game_not_compacted_stays_append_only(db: Database) -> None:
    old = await finished_game(db, 320)
    async with db.transaction() as conn:  # an undone move, as services/storage/seats_and_undo.py keeps it
        await conn.execute(
            "INSERT INTO undone_actions (game_id, version, seat, action, created_at) VALUES (?, 99, 0, 'x', 'then')",
            (old.id,),
        )
    await end_days_ago(db, old.id, 400)
    young = await finished_game(db, 321)

    await retention.compact(db, datetime.now(UTC) - timedelta(days=365))

    assert (await counts(db, old.id))["undone_actions"] == 0
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM actions WHERE game_id = ?", (young.id,))
    assert len(await db.actions(young.id)) == 30


async def test_only_the_owned_shards_games_are_compacted(db: Database) -> None:
    from services.shards import Shards

    old = await finished_game(db, 330)  # on GUILD 111: shard (111 >> 22) % 2 == 0
    await end_days_ago(db, old.id, 400)
    cutoff = datetime.now(UTC) - timedelta(days=365)
    assert (await retention.compact(db, cutoff, Shards(frozenset({1}), 2))).games == 0
    assert (await retention.compact(db, cutoff, Shards(frozenset({0}), 2))).games == 1


async def test_freed_pages_go_back_to_the_file_system_only_with_incremental_auto_vacuum(
    db_path: Path, tmp_path: Path
) -> None:
    for mode, expect_shrink in (("NONE", False), ("INCREMENTAL", True)):
        path = tmp_path / mode / "meeple.db"
        path.parent.mkdir()
        with sqlite3.connect(path) as conn:  # set before the first table, as the bench does
            conn.execute(f"PRAGMA auto_vacuum = {mode}")
        db = await Database.open(path)
        try:
            for i in range(8):
                old = await finished_game(db, 340 + i, moves=200)
                await end_days_ago(db, old.id, 400)
            done = await retention.compact(db, datetime.now(UTC) - timedelta(days=365))
            assert done.games == 8
            free = int((await db.query("PRAGMA freelist_count"))[0][0])
            if expect_shrink:
                assert done.pages_freed > 0 and free == 0
            else:
                assert done.pages_freed == 0 and free > 0  # kept in the file, for the next rows
        finally:
            await db.close()
