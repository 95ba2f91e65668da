"""The emulator's strictness on alt text: with ``require_alt_text`` (on in the tests' emulator),
every file the bot uploads carries a description of at most 1,024 characters, or the upload is
refused with 400 50035 and kept in ``emu.invalid_requests``; people's own uploads are not checked."""

from __future__ import annotations

import io

import discord
import pytest

from emulator import Emulator
from emulator.commands import Upload
from emulator.testing import FAST, STRICT, World, assert_clean, make_world, running
from tests.emulator.sample_bot import SampleBot, channel_of
from tests.emulator.test_spec import call, refusal


async def test_the_tests_emulator_requires_alt_text(emu: Emulator) -> None:
    assert emu.require_alt_text and STRICT == {"require_alt_text": True}


async def test_a_bot_file_without_a_description_is_refused(emu: Emulator, world: World, bot: SampleBot) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await channel_of(bot, world.channel.id).send("board", file=discord.File(io.BytesIO(b"png"), "board.png"))
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert "attachments.0.description" in emu.invalid_requests[0]
    assert "board.png has no alt text" in emu.invalid_requests[0]
    emu.invalid_requests.clear()  # refused on purpose
    assert emu.messages(world.channel) == []


async def test_a_blank_description_is_no_alt_text(emu: Emulator, world: World) -> None:
    payload = {"content": "board", "attachments": [{"id": 0, "filename": "board.png", "description": "  "}]}
    status, body = await call(emu, "POST", f"/channels/{world.channel.id}/messages", payload, form=True)
    assert refusal(emu, status, body) == "attachments.0.description: This field is required: board.png has no alt text"


async def test_a_described_file_is_kept_with_its_description(emu: Emulator, world: World, bot: SampleBot) -> None:
    file = discord.File(io.BytesIO(b"png"), "board.png", description="Board of a sample game: Alice to move.")
    await channel_of(bot, world.channel.id).send("board", file=file)
    (message,) = emu.messages(world.channel)
    assert message.attachments[0].description == "Board of a sample game: Alice to move."


async def test_an_edit_adding_a_file_without_a_description_is_refused(
    emu: Emulator, world: World, bot: SampleBot
) -> None:
    sent = await channel_of(bot, world.channel.id).send("board")
    with pytest.raises(discord.HTTPException) as refused:
        await sent.edit(attachments=[discord.File(io.BytesIO(b"gif"), "replay.gif")])
    assert (refused.value.status, refused.value.code) == (400, 50035)
    emu.invalid_requests.clear()
    assert emu.messages(world.channel)[0].attachments == []


async def test_a_description_over_1024_characters_is_refused_even_when_not_strict() -> None:
    async with Emulator(**FAST, check_spec=False) as lax:
        lax_world = make_world(lax)
        payload = {"content": "board", "attachments": [{"id": 0, "filename": "board.png", "description": "d" * 1025}]}
        status, body = await call(lax, "POST", f"/channels/{lax_world.channel.id}/messages", payload, form=True)
        assert refusal(lax, status, body) == "attachments.0.description: Must be 1024 or fewer in length."
        payload["attachments"][0]["description"] = "d" * 1024
        status, _ = await call(lax, "POST", f"/channels/{lax_world.channel.id}/messages", payload, form=True)
        assert status == 200


async def test_without_the_option_a_file_needs_no_description() -> None:
    async with Emulator(**FAST) as lax:
        lax_world = make_world(lax)
        async with running(lax, SampleBot()) as bot:
            await channel_of(bot, lax_world.channel.id).send(file=discord.File(io.BytesIO(b"png"), "board.png"))
            assert lax.messages(lax_world.channel)[0].attachments[0].description is None
        assert_clean(lax)


async def test_peoples_uploads_are_not_checked(emu: Emulator, world: World) -> None:
    message = await emu.send_message(world.alice, world.channel, "my drawing", files=[Upload("me.png", b"png")])
    assert message.attachments[0].description is None
