"""A player's data: everything stored about one user, and forgetting them (README, "Privacy").

Where a user id or a user's name can be stored (migrations 0001-0013):

- ids: ``games.creator_id``, ``seats.user_id``, ``results.user_id``, ``abandon_votes.user_id``,
  ``vacations.user_id``, ``ratings.user_id``, ``rating_history.user_id``,
  ``challenge_attempts.user_id``, ``tournaments.organiser_id``, ``entrants.user_id`` and
  ``entrants.partner_id``, ``tournament_audit.actor_id``, ``computer_seats.left_user``,
  ``user_locales.user_id``; inside JSON, ``pairings.players`` (the seat order as user ids) and
  ``delivery_jobs.payload`` (``users`` of a notice, mentions ``<@id>`` in a board's notes);
- names: ``seats.display_name``, ``entrants.display_name``; as text, a mention or a name may
  stand in ``tournament_audit.detail``/``reason``, ``delivery_jobs.payload``/``last_error``.

Game states, snapshots, outcomes and the action log are kept by seat, never by user, so they
hold neither (the privacy tests scan every text column of the file to make sure).

Forgetting a player (``forget``) deletes what is only theirs (ratings and their history,
vacations, the remembered language) and, in one transaction, gives everything else an
anonymous id and label in their place: the other players' results, ranks and scores, and
tournament standings stay whole. Anonymous ids are ``ANONYMOUS_BASE + n``: above the computer
seats' ids (below 1000, services/computer_turns.py) and below 2**22, which no Discord id can be (a
snowflake that small would date from the very millisecond of Discord's epoch, 2015).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from services.storage.connection import Connection

if TYPE_CHECKING:
    from services.storage.db import Database

EXPORT_FORMAT = "meeple-post/my-data/1"
ANONYMOUS_BASE = 2_000_000
ANONYMOUS_LIMIT = 1 << 22  # no Discord id is below this
DISCORD_ID_MAX = 2**63 - 1
COUNTER_KEY = "privacy.forgotten"
LABEL = "Former player {number}"

# Integer columns holding a user id: (table, column).
ID_COLUMNS = (
    ("games", "creator_id"),
    ("seats", "user_id"),
    ("results", "user_id"),
    ("abandon_votes", "user_id"),
    ("challenge_attempts", "user_id"),
    ("tournaments", "organiser_id"),
    ("entrants", "user_id"),
    ("entrants", "partner_id"),
    ("tournament_audit", "actor_id"),
    ("computer_seats", "left_user"),
)
# Rows that are only the player's own: deleted.
OWN_ROWS = (
    ("ratings", "user_id"),
    ("rating_history", "user_id"),
    ("vacations", "user_id"),
    ("user_locales", "user_id"),
)
# Name columns: (table, id column, name column).
NAME_COLUMNS = (("seats", "user_id", "display_name"), ("entrants", "user_id", "display_name"))
# Text columns that may mention the player (an id in ``<@id>``, a name) or hold ids in JSON:
# (table, key columns, column, JSON?).
TEXT_COLUMNS = (
    ("pairings", ("tournament_id", "round", "slot"), "players", True),
    ("delivery_jobs", ("id",), "payload", True),
    ("delivery_jobs", ("id",), "last_error", False),
    ("tournament_audit", ("id",), "detail", False),
    ("tournament_audit", ("id",), "reason", False),
)


class NotAPlayer(ValueError):
    """An id that cannot be a Discord user's (a computer seat, an anonymous player, out of range)."""


def check_user_id(user_id: int) -> int:
    """``user_id`` if it can be a Discord user's, else NotAPlayer."""
    if isinstance(user_id, bool) or not isinstance(user_id, int) or not ANONYMOUS_LIMIT <= user_id <= DISCORD_ID_MAX:
        raise NotAPlayer(f"{user_id!r} is not a Discord user id")
    return user_id


def is_anonymous(user_id: int) -> bool:
    """Whether ``user_id`` stands for a player who was forgotten."""
    return ANONYMOUS_BASE < user_id < ANONYMOUS_LIMIT


# -- the export ---------------------------------------------------------------------------------


def _rows(rows: Iterable[Any], *names: str) -> list[dict[str, Any]]:
    return [{name: row[index] for index, name in enumerate(names)} for row in rows]


async def export(db: Database, user_id: int) -> dict[str, Any]:
    """Everything stored about ``user_id``, by kind, as JSON-ready data.

    Only the player's own: their seats, the moves made from their seats (the action text as
    stored), their results, ratings, settings, vacations, challenge and tournament entries. No
    game state is included, so no seat's hidden information (not even another seat's hand).
    """
    uid = check_user_id(user_id)
    q = db.query
    seats = await q(
        "SELECT s.game_id, g.game, g.status, g.guild_id, g.channel_id, s.seat, s.display_name, s.joined_at,"
        " g.created_at, g.finished_at, g.rated, g.creator_id = s.user_id"
        " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? ORDER BY s.game_id",
        (uid,),
    )
    moves = await q(
        "SELECT a.game_id, g.game, a.version, a.seat, a.action, a.created_at"
        " FROM actions a JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat"
        " JOIN games g ON g.id = a.game_id WHERE s.user_id = ? ORDER BY a.game_id, a.version",
        (uid,),
    )
    taken_back = await q(
        "SELECT u.game_id, g.game, u.version, u.seat, u.action, u.created_at, u.undone_at"
        " FROM undone_actions u JOIN seats s ON s.game_id = u.game_id AND s.seat = u.seat"
        " JOIN games g ON g.id = u.game_id WHERE s.user_id = ? ORDER BY u.game_id, u.undone_at",
        (uid,),
    )
    created = await q(
        "SELECT id, game, status, guild_id, channel_id, created_at FROM games WHERE creator_id = ? ORDER BY id", (uid,)
    )
    results = await q(
        "SELECT r.game_id, r.game, g.guild_id, r.seat, r.score, r.rank, r.won, r.forfeited, r.finished_at"
        " FROM results r JOIN games g ON g.id = r.game_id WHERE r.user_id = ? ORDER BY r.finished_at, r.game_id",
        (uid,),
    )
    left = await q(
        "SELECT c.game_id, g.game, c.seat FROM computer_seats c JOIN games g ON g.id = c.game_id"
        " WHERE c.left_user = ? ORDER BY c.game_id",
        (uid,),
    )
    ratings = await q(
        "SELECT guild_id, game, mu, sigma, games, updated_at FROM ratings WHERE user_id = ? ORDER BY guild_id, game",
        (uid,),
    )
    history = await q(
        "SELECT game_id, guild_id, game, mu_before, sigma_before, mu_after, sigma_after, finished_at"
        " FROM rating_history WHERE user_id = ? ORDER BY finished_at, game_id",
        (uid,),
    )
    locale = await q("SELECT locale FROM user_locales WHERE user_id = ?", (uid,))
    vacations = await q("SELECT starts_at, ends_at FROM vacations WHERE user_id = ? ORDER BY starts_at", (uid,))
    votes = await q("SELECT game_id, voted_at FROM abandon_votes WHERE user_id = ? ORDER BY game_id", (uid,))
    challenge = await q(
        "SELECT c.guild_id, c.week, c.mode, c.game_id, g.status FROM challenge_attempts c"
        " JOIN games g ON g.id = c.game_id WHERE c.user_id = ? ORDER BY c.week, c.mode",
        (uid,),
    )
    entries = await q(
        "SELECT e.tournament_id, t.name, t.game, t.guild_id, e.display_name, e.partner_id IS NOT NULL, e.seed_order,"
        " e.status, e.joined_at FROM entrants e JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE e.user_id = ? ORDER BY e.tournament_id",
        (uid,),
    )
    tables = await q(
        "SELECT tournament_id, round, slot, players, game_id, result FROM pairings ORDER BY tournament_id, round, slot"
    )
    organised = await q(
        "SELECT id, name, game, guild_id, format, status, created_at FROM tournaments WHERE organiser_id = ?"
        " ORDER BY id",
        (uid,),
    )
    audit = await q(
        "SELECT tournament_id, action, detail, reason, created_at FROM tournament_audit WHERE actor_id = ? ORDER BY id",
        (uid,),
    )
    return {
        "format": EXPORT_FORMAT,
        "user_id": uid,
        "seats": [
            row | {"rated": bool(row["rated"]), "created_it": bool(row["created_it"])}
            for row in _rows(
                seats,
                "game_id",
                "game",
                "status",
                "guild_id",
                "channel_id",
                "seat",
                "display_name",
                "joined_at",
                "created_at",
                "finished_at",
                "rated",
                "created_it",
            )
        ],
        "tables_created": _rows(created, "game_id", "game", "status", "guild_id", "channel_id", "created_at"),
        "moves": _rows(moves, "game_id", "game", "version", "seat", "action", "created_at"),
        "moves_taken_back": _rows(
            taken_back, "game_id", "game", "version", "seat", "action", "created_at", "undone_at"
        ),
        "results": [
            row | {"won": bool(row["won"]), "forfeited": bool(row["forfeited"])}
            for row in _rows(
                results, "game_id", "game", "guild_id", "seat", "score", "rank", "won", "forfeited", "finished_at"
            )
        ],
        "seats_left_to_a_computer": _rows(left, "game_id", "game", "seat"),
        "abandon_votes": _rows(votes, "game_id", "voted_at"),
        "ratings": _rows(ratings, "guild_id", "game", "mu", "sigma", "games", "updated_at"),
        "rating_history": _rows(
            history,
            "game_id",
            "guild_id",
            "game",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "finished_at",
        ),
        "settings": {"locale": locale[0][0] if locale else None},
        "vacations": _rows(vacations, "starts_at", "ends_at"),
        "challenge_entries": _rows(challenge, "guild_id", "week", "mode", "game_id", "status"),
        "tournament_entries": [
            row | {"in_a_team": bool(row["in_a_team"])} | {"tables": _tables_of(tables, row["tournament_id"], uid)}
            for row in _rows(
                entries,
                "tournament_id",
                "name",
                "game",
                "guild_id",
                "display_name",
                "in_a_team",
                "seed_order",
                "status",
                "joined_at",
            )
        ],
        "tournaments_organised": _rows(
            organised, "tournament_id", "name", "game", "guild_id", "format", "status", "created_at"
        ),
        "tournament_corrections": _rows(audit, "tournament_id", "action", "detail", "reason", "created_at"),
    }


def _tables_of(pairings: list[Any], tournament_id: int, uid: int) -> list[dict[str, Any]]:
    """The player's own tables of a tournament: round, game and their result (seat order kept,
    the other players' ids left out)."""
    found = []
    for row in pairings:
        if row[0] != tournament_id:
            continue
        players = json.loads(row[3])
        if uid not in players:
            continue
        seat = players.index(uid)
        result = json.loads(row[5]) if row[5] else None
        mine = None
        if result is not None:
            mine = {k: v[seat] for k, v in result.items() if isinstance(v, list) and len(v) == len(players)}
            mine["how"] = result.get("how")
        found.append({"round": row[1], "table": row[2], "game_id": row[4], "seat": seat, "result": mine})
    return found


def export_json(data: dict[str, Any]) -> str:
    """The export as a file's text."""
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


# -- forgetting -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Forgotten:
    """What ``forget`` did: the player's anonymous id and label, and the rows it changed."""

    user_id: int
    anonymous_id: int
    label: str
    changed: int


async def names_of(db: Database, user_id: int) -> list[str]:
    """Every name stored for the player (their seats', their tournament entries')."""
    found: set[str] = set()
    for table, id_column, name_column in NAME_COLUMNS:
        rows = await db.query(
            f"SELECT DISTINCT {name_column} FROM {table} WHERE {id_column} = ? AND {name_column} IS NOT NULL",
            (user_id,),
        )
        found.update(str(row[0]) for row in rows if str(row[0]).strip())
    return sorted(found, key=lambda name: (-len(name), name))


def scrubber(user_id: int, names: Iterable[str], anonymous_id: int, label: str) -> Callable[[str], str]:
    """Replace in a text the player's id (as a whole number) with the anonymous id, and their
    names (as whole words, any case) with the label."""
    parts = [rf"(?<!\d){user_id}(?!\d)"]
    parts += [rf"(?<!\w){re.escape(name)}(?!\w)" for name in names if name.strip()]
    pattern = re.compile("|".join(parts), re.IGNORECASE)

    def scrub(text: str) -> str:
        return pattern.sub(lambda m: str(anonymous_id) if m.group(0) == str(user_id) else label, text)

    return scrub


def scrub_json(value: Any, user_id: int, anonymous_id: int, scrub: Callable[[str], str]) -> Any:
    """``value`` (decoded JSON) with the player's id as a number and in every string replaced."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return anonymous_id if value == user_id else value
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, list):
        return [scrub_json(item, user_id, anonymous_id, scrub) for item in value]
    if isinstance(value, dict):
        return {scrub(str(k)): scrub_json(v, user_id, anonymous_id, scrub) for k, v in value.items()}
    return value


async def reserve_number(conn: Connection) -> int:
    """The next anonymous number, counted in ``bot_meta`` (inside the caller's transaction)."""
    async with conn.execute("SELECT value FROM bot_meta WHERE key = ?", (COUNTER_KEY,)) as cursor:
        row = await cursor.fetchone()
    number = (int(row[0]) if row is not None and str(row[0]).isdigit() else 0) + 1
    if ANONYMOUS_BASE + number >= ANONYMOUS_LIMIT:
        raise RuntimeError("no anonymous ids left")
    await conn.execute(
        "INSERT INTO bot_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (COUNTER_KEY, str(number)),
    )
    return number


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


async def forget(
    db: Database, user_id: int, label: str = LABEL, number: int | None = None, names: Iterable[str] = ()
) -> Forgotten:
    """Forget the player, in one transaction: delete their ratings, rating history, vacations and
    remembered language; put an anonymous id and ``label`` (its ``{number}`` filled in) in place
    of their id and names everywhere else (``number``: one ``reserve_number`` gave, else a new
    one). Running games are the caller's to settle first
    (services.player_data.leave_games): a seat still held in one is anonymised like any other. ``names``:
    the player's names read before that settling (a seat a computer took no longer holds hers,
    but the lines already shown of that game do).

    The other players' ratings are kept as they are: they are what the stored results give
    (``python -m league.rating_maths rebuild`` gives the same numbers, the anonymous id in the
    forgotten player's place).
    """
    uid = check_user_id(user_id)
    every = {*await names_of(db, uid), *(name for name in names if name.strip())}
    names = sorted(every, key=lambda name: (-len(name), name))
    changed = 0
    async with db.transaction() as conn:
        if number is None:
            number = await reserve_number(conn)
        anonymous_id = ANONYMOUS_BASE + number
        text = label.format(number=number)
        scrub = scrubber(uid, names, anonymous_id, text)
        # Tournaments: a sign-up is withdrawn (a partner who signed up with them stays, alone);
        # in a running tournament they drop out, their tables so far kept under the label.
        signup = "SELECT id FROM tournaments WHERE status = 'signup'"
        await conn.execute(f"DELETE FROM entrants WHERE user_id = ? AND tournament_id IN ({signup})", (uid,))
        await conn.execute(
            f"UPDATE entrants SET partner_id = NULL WHERE partner_id = ? AND tournament_id IN ({signup})", (uid,)
        )
        await conn.execute(
            "UPDATE entrants SET status = 'dropped' WHERE user_id = ? AND status = 'active'"
            " AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'running')",
            (uid,),
        )
        # Their vacations go: the scheduler works out their games' due times again.
        await conn.execute(
            "UPDATE games SET due_version = NULL WHERE status = 'running'"
            " AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
            (uid,),
        )
        for table, column in OWN_ROWS:
            cursor = await conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (uid,))
            changed += max(cursor.rowcount, 0)
        for table, id_column, name_column in NAME_COLUMNS:
            cursor = await conn.execute(
                f"UPDATE {table} SET {name_column} = ? WHERE {id_column} = ?", (text[:100], uid)
            )
            changed += max(cursor.rowcount, 0)
        for table, column in ID_COLUMNS:
            cursor = await conn.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (anonymous_id, uid))
            changed += max(cursor.rowcount, 0)
        needles = [str(uid), *names]
        for table, keys, column, is_json in TEXT_COLUMNS:
            where = " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for _ in needles)
            key_list = ", ".join(keys)
            rows = list(
                await conn.execute_fetchall(
                    f"SELECT {key_list}, {column} FROM {table} WHERE {where}", [_like(n) for n in needles]
                )
            )
            for row in rows:
                old = row[len(keys)]
                if old is None:
                    continue
                if is_json:
                    new = json.dumps(
                        scrub_json(json.loads(old), uid, anonymous_id, scrub), separators=(",", ":"), ensure_ascii=False
                    )
                else:
                    new = scrub(old)
                if new != old:
                    matches = " AND ".join(f"{key} = ?" for key in keys)
                    await conn.execute(
                        f"UPDATE {table} SET {column} = ? WHERE {matches}", (new, *[row[i] for i in range(len(keys))])
                    )
                    changed += 1
    return Forgotten(uid, anonymous_id, text, changed)


async def open_games(db: Database, user_id: int) -> list[tuple[int, str]]:
    """(game id, status) of the lobbies and running games where the player has a seat."""
    rows = await db.query(
        "SELECT g.id, g.status FROM games g JOIN seats s ON s.game_id = g.id"
        " WHERE s.user_id = ? AND g.status IN ('lobby', 'running') ORDER BY g.id",
        (user_id,),
    )
    return [(int(r[0]), str(r[1])) for r in rows]
