"""Storage for async play: reminder bookkeeping, server settings, vacations and results.

Functions over an open ``Database``; every write is one transaction. Times passed in are aware
datetimes; they are stored in the same text form SQLite writes for its own timestamps.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from league.final_results import ResultLine
from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage import ratings
from services.storage.db import Database, GameRow
from services.storage.dialect import parse_stamp, stamp
from services.storage.results import insert_results

TIMEOUT_ACTIONS = ("auto", "skip", "forfeit")
SETTING_FIELDS = (
    "reminder_hours",
    "time_limit_hours",
    "timeout_action",
    "creator_role_id",
    "use_threads",
    "idle_days",
    "challenge_enabled",
    "challenge_channel_id",
    "language",
)


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    reminder_hours: int | None = None
    time_limit_hours: int | None = None
    timeout_action: str | None = None
    creator_role_id: int | None = None
    use_threads: bool = False
    idle_days: int = 30
    challenge_enabled: bool = True
    challenge_channel_id: int | None = None
    language: str | None = None  # the default language of new tables; None: the server's own locale


@dataclass(frozen=True)
class ResultRow:
    game_id: int
    seat: int
    user_id: int
    game: str
    score: int
    rank: int
    won: bool
    forfeited: bool
    finished_at: datetime


async def set_timing(
    db: Database, game_id: int, reminder_hours: int | None, time_limit_hours: int | None, timeout_action: str | None
) -> None:
    """Store a game's reminder interval, time limit and time-out consequence."""
    if timeout_action is not None and timeout_action not in TIMEOUT_ACTIONS:
        raise ValueError(f"timeout_action must be one of {TIMEOUT_ACTIONS}")
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE games SET reminder_hours = ?, time_limit_hours = ?, timeout_action = ?, due_version = NULL"
            " WHERE id = ?",
            (reminder_hours, time_limit_hours, timeout_action, game_id),
        )


async def snooze(db: Database, game_id: int, version: int) -> bool:
    """Stop reminders for the wait at ``version``; False if the game has moved on."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE games SET snoozed_version = ? WHERE id = ? AND version = ? AND status = 'running'",
            (version, game_id, version),
        )
        return cursor.rowcount == 1


async def guild_settings(db: Database, guild_id: int) -> GuildSettings:
    rows = await db.query("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return _settings(rows[0]) if rows else GuildSettings(guild_id)


def _settings(row: Any) -> GuildSettings:
    return GuildSettings(
        row["guild_id"],
        row["reminder_hours"],
        row["time_limit_hours"],
        row["timeout_action"],
        row["creator_role_id"],
        bool(row["use_threads"]),
        row["idle_days"],
        bool(row["challenge_enabled"]),
        row["challenge_channel_id"],
        row["language"],
    )


async def update_guild_settings(db: Database, guild_id: int, **values: object) -> GuildSettings:
    """Change some of a server's settings; the others keep their values."""
    unknown = sorted(set(values) - set(SETTING_FIELDS))
    if unknown:
        raise ValueError(f"unknown setting {unknown[0]!r}")
    if values.get("timeout_action") not in (None, *TIMEOUT_ACTIONS):
        raise ValueError(f"timeout_action must be one of {TIMEOUT_ACTIONS}")
    async with db.transaction() as conn:
        await conn.execute("INSERT OR IGNORE INTO guild_settings (guild_id) VALUES (?)", (guild_id,))
        for name, value in values.items():
            stored = int(value) if isinstance(value, bool) else value
            await conn.execute(f"UPDATE guild_settings SET {name} = ? WHERE guild_id = ?", (stored, guild_id))
        # Shorter reminders or idle days may bring the server's games' due times closer.
        await conn.execute("UPDATE games SET due_version = NULL WHERE guild_id = ? AND status = 'running'", (guild_id,))
    return await guild_settings(db, guild_id)


async def add_vacation(db: Database, user_id: int, starts: datetime, ends: datetime) -> None:
    if ends <= starts:
        raise ValueError("a vacation must end after it starts")
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO vacations (user_id, starts_at, ends_at) VALUES (?, ?, ?)",
            (user_id, stamp(starts), stamp(ends)),
        )


async def end_vacation(db: Database, user_id: int, now: datetime) -> bool:
    """Cut short any vacation running at ``now``; True if there was one."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE vacations SET ends_at = ? WHERE user_id = ? AND starts_at <= ? AND ends_at > ?",
            (stamp(now), user_id, stamp(now), stamp(now)),
        )
        if cursor.rowcount == 0:
            return False
        # Their clock runs again from now: their games may come due sooner than worked out.
        await conn.execute(
            "UPDATE games SET due_version = NULL WHERE status = 'running'"
            " AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
            (user_id,),
        )
        return True


async def vacations(db: Database, user_id: int) -> list[tuple[datetime, datetime]]:
    rows = await db.query("SELECT starts_at, ends_at FROM vacations WHERE user_id = ? ORDER BY starts_at", (user_id,))
    return [(parse_stamp(r["starts_at"]), parse_stamp(r["ends_at"])) for r in rows]


# Ids per ``IN (...)`` list: far below SQLite's and PostgreSQL's limits on parameters.
IN_CHUNK = 500


def _chunks(ids: Iterable[int]) -> list[list[int]]:
    unique = sorted(set(ids))
    return [unique[i : i + IN_CHUNK] for i in range(0, len(unique), IN_CHUNK)]


def _marks(ids: Sequence[int]) -> str:
    return ", ".join("?" for _ in ids)


@dataclass(frozen=True)
class DueRow:
    """The columns of ``games`` that say when a game can next need the scheduler."""

    id: int
    guild_id: int | None
    version: int
    updated_at: datetime
    reminder_hours: int | None
    time_limit_hours: int | None
    reminded_version: int | None
    reminders_sent: int
    snoozed_version: int | None
    warned_version: int | None


_DUE_COLUMNS = (
    "id, guild_id, version, updated_at, reminder_hours, time_limit_hours, reminded_version, reminders_sent,"
    " snoozed_version, warned_version"
)


async def due_page(
    db: Database, now: datetime, after_id: int = 0, limit: int = 500, owned: Shards = ALL_SHARDS
) -> list[DueRow]:
    """One page of the running games the scheduler must look at ``now``, the ``limit`` first
    with an id above ``after_id`` (keyset paging: the next page starts after this page's last
    id): due by their stored due time, or never worked out for their current version.

    The page's ids come from the ``games_due`` index alone (it holds every column the filter
    reads); only their rows are read then, never a row that is not due, nor a JSON column
    (``running_by_id`` reads the whole rows of those that need them). The ``+id`` keeps SQLite's
    planner from walking the games in id order instead, reading every running game's row to
    test it (its choice for the plain ``id``: 85-120 ms for 10,000 games with five due, against
    2-10 ms). A process serving some shards reads the rows it filters (the index has no guild).
    """
    rows = await db.query(
        f"SELECT {_DUE_COLUMNS} FROM games WHERE id IN (SELECT id FROM games WHERE status = 'running'"
        " AND (due_version IS NULL OR due_version <> version OR due_at <= ?)"
        f" AND +id > ? AND {owned.sql()} ORDER BY +id LIMIT ?) ORDER BY id",
        (stamp(now), after_id, limit),
    )
    return [_due_row(r) for r in rows]


def _due_row(r: Any) -> DueRow:
    return DueRow(
        r["id"],
        r["guild_id"],
        r["version"],
        parse_stamp(r["updated_at"]),
        r["reminder_hours"],
        r["time_limit_hours"],
        r["reminded_version"],
        r["reminders_sent"],
        r["snoozed_version"],
        r["warned_version"],
    )


async def running_by_id(db: Database, game_ids: Iterable[int]) -> list[GameRow]:
    """The whole rows of these games that are still running, batched, in id order."""
    found: list[GameRow] = []
    for chunk in _chunks(game_ids):
        rows = await db.query(
            f"SELECT * FROM games WHERE status = 'running' AND id IN ({_marks(chunk)}) ORDER BY id", chunk
        )
        found.extend(GameRow.from_row(r) for r in rows)
    return found


async def set_due(db: Database, dues: Sequence[tuple[int, int, datetime | None]]) -> None:
    """Store (game id, version, due time) for each game, in one transaction; None: nothing can
    come due at that version. A game that moved on meanwhile keeps its own (``version`` guard)."""
    if not dues:
        return
    async with db.transaction() as conn:
        await conn.executemany(
            "UPDATE games SET due_at = ?, due_version = ? WHERE id = ? AND version = ?",
            [(None if due is None else stamp(due), version, game_id, version) for game_id, version, due in dues],
        )


async def record_notices(
    db: Database, warnings: Sequence[tuple[int, int]], reminders: Sequence[tuple[int, int, int]]
) -> tuple[set[int], set[int]]:
    """Note, in one transaction, the time-limit warnings ((game id, version)) and reminders
    ((game id, version, n): the wait's n-th) about to be sent; the ids of the games whose warning
    and whose reminder were noted. Each is noted once: not for a game that moved on or stopped
    running, nor a warning already noted at that version, nor a reminder whose n-1 earlier ones
    are not exactly those noted (another tick noted it). A note is written before its post, so
    a post is never repeated (a stop between the two loses it instead)."""
    ids = sorted({game_id for game_id, _ in warnings} | {game_id for game_id, _, _ in reminders})
    if not ids:
        return set(), set()
    async with db.transaction() as conn:
        found: dict[int, Any] = {}
        for start in range(0, len(ids), IN_CHUNK):
            chunk = ids[start : start + IN_CHUNK]
            async with conn.execute(
                "SELECT id, version, reminded_version, reminders_sent, warned_version FROM games"
                f" WHERE status = 'running' AND id IN ({_marks(chunk)})",
                chunk,
            ) as cursor:
                found.update((r[0], r) for r in await cursor.fetchall())
        warned = [
            (game_id, version)
            for game_id, version in warnings
            if game_id in found and found[game_id][1] == version and found[game_id][4] != version
        ]
        reminded = []
        for game_id, version, nth in reminders:
            now = found.get(game_id)
            if now is None or now[1] != version:
                continue
            sent = now[3] if now[2] == version else 0
            if sent == nth - 1:
                reminded.append((game_id, version, nth))
        if warned:
            await conn.executemany(
                "UPDATE games SET warned_version = ? WHERE id = ? AND version = ?",
                [(version, game_id, version) for game_id, version in warned],
            )
        if reminded:
            await conn.executemany(
                "UPDATE games SET reminded_version = ?, reminders_sent = ? WHERE id = ? AND version = ?",
                [(version, nth, game_id, version) for game_id, version, nth in reminded],
            )
    return {game_id for game_id, _ in warned}, {game_id for game_id, _, _ in reminded}


async def settings_of(db: Database, guild_ids: Iterable[int]) -> dict[int, GuildSettings]:
    """Each server's settings (the defaults for a server that never changed any), batched."""
    found: dict[int, GuildSettings] = {}
    chunks = _chunks(guild_ids)
    for chunk in chunks:
        rows = await db.query(f"SELECT * FROM guild_settings WHERE guild_id IN ({_marks(chunk)})", chunk)
        found.update((r["guild_id"], _settings(r)) for r in rows)
    return {guild: found.get(guild, GuildSettings(guild)) for chunk in chunks for guild in chunk}


async def vacations_of(db: Database, user_ids: Iterable[int]) -> dict[int, list[tuple[datetime, datetime]]]:
    """Each user's vacations (as ``vacations`` gives them), batched; [] for a user with none."""
    result: dict[int, list[tuple[datetime, datetime]]] = {}
    for chunk in _chunks(user_ids):
        for user in chunk:
            result[user] = []
        rows = await db.query(
            f"SELECT user_id, starts_at, ends_at FROM vacations WHERE user_id IN ({_marks(chunk)})"
            " ORDER BY user_id, starts_at",
            chunk,
        )
        for r in rows:
            result[r["user_id"]].append((parse_stamp(r["starts_at"]), parse_stamp(r["ends_at"])))
    return result


async def seat_users_of(db: Database, game_ids: Iterable[int]) -> dict[int, list[int]]:
    """Each game's seated user ids in seat order, batched."""
    result: dict[int, list[int]] = {}
    for chunk in _chunks(game_ids):
        for game_id in chunk:
            result[game_id] = []
        rows = await db.query(
            f"SELECT game_id, user_id FROM seats WHERE game_id IN ({_marks(chunk)}) ORDER BY game_id, seat", chunk
        )
        for r in rows:
            result[r["game_id"]].append(r["user_id"])
    return result


async def record_results(db: Database, row: GameRow, results: Sequence[ResultLine]) -> None:
    """Store each seat's (seat, user_id, score, rank, won, forfeited) for a finished game, once.

    A rated table on a server moves its players' ratings in the same transaction (services/storage/ratings.py);
    a second call changes nothing, neither the results nor the ratings.
    """
    finished = stamp(row.finished_at or datetime.now(UTC))
    async with db.transaction() as conn:
        await insert_results(conn, row, results, finished)
        if row.rated and row.guild_id is not None:
            # The stored rows, not the arguments: a repeated call rates what was first stored.
            async with conn.execute(
                "SELECT user_id, rank, finished_at FROM results WHERE game_id = ? ORDER BY seat", (row.id,)
            ) as cursor:
                stored = list(await cursor.fetchall())
            if stored:
                placed = [(r[0], r[1]) for r in stored]
                await ratings.rate_game(conn, row.id, row.guild_id, row.game, min(r[2] for r in stored), placed)


async def results_of(db: Database, user_id: int) -> list[ResultRow]:
    rows = await db.query("SELECT * FROM results WHERE user_id = ? ORDER BY finished_at DESC", (user_id,))
    return [
        ResultRow(
            r["game_id"],
            r["seat"],
            r["user_id"],
            r["game"],
            r["score"],
            r["rank"],
            bool(r["won"]),
            bool(r["forfeited"]),
            parse_stamp(r["finished_at"]),
        )
        for r in rows
    ]


async def games_of(db: Database, user_id: int, statuses: tuple[str, ...] = ("running",)) -> list[GameRow]:
    """Games in which the user holds a seat, with one of ``statuses``."""
    marks = ", ".join("?" for _ in statuses)
    rows = await db.query(
        f"SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks})"
        " ORDER BY g.updated_at",
        (user_id, *statuses),
    )
    return [GameRow.from_row(r) for r in rows]


async def games_in_guild(
    db: Database, guild_id: int, statuses: tuple[str, ...] = ("lobby", "running")
) -> list[GameRow]:
    marks = ", ".join("?" for _ in statuses)
    rows = await db.query(
        f"SELECT * FROM games WHERE guild_id = ? AND status IN ({marks}) ORDER BY updated_at", (guild_id, *statuses)
    )
    return [GameRow.from_row(r) for r in rows]
