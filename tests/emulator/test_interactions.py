"""Slash commands, autocomplete, deferred follow-ups, buttons, selects, modals and the 3-second rule."""

from __future__ import annotations

import pytest

from emulator import Emulator, InteractionFailed
from emulator.testing import World
from tests.emulator.sample_bot import BOARD_BYTES, SampleBot


async def test_commands_are_synced_globally_and_per_guild(emu: Emulator, world: World, bot: SampleBot) -> None:
    assert {c.name for c in emu.commands()} == {"table", "ping", "report", "board", "slow", "name", "progress"}
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    bot.tree.copy_global_to(guild=guild)
    synced = await bot.tree.sync(guild=guild)
    assert {c.name for c in synced} == {c.name for c in emu.commands(world.guild)}
    puts = [r.path for r in emu.requests if r.method == "PUT"]
    assert puts == [
        f"/applications/{emu.application_id}/commands",
        f"/applications/{emu.application_id}/guilds/{world.guild.id}/commands",
    ]


async def test_slash_subcommand_answers_ephemerally(emu: Emulator, world: World, bot: SampleBot) -> None:
    result = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet", "seats": 3})
    response = await result.response()
    assert response.type == 4 and response.ephemeral
    assert response.message is not None and response.message.content == "created Fox Duet for 3"
    assert result.payload["data"]["options"][0]["name"] == "create"
    assert emu.visible_to(world.alice, world.channel) == [response.message]
    assert emu.visible_to(world.bob, world.channel) == []
    assert emu.messages(world.channel) == []


async def test_slash_rejects_bad_options_before_dispatch(emu: Emulator, world: World, bot: SampleBot) -> None:
    with pytest.raises(ValueError, match="missing required"):
        await emu.slash(world.alice, world.channel, "table create", {})
    with pytest.raises(ValueError, match="must be within"):
        await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet", "seats": 9})
    with pytest.raises(LookupError, match="not registered"):
        await emu.slash(world.alice, world.channel, "nope")


async def test_autocomplete_returns_choices(emu: Emulator, world: World, bot: SampleBot) -> None:
    result = await emu.autocomplete(world.alice, world.channel, "table create", {"game": "fo"}, focused="game")
    assert await result.choices() == [{"name": "Fox Duet", "value": "fox-duet"}]


async def test_deferred_response_and_followups_keep_attachment_bytes(
    emu: Emulator, world: World, bot: SampleBot
) -> None:
    result = await emu.slash(world.bob, world.channel, "report")
    response = await result.response()
    assert response.type == 5 and response.message is not None
    first, second = await result.followups(2)
    assert first is result.original and not first.loading
    assert first.content == "here is the board"
    assert [(a.filename, a.content) for a in first.attachments] == [("board.png", BOARD_BYTES)]
    assert second.ephemeral and emu.visible_to(world.alice, world.channel) == [first]
    assert emu.visible_to(world.bob, world.channel) == [first, second]
    # The emulator has the follow-ups as soon as they are posted; the bot keeps them once its
    # request returns, a moment later on a busy machine.
    await emu.wait_until(lambda: bot.followup_messages, what="the bot's own copy of its follow-up")
    downloaded = await bot.followup_messages[0].attachments[0].read()
    assert downloaded == BOARD_BYTES
    assert any(r.method == "POST" and r.path.startswith("/webhooks/") for r in emu.requests)


async def test_dynamic_item_button_click_runs_its_callback(emu: Emulator, world: World, bot: SampleBot) -> None:
    board = await (await emu.slash(world.alice, world.channel, "board")).response()
    message = board.message
    assert message is not None and [b["custom_id"] for b in message.buttons()] == ["cell:7:0", "cell:7:1", "cell:7:2"]
    click = await emu.click(world.bob, message, label="Cell 2")
    response = await click.response()
    assert response.type == 7 and response.message is message
    assert message.content == "cell 2 taken by bob" and message.edited_timestamp is not None
    assert bot.clicks == [(7, 2, world.bob.id)]
    assert click.payload["message"]["id"] == str(message.id)


async def test_select_menu_choice(emu: Emulator, world: World, bot: SampleBot) -> None:
    board = await (await emu.slash(world.alice, world.channel, "board")).response()
    assert board.message is not None
    with pytest.raises(ValueError, match="not an option"):
        await emu.select(world.bob, board.message, "seat", ["east"])
    choice = await emu.select(world.bob, board.message, "seat", ["s"])
    response = await choice.response()
    assert response.ephemeral and response.message is not None and response.message.content == "seat s"


async def test_user_select_resolves_members(emu: Emulator, world: World, bot: SampleBot) -> None:
    board = await (await emu.slash(world.alice, world.channel, "board")).response()
    assert board.message is not None
    choice = await emu.select(world.alice, board.message, "invite", [world.bob])
    response = await choice.response()
    assert response.message is not None and response.message.content == "invited bob (member)"
    assert choice.payload["data"]["resolved"]["members"][str(world.bob.id)]["roles"] == []


async def test_modal_round_trip(emu: Emulator, world: World, bot: SampleBot) -> None:
    opened = await emu.slash(world.alice, world.channel, "name")
    modal = await opened.modal()
    assert modal["title"] == "Name your table"
    submitted = await emu.submit_modal(world.alice, opened, {"table_name": "Friday night"})
    message = await emu.wait_for_message(world.channel, lambda m: m.content.startswith("table named"))
    assert message.content == "table named Friday night"
    assert (await submitted.response()).message is message


async def test_answer_after_the_deadline_gets_10062(emu: Emulator, world: World, bot: SampleBot) -> None:
    emu.interaction_deadline = 0.2
    bot.slow_delay = 0.35
    result = await emu.slash(world.alice, world.channel, "slow")
    error = await result.error()
    assert (error.status, error.code) == (404, 10062)
    with pytest.raises(InteractionFailed):
        await result.response(timeout=0.5)
    await emu.wait_until(lambda: bot.errors, what="the bot to see the error")
    assert [getattr(e, "code", None) for e in bot.errors] == [10062]
    assert emu.messages(world.channel) == []


async def test_original_response_get_edit_and_followup_delete(emu: Emulator, world: World, bot: SampleBot) -> None:
    result = await emu.slash(world.alice, world.channel, "progress")
    original = await emu.wait_for_message(world.channel, lambda m: m.content.startswith("done"), user=world.alice)
    assert original is result.original and original.content == "done (working before)" and original.ephemeral
    await emu.wait_until(lambda: any(r.method == "DELETE" for r in emu.requests), what="the follow-up deletion")
    [note] = result.record.followups
    assert note.content == "temporary, edited" and note.id not in emu.state.messages
    assert emu.visible_to(world.alice, world.channel) == [original]
