"""How the database file is opened, shared and reopened."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.storage import Database, GameRow
from tests.storage.conftest import ALICE, CHANNEL, GUILD, play

pytestmark = pytest.mark.asyncio


async def pragma(db: Database, name: str) -> object:
    async with db.transaction() as conn:
        async with conn.execute(f"PRAGMA {name}") as cursor:
            row = await cursor.fetchone()
    assert row is not None
    return row[0]


async def test_open_creates_missing_parent_directories(db: Database, db_path: Path) -> None:
    assert db_path.is_file()


async def test_journal_mode_is_wal(db: Database, db_path: Path) -> None:
    assert await pragma(db, "journal_mode") == "wal"
    await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, seed=1)
    assert db_path.with_name(db_path.name + "-wal").exists()


async def test_foreign_keys_are_switched_on(db: Database, sqlite_only: None) -> None:
    assert await pragma(db, "foreign_keys") == 1


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO seats (game_id, seat, user_id) VALUES (999, 0, 1)")


async def test_synchronous_is_normal(db: Database, sqlite_only: None) -> None:
    assert await pragma(db, "synchronous") == 1  # NORMAL


async def test_busy_timeout_is_set(db: Database, sqlite_only: None) -> None:
    assert await pragma(db, "busy_timeout") == 5000


async def test_transaction_rolls_back_when_the_block_raises(db: Database) -> None:
    with pytest.raises(RuntimeError, match="boom"):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO games (game, channel_id, seed, creator_id) VALUES ('fox-duet', ?, 1, ?)", (CHANNEL, ALICE)
            )
            raise RuntimeError("boom")
    assert await db.active_game_in_channel(CHANNEL) is None


async def test_cancelled_transaction_rolls_back_and_frees_the_connection(db: Database) -> None:
    inserted = asyncio.Event()

    async def slow_write() -> None:
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO games (game, channel_id, seed, creator_id) VALUES ('fox-duet', ?, 1, ?)", (CHANNEL, ALICE)
            )
            inserted.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow_write())
    await inserted.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.active_game_in_channel(CHANNEL) is None
    created = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, seed=1)
    # SQLite reuses the rolled-back rowid; a PostgreSQL sequence never gives a number back.
    assert created.id == (1 if db.dialect == "sqlite" else 2)


async def test_database_call_inside_a_transaction_raises_instead_of_deadlocking(db: Database) -> None:
    with pytest.raises(RuntimeError, match="inside db.transaction"):
        async with db.transaction():
            await db.get_game(1)


async def test_reopened_file_still_has_the_running_game_with_state_and_log(db_path: Path) -> None:
    db = await Database.open(db_path)
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {"variant": "basic"}, seed=7)
    await db.start_game(row.id, {"step": 0})
    await play(db, row.id, 3)
    await db.close()

    reopened = await Database.open(db_path)
    try:
        [resumed] = await reopened.running_games()
        assert (resumed.id, resumed.version, resumed.state) == (row.id, 3, {"step": 3})
        assert resumed.options == {"variant": "basic"} and resumed.seed == 7
        assert [action.action for action in await reopened.actions(row.id)] == ["move 1", "move 2", "move 3"]
        assert await reopened.latest_snapshot(row.id) == (0, {"step": 0})
    finally:
        await reopened.close()


async def test_another_connection_sees_committed_data(db: Database, db_path: Path, running: GameRow) -> None:
    await play(db, running.id, 2)

    def read() -> tuple[object, ...]:
        plain = sqlite3.connect(db_path)
        try:
            return plain.execute("SELECT status, version, state FROM games WHERE id = ?", (running.id,)).fetchone()
        finally:
            plain.close()

    assert await asyncio.to_thread(read) == ("running", 2, '{"step":2}')


def hold_write_lock(db_path: Path, locked: threading.Event, seconds: float) -> None:
    """Hold another connection's write lock for a while, as a second process would."""
    plain = sqlite3.connect(db_path, isolation_level=None)
    try:
        plain.execute("BEGIN IMMEDIATE")
        plain.execute("UPDATE games SET lobby_message_id = 5")
        locked.set()
        threading.Event().wait(seconds)
        plain.execute("COMMIT")
    finally:
        plain.close()


async def test_write_waits_for_another_connection_to_release_its_lock(
    db: Database, db_path: Path, running: GameRow
) -> None:
    locked = threading.Event()
    holder = asyncio.create_task(asyncio.to_thread(hold_write_lock, db_path, locked, 0.3))
    await asyncio.to_thread(locked.wait)
    assert await db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None)
    await holder
    row = await db.get_game(running.id)
    assert row is not None and (row.version, row.lobby_message_id) == (1, 5)


async def test_write_cancelled_while_waiting_for_a_lock_leaves_no_transaction_open(
    db: Database, db_path: Path, running: GameRow
) -> None:
    locked = threading.Event()
    holder = asyncio.create_task(asyncio.to_thread(hold_write_lock, db_path, locked, 0.3))
    await asyncio.to_thread(locked.wait)
    waiting = asyncio.create_task(db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None))
    await asyncio.sleep(0.05)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await holder
    assert await db.commit_move(running.id, 0, 1, "move 1", {"step": 1}, None)
    assert await db.actions(running.id) == [(1, 1, "move 1")]
