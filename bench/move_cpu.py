"""Per-move CPU by phase for each game, in-process and without Discord; board encodings side by side.

Seeded random games of every registered game. Each move does what the bot does for it, one
phase at a time, each timed in CPU time of this process (``time.process_time``: the machine's
other load does not count, the SQLite thread does):

  apply     the engine applies the action (its own checks and restore copy included)
  copy      the bot's working copy of the cached state (``game.load(state.to_dict())``)
  deepcopy  ``copy.deepcopy`` of the state, for comparison
  dumps     ``json.dumps(state.to_dict())``, the text stored per move
  decode    ``game.load(json.loads(text))``, a state read back from its row (a cache miss)
  commit    ``Database.commit_move`` with the move's delivery jobs: one SQLite transaction on a
            real file (WAL); its wall time is shown too (fsync waits are not CPU)
  draw      the board picture drawn (the game's renderer, no encoding)
  encode    that picture encoded as the bot does it (``render.common.encode_png``, budget and all)
  board     ``render.render_board``: draw + encode, as shipped
  hand      ``render.render_hand`` for the seat that moved (sent by DM after a private change)

Then, on a sample of the boards drawn, the encodings side by side (ms of CPU and bytes):
truecolour PNG at zlib 6 (the bot's encoder today), 256-colour palette PNG at zlib 1 (palette
by median cut and by fast octree, the quantizing counted), and lossless WebP at methods 0-6.

    .venv/bin/python bench/move_cpu.py [--games 3] [--max-moves 150] [--game fox-duet] [--encode-sample 12]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import inspect
import io
import json
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, features  # noqa: E402

import render  # noqa: E402
import render.common  # noqa: E402
from engine import GAMES  # noqa: E402
from services.game_service import delivery_jobs  # noqa: E402
from services.storage import Database  # noqa: E402

# The bot's encoder (budget, fallbacks) when it is still there, so the encode phase is measured
# directly; if it moves, the phase is the board's time minus the draw's.
encode_png = getattr(render.common, "encode_png", None)
# How the bot encodes boards (a palette now; older checkouts encoded truecolour).
ENCODE_AS_BOT = (
    {"palette": True} if encode_png is not None and "palette" in inspect.signature(encode_png).parameters else {}
)
PHASES = ["apply", "copy", "deepcopy", "dumps", "decode", "commit", "draw", "encode", "board", "hand"]
PLAYERS = {"fox-duet": 2, "noctiluca": 3, "vivarium": 3, "tm-dice": 2}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def cpu_ms(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, Any]:
    start = time.process_time()
    value = fn(*args, **kwargs)
    return (time.process_time() - start) * 1000, value


async def play(key: str, games: int, max_moves: int, db: Database, sample: int, channel: int) -> tuple[dict, list]:
    """Play ``games`` seeded games of ``key``; the CPU ms of every phase of every move, and ``sample``
    of the board images drawn (for the encodings)."""
    game = GAMES[key]
    players = max(game.min_players, min(PLAYERS.get(key, 2), game.max_players))
    renderer = render.RENDERERS[key]
    names = [f"Player {i + 1}" for i in range(players)]
    times: dict[str, list[float]] = defaultdict(list)
    boards: list[Image.Image] = []
    moves = 0
    picker = random.Random(len(key))
    # Untimed: the first picture of a game loads its fonts and images once per process.
    first = game.new(players, 0)
    render.render_board(key, first.view(None), names, "en")
    render.render_hand(key, first.view(0), names, 0, "en")
    for seed in range(games):
        # A channel of its own: a game stopped at --max-moves keeps its channel busy.
        row = await db.create_game(key, 1, channel + seed, 1, game.resolve_options({}), seed)
        for user in range(2, players + 1):
            await db.join(row.id, user)
        state = game.new(players, seed)
        await db.start_game(row.id, state.to_dict())
        chooser = random.Random(seed)
        for _ in range(max_moves):
            if state.outcome() is not None:
                break
            seat = chooser.choice(state.to_move())
            legal = state.legal_actions(seat)
            action = chooser.choice([a for a in legal if game.action_kind(a) not in ("concede", "resign")] or legal)
            version = state.version

            ms, working = cpu_ms(lambda s: game.load(s.to_dict()), state)
            times["copy"].append(ms)
            ms, _ = cpu_ms(copy.deepcopy, state)
            times["deepcopy"].append(ms)
            ms, events = cpu_ms(working.apply, seat, action)
            times["apply"].append(ms)
            state = working
            ms, text = cpu_ms(lambda s: json.dumps(s.to_dict()), state)
            times["dumps"].append(ms)
            ms, _ = cpu_ms(lambda t: game.load(json.loads(t)), text)
            times["decode"].append(ms)

            outcome = state.outcome()
            jobs = delivery_jobs(key, state.version, events)
            wall, cpu = time.perf_counter(), time.process_time()
            ok = await db.commit_move(
                row.id, version, seat, str(action), state.to_dict(), outcome.to_dict() if outcome else None, jobs
            )
            times["commit"].append((time.process_time() - cpu) * 1000)
            times["commit wall"].append((time.perf_counter() - wall) * 1000)
            if not ok:
                raise RuntimeError(f"{key}: the commit of move {version} was refused")

            view = state.view(None)
            ms, image = cpu_ms(renderer.board, view["public"], names, locale="en")
            times["draw"].append(ms)
            if encode_png is not None:
                ms, _ = cpu_ms(encode_png, image, renderer.board_budget, optimize=render.OPTIMIZE_PNG, **ENCODE_AS_BOT)
                times["encode"].append(ms)
            ms, _ = cpu_ms(render.render_board, key, view, names, "en")
            times["board"].append(ms)
            if encode_png is None:  # the encoder was renamed: what the draw does not explain
                times["encode"].append(max(0.0, ms - times["draw"][-1]))
            ms, _ = cpu_ms(render.render_hand, key, state.view(seat), names, seat, "en")
            times["hand"].append(ms)
            # A uniform sample of the boards, however long the games turn out to be.
            if len(boards) < sample:
                boards.append(image)
            elif (slot := picker.randrange(moves + 1)) < sample:
                boards[slot] = image
            moves += 1
    return times, boards


def encoders(webp_methods: Sequence[int] = range(7)) -> list[tuple[str, Callable[[Image.Image], bytes]]]:
    def png(image: Image.Image, level: int) -> bytes:
        buf = io.BytesIO()
        image.save(buf, format="PNG", compress_level=level)
        return buf.getvalue()

    def palette(method: Image.Quantize) -> Callable[[Image.Image], bytes]:
        return lambda image: png(image.convert("RGB").quantize(colors=256, method=method), 1)

    def webp(method: int) -> Callable[[Image.Image], bytes]:
        def encode(image: Image.Image) -> bytes:
            buf = io.BytesIO()
            image.save(buf, format="WEBP", lossless=True, method=method)
            return buf.getvalue()

        return encode

    found: list[tuple[str, Callable[[Image.Image], bytes]]] = [
        ("PNG truecolour zlib 6 (today)", lambda image: png(image, 6)),
        ("PNG 256 colours (median cut) zlib 1", palette(Image.Quantize.MEDIANCUT)),
        ("PNG 256 colours (fast octree) zlib 1", palette(Image.Quantize.FASTOCTREE)),
    ]
    if features.check("webp"):
        found += [(f"WebP lossless method {m}", webp(m)) for m in webp_methods]
    return found


def compare(images: list[Image.Image], webp_methods: Sequence[int]) -> list[tuple[str, float, float, float]]:
    rows = []
    for name, encode in encoders(webp_methods):
        ms, sizes = [], []
        for image in images:
            took, data = cpu_ms(encode, image)
            ms.append(took)
            sizes.append(len(data))
        rows.append((name, statistics.mean(ms), percentile(ms, 99), statistics.mean(sizes)))
    return rows


def report(
    key: str, times: dict[str, list[float]], images: list[Image.Image], webp_methods: Sequence[int]
) -> dict[str, Any]:
    moves = len(times["apply"])
    w, h = images[0].size if images else (0, 0)
    print(f"\n{key}: {moves} moves (CPU ms per move)")
    print(f"  {'phase':<10}{'mean':>9}{'p99':>9}")
    for phase in PHASES:
        print(f"  {phase:<10}{statistics.mean(times[phase]):>9.2f}{percentile(times[phase], 99):>9.2f}")
    wall = times["commit wall"]
    print(f"  (commit wall time: mean {statistics.mean(wall):.2f}, p99 {percentile(wall, 99):.2f})")
    compared = compare(images, webp_methods)
    today = compared[0][3]
    print(f"  encodings of {len(images)} boards ({w}x{h}):")
    print(f"  {'encoder':<38}{'ms mean':>9}{'ms p99':>9}{'KB mean':>9}{'bytes':>8}")
    for name, mean, p99, size in compared:
        print(f"  {name:<38}{mean:>9.1f}{p99:>9.1f}{size / 1024:>9.0f}{size / today:>8.2f}x")
    return {
        "moves": moves,
        "phases": {
            p: {"mean_ms": statistics.mean(times[p]), "p99_ms": percentile(times[p], 99)}
            for p in [*PHASES, "commit wall"]
        },
        "encodings": [{"encoder": n, "mean_ms": m, "p99_ms": p, "bytes_mean": s} for n, m, p, s in compared],
        "board_size": [w, h],
    }


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("--games", type=int, default=3, help="seeded games per game (default 3)")
    parser.add_argument("--max-moves", type=int, default=150, help="moves at most per game (default 150)")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only this game (repeatable)")
    parser.add_argument("--encode-sample", type=int, default=12, help="boards per game to compare encodings on")
    parser.add_argument(
        "--webp-methods",
        default="0,1,2,3,4,5,6",
        help="lossless WebP methods to compare, comma-separated (default all, 0-6; '' for none): the slow ones"
        " take about a second a board",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    try:
        webp_methods = [int(m) for m in args.webp_methods.split(",") if m.strip()]
    except ValueError:
        parser.error("--webp-methods takes numbers 0-6, comma-separated")
    if any(not 0 <= m <= 6 for m in webp_methods):
        parser.error("--webp-methods takes numbers 0-6, comma-separated")
    if args.games < 1 or args.max_moves < 1 or args.encode_sample < 1:
        parser.error("--games, --max-moves and --encode-sample must be positive")
    with open("/proc/loadavg") as fh:
        print("before: load average " + " ".join(fh.read().split()[:3]))
    results = {}
    with tempfile.TemporaryDirectory(prefix="meeple-cpu-") as tmp:
        db = await Database.open(Path(tmp) / "bench.db")
        try:
            for n, key in enumerate(args.game or sorted(GAMES)):
                channel = 10_000 * (n + 1)
                times, images = await play(key, args.games, args.max_moves, db, args.encode_sample, channel)
                results[key] = report(key, times, images, webp_methods)
        finally:
            await db.close()
    with open("/proc/loadavg") as fh:
        print("\nafter: load average " + " ".join(fh.read().split()[:3]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
