"""A whole game of every other registered game, end to end: the bot process, the emulator,
users pressing buttons. (The Duet has its own, longer suite in test_fox_duet.py.)"""

from __future__ import annotations

import json
import random

import pytest

from engine import GAMES
from tests.support.driver import Table, is_board
from tests.support.tm_dice_policy import choose

CASES = [("noctiluca", 1), ("noctiluca", 3), ("vivarium", 2), ("vivarium", 4), ("tm-dice", 2)]


def goal_seeking(bot, rng: random.Random):
    """For Terraforming Mars: The Dice Game (a thousand steps at random): users who play towards
    the goal, reading the game from the bot's database as a second process would."""

    async def chooser(user, offered: list[str]) -> str:
        row = bot.query("SELECT id, state FROM games ORDER BY id DESC LIMIT 1")[0]
        seat = bot.query("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", (row["id"], user.id))[0]["seat"]
        return choose(GAMES["tm-dice"].load(json.loads(row["state"])), seat, offered, rng)

    return chooser


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
async def test_a_whole_game_from_the_slash_command_to_the_final_score(emu, world, bot, game, players) -> None:
    assert game in GAMES
    extra = [emu.add_user(name, global_name=name.title()) for name in ("carol", "dave")]
    for user in extra:
        emu.add_member(world.guild, user)
    users = [world.alice, world.bob, *extra][:players]
    created = await emu.slash(users[0], world.channel, "table create", {"game": game})
    assert "table is open" in (await created.final_message()).content
    lobby = emu.last_message(world.channel)
    for user in users[1:]:
        await (await emu.click(user, lobby, label="Join")).response()
        await emu.wait_until(lambda u=user: f"<@{u.id}>" in lobby.content, what="the player in the lobby")
    await (await emu.click(users[0], lobby, label="Start")).response()
    await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
    rng = random.Random(players)
    table = Table(emu, world.channel, users, rng, chooser=goal_seeking(bot, rng) if game == "tm-dice" else None)
    while not table.finished():
        await table.play_one()
        assert table.moves < 1000, "the game did not end"
    row = bot.query("SELECT status, outcome FROM games ORDER BY id DESC LIMIT 1")[0]
    assert row["status"] == "finished"
    assert len(json.loads(row["outcome"])["scores"]) == players
    assert all(len(emu.dms(user)) >= 1 for user in users), "every player gets their secrets by DM"
