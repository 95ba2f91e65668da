"""How the database file is opened, shared and reopened."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import asyncpg
import pytest

from services.storage import Database, GameRow
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


async def test_reopened_file_still_has_the_running_game_with_state_and_log(db_target: str | Path) -> None:
    db = await Database.open(db_target)
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {"variant": "basic"}, seed=7)
    await db.start_game(row.id, {"step": 0})
    await play(db, row.id, 3)
    await db.close()

    reopened = await Database.open(db_target)
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


def hold_write_lock(db_path: Path, locked: threading.Event, release: threading.Event | float) -> None:
    """Hold another connection's write lock, as a second process would: until ``release`` is set,
    or for a number of seconds."""
    plain = sqlite3.connect(db_path, isolation_level=None)
    try:
        plain.execute("BEGIN IMMEDIATE")
        plain.execute("UPDATE games SET lobby_message_id = 5")
        locked.set()
        if isinstance(release, threading.Event):
            release.wait(60)  # the bound only ends a broken test
        else:
            threading.Event().wait(release)
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
    locked, release = threading.Event(), threading.Event()
    holder = asyncio.create_task(asyncio.to_thread(hold_write_lock, db_path, locked, release))
    await asyncio.to_thread(locked.wait)
    waiting = asyncio.create_task(db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None))
    await asyncio.sleep(0.05)  # let it reach the lock; it cannot pass it, however slow the machine
    assert not waiting.done()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    release.set()
    await holder
    assert await db.commit_move(running.id, 0, 1, "move 1", {"step": 1}, None)
    assert await db.actions(running.id) == [(1, 1, "move 1")]


# PostgreSQL: another process is another connection to the same server.


@pytest.fixture
def postgres_only(backend: str) -> None:
    if backend != "postgres":
        pytest.skip("SQLite has its own versions of these tests above")


async def test_another_postgres_connection_sees_committed_data(
    db: Database, running: GameRow, postgres_only: None
) -> None:
    await play(db, running.id, 2)
    assert db.url is not None
    plain = await asyncpg.connect(db.url)
    try:
        row = await plain.fetchrow("SELECT status, version, state FROM games WHERE id = $1", running.id)
    finally:
        await plain.close()
    assert tuple(row) == ("running", 2, '{"step":2}')


async def hold_postgres_lock(
    url: str, lock_sql: str, locked: asyncio.Event, release: asyncio.Event, game_id: int | None = None
) -> None:
    """Hold an advisory lock in another connection's transaction (as another bot process would),
    having written to one game (``game_id``) or to every game."""
    plain = await asyncpg.connect(url)
    try:
        async with plain.transaction():
            await plain.execute(lock_sql)
            if game_id is None:
                await plain.execute("UPDATE games SET lobby_message_id = 5")
            else:
                await plain.execute("UPDATE games SET lobby_message_id = 5 WHERE id = $1", game_id)
            locked.set()
            await release.wait()
    finally:
        await plain.close()


async def test_a_postgres_write_waits_for_another_process_writing(
    db: Database, running: GameRow, postgres_only: None
) -> None:
    assert db.url is not None
    locked, release = asyncio.Event(), asyncio.Event()
    holder = asyncio.create_task(
        hold_postgres_lock(db.url, f"SELECT pg_advisory_xact_lock({0x4D455550}, 0)", locked, release)
    )
    await locked.wait()
    move = asyncio.create_task(db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None))
    await asyncio.sleep(0.2)
    assert not move.done()  # the other process's transaction is still open
    release.set()
    await holder
    assert await asyncio.wait_for(move, 30)
    row = await db.get_game(running.id)
    assert row is not None and (row.version, row.lobby_message_id) == (1, 5)


async def test_moves_of_other_games_never_wait_for_a_game_being_played(
    db: Database, running: GameRow, postgres_only: None
) -> None:
    other = await db.create_game("fox-duet", GUILD, CHANNEL + 1, ALICE, {}, seed=3)
    await db.start_game(other.id, {"step": 0})
    assert db.url is not None
    locked, release = asyncio.Event(), asyncio.Event()
    # Another process in the middle of a move of the first game: its write lock shared, its game's taken.
    lock = f"SELECT pg_advisory_xact_lock_shared({0x4D455550}, 0), pg_advisory_xact_lock({running.id})"
    holder = asyncio.create_task(hold_postgres_lock(db.url, lock, locked, release, running.id))
    await locked.wait()
    same_game = asyncio.create_task(db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None))
    try:
        assert await asyncio.wait_for(db.commit_move(other.id, 0, 0, "move 1", {"step": 1}, None), 30)
        assert not same_game.done()
    finally:
        release.set()
        await holder
    assert await asyncio.wait_for(same_game, 30)


async def test_two_processes_moving_one_game_never_both_win(
    db: Database, running: GameRow, postgres_only: None
) -> None:
    assert db.url is not None
    second = await Database.open(db.url)
    try:
        results = await asyncio.gather(
            *(
                process.commit_move(running.id, 0, seat, f"move by {seat}", {"step": 1}, None)
                for seat, process in enumerate([db, second] * 4)
            )
        )
    finally:
        await second.close()
    assert sum(result is not None for result in results) == 1  # the winner's row, the others None
    assert len(await db.actions(running.id)) == 1


async def test_a_postgres_write_cancelled_while_waiting_leaves_no_transaction_open(
    db: Database, running: GameRow, postgres_only: None
) -> None:
    assert db.url is not None
    locked, release = asyncio.Event(), asyncio.Event()
    holder = asyncio.create_task(
        hold_postgres_lock(db.url, f"SELECT pg_advisory_xact_lock({0x4D455550}, 0)", locked, release)
    )
    await locked.wait()
    waiting = asyncio.create_task(db.commit_move(running.id, 0, 0, "move 1", {"step": 1}, None))
    await asyncio.sleep(0.05)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    release.set()
    await holder
    assert await db.commit_move(running.id, 0, 1, "move 1", {"step": 1}, None)
    assert await db.actions(running.id) == [(1, 1, "move 1")]
