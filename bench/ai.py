"""Measure the computer players (issue 14): win rates between levels, decision times, balance.

Run: .venv/bin/python bench/ai.py [--games 20] [--game vivarium] [--players 2] [--match hard:random]
     [--decisions 40] [--workers 2]

Each match plays seeded games with the first level in one seat and the second in the others,
the seats rotating game by game so no level always starts; it prints the first level's win rate
(a shared win counts as a fraction) with a 95 % Wilson interval, the mean game length and the
win rate of each seat position. ``--decisions`` times that many decisions of every level on
positions from random games (p50, p99, max). Games run in parallel worker processes.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.ismcts import LEVELS, decide, playable  # noqa: E402
from engine import GAMES  # noqa: E402

MAX_STEPS = 6000


def greedy(game: str, state, seat: int, rng: random.Random):
    """The test suite's greedy players (where the suite has one): Noctiluca's diver, TM dice's
    goal-seeking player."""
    if game == "noctiluca":
        from tests.engine.test_noctiluca_simulation import greedy as diver

        return diver(state, seat, rng)
    if game == "tm-dice":
        from tests.support.tm_dice_policy import choose as goal_seeker

        return goal_seeker(state, seat, [a.text for a in state.legal_actions(seat)], rng)
    raise SystemExit(f"the test suite has no greedy player for {game}")


def play(game: str, players: int, levels: list[str], seed: int, options: dict | None = None) -> tuple[list[float], int]:
    """One game, ``levels[s]`` in seat s: each seat's share of the win, and the steps taken."""
    state = GAMES[game].new(players, seed, options or {})
    rng = random.Random(seed)
    steps = 0
    while state.outcome() is None and steps < MAX_STEPS:
        movers = state.to_move()
        seat = movers[0] if len(movers) == 1 else rng.choice(movers)
        level = levels[seat]
        if level == "random":
            action = rng.choice(playable(state, seat))
        elif level == "greedy":
            action = greedy(game, state, seat, rng)
        else:
            action = decide(state, seat, level, rng.getrandbits(63))
        state.apply(seat, action)
        steps += 1
    outcome = state.outcome()
    if outcome is None:
        return [0.0] * players, steps
    # A co-operative win (or everyone tied) is everyone's whole win.
    share = 1.0 if len(outcome.winners) == players else 1.0 / len(outcome.winners) if outcome.winners else 0.0
    return [share if s in outcome.winners else 0.0 for s in range(players)], steps


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _match_game(args: tuple[str, int, str, str, int, dict]) -> tuple[float, int, list[float], int]:
    game, players, first, other, index, options = args
    seat = index % players  # the measured level's seat rotates
    levels = [other] * players
    levels[seat] = first
    shares, steps = play(game, players, levels, seed=1000 + index, options=options)
    return shares[seat], steps, shares, seat


def match(game: str, players: int, first: str, other: str, games: int, workers: int, options: dict) -> None:
    """In a co-operative game a win is the team's: the rate is the team's win rate."""
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_match_game, [(game, players, first, other, i, options) for i in range(games)]))
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, games)
    seat_wins = [0.0] * players
    for _, _, shares, _ in results:
        for s in range(players):
            seat_wins[s] += shares[s]
    print(
        f"{game} {players}p {options or ''} {first} vs {other}: {first} wins {wins:.1f}/{games} = {wins / games:.0%}"
        f" (95 % {low:.0%}-{high:.0%}); mean length {statistics.mean(r[1] for r in results):.0f} steps;"
        f" wins by seat {', '.join(f'{w / games:.0%}' for w in seat_wins)}; {time.perf_counter() - started:.0f} s"
    )


def _time_decisions(args: tuple[str, int, str, int]) -> list[float]:
    game, players, level, count = args
    rng = random.Random(7)
    times: list[float] = []
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
        started = time.perf_counter()
        decide(state, seat, level, seed)
        times.append(time.perf_counter() - started)
    return times


def decision_times(game: str, players: int, count: int) -> None:
    for level in LEVELS:
        times = sorted(_time_decisions((game, players, level, count)))
        p50 = times[len(times) // 2]
        p99 = times[min(len(times) - 1, math.ceil(len(times) * 0.99) - 1)]
        print(
            f"{game} {players}p {level}: decision p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms,"
            f" max {times[-1] * 1000:.0f} ms ({len(times)} decisions)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="vivarium", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--match", action="append", help="first:other, e.g. hard:random (repeatable)")
    parser.add_argument("--decisions", type=int, default=0, help="time this many decisions per level")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--options", default="", help="game options, e.g. level=2")
    args = parser.parse_args()
    options = {k: int(v) if v.isdigit() else v for k, v in (o.split("=") for o in args.options.split() if o)}
    if args.decisions:
        decision_times(args.game, args.players, args.decisions)
    for spec in args.match or []:
        first, other = spec.split(":")
        match(args.game, args.players, first, other, args.games, args.workers, options)


if __name__ == "__main__":
    main()
