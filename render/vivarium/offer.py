"""Seven or eight cards on offer, as tiles that read inline on a phone.

Four large cards in a row (what ``board.on_offer`` draws for up to six, three in a row) leave an
equipment's ability at about 5.5 px capitals once the board is shown 360 px wide. With seven or
eight on offer each card is drawn instead as a short tile, two in a row and four rows down, in about
the same height: the cell it is in ("R2 C3", a key line) and its name on the first line, then what the
choice depends on, across the tile: a creature's type, habitat and points; an equipment's ability
(its timing tag and gems beside its icon); a contract's goal. The whole card stays on the board below.
Colours keep their meaning from the grid (a creature's habitat, the equipment and contract faces), and
each tile also carries a shape: the type's or the icon's badge, or a contract's sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from l10n import t
from render.common import RGB, Palette, font, put_text, whole_lines, wrap
from render.phone import KeyLine, cap_height
from render.vivarium.card_pictures import (
    CONTRACT_EDGE,
    CONTRACT_FACE,
    EQUIPMENT_FACE,
    INK,
    POINTS_DISC,
    TIMING,
    ability_text,
    goal_lines,
    name_of,
    word,
)
from render.vivarium.icons import HABITAT_COLORS, HABITAT_TEXT, ICON_COLORS, TYPE_COLORS, badge, icon

PAD, GAP = 24, 16  # around the strip; between two tiles
INSET = 16  # inside a tile
BADGE = 96
PER_ROW = 2
NAME_SIZE, NAME_MIN = 56, 46  # the name's font: 9.2 px capitals inline at 360 px, 7.6 at the least
TEXT_SIZE, TEXT_MIN = 48, 42  # what the choice depends on: 7.9 px capitals inline, 6.9 at the least
LINE = 1.16  # line height, in font sizes
CONTRACT_INK = (90, 54, 10)


@dataclass(frozen=True)
class Tile:
    """One card's tile, laid out: its cell's name, its name's lines and font, its text's lines and font."""

    row: int
    col: int
    card: Mapping[str, Any]
    cell: str
    names: list[str]
    name_font: ImageFont.FreeTypeFont
    texts: list[str]
    text_font: ImageFont.FreeTypeFont

    def height(self) -> int:
        top = max(len(self.names) * round(self.name_font.size * LINE), round(cap_height(NAME_SIZE) * 1.9))
        body = len(self.texts) * round(self.text_font.size * LINE)
        return INSET + top + max(body, BADGE) + INSET


def face(card: Mapping[str, Any]) -> tuple[RGB, RGB, RGB]:
    """The tile's fill, edge and ink, as the card's on the grid."""
    kind = card.get("kind")
    if kind == "creature":
        habitat = str(card.get("habitat"))
        return (
            HABITAT_COLORS.get(habitat, (128, 128, 128)),
            TYPE_COLORS.get(str(card.get("type")), INK),
            HABITAT_TEXT.get(habitat, (255, 255, 255)),
        )
    if kind == "equipment":
        return EQUIPMENT_FACE, ICON_COLORS.get(str(card.get("icon")), INK), INK
    return CONTRACT_FACE, CONTRACT_EDGE, CONTRACT_INK


def described(card: Mapping[str, Any], locale: str) -> list[str]:
    """What the choice of this card depends on, beside its name: one text, or a contract's goal in two (what it
    counts, then its points), each wrapped on its own."""
    kind = card.get("kind")
    if kind == "creature":
        kind_word = word("type", card.get("type"), locale).upper()
        return [t("vivarium.render.separator", locale).join([kind_word, word("habitat", card.get("habitat"), locale)])]
    if kind == "equipment":
        return [ability_text(card.get("ability", {}), locale)]
    return [part for part in goal_lines(card.get("goal", {}), locale) if part]


def side(card: Mapping[str, Any], locale: str) -> str:
    """What stands at the right of the name: a creature's points, an equipment's gems."""
    if card.get("kind") == "creature":
        return str(card.get("points", 0))
    gems = int(card.get("gems", 0)) if card.get("kind") == "equipment" else 0
    return f"+{gems}" if gems else ""


def laid_out(cards: Sequence[tuple[int, int, Mapping[str, Any]]], w: int, locale: str) -> list[Tile]:
    """Each card's tile, ``w`` wide: the name on one line if it fits at ``NAME_MIN``, else two; the text in
    at most two lines under it (three, smaller, rather than a cut)."""
    tiles = []
    label_font = font(NAME_SIZE, True)
    for row, col, card in cards:
        cell = t("vivarium.render.cell", locale, row=row, col=col)
        right = side(card, locale)
        # The name starts after the cell's label (its text, 28 px of padding, 16 of gap) and ends 16 px before
        # what stands at the right.
        room = w - 2 * INSET - label_font.getlength(cell) - 44 - (_side_width(card, right) + 16 if right else 0)
        name = name_of(card, locale)
        found = whole_lines(name, room, 1, NAME_SIZE, True, NAME_MIN) or whole_lines(name, room, 2, NAME_MIN, True, 30)
        names, name_font = found if found is not None else (wrap(name, font(30, True), room, 2), font(30, True))
        texts, text_font = text_lines(described(card, locale), w - 2 * INSET - BADGE - INSET)
        tiles.append(Tile(row, col, card, cell, names, name_font, texts, text_font))
    return tiles


def text_lines(parts: list[str], room: float) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """``parts`` in at most two lines in all at the largest size from ``TEXT_SIZE`` to ``TEXT_MIN`` that cuts
    nothing; else three, smaller, down to 28 px (cut only then)."""
    for most, largest, least in ((2, TEXT_SIZE, TEXT_MIN), (3, TEXT_MIN, 28)):
        for size in range(largest, least - 1, -2):
            found = [whole_lines(part, room, most, size, True, size) for part in parts]
            if all(f is not None for f in found):
                lines = [line for f in found if f is not None for line in f[0]]
                if len(lines) <= most:
                    return lines, font(size, True)
    fnt = font(28, True)
    return [line for part in parts for line in wrap(part, fnt, room, 3)][:3], fnt


def _side_width(card: Mapping[str, Any], text: str) -> float:
    """How wide what stands at the right of the name is drawn (``draw_tile``): a points disc, or gems and a gem."""
    if card.get("kind") == "creature":
        return 2 * round(NAME_SIZE * 0.62)
    return font(NAME_SIZE, True).getlength(text) + 4 + round(NAME_SIZE * 0.8)


def tile_width(width: int) -> int:
    """How wide a tile is on a strip ``width`` wide."""
    return (width - 2 * PAD - (PER_ROW - 1) * GAP) // PER_ROW


def tiles_strip(cards: Sequence[tuple[int, int, Mapping[str, Any]]], width: int, locale: str) -> Image.Image:
    """The strip of tiles of ``cards``, two in a row, ``width`` wide; ``info["key_lines"]`` has the cells' names."""
    per_row = PER_ROW
    w = tile_width(width)
    tiles = laid_out(cards, w, locale)
    rows = [tiles[i : i + per_row] for i in range(0, len(tiles), per_row)]
    heights = [max(tile.height() for tile in row) for row in rows]
    height = 2 * PAD + sum(heights) + GAP * (len(rows) - 1)
    strip = Image.new("RGBA", (width, height), (*Palette.PANEL_DARK, 255))
    lines: list[KeyLine] = []
    y = PAD
    for row, h in zip(rows, heights, strict=True):
        for k, tile in enumerate(row):
            lines.append(draw_tile(strip, tile, (PAD + k * (w + GAP), y, PAD + k * (w + GAP) + w, y + h), locale))
        y += h + GAP
    out = strip.convert("RGB")
    out.info["key_lines"] = lines
    return out


def draw_tile(image: Image.Image, tile: Tile, box: tuple[int, int, int, int], locale: str) -> KeyLine:
    """Draw one tile in ``box``; return its cell's name as a key line."""
    x0, y0, x1, y1 = box
    fill, edge, ink = face(tile.card)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(box, 18, fill=fill, outline=edge, width=6)
    # The cell's name, in the board's highlight colour on a dark label, as the menu names it.
    label_font = font(NAME_SIZE, True)
    top_h = max(len(tile.names) * round(tile.name_font.size * LINE), round(cap_height(NAME_SIZE) * 1.9))
    label_w = label_font.getlength(tile.cell) + 28
    mid = y0 + INSET + top_h / 2
    draw.rounded_rectangle(
        (x0 + INSET, y0 + INSET, x0 + INSET + label_w, y0 + INSET + top_h), 12, fill=Palette.PANEL_DARK
    )
    xy = (x0 + INSET + label_w / 2, mid)
    put_text(draw, xy, tile.cell, font=label_font, fill=Palette.ACCENT, anchor="mm")
    cell_box = draw.textbbox(xy, tile.cell, font=label_font, anchor="mm")
    # The name beside it, and what stands at its right (points on a disc, gems).
    nx = x0 + INSET + label_w + 16
    step = round(tile.name_font.size * LINE)
    first = mid - (len(tile.names) - 1) * step / 2
    for i, line in enumerate(tile.names):
        put_text(draw, (nx, first + i * step), line, font=tile.name_font, fill=ink, anchor="lm")
    right = side(tile.card, locale)
    if right and tile.card.get("kind") == "creature":
        r = round(NAME_SIZE * 0.62)
        cx = x1 - INSET - r
        draw.ellipse((cx - r, mid - r, cx + r, mid + r), fill=POINTS_DISC, outline=INK, width=3)
        put_text(draw, (cx, mid), right, font=font(round(r * 1.3), True), fill=INK, anchor="mm")
    elif right:
        gem = round(NAME_SIZE * 0.8)
        image.alpha_composite(icon("gem", gem), (round(x1 - INSET - gem), round(mid - gem / 2)))
        put_text(draw, (x1 - INSET - gem - 4, mid), right, font=label_font, fill=(14, 110, 100), anchor="rm")
    # Under them: the shape (type, icon, contract sheet) and what the choice depends on.
    by = y0 + INSET + top_h + 8
    draw_mark(image, tile.card, (x0 + INSET, by), locale)
    tx = x0 + INSET + BADGE + INSET
    step = round(tile.text_font.size * LINE)
    body_h = len(tile.texts) * step
    ty = by + max(0, (min(BADGE, y1 - INSET - by) - body_h) / 2) + step / 2
    for i, line in enumerate(tile.texts):
        put_text(draw, (tx, ty + i * step), line, font=tile.text_font, fill=ink, anchor="lm")
    return KeyLine("choice", tile.cell, tuple(float(v) for v in cell_box), NAME_SIZE)  # type: ignore[arg-type]


def draw_mark(image: Image.Image, card: Mapping[str, Any], xy: tuple[int, int], locale: str) -> None:
    """The card's shape: its type's or icon's badge (an equipment's timing tag across its foot), or a sheet."""
    x, y = xy
    kind = card.get("kind")
    if kind in ("creature", "equipment"):
        mark = str(card.get("type") if kind == "creature" else card.get("icon"))
        image.alpha_composite(badge(mark, BADGE), (x, y))
        timing, color = TIMING.get(str((card.get("ability") or {}).get("kind")), ("", INK))
        if kind == "equipment" and timing:
            tag = t(f"vivarium.render.timing.{timing}", locale)
            tf = font(24, True)
            tw = min(tf.getlength(tag) + 14, BADGE + 12)
            draw = ImageDraw.Draw(image)
            draw.rounded_rectangle(
                (x + BADGE / 2 - tw / 2, y + BADGE - 22, x + BADGE / 2 + tw / 2, y + BADGE + 6), 8, fill=color
            )
            put_text(draw, (x + BADGE / 2, y + BADGE - 8), tag, font=tf, fill=(255, 255, 255), anchor="mm")
        return
    draw = ImageDraw.Draw(image)  # a contract: a sheet with its lines, on the contract's brown
    draw.rounded_rectangle(
        (x + 14, y + 4, x + BADGE - 14, y + BADGE - 4), 8, fill=(255, 248, 230), outline=CONTRACT_EDGE, width=5
    )
    for k in range(4):
        ly = y + 24 + k * 16
        draw.line((x + 28, ly, x + BADGE - 28 - (14 if k == 3 else 0), ly), fill=CONTRACT_EDGE, width=5)
