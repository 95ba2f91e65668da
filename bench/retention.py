"""The database of a busy server after months of play, with and without retention (MEEPLE_RETENTION_DAYS).

1. Templates: ``--templates`` seeded random games of each game (2-3 players, concessions and
   resignations left out) are played to their end through the real storage API on a scratch
   SQLite file, as the bot stores them: ``create_game``, ``join``, ``start_game`` and one
   ``commit_move`` per move with the delivery jobs the bot writes (``services.game_service.delivery_jobs``:
   the board with its public events, a DM per seat told something private), every job then
   marked done as the delivery worker does, and the results recorded (``record_results``: ratings
   and their history for the competitive games).
2. Simulation: ``--days`` days of ``--games-per-day`` games each. Each day's games are copies of
   the templates (rows copied with new ids, channels, players and dates; the game ends that day),
   inserted with sqlite3 in one transaction per day. With retention, the bot's own daily pass
   (``services.storage.retention.compact``, batches of 100) then runs with that day as "now".
   Three runs, each on a fresh file: retention off; retention ``--retention`` days on a file with
   SQLite's default ``auto_vacuum = NONE`` (what the bot creates: freed pages stay in the file
   and new games reuse them); the same on a file made with ``auto_vacuum = INCREMENTAL`` (the
   pass then gives the freed pages back, ``PRAGMA incremental_vacuum``).
3. Printed: the file's size (WAL checkpointed into it first), its free pages and the rows of the
   record tables at every ``--report-every`` days and at the end; per run, the compaction's time
   in all, its longest batch (the longest a move waits for the database) and its longest day.

    .venv/bin/python bench/retention.py [--days 365] [--games-per-day 10] [--retention 90]
        [--templates 4] [--report-every 61] [--keep DIR] [--json FILE]

The bench's default retention (90 days) is shorter than the bot's (365) so that a year of play
shows the plateau; the last lines work out, from the measured bytes of a game with its record
and of a compacted one, what the bot's default gives after any number of years. The sizes
depend only on the seeds and options, not on the machine; the times do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import GAMES, Outcome  # noqa: E402
from league.final_results import ranks  # noqa: E402
from services.game_service import delivery_jobs  # noqa: E402
from services.storage import Database, async_play, jobs, retention  # noqa: E402

GUILD = 4_000_000_000_000_000  # one busy server
RECORD_TABLES = ("actions", "snapshots", "delivery_jobs", "undone_actions")
# Copied per simulated game, in this order; ``id`` is the games row's own id, the rest its game_id.
COPIED = ("seats", "actions", "snapshots", "delivery_jobs", "results", "rating_history")


def stamp(moment: datetime) -> str:
    return async_play.stamp(moment)


# -- 1. templates through the real storage API ---------------------------------------------


async def play_template(db: Database, key: str, seed: int, players: int, channel: int) -> int:
    """One random game of ``key`` played to its end as the bot stores it; its game id."""
    game = GAMES[key]
    rng = random.Random(f"{key}:{seed}")
    users = [1000 + rng.randrange(40) * 7 + i for i in range(players)]
    options = game.resolve_options({})
    row = await db.create_game(key, GUILD, channel, users[0], options, seed, f"player {users[0]}")
    for user in users[1:]:
        await db.join(row.id, user, display_name=f"player {user}")
    state = game.new(players, seed, options)
    setup = list(getattr(state, "setup_events", []))
    await db.start_game(row.id, state.to_dict(), jobs=delivery_jobs(key, 0, setup, players))
    while state.outcome() is None:
        seat = rng.choice(state.to_move())
        actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in ("concede", "resign")]
        if not actions:
            break
        action = rng.choice(actions)
        events = state.apply(seat, action)
        outcome = state.outcome()
        assert await db.commit_move(
            row.id,
            state.version - 1,
            seat,
            str(action),
            state.to_dict(),
            outcome.to_dict() if outcome is not None else None,
            delivery_jobs(key, state.version, events),
        )
    for job in await jobs.pending(db, row.id):
        await jobs.complete(db, job.id)
    finished = await db.get_game(row.id)
    assert finished is not None and finished.outcome is not None, f"{key} seed {seed} did not finish"
    outcome = Outcome.from_dict(finished.outcome)
    placed = ranks(outcome)
    results = [
        (seat, users[seat], outcome.scores[seat], placed[seat], seat in outcome.winners, False)
        for seat in range(players)
    ]
    await async_play.record_results(db, finished, results)
    return row.id


async def make_templates(path: Path, per_game: int) -> list[int]:
    db = await Database.open(path)
    try:
        ids = []
        channel = 1
        for key in sorted(GAMES):
            game = GAMES[key]
            for seed in range(per_game):
                players = max(game.min_players, min(game.max_players, 2 + seed % 2))
                ids.append(await play_template(db, key, seed, players, channel))
                channel += 1
        return ids
    finally:
        await db.close()


@dataclass
class Template:
    game: dict[str, Any]
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def read_templates(path: Path, ids: list[int]) -> list[Template]:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        found = []
        for game_id in ids:
            game = dict(conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone())
            template = Template(game)
            for table in COPIED:
                template.rows[table] = [
                    dict(r) for r in conn.execute(f"SELECT * FROM {table} WHERE game_id = ?", (game_id,))
                ]
            found.append(template)
        return found
    finally:
        conn.close()


# -- 2. a year (or more) of play -----------------------------------------------------------


def insert_day(
    conn: sqlite3.Connection,
    templates: list[Template],
    day: datetime,
    count: int,
    rng: random.Random,
    next_ids: dict[str, int],
) -> None:
    """``count`` games that end on ``day``: template rows under new ids, channels, players and dates."""
    with conn:
        for _ in range(count):
            template = rng.choice(templates)
            game_id = next_ids["games"] = next_ids["games"] + 1
            ended = day + timedelta(seconds=rng.randrange(86_400))
            began = ended - timedelta(hours=rng.uniform(1, 72))
            games = dict(template.game)
            games.update(
                id=game_id,
                channel_id=10_000_000 + game_id,
                board_message_id=20_000_000 + game_id,
                created_at=stamp(began),
                updated_at=stamp(ended),
                finished_at=stamp(ended),
            )
            _insert(conn, "games", [games])
            # The same template's players stay the same people (ratings and profiles of regulars).
            for table in COPIED:
                rows = [dict(r, game_id=game_id) for r in template.rows[table]]
                for row in rows:
                    if table == "delivery_jobs":
                        next_ids["jobs"] += 1
                        row["id"] = next_ids["jobs"]
                    for column in ("created_at", "updated_at", "joined_at"):
                        if column in row:
                            row[column] = stamp(began)
                    if "finished_at" in row:
                        row["finished_at"] = stamp(ended)
                _insert(conn, table, rows)


def _insert(conn: sqlite3.Connection, table: str, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    columns = list(rows[0])
    conn.executemany(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
        [tuple(row[c] for c in columns) for row in rows],
    )


@dataclass
class Run:
    name: str
    retention_days: int | None
    auto_vacuum: str
    reports: list[dict[str, Any]] = field(default_factory=list)
    compact_seconds: float = 0.0
    worst_batch: float = 0.0
    worst_day: float = 0.0
    compacted: int = 0


def measure(path: Path, day: int) -> dict[str, Any]:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        rows = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in RECORD_TABLES}
        games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        conn.close()
    wal = path.with_name(path.name + "-wal")
    return {
        "day": day,
        "games": games,
        "file_bytes": path.stat().st_size,
        "wal_bytes": wal.stat().st_size if wal.exists() else 0,
        "free_bytes": free * page,
        **rows,
    }


async def simulate(run: Run, path: Path, templates: list[Template], args: argparse.Namespace) -> None:
    with sqlite3.connect(path) as conn:  # before the first table: it cannot be changed afterwards
        conn.execute(f"PRAGMA auto_vacuum = {run.auto_vacuum}")
    db = await Database.open(path)  # migrated by the bot's own code
    conn = sqlite3.connect(path, isolation_level="DEFERRED")
    conn.execute("PRAGMA busy_timeout = 5000")
    real_batch = retention.compact_batch

    async def timed_batch(*a: Any, **k: Any) -> retention.Compacted:
        start = time.perf_counter()
        done = await real_batch(*a, **k)
        run.worst_batch = max(run.worst_batch, time.perf_counter() - start)
        return done

    retention.compact_batch = timed_batch  # type: ignore[assignment]
    try:
        rng = random.Random(args.seed)
        next_ids = {"games": 0, "jobs": 0}
        start = datetime(2025, 1, 1, tzinfo=UTC)
        for day in range(1, args.days + 1):
            today = start + timedelta(days=day - 1)
            insert_day(conn, templates, today, args.games_per_day, rng, next_ids)
            if run.retention_days is not None:
                began = time.perf_counter()
                done = await retention.compact(db, today + timedelta(days=1) - timedelta(days=run.retention_days))
                took = time.perf_counter() - began
                run.compact_seconds += took
                run.worst_day = max(run.worst_day, took)
                run.compacted += done.games
            if day % args.report_every == 0 or day == args.days:
                run.reports.append(measure(path, day))
    finally:
        retention.compact_batch = real_batch  # type: ignore[assignment]
        conn.close()
        await db.close()


def mb(value: int) -> str:
    return f"{value / 1e6:,.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=365, help="days of play simulated (default 365)")
    parser.add_argument("--games-per-day", type=int, default=10, help="games ending each day (default 10)")
    parser.add_argument("--retention", type=int, default=90, help="MEEPLE_RETENTION_DAYS of the runs with it")
    parser.add_argument("--templates", type=int, default=4, help="random games played per game (default 4)")
    parser.add_argument("--report-every", type=int, default=61, help="days between two size reports")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", type=Path, help="keep the databases in this folder")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    args = parser.parse_args(argv)
    print(
        f"load average {os.getloadavg()[0]:.2f}; {args.days} days x {args.games_per_day} games, "
        f"retention {args.retention} days",
        flush=True,
    )
    folder = Path(tempfile.mkdtemp(prefix="meeple-retention-"))
    try:
        began = time.perf_counter()
        scratch = folder / "templates.db"
        ids = asyncio.run(make_templates(scratch, args.templates))
        templates = read_templates(scratch, ids)
        per_game = sum(len(t.rows["actions"]) for t in templates) / len(templates)
        jobs_per_game = sum(len(t.rows["delivery_jobs"]) for t in templates) / len(templates)
        print(
            f"{len(templates)} template games in {time.perf_counter() - began:.1f} s: "
            f"{per_game:.0f} moves and {jobs_per_game:.0f} delivery jobs a game on average",
            flush=True,
        )
        runs = [
            Run("off", None, "NONE"),
            Run(f"{args.retention} days", args.retention, "NONE"),
            Run(f"{args.retention} days, incremental", args.retention, "INCREMENTAL"),
        ]
        for run in runs:
            began = time.perf_counter()
            path = folder / f"{run.name.replace(' ', '-').replace(',', '')}.db"
            asyncio.run(simulate(run, path, templates, args))
            print(
                f"run '{run.name}' (auto_vacuum {run.auto_vacuum}) in {time.perf_counter() - began:.0f} s", flush=True
            )
        print()
        print("| day | games | " + " | ".join(f"{r.name}: file MB (free MB)" for r in runs) + " |")
        print("|---|---|" + "---|" * len(runs))
        for index, report in enumerate(runs[0].reports):
            cells = [f"{mb(r.reports[index]['file_bytes'])} ({mb(r.reports[index]['free_bytes'])})" for r in runs]
            print(f"| {report['day']} | {report['games']:,} | " + " | ".join(cells) + " |")
        print()
        for run in runs:
            last = run.reports[-1]
            rows = ", ".join(f"{t} {last[t]:,}" for t in RECORD_TABLES)
            print(f"{run.name}: {rows}")
            if run.retention_days is not None:
                print(
                    f"    {run.compacted:,} games compacted; compaction {run.compact_seconds:.1f} s in all, "
                    f"longest day {run.worst_day * 1000:.0f} ms, longest batch {run.worst_batch * 1000:.0f} ms"
                )
        off, incremental = runs[0].reports[-1], runs[2].reports[-1]
        full = off["file_bytes"] / off["games"]
        kept_whole = min(args.days, args.retention) * args.games_per_day
        if runs[2].compacted:
            compacted = max(0.0, incremental["file_bytes"] - kept_whole * full) / runs[2].compacted
            print(
                f"about {full / 1000:.0f} KB a game with its record, {compacted / 1000:.1f} KB once compacted; "
                f"with the bot's default (365 days) and {args.games_per_day} games a day the file grows by "
                f"{mb(int(full * 365 * args.games_per_day))} MB the first year, then "
                f"{mb(int(compacted * 365 * args.games_per_day))} MB a year (without retention: "
                f"{mb(int(full * 365 * args.games_per_day))} MB every year)"
            )
        print(f"load average {os.getloadavg()[0]:.2f}")
        if args.json:
            args.json.write_text(json.dumps([run.__dict__ for run in runs], indent=1, default=str))
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for path in folder.glob("*.db"):
                shutil.copy2(path, args.keep / path.name)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
