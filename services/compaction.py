"""Retention (MEEPLE_RETENTION_DAYS): once a day, the bot's minute ticker compacts the move-by-move
record of the games that ended more than that many days ago (services/storage/retention.py).

A process compacts only the games of the guilds it owns (sharded, each process its own), at its
first tick after starting and then at most once every ``EVERY``: a restart compacts again at
once, which finds nothing new to do in one indexed query. A tick compacts at most
``BATCHES_PER_TICK`` batches, so that a long backlog (retention switched on for an old database)
never holds up the minute's reminders: the pass carries on at the next ticks until it is done.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from services.scheduler import Clock, system_clock
from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage import Database
from services.storage.retention import BATCH, Compacted, compact

log = logging.getLogger("meeple.retention")

EVERY = timedelta(days=1)
BATCHES_PER_TICK = 20  # of services.storage.retention.BATCH games: a few seconds of work at most


class Retention:
    """Compacts old games' records at most once every ``EVERY``; off when ``days`` is None."""

    def __init__(
        self,
        db: Database,
        days: int | None,
        clock: Clock = system_clock,
        owned: Shards = ALL_SHARDS,
        *,
        batch: int = BATCH,
        batches_per_tick: int = BATCHES_PER_TICK,
    ) -> None:
        self.db = db
        self.days = days
        self.clock = clock
        self.owned = owned
        self.batch = batch
        self.batches_per_tick = batches_per_tick
        self.last_run: datetime | None = None  # when the last pass started
        self.unfinished = False  # the last pass stopped at its batch limit: carry on at the next tick

    async def tick(self) -> Compacted | None:
        """Compact if retention is on and a day has passed since the last pass; None if not run."""
        if self.days is None:
            return None
        now = self.clock()
        if self.unfinished and self.last_run is not None:
            started = self.last_run  # the same pass carries on, with the same cutoff
        elif self.last_run is None or now - self.last_run >= EVERY:
            started = self.last_run = now  # a failing pass is tried again tomorrow, not every minute
        else:
            return None
        self.unfinished = False
        cutoff = started - timedelta(days=self.days)
        done = await compact(self.db, cutoff, self.owned, self.batch, self.batches_per_tick)
        self.unfinished = done.more
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
