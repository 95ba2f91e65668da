"""Start-up, the scheduler's tick and memory with many stored running games.

Seeds SQLite databases directly with SQL (fast; realistic states from random play of every
game), then measures each case in a fresh child process, so one case's memory never counts
in another's:

- ``startup``: the real bot (``MeepleBot``) started against the loopback emulator, from the
  process start to ``on_ready`` (``setup_hook`` and its recovery included); peak RSS
  (``ru_maxrss``) and RSS when ready. The emulator runs in the same process: the 0-game row is
  the baseline of the bot and emulator together.
- ``tick``: ``Scheduler.tick()`` on the real service and database (reminders recorded, not
  posted): the first tick after the start (no due time known yet) and a steady one a minute
  later; the event loop's worst stall during each (a 5 ms sleeper's overshoot); SQL statements
  run (the connection wrapped) and states decoded.
- ``touch``: every running game's lock taken and state loaded once, as clicks would; RSS after
  (after ``gc.collect()``), with and without ``MALLOC_ARENA_MAX=2``.
- ``render``: 300 boards drawn as the bot draws them (in ``asyncio.to_thread`` workers); RSS
  after, with and without ``MALLOC_ARENA_MAX=2`` (threads are where glibc's arenas multiply).
- ``backlog``: ``--unposted`` boards a crash left pending, in as many channels, and one table
  being played: the time from ready until a click on that table is answered and its new board
  posted, and how many backlog boards were posted by then.

    .venv/bin/python bench/startup.py [--games 0,1000,10000] [--unposted 1000] [--code DIR]

``--code DIR`` measures another checkout's bot (``git archive <commit> | tar -x -C DIR``) with
this script and the same databases: the before/after comparison. Times depend on the machine's
load; the counts (statements, states decoded, workers) do not.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GUILDS = 100
DUE_SHARE = 0.01  # of the games, waited for just over a day: the first reminder is due
TEMPLATES = 12  # random positions per game, reused across the seeded tables


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def stamp(moment: datetime) -> str:
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


# -- seeding -------------------------------------------------------------------------------


def templates() -> list[tuple[str, int, dict, str, int]]:
    """(game, players, options, state JSON, version) of positions reached by random play."""
    from engine import GAMES

    found = []
    rng = random.Random(18)
    for key, game in sorted(GAMES.items()):
        players = max(2, game.min_players) if game.max_players >= 2 else game.min_players
        options = game.resolve_options({})
        for seed in range(TEMPLATES):
            state = game.new(players, seed, options)
            for _ in range(rng.randrange(0, 40)):
                if state.outcome() is not None:
                    break
                seat = rng.choice(state.to_move())
                actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in ("concede", "resign")]
                if not actions:
                    break
                state.apply(seat, rng.choice(actions))
            if state.outcome() is None:
                found.append((key, players, options, json.dumps(state.to_dict(), separators=(",", ":")), state.version))
    return found


def seed(path: Path, games: int, code: Path) -> None:
    """A database migrated by ``code``'s bot with ``games`` running tables inserted by SQL."""
    sys.path.insert(0, str(code))
    from services.storage import Database

    async def create() -> None:
        db = await Database.open(path)
        await db.close()

    asyncio.run(create())
    positions = templates()
    rng = random.Random(games)
    now = datetime.now(UTC)
    conn = sqlite3.connect(path)
    with conn:
        for i in range(games):
            key, players, options, state, version = positions[i % len(positions)]
            due = rng.random() < DUE_SHARE
            waited = timedelta(hours=24, minutes=rng.uniform(1, 50)) if due else timedelta(hours=rng.uniform(0, 23))
            at = stamp(now - waited)
            game_id = i + 1
            conn.execute(
                "INSERT INTO games (id, game, guild_id, channel_id, status, options, seed, creator_id, version,"
                " state, board_message_id, board_version, created_at, updated_at, language)"
                " VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, 'en')",
                (
                    game_id,
                    key,
                    1 + i % GUILDS,
                    10_000_000 + i,
                    json.dumps(options),
                    i,
                    100_000 + 4 * i,
                    version,
                    state,
                    20_000_000 + i,
                    version,
                    at,
                    at,
                ),
            )
            conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (?, ?, ?, ?)",
                [(game_id, seat, 100_000 + 4 * i + seat, at) for seat in range(players)],
            )
            conn.execute("INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)", (game_id, version, state))
    conn.close()


# -- the measured cases (each in a child process) --------------------------------------------


class Stalls:
    """The event loop's worst stall while running: a 5 ms sleeper's largest overshoot."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task | None = None

    async def _watch(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            self.worst = max(self.worst, time.perf_counter() - start - 0.005)

    def __enter__(self) -> Stalls:
        self._task = asyncio.get_running_loop().create_task(self._watch())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


class CountingConnection:
    """A database connection counting the statements run through it."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.count = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def execute(self, sql: str, *args: Any) -> Any:
        self.count += 1
        return self._conn.execute(sql, *args)

    async def execute_fetchall(self, sql: str, *args: Any) -> Any:
        self.count += 1
        return await self._conn.execute_fetchall(sql, *args)

    async def executemany(self, sql: str, *args: Any) -> Any:
        self.count += 1
        return await self._conn.executemany(sql, *args)


async def case_startup(path: Path) -> dict:
    from bot.client import MeepleBot
    from emulator.emulator import Emulator
    from emulator.testing import FAST, make_world, running
    from services.config import Config

    base = rss_mb()
    async with Emulator(**FAST) as emu:
        world = make_world(emu)
        config = Config(emu.bot_token, path, world.guild.id, emu.base_url, "WARNING")
        from bot.flow import Flow

        bot = MeepleBot(config)
        setup = bot.setup_hook
        took: dict[str, float] = {}
        resume_all = Flow.resume_all

        async def timed_resume(flow: Flow) -> int:  # the games' share of setup_hook
            began = time.perf_counter()
            count = await resume_all(flow)
            took["resume"] = time.perf_counter() - began
            return count

        Flow.resume_all = timed_resume  # type: ignore[method-assign]

        async def timed_setup() -> None:  # the part before the gateway connects
            began = time.perf_counter()
            await setup()
            took["setup"] = time.perf_counter() - began

        bot.setup_hook = timed_setup  # type: ignore[method-assign]
        with Stalls() as stalls:
            start = time.perf_counter()
            async with running(emu, bot, timeout=300):
                ready = time.perf_counter() - start
                at_ready = rss_mb()
                worst = stalls.worst
    return {
        "setup_s": took["setup"],
        "resume_s": took["resume"],
        "ready_s": ready,
        "peak_mb": peak_mb(),
        "rss_ready_mb": at_ready,
        "rss_imports_mb": base,
        "stall_s": worst,
    }


class QuietFlow:
    """What the scheduler needs of the flow, with reminders recorded rather than posted."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.locale = "en"
        self.said = 0

    def table_locale(self, row: Any) -> str:
        return row.language or "en"

    async def remind(self, row: Any, users: list[int], key: str, snooze: bool = False, **values: object) -> None:
        self.said += 1

    async def announce(self, row: Any, text: str) -> None:
        self.said += 1


async def case_tick(path: Path) -> dict:
    from engine import GAMES
    from services.game_service import GameService
    from services.scheduler import Scheduler
    from services.storage import Database

    db = await Database.open(path)
    service = GameService(db)
    flow = QuietFlow(service)
    loads = 0
    for game in GAMES.values():  # count the states decoded
        original = game.load

        def counted(data: Any, _original: Any = original) -> Any:
            nonlocal loads
            loads += 1
            return _original(data)

        game.load = counted  # type: ignore[method-assign]
    counting = CountingConnection(db._conn)
    db._conn = counting  # type: ignore[assignment]
    now = datetime.now(UTC)
    clock = now
    scheduler = Scheduler(service, flow, lambda: clock)  # type: ignore[arg-type]
    result: dict = {}
    for name, at in (("first", now), ("steady", now + timedelta(minutes=1)), ("steady2", now + timedelta(minutes=2))):
        clock = at
        counting.count, loads, flow.said = 0, 0, 0
        gc.collect()
        with Stalls() as stalls:
            start = time.perf_counter()
            await scheduler.tick()
            took = time.perf_counter() - start
            await asyncio.sleep(0.01)
        result[name] = {
            "tick_s": took,
            "stall_s": stalls.worst,
            "statements": counting.count,
            "states_decoded": loads,
            "reminders": flow.said,
        }
    await db.close()
    return result


async def case_touch(path: Path) -> dict:
    from services.game_service import GameService
    from services.storage import Database

    db = await Database.open(path)
    service = GameService(db)
    ids = [r[0] for r in await db.query("SELECT id FROM games WHERE status = 'running' ORDER BY id")]
    gc.collect()
    before = rss_mb()
    start = time.perf_counter()
    for game_id in ids:
        async with service.lock(game_id):
            row = await service.get(game_id)
            await service.state(row)
    took = time.perf_counter() - start
    gc.collect()
    after = rss_mb()
    result = {
        "games": len(ids),
        "rss_before_mb": before,
        "rss_after_mb": after,
        "peak_mb": peak_mb(),
        "touch_s": took,
        "cached_states": len(service._cache),
        "locks_kept": len(service._locks),
    }
    await db.close()
    return result


async def case_render(path: Path, count: int = 300) -> dict:
    """Boards of ``count`` games drawn as the bot draws them (``asyncio.to_thread``, a few at a
    time): the threads are where glibc's per-thread arenas can hold freed memory."""
    import render
    from services.game_service import GameService
    from services.storage import Database

    db = await Database.open(path)
    service = GameService(db)
    ids = [r[0] for r in await db.query("SELECT id FROM games WHERE status = 'running' ORDER BY id LIMIT ?", (count,))]
    gc.collect()
    before = rss_mb()
    gate = asyncio.Semaphore(6)

    async def draw(game_id: int) -> None:
        async with gate:
            row = await service.get(game_id)
            state = await service.state(row)
            names = [f"Player {seat + 1}" for seat in range(state.players)]
            await asyncio.to_thread(render.render_board, row.game, state.view(None), names, "en")

    start = time.perf_counter()
    await asyncio.gather(*(draw(game_id) for game_id in ids))
    took = time.perf_counter() - start
    gc.collect()
    result = {"boards": len(ids), "rss_before_mb": before, "rss_after_mb": rss_mb(), "peak_mb": peak_mb(), "s": took}
    await db.close()
    return result


async def case_backlog(path: Path, unposted: int) -> dict:
    """``unposted`` tables whose boards a crash left pending, plus one being played: how soon
    is a click on that one answered after the start?"""
    from bot.client import MeepleBot
    from emulator.emulator import Emulator
    from emulator.testing import FAST, make_world, running
    from services.config import Config
    from services.game_service import GameService
    from services.storage import Database
    from tests.bot.test_discord_table import join_and_start, open_table
    from tests.support.driver import Table, is_board, mentioned

    async with Emulator(**FAST) as emu:
        world = make_world(emu)
        config = Config(emu.bot_token, path, world.guild.id, emu.base_url, "WARNING")
        async with running(emu, MeepleBot(config), timeout=300):
            await join_and_start(emu, world, await open_table(emu, world))
        channels = [emu.add_text_channel(world.guild, f"t{i}") for i in range(unposted)]
        db = await Database.open(path)
        service = GameService(db)
        for channel in channels:  # started while the bot was down: first boards and hands pending
            row = await service.create("fox-duet", world.guild.id, channel.id, world.alice.id, "Alice", {})
            await service.join(row.id, world.bob.id, "Bob")
            await service.start(row.id, world.alice.id)
        await db.close()
        start = time.perf_counter()
        async with running(emu, MeepleBot(config), timeout=600):
            ready = time.perf_counter() - start
            table = Table(emu, world.channel, [world.alice, world.bob], random.Random(1))
            board = table.board()
            clicked = time.perf_counter()
            hand = await emu.click(table.user(mentioned(board)[0]), board, label="My hand")
            result: dict[str, Any] = {"ready_s": ready, "backlog": unposted}
            try:
                await hand.response(timeout=600)  # Discord gives up after 3 s: the emulator too
                result["acked_s"] = time.perf_counter() - clicked
                await hand.followups(1, timeout=600)
                result["answered_s"] = time.perf_counter() - clicked
            except Exception as exc:  # the click failed: what the player saw
                result["failed"] = f"{type(exc).__name__}: {str(exc)[:160]}"
                result["failed_after_s"] = time.perf_counter() - clicked
            result["posted_by_then"] = sum(1 for c in channels if any(is_board(m) for m in emu.messages(c)))
    return result


def child(case: str, path: Path, code: Path, unposted: int) -> None:
    sys.path.insert(0, str(code))
    import logging

    logging.basicConfig(level=logging.ERROR)
    runner = {
        "startup": lambda: case_startup(path),
        "tick": lambda: case_tick(path),
        "touch": lambda: case_touch(path),
        "render": lambda: case_render(path),
        "backlog": lambda: case_backlog(path, unposted),
    }[case]
    print(json.dumps(asyncio.run(runner())))


def run_child(case: str, db: Path, code: Path, env: dict[str, str] | None = None, unposted: int = 0) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "meeple.db"
        shutil.copy(db, copy)  # each run migrates and writes its own copy
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                case,
                "--db",
                str(copy),
                "--code",
                str(code),
                "--unposted",
                str(unposted),
            ],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, **(env or {})},
            cwd=code,
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="0,1000,10000")
    parser.add_argument("--unposted", type=int, default=1000)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose bot is measured")
    parser.add_argument("--cases", default="startup,tick,touch,arena,render,backlog")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    code = args.code.resolve()
    if args.child:
        child(args.child, args.db, code, args.unposted)
        return
    cases = args.cases.split(",")
    print(f"code: {code}")
    with tempfile.TemporaryDirectory() as scratch:
        for games in [int(n) for n in args.games.split(",")]:
            db = Path(scratch) / f"seed-{games}.db"
            started = time.perf_counter()
            seed(db, games, code)
            print(
                f"\n== {games} running games (seeded in {time.perf_counter() - started:.1f} s,"
                f" {db.stat().st_size / 1e6:.1f} MB)"
            )
            arenas = (("default malloc", {}), ("MALLOC_ARENA_MAX=2", {"MALLOC_ARENA_MAX": "2"}))
            for label, env in arenas if "startup" in cases else ():
                if label != "default malloc" and "arena" not in cases:
                    continue
                r = run_child("startup", db, code, env)
                print(
                    f"start-up ({label}): setup_hook {r['setup_s']:.2f} s (resume_all {r['resume_s']:.2f} s),"
                    f" ready (gateway) {r['ready_s']:.2f} s;"
                    f" peak RSS {r['peak_mb']:.0f} MB, at ready"
                    f" {r['rss_ready_mb']:.0f} MB (imports alone {r['rss_imports_mb']:.0f} MB);"
                    f" worst stall {r['stall_s'] * 1000:.0f} ms"
                )
            if "tick" in cases and games:
                r = run_child("tick", db, code)
                for name, t in r.items():
                    print(
                        f"tick ({name}): {t['tick_s'] * 1000:.0f} ms, worst stall {t['stall_s'] * 1000:.0f} ms,"
                        f" {t['statements']} statements, {t['states_decoded']} states decoded,"
                        f" {t['reminders']} reminders"
                    )
            if "touch" in cases and games:
                for label, env in arenas:
                    if label != "default malloc" and "arena" not in cases:
                        continue
                    r = run_child("touch", db, code, env)
                    print(
                        f"touch {r['games']} games ({label}): RSS {r['rss_before_mb']:.0f} ->"
                        f" {r['rss_after_mb']:.0f} MB (peak {r['peak_mb']:.0f}), {r['touch_s']:.1f} s;"
                        f" {r['cached_states']} states cached, {r['locks_kept']} locks kept"
                    )
            if "render" in cases and games and games == max(int(n) for n in args.games.split(",")):
                for label, env in arenas:
                    r = run_child("render", db, code, env)
                    print(
                        f"render {r['boards']} boards in threads ({label}): RSS {r['rss_before_mb']:.0f} ->"
                        f" {r['rss_after_mb']:.0f} MB (peak {r['peak_mb']:.0f}), {r['s']:.1f} s"
                    )
        if "backlog" in cases and args.unposted:
            db = Path(scratch) / "backlog.db"
            seed(db, 0, code)
            r = run_child("backlog", db, code, unposted=args.unposted)
            if "failed" in r:
                click = f"a 'My hand' click failed after {r['failed_after_s']:.2f} s ({r['failed']})"
            else:
                click = f"a 'My hand' click acknowledged in {r['acked_s']:.2f} s, answered in {r['answered_s']:.2f} s"
            print(
                f"\n== {r['backlog']} boards left unposted: ready in {r['ready_s']:.2f} s; {click};"
                f" {r['posted_by_then']} backlog boards posted by then"
            )


if __name__ == "__main__":
    main()
