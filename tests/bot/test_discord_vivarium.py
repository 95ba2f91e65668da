"""Vivarium through the real bot and the loopback emulator: whole games, secrets kept, rounds announced."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.client import MeepleBot
from emulator.testing import running
from engine import GAMES, Action
from engine.vivarium.content import STARTING
from services.wording import adapter_for
from tests.support.driver import Table, action_buttons, is_board, labels, mentioned

SECRET_NAMES = [c["name"] for c in STARTING.values()]

# Nothing here looks at a finished game's animated replay (tests/bot/test_replays.py does).
pytestmark = pytest.mark.usefixtures("no_replays")


async def open_and_start(emu, world, players: list) -> None:
    created = await emu.slash(world.alice, world.channel, "table create", {"game": "vivarium"})
    answer = await created.final_message()
    assert answer.ephemeral and "table is open" in answer.content
    lobby = emu.last_message(world.channel)
    for user in players[1:]:
        joined = await emu.click(user, lobby, label="Join")
        await joined.response()
        await emu.wait_until(lambda u=user: f"<@{u.id}>" in lobby.content, what="a player listed in the lobby")
    started = await emu.click(world.alice, lobby, label="Start")
    await started.response()
    await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
    await emu.wait_until(lambda: all(len(emu.dms(u)) for u in players), what="every secret by DM")


def assert_no_secret_in_channel(emu, channel) -> None:
    for message in emu.messages(channel):
        text = " ".join([message.content, *labels(message)])
        for name in SECRET_NAMES:
            assert name not in text, f"the secret contract {name} is shown in the channel: {text!r}"


def extra_players(emu, world, count: int) -> list:
    users = [world.alice, world.bob]
    for name in ("carol", "dave")[: count - 2]:
        user = emu.add_user(name, global_name=name.title())
        emu.add_member(world.guild, user)
        users.append(user)
    return users


async def play_to_the_end(emu, world, bot, users, seed: int) -> None:
    table = Table(emu, world.channel, users, random.Random(seed))
    await open_and_start(emu, world, users)
    game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
    # The secret starting contracts arrive by DM at the start: both of them, worded.
    row = await bot.db.get_game(game_id)
    state = GAMES["vivarium"].new(len(users), row.seed, row.options)
    for seat, user in enumerate(users):
        dm = emu.dms(user)[0].content
        assert "secret starting contracts" in dm
        for contract in state.view(seat)["private"]["contracts"]:
            assert contract["name"] in dm
    board = table.board()
    assert "first player marker" in board.content and "Round 1/7" in board.content
    assert action_buttons(board), "every Vivarium choice is public: buttons on the board"
    for _ in range(2000):
        if table.finished():
            break
        await table.play_one()
        board = table.board()
        assert len(action_buttons(board)) <= 20
    assert table.finished()
    row = await bot.db.get_game(game_id)
    assert row.status == "finished" and row.outcome is not None
    final = table.board()
    assert "Final scores" in final.content and ("wins" in final.content or "share the win" in final.content)
    everything = "\n".join(m.content for m in emu.messages(world.channel))
    assert everything.count("**End of round") == 7
    assert everything.count("Priority:") == 6  # rounds 2-7 announced
    assert_no_secret_in_channel(emu, world.channel)
    replay = GAMES["vivarium"].new(len(users), row.seed, row.options)
    for entry in await bot.db.actions(game_id):
        replay.apply(entry.seat, entry.action)
    assert replay.to_dict() == row.state
    image = Image.open(io.BytesIO(final.attachments[0].content))
    assert image.format == "PNG" and image.width == 1600 and image.height > 900  # the key lines above the board


async def test_whole_two_player_game(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await play_to_the_end(emu, world, bot, [world.alice, world.bob], seed=3)


async def test_whole_three_player_game(emu, world, config_for) -> None:
    users = extra_players(emu, world, 3)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await play_to_the_end(emu, world, bot, users, seed=7)


async def test_whole_four_player_game(emu, world, config_for) -> None:
    users = extra_players(emu, world, 4)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await play_to_the_end(emu, world, bot, users, seed=4)


async def test_my_hand_shows_the_secret_contracts_and_the_choices(emu, world, config_for) -> None:
    users = extra_players(emu, world, 3)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await open_and_start(emu, world, users)
        table = Table(emu, world.channel, users)
        board = table.board()
        mover = table.user(mentioned(board)[0])
        hand = await emu.click(mover, board, label="My hand")
        panel = (await hand.followups(1))[0]
        assert panel.ephemeral and "secret starting contracts" in panel.content
        assert panel.attachments and panel.attachments[0].filename == "hand.png"
        assert panel.selects() or action_buttons(panel)
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        assert (await bot.db.get_game(game_id)).version == 0


def test_every_label_and_description_fits_discord() -> None:
    """Labels <= 80 characters, descriptions <= 100, at every step of seeded games for 2-4 players."""
    adapter = adapter_for("vivarium")
    for players in (2, 3, 4):
        state = GAMES["vivarium"].new(players, players)
        rng = random.Random(players)
        names = [f"Player {i}" for i in range(players)]
        while state.outcome() is None:
            seat = state.to_move()[0]
            view = state.view(seat)
            actions = state.legal_actions(seat)
            assert len(actions) <= 20
            for action in actions:
                label = adapter.action_label(action, view, "en")
                description = adapter.action_description(action, view, "en")
                assert label and len(label) <= 80
                assert description is None or len(description) <= 100
            for event in state.apply(seat, rng.choice(actions)):
                line = adapter.describe_event(event, names, "en")
                assert line is None or len(line) < 500


def test_done_lines_after_a_move_still_say_what_was_done() -> None:
    """The 'Done: …' answer is worded from the view after the move: the card is gone, the number moved."""
    from tests.engine.test_vivarium_rules import check, make_state, set_tokens

    adapter = adapter_for("vivarium")
    state = make_state(4, gems=2)
    set_tokens(state, [["t1", "t5"], ["t3", "t4"], ["t2", "t6"], ["t7", "t9"]], ["t8"])
    check(state)
    state.apply(0, "swap give=t5 take=t8")
    before = adapter.action_label(Action("adjust t8 from=4 to=3"), state.view(0), "en")
    state.apply(0, "adjust t8 from=4 to=3")
    after = adapter.action_label(Action("adjust t8 from=4 to=3"), state.view(0), "en")
    assert before == after == "1 gem: [1|4] → [1|3]"
    offered = adapter.action_label(Action("take row=1 col=1"), state.view(0), "en")
    assert offered.startswith("R1 C1: ")
    state.apply(0, "take row=1 col=1")
    assert adapter.action_label(Action("take row=1 col=1"), state.view(0), "en") == "Take the card at row 1, column 1"
