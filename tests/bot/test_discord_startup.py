"""Start-up with a backlog: boards a crash left unposted are caught up in the
background, a few games at a time, while clicks are answered at once; no state is loaded
before it is used."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.client import MeepleBot
from emulator.testing import running
from services.delivery import CATCH_UP, Delivery
from services.game_service import GameService
from services.storage import Database
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import Table, is_board, shown

BACKLOG = 10


async def test_start_up_answers_a_click_while_a_backlog_of_boards_is_still_held(
    emu, world, config_for, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)):
        await join_and_start(emu, world, await open_table(emu, world))
    # While the bot is down, ten more tables start, each in its own channel: their first boards
    # and hands are left pending, as a crash right after the moves would leave them.
    channels = [emu.add_text_channel(world.guild, f"table-{i}") for i in range(BACKLOG)]
    db = await Database.open(config.database)
    try:
        service = GameService(db)
        backlog = set()
        for channel in channels:
            row = await service.create("fox-duet", world.guild.id, channel.id, world.alice.id, "Alice", {})
            await service.join(row.id, world.bob.id, "Bob")
            await service.start(row.id, world.alice.id)
            backlog.add(row.id)
    finally:
        await db.close()

    # A slow Discord for the backlog's boards: each waits until the test lets it through.
    gate = asyncio.Event()
    held = 0
    most_held = 0
    post_board = Delivery.post_board

    async def slow_post_board(self, row, job, pace=True) -> None:  # noqa: ANN001 - Delivery.post_board's
        nonlocal held, most_held
        if row.id in backlog:
            held += 1
            most_held = max(most_held, held)
            try:
                await gate.wait()
            finally:
                held -= 1
        await post_board(self, row, job, pace)

    monkeypatch.setattr(Delivery, "post_board", slow_post_board)

    def posted(channel) -> bool:  # noqa: ANN001
        return any(is_board(m) for m in emu.messages(channel))

    async with running(emu, MeepleBot(config)) as bot:
        assert len(bot.flow.service._cache) == 0  # start-up loaded no state
        await emu.wait_until(lambda: held == CATCH_UP, what="the first boards of the backlog held")
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(5))
        before = shown(table.board())
        # Answered, and its board delivered (a new message, or the turn's edited: the deal
        # decides), with the backlog still held.
        await table.play_one()
        assert shown(table.board()) != before
        assert not any(posted(channel) for channel in channels)
        assert held == most_held == CATCH_UP  # the backlog goes a few games at a time
        gate.set()
        await emu.wait_until(lambda: all(posted(channel) for channel in channels), timeout=60, what="the backlog")
        await bot.flow.delivery.caught_up()
        assert most_held == CATCH_UP
        assert bot.flow.delivery._workers == {}  # finished workers are not kept
        assert len(bot.flow.service._locks) == 0
