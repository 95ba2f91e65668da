"""The weekly challenge's rows: each week's seeds, the attempts, and the week's board.

The rules (modes, weeks, ranking) are ``league.weekly_challenge``.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from league import weekly_challenge as challenge
from league.weekly_challenge import Entry, ranked
from services.storage.connection import Connection, Link

if TYPE_CHECKING:
    from services.storage import Database


async def week_seed(db: Database, guild_id: int, week: str, mode: str) -> int:
    """The week's seed of ``mode`` on this server: drawn once, the same for everyone after."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT OR IGNORE INTO challenge_seeds (guild_id, week, mode, seed) VALUES (?, ?, ?, ?)",
            (guild_id, week, mode, secrets.randbits(63)),
        )
        async with conn.execute(
            "SELECT seed FROM challenge_seeds WHERE guild_id = ? AND week = ? AND mode = ?", (guild_id, week, mode)
        ) as cursor:
            row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def attempt_of(db: Database, guild_id: int, week: str, mode: str, user_id: int) -> int | None:
    """The game of this player's attempt at the week's ``mode``, if they made one."""
    rows = await db.query(
        "SELECT game_id FROM challenge_attempts WHERE guild_id = ? AND week = ? AND mode = ? AND user_id = ?",
        (guild_id, week, mode, user_id),
    )
    return rows[0][0] if rows else None


def recorder(guild_id: int, week: str, mode: str, user_ids: list[int]) -> Link:
    """What Database.create_game runs in its transaction: the attempt recorded with the table.

    The primary key refuses a second attempt by the same player even when two commands race.
    """

    async def record(conn: Connection, game_id: int) -> None:
        await conn.executemany(
            "INSERT INTO challenge_attempts (guild_id, week, mode, user_id, game_id) VALUES (?, ?, ?, ?, ?)",
            [(guild_id, week, mode, user, game_id) for user in user_ids],
        )

    return record


async def board(db: Database, guild_id: int, week: str, mode: str) -> tuple[list[Entry], int]:
    """The week's finished attempts of ``mode`` ranked (wins first, then score; ties share a
    rank), and how many attempts are still being played."""
    rows = await db.query(
        "SELECT a.game_id, a.user_id, g.status, r.score, r.won FROM challenge_attempts AS a"
        " JOIN games AS g ON g.id = a.game_id"
        " LEFT JOIN results AS r ON r.game_id = a.game_id AND r.user_id = a.user_id"
        " WHERE a.guild_id = ? AND a.week = ? AND a.mode = ? ORDER BY a.game_id, a.user_id",
        (guild_id, week, mode),
    )
    games: dict[int, list[Any]] = {}
    for row in rows:
        games.setdefault(row[0], []).append(row)
    finished = []
    playing = 0
    for game_id, members in games.items():
        if members[0][2] == "finished" and members[0][3] is not None:
            finished.append((game_id, tuple(m[1] for m in members), int(members[0][3]), bool(members[0][4])))
        elif members[0][2] in ("lobby", "running"):
            playing += 1
    return ranked(finished), playing


async def unfinished_challenge_week(db: Database, game_id: int, user_id: int) -> bool:
    """Whether ``game_id`` is a challenge game of a week whose same deal ``user_id`` has not
    finished playing (someone else's attempt, while theirs is open or not yet made)."""
    mine = await db.query(
        "SELECT a.guild_id, a.week, a.mode FROM challenge_attempts AS a WHERE a.game_id = ? LIMIT 1", (game_id,)
    )
    if not mine:
        return False
    guild_id, week, mode = mine[0]
    if not challenge.deal_is_secret(week, challenge.now()):
        return False  # a past week's deal is no secret any more
    own = await db.query(
        "SELECT g.status FROM challenge_attempts AS a JOIN games AS g ON g.id = a.game_id"
        " WHERE a.guild_id = ? AND a.week = ? AND a.mode = ? AND a.user_id = ?",
        (guild_id, week, mode, user_id),
    )
    return not own or own[0][0] not in ("finished", "abandoned")
