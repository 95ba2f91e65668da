"""Migration 0016: the weekly challenge's modes are the games' declarations, not a list in the
schema. The tables are rebuilt without the list, keeping their rows and their references."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest
import pytest_asyncio

from services.storage.migrate import MIGRATIONS_DIR, load_migrations, migrate

BEFORE = 15  # the last migration with the list of modes in a CHECK


@pytest_asyncio.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    connection = await aiosqlite.connect(tmp_path / "m.db", isolation_level=None)
    await connection.execute("PRAGMA foreign_keys = ON")  # as Database.open
    try:
        yield connection
    finally:
        await connection.close()


def first(tmp_path: Path, count: int) -> Path:
    folder = tmp_path / "migrations"
    folder.mkdir()
    for migration in load_migrations(MIGRATIONS_DIR)[:count]:
        name = f"{migration.number:04d}_{migration.name}.sql"
        shutil.copy(MIGRATIONS_DIR / name, folder / name)
    return folder


async def test_a_mode_no_shipped_game_has_is_stored_after_0016_and_old_rows_are_kept(
    conn: aiosqlite.Connection, tmp_path: Path
) -> None:
    assert await migrate(conn, first(tmp_path, BEFORE)) == BEFORE
    await conn.execute("INSERT INTO challenge_seeds VALUES (1, '2026-W48', 'fox-duet-2', 42)")
    with pytest.raises(sqlite3.IntegrityError):  # before 0016 the schema refuses a mode it does not list
        await conn.execute("INSERT INTO challenge_seeds VALUES (1, '2026-W48', 'tiny-duel-2', 7)")
    assert await migrate(conn) == len(load_migrations(MIGRATIONS_DIR))
    await conn.execute("INSERT INTO challenge_seeds VALUES (1, '2026-W48', 'tiny-duel-2', 7)")
    rows = await conn.execute_fetchall("SELECT mode, seed FROM challenge_seeds ORDER BY mode")
    assert [tuple(r) for r in rows] == [("fox-duet-2", 42), ("tiny-duel-2", 7)]
    # The attempts still refer to the seeds (the rename carried the reference along).
    references = await conn.execute_fetchall("PRAGMA foreign_key_list(challenge_attempts)")
    assert {r[2] for r in references} == {"games", "challenge_seeds"}
    for bad in ("", "x" * 101):
        with pytest.raises(sqlite3.IntegrityError):
            await conn.execute("INSERT INTO challenge_seeds VALUES (1, '2026-W48', ?, 1)", (bad,))
    assert not await conn.execute_fetchall("PRAGMA foreign_key_check")
