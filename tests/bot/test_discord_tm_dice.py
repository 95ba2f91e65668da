"""Terraforming Mars: The Dice Game through the real bot and the loopback emulator: whole games.

For 1, 3 and 4 players (2 players: tests/e2e/test_every_game.py), users open a table with the
slash command and play to the final score by pressing the buttons and menus the bot shows
them. A random player needs about a thousand steps per game; these users play towards the goal
instead (``tests/support/tm_dice_policy.py`` reads the game to choose, but only ever presses
what is offered), so a game takes two to three hundred clicks.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

import services.game_service
from bot.client import MeepleBot
from emulator.testing import running
from engine import GAMES
from engine.tm_dice.content import CARDS
from tests.support.driver import Table, action_buttons, action_of, is_board, labels
from tests.support.tm_dice_policy import choose

# A seed per player count whose game is short with the goal-seeking player: 199, 237 and 189
# engine steps (bench/simulate_tm_dice.py lists the shortest seeds).
SEEDS = {1: 18, 3: 15, 4: 14}
SUCCESS = 3  # discord.ButtonStyle.success: the proposed payment

# Nothing here looks at a finished game's animated replay (tests/bot/test_replays.py does).
pytestmark = pytest.mark.usefixtures("no_replays")


def players_of(emu, world, count: int) -> list:
    users = [world.alice, world.bob]
    for name in ("carol", "dave")[: count - 2]:
        user = emu.add_user(name, global_name=name.title())
        emu.add_member(world.guild, user)
        users.append(user)
    return users[:count]


def hidden_card_names(state) -> list[str]:
    """Names of the project cards now in hands: the rules keep them secret until played."""
    return [CARDS[c].name for seat in state.seats for c in seat["hand"]]


# Two players play a whole game end to end too, with the bot as its own process
# (tests/e2e/test_every_game.py); here the other counts, in-process.
@pytest.mark.parametrize("players", [1, 3, 4])
async def test_a_whole_game_is_played_to_the_final_score_with_buttons_and_menus(
    emu, world, config_for, monkeypatch, players
) -> None:
    """Done when: 1, 2, 3 and 4 players can each play to the final score on Discord."""
    monkeypatch.setattr(services.game_service, "secrets", SimpleNamespace(randbits=lambda bits: SEEDS[players]))
    users = players_of(emu, world, players)
    rng = random.Random(players)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as meeple:
        service = meeple.flow.service
        created = await emu.slash(users[0], world.channel, "table create", {"game": "tm-dice"})
        assert "table is open" in (await created.final_message()).content
        lobby = emu.last_message(world.channel)
        for user in users[1:]:
            await (await emu.click(user, lobby, label="Join")).response()
            await emu.wait_until(lambda u=user: f"<@{u.id}>" in lobby.content, what="the player joined")
        await (await emu.click(users[0], lobby, label="Start")).response()
        await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
        await emu.wait_until(lambda: all(len(emu.dms(u)) >= 1 for u in users), what="corporations and cards by DM")
        for user in users:
            dm = emu.dms(user)[0].content
            assert "corporation" in dm.lower(), dm
        game_id = (await service.db.active_game_in_channel(world.channel.id)).id

        async def current_state():
            row = await service.get(game_id)
            return row, GAMES["tm-dice"].load(row.state)

        async def goal_seeking(user, offered: list[str]) -> str:
            row, state = await current_state()
            seat = await service.seat_of(row, user.id)
            return choose(state, seat, offered, rng)

        table = Table(emu, world.channel, users, rng, chooser=goal_seeking)
        proposals = 0
        while not table.finished():
            await table.play_one()
            assert table.moves < 1500, "the game did not end"
            board = table.board()
            _, state = await current_state()
            text = " ".join([board.content, *labels(board)])
            for name in hidden_card_names(state):
                assert name not in text, f"{name} (in a hand) is named on the board: {text!r}"
            pay = [b for b in action_buttons(board) if action_of(b["custom_id"]).startswith("pay ")]
            if pay:
                proposals += 1
                assert pay[0]["style"] == SUCCESS and pay[0]["label"].endswith("(proposed)"), pay[0]
                assert all(b["style"] != SUCCESS for b in pay[1:])

        row = await service.get(game_id)
        assert row.status == "finished"
        # The bonus cards looked at in secret go by DM (solo: after the first production).
        assert any("You earned a bonus card" in m.content for u in users for m in emu.dms(u))
        outcome = row.outcome
        assert len(outcome["scores"]) == players
        final = table.board().content
        assert "Final scores:" in final
        for user, detail in zip(users, outcome["details"], strict=True):
            assert f"{user.global_name or user.name}: {detail['total']} (" in final, final
        if players == 1:
            won = bool(outcome["winners"])
            assert ("Mars is terraformed" in final) == won and ("does not count" in final) == (not won)
        else:
            assert "win" in final
