"""The bot process sends its slash commands to Discord only when they changed, or when forced."""

from __future__ import annotations

import signal

import pytest

from emulator.emulator import Emulator
from tests.e2e.conftest import SLOW_STOP, BotProcess


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


async def stopped_by_itself(process: BotProcess, sig: signal.Signals) -> None:
    """Stop the bot process: it exits by itself with code 0 (a hung one is killed after SLOW_STOP
    seconds rather than STOP_PATIENCE), usually within a second, and logs no error."""
    try:
        await process.stop(sig, patience=SLOW_STOP)
    finally:
        await process.stop(signal.SIGKILL)  # whatever the test left running
    log = process.log()
    assert (process.exit_code, process.hung) == (0, False), log[-3000:]
    assert "Traceback" not in log, log[-3000:]


async def test_a_bot_stopped_during_a_forced_sync_exits_by_itself(emu, world, tmp_path) -> None:
    """Ctrl+C as the bot process sends its commands (the owner forced a sync)."""
    process = BotProcess(emu, world, tmp_path)
    plain = process.env
    process.env = lambda: {**plain(), "MEEPLE_SYNC_COMMANDS": "1"}  # type: ignore[method-assign]
    process.launch()
    await emu.wait_until(lambda: command_puts(emu) == 1, what="the forced sync")
    await stopped_by_itself(process, signal.SIGINT)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_a_stop_signal_closes_the_bot_even_when_discord_py_swallows_the_cancellation(
    emu, world, tmp_path, sig
) -> None:
    """discord.py can swallow the cancellation of the main task (asyncio.wait_for returning the
    gateway connection that completed with the cancel): the stop signal closes the client instead."""
    process = BotProcess(emu, world, tmp_path)
    process.module = "tests.e2e.stubborn_bot"
    try:
        await process.start()
    except BaseException:
        await process.stop(signal.SIGKILL)
        raise
    await stopped_by_itself(process, sig)
