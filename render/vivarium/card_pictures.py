"""One grid card as a sprite: a creature, an equipment card or a contract; and their short texts."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from l10n import content_name, has, t
from render.common import draw_centred, fitted, fitted_lines, font, put_text, supersampled, whole_lines, wrap
from render.vivarium.icons import HABITAT_COLORS, HABITAT_TEXT, ICON_COLORS, TYPE_COLORS, badge, icon

EQUIPMENT_FACE = (236, 232, 220)
CONTRACT_FACE = (246, 234, 196)
CONTRACT_EDGE = (150, 108, 44)
INK = (36, 30, 24)
POINTS_DISC = (252, 214, 92)

TIMING = {  # ability kind: (tag, tag colour)
    "clear-column": ("now", (200, 70, 40)),
    "extra-row": ("now", (200, 70, 40)),
    "extra-column": ("now", (200, 70, 40)),
    "swap-again": ("now", (200, 70, 40)),
    "take-small": ("now", (200, 70, 40)),
    "gems-per": ("now", (200, 70, 40)),
    "counts-as": ("always", (60, 110, 170)),
    "points-per": ("end", (60, 130, 70)),
    "points-per-priority": ("end", (60, 130, 70)),
    "points-per-gems": ("end", (60, 130, 70)),
    "all-habitats": ("end", (60, 130, 70)),
}


def word(kind: str, value: object, locale: str) -> str:
    """A type, habitat or icon in ``locale`` (the bot's word for it, so images and messages agree)."""
    key = f"vivarium.{kind}.{value}"
    return t(key, locale) if has(key, locale) else str(value)


def name_of(card: Mapping[str, Any], locale: str, kind: str | None = None) -> str:
    """A card's name in ``locale``: our own content, translated under ``content.vivarium.<kind>.<id>``."""
    kind = kind or str(card.get("kind") or "contract")
    return content_name("vivarium", kind, str(card.get("id")), str(card.get("name", "")), locale)


def filter_text(flt: Mapping[str, Any], locale: str = "en") -> str:
    """What a filter counts: ``forest animal``, ``lamp``, ``3-pt creature``."""
    if "icon" in flt:
        return word("icon", flt["icon"], locale)
    what = word("type", flt["type"], locale) if "type" in flt else ""
    if "habitat" in flt:
        habitat = word("habitat", flt["habitat"], locale)
        what = t("vivarium.render.filter.habitat", locale, habitat=habitat, what=what) if what else habitat
    if "points" in flt:
        what = t(
            "vivarium.render.filter.points",
            locale,
            value=flt["points"],
            what=what or t("vivarium.render.creature", locale),
        )
    return what


def ability_text(ability: Mapping[str, Any], locale: str = "en") -> str:
    """An equipment card's ability, without its timing (the card's tag shows that)."""
    kind = str(ability.get("kind"))
    key = f"vivarium.render.ability.{kind}"
    if not has(key, locale):
        return kind
    what = filter_text(ability.get("filter", {}), locale)
    return t(key, locale, points=ability.get("points", 0), every=ability.get("every"), what=what)


def goal_lines(goal: Mapping[str, Any], locale: str = "en") -> list[str]:
    """A contract's goal as short lines: the thing counted, then the points."""
    kind = goal.get("kind")
    if kind in ("count", "total"):
        if kind == "count":
            what = filter_text(goal.get("filter", {}), locale)
        else:
            what = t("vivarium.goal.creature-points", locale)
        tiers = " · ".join(f"{a}+ = {p}" for a, p in goal.get("tiers", []))
        return [what, tiers]
    equals = t("vivarium.render.goal.equals", locale, points=goal.get("points"))
    if kind == "per":
        return [t("vivarium.render.goal.each", locale, what=filter_text(goal.get("filter", {}), locale)), equals]
    if kind == "sets":
        key = f"vivarium.render.goal.sets.{goal.get('of')}"
        return [t(key, locale) if has(key, locale) else str(goal.get("of")), equals]
    first, second = (filter_text(f, locale) for f in (goal.get("filters") or [{}, {}])[:2])
    return [t("vivarium.render.goal.pair", locale, first=first, second=second), equals]


def _key(card: Mapping[str, Any]) -> str:
    return json.dumps(card, sort_keys=True)


def card_sprite(card: Mapping[str, Any], w: int, h: int, locale: str = "en") -> Image.Image:
    if w > LARGE_CARD_W:  # a card on offer: drawn each time, as its size in bytes would crowd the kept ones out
        return _drawn(card, w, h, locale)
    return _card(_key(card), w, h, locale)


# A card is about 1 ms to draw again and 140 KB to keep (a drawing worker kept 186 of them, 26 MB).
@lru_cache(maxsize=64)
def _card(key: str, w: int, h: int, locale: str) -> Image.Image:
    return _drawn(json.loads(key), w, h, locale)


def _drawn(card: Mapping[str, Any], w: int, h: int, locale: str) -> Image.Image:
    kind = card.get("kind")
    if kind == "creature":
        return _creature(card, w, h, locale)
    if kind == "equipment":
        return _equipment(card, w, h, locale)
    return _contract(card, w, h, locale)


# Wider than a card of the grid: a card on offer above the board, drawn large for a phone. Such a card is
# 0.5-1 MB: neither it nor its blank face is kept, and its face is drawn without smoothing (its round
# corners are large enough to look smooth, and the picture is seen shrunk).
LARGE_CARD_W = 240


def _frame(w: int, h: int, fill, edge, width: int = 3) -> Image.Image:
    """A copy of a card's blank face: there are few distinct faces, so each is painted once."""
    if w > LARGE_CARD_W:
        face = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        box = (0, 0, w - 1, h - 1)
        ImageDraw.Draw(face).rounded_rectangle(box, 14, fill=tuple(fill), outline=tuple(edge), width=width)
        return face
    return _blank(w, h, tuple(fill), tuple(edge), width).copy()


@lru_cache(maxsize=64)
def _blank(w: int, h: int, fill, edge, width: int) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        box = (0, 0, w * s - 1, h * s - 1)
        draw.rounded_rectangle(box, round(14 * s), fill=fill, outline=edge, width=round(width * s))

    return supersampled((w, h), paint)


def _creature(card: Mapping[str, Any], w: int, h: int, locale: str) -> Image.Image:
    habitat, kind = str(card.get("habitat")), str(card.get("type"))
    bg = HABITAT_COLORS.get(habitat, (128, 128, 128))
    ink = HABITAT_TEXT.get(habitat, (255, 255, 255))
    image = _frame(w, h, bg, TYPE_COLORS.get(kind, INK), 5)
    draw = ImageDraw.Draw(image)
    size = round(w * 0.36)
    image.alpha_composite(badge(kind, size), (8, 8))
    room = w - size - 20
    label, lf = fitted(word("type", kind, locale).upper(), room, round(w * 0.105), True, 10)
    put_text(draw, (size + 14, 10 + size * 0.30), label, font=lf, fill=ink, anchor="lm")
    place = word("habitat", habitat, locale)
    shown, pf = fitted(place, room, round(w * 0.095), False, 10)
    put_text(draw, (size + 14, 10 + size * 0.72), shown, font=pf, fill=ink, anchor="lm")
    lines, name_font, _ = fitted_lines(name_of(card, locale), w - 20, 2, round(w * 0.11), True)
    for i, line in enumerate(lines):
        put_text(draw, (w / 2, h * 0.48 + i * name_font.size * 1.18), line, font=name_font, fill=ink, anchor="mm")
    r = round(w * 0.15)
    cx, cy = w - r - 8, h - r - 8
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=POINTS_DISC, outline=INK, width=3)
    put_text(draw, (cx, cy), str(card.get("points", 0)), font=font(round(r * 1.4), True), fill=INK, anchor="mm")
    corner, cf = fitted(place.upper(), cx - r - 12 - 12, round(w * 0.085), True, 10)
    put_text(draw, (12, h - 12), corner, font=cf, fill=ink, anchor="lb")
    return image


def _equipment(card: Mapping[str, Any], w: int, h: int, locale: str) -> Image.Image:
    ic = str(card.get("icon"))
    image = _frame(w, h, EQUIPMENT_FACE, ICON_COLORS.get(ic, INK), 5)
    draw = ImageDraw.Draw(image)
    size = round(w * 0.30)
    image.alpha_composite(badge(ic, size), (8, 8))
    gems = int(card.get("gems", 0))
    plus = f"+{gems}" if gems else ""
    plus_font = font(round(w * 0.1), True)
    room = w - size - 12 - 10 - (plus_font.getlength(plus) + 6 if plus else 0)
    label, lf = fitted(word("icon", ic, locale).upper(), room, round(w * 0.10), True, 8)
    put_text(draw, (size + 12, 8 + size / 2), label, font=lf, fill=INK, anchor="lm")
    gem = round(w * 0.15)
    for i in range(gems):
        image.alpha_composite(icon("gem", gem), (w - 10 - (i + 1) * (gem - 2), 10 + size // 2 - gem // 2 + 18))
    if gems:
        put_text(draw, (w - 10, 8), plus, font=plus_font, fill=(14, 110, 100), anchor="ra")
    # The name on one line, shrinking a little; then on two lines, rather than small (a large card on offer
    # is read on a phone).
    name = name_of(card, locale)
    one = whole_lines(name, w - 16, 1, round(w * 0.11), True, round(w * 0.1))
    lines, fnt = one or fitted_lines(name, w - 16, 2, round(w * 0.105), True, 10)[:2]
    step = fnt.size * 1.1
    for i, line in enumerate(lines):
        put_text(draw, (w / 2, h * 0.44 + (i - (len(lines) - 1) / 2) * step), line, font=fnt, fill=INK, anchor="mm")
    ability = card.get("ability", {})
    timing, color = TIMING.get(str(ability.get("kind")), ("", INK))
    tag = t(f"vivarium.render.timing.{timing}", locale) if timing else ""
    top = round(h * 0.60)
    draw.rounded_rectangle((6, top, w - 6, h - 6), 10, fill=(255, 252, 244), outline=color, width=2)
    if tag:
        tag, tf = fitted(tag, w - 40, 15, True, 10)
        draw.rounded_rectangle((10, top - 12, 10 + tf.getlength(tag) + 14, top + 10), 8, fill=color)
        put_text(draw, (17, top - 1), tag, font=tf, fill=(255, 255, 255), anchor="lm")
    text = ability_text(ability, locale)
    # Two lines; three only fit a size smaller; four, smaller again, rather than a cut.
    two = whole_lines(text, w - 24, 2, round(w * 0.095), True, round(w * 0.082))
    if two is not None:
        lines, body = two
        step = w * 0.12
    else:
        three = whole_lines(text, w - 24, 3, round(w * 0.082), True, 11)
        lines, body = three if three is not None else fitted_lines(text, w - 24, 4, round(w * 0.082), True)[:2]
        step = body.size * 1.15
    y0 = (top + h - 6) / 2 - (len(lines) - 1) * step / 2 + 4
    for i, line in enumerate(lines):
        put_text(draw, (w / 2, y0 + i * step), line, font=body, fill=INK, anchor="mm")
    return image


def _contract(card: Mapping[str, Any], w: int, h: int, locale: str) -> Image.Image:
    image = _frame(w, h, CONTRACT_FACE, CONTRACT_EDGE, 5)
    draw = ImageDraw.Draw(image)
    bar = 6 + round(w / 6)  # the title bar's bottom: 36 px on the grid's card, more on a large one on offer
    draw.rounded_rectangle((6, 6, w - 6, bar), 8, fill=CONTRACT_EDGE)
    draw_centred(
        draw, (12, 6, w - 12, bar), t("vivarium.render.contract", locale), round(w * 0.1), (255, 248, 230), True
    )
    name_font = font(round(w * 0.105), True)
    for i, line in enumerate(wrap(name_of(card, locale), name_font, w - 16, 2)):
        put_text(draw, (w / 2, bar + w * 0.11 + i * w * 0.12), line, font=name_font, fill=INK, anchor="mm")
    body = font(round(w * 0.095), True)
    lines: list[str] = []
    for part in goal_lines(card.get("goal", {}), locale):
        lines += wrap(part, body, w - 20, 2)
    y = h - 14 - (len(lines) - 1) * w * 0.12
    for i, line in enumerate(lines):
        put_text(draw, (w / 2, y + i * w * 0.12), line, font=body, fill=(90, 54, 10), anchor="mb")
    return image
