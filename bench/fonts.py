"""Cost of the images' font stack: Latin text (Pillow's own path) against text mixing CJK and emoji.

For each text: measuring it (getlength), drawing it on an RGB board, and the first use of a new
size (loading the faces), beside a plain DejaVu FreeTypeFont as the floor. Then whole boards of
every game with Latin names and with CJK and emoji names.

    .venv/bin/python bench/fonts.py [--repeat 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageDraw, ImageFont  # noqa: E402

import render  # noqa: E402
from engine import GAMES  # noqa: E402
from engine.resources import data_file  # noqa: E402
from render import fonts  # noqa: E402

TEXTS = {
    "latin": "Round 1/3 · Trick 1/11",
    "cjk": "第 1/3 回合 · 小明",
    "mixed": "小明 João 🦊Zoë",
}
LATIN_NAMES = ["Alice", "Bob", "Carol", "Dave"]
MIXED_NAMES = ["小明", "João", "🦊Zoë", "阿里巴巴與四十大盜的故事很長的名字"]


def per_call_us(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=300, help="calls per measure (default 300)")
    args = parser.parse_args()
    plain = ImageFont.truetype(BytesIO(data_file("fonts", "DejaVuSans-Bold.ttf").read_bytes()), 32)
    stacked = render.common.font(32, True)
    board = Image.new("RGB", (1600, 900))
    draw = ImageDraw.Draw(board)
    print("per call, median (µs)        getlength    draw.text")
    for label, text in TEXTS.items():
        for name, fnt in (("DejaVu alone", plain), ("font stack", stacked)):
            if name == "DejaVu alone" and label != "latin":
                continue
            length = per_call_us(lambda fnt=fnt, text=text: fnt.getlength(text), args.repeat)
            drawn = per_call_us(
                lambda fnt=fnt, text=text: draw.text((40, 80), text, font=fnt, fill="white"), args.repeat
            )
            print(f"  {label:6} {name:14}      {length:9.1f}    {drawn:9.1f}")
    fonts.clear_caches()
    start = time.perf_counter()
    render.common.font(33, True).getlength(TEXTS["mixed"])
    print(f"first use of the stack (faces found, one size loaded): {(time.perf_counter() - start) * 1000:.0f} ms")
    start = time.perf_counter()
    render.common.font(35, True).getlength(TEXTS["mixed"])
    print(f"a new size: {(time.perf_counter() - start) * 1000:.1f} ms")
    print("whole boards, median (ms)      Latin names    CJK and emoji names")
    for game, players in (("fox-duet", 2), ("noctiluca", 4), ("vivarium", 4), ("tm-dice", 4)):
        state = GAMES[game].new(players, 3)
        rng = random.Random(3)
        for _ in range(30):
            if state.outcome() is not None:
                break
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        view = state.view(None)
        cost = []
        for names in (LATIN_NAMES[:players], MIXED_NAMES[:players]):
            render.render_board(game, view, names)
            cost.append(per_call_us(lambda g=game, v=view, n=names: render.render_board(g, v, n), 5) / 1000)
        print(f"  {game:12}                 {cost[0]:8.1f}    {cost[1]:8.1f}")


if __name__ == "__main__":
    main()
