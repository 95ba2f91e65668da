"""Other routes a game bot leans on: threads from messages, members, reactions, history, DM commands."""

from __future__ import annotations

import discord

from emulator import Emulator
from emulator.testing import World
from tests.emulator.sample_bot import SampleBot, channel_of


async def test_thread_from_message_shares_its_id(emu: Emulator, world: World, bot: SampleBot) -> None:
    message = await channel_of(bot, world.channel.id).send("game #1 starts")
    thread = await message.create_thread(name="game 1")
    assert thread.id == message.id
    assert emu.state.channels[thread.id].is_thread
    await thread.send("first move")
    assert [m.content for m in emu.messages(emu.state.channels[thread.id])] == ["first move"]
    await emu.wait_until(lambda: bot.get_channel(thread.id), what="THREAD_CREATE in the cache")


async def test_fetch_member_and_unknown_member(emu: Emulator, world: World, bot: SampleBot) -> None:
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    member = await guild.fetch_member(world.alice.id)
    assert (member.id, member.global_name) == (world.alice.id, "Alice")
    stranger = emu.add_user("stranger")
    try:
        await guild.fetch_member(stranger.id)
    except discord.NotFound as missing:
        assert missing.code == 10007
    else:
        raise AssertionError("expected 10007 Unknown Member")


async def test_reactions_both_ways(emu: Emulator, world: World, bot: SampleBot) -> None:
    seen: list[discord.RawReactionActionEvent] = []

    async def on_raw_reaction_add(payload: discord.RawReactionActionEvent) -> None:
        seen.append(payload)

    bot.add_listener(on_raw_reaction_add)
    message = await channel_of(bot, world.channel.id).send("vote")
    await message.add_reaction("👍")
    stored = emu.state.messages[message.id]
    await emu.react(world.bob, stored, "👍")
    assert stored.reactions == {"👍": [emu.bot_user.id, world.bob.id]}
    await emu.wait_until(lambda: len(seen) == 2, what="two reaction events")
    assert {p.user_id for p in seen} == {emu.bot_user.id, world.bob.id}


async def test_history_is_newest_first(emu: Emulator, world: World, bot: SampleBot) -> None:
    for text in ("one", "two", "three"):
        await emu.send_message(world.alice, world.channel, text)
    history = [m.content async for m in channel_of(bot, world.channel.id).history(limit=2)]
    assert history == ["three", "two"]


async def test_slash_in_a_dm_has_a_user_not_a_member(emu: Emulator, world: World, bot: SampleBot) -> None:
    dm = emu.dm_channel(world.alice)
    result = await emu.slash(world.alice, dm, "ping")
    assert "user" in result.payload and "member" not in result.payload
    response = await result.response()
    assert response.message is not None and response.message.channel_id == dm.id
    assert emu.ephemerals(world.alice) == [response.message]
