"""Noctiluca under computer play: deliveries, round 2's refill, seat balance.

Run: .venv/bin/python bench/noctiluca_balance.py [--players 4] [--games 20] [--level normal] [--workers 2]
     [--rules-version 2] [--first-seed 7000]

Computers of ``level`` in every seat play seeded games; the script prints the jars delivered per
game (the published game gives about 8-12 at four), how often round 2 starts with too few dice
in the box lid to refill the board (the rulebook calls it rare), each seat position's win rate
and the game length. Compare with the same run at ``--level random`` (random legal moves) or
``--level greedy`` (the test suite's greedy diver), and between ``--rules-version 1`` (the first
jars, which games started before version 2 keep) and ``2`` (the calibrated jars, the default).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.ismcts import decide, playable  # noqa: E402
from engine import GAMES  # noqa: E402


def one_game(args: tuple[int, int, str, int]) -> dict:
    players, seed, level, rules_version = args
    state = GAMES["noctiluca"].new(players, seed, {}, rules_version=rules_version)
    rng = random.Random(seed)
    short = None
    steps = 0
    while state.outcome() is None:
        seat = state.to_move()[0]
        if level == "random":
            action = rng.choice(playable(state, seat))
        elif level == "greedy":
            from tests.engine.test_noctiluca_simulation import greedy

            action = greedy(state, seat, rng)
        else:
            action = decide(state, seat, level, rng.getrandbits(63))
        for event in state.apply(seat, action):
            if event.get("type") == "board filled" and event.get("round") == 2:
                short = event.get("short", 0)
        steps += 1
    outcome = state.outcome()
    assert outcome is not None
    share = 1 / len(outcome.winners) if outcome.winners else 0.0
    return {
        "delivered": sum(len(d) for d in state.delivered),  # type: ignore[attr-defined]
        "short": short,
        "wins": [share if s in outcome.winners else 0.0 for s in range(players)],
        "steps": steps,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--level", default="normal", choices=("random", "greedy", "easy", "normal", "hard"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules-version", type=int, default=GAMES["noctiluca"].rules_version)
    parser.add_argument("--first-seed", type=int, default=7000)
    args = parser.parse_args()
    GAMES["noctiluca"].check_rules_version(args.rules_version)
    seeds = range(args.first_seed, args.first_seed + args.games)
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(one_game, [(args.players, seed, args.level, args.rules_version) for seed in seeds]))
    delivered = [g["delivered"] for g in games]
    shorts = [g["short"] for g in games if g["short"] is not None]
    wins = [sum(g["wins"][s] for g in games) / len(games) for s in range(args.players)]
    print(
        f"noctiluca {args.players}p, rules version {args.rules_version}, {args.level} in every seat,"
        f" {len(games)} games (seeds {seeds.start}-{seeds.stop - 1})"
        f" ({time.perf_counter() - started:.0f} s):\n"
        f"  jars delivered per game: mean {statistics.mean(delivered):.1f}, median {statistics.median(delivered)},"
        f" range {min(delivered)}-{max(delivered)}\n"
        f"  round 2 short of dice: {sum(1 for s in shorts if s > 0)} of {len(shorts)} games"
        f" (mean shortfall {statistics.mean(shorts) if shorts else 0:.1f} dice)\n"
        f"  wins by seat: {', '.join(f'{w:.0%}' for w in wins)}\n"
        f"  game length: mean {statistics.mean(g['steps'] for g in games):.0f} steps"
    )


if __name__ == "__main__":
    main()
