"""Retention: compacting the move-by-move record of games that ended long ago (MEEPLE_RETENTION_DAYS).

A game over (finished or abandoned) before the cutoff loses what only its history, log and
replay commands read: its ``actions``, ``undone_actions``, ``snapshots``, ``abandon_votes`` and
its delivered (or failed, or skipped) ``delivery_jobs``. It keeps its ``games`` row (status,
outcome, final state, messages), its seats, its ``results`` and ``rating_history`` rows (ratings,
profiles, records and tournaments read those) and its challenge and tournament links. The row's
``compacted_at`` says when, so those commands answer that the record was compacted.

A game that still has a pending delivery job is left whole: its board may still need a position
rebuilt from the log. Work goes in batches of ``BATCH`` games, one short transaction each, so a
move waits for at most one batch; on PostgreSQL a batch takes the exclusive write lock, as every
transaction not keyed by one game does.

SQLite keeps the freed pages in its file and reuses them for new rows (the file stops growing
rather than shrinks); a file made with ``PRAGMA auto_vacuum = INCREMENTAL`` gives them back to
the file system after each pass (``PRAGMA incremental_vacuum``). PostgreSQL's autovacuum makes
the dead rows' space reusable in the same way.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import cast

import aiosqlite

from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage.connection import Connection
from services.storage.db import Database
from services.storage.dialect import SQLITE_NOW, stamp

BATCH = 100  # games per transaction
_NOW = SQLITE_NOW
# The tables emptied of a compacted game's rows (actions last: its trigger reads compacted_at).
_RECORD_TABLES = ("undone_actions", "snapshots", "abandon_votes", "actions")


@dataclass
class Compacted:
    """What one compaction removed."""

    games: int = 0
    actions: int = 0
    snapshots: int = 0
    jobs: int = 0
    pages_freed: int = 0  # SQLite pages given back to the file system (incremental auto_vacuum only)
    more: bool = False  # stopped at its batch limit with games still to compact

    def add(self, other: Compacted) -> None:
        self.games += other.games
        self.actions += other.actions
        self.snapshots += other.snapshots
        self.jobs += other.jobs


async def compact_batch(db: Database, cutoff: datetime, owned: Shards = ALL_SHARDS, limit: int = BATCH) -> Compacted:
    """Compact up to ``limit`` games over before ``cutoff`` (oldest end first), in one transaction."""
    done = Compacted()
    async with db.transaction() as conn:
        rows = await conn.execute_fetchall(
            # finished_at is set exactly for the games over (0001's CHECK): no status test, which
            # would draw the planner to a status index and a scan of every game ever finished.
            "SELECT id FROM games g WHERE finished_at IS NOT NULL AND compacted_at IS NULL AND finished_at < ?"
            " AND NOT EXISTS (SELECT 1 FROM delivery_jobs j WHERE j.game_id = g.id AND j.status = 'pending')"
            f" AND {owned.sql('g.guild_id')} ORDER BY finished_at, id LIMIT ?",
            (stamp(cutoff), limit),
        )
        ids = [row[0] for row in rows]
        if not ids:
            return done
        marks = ", ".join("?" for _ in ids)
        await conn.execute(f"UPDATE games SET compacted_at = {_NOW} WHERE id IN ({marks})", ids)
        for table in _RECORD_TABLES:
            cursor = await conn.execute(f"DELETE FROM {table} WHERE game_id IN ({marks})", ids)
            if table == "actions":
                done.actions = cursor.rowcount
            elif table == "snapshots":
                done.snapshots = cursor.rowcount
        cursor = await conn.execute(
            f"DELETE FROM delivery_jobs WHERE game_id IN ({marks}) AND status <> 'pending'", ids
        )
        done.jobs = cursor.rowcount
        done.games = len(ids)
    return done


async def compact(
    db: Database, cutoff: datetime, owned: Shards = ALL_SHARDS, batch: int = BATCH, max_batches: int | None = None
) -> Compacted:
    """Compact every game over before ``cutoff`` (at most ``max_batches`` batches: ``more`` then
    says whether some are left), batch after batch, then give SQLite's freed pages back if the
    file is set up for it. Other tasks run between two batches."""
    total = Compacted()
    batches = 0
    while True:
        done = await compact_batch(db, cutoff, owned, batch)
        total.add(done)
        batches += 1
        if done.games < batch:
            break
        if max_batches is not None and batches >= max_batches:
            total.more = True
            break
        await asyncio.sleep(0)  # let moves and clicks waiting for the database in first
    if total.games:
        total.pages_freed = await release_free_pages(db)
    return total


async def release_free_pages(db: Database) -> int:
    """On a SQLite file with incremental auto_vacuum, give its free pages back to the file system
    and return how many; 0 otherwise (the free pages stay in the file, reused by new rows)."""
    if db.dialect != "sqlite":
        return 0
    async with db._locked() as conn:  # a statement of SQLite's own, outside any transaction
        mode = await _pragma(conn, "auto_vacuum")
        if mode != 2:  # 0 NONE, 1 FULL (already shrinks at every commit), 2 INCREMENTAL
            return 0
        before = await _pragma(conn, "freelist_count")
        # executescript: Python's execute() steps this pragma once, which frees a single page.
        await cast(aiosqlite.Connection, conn).executescript("PRAGMA incremental_vacuum;")
        return before - await _pragma(conn, "freelist_count")


async def _pragma(conn: Connection, name: str) -> int:
    rows = list(await conn.execute_fetchall(f"PRAGMA {name}"))
    return int(rows[0][0])
