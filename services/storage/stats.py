"""Counts of what the database holds, for the operator's metrics and the readiness check.

Three small grouped queries over indexed columns (games by status, pending jobs, tournaments by
status): cheap enough to run at every scrape. Counts are the whole database's, whichever shard
asks (several processes sharing PostgreSQL report the same figures).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from services.storage.db import Database
from services.storage.dialect import parse_stamp


@dataclass
class Counts:
    running: dict[str, int] = field(default_factory=dict)  # game -> games being played
    lobbies: dict[str, int] = field(default_factory=dict)  # game -> tables waiting in their lobby
    pending: dict[str, int] = field(default_factory=dict)  # job kind -> jobs waiting
    oldest_pending: datetime | None = None  # when the oldest waiting job was written
    tournaments: dict[str, int] = field(default_factory=dict)  # status -> tournaments (signup, running)


async def counts(db: Database) -> Counts:
    found = Counts()
    for row in await db.query(
        "SELECT game, status, COUNT(*) AS n FROM games WHERE status IN ('lobby', 'running') GROUP BY game, status"
    ):
        (found.running if row["status"] == "running" else found.lobbies)[row["game"]] = int(row["n"])
    oldest: list[str] = []
    for row in await db.query(
        "SELECT kind, COUNT(*) AS n, MIN(created_at) AS oldest FROM delivery_jobs"
        " WHERE status = 'pending' GROUP BY kind"
    ):
        found.pending[row["kind"]] = int(row["n"])
        oldest.append(row["oldest"])
    if oldest:
        found.oldest_pending = parse_stamp(min(oldest))
    for row in await db.query(
        "SELECT status, COUNT(*) AS n FROM tournaments WHERE status IN ('signup', 'running') GROUP BY status"
    ):
        found.tournaments[row["status"]] = int(row["n"])
    return found


async def reachable(db: Database) -> bool:
    """Whether the database answers a query (the readiness check; raises nothing)."""
    try:
        return bool(await db.query("SELECT 1 AS one"))
    except Exception:  # any failure means "not reachable", which is the answer
        return False
