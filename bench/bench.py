"""Per-move cost of every registered game through the real path, with the floors beside it.

For each game: seeded random games, each move = engine apply + commit to SQLite (one
transaction, WAL, a real file) + board render + PNG encode. Prints p50/p99 latency per move,
board image bytes, and in the same run the floors: encoding a blank canvas of the same size,
and one SQLite insert + commit.

    .venv/bin/python bench/bench.py [--games 5] [--game fox-duet]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

import render  # noqa: E402
from engine import GAMES  # noqa: E402
from services.storage import Database  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def bench_game(key: str, games: int, db: Database) -> dict:
    game = GAMES[key]
    players = game.min_players if game.min_players > 1 else min(2, game.max_players)
    latencies: list[float] = []
    sizes: list[int] = []
    image_size = (0, 0)
    names = [f"Player {i + 1}" for i in range(players)]
    for seed in range(games):
        # Finished games free their channel, so every game can use the same one.
        row = await db.create_game(key, 1, 10_000, 1, game.resolve_options({}), seed)
        for user in range(2, players + 1):
            await db.join(row.id, user)
        state = game.new(players, seed)
        await db.start_game(row.id, state.to_dict())
        chooser = random.Random(seed)
        while state.outcome() is None:
            seat = chooser.choice(state.to_move())
            actions = [a for a in state.legal_actions(seat) if a.verb not in ("concede", "resign")]
            action = chooser.choice(actions or state.legal_actions(seat))
            start = time.perf_counter()
            version = state.version
            state.apply(seat, action)
            outcome = state.outcome()
            ok = await db.commit_move(
                row.id, version, seat, str(action), state.to_dict(), outcome.to_dict() if outcome else None
            )
            assert ok
            png = render.render_board(key, state.view(None), names)
            latencies.append((time.perf_counter() - start) * 1000)
            sizes.append(len(png))
        image_size = Image.open(io.BytesIO(png)).size
    return {
        "moves": len(latencies),
        "p50": percentile(latencies, 50),
        "p99": percentile(latencies, 99),
        "max": max(latencies),
        "bytes_mean": statistics.mean(sizes),
        "bytes_max": max(sizes),
        "size": image_size,
    }


async def floors(size: tuple[int, int], db_path: Path) -> dict:
    blank = Image.new("RGB", size, (255, 255, 255))
    encode = []
    for _ in range(20):
        start = time.perf_counter()
        buf = io.BytesIO()
        blank.save(buf, format="PNG")
        encode.append((time.perf_counter() - start) * 1000)
    db = await Database.open(db_path)
    commits = []
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS bench_floor (id INTEGER PRIMARY KEY, body TEXT)")
    for i in range(200):
        start = time.perf_counter()
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO bench_floor (body) VALUES (?)", (f"row {i}",))
        commits.append((time.perf_counter() - start) * 1000)
    await db.close()
    return {
        "png_blank_p50": percentile(encode, 50),
        "insert_commit_p50": percentile(commits, 50),
        "insert_commit_p99": percentile(commits, 99),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="seeded games per game (default 5)")
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.db")
        for key in [args.game] if args.game else sorted(GAMES):
            result = await bench_game(key, args.games, db)
            floor = await floors(result["size"], Path(tmp) / f"floor-{key}.db")
            w, h = result["size"]
            print(f"{key}: {result['moves']} moves in {args.games} games")
            print(
                f"  per move (apply + commit + render + PNG): p50 {result['p50']:.1f} ms, "
                f"p99 {result['p99']:.1f} ms, max {result['max']:.1f} ms"
            )
            print(
                f"  board {w}x{h}: mean {result['bytes_mean'] / 1024:.0f} KB, max {result['bytes_max'] / 1024:.0f} KB"
            )
            print(
                f"  floors: blank {w}x{h} PNG encode p50 {floor['png_blank_p50']:.1f} ms; "
                f"one SQLite insert+commit p50 {floor['insert_commit_p50']:.2f} ms, "
                f"p99 {floor['insert_commit_p99']:.2f} ms"
            )
        await db.close()


if __name__ == "__main__":
    asyncio.run(main())
