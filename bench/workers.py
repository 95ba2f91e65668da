"""What a drawing worker costs: CPU per board and per hand, where it goes, PNG size, and the RSS it keeps.

In a fresh process started as the bot starts its drawing workers (``forkserver``, then the
``draw`` function of ``services/pictures.py``), draws every game's boards and hands at a few positions
(early, middle, late of seeded random games) in three languages (en, zh-TW, pt-BR, with Latin,
CJK and emoji names), several rounds, each at the positions of another seeded game (the first
round is a warm-up: the fonts and sprites a worker loads once). Prints, per game and in all: CPU
ms (``time.process_time``) per board and per hand, the split of that time measured by cProfile on
one more round (palette quantizing, text: FreeType's rendering and measuring, zlib: the PNG
encoder, and the rest), the mean PNG KB, the worker's RSS after every round (the last is what a
worker keeps), and the text caches' hits.

    .venv/bin/python bench/workers.py [--rounds 3] [--positions 3] [--game fox-duet] [--json out.json]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import multiprocessing
import os
import pstats
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LOCALES = ("en", "zh-TW", "pt-BR")
NAMES = {
    "en": ["Alice", "Bob", "Carol", "Dave"],
    "zh-TW": ["小明", "🦊Zoë", "阿里巴巴與四十大盜", "王小華"],
    "pt-BR": ["João", "Conceição", "Zé 🎲", "Maria Luísa"],
}
PLAYERS = {"fox-duet": 2, "noctiluca": 3, "vivarium": 3, "tm-dice": 2}


def rss_mb() -> float:
    """This process's resident memory, from /proc (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def positions(key: str, count: int, seed: int = 7) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """``count`` positions of a seeded random game, from its start to near its end: the public view
    and every seat's view."""
    from engine import GAMES

    game = GAMES[key]
    players = max(game.min_players, min(PLAYERS.get(key, 2), game.max_players))
    chooser = random.Random(seed)
    state = game.new(players, seed)
    states = [game.load(state.to_dict())]
    for _ in range(400):
        if state.outcome() is not None:
            break
        seat = chooser.choice(state.to_move())
        legal = state.legal_actions(seat)
        action = chooser.choice([a for a in legal if game.action_kind(a) not in ("concede", "resign")] or legal)
        state.apply(seat, action)
        states.append(game.load(state.to_dict()))
    last = len(states) - 2 if state.outcome() is not None and len(states) > 2 else len(states) - 1
    picked = sorted({round(i * last / max(1, count - 1)) for i in range(count)})
    return [(states[i].view(None), [states[i].view(s) for s in range(players)]) for i in picked]


def split(stats: pstats.Stats) -> dict[str, float]:
    """Seconds of the profile's own time by kind: quantize (palette), convert (modes, or to a given
    palette), text (FreeType's Font methods: rendering and measuring), zlib (the PNG encoder), other."""
    kinds: dict[str, float] = defaultdict(float)
    for (filename, _, name), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        kind = "other"
        if filename == "~":  # Pillow's C methods
            if "'quantize'" in name:
                kind = "quantize"
            elif "'convert'" in name:
                kind = "convert"
            elif "Font' objects" in name:
                kind = "text"
            elif "'encode'" in name:
                kind = "zlib"
        kinds[kind] += own
    return dict(kinds)


def work(games: list[str], rounds: int, count: int) -> dict[str, Any]:
    """In the worker: draw everything ``rounds`` times, timing each picture; then once more under cProfile."""
    from services import pictures as bot_pictures
    from services.pictures import draw

    trim_above = getattr(bot_pictures, "WORKER_TRIM_MB", None)
    if trim_above is not None:  # as the bot's workers run a drawing: its C heap trimmed above the mark
        from ai.workers import measured

        def draw(kind: str, args: tuple[Any, ...]) -> bytes:  # noqa: F811
            return measured(trim_above * 2**20, bot_pictures.draw, kind, args)[0]

    started = rss_mb()
    per_round = len(pictures(games, count, 7))
    after_positions = rss_mb()
    cpu: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    size: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    first: dict[str, float] = {}
    rss: list[float] = []
    for round_ in range(rounds):
        jobs = pictures(games, count, 7 + round_)  # a worker holds one position at a time, not these
        for key, kind, args in jobs:
            start = time.process_time()
            png = draw(kind, args)
            spent = (time.process_time() - start) * 1000
            if round_ == 0:
                first[key] = first.get(key, 0.0) + spent
            else:
                cpu[key][kind].append(spent)
                size[key][kind].append(len(png))
        del jobs
        rss.append(rss_mb())
    caches = cache_counts()
    profiled = pictures(games, count, 7 + rounds)  # one more game's positions, drawn under cProfile
    profiler = cProfile.Profile()
    profiler.enable()
    for _, kind, args in profiled:
        draw(kind, args)
    profiler.disable()
    profile = split(pstats.Stats(profiler))
    return {
        "jobs": per_round,
        "cpu": {k: {kind: v for kind, v in d.items()} for k, d in cpu.items()},
        "size": {k: {kind: v for kind, v in d.items()} for k, d in size.items()},
        "first_round_ms": first,
        "rss_start": started,
        "rss_positions": after_positions,
        "rss_rounds": rss,
        "profile": profile,
        "caches": caches,
    }


def pictures(games: list[str], count: int, seed: int) -> list[tuple[str, str, tuple[Any, ...]]]:
    """Every board and hand of ``count`` positions of each game (a game of ``seed``), in every language."""
    jobs: list[tuple[str, str, tuple[Any, ...]]] = []  # (game, kind, args)
    for key in games:
        for public, seats in positions(key, count, seed):
            for loc in LOCALES:
                names = NAMES[loc][: len(seats)]
                jobs.append((key, "board", (key, public, names, loc)))
                for seat, view in enumerate(seats):
                    jobs.append((key, "hand", (key, view, names, seat, loc)))
    return jobs


def cache_counts() -> dict[str, list[int]]:
    """Hits, misses and size of the text caches, where the checked-out code has them."""
    from render import fonts

    found = {}
    for name in ("masks", "measures"):
        cache = getattr(fonts, name, None)
        if cache is not None:
            found[name] = [cache.hits, cache.misses, len(cache), cache.weight]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="passes over every picture (the first is a warm-up)")
    parser.add_argument("--positions", type=int, default=3, help="positions per game, early to late (default 3)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--json", help="write every figure to this file")
    args = parser.parse_args()
    from engine import GAMES

    games = args.game or sorted(PLAYERS) or sorted(GAMES)
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    context = multiprocessing.get_context("forkserver")
    with context.Pool(1) as pool:  # a fresh process, started as the bot starts its workers
        result = pool.apply(work, (games, max(2, args.rounds), max(1, args.positions)))
    print(
        f"{result['jobs']} pictures a round, {max(2, args.rounds) - 1} timed rounds after a warm-up, each round"
        " at the positions of another seeded game\n"
    )
    print(
        f"{'game':<10} {'board ms':>9} {'p90':>6} {'hand ms':>8} {'p90':>6} {'board KB':>9} {'hand KB':>8}"
        f" {'warm-up ms':>11}"
    )
    every: dict[str, list[float]] = defaultdict(list)
    sizes: dict[str, list[int]] = defaultdict(list)
    for key in games:
        cpu, size = result["cpu"][key], result["size"][key]
        for kind in ("board", "hand"):
            every[kind] += cpu[kind]
            sizes[kind] += size[kind]
        print(
            f"{key:<10} {statistics.mean(cpu['board']):9.1f} {quantile(cpu['board'], 0.9):6.1f}"
            f" {statistics.mean(cpu['hand']):8.1f} {quantile(cpu['hand'], 0.9):6.1f}"
            f" {statistics.mean(size['board']) / 1024:9.1f} {statistics.mean(size['hand']) / 1024:8.1f}"
            f" {result['first_round_ms'][key]:11.0f}"
        )
    print(
        f"{'all':<10} {statistics.mean(every['board']):9.1f} {quantile(every['board'], 0.9):6.1f}"
        f" {statistics.mean(every['hand']):8.1f} {quantile(every['hand'], 0.9):6.1f}"
        f" {statistics.mean(sizes['board']) / 1024:9.1f} {statistics.mean(sizes['hand']) / 1024:8.1f}"
    )
    total = sum(result["profile"].values()) or 1.0
    print(
        "\nwhere the time goes (cProfile, own time): "
        + ", ".join(
            f"{kind} {100 * seconds / total:.0f} %"
            for kind, seconds in sorted(result["profile"].items(), key=lambda kv: -kv[1])
        )
    )
    print(
        f"RSS: {result['rss_start']:.0f} MB at start, {result['rss_positions']:.0f} MB with a round's positions made, "
        f"after each round {', '.join(f'{v:.0f}' for v in result['rss_rounds'])} MB"
    )
    for name, (hits, misses, entries, weight) in result["caches"].items():
        print(
            f"text cache {name}: {100 * hits / max(1, hits + misses):.0f} % hits, {entries} entries, weight {weight:,}"
        )
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


if __name__ == "__main__":
    main()
