"""The real bot as its own process, started the way the README's start command starts it.

`./scripts/start` sets up the virtualenv and runs `python -m bot`; here the test's interpreter
(already set up by `./scripts/test`) runs `python -m bot` with the configuration in its
environment, pointed at the loopback emulator through `DISCORD_API_BASE`.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
import warnings
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from emulator.emulator import Emulator
from emulator.testing import FAST, STRICT, World, assert_clean, make_world

ROOT = Path(__file__).resolve().parents[2]
# Seconds a stopping bot is given before it is killed: far beyond the few seconds it takes, so
# that only a bot that does not stop by itself is killed, however busy the machine.
STOP_PATIENCE = 90.0
# A stop this slow (seconds) asks the bot (SIGUSR1) to log its tasks, for the warning below (a
# bot whose loop is already closed has written its threads' stacks by then: bot/__main__.py).
SLOW_STOP = 20.0


class BotProcess:
    """Start, stop gracefully, or kill hard the bot process; its log is kept in a file."""

    def __init__(self, emu: Emulator, world: World, tmp: Path) -> None:
        self.emu = emu
        self.world = world
        self.database = tmp / "meeple.db"
        self.log_path = tmp / "bot.log"
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self.exit_code: int | None = None
        self.edit_pace = "0.05"
        self.hung = False  # a stop slower than SLOW_STOP (or ended by a kill)
        self.module = "bot"  # what ``python -m`` runs: the bot, as ./scripts/start runs it

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MEEPLE_"))}
        env.update(
            DISCORD_TOKEN=self.emu.bot_token,
            DISCORD_API_BASE=self.emu.base_url,
            MEEPLE_DB=str(self.database),
            MEEPLE_DEV_GUILD=str(self.world.guild.id),
            MEEPLE_LOG_LEVEL="INFO",
            # Users here click the moment a board is shown: a turn's edits paced at 1.5 s would
            # only slow the suite (tests/bot/test_turn_messages.py checks the pace).
            MEEPLE_EDIT_PACE=self.edit_pace,
            PYTHONUNBUFFERED="1",
        )
        return env

    def launch(self) -> None:
        """Start the process and return at once (``start`` waits for it to connect)."""
        with self.log_path.open("a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", self.module], cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT
            )
        self.starts += 1

    async def start(self) -> None:
        identified = self.emu.gateway.identify_count
        self.launch()
        await self.emu.wait_until(
            lambda: self.emu.gateway.identify_count > identified and self.emu.gateway.connected,
            what="the bot process to connect",
        )
        await self.emu.wait_until(lambda: self.emu.commands(self.world.guild), what="commands synced")

    def kill(self) -> None:
        """Stop the process at once, as a crash or a power cut would (no clean shutdown)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.process = None

    async def stop(self, sig: signal.Signals = signal.SIGINT, patience: float = STOP_PATIENCE) -> float:
        """Ask the bot to stop (Ctrl+C, or SIGTERM as a service manager does) and wait for it,
        serving the emulator meanwhile (the bot says goodbye to it); its seconds to exit. A bot
        still running after ``patience`` is killed (its exit code then says so): the bound only
        ends a broken test, it is not a measure (a loaded machine exits slowly)."""
        if self.process is None:
            return 0.0
        self.process.send_signal(sig)
        started = time.monotonic()
        asked = False
        while self.process.poll() is None and time.monotonic() - started < patience:
            if not asked and time.monotonic() - started > SLOW_STOP:
                self.process.send_signal(signal.SIGUSR1)  # the bot logs what each task waits on
                asked = True
            await asyncio.sleep(0.05)
        took = time.monotonic() - started
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        # A stop this slow (the bot was asked for its tasks' stacks, or killed) is worth a look.
        self.hung = self.hung or asked
        self.exit_code = self.process.returncode
        self.process = None
        return took

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def query(self, sql: str, params: tuple = ()) -> list[sqlite3.Row]:
        """Read the bot's database from outside, as a second process would (WAL allows it)."""
        conn = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()


@pytest_asyncio.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator(**FAST, **STRICT) as instance:
        yield instance
        assert_clean(instance)


@pytest.fixture
def world(emu: Emulator) -> World:
    return make_world(emu)


@pytest_asyncio.fixture
async def bot(emu: Emulator, world: World, tmp_path: Path, request) -> AsyncIterator[BotProcess]:
    process = BotProcess(emu, world, tmp_path)
    await process.start()
    try:
        yield process
    finally:
        await process.stop()
        log = process.log()
        if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
            print(log[-5000:])
        if process.hung:
            warnings.warn(f"the bot took over {SLOW_STOP:.0f} s to stop:\n{log[-6000:]}", stacklevel=1)
        assert emu.bot_token not in log, "the token appeared in the bot's log"
        assert "Traceback" not in log, f"the bot logged an error:\n{log[-3000:]}"


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
