"""Every board reads inline on a phone: its key lines are drawn big enough at Discord's inline size.

Each game's boards at sampled positions (every step of a turn, every player count, the final board),
in every language, with names at their longest, are drawn; the lines the board declares as its key
lines (``render.phone``: whose turn and what they do, the scores, what the last move changed) are
measured at inline scale, the picture shrunk to ``INLINE_WIDTH`` (360 px) wide as a 390 px phone
shows it. Their capitals must be at least ``MIN_CAP`` (9 px) tall there, and their ink must really
be there in the shrunk picture, inside it and clear of one another.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageStat

from render import RENDERERS
from render.phone import INLINE_WIDTH, MIN_CAP, KeyLine, cap_height, key_lines, key_size
from tests.render.fits_common import LOCALES, NAMES, Position, played, sample

PLAYER_COUNTS = {"fox-duet": (2,), "noctiluca": (1, 2, 3, 4), "vivarium": (2, 3, 4), "tm-dice": (1, 2, 3, 4)}


def kind(public: dict[str, Any]) -> Hashable:
    return (public.get("players"), public.get("phase"), public.get("stage"), bool(public.get("result")))


@cache
def positions(game_id: str) -> list[Position]:
    picked: list[Position] = []
    seen: set[Hashable] = set()
    for players in PLAYER_COUNTS[game_id]:
        views = played(game_id, players, players + 10)
        picked += sample(f"{game_id} {players}p", views, kind, spread=1, seen=seen)
    return picked


def inline(image: Image.Image) -> tuple[Image.Image, float]:
    scale = INLINE_WIDTH / image.width
    return image.convert("L").resize((INLINE_WIDTH, round(image.height * scale)), Image.Resampling.LANCZOS), scale


def problems_of(lines: list[KeyLine], image: Image.Image) -> list[str]:
    small, scale = inline(image)
    found = []
    roles = {line.role for line in lines}
    if not {"turn", "scores"} <= roles:
        found.append(f"key lines {sorted(roles)} lack whose turn or the scores")
    for line in lines:
        cap = line.cap_height() * scale
        if cap < MIN_CAP:
            found.append(f"{line.text!r}: capitals {cap:.1f} px tall at inline scale")
        x0, y0, x1, y1 = (v * scale for v in line.box)
        if x0 < 0 or y0 < 0 or x1 > small.width + 1 or y1 > small.height + 1:
            found.append(f"{line.text!r} leaves the picture")
            continue
        ink = small.crop((int(x0), int(y0), int(x1) + 1, int(y1) + 1))
        low, high = ImageStat.Stat(ink).extrema[0]
        if high - low < 96:  # the text stands out of its background once shrunk, not a smudge
            found.append(f"{line.text!r} has no contrast at inline scale ({low}-{high})")
    for i, a in enumerate(lines):
        for b in lines[i + 1 :]:
            # Lines overlap when their boxes do (Vivarium's cells on offer stand side by side).
            across = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
            if min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > 1 and across > 1:
                found.append(f"{a.text!r} runs into {b.text!r}")
    return found


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", sorted(PLAYER_COUNTS))
def test_key_lines_read_at_inline_size(game_id: str, locale: str) -> None:
    problems = []
    for n, (label, public, seats) in enumerate(positions(game_id)):
        names = list(NAMES[n % len(NAMES)][: len(seats)])
        image = RENDERERS[game_id].board(public["public"], names, locale=locale)
        lines = key_lines(image)
        problems += [f"{locale} {label}: {p}" for p in problems_of(lines, image)]
    assert not problems, "\n".join(problems[:20])


def test_the_key_size_is_the_smallest_that_reads() -> None:
    """The band's font is as small as it may be (the board keeps its room) and no smaller."""
    for width in (1200, 1600, 2000):
        size = key_size(width)
        assert cap_height(size) * INLINE_WIDTH / width >= MIN_CAP
        assert cap_height(size - 1) * INLINE_WIDTH / width < MIN_CAP


def mover(public: dict[str, Any]) -> int | None:
    """The one seat to move, if one is (a step of TM dice, ``to_move`` elsewhere)."""
    if public.get("result"):
        return None
    step = public.get("step")
    if isinstance(step, dict):
        return step.get("seat")
    movers = public.get("to_move") or []
    return movers[0] if len(movers) == 1 else None


def test_the_turn_line_names_who_plays() -> None:
    """The turn line is the real one: it names the seat to move, in full."""
    checked = 0
    for game_id in sorted(PLAYER_COUNTS):
        for _, public, seats in positions(game_id)[:6]:
            seat = mover(public["public"])
            if seat is None:
                continue
            names = list(NAMES[0][: len(seats)])
            image = RENDERERS[game_id].board(public["public"], names, locale="en")
            turn = " ".join(line.text for line in key_lines(image) if line.role == "turn")
            assert names[seat] in turn, (game_id, turn)
            checked += 1
    assert checked >= 8
