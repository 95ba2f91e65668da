"""A player whose Discord speaks Traditional Chinese (Taiwan) reads the bot's private answers in it."""

from __future__ import annotations

from bot.client import MeepleBot
from emulator.testing import running


async def test_a_zh_tw_player_reads_private_answers_in_chinese(emu, world, config_for) -> None:
    world.alice.locale = "zh-TW"
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        created = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet"})
        answer = await created.final_message()
        assert answer.ephemeral and answer.content == "你的牌桌已在此頻道開放。你坐在 1 號座位。"
        again = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet"})
        refused = await again.final_message()
        assert refused.ephemeral and refused.content.startswith("此頻道已經有開放中的牌桌或進行中的遊戲。")
        other = await emu.slash(world.bob, world.channel, "table create", {"game": "fox-duet"})
        english = await other.final_message()  # Bob's Discord speaks English: so does his answer
        assert english.ephemeral and "already has a table" in english.content


async def test_zh_cn_is_not_answered_in_taiwanese_chinese(emu, world, config_for) -> None:
    world.alice.locale = "zh-CN"
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        created = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet"})
        answer = await created.final_message()
        assert answer.ephemeral and "table is open" in answer.content
