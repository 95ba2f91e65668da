"""Tournament rows (migrations 0010 and 0015): every statement of the tournaments, the runner's
and the organisers' tools alike.

Every write that the runner's restart safety depends on is one transaction here, or a function
taking the caller's connection (``conn``) so that the runner makes one transaction of several: a
round and its pairings together, a table and the pairing it belongs to together (``link``), a
round's results together with the next round. The values are ``league.tournament_records``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from league.tournament_records import AuditLine, Entrant, Pairing, Round, Tournament
from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage.connection import Connection, Link
from services.storage.dialect import SQLITE_NOW, parse_stamp, stamp

if TYPE_CHECKING:
    from services.storage import Database

_ENTRANTS = (
    "SELECT user_id, display_name, partner_id, seed_order, status FROM entrants WHERE tournament_id = ?"
    " ORDER BY seed_order IS NULL, seed_order, joined_at, user_id"
)
_PAIRINGS = "SELECT * FROM pairings WHERE tournament_id = ? ORDER BY round, slot"


def _tournament(row: Any) -> Tournament:
    return Tournament(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        organiser_id=row["organiser_id"],
        name=row["name"],
        game=row["game"],
        options=json.loads(row["options"]),
        format=row["format"],
        table_size=row["table_size"],
        rounds=row["rounds"],
        best_of=row["best_of"],
        advance=row["advance"],
        round_days=row["round_days"],
        time_limit_hours=row["time_limit_hours"],
        timeout_action=row["timeout_action"],
        settle=row["settle"],
        cap=row["cap"],
        signup_deadline=parse_stamp(row["signup_deadline"]) if row["signup_deadline"] else None,
        seed=row["seed"],
        status=row["status"],
        round=row["round"],
        signup_message_id=row["signup_message_id"],
        language=row["language"],
    )


async def create(db: Database, **values: Any) -> Tournament:
    values = dict(values)
    values["options"] = json.dumps(values.get("options", {}), separators=(",", ":"), sort_keys=True)
    if values.get("signup_deadline") is not None:
        values["signup_deadline"] = stamp(values["signup_deadline"])
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    async with db.transaction() as conn:
        cursor = await conn.execute(f"INSERT INTO tournaments ({columns}) VALUES ({marks})", tuple(values.values()))
        tournament_id = cursor.lastrowid
        assert tournament_id is not None
        return await tournament_in(conn, tournament_id)


async def tournament_in(conn: Connection, tournament_id: int) -> Tournament:
    async with conn.execute("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)) as cursor:
        row = await cursor.fetchone()
    if row is None:
        raise LookupError(tournament_id)
    return _tournament(row)


async def get(db: Database, tournament_id: int) -> Tournament | None:
    rows = await db.query("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    return _tournament(rows[0]) if rows else None


async def of_guild(db: Database, guild_id: int, statuses: Sequence[str] | None = None) -> list[Tournament]:
    rows = await db.query("SELECT * FROM tournaments WHERE guild_id = ? ORDER BY id DESC", (guild_id,))
    found = [_tournament(r) for r in rows]
    return [t for t in found if statuses is None or t.status in statuses]


async def active(db: Database, owned: Shards = ALL_SHARDS) -> list[Tournament]:
    """The tournaments in sign-up or running, of the guilds this process owns."""
    rows = await db.query(
        f"SELECT * FROM tournaments WHERE status IN ('signup', 'running') AND {owned.sql()} ORDER BY id"
    )
    return [_tournament(r) for r in rows]


async def update(db: Database, tournament_id: int, **values: Any) -> None:
    sets = ", ".join(f"{k} = ?" for k in values)
    async with db.transaction() as conn:
        await conn.execute(f"UPDATE tournaments SET {sets} WHERE id = ?", (*values.values(), tournament_id))


def _entrant(row: Any) -> Entrant:
    return Entrant(row[0], row[1] or str(row[0]), row[2], row[3], row[4])


async def entrants(db: Database, tournament_id: int) -> list[Entrant]:
    """Everyone who signed up, in seed order once the seeds are fixed (sign-up order before)."""
    return [_entrant(r) for r in await db.query(_ENTRANTS, (tournament_id,))]


async def entrants_in(conn: Connection, tournament_id: int) -> list[Entrant]:
    """``entrants`` inside the caller's transaction."""
    return [_entrant(r) for r in await conn.execute_fetchall(_ENTRANTS, (tournament_id,))]


async def join(
    db: Database, tournament_id: int, user_id: int, name: str, partner_id: int | None, cap: int | None
) -> str:
    """Add an entrant while sign-up is open: 'joined', 'already', 'removed', 'full' or 'closed'.

    One transaction: two last places taken at once cannot both exceed the cap.
    """
    async with db.transaction() as conn:
        async with conn.execute("SELECT status FROM tournaments WHERE id = ?", (tournament_id,)) as cursor:
            status = await cursor.fetchone()
        if status is None or status[0] != "signup":
            return "closed"
        async with conn.execute(
            "SELECT user_id, status FROM entrants WHERE tournament_id = ?", (tournament_id,)
        ) as cursor:
            present = {r[0]: r[1] for r in await cursor.fetchall()}
        if present.get(user_id) == "active":
            return "already"
        if user_id in present:
            return "removed"  # removed by the organiser: only they can bring a player back
        if cap is not None and sum(1 for s in present.values() if s == "active") + 1 > cap:
            return "full"
        await conn.execute(
            "INSERT INTO entrants (tournament_id, user_id, display_name, partner_id) VALUES (?, ?, ?, ?)",
            (tournament_id, user_id, name[:100], partner_id),
        )
        return "joined"


async def set_status(db: Database, tournament_id: int, user_id: int, status: str, *, only_from: str = "active") -> bool:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE entrants SET status = ? WHERE tournament_id = ? AND user_id = ? AND status = ?",
            (status, tournament_id, user_id, only_from),
        )
        return cursor.rowcount == 1


async def leave_signup(db: Database, tournament_id: int, user_id: int) -> bool:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "DELETE FROM entrants WHERE tournament_id = ? AND user_id = ?"
            " AND (SELECT status FROM tournaments WHERE id = ?) = 'signup'",
            (tournament_id, user_id, tournament_id),
        )
        return cursor.rowcount == 1


async def rounds(db: Database, tournament_id: int) -> list[Round]:
    rows = await db.query(
        "SELECT number, status, seed, deadline, announced, pairings_message_id FROM tournament_rounds"
        " WHERE tournament_id = ? ORDER BY number",
        (tournament_id,),
    )
    return [Round(r[0], r[1], r[2], parse_stamp(r[3]), bool(r[4]), r[5]) for r in rows]


def _pairing(row: Any) -> Pairing:
    return Pairing(
        round=row["round"],
        slot=row["slot"],
        players=tuple(json.loads(row["players"])),
        match_id=row["match_id"],
        game_number=row["game_number"],
        thread_id=row["thread_id"],
        game_id=row["game_id"],
        result=json.loads(row["result"]) if row["result"] else None,
    )


async def pairings(db: Database, tournament_id: int, round_number: int | None = None) -> list[Pairing]:
    if round_number is None:
        rows = await db.query("SELECT * FROM pairings WHERE tournament_id = ? ORDER BY round, slot", (tournament_id,))
    else:
        rows = await db.query(
            "SELECT * FROM pairings WHERE tournament_id = ? AND round = ? ORDER BY slot", (tournament_id, round_number)
        )
    return [_pairing(r) for r in rows]


async def pairings_in(conn: Connection, tournament_id: int) -> list[Pairing]:
    """Every pairing of the tournament, inside the caller's transaction."""
    return [_pairing(r) for r in await conn.execute_fetchall(_PAIRINGS, (tournament_id,))]


async def pairing_of_game(db: Database, game_id: int) -> tuple[int, Pairing] | None:
    rows = await db.query("SELECT * FROM pairings WHERE game_id = ?", (game_id,))
    return (rows[0]["tournament_id"], _pairing(rows[0])) if rows else None


async def insert_round(
    conn: Connection,
    tournament_id: int,
    number: int,
    seed: int,
    deadline: datetime,
    tables: Sequence[Pairing],
) -> None:
    """A round and all its pairings, in the caller's transaction (byes come already settled)."""
    await conn.execute(
        "INSERT INTO tournament_rounds (tournament_id, number, seed, deadline) VALUES (?, ?, ?, ?)",
        (tournament_id, number, seed, stamp(deadline)),
    )
    await conn.executemany(
        "INSERT INTO pairings (tournament_id, round, slot, match_id, game_number, players, result)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                tournament_id,
                number,
                p.slot,
                p.match_id,
                p.game_number,
                json.dumps(list(p.players)),
                json.dumps(p.result) if p.result is not None else None,
            )
            for p in tables
        ],
    )
    await conn.execute("UPDATE tournaments SET round = ? WHERE id = ?", (number, tournament_id))


async def set_thread(db: Database, tournament_id: int, round_number: int, slot: int, thread_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE pairings SET thread_id = ? WHERE tournament_id = ? AND round = ? AND slot = ?",
            (thread_id, tournament_id, round_number, slot),
        )


def linker(tournament_id: int, round_number: int, slot: int) -> Link:
    """What Database.create_game runs in its transaction: the table linked to its pairing.

    The guard (game_id IS NULL) makes a second table for the same pairing impossible: the
    insert of the game is rolled back with it.
    """

    async def link(conn: Connection, game_id: int) -> None:
        cursor = await conn.execute(
            "UPDATE pairings SET game_id = ? WHERE tournament_id = ? AND round = ? AND slot = ? AND game_id IS NULL",
            (game_id, tournament_id, round_number, slot),
        )
        if cursor.rowcount != 1:
            raise TableExists(tournament_id, round_number, slot)

    return link


class TableExists(Exception):
    """The pairing already has its table."""


async def set_round_status(db: Database, tournament_id: int, number: int, status: str, **values: Any) -> None:
    extra = "".join(f", {k} = ?" for k in values)
    async with db.transaction() as conn:
        await conn.execute(
            f"UPDATE tournament_rounds SET status = ?{extra} WHERE tournament_id = ? AND number = ?",
            (status, *values.values(), tournament_id, number),
        )


async def set_round(db: Database, tournament_id: int, number: int, **values: Any) -> None:
    sets = ", ".join(f"{k} = ?" for k in values)
    async with db.transaction() as conn:
        await conn.execute(
            f"UPDATE tournament_rounds SET {sets} WHERE tournament_id = ? AND number = ?",
            (*values.values(), tournament_id, number),
        )


async def audit(
    conn: Connection, tournament_id: int, actor_id: int, action: str, detail: dict[str, Any], reason: str = ""
) -> None:
    """Note an organiser's action; ``detail`` holds its values (round, table, users), worded
    when shown, in the reader's language."""
    await conn.execute(
        "INSERT INTO tournament_audit (tournament_id, actor_id, action, detail, reason) VALUES (?, ?, ?, ?, ?)",
        (tournament_id, actor_id, action, dumps(detail), reason[:400]),
    )


async def audit_log(db: Database, tournament_id: int) -> list[AuditLine]:
    rows = await db.query(
        "SELECT actor_id, action, detail, reason, created_at FROM tournament_audit WHERE tournament_id = ? ORDER BY id",
        (tournament_id,),
    )
    return [AuditLine(*r) for r in rows]


async def game_results(db: Database, game_id: int) -> list[tuple[int, int, int, bool, bool]] | None:
    """A finished table's stored results per seat: (user, score, rank, won, forfeited)."""
    rows = await db.query(
        "SELECT user_id, score, rank, won, forfeited FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return [(r[0], r[1], r[2], bool(r[3]), bool(r[4])) for r in rows] or None


def dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


# -- the runner's steps (in the runner's transaction) -------------------------------------------
async def set_seed_order(conn: Connection, tournament_id: int, order: Sequence[int]) -> None:
    """The entrants' seeds: ``order[0]`` is seed 0."""
    await conn.executemany(
        "UPDATE entrants SET seed_order = ? WHERE tournament_id = ? AND user_id = ?",
        [(n, tournament_id, u) for n, u in enumerate(order)],
    )


async def set_partners(conn: Connection, tournament_id: int, teams: Sequence[tuple[int, ...]]) -> None:
    """Each of the two of a team is the other's partner."""
    for a, b in teams:
        await conn.executemany(
            "UPDATE entrants SET partner_id = ? WHERE tournament_id = ? AND user_id = ?",
            [(b, tournament_id, a), (a, tournament_id, b)],
        )


async def mark_running(conn: Connection, tournament_id: int, rounds: int | None) -> bool:
    """Sign-up closed: running, with ``rounds`` unless the organiser set them; False (changing
    nothing) when it was not in sign-up any more."""
    cursor = await conn.execute(
        "UPDATE tournaments SET status = 'running', rounds = COALESCE(rounds, ?),"
        f" started_at = {SQLITE_NOW} WHERE id = ? AND status = 'signup'",
        (rounds, tournament_id),
    )
    return cursor.rowcount == 1


async def store_result(db: Database, tournament_id: int, round_number: int, slot: int, result: dict[str, Any]) -> None:
    """A table's result, unless it has one already (a settlement is never stored twice)."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE pairings SET result = ? WHERE tournament_id = ? AND round = ? AND slot = ? AND result IS NULL",
            (dumps(result), tournament_id, round_number, slot),
        )


async def round_status_in(conn: Connection, tournament_id: int, number: int) -> str | None:
    async with conn.execute(
        "SELECT status FROM tournament_rounds WHERE tournament_id = ? AND number = ?", (tournament_id, number)
    ) as cursor:
        row = await cursor.fetchone()
    return None if row is None else str(row[0])


async def mark_settled(conn: Connection, tournament_id: int, number: int) -> None:
    await conn.execute(
        f"UPDATE tournament_rounds SET status = 'settled', settled_at = {SQLITE_NOW}"
        " WHERE tournament_id = ? AND number = ?",
        (tournament_id, number),
    )


async def mark_finished(conn: Connection, tournament_id: int) -> None:
    await conn.execute(
        f"UPDATE tournaments SET status = 'finished', finished_at = {SQLITE_NOW} WHERE id = ?", (tournament_id,)
    )


# -- the organisers' tools ----------------------------------------------------------------------
async def set_partner(db: Database, tournament_id: int, user_id: int, partner_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE entrants SET partner_id = ? WHERE tournament_id = ? AND user_id = ?",
            (partner_id, tournament_id, user_id),
        )


async def move_deadline(conn: Connection, tournament_id: int, number: int, deadline: datetime) -> None:
    await conn.execute(
        "UPDATE tournament_rounds SET deadline = ? WHERE tournament_id = ? AND number = ?",
        (stamp(deadline), tournament_id, number),
    )


async def remove_entrant(conn: Connection, tournament_id: int, user_id: int) -> bool:
    """An active entrant removed by an organiser; False when they were not one."""
    cursor = await conn.execute(
        "UPDATE entrants SET status = 'removed' WHERE tournament_id = ? AND user_id = ? AND status = 'active'",
        (tournament_id, user_id),
    )
    return cursor.rowcount == 1


async def substitute(conn: Connection, tournament_id: int, old: Entrant, user_id: int, name: str) -> None:
    """``user_id`` takes ``old``'s place: their seed, their partner, and their record (every table
    of theirs in this tournament); ``old`` is removed."""
    await conn.execute(
        "INSERT INTO entrants (tournament_id, user_id, display_name, partner_id, seed_order, status)"
        " VALUES (?, ?, ?, ?, ?, 'active')",
        (tournament_id, user_id, name[:100], old.partner_id, old.seed_order),
    )
    await conn.execute(
        "UPDATE entrants SET status = 'removed', seed_order = NULL WHERE tournament_id = ? AND user_id = ?",
        (tournament_id, old.user_id),
    )
    if old.partner_id is not None:
        await conn.execute(
            "UPDATE entrants SET partner_id = ? WHERE tournament_id = ? AND user_id = ?",
            (user_id, tournament_id, old.partner_id),
        )
    async with conn.execute(
        "SELECT round, slot, players FROM pairings WHERE tournament_id = ?", (tournament_id,)
    ) as cursor:
        for round_, slot, players in await cursor.fetchall():
            users = [user_id if u == old.user_id else u for u in json.loads(players)]
            await conn.execute(
                "UPDATE pairings SET players = ? WHERE tournament_id = ? AND round = ? AND slot = ?",
                (dumps(users), tournament_id, round_, slot),
            )


async def set_result(
    conn: Connection, tournament_id: int, round_number: int, slot: int, result: dict[str, Any]
) -> None:
    """A table's result set or corrected by an organiser (whatever it was)."""
    await conn.execute(
        "UPDATE pairings SET result = ? WHERE tournament_id = ? AND round = ? AND slot = ?",
        (dumps(result), tournament_id, round_number, slot),
    )


async def cancel(conn: Connection, tournament_id: int) -> bool:
    """Cancelled while in sign-up or running; False (changing nothing) once it is over."""
    cursor = await conn.execute(
        f"UPDATE tournaments SET status = 'cancelled', finished_at = {SQLITE_NOW}"
        " WHERE id = ? AND status IN ('signup', 'running')",
        (tournament_id,),
    )
    return cursor.rowcount == 1
