"""The migration runner on PostgreSQL: the same files, ``schema_version`` bookkeeping, one
transaction per migration, and two processes starting at once (tests/storage/test_migrate.py is
the same for SQLite)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
import pytest_asyncio

from services.storage import Database, DatabaseTooNew
from services.storage.migrate import MIGRATIONS_DIR, load_migrations, migrate_postgres, postgres_version
from tests.support.postgres import PostgresServer

LATEST = len(load_migrations(MIGRATIONS_DIR))


@pytest_asyncio.fixture
async def empty_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """A new database with no migration applied."""
    name = await postgres_server.create_database(migrated=False)
    try:
        yield postgres_server.url(name)
    finally:
        await postgres_server.drop_database(name)


@pytest_asyncio.fixture
async def conn(empty_url: str) -> AsyncIterator[asyncpg.Connection]:
    connection = await asyncpg.connect(empty_url)
    try:
        yield connection
    finally:
        await connection.close()


def migrations_dir(tmp_path: Path, *files: tuple[str, str]) -> Path:
    directory = tmp_path / "migrations"
    (directory / "postgresql").mkdir(parents=True, exist_ok=True)
    for name, sql in files:
        (directory / name).write_text(sql, encoding="utf-8")
    return directory


async def tables(conn: asyncpg.Connection) -> set[str]:
    rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    return {row[0] for row in rows} - {"schema_version"}


async def test_fresh_database_gets_every_migration_and_again_is_a_no_op(conn: asyncpg.Connection) -> None:
    assert await migrate_postgres(conn) == LATEST
    assert await postgres_version(conn) == LATEST
    assert {"games", "seats", "actions", "snapshots", "user_locales"} <= await tables(conn)
    # CREATE TABLE without IF NOT EXISTS would fail if anything were applied twice.
    assert await migrate_postgres(conn) == LATEST
    assert await conn.fetchval("SELECT count(*) FROM schema_version") == 1


async def test_database_at_version_one_gets_only_later_migrations(conn: asyncpg.Connection, tmp_path: Path) -> None:
    first = ("0001_first.sql", "CREATE TABLE first (x INTEGER);")
    await migrate_postgres(conn, migrations_dir(tmp_path, first))
    await conn.execute("INSERT INTO first VALUES (7)")
    directory = migrations_dir(
        tmp_path,
        first,
        ("0002_second.sql", "CREATE TABLE second (y TEXT);"),
        ("0003_third.sql", "ALTER TABLE first ADD z REAL;"),
    )
    assert await migrate_postgres(conn, directory) == 3
    assert {"first", "second"} <= await tables(conn)
    assert [tuple(r) for r in await conn.fetch("SELECT x, z FROM first")] == [(7, None)]


async def test_a_variant_file_replaces_its_migration_on_postgresql(conn: asyncpg.Connection, tmp_path: Path) -> None:
    directory = migrations_dir(tmp_path, ("0001_first.sql", "CREATE TABLE first (x INTEGER) STRICT, WITHOUT ROWID;"))
    (directory / "postgresql" / "0001_first.sql").write_text("CREATE TABLE first_pg (x INTEGER);")
    assert await migrate_postgres(conn, directory) == 1
    assert await tables(conn) == {"first_pg"}


async def test_a_variant_without_its_migration_is_refused(conn: asyncpg.Connection, tmp_path: Path) -> None:
    directory = migrations_dir(tmp_path, ("0001_first.sql", "CREATE TABLE first (x INTEGER);"))
    (directory / "postgresql" / "0001_frist.sql").write_text("CREATE TABLE first (x INTEGER);")
    with pytest.raises(Exception, match="0001_frist.sql"):
        await migrate_postgres(conn, directory)
    assert await tables(conn) == set()


async def test_failing_migration_rolls_back_entirely(conn: asyncpg.Connection, tmp_path: Path) -> None:
    directory = migrations_dir(
        tmp_path,
        ("0001_first.sql", "CREATE TABLE first (x INTEGER);"),
        (
            "0002_broken.sql",
            "CREATE TABLE second (y INTEGER);\nINSERT INTO first VALUES (1);\nINSERT INTO missing VALUES (1);",
        ),
    )
    with pytest.raises(asyncpg.UndefinedTableError, match="missing"):
        await migrate_postgres(conn, directory)
    assert await postgres_version(conn) == 1
    assert "second" not in await tables(conn)
    assert await conn.fetch("SELECT * FROM first") == []
    assert not conn.is_in_transaction()


async def test_database_newer_than_the_code_is_refused(conn: asyncpg.Connection, empty_url: str) -> None:
    await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    await conn.execute("INSERT INTO schema_version VALUES ($1)", LATEST + 5)
    with pytest.raises(DatabaseTooNew, match="newer version of the bot"):
        await Database.open(empty_url)
    assert await tables(conn) == set()


async def test_two_processes_starting_at_once_migrate_once(empty_url: str) -> None:
    first, second = await asyncpg.connect(empty_url), await asyncpg.connect(empty_url)
    try:
        assert await asyncio.gather(migrate_postgres(first), migrate_postgres(second)) == [LATEST, LATEST]
        assert await first.fetchval("SELECT version FROM schema_version") == LATEST
    finally:
        await first.close()
        await second.close()
