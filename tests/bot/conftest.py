"""Fixtures for tests of the Discord layer: the loopback emulator and a bot factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from emulator.emulator import Emulator
from emulator.testing import emu, world  # noqa: F401  (pytest fixtures)
from services.config import Config
from services.storage.db import Database


@pytest.fixture(autouse=True)
def quick_edits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards edited within a turn at most every 0.05 s, not 1.5 s: tests click far faster than
    people (tests/bot/test_turn_messages.py checks the real pace)."""
    monkeypatch.setattr("services.delivery.EDIT_PACE", 0.05)


@pytest.fixture
def no_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """No animated replay of a finished game is drawn (``pytestmark =
    pytest.mark.usefixtures("no_replays")`` in a module that does not look at it): drawing one
    takes a worker seconds, and the bot's close waits for it up to its 10 s grace."""

    async def skip(flow, row, message, seats=None) -> None:
        return None

    monkeypatch.setattr("bot.history_ui.attach_replay", skip)


@pytest.fixture
def bot_database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """The bot's database: a SQLite file, or with ``@pytest.mark.parametrize("bot_database",
    ["sqlite", "postgres"], indirect=True)`` also a fresh database on the tests' PostgreSQL server
    (``pytest --bot-database=postgres`` makes PostgreSQL the default of every emulator test)."""
    if getattr(request, "param", request.config.getoption("--bot-database")) == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return tmp_path / "meeple.db"


@pytest.fixture
def config_for(bot_database: Path | str):
    """Build the bot's configuration for an emulator, with a real database (bot_database)."""

    def build(emulator: Emulator, guild_id: int | None) -> Config:
        return Config(
            token=emulator.bot_token,
            database=bot_database,
            dev_guild=guild_id,
            api_base=emulator.base_url,
            log_level="INFO",
            # Edits of a turn's board 50 ms apart, not 1.5 s: the pacing has its own tests
            # (test_turn_messages sets it), the others play whole games through it.
            edit_pace=0.05,
        )

    return build


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A fresh SQLite database file, opened through the storage layer (service and scheduler tests)."""
    database = await Database.open(tmp_path / "meeple.db")
    try:
        yield database
    finally:
        await database.close()
