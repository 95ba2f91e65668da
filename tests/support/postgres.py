"""A throw-away PostgreSQL server for the tests: Debian's binaries, a temporary data directory,
listening only on a unix socket in that directory (no TCP at all), trust authentication.

``PostgresServer.start()`` runs initdb and pg_ctl (as the ``postgres`` user when the tests run as
root, since PostgreSQL refuses to run as root), migrates a template database once, and hands
out fresh databases copied from it (``CREATE DATABASE ... TEMPLATE``), each dropped after its
test. When the binaries are missing, ``find_binaries`` says why and the tests skip.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

TEMPLATE = "meeple_template"
USER = "meeple"


def find_binaries() -> tuple[Path | None, str]:
    """The directory of initdb and pg_ctl (the newest Debian version first), or None and why not."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: _version(p.parent.name), reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    for directory in candidates:
        if (directory / "initdb").is_file() and (directory / "pg_ctl").is_file():
            if os.geteuid() == 0 and not _user_exists("postgres"):
                return None, "running as root and there is no postgres user to run PostgreSQL as"
            return directory, ""
    return None, "PostgreSQL is not installed (no initdb/pg_ctl; scripts/test installs Debian's postgresql)"


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _version(name: str) -> int:
    return int(name) if name.isdigit() else 0


@dataclass
class PostgresServer:
    """One running server; ``url(name)`` is a database's asyncpg URL."""

    bin_dir: Path
    root: Path
    run_as: list[str] = field(default_factory=list)
    _counter: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def socket_dir(self) -> Path:
        return self.root

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@/{database}?host={self.socket_dir}"

    @classmethod
    def start(cls, bin_dir: Path) -> PostgresServer:
        # A short path: a unix socket's path must stay under ~107 bytes.
        root = Path(tempfile.mkdtemp(prefix="meeple-pg-", dir="/tmp"))
        run_as: list[str] = []
        if os.geteuid() == 0:
            run_as = ["runuser", "-u", "postgres", "--"]
            shutil.chown(root, "postgres", "postgres")
        server = cls(bin_dir, root, run_as)
        data = root / "data"
        server._run(
            str(bin_dir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "--encoding=UTF8", "--locale=C",
            "--no-sync",
        )  # fmt: skip
        options = (
            f"-c listen_addresses='' -c unix_socket_directories='{root}' -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        server._run(str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-o", options, "-w", "start")
        try:
            asyncio.run(server._make_template())
        except BaseException:
            server.stop()
            raise
        return server

    def _run(self, *command: str) -> None:
        result = subprocess.run([*self.run_as, *command], capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {result.stdout}{result.stderr}")

    async def _make_template(self) -> None:
        from services.storage import Database

        admin = await asyncpg.connect(self.url("postgres"))
        try:
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
        finally:
            await admin.close()
        db = await Database.open(self.url(TEMPLATE))
        await db.close()

    async def create_database(self, *, migrated: bool = True) -> str:
        """A new database (the migrated template's copy, or empty); returns its name."""
        name = f"test_{os.getpid()}_{next(self._counter)}"
        admin = await asyncpg.connect(self.url("postgres"))
        try:
            # FILE_COPY: a copy of the template's files, far quicker than WAL_LOG for a small database.
            template = TEMPLATE if migrated else "template0"
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY = FILE_COPY")
        finally:
            await admin.close()
        return name

    async def drop_database(self, name: str) -> None:
        admin = await asyncpg.connect(self.url("postgres"))
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()

    def stop(self) -> None:
        try:
            self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
