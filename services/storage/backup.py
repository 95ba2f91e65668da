"""Copies of the SQLite database: made while the bot plays, checked and put back in place.

A copy is made with SQLite's online backup API from a connection of its own, in one step: one
read transaction, so the copy is the database as it was at one commit, every move committed
before the copy began included. In WAL mode (the bot's), a reader never blocks the bot's writes
nor waits for them. The copy is written beside its destination under a temporary name, checked
(``PRAGMA integrity_check``), switched out of WAL mode so it is one self-contained file, and
renamed into place: a copy that exists is whole.

A restore checks the copy (a SQLite file, intact, of this bot, at a schema version this code
knows: an older one is migrated at the next start) on a staging file beside the database,
refuses while a program (the bot) has the database open, keeps the replaced database as
``<name>.before-restore-<UTC time>``, then renames the staging file over the database: at every
moment the database path holds either the old database or the whole copy.

These functions block: async code runs them in a thread (``asyncio.to_thread``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from services.storage.migrate import MigrationError, check_not_too_new, load_migrations

BUSY_TIMEOUT_MS = 5000
# Tables every Meeple Post database has had since its first migration.
MEEPLE_TABLES = frozenset({"games", "seats", "actions"})
STAMP = "%Y%m%dT%H%M%SZ"  # a UTC time in file names: sorts as it reads


class BackupError(RuntimeError):
    """A copy that cannot be made, or a restore refused; the message says why, for the operator."""


def stamp(when: datetime | None = None) -> str:
    """A UTC time for a file name: ``20261126T130501Z``."""
    return (when or datetime.now(UTC)).astimezone(UTC).strftime(STAMP)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a folder
        _fsync(folder)


def _sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]


def _remove(path: Path) -> None:
    for candidate in (path, *_sidecars(path)):
        with contextlib.suppress(FileNotFoundError):
            candidate.unlink()


def integrity_problems(conn: sqlite3.Connection) -> list[str]:
    """What ``PRAGMA integrity_check`` found wrong (empty when the file is intact)."""
    rows = [str(row[0]) for row in conn.execute("PRAGMA integrity_check").fetchall()]
    return [] if rows == ["ok"] else rows


def backup_database(source: Path, destination: Path) -> Path:
    """Copy the SQLite database ``source`` (live or not) to ``destination``, which must not exist."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if destination.exists():
        raise BackupError(f"{destination} already exists: choose a new name (a backup never overwrites)")
    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(f".{destination.name}.partial")
    _remove(partial)
    try:
        # mode=rw: never create an empty database where the bot's was expected.
        src = sqlite3.connect(f"file:{source}?mode=rw", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            dst = sqlite3.connect(partial, isolation_level=None)
            try:
                src.backup(dst)  # pages=-1: every page in one step, from one read transaction
                dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
                problems = integrity_problems(dst)
                if problems:
                    raise BackupError(f"the copy of {source} failed its integrity check: {'; '.join(problems[:5])}")
            finally:
                dst.close()
        finally:
            src.close()
        _fsync(partial)
        os.replace(partial, destination)
        _fsync_folder(destination.parent)
    except sqlite3.DatabaseError as exc:
        _remove(partial)
        raise BackupError(f"could not copy {source}: {exc}") from exc
    except BaseException:
        _remove(partial)
        raise
    return destination


@dataclass(frozen=True)
class Checked:
    """A copy that passed the checks: its schema version, and the newest this code knows."""

    version: int
    known: int


def check_copy(path: Path) -> Checked:
    """Refuse a file that is not an intact Meeple Post database this code can run (it may be older)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True, isolation_level=None)
    except sqlite3.OperationalError as exc:
        raise BackupError(f"{path} cannot be opened: {exc}") from exc
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        problems = integrity_problems(conn)
        if problems:
            raise BackupError(f"{path} is damaged (integrity check: {'; '.join(problems[:5])})")
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:  # "file is not a database", a damaged header
        raise BackupError(f"{path} is not a SQLite database, or is damaged: {exc}") from exc
    finally:
        conn.close()
    if version < 1 or not MEEPLE_TABLES <= tables:
        raise BackupError(f"{path} is not a Meeple Post database (no schema version, or no games)")
    known = len(load_migrations())
    try:
        check_not_too_new(version, known)
    except MigrationError as exc:
        raise BackupError(f"{path} cannot be restored: {exc}") from exc
    return Checked(version, known)


def _take_over(database: Path) -> None:
    """Make sure no program has ``database`` open, and fold its WAL into the file.

    An exclusive lock cannot be had while another connection (the bot's) is open on the file in
    WAL mode; once had, the checkpoint leaves every committed change in the main file, so the
    database kept aside is whole without its -wal file.
    """
    conn = sqlite3.connect(database, isolation_level=None, timeout=0)
    try:
        conn.execute("PRAGMA locking_mode = EXCLUSIVE")
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        conn.execute("COMMIT")
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy is not None and busy[0]:
            raise BackupError(f"{database} is in use: stop the bot before restoring")
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise BackupError(f"{database} is open in another program (the bot?): stop it before restoring") from exc
        raise BackupError(f"{database} cannot be opened to be replaced: {exc}") from exc
    finally:
        conn.close()


@dataclass(frozen=True)
class Restored:
    version: int  # the copy's schema version
    known: int  # the newest this code knows (the next start migrates up to it)
    kept: Path | None  # where the replaced database now is; None if there was none


def restore_database(copy: Path, database: Path, now: datetime | None = None) -> Restored:
    """Check ``copy`` and put it in place of ``database``, keeping the one it replaces."""
    if not copy.is_file():
        raise BackupError(f"there is no file at {copy}")
    if copy.resolve() == database.resolve():
        raise BackupError(f"{copy} is the database itself: restore from a copy")
    wal = copy.with_name(copy.name + "-wal")
    if wal.is_file() and wal.stat().st_size > 0:
        # Committed changes may live only in that file: restoring the main file alone would lose them.
        raise BackupError(
            f"{copy} has a {wal.name} file beside it, part of the database: make the copy with "
            "`python -m bot backup` (or open it once with sqlite3 and close it) and restore that"
        )
    database.parent.mkdir(parents=True, exist_ok=True)
    staging = database.with_name(f".{database.name}.restoring")
    _remove(staging)
    try:
        shutil.copyfile(copy, staging)
        checked = check_copy(staging)
        conn = sqlite3.connect(staging, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = DELETE")  # self-contained: no -wal of its own to lose
        finally:
            conn.close()
        _fsync(staging)
        kept: Path | None = None
        if database.exists():
            _take_over(database)
            kept = database.with_name(f"{database.name}.before-restore-{stamp(now)}")
            if kept.exists():
                raise BackupError(f"{kept} already exists: try again in a second")
            try:
                os.link(database, kept)  # the old file stays at its path until the rename below
            except OSError:
                shutil.copy2(database, kept)
        # Stale -wal/-shm files of the replaced database would be read as the copy's own.
        for sidecar in _sidecars(database):
            with contextlib.suppress(FileNotFoundError):
                sidecar.unlink()
        os.replace(staging, database)
        _fsync_folder(database.parent)
    except BaseException:
        _remove(staging)
        raise
    return Restored(checked.version, checked.known, kept)


def backups_in(folder: Path, prefix: str) -> list[tuple[datetime, Path]]:
    """The scheduled backups in ``folder`` (``<prefix>-<UTC time>.db``), oldest first.

    Only files of that exact form count: nothing else in the folder is ever deleted.
    """
    found: list[tuple[datetime, Path]] = []
    if not folder.is_dir():
        return found
    for path in folder.glob(f"{prefix}-*.db"):
        text = path.name[len(prefix) + 1 : -len(".db")]
        try:
            when = datetime.strptime(text, STAMP).replace(tzinfo=UTC)
        except ValueError:
            continue
        found.append((when, path))
    return sorted(found)


def prune(folder: Path, prefix: str, keep: int) -> list[Path]:
    """Delete the oldest scheduled backups beyond the newest ``keep``; the ones deleted."""
    backups = backups_in(folder, prefix)
    doomed = [path for _, path in backups[: max(0, len(backups) - keep)]]
    for path in doomed:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    return doomed
