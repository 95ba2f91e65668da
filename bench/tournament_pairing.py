"""Time Swiss pairing: a 256-player round after 4 played rounds (target: under 1 s).

Run: .venv/bin/python bench/tournament_pairing.py [--players 256] [--rounds 4] [--repeat 5] [--pods 4]
Prints the time of each pairing of the next round, then the best and the median. ``--pods 3``
or ``--pods 4`` times Swiss with pods instead (tables of that size), and counts repeat meetings.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league import pods  # noqa: E402
from league.swiss import Played, pair_round  # noqa: E402


def history_of(players: int, rounds: int, seed: int) -> list[Played]:
    """Rounds paired by the real pairing and played: the better seed wins two times in three."""
    rng = random.Random(seed)
    seeds = list(range(1, players + 1))
    history: list[Played] = []
    for round_no in range(1, rounds + 1):
        for table in pair_round(seeds, history):
            if len(table) == 1:
                history.append(Played(round_no, table))
                continue
            roll = rng.random()
            ranks = (1, 1) if roll < 0.05 else (1, 2) if roll < 0.67 else (2, 1)
            history.append(Played(round_no, table, ranks, (rng.randint(20, 90), rng.randint(20, 90))))
    return history


def pod_history_of(players: int, rounds: int, size: int, seed: int) -> list[pods.Placed]:
    """Rounds of pods paired by the real pairing and played: ranks drawn at random, ties rare."""
    rng = random.Random(seed)
    seeds = list(range(1, players + 1))
    history: list[pods.Placed] = []
    for round_no in range(1, rounds + 1):
        for table in pods.pair_round(seeds, history, size):
            ranks = list(range(1, len(table) + 1))
            rng.shuffle(ranks)
            history.append(pods.Placed(round_no, table, tuple(ranks), tuple(rng.randint(20, 90) for _ in table)))
    return history


def repeats(tables: list[tuple[int, ...]], history: list[pods.Placed]) -> int:
    met = {frozenset((a, b)) for t in history for a in t.players for b in t.players if a != b}
    return sum(1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if frozenset((a, b)) in met)


def main_pods(args: argparse.Namespace) -> None:
    seeds = list(range(1, args.players + 1))
    started = time.perf_counter()
    history = pod_history_of(args.players, args.rounds, args.pods, seed=1)
    print(
        f"{args.rounds} earlier rounds of {args.players} players in pods of {args.pods}:"
        f" {time.perf_counter() - started:.2f} s"
    )
    times = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        tables = pods.pair_round(seeds, history, args.pods)
        times.append(time.perf_counter() - started)
        assert sorted(p for t in tables for p in t) == seeds
    print("pairing round", args.rounds + 1, ":", ", ".join(f"{t * 1000:.0f} ms" for t in times))
    print(f"repeat meetings in that round: {repeats(tables, history)}")
    print(f"best {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms (target < 1000 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=4, help="rounds already played")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pods", type=int, choices=(3, 4), help="Swiss with pods of this size")
    args = parser.parse_args()
    if args.pods:
        main_pods(args)
        return
    seeds = list(range(1, args.players + 1))
    started = time.perf_counter()
    history = history_of(args.players, args.rounds, seed=1)
    print(
        f"{args.rounds} earlier rounds of {args.players} players paired and played in "
        f"{time.perf_counter() - started:.2f} s"
    )
    times = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        tables = pair_round(seeds, history)
        times.append(time.perf_counter() - started)
        assert sorted(p for t in tables for p in t) == seeds
    print("pairing round", args.rounds + 1, ":", ", ".join(f"{t * 1000:.0f} ms" for t in times))
    print(f"best {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms (target < 1000 ms)")


if __name__ == "__main__":
    main()
