"""The migration runner against real database files."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest
import pytest_asyncio

from services.storage import Database, DatabaseTooNew
from services.storage.migrate import MIGRATIONS_DIR, load_migrations, migrate, user_version

pytestmark = pytest.mark.asyncio

LATEST = len(load_migrations(MIGRATIONS_DIR))


@pytest_asyncio.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """Open a bare autocommit connection to a new file, as Database.open does."""
    connection = await aiosqlite.connect(tmp_path / "migrate.db", isolation_level=None)
    try:
        yield connection
    finally:
        await connection.close()


def migrations_dir(tmp_path: Path, *files: tuple[str, str]) -> Path:
    directory = tmp_path / "migrations"
    directory.mkdir(exist_ok=True)
    for name, sql in files:
        (directory / name).write_text(sql, encoding="utf-8")
    return directory


async def tables(conn: aiosqlite.Connection) -> set[str]:
    rows = await conn.execute_fetchall("SELECT name FROM sqlite_schema WHERE type = 'table'")
    return {row[0] for row in rows}


async def test_fresh_database_gets_every_migration(conn: aiosqlite.Connection) -> None:
    assert await migrate(conn) == LATEST
    assert await user_version(conn) == LATEST
    assert {"games", "seats", "actions", "snapshots"} <= await tables(conn)


async def test_running_migrations_again_is_a_no_op(conn: aiosqlite.Connection) -> None:
    await migrate(conn)
    schema = await conn.execute_fetchall("SELECT sql FROM sqlite_schema ORDER BY name")
    # CREATE TABLE without IF NOT EXISTS would fail if anything were applied twice.
    assert await migrate(conn) == LATEST
    assert await conn.execute_fetchall("SELECT sql FROM sqlite_schema ORDER BY name") == schema


async def test_database_at_version_one_gets_only_later_migrations(conn: aiosqlite.Connection, tmp_path: Path) -> None:
    first = ("0001_first.sql", "CREATE TABLE first (x INTEGER);")
    await migrate(conn, migrations_dir(tmp_path, first))
    await conn.execute("INSERT INTO first VALUES (7)")
    directory = migrations_dir(
        tmp_path, first, ("0002_second.sql", "CREATE TABLE second (y);"), ("0003_third.sql", "ALTER TABLE first ADD z;")
    )
    assert await migrate(conn, directory) == 3
    assert {"first", "second"} <= await tables(conn)
    assert await conn.execute_fetchall("SELECT x, z FROM first") == [(7, None)]


async def test_failing_migration_rolls_back_entirely(conn: aiosqlite.Connection, tmp_path: Path) -> None:
    directory = migrations_dir(
        tmp_path,
        ("0001_first.sql", "CREATE TABLE first (x);"),
        ("0002_broken.sql", "CREATE TABLE second (y);\nINSERT INTO first VALUES (1);\nINSERT INTO missing VALUES (1);"),
    )
    with pytest.raises(sqlite3.OperationalError, match="no such table: missing"):
        await migrate(conn, directory)
    assert await user_version(conn) == 1
    assert "second" not in await tables(conn)
    assert await conn.execute_fetchall("SELECT * FROM first") == []
    assert not conn.in_transaction


async def test_database_newer_than_the_code_is_refused(conn: aiosqlite.Connection) -> None:
    await conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(DatabaseTooNew, match=f"schema version {LATEST + 1}"):
        await migrate(conn)
    assert await user_version(conn) == LATEST + 1
    assert await tables(conn) == set()


async def test_open_refuses_a_database_newer_than_the_code(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as plain:
        plain.execute(f"PRAGMA user_version = {LATEST + 5}")
    plain.close()
    with pytest.raises(DatabaseTooNew, match="newer version of the bot"):
        await Database.open(path)
