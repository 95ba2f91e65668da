"""Balance under computer play: the same computer level in every seat.

Run: .venv/bin/python bench/balance.py [--game noctiluca ...] [--players 2 ...] [--games 200]
     [--level hard] [--jobs 2]

For every game and player count asked (by default all of them), ``--games`` seeded games
(game i has seed 5000 + i) with ``--level`` computers in every seat: the win rate of each seat
position in turn order (position 1 is the first player, whichever seat the set-up drew), with
95 % Wilson intervals, and the game length in steps. Solo modes (Noctiluca, Terraforming Mars: The Dice
Game) give the computer's win rate; Fox Duet (co-operative) gives the team's win rate at each of
its levels 1, 2 and 3. Prints one table, with N.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai import append_line, play, read_log, run_games, wilson  # noqa: E402
from engine import GAMES  # noqa: E402


def setups(games: list[str], counts: list[int] | None) -> list[tuple[str, int, dict]]:
    out = []
    for game in games:
        spec = GAMES[game]
        for players in range(spec.min_players, spec.max_players + 1):
            if counts and players not in counts:
                continue
            if game == "fox-duet":
                out += [(game, players, {"level": level}) for level in (1, 2, 3)]
            else:
                out.append((game, players, {}))
    return out


def _one(args: tuple[str, int, dict, str, int]) -> tuple[list[float], int, dict]:
    """One game: the win shares by turn position (first player first), its length, and the
    game's own measures (bench/ai.py ``note``: Noctiluca's deliveries and round 2's refill)."""
    game, players, options, level, index = args
    notes: dict = {}
    shares, steps, _, first = play(game, players, [level] * players, seed=5000 + index, options=options, notes=notes)
    return [shares[(first + k) % players] for k in range(players)], steps, notes


def logger(path: str | None, level: str):
    """Appends one JSON line per finished game to ``path`` (None: no log)."""
    if not path:
        return None

    def write(argument: tuple, result: tuple) -> None:
        game, players, options, _, index = argument
        line = {"game": game, "players": players, "options": options, "level": level, "index": index}
        line.update(positions=result[0], steps=result[1], notes=result[2])
        append_line(path, line)

    return write


def row(game: str, players: int, options: dict, results: list, seconds: float) -> None:
    """Print one table row: length, win rate by turn position (or the solo or team win rate)
    and, for Noctiluca, the jars delivered and how often round 2 started short of dice."""
    n = len(results)
    lengths = [steps for _, steps, _ in results]
    length = f"{statistics.mean(lengths):.0f} ({min(lengths)}-{max(lengths)})"
    option_text = " ".join(f"{k}={v}" for k, v in options.items()) or "-"
    if players == 1 or game == "fox-duet":
        wins = sum(shares[0] for shares, _, _ in results)
        seats = f"{'solo' if players == 1 else 'team'} wins {wins:g}/{n} = {interval(wins, n)}"
    else:
        seats = ", ".join(
            f"position {s + 1} {interval(sum(shares[s] for shares, _, _ in results), n)}" for s in range(players)
        )
    extra = ""
    delivered = [notes["delivered"] for _, _, notes in results if "delivered" in notes]
    if delivered:
        shorts = [notes["short"] for _, _, notes in results if "short" in notes]
        short = sum(1 for s in shorts if s > 0)
        extra = (
            f"; jars delivered {statistics.mean(delivered):.1f} ({min(delivered)}-{max(delivered)})"
            f"; round 2 short {short}/{len(shorts)} = {interval(short, len(shorts)) if shorts else '-'}"
        )
    print(
        f"{game:<10} {players:>7}  {option_text:<8} {'N=' + str(n):<6} {length:<16} {seats}{extra}  [{seconds:.0f} s]",
        flush=True,
    )


def summary(path: str) -> None:
    """The rows of every game a --log file holds (each game counted once, by index)."""
    rows = read_log(path, ("level", "game", "players", "options"))
    for key in sorted(rows):
        level, game, players, options = json.loads(key)
        print(f"[{level}]", end=" ")
        row(game, players, options, [(g["positions"], g["steps"], g["notes"]) for g in rows[key]], 0.0)


def interval(wins: float, n: int) -> str:
    low, high = wilson(wins, n)
    return f"{wins / n:.0%} ({low:.0%}-{high:.0%})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="repeatable; default every game")
    parser.add_argument("--players", type=int, action="append", help="repeatable; default every count")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--level", default="hard", choices=("random", "easy", "normal", "hard"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--start", type=int, default=0, help="the first game's index (its seed is 5000 + index)")
    parser.add_argument("--log", help="append one JSON line per finished game to this file")
    parser.add_argument("--summary", help="print the rows of a --log file (every game it holds) and stop")
    args = parser.parse_args(argv)
    if args.summary:
        summary(args.summary)
        return
    chosen = setups(args.game or sorted(GAMES), args.players)
    print(f"bench/balance.py: {args.level} computers in every seat, N = {args.games} games per row, {args.jobs} jobs")
    print(
        f"{'game':<10} {'players':>7}  {'options':<8} {'length (steps)':<16} win rate by turn position, 95 % interval"
    )
    for game, players, options in chosen:
        started = time.perf_counter()
        tasks = [(game, players, options, args.level, i) for i in range(args.start, args.start + args.games)]
        results = run_games(_one, tasks, args.jobs, logger(args.log, args.level))
        row(game, players, options, results, time.perf_counter() - started)


if __name__ == "__main__":
    main()
