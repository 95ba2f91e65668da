"""Retention (MEEPLE_RETENTION_DAYS): once a day, the bot's minute ticker compacts the move-by-move
record of the games that ended more than that many days ago (bot/storage/retention.py).

A process compacts only the games of the guilds it owns (sharded, each process its own), at its
first tick after starting and then at most once every ``EVERY``: a restart compacts again at
once, which finds nothing new to do in one indexed query.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from bot.scheduler import Clock, system_clock
from bot.shards import ALL as ALL_SHARDS
from bot.shards import Shards
from bot.storage import Database
from bot.storage.retention import Compacted, compact

log = logging.getLogger("meeple.retention")

EVERY = timedelta(days=1)


class Retention:
    """Compacts old games' records at most once every ``EVERY``; off when ``days`` is None."""

    def __init__(self, db: Database, days: int | None, clock: Clock = system_clock, owned: Shards = ALL_SHARDS) -> None:
        self.db = db
        self.days = days
        self.clock = clock
        self.owned = owned
        self.last_run: datetime | None = None

    async def tick(self) -> Compacted | None:
        """Compact if retention is on and a day has passed since the last pass; None if not run."""
        if self.days is None:
            return None
        now = self.clock()
        if self.last_run is not None and now - self.last_run < EVERY:
            return None
        self.last_run = now  # a failing pass is tried again tomorrow, not at every minute
        done = await compact(self.db, now - timedelta(days=self.days), self.owned)
        if done.games:
            log.info(
                "compacted the records of %d games over for more than %d days: %d actions, %d snapshots, "
                "%d delivery jobs removed, %d free pages released",
                done.games,
                self.days,
                done.actions,
                done.snapshots,
                done.jobs,
                done.pages_freed,
            )
        return done
