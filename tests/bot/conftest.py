"""Fixtures for tests of the Discord layer: the loopback emulator and a bot factory."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config
from emulator.emulator import Emulator
from emulator.testing import emu, world  # noqa: F401  (pytest fixtures)


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
        )

    return build
