"""Fixtures for the storage tests: every test runs on SQLite (a real file in pytest's tmp_path)
and on PostgreSQL (a fresh database on the tests' own server, tests/support/postgres.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from services.storage import Database, GameRow

GUILD = 111
CHANNEL = 222
ALICE = 1001
BOB = 1002
CAROL = 1003


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Which database the test runs on."""
    return str(request.param)


@pytest.fixture
def db_path(backend: str, tmp_path: Path) -> Path:
    """Return where the test database lives (its directory does not exist yet); SQLite only."""
    if backend != "sqlite":
        pytest.skip("about the SQLite file itself")
    return tmp_path / "data" / "meeple.db"


@pytest.fixture
def sqlite_only(backend: str) -> None:
    """Skip on PostgreSQL: the test is about a setting of SQLite's (a PRAGMA, the file)."""
    if backend != "sqlite":
        pytest.skip("about SQLite's own settings")


@pytest.fixture
def db_target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """What ``Database.open`` is given: a SQLite file's path or a fresh PostgreSQL database's URL."""
    if backend == "sqlite":
        return tmp_path / "data" / "meeple.db"
    if "sqlite_only" in request.fixturenames or "db_path" in request.fixturenames:
        pytest.skip("about SQLite itself")  # before a PostgreSQL database is made for nothing
    return str(request.getfixturevalue("postgres_url"))


@pytest_asyncio.fixture
async def db(db_target: str | Path) -> AsyncIterator[Database]:
    """Open a fresh, migrated database and close it after the test."""
    database = await Database.open(db_target)
    try:
        yield database
    finally:
        await database.close()


@pytest_asyncio.fixture
async def lobby(db: Database) -> GameRow:
    """Open a lobby created by Alice and joined by Bob."""
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {"variant": "basic"}, seed=42)
    await db.join(row.id, BOB)
    return row


@pytest_asyncio.fixture
async def running(db: Database, lobby: GameRow) -> GameRow:
    """Start the lobby with the state {"step": 0}."""
    return await db.start_game(lobby.id, {"step": 0})


async def play(db: Database, game_id: int, moves: int, start: int = 0) -> None:
    """Commit ``moves`` moves from version ``start``, alternating seats, state {"step": version}."""
    for version in range(start + 1, start + moves + 1):
        assert await db.commit_move(game_id, version - 1, version % 2, f"move {version}", {"step": version}, None)
