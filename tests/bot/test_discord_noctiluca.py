"""Noctiluca on Discord, through the real bot and the loopback emulator: whole games by clicks."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.client import MeepleBot
from emulator.testing import running
from engine import GAMES
from services.wording.noctiluca import jar_name
from tests.support.driver import Table, action_buttons, is_board, labels, mentioned

# Nothing here looks at a finished game's animated replay (tests/bot/test_replays.py does).
pytestmark = pytest.mark.usefixtures("no_replays")


async def open_table(emu, world):
    created = await emu.slash(world.alice, world.channel, "table create", {"game": "noctiluca"})
    answer = await created.final_message()
    assert answer.ephemeral and "table is open" in answer.content
    return emu.last_message(world.channel)


async def start(emu, world, lobby, players: list) -> None:
    for user in players[1:]:
        joined = await emu.click(user, lobby, label="Join")
        await joined.response()
        await emu.wait_until(lambda u=user: f"<@{u.id}>" in lobby.content, what="the player listed in the lobby")
    started = await emu.click(world.alice, lobby, label="Start")
    await started.response()
    await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
    await emu.wait_until(lambda: all(len(emu.dms(u)) for u in players), what="every favourite by DM")


async def secret_jars(bot: MeepleBot, game_id: int) -> list[str]:
    """Names of the jars someone holds in secret now (dealt and not yet revealed, or drawn solo)."""
    row = await bot.db.get_game(game_id)
    state = GAMES["noctiluca"].load(row.state)
    return [jar_name(j["id"], "en") for seat in range(state.players) for j in state.view(seat)["private"]["hand"]]


def assert_not_shown(message, secrets: list[str]) -> None:
    text = " ".join([message.content, *labels(message)])
    for name in secrets:
        assert f"{name}:" not in text and f"{name} " not in text + " ", f"{name} is shown in public: {text!r}"


async def test_two_players_play_a_whole_game_by_clicks(emu, world, config_for) -> None:
    """Alice and Bob keep their jars in secret, dive step by step, pass dice, and reach the final score."""
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        lobby = await open_table(emu, world)
        await start(emu, world, lobby, [world.alice, world.bob])
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        first = table.board()
        assert "choose which 2 jars to keep" in first.content and not action_buttons(first)
        assert "secret favourite colour" in emu.dms(world.alice)[0].content
        seen_steps = set()
        for _ in range(600):
            if table.finished():
                break
            board = table.board()
            content = board.content
            for step in ("Pick a free shore", "pick a path: **S** (short", "name a number", "Store one of them"):
                if step in content:
                    seen_steps.add(step)
            if "pick a path" in content:
                # each path button says what it reaches
                assert all(" path: " in b["label"] for b in action_buttons(board)), labels(board)
            if "name a number" in content:
                # every number button says what it would take on that path
                assert all(":" in b["label"] for b in action_buttons(board)), labels(board)
            assert_not_shown(board, await secret_jars(bot, game_id))
            await table.play_one()
        assert table.finished()
        assert {"Pick a free shore", "pick a path: **S** (short", "name a number"} <= seen_steps
        row = await bot.db.get_game(game_id)
        assert row.status == "finished" and row.outcome is not None
        final = table.board()
        assert "Game over" in final.content and ("wins" in final.content or "share the win" in final.content)
        replay = GAMES["noctiluca"].new(2, row.seed, row.options)
        for entry in await bot.db.actions(game_id):
            replay.apply(entry.seat, entry.action)
        assert replay.to_dict() == row.state
        image = Image.open(io.BytesIO(final.attachments[0].content))
        assert image.format == "PNG" and image.width > image.height


async def test_solo_game_against_the_storm(emu, world, config_for) -> None:
    """Alone, the storm follows every dive and is told step by step; the game ends in a win or a loss."""
    table = Table(emu, world.channel, [world.alice], random.Random(4))
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        lobby = await open_table(emu, world)
        await start(emu, world, lobby, [world.alice])
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        storm_lines = 0
        for _ in range(300):
            if table.finished():
                break
            await table.play_one()
            content = table.board().content
            storm_lines += sum(content.count(f"Storm {i}:") for i in (1, 2, 3))
        assert table.finished()
        assert storm_lines >= 3 * 12, "each of the 12 turns shows the storm's 3 steps"
        final = table.board()
        assert "beat the storm" in final.content or "The storm wins" in final.content
        row = await bot.db.get_game(game_id)
        assert row.status == "finished"


async def test_someone_waiting_sees_no_choice_in_my_hand(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        lobby = await open_table(emu, world)
        await start(emu, world, lobby, [world.alice, world.bob])
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(1))
        await table.play_one()  # one of them keeps two jars
        board = table.board()
        waiting = world.alice if world.alice.id not in mentioned(board) else world.bob
        hand = await emu.click(waiting, board, label="My hand")
        panel = (await hand.followups(1))[0]
        assert panel.ephemeral and "not your turn" in panel.content and not action_buttons(panel)
        assert "favourite colour" in panel.content


def test_every_choice_and_event_is_worded_within_discords_limits() -> None:
    """Labels fit a button (80), descriptions a menu option (100); every public event has a line."""
    from services.wording.noctiluca import NoctilucaAdapter

    adapter = NoctilucaAdapter()
    silent = {"turn"}
    seen: set[str] = set()
    for players in (1, 2, 3, 4):
        state = GAMES["noctiluca"].new(players, players + 10)
        names = ["Ann", "Bo", "Cy", "Di"][:players]
        rng = random.Random(players)
        for e in state.setup_events:
            assert adapter.describe_event(e, names, "en") or e["type"] in silent
        while state.outcome() is None:
            seat = rng.choice(state.to_move())
            view = state.view(seat)
            assert adapter.prompt(view["public"], ["<@1>"], "en")
            assert adapter.hand_text(view, "en")
            for action in state.legal_actions(seat):
                label = adapter.action_label(action, view, "en")
                description = adapter.action_description(action, view, "en")
                assert 0 < len(label) <= 80 and (description is None or len(description) <= 100)
                assert label != action.text
            for e in state.apply(seat, rng.choice(state.legal_actions(seat))):
                seen.add(e["type"])
                assert adapter.describe_event(e, names, "en") or e["type"] in silent, e
        assert adapter.outcome_lines(state.outcome(), names, "en")
    assert {"dive", "stored", "delivered", "storm discard", "storm roll", "storm turns"} <= seen


def test_a_number_button_says_what_it_would_take() -> None:
    from services.wording.noctiluca import NoctilucaAdapter

    state = GAMES["noctiluca"].new(2, 1)
    for seat in range(2):
        d = state.pending["dealt"][seat]
        state.apply(seat, f"keep {d[0]} {d[1]}")
    me = state.current
    state.apply(me, "shore 1")
    state.apply(me, "path long")
    view = state.view(None)
    public = view["public"]
    spaces = public["shores"][0]["paths"]["long"]
    threes = [d["colour"] for sid in spaces for d in public["spaces"][sid]["dice"] if d["face"] == 3]
    label = NoctilucaAdapter().action_label(state.legal_actions(me)[2], view, "en")
    assert label.startswith("3: ")
    for colour in set(threes):
        assert f"{threes.count(colour)} {colour}" in label
    assert all(not a.text.startswith("keep") for a in state.legal_actions(me))
