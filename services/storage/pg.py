"""The PostgreSQL backend (asyncpg): a pool, real transactions, the SQLite dialect translated.

Writes keep SQLite's guarantee that a transaction never interleaves with another writer's,
across every bot process sharing the database: each transaction first takes a transaction-level
advisory lock. A transaction on one game (``transaction(game_id=...)``, a move) takes the
shared write lock and that game's own lock, so moves of different games run side by side and
two moves of one game never do; any other transaction takes the write lock exclusively, as
SQLite's ``BEGIN IMMEDIATE`` does. Reads run outside transactions and see committed data.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine, Generator, Iterable, Iterator
from contextlib import asynccontextmanager
from decimal import Decimal
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from services import metrics
from services.storage.connection import Row
from services.storage.dialect import Statement, integrity_error, to_postgres
from services.storage.migrate import migrate_postgres

# Advisory lock keys (the two-int4 form; a game's lock is the one-bigint form, its id: PostgreSQL
# keeps the two key spaces apart). 0x4D455550 is "MEEP".
_WRITE_LOCK = (0x4D455550, 0)
POOL_SIZE = 10
_CACHE_LIMIT = 4096  # translated statements kept (the bot has a few hundred distinct texts)
RawConnection = asyncpg.Connection | PoolConnectionProxy  # a pooled connection is a proxy


def is_postgres_url(target: object) -> bool:
    """Whether a database setting names a PostgreSQL server rather than a SQLite file."""
    return isinstance(target, str) and target.strip().lower().startswith(("postgresql://", "postgres://"))


def _value(value: Any) -> Any:
    # SUM and AVG of integers are numeric in PostgreSQL: give back what SQLite gives, int or float.
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


class PgRow:
    """A result row read like ``sqlite3.Row``: by column name or position, ``keys()``, iteration."""

    __slots__ = ("_names", "_values")

    def __init__(self, names: dict[str, int], values: tuple[Any, ...]) -> None:
        self._names = names
        self._values = values

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return self._values[self._names[key]]
        return self._values[key]

    def keys(self) -> list[str]:
        return list(self._names)

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PgRow):
            return self._values == other._values and self._names == other._names
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values)

    def __repr__(self) -> str:
        return f"PgRow({dict(zip(self._names, self._values, strict=True))!r})"


def _rows(records: list[asyncpg.Record]) -> list[PgRow]:
    if not records:
        return []
    names = {name: index for index, name in enumerate(records[0].keys())}
    return [PgRow(names, tuple(_value(v) for v in record.values())) for record in records]


def _params(parameters: Iterable[Any] | None) -> list[Any]:
    # SQLite stores True as 1; the columns are integers on both backends.
    return [int(p) if isinstance(p, bool) else p for p in (parameters or ())]


class PgCursor:
    """One statement's outcome, as an aiosqlite cursor shows it."""

    def __init__(self, rows: list[PgRow], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> PgRow | None:
        return self._rows.pop(0) if self._rows else None

    async def fetchall(self) -> list[PgRow]:
        rows, self._rows = self._rows, []
        return rows


class _Result:
    """Awaitable and an async context manager, like aiosqlite's ``conn.execute(...)``."""

    def __init__(self, pending: Coroutine[Any, Any, PgCursor]) -> None:
        self._pending = pending

    def __await__(self) -> Generator[Any, None, PgCursor]:
        return self._pending.__await__()

    async def __aenter__(self) -> PgCursor:
        return await self

    async def __aexit__(self, *exc_info: Any) -> None:
        return None


class PgConnection:
    """An asyncpg connection that speaks the bot's SQLite dialect (services.storage.connection.Connection)."""

    def __init__(self, raw: RawConnection, translate: Callable[[str], Statement]) -> None:
        self.raw = raw
        self._translate = translate

    def execute(self, sql: str, parameters: Iterable[Any] | None = None, /) -> _Result:
        return _Result(self._run(self._translate(sql), _params(parameters)))

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] | None = None, /) -> list[PgRow]:
        cursor = await self._run(self._translate(sql), _params(parameters))
        return await cursor.fetchall()

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> None:
        statement = to_postgres(sql)  # no RETURNING: the ids of a batch are never asked for
        batch = [_params(p) for p in parameters]
        if not batch:
            return
        metrics.DB_STATEMENTS.inc()
        try:
            await self.raw.executemany(statement.sql, batch)
        except asyncpg.PostgresError as exc:
            raise (integrity_error(exc) or exc) from exc

    async def _run(self, statement: Statement, args: list[Any]) -> PgCursor:
        metrics.DB_STATEMENTS.inc()
        try:
            if statement.returns_rows:
                records = await self.raw.fetch(statement.sql, *args)
                rows, count = _rows(records), len(records)
            else:
                status = await self.raw.execute(statement.sql, *args)
                rows, last = [], status.rsplit(" ", 1)[-1]
                count = int(last) if last.isdigit() else -1
        except asyncpg.PostgresError as exc:
            raise (integrity_error(exc) or exc) from exc
        if statement.returns_id:
            # RETURNING id was added for lastrowid: the caller asked for no rows.
            return PgCursor([], count, rows[-1]["id"] if rows else None)
        return PgCursor(rows, count, None)


class PgBackend:
    """A pool of connections to one PostgreSQL database, migrated at open."""

    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, id_tables: frozenset[str]) -> None:
        self._pool = pool
        self._id_tables = id_tables
        self._cache: dict[str, Statement] = {}
        self._holders: set[asyncio.Task[Any]] = set()

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PgBackend:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        try:
            async with pool.acquire() as conn:
                await migrate_postgres(conn)
                records = await conn.fetch(
                    "SELECT table_name FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND column_name = 'id' AND is_identity = 'YES'"
                )
        except BaseException:
            await pool.close()
            raise
        return cls(pool, frozenset(r["table_name"] for r in records))

    def translate(self, sql: str) -> Statement:
        statement = self._cache.get(sql)
        if statement is None:
            if len(self._cache) >= _CACHE_LIMIT:  # texts built with f-strings vary; keep memory bounded
                self._cache.clear()
            statement = self._cache[sql] = to_postgres(sql, self._id_tables)
        return statement

    def _check_not_holding(self) -> asyncio.Task[Any] | None:
        task = asyncio.current_task()
        if task is not None and task in self._holders:
            # The same rule as on SQLite, where the call would wait for its own lock forever.
            raise RuntimeError("Database method called inside db.transaction(); use its conn")
        return task

    @asynccontextmanager
    async def transaction(self, game_id: int | None = None) -> AsyncIterator[PgConnection]:
        task = self._check_not_holding()
        async with self._pool.acquire() as raw:
            transaction = raw.transaction()
            metrics.DB_STATEMENTS.inc()  # BEGIN
            await transaction.start()
            if task is not None:
                self._holders.add(task)
            try:
                metrics.DB_STATEMENTS.inc()
                if game_id is None:
                    await raw.execute("SELECT pg_advisory_xact_lock($1, $2)", *_WRITE_LOCK)
                else:
                    # One round trip for both locks, taken in this order (the write lock first).
                    await raw.execute(
                        "SELECT pg_advisory_xact_lock_shared($1, $2), pg_advisory_xact_lock($3)", *_WRITE_LOCK, game_id
                    )
                yield PgConnection(raw, self.translate)
                metrics.DB_STATEMENTS.inc()  # COMMIT
                await transaction.commit()
            except BaseException:
                metrics.DB_STATEMENTS.inc()  # ROLLBACK
                try:
                    await asyncio.shield(transaction.rollback())
                except Exception:  # the pool closes a connection left in a transaction on release
                    pass
                raise
            finally:
                self._holders.discard(task)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[PgConnection]:
        self._check_not_holding()
        async with self._pool.acquire() as raw:
            yield PgConnection(raw, self.translate)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        async with self.reading() as conn:
            return list(await conn.execute_fetchall(sql, params))

    async def close(self) -> None:
        await self._pool.close()
