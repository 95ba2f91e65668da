"""Backups end to end: `python -m bot backup` copies the database of a bot process while it plays,
`python -m bot restore` puts the copy in place for a fresh bot process, and every move the players
saw acknowledged before the backup began is there. The bots log JSON lines (MEEPLE_LOG_FORMAT)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import ROOT, BotProcess
from tests.e2e.test_fox_duet import game_row, open_and_start
from tests.support.driver import Table


class JsonBot(BotProcess):
    def env(self) -> dict[str, str]:
        return super().env() | {"MEEPLE_LOG_FORMAT": "json"}

    def lines(self) -> list[dict]:
        """Every line of its log, each one JSON object (a line that is not would fail here)."""
        return [json.loads(line) for line in self.log().splitlines() if line.strip()]


def moves(bot: BotProcess) -> list[tuple[int, int, str]]:
    return [(r["version"], r["seat"], r["action"]) for r in bot.query("SELECT * FROM actions ORDER BY version")]


async def command(bot: BotProcess, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` with the bot's own configuration (MEEPLE_DB), as an operator runs it."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=ROOT,
        env=bot.env(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode is not None
    return subprocess.CompletedProcess(args, process.returncode, out.decode(), err.decode())


async def test_a_backup_taken_during_play_restores_every_acknowledged_move(emu, world, tmp_path: Path) -> None:
    (tmp_path / "playing").mkdir()
    (tmp_path / "restored").mkdir()
    playing = JsonBot(emu, world, tmp_path / "playing")
    restored = JsonBot(emu, world, tmp_path / "restored")
    copy = tmp_path / "copies" / "during-play.db"
    await playing.start()
    try:
        await open_and_start(emu, world)
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
        for _ in range(3):
            await table.play_one()
        # Every move whose "Done" the player saw is committed: the backup begins after these.
        acknowledged = moves(playing)
        assert len(acknowledged) == 3
        backup = asyncio.create_task(command(playing, "backup", str(copy)))
        await table.play_one()  # a move while the copy is being made
        done = await backup
        assert done.returncode == 0, done.stderr
        assert f"to {copy}" in done.stdout
        await table.play_one()  # and play goes on after it
        assert len(moves(playing)) == 5
        game_id = game_row(playing)["id"]
    finally:
        await playing.stop()
    assert playing.exit_code == 0

    # The operator restores the copy for a bot on another database path (the bot is stopped).
    done = await command(restored, "restore", str(copy))
    assert done.returncode == 0, done.stderr
    assert f"to {restored.database}" in done.stdout
    await restored.start()
    try:
        await emu.wait_until(
            lambda: any("running games carry on" in line.get("message", "") for line in restored.lines()),
            what="the restored bot carrying on its games",
        )
        restored_moves = moves(restored)
        assert restored_moves[: len(acknowledged)] == acknowledged  # every acknowledged move, as it was
        assert restored_moves == moves(playing)[: len(restored_moves)]  # nothing but moves that were made
        row = game_row(restored)
        assert row["id"] == game_id and row["status"] == "running"
        assert row["version"] == len(restored_moves) >= len(acknowledged)
    finally:
        await restored.stop()
    for bot in (playing, restored):
        records = bot.lines()
        assert records and all({"time", "level", "logger", "message"} <= set(r) for r in records)
        assert emu.bot_token not in bot.log()
        assert not [r for r in records if "exception" in r], [r for r in records if "exception" in r]
