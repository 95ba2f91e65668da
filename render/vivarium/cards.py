"""One grid card as a sprite: a creature, an equipment card or a contract; and their short texts."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import draw_centred, fitted, font, supersampled, wrap
from render.vivarium.icons import HABITAT_COLORS, HABITAT_TEXT, ICON_COLORS, TYPE_COLORS, badge, icon

EQUIPMENT_FACE = (236, 232, 220)
CONTRACT_FACE = (246, 234, 196)
CONTRACT_EDGE = (150, 108, 44)
INK = (36, 30, 24)
POINTS_DISC = (252, 214, 92)

TIMING = {  # ability kind: (tag, tag colour)
    "clear-column": ("NOW", (200, 70, 40)),
    "extra-row": ("NOW", (200, 70, 40)),
    "extra-column": ("NOW", (200, 70, 40)),
    "swap-again": ("NOW", (200, 70, 40)),
    "take-small": ("NOW", (200, 70, 40)),
    "gems-per": ("NOW", (200, 70, 40)),
    "counts-as": ("ALWAYS", (60, 110, 170)),
    "points-per": ("END", (60, 130, 70)),
    "points-per-priority": ("END", (60, 130, 70)),
    "points-per-gems": ("END", (60, 130, 70)),
    "all-habitats": ("END", (60, 130, 70)),
}


def filter_text(flt: Mapping[str, Any]) -> str:
    words = []
    if "points" in flt:
        words.append(f"{flt['points']}-pt")
    words += [str(flt[k]) for k in ("habitat", "type", "icon") if k in flt]
    if "points" in flt and "type" not in flt:
        words.append("creature")
    return " ".join(words)


def ability_text(ability: Mapping[str, Any]) -> str:
    kind = ability.get("kind")
    what = filter_text(ability.get("filter", {}))
    points = ability.get("points", 0)
    return {
        "clear-column": "Clear a whole column of the grid",
        "extra-row": "Take 1 more card from this row",
        "extra-column": "Take 1 more card from this column",
        "swap-again": "Swap a chain token once more",
        "take-small": "Take any 1-point creature",
        "gems-per": f"+{points} gem per {what} you have",
        "counts-as": f"Counts as a {what}",
        "points-per": f"{points} pt per {what}",
        "points-per-priority": f"{points} pts per priority token",
        "points-per-gems": f"{points} pt per {ability.get('every')} gems",
        "all-habitats": f"{points} pts if you have all 4 habitats",
    }.get(str(kind), str(kind))


def _pts(n: object) -> str:
    return f"{n} pt" if n == 1 else f"{n} pts"


def goal_lines(goal: Mapping[str, Any]) -> list[str]:
    """A contract's goal as short lines: the thing counted, then the points."""
    kind = goal.get("kind")
    if kind in ("count", "total"):
        what = filter_text(goal.get("filter", {})) if kind == "count" else "creature points"
        tiers = " · ".join(f"{a}+ = {p}" for a, p in goal.get("tiers", []))
        return [what, tiers]
    if kind == "per":
        return [f"each {filter_text(goal.get('filter', {}))}", f"= {_pts(goal.get('points'))}"]
    if kind == "sets":
        return [f"each set of 4 {goal.get('of')}s", f"= {_pts(goal.get('points'))}"]
    filters = goal.get("filters", [{}, {}])
    return [f"each {filter_text(filters[0])} + {filter_text(filters[1])}", f"= {_pts(goal.get('points'))}"]


def _key(card: Mapping[str, Any]) -> str:
    return json.dumps(card, sort_keys=True)


def card_sprite(card: Mapping[str, Any], w: int, h: int) -> Image.Image:
    return _card(_key(card), w, h)


@lru_cache(maxsize=256)
def _card(key: str, w: int, h: int) -> Image.Image:
    card = json.loads(key)
    kind = card.get("kind")
    if kind == "creature":
        return _creature(card, w, h)
    if kind == "equipment":
        return _equipment(card, w, h)
    return _contract(card, w, h)


def _frame(w: int, h: int, fill, edge, width: int = 3) -> Image.Image:
    """A copy of a card's blank face: there are few distinct faces, so each is painted once."""
    return _blank(w, h, tuple(fill), tuple(edge), width).copy()


@lru_cache(maxsize=64)
def _blank(w: int, h: int, fill, edge, width: int) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        box = (0, 0, w * s - 1, h * s - 1)
        draw.rounded_rectangle(box, round(14 * s), fill=fill, outline=edge, width=round(width * s))

    return supersampled((w, h), paint)


def _creature(card: Mapping[str, Any], w: int, h: int) -> Image.Image:
    habitat, kind = str(card.get("habitat")), str(card.get("type"))
    bg = HABITAT_COLORS.get(habitat, (128, 128, 128))
    ink = HABITAT_TEXT.get(habitat, (255, 255, 255))
    image = _frame(w, h, bg, TYPE_COLORS.get(kind, INK), 5)
    draw = ImageDraw.Draw(image)
    size = round(w * 0.36)
    image.alpha_composite(badge(kind, size), (8, 8))
    draw.text((size + 14, 10 + size * 0.30), kind.upper(), font=font(round(w * 0.105), True), fill=ink, anchor="lm")
    draw.text((size + 14, 10 + size * 0.72), habitat, font=font(round(w * 0.095)), fill=ink, anchor="lm")
    name_font = font(round(w * 0.11), True)
    for i, line in enumerate(wrap(str(card.get("name", "")), name_font, w - 20, 2)):
        draw.text((w / 2, h * 0.48 + i * w * 0.13), line, font=name_font, fill=ink, anchor="mm")
    r = round(w * 0.15)
    cx, cy = w - r - 8, h - r - 8
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=POINTS_DISC, outline=INK, width=3)
    draw.text((cx, cy), str(card.get("points", 0)), font=font(round(r * 1.4), True), fill=INK, anchor="mm")
    draw.text((12, h - 12), habitat.upper(), font=font(round(w * 0.085), True), fill=ink, anchor="lb")
    return image


def _equipment(card: Mapping[str, Any], w: int, h: int) -> Image.Image:
    ic = str(card.get("icon"))
    image = _frame(w, h, EQUIPMENT_FACE, ICON_COLORS.get(ic, INK), 5)
    draw = ImageDraw.Draw(image)
    size = round(w * 0.30)
    image.alpha_composite(badge(ic, size), (8, 8))
    draw.text((size + 12, 8 + size / 2), ic.upper(), font=font(round(w * 0.10), True), fill=INK, anchor="lm")
    gems = int(card.get("gems", 0))
    gem = round(w * 0.15)
    for i in range(gems):
        image.alpha_composite(icon("gem", gem), (w - 10 - (i + 1) * (gem - 2), 10 + size // 2 - gem // 2 + 18))
    if gems:
        draw.text((w - 10, 8), f"+{gems}", font=font(round(w * 0.1), True), fill=(14, 110, 100), anchor="ra")
    text, fnt = fitted(str(card.get("name", "")), w - 16, round(w * 0.11), True, 12)
    draw.text((w / 2, h * 0.44), text, font=fnt, fill=INK, anchor="mm")
    ability = card.get("ability", {})
    tag, color = TIMING.get(str(ability.get("kind")), ("", INK))
    top = round(h * 0.60)
    draw.rounded_rectangle((6, top, w - 6, h - 6), 10, fill=(255, 252, 244), outline=color, width=2)
    draw.rounded_rectangle((10, top - 12, 10 + font(15, True).getlength(tag) + 14, top + 10), 8, fill=color)
    draw.text((17, top - 1), tag, font=font(15, True), fill=(255, 255, 255), anchor="lm")
    body = font(round(w * 0.095), True)
    lines = wrap(ability_text(ability), body, w - 24, 3)
    step = w * 0.12
    if len(lines) > 2:  # three lines only fit a size smaller
        body = font(round(w * 0.082), True)
        lines = wrap(ability_text(ability), body, w - 24, 3)
        step = w * 0.098
    y0 = (top + h - 6) / 2 - (len(lines) - 1) * step / 2 + 4
    for i, line in enumerate(lines):
        draw.text((w / 2, y0 + i * step), line, font=body, fill=INK, anchor="mm")
    return image


def _contract(card: Mapping[str, Any], w: int, h: int) -> Image.Image:
    image = _frame(w, h, CONTRACT_FACE, CONTRACT_EDGE, 5)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((6, 6, w - 6, 36), 8, fill=CONTRACT_EDGE)
    draw_centred(draw, (6, 6, w - 6, 36), "CONTRACT", round(w * 0.1), (255, 248, 230), True)
    name_font = font(round(w * 0.105), True)
    for i, line in enumerate(wrap(str(card.get("name", "")), name_font, w - 16, 2)):
        draw.text((w / 2, 56 + i * w * 0.12), line, font=name_font, fill=INK, anchor="mm")
    body = font(round(w * 0.095), True)
    lines: list[str] = []
    for part in goal_lines(card.get("goal", {})):
        lines += wrap(part, body, w - 20, 2)
    y = h - 14 - (len(lines) - 1) * w * 0.12
    for i, line in enumerate(lines):
        draw.text((w / 2, y + i * w * 0.12), line, font=body, fill=(90, 54, 10), anchor="mb")
    return image
