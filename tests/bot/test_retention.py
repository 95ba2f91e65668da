"""Retention (MEEPLE_RETENTION_DAYS): the setting, the once-a-day pass, and what players see of a
game whose move-by-move record was compacted."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.client import MeepleBot
from emulator.testing import running
from services.compaction import Retention
from services.config import DEFAULT_RETENTION_DAYS, load_config
from services.storage import Database
from tests.bot.test_discord_table import join_and_start, open_table
from tests.bot.test_discord_ticker import Minutes
from tests.bot.test_scheduler import FakeClock
from tests.storage.test_retention import end_days_ago, finished_game
from tests.support.driver import Table, concede_together, mentioned


def test_retention_keeps_a_year_by_default_takes_days_and_can_be_switched_off() -> None:
    assert DEFAULT_RETENTION_DAYS == 365
    assert load_config(env={}, env_file=None).retention_days == 365
    assert load_config(env={"MEEPLE_RETENTION_DAYS": " 90 "}, env_file=None).retention_days == 90
    for off in ("0", "off", "OFF", "000"):
        assert load_config(env={"MEEPLE_RETENTION_DAYS": off}, env_file=None).retention_days is None
    for bad in ("-1", "a year", "1.5", "36501"):
        with pytest.raises(ValueError, match="MEEPLE_RETENTION_DAYS"):
            load_config(env={"MEEPLE_RETENTION_DAYS": bad}, env_file=None)
    assert "retention_days=90" in repr(load_config(env={"MEEPLE_RETENTION_DAYS": "90"}, env_file=None))


async def test_a_pass_runs_at_most_once_a_day_and_never_when_switched_off(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "meeple.db")
    try:
        first, second = await finished_game(db, 501), await finished_game(db, 502)
        await end_days_ago(db, first.id, 40)
        clock = FakeClock()
        assert await Retention(db, None, clock).tick() is None  # off: nothing, ever
        assert (await db.get_game(first.id)).compacted_at is None  # type: ignore[union-attr]
        retention = Retention(db, 30, clock)
        done = await retention.tick()
        assert done is not None and done.games == 1
        await end_days_ago(db, second.id, 40)
        clock.advance(hours=23)
        assert await retention.tick() is None, "less than a day since the last pass"
        assert (await db.get_game(second.id)).compacted_at is None  # type: ignore[union-attr]
        clock.advance(hours=1)
        done = await retention.tick()
        assert done is not None and done.games == 1
    finally:
        await db.close()


async def test_a_long_backlog_is_compacted_over_several_ticks_with_one_cutoff(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "meeple.db")
    try:
        games = [await finished_game(db, 510 + i, moves=2) for i in range(5)]
        for game in games:
            await end_days_ago(db, game.id, 40)
        clock = FakeClock()
        retention = Retention(db, 30, clock, batch=1, batches_per_tick=2)
        assert [(await retention.tick()).games for _ in range(3)] == [2, 2, 1]  # type: ignore[union-attr]
        late = await finished_game(db, 520, moves=2)
        await end_days_ago(db, late.id, 40)
        assert await retention.tick() is None, "the pass is over: the next one comes tomorrow"
        assert all([(await db.get_game(g.id)).compacted_at for g in games])  # type: ignore[union-attr]
        assert (await db.get_game(late.id)).compacted_at is None  # type: ignore[union-attr]
    finally:
        await db.close()


async def test_the_log_and_past_boards_of_a_compacted_game_say_so(emu, world, config_for) -> None:
    clock, minutes = FakeClock(), Minutes()
    config = replace(config_for(emu, world.guild.id), retention_days=365)
    async with running(emu, MeepleBot(config, clock, tick_wait=minutes.wait)) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob])
        for _ in range(2):
            await table.play_one()
        mover = table.user(mentioned(table.board())[0])
        await concede_together(emu, world.channel, mover, world.bob if mover == world.alice else world.alice)
        await emu.wait_until(table.finished, what="the final board")
        final = table.board()
        await emu.wait_until(lambda: len(final.attachments) == 2, timeout=60, what="the replay attached")
        game_id = (await bot.db.query("SELECT MAX(id) FROM games"))[0][0]
        before = await emu.slash(world.alice, world.channel, "table log")
        assert "Game log" in (await before.final_message()).content

        await minutes.tick(emu)  # the first pass: the game ended today, it stays whole
        assert (await bot.db.get_game(game_id)).compacted_at is None
        clock.advance(days=366)
        await minutes.tick(emu)
        row = await bot.db.get_game(game_id)
        assert row.compacted_at is not None and row.status == "finished" and row.outcome is not None
        assert await bot.db.actions(game_id) == []

        log = await (await emu.slash(world.alice, world.channel, "table log")).final_message()
        assert log.ephemeral and "move-by-move record was compacted" in log.content
        assert f"<t:{int(row.finished_at.timestamp())}:D>" in log.content
        past = await (await emu.slash(world.bob, world.channel, "table history", {"step": 1})).final_message()
        assert past.ephemeral and "move-by-move record was compacted" in past.content and not past.attachments
        clicked = await emu.click(world.bob, final, label="Log")
        answer = (await clicked.followups(1))[0]
        assert answer.ephemeral and "move-by-move record was compacted" in answer.content
        # The final board and its replay are Discord's message: compaction never touches them.
        assert len(final.attachments) == 2 and final.attachments[1].filename.startswith("replay.")
