"""The same numbered migrations make the same schema on SQLite and on PostgreSQL.

Compared after every migration, from empty databases: tables, columns (in order, with their
type family and NOT NULL), primary keys, unique constraints, indexes (columns, uniqueness,
partial or not), foreign keys (with ON DELETE) and triggers. CHECK constraints are not compared
as text (the dialects differ); the storage suite, which runs on both, tests them by behaviour.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from services.storage import Database
from services.storage.dialect import NotPortable, glob_to_regex, migration_to_postgres, to_postgres
from services.storage.migrate import MIGRATIONS_DIR, load_migrations, orphan_variants, postgres_sql
from tests.support.postgres import PostgresServer

Schema = dict[str, dict[str, Any]]
_TYPES = {"integer": "integer", "bigint": "integer", "text": "text", "real": "real", "double precision": "real"}


def sqlite_schema(path: Path) -> Schema:
    conn = sqlite3.connect(path)
    try:
        schema: Schema = {}
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in sorted(t for t in tables if not t.startswith("sqlite_")):
            info = conn.execute(f"PRAGMA table_xinfo({table})").fetchall()
            columns = [(name, _TYPES[kind.lower()], bool(notnull or pk)) for _, name, kind, notnull, _, pk, _ in info]
            primary = [name for _, name, *_, pk, _ in sorted(info, key=lambda r: r[5]) if pk]
            unique, indexes = [], []
            for _, name, is_unique, origin, partial in conn.execute(f"PRAGMA index_list({table})"):
                cols = [r[2] for r in conn.execute(f"PRAGMA index_info({name})")]
                if origin == "u":
                    unique.append(tuple(cols))
                elif origin == "c":
                    indexes.append((name, tuple(cols), bool(is_unique), bool(partial)))
            foreign = [(r[3], r[2], r[4], r[6]) for r in conn.execute(f"PRAGMA foreign_key_list({table})").fetchall()]
            triggers = [
                r[0]
                for r in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", (table,)
                )
            ]
            schema[table] = {
                "columns": columns,
                "primary key": primary,
                "unique": sorted(unique),
                "indexes": sorted(indexes),
                "foreign keys": sorted(_group(foreign)),
                "triggers": sorted(triggers),
            }
        return schema
    finally:
        conn.close()


def _group(rows: list[tuple[str, str, str, str]]) -> list[tuple[str, tuple[str, ...], tuple[str, ...], str]]:
    """SQLite lists a composite foreign key one column per row: one tuple per key."""
    keys: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    for column, table, target, on_delete in rows:
        mine, theirs = keys.setdefault((table, on_delete), ([], []))
        mine.append(column)
        theirs.append(target)
    return [(table, tuple(m), tuple(t), on_delete) for (table, on_delete), (m, t) in keys.items()]


async def postgres_schema(url: str) -> Schema:
    conn = await asyncpg.connect(url)
    try:
        schema: Schema = {}
        tables = await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_type = 'BASE TABLE' AND table_name <> 'schema_version' ORDER BY table_name"
        )
        for (table,) in tables:
            info = await conn.fetch(
                "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
                table,
            )
            constraints = await conn.fetch(
                "SELECT c.contype::text AS contype, c.confdeltype::text AS confdeltype, f.relname AS target,"
                " ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)"
                "       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i) AS cols,"
                " ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i)"
                "       JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i) AS refs"
                " FROM pg_constraint c LEFT JOIN pg_class f ON f.oid = c.confrelid"
                " WHERE c.conrelid = $1::regclass",
                table,
            )
            indexes = await conn.fetch(
                "SELECT i.relname, x.indisunique, x.indpred IS NOT NULL AS partial,"
                " ARRAY(SELECT a.attname FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(n, o)"
                "       JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n ORDER BY k.o) AS cols"
                " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                " WHERE x.indrelid = $1::regclass"
                " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)",
                table,
            )
            triggers = await conn.fetch(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal", table
            )
            deletes = {"c": "CASCADE", "a": "NO ACTION"}
            [primary] = [list(c["cols"]) for c in constraints if c["contype"] == "p"] or [[]]
            schema[table] = {
                "columns": [(r["column_name"], _TYPES[r["data_type"]], r["is_nullable"] == "NO") for r in info],
                "primary key": primary,
                "unique": sorted(tuple(c["cols"]) for c in constraints if c["contype"] == "u"),
                "indexes": sorted((r["relname"], tuple(r["cols"]), r["indisunique"], r["partial"]) for r in indexes),
                "foreign keys": sorted(
                    (c["target"], tuple(c["cols"]), tuple(c["refs"]), deletes[c["confdeltype"]])
                    for c in constraints
                    if c["contype"] == "f"
                ),
                "triggers": sorted(r["tgname"] for r in triggers),
            }
        return schema
    finally:
        await conn.close()


async def test_every_migration_makes_the_same_schema_on_both(tmp_path: Path, postgres_server: PostgresServer) -> None:
    name = await postgres_server.create_database(migrated=False)
    try:
        url = postgres_server.url(name)
        pg = await Database.open(url)
        await pg.close()
        lite = await Database.open(tmp_path / "m.db")
        await lite.close()
        on_sqlite, on_postgres = sqlite_schema(tmp_path / "m.db"), await postgres_schema(url)
        assert sorted(on_sqlite) == sorted(on_postgres)
        for table in on_sqlite:
            assert on_sqlite[table] == on_postgres[table], table
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT version FROM schema_version") == len(load_migrations())
        finally:
            await conn.close()
    finally:
        await postgres_server.drop_database(name)


def test_every_variant_has_its_migration_and_every_migration_translates() -> None:
    assert orphan_variants() == []
    for migration in load_migrations():
        assert postgres_sql(migration, MIGRATIONS_DIR).strip()


def test_sqlite_only_sql_in_a_portable_migration_is_refused() -> None:
    for text in ("CREATE TRIGGER t BEFORE UPDATE ON x BEGIN SELECT 1; END;", "PRAGMA user_version = 3;"):
        with pytest.raises(NotPortable):
            migration_to_postgres(text)
    # The words in a comment or a string are not SQL.
    assert "BIGINT" in migration_to_postgres("-- a PRAGMA here\nCREATE TABLE t (x INTEGER DEFAULT 'PRAGMA');")


def test_portable_migration_translation() -> None:
    text = migration_to_postgres(
        "CREATE TABLE t (n INTEGER NOT NULL, r REAL, s TEXT CHECK (s GLOB '??-*'),"
        " w TEXT CHECK (w NOT GLOB '*[^a-z]*'),"
        " at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))) STRICT, WITHOUT ROWID;"
    )
    assert "n BIGINT NOT NULL" in text and "r DOUBLE PRECISION" in text and 's TEXT COLLATE "C"' in text
    assert "s ~ '^..-.*$'" in text and "w !~ '^.*[^a-z].*$'" in text
    assert "statement_timestamp()" in text and "STRICT" not in text and "ROWID" not in text
    assert glob_to_regex("a.b(c)") == r"^a\.b\(c\)$"


def test_statement_translation() -> None:
    insert = to_postgres("INSERT INTO games (a, b) VALUES (?, '?') -- why?", frozenset({"games"}))
    assert insert.sql == "INSERT INTO games (a, b) VALUES ($1, '?') RETURNING id"
    assert insert.returns_rows and insert.returns_id
    ignore = to_postgres("INSERT OR IGNORE INTO t (k) VALUES (?)")
    assert ignore.sql == "INSERT INTO t (k) VALUES ($1) ON CONFLICT DO NOTHING" and not ignore.returns_rows
    clock = to_postgres("UPDATE t SET at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? RETURNING id")
    assert clock.returns_rows and not clock.returns_id and "statement_timestamp()" in clock.sql and "$1" in clock.sql
    assert to_postgres("SELECT * FROM t WHERE a = ? AND b = ?").sql.endswith("a = $1 AND b = $2")
    with pytest.raises(NotPortable):
        to_postgres("INSERT OR REPLACE INTO t (k) VALUES (?)")
