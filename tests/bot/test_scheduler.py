"""Reminders, time limits, vacations and idle tables, with the clock fast-forwarded."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.client import MeepleBot
from emulator.testing import running
from engine import GAMES
from services.scheduler import automatic_action, overlap
from services.storage import async_play as store
from tests.bot.test_discord_table import join_and_start
from tests.support.driver import Table, mentioned


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


async def open_with(emu, world, **timing) -> None:
    created = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet", **timing})
    assert "table is open" in (await created.final_message()).content
    await join_and_start(emu, world, emu.last_message(world.channel))


def reminders(emu, world) -> list:
    return [m for m in emu.messages(world.channel) if "\N{ALARM CLOCK}" in m.content or "last reminder" in m.content]


def test_overlap_counts_covered_time_once() -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    hours = [(t0 + timedelta(hours=1), t0 + timedelta(hours=3)), (t0 + timedelta(hours=2), t0 + timedelta(hours=5))]
    assert overlap(t0, t0 + timedelta(hours=4), hours) == timedelta(hours=3)
    assert overlap(t0, t0 + timedelta(hours=1), hours) == timedelta()


def test_automatic_moves_are_legal_reproducible_and_forfeit_uses_the_rules_concede() -> None:
    class Row:
        seed, version = 5, 0

    state = GAMES["fox-duet"].new(2, 5)
    seat = state.to_move()[0]
    auto, how = automatic_action(Row, state, seat, "auto")
    assert how == "auto" and auto in state.legal_actions(seat) and auto.verb != "concede"
    assert automatic_action(Row, state, seat, "auto")[0] == auto
    assert automatic_action(Row, state, seat, "skip")[1] == "auto"  # the Duet has no pass
    forfeit, how = automatic_action(Row, state, seat, "forfeit")
    assert (forfeit.text, how) == ("concede", "forfeit")


async def test_reminders_escalate_stop_at_the_cap_and_survive_a_restart(emu, world, config_for) -> None:
    clock = FakeClock()
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, clock)) as bot:
        await open_with(emu, world, reminders=2)
        mover = mentioned(Table(emu, world.channel, [world.alice, world.bob]).board())[0]
        clock.advance(hours=1, minutes=50)
        await bot.scheduler.tick()
        assert reminders(emu, world) == []
        clock.advance(minutes=15)
        await bot.scheduler.tick()
        await bot.scheduler.tick()
        first = reminders(emu, world)
        assert len(first) == 1 and f"<@{mover}>" in first[0].content and first[0].button("Snooze for this turn")
        clock.advance(hours=2)
    async with running(emu, MeepleBot(config, clock)) as bot:
        await bot.scheduler.tick()
        assert "second reminder" in reminders(emu, world)[-1].content
        clock.advance(hours=2)
        await bot.scheduler.tick()
        assert "last reminder" in reminders(emu, world)[-1].content
        clock.advance(hours=10)
        await bot.scheduler.tick()
        assert len(reminders(emu, world)) == 3


async def test_snooze_stops_reminders_for_this_turn_only(emu, world, config_for) -> None:
    clock = FakeClock()
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), clock)) as bot:
        await open_with(emu, world, reminders=1)
        table = Table(emu, world.channel, [world.alice, world.bob])
        mover = table.user(mentioned(table.board())[0])
        other = world.bob if mover == world.alice else world.alice
        clock.advance(hours=1, minutes=1)
        await bot.scheduler.tick()
        reminder = reminders(emu, world)[0]
        refused = await emu.click(other, reminder, label="Snooze for this turn")
        assert "Only a player the game is waiting for" in (await refused.followups(1))[0].content
        snoozed = await emu.click(mover, reminder, label="Snooze for this turn")
        assert "snoozed" in (await snoozed.followups(1))[0].content
        clock.advance(hours=5)
        await bot.scheduler.tick()
        assert len(reminders(emu, world)) == 1
        await table.play_one()  # a new turn: reminders start again
        clock.advance(hours=1, minutes=1)
        await bot.scheduler.tick()
        assert len(reminders(emu, world)) == 2


async def test_time_limit_warns_then_plays_for_the_player_after_a_restart(emu, world, config_for) -> None:
    clock = FakeClock()
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, clock)) as bot:
        await open_with(emu, world, reminders=100, time_limit=24, on_timeout="auto")
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        clock.advance(hours=19)
        await bot.scheduler.tick()
        warning = emu.last_message(world.channel)
        assert "time limit" in warning.content and "legal move for you" in warning.content
        clock.advance(hours=6)
    async with running(emu, MeepleBot(config, clock)) as bot:
        await bot.scheduler.tick()
        row = await bot.db.get_game(game_id)
        assert row.version == 1
        table = Table(emu, world.channel, [world.alice, world.bob])
        # The move is stored by the tick; its board goes out from the delivery, in the background.
        await emu.wait_until(
            lambda: "ran out of time; I played for them" in table.board().content, what="the board of the move played"
        )


async def test_forfeit_on_time_ends_the_game_and_records_the_result(emu, world, config_for) -> None:
    clock = FakeClock()
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), clock)) as bot:
        await open_with(emu, world, time_limit=24, on_timeout="forfeit")
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        clock.advance(hours=25)
        await bot.scheduler.tick()
        row = await bot.db.get_game(game_id)
        assert row.status == "finished"
        table = Table(emu, world.channel, [world.alice, world.bob])
        await emu.wait_until(lambda: "forfeits the game" in table.board().content, what="the board of the forfeit")
        results = await store.results_of(bot.db, world.alice.id)
        assert len(results) == 1 and not results[0].won
        record = await emu.slash(world.bob, world.channel, "meeple record", {"player": world.alice})
        assert "1 finished game" in (await record.final_message()).content


async def test_a_vacation_pauses_reminders_and_counts_against_the_yearly_allowance(emu, world, config_for) -> None:
    clock = FakeClock()
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), clock)) as bot:
        await open_with(emu, world, reminders=24)
        mover = Table(emu, world.channel, [world.alice, world.bob]).user(
            mentioned(Table(emu, world.channel, [world.alice, world.bob]).board())[0]
        )
        away = await emu.slash(mover, world.channel, "meeple vacation", {"days": 3})
        assert "paused in every game for 3 days" in (await away.final_message()).content
        clock.advance(days=3, hours=12)
        await bot.scheduler.tick()
        assert reminders(emu, world) == []
        clock.advance(hours=13)
        await bot.scheduler.tick()
        assert len(reminders(emu, world)) == 1
        greedy = await emu.slash(mover, world.channel, "meeple vacation", {"days": 19})
        assert "Vacation days left this year: 18" in (await greedy.final_message()).content


async def test_idle_tables_close_after_the_server_setting(emu, world, config_for) -> None:
    clock = FakeClock()
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), clock)) as bot:
        settings = await emu.slash(world.owner, world.channel, "meeple settings", {"idle_days": 10})
        assert "after 10 days" in (await settings.final_message()).content
        await open_with(emu, world)
        clock.advance(days=10, minutes=1)
        await bot.scheduler.tick()
        assert "without a move" in emu.last_message(world.channel).content
        assert await bot.db.active_game_in_channel(world.channel.id) is None


async def test_settings_need_manage_server_and_defaults_reach_new_tables(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), FakeClock())) as bot:
        refused = await emu.slash(world.bob, world.channel, "meeple settings", {"time_limit": 72})
        assert "Manage Server" in (await refused.final_message()).content
        done = await emu.slash(world.owner, world.channel, "meeple settings", {"time_limit": 72, "on_timeout": "skip"})
        assert "72 h per move" in (await done.final_message()).content
        await open_with(emu, world)
        row = await bot.db.active_game_in_channel(world.channel.id)
        assert (row.time_limit_hours, row.timeout_action) == (72, "skip")


async def test_listing_games_across_the_server_and_the_ones_waiting_for_me(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), FakeClock())):
        await open_with(emu, world)
        table = Table(emu, world.channel, [world.alice, world.bob])
        mover = table.user(mentioned(table.board())[0])
        other = world.bob if mover == world.alice else world.alice
        listed = await emu.slash(other, world.channel, "meeple list")
        assert "The Fox in the Forest Duet" in (await listed.final_message()).content
        mine = await emu.slash(mover, world.channel, "meeple games")
        assert "Waiting for you (1)" in (await mine.final_message()).content
        theirs = await emu.slash(other, world.channel, "meeple games")
        assert "Waiting for you (0)" in (await theirs.final_message()).content
