"""The minute ticker (reminders, time limits, tournament rounds) outlives a failing tick."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

from bot.client import MeepleBot
from emulator.testing import running
from tests.bot.test_scheduler import FakeClock, open_with, reminders


class Minutes:
    """The bot's wait between two ticks, driven by the test: ``await minutes.tick(emu)`` lets
    one tick through and returns when the ticker waits for the next one (that tick is over)."""

    def __init__(self) -> None:
        self.waits = 0  # how many times the ticker has waited for a minute
        self._go: asyncio.Queue[None] = asyncio.Queue()

    async def wait(self) -> None:
        self.waits += 1
        await self._go.get()

    async def tick(self, emu) -> None:
        await emu.wait_until(lambda: self.waits > 0, what="the ticker waiting for its first minute")
        before = self.waits
        self._go.put_nowait(None)
        await emu.wait_until(lambda: self.waits > before, what="the ticker waiting for the next minute")


async def test_a_failing_tick_is_logged_and_reminders_resume_at_the_next(
    emu, world, config_for, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    clock, minutes = FakeClock(), Minutes()
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, clock, tick_wait=minutes.wait)):
        await open_with(emu, world, reminders=1)
        await minutes.tick(emu)
        assert reminders(emu, world) == [], "nobody has waited an hour yet"
        clock.advance(hours=1, minutes=1)
        # The database goes away under the bot: another process takes the games table.
        other = sqlite3.connect(config.database, isolation_level=None)
        try:
            other.execute("ALTER TABLE games RENAME TO games_elsewhere")
            caplog.clear()
            await minutes.tick(emu)
            failed = [r for r in caplog.records if r.name == "meeple.bot" and r.exc_info]
            assert failed and "no such table" in str(failed[0].exc_info[1]), "the failure is logged"
            assert reminders(emu, world) == []
            other.execute("ALTER TABLE games_elsewhere RENAME TO games")
        finally:
            other.close()
        await minutes.tick(emu)
        await emu.wait_until(lambda: len(reminders(emu, world)) == 1, what="the reminder, at the next minute")


async def test_the_database_failing_for_several_ticks_stops_no_reminder_for_good(
    emu, world, config_for, monkeypatch: pytest.MonkeyPatch
) -> None:
    from services.storage import async_play

    clock, minutes = FakeClock(), Minutes()
    failures = {"left": 0}
    due_page = async_play.due_page

    async def broken(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        if failures["left"] > 0:
            failures["left"] -= 1
            raise sqlite3.OperationalError("database is locked")
        return await due_page(*args, **kwargs)

    monkeypatch.setattr(async_play, "due_page", broken)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), clock, tick_wait=minutes.wait)):
        await open_with(emu, world, reminders=1)
        clock.advance(hours=1, minutes=1)
        failures["left"] = 3
        for _ in range(3):
            await minutes.tick(emu)
            assert reminders(emu, world) == [], "no reminder while the database fails"
        assert failures["left"] == 0, "each of the three ticks asked, and failed"
        await minutes.tick(emu)
        await emu.wait_until(lambda: len(reminders(emu, world)) == 1, what="the reminder, once the database is back")


async def test_a_ticker_whose_loop_dies_is_started_again(
    emu, world, config_for, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    clock, minutes = FakeClock(), Minutes()
    broken = {"left": 0}

    async def wait() -> None:
        if broken["left"] > 0:  # the wait itself fails: outside every tick's own guard
            broken["left"] -= 1
            raise RuntimeError("the clock is away")
        await minutes.wait()

    async with running(emu, MeepleBot(config_for(emu, world.guild.id), clock, tick_wait=wait)) as bot:
        await open_with(emu, world, reminders=1)
        await minutes.tick(emu)
        broken["left"] = 1
        await minutes.tick(emu)  # this tick runs; the wait after it fails, the loop dies and starts again
        assert bot.tasks.restarts == 1
        said = [r for r in caplog.records if r.exc_info and "meeple-scheduler" in r.getMessage()]
        assert len(said) == 1 and isinstance(said[0].exc_info[1], RuntimeError), "said once"
        assert reminders(emu, world) == []
        clock.advance(hours=1, minutes=1)
        await minutes.tick(emu)
        await emu.wait_until(lambda: len(reminders(emu, world)) == 1, what="the reminder, from the restarted ticker")
