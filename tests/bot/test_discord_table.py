"""The real bot, through discord.py's own HTTP and gateway code, against the loopback emulator."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.client import MeepleBot
from emulator.testing import running
from engine import GAMES
from tests.support.driver import Table, action_buttons, is_board, mentioned
from tests.support.secrets import assert_no_hand_shown, hidden_fox_cards

# Nothing here looks at a finished game's animated replay (tests/bot/test_replays.py does).
pytestmark = pytest.mark.usefixtures("no_replays")


async def open_table(emu, world, options: str | None = None):
    args = {"game": "fox-duet"} | ({"options": options} if options else {})
    created = await emu.slash(world.alice, world.channel, "table create", args)
    answer = await created.final_message()
    assert answer.ephemeral and "table is open" in answer.content
    lobby = emu.last_message(world.channel)
    assert [b["label"] for b in lobby.buttons()] == ["Join", "Leave", "Start", "How to play"]
    return lobby


async def join_and_start(emu, world, lobby) -> None:
    joined = await emu.click(world.bob, lobby, label="Join")
    await joined.response()
    await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob listed in the lobby")
    started = await emu.click(world.alice, lobby, label="Start")
    await started.response()
    await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
    await emu.wait_until(lambda: len(emu.dms(world.alice)) and len(emu.dms(world.bob)), what="both hands by DM")


async def hidden_cards(bot: MeepleBot, game_id: int, since: int | None = None) -> list[str]:
    """The secret cards now; ``since`` is how many moves the board before this one told."""
    row = await bot.db.get_game(game_id)
    log = [(entry.seat, entry.action) for entry in await bot.db.actions(game_id)]
    return hidden_fox_cards(row.seed, row.options, log, since)


async def test_slash_command_creates_a_lobby_and_autocompletes_options(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        typed = await emu.autocomplete(
            world.alice, world.channel, "table create", {"game": "fox-duet", "options": "level"}, "options"
        )
        choices = await typed.choices()
        assert [c["value"] for c in choices] == [
            f"level={n} memory={m}" for n in (1, 2, 3) for m in ("off", "on")
        ]
        assert choices[2]["name"] == (
            "Level 2 (side B, 13 gems, 3 forest tokens) · Memory aid off: earlier tricks hidden (the rulebook)"
        )
        lobby = await open_table(emu, world, "level=2")
        assert "Level 2" in lobby.content
        # The menus show the current choices, not their "choose" placeholders.
        chosen = {
            (s["custom_id"].split(":")[-1] if ":opt:" in s["custom_id"] else "language"): [
                o["value"] for o in s["options"] if o.get("default")
            ]
            for s in lobby.selects()
        }
        assert chosen == {"level": ["2"], "memory": ["off"], "language": ["en"]}
        again = await emu.slash(world.bob, world.channel, "table create", {"game": "fox-duet"})
        refused = await again.final_message()
        assert refused.ephemeral and "already has a table" in refused.content


async def test_bad_options_are_refused_privately_and_create_nothing(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        bad = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet", "options": "level=9"})
        answer = await bad.final_message()
        assert answer.ephemeral and "level takes one of" in answer.content
        assert emu.messages(world.channel) == []


@pytest.mark.parametrize("bot_database", ["sqlite", "postgres"], indirect=True)
async def test_whole_game_with_a_restart_in_the_middle(emu, world, config_for) -> None:
    """Two users play a complete game by pressing buttons; the bot restarts halfway."""
    config = config_for(emu, world.guild.id)
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(5))
    async with running(emu, MeepleBot(config)) as bot:
        lobby = await open_table(emu, world)
        await join_and_start(emu, world, lobby)
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        assert "Table talk" in table.board().content
        # A board tells every move of its turn: when the same player moves again, the turn's
        # message is edited and still names the cards played earlier in it (a round's last card
        # and the next round's lead, the same card maybe dealt again). Which move each message
        # began with:
        began = {table.board().id: 0}
        # A loss needs 5 overshoots (5 tricks) and a win 12 gems: 8 moves is always mid-game.
        for _ in range(8):
            told = (await bot.db.get_game(game_id)).version
            await table.play_one()
            since = began.setdefault(table.board().id, told)
            assert_no_hand_shown(table.board(), await hidden_cards(bot, game_id, since))
    # A restart: a new bot process-equivalent, the same database file, the old messages.
    async with running(emu, MeepleBot(config)) as bot:
        assert not table.finished()
        for _ in range(400):
            if table.finished():
                break
            told = (await bot.db.get_game(game_id)).version
            await table.play_one()
            since = began.setdefault(table.board().id, told)
            assert_no_hand_shown(table.board(), await hidden_cards(bot, game_id, since))
        assert table.finished()
        row = await bot.db.get_game(game_id)
        assert row.status == "finished" and row.outcome is not None
        final = table.board()
        assert ("Team score" in final.content) or ("Game over" in final.content)
        replay = GAMES["fox-duet"].new(2, row.seed, row.options)
        for entry in await bot.db.actions(game_id):
            replay.apply(entry.seat, entry.action)
        assert replay.to_dict() == row.state
        image = Image.open(io.BytesIO(final.attachments[0].content))
        assert image.format == "PNG" and image.width > image.height


async def test_strangers_and_wrong_turns_are_refused_privately(emu, world, config_for) -> None:
    carol = emu.add_user("carol", global_name="Carol")
    emu.add_member(world.guild, carol)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        lobby = await open_table(emu, world)
        await join_and_start(emu, world, lobby)
        board = Table(emu, world.channel, [world.alice, world.bob]).board()
        mover = mentioned(board)[0]
        waiting = world.bob if mover == world.alice.id else world.alice
        peek = await emu.click(carol, board, label="My hand")
        answer = (await peek.followups(1))[0]
        assert answer.ephemeral and "not playing" in answer.content
        hand = await emu.click(waiting, board, label="My hand")
        panel = (await hand.followups(1))[0]
        assert panel.ephemeral and "not your turn" in panel.content and not action_buttons(panel)
        assert panel.attachments and panel.attachments[0].filename == "hand.png"
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        assert (await bot.db.get_game(game_id)).version == 0


async def test_a_click_on_an_old_board_is_refused_with_a_pointer(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        lobby = await open_table(emu, world)
        await join_and_start(emu, world, lobby)
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(2))
        mover = table.user(mentioned(table.board())[0])
        hand = await emu.click(mover, table.board(), label="My hand")
        old_panel = (await hand.followups(1))[0]
        await table.play_one()
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        version = (await bot.db.get_game(game_id)).version
        menu = old_panel.selects()[0]
        stale = await emu.select(mover, old_panel, menu["custom_id"], [menu["options"][0]["value"]])
        answer = (await stale.followups(1))[0]
        assert "out of date" in answer.content and "discord.com/channels" in answer.content
        assert (await bot.db.get_game(game_id)).version == version


async def test_closed_dms_get_a_public_notice_without_the_hand(emu, world, config_for) -> None:
    emu.faults.dm_closed(world.bob)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        lobby = await open_table(emu, world)
        joined = await emu.click(world.bob, lobby, label="Join")
        await joined.response()
        await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob joined")
        await (await emu.click(world.alice, lobby, label="Start")).response()
        notice = await emu.wait_for_message(world.channel, lambda m: "could not send a direct message" in m.content)
        assert f"<@{world.bob.id}>" in notice.content and f"<@{world.alice.id}>" not in notice.content
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        assert_no_hand_shown(notice, await hidden_cards(bot, game_id))
        assert len(emu.dms(world.alice)) == 1 and emu.dms(world.bob) == []
        hand = await emu.click(world.bob, Table(emu, world.channel, [world.alice, world.bob]).board(), label="My hand")
        panel = (await hand.followups(1))[0]
        assert panel.ephemeral and "Your 11 cards" in panel.content
