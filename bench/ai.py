"""Measure the computer players: win rates between levels, decision times, game length.

Run: .venv/bin/python bench/ai.py --game noctiluca [--players 2] [--games 200] [--jobs 2]
     [--match hard:random ...] [--options "level=2"] [--decisions 40]

Without ``--match``, the matrix: hard vs random, hard vs greedy (where bench/greedy.py has a
greedy player), hard vs normal, normal vs easy; for Fox Duet (co-operative: both seats are one
team) two hard, two normal and two easy computers at each of levels 1, 2 and 3. Each match
plays ``--games`` seeded games (game i has seed 1000 + i) in ``--jobs`` worker processes, the
first level in one seat and the second in the others, the seats rotating game by game so no
level always starts. It prints the first level's win rate (a shared win counts as a
fraction) with a 95 % Wilson interval, each seat position's win rate, the game length, and the
decision times of each computer level met in those games (p50, p99, max), both the CPU time
of the deciding process (what a decision costs, whatever else the machine runs) and the
elapsed time (which grows with the machine's load: other jobs, other programs). ``--decisions N`` also times N
decisions per level alone, on positions from random games.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.ismcts import LEVELS, decide, playable  # noqa: E402
from bench.greedy import GREEDY_GAMES, greedy  # noqa: E402
from engine import GAMES  # noqa: E402

MAX_STEPS = 6000


def play(
    game: str, players: int, levels: list[str], seed: int, options: dict | None = None, notes: dict | None = None
) -> tuple[list[float], int, dict[str, list[float]], int]:
    """One game, ``levels[s]`` in seat s: each seat's share of the win, the steps taken, the
    seconds each computer level took per decision, and the seat that played first. ``notes``,
    if given, receives what the game's own measures need (``note``)."""
    state = GAMES[game].new(players, seed, options or {})
    first = int(getattr(state, "first", 0))  # games without a first player drawn start with seat 0
    rng = random.Random(seed)
    steps = 0
    times: dict[str, list[float]] = {}
    while state.outcome() is None and steps < MAX_STEPS:
        movers = state.to_move()
        seat = movers[0] if len(movers) == 1 else rng.choice(movers)
        level = levels[seat]
        if level == "random":
            action = rng.choice(playable(state, seat))
        elif level == "greedy":
            action = greedy(game, state, seat, rng)
        else:
            cpu, wall = time.process_time(), time.perf_counter()
            action = decide(state, seat, level, rng.getrandbits(63))
            times.setdefault(level, []).append(time.process_time() - cpu)
            times.setdefault(f"{level} wall", []).append(time.perf_counter() - wall)
        events = state.apply(seat, action)
        if notes is not None:
            note(state, events, notes)
        steps += 1
    outcome = state.outcome()
    if outcome is None:
        return [0.0] * players, steps, times, first
    # A co-operative win (or everyone tied) is everyone's whole win.
    share = 1.0 if len(outcome.winners) == players else 1.0 / len(outcome.winners) if outcome.winners else 0.0
    return [share if s in outcome.winners else 0.0 for s in range(players)], steps, times, first


def note(state, events: list, notes: dict) -> None:
    """Noctiluca's calibration measures (docs/rules/noctiluca.md): the jars delivered so far, and
    by how many dice round 2's refill fell short (0: the box lid held enough)."""
    if state.game.id != "noctiluca":
        return
    notes["delivered"] = sum(len(d) for d in state.delivered)
    for event in events:
        if event.get("type") == "board filled" and event.get("round") == 2:
            notes["short"] = event.get("short", 0)


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(len(ordered) * share) - 1))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def rate(wins: float, n: int) -> str:
    low, high = wilson(wins, n)
    return f"{wins:g}/{n} = {wins / n:.0%} (95 % {low:.0%}-{high:.0%})" if n else "no games"


def _match_game(args: tuple[str, int, str, str, int, dict]) -> tuple[float, int, list[float], dict[str, list[float]]]:
    game, players, first, other, index, options = args
    seat = index % players  # the measured level's seat rotates
    levels = [other] * players
    levels[seat] = first
    shares, steps, times, _ = play(game, players, levels, seed=1000 + index, options=options)
    return shares[seat], steps, shares, times


def run_games(task, arguments: list, jobs: int, log=None) -> list:
    """Each argument's result, in order; with ``log`` (a callable), each result is also handed
    to it as soon as its game ends, so a long run that is stopped keeps the games it played."""
    results = []
    if jobs <= 1:
        for argument in arguments:
            results.append(task(argument))
            if log:
                log(argument, results[-1])
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for argument, result in zip(arguments, pool.map(task, arguments), strict=True):
            results.append(result)
            if log:
                log(argument, result)
    return results


def append_line(path: str, line: dict) -> None:
    """One finished game, as a JSON line at the end of a --log file."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def read_log(path: str, fields: tuple[str, ...]) -> dict[str, list[dict]]:
    """The games of a --log file grouped by ``fields`` (the key: their values as JSON), each
    group in game order and each game once (a game logged again counts as its last line)."""
    groups: dict[str, dict[int, dict]] = {}
    with open(path, encoding="utf-8") as lines:
        for text in lines:
            line = json.loads(text)
            groups.setdefault(json.dumps([line[f] for f in fields]), {})[line["index"]] = line
    return {key: [g for _, g in sorted(games.items())] for key, games in groups.items()}


def json_log(path: str | None):
    """A logger appending one JSON line per finished game to ``path`` (None: no log)."""
    if not path:
        return None

    def write(argument: tuple, result: tuple) -> None:
        game, players, first, other, index, options = argument
        line = {"game": game, "players": players, "first": first, "other": other, "options": options}
        line.update(index=index, share=result[0], steps=result[1], shares=result[2], times=result[3])
        append_line(path, line)

    return write


def summary(path: str) -> None:
    """The match lines of every game a --log file holds (each game counted once, by index)."""
    for key, games in read_log(path, ("game", "players", "first", "other", "options")).items():
        game, players, first, other, options = json.loads(key)
        results = [(g["share"], g["steps"], g["shares"], g["times"]) for g in games]
        report(game, players, first, other, options, results, 0.0)


def match(
    game: str,
    players: int,
    first: str,
    other: str,
    games: int,
    jobs: int,
    options: dict,
    start: int = 0,
    log_path: str | None = None,
) -> dict:
    """Play the match (games ``start`` to ``start + games - 1``) and print its line; the
    numbers, for callers that tabulate."""
    started = time.perf_counter()
    arguments = [(game, players, first, other, i, options) for i in range(start, start + games)]
    results = run_games(_match_game, arguments, jobs, json_log(log_path))
    return report(game, players, first, other, options, results, time.perf_counter() - started)


def report(game: str, players: int, first: str, other: str, options: dict, results: list, seconds: float) -> dict:
    """Print a match's line and its decision times; the numbers, for callers that tabulate."""
    games = len(results)
    wins = sum(r[0] for r in results)
    seat_wins = [sum(r[2][s] for r in results) for s in range(players)]
    times: dict[str, list[float]] = {}
    for result in results:
        for level, spent in result[3].items():
            times.setdefault(level, []).extend(spent)
    lengths = [r[1] for r in results]
    setup = " ".join([f"{game} {players}p", *(f"{k}={v}" for k, v in options.items())])
    print(
        f"{setup} {first} vs {other}: {first} wins {rate(wins, games)};"
        f" wins by seat {', '.join(f'{w / games:.0%}' for w in seat_wins)};"
        f" length mean {statistics.mean(lengths):.0f} steps (range {min(lengths)}-{max(lengths)});"
        f" {seconds:.0f} s",
        flush=True,
    )
    for level in sorted((name for name in times if name in LEVELS), key=lambda name: LEVELS[name].steps):
        cpu, wall = times[level], times[f"{level} wall"]
        print(
            f"    {level} decisions ({len(cpu)}): CPU p50 {ms(percentile(cpu, 0.5))}, p99 {ms(percentile(cpu, 0.99))},"
            f" max {ms(max(cpu))}; elapsed p50 {ms(percentile(wall, 0.5))}, p99 {ms(percentile(wall, 0.99))},"
            f" max {ms(max(wall))}",
            flush=True,
        )
    return {"wins": wins, "games": games, "seat_wins": seat_wins, "lengths": lengths, "times": times}


def matrix(game: str, players: int) -> list[tuple[str, str, dict]]:
    """The standard matches of a game and player count (first level, second level, options)."""
    if game == "fox-duet":
        # Each level as a team at each of the game's three levels: a level beats the one below
        # it when its team wins more often on the same seeds.
        return [(level, level, {"level": n}) for n in (1, 2, 3) for level in ("hard", "normal", "easy")]
    found = [("hard", "random", {})]
    if game in GREEDY_GAMES:
        found.append(("hard", "greedy", {}))
    return found + [("hard", "normal", {}), ("normal", "easy", {})]


def _time_decisions(args: tuple[str, int, str, int]) -> list[tuple[float, float]]:
    """CPU and elapsed seconds of ``count`` decisions on positions of random games."""
    game, players, level, count = args
    rng = random.Random(7)
    times: list[tuple[float, float]] = []
    seed = 0
    while len(times) < count:
        seed += 1
        state = GAMES[game].new(players, seed, {})
        for _ in range(rng.randrange(0, 60)):
            if state.outcome() is not None:
                break
            movers = state.to_move()
            seat = rng.choice(movers)
            state.apply(seat, rng.choice(playable(state, seat)))
        if state.outcome() is not None:
            continue
        seat = state.to_move()[0]
        cpu, wall = time.process_time(), time.perf_counter()
        decide(state, seat, level, seed)
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
    return times


def decision_times(game: str, players: int, count: int) -> None:
    for level in LEVELS:
        times = _time_decisions((game, players, level, count))
        cpu, wall = [c for c, _ in times], [w for _, w in times]
        print(
            f"{game} {players}p {level} alone ({count} decisions): CPU p50 {ms(percentile(cpu, 0.5))},"
            f" p99 {ms(percentile(cpu, 0.99))}, max {ms(max(cpu))}; elapsed p50 {ms(percentile(wall, 0.5))},"
            f" p99 {ms(percentile(wall, 0.99))}, max {ms(max(wall))}",
            flush=True,
        )


def parse_options(text: str) -> dict:
    return {k: int(v) if v.isdigit() else v for k, v in (o.split("=") for o in text.split() if o)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="vivarium", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--match", action="append", help="first:other, e.g. hard:random (repeatable)")
    parser.add_argument("--decisions", type=int, default=0, help="also time this many decisions per level alone")
    parser.add_argument("--jobs", "--workers", type=int, default=os.cpu_count() or 1, dest="jobs")
    parser.add_argument("--options", default="", help="game options, e.g. level=2")
    parser.add_argument("--start", type=int, default=0, help="the first game's index (its seed is 1000 + index)")
    parser.add_argument("--log", help="append one JSON line per finished game to this file")
    parser.add_argument("--summary", help="print the matches of a --log file (every game it holds) and stop")
    args = parser.parse_args(argv)
    if args.summary:
        summary(args.summary)
        return
    options = parse_options(args.options)
    print(
        f"bench/ai.py: {args.game}, {args.players} players, {args.games} games per match, {args.jobs} jobs", flush=True
    )
    if args.decisions:
        decision_times(args.game, args.players, args.decisions)
    if args.match:
        matches = [(*spec.split(":", 1), options) for spec in args.match]
    else:
        matches = [(first, other, {**extra, **options}) for first, other, extra in matrix(args.game, args.players)]
    for first, other, chosen in matches if args.games else []:  # --games 0: the decision times alone
        match(args.game, args.players, first, other, args.games, args.jobs, chosen, args.start, args.log)


if __name__ == "__main__":
    main()
