"""Every kind of persistent component, posted by one run of the bot, works after a restart.

Sign-ups run for days and boards for weeks: any restart (a deployment, a crash) comes between a
component being posted and clicked. The second run is a new bot on the same database and emulator.
"""

from __future__ import annotations

import random

import discord
import pytest

from bot.client import MeepleBot
from bot.ui import Answered
from emulator.testing import running
from l10n.words import t
from tests.bot.test_component_funnel import component_classes
from tests.bot.test_discord_table import join_and_start
from tests.bot.test_discord_tournaments import create, signup_message
from tests.bot.test_scheduler import FakeClock, reminders
from tests.bot.test_undo_and_seats import force_seed, fox_opening_seed
from tests.support.driver import PROPOSAL, Table, action_buttons, ask_to_concede, is_board, mentioned, shown

# The kinds of persistent component each test below clicks after the restart: together, every kind.
CLICKED_IN_THE_FIRST = {
    "SignupButton",
    "LobbyButton",
    "OptionSelect",
    "HowtoPage",
    "SnoozeButton",
    "HandButton",
    "ActButton",
    "ActSelect",
    "LogPage",
    "PastBoard",
    "GameButton",
}
CLICKED_IN_THE_SECOND = {"LanguageSelect", "UndoButton", "TeamConcede", "ForgetButton"}

SOMETHING_WRONG = t("error.internal")


@pytest.fixture(autouse=True)
def no_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    async def skip(flow, row, message, seats=None) -> None:
        return None

    monkeypatch.setattr("bot.history_ui.attach_replay", skip)


@pytest.fixture
def clicked(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The kinds of component whose click was handled (every one goes through ``Answered.checked``)."""
    kinds: set[str] = set()
    checked = Answered.checked

    async def noting(self, interaction) -> None:  # noqa: ANN001
        kinds.add(type(self).__name__)
        await checked(self, interaction)

    monkeypatch.setattr(Answered, "checked", noting)
    return kinds


def test_the_restart_tests_click_every_kind() -> None:
    kinds = {cls.__name__ for cls in component_classes() if issubclass(cls, discord.ui.DynamicItem)}
    assert CLICKED_IN_THE_FIRST | CLICKED_IN_THE_SECOND == kinds


def by_label(message) -> dict[str, dict]:
    return {str(b.get("label")): b for b in message.buttons()}


async def private_answer(result) -> str:
    answer = (await result.followups(1, timeout=30))[0]
    assert answer.ephemeral and SOMETHING_WRONG not in answer.content, answer.content
    return answer.content


async def open_in(emu, world, channel, **options) -> None:
    created = await emu.slash(world.alice, channel, "table create", {"game": "fox-duet", **options})
    assert "table is open" in (await created.final_message()).content


async def started_in(emu, world, channel) -> None:
    await open_in(emu, world, channel)
    lobby = emu.last_message(channel)
    await (await emu.click(world.bob, lobby, label="Join")).response()
    await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob in the lobby")
    await (await emu.click(world.alice, lobby, label="Start")).response()
    await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(channel)), what="the first board")


def rematch_button(message) -> str | None:
    return next((b["custom_id"] for b in message.buttons() if b.get("custom_id", "").startswith("mp:rematch:")), None)


async def test_every_persistent_component_works_after_a_restart(emu, world, config_for, clicked) -> None:
    config = config_for(emu, world.guild.id)
    clock = FakeClock()
    lobby_channel, over, quitting = (emu.add_text_channel(world.guild, name) for name in ("lobby", "over", "quitting"))
    async with running(emu, MeepleBot(config, clock)) as bot:
        # A tournament's sign-up, a lobby left open, and a game under way with its pagers.
        tournament = await create(emu, world, name="Winter cup", game="noctiluca", format="round-robin")
        await open_in(emu, world, lobby_channel)
        lobby = emu.last_message(lobby_channel)
        # The memory aid opens the Duet's past boards; a reminder comes after an hour.
        await open_in(emu, world, world.channel, options="level=1 memory=on", reminders=1)
        await join_and_start(emu, world, emu.last_message(world.channel))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(4))
        for _ in range(16):  # a log longer than a page
            await table.play_one()
        board = table.board()
        mover = table.user(mentioned(board)[0])
        clock.advance(hours=1, minutes=1)
        assert bot.scheduler is not None
        await bot.scheduler.tick()
        reminder = reminders(emu, world)[-1]
        # A game over, its final board offering a rematch; another whose player was asked to confirm resigning.
        await started_in(emu, world, over)
        asked = await (await emu.slash(world.bob, over, "table resign")).final_message()
        await (await emu.click(world.bob, asked, label="Yes, resign")).final_message()
        final = await emu.wait_until(
            lambda: next((m for m in emu.messages(over) if rematch_button(m)), None), what="the final board"
        )
        await started_in(emu, world, quitting)
        confirm = await (await emu.slash(world.bob, quitting, "table resign")).final_message()
        panel = (await (await emu.click(mover, board, label="My hand")).followups(1))[0]
        log_pager = (await (await emu.click(world.bob, board, label="Log")).followups(1))[0]
        past = await (await emu.slash(world.bob, world.channel, "table history", {"step": 1})).final_message()
        guide = await (await emu.slash(world.bob, world.channel, "meeple rules", {"game": "fox-duet"})).final_message()
        assert "page 1 of" in guide.content and "after move 1" in past.content
        assert not by_label(log_pager)["⏮ First"].get("disabled"), log_pager.content

    clicked.clear()
    async with running(emu, MeepleBot(config, clock)):
        # Tournament sign-up: Join and Leave.
        signup = signup_message(emu, world, tournament)
        joined = await private_answer(await emu.click(world.bob, signup, label="Join"))
        assert "You are signed up for **Winter cup**" in joined
        left = await private_answer(await emu.click(world.bob, signup, label="Leave"))
        assert "You have left **Winter cup**" in left

        # The lobby: its option menu, Join, Leave, How to play.
        menu = lobby.selects()[0]
        value = next(o["value"] for o in menu["options"] if not o.get("default"))
        before = lobby.content
        await (await emu.select(world.alice, lobby, menu["custom_id"], [value])).response()
        await emu.wait_until(lambda: lobby.content != before, what="the lobby redrawn with the option")
        await (await emu.click(world.bob, lobby, label="Join")).response()
        await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob listed in the lobby")
        await (await emu.click(world.bob, lobby, label="Leave")).response()
        await emu.wait_until(lambda: f"<@{world.bob.id}>" not in lobby.content, what="Bob gone from the lobby")
        assert "How to play" in await private_answer(await emu.click(world.bob, lobby, label="How to play"))

        # The reminder's Snooze, the board's buttons, and a choice from the hand panel of the first run.
        assert "snoozed" in await private_answer(await emu.click(mover, reminder, label="Snooze for this turn"))
        assert await private_answer(await emu.click(mover, board, label="My hand"))
        buttons = action_buttons(panel)
        before = shown(table.board())  # a step within the turn edits its board, a new turn posts one
        if buttons:
            acted = await emu.click(mover, panel, custom_id=buttons[0]["custom_id"])
        else:
            choices = panel.selects()[0]
            acted = await emu.select(mover, panel, choices["custom_id"], [choices["options"][0]["value"]])
        assert (await private_answer(acted)).startswith("Done")
        await emu.wait_until(lambda: shown(table.board()) != before, what="the board after the move")
        assert "Game log" in await private_answer(await emu.click(world.alice, board, label="Log"))
        assert "page 1 of" in await private_answer(await emu.click(world.alice, board, label="How to play"))
        await table.play_one()  # "My hand" on the current board, and its choices

        # The pagers of the first run: log, past boards, How to play.
        log_page = log_pager.content
        await (await emu.click(world.bob, log_pager, label="⏮ First")).response()
        await emu.wait_until(lambda: log_pager.content != log_page, what="the log's first page")
        await (await emu.click(world.bob, past, label="⏮ First")).response()
        await emu.wait_until(lambda: "after move 0" in past.content, what="the first board")
        await (await emu.click(world.bob, guide, label="Next ▶")).response()
        await emu.wait_until(lambda: "page 2 of" in guide.content, what="the guide's page 2")

        # Resigning, confirmed after the restart; a rematch of the game that was over.
        await private_answer(await emu.click(world.bob, confirm, label="Yes, resign"))
        await emu.wait_until(lambda: any(rematch_button(m) for m in emu.messages(quitting)), what="its final board")
        boards_over = len(emu.messages(over))
        await private_answer(await emu.click(world.alice, final, custom_id=rematch_button(final)))
        await emu.wait_until(lambda: len(emu.messages(over)) > boards_over, what="the rematch's lobby")
    # ActButton or ActSelect: the hand dealt decides which of the two the panel shows.
    assert CLICKED_IN_THE_FIRST - {"ActButton", "ActSelect"} <= clicked and clicked & {"ActButton", "ActSelect"}


async def test_the_language_menu_undo_a_team_concession_and_forget_me_work_after_a_restart(
    emu, world, config_for, clicked
) -> None:
    config = config_for(emu, world.guild.id)
    dana = emu.add_user("dana", global_name="Dana")
    emu.add_member(world.guild, dana)
    lobby_channel, team_channel = (emu.add_text_channel(world.guild, name) for name in ("lobby", "team"))
    async with running(emu, MeepleBot(config)) as bot:
        # A lobby (its language menu), a team asked to concede, a player asked to confirm forget-me.
        await open_in(emu, world, lobby_channel)
        lobby = emu.last_message(lobby_channel)
        await started_in(emu, world, team_channel)
        proposal = await ask_to_concede(emu, team_channel, world.bob)
        asked = await (await emu.slash(dana, world.channel, "meeple forget-me")).final_message()
        assert asked.ephemeral and asked.buttons(), asked.content
        # A move that leaves its player to move again: its answer offers Undo.
        await open_in(emu, world, world.channel)
        await join_and_start(emu, world, emu.last_message(world.channel))
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        await force_seed(bot.db, game_id, fox_opening_seed())
        bot.flow.service._cache.clear()
        state = await bot.flow.service.state(await bot.db.get_game(game_id))
        mover = state.to_move()[0]
        user = [world.alice, world.bob][mover]
        fox = next(a.text for a in state.legal_actions(mover) if a.text.startswith("play ") and a.text.endswith("-3"))
        await bot.flow.after_move(await bot.flow.service.act(game_id, user.id, 0, fox))
        board = Table(emu, world.channel, [world.alice, world.bob]).board()
        done = (await (await emu.click(user, board, label="I trade with the decree")).followups(1))[0]
        assert any(b.get("label") == "Undo" for b in done.buttons()), done.content

    clicked.clear()
    async with running(emu, MeepleBot(config)):
        languages = next(m for m in lobby.selects() if m["custom_id"].startswith("mp:lang:"))
        value = next(o["value"] for o in languages["options"] if not o.get("default"))
        before = lobby.content
        await (await emu.select(world.alice, lobby, languages["custom_id"], [value])).response()
        await emu.wait_until(lambda: lobby.content != before, what="the lobby in its new language")

        assert "Taken back" in await private_answer(await emu.click(user, done, label="Undo"))

        await private_answer(await emu.click(world.alice, proposal, label=PROPOSAL))
        team = Table(emu, team_channel, [world.alice, world.bob])
        await emu.wait_until(team.finished, what="the final board")
        assert "The team conceded" in team.board().content

        forgotten = await (await emu.click(dana, asked, label=asked.buttons()[0]["label"])).final_message()
        assert forgotten.ephemeral and "forgotten you" in forgotten.content, forgotten.content
    assert clicked >= CLICKED_IN_THE_SECOND
