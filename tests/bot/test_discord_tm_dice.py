"""Terraforming Mars: The Dice Game through the Discord layer: the opening of a game by clicks.

A whole game (about 900 random steps) is too long for the suite; the engine's conformance run
plays 200 whole games per player count.
"""

from __future__ import annotations

import random

import pytest

from bot.client import MeepleBot
from emulator.testing import running
from tests.support.driver import Table, is_board


@pytest.mark.parametrize("players", [1, 2])
async def test_the_opening_moves_are_played_with_buttons_and_menus(emu, world, config_for, players) -> None:
    users = [world.alice, world.bob][:players]
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        created = await emu.slash(world.alice, world.channel, "table create", {"game": "tm-dice"})
        assert "table is open" in (await created.final_message()).content
        lobby = emu.last_message(world.channel)
        for user in users[1:]:
            await (await emu.click(user, lobby, label="Join")).response()
            await emu.wait_until(lambda u=user: f"<@{u.id}>" in lobby.content, what="the player joined")
        await (await emu.click(world.alice, lobby, label="Start")).response()
        await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
        await emu.wait_until(lambda: all(len(emu.dms(u)) == 1 for u in users), what="corporations and cards by DM")
        table = Table(emu, world.channel, users, random.Random(players))
        for _ in range(40):
            if table.finished():
                break
            await table.play_one()
        row = await bot.db.active_game_in_channel(world.channel.id)
        assert row is None or row.version >= 40
