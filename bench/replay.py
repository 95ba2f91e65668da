"""What one finished game's animated replay costs: CPU seconds, wall time and peak memory.

For each game, seeded random games are played to their end (concessions and resignations left
out) and the shortest and the longest log are kept. Each replay is then drawn in a fresh process
of its own, as a drawing worker draws it, two ways:

  old   the replay as it was before the drawing workers drew it: every position rebuilt into a
        list (in the bot's event loop), every frame drawn into a list, then Pillow's ``save_all``
        (kept here, word for word, only for this comparison);
  new   ``services.replays.draw_replay``, what a drawing worker runs now: positions rebuilt in the
        worker, each frame streamed into libwebp's animation encoder as soon as it is drawn.

Columns: moves in the log; frames in the replay; CPU s (``time.process_time`` of that process:
other load does not count); wall s (it does); peak MB, the process's peak RSS over its RSS just
before the replay (``VmHWM`` reset through ``/proc/self/clear_refs``, after the game's fonts and
images were loaded by one board); the replay's KB; bot CPU ms, what the replay costs the bot
process itself: all of it before, now the pickling of the order sent to the worker (reading the
log from the database, the same both ways, is not counted).

    .venv/bin/python bench/replay.py [--game fox-duet] [--seeds 6] [--ways old,new] [--budget BYTES]
                                     [--max-moves N] [--json out.json]
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import pickle
import random
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PLAYERS = {"fox-duet": 2, "noctiluca": 3, "vivarium": 3, "tm-dice": 2}
NAMES = ["Alice", "Bob", "Carol", "Dave"]
MAX_MOVES = 3000


def load_average() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def random_log(key: str, seed: int) -> tuple[int, list[tuple[int, str]]]:
    """The players and the (seat, action) log of a seeded random game played to its end."""
    from engine import GAMES

    game = GAMES[key]
    players = max(game.min_players, min(PLAYERS.get(key, 2), game.max_players))
    state = game.new(players, seed, {})
    chooser = random.Random(seed)
    log: list[tuple[int, str]] = []
    while state.outcome() is None and len(log) < MAX_MOVES:
        seat = chooser.choice(state.to_move())
        legal = state.legal_actions(seat)
        action = chooser.choice([a for a in legal if game.action_kind(a) not in ("concede", "resign")] or legal)
        state.apply(seat, action)
        log.append((seat, action.text))
    return players, log


# -- the replay as it was (bot/history_ui.py and render/replay.py before the drawing workers) -------
def old_replay_animation(
    game_id: str,
    publics: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    budget: int,
    caption: Callable[[int, int], str] | None = None,
    locale: str = "en",
) -> tuple[bytes, str]:
    from PIL import Image

    from render import RENDERERS
    from render.replay import FRAME_WIDTH, MAX_FRAMES, label_frame, pick_frames

    renderer = RENDERERS[game_id]
    width, limit = FRAME_WIDTH, MAX_FRAMES
    while True:
        frames = []
        for index in pick_frames(len(publics), limit):
            board = renderer.board(publics[index], list(names), locale=locale).convert("RGB")
            height = round(board.height * width / board.width)
            frame = board.resize((width, height), Image.Resampling.LANCZOS)
            if caption:
                frame = label_frame(frame, caption(index, len(publics) - 1))
            frames.append(frame)
        data, extension = old_encode_animation(frames)
        if len(data) <= budget or width <= 320:
            return data, extension
        width, limit = int(width * 0.75), max(10, int(limit * 0.6))


def old_encode_animation(frames: list[Any]) -> tuple[bytes, str]:
    from PIL import Image, features

    from render.replay import LAST_FRAME_MS, STEP_MS

    durations = [STEP_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    if features.check("webp"):
        frames[0].save(
            out,
            format="WEBP",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            loop=0,
            quality=70,
            method=4,
        )
        return out.getvalue(), "webp"
    paletted = [f.quantize(colors=128, method=Image.Quantize.MEDIANCUT) for f in frames]
    paletted[0].save(
        out, format="GIF", save_all=True, append_images=paletted[1:], duration=durations, loop=0, optimize=False
    )
    return out.getvalue(), "gif"


def old_replay(order: Any) -> bytes:
    from l10n import t
    from services.replays import publics

    def caption(step: int, steps: int) -> str:
        return t("replay.caption", order.locale, step=step, steps=steps)

    views = publics(order)  # the old attach_replay did this in the event loop, the same way
    data, _ = old_replay_animation(order.game, views, order.names, order.budget, caption=caption, locale=order.locale)
    return data


# -- one replay, in a process of its own ---------------------------------------------------------
def status(field: str) -> int:
    """A ``/proc/self/status`` figure, in KB."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise LookupError(field)


def child(key: str, seed: int, way: str, budget: int | None, max_moves: int | None) -> dict[str, Any]:
    from PIL import Image

    from engine import GAMES
    from render import RENDERERS
    from render.replay import DEFAULT_BUDGET
    from services.replays import ReplayOrder, draw_replay

    players, log = random_log(key, seed)
    log = log[:max_moves]  # a game's first moves are a smaller replay of a game (the smoke test)
    game = GAMES[key]
    names = NAMES[:players]
    order = ReplayOrder(key, players, seed, {}, game.rules_version, log, names, "en", budget or DEFAULT_BUDGET)
    # A worker has drawn boards of this game before: its fonts and images are loaded.
    RENDERERS[key].board(game.new(players, seed, {}).view(None)["public"], NAMES[:players], locale="en")
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")  # the peak RSS (VmHWM) starts again from the RSS now
        since = "replay"
    except OSError:
        since = "process start"  # not resettable here: an upper bound
    sent = time.process_time()
    order_bytes = len(pickle.dumps(order))  # what the bot sends the worker (after reading the log)
    sent = time.process_time() - sent
    before = status("VmRSS")
    wall, cpu = time.perf_counter(), time.process_time()
    data = old_replay(order) if way == "old" else draw_replay(order)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = status("VmHWM") - before
    with Image.open(io.BytesIO(data)) as image:
        frames, width = getattr(image, "n_frames", 1), image.width
    return {
        "game": key,
        "seed": seed,
        "way": way,
        "moves": len(log),
        "frames": frames,
        "width": width,
        "cpu_s": cpu,
        "wall_s": wall,
        "peak_mb": peak / 1024,
        "peak_since": since,
        "kb": len(data) / 1024,
        # The bot's own CPU for the replay: all of it before; now, sending the order to a worker.
        "bot_cpu_ms": cpu * 1000 if way == "old" else sent * 1000,
        "order_kb": order_bytes / 1024,
    }


def measure(key: str, seed: int, way: str, budget: int | None, max_moves: int | None) -> dict[str, Any]:
    args = [sys.executable, __file__, "--child", json.dumps([key, seed, way, budget, max_moves])]
    done = subprocess.run(args, capture_output=True, text=True, check=False, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"{key} seed {seed} {way}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every game)")
    parser.add_argument("--seeds", type=int, default=6, help="random games per game, of which the shortest and longest")
    parser.add_argument("--ways", default="old,new", help="old, new or both (comma-separated)")
    parser.add_argument("--budget", type=int, default=None, help="bytes a replay may take (default: the bot's)")
    parser.add_argument("--max-moves", type=int, default=None, help="replay only a log's first moves (a quick run)")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*json.loads(args.child))))
        return

    from engine import GAMES

    games = args.game or sorted(GAMES)
    ways = [w.strip() for w in args.ways.split(",") if w.strip()]
    print(f"load average before: {load_average()}  ({os.cpu_count()} cores)")
    rows: list[dict[str, Any]] = []
    print(f"{'game':<10} {'log':<5} {'moves':>5} {'frames':>6} {'way':<4} ", end="")
    print(f"{'CPU s':>6} {'wall s':>6} {'peak MB':>8} {'KB':>6} {'bot CPU ms':>10}")
    for key in games:
        lengths = {seed: len(random_log(key, seed)[1]) for seed in range(args.seeds)}
        short, long = min(lengths, key=lambda s: (lengths[s], s)), max(lengths, key=lambda s: (lengths[s], -s))
        for label, seed in (("short", short), ("long", long)):
            for way in ways:
                row = measure(key, seed, way, args.budget, args.max_moves) | {"log": label}
                rows.append(row)
                print(
                    f"{key:<10} {label:<5} {row['moves']:>5} {row['frames']:>6} {way:<4} {row['cpu_s']:>6.2f} "
                    f"{row['wall_s']:>6.2f} {row['peak_mb']:>8.1f} {row['kb']:>6.0f} {row['bot_cpu_ms']:>10.1f}",
                    flush=True,
                )
    print(f"load average after: {load_average()}")
    if args.json:
        args.json.write_text(json.dumps({"load_average": os.getloadavg(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
