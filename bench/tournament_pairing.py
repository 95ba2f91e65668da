"""Time Swiss pairing: a 256-player round after 4 played rounds (issue 13 target: under 1 s).

Run: .venv/bin/python bench/tournament_pairing.py [--players 256] [--rounds 4] [--repeat 5]
Prints the time of each pairing of the next round, then the best and the median.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.tournaments.swiss import Played, pair_round  # noqa: E402


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=4, help="rounds already played")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
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
