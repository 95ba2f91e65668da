"""Fixtures for the emulator's own tests: the shared emulator fixtures plus a running sample bot."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from emulator import Emulator
from emulator.testing import World, emu, running, world  # noqa: F401  (pytest fixtures)
from tests.emulator.sample_bot import SampleBot


@pytest_asyncio.fixture
async def bot(emu: Emulator, world: World) -> AsyncIterator[SampleBot]:  # noqa: F811
    """The test bot, logged in, ready, with its commands synced globally."""
    instance = SampleBot()
    async with running(emu, instance):
        await instance.tree.sync()
        yield instance
