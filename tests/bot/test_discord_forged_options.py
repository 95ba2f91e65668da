"""Options are checked before anything is stored, even in a payload forged past Discord's client."""

from __future__ import annotations

import logging

import pytest

from bot.client import MeepleBot
from emulator.testing import running
from league.refusal import Refusal
from services.game_service import GameService, Timing
from services.storage import Database
from tests.bot.test_discord_table import open_table

FORGED_CREATES = [
    ({"reminders": 500}, "reminders takes a number from 1 to 168"),
    ({"reminders": 0}, "reminders takes a number from 1 to 168"),
    ({"reminders": 1000}, "reminders takes a number from 1 to 168"),
    ({"reminders": "soon"}, "reminders takes a whole number"),
    ({"reminders": 2**70}, "reminders takes a whole number"),
    ({"time_limit": 5}, "time_limit takes one of: No limit, 1 day per move"),
    ({"time_limit": "72"}, "time_limit takes a whole number"),
    ({"on_timeout": "explode"}, "on_timeout takes one of: Make a legal move"),
    ({"thread": "yes"}, "thread was given a value of the wrong kind"),
    ({"options": "level=2 " * 625}, "options takes 1 to 200 characters"),
]


async def test_a_forged_table_create_is_refused_naming_the_option_and_stores_nothing(
    emu, world, config_for, caplog
) -> None:
    caplog.set_level(logging.INFO)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        for forged, said in FORGED_CREATES:
            result = await emu.slash(
                world.alice, world.channel, "table create", {"game": "fox-duet", **forged}, validate=False
            )
            answer = await result.final_message()
            assert answer.ephemeral and said in answer.content, (forged, answer.content)
            assert await bot.db.active_game_in_channel(world.channel.id) is None, forged
        unknown = await emu.slash(world.alice, world.channel, "table create", {"game": "chess"}, validate=False)
        assert "game takes one of" in (await unknown.final_message()).content
        assert (await bot.db.query("SELECT COUNT(*) AS n FROM games"))[0]["n"] == 0
        assert emu.messages(world.channel) == []
        listed = await emu.slash(world.alice, world.channel, "meeple list")
        assert "no open tables" in (await listed.final_message()).content.lower()
        assert not [r for r in caplog.records if r.exc_info]
        # The channel is free: a real create goes through.
        await open_table(emu, world)


async def test_forged_settings_and_vacation_are_refused_and_change_nothing(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        for forged, said in [
            ({"idle_days": 0}, "idle_days takes a number from 1 to 365"),
            ({"reminders": 500}, "reminders takes a number from 1 to 168"),
            ({"on_timeout": "explode"}, "on_timeout takes one of"),
            ({"threads": 1}, "threads was given a value of the wrong kind"),
        ]:
            result = await emu.slash(world.owner, world.channel, "meeple settings", forged, validate=False)
            assert said in (await result.final_message()).content, forged
        assert await bot.db.query("SELECT * FROM guild_settings") == []
        for days, said in [(99, "days takes a number from 0 to 21"), ("a week", "days takes a whole number")]:
            result = await emu.slash(world.alice, world.channel, "meeple vacation", {"days": days}, validate=False)
            assert said in (await result.final_message()).content, days
        missing = await emu.slash(world.alice, world.channel, "meeple vacation", {}, validate=False)
        assert "days is required" in (await missing.final_message()).content
        assert await bot.db.query("SELECT * FROM vacations") == []


async def test_the_service_refuses_a_timing_the_database_would_not_take_before_storing_anything(tmp_path) -> None:
    async with await Database.open(tmp_path / "meeple.db") as db:
        service = GameService(db)
        for timing in (Timing(reminder_hours=1000), Timing(time_limit_hours=-3), Timing(timeout_action="explode")):
            with pytest.raises(Refusal):
                await service.create("fox-duet", 1, 10, 100, "Alice", {}, timing)
        assert await db.query("SELECT * FROM games") == []
        row = await service.create("fox-duet", 1, 10, 100, "Alice", {}, Timing(reminder_hours=12, time_limit_hours=72))
        assert (row.reminder_hours, row.time_limit_hours, row.timeout_action) == (12, 72, "auto")


async def test_a_table_and_its_timing_are_stored_together_or_not_at_all(tmp_path) -> None:
    async with await Database.open(tmp_path / "meeple.db") as db:
        with pytest.raises(Exception, match="CHECK"):
            await db.create_game("fox-duet", 1, 10, 100, {}, 7, reminder_hours=1000)
        assert await db.query("SELECT * FROM games") == [] and await db.query("SELECT * FROM seats") == []
        row = await db.create_game("fox-duet", 1, 10, 100, {}, 7, others=[(200, "Bob"), (300, None)])
        assert [s.user_id for s in await db.seats(row.id)] == [100, 200, 300]


async def test_a_value_discord_py_cannot_transform_gets_a_clear_answer_not_an_internal_error(
    emu, world, config_for, caplog
) -> None:
    stranger = emu.add_user("stranger", global_name="Stranger")  # not a member of the server
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        result = await emu.slash(world.alice, world.channel, "table handover", {"member": stranger})
        answer = await result.final_message()
        assert answer.ephemeral and "options has a value I cannot use" in answer.content
        assert not [r for r in caplog.records if r.exc_info]
