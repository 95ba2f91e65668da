"""Read (or change) the bot's database from a test, whichever backend the bot runs on.

``stored(config.database, sql, params)`` takes the bot's SQLite dialect (``?`` marks) and gives
rows read by name or position: through sqlite3 for a file, through asyncpg (in a thread of its
own, so a synchronous helper works inside an async test) for a ``postgresql://`` URL.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import asyncpg

from services.storage.dialect import to_postgres
from services.storage.pg import PgRow, is_postgres_url


def stored(database: Path | str, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[Any]:
    """Run one statement on the bot's database (committed at once) and return its rows."""
    if not is_postgres_url(database):
        with sqlite3.connect(database) as conn:
            conn.row_factory = sqlite3.Row
            return list(conn.execute(sql, tuple(params)))
    result: list[Any] = []
    failure: list[BaseException] = []

    async def run() -> None:
        statement = to_postgres(sql)
        conn = await asyncpg.connect(str(database))
        try:
            if statement.returns_rows:
                records = await conn.fetch(statement.sql, *params)
                if records:
                    names = {name: index for index, name in enumerate(records[0].keys())}
                    result.extend(PgRow(names, tuple(record.values())) for record in records)
            else:
                await conn.execute(statement.sql, *params)
        finally:
            await conn.close()

    def work() -> None:
        try:
            asyncio.run(run())
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result
