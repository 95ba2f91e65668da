"""Clicks and events no honest client sends: the bot answers each privately, changes nothing, and
carries on. Malformed gateway events, ids it never made, and pager ids used on other messages."""

from __future__ import annotations

import asyncio
import copy
import logging
import random

import pytest

from bot.client import MeepleBot
from emulator.bodies import Body
from emulator.model import Message
from emulator.testing import running
from tests.bot.test_discord_errors import started, tracebacks, unhandled
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import Table, mentioned

HUGE = 2**64  # one more than any 64-bit integer can hold
UNKNOWN = "I do not know that button or menu"
ELSEWHERE = "does not belong to the message it was pressed on"
NOTHING = "Nothing was chosen in the menu"


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="meeple.gateway")  # the repeats of a malformed kind
    return caplog


def bot_message(
    emu, channel, custom_ids: list[str], *, select: str | None = None, content: str = "", ephemeral_to=None
) -> Message:
    """A message of the bot carrying these buttons (and menu), public or private to one user, as
    Discord delivers one the bot posted long ago or that a modified client points a click at."""
    rows = [{"type": 2, "style": 2, "label": f"b{i}", "custom_id": c} for i, c in enumerate(custom_ids)]
    components: list[dict] = [{"type": 1, "components": rows[i : i + 5]} for i in range(0, len(rows), 5)]
    if select is not None:
        options = [{"label": "x", "value": "x"}]
        components.append({"type": 1, "components": [{"type": 3, "custom_id": select, "options": options}]})
    body = Body({"content": content or "old", "components": components})
    return emu.service.post_message(
        channel, emu.bot_user, body, ephemeral_to=ephemeral_to.id if ephemeral_to is not None else None
    )


async def refused(result, said: str) -> str:
    answer = await result.final_message()
    assert answer.ephemeral and said in answer.content, answer.content
    return answer.content


def snapshot(message: Message) -> tuple:
    return message.content, copy.deepcopy(message.components), message.edit_count, len(message.attachments)


# -- 3. malformed gateway events ---------------------------------------------------------------


def malformed(valid: dict) -> list[dict]:
    """Seven kinds of INTERACTION_CREATE that discord.py's parser cannot read."""
    kinds = []
    for change in (
        lambda d: d.pop("token"),
        lambda d: d.pop("attachment_size_limit"),
        lambda d: d.update(id="not-a-snowflake"),
        lambda d: d.update(application_id=["not", "an", "id"]),
        lambda d: d.update(member={"roles": [], "joined_at": None}),  # a member without a user
        lambda d: d.pop("data"),  # a component interaction without its data
        lambda d: d.update(data="mp:hand:1"),  # data of the wrong type
    ):
        event = copy.deepcopy(valid)
        change(event)
        kinds.append(event)
    return kinds


async def test_malformed_interaction_events_are_dropped_logged_once_per_kind_and_play_goes_on(
    emu, world, config_for, logged
) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        table, game_id = await started(emu, world, bot)
        mover = table.user(mentioned(table.board())[0])
        valid = (await emu.click(mover, table.board(), label="My hand")).payload
        await emu.wait_until(lambda: emu.ephemerals(mover, world.channel), what="the hand shown")
        logged.clear()
        kinds = malformed(valid)
        for _ in range(2):  # each kind twice: the second is counted, not logged again
            for event in kinds:
                emu.gateway.dispatch("INTERACTION_CREATE", event)

        def said(start: str) -> list[logging.LogRecord]:
            return [r for r in logged.records if r.getMessage().startswith(start)]

        first = "dropped a gateway event discord.py could not read: INTERACTION_CREATE"
        await emu.wait_until(lambda: len(said(first)) == 7, what="each kind logged")
        await emu.wait_until(lambda: len(said("dropped another malformed")) == 7, what="the repeats counted")
        dropped = said(first)
        assert len(kinds) == len(bot.malformed_events.seen) == 7
        assert all(r.levelno == logging.ERROR for r in dropped)
        # The log names the line that failed, never the payload (its token, its custom id).
        assert not [r for r in logged.records if valid["token"] in r.getMessage() or "mp:hand" in r.getMessage()]
        assert not unhandled(logged)
        # The connection is the one the bot started with: discord.py's connect loop did not end.
        connect = [t for t in asyncio.all_tasks() if t.get_name() == "discord-client-connect"]
        assert connect and not connect[0].done() and emu.gateway.identify_count == 1
        # The bot carries on: the next move is made and answered.
        assert (await bot.db.get_game(game_id)).version == 0
        await table.play_one()
        assert (await bot.db.get_game(game_id)).version == 1


# -- 4. every click gets an answer ---------------------------------------------------------------


async def test_clicks_the_bot_never_made_get_a_private_refusal_and_change_nothing(
    emu, world, config_for, logged
) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        table, game_id = await started(emu, world, bot)
        board = table.board()
        before = snapshot(board)
        mover = table.user(mentioned(board)[0])
        panel = (await (await emu.click(mover, board, label="My hand")).followups(1))[0]
        menu = panel.selects()[0]["custom_id"]
        logged.clear()
        # Delivered by Discord on a message that carries them: a button of an older version of the
        # bot, and ids whose numbers no database integer holds.
        old = bot_message(
            emu,
            world.channel,
            ["legacy:join", "mp:lobby:1:sit", f"mp:hand:{HUGE}", f"mp:undo:{game_id}:{HUGE}", f"mp:log:{HUGE}:1:a"],
            select=f"mp:pick:{game_id}:{HUGE}",
        )
        for button in old.buttons():
            await refused(await emu.click(mover, old, custom_id=button["custom_id"]), UNKNOWN)
        await refused(await emu.select(mover, old, f"mp:pick:{game_id}:{HUGE}", ["x"]), UNKNOWN)
        # Sent by a modified client: ids that match nothing, an overlong id (which would otherwise
        # read as this game's hand), an id with a huge number.
        for custom_id in ("", "x" * 101, "mp:" + "a" * 400, "mp:hand:" + "0" * 120 + str(game_id), f"mp:hand:{HUGE}"):
            await refused(await emu.forge_component(mover, board, custom_id), UNKNOWN)
        # A menu sent with no value at all.
        await refused(await emu.forge_component(mover, panel, menu, component_type=3, values=[]), NOTHING)
        # One player alone never ends the team's game: the concession as a menu value, or as the
        # confirmation button /table concede gave before a concession was the team's.
        team = "A team concedes together"
        await refused(await emu.forge_component(mover, panel, menu, component_type=3, values=["concede"]), team)
        lone = bot_message(emu, world.channel, [f"mp:act:{game_id}:0:concede"], ephemeral_to=mover)
        await refused(await emu.click(mover, lone, custom_id=f"mp:act:{game_id}:0:concede"), team)
        assert snapshot(board) == before
        assert (await bot.db.get_game(game_id)).version == 0
        assert not tracebacks(logged) and not unhandled(logged)
        # The real buttons still work.
        await table.play_one()
        assert (await bot.db.get_game(game_id)).version == 1


async def test_a_lobby_menu_with_no_value_is_refused_and_the_lobby_is_left_as_it_was(
    emu, world, config_for, logged
) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        lobby = await open_table(emu, world, "level=2")
        before = snapshot(lobby)
        menu = lobby.selects()[0]["custom_id"]
        logged.clear()
        await refused(await emu.forge_component(world.alice, lobby, menu, component_type=3, values=[]), NOTHING)
        assert snapshot(lobby) == before
        game = await bot.db.active_game_in_channel(world.channel.id)
        assert game.options.get("level") == 2
        assert not tracebacks(logged) and not unhandled(logged)


# -- 5. a pager edits only its own message ------------------------------------------------------


async def test_pager_and_lobby_ids_never_edit_a_message_that_is_not_their_own(emu, world, config_for, logged) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await join_and_start(emu, world, await open_table(emu, world, "level=1 memory=on"))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(1))
        for _ in range(3):
            await table.play_one()
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        board = table.board()
        before = snapshot(board)
        ids = [f"mp:log:{game_id}:1:a", f"mp:past:{game_id}:0:a", f"mp:lobby:{game_id}:join", f"mp:opt:{game_id}:level"]
        logged.clear()
        # From a public message of the bot that carries them (the board's words and buttons, plus
        # the pager's): the clicker's log, private lines included, must never replace it.
        public = bot_message(
            emu, world.channel, [b["custom_id"] for b in board.buttons()] + ids[:3], content=board.content
        )
        public_before = snapshot(public)
        for custom_id in ids[:3]:
            result = await emu.click(world.alice, public, custom_id=custom_id)
            await emu.wait_until(lambda r=result: r.responded, what=f"an answer to {custom_id}")
            assert snapshot(public) == public_before, custom_id
            await refused(result, ELSEWHERE)
        # From the public board itself, sent by a modified client.
        for custom_id in ids:
            await refused(await emu.forge_component(world.alice, board, custom_id), ELSEWHERE)
        # And from the clicker's own private page of another pager, or a private message that is
        # not wholly this game's pager.
        log_page = (await (await emu.click(world.alice, board, label="Log")).followups(1))[0]
        past = await (await emu.slash(world.alice, world.channel, "table history", {"step": 1})).final_message()
        pages_before = snapshot(log_page), snapshot(past)
        await refused(await emu.forge_component(world.alice, log_page, f"mp:past:{game_id}:0:a"), ELSEWHERE)
        await refused(await emu.forge_component(world.alice, past, f"mp:log:{game_id}:1:a"), ELSEWHERE)
        mixed = bot_message(
            emu, world.channel, [f"mp:log:{game_id + 1}:1:a", f"mp:log:{game_id}:1:b"], ephemeral_to=world.alice
        )
        await refused(await emu.click(world.alice, mixed, custom_id=f"mp:log:{game_id}:1:b"), ELSEWHERE)
        assert snapshot(board) == before and snapshot(public) == public_before
        assert (snapshot(log_page), snapshot(past)) == pages_before
        assert "you were dealt" not in "".join(m.content for m in emu.messages(world.channel))
        assert len(await bot.db.seats(game_id)) == 2
        assert not tracebacks(logged) and not unhandled(logged)
        # The pagers' own pages still turn.
        first = await emu.click(world.alice, past, label="⏮ First")
        await first.response()
        await emu.wait_until(lambda: "after move 0" in past.content, what="the first board")


async def test_a_guide_page_button_edits_only_its_own_private_page(emu, world, config_for, logged) -> None:
    """How to play's page buttons rewrite the message they are on: only ever the clicker's own
    private page of that game's guide, never a lobby or a board that a modified client points at."""
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        lobby = await open_table(emu, world)
        lobby_before = snapshot(lobby)
        for target in (lobby, bot_message(emu, world.channel, ["mp:howto:fox-duet:2:c"], content="public")):
            before = snapshot(target)
            await refused(await emu.forge_component(world.alice, target, "mp:howto:fox-duet:2:c"), ELSEWHERE)
            assert snapshot(target) == before
        # The guide itself opens from the lobby in a new private message, whose pager turns its pages.
        opened = await emu.click(world.alice, lobby, label="How to play")
        page = (await opened.followups(1))[0]
        assert page.ephemeral and snapshot(lobby) == lobby_before
        # Another game's page ids, or a private message that is not wholly this guide's pager.
        await refused(await emu.forge_component(world.alice, page, "mp:howto:vivarium:1:c"), ELSEWHERE)
        mixed = bot_message(
            emu, world.channel, ["mp:howto:fox-duet:1:c", "mp:howto:fox-duet:0:o"], ephemeral_to=world.alice
        )
        await refused(await emu.click(world.alice, mixed, custom_id="mp:howto:fox-duet:1:c"), ELSEWHERE)
        assert page.edit_count == 0, "a refused page button leaves the page as it was"
        turned = await emu.click(world.alice, page, custom_id="mp:howto:fox-duet:1:c")
        await turned.response()
        await emu.wait_until(lambda: page.edit_count >= 1, what="the guide's page 2")
        assert not tracebacks(logged) and not unhandled(logged)
