"""Fixtures for tests of the Discord layer: the loopback emulator and a bot factory."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config
from emulator.emulator import Emulator
from emulator.testing import emu, world  # noqa: F401  (pytest fixtures)


@pytest.fixture
def config_for(tmp_path: Path):
    """Build the bot's configuration for an emulator, with a real database file."""

    def build(emulator: Emulator, guild_id: int | None) -> Config:
        return Config(
            token=emulator.bot_token,
            database=tmp_path / "meeple.db",
            dev_guild=guild_id,
            api_base=emulator.base_url,
            log_level="INFO",
        )

    return build
