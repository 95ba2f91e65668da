"""What the storage code may use of a connection, on SQLite (aiosqlite) and PostgreSQL alike.

The SQLite backend hands out aiosqlite's own connection; the PostgreSQL backend a small wrapper
(services.storage.pg) with the same methods. Rows are read by column name or by position.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Iterable, Iterator
from typing import Any, Protocol


class Row(Protocol):
    """One result row: ``row["name"]`` or ``row[0]``, ``row.keys()``."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Any: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...


class Cursor(Protocol):
    """The result of one statement: its rows, how many rows it changed, the id it inserted."""

    @property
    def rowcount(self) -> int: ...

    @property
    def lastrowid(self) -> int | None: ...

    async def fetchone(self) -> Any: ...

    async def fetchall(self) -> Iterable[Any]: ...


class CursorResult(Protocol):
    """``await conn.execute(...)`` or ``async with conn.execute(...) as cursor``."""

    def __await__(self) -> Generator[Any, None, Cursor]: ...

    async def __aenter__(self) -> Cursor: ...

    async def __aexit__(self, *exc_info: Any) -> Any: ...


class Connection(Protocol):
    """A connection inside ``Database.transaction()`` (or a read): the SQLite dialect, ``?`` marks."""

    def execute(self, sql: str, parameters: Iterable[Any] | None = None, /) -> CursorResult: ...

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> Awaitable[Any]: ...

    def execute_fetchall(self, sql: str, parameters: Iterable[Any] | None = None, /) -> Awaitable[Iterable[Any]]: ...


# What ``Database.create_game`` runs in its transaction once the game has its id (a computer
# seat, a challenge attempt, a tournament pairing recorded with the table).
Link = Callable[[Connection, int], Awaitable[None]]
