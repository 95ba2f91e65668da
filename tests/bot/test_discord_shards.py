"""Two sharded bots (in one test process, as two processes would run) on one emulator and one database:
each one's scheduler reminds only the games of its own guilds."""

from __future__ import annotations

import contextlib
import dataclasses
import random
from pathlib import Path

from discord.ext import commands

from bot.client import MeepleBot, ShardedMeepleBot, create_bot
from emulator import Emulator
from emulator.testing import STRICT, assert_clean, make_world, running
from services.config import Config
from tests.bot.test_discord_computers import open_with_computers
from tests.bot.test_scheduler import FakeClock, open_with, reminders
from tests.support.driver import Table, mentioned


def sharded(config: Config, shard_id: int, count: int = 2) -> Config:
    return dataclasses.replace(config, dev_guild=None, shard_ids=(shard_id,), shard_count=count)


def test_a_bot_is_sharded_only_when_a_shard_count_is_configured(tmp_path: Path) -> None:
    plain = Config(token=None, database=tmp_path / "t.db", dev_guild=None, api_base=None, log_level="INFO")
    bot = create_bot(plain)
    assert type(bot) is MeepleBot and not isinstance(bot, commands.AutoShardedBot)
    bot = create_bot(sharded(plain, 1))
    assert isinstance(bot, ShardedMeepleBot) and isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_ids, bot.shard_count) == ([1], 2)
    assert bot.http.user_agent.startswith("DiscordBot (") and bot.http.user_agent.endswith("(shards 1 of 2)")


async def test_each_process_reminds_only_the_games_of_its_guilds(tmp_path: Path) -> None:
    clock = FakeClock()
    async with Emulator(heartbeat_interval=0.25, shard_count=2, **STRICT) as emu:
        first, second = make_world(emu, "First", shard=(0, 2)), make_world(emu, "Second", shard=(1, 2))
        base = Config(emu.bot_token, tmp_path / "meeple.db", None, emu.base_url, "INFO")
        async with contextlib.AsyncExitStack() as stack:
            zero = await stack.enter_async_context(running(emu, create_bot(sharded(base, 0), clock=clock)))
            one = await stack.enter_async_context(running(emu, create_bot(sharded(base, 1), clock=clock)))
            assert [g.id for g in zero.guilds] == [first.guild.id] and [g.id for g in one.guilds] == [second.guild.id]
            for world in (first, second):
                await open_with(emu, world, reminders=1)
            clock.advance(hours=1, minutes=1)
            assert zero.scheduler is not None and one.scheduler is not None
            await zero.scheduler.tick()
            assert len(reminders(emu, first)) == 1 and reminders(emu, second) == []
            await one.scheduler.tick()
            assert len(reminders(emu, first)) == 1 and len(reminders(emu, second)) == 1
            await zero.scheduler.tick()  # the first game's reminder was already sent: nothing new
            assert len(reminders(emu, first)) == 1 and len(reminders(emu, second)) == 1
        assert_clean(emu)


async def test_direct_messages_reach_the_process_of_shard_0_which_serves_them_from_the_shared_database(
    tmp_path: Path,
) -> None:
    """Discord sends DMs to shard 0 whichever server a user plays in: the guide and its page buttons
    (the components a DM can carry) work there, for a player of a server on shard 1."""
    async with Emulator(heartbeat_interval=0.25, shard_count=2, **STRICT) as emu:
        make_world(emu, "First", shard=(0, 2))
        second = make_world(emu, "Second", shard=(1, 2))
        base = Config(emu.bot_token, tmp_path / "meeple.db", None, emu.base_url, "INFO")
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(running(emu, create_bot(sharded(base, 0))))
            await stack.enter_async_context(running(emu, create_bot(sharded(base, 1))))
            await emu.wait_until(lambda: emu.commands(None), what="the commands synced by shard 0's process")
            dm = emu.dm_channel(second.alice)
            asked = await emu.slash(second.alice, dm, "meeple rules", {"game": "fox-duet"})
            shown = await asked.final_message()
            assert asked.record.shards == [(0, 2)] and "page 1 of" in shown.content
            step = await emu.click(second.alice, shown, label="Next ▶")
            await step.response()
            await emu.wait_until(lambda: "page 2 of" in shown.content, what="page 2 in the DM")
            assert step.record.shards == [(0, 2)]
        assert_clean(emu)


async def test_a_process_never_plays_the_computers_of_another_process_guild(tmp_path: Path) -> None:
    async with Emulator(heartbeat_interval=0.25, shard_count=2, **STRICT) as emu:
        make_world(emu, "First", shard=(0, 2))
        second = make_world(emu, "Second", shard=(1, 2))
        base = Config(emu.bot_token, tmp_path / "meeple.db", None, emu.base_url, "INFO")
        async with contextlib.AsyncExitStack() as stack:
            zero = await stack.enter_async_context(running(emu, create_bot(sharded(base, 0), computer_delay=0.01)))
            # The owner's computer thinks for a long while: whatever moves meanwhile was played by the other.
            one = await stack.enter_async_context(running(emu, create_bot(sharded(base, 1), computer_delay=60)))
            await emu.wait_until(lambda: emu.commands(None), what="the commands synced by shard 0's process")
            await open_with_computers(emu, second, "fox-duet", 1, "easy")
            table = Table(emu, second.channel, [second.alice], random.Random(2))
            # Alice's turn may take more than one step (a fox's decree trade, a woodcutter's
            # discard): its steps edit the turn's message, which mentions her until her turn ends.
            for _ in range(3):
                if second.alice.id not in mentioned(table.board()):
                    break
                await table.play_one()
            assert one.db is not None and zero.flow is not None and zero.flow.computer_turns is not None
            (row,) = await one.db.running_games()
            assert second.alice.id not in mentioned(table.board()), "the computer is to move"
            zero.flow.computer_turns.poke(row.id)
            await zero.flow.computer_turns.idle()
            assert (await one.db.get_game(row.id)).version == row.version
