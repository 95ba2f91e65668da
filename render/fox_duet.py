"""The Fox in the Forest Duet: the public board and a seat's hand, drawn from ``view(seat)``.

The shape of the view is in docs/fox-duet-view.md. Suit symbols, gems, paws, forest tokens and
the fox tracker are drawn here with Pillow shapes (painted large and shrunk, then cached).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    RGB,
    Color,
    GameRenderer,
    Palette,
    Shape,
    backdrop,
    circle,
    dashed_slot,
    draw_centred,
    draw_runs,
    fit_runs,
    fitted,
    font,
    paint_shapes,
    panel_title,
    paste_sprite,
    runs_width,
    seat_name,
    shade,
    shadowed_box,
    supersampled,
    wrap,
)

GAME_ID = "fox-duet"
BOARD_BUDGET = 400_000
HAND_BUDGET = 300_000

# --- layout (pixels) --------------------------------------------------------------------------
W, H = 1600, 900
MARGIN = 36
HEADER = (MARGIN, 18, W - MARGIN, 114)

PATH_X0, PATH_X1 = 104, W - 104
GEM_BOX_TOP, GEM_BOX_W, GEM_BOX_H = 146, 112, 94
NODE_Y, NODE_R = 322, 40
TRAIL_W = 26
TRACKER_SIZE = 116
FOREST_TOKEN_SIZE = 100
DIST_Y = 406
END_LABEL_Y = 448

PANEL_TOP, PANEL_BOTTOM = 486, H - 28
DECREE_PANEL = (MARGIN, PANEL_TOP, 300, PANEL_BOTTOM)
TRICK_PANEL = (320, PANEL_TOP, 1060, PANEL_BOTTOM)
INFO_PANEL = (1080, PANEL_TOP, W - MARGIN, PANEL_BOTTOM)
BOARD_CARD = (176, 248)
PANEL_RADIUS = 22

HAND_AREA = (MARGIN, 140, 1290, H - 28)
HAND_REF_PANEL = (1310, 140, W - MARGIN, H - 28)
# Only two card sizes are ever drawn (this and BOARD_CARD), so the card sprite cache stays small.
HAND_CARD_BIG, HAND_BIG_MAX, HAND_ONE_ROW_MAX = (228, 322), 5, 6
HAND_CARD_GAP, HAND_REMINDER_H = 16, 62
REF_CARD = BOARD_CARD

# --- look -------------------------------------------------------------------------------------
TRAIL = (138, 104, 66)
TRAIL_EDGE = (84, 62, 38)
TRAIL_COVERED = (64, 70, 56)
NODE_FILL = (242, 231, 203)
NODE_EDGE = (92, 66, 40)
START_FILL = (255, 214, 120)
GEM_COLORS = {"main": (168, 85, 247), "light": (221, 190, 255), "dark": (110, 40, 180)}
GEM_EDGE = (46, 16, 80)
PLUS_FILL = (60, 150, 84)
FOX_ORANGE = (244, 120, 28)
CARD_FACE = (252, 248, 236)
CARD_BACK = (52, 96, 70)


@dataclass(frozen=True)
class SuitStyle:
    label: str
    main: RGB  # the symbol on a card
    dark: RGB  # ranks and outlines on a card
    bright: RGB  # text on the dark forest background


SUITS = {
    "dove": SuitStyle("Dove", (52, 126, 214), (22, 66, 140), (128, 190, 255)),
    "rose": SuitStyle("Rose", (214, 48, 74), (140, 20, 44), (255, 128, 146)),
    "star": SuitStyle("Star", (240, 170, 24), (150, 96, 0), (255, 208, 90)),
}
UNKNOWN_SUIT = SuitStyle("?", (120, 120, 120), (60, 60, 60), (200, 200, 200))

ABILITIES = {  # our names and our one-line reminders
    "musician": ("Musician", "Winner picks the fox's way"),
    "fox": ("Fox", "Pick who swaps with the decree"),
    "gazelle": ("Gazelle", "Winner may ignore footprints"),
    "gift": ("Gift", "Both trade a card, unseen"),
    "royal": ("Royal", "If led, no need to follow"),
}

PHASE_TEXT = {  # phase: (the pending key naming who acts, else to_move; text for one; for both)
    "fox-pick": ("fox_player", " played a Fox: pick who may swap with the decree", ""),
    "fox-swap": ("chooser", " may swap a card with the decree (Fox)", ""),
    "gazelle": ("winner", " may ignore a Gazelle's footprints", ""),
    "direction": ("winner", " picks the way to move {steps} steps (Musician)", ""),
    "gift": ("", " picks a card to trade (Gift)", " pick cards to trade (Gift)"),
    "forest": ("", " chooses where the forest token goes", " choose where the forest token goes"),
}
LOSS_TEXT = {
    "no-forest-token": "a forest token was needed and none was left",
    "time": "round 3 ended with gems still on the path",
    "conceded": "the team conceded",
}

# --- our drawings, in a unit square (see render.common.Shape) ---------------------------------
DOVE: list[Shape] = [
    ("poly", (0.24, 0.52, 0.01, 0.38, 0.05, 0.56, 0.0, 0.72, 0.26, 0.66), "main"),
    ("ellipse", (0.14, 0.40, 0.76, 0.76), "main"),
    ("ellipse", (0.60, 0.24, 0.88, 0.52), "main"),
    ("poly", (0.85, 0.33, 0.99, 0.41, 0.85, 0.46), "main"),
    ("poly", (0.30, 0.54, 0.16, 0.04, 0.36, 0.14, 0.52, 0.06, 0.66, 0.50), "light"),
    ("ellipse", (0.71, 0.32, 0.78, 0.39), "eye"),
]


def _polar(cx: float, cy: float, r: float, degrees: float) -> tuple[float, float]:
    return cx + r * math.cos(math.radians(degrees)), cy + r * math.sin(math.radians(degrees))


def _petal(k: int) -> Shape:
    x, y = _polar(0.5, 0.40, 0.19, -90 + 72 * k)
    return ("ellipse", (x - 0.19, y - 0.19, x + 0.19, y + 0.19), "main")


ROSE: list[Shape] = [
    ("poly", (0.47, 0.62, 0.53, 0.62, 0.53, 0.99, 0.47, 0.99), "leaf"),
    ("poly", (0.52, 0.84, 0.80, 0.66, 0.90, 0.72, 0.66, 0.88), "leaf"),
    *(_petal(k) for k in range(5)),
    ("ellipse", (0.35, 0.25, 0.65, 0.55), "dark"),
    ("ellipse", (0.43, 0.33, 0.57, 0.47), "light"),
]
STAR_POINTS = tuple(v for k in range(10) for v in _polar(0.5, 0.53, 0.5 if k % 2 == 0 else 0.21, -90 + 36 * k))
STAR: list[Shape] = [("poly", STAR_POINTS, "main"), ("ellipse", (0.40, 0.43, 0.60, 0.63), "light")]
PAW: list[Shape] = [
    ("ellipse", (0.22, 0.44, 0.78, 0.94), "main"),
    ("ellipse", (0.02, 0.28, 0.26, 0.56), "main"),
    ("ellipse", (0.22, 0.04, 0.46, 0.36), "main"),
    ("ellipse", (0.54, 0.04, 0.78, 0.36), "main"),
    ("ellipse", (0.74, 0.28, 0.98, 0.56), "main"),
]
GEM: list[Shape] = [
    ("poly", (0.22, 0.12, 0.78, 0.12, 0.98, 0.40, 0.5, 0.94, 0.02, 0.40), "main"),
    ("poly", (0.22, 0.12, 0.78, 0.12, 0.68, 0.40, 0.32, 0.40), "light"),
    ("poly", (0.32, 0.40, 0.68, 0.40, 0.5, 0.94), "dark"),
]
FOREST_TOKEN: list[Shape] = [
    ("ellipse", (0.0, 0.0, 1.0, 1.0), "rim"),
    ("ellipse", (0.08, 0.08, 0.92, 0.92), "main"),
    ("poly", (0.45, 0.76, 0.55, 0.76, 0.55, 0.88, 0.45, 0.88), "trunk"),
    ("poly", (0.5, 0.46, 0.80, 0.80, 0.20, 0.80), "light"),
    ("poly", (0.5, 0.30, 0.74, 0.62, 0.26, 0.62), "light"),
    ("poly", (0.5, 0.13, 0.67, 0.44, 0.33, 0.44), "light"),
]
FOX_HEAD: list[Shape] = [
    ("ellipse", (0.0, 0.0, 1.0, 1.0), "rim"),
    ("ellipse", (0.07, 0.07, 0.93, 0.93), "disc"),
    ("poly", (0.17, 0.13, 0.46, 0.32, 0.24, 0.52), "main"),
    ("poly", (0.83, 0.13, 0.54, 0.32, 0.76, 0.52), "main"),
    ("poly", (0.23, 0.22, 0.38, 0.33, 0.27, 0.43), "dark"),
    ("poly", (0.77, 0.22, 0.62, 0.33, 0.73, 0.43), "dark"),
    ("ellipse", (0.20, 0.27, 0.80, 0.73), "main"),
    ("poly", (0.18, 0.50, 0.82, 0.50, 0.5, 0.88), "main"),
    ("poly", (0.20, 0.54, 0.50, 0.64, 0.5, 0.88), "light"),
    ("poly", (0.80, 0.54, 0.50, 0.64, 0.5, 0.88), "light"),
    ("ellipse", (0.33, 0.45, 0.41, 0.53), "eye"),
    ("ellipse", (0.59, 0.45, 0.67, 0.53), "eye"),
    ("ellipse", (0.44, 0.80, 0.56, 0.90), "eye"),
]
SUIT_SHAPES = {"dove": DOVE, "rose": ROSE, "star": STAR}


# Colour roles and outline of each drawing (suit symbols take theirs from SUITS).
ICON_STYLES: dict[str, tuple[list[Shape], dict[str, Color], Color | None]] = {
    "gem": (GEM, GEM_COLORS, GEM_EDGE),
    "paw": (PAW, {"main": (92, 58, 30)}, None),
    "forest": (
        FOREST_TOKEN,
        {"rim": (216, 190, 130), "main": (34, 92, 52), "light": (150, 214, 140), "trunk": (120, 80, 40)},
        (10, 30, 18),
    ),
    "fox": (
        FOX_HEAD,
        {
            "rim": FOX_ORANGE,
            "disc": (255, 246, 226),
            "main": (236, 104, 20),
            "dark": (120, 44, 10),
            "light": (255, 255, 255),
            "eye": (40, 24, 16),
        },
        (60, 26, 8),
    ),
}


@lru_cache(maxsize=128)
def icon(kind: str, size: int, variant: str = "") -> Image.Image:
    """A cached sprite: a suit symbol, a gem, a paw, a forest token or the fox tracker.

    ``variant`` "faint" draws it washed out (a paw for zero footprints, a used forest token).
    """
    if kind in SUIT_SHAPES:
        st = SUITS[kind]
        colors: dict[str, Color] = {"main": st.main, "light": shade(st.main, 1.35), "dark": st.dark}
        shapes, colors, outline = SUIT_SHAPES[kind], {**colors, "eye": st.dark, "leaf": (46, 130, 64)}, st.dark
    else:
        shapes, colors, outline = ICON_STYLES[kind]
    if variant == "faint":
        colors = {role: shade(c[:3], 0.45) if kind == "forest" else shade(c[:3], 1.55) for role, c in colors.items()}

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        box = (0.06 * size * s, 0.06 * size * s, 0.94 * size * s, 0.94 * size * s)
        paint_shapes(draw, shapes, box, colors, outline, max(1.5, size * 0.035) * s)

    return supersampled((size, size), paint)


def suit_style(suit: str) -> SuitStyle:
    return SUITS.get(suit, UNKNOWN_SUIT)


# --- cards ------------------------------------------------------------------------------------


def card_key(card: Mapping[str, Any]) -> tuple[str, int, int, str]:
    return (
        str(card.get("suit")),
        int(card.get("rank", 0)),
        int(card.get("footprints", 0)),
        str(card.get("ability") or ""),
    )


@lru_cache(maxsize=96)
def card_image(key: tuple[str, int, int, str], w: int, h: int) -> Image.Image:
    """One face-up card: rank, suit symbol, footprints and the ability's name (odd ranks)."""
    suit, rank, footprints, ability = key
    st = suit_style(suit)
    card = Image.new("RGBA", (w, h), (0, 0, 0, 0))

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        r = 0.08 * w * s
        draw.rounded_rectangle(
            (0, 0, w * s - 1, h * s - 1), r, fill=CARD_FACE, outline=st.main, width=round(0.04 * w * s)
        )
        if ability:
            band_top = 0.83 * h * s
            draw.rounded_rectangle((0, band_top, w * s - 1, h * s - 1), r, fill=st.main)
            draw.rectangle((0, band_top, w * s - 1, band_top + r), fill=st.main)
            name = ABILITIES.get(ability, (ability.title(), ""))[0].upper()
            text, fnt = fitted(name, 0.86 * w * s, round(0.125 * w * s), bold=True)
            draw.text((w * s / 2, (band_top + h * s) / 2), text, font=fnt, fill=CARD_FACE, anchor="mm")
        draw.text(
            (0.10 * w * s, 0.03 * h * s),
            str(rank),
            font=font(round(0.34 * w * s), bold=True),
            fill=st.dark,
            anchor="lt",
        )

    face = supersampled((w, h), paint)
    card.alpha_composite(face)
    small = round(0.24 * w)
    card.alpha_composite(
        icon(suit, small) if suit in SUITS else Image.new("RGBA", (small, small)),
        (w - small - round(0.08 * w), round(0.05 * h)),
    )
    big = round(0.50 * w)
    if suit in SUITS:
        card.alpha_composite(icon(suit, big), ((w - big) // 2, round(0.47 * h - big / 2)))
    paw = round(0.17 * w)
    paw_y = round((0.755 if ability else 0.83) * h - paw / 2)
    count = max(0, footprints)
    if count == 0:
        # No footprints: a faint paw with a bold zero, so it reads "0 steps", not "missing".
        zero = font(round(0.17 * w), bold=True)
        total = paw + 4 + zero.getlength("0")
        x = round((w - total) / 2)
        card.alpha_composite(icon("paw", paw, "faint"), (x, paw_y))
        ImageDraw.Draw(card).text((x + paw + 4, paw_y + paw / 2), "0", font=zero, fill=(92, 58, 30), anchor="lm")
    else:
        gap = round(0.03 * w)
        total = count * paw + (count - 1) * gap
        for i in range(count):
            card.alpha_composite(icon("paw", paw), ((w - total) // 2 + i * (paw + gap), paw_y))
    return card


def paste_card(image: Image.Image, card: Mapping[str, Any], xy: tuple[int, int], size: tuple[int, int]) -> None:
    sprite = card_image(card_key(card), *size)
    image.paste(sprite, xy, sprite)


# --- board ------------------------------------------------------------------------------------


def status_runs(public: Mapping[str, Any], names: Sequence[str]) -> tuple[list[tuple[str, Color]], str]:
    """The status line as coloured pieces, and its tone: "turn", "won" or "lost"."""
    phase = public.get("phase")
    pending = public.get("pending") or {}
    if phase == "over":
        result = public.get("result") or {}
        if result.get("won"):
            return [(f"Victory! All gems collected · score {result.get('score', 0)}", Palette.TEXT)], "won"
        reason = LOSS_TEXT.get(str(result.get("reason")), "the game is over")
        return [(f"Defeat: {reason}", Palette.TEXT)], "lost"
    if phase == "play":
        doing = " to follow" if public.get("trick_cards") else f" to lead trick {public.get('trick')}"
        key, one, many = "", doing, doing
    else:
        key, one, many = PHASE_TEXT.get(str(phase), ("", " to act", " to act"))
    seats = [pending[key]] if key in pending else list(public.get("to_move") or [public.get("leader")])
    who = " & ".join(seat_name(names, s) for s in seats) or "Nobody"
    doing = (one if len(seats) == 1 else many).format(steps=pending.get("steps", 0))
    runs = [(who, Palette.ACCENT), (doing, Palette.TEXT)]
    ready = [seat for seat, done in enumerate(pending.get("chosen") or []) if done]
    if phase == "gift" and ready:  # who has picked, never which card
        runs.append((" · " + " & ".join(seat_name(names, s) for s in ready) + " ready", Palette.TEXT_MUTED))
    return runs, "turn"


def draw_header(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
    runs, tone = status_runs(public, names)
    fill = {"won": (36, 110, 60), "lost": (128, 40, 40)}.get(tone, Palette.PANEL)
    shadowed_box(image, HEADER, PANEL_RADIUS, fill, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = HEADER
    strip = {"won": Palette.GOOD, "lost": Palette.BAD}.get(tone, Palette.ACCENT)
    draw.rounded_rectangle((x0 + 14, y0 + 16, x0 + 24, y1 - 16), radius=5, fill=strip)
    right = f"Round {public.get('round', 1)}/3 · Trick {public.get('trick', 1)}/11"
    sub = f"Level {public.get('level', 1)} · side {public.get('side', 'A')}"
    rfont = font(34, True)
    draw.text((x1 - 24, y0 + 42), right, font=rfont, fill=Palette.TEXT, anchor="rm")
    draw.text((x1 - 24, y0 + 76), sub, font=font(24), fill=Palette.TEXT_MUTED, anchor="rm")
    room = x1 - x0 - 72 - rfont.getlength(right) - 40
    shown, fnt = fit_runs(runs, room, 46, bold=True, min_size=24)
    draw_runs(draw, (x0 + 44, (y0 + y1) / 2), shown, fnt)


def draw_gems(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, count: int) -> None:
    if count <= 0:
        return
    if count <= 3:
        size = (50, 44, 36)[count - 1]
        step = size + 2
        for i in range(count):
            paste_sprite(image, icon("gem", size), (cx + (i - (count - 1) / 2) * step, cy))
        return
    paste_sprite(image, icon("gem", 44), (cx - 24, cy))
    draw.text((cx + 4, cy + 2), f"×{count}", font=font(34, True), fill=Palette.TEXT, anchor="lm")


def draw_path(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
    draw = ImageDraw.Draw(image)
    spaces = list(public.get("spaces") or [])
    n = len(spaces)
    if n == 0:
        return
    xs = [PATH_X0 + (PATH_X1 - PATH_X0) * i / max(1, n - 1) for i in range(n)]
    start = next((i for i, sp in enumerate(spaces) if sp.get("start")), n // 2)
    diamonds_count = public.get("level") == 3
    for i in range(n - 1):
        covered = spaces[i].get("covered") or spaces[i + 1].get("covered")
        colour, edge = (TRAIL_COVERED, TRAIL_COVERED) if covered else (TRAIL, TRAIL_EDGE)
        draw.line((xs[i], NODE_Y, xs[i + 1], NODE_Y), fill=edge, width=TRAIL_W + 8)
        draw.line((xs[i], NODE_Y, xs[i + 1], NODE_Y), fill=colour, width=TRAIL_W)
    for i, (x, sp) in enumerate(zip(xs, spaces, strict=True)):
        covered = bool(sp.get("covered"))
        box = (x - GEM_BOX_W / 2, GEM_BOX_TOP, x + GEM_BOX_W / 2, GEM_BOX_TOP + GEM_BOX_H)
        box_fill = (14, 28, 22) if covered else Palette.PANEL_DARK
        draw.line((x, box[3], x, NODE_Y - NODE_R), fill=Palette.PANEL_EDGE, width=4)
        draw.rounded_rectangle(box, radius=16, fill=box_fill, outline=Palette.PANEL_EDGE, width=3)
        draw_gems(image, draw, x, (box[1] + box[3]) / 2, int(sp.get("gems", 0)))
        if sp.get("plus"):
            circle(draw, (box[2] - 16, box[1] + 4), 18, fill=PLUS_FILL, outline=Palette.TEXT, width=2)
            draw.text((box[2] - 16, box[1] + 4), "+", font=font(30, True), fill=Palette.TEXT, anchor="mm")
        if sp.get("diamond"):
            dx, dy = box[0] + 16, box[1] + 4
            diamond = [(dx, dy - 16), (dx + 14, dy), (dx, dy + 16), (dx - 14, dy)]
            on = GEM_COLORS["light"] if diamonds_count else (96, 110, 100)
            draw.polygon(diamond, fill=Palette.PANEL_DARK, outline=on, width=4)
        if covered:
            paste_sprite(image, icon("forest", FOREST_TOKEN_SIZE), (x, NODE_Y))
        else:
            if i == start:  # the start circle: a double ring
                circle(draw, (x, NODE_Y), NODE_R + 10, fill=NODE_EDGE)
                circle(draw, (x, NODE_Y), NODE_R + 5, fill=START_FILL)
            circle(draw, (x, NODE_Y), NODE_R, fill=START_FILL if i == start else NODE_FILL, outline=NODE_EDGE, width=5)
        label = "START" if i == start else str(abs(i - start))
        colour = START_FILL if i == start else Palette.TEXT_MUTED
        draw.text((x, DIST_Y), label, font=font(24 if i == start else 26, True), fill=colour, anchor="mm")
    tracker = public.get("tracker")
    if isinstance(tracker, int) and 0 <= tracker < n:
        x = xs[tracker]
        circle(draw, (x, NODE_Y), TRACKER_SIZE / 2 + 8, outline=FOX_ORANGE, width=6)
        paste_sprite(image, icon("fox", TRACKER_SIZE), (x, NODE_Y))
    half = (PATH_X1 - PATH_X0) / 2 - 60
    left, lf = fitted(f"◀ {seat_name(names, 0)}", half, 34, bold=True, min_size=20)
    right, rf = fitted(f"{seat_name(names, 1)} ▶", half, 34, bold=True, min_size=20)
    draw.text((PATH_X0 - 56, END_LABEL_Y), left, font=lf, fill=Palette.TEXT, anchor="lm")
    draw.text((PATH_X1 + 56, END_LABEL_Y), right, font=rf, fill=Palette.TEXT, anchor="rm")


def draw_decree(image: Image.Image, public: Mapping[str, Any]) -> None:
    box = DECREE_PANEL
    shadowed_box(image, box, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    panel_title(draw, box, "DECREE")
    decree = public.get("decree")
    if not decree:
        return
    cw, _ = BOARD_CARD
    cx = (box[0] + box[2]) / 2
    paste_card(image, decree, (round(cx - cw / 2), box[1] + 58), BOARD_CARD)
    suit = str(decree.get("suit"))
    st = suit_style(suit)
    runs: list[tuple[str, Color]] = [(st.label, st.bright), (" is trump", Palette.TEXT)]
    fnt = font(30, True)
    icon_w = 44 if suit in SUITS else 0
    x = cx - (icon_w + runs_width(runs, fnt)) / 2
    y = box[3] - 44
    if suit in SUITS:
        paste_sprite(image, icon(suit, 40), (x + 18, y))
    draw_runs(draw, (x + icon_w, y), runs, fnt)


def draw_trick(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
    box = TRICK_PANEL
    shadowed_box(image, box, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    cards = list(public.get("trick_cards") or [])
    last = public.get("last_trick")
    showing_last = not cards and bool(last)
    title = "LAST TRICK" if showing_last else f"TRICK {public.get('trick', 1)}"
    panel_title(draw, box, title)
    plays = list(last.get("cards") or []) if showing_last else cards
    leader = public.get("leader", 0)
    seats = [p.get("seat") for p in plays]
    order = seats + [s for s in ((leader, 1 - leader) if leader in (0, 1) else (0, 1)) if s not in seats]
    cw, ch = BOARD_CARD
    slot_w = cw + 24
    top = box[1] + 66
    winner = last.get("winner") if showing_last else None
    for k, seat in enumerate(order[:2]):
        sx = box[0] + 24 + k * (slot_w + 14)
        name, nf = fitted(seat_name(names, seat), slot_w, 28, bold=True, min_size=18)
        draw.text((sx + slot_w / 2, top), name, font=nf, fill=Palette.TEXT, anchor="mm")
        card_xy = (round(sx + (slot_w - cw) / 2), top + 26)
        play = next((p for p in plays if p.get("seat") == seat), None)
        if play:
            if seat == winner:
                draw.rounded_rectangle(
                    (card_xy[0] - 7, card_xy[1] - 7, card_xy[0] + cw + 7, card_xy[1] + ch + 7),
                    radius=20,
                    fill=Palette.ACCENT,
                )
            paste_card(image, play["card"], card_xy, BOARD_CARD)
            tag = "WON" if seat == winner else ("LED" if k == 0 else "")
            if tag:
                draw.text(
                    (sx + slot_w / 2, card_xy[1] + ch + 26),
                    tag,
                    font=font(24, True),
                    fill=Palette.ACCENT if tag == "WON" else Palette.TEXT_MUTED,
                    anchor="mm",
                )
        else:
            waiting = "to lead" if k == 0 else "to follow"
            dashed_slot(draw, (card_xy[0], card_xy[1], card_xy[0] + cw, card_xy[1] + ch), waiting)
    tx = box[0] + 24 + 2 * (slot_w + 14) + 10
    width = box[2] - 24 - tx
    lines = trick_notes(public, names, showing_last)
    y = top - 10
    for text, size, colour in lines:
        fnt = font(size, True)
        for line in wrap(text, fnt, width, 3):
            draw.text((tx, y), line, font=fnt, fill=colour, anchor="lt")
            y += size + 10
        y += 12


def trick_notes(public: Mapping[str, Any], names: Sequence[str], showing_last: bool) -> list[tuple[str, int, Color]]:
    """Lines beside the trick: its outcome, or the footprints at stake and the last result."""
    notes: list[tuple[str, int, Color]] = []
    last = public.get("last_trick")
    if showing_last and last:
        notes += outcome_notes(last, names, public)
        return notes
    cards = public.get("trick_cards") or []
    if cards:
        steps = sum(int(p["card"].get("footprints", 0)) for p in cards)
        notes.append((f"Footprints: {steps}", 30, Palette.TEXT))
        led = suit_style(str(cards[0]["card"].get("suit")))
        notes.append((f"{led.label} led", 26, led.bright))
    elif public.get("phase") != "over":
        notes.append(("No cards yet", 28, Palette.TEXT_MUTED))
    if last:
        prev = outcome_notes(last, names, public)[:2]
        notes.append(("Previous trick: " + ", ".join(t for t, _, _ in prev), 22, Palette.TEXT_MUTED))
    return notes


def outcome_notes(
    last: Mapping[str, Any], names: Sequence[str], public: Mapping[str, Any]
) -> list[tuple[str, int, Color]]:
    """What a finished trick did: its winner, the fox's move, and a gem or an overshoot."""
    winner = seat_name(names, last.get("winner"))
    steps = int(last.get("steps", 0))
    toward = last.get("toward")
    arrow = "◀" if toward == 0 else "▶"
    notes: list[tuple[str, int, Color]] = [(f"{winner} won", 34, Palette.ACCENT)]
    if steps == 0:
        notes.append(("0 steps: the fox stays", 28, Palette.TEXT))
    else:
        notes.append(
            (f"{arrow} {steps} step{'s' if steps != 1 else ''} toward {seat_name(names, toward)}", 28, Palette.TEXT)
        )
    if last.get("overshoot"):
        lost = (public.get("result") or {}).get("reason") == "no-forest-token"
        what = "no forest token left to cover the end" if lost else "back to start, forest token placed"
        notes.append((f"Overshoot: {what}", 26, (255, 150, 140)))
    elif last.get("gem"):
        notes.append(("+1 gem collected", 28, GEM_COLORS["light"]))
    else:
        notes.append(("No gem there", 26, Palette.TEXT_MUTED))
    return notes


def draw_info(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
    box = INFO_PANEL
    shadowed_box(image, box, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, _ = box
    panel_title(draw, box, "FOREST TOKENS")
    total = int(public.get("forest_tokens_total", 0))
    left = int(public.get("forest_tokens_left", 0))
    for k in range(total):
        paste_sprite(image, icon("forest", 52, "" if k < left else "faint"), (x0 + 52 + k * 58, y0 + 84))
    draw.text(
        (x0 + 52 + max(total, 1) * 58 - 16, y0 + 84),
        f"{left} of {total} left",
        font=font(30, True),
        fill=Palette.TEXT if left else (255, 150, 140),
        anchor="lm",
    )
    panel_title(draw, (x0, y0 + 116, x1, 0), "GEMS")
    rows = [
        (str(public.get("gems_on_board", 0)), Palette.TEXT, " on the path"),
        (str(public.get("gems_collected", 0)), GEM_COLORS["light"], " collected"),
    ]
    for k, (number, colour, label) in enumerate(rows):
        y = y0 + 190 + k * 52
        paste_sprite(image, icon("gem", 44), (x0 + 48, y))
        draw_runs(draw, (x0 + 80, y), [(number, colour), (label, Palette.TEXT_MUTED)], font(32, True))
    panel_title(draw, (x0, y0 + 262, x1, 0), "CARDS IN HAND")
    draw.text(
        (x1 - 24, y0 + 292),
        f"DECK {public.get('deck_size', 0)}",
        font=font(24, True),
        fill=Palette.TEXT_MUTED,
        anchor="rm",
    )
    sizes = list(public.get("hand_sizes") or [0, 0])
    y = y0 + 344
    col_w = (x1 - x0 - 48) / 2
    for seat, count in enumerate(sizes[:2]):
        x = x0 + 24 + seat * col_w
        draw.rounded_rectangle((x, y - 20, x + 28, y + 20), radius=5, fill=CARD_BACK, outline=Palette.TEXT, width=2)
        number = f" {count}"
        nf = font(30, True)
        label, lf = fitted(seat_name(names, seat), col_w - 50 - nf.getlength(number), 30, True, 18)
        x += 40
        x += draw_runs(draw, (x, y), [(label, Palette.TEXT)], lf)
        draw_runs(draw, (x, y), [(number, Palette.ACCENT)], nf)


def draw_board(public: Mapping[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw the public board of a view: path, tracker, decree, trick, counters and status."""
    image = backdrop((W, H)).copy()
    draw_header(image, public, names)
    draw_path(image, public, names)
    draw_decree(image, public)
    draw_trick(image, public, names)
    draw_info(image, public, names)
    return image


# --- hand -------------------------------------------------------------------------------------


def hand_layout(n: int) -> tuple[int, int, int, int]:
    """Columns, rows and card size for ``n`` cards: big cards for a short hand, else two rows."""
    cw, ch = HAND_CARD_BIG if n <= HAND_BIG_MAX else BOARD_CARD
    rows = 1 if n <= HAND_ONE_ROW_MAX else 2
    return max(1, math.ceil(n / rows)), rows, cw, ch


def draw_hand(public: Mapping[str, Any], private: Mapping[str, Any], names: Sequence[str], seat: int) -> Image.Image:
    """Draw a seat's hand with ability reminders, its gift pick and the decree for reference."""
    image = backdrop((W, H)).copy()
    hand = list(private.get("hand") or [])
    shadowed_box(image, HEADER, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = HEADER
    draw.rounded_rectangle((x0 + 14, y0 + 16, x0 + 24, y1 - 16), radius=5, fill=Palette.ACCENT)
    count = f" · {len(hand)} card{'s' if len(hand) != 1 else ''}"
    name, nf = fitted(f"{seat_name(names, seat)}'s hand", 760, 46, True, 26)
    draw_runs(draw, (x0 + 44, y0 + 40), [(name, Palette.TEXT), (count, Palette.TEXT_MUTED)], nf)
    sub: list[tuple[str, Color]] = []
    if public.get("phase") != "over" and seat in (public.get("to_move") or []):
        sub.append(("YOUR TURN · ", Palette.ACCENT))
    sub.append((f"Round {public.get('round', 1)}/3 · Trick {public.get('trick', 1)}/11 · private", Palette.TEXT_MUTED))
    draw_runs(draw, (x0 + 44, y0 + 78), sub, font(22, True))
    decree = public.get("decree") or {}
    st = suit_style(str(decree.get("suit")))
    trump = f"Trump: {st.label}"
    tf = font(38, True)
    draw.text((x1 - 24, (y0 + y1) / 2), trump, font=tf, fill=st.bright, anchor="rm")
    if decree.get("suit") in SUITS:
        paste_sprite(image, icon(str(decree["suit"]), 52), (x1 - 24 - tf.getlength(trump) - 36, (y0 + y1) / 2))

    ax0, ay0, ax1, ay1 = HAND_AREA
    shadowed_box(image, HAND_AREA, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    if not hand:
        draw_centred(draw, (ax0, ay0, ax1, ay1 - 40), "No cards in hand", 56, Palette.TEXT, bold=True)
        draw_centred(draw, (ax0, ay0 + 90, ax1, ay1), "Nothing to play until the next deal", 28, Palette.TEXT_MUTED)
    else:
        cols, rows, cw, ch = hand_layout(len(hand))
        row_h = ch + HAND_REMINDER_H
        block_h = rows * row_h + (rows - 1) * 24
        top = ay0 + (ay1 - ay0 - block_h) / 2
        for i, card in enumerate(hand):
            r, c = divmod(i, cols)
            in_row = min(cols, len(hand) - r * cols)
            row_w = in_row * cw + (in_row - 1) * HAND_CARD_GAP
            x = ax0 + (ax1 - ax0 - row_w) / 2 + c * (cw + HAND_CARD_GAP)
            y = top + r * (row_h + 24)
            paste_card(image, card, (round(x), round(y)), (cw, ch))
            ability = card.get("ability")
            if ability:
                reminder = ABILITIES.get(ability, ("", ""))[1]
                fnt = font(19, True)
                colour = suit_style(str(card.get("suit"))).bright
                for k, line in enumerate(wrap(reminder, fnt, cw + HAND_CARD_GAP - 6, 2)):
                    draw.text((x + cw / 2, y + ch + 20 + k * 24), line, font=fnt, fill=colour, anchor="mm")

    shadowed_box(image, HAND_REF_PANEL, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    rx0, ry0, rx1, _ = HAND_REF_PANEL
    rw, rh = REF_CARD
    cx = (rx0 + rx1) / 2
    panel_title(draw, HAND_REF_PANEL, "DECREE")
    if decree:
        paste_card(image, decree, (round(cx - rw / 2), ry0 + 56), REF_CARD)
    gift = private.get("gift")
    if gift or public.get("phase") == "gift":
        gy = ry0 + 56 + rh + 30
        draw.text((rx0 + 24, gy + 10), "YOUR GIFT PICK", font=font(24, True), fill=Palette.TEXT_MUTED, anchor="lm")
        if gift:
            paste_card(image, gift, (round(cx - rw / 2), gy + 36), REF_CARD)
        else:
            draw.text((rx0 + 24, gy + 52), "not chosen yet", font=font(24), fill=Palette.TEXT_MUTED, anchor="lm")
    return image


RENDERER = GameRenderer(
    game_id=GAME_ID,
    board=draw_board,
    hand=draw_hand,
    board_budget=BOARD_BUDGET,
    hand_budget=HAND_BUDGET,
)
