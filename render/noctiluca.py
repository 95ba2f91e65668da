"""Noctiluca: the pool, the jars and the storm, drawn from ``view(seat)``.

The board: on the left the hexagonal pool (every die with its colour and face, the shores
numbered 1-12 with their pawns, the island, the last dive outlined; solo: the sections, their
numbers and the storm's arrow); on the right the piles' top jars, the token stacks and one
panel per player (jars with filled and empty slots, tokens, delivered jars). The hand: the
secret favourite, the jars being chosen and the seat's own jars. Every word comes from the
catalogue (keys ``noctiluca.render.*`` in ``data/i18n/<locale>.po``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.noctiluca import NoctilucaPrivate, NoctilucaPublic
from l10n import t
from render.common import (
    RGB,
    Color,
    GameRenderer,
    Palette,
    draw_centred,
    draw_runs,
    fit_runs,
    fitted,
    fitted_lines,
    font,
    paste_sprite,
    put_text,
    seat_name,
    shade,
    shadowed_box,
    supersampled,
    vertical_gradient,
    wrap,
)
from render.phone import Key, with_band

GAME_ID = "noctiluca"
BOARD_BUDGET = 600_000
HAND_BUDGET = 300_000

# --- layout (pixels) --------------------------------------------------------------------------
W, H = 1600, 900
HEX = 76  # centre to corner of a pool hex (pointy top)
POOL_CENTRE = (452, 456)
DIE = 38
DIE_GAP = 42
SHORE_R = 30
PAWN = 46  # a pawn on a shore
RIGHT_X0 = 900
RIGHT_X1 = W - 20
TOP_H = 214
JAR_W, JAR_H = 168, 96
HAND_W, HAND_H = 1400, 700

# --- look -------------------------------------------------------------------------------------
SEA_TOP: RGB = (10, 26, 56)
SEA_BOTTOM: RGB = (4, 12, 30)
WATER: RGB = (22, 58, 104)
WATER_EDGE: RGB = (60, 120, 180)
DIVE_EDGE: RGB = (255, 236, 120)
PHONE_BAND: RGB = (8, 22, 46)  # the band of key lines above the board
CHANGE: RGB = (190, 215, 240)  # its line saying what the last dive did
ISLAND: RGB = (214, 190, 120)
ISLAND_GREEN: RGB = (70, 140, 80)
SHORE_FILL: RGB = (222, 204, 150)
PANEL: RGB = (20, 40, 72)
PANEL_EDGE: RGB = (70, 110, 160)
TEXT: RGB = Palette.TEXT
MUTED: RGB = (160, 180, 210)
GOOD: RGB = Palette.GOOD
DICE: dict[str, RGB] = {
    "orange": (244, 134, 28),
    "green": (56, 176, 72),
    "purple": (150, 78, 206),
    "blue": (40, 118, 232),
}
JAR_COLOURS: dict[str, RGB] = {"gold": (220, 176, 46), "brown": (150, 98, 56), "red": (196, 52, 52)}
# Every colour that means something also has a shape, for players who tell colours apart badly: a
# die (and the jar slot it fits) is drawn in its colour's shape, a score token in its jar colour's
# shape, and a jar card shows its shape beside its name. The shapes are told apart at a glance
# (round, square, diamond, point-down triangle), whatever the colour looks like.
DIE_SHAPES: dict[str, str] = {"orange": "circle", "green": "square", "purple": "diamond", "blue": "triangle"}
JAR_SHAPES: dict[str, str] = {"gold": "circle", "brown": "square", "red": "diamond"}
# How big a face's digit is drawn in each shape, in parts of the shape's size (a diamond has less room).
DIGIT_SIZE: dict[str, float] = {"circle": 0.62, "square": 0.72, "diamond": 0.5, "triangle": 0.46}
SEAT_COLOURS: list[RGB] = [(250, 250, 250), (255, 222, 64), (255, 120, 170), (90, 230, 230)]
# A seat's pawn has its colour and a head of its own shape, the same on the shores and beside the
# seat's name in its panel, so a pawn is matched to its player without telling the colours apart.
SEAT_SHAPES: tuple[str, ...] = ("circle", "square", "diamond", "star")
PAWN_GREY: RGB = (150, 150, 160)  # solo: a pawn left from the round before
SECTION_TINT: dict[str, RGB] = {"purple": (54, 36, 88), "teal": (14, 70, 78), "amber": (84, 62, 18)}
STORM_EDGE: RGB = (255, 110, 110)
# The two paths from the shore being chosen, and the letter tagging each space of them.
PATH_EDGE: dict[str, RGB] = {"short": (255, 255, 255), "long": (110, 240, 210)}
# At most this many score tokens are drawn beside a player's name; more show as "+n".
MAX_TOKENS_SHOWN = 6
STACKS_LABEL_W = 150  # the widest the name of the score-token stacks may be drawn
ROUNDS = 2


def colour_word(colour: str, locale: str) -> str:
    """A noctiluca die's colour as a word."""
    return t(f"noctiluca.render.colour.{colour}", locale)


def die_words(dice: Sequence[Mapping[str, Any]], locale: str) -> str:
    """Dice as "blue 2, orange 5"."""
    return t("noctiluca.render.list-separator", locale).join(
        t("noctiluca.render.die", locale, colour=colour_word(d["colour"], locale), face=d["face"]) for d in dice
    )


def jar_name(jar: Mapping[str, Any], locale: str) -> str:
    """A jar card's name, its colour and number (``gold-3`` -> "Gold 3")."""
    number = jar["id"].rpartition("-")[2]
    return t(
        "noctiluca.render.jar", locale, colour=t(f"noctiluca.render.jar-colour.{jar['colour']}", locale), number=number
    )


# --- geometry ---------------------------------------------------------------------------------
def hex_centre(q: int, r: int) -> tuple[float, float]:
    cx, cy = POOL_CENTRE
    return cx + HEX * math.sqrt(3) * (q + r / 2), cy + HEX * 1.5 * r


def hex_corners(centre: tuple[float, float], size: float) -> list[tuple[float, float]]:
    x, y = centre
    return [
        (x + size * math.cos(math.radians(60 * i - 90)), y + size * math.sin(math.radians(60 * i - 90)))
        for i in range(6)
    ]


def dice_offsets(count: int) -> list[tuple[float, float]]:
    """Where up to 5 dice sit in a hex: rows of 3 and 2 (or 2 and 2), centred."""
    rows = {1: [1], 2: [2], 3: [2, 1], 4: [2, 2], 5: [3, 2]}[count] if count else []
    out = []
    for i, n in enumerate(rows):
        y = (i - (len(rows) - 1) / 2) * DIE_GAP
        for k in range(n):
            out.append(((k - (n - 1) / 2) * DIE_GAP, y))
    return out


# --- sprites ----------------------------------------------------------------------------------
def shape_outline(kind: str, box: tuple[float, float, float, float]) -> list[tuple[float, float]] | None:
    """The corners of a shape filling ``box`` (None for a circle, drawn as an ellipse; a square is rounded apart)."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    cy = (y0 + y1) / 2
    if kind == "diamond":
        return [(cx, y0), (x1, cy), (cx, y1), (x0, cy)]
    if kind == "triangle":
        return [(x0, y0 + (y1 - y0) * 0.08), (x1, y0 + (y1 - y0) * 0.08), (cx, y1)]
    if kind == "star":  # five points, the top one up; its middle sits a little low to fill the box
        rx, ry = (x1 - x0) / 2, (y1 - y0) / 2
        middle = y0 + ry * 1.1
        reach = [1.0 if i % 2 == 0 else 0.45 for i in range(10)]
        return [
            (cx + rx * k * math.sin(math.radians(36 * i)), middle - ry * 1.05 * k * math.cos(math.radians(36 * i)))
            for i, k in enumerate(reach)
        ]
    return None


def draw_shape(
    draw: ImageDraw.ImageDraw,
    kind: str,
    box: tuple[float, float, float, float],
    fill: Color | None,
    outline: Color | None = None,
    width: int = 0,
) -> None:
    """One of the shapes that mark colours (``DIE_SHAPES``, ``JAR_SHAPES``, ``SEAT_SHAPES``), filling ``box``."""
    corners = shape_outline(kind, box)
    if corners is not None and outline is not None and width > 1:
        # Pillow draws a wide outline through a mask the size of the whole picture (a board's 2 MB, for
        # each of a hundred slots): the outline is the shape in its colour, the fill the shape inset on it.
        draw.polygon(corners, fill=outline)
        inner = shape_outline(kind, inset(kind, box, width))
        if fill is not None and inner is not None:
            draw.polygon(inner, fill=fill)
    elif corners is not None:
        draw.polygon(corners, fill=fill, outline=outline, width=width)
    elif kind == "square":
        radius = round((box[2] - box[0]) * 0.18)
        draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
    else:
        draw.ellipse(box, fill=fill, outline=outline, width=width)


def inset(kind: str, box: tuple[float, float, float, float], width: float) -> tuple[float, float, float, float]:
    """The box of the same shape drawn ``width`` inside the edge of the one filling ``box``."""
    # A diamond's and a point-down triangle's sides slope: their box shrinks more than the width.
    d = {"diamond": width * 1.42, "triangle": width * 1.8}.get(kind, width)
    x0, y0, x1, y1 = box
    if kind == "triangle":
        return (x0 + d, y0 + width, x1 - d, y1 - d)
    return (x0 + d, y0 + d, x1 - d, y1 - d)


def digit_centre(kind: str, box: tuple[float, float, float, float]) -> tuple[float, float]:
    """Where a digit sits in a shape: the middle, or a point-down triangle's wide upper part."""
    x0, y0, x1, y1 = box
    return ((x0 + x1) / 2, y0 + (y1 - y0) * (0.36 if kind == "triangle" else 0.5))


@lru_cache(maxsize=64)
def die_sprite(colour: str, face: int, size: int = DIE) -> Image.Image:
    """A die of its colour, in its colour's shape (``DIE_SHAPES``), showing its face as a big digit."""
    kind = DIE_SHAPES[colour]

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        base = DICE[colour]
        draw_shape(draw, kind, (1 * s, 1 * s, (size - 1) * s, (size - 1) * s), shade(base, 0.55))
        inner = (1 * s, 1 * s, (size - 3) * s, (size - 3) * s)
        draw_shape(draw, kind, inner, base)
        fnt = font(round(size * DIGIT_SIZE[kind] * s), True)
        put_text(
            draw,
            digit_centre(kind, inner),
            str(face),
            font=fnt,
            fill=(255, 255, 255),
            anchor="mm",
            stroke_width=round(2 * s),
            stroke_fill=(20, 20, 30),
        )

    return supersampled((size, size), paint)


def pawn_sprite(seat: int, size: int = 40, grey: bool = False) -> Image.Image:
    """A seat's pawn: a body in its colour (``SEAT_COLOURS``) under a head of its shape (``SEAT_SHAPES``)."""
    return pawn_of(SEAT_COLOURS[seat % 4] if not grey else PAWN_GREY, SEAT_SHAPES[seat % 4], size)


@lru_cache(maxsize=32)
def pawn_of(colour: RGB, head: str, size: int) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        edge = (20, 20, 30)
        draw.polygon(
            [(size * 0.5 * s, size * 0.4 * s), (size * 0.85 * s, (size - 3) * s), (size * 0.15 * s, (size - 3) * s)],
            fill=colour,
            outline=edge,
            width=round(2 * s),
        )
        # The head is drawn over the body, big enough that its shape shows at a glance (a diamond or a
        # star covers less of its box than a disc: theirs is larger).
        grow = 0.06 if head in ("diamond", "star") else 0.0
        box = (size * (0.22 - grow) * s, 1 * s, size * (0.78 + grow) * s, size * (0.56 + grow) * s)
        draw_shape(draw, head, box, colour, edge, round(2 * s))

    return supersampled((size, size), paint)


def sea(size: tuple[int, int]) -> Image.Image:
    """The sea behind the pool: a new image to draw on."""
    return vertical_gradient(size, SEA_TOP, SEA_BOTTOM)


# --- the pool ---------------------------------------------------------------------------------
def draw_pool(image: Image.Image, public: Mapping[str, Any], locale: str) -> None:
    draw = ImageDraw.Draw(image)
    solo = public["solo"]
    dive = public.get("last_dive")
    dive_spaces = set(dive["spaces"]) if dive else set()
    pending = public.get("pending", {})
    chosen_path: set[int] = set()
    # At the path step both paths from the chosen shore are shown, so the choice is not blind.
    previews: dict[int, str] = {}
    if "shore" in pending and "path" in pending:
        chosen_path = set(public["shores"][pending["shore"] - 1]["paths"][pending["path"]])
    elif public.get("phase") == "path" and "shore" in pending:
        paths = public["shores"][pending["shore"] - 1]["paths"]
        previews = {sid: kind for kind in ("long", "short") for sid in paths[kind]}
    storm = public.get("storm")
    for space in public["spaces"]:
        c = hex_centre(space["q"], space["r"])
        fill = SECTION_TINT[space["section"]] if solo else WATER
        draw.polygon(hex_corners(c, HEX - 2), fill=fill, outline=WATER_EDGE, width=3)
    # outlines on top: the last dive in yellow, the path being chosen in white
    for space in public["spaces"]:
        c = hex_centre(space["q"], space["r"])
        if space["id"] in chosen_path:
            draw.polygon(hex_corners(c, HEX - 5), outline=(255, 255, 255), width=6)
        elif space["id"] in previews:
            kind = previews[space["id"]]
            draw.polygon(hex_corners(c, HEX - 5), outline=PATH_EDGE[kind], width=7)
        elif space["id"] in dive_spaces:
            draw.polygon(hex_corners(c, HEX - 5), outline=DIVE_EDGE, width=5)
        if solo:
            put_text(
                draw,
                (c[0], c[1] - HEX + 22),
                str(space["number"]),
                font=font(22, True),
                fill=(235, 235, 255),
                anchor="mm",
            )
            if storm and storm.get("last") and storm["last"]["space"] == space["id"]:
                draw.polygon(hex_corners(c, HEX - 8), outline=STORM_EDGE, width=4)
        for (dx, dy), die in zip(dice_offsets(len(space["dice"])), space["dice"], strict=True):
            paste_sprite(image, die_sprite(die["colour"], die["face"]), (c[0] + dx, c[1] + dy + (6 if solo else 0)))
    for sid, kind in previews.items():  # the path letters go on top of the dice
        space = public["spaces"][sid]
        c = hex_centre(space["q"], space["r"])
        # Above the dice; solo spaces show their number there, so the tag goes below the dice.
        tag = (c[0], c[1] + HEX - 16) if solo else (c[0], c[1] - HEX + 12)
        draw.ellipse((tag[0] - 16, tag[1] - 16, tag[0] + 16, tag[1] + 16), fill=PATH_EDGE[kind], outline=(10, 20, 40))
        letter, fnt = fitted(t(f"noctiluca.render.path-tag.{kind}", locale), 28, 22, True)
        put_text(draw, tag, letter, font=fnt, fill=(10, 20, 40), anchor="mm")
    # the island
    ic = hex_centre(0, 0)
    draw.polygon(hex_corners(ic, HEX - 2), fill=(40, 110, 150))
    draw.ellipse((ic[0] - 48, ic[1] - 40, ic[0] + 48, ic[1] + 40), fill=ISLAND)
    draw.ellipse((ic[0] - 30, ic[1] - 26, ic[0] + 24, ic[1] + 14), fill=ISLAND_GREEN)
    if solo and storm:
        draw_arrow(draw, ic, storm["arrow"], public)
    else:
        draw_centred(
            draw,
            (ic[0] - 40, ic[1] + 14, ic[0] + 40, ic[1] + 38),
            t("noctiluca.render.round-short", locale, round=public["round"]),
            20,
            (40, 30, 10),
            True,
        )
    # shores
    for shore in public["shores"]:
        c = hex_centre(shore["q"], shore["r"])
        highlighted = (dive and dive["shore"] == shore["id"]) or pending.get("shore") == shore["id"]
        edge = DIVE_EDGE if highlighted else (120, 100, 60)
        draw.ellipse(
            (c[0] - SHORE_R, c[1] - SHORE_R, c[0] + SHORE_R, c[1] + SHORE_R),
            fill=SHORE_FILL,
            outline=edge,
            width=5 if highlighted else 2,
        )
        pawn = shore["pawn"]
        if pawn is None:
            put_text(draw, c, str(shore["id"]), font=font(28, True), fill=(40, 30, 10), anchor="mm")
        else:
            grey = solo and pawn["round"] != public["round"]
            paste_sprite(image, pawn_sprite(pawn["seat"], PAWN, grey=grey), (c[0], c[1] - 4))
            put_text(
                draw,
                (c[0] + 24, c[1] + 22),
                str(shore["id"]),
                font=font(20, True),
                fill=(255, 255, 255),
                anchor="mm",
                stroke_width=3,
                stroke_fill=(0, 0, 0),
            )


def draw_arrow(draw: ImageDraw.ImageDraw, centre: tuple[float, float], section: str, public: Mapping[str, Any]) -> None:
    """The storm's arrow on the island, pointing at the middle of its section."""
    xs = [hex_centre(s["q"], s["r"]) for s in public["spaces"] if s["section"] == section]
    tx = sum(x for x, _ in xs) / len(xs) - centre[0]
    ty = sum(y for _, y in xs) / len(xs) - centre[1]
    length = math.hypot(tx, ty) or 1
    ux, uy = tx / length, ty / length
    tip = (centre[0] + ux * 56, centre[1] + uy * 56)
    tail = (centre[0] - ux * 30, centre[1] - uy * 30)
    draw.line((tail, tip), fill=(20, 20, 30), width=12)
    draw.line((tail, tip), fill=(240, 240, 250), width=7)
    px, py = -uy, ux
    head = [
        (tip[0] + ux * 16, tip[1] + uy * 16),
        (tip[0] + px * 14, tip[1] + py * 14),
        (tip[0] - px * 14, tip[1] - py * 14),
    ]
    draw.polygon(head, fill=(240, 240, 250), outline=(20, 20, 30))


# --- jars and tokens --------------------------------------------------------------------------
def draw_jar(
    image: Image.Image, box: tuple[float, float], jar: Mapping[str, Any], locale: str, scale: float = 1.0
) -> None:
    """A jar card: its colour and name, points, and one circle per slot (filled with a die or empty)."""
    draw = ImageDraw.Draw(image)
    x, y = box
    w, h = JAR_W * scale, JAR_H * scale
    colour = JAR_COLOURS[jar["colour"]]
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=round(12 * scale), fill=shade(colour, 0.45), outline=colour, width=3
    )
    draw.rounded_rectangle((x, y, x + w, y + 30 * scale), radius=round(12 * scale), fill=colour)
    points_w = 0.0
    if jar["points"]:
        points = f"+{jar['points']}"
        points_w = font(round(20 * scale), True).getlength(points) + 8 * scale
        put_text(
            draw,
            (x + w - 10 * scale, y + 15 * scale),
            points,
            font=font(round(20 * scale), True),
            fill=(20, 16, 10),
            anchor="rm",
        )
    mark = 16 * scale  # the jar colour's shape, as on its score tokens
    draw_shape(
        draw,
        JAR_SHAPES[jar["colour"]],
        (x + 8 * scale, y + 15 * scale - mark / 2, x + 8 * scale + mark, y + 15 * scale + mark / 2),
        (250, 245, 230),
        (20, 16, 10),
        1,
    )
    name_x = x + 14 * scale + mark
    name, fnt = fitted(jar_name(jar, locale), x + w - 10 * scale - points_w - name_x, round(20 * scale), True)
    put_text(draw, (name_x, y + 15 * scale), name, font=fnt, fill=(20, 16, 10), anchor="lm")
    slots = jar["slots"]
    dice = jar.get("dice") or [None] * len(slots)
    r = 12 * scale
    per_row = 3 if len(slots) > 4 else len(slots)
    rows = [slots[:per_row], slots[per_row:]] if len(slots) > per_row else [slots]
    gap = 2 * r + 10 * scale
    k = 0
    for row_i, row in enumerate(rows):
        cy = y + 30 * scale + (h - 30 * scale) * (row_i + 1) / (len(rows) + 1)
        for i, c in enumerate(row):
            cx = x + w / 2 + (i - (len(row) - 1) / 2) * gap
            d = dice[k]
            kind = DIE_SHAPES[c]
            slot = (cx - r, cy - r, cx + r, cy + r)
            if d is None:
                draw_shape(draw, kind, slot, shade(colour, 0.3), DICE[c], round(4 * scale))
            else:
                draw_shape(draw, kind, slot, DICE[c], (255, 255, 255), 2)
                put_text(
                    draw,
                    digit_centre(kind, slot),
                    str(d["face"]),
                    font=font(round(2 * r * DIGIT_SIZE[kind]), True),
                    fill=(255, 255, 255),
                    anchor="mm",
                    stroke_width=2,
                    stroke_fill=(20, 20, 30),
                )
            k += 1


def draw_token(draw: ImageDraw.ImageDraw, centre: tuple[float, float], colour: str, value: int, r: int = 17) -> None:
    """A score token: its value in its jar colour's shape (``JAR_SHAPES``)."""
    x, y = centre
    kind = JAR_SHAPES[colour]
    box = (x - r, y - r, x + r, y + r)
    draw_shape(draw, kind, box, JAR_COLOURS[colour], (250, 245, 230), 2)
    put_text(
        draw,
        digit_centre(kind, box),
        str(value),
        font=font(round(2 * r * DIGIT_SIZE[kind] * 0.95), True),
        fill=(255, 255, 255),
        anchor="mm",
        stroke_width=2,
        stroke_fill=(30, 20, 10),
    )


# --- the right-hand side ----------------------------------------------------------------------
def draw_top(image: Image.Image, public: Mapping[str, Any], locale: str) -> None:
    draw = ImageDraw.Draw(image)
    box = (RIGHT_X0, 14, RIGHT_X1, 14 + TOP_H)
    shadowed_box(image, box, 18, PANEL, PANEL_EDGE)
    x0, y0 = box[0] + 18, box[1] + 12
    direction = t(f"noctiluca.render.direction.{public['direction']}", locale)
    title = t(
        "noctiluca.render.title",
        locale,
        round=public["round"],
        rounds=ROUNDS,
        direction=direction,
        count=public["lid_total"],
    )
    shown, fnt = fitted(title, box[2] - box[0] - 36, 24, True)
    put_text(draw, (x0, y0 + 12), shown, font=fnt, fill=TEXT, anchor="lm")
    # token stacks, under their name: the top value and how many are left
    # (solo, the storm's box beside them needs the room: the name is shorter and the stacks closer)
    key, step = ("noctiluca.render.stacks-short", 96) if public["solo"] else ("noctiluca.render.stacks", 110)
    label, label_font = fitted(t(key, locale), STACKS_LABEL_W, 20, True, 14)
    put_text(draw, (x0, y0 + 56), label, font=label_font, fill=MUTED, anchor="lm")
    sx = x0 + label_font.getlength(label) + 12
    for colour in ("gold", "brown", "red"):
        stack = public["stacks"][colour]
        if stack:
            draw_token(draw, (sx + 20, y0 + 56), colour, stack[0], 19)
            put_text(draw, (sx + 46, y0 + 56), f"×{len(stack)}", font=font(22, True), fill=TEXT, anchor="lm")
        else:
            shown, fnt = fitted(t("noctiluca.render.empty", locale), 96, 20)
            put_text(draw, (sx, y0 + 56), shown, font=fnt, fill=MUTED, anchor="lm")
        sx += step
    if public["solo"]:
        draw_storm(image, public, (sx + 10, y0 + 36, box[2] - 16, box[3] - 10), locale)
        deck = t("noctiluca.render.jar-deck", locale, n=public["deck_size"])
        shown, fnt = fitted(deck, sx - x0 - 10, 22, True)
        put_text(draw, (x0, y0 + 96), shown, font=fnt, fill=TEXT, anchor="lm")
        return
    if public["piles"]:
        shown, fnt = fitted(t("noctiluca.render.piles", locale), box[2] - 16 - (sx + 20), 20)
        put_text(draw, (sx + 20, y0 + 56), shown, font=fnt, fill=MUTED, anchor="lm")
    if public["phase"] == "keep":
        note = t("noctiluca.render.keep-note", locale, n=public["deck_size"])
        lines = wrap(note, font(22), box[2] - box[0] - 36, max_lines=2)
        for i, line in enumerate(lines):
            y = y0 + 118 + i * 28 - (len(lines) - 1) * 14
            put_text(draw, (x0, y), line, font=font(22), fill=MUTED, anchor="lm")
    for i, pile in enumerate(public["piles"]):
        px = x0 + i * (JAR_W * 0.92 + 8)
        py = y0 + 86
        if pile["top"]:
            draw_jar(image, (px, py), pile["top"], locale, 0.92)
        else:
            draw.rounded_rectangle(
                (px, py, px + JAR_W * 0.92, py + JAR_H * 0.92), radius=12, outline=PANEL_EDGE, width=2
            )
            draw_centred(
                draw,
                (px + 6, py, px + JAR_W * 0.92 - 6, py + JAR_H * 0.92),
                t("noctiluca.render.empty", locale),
                20,
                MUTED,
            )
        left = t("noctiluca.render.pile-left", locale, pile=i + 1, n=pile["size"])
        draw_centred(
            draw, (px, py + JAR_H * 0.92 + 2, px + JAR_W * 0.92, py + JAR_H * 0.92 + 22), left, 17, MUTED, True
        )


def draw_storm(
    image: Image.Image, public: Mapping[str, Any], box: tuple[float, float, float, float], locale: str
) -> None:
    draw = ImageDraw.Draw(image)
    storm = public["storm"]
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=14, fill=(34, 30, 60), outline=(150, 140, 220), width=2)
    arrow = [
        (t("noctiluca.render.storm", locale) + " → ", TEXT),
        (t(f"noctiluca.render.section.{storm['arrow']}", locale), shade(SECTION_TINT[storm["arrow"]], 1.45)),
    ]
    runs, fnt = fit_runs(arrow, x1 - x0 - 24 - 30, 21, True)
    width = draw_runs(draw, (x0 + 12, y0 + 18), runs, fnt)
    turning = "↻" if storm["turning"] == "clockwise" else "↺"
    put_text(draw, (x0 + 18 + width, y0 + 18), turning, font=font(24, True), fill=TEXT, anchor="lm")
    dice = storm["dice"]
    shown, fnt = fitted(t("noctiluca.render.storm-dice", locale, n=len(dice)), x1 - x0 - 24, 20, True)
    put_text(draw, (x0 + 12, y0 + 50), shown, font=fnt, fill=(255, 170, 170), anchor="lm")
    tx = x0 + 24
    for tok in storm["tokens"][-12:]:
        draw_token(draw, (tx, y0 + 90), tok["colour"], tok["value"], 15)
        tx += 34
        if tx > x1 - 20:
            break
    last = storm.get("last")
    if last:
        section = t(f"noctiluca.render.section.{last['section']}", locale)
        text = t("noctiluca.render.storm-last", locale, roll=last["roll"], section=section, n=len(last["removed"]))
        lines, fnt, _ = fitted_lines(text, x1 - x0 - 24, 2, 18, min_size=12)
        for i, line in enumerate(lines):
            put_text(draw, (x0 + 12, y1 - 16 - (len(lines) - 1 - i) * 20), line, font=fnt, fill=MUTED, anchor="lm")


def draw_players(image: Image.Image, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    draw = ImageDraw.Draw(image)
    n = public["players"]
    top = 14 + TOP_H + 14
    height = (H - 14 - top - 10 * (n - 1)) / n
    height = min(height, 300)
    movers = set(public.get("to_move", []))
    for seat in range(n):
        info = public["seats"][seat]
        y0 = top + seat * (height + 10)
        box = (RIGHT_X0, y0, RIGHT_X1, y0 + height)
        edge = DIVE_EDGE if seat in movers else PANEL_EDGE
        draw.rounded_rectangle(box, radius=16, fill=PANEL, outline=edge, width=4 if seat in movers else 2)
        paste_sprite(image, pawn_sprite(seat, 38), (box[0] + 26, y0 + 25))
        tokens_x0 = draw_seat_tokens(draw, info["tokens"], box[2] - 14, y0 + 24)
        draw_seat_line(draw, public, info, seat, names, (box[0] + 50, y0 + 24, tokens_x0 - 12), locale)
        scale = min(1.3, (height - 56) / JAR_H)
        jx = box[0] + 16
        for jar in info["jars"]:
            draw_jar(image, (jx, y0 + 46), jar, locale, scale)
            jx += JAR_W * scale + 10
        draw_delivered(draw, (jx + 10, y0 + 46, box[2] - 12, box[3] - 8), info["delivered"], locale)
        if public["phase"] == "keep":
            chosen = public["pending"]["chosen"][seat]
            text = t("noctiluca.render.has-kept" if chosen else "noctiluca.render.choosing", locale)
            shown, fnt = fitted(text, box[2] - box[0] - 64, 22)
            put_text(draw, (box[0] + 50, y0 + 70), shown, font=fnt, fill=GOOD if chosen else MUTED, anchor="lm")


def draw_seat_tokens(draw: ImageDraw.ImageDraw, tokens: Sequence[Mapping[str, Any]], x1: float, y: float) -> float:
    """A seat's score tokens, right-aligned to ``x1``; return where they start."""
    shown = tokens if len(tokens) <= MAX_TOKENS_SHOWN else tokens[: MAX_TOKENS_SHOWN - 1]
    more = f"+{len(tokens) - len(shown)}" if len(shown) < len(tokens) else ""
    more_w = font(18, True).getlength(more) + 6 if more else 0
    x0 = x1 - 32 * len(shown) - more_w
    for i, tok in enumerate(shown):
        draw_token(draw, (x0 + 16 + 32 * i, y), tok["colour"], tok["value"], 16)
    if more:
        put_text(draw, (x1, y), more, font=font(18, True), fill=TEXT, anchor="rm")
    return x0


def draw_seat_line(
    draw: ImageDraw.ImageDraw,
    public: Mapping[str, Any],
    info: Mapping[str, Any],
    seat: int,
    names: Sequence[str],
    where: tuple[float, float, float],
    locale: str,
) -> None:
    """The name, the first-player marker, then the pawns left (or, at the end, the favourite colour)."""
    x0, y, x1 = where
    marker = " ①" if seat == public["first"] and public["players"] > 1 else ""
    stats: list[tuple[str, Color]]
    if info.get("favourite"):
        fav = info["favourite"]
        stats = [(" · ", MUTED), (t("noctiluca.render.favourite", locale, colour=colour_word(fav, locale)), DICE[fav])]
    else:
        stats = [(" · " + t("noctiluca.render.pawns", locale, n=info["pawns"]), MUTED)]
    stats, stats_font = fit_runs(stats, (x1 - x0) * 0.45, 20, True, min_size=14)
    stats_w = sum(stats_font.getlength(text) for text, _ in stats)
    name, fnt = fitted(seat_name(names, seat, locale=locale) + marker, x1 - x0 - stats_w, 24, True, min_size=14)
    put_text(draw, (x0, y), name, font=fnt, fill=TEXT, anchor="lm")
    draw_runs(draw, (x0 + fnt.getlength(name), y), stats, stats_font)


def draw_delivered(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], jars: Sequence, locale: str
) -> None:
    """Delivered jars as small cards of their colour with their points and slot count."""
    x0, y0, x1, y1 = box
    if not jars:
        return
    shown, fnt = fitted(t("noctiluca.render.delivered", locale, n=len(jars)), x1 - x0, 16, True)
    put_text(draw, (x0, y0 + 8), shown, font=fnt, fill=MUTED, anchor="lm")
    x, y = x0, y0 + 22
    for jar in jars:
        if x + 40 > x1:
            x, y = x0, y + 50
        if y + 44 > y1 + 4:
            break
        colour = JAR_COLOURS[jar["colour"]]
        draw.rounded_rectangle((x, y, x + 38, y + 44), radius=7, fill=colour, outline=(250, 245, 230), width=2)
        put_text(draw, (x + 19, y + 14), f"+{jar['points']}", font=font(16, True), fill=(20, 16, 10), anchor="mm")
        put_text(draw, (x + 19, y + 32), f"{len(jar['slots'])}●", font=font(14, True), fill=(20, 16, 10), anchor="mm")
        x += 44


def status_text(public: Mapping[str, Any], names: Sequence[str], locale: str) -> str:
    """The line under the pool: what the last dive took, or what is being passed; the scores at the end."""
    pending = public.get("pending", {})
    if public["phase"] == "over" and public.get("result"):
        scores = public["result"]["scores"]
        return t(
            "noctiluca.render.final",
            locale,
            scores=" · ".join(f"{seat_name(names, s, locale=locale)} {sc}" for s, sc in enumerate(scores)),
        )
    if public["phase"] == "store":
        return t(
            "noctiluca.render.still-stores",
            locale,
            name=seat_name(names, public["current"], locale=locale),
            dice=die_words(pending["hand"], locale),
        )
    if public["phase"] == "pass":
        return t(
            "noctiluca.render.passed-to",
            locale,
            name=seat_name(names, pending["receiver"], locale=locale),
            dice=die_words(pending["dice"], locale),
        )
    if public["phase"] == "path" and "shore" in pending:
        return t("noctiluca.render.paths", locale, shore=pending["shore"])
    if public.get("last_dive"):
        dive = public["last_dive"]
        taken = t("noctiluca.render.list-separator", locale).join(
            colour_word(d["colour"], locale) for d in dive["taken"]
        ) or t("noctiluca.render.nothing", locale)
        who = seat_name(names, dive["seat"], locale=locale)
        return t(
            f"noctiluca.render.last-dive.{dive['path']}",
            locale,
            name=who,
            shore=dive["shore"],
            number=dive["number"],
            dice=taken,
        )
    return ""


def draw_status(image: Image.Image, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    draw = ImageDraw.Draw(image)
    text = status_text(public, names, locale)
    if text:
        shown, fnt = fitted(text, 860, 22, True)
        put_text(draw, (20, H - 22), shown, font=fnt, fill=TEXT, anchor="lm")


TURN_PHASES = ("keep", "shore", "path", "number", "store", "pass", "deliver", "pile", "draw", "over")


def turn_text(public: Mapping[str, Any], names: Sequence[str], locale: str) -> str:
    """Who acts and what they do, in a few words (the key line of the board)."""
    phase = str(public.get("phase"))
    pending = public.get("pending") or {}
    movers = list(public.get("to_move") or [public.get("current")])
    seat = pending.get("receiver") if phase == "pass" else movers[0] if movers else public.get("current")
    key = f"noctiluca.render.turn.{phase}" if phase in TURN_PHASES else "noctiluca.render.turn.other"
    if phase == "keep" and len(movers) == 1:  # solo, or the last one still choosing
        key = "noctiluca.render.turn.keep-one"
    return t(key, locale, name=seat_name(names, seat, locale=locale), shore=pending.get("shore", "?"))


def phone_keys(public: Mapping[str, Any], names: Sequence[str], locale: str) -> list[Key]:
    """The board's key lines, read inline on a phone: whose turn, the points so far, what the last dive did."""
    turn = [turn_text(public, names, locale)]
    if public["phase"] != "over":
        turn.append(t("noctiluca.render.key.round", locale, round=public["round"], rounds=ROUNDS))
    keys = [Key("turn", turn, DIVE_EDGE)]
    result = public.get("result")
    if result:
        keys.append(Key("scores", scored("noctiluca.render.final", result["scores"], names, locale), TEXT))
    else:
        points = [sum(int(tok["value"]) for tok in info["tokens"]) for info in public["seats"]]
        keys.append(Key("scores", scored("noctiluca.render.key.tokens", points, names, locale), TEXT))
    change = status_text(public, names, locale)
    if change and not result:
        keys.append(Key("change", [change], CHANGE))
    return keys


def scored(key: str, points: Sequence[int], names: Sequence[str], locale: str) -> list[str]:
    """Each seat's name and points, the first one inside the heading ``key`` (so they break apart, never inside)."""
    items = [f"{seat_name(names, s, locale=locale)} {p}" for s, p in enumerate(points)]
    return [t(key, locale, scores=items[0]), *items[1:]] if items else []


def board(public: NoctilucaPublic, names: Sequence[str], *, locale: str = "en", phone: bool = True) -> Image.Image:
    """The pool, the stacks and piles, the players; with ``phone`` under the band of key lines (``render.phone``)."""
    image = sea((W, H))
    draw_pool(image, public, locale)
    draw_top(image, public, locale)
    draw_players(image, public, names, locale)
    if not phone:
        draw_status(image, public, names, locale)  # on a posted board, the band says it
        return image
    return with_band(image, phone_keys(public, names, locale), background=PHONE_BAND, edge=DIVE_EDGE)


# --- the hand ---------------------------------------------------------------------------------
def hand(
    public: NoctilucaPublic, private: NoctilucaPrivate, names: Sequence[str], seat: int, *, locale: str = "en"
) -> Image.Image:
    image = sea((HAND_W, HAND_H))
    draw = ImageDraw.Draw(image)
    title, fnt = fitted(
        t("noctiluca.render.hand-title", locale, name=seat_name(names, seat, locale=locale)), HAND_W - 60, 34, True
    )
    put_text(draw, (30, 36), title, font=fnt, fill=TEXT, anchor="lm")
    fav = private.get("favourite")
    box = (30, 80, 380, HAND_H - 30)
    shadowed_box(image, box, 22, PANEL, PANEL_EDGE)
    if fav:
        colour = DICE[fav["colour"]]
        draw_centred(
            draw,
            (box[0] + 14, box[1] + 16, box[2] - 14, box[1] + 56),
            t("noctiluca.render.favourite-title", locale),
            28,
            MUTED,
            True,
        )
        cx, cy = (box[0] + box[2]) / 2, box[1] + 230
        for i in range(5):
            a = math.radians(72 * i - 90)
            paste_sprite(image, die_sprite(fav["colour"], 1 + i, 56), (cx + 90 * math.cos(a), cy + 90 * math.sin(a)))
        draw.ellipse((cx - 44, cy - 44, cx + 44, cy + 44), fill=colour, outline=(255, 255, 255), width=4)
        word = colour_word(fav["colour"], locale).upper()
        draw_centred(draw, (box[0] + 10, cy + 130, box[2] - 10, cy + 180), word, 44, colour, True)
        reminder = wrap(t("noctiluca.render.favourite-rule", locale), font(22), box[2] - box[0] - 30, max_lines=3)
        for i, line in enumerate(reminder):
            put_text(draw, ((box[0] + box[2]) / 2, cy + 210 + i * 30), line, font=font(22), fill=TEXT, anchor="mm")
    x0 = 410
    hand_jars = private.get("hand") or []
    y: float = 90
    if hand_jars:
        title = t("noctiluca.render.dealt" if public.get("phase") == "keep" else "noctiluca.render.drawn", locale)
        kept = private.get("kept") or []
        if kept:
            title = t("noctiluca.render.secret-pick", locale)
        shown, fnt = fitted(title, HAND_W - x0 - 30, 28, True)
        put_text(draw, (x0, y + 10), shown, font=fnt, fill=TEXT, anchor="lm")
        for i, jar in enumerate(hand_jars):
            jx = x0 + i * (JAR_W * 1.6 + 24)
            draw_jar(image, (jx, y + 40), jar, locale, 1.6)
            if jar["id"] in kept:
                draw.rounded_rectangle(
                    (jx - 6, y + 34, jx + JAR_W * 1.6 + 6, y + 46 + JAR_H * 1.6), radius=20, outline=DIVE_EDGE, width=6
                )
                draw_centred(
                    draw,
                    (jx, y + 54 + JAR_H * 1.6, jx + JAR_W * 1.6, y + 86 + JAR_H * 1.6),
                    t("noctiluca.render.kept", locale),
                    24,
                    DIVE_EDGE,
                    True,
                )
        y += 60 + JAR_H * 1.6 + 50
    own = public["seats"][seat]["jars"] if public.get("seats") else []
    if own:
        shown, fnt = fitted(t("noctiluca.render.your-jars", locale), HAND_W - x0 - 30, 28, True)
        put_text(draw, (x0, y + 10), shown, font=fnt, fill=TEXT, anchor="lm")
        for i, jar in enumerate(own):
            draw_jar(image, (x0 + i * (JAR_W * 1.6 + 24), y + 40), jar, locale, 1.6)
    elif not hand_jars:
        shown, fnt = fitted(t("noctiluca.render.no-jar", locale), HAND_W - x0 - 30, 28, True)
        put_text(draw, (x0, y + 10), shown, font=fnt, fill=MUTED, anchor="lm")
    return image


RENDERER = GameRenderer(GAME_ID, board=board, hand=hand, board_budget=BOARD_BUDGET, hand_budget=HAND_BUDGET)
