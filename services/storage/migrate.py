"""Numbered ``.sql`` migrations, applied in order and tracked by ``PRAGMA user_version``
(on PostgreSQL, by the one row of the table ``schema_version``).

A file named ``NNNN_name.sql`` brings the schema from version NNNN-1 to NNNN. Each file runs in
its own ``BEGIN IMMEDIATE`` transaction together with the new ``user_version``, so a failing
file leaves the database exactly as it was. Files must not contain transaction control
(BEGIN, COMMIT, ROLLBACK, SAVEPOINT): the runner owns the transaction.

The same numbered files make the same schema on PostgreSQL. A portable file (plain CREATE
TABLE / INDEX, ALTER TABLE ADD COLUMN) runs there translated (services.storage.dialect); a file that
uses SQLite-only SQL (GLOB, json_valid, triggers, rowid ids) has a PostgreSQL variant of the same
name in ``migrations/postgresql/``. tests/storage/test_schema_parity.py compares the two schemas.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import aiosqlite

from services.storage.dialect import migration_to_postgres

if TYPE_CHECKING:
    import asyncpg
    from asyncpg.pool import PoolConnectionProxy

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
POSTGRES_VARIANTS = "postgresql"  # the folder, inside the migrations folder, of PostgreSQL variants
# Migrations take this advisory lock (two-int4 key, "MEEP", 1): two processes starting at once
# never both apply one.
_MIGRATE_LOCK = (0x4D455550, 1)

_FILE_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
_TRANSACTION_CONTROL = re.compile(r"(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b", re.IGNORECASE)


class MigrationError(RuntimeError):
    """The migrations on disk, or the database, cannot be brought to the current schema."""


class DatabaseTooNew(MigrationError):
    """The database was written by a newer version of the bot than this one."""


@dataclass(frozen=True)
class Migration:
    """One migration file: its number, its name and its SQL text."""

    number: int
    name: str
    sql: str


def check_not_too_new(current: int, known: int) -> None:
    """Refuse a database migrated by newer code than this (``known`` migrations): both backends."""
    if current > known:
        raise DatabaseTooNew(
            f"the database is at schema version {current}, but this code only knows versions "
            f"up to {known}: run a newer version of the bot, or restore a matching backup"
        )


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Read every migration in ``directory``, refusing bad names, duplicates and gaps."""
    migrations: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _FILE_NAME.fullmatch(path.name)
        if match is None:
            raise MigrationError(f"{path}: a migration must be named NNNN_name.sql")
        sql = path.read_text(encoding="utf-8")
        for statement in split_statements(sql):
            if _TRANSACTION_CONTROL.match(_code(statement)):
                raise MigrationError(
                    f"{path}: a migration must not contain transaction control "
                    "(BEGIN, COMMIT, ROLLBACK, SAVEPOINT): the runner owns the transaction"
                )
        migrations.append(Migration(int(match[1]), match[2], sql))
    migrations.sort(key=lambda migration: migration.number)
    for expected, migration in enumerate(migrations, start=1):
        if migration.number < expected:
            raise MigrationError(f"two migrations in {directory} share number {migration.number:04d}")
        if migration.number > expected:
            raise MigrationError(f"migration {expected:04d} is missing from {directory}")
    return migrations


def split_statements(sql: str) -> list[str]:
    """Split a script into single statements, keeping trigger bodies whole."""
    statements: list[str] = []
    pending = ""
    for piece in sql.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statements.append(pending)
            pending = ""
    statements.append(pending)  # an unfinished tail fails loudly when it runs
    return [statement for statement in statements if _code(statement).rstrip(";").strip()]


def _code(sql: str) -> str:
    return re.sub(r"--[^\n]*|/\*.*?\*/", "", sql, flags=re.DOTALL).strip()


async def user_version(conn: aiosqlite.Connection) -> int:
    """Return the schema version recorded in the database."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def migrate(conn: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR) -> int:
    """Apply every migration newer than the database, one transaction each; return the version.

    ``conn`` must be in autocommit mode (``isolation_level=None``) with no open transaction.
    """
    migrations = load_migrations(directory)
    known = len(migrations)
    current = await user_version(conn)
    check_not_too_new(current, known)
    for migration in migrations[current:]:
        await _apply(conn, migration)
    return await user_version(conn)


async def _apply(conn: aiosqlite.Connection, migration: Migration) -> None:
    try:
        await conn.execute("BEGIN IMMEDIATE")
        # Another process may have migrated between our check and our write lock.
        if await user_version(conn) >= migration.number:
            await conn.execute("ROLLBACK")
            return
        for statement in split_statements(migration.sql):
            await conn.execute(statement)
        await conn.execute(f"PRAGMA user_version = {migration.number:d}")
        await conn.execute("COMMIT")
    except BaseException:
        await conn.rollback()
        raise


def postgres_sql(migration: Migration, directory: Path = MIGRATIONS_DIR) -> str:
    """The migration's text for PostgreSQL: its variant file if it has one, else the translated file."""
    variant = directory / POSTGRES_VARIANTS / f"{migration.number:04d}_{migration.name}.sql"
    if variant.is_file():
        return migration_to_postgres(variant.read_text(encoding="utf-8"), variant=True)
    return migration_to_postgres(migration.sql)


def orphan_variants(directory: Path = MIGRATIONS_DIR) -> list[str]:
    """PostgreSQL variant files that have no migration of the same name (a typo never runs silently)."""
    names = {path.name for path in directory.glob("*.sql")}
    return sorted(path.name for path in (directory / POSTGRES_VARIANTS).glob("*.sql") if path.name not in names)


async def postgres_version(conn: asyncpg.Connection | PoolConnectionProxy) -> int:
    """The schema version recorded in a PostgreSQL database (0 before the first migration)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


async def migrate_postgres(conn: asyncpg.Connection | PoolConnectionProxy, directory: Path = MIGRATIONS_DIR) -> int:
    """Apply every migration newer than the PostgreSQL database, one transaction each; return the version."""
    migrations = load_migrations(directory)
    orphans = orphan_variants(directory)
    if orphans:
        raise MigrationError(f"PostgreSQL variants without a migration of the same name: {', '.join(orphans)}")
    known = len(migrations)
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *_MIGRATE_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = await postgres_version(conn)
    check_not_too_new(current, known)
    for migration in migrations[current:]:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *_MIGRATE_LOCK)
            # Another process may have migrated between our check and our lock.
            if await postgres_version(conn) >= migration.number:
                continue
            await conn.execute(postgres_sql(migration, directory))
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", migration.number)
    return await postgres_version(conn)
