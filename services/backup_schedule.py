"""Backups of the SQLite database: ``python -m bot backup PATH``, ``python -m bot restore PATH``, and
the running bot's scheduled copies (``MEEPLE_BACKUP_EVERY_HOURS``) that keep the newest
``MEEPLE_BACKUP_KEEP``. PostgreSQL has its own tools (pg_dump, pg_restore): README, "Backups".
The copying and checking is ``services.storage.backup``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from services.config import Config, redact_url
from services.storage.backup import BackupError, backup_database, backups_in, prune, restore_database, stamp
from services.tasks import Tasks

log = logging.getLogger("meeple.backups")

PG_DUMP = "pg_dump --format=custom --file={path} '{url}'"
PG_RESTORE = "pg_restore --clean --if-exists --no-owner --dbname='{url}' {path}"


def backup_name(database: Path, when: datetime | None = None) -> str:
    """``meeple-post-20261126T130501Z.db`` for ``meeple-post.db``."""
    return f"{database.stem}-{stamp(when)}.db"


def backup_command(config: Config, path: str) -> int:
    """``python -m bot backup PATH``: a consistent copy of the database (a folder: a dated name in it)."""
    target = Path(path).expanduser()
    if not isinstance(config.database, Path):
        url = redact_url(str(config.database))
        print(
            "The database is on PostgreSQL: pg_dump makes its backups (README, section Backups), for example\n"
            f"    {PG_DUMP.format(path=target, url=url)}\n"
            f"and pg_restore puts one back:\n    {PG_RESTORE.format(path=target, url=url)}\n"
            "(the password as *** here: give it in PGPASSWORD or ~/.pgpass)",
            file=sys.stderr,
        )
        return 1
    folder = target.is_dir() or path.endswith(("/", os.sep))
    destination = target / backup_name(config.database) if folder else target
    try:
        backup_database(config.database, destination)
    except BackupError as exc:
        print(f"Backup failed: {exc}", file=sys.stderr)
        return 1
    print(f"Backed up {config.database} to {destination}")
    return 0


def restore_command(config: Config, path: str) -> int:
    """``python -m bot restore PATH``: check a copy, then put it in place of the database."""
    copy = Path(path).expanduser()
    if not isinstance(config.database, Path):
        url = redact_url(str(config.database))
        print(
            f"The database is on PostgreSQL: restore a pg_dump file with\n    {PG_RESTORE.format(path=copy, url=url)}",
            file=sys.stderr,
        )
        return 1
    try:
        restored = restore_database(copy, config.database)
    except BackupError as exc:
        print(f"Restore refused: {exc}", file=sys.stderr)
        return 1
    kept = f"; the database it replaced is kept as {restored.kept}" if restored.kept else ""
    later = (
        f" (schema version {restored.version}; the next start migrates it to {restored.known})"
        if restored.version < restored.known
        else f" (schema version {restored.version})"
    )
    print(f"Restored {copy} to {config.database}{later}{kept}.")
    return 0


def command(name: str, path: str, config: Config) -> int:
    """Run the subcommand ``name`` (``backup`` or ``restore``)."""
    return backup_command(config, path) if name == "backup" else restore_command(config, path)


class BackupSchedule:
    """The running bot's backups: one every ``every`` into ``folder``, the newest ``keep`` kept.

    The time of the newest backup already in the folder counts: a restart does not make an
    extra copy, and a bot stopped for longer than ``every`` makes one as soon as it starts.
    """

    def __init__(
        self,
        database: Path,
        folder: Path,
        every: timedelta,
        keep: int,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.database, self.folder, self.every, self.keep = database, folder, every, keep
        self.clock = clock
        self._sleep = sleep
        self.prefix = database.stem

    @classmethod
    def from_config(cls, config: Config) -> BackupSchedule | None:
        """The schedule ``MEEPLE_BACKUP_EVERY_HOURS`` asks for, or None (off, or not SQLite)."""
        if config.backup_every_hours is None or not isinstance(config.database, Path):
            return None
        folder = config.backup_dir or config.database.parent / "backups"
        return cls(config.database, folder, timedelta(hours=config.backup_every_hours), config.backup_keep)

    def next_due(self) -> datetime | None:
        """When the next backup is due (None: now, there is none yet)."""
        made = backups_in(self.folder, self.prefix)
        return made[-1][0] + self.every if made else None

    async def backup_if_due(self) -> Path | None:
        """Make a backup if one is due, then delete the oldest beyond ``keep``; the new backup's path."""
        due = self.next_due()
        now = self.clock()
        if due is not None and now < due:
            return None
        destination = self.folder / backup_name(self.database, now)
        await asyncio.to_thread(backup_database, self.database, destination)
        removed = await asyncio.to_thread(prune, self.folder, self.prefix, self.keep)
        log.info("backed up the database to %s; removed %d older backups", destination, len(removed))
        return destination

    async def run(self) -> None:
        """Back up on schedule until cancelled; a failed backup is logged and tried again later."""
        while True:
            try:
                await self.backup_if_due()
            except (BackupError, OSError):
                log.exception("the scheduled backup failed; trying again in %s", self.every)
                await self._sleep(self.every.total_seconds())
                continue
            due = self.next_due()
            wait = (due - self.clock()).total_seconds() if due is not None else self.every.total_seconds()
            await self._sleep(max(wait, 1.0))


def start_backups(config: Config, tasks: Tasks) -> asyncio.Task[None] | None:
    """Start the scheduled backups in ``tasks``, if configured; the task (closing ``tasks`` stops it)."""
    schedule = BackupSchedule.from_config(config)
    if schedule is None:
        return None
    log.info("backing up the database every %s into %s, keeping %d", schedule.every, schedule.folder, schedule.keep)
    return tasks.start(schedule.run(), name="meeple-backups")
