"""Durable delivery jobs: board posts, private DMs and the notices that depend on them.

A job is written in the same transaction as the change it reports (``insert_jobs`` takes the
open connection), so a crash between the commit and the post cannot lose it. The delivery
worker (``services.delivery``) reads a game's pending jobs oldest first and marks each one done,
failed for good, or skipped (a board that a newer board replaced before it could be posted).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage.connection import Connection, Row
from services.storage.dialect import SQLITE_NOW

if TYPE_CHECKING:
    from services.storage.db import Database

JobKind = Literal["board", "hand", "notice"]
JobStatus = Literal["pending", "done", "failed", "skipped"]

_NOW = SQLITE_NOW
_ERROR_LIMIT = 500
# Ids marked by one statement (a backlog after a long outage can be thousands; the backends
# take at most 32,766 parameters in a statement).
_IDS_PER_STATEMENT = 500


@dataclass(frozen=True)
class JobSpec:
    """A job to enqueue: what to deliver, for which state version (and seat, for a DM)."""

    kind: JobKind
    version: int
    seat: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Job:
    """One row of ``delivery_jobs``, payload decoded."""

    id: int
    game_id: int
    version: int
    kind: JobKind
    seat: int | None
    payload: dict[str, Any]
    status: JobStatus
    attempts: int
    last_error: str | None
    created_at: str | None = None  # the storage clock's text: when the move that wrote it committed

    @classmethod
    def from_row(cls, row: Row) -> Job:
        return cls(
            row["id"],
            row["game_id"],
            row["version"],
            row["kind"],
            row["seat"],
            json.loads(row["payload"]),
            row["status"],
            row["attempts"],
            row["last_error"],
            row["created_at"],
        )


def plain(value: Any) -> Any:
    """``value`` as plain JSON data (engine events may hold tuples or sets), so storing it never fails."""
    return json.loads(json.dumps(value, default=lambda v: sorted(v) if isinstance(v, set | frozenset) else str(v)))


def _dump(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


async def insert_jobs(conn: Connection, game_id: int, specs: Iterable[JobSpec]) -> None:
    """Add jobs inside the caller's open transaction (rolled back with it)."""
    await conn.executemany(
        "INSERT INTO delivery_jobs (game_id, version, kind, seat, payload) VALUES (?, ?, ?, ?, ?)",
        [(game_id, spec.version, spec.kind, spec.seat, _dump(spec.payload)) for spec in specs],
    )


async def enqueue(db: Database, game_id: int, specs: Sequence[JobSpec]) -> None:
    """Add jobs in a transaction of their own (for work that has no commit to join)."""
    async with db.transaction() as conn:
        await insert_jobs(conn, game_id, specs)


async def get(db: Database, job_id: int) -> Job | None:
    rows = await db.query("SELECT * FROM delivery_jobs WHERE id = ?", (job_id,))
    return Job.from_row(rows[0]) if rows else None


async def pending(db: Database, game_id: int) -> list[Job]:
    """The game's pending jobs, oldest first (the order they must be delivered in)."""
    rows = await db.query(
        "SELECT * FROM delivery_jobs WHERE game_id = ? AND status = 'pending' ORDER BY id", (game_id,)
    )
    return [Job.from_row(row) for row in rows]


async def games_with_pending(db: Database, owned: Shards = ALL_SHARDS) -> list[int]:
    """Every game of the guilds this process owns that has something left to deliver, oldest job first."""
    rows = await db.query(
        "SELECT j.game_id, MIN(j.id) AS first FROM delivery_jobs j JOIN games g ON g.id = j.game_id"
        f" WHERE j.status = 'pending' AND {owned.sql('g.guild_id')} GROUP BY j.game_id ORDER BY first"
    )
    return [row["game_id"] for row in rows]


async def has_board_job(db: Database, game_id: int, version: int) -> bool:
    """Whether a board job (in any status) exists for this version of the game."""
    rows = await db.query(
        "SELECT 1 FROM delivery_jobs WHERE game_id = ? AND version = ? AND kind = 'board' LIMIT 1", (game_id, version)
    )
    return bool(rows)


async def unposted_without_job(db: Database, owned: Shards = ALL_SHARDS) -> list[tuple[int, int, str | None]]:
    """(game id, version, language) of each running game whose current board was never posted
    and has no board job (a database from before durable delivery, or a job lost by hand):
    one query over the ``games_unposted`` index, no state read."""
    rows = await db.query(
        "SELECT id, version, language FROM games g WHERE status = 'running'"
        " AND (board_version IS NULL OR board_version <> version)"
        " AND NOT EXISTS (SELECT 1 FROM delivery_jobs j"
        " WHERE j.game_id = g.id AND j.version = g.version AND j.kind = 'board')"
        f" AND {owned.sql('g.guild_id')} ORDER BY id"
    )
    return [(row["id"], row["version"], row["language"]) for row in rows]


async def claim(db: Database, game_id: int) -> Job | None:
    """The game's oldest pending job, its attempt counted; None when nothing is left."""
    async with db.transaction() as conn:
        rows = list(
            await conn.execute_fetchall(
                "SELECT id FROM delivery_jobs WHERE game_id = ? AND status = 'pending' ORDER BY id LIMIT 1", (game_id,)
            )
        )
        if not rows:
            return None
        job_id = rows[0]["id"]
        await conn.execute(
            f"UPDATE delivery_jobs SET attempts = attempts + 1, updated_at = {_NOW} WHERE id = ?", (job_id,)
        )
        row = list(await conn.execute_fetchall("SELECT * FROM delivery_jobs WHERE id = ?", (job_id,)))[0]
        return Job.from_row(row)


async def claim_all(db: Database, game_id: int) -> list[Job]:
    """Every pending job of the game, oldest first, each one's attempt counted: one statement.

    The worker delivers them in this order; jobs enqueued after it are claimed by its next call.
    """
    rows = await db.write(
        f"UPDATE delivery_jobs SET attempts = attempts + 1, updated_at = {_NOW}"
        " WHERE game_id = ? AND status = 'pending' RETURNING *",
        (game_id,),
    )
    return sorted((Job.from_row(row) for row in rows), key=lambda job: job.id)


async def complete_all(
    db: Database, job_ids: Sequence[int], payloads: Mapping[int, dict[str, Any]] | None = None
) -> None:
    """Mark delivered jobs done, however many, in one statement (those still pending); the jobs
    in ``payloads`` get that payload with it (a board keeps what its message shows)."""
    payloads = payloads or {}
    for start in range(0, len(job_ids), _IDS_PER_STATEMENT):
        chunk = job_ids[start : start + _IDS_PER_STATEMENT]
        changed = [job_id for job_id in chunk if job_id in payloads]
        cases = " ".join("WHEN ? THEN ?" for _ in changed)
        setting = f", payload = CASE id {cases} ELSE payload END" if changed else ""
        params = [value for job_id in changed for value in (job_id, _dump(payloads[job_id]))]
        await db.write(
            f"UPDATE delivery_jobs SET status = 'done', updated_at = {_NOW}{setting}"
            f" WHERE id IN ({', '.join('?' * len(chunk))}) AND status = 'pending'",
            (*params, *chunk),
        )


async def skip_all_into(
    db: Database, skipped: Sequence[Job], newer: Job, carried: list[str], fields: dict[str, Any] | None = None
) -> Job:
    """Skip superseded boards, carrying their lines (``carried``, oldest first) into ``newer``,
    the board that replaces them, atomically; ``newer`` as it is now stored. One transaction
    of two statements whatever the number of boards skipped (the newer board is in hand).
    ``fields``: set in the newer board's payload too (what the skipped boards did to the turn)."""
    payload = {
        **newer.payload,
        "carried": [*carried, *newer.payload.get("carried", [])],
        **(fields or {}),
    }
    async with db.transaction(game_id=newer.game_id) as conn:
        for start in range(0, len(skipped), _IDS_PER_STATEMENT):
            chunk = [job.id for job in skipped[start : start + _IDS_PER_STATEMENT]]
            await conn.execute(
                f"UPDATE delivery_jobs SET status = 'skipped', updated_at = {_NOW}"
                f" WHERE id IN ({', '.join('?' * len(chunk))}) AND status = 'pending'",
                tuple(chunk),
            )
        await conn.execute("UPDATE delivery_jobs SET payload = ? WHERE id = ?", (_dump(payload), newer.id))
    return replace(newer, payload=payload)


async def retrying(db: Database, job_id: int, error: str) -> None:
    """Note a failed attempt that will be tried again, and count the next one."""
    async with db.transaction() as conn:
        await conn.execute(
            f"UPDATE delivery_jobs SET attempts = attempts + 1, last_error = ?, updated_at = {_NOW}"
            " WHERE id = ? AND status = 'pending'",
            (error[:_ERROR_LIMIT], job_id),
        )


async def complete(db: Database, job_id: int) -> None:
    await _finish(db, job_id, "done", None)


async def fail(db: Database, job_id: int, error: str, follow_up: Sequence[JobSpec] = ()) -> None:
    """Give up on a job for good; ``follow_up`` (a public notice) is enqueued in the same transaction."""
    await _finish(db, job_id, "failed", error, follow_up)


async def _finish(
    db: Database, job_id: int, status: JobStatus, error: str | None, follow_up: Sequence[JobSpec] = ()
) -> None:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            f"UPDATE delivery_jobs SET status = ?, last_error = coalesce(?, last_error), updated_at = {_NOW}"
            " WHERE id = ? AND status = 'pending' RETURNING game_id",
            (status, error[:_ERROR_LIMIT] if error else None, job_id),
        )
        row = await cursor.fetchone()
        if row is not None and follow_up:
            await insert_jobs(conn, row["game_id"], follow_up)


async def newer_board(db: Database, job: Job) -> Job | None:
    """A pending board job of the same game enqueued after ``job``: it supersedes ``job``."""
    rows = await db.query(
        "SELECT * FROM delivery_jobs WHERE game_id = ? AND kind = 'board' AND status = 'pending' AND id > ?"
        " ORDER BY id LIMIT 1",
        (job.game_id, job.id),
    )
    return Job.from_row(rows[0]) if rows else None


async def skip_into(
    db: Database, job: Job, newer: Job, carried: list[str], fields: dict[str, Any] | None = None
) -> None:
    """Skip a superseded board, carrying its lines (what happened) into the newer board, atomically
    (``fields``: set in the newer board's payload too)."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            f"UPDATE delivery_jobs SET status = 'skipped', updated_at = {_NOW} WHERE id = ? AND status = 'pending'",
            (job.id,),
        )
        if cursor.rowcount != 1:
            return
        rows = list(await conn.execute_fetchall("SELECT payload FROM delivery_jobs WHERE id = ?", (newer.id,)))
        payload = json.loads(rows[0]["payload"])
        payload["carried"] = [*carried, *payload.get("carried", [])]
        payload.update(fields or {})
        await conn.execute("UPDATE delivery_jobs SET payload = ? WHERE id = ?", (_dump(payload), newer.id))


async def annotate_board(
    db: Database, game_id: int, version: int, lines: Sequence[str], forfeited: Sequence[int] = ()
) -> bool:
    """Add lines said before a pending board's events (a resignation, a time-out); False if none is pending."""
    async with db.transaction() as conn:
        rows = list(
            await conn.execute_fetchall(
                "SELECT id, payload FROM delivery_jobs WHERE game_id = ? AND version = ? AND kind = 'board'"
                " AND status = 'pending' ORDER BY id DESC LIMIT 1",
                (game_id, version),
            )
        )
        if not rows:
            return False
        payload = json.loads(rows[0]["payload"])
        payload["notes"] = [*payload.get("notes", []), *lines]
        if forfeited:
            payload["forfeited"] = sorted({*payload.get("forfeited", []), *forfeited})
        await conn.execute("UPDATE delivery_jobs SET payload = ? WHERE id = ?", (_dump(payload), rows[0]["id"]))
        return True


async def last_shown(db: Database, game_id: int) -> dict[str, Any] | None:
    """What the game's current board message shows, as its last delivered board left it (None
    when no board was delivered since boards kept it: the next one is a new message)."""
    rows = await db.query(
        "SELECT payload FROM delivery_jobs WHERE game_id = ? AND kind = 'board' AND status = 'done'"
        " ORDER BY id DESC LIMIT 1",
        (game_id,),
    )
    if not rows:
        return None
    shown = json.loads(rows[0]["payload"]).get("shown")
    return shown if isinstance(shown, dict) else None
