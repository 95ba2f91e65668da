"""Sharding: IDENTIFY with a shard, READY and events only for the shard's guilds, DMs on shard 0."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import aiohttp
import discord
from discord.http import Route

from emulator import Emulator
from emulator.gateway import INVALID_SHARD
from emulator.testing import assert_clean, make_world, running
from emulator.waiting import PATIENCE
from tests.emulator.sample_bot import SampleBot

GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 9, 1 << 12


async def _identify(emu: Emulator, shard: Any, intents: int = GUILD_MESSAGES | DIRECT_MESSAGES):
    """A raw gateway connection identified with ``shard``; (session, ws, receive)."""
    session = aiohttp.ClientSession()
    ws = await session.ws_connect(f"{emu.gateway_url}/?v=10&encoding=json")

    async def receive(timeout: float = 5) -> dict[str, Any]:
        return json.loads((await ws.receive(timeout=timeout)).data)

    assert (await receive())["op"] == 10
    await ws.send_json({"op": 2, "d": {"token": emu.bot_token, "intents": intents, "properties": {}, "shard": shard}})
    return session, ws, receive


async def _no_dispatch(receive) -> bool:
    """True when nothing arrives for a moment (heartbeats are not sent by this raw client)."""
    with contextlib.suppress(TimeoutError):
        await receive(timeout=0.3)
        return False
    return True


def test_guild_ids_can_be_drawn_on_any_shard() -> None:
    emu = Emulator()
    owner = emu.add_user("owner")
    for count in (1, 2, 3, 16):
        for shard in range(count):
            guild = emu.add_guild(f"g{shard}", owner, shard=(shard, count))
            assert (guild.id >> 22) % count == shard
    ids = list(emu.state.guilds)
    assert ids == sorted(ids) and len(set(ids)) == len(ids)


async def test_ready_and_guild_create_name_only_the_shards_guilds(emu: Emulator) -> None:
    first, second = make_world(emu, "First", shard=(0, 2)), make_world(emu, "Second", shard=(1, 2))
    for shard, mine in ((0, first), (1, second)):
        session, ws, receive = await _identify(emu, [shard, 2])
        try:
            ready = await receive()
            assert ready["t"] == "READY" and ready["d"]["shard"] == [shard, 2]
            assert ready["d"]["guilds"] == [{"id": str(mine.guild.id), "unavailable": True}]
            created = await receive()
            assert created["t"] == "GUILD_CREATE" and created["d"]["id"] == str(mine.guild.id)
            assert await _no_dispatch(receive)
        finally:
            await ws.close()
            await session.close()


async def test_events_go_to_the_guilds_shard_and_direct_messages_to_shard_0(emu: Emulator) -> None:
    first, second = make_world(emu, "First", shard=(0, 2)), make_world(emu, "Second", shard=(1, 2))
    zero, one = await _identify(emu, [0, 2]), await _identify(emu, [1, 2])
    try:
        for _, _, receive in (zero, one):
            await receive(), await receive()  # READY, GUILD_CREATE
        await emu.send_message(second.alice, second.channel, "hello second")
        event = await one[2]()
        assert event["t"] == "MESSAGE_CREATE" and event["d"]["guild_id"] == str(second.guild.id)
        assert await _no_dispatch(zero[2])
        await emu.send_message(first.bob, first.channel, "hello first")
        assert (await zero[2]())["d"]["guild_id"] == str(first.guild.id)
        assert await _no_dispatch(one[2])
        # A direct message belongs to no guild: Discord sends it to shard 0 only.
        await emu.send_message(second.bob, emu.dm_channel(second.bob), "psst")
        event = await zero[2]()
        assert event["t"] == "MESSAGE_CREATE" and "guild_id" not in event["d"]
        assert await _no_dispatch(one[2])
        # A guild made later is announced to its own shard only.
        late = emu.add_guild("Late", second.owner, shard=(1, 2))
        assert (await one[2]())["d"]["id"] == str(late.id)
        assert await _no_dispatch(zero[2])
    finally:
        for session, ws, _ in (zero, one):
            await ws.close()
            await session.close()


async def test_an_invalid_shard_is_refused_with_4010(emu: Emulator) -> None:
    for shard in ([2, 2], [0, 0], [-1, 2], "0,2", [0]):
        session, ws, receive = await _identify(emu, shard)
        try:
            await ws.receive(timeout=5)
            assert ws.close_code == INVALID_SHARD, shard
        finally:
            await session.close()
    assert not emu.gateway.sessions


async def test_interactions_reach_only_the_bot_process_of_their_guilds_shard(emu: Emulator) -> None:
    first, second = make_world(emu, "First", shard=(0, 2)), make_world(emu, "Second", shard=(1, 2))
    zero, one = SampleBot(shard_id=0, shard_count=2), SampleBot(shard_id=1, shard_count=2)
    async with running(emu, zero), running(emu, one):
        await zero.tree.sync()
        assert [g.id for g in zero.guilds] == [first.guild.id] and [g.id for g in one.guilds] == [second.guild.id]
        for world, shard in ((first, 0), (second, 1)):
            result = await emu.slash(world.alice, world.channel, "ping")
            response = await result.response()
            assert response.message is not None and response.message.content == "pong"
            assert result.record.shards == [(shard, 2)]
        dm = await emu.slash(second.alice, emu.dm_channel(second.alice), "ping")
        assert (await dm.response()).message is not None
        assert dm.record.shards == [(0, 2)]


async def test_gateway_bot_recommends_the_emulators_shard_count() -> None:
    async with Emulator(heartbeat_interval=0.25, shard_count=2) as emu:
        other = make_world(emu, "Other", shard=(1, 2))
        home = make_world(emu, "Home", shard=(0, 2))

        class Quick(discord.AutoShardedClient):
            async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
                pass  # Discord's 5 s between identifies; the emulator does not rate-limit them

        client = Quick(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        old_base, Route.BASE = Route.BASE, emu.api_base
        try:
            await client.login(emu.bot_token)
            task = asyncio.create_task(client.connect())
            await asyncio.wait_for(client.wait_until_ready(), PATIENCE)
            assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
            assert client.get_guild(other.guild.id).shard_id == 1  # type: ignore[union-attr]
            assert client.get_guild(home.guild.id).shard_id == 0  # type: ignore[union-attr]
            assert sorted(s.shard for s in emu.gateway.sessions.values()) == [[0, 2], [1, 2]]
            await client.close()
            await asyncio.wait_for(task, PATIENCE)
        finally:
            Route.BASE = old_base
        assert_clean(emu)
