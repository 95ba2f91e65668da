"""Channel messages, DMs, rate limits, archived threads, upload limits and unknown routes."""

from __future__ import annotations

import io
import time

import discord
import pytest
from discord.http import Route

from emulator import Emulator
from emulator.testing import World
from tests.emulator.sample_bot import SampleBot, channel_of


async def test_send_edit_delete_and_read_back(emu: Emulator, world: World, bot: SampleBot) -> None:
    channel = channel_of(bot, world.channel.id)
    sent = await channel.send("round 1", embed=discord.Embed(title="Scores", description="alice 3"))
    stored = emu.last_message(world.channel)
    assert stored is not None and stored.id == sent.id and stored.embeds[0]["title"] == "Scores"
    await sent.edit(content="round 2")
    assert stored.content == "round 2" and stored.edit_count == 1
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "round 2" and fetched.edited_at is not None
    await sent.delete()
    assert emu.messages(world.channel) == []


async def test_user_messages_reach_the_bot(emu: Emulator, world: World, bot: SampleBot) -> None:
    posted = await emu.send_message(world.alice, world.channel, "hello bot")
    await emu.wait_until(lambda: bot.seen_messages, what="on_message")
    seen = bot.seen_messages[-1]
    assert (seen.id, seen.content, seen.author.id) == (posted.id, "hello bot", world.alice.id)


async def test_dm_and_closed_dm(emu: Emulator, world: World, bot: SampleBot) -> None:
    alice = await bot.fetch_user(world.alice.id)
    await alice.send("your turn")
    assert [m.content for m in emu.dms(world.alice)] == ["your turn"]
    emu.faults.dm_closed(world.bob)
    bob = await bot.fetch_user(world.bob.id)
    with pytest.raises(discord.Forbidden) as refused:
        await bob.send("your turn")
    assert refused.value.code == 50007
    assert emu.dms(world.bob) == []


async def test_429_is_waited_out_by_discord_py(emu: Emulator, world: World, bot: SampleBot) -> None:
    rule = emu.faults.rate_limit(f"POST /channels/{world.channel.id}/messages", times=1, retry_after=0.2)
    started = time.monotonic()
    await channel_of(bot, world.channel.id).send("after the storm")
    assert time.monotonic() - started >= 0.2
    assert rule.hits == 1
    assert [m.content for m in emu.messages(world.channel)] == ["after the storm"]
    statuses = [r.status for r in emu.requests if r.path == f"/channels/{world.channel.id}/messages"]
    assert statuses == [429, 200]


async def test_injected_errors_and_global_rate_limit(emu: Emulator, world: World, bot: SampleBot) -> None:
    emu.faults.fail("PATCH /channels/", 403, 50013, "Missing Permissions")
    message = await channel_of(bot, world.channel.id).send("v1")
    with pytest.raises(discord.Forbidden) as refused:
        await message.edit(content="v2")
    assert refused.value.code == 50013
    await message.edit(content="v2")
    rule = emu.faults.rate_limit("/channels/", times=1, retry_after=0.1, is_global=True)
    await message.edit(content="v3")
    assert rule.hits == 1 and emu.last_message(world.channel).content == "v3"  # type: ignore[union-attr]


async def test_archived_thread_refuses_posts_until_unarchived(emu: Emulator, world: World, bot: SampleBot) -> None:
    thread = emu.add_thread(world.channel, "old game", archived=True)
    with pytest.raises(discord.HTTPException) as refused:
        await bot.get_partial_messageable(thread.id).send("anyone?")
    assert (refused.value.status, refused.value.code) == (400, 50083)
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived
    await fetched.edit(archived=False)
    assert not thread.archived
    await fetched.send("back in play")
    assert [m.content for m in emu.messages(thread)] == ["back in play"]


async def test_upload_over_10_mib_gets_40005(emu: Emulator, world: World, bot: SampleBot) -> None:
    too_big = discord.File(io.BytesIO(b"\0" * (10 * 1024 * 1024 + 1)), filename="huge.bin", description="Too big")
    with pytest.raises(discord.HTTPException) as refused:
        await channel_of(bot, world.channel.id).send(file=too_big)
    assert (refused.value.status, refused.value.code) == (413, 40005)
    ok = discord.File(io.BytesIO(b"x" * 1024), filename="small.bin", description="Small")
    await channel_of(bot, world.channel.id).send(file=ok)
    assert emu.messages(world.channel)[0].attachments[0].size == 1024


async def test_limits_are_enforced(emu: Emulator, world: World, bot: SampleBot) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await channel_of(bot, world.channel.id).send("x" * 2001)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert [r.split(": ", 1)[1] for r in emu.invalid_requests] == [
        "Invalid Form Body: content: Must be 2000 or fewer in length. (BASE_TYPE_MAX_LENGTH)"
    ]
    emu.invalid_requests.clear()  # refused on purpose: assert_clean fails on any other


async def test_unknown_route_is_a_clear_404(emu: Emulator, world: World, bot: SampleBot) -> None:
    with pytest.raises(discord.NotFound) as missing:
        await bot.http.request(Route("GET", "/no/such/route"))
    assert "no route for GET /api/v10/no/such/route" in missing.value.text
    assert emu.unknown_routes == ["GET /api/v10/no/such/route"]
    emu.unknown_routes.clear()


async def test_a_private_thread_shows_only_to_its_members_added_by_the_bot_or_by_a_mention(
    emu: Emulator, world: World, bot: SampleBot
) -> None:
    carol = emu.add_user("carol", global_name="Carol")
    emu.add_member(emu.state.guilds[world.guild.id], carol)
    parent = channel_of(bot, world.channel.id)
    thread = await parent.create_thread(name="alice's challenge", type=discord.ChannelType.private_thread)
    stored = emu.state.channels[thread.id]
    assert stored.type == 12 and stored.thread_member_ids == {emu.bot_user.id}
    with pytest.raises(PermissionError):  # not a member, no Manage Threads: Discord shows her nothing
        await emu.send_message(world.alice, stored, "may I?")

    await thread.add_user(discord.Object(world.alice.id))  # PUT /channels/{id}/thread-members/{user}
    assert world.alice.id in stored.thread_member_ids
    await emu.send_message(world.alice, stored, "in")
    await thread.send(f"no ping for <@{world.bob.id}>", allowed_mentions=discord.AllowedMentions.none())
    assert world.bob.id not in stored.thread_member_ids  # a mention that notifies nobody adds nobody
    await thread.send(f"your partner: <@{world.bob.id}>")
    assert world.bob.id in stored.thread_member_ids  # a mention adds the person, as on Discord
    await emu.send_message(world.bob, stored, "me too")
    with pytest.raises(PermissionError):
        await emu.send_message(carol, stored, "and me?")
    assert stored.thread_member_ids == {emu.bot_user.id, world.alice.id, world.bob.id}

    await thread.remove_user(discord.Object(world.bob.id))
    with pytest.raises(PermissionError):
        await emu.send_message(world.bob, stored, "still here?")
    emu.set_channel_permissions(world.channel, carol, deny=1 << 10)  # Carol cannot see #games at all
    with pytest.raises(discord.Forbidden):
        await thread.add_user(discord.Object(carol.id))
    assert [m.content for m in emu.messages(stored)][-1] == "me too"


async def test_an_edit_replaces_the_picture_and_notifies_nobody(emu: Emulator, world: World, bot: SampleBot) -> None:
    """PATCH with a new file, as Discord takes it: ``attachments`` lists what the message keeps
    (here only the new upload, with its alt text); a mention added by an edit pings nobody."""
    channel = channel_of(bot, world.channel.id)
    only_alice = discord.AllowedMentions(users=[discord.Object(world.alice.id)])
    sent = await channel.send(
        f"<@{world.alice.id}> <@{world.bob.id}> round 1",
        file=discord.File(io.BytesIO(b"first"), filename="board.png", description="the board, round 1"),
        allowed_mentions=only_alice,
    )
    stored = emu.last_message(world.channel)
    assert stored is not None and stored.notified_ids == [world.alice.id]
    picture = discord.File(io.BytesIO(b"second"), filename="board.png", description="the board, round 2")
    edited = await sent.edit(content=f"<@{world.owner.id}> round 2", attachments=[picture])
    assert [a.content for a in stored.attachments] == [b"second"] and stored.edit_count == 1
    assert stored.attachments[0].description == "the board, round 2"
    assert edited.attachments[0].filename == "board.png" and await edited.attachments[0].read() == b"second"
    assert stored.notified_ids == [world.alice.id], "an edit notifies nobody"


async def test_a_nonce_enforced_twice_returns_the_first_message(emu: Emulator, world: World, bot: SampleBot) -> None:
    channel = channel_of(bot, world.channel.id)
    first = await channel.send("board", nonce="mp1.2")
    again = await channel.send("board, again", nonce="mp1.2")
    other = await channel.send("another board", nonce="mp1.3")
    assert again.id == first.id and again.content == "board" and other.id != first.id
    assert [m.content for m in emu.messages(world.channel)] == ["board", "another board"]
