"""The minute tick when every running game is due at once (after an outage, or a server that set
one time limit for all), and in a normal minute: its duration, the event loop's longest stall,
the garbage collector's pauses, the posts' pace, the statements it ran.

1. A real SQLite file with ``--games`` running games (the four games, two players each, every
   table its own channel and players, 40 servers), made through the storage API
   (``Database.create_game``, ``start_game``); ``--normal`` of them remind every hour, the rest
   every 24 hours (the default). The file is kept in ``--cache`` and copied for each run.
2. The bot's real ``Scheduler`` over the real ``GameService`` and ``Poster`` (its ``remind``
   words and builds each reminder, Snooze button included); only Discord is fake: a channel's
   ``send`` takes ``--latency`` seconds, as a request to Discord does. The garbage collector is
   set up as the bot's start-up sets it (``services.collector.settle``), unless ``--no-gc-setup``,
   after the catalogues are read (the bot's start-up reads them translating its commands) and
   a state of each game loaded (an engine imports some of its modules at its first load).
3. Ticks with a fake clock, each measured: 30 min after the start (the first look: every due
   time worked out from the timing columns, nothing due), 1 h 1 min (a normal minute: the
   ``--normal`` hourly games are reminded), 24 h 1 min (every game due: ``--games`` reminders),
   24 h 2 min (the minute after). While a tick runs, a heartbeat task sleeps 5 ms at a time and
   the longest it came back late is the loop's longest stall; ``gc.callbacks`` time every
   collection.
4. The pause of a full collection with ``--cached`` states in the service's cache, as the cache
   kept them before (every state an object, nothing frozen) and as it keeps them now (the
   ``HOT_STATES`` most recent as objects, the rest pickled; start-up frozen).

    .venv/bin/python bench/tick.py [--games 10000] [--normal 5] [--rate 20] [--latency 0.05]
        [--page-size 500] [--batch-size 50] [--cached 1000] [--no-gc-setup] [--json FILE]

Posts/s is reminders posted over the tick's duration: the tick paces its posts (``--rate``, the
bot's ``POSTS_PER_SECOND``), so 10,000 reminders take ``10,000 / rate`` seconds by design.
"most in 1 s" is the most posts started within any second (Discord's global limit is 50), "most
per channel in 5 s" the same per channel (Discord's limit is 5).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict, deque
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.posting import Poster  # noqa: E402
from engine import GAMES  # noqa: E402
from l10n.words import available_locales, catalogue  # noqa: E402
from services import collector  # noqa: E402
from services.game_service import GameService  # noqa: E402
from services.scheduler import BATCH_SIZE, PAGE_SIZE, POSTS_PER_SECOND, Pacer, Scheduler  # noqa: E402
from services.storage import Database  # noqa: E402
from services.storage.dialect import parse_stamp  # noqa: E402

GUILDS = 40
GUILD_BASE = 4_000_000_000_000_000
CHANNEL_BASE = 5_000_000_000_000_000
USER_BASE = 6_000_000_000_000_000


def load_average() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


# -- the database --------------------------------------------------------------------------


async def build(path: Path, games: int, normal: int) -> None:
    db = await Database.open(path)
    try:
        names = sorted(GAMES)
        for index in range(games):
            game = names[index % len(names)]
            seed = 1_000 + index
            row = await db.create_game(
                game,
                GUILD_BASE + index % GUILDS,
                CHANNEL_BASE + index,
                USER_BASE + 2 * index,
                {},
                seed,
                "A",
                others=[(USER_BASE + 2 * index + 1, "B")],
                reminder_hours=1 if index < normal else None,
            )
            await db.start_game(row.id, GAMES[game].new(2, seed).to_dict())
    finally:
        await db.close()


async def prepared(cache: Path, games: int, normal: int) -> Path:
    template = cache / f"meeple-tick-{games}-{normal}.db"
    if not template.exists():
        started = time.perf_counter()
        scratch = template.with_suffix(".building")
        for leftover in scratch.parent.glob(scratch.name + "*"):
            leftover.unlink()
        await build(scratch, games, normal)
        scratch.rename(template)
        print(f"built {games} running games in {time.perf_counter() - started:.0f} s: {template}")
    return template


# -- a fake Discord ------------------------------------------------------------------------


class Posts:
    """Every post's start, by channel."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.by_channel: dict[int, list[float]] = defaultdict(list)

    def clear(self) -> None:
        self.times.clear()
        self.by_channel.clear()

    def most_within(self, times: list[float], seconds: float) -> int:
        window: deque[float] = deque()
        most = 0
        for moment in sorted(times):
            window.append(moment)
            while window[0] <= moment - seconds:
                window.popleft()
            most = max(most, len(window))
        return most


class Channel:
    def __init__(self, channel_id: int, posts: Posts, latency: float) -> None:
        self.id = channel_id
        self.posts = posts
        self.latency = latency

    async def send(self, content: str, **kwargs: Any) -> object:
        moment = time.perf_counter()
        self.posts.times.append(moment)
        self.posts.by_channel[self.id].append(moment)
        await asyncio.sleep(self.latency)
        return object()


class FakeBot:
    def __init__(self, posts: Posts, latency: float) -> None:
        self.posts = posts
        self.latency = latency

    def get_channel(self, channel_id: int) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> Channel:
        return Channel(channel_id, self.posts, self.latency)


# -- measuring -----------------------------------------------------------------------------


class Heartbeat:
    """A task that sleeps ``every`` seconds; the longest it woke up late is the loop's stall.

    On a loaded machine the process also waits for a core: ``longest_cpu`` is the most CPU the
    loop's thread used between two beats (its own work, collections included; not the waits),
    which other processes do not inflate."""

    def __init__(self, every: float = 0.005) -> None:
        self.every = every
        self.longest = 0.0
        self.longest_cpu = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _beat(self) -> None:
        while True:
            before, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(self.every)
            self.longest = max(self.longest, time.perf_counter() - before - self.every)
            self.longest_cpu = max(self.longest_cpu, time.thread_time() - cpu)

    def __enter__(self) -> Heartbeat:
        self._task = asyncio.create_task(self._beat())
        return self

    def __exit__(self, *exc_info: object) -> None:
        assert self._task is not None
        self._task.cancel()


class Counting:
    """The SQLite connection, counting statements and transactions."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.statements = 0
        self.transactions = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def _count(self, sql: str) -> None:
        self.statements += 1
        if sql.lstrip().upper().startswith("BEGIN"):
            self.transactions += 1

    def execute(self, sql: str, *args: Any) -> Any:
        self._count(sql)
        return self._conn.execute(sql, *args)

    def execute_fetchall(self, sql: str, *args: Any) -> Any:
        self._count(sql)
        return self._conn.execute_fetchall(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        self._count(sql)
        return self._conn.executemany(sql, *args)


async def run_tick(name: str, scheduler: Scheduler, posts: Posts, counting: Counting) -> dict[str, Any]:
    posts.clear()
    counting.statements = counting.transactions = 0
    gc.collect(0)
    with collector.Pauses() as pauses, Heartbeat() as heart:
        started = time.perf_counter()
        await scheduler.tick()
        took = time.perf_counter() - started
        await asyncio.sleep(0.02)  # one more beat after the tick
    per_channel = max((posts.most_within(times, 5.0) for times in posts.by_channel.values()), default=0)
    result = {
        "tick": name,
        "seconds": round(took, 2),
        "posts": len(posts.times),
        "posts_per_second": round(len(posts.times) / took, 1) if took else 0.0,
        "most_in_1s": posts.most_within(posts.times, 1.0),
        "most_per_channel_in_5s": per_channel,
        "stall_ms": round(heart.longest * 1000, 1),
        "stall_cpu_ms": round(heart.longest_cpu * 1000, 1),
        "gc_longest_ms": round(pauses.longest * 1000, 1),
        "gc_longest_cpu_ms": round(pauses.longest_cpu * 1000, 1),
        "gc_collections": pauses.count(),
        "gc_full": pauses.count(2),
        "gc_full_longest_ms": round(max((p for g, p in pauses.pauses if g == 2), default=0.0) * 1000, 1),
        "statements": counting.statements,
        "transactions": counting.transactions,
        "load": load_average(),
    }
    print(
        f"{name:<26} {result['seconds']:>8.2f} s  {result['posts']:>6} posts  {result['posts_per_second']:>6.1f}/s"
        f"  most in 1 s {result['most_in_1s']:>3}  per channel in 5 s {per_channel}"
        f"  stall {result['stall_ms']:>6.1f} ms (CPU {result['stall_cpu_ms']:>5.1f})"
        f"  gc longest {result['gc_longest_ms']:>6.1f} ms (CPU {result['gc_longest_cpu_ms']:>5.1f})"
        f" ({result['gc_collections']} collections, {result['gc_full']} full)"
        f"  {counting.statements} statements, {counting.transactions} transactions  load {result['load']}",
        flush=True,
    )
    return result


def full_collection_ms(repeat: int = 5) -> list[float]:
    """The collecting thread's CPU ms of each of ``repeat`` full collections."""
    times = []
    for _ in range(repeat):
        with collector.Pauses() as pauses:
            gc.collect()
        times.append(pauses.longest_cpu * 1000)
    return times


async def cached_states(db: Database, count: int, gc_setup: bool) -> dict[str, Any]:
    """A full collection's pause with ``count`` states cached, before (objects, nothing frozen)
    and now (the service's cache; start-up frozen)."""
    rows = [r for r in await db.running_games()][:count]
    gc.unfreeze()
    gc.collect()
    before_states = [GAMES[row.game].load(row.state or {}) for row in rows]
    before = full_collection_ms()
    del before_states
    gc.collect()
    if gc_setup:
        gc.freeze()
    service = GameService(db, cache_size=count)
    for row in rows:
        await service.state(row)
    del rows
    after = full_collection_ms()
    del service
    result = {
        "states": count,
        "before_ms": round(statistics.median(before), 1),
        "before_max_ms": round(max(before), 1),
        "after_ms": round(statistics.median(after), 1),
        "after_max_ms": round(max(after), 1),
        "load": load_average(),
    }
    print(
        f"full collection with {count} cached states (CPU): before {result['before_ms']} ms"
        f" (max {result['before_max_ms']}), now {result['after_ms']} ms (max {result['after_max_ms']})"
        f"  load {result['load']}",
        flush=True,
    )
    return result


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--normal", type=int, default=5, help="games reminded every hour (the normal minute)")
    parser.add_argument("--rate", type=float, default=POSTS_PER_SECOND, help="the tick's posts per second")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds a post takes")
    parser.add_argument("--page-size", type=int, default=PAGE_SIZE)
    parser.add_argument("--batch-size", type=int, default=BATCH_SIZE)
    parser.add_argument("--cached", type=int, default=1_000, help="states cached for the collection's pause")
    parser.add_argument("--no-gc-setup", action="store_true", help="leave the collector as Python sets it")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()), help="where the built file is kept")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    print(f"load average before: {load_average()}", flush=True)
    template = await prepared(args.cache, args.games, args.normal)
    results: dict[str, Any] = {"args": {k: str(v) for k, v in vars(args).items()}, "ticks": []}
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "meeple.db"
        shutil.copy(template, path)
        db = await Database.open(path)
        try:
            backend = cast(Any, db._backend)
            counting = Counting(backend._conn)
            backend._conn = counting
            posts = Posts()
            service = GameService(db)
            poster = Poster(cast(Any, FakeBot(posts, args.latency)), service, pictures=cast(Any, object()))
            started = parse_stamp((await db.query("SELECT MAX(updated_at) FROM games"))[0][0])
            clock = started
            scheduler = Scheduler(
                service,
                poster,
                lambda: clock,
                pacer=Pacer(rate=args.rate),
                page_size=args.page_size,
                batch_size=args.batch_size,
            )
            for locale in available_locales():  # as the bot's start-up does, translating its commands
                catalogue(locale)
            for game in GAMES.values():  # an engine imports some modules at its first load, once
                game.load(game.new(2, 0).to_dict())
            if not args.no_gc_setup:
                gc.set_threshold(*collector.THRESHOLDS)
                gc.collect()
                gc.freeze()
            print(f"gc thresholds {gc.get_threshold()}, frozen {gc.get_freeze_count()} objects", flush=True)
            phases: list[tuple[str, timedelta]] = [
                ("first look (+30 min)", timedelta(minutes=30)),
                (f"normal minute ({args.normal} due)", timedelta(hours=1, minutes=1)),
                (f"all {args.games} due (+24 h)", timedelta(hours=24, minutes=1)),
                ("the minute after", timedelta(hours=24, minutes=2)),
            ]
            for name, after in phases:
                clock = started + after
                results["ticks"].append(await run_tick(name, scheduler, posts, counting))
            results["cached_states"] = await cached_states(db, args.cached, not args.no_gc_setup)
        finally:
            await db.close()
    print(f"load average after: {load_average()}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
