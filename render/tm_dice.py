"""Terraforming Mars: The Dice Game: the map, tracks and players, drawn from ``view(seat)``.

The board: on the left the 37-hex map (every area labelled as in the action texts, ocean and
special areas coloured, printed bonuses, tiles with their owner's colour); beside it the three
tracks (temperature, oxygen, oceans) with their bonus spaces; on the right the award faces,
the milestones, then one panel per player (corporation, VP, wild tokens, production dice, the
dice held with their faces written, played cards and used blue cards). The hand: the seat's
project cards with cost, colour, effects and VP, and the corporations or bonus cards being
chosen. Every word comes from the catalogue (keys ``tm-dice.render.*``,
``data/i18n/<locale>/render-tm-dice.json``); card, corporation, bonus and milestone names from
``content_name``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.tm_dice import CONTENT, TMDicePrivate, TMDicePublic
from l10n import content_name, t
from l10n.typography import aside
from render.common import (
    RGB,
    GameRenderer,
    Palette,
    draw_centred,
    ellipsize,
    fitted,
    fitted_lines,
    font,
    gradient,
    put_text,
    seat_name,
    shade,
    shadowed_box,
    whole_lines,
    wrap,
)
from render.phone import Key, with_band

GAME_ID = "tm-dice"
BOARD_BUDGET = 700_000
HAND_BUDGET = 400_000

# The map's areas by label (``c4``), as the game publishes them.
HEXES = CONTENT.hexes

# --- layout (pixels) --------------------------------------------------------------------------
W, H = 1600, 900
HEX = 50  # centre to corner (pointy top)
MAP_CENTRE = (350, 470)
TRACK_X0 = 680
TRACK_W = 70
TRACK_Y0, TRACK_Y1 = 150, 860
RIGHT_X0, RIGHT_X1 = 940, W - 16
DIE = 50
HAND_W, HAND_ROWS = 1500, 3
CARD_W, CARD_H = 280, 210

# --- look -------------------------------------------------------------------------------------
SKY_TOP: RGB = (48, 20, 14)
SKY_BOTTOM: RGB = (22, 10, 8)
PANEL: RGB = (70, 36, 26)
PANEL_EDGE: RGB = (150, 90, 60)
AREA: dict[str, RGB] = {"land": (196, 120, 74), "ocean": (48, 96, 160), "lava": (150, 50, 36), "mine": (120, 110, 104)}
TILE: dict[str, RGB] = {
    "ocean": (24, 70, 150),
    "greenery": (60, 150, 70),
    "city": (170, 170, 178),
    "lava": (230, 90, 30),
    "mine": (80, 70, 66),
}
DICE: dict[str, RGB] = {
    "green": (56, 150, 72),
    "gray": (130, 130, 136),
    "blue": (48, 110, 200),
    "red": (200, 56, 44),
    "yellow": (232, 190, 40),
}
SEATS: tuple[RGB, ...] = ((240, 80, 80), (80, 160, 250), (250, 220, 80), (190, 110, 230))
CARD_COLOURS: dict[str, RGB] = {
    "red": (150, 40, 36),
    "blue": (36, 76, 150),
    "green": (40, 110, 56),
    "corporation": (90, 70, 60),
    "bonus": (104, 64, 128),
}
TEXT = Palette.TEXT
MUTED = Palette.TEXT_MUTED


def hex_centre(q: int, r: int) -> tuple[float, float]:
    x = MAP_CENTRE[0] + HEX * math.sqrt(3) * (q + r / 2)
    y = MAP_CENTRE[1] + HEX * 1.5 * r
    return x, y


def hex_points(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [
        (cx + size * math.cos(math.radians(60 * i - 30)), cy + size * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


def effect_label(effect: str, locale: str = "en") -> str:
    """A short readable label for an effect text (``gain:green`` -> ``+green die``)."""
    kind, _, arg = effect.partition(":")
    if kind in ("gain", "set", "attack"):
        return t(f"tm-dice.render.effect.{kind}", locale, colour=t(f"tm-dice.render.colour.{arg}", locale))
    if kind == "face":
        return t("tm-dice.render.effect.face", locale, face=t(f"tm-dice.render.face.{arg}", locale))
    if kind == "special":
        return t("tm-dice.render.effect.special", locale, tile=t(f"tm-dice.render.tile.{arg}", locale))
    if kind in ("vp", "wild", "draw"):
        return t(f"tm-dice.render.effect.{kind}", locale, n=int(arg))
    if kind in ("turn", "temperature", "oxygen"):
        return t(f"tm-dice.render.effect.{kind}", locale)
    if kind in ("ocean", "greenery", "city"):
        return t(f"tm-dice.render.tile.{kind}", locale)
    return kind


def effect_labels(effects: Sequence[str], locale: str) -> str:
    return t("tm-dice.render.list-separator", locale).join(effect_label(e, locale) for e in effects)


# The kinds of step the player to act may be at: the header names each in words
# (``tm-dice.render.step.<kind>``).
STEP_WORDS = (
    "turn",
    "keep",
    "discard",
    "support",
    "main",
    "drop",
    "finish",
    "bonus",
    "gift",
    "effects",
    "pay",
    "pick-colour",
    "pick-face",
    "turn-die",
    "lose",
    "place",
)
# What a track's bonus space gives, written under its value.
BONUS_INK = (255, 214, 120)


# Where a line may break: after a space, or after Chinese punctuation (Chinese has no spaces, and
# render.common.wrap breaks only at spaces).
PHRASE = re.compile(r"[^ 、，：；]+[ 、，：；]*|[ 、，：；]+")


def phrase_lines(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> list[str]:
    """``text`` broken into lines of at most ``max_width`` at spaces and at Chinese punctuation, as many as it
    takes (a phrase wider than ``max_width`` stays whole on its line)."""
    lines: list[str] = []
    current = ""
    for piece in PHRASE.findall(text):
        if current.strip() and fnt.getlength((current + piece).rstrip()) > max_width:
            lines.append(current)
            current = piece
        else:
            current += piece
    if current.strip():
        lines.append(current)
    return [line.strip() for line in lines]


def wrap_phrases(text: str, fnt: ImageFont.FreeTypeFont, max_width: float, max_lines: int = 3) -> list[str]:
    """Break ``text`` into lines that fit ``max_width`` at spaces and at Chinese punctuation; the
    last line is cut if more remain."""
    lines = phrase_lines(text, fnt, max_width)
    if len(lines) > max_lines:
        lines = lines[: max_lines - 1] + [" ".join(lines[max_lines - 1 :])]
    return [ellipsize(line, fnt, max_width) for line in lines]


def face_word(face: str, locale: str) -> str:
    """A die face in full (``titanium``), for sentences."""
    return t(f"tm-dice.render.face.{face}", locale)


def die_label(face: str, locale: str) -> str:
    """A die face shortened to stay legible on a phone (``titan``), for the dice themselves."""
    return t(f"tm-dice.render.die.{face}", locale)


def colour_words(colours: Sequence[str], locale: str) -> str:
    return " ".join(t(f"tm-dice.render.colour.{c}", locale) for c in colours)


def draw_die(
    draw: ImageDraw.ImageDraw, x: float, y: float, face: str, locale: str, size: int = DIE, height: int | None = None
) -> None:
    """A die showing its face's word, ``size`` wide and ``height`` (``size`` unless given) tall."""
    colour = DICE[CONTENT.face_colour[face]]
    h = size if height is None else height
    draw.rounded_rectangle((x, y, x + size, y + h), radius=7, fill=colour, outline=shade(colour, 0.55), width=2)
    ink = Palette.TEXT_DARK if CONTENT.face_colour[face] == "yellow" else TEXT
    label = die_label(face, locale)
    draw_centred(
        draw, (x + 1, y, x + size - 1, y + h), label, 17 if len(label) < 4 else 14, ink, bold=True, min_size=10
    )


# --- the board --------------------------------------------------------------------------------
def seat_badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, r: int) -> None:
    """A seat's number on its colour: a tile's owner and a player's panel carry the same, so the owner
    reads without telling the seat colours apart."""
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), fill=SEATS[seat], outline=(30, 14, 10), width=2)
    put_text(draw, (x, y), str(seat + 1), font=font(round(r * 1.3), True), fill=(30, 14, 10), anchor="mm")


def draw_map(draw: ImageDraw.ImageDraw, public: Mapping[str, Any], locale: str) -> None:
    tiles = {t["hex"]: t for t in public["tiles"]}
    for label, h in HEXES.items():
        cx, cy = hex_centre(h["q"], h["r"])
        draw.polygon(hex_points(cx, cy, HEX - 2), fill=AREA[h["area"]], outline=(60, 30, 20))
        tile = tiles.get(label)
        if tile is not None:
            draw.polygon(hex_points(cx, cy, HEX - 9), fill=TILE[tile["tile"]])
            if tile["owner"] is not None:
                draw.polygon(hex_points(cx, cy, HEX - 9), outline=SEATS[tile["owner"]], width=5)
                seat_badge(draw, (cx, cy + 36), tile["owner"], 10)
            word = t(f"tm-dice.render.tile.{tile['tile']}", locale)
            draw_centred(draw, (cx - 32, cy + 4, cx + 32, cy + 26), word, 14, TEXT, bold=True, min_size=10)
        else:
            bonus = effect_labels(h["bonus"], locale)
            if bonus:  # shrunk, on two lines if need be, never cut
                lines, bf, _ = fitted_lines(bonus, 76, 2, 13, min_size=8)
                for i, line in enumerate(lines):
                    y = cy + 14 + (i - (len(lines) - 1) / 2) * (bf.size + 1)
                    put_text(draw, (cx, y), line, font=bf, fill=TEXT, anchor="mm")
            if h["area"] in ("lava", "mine"):
                word = t(f"tm-dice.render.tile.{h['area']}", locale)
                draw_centred(draw, (cx - 38, cy + 4, cx + 38, cy + 24), word, 14, TEXT, bold=True, min_size=10)
        draw_centred(draw, (cx - 30, cy - 26, cx + 30, cy + 2), label.upper(), 20, TEXT, bold=True)


def draw_track(
    image: Image.Image, x: float, name: str, info: Mapping[str, Any], shown: Sequence[str], locale: str
) -> None:
    draw = ImageDraw.Draw(image)
    steps = info["steps"]
    cell = (TRACK_Y1 - TRACK_Y0) / (steps + 1)
    draw_centred(draw, (x - 5, TRACK_Y0 - 60, x + TRACK_W + 5, TRACK_Y0 - 36), name, 18, TEXT, bold=True)
    colour = Palette.GOOD if info["complete"] else Palette.ACCENT
    draw_centred(draw, (x - 5, TRACK_Y0 - 34, x + TRACK_W + 5, TRACK_Y0 - 6), info["now"], 22, colour, bold=True)
    bonuses = {b["at"]: b["effects"] for b in info["bonuses"]}
    for i in range(steps + 1):
        y1 = TRACK_Y1 - i * cell
        y0 = y1 - cell + 3
        reached = i <= info["position"]
        fill = (200, 90, 40) if reached else (60, 34, 26)
        draw.rounded_rectangle((x, y0, x + TRACK_W, y1), radius=5, fill=fill, outline=PANEL_EDGE)
        bold = i == info["position"]
        if i in bonuses:
            # The space's value above, what reaching it gives below.
            mid = (y0 + y1) / 2
            draw_centred(draw, (x + 2, y0 + 2, x + TRACK_W - 2, mid + 2), shown[i], 15, TEXT, bold=bold, min_size=9)
            gift = effect_labels(bonuses[i], locale)
            lines, gf, _ = fitted_lines(gift, TRACK_W - 6, 2, 12, True, 8)
            for k, line in enumerate(lines):
                gy = (mid + y1 - 4) / 2 + (k - (len(lines) - 1) / 2) * (gf.size + 1)
                put_text(draw, (x + TRACK_W / 2, gy), line, font=gf, fill=BONUS_INK, anchor="mm")
        else:
            draw_centred(draw, (x + 2, y0, x + TRACK_W - 2, y1), shown[i], 15, TEXT, bold=bold, min_size=9)


def track_labels(public: Mapping[str, Any], locale: str = "en") -> dict[str, tuple[str, list[str]]]:
    """Each track's title and the value written on each of its spaces."""
    out = {}
    for p, unit, step in (("temperature", "°C", 4), ("oxygen", "%", 1), ("oceans", "", 1)):
        info = public["parameters"][p]
        base = info["value"] - info["position"] * step
        out[p] = (
            t(f"tm-dice.render.track.{p}", locale),
            [f"{base + i * step}{unit}" for i in range(info["steps"] + 1)],
        )
    return out


def draw_tracks(image: Image.Image, public: Mapping[str, Any], locale: str) -> None:
    labels = track_labels(public, locale)
    for i, p in enumerate(("temperature", "oxygen", "oceans")):
        info = dict(public["parameters"][p])
        title, shown = labels[p]
        info["now"] = shown[info["position"]] if p != "oceans" else f"{info['position']}/{info['steps']}"
        draw_track(image, TRACK_X0 + i * (TRACK_W + 14), title, info, shown, locale)


def header_text(public: Mapping[str, Any], names: Sequence[str], locale: str) -> str:
    """Whose turn and what they do (or the corporations being chosen, or the end), with the last turn."""
    step = public.get("step")
    if public["result"] is not None:
        text = t("tm-dice.render.game-over", locale)
    elif public["stage"] == "corp":
        text = t("tm-dice.render.choosing-corporations", locale)
    else:
        who = seat_name(names, step["seat"], locale=locale) if step else "?"
        turn = f"{public['turn']}/{public['end_at']}" if public["solo"] else str(public["turn"])
        doing = t(f"tm-dice.render.step.{step['kind']}", locale) if step and step["kind"] in STEP_WORDS else ""
        text = t("tm-dice.render.turn", locale, turn=turn, name=who, doing=doing)
    last = public.get("end_at")
    if last is not None and not (public["solo"] and public["result"] is None):
        text += "  ·  " + t("tm-dice.render.last-turn", locale, turn=last)
    return text


def draw_header(draw: ImageDraw.ImageDraw, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    """``header_text`` over the map (the board drawn without its band of key lines)."""
    shown, fnt = fitted(header_text(public, names, locale), 900, 30, bold=True)
    put_text(draw, (24, 34), shown, font=fnt, fill=TEXT, anchor="lm")


def phone_keys(public: Mapping[str, Any], names: Sequence[str], locale: str) -> list[Key]:
    """The board's key lines, read inline on a phone: whose turn, the points, the global parameters."""
    result = public.get("result")
    points = result["scores"] if result is not None else [p["vp"] for p in public["seats"]]
    items = [f"{seat_name(names, s, locale=locale)} {v}" for s, v in enumerate(points)]
    key = "tm-dice.render.final" if result is not None else "tm-dice.render.key.scores"
    scores = [t(key, locale, scores=items[0]), *items[1:]]
    labels = track_labels(public, locale)
    tracks = []
    for p in ("temperature", "oxygen", "oceans"):
        info = public["parameters"][p]
        title, shown = labels[p]
        now = shown[info["position"]] if p != "oceans" else f"{info['position']}/{info['steps']}"
        tracks.append(f"{title} {now}")
    return [
        Key("turn", [header_text(public, names, locale)], Palette.ACCENT),
        *dice_key(public, names, locale),
        Key("scores", scores, TEXT),
        Key("change", tracks, TEXT),
    ]


def dice_key(public: Mapping[str, Any], names: Sequence[str], locale: str) -> list[Key]:
    """The dice the player to move holds, what their choice is made with (on the board they are 3 px words)."""
    step = public.get("step")
    if public.get("result") is not None or public.get("stage") == "corp" or not step:
        return []
    seat = step.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(public["seats"]):
        return []
    held = public["seats"][seat].get("dice") or {}
    words = [face_word(face, locale) + (f" ×{n}" if n > 1 else "") for face, n in sorted(held.items()) if n > 0]
    if not words:
        return []
    # One item a face (the band breaks between items, never inside "water ×2"), the first in the sentence.
    who = seat_name(names, seat, locale=locale)
    return [Key("turn", [t("tm-dice.render.key.dice", locale, name=who, dice=words[0]), *words[1:]], Palette.ACCENT)]


def draw_goals(image: Image.Image, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    draw = ImageDraw.Draw(image)
    box = (RIGHT_X0, 12, RIGHT_X1, 150)
    shadowed_box(image, box, 14, PANEL, PANEL_EDGE)
    shown, fnt = fitted(t("tm-dice.render.awards", locale), 90, 20, True)
    put_text(draw, (RIGHT_X0 + 14, 34), shown, font=fnt, fill=MUTED, anchor="lm")
    solo = CONTENT.solo if public["solo"] else None
    for i, a in enumerate(public["awards"]):
        draw_die(draw, RIGHT_X0 + 110 + i * 64, 16, a["face"], locale, 44)
        if solo is not None:  # solo: the count that wins the award
            need = f"{solo['award_thresholds'][a['rarity']]}+"
            draw_centred(draw, (RIGHT_X0 + 106 + i * 64, 60, RIGHT_X0 + 158 + i * 64, 74), need, 13, MUTED)
    info = t(
        "tm-dice.render.supply",
        locale,
        count=sum(public["pool"].values()),
        wild=public["wild_supply"],
        deck=public["deck"],
    )
    shown, fnt = fitted(info, RIGHT_X1 - 14 - (RIGHT_X0 + 310), 16)
    put_text(draw, (RIGHT_X0 + 310, 38), shown, font=fnt, fill=MUTED, anchor="lm")
    shown, fnt = fitted(t("tm-dice.render.milestones", locale), RIGHT_X1 - RIGHT_X0 - 28, 20, True)
    put_text(draw, (RIGHT_X0 + 14, 88), shown, font=fnt, fill=MUTED, anchor="lm")
    for i, m in enumerate(public["milestones"]):
        x0 = RIGHT_X0 + 14 + i * 208
        if m["removed"]:
            status = t("tm-dice.render.removed", locale)
        elif m["owner"] is not None:
            status = seat_name(names, m["owner"], locale=locale)
        elif solo is not None:  # solo: removed after its turn unless claimed
            status = t("tm-dice.render.open-until", locale, turn=solo["milestone_removal"][i])
        else:
            status = t("tm-dice.render.open", locale)
        colour = SEATS[m["owner"]] if m["owner"] is not None else MUTED
        name = content_name(GAME_ID, "milestone", m["id"], m["name"], locale)
        goal = t(f"tm-dice.render.milestone.{m['kind']}", locale, n=m["n"])
        text = aside(name, goal, locale)
        shown, fnt = fitted(text, 200, 16, bold=True)
        put_text(draw, (x0, 112), shown, font=fnt, fill=TEXT, anchor="lm")
        shown, fnt = fitted(status, 200, 15)
        put_text(draw, (x0, 136), shown, font=fnt, fill=colour, anchor="lm")


def card_name(card_id: str, locale: str = "en") -> str:
    cards = CONTENT.cards
    return content_name(GAME_ID, "card", card_id, cards[card_id]["name"], locale) if card_id in cards else card_id


def draw_player(
    image: Image.Image,
    box: tuple[float, float, float, float],
    seat: int,
    p: Mapping,
    names: Sequence[str],
    award_faces: Sequence[str],
    locale: str,
) -> None:
    """A seat's panel: corporation, VP, wild tokens, production, dice, award counts, played cards."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    shadowed_box(image, box, 14, PANEL, SEATS[seat], width=3)
    if p["corporation"]:
        corp = content_name(GAME_ID, "corporation", p["corporation"]["id"], p["corporation"]["name"], locale)
    else:
        corp = t("tm-dice.render.chosen" if p["chosen"] else "tm-dice.render.choosing", locale)
    vp, vp_font = fitted(t("tm-dice.render.vp", locale, points=p["vp"]), 170, 26, bold=True)
    put_text(draw, (x1 - 14, y0 + 20), vp, font=vp_font, fill=Palette.ACCENT, anchor="rm")
    head = f"{seat_name(names, seat, locale=locale)} · {corp}"
    seat_badge(draw, (x0 + 28, y0 + 20), seat, 13)
    shown, fnt = fitted(head, x1 - x0 - 74 - vp_font.getlength(vp), 22, bold=True)
    put_text(draw, (x0 + 48, y0 + 20), shown, font=fnt, fill=TEXT, anchor="lm")
    prod = colour_words(p["production"], locale) or "-"
    stats = t("tm-dice.render.stats", locale, wild=p["wild"], hand=p["hand"], production=prod)
    width = x1 - x0 - 28
    # One line, shrinking to 12 px; then two lines (a long production list), never cut.
    found = whole_lines(stats, width, 1, 16, min_size=12) or whole_lines(stats, width, 2, 15, min_size=10)
    stats_lines, stats_font = found or (wrap(stats, font(10), width, 3), font(10))
    step = stats_font.size + 3
    for i, line in enumerate(stats_lines):
        put_text(draw, (x0 + 14, y0 + 46 + i * step), line, font=stats_font, fill=MUTED, anchor="lm")
    dice_top = y0 + 60 + (len(stats_lines) - 1) * step
    held = [face for face, n in sorted(p["dice"].items()) for _ in range(n)]
    text = played_text(p, award_faces, locale)
    # The played cards take what is left under the dice, at the largest size that shows them whole; the dice
    # are drawn smaller first when the list needs their room.
    dice = (DIE, 40, 30) if y1 - y0 > 150 else (40, 30)
    for die in dice if held else (0,):
        top = dice_top + (die + 4 if die else 0)
        laid = played_lines(text, width, y1 - 6 - top)
        if laid is not None:
            break
    x = x0 + 14
    wide = max(die, 40)  # a die flattened for room keeps the width its word needs
    for face in held:
        if x + wide > x1 - 10:
            break
        draw_die(draw, x, dice_top, face, locale, wide, die)
        x += wide + 4
    if laid is None:  # more than the panel holds even at the smallest size: the last line ends cut
        fnt = font(PLAYED_SIZES[-1])
        lines = wrap_phrases(text, fnt, width, max_lines=max(1, int((y1 - 6 - top) // (fnt.size + 3))))
    else:
        lines, fnt = laid
    line_step = fnt.size + 3
    for i, line in enumerate(lines):
        put_text(draw, (x0 + 14, top + line_step / 2 + i * line_step), line, font=fnt, fill=TEXT, anchor="lm")


# The played cards' line shrinks from the first size to the last before any of it is cut.
PLAYED_SIZES = (15, 14, 13, 12, 11, 10)


def played_text(p: Mapping[str, Any], award_faces: Sequence[str], locale: str) -> str:
    """What a player has played: award counts, red and green cards counted, blue cards (used or not), bonuses."""
    sep = t("tm-dice.render.list-separator", locale)
    awards = sep.join(f"{die_label(f, locale)} {n}" for f, n in zip(award_faces, p["award_counts"], strict=True))
    played = [
        t("tm-dice.render.red-count", locale, n=len(p["red"])),
        t("tm-dice.render.green-count", locale, n=len(p["green"])),
    ]
    if awards:
        played.insert(0, t("tm-dice.render.played-awards", locale, awards=awards))
    blues = [
        t("tm-dice.render.used", locale, card=card_name(c, locale)) if c in p["used"] else card_name(c, locale)
        for c in p["blue"]
    ]
    if blues:
        played.append(t("tm-dice.render.blue", locale, cards=sep.join(blues)))
    bonus = [content_name(GAME_ID, "bonus", b["id"], b["name"], locale) for b in p["bonus"]]
    if bonus:
        played.append(t("tm-dice.render.bonus", locale, cards=sep.join(bonus)))
    return " · ".join(played)


def played_lines(text: str, width: float, height: float) -> tuple[list[str], ImageFont.FreeTypeFont] | None:
    """``text`` in whole lines of ``width`` at the largest of ``PLAYED_SIZES`` whose lines fit ``height``."""
    for size in PLAYED_SIZES:
        fnt = font(size)
        lines = phrase_lines(text, fnt, width)
        if len(lines) * (size + 3) <= height and all(fnt.getlength(line) <= width for line in lines):
            return lines, fnt
    return None


def board(public: TMDicePublic, names: Sequence[str], *, locale: str = "en", phone: bool = True) -> Image.Image:
    """The map, tracks, goals and players; with ``phone`` under the band of key lines (``render.phone``),
    which then says whose turn it is instead of the map's title line (the guide's pictures keep that)."""
    image = gradient((W, H), SKY_TOP, SKY_BOTTOM)
    draw = ImageDraw.Draw(image)
    if not phone:
        draw_header(draw, public, names, locale)
    draw_map(draw, public, locale)
    draw_tracks(image, public, locale)
    draw_goals(image, public, names, locale)
    seats = public["seats"]
    top, gap = 162, 8
    height = (H - 10 - top - gap * (len(seats) - 1)) / len(seats)
    for seat, p in enumerate(seats):
        y0 = top + seat * (height + gap)
        faces = [a["face"] for a in public["awards"]]
        draw_player(image, (RIGHT_X0, y0, RIGHT_X1, y0 + height), seat, p, names, faces, locale)
    if not phone:
        return image
    return with_band(image, phone_keys(public, names, locale), background=shade(SKY_TOP, 0.7), edge=Palette.ACCENT)


# --- the hand ---------------------------------------------------------------------------------
def card_lines(card: Mapping[str, Any], locale: str = "en") -> list[str]:
    """What a project or bonus card does, a line per part."""
    lines = []
    if card.get("effects"):
        lines.append(t("tm-dice.render.when-played", locale, effects=effect_labels(card["effects"], locale)))
    if "action" in card:
        a = card["action"]
        cost = " ".join(face_word(f, locale) for f in a["cost"]) or t("tm-dice.render.nothing", locale)
        lines.append(
            t(f"tm-dice.render.action.{a['type']}", locale, cost=cost, effects=effect_labels(a["effects"], locale))
        )
    if "production" in card:
        lines.append(t("tm-dice.render.produces", locale, dice=colour_words(card["production"], locale)))
    for p in card.get("passive", []):
        kind, _, n = p.partition(":")
        lines.append(t("tm-dice.render.keep-more" if kind == "keep" else "tm-dice.render.per-green", locale, n=int(n)))
    if card.get("vp"):
        lines.append(t("tm-dice.render.vp-now", locale, n=card["vp"]))
    if card.get("end_vp"):
        lines.append(t("tm-dice.render.vp-end", locale, n=card["end_vp"]))
    return lines


def draw_card(image: Image.Image, x: float, y: float, card: Mapping[str, Any], kind: str, locale: str) -> None:
    draw = ImageDraw.Draw(image)
    colour = CARD_COLOURS[kind]
    shadowed_box(image, (x, y, x + CARD_W, y + CARD_H), 14, colour, shade(colour, 1.6), width=3)
    # Project cards' names are kept under the kind "card"; corporations and bonus cards under theirs.
    name = content_name(GAME_ID, kind if kind in ("corporation", "bonus") else "card", card["id"], card["name"], locale)
    shown, fnt = fitted(name, CARD_W - 24, 22, bold=True)
    put_text(draw, (x + 12, y + 22), shown, font=fnt, fill=TEXT, anchor="lm")
    shown, fnt = fitted(f"{t(f'tm-dice.render.kind.{kind}', locale)} · {card['id']}", CARD_W - 24, 14)
    put_text(draw, (x + 12, y + 46), shown, font=fnt, fill=MUTED, anchor="lm")
    cx = x + 12
    for face in card.get("cost", []):
        draw_die(draw, cx, y + 60, face, locale, 42)
        cx += 46
    lines = (
        card_lines(card, locale)
        if kind != "corporation"
        else [
            t("tm-dice.render.start", locale, effects=effect_labels(card["start"], locale)),
            t("tm-dice.render.produces", locale, dice=colour_words(card["production"], locale)),
        ]
    )
    text_y = y + 118
    for line in lines:
        for part in wrap_phrases(line, font(16), CARD_W - 24, max_lines=3):
            if text_y > y + CARD_H - 14:
                break
            put_text(draw, (x + 12, text_y), part, font=font(16), fill=TEXT, anchor="lm")
            text_y += 20


def hand(
    public: TMDicePublic, private: TMDicePrivate, names: Sequence[str], seat: int, *, locale: str = "en"
) -> Image.Image:
    items: list[tuple[Mapping, str]] = [(c, "corporation") for c in private.get("corporations", [])]
    items += [(b, "bonus") for b in private.get("bonus_choice", [])]
    items += [(c, c["colour"]) for c in private.get("hand", [])]
    per_row = (HAND_W - 40) // (CARD_W + 12)
    rows = min(HAND_ROWS, max(1, -(-len(items) // per_row)))
    image = gradient((HAND_W, 76 + rows * (CARD_H + 12)), SKY_TOP, SKY_BOTTOM)
    draw = ImageDraw.Draw(image)
    asked = []
    if private.get("corporations"):
        asked.append(t("tm-dice.render.choose-corporation", locale))
    if private.get("bonus_choice"):
        asked.append(t("tm-dice.render.choose-bonus", locale))
    hidden = len(items) - per_row * rows
    more_w = 0.0
    if hidden > 0:
        more, more_font = fitted(t("tm-dice.render.more", locale, n=hidden), 260, 24, True)
        put_text(draw, (HAND_W - 24, 30), more, font=more_font, fill=Palette.ACCENT, anchor="rm")
        more_w = more_font.getlength(more) + 24
    heading = t(
        "tm-dice.render.hand-title", locale, name=seat_name(names, seat, locale=locale), n=len(private.get("hand", []))
    )
    title, fnt = fitted(" · ".join([heading, *asked]), HAND_W - 48 - more_w, 30, True)
    put_text(draw, (24, 30), title, font=fnt, fill=TEXT, anchor="lm")
    for i, (card, kind) in enumerate(items[: per_row * rows]):
        col, row = i % per_row, i // per_row
        draw_card(image, 20 + col * (CARD_W + 12), 64 + row * (CARD_H + 12), card, kind, locale)
    return image


RENDERER = GameRenderer(GAME_ID, board=board, hand=hand, board_budget=BOARD_BUDGET, hand_budget=HAND_BUDGET)
