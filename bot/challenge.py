"""The weekly challenge: everyone on a server plays the same deal of a solo mode or Fox Duet level.

Every ISO week (UTC, from Monday 00:00) each server gets one seed per mode, drawn with
``secrets`` the first time anyone asks for it and stored, so a restart never changes the week's
deal. ``/meeple challenge`` opens the player's own table with that seed in a private thread;
the table is then played like any other. docs/CHALLENGE.md has the rules and the choices.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from bot.storage.connection import Connection
from engine.facts import ChallengeMode
from engine.registry import challenge_modes

if TYPE_CHECKING:
    from bot.storage import Database


Mode = ChallengeMode
MODES = challenge_modes()  # every game's declared modes (``Game.facts.challenge``), read live


def now() -> datetime:
    """The clock the challenge reads (a test moves it to another week)."""
    return datetime.now(UTC)


def week_of(moment: datetime) -> str:
    """The ISO week of ``moment`` in UTC, as stored: ``2026-W48``."""
    year, week, _ = moment.astimezone(UTC).isocalendar()
    return f"{year:04d}-W{week:02d}"


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


def recorder(guild_id: int, week: str, mode: str, user_ids: list[int]):
    """What Database.create_game runs in its transaction: the attempt recorded with the table.

    The primary key refuses a second attempt by the same player even when two commands race.
    """

    async def record(conn: Connection, game_id: int) -> None:
        await conn.executemany(
            "INSERT INTO challenge_attempts (guild_id, week, mode, user_id, game_id) VALUES (?, ?, ?, ?, ?)",
            [(guild_id, week, mode, user, game_id) for user in user_ids],
        )

    return record


@dataclass(frozen=True)
class Entry:
    """One finished attempt on the challenge board."""

    rank: int
    game_id: int
    user_ids: tuple[int, ...]
    score: int
    won: bool


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
    games: dict[int, list] = {}
    for row in rows:
        games.setdefault(row[0], []).append(row)
    finished = []
    playing = 0
    for game_id, members in games.items():
        if members[0][2] == "finished" and members[0][3] is not None:
            finished.append((game_id, tuple(m[1] for m in members), int(members[0][3]), bool(members[0][4])))
        elif members[0][2] in ("lobby", "running"):
            playing += 1
    # The games' own order: a win beats a loss (Fox Duet's target, Noctiluca's storm), then the
    # higher score; equal standing shares a rank (1, 1, 3).
    finished.sort(key=lambda f: (not f[3], -f[2], f[0]))
    entries: list[Entry] = []
    for n, (game_id, users, score, won) in enumerate(finished):
        same = entries and (entries[-1].won, entries[-1].score) == (won, score)
        rank = entries[-1].rank if same else n + 1
        entries.append(Entry(rank, game_id, users, score, won))
    return entries, playing


async def unfinished_challenge_week(db: Database, game_id: int, user_id: int) -> bool:
    """Whether ``game_id`` is a challenge game of a week whose same deal ``user_id`` has not
    finished playing (someone else's attempt, while theirs is open or not yet made)."""
    mine = await db.query(
        "SELECT a.guild_id, a.week, a.mode FROM challenge_attempts AS a WHERE a.game_id = ? LIMIT 1", (game_id,)
    )
    if not mine:
        return False
    guild_id, week, mode = mine[0]
    if week != week_of(now()):
        return False  # a past week's deal is no secret any more
    own = await db.query(
        "SELECT g.status FROM challenge_attempts AS a JOIN games AS g ON g.id = a.game_id"
        " WHERE a.guild_id = ? AND a.week = ? AND a.mode = ? AND a.user_id = ?",
        (guild_id, week, mode, user_id),
    )
    return not own or own[0][0] not in ("finished", "abandoned")
