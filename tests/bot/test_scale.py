"""Bounded memory (the state cache, the locks), the scheduler's due query and its cost
in queries, rows read lazily, on a real SQLite file."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest

from engine import GAMES
from services.game_service import GameService, Timing
from services.posting_port import Poster
from services.scheduler import Scheduler
from services.shards import ALL as ALL_SHARDS
from services.storage import Database, GameRow
from services.storage import async_play as store

ALICE, BOB = 1_001, 1_002


async def started(
    service: GameService, channel: int, guild: int | None = None, users: tuple[int, int] = (ALICE, BOB), **timing: Any
) -> int:
    row = await service.create("fox-duet", guild, channel, users[0], "A", {}, Timing(**timing))
    await service.join(row.id, users[1], "B")
    await service.start(row.id, users[0])
    return row.id


# -- the state cache and the locks -----------------------------------------------------------


async def test_the_state_cache_keeps_at_most_its_limit_and_evicted_games_reload_and_play_on(db: Database) -> None:
    service = GameService(db, cache_size=3)
    games = [await started(service, channel) for channel in range(100, 108)]
    rng = random.Random(4)
    for game_id in games:  # touch every game: more than the cache holds
        row = await service.get(game_id)
        state = await service.state(row)
        seat = state.to_move()[0]
        users = await service.seat_users(game_id)
        await service.act(game_id, users[seat], row.version, rng.choice(state.legal_actions(seat)).text)
        assert len(service._cache) <= 3
    assert list(service._cache) == games[-3:]  # the most recently used stay
    first = await service.get(games[0])
    assert games[0] not in service._cache
    reloaded = await service.state(first)
    assert reloaded.version == first.version == 1
    assert reloaded.to_dict() == GAMES["fox-duet"].load(first.state).to_dict()
    assert list(service._cache)[-1] == games[0] and len(service._cache) == 3
    # An evicted game plays on from the reloaded state.
    evicted = games[1]
    assert evicted not in service._cache
    row = await service.get(evicted)
    state = await service.state(row)
    seat = state.to_move()[0]
    result = await service.act(evicted, (await service.seat_users(evicted))[seat], 1, state.legal_actions(seat)[0].text)
    assert result.row.version == 2


def test_a_cache_that_holds_nothing_is_refused(db: Database) -> None:
    with pytest.raises(ValueError):
        GameService(db, cache_size=0)


async def test_a_games_lock_lives_while_held_or_awaited_and_goes_when_idle(db: Database) -> None:
    service = GameService(db)
    game_id = await started(service, 100)
    assert len(service._locks) == 0  # the start's lock went with it
    lock = service.lock(game_id)
    async with lock:
        assert service.lock(game_id) is lock  # a second click waits on the same lock
        waiter = asyncio.create_task(service.get(game_id))
        await waiter
    del lock
    assert len(service._locks) == 0
    # Two simultaneous moves still make exactly one.
    row = await service.get(game_id)
    state = await service.state(row)
    seat = state.to_move()[0]
    user = (await service.seat_users(game_id))[seat]
    texts = [a.text for a in state.legal_actions(seat)][:2]
    results = await asyncio.gather(*(service.act(game_id, user, 0, text) for text in texts), return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert len(service._locks) == 0


async def test_a_rows_json_columns_are_decoded_only_when_read(db: Database) -> None:
    service = GameService(db)
    game_id = await started(service, 100)
    row = await db.get_game(game_id)
    assert row is not None
    assert "Json" in type(row.__dict__["state"]).__name__  # still the text
    assert isinstance(row.state, dict)
    assert isinstance(row.__dict__["state"], dict)  # decoded once, then kept
    assert row == await db.get_game(game_id)


# -- the scheduler ---------------------------------------------------------------------------


class RecordingFlow:
    """What the scheduler tells the players, recorded (the Discord side has its own tests)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.said: list[tuple[int, str]] = []
        self.shards = ALL_SHARDS  # one process serves every guild

    def table_locale(self, row: GameRow) -> str:
        return "en"

    async def remind(self, row: GameRow, users: list[int], key: str, snooze: bool = False, **values: object) -> None:
        self.said.append((row.id, key))

    async def announce(self, row: GameRow, text: str) -> None:
        self.said.append((row.id, "idle-closed"))


class CountingConnection:
    """The database's connection, counting the statements run through it."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.statements: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def execute(self, sql: str, *args: Any) -> Any:
        self.statements.append(sql)
        return self._conn.execute(sql, *args)

    async def execute_fetchall(self, sql: str, *args: Any) -> Any:
        self.statements.append(sql)
        return await self._conn.execute_fetchall(sql, *args)

    async def executemany(self, sql: str, *args: Any) -> Any:
        self.statements.append(sql)
        return await self._conn.executemany(sql, *args)


async def test_the_due_query_picks_exactly_the_due_games_with_a_few_queries_per_tick(db: Database) -> None:
    service = GameService(db)
    flow = RecordingFlow(service)
    await store.update_guild_settings(db, 2, reminder_hours=5)
    await store.update_guild_settings(db, 3, reminder_hours=720, idle_days=1)
    users = iter(range(2_000, 3_000))
    pair = lambda: (next(users), next(users))  # noqa: E731 - every table its own players
    games = {
        "A": await started(service, 101, 1, pair(), reminder_hours=2),  # the game's own interval
        "B": await started(service, 102, 2, pair()),  # the server's interval: 5 h
        "C": await started(service, 103, None, pair()),  # no server: 24 h, never idle-closed
        "D": await started(service, 104, 1, pair(), reminder_hours=2),  # snoozed
        "E": await started(service, 105, 1, pair(), reminder_hours=2),  # both players away 3 h
        "F": await started(service, 106, 1, pair(), reminder_hours=100, time_limit_hours=48),  # warned at 36 h
        "G": await started(service, 107, 3, pair()),  # the server closes idle tables after a day
    }
    fillers = [await started(service, 200 + i, None, pair(), reminder_hours=700) for i in range(30)]
    names = {game_id: name for name, game_id in games.items()}
    assert await store.snooze(db, games["D"], 0)
    start = datetime.now(UTC)
    for user in await service.seat_users(games["E"]):
        await store.add_vacation(db, user, start - timedelta(hours=1), start + timedelta(hours=3))
    backend = cast(Any, db._backend)  # the SQLite backend's one connection
    counting = CountingConnection(backend._conn)
    backend._conn = counting
    clock = start
    scheduler = Scheduler(service, cast(Poster, flow), lambda: clock)
    service._cache.clear()

    async def tick_at(hours: float, minutes: float = 0) -> tuple[dict[str, set[str]], int]:
        nonlocal clock
        clock = start + timedelta(hours=hours, minutes=minutes)
        flow.said.clear()
        counting.statements.clear()
        await scheduler.tick()
        said: dict[str, set[str]] = {}
        for game_id, key in flow.said:
            said.setdefault(names[game_id], set()).add(key)
        return said, len(counting.statements)

    # The first look at 37 new tables works out every due time from the rows alone: no state
    # is read, and the query count does not grow with the number of games.
    said, statements = await tick_at(1)
    assert said == {} and len(service._cache) == 0
    assert statements <= 5, counting.statements
    assert await tick_at(1, 30) == ({}, 1)  # nothing due: one query, nothing written
    said, _ = await tick_at(2, 1)
    assert said == {"A": {"reminder.1"}}
    assert set(service._cache) == {games["A"], games["E"]}  # E looked at, its players still away
    assert (await tick_at(2, 2))[0] == {}
    assert (await tick_at(5, 1))[0] == {"A": {"reminder.2"}, "B": {"reminder.1"}, "E": {"reminder.1"}}
    assert (await tick_at(18, 1))[0] == {"A": {"reminder.3"}, "B": {"reminder.2"}, "E": {"reminder.2"}}
    said, statements = await tick_at(24, 1)
    assert said == {"B": {"reminder.3"}, "C": {"reminder.1"}, "E": {"reminder.3"}, "G": {"idle-closed"}}
    assert statements < 30  # batched: not a few queries per game
    assert (await db.get_game(games["G"])).status == "abandoned"  # type: ignore[union-attr]
    assert (await tick_at(36, 1))[0] == {"F": {"reminder.warning"}}
    # Every reminder capped, F warned, D snoozed: after F's next due time is stored, a tick
    # reads one index and nothing else, and loads no state.
    service._cache.clear()
    assert (await tick_at(36, 2))[0] == {}
    assert await tick_at(36, 3) == ({}, 1)
    assert len(service._cache) == 0
    # A server that now closes idle tables after a day: its games' due times are worked out
    # again at once (they were stored for 30 days), the others keep theirs.
    await store.update_guild_settings(db, 1, idle_days=1)
    said, _ = await tick_at(36, 4)
    assert said == {name: {"idle-closed"} for name in "ADEF"}
    running = await db.query("SELECT id FROM games WHERE status = 'running' ORDER BY id")
    assert [r["id"] for r in running] == [games["B"], games["C"], *fillers]


async def test_a_vacation_cut_short_brings_the_due_time_closer(db: Database) -> None:
    service = GameService(db)
    flow = RecordingFlow(service)
    game_id = await started(service, 101, 1, reminder_hours=2)
    start = datetime.now(UTC)
    for user in (ALICE, BOB):
        await store.add_vacation(db, user, start - timedelta(hours=1), start + timedelta(days=5))
    clock = start
    scheduler = Scheduler(service, cast(Poster, flow), lambda: clock)
    clock = start + timedelta(hours=3)
    await scheduler.tick()  # away: the next look is worked out for when the wait could reach 2 h
    assert flow.said == []
    clock = start + timedelta(hours=4)
    await scheduler.tick()
    assert flow.said == []  # stored: look again at 5 h
    # Back early (their vacation ended 2 h 1 min ago): the wait is over 2 h now, not at 5 h.
    assert await store.end_vacation(db, ALICE, clock - timedelta(hours=2, minutes=1))
    assert await store.end_vacation(db, BOB, clock - timedelta(hours=2, minutes=1))
    await scheduler.tick()
    assert flow.said == [(game_id, "reminder.1")]
    flow.said.clear()
    clock = start + timedelta(hours=5)
    await scheduler.tick()
    assert flow.said == []
