"""Reusable test helpers: point discord.py at an emulator, run a client against it, pytest fixtures.

Use from any conftest.py:

    from emulator.testing import emu, world  # noqa: F401  (pytest fixtures)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import TypeVar

import discord
import pytest_asyncio
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from emulator.emulator import Emulator
from emulator.model import Channel, Guild, User
from emulator.waiting import PATIENCE

ClientT = TypeVar("ClientT", bound=discord.Client)

FAST = {"heartbeat_interval": 0.25, "interaction_deadline": 3.0}
# What the tests' emulator insists on beyond Discord: alt text on every file the bot posts.
STRICT = {"require_alt_text": True}
CLIENT_OPTIONS = {"guild_ready_timeout": 0.1}
# How long `running` lets a client wait for more guilds after the last (the emulator sends them all at once).
GUILD_READY_WAIT = 0.5


@contextlib.contextmanager
def pointed_at(emu: Emulator) -> Iterator[None]:
    """Point discord.py's REST base and its hardcoded default gateway at the emulator; restore after."""
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = emu.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(emu.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway


@contextlib.asynccontextmanager
async def running(emu: Emulator, client: ClientT, *, timeout: float = PATIENCE) -> AsyncIterator[ClientT]:
    """Log `client` in against the emulator, connect it, wait for on_ready; close it on exit.

    discord.py fires on_ready once no GUILD_CREATE has come for ``guild_ready_timeout`` (2 s by
    default, for Discord's guilds trickling in). The emulator sends every guild right after READY,
    so a client that kept the default waits ``GUILD_READY_WAIT`` here instead: two seconds saved
    on each of the hundreds of bot starts in the tests."""
    connection = getattr(client, "_connection", None)
    if connection is not None and getattr(connection, "guild_ready_timeout", 0) > GUILD_READY_WAIT:
        connection.guild_ready_timeout = GUILD_READY_WAIT
    with pointed_at(emu):
        await client.login(emu.bot_token)
        task = asyncio.create_task(client.connect(reconnect=True), name="discord-client-connect")
        ready = asyncio.create_task(client.wait_until_ready())
        try:
            done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if task in done:
                task.result()
                raise RuntimeError("the client stopped before it was ready")
            if ready not in done:
                raise TimeoutError(f"the client was not ready after {timeout}s")
            yield client
        finally:
            ready.cancel()
            await client.close()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 5.0)


def assert_clean(emu: Emulator) -> None:
    """Fail when the bot hit routes the emulator lacks, sent a body Discord refuses (400 50035),
    or the emulator crashed or answered unlike Discord's API description.

    A test that provokes a refusal on purpose takes it: ``emu.invalid_requests.clear()``.
    """
    assert not emu.unknown_routes, f"the bot called routes the emulator does not have: {emu.unknown_routes}"
    assert not emu.invalid_requests, f"Discord would refuse what the bot sent: {emu.invalid_requests}"
    assert not emu.server_errors, f"the emulator failed internally: {emu.server_errors}"


@dataclass
class World:
    """A small guild: an owner, two players, a text channel."""

    owner: User
    alice: User
    bob: User
    guild: Guild
    channel: Channel


def make_world(emu: Emulator, guild_name: str = "Meeple Hall", shard: tuple[int, int] | None = None) -> World:
    """Owner, alice and bob in a guild with a #games channel (the guild on ``shard=(id, count)`` if given)."""
    owner = emu.add_user("owner")
    guild = emu.add_guild(guild_name, owner, shard=shard)
    alice, bob = emu.add_user("alice", global_name="Alice"), emu.add_user("bob", global_name="Bob")
    emu.add_member(guild, alice)
    emu.add_member(guild, bob)
    return World(owner, alice, bob, guild, emu.add_text_channel(guild, "games"))


@pytest_asyncio.fixture
async def emu() -> AsyncIterator[Emulator]:
    """A started, strict emulator with fast heartbeats; checks assert_clean at teardown."""
    async with Emulator(**FAST, **STRICT) as instance:
        yield instance
        assert_clean(instance)


@pytest_asyncio.fixture
async def world(emu: Emulator) -> World:
    """make_world(emu)."""
    return make_world(emu)
