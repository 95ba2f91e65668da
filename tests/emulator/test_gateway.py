"""Login, READY/GUILD_CREATE, heartbeats, zlib-stream framing, intents and RESUME after a dropped socket."""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Any

import aiohttp
import discord
from discord.http import Route

from emulator import Emulator
from emulator.gateway import HEARTBEAT_ACK_DELAY
from emulator.testing import World
from tests.emulator.sample_bot import SampleBot


async def test_login_and_ready_fill_the_cache(emu: Emulator, world: World, bot: SampleBot) -> None:
    assert bot.user is not None and bot.user.id == emu.bot_user.id and bot.user.bot
    assert bot.application_id == emu.application_id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.name == "Meeple Hall" and guild.owner_id == world.owner.id
    assert [c.name for c in guild.text_channels] == ["games"]
    assert guild.me is not None and guild.me.guild_permissions.send_messages
    paths = [r.path for r in emu.requests[:2]]
    assert paths == ["/users/@me", "/oauth2/applications/@me"]
    await emu.wait_until(lambda: bot.latency != float("inf"), what="a heartbeat ACK")
    assert emu.gateway.identify_count == 1


async def test_objects_added_later_reach_the_cache(emu: Emulator, world: World, bot: SampleBot) -> None:
    channel = emu.add_text_channel(world.guild, "lobby")
    thread = emu.add_thread(channel, "game 1")
    await emu.wait_until(lambda: bot.get_channel(thread.id), what="the thread in the cache")
    assert isinstance(bot.get_channel(channel.id), discord.TextChannel)


async def _raw_gateway(emu: Emulator, intents: int) -> tuple[aiohttp.ClientSession, Any, Any]:
    session = aiohttp.ClientSession()
    ws = await session.ws_connect(f"{emu.gateway_url}/?v=10&encoding=json&compress=zlib-stream")
    inflate = zlib.decompressobj()

    async def receive() -> dict[str, Any]:
        frame = await ws.receive_bytes(timeout=5)
        assert frame.endswith(b"\x00\x00\xff\xff")
        return json.loads(inflate.decompress(frame))

    hello = await receive()
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 250
    await ws.send_json({"op": 2, "d": {"token": emu.bot_token, "intents": intents, "properties": {}}})
    return session, ws, receive


async def test_zlib_stream_frames_and_intents(emu: Emulator, world: World) -> None:
    guild_messages = 1 << 9
    session, ws, receive = await _raw_gateway(emu, guild_messages)
    try:
        ready = await receive()
        assert (ready["t"], ready["s"]) == ("READY", 1)
        assert ready["d"]["guilds"] == [{"id": str(world.guild.id), "unavailable": True}]
        created = await receive()
        assert created["t"] == "GUILD_CREATE" and created["s"] == 2
        assert [m["user"]["id"] for m in created["d"]["members"]] == [str(emu.bot_user.id)]
        await ws.send_json({"op": 1, "d": 2})
        assert (await receive())["op"] == 11
        await emu.send_message(world.alice, world.channel, "secret plan")
        event = await receive()
        assert (event["t"], event["s"], event["d"]["content"]) == ("MESSAGE_CREATE", 3, "")
    finally:
        await ws.close()
        await session.close()


async def test_a_heartbeat_is_acknowledged_after_a_round_trip_not_in_the_same_instant(
    emu: Emulator, world: World
) -> None:
    """An instant ACK races discord.py's heartbeat thread, which logs "Can't keep up" when it loses."""
    session, ws, receive = await _raw_gateway(emu, 0)
    try:
        await receive(), await receive()  # READY, GUILD_CREATE
        sent = asyncio.get_running_loop().time()
        await ws.send_json({"op": 1, "d": 2})
        assert (await receive())["op"] == 11
        waited = asyncio.get_running_loop().time() - sent
        assert HEARTBEAT_ACK_DELAY * 0.9 <= waited < 2
    finally:
        await ws.close()
        await session.close()


async def test_discord_py_measures_the_round_trip_not_the_heartbeat_interval(
    emu: Emulator, world: World, bot: SampleBot
) -> None:
    """discord.py's latency after each heartbeat of its thread is the ACK's delay, never a whole interval."""
    interval = emu.heartbeat_interval
    assert interval > 2 * HEARTBEAT_ACK_DELAY
    measured = []
    for _ in range(6):
        await asyncio.sleep(interval)
        measured.append(bot.latency)
    assert all(HEARTBEAT_ACK_DELAY * 0.9 <= latency < interval * 0.9 for latency in measured), measured


async def test_bad_token_closes_with_4004(emu: Emulator) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"{emu.gateway_url}/?v=10&encoding=json") as ws:
            assert json.loads((await ws.receive(timeout=5)).data)["op"] == 10
            await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 0, "properties": {}}})
            await ws.receive(timeout=5)
            assert ws.close_code == 4004


async def test_dropped_connection_resumes_and_replays(emu: Emulator, world: World, bot: SampleBot) -> None:
    await emu.drop_gateway()
    missed = await emu.send_message(world.alice, world.channel, "sent while you were away")
    await emu.wait_for_resume()
    await emu.wait_until(lambda: bot.resumed, what="on_resumed")
    await emu.wait_until(lambda: any(m.id == missed.id for m in bot.seen_messages), what="the replayed message")
    assert [m.id for m in bot.seen_messages].count(missed.id) == 1
    assert emu.gateway.identify_count == 1 and emu.gateway.replayed_count >= 1
    assert emu.gateway.connection_paths == ["/", "/resume"]
    result = await emu.slash(world.bob, world.channel, "ping")
    response = await result.response()
    assert response.message is not None and response.message.content == "pong"


async def test_close_code_4000_also_resumes(emu: Emulator, world: World, bot: SampleBot) -> None:
    await emu.drop_gateway(code=4000)
    await emu.wait_for_resume()
    await emu.wait_until(lambda: bot.resumed, what="on_resumed")
    assert emu.gateway.identify_count == 1


async def test_auto_sharded_client_discovers_the_gateway_via_gateway_bot(emu: Emulator, world: World) -> None:
    client = discord.AutoShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.1)
    old_base, Route.BASE = Route.BASE, emu.api_base
    try:
        await client.login(emu.bot_token)
        task = asyncio.create_task(client.connect())
        await asyncio.wait_for(client.wait_until_ready(), 10)
        assert client.shard_count == 1 and client.get_guild(world.guild.id) is not None
        assert "/gateway/bot" in [r.path for r in emu.requests]
        await client.close()
        await asyncio.wait_for(task, 5)
    finally:
        Route.BASE = old_base


async def test_op7_reconnect_request_resumes(emu: Emulator, world: World, bot: SampleBot) -> None:
    emu.gateway.request_reconnect()
    await emu.wait_for_resume()
    assert emu.gateway.identify_count == 1 and emu.gateway.connected


async def test_member_request_without_a_guild_is_ignored_and_the_session_lives_on(emu: Emulator, world: World) -> None:
    session, ws, receive = await _raw_gateway(emu, 0)
    try:
        assert (await receive())["t"] == "READY"
        assert (await receive())["t"] == "GUILD_CREATE"
        await ws.send_json({"op": 8, "d": {"query": "", "limit": 0}})
        await ws.send_json({"op": 1, "d": 2})
        assert (await receive())["op"] == 11
        assert not ws.closed
    finally:
        await ws.close()
        await session.close()
