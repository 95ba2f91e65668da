"""Terraforming Mars: The Dice Game: the map, tracks and players, drawn from ``view(seat)``.

The board: on the left the 37-hex map (every area labelled as in the action texts, ocean and
special areas coloured, printed bonuses, tiles with their owner's colour); beside it the three
tracks (temperature, oxygen, oceans) with their bonus spaces; on the right the award faces,
the milestones, then one panel per player (corporation, VP, wild tokens, production dice, the
dice held with their faces written, played cards and used blue cards). The hand: the seat's
project cards with cost, colour, effects and VP, and the corporations or bonus cards being
chosen.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.tm_dice.content import CARDS, FACE_COLOUR, HEXES, RULES
from render.common import (
    RGB,
    GameRenderer,
    Palette,
    draw_centred,
    fitted,
    font,
    seat_name,
    shade,
    shadowed_box,
    vertical_gradient,
    wrap,
)

GAME_ID = "tm-dice"
BOARD_BUDGET = 700_000
HAND_BUDGET = 400_000

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
# The second line of a card: what kind of card it is.
CARD_KIND = {"corporation": "corporation: keep one", "bonus": "bonus card: play one"}
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


def effect_label(effect: str) -> str:
    """A short readable label for an effect text (``gain:green`` -> ``+green die``)."""
    kind, _, arg = effect.partition(":")
    labels = {
        "gain": f"+{arg} die",
        "set": f"+{arg} die, any face",
        "face": f"+1 {arg}",
        "attack": f"others lose {arg}",
        "special": f"{arg} tile",
        "vp": f"{arg} VP",
        "wild": f"{arg} wild",
        "draw": f"draw {arg}",
    }
    if kind in labels:
        return labels[kind]
    return {"turn": "turn a die", "temperature": "+temp", "oxygen": "+O2"}.get(kind, kind)


# What each kind of milestone asks for, in a few words.
MILESTONE_GOAL = {
    "cities": "{n} cities",
    "greeneries": "{n} greeneries",
    "blue-cards": "{n} blue cards",
    "green-cards": "{n} green cards",
    "red-cards": "{n} red cards",
    "production": "{n} production dice",
    "colours-held": "dice of {n} colours",
    "vp": "{n} VP",
}
# What the player to act is doing, in the header.
STEP_WORDS = {
    "turn": "production or action turn",
    "keep": "keeping dice",
    "discard": "discarding cards",
    "support": "support action",
    "main": "main action",
    "drop": "discarding a die",
    "finish": "free actions",
    "bonus": "choosing a bonus card",
    "gift": "the starting gift",
    "effects": "resolving effects",
    "pay": "paying",
    "pick-colour": "choosing a die",
    "pick-face": "choosing a die",
    "turn-die": "turning a die",
    "lose": "losing a die",
    "place": "placing a tile",
}
# What a track's bonus space gives, written under its value.
BONUS_INK = (255, 214, 120)

# Die faces are written, shortened to stay legible on a phone.
SHORT = {"microbe": "micro", "animal": "anim", "titanium": "titan", "energy": "enrgy", "science": "sci", "money": "$"}


def draw_die(draw: ImageDraw.ImageDraw, x: float, y: float, face: str, size: int = DIE) -> None:
    colour = DICE[FACE_COLOUR[face]]
    draw.rounded_rectangle((x, y, x + size, y + size), radius=7, fill=colour, outline=shade(colour, 0.55), width=2)
    ink = Palette.TEXT_DARK if FACE_COLOUR[face] == "yellow" else TEXT
    label = SHORT.get(face, face)
    draw_centred(
        draw, (x + 2, y, x + size - 2, y + size), label, 17 if len(label) < 4 else 14, ink, bold=True, min_size=10
    )


# --- the board --------------------------------------------------------------------------------
def draw_map(draw: ImageDraw.ImageDraw, public: Mapping[str, Any]) -> None:
    tiles = {t["hex"]: t for t in public["tiles"]}
    for label, h in HEXES.items():
        cx, cy = hex_centre(h["q"], h["r"])
        draw.polygon(hex_points(cx, cy, HEX - 2), fill=AREA[h["area"]], outline=(60, 30, 20))
        tile = tiles.get(label)
        if tile is not None:
            draw.polygon(hex_points(cx, cy, HEX - 9), fill=TILE[tile["tile"]])
            if tile["owner"] is not None:
                draw.polygon(hex_points(cx, cy, HEX - 9), outline=SEATS[tile["owner"]], width=5)
            draw_centred(draw, (cx - 32, cy + 4, cx + 32, cy + 26), tile["tile"], 14, TEXT, bold=True, min_size=10)
        else:
            bonus = ", ".join(effect_label(e) for e in h["bonus"])
            if bonus:
                draw_centred(draw, (cx - 38, cy + 4, cx + 38, cy + 24), bonus, 13, TEXT, min_size=9)
            if h["area"] in ("lava", "mine"):
                draw_centred(draw, (cx - 38, cy + 4, cx + 38, cy + 24), h["area"], 14, TEXT, bold=True)
        draw_centred(draw, (cx - 30, cy - 26, cx + 30, cy + 2), label.upper(), 20, TEXT, bold=True)


def draw_track(image: Image.Image, x: float, name: str, info: Mapping[str, Any], shown: Sequence[str]) -> None:
    draw = ImageDraw.Draw(image)
    steps = info["steps"]
    cell = (TRACK_Y1 - TRACK_Y0) / (steps + 1)
    draw_centred(draw, (x - 10, TRACK_Y0 - 60, x + TRACK_W + 10, TRACK_Y0 - 36), name, 18, TEXT, bold=True)
    colour = Palette.GOOD if info["complete"] else Palette.ACCENT
    draw_centred(draw, (x - 10, TRACK_Y0 - 34, x + TRACK_W + 10, TRACK_Y0 - 6), info["now"], 22, colour, bold=True)
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
            gift = ", ".join(effect_label(e) for e in bonuses[i])
            draw_centred(draw, (x + 2, mid, x + TRACK_W - 2, y1 - 4), gift, 12, BONUS_INK, bold=True, min_size=8)
        else:
            draw_centred(draw, (x + 2, y0, x + TRACK_W - 2, y1), shown[i], 15, TEXT, bold=bold, min_size=9)


def track_labels(public: Mapping[str, Any]) -> dict[str, tuple[str, list[str]]]:
    """Each track's title and the value written on each of its spaces."""
    out = {}
    for p, title, unit, step in (
        ("temperature", "Temp", "°C", 4),
        ("oxygen", "Oxygen", "%", 1),
        ("oceans", "Oceans", "", 1),
    ):
        info = public["parameters"][p]
        base = info["value"] - info["position"] * step
        out[p] = (title, [f"{base + i * step}{unit}" for i in range(info["steps"] + 1)])
    return out


def draw_tracks(image: Image.Image, public: Mapping[str, Any]) -> None:
    labels = track_labels(public)
    for i, p in enumerate(("temperature", "oxygen", "oceans")):
        info = dict(public["parameters"][p])
        title, shown = labels[p]
        info["now"] = shown[info["position"]] if p != "oceans" else f"{info['position']}/{info['steps']}"
        draw_track(image, TRACK_X0 + i * (TRACK_W + 14), title, info, shown)


def draw_header(draw: ImageDraw.ImageDraw, public: Mapping[str, Any], names: Sequence[str]) -> None:
    step = public.get("step")
    if public["result"] is not None:
        text = "Game over"
    elif public["stage"] == "corp":
        text = "Choosing corporations"
    else:
        who = seat_name(names, step["seat"]) if step else "?"
        turn = f"{public['turn']}/{public['end_at']}" if public["solo"] else str(public["turn"])
        doing = STEP_WORDS.get(step["kind"], step["kind"]) if step else ""
        text = f"Turn {turn}: {who}, {doing}"
    last = public.get("end_at")
    if last is not None and not (public["solo"] and public["result"] is None):
        text += f"  ·  last turn {last}"
    shown, fnt = fitted(text, 900, 30, bold=True)
    draw.text((24, 34), shown, font=fnt, fill=TEXT, anchor="lm")


def draw_goals(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
    draw = ImageDraw.Draw(image)
    box = (RIGHT_X0, 12, RIGHT_X1, 150)
    shadowed_box(image, box, 14, PANEL, PANEL_EDGE)
    draw.text((RIGHT_X0 + 14, 34), "Awards", font=font(20, True), fill=MUTED, anchor="lm")
    solo = RULES["solo"] if public["solo"] else None
    for i, a in enumerate(public["awards"]):
        draw_die(draw, RIGHT_X0 + 110 + i * 64, 16, a["face"], 44)
        if solo is not None:  # solo: the count that wins the award
            need = f"{solo['award_thresholds'][a['rarity']]}+"
            draw_centred(draw, (RIGHT_X0 + 106 + i * 64, 60, RIGHT_X0 + 158 + i * 64, 74), need, 13, MUTED)
    info = f"pool {sum(public['pool'].values())} dice · wild {public['wild_supply']} · deck {public['deck']}"
    draw.text((RIGHT_X0 + 330, 38), info, font=font(16), fill=MUTED, anchor="lm")
    draw.text((RIGHT_X0 + 14, 88), "Milestones", font=font(20, True), fill=MUTED, anchor="lm")
    for i, m in enumerate(public["milestones"]):
        x0 = RIGHT_X0 + 14 + i * 208
        status = "removed" if m["removed"] else seat_name(names, m["owner"]) if m["owner"] is not None else "open"
        if status == "open" and solo is not None:  # solo: removed after its turn unless claimed
            status = f"open until turn {solo['milestone_removal'][i]}"
        colour = SEATS[m["owner"]] if m["owner"] is not None else MUTED
        text = f"{m['name']} ({MILESTONE_GOAL[m['kind']].format(n=m['n'])})"
        shown, fnt = fitted(text, 200, 16, bold=True)
        draw.text((x0, 112), shown, font=fnt, fill=TEXT, anchor="lm")
        draw.text((x0, 136), status, font=font(15), fill=colour, anchor="lm")


def card_name(card_id: str) -> str:
    return CARDS[card_id].name if card_id in CARDS else card_id


def draw_player(
    image: Image.Image, box: tuple[float, float, float, float], seat: int, p: Mapping, names, award_faces: Sequence[str]
) -> None:
    """A seat's panel: corporation, VP, wild tokens, production, dice, award counts, played cards."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    shadowed_box(image, box, 14, PANEL, SEATS[seat], width=3)
    corp = p["corporation"]["name"] if p["corporation"] else ("chosen" if p["chosen"] else "choosing…")
    head = f"{seat_name(names, seat)} · {corp}"
    shown, fnt = fitted(head, x1 - x0 - 200, 22, bold=True)
    draw.text((x0 + 14, y0 + 20), shown, font=fnt, fill=TEXT, anchor="lm")
    draw.text((x1 - 14, y0 + 20), f"{p['vp']} VP", font=font(26, True), fill=Palette.ACCENT, anchor="rm")
    prod = " ".join(p["production"]) or "-"
    line = f"wild {p['wild']} · hand {p['hand']} · production: {prod}"
    shown, fnt = fitted(line, x1 - x0 - 28, 16)
    draw.text((x0 + 14, y0 + 46), shown, font=fnt, fill=MUTED, anchor="lm")
    room = y1 - y0
    die = DIE if room > 150 else 40
    x = x0 + 14
    for face, n in sorted(p["dice"].items()):
        for _ in range(n):
            if x + die > x1 - 10:
                break
            draw_die(draw, x, y0 + 60, face, die)
            x += die + 4
    awards = ", ".join(f"{SHORT.get(f, f)} {n}" for f, n in zip(award_faces, p["award_counts"], strict=True))
    played = ([f"awards: {awards}"] if awards else []) + [f"{len(p['red'])} red", f"{len(p['green'])} green"]
    blues = [card_name(c) + (" (used)" if c in p["used"] else "") for c in p["blue"]]
    bonus = [b["name"] for b in p["bonus"]]
    text = (
        " · ".join(played)
        + (" · blue: " + ", ".join(blues) if blues else "")
        + (" · bonus: " + ", ".join(bonus) if bonus else "")
    )
    lines = wrap(text, font(15), x1 - x0 - 28, max_lines=max(1, int((room - die - 74) // 18)))
    for i, line in enumerate(lines):
        draw.text((x0 + 14, y0 + 70 + die + i * 18), line, font=font(15), fill=TEXT, anchor="lm")


def board(public: Mapping[str, Any], names: Sequence[str], *, locale: str = "en") -> Image.Image:
    image = vertical_gradient((W, H), SKY_TOP, SKY_BOTTOM).convert("RGB")
    draw = ImageDraw.Draw(image)
    draw_header(draw, public, names)
    draw_map(draw, public)
    draw_tracks(image, public)
    draw_goals(image, public, names)
    seats = public["seats"]
    top, gap = 162, 8
    height = (H - 10 - top - gap * (len(seats) - 1)) / len(seats)
    for seat, p in enumerate(seats):
        y0 = top + seat * (height + gap)
        draw_player(image, (RIGHT_X0, y0, RIGHT_X1, y0 + height), seat, p, names, [a["face"] for a in public["awards"]])
    if public["result"] is not None:
        scores = public["result"]["scores"]
        text = "Final: " + ", ".join(f"{seat_name(names, s)} {v}" for s, v in enumerate(scores))
        shown, fnt = fitted(text, 640, 24, bold=True)
        draw.text((24, H - 24), shown, font=fnt, fill=Palette.ACCENT, anchor="lm")
    return image


# --- the hand ---------------------------------------------------------------------------------
def card_lines(card: Mapping[str, Any]) -> list[str]:
    """What a project or bonus card does, a line per part."""
    lines = []
    if card.get("effects"):
        lines.append("When played: " + ", ".join(effect_label(e) for e in card["effects"]))
    if "action" in card:
        a = card["action"]
        cost = " ".join(a["cost"]) or "nothing"
        lines.append(f"{a['type'].capitalize()} action: {cost} → " + ", ".join(effect_label(e) for e in a["effects"]))
    if "production" in card:
        lines.append("Produces: " + " ".join(card["production"]))
    for p in card.get("passive", []):
        kind, _, n = p.partition(":")
        lines.append(f"Keep {n} more dice" if kind == "keep" else f"{n} VP per green card played")
    if card.get("vp"):
        lines.append(f"{card['vp']} VP when played")
    if card.get("end_vp"):
        lines.append(f"{card['end_vp']} VP at the end")
    return lines


def draw_card(image: Image.Image, x: float, y: float, card: Mapping[str, Any], kind: str) -> None:
    draw = ImageDraw.Draw(image)
    colour = CARD_COLOURS[kind]
    shadowed_box(image, (x, y, x + CARD_W, y + CARD_H), 14, colour, shade(colour, 1.6), width=3)
    shown, fnt = fitted(card["name"], CARD_W - 24, 22, bold=True)
    draw.text((x + 12, y + 22), shown, font=fnt, fill=TEXT, anchor="lm")
    draw.text((x + 12, y + 46), f"{CARD_KIND.get(kind, kind)} · {card['id']}", font=font(14), fill=MUTED, anchor="lm")
    cx = x + 12
    for face in card.get("cost", []):
        draw_die(draw, cx, y + 60, face, 42)
        cx += 46
    lines = (
        card_lines(card)
        if kind != "corporation"
        else [
            "Start: " + ", ".join(effect_label(e) for e in card["start"]),
            "Produces: " + " ".join(card["production"]),
        ]
    )
    text_y = y + 118
    for line in lines:
        for part in wrap(line, font(16), CARD_W - 24, max_lines=3):
            if text_y > y + CARD_H - 14:
                break
            draw.text((x + 12, text_y), part, font=font(16), fill=TEXT, anchor="lm")
            text_y += 20


def hand(
    public: Mapping[str, Any], private: Mapping[str, Any], names: Sequence[str], seat: int, *, locale: str = "en"
) -> Image.Image:
    items: list[tuple[Mapping, str]] = [(c, "corporation") for c in private.get("corporations", [])]
    items += [(b, "bonus") for b in private.get("bonus_choice", [])]
    items += [(c, c["colour"]) for c in private.get("hand", [])]
    per_row = (HAND_W - 40) // (CARD_W + 12)
    rows = min(HAND_ROWS, max(1, -(-len(items) // per_row)))
    image = vertical_gradient((HAND_W, 76 + rows * (CARD_H + 12)), SKY_TOP, SKY_BOTTOM).convert("RGB")
    draw = ImageDraw.Draw(image)
    asked = []
    if private.get("corporations"):
        asked.append("choose a corporation")
    if private.get("bonus_choice"):
        asked.append("choose a bonus card")
    title = " · ".join([f"{seat_name(names, seat)}: {len(private.get('hand', []))} cards in hand", *asked])
    draw.text((24, 30), title, font=font(30, True), fill=TEXT, anchor="lm")
    for i, (card, kind) in enumerate(items[: per_row * rows]):
        col, row = i % per_row, i // per_row
        draw_card(image, 20 + col * (CARD_W + 12), 64 + row * (CARD_H + 12), card, kind)
    hidden = len(items) - per_row * rows
    if hidden > 0:
        draw.text((HAND_W - 24, 30), f"+{hidden} more", font=font(24, True), fill=Palette.ACCENT, anchor="rm")
    return image


RENDERER = GameRenderer(GAME_ID, board=board, hand=hand, board_budget=BOARD_BUDGET, hand_budget=HAND_BUDGET)
