"""The key lines of a board, drawn large enough to read inline on a phone, above the full board.

Discord shows an inline image about 330-400 px wide on a 390 px phone, so a 1600 px board is seen
at about a quarter of its size: its 24-30 px labels become 5-7 px, too small to read. Every board
therefore opens with a band holding what a player checks first: whose turn it is and what they
must do (``turn``), the scores (``scores``) and what the last move changed (``change``), at a size
whose capital letters are at least ``MIN_CAP`` pixels tall once the picture is shrunk to
``INLINE_WIDTH``. The rest of the board stays below at full resolution, for a tap.

Why 9 px: on a 390 pt phone one image pixel at inline scale is one point. The smallest text style
iOS offers (Caption 2, 11 pt) has capitals about 8 pt tall and Android's smallest (12 sp) about
8.5; 9 px capitals are a 12.5 px font, the size of the captions people read under photos. CJK
characters are drawn taller than Latin capitals at the same font size, so the Latin cap height is
the stricter of the two.

Lines are never cut: a line too long for the width breaks between its items (a name with its
score stays together) and, inside an item, between words or CJK characters. The drawn lines and
their boxes are kept in ``image.info["key_lines"]`` (``KeyLine``), so a test measures what was drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.common import RGB, Box, Palette, font, put_text, wrap
from render.fonts import unkept_font

INLINE_WIDTH = 360  # px: how wide Discord shows an inline image on a 390 px phone (330-400)
MIN_CAP = 9.0  # px: the least cap height of a key line at inline scale (see the module doc)
KEY_ROLES = ("turn", "scores", "change")
PAD_X, PAD_Y = 28, 16
LINE_GAP = 1.22  # line height in font sizes
SEPARATOR = "  ·  "


@dataclass(frozen=True)
class KeyLine:
    """One drawn line of the band: its role, its text, its ink box on the final image, its font size."""

    role: str
    text: str
    box: Box
    size: int

    def cap_height(self) -> float:
        """The height of a capital letter of this line's font, in pixels of the full image."""
        return cap_height(self.size)


@dataclass(frozen=True)
class Key:
    """What a board puts in its band: a role, the pieces of the line (kept whole when they fit), a colour."""

    role: str
    items: Sequence[str]
    fill: RGB = Palette.TEXT


@lru_cache(maxsize=64)
def cap_height(size: int, bold: bool = True) -> float:
    """The ink height of "H" in the font of ``size`` (its cap height), in pixels."""
    box = font(size, bold).getbbox("H", anchor="ls")
    return float(-box[1])


@lru_cache(maxsize=16)
def key_size(width: int) -> int:
    """The smallest font size whose capitals are ``MIN_CAP`` px tall once ``width`` is shown ``INLINE_WIDTH`` wide."""
    scale = INLINE_WIDTH / width
    size = 8
    while cap_height(size) * scale < MIN_CAP:
        size += 1
    return size


def flow(items: Sequence[str], fnt: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Lay ``items`` out in lines of at most ``width``, joined by ``SEPARATOR``, breaking between items.

    An item wider than a line is wrapped on its own (between words, or CJK characters).
    """
    lines: list[str] = []
    current = ""
    for item in (i for i in items if i):
        joined = f"{current}{SEPARATOR}{item}" if current else item
        if fnt.getlength(joined) <= width:
            current = joined
            continue
        if current:
            lines.append(current)
        if fnt.getlength(item) <= width:
            current = item
        else:
            pieces = wrap(item, fnt, width, max_lines=12)
            lines += pieces[:-1]
            current = pieces[-1]
    if current:
        lines.append(current)
    return lines


def band(
    width: int, keys: Sequence[Key], background: RGB = Palette.PANEL_DARK, edge: RGB = Palette.ACCENT
) -> tuple[Image.Image, list[KeyLine]]:
    """The band of key lines for a board ``width`` wide, and where each line was drawn in it."""
    size = key_size(width)
    fnt = unkept_font(size, True)  # the key lines change at every move: their masks are not worth keeping
    laid = [(key, line) for key in keys for line in flow(key.items, fnt, width - 2 * PAD_X)]
    step = round(size * LINE_GAP)
    height = 2 * PAD_Y + step * len(laid) + 6
    image = Image.new("RGB", (width, height), background)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, height - 6, width, height), fill=edge)
    drawn: list[KeyLine] = []
    for i, (key, line) in enumerate(laid):
        xy = (PAD_X, PAD_Y + i * step + step / 2)
        put_text(draw, xy, line, font=fnt, fill=key.fill, anchor="lm")
        box = draw.textbbox(xy, line, font=fnt, anchor="lm")
        drawn.append(KeyLine(key.role, line, tuple(float(v) for v in box), size))  # type: ignore[arg-type]
    return image, drawn


def with_band(
    board: Image.Image,
    keys: Sequence[Key],
    *,
    crop_top: int = 0,
    background: RGB = Palette.PANEL_DARK,
    edge: RGB = Palette.ACCENT,
    between: Image.Image | None = None,
) -> Image.Image:
    """``board`` under its band of key lines (its top ``crop_top`` px, a header the band replaces, left out),
    and ``between`` them a picture of the same mode, if given (a detail drawn large for a phone).

    The result keeps the board's mode; ``info["key_lines"]`` lists the lines drawn, in its coordinates (the
    band's, then those ``between`` lists in ``info["key_lines"]``), and ``info["board_offset"]`` how far down
    the board's own drawing moved.
    """
    top, lines = band(board.width, keys, background, edge)
    middle = between.height if between is not None else 0
    out = Image.new(board.mode, (board.width, top.height + middle + board.height - crop_top))
    out.paste(board, (0, top.height + middle - crop_top))  # its top, under the band, is painted over next
    if between is not None:
        out.paste(between, (0, top.height))
        for line in key_lines(between):
            x0, y0, x1, y1 = line.box
            lines.append(KeyLine(line.role, line.text, (x0, y0 + top.height, x1, y1 + top.height), line.size))
    out.paste(top if board.mode == "RGB" else top.convert(board.mode), (0, 0))
    out.info["key_lines"] = lines
    out.info["board_offset"] = top.height + middle - crop_top  # add to the board's own y to find a point on ``out``
    return out


def key_lines(image: Image.Image) -> list[KeyLine]:
    """The key lines drawn on a board (empty for a picture without a band)."""
    return list(image.info.get("key_lines", []))
