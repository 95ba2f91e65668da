"""Fox Duet drawings: suit symbols, gems, paws, forest tokens and the fox tracker.

Each is a list of Pillow shapes in a unit square (see ``render.common.Shape``), painted large,
shrunk and cached by ``icon``. ``SUITS`` holds each suit's colours; ``suit_label`` names it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from l10n import t
from render.common import RGB, Color, Shape, paint_shapes, shade, supersampled

GEM_COLORS = {"main": (168, 85, 247), "light": (221, 190, 255), "dark": (110, 40, 180)}
GEM_EDGE = (46, 16, 80)
FOX_ORANGE = (244, 120, 28)


@dataclass(frozen=True)
class SuitStyle:
    main: RGB  # the symbol on a card
    dark: RGB  # ranks and outlines on a card
    bright: RGB  # text on the dark forest background


SUITS = {
    "dove": SuitStyle((52, 126, 214), (22, 66, 140), (128, 190, 255)),
    "rose": SuitStyle((214, 48, 74), (140, 20, 44), (255, 128, 146)),
    "star": SuitStyle((240, 170, 24), (150, 96, 0), (255, 208, 90)),
}
UNKNOWN_SUIT = SuitStyle((120, 120, 120), (60, 60, 60), (200, 200, 200))


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
    "gem": (GEM, dict(GEM_COLORS), GEM_EDGE),  # a copy typed as dict[str, Color] (dicts are invariant)
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
    outline: Color | None
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


def suit_label(suit: str, locale: str) -> str:
    """A suit's name in ``locale`` (the bot's word for it, so images and messages agree)."""
    return t(f"fox-duet.suit.{suit}", locale) if suit in SUITS else "?"
