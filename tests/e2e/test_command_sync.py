"""The bot process sends its slash commands to Discord only when they changed, or when forced."""

from __future__ import annotations

import signal

from emulator.emulator import Emulator


def command_puts(emu: Emulator) -> int:
    """Bulk overwrites of commands (what CommandTree.sync sends) the emulator answered."""
    return len([r for r in emu.requests if r.method == "PUT" and r.path.endswith("/commands")])


async def test_a_restart_with_unchanged_commands_makes_no_sync_call_unless_forced(emu, world, bot) -> None:
    assert command_puts(emu) == 1
    await bot.stop(signal.SIGTERM)
    await bot.start()
    assert command_puts(emu) == 1
    answer = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet"})
    assert "table is open" in (await answer.final_message()).content
    await bot.stop(signal.SIGTERM)
    plain = bot.env
    bot.env = lambda: {**plain(), "MEEPLE_SYNC_COMMANDS": "1"}  # the owner forces a sync
    await bot.start()
    assert command_puts(emu) == 2
