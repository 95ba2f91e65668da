"""Two bot processes sharing one database, each owning one of two shards and serving its own guild.

The emulator routes each guild's interactions to the session of its shard (and DMs to shard 0), as
Discord does; each process connects one shard (``MEEPLE_SHARD_IDS``/``MEEPLE_SHARD_COUNT``). Each
guild plays a whole Fox Duet; a stop and a restart in the middle check that start-up recovery picks
up only the process's own game. Which process did what is read from the emulator: the shard an
interaction went to, and the User-Agent of every request (the sharded bot names its shards there).

The database is given as ``MEEPLE_DB`` by the ``database_url`` fixture: a shared SQLite file (WAL),
and a ``postgresql://`` URL of a fresh database on the server the storage tests start.
"""

from __future__ import annotations

import asyncio
import random
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from emulator.emulator import Emulator
from emulator.testing import STRICT, World, assert_clean, make_world
from tests.e2e.conftest import ROOT, BotProcess
from tests.e2e.test_fox_duet import open_and_start
from tests.support.driver import Table

SHARDS = 2
RESUMED = re.compile(r"(\d+) running games carry on")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The one database both processes use (``MEEPLE_DB``), per backend parameter: a SQLite file, or
    the ``postgresql://`` URL of a fresh database (tests/conftest.py); nothing else here reads it."""
    if request.param == "sqlite":
        return str(tmp_path / "shared" / "meeple.db")
    return str(request.getfixturevalue("postgres_url"))


class ShardProcess(BotProcess):
    """``python -m bot`` connecting shard ``shard_id`` of ``SHARDS``, on the shared database."""

    def __init__(self, emu: Emulator, world: World, tmp: Path, database_url: str, shard_id: int) -> None:
        super().__init__(emu, world, tmp)
        self.database_url = database_url
        self.shard_id = shard_id
        self.log_path = tmp / f"bot-shard-{shard_id}.log"

    def env(self) -> dict[str, str]:
        env = super().env()
        del env["MEEPLE_DEV_GUILD"]  # global commands: the two guilds both need them
        env.update(MEEPLE_DB=self.database_url, MEEPLE_SHARD_IDS=str(self.shard_id), MEEPLE_SHARD_COUNT=str(SHARDS))
        return env

    def connected(self) -> bool:
        return any(
            session.shard == [self.shard_id, SHARDS] and session.connection is not None
            for session in self.emu.gateway.sessions.values()
        )

    async def start(self) -> None:
        with self.log_path.open("a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot"], cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT
            )
        self.starts += 1
        await self.emu.wait_until(self.connected, what=f"the process of shard {self.shard_id} to connect")

    def resumed_counts(self) -> list[int]:
        """What each start-up of this process said it carried on ("N running games carry on")."""
        return [int(n) for n in RESUMED.findall(self.log())]

    def tag(self) -> str:
        return f"shards {self.shard_id} of {SHARDS}"


@pytest_asyncio.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator(heartbeat_interval=0.25, shard_count=SHARDS, **STRICT) as instance:
        yield instance


async def play(tables: list[Table], moves: int | None = None) -> None:
    """Both tables in turn, a move each, until each has made ``moves`` more (or finished)."""
    goal = {id(t): t.moves + moves if moves is not None else None for t in tables}
    while True:
        going = [t for t in tables if not t.finished() and (goal[id(t)] is None or t.moves < goal[id(t)])]
        if not going:
            return
        for table in going:
            await table.play_one()
            assert table.moves < 500


def posted_by(emu: Emulator, channel_ids: set[int]) -> set[str]:
    """The User-Agents of every request the bot made to these channels."""
    paths = {f"/channels/{c}/" for c in channel_ids}
    return {r.user_agent or "" for r in emu.requests if any(r.path.startswith(p) for p in paths)}


async def test_two_processes_each_play_their_own_guild_on_one_database(
    emu: Emulator, tmp_path: Path, database_url: str
) -> None:
    first, second = make_world(emu, "First", shard=(0, SHARDS)), make_world(emu, "Second", shard=(1, SHARDS))
    processes = [
        ShardProcess(emu, first, tmp_path, database_url, 0),
        ShardProcess(emu, second, tmp_path, database_url, 1),
    ]
    try:
        for process in processes:  # shard 0 first: its process syncs the commands (the application's)
            await process.start()
            if process.shard_id == 0:
                await emu.wait_until(lambda: emu.commands(None), what="commands synced")
        for world in (first, second):
            await open_and_start(emu, world)
        tables = [
            Table(emu, first.channel, [first.alice, first.bob], random.Random(5)),
            Table(emu, second.channel, [second.alice, second.bob], random.Random(6)),
        ]
        await play(tables, moves=4)

        # Both stop mid-game and start again: each carries on its own guild's game only.
        await asyncio.gather(*(process.stop(signal.SIGTERM) for process in processes))
        assert [process.exit_code for process in processes] == [0, 0]
        for process in processes:
            await process.start()
        await play(tables)
        assert all(t.finished() for t in tables)
        for table in tables:
            assert "Team score" in table.board().content or "Game over" in table.board().content
        for process in processes:
            assert process.resumed_counts() == [0, 1], process.log()[-3000:]

        # Discord routed each guild's clicks to its shard, and each process did its own guild's work.
        for record in emu.interactions.records.values():
            assert record.guild is not None
            shard = 0 if record.guild.id == first.guild.id else 1
            assert record.shards == [(shard, SHARDS)], record.name
        for process, world in zip(processes, (first, second), strict=True):
            dms = {emu.dm_channel(user).id for user in (world.alice, world.bob)}
            agents = posted_by(emu, {world.channel.id, *dms})
            assert agents and all(process.tag() in agent for agent in agents), agents
            assert len(emu.dms(world.alice)) >= 1 and len(emu.dms(world.bob)) >= 1
    finally:
        # Both at once: each waits for its finished game's replay (up to the bot's 10 s grace).
        await asyncio.gather(*(process.stop() for process in processes))
    for process in processes:
        log = process.log()
        assert emu.bot_token not in log, "the token appeared in a bot's log"
        assert "Traceback" not in log, f"a bot process logged an error:\n{log[-3000:]}"
    assert_clean(emu)
