"""Vivarium's symbols, drawn with Pillow shapes in a unit square and cached as sprites.

Types (animal, plant, mineral, dragon), equipment icons (lamp, mister, net, lens), the gem, and
the habitat colours every card and chip uses.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import RGB, Color, Shape, paint_shapes, supersampled

HABITAT_COLORS: dict[str, RGB] = {
    "mountain": (112, 132, 170),
    "forest": (58, 136, 70),
    "desert": (222, 168, 70),
    "swamp": (112, 88, 150),
}
HABITAT_TEXT: dict[str, RGB] = {
    "mountain": (255, 255, 255),
    "forest": (255, 255, 255),
    "desert": (52, 34, 10),
    "swamp": (255, 255, 255),
}
TYPE_COLORS: dict[str, RGB] = {
    "animal": (168, 92, 40),
    "plant": (46, 128, 52),
    "mineral": (60, 150, 190),
    "dragon": (196, 44, 44),
}
ICON_COLORS: dict[str, RGB] = {
    "lamp": (236, 160, 20),
    "mister": (40, 140, 210),
    "net": (120, 96, 70),
    "lens": (110, 70, 170),
}
GEM_COLORS = {"main": (36, 190, 170), "light": (170, 250, 236), "dark": (14, 110, 100)}
GEM_EDGE: RGB = (6, 60, 56)

PAW: list[Shape] = [
    ("ellipse", (0.24, 0.46, 0.76, 0.94), "main"),
    ("ellipse", (0.04, 0.30, 0.26, 0.56), "main"),
    ("ellipse", (0.24, 0.06, 0.46, 0.36), "main"),
    ("ellipse", (0.54, 0.06, 0.76, 0.36), "main"),
    ("ellipse", (0.74, 0.30, 0.96, 0.56), "main"),
]
LEAF: list[Shape] = [
    ("poly", (0.47, 0.70, 0.53, 0.70, 0.55, 0.98, 0.45, 0.98), "dark"),
    ("poly", (0.50, 0.02, 0.80, 0.22, 0.90, 0.50, 0.72, 0.76, 0.50, 0.84, 0.28, 0.76, 0.10, 0.50, 0.20, 0.22), "main"),
    ("poly", (0.48, 0.14, 0.52, 0.14, 0.53, 0.80, 0.47, 0.80), "light"),
]
CRYSTAL: list[Shape] = [
    ("poly", (0.30, 0.20, 0.50, 0.02, 0.70, 0.20, 0.70, 0.80, 0.50, 0.98, 0.30, 0.80), "main"),
    ("poly", (0.30, 0.20, 0.50, 0.02, 0.50, 0.98, 0.30, 0.80), "light"),
    ("poly", (0.06, 0.46, 0.18, 0.36, 0.30, 0.46, 0.30, 0.86, 0.18, 0.96, 0.06, 0.86), "dark"),
    ("poly", (0.70, 0.40, 0.82, 0.30, 0.94, 0.40, 0.94, 0.84, 0.82, 0.94, 0.70, 0.84), "dark"),
]
DRAGON: list[Shape] = [
    ("poly", (0.06, 0.96, 0.20, 0.50, 0.40, 0.20, 0.70, 0.04, 0.96, 0.06, 0.80, 0.22, 0.94, 0.32, 0.70, 0.40), "main"),
    ("poly", (0.70, 0.40, 0.60, 0.66, 0.46, 0.56, 0.34, 0.82, 0.22, 0.70, 0.06, 0.96), "main"),
    ("poly", (0.40, 0.20, 0.70, 0.04, 0.62, 0.26), "light"),
    ("ellipse", (0.70, 0.10, 0.80, 0.20), "eye"),
]
LAMP: list[Shape] = [
    ("ellipse", (0.18, 0.02, 0.82, 0.66), "main"),
    ("poly", (0.32, 0.56, 0.68, 0.56, 0.64, 0.80, 0.36, 0.80), "main"),
    ("poly", (0.34, 0.80, 0.66, 0.80, 0.66, 0.96, 0.34, 0.96), "dark"),
    ("ellipse", (0.30, 0.14, 0.50, 0.34), "light"),
]
DROP: list[Shape] = [
    ("poly", (0.50, 0.02, 0.80, 0.52, 0.20, 0.52), "main"),
    ("ellipse", (0.18, 0.34, 0.82, 0.98), "main"),
    ("ellipse", (0.30, 0.54, 0.46, 0.74), "light"),
]
NET: list[Shape] = [
    ("ellipse", (0.04, 0.04, 0.96, 0.96), "main"),
    ("ellipse", (0.14, 0.14, 0.86, 0.86), "light"),
    *(("poly", (x, 0.12, x + 0.06, 0.12, x + 0.06, 0.88, x, 0.88), "main") for x in (0.30, 0.47, 0.64)),
    *(("poly", (0.12, y, 0.88, y, 0.88, y + 0.06, 0.12, y + 0.06), "main") for y in (0.30, 0.47, 0.64)),
]
LENS: list[Shape] = [
    ("poly", (0.56, 0.64, 0.66, 0.54, 0.98, 0.86, 0.88, 0.96), "dark"),
    ("ellipse", (0.02, 0.02, 0.70, 0.70), "main"),
    ("ellipse", (0.12, 0.12, 0.60, 0.60), "light"),
]
GEM: list[Shape] = [
    ("poly", (0.22, 0.12, 0.78, 0.12, 0.98, 0.40, 0.5, 0.94, 0.02, 0.40), "main"),
    ("poly", (0.22, 0.12, 0.78, 0.12, 0.68, 0.40, 0.32, 0.40), "light"),
    ("poly", (0.32, 0.40, 0.68, 0.40, 0.5, 0.94), "dark"),
]
SHAPES = {
    "animal": PAW,
    "plant": LEAF,
    "mineral": CRYSTAL,
    "dragon": DRAGON,
    "lamp": LAMP,
    "mister": DROP,
    "net": NET,
    "lens": LENS,
    "gem": GEM,
}


def _colors(kind: str) -> tuple[dict[str, Color], Color]:
    if kind == "gem":
        return dict(GEM_COLORS), GEM_EDGE
    base = TYPE_COLORS.get(kind) or ICON_COLORS.get(kind) or (120, 120, 120)
    r, g, b = base
    light: RGB = (min(255, r + 90), min(255, g + 90), min(255, b + 90))
    dark: RGB = (max(0, r - 60), max(0, g - 60), max(0, b - 60))
    if kind == "net":
        light = (250, 246, 232)
    return {"main": base, "light": light, "dark": dark, "eye": (255, 240, 200)}, (30, 24, 20)


@lru_cache(maxsize=128)
def icon(kind: str, size: int) -> Image.Image:
    """A cached sprite of a type, an equipment icon or a gem."""
    shapes = SHAPES.get(kind, GEM)
    colors, outline = _colors(kind)

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        box = (0.08 * size * s, 0.08 * size * s, 0.92 * size * s, 0.92 * size * s)
        paint_shapes(draw, shapes, box, colors, outline, max(1.2, size * 0.03) * s)

    return supersampled((size, size), paint)


@lru_cache(maxsize=64)
def badge(kind: str, size: int, ring: RGB = (250, 245, 230)) -> Image.Image:
    """An icon on a round cream disc, readable on any card colour."""

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        draw.ellipse((0, 0, size * s - 1, size * s - 1), fill=ring, outline=(40, 34, 28), width=round(2 * s))

    disc = supersampled((size, size), paint)
    inner = icon(kind, round(size * 0.78))
    disc.alpha_composite(inner, ((size - inner.width) // 2, (size - inner.height) // 2))
    return disc
