"""Computer seats' rows (migration 0011): which seats are computers and at which level, the
takeover option, and a computer taking a leaving player's seat (``services.computer_turns`` plays them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage.connection import Connection, Link

if TYPE_CHECKING:
    from services.storage import Database


def recorder(levels: dict[int, str], takeover: bool = False) -> Link:
    """What Database.create_game runs in its transaction: the computer seats and the takeover
    option with the table."""

    async def record(conn: Connection, game_id: int) -> None:
        await conn.executemany(
            "INSERT INTO computer_seats (game_id, seat, level) VALUES (?, ?, ?)",
            [(game_id, seat, level) for seat, level in levels.items()],
        )
        if takeover:
            await conn.execute("UPDATE games SET takeover = 1 WHERE id = ?", (game_id,))

    return record


async def takeover_asked(db: Database, game_id: int) -> bool:
    """Whether the table was made with computers taking over the seats of players who leave."""
    rows = await db.query("SELECT takeover FROM games WHERE id = ?", (game_id,))
    return bool(rows and rows[0][0])


async def seated(db: Database, game_id: int) -> list[int]:
    """The users seated at a game, computers included."""
    return [r[0] for r in await db.query("SELECT user_id FROM seats WHERE game_id = ?", (game_id,))]


async def take_seat(
    db: Database, game_id: int, seat: int, leaving: int, choose: Callable[[set[int]], tuple[int, str]]
) -> str:
    """A normal computer takes the seat of ``leaving`` (one transaction); its name.

    ``choose`` gets the users seated and gives the computer's user id and name."""
    async with db.transaction() as conn:
        async with conn.execute("SELECT user_id FROM seats WHERE game_id = ?", (game_id,)) as cursor:
            taken = {r[0] for r in await cursor.fetchall()}
        user, label = choose(taken)
        await conn.execute(
            "UPDATE seats SET user_id = ?, display_name = ? WHERE game_id = ? AND seat = ? AND user_id = ?",
            (user, label, game_id, seat, leaving),
        )
        await conn.execute(
            "INSERT INTO computer_seats (game_id, seat, level, left_user) VALUES (?, ?, 'normal', ?)",
            (game_id, seat, leaving),
        )
    return label


async def left_players(db: Database, game_id: int) -> dict[int, int]:
    """Seats a computer took over: seat -> the player who left it (their result is a forfeit)."""
    rows = await db.query(
        "SELECT seat, left_user FROM computer_seats WHERE game_id = ? AND left_user IS NOT NULL", (game_id,)
    )
    return {r[0]: r[1] for r in rows}


async def running_with_computers(db: Database, owned: Shards = ALL_SHARDS) -> list[int]:
    """The running games with a computer seat of this process's guilds (start-up pokes them: one
    may be due to move)."""
    rows = await db.query(
        "SELECT DISTINCT c.game_id FROM computer_seats c JOIN games g ON g.id = c.game_id"
        f" WHERE g.status = 'running' AND {owned.sql('g.guild_id')} ORDER BY c.game_id"
    )
    return [r[0] for r in rows]


async def levels_of(db: Database, game_id: int) -> dict[int, str]:
    rows = await db.query("SELECT seat, level FROM computer_seats WHERE game_id = ?", (game_id,))
    return {r[0]: r[1] for r in rows}
