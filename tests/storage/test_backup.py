"""Backups of the SQLite file: a consistent copy of a live database, restores that refuse what they
cannot run, and the scheduled copies that keep the newest N."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import pytest

from services.backup_schedule import BackupSchedule, backup_name
from services.storage import Database
from services.storage.backup import BackupError, backup_database, backups_in, check_copy, prune, restore_database
from services.storage.migrate import MIGRATIONS_DIR, load_migrations, migrate
from tests.storage.conftest import ALICE, BOB, CHANNEL, GUILD, play

pytestmark = pytest.mark.asyncio

KNOWN = len(load_migrations())


async def game_with_moves(path: Path, moves: int) -> tuple[Database, int]:
    db = await Database.open(path)
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, seed=7)
    await db.join(row.id, BOB)
    await db.start_game(row.id, {"step": 0})
    await play(db, row.id, moves)
    return db, row.id


def actions(path: Path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(path)
    try:
        return [(r[0], r[1]) for r in conn.execute("SELECT version, action FROM actions ORDER BY version")]
    finally:
        conn.close()


def files(folder: Path) -> set[str]:
    return {path.name for path in folder.iterdir()}


async def test_a_backup_of_a_live_database_has_every_committed_move_in_one_file(tmp_path: Path) -> None:
    db, game = await game_with_moves(tmp_path / "live" / "meeple.db", 3)
    try:
        copy = backup_database(tmp_path / "live" / "meeple.db", tmp_path / "copies" / "one.db")
        await play(db, game, 1, start=3)  # the bot goes on playing; the copy stays as it was
    finally:
        await db.close()
    assert actions(copy) == [(1, "move 1"), (2, "move 2"), (3, "move 3")]
    assert files(tmp_path / "copies") == {"one.db"}  # no -wal beside it, no partial file left
    conn = sqlite3.connect(copy)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()
    assert check_copy(copy).version == KNOWN
    with pytest.raises(BackupError, match="already exists"):
        backup_database(tmp_path / "live" / "meeple.db", copy)
    with pytest.raises(BackupError, match="no database"):
        backup_database(tmp_path / "missing.db", tmp_path / "copies" / "two.db")
    assert not (tmp_path / "missing.db").exists()


async def test_a_backup_taken_while_moves_commit_is_one_consistent_moment(tmp_path: Path) -> None:
    path = tmp_path / "meeple.db"
    db, game = await game_with_moves(path, 1)
    copies: list[tuple[int, Path]] = []
    try:
        for n in range(8):
            committed = 1 + 3 * n  # moves acknowledged before this backup begins
            copy = asyncio.to_thread(backup_database, path, tmp_path / f"copy-{n}.db")
            made, _ = await asyncio.gather(copy, play(db, game, 3, start=committed))
            copies.append((committed, made))
    finally:
        await db.close()
    for committed, copy in copies:
        logged = actions(copy)
        conn = sqlite3.connect(copy)
        version, state = conn.execute("SELECT version, state FROM games").fetchone()
        conn.close()
        # The game row and its log agree: the copy never holds half of a move's transaction.
        assert [v for v, _ in logged] == list(range(1, version + 1))
        assert json.loads(state) == {"step": version}
        assert committed <= version <= committed + 3


async def test_restore_puts_the_copy_in_place_and_keeps_the_database_it_replaced(tmp_path: Path) -> None:
    path = tmp_path / "var" / "meeple.db"
    db, game = await game_with_moves(path, 2)
    copy = backup_database(path, tmp_path / "copy.db")
    await play(db, game, 3, start=2)
    await db.close()
    (path.parent / "meeple.db-shm").write_bytes(b"stale")  # a -shm left by a crashed bot
    when = datetime(2026, 11, 26, 13, 5, 1, tzinfo=UTC)
    restored = restore_database(copy, path, now=when)
    assert (restored.version, restored.known) == (KNOWN, KNOWN)
    assert restored.kept == path.parent / "meeple.db.before-restore-20261126T130501Z"
    assert files(path.parent) == {"meeple.db", "meeple.db.before-restore-20261126T130501Z"}
    assert actions(path) == [(1, "move 1"), (2, "move 2")]
    assert len(actions(restored.kept)) == 5
    db = await Database.open(path)  # the bot starts on it
    try:
        assert (await db.get_game(game)).version == 2
    finally:
        await db.close()


async def test_restore_into_a_fresh_path_needs_no_database_there(tmp_path: Path) -> None:
    db, _ = await game_with_moves(tmp_path / "meeple.db", 2)
    await db.close()
    copy = backup_database(tmp_path / "meeple.db", tmp_path / "copy.db")
    restored = restore_database(copy, tmp_path / "fresh" / "meeple.db")
    assert restored.kept is None
    assert actions(tmp_path / "fresh" / "meeple.db") == [(1, "move 1"), (2, "move 2")]


async def test_an_older_copy_is_accepted_and_migrated_at_the_next_start(tmp_path: Path) -> None:
    older = tmp_path / "older-migrations"
    older.mkdir()
    for migration in sorted(MIGRATIONS_DIR.glob("*.sql"))[: KNOWN - 1]:
        shutil.copy(migration, older)
    copy = tmp_path / "old.db"
    async with aiosqlite.connect(copy, isolation_level=None) as conn:
        assert await migrate(conn, older) == KNOWN - 1
    restored = restore_database(copy, tmp_path / "meeple.db")
    assert (restored.version, restored.known) == (KNOWN - 1, KNOWN)
    db = await Database.open(tmp_path / "meeple.db")
    await db.close()
    assert sqlite3.connect(tmp_path / "meeple.db").execute("PRAGMA user_version").fetchone()[0] == KNOWN


@pytest.fixture
async def target(tmp_path: Path) -> Path:
    """A database with two moves, the one a restore would replace."""
    db, _ = await game_with_moves(tmp_path / "meeple.db", 2)
    await db.close()
    return tmp_path / "meeple.db"


def refused(copy: Path, target: Path, match: str) -> None:
    """The restore is refused with ``match`` in its reason, and nothing changed beside the database."""
    before = files(target.parent)
    log = actions(target)
    with pytest.raises(BackupError, match=match):
        restore_database(copy, target)
    assert files(target.parent) == before
    assert actions(target) == log


async def test_restore_refuses_a_file_that_is_not_a_database(target: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database at all, just some words that go on for a while\n" * 100)
    refused(notes, target, "not a SQLite database")
    refused(tmp_path / "nowhere.db", target, "no file")


async def test_restore_refuses_a_copy_whose_last_changes_are_in_a_wal_file_beside_it(
    target: Path, tmp_path: Path
) -> None:
    live = tmp_path / "live" / "meeple.db"
    db, game = await game_with_moves(live, 1)
    try:
        conn = sqlite3.connect(live, isolation_level=None)  # keeps the WAL from being folded in
        try:
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            await play(db, game, 1, start=1)
            for name in ("meeple.db", "meeple.db-wal"):  # a file copy of a live database
                shutil.copy(live.parent / name, tmp_path / name.replace("meeple", "copied"))
        finally:
            conn.close()
    finally:
        await db.close()
    refused(tmp_path / "copied.db", target, "copied.db-wal file beside it")


async def test_restore_refuses_a_damaged_copy(target: Path, tmp_path: Path) -> None:
    copy = backup_database(target, tmp_path / "copy.db")
    data = bytearray(copy.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[2 * page : 4 * page] = b"\xa5" * (2 * page)  # two b-tree pages overwritten
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(bytes(data))
    refused(damaged, target, "damaged")


async def test_restore_refuses_a_sqlite_file_of_another_program(target: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    refused(other, target, "not a Meeple Post database")


async def test_restore_refuses_a_copy_newer_than_the_code(target: Path, tmp_path: Path) -> None:
    copy = backup_database(target, tmp_path / "copy.db")
    conn = sqlite3.connect(copy)
    conn.execute(f"PRAGMA user_version = {KNOWN + 1}")
    conn.commit()
    conn.close()
    refused(copy, target, f"schema version {KNOWN + 1}.*up to {KNOWN}")


async def test_restore_refuses_while_the_bot_has_the_database_open(target: Path, tmp_path: Path) -> None:
    copy = backup_database(target, tmp_path / "copy.db")
    db = await Database.open(target)  # the bot, running on it
    try:
        refused(copy, target, "open in another program")
    finally:
        await db.close()
    restore_database(copy, target)  # once it stopped


def schedule_at(tmp_path: Path, keep: int) -> tuple[BackupSchedule, list[datetime]]:
    now = [datetime(2026, 11, 26, 0, 0, tzinfo=UTC)]
    schedule = BackupSchedule(
        tmp_path / "meeple.db", tmp_path / "backups", timedelta(hours=6), keep, clock=lambda: now[0]
    )
    return schedule, now


async def test_scheduled_backups_keep_the_newest_n_and_nothing_else_is_touched(target: Path, tmp_path: Path) -> None:
    schedule, now = schedule_at(tmp_path, keep=3)
    folder = tmp_path / "backups"
    folder.mkdir()
    others = {"notes.txt", "meeple-by-hand.db", "other-20260101T000000Z.db"}
    for name in others:
        (folder / name).write_text("the operator's")
    made = []
    for _ in range(5):
        path = await schedule.backup_if_due()
        assert path is not None
        made.append(path.name)
        assert await schedule.backup_if_due() is None  # not due again until 6 hours later
        now[0] += timedelta(hours=5, minutes=59)
        assert await schedule.backup_if_due() is None
        now[0] += timedelta(minutes=1)
    assert made[0] == backup_name(target, datetime(2026, 11, 26, tzinfo=UTC)) == "meeple-20261126T000000Z.db"
    assert files(folder) == others | set(made[-3:])
    assert [path.name for _, path in backups_in(folder, "meeple")] == made[-3:]
    assert actions(folder / made[-1]) == actions(target)
    assert prune(folder, "meeple", 1) == [folder / made[-3], folder / made[-2]]


async def test_the_schedule_counts_from_the_newest_backup_and_goes_on_after_a_failure(
    target: Path, tmp_path: Path
) -> None:
    schedule, now = schedule_at(tmp_path, keep=2)
    waits: list[float] = []

    async def sleep(seconds: float) -> None:  # the clock moves on instead of the test waiting
        waits.append(seconds)
        now[0] += timedelta(seconds=seconds)
        if len(waits) == 2:
            target.rename(target.with_name("away.db"))  # the next backup fails: no database
        if len(waits) == 3:
            target.with_name("away.db").rename(target)
        if len(waits) == 4:
            raise asyncio.CancelledError

    schedule._sleep = sleep
    with pytest.raises(asyncio.CancelledError):
        await schedule.run()
    assert waits == [6 * 3600.0] * 4
    assert [when.hour for when, _ in backups_in(tmp_path / "backups", "meeple")] == [6, 18]
