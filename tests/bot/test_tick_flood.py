"""Every game due in the same minute: the tick reads a page of due games at a time, writes a
batch's notes in one transaction, paces its posts; the collector is set up at start-up and the
cached states are kept out of its sight. (Speed: bench/tick.py.)"""

from __future__ import annotations

import asyncio
import gc
import pickle
import random
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from bot.client import MeepleBot
from emulator.testing import running
from services import collector
from services.game_service import HOT_STATES, GameService
from services.posting_port import Poster
from services.scheduler import Pacer, Scheduler
from services.storage import Database
from tests.bot.test_scale import CountingConnection, RecordingFlow, started


def fast() -> Pacer:
    return Pacer(rate=10_000)


async def many_games(service: GameService, count: int) -> list[int]:
    return [await started(service, 300 + i, 1, (20_000 + 2 * i, 20_001 + 2 * i)) for i in range(count)]


def counting(db: Database) -> CountingConnection:
    backend = cast(Any, db._backend)
    conn = CountingConnection(backend._conn)
    backend._conn = conn
    return conn


class RowsRead:
    """The rows each query of the database returned."""

    def __init__(self, db: Database) -> None:
        self.sizes: list[tuple[str, int]] = []
        query = db.query

        async def counted(sql: str, params: Any = ()) -> Any:
            rows = await query(sql, params)
            self.sizes.append((sql, len(rows)))
            return rows

        db.query = counted  # type: ignore[method-assign]


async def test_a_flood_is_read_a_page_at_a_time_and_every_game_is_reminded_once(db: Database) -> None:
    service = GameService(db)
    flow = RecordingFlow(service)
    games = await many_games(service, 23)
    start = datetime.now(UTC)
    clock = start + timedelta(hours=24, minutes=1)
    scheduler = Scheduler(service, cast(Poster, flow), lambda: clock, pacer=fast(), page_size=5, batch_size=2)
    read = RowsRead(db)
    conn = counting(db)
    await scheduler.tick()
    assert sorted(flow.said) == sorted((game, "reminder.1") for game in games)
    pages = [size for sql, size in read.sizes if "due_at <= ?" in sql]
    assert pages == [5, 5, 5, 5, 3]  # keyset pages; the short one is the last
    assert max(size for _, size in read.sizes) <= 5  # never more than a page of rows in hand
    whole = [size for sql, size in read.sizes if sql.startswith("SELECT * FROM games")]
    assert whole and max(whole) <= 2  # whole rows a batch at a time
    # Writes batched: a transaction per batch (its notes) and per page (due times), not per game.
    begins = [s for s in conn.statements if s.lstrip().upper().startswith("BEGIN")]
    assert len(begins) == 14 + 5, conn.statements  # batches of 2 in pages of 5, 5, 5, 5 and 3
    notes = [s for s in conn.statements if "reminders_sent = ?" in s]
    assert len(notes) == 14  # one executemany per batch
    # Noted, with their next due time: the minute after reads nothing but the due query.
    flow.said.clear()
    read.sizes.clear()
    clock += timedelta(minutes=1)
    await scheduler.tick()
    assert flow.said == [] and [size for _, size in read.sizes] == [0]
    # And the second reminder, once, when it is due.
    clock = start + timedelta(hours=48, minutes=2)
    await scheduler.tick()
    await scheduler.tick()
    assert sorted(flow.said) == sorted((game, "reminder.2") for game in games)


async def test_a_game_that_moves_before_its_note_is_not_reminded(db: Database) -> None:
    service = GameService(db)
    flow = RecordingFlow(service)
    games = await many_games(service, 4)
    clock = datetime.now(UTC) + timedelta(hours=24, minutes=1)
    scheduler = Scheduler(service, cast(Poster, flow), lambda: clock, pacer=fast(), batch_size=4)
    plan = scheduler.plan
    moved = games[2]

    async def then_a_move(row, *args):  # noqa: ANN001, ANN202 - Scheduler.plan's own
        decided = await plan(row, *args)
        if row.id == moved:  # the player moves after the tick read the game, before its note
            state = await service.state(row)
            seat = state.to_move()[0]
            users = await service.seat_users(row.id)
            action = random.Random(1).choice(state.legal_actions(seat))
            await service.act(row.id, users[seat], row.version, action.text)
        return decided

    scheduler.plan = then_a_move  # type: ignore[method-assign]
    await scheduler.tick()
    assert sorted(flow.said) == sorted((game, "reminder.1") for game in games if game != moved)


async def test_the_pacer_spreads_posts_overall_and_per_channel() -> None:
    moments: list[tuple[int, float]] = []
    now = [0.0]

    async def sleep(seconds: float) -> None:
        await asyncio.sleep(0)  # the posts started so far run, at the moment they were given
        now[0] += seconds

    pacer = Pacer(rate=4, per_channel=5, window=5.0, clock=lambda: now[0], sleep=sleep)

    def post(channel: int):  # noqa: ANN202
        async def send() -> None:
            moments.append((channel, now[0]))

        return send

    for index in range(8):
        await pacer.post(100 + index, post(100 + index), "remind")
    for _ in range(7):
        await pacer.post(1, post(1), "remind")
    await pacer.drain()
    starts = [moment for _, moment in moments]
    assert all(b - a >= 0.25 - 1e-9 for a, b in zip(starts, starts[1:], strict=False))  # 4 a second
    one = [moment for channel, moment in moments if channel == 1]
    assert one[5] - one[0] >= 5.0 - 1e-9 and one[6] - one[1] >= 5.0 - 1e-9  # 5 in any 5 s
    assert pacer.started == 15


async def test_a_failed_post_is_logged_and_the_others_go_out(db: Database, caplog) -> None:  # noqa: ANN001
    service = GameService(db)
    games = await many_games(service, 3)

    class Failing(RecordingFlow):
        async def remind(self, row, users, key, snooze=False, **values):  # noqa: ANN001, ANN202
            if row.id == games[1]:
                raise RuntimeError("Discord said no")
            await super().remind(row, users, key, snooze, **values)

    flow = Failing(service)
    clock = datetime.now(UTC) + timedelta(hours=24, minutes=1)
    await Scheduler(service, cast(Poster, flow), lambda: clock, pacer=fast()).tick()
    assert sorted(flow.said) == [(games[0], "reminder.1"), (games[2], "reminder.1")]
    assert any("could not remind" in r.getMessage() for r in caplog.records)


async def test_cold_cached_states_are_pickled_and_come_back_equal(db: Database) -> None:
    service = GameService(db, cache_size=HOT_STATES + 10)
    games = await many_games(service, HOT_STATES + 12)
    rows = {game: await db.get_game(game) for game in games}
    originals = {game: (await service.state(rows[game])).to_dict() for game in games}  # type: ignore[arg-type]
    assert list(service._cache) == games[2:]
    kinds = [type(kept) for _, kept in service._cache.values()]
    assert kinds == [bytes] * 10 + [kinds[-1]] * HOT_STATES and kinds[-1] is not bytes
    cold = games[2]
    state = await service.state(rows[cold])  # type: ignore[arg-type]
    assert state.to_dict() == originals[cold]
    assert service._cache[cold][1] is state and list(service._cache)[-1] == cold  # hot again
    assert isinstance(service._cache[games[3]][1], bytes)
    assert isinstance(service._cache[games[12]][1], bytes)  # the one it pushed out of the hot end
    assert pickle.loads(cast(bytes, service._cache[games[12]][1])).to_dict() == originals[games[12]]


async def test_the_collector_is_set_up_at_start_up_and_released_at_close(emu, world, config_for) -> None:  # noqa: ANN001
    before = gc.get_threshold()
    try:
        async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
            assert gc.get_threshold() == collector.THRESHOLDS
            assert gc.get_freeze_count() > 10_000  # the modules, the commands, the catalogues
            await emu.wait_until(
                lambda: not any(t.get_name() == "meeple-gc-freeze" for t in asyncio.all_tasks()),
                what="the freeze once the bot is ready",
            )
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
