"""The one error path of buttons and menus: every click gets an answer, and the log one traceback."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.client import MeepleBot
from emulator.testing import running
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import Table, mentioned


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO)
    return caplog


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info]


def unhandled(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """discord.py's own 'Ignoring exception ...' reports: an error nobody answered."""
    return [r for r in caplog.records if r.getMessage().startswith("Ignoring exception")]


async def started(emu, world, bot: MeepleBot) -> tuple[Table, int]:
    await join_and_start(emu, world, await open_table(emu, world))
    game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
    return Table(emu, world.channel, [world.alice, world.bob]), game_id


async def test_an_exception_in_a_button_handler_gets_a_private_answer_and_one_traceback(
    emu, world, config_for, logged, monkeypatch
) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        table, _ = await started(emu, world, bot)

        async def broken(row):
            raise RuntimeError("injected fault in the service")

        monkeypatch.setattr(bot.flow.service, "state", broken)
        logged.clear()
        clicked = await emu.click(world.alice, table.board(), label="My hand")
        answer = (await clicked.followups(1))[0]
        assert answer.ephemeral and "nothing was changed" in answer.content
        assert "injected fault" not in answer.content
        assert len(tracebacks(logged)) == 1 and "injected fault" in str(tracebacks(logged)[0].exc_info[1])
        assert not unhandled(logged)


async def test_a_locked_database_in_a_menu_handler_is_answered_and_changes_nothing(
    emu, world, config_for, logged
) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)) as bot:
        table, game_id = await started(emu, world, bot)
        mover = table.user(mentioned(table.board())[0])
        panel = (await (await emu.click(mover, table.board(), label="My hand")).followups(1))[0]
        menu = panel.selects()[0]
        # Another process holds the write lock longer than the bot's busy timeout.
        other = sqlite3.connect(config.database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            logged.clear()
            chosen = await emu.select(mover, panel, menu["custom_id"], [menu["options"][0]["value"]])
            answer = (await chosen.followups(1))[0]
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert answer.ephemeral and "nothing was changed" in answer.content
        assert len(tracebacks(logged)) == 1 and "locked" in str(tracebacks(logged)[0].exc_info[1])
        assert not unhandled(logged)
        # The log names the menu by its kind and game, never by the card chosen in it.
        card = menu["options"][0]["value"]
        assert not [r for r in logged.records if card in r.getMessage()]
        assert (await bot.db.get_game(game_id)).version == 0
        # Nothing was changed indeed: the same choice, made again, is the game's first move.
        again = await emu.select(mover, panel, menu["custom_id"], [menu["options"][0]["value"]])
        assert (await again.followups(1))[0].content.startswith("Done")
        assert (await bot.db.get_game(game_id)).version == 1


async def test_an_error_after_the_move_is_stored_does_not_claim_nothing_changed(
    emu, world, config_for, logged, monkeypatch
) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        table, game_id = await started(emu, world, bot)
        mover = table.user(mentioned(table.board())[0])
        panel = (await (await emu.click(mover, table.board(), label="My hand")).followups(1))[0]
        menu = panel.selects()[0]

        def broken(*args, **kwargs):
            raise RuntimeError("injected fault while wording the answer")

        # The board is drawn by the delivery worker; the clicker's own answer is worded after
        # the commit, in the interaction: a fault there happens after the move is stored.
        monkeypatch.setattr(bot.flow, "action_words", broken)
        logged.clear()
        chosen = await emu.select(mover, panel, menu["custom_id"], [menu["options"][0]["value"]])
        answer = (await chosen.followups(1))[0]
        assert (await bot.db.get_game(game_id)).version == 1
        assert answer.ephemeral and "went through" in answer.content and "nothing was changed" not in answer.content
        assert len(tracebacks(logged)) == 1 and not unhandled(logged)


async def test_an_expired_interaction_is_noted_quietly(emu, world, config_for, logged) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        table, game_id = await started(emu, world, bot)
        emu.interaction_deadline = 0.0  # every answer now comes too late: Discord says 10062
        logged.clear()
        clicked = await emu.click(world.alice, table.board(), label="My hand")
        await emu.wait_until(lambda: clicked.errors, what="the bot's late answer refused")
        await emu.wait_until(
            lambda: [r for r in logged.records if "expired" in r.getMessage()], what="the expiry noted in the log"
        )
        assert not tracebacks(logged) and not unhandled(logged)
        assert [r.levelno for r in logged.records if "expired" in r.getMessage()] == [logging.WARNING]
        assert (await bot.db.get_game(game_id)).version == 0
