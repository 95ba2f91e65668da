"""How to play: /meeple rules, the button on lobbies and boards, paging, and the line in My hand."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime

import discord
import pytest
from PIL import Image

from bot.client import MeepleBot
from bot.flow import MESSAGE_LIMIT
from bot.howto_ui import guide_exists, labels, page_png, page_text
from bot.posting import Poster
from bot.ui import ActButton
from emulator.testing import running
from engine import GAMES
from l10n.words import catalogue, t
from render.howto import BUDGET, SCENES, pages
from services.pictures import Pictures
from services.storage.db import SeatRow
from services.wording import adapter_for
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import Table, mentioned

GUIDE_GAMES = sorted(GAMES)


def buttons_by_label(message) -> dict[str, dict]:
    return {str(b.get("label")): b for b in message.buttons()}


def test_every_game_has_a_guide_of_three_to_six_pages_with_every_sentence() -> None:
    english = catalogue("en")
    for game in GUIDE_GAMES:
        assert guide_exists(game), game
        assert 3 <= len(pages(game)) <= 6, game
        for index, page in enumerate(pages(game)):
            for part in ("title", "text", "label.1"):
                assert f"howto.{game}.{page}.{part}" in english, f"{game}/{page}: no {part}"
            assert len(page_text(game, index, "en")) <= MESSAGE_LIMIT
            scene = SCENES[game][index]
            if not callable(scene.marks):  # every numbered mark on the picture has its line
                assert len(labels(game, page, "en")) >= len(scene.marks), f"{game}/{page}"


@pytest.mark.parametrize("game", GUIDE_GAMES)
def test_every_page_is_a_landscape_png_within_its_budget(game: str) -> None:
    for index in range(len(pages(game))):
        png = page_png(game, index, "en")
        assert len(png) <= BUDGET, (game, index, len(png))
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.size == (1600, 900)


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("fox-duet", 2),
        ("noctiluca", 1),
        ("noctiluca", 3),
        ("vivarium", 2),
        ("vivarium", 4),
        ("tm-dice", 1),
        ("tm-dice", 2),
    ],
)
def test_every_decision_of_a_game_is_explained(game: str, players: int) -> None:
    """Whatever the step, a player to move gets a line saying what the choice means."""
    adapter = adapter_for(game)
    rng = random.Random(players)
    for seed in (1, 2):
        state = GAMES[game].new(players, seed)
        for _ in range(1500):
            if state.outcome() is not None:
                break
            for seat in state.to_move():
                line = adapter.choice_help(state.view(seat), seat, "en")
                assert line and len(line) < 400, (game, state.view(seat)["public"].get("phase"), line)
            seat = state.to_move()[0]
            actions = [a for a in state.legal_actions(seat) if a.verb not in ("concede", "resign")]
            state.apply(seat, rng.choice(actions))


def test_following_suit_is_explained_with_the_led_suit() -> None:
    adapter = adapter_for("fox-duet")
    state = GAMES["fox-duet"].new(2, 1)
    leader = state.to_move()[0]
    assert "You lead this trick" in adapter.choice_help(state.view(leader), leader, "en")
    card = next(a for a in state.legal_actions(leader) if a.verb == "play")
    state.apply(leader, card)
    follower = state.to_move()[0]
    led = state.view(None)["public"]["trick_cards"][0]["card"]
    line = adapter.choice_help(state.view(follower), follower, "en")
    if led["ability"] == "royal":
        assert "Royal was led" in line
    else:
        assert f"play a {t('fox-duet.suit.' + led['suit'])} card" in line


async def test_rules_answers_privately_with_page_one_and_its_picture(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        for game in GUIDE_GAMES:
            asked = await emu.slash(world.alice, world.channel, "meeple rules", {"game": game})
            shown = await asked.final_message()
            assert shown.ephemeral
            assert f"page 1 of {len(pages(game))}" in shown.content
            assert t(f"howto.{game}.{pages(game)[0]}.title") in shown.content
            picture = shown.attachments[0]
            assert picture.filename == "how-to-play.png"
            assert Image.open(io.BytesIO(picture.content)).size == (1600, 900)
            pager = buttons_by_label(shown)
            assert pager["⏮ First"].get("disabled") and pager["◀ Back"].get("disabled")
            assert not pager["Next ▶"].get("disabled")
        assert not emu.messages(world.channel), "the guide is private: nothing is posted in the channel"


async def test_paging_goes_forward_and_back_and_stops_at_both_ends(emu, world, config_for) -> None:
    game = "noctiluca"
    count = len(pages(game))
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        asked = await emu.slash(world.bob, world.channel, "meeple rules", {"game": game})
        shown = await asked.final_message()
        first_picture = shown.attachments[0].content
        for number in range(2, count + 1):
            step = await emu.click(world.bob, shown, label="Next ▶")
            await step.response()
            await emu.wait_until(lambda n=number: f"page {n} of {count}" in shown.content, what=f"page {number}")
        assert t(f"howto.{game}.{pages(game)[-1]}.title") in shown.content
        assert shown.attachments[0].content != first_picture
        assert buttons_by_label(shown)["Next ▶"].get("disabled"), "no page after the last"
        back = await emu.click(world.bob, shown, label="◀ Back")
        await back.response()
        await emu.wait_until(lambda: f"page {count - 1} of {count}" in shown.content, what="the page before")
        first = await emu.click(world.bob, shown, label="⏮ First")
        await first.response()
        await emu.wait_until(lambda: f"page 1 of {count}" in shown.content, what="the first page")
        assert buttons_by_label(shown)["◀ Back"].get("disabled"), "no page before the first"


async def test_an_error_in_the_guide_gets_the_usual_private_answer(emu, world, config_for, monkeypatch, caplog) -> None:
    """The guide's buttons go through the one error path like every component: never a
    "thinking..." left for good, and one traceback in the log."""
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        shown = await (await emu.slash(world.bob, world.channel, "meeple rules", {"game": "fox-duet"})).final_message()
        lobby = await open_table(emu, world)

        def broken(game_id: str, index: int, loc: str) -> bytes:
            raise RuntimeError("injected fault in the guide")

        monkeypatch.setattr("bot.howto_ui.page_png", broken)
        caplog.clear()
        for message, label in ((shown, "Next ▶"), (lobby, "How to play")):
            clicked = await emu.click(world.bob, message, label=label)
            answer = (await clicked.followups(1))[0]
            assert answer.ephemeral and answer.content == t("error.internal"), answer.content
        failures = [r for r in caplog.records if r.exc_info]
        assert len(failures) == 2 and all("injected fault" in str(r.exc_info[1]) for r in failures)
        assert not [r for r in caplog.records if r.getMessage().startswith("Ignoring exception")]
        assert "page 1 of" in shown.content, "the page shown stays as it was"


async def test_lobby_and_board_carry_a_how_to_play_button(emu, world, config_for) -> None:
    carol = emu.add_user("carol", global_name="Carol")
    emu.add_member(world.guild, carol)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        lobby = await open_table(emu, world)
        from_lobby = await emu.click(carol, lobby, label="How to play")
        answer = (await from_lobby.followups(1))[0]
        assert answer.ephemeral and "How to play The Fox in the Forest Duet" in answer.content
        assert answer.attachments[0].filename == "how-to-play.png"
        await join_and_start(emu, world, lobby)
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
        await table.play_one()
        board = table.board()
        assert "How to play" in buttons_by_label(board)
        from_board = await emu.click(carol, board, label="How to play")
        answer = (await from_board.followups(1))[0]
        assert answer.ephemeral and "page 1 of" in answer.content
        assert not from_board.errors


async def test_a_board_with_twenty_public_choices_keeps_the_guide_within_discord_limits(monkeypatch) -> None:
    """20 choice buttons + My hand + Log + How to play: 23 buttons, at most 5 rows of 5."""
    flow = Poster.__new__(Poster)
    flow.locale = "en"
    flow.pictures = Pictures(workers=0)  # drawn in a thread: this test counts buttons, not processes

    seats = [SeatRow(7, 0, 10**17 + 1, datetime.now(UTC), "Alice"), SeatRow(7, 1, 10**17 + 2, datetime.now(UTC), "Bob")]
    flow.public_choices = lambda row, state, view, names=(), loc=None: [  # type: ignore[method-assign]
        ActButton(7, state.version, f"shore {n}", f"Shore {n}") for n in range(20)
    ]
    row = type("Row", (), {"id": 7, "game": "noctiluca", "language": "en"})()
    state = GAMES["noctiluca"].new(2, 1)
    payload = await flow.board_payload(row, state, ["line"], seats=seats)
    view: discord.ui.View = payload["view"]
    assert len(view.children) == 23
    rows = view.to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    assert any(getattr(item, "custom_id", "").startswith("mp:howto:noctiluca:") for item in view.children)


@pytest.mark.parametrize("game", GUIDE_GAMES)
async def test_my_hand_says_what_the_current_choice_means(emu, world, config_for, game: str) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        created = await emu.slash(world.alice, world.channel, "table create", {"game": game})
        assert "table is open" in (await created.final_message()).content
        await join_and_start(emu, world, emu.last_message(world.channel))
        table = Table(emu, world.channel, [world.alice, world.bob])
        mover = table.user(mentioned(table.board())[0])
        hand = await emu.click(mover, table.board(), label="My hand")
        panel = (await hand.followups(1, timeout=30))[0]
        row = await bot.db.active_game_in_channel(world.channel.id)
        state = await bot.flow.service.state(row)
        seat = [world.alice, world.bob].index(mover)
        expected = adapter_for(game).choice_help(state.view(seat), seat, "en")
        assert expected and t("howto.help.label", text=expected) in panel.content
