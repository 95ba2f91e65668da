"""Game length and scores of Terraforming Mars: The Dice Game played by the test policy.

Plays seeded games for 1 to 4 players with ``tests/support/tm_dice_policy.py`` (every seat)
and prints per player count: turns per player, turns in all, the score spread first to last,
the winning score, engine steps (actions) per game and the seed of the shortest game. Solo:
how often all 3 parameters are complete at the end (the solo win), the mean score (0 when
lost) and the mean points before that rule, and how far each parameter is from complete.

    .venv/bin/python bench/simulate_tm_dice.py [--seeds 40]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES  # noqa: E402
from tests.support.tm_dice_policy import choose  # noqa: E402

MAX_STEPS = 5_000
PARAMETERS = ("temperature", "oxygen", "oceans")


def play(players: int, seed: int):
    """One seeded game with every seat played by the policy: (final state, steps taken)."""
    state = GAMES["tm-dice"].new(players, seed)
    rng = random.Random(seed)
    steps = 0
    while state.outcome() is None:
        if steps >= MAX_STEPS:
            raise RuntimeError(f"{players} players, seed {seed}: no end after {MAX_STEPS} steps")
        seat = state.to_move()[0]
        state.apply(seat, choose(state, seat, [str(a) for a in state.legal_actions(seat)], rng))
        steps += 1
    return state, steps


def simulate(players: int, seeds: int) -> dict:
    turns, steps, spreads, best, points = [], [], [], [], []
    short: dict[str, list[int]] = {p: [] for p in PARAMETERS}
    for seed in range(seeds):
        state, n = play(players, seed)
        outcome = state.outcome()
        public = state.view(None)["public"]
        turns.append(public["turn"])
        steps.append(n)
        spreads.append(max(outcome.scores) - min(outcome.scores))
        best.append(max(outcome.scores))
        points.append(outcome.details[0]["total"])
        for p in PARAMETERS:
            track = public["parameters"][p]
            short[p].append(track["steps"] - track["position"])
    per_player = [t / players for t in turns]
    return {
        "per_player": per_player,
        "turns": turns,
        "spread": statistics.mean(spreads),
        "best": statistics.mean(best),
        "steps": steps,
        "shortest": min(range(seeds), key=lambda s: steps[s]),
        "wins": sum(b > 0 for b in best) if players == 1 else None,
        "points": statistics.mean(points),
        "short": {p: statistics.mean(v) for p, v in short.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="seeded games per player count (default 20)")
    args = parser.parse_args()
    print(f"{args.seeds} seeded games per player count, every seat played by tests/support/tm_dice_policy.py")
    print(
        f"{'players':>7} | {'turns/player (min-max)':>22} | {'turns':>5} | {'spread':>6} | "
        f"{'winner':>6} | {'steps (min-max)':>16} | shortest game"
    )
    solo = None
    for players in range(1, 5):
        r = simulate(players, args.seeds)
        pp, steps = r["per_player"], r["steps"]
        spread = f"{r['spread']:6.1f}" if players > 1 else f"{'-':>6}"
        print(
            f"{players:>7} | {statistics.mean(pp):10.1f} ({min(pp):4.0f}-{max(pp):4.0f}) | "
            f"{statistics.mean(r['turns']):5.1f} | {spread} | {r['best']:6.1f} | "
            f"{statistics.mean(steps):6.1f} ({min(steps)}-{max(steps)}) | "
            f"seed {r['shortest']} ({steps[r['shortest']]} steps)"
        )
        if players == 1:
            solo = r
    short = ", ".join(f"{p} {n:.2f}" for p, n in solo["short"].items())
    print(
        f"solo: all 3 parameters complete in {solo['wins']}/{args.seeds} games "
        f"({100 * solo['wins'] / args.seeds:.0f} %); mean score {solo['best']:.1f} (0 when lost), "
        f"mean points before that rule {solo['points']:.1f}"
    )
    print(f"solo: mean steps short at the end: {short}")


if __name__ == "__main__":
    main()
