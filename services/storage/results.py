"""A finished game's results (and the ratings they move), stored in the transaction that finished it.

A module of its own, below ``db`` and ``async_play``, because ``Database.commit_move`` stores them
in the move's transaction and ``async_play`` builds on the database: neither imports the other back.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from league.final_results import ResultLine
from services.storage import ratings
from services.storage.connection import Connection
from services.storage.dialect import stamp

if TYPE_CHECKING:
    from services.storage.db import GameRow


async def insert_results(conn: Connection, row: GameRow, results: Sequence[ResultLine], finished: str) -> None:
    await conn.executemany(
        "INSERT OR IGNORE INTO results (game_id, seat, user_id, game, score, rank, won, forfeited, finished_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (row.id, seat, user, row.game, score, rank, int(won), int(forfeited), finished)
            for seat, user, score, rank, won, forfeited in results
        ],
    )


async def store_results(conn: Connection, row: GameRow, results: Sequence[ResultLine]) -> None:
    """Store a game's results, and move the ratings of a rated table on a server, inside the
    transaction of the move that finished it (Database.commit_move): ``row`` is the game as that
    move's guarded update left it, so this is the game's first and only finish, and the ratings
    move from the rows given (nothing else can have stored or rated it)."""
    finished = stamp(row.finished_at or datetime.now(UTC))
    await insert_results(conn, row, results, finished)
    if row.rated and row.guild_id is not None and results:
        placed = [(user, rank) for _, user, _, rank, _, _ in results]
        await ratings.rate_game(conn, row.id, row.guild_id, row.game, finished, placed, first=True)
