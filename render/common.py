"""Drawing helpers shared by every game's renderer: fonts, text, boxes, sprites, PNG output."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, Protocol, TypeVar

import regex
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from l10n import t
from render.fonts import GRAPHEME, clean, shorten
from render.fonts import font as font  # the renderers import it from here
from render.fonts import put_text as put_text  # every renderer draws its text with it

# Sprites are painted this many times larger, then shrunk: Pillow's shapes have no anti-aliasing.
SUPERSAMPLE = 4

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Color = RGB | RGBA
Box = tuple[float, float, float, float]


class Palette:
    """Colours shared by the renderers: a dark forest with warm cream text."""

    BG_TOP: RGB = (22, 46, 34)
    BG_BOTTOM: RGB = (12, 30, 22)
    PANEL: RGB = (32, 62, 46)
    PANEL_EDGE: RGB = (70, 110, 82)
    PANEL_DARK: RGB = (17, 38, 28)
    TEXT: RGB = (246, 240, 222)
    TEXT_MUTED: RGB = (170, 190, 170)
    TEXT_DARK: RGB = (34, 30, 24)
    CREAM: RGB = (250, 245, 230)
    ACCENT: RGB = (255, 138, 36)
    GOOD: RGB = (84, 190, 110)
    BAD: RGB = (214, 72, 72)
    SHADOW: RGBA = (0, 0, 0, 90)


# The typed views a game's drawers read (docs/ENGINE.md, "Typed views").
PublicT = TypeVar("PublicT", contravariant=True)
PrivateT = TypeVar("PrivateT", contravariant=True)
PublicV = TypeVar("PublicV")
PrivateV = TypeVar("PrivateV")


class BoardDrawer(Protocol[PublicT]):
    """Draws a public board; ``phone`` (the default) puts the band of key lines on top (``render.phone``)."""

    def __call__(
        self, public: PublicT, names: Sequence[str], *, locale: str = ..., phone: bool = ...
    ) -> Image.Image: ...


class HandDrawer(Protocol[PublicT, PrivateT]):
    def __call__(
        self,
        public: PublicT,
        private: PrivateT,
        names: Sequence[str],
        seat: int,
        *,
        locale: str = ...,
    ) -> Image.Image: ...


@dataclass(frozen=True)
class GameRenderer(Generic[PublicV, PrivateV]):
    """One game's drawing functions and byte budgets, as registered in ``render.RENDERERS``.

    ``board(public, names, *, locale)`` sees only the public part of a view; ``hand(public, private,
    names, seat, *, locale)`` draws one seat's private hand and may use the public part for
    reference. ``locale`` is the language every word on the image is drawn in (see ``l10n``).
    """

    game_id: str
    board: BoardDrawer[PublicV]
    hand: HandDrawer[PublicV, PrivateV]
    board_budget: int
    hand_budget: int


# --- fonts and text ---------------------------------------------------------------------------


def clean_text(text: str) -> str:
    """Drop control characters and what no font of the stack draws, so no empty boxes show; tidy spaces."""
    return " ".join(clean(text).split())


# A text that does not fit at its ``min_size`` shrinks on, down to this, before it is ever cut: a name
# or a label is better small (a tap shows the board at full size) than cut.
LAST_RESORT_SIZE = 10


@lru_cache(maxsize=256)
def sizes_down(size: int, min_size: int, last: int = LAST_RESORT_SIZE) -> tuple[int, ...]:
    """The sizes a text tries, largest first: ``size`` down to ``min_size``, then on to ``last``, two by two
    (every size tried is a font made and kept, so few distinct ones), ending on ``min_size`` and ``last``."""
    first = [*range(size, min_size - 1, -2), min(size, min_size)]
    then = [*range(min(size, min_size) - 2, last - 1, -2), min(size, min_size, last)]
    return tuple(dict.fromkeys([*first, *then]))


def fit_font(text: str, max_width: float, size: int, bold: bool = False, min_size: int = 12) -> ImageFont.FreeTypeFont:
    """Return the largest font from ``size`` down to ``min_size`` (then, if need be, ``LAST_RESORT_SIZE``)
    that fits ``text`` in width."""
    for s in sizes_down(size, min_size):
        fnt = font(s, bold)
        if fnt.getlength(text) <= max_width:
            return fnt
    return font(min(min_size, LAST_RESORT_SIZE), bold)


def ellipsize(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    """Cut ``text`` with an ellipsis so it fits ``max_width``, never inside an emoji or accented letter."""
    if fnt.getlength(text) <= max_width:
        return text
    clusters = GRAPHEME.findall(text)
    while clusters and fnt.getlength("".join(clusters) + "…") > max_width:
        clusters.pop()
    return "".join(clusters).rstrip() + "…"


def fitted(
    text: str, max_width: float, size: int, bold: bool = False, min_size: int = 12
) -> tuple[str, ImageFont.FreeTypeFont]:
    """Shrink, then if needed cut, ``text`` to fit ``max_width``; return the text and its font."""
    fnt = fit_font(text, max_width, size, bold, min_size)
    return ellipsize(text, fnt, max_width), fnt


# Scripts written without spaces: a line may break between any two of their characters.
_UNSPACED = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Bopomofo}\u3000-\u303F\uFF00-\uFFEF]")
# Punctuation that never starts a line (it stays with the character before it).
_NO_LINE_START = frozenset("，。、；：！？）」』】》〉…‥・,.;:!?)]}%")


def _pieces(text: str) -> list[tuple[str, bool]]:
    """The unbreakable pieces of ``text``, each with whether a space came before it."""
    pieces: list[tuple[str, bool]] = []
    for word in text.split():
        start = len(pieces)
        for cluster in GRAPHEME.findall(word):
            glued = len(pieces) > start and (
                cluster[0] in _NO_LINE_START or not (_UNSPACED.match(cluster) or _UNSPACED.match(pieces[-1][0][-1]))
            )
            if glued:
                pieces[-1] = (pieces[-1][0] + cluster, pieces[-1][1])
            else:
                pieces.append((cluster, len(pieces) == start))
    return pieces


def _joined(pieces: Sequence[tuple[str, bool]]) -> str:
    return "".join((" " if spaced and i else "") + piece for i, (piece, spaced) in enumerate(pieces))


def wrap(text: str, fnt: ImageFont.FreeTypeFont, max_width: float, max_lines: int = 3) -> list[str]:
    """Break ``text`` into lines that fit ``max_width``; the last line is cut if more remain.

    Lines break at spaces, and between the characters of Chinese or Japanese text, which has none.
    """
    lines = _broken(text, fnt, max_width)
    if len(lines) > max_lines:
        lines = lines[: max_lines - 1] + [[piece for line in lines[max_lines - 1 :] for piece in line]]
    return [ellipsize(_joined(line), fnt, max_width) for line in lines]


def _broken(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> list[list[tuple[str, bool]]]:
    """``text``'s pieces in lines of at most ``max_width`` (a piece wider than that alone on its line)."""
    lines: list[list[tuple[str, bool]]] = []
    current: list[tuple[str, bool]] = []
    for piece in _pieces(text):
        if not current or fnt.getlength(_joined([*current, piece])) <= max_width:
            current.append(piece)
        else:
            lines.append(current)
            current = [piece]
    if current:
        lines.append(current)
    return lines


def whole_lines(
    text: str, max_width: float, max_lines: int, size: int, bold: bool = False, min_size: int = LAST_RESORT_SIZE
) -> tuple[list[str], ImageFont.FreeTypeFont] | None:
    """``text`` wrapped in at most ``max_lines`` lines of ``max_width`` at the largest size from ``size`` down to
    ``min_size`` that needs no cut, with its font; None when even ``min_size`` needs one."""
    for s in sizes_down(size, min_size, min_size):
        fnt = font(s, bold)
        lines = [_joined(line) for line in _broken(text, fnt, max_width)]
        if len(lines) <= max_lines and all(fnt.getlength(line) <= max_width for line in lines):
            return lines, fnt
    return None


def fitted_lines(
    text: str, max_width: float, max_lines: int, size: int, bold: bool = False, min_size: int = LAST_RESORT_SIZE
) -> tuple[list[str], ImageFont.FreeTypeFont, bool]:
    """``whole_lines``, or at ``min_size`` the lines as ``wrap`` cuts them; the flag says whether the text is whole."""
    found = whole_lines(text, max_width, max_lines, size, bold, min_size)
    if found is not None:
        return found[0], found[1], True
    fnt = font(min_size, bold)
    return wrap(text, fnt, max_width, max_lines), fnt, False


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: Color,
    anchor: str = "la",
    max_width: float | None = None,
) -> float:
    """Draw ``text`` at an anchor (Pillow anchors: "mm" centred, "ls" left baseline...).

    With ``max_width`` the text is cut with an ellipsis to fit. Return the drawn width.
    """
    if max_width is not None:
        text = ellipsize(text, fnt, max_width)
    put_text(draw, xy, text, font=fnt, fill=fill, anchor=anchor)
    return fnt.getlength(text)


def draw_centred(
    draw: ImageDraw.ImageDraw,
    box: Box,
    text: str,
    size: int,
    fill: Color,
    bold: bool = False,
    min_size: int = 12,
) -> None:
    """Draw ``text`` centred in ``box``, shrunk (then cut) to fit its width."""
    x0, y0, x1, y1 = box
    shown, fnt = fitted(text, x1 - x0, size, bold, min_size)
    put_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), shown, font=fnt, fill=fill, anchor="mm")


def draw_runs(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    runs: Sequence[tuple[str, Color]],
    fnt: ImageFont.FreeTypeFont,
    anchor_v: str = "m",
) -> float:
    """Draw coloured pieces of text one after another on a line; return the total width."""
    x, y = xy
    for text, fill in runs:
        put_text(draw, (x, y), text, font=fnt, fill=fill, anchor="l" + anchor_v)
        x += fnt.getlength(text)
    return x - xy[0]


def runs_width(runs: Sequence[tuple[str, Color]], fnt: ImageFont.FreeTypeFont) -> float:
    return sum(fnt.getlength(text) for text, _ in runs)


def fit_runs(
    runs: Sequence[tuple[str, Color]], max_width: float, size: int, bold: bool = False, min_size: int = 12
) -> tuple[list[tuple[str, Color]], ImageFont.FreeTypeFont]:
    """Shrink coloured runs to fit ``max_width`` (below ``min_size`` down to ``LAST_RESORT_SIZE`` if need be);
    at the smallest size cut the tail with an ellipsis."""
    for s in sizes_down(size, min_size):
        fnt = font(s, bold)
        if runs_width(runs, fnt) <= max_width:
            return list(runs), fnt
    fnt = font(min(min_size, LAST_RESORT_SIZE), bold)
    fitted_runs: list[tuple[str, Color]] = []
    used = 0.0
    for text, fill in runs:
        room = max_width - used
        if fnt.getlength(text) > room:
            fitted_runs.append((ellipsize(text, fnt, room), fill))
            break
        fitted_runs.append((text, fill))
        used += fnt.getlength(text)
    return fitted_runs, fnt


# --- boxes and sprites ------------------------------------------------------------------------


def circle(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    fill: Color | None = None,
    outline: Color | None = None,
    width: int = 1,
) -> None:
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=width)


def shadowed_box(
    image: Image.Image,
    box: Box,
    radius: int,
    fill: Color,
    outline: Color | None = None,
    width: int = 2,
    offset: int = 6,
) -> None:
    """Draw a rounded panel with a soft drop shadow under it."""
    x0, y0, x1, y1 = (int(v) for v in box)
    shadow = shadow_mask(x1 - x0, y1 - y0, radius, offset)
    corner = (x0 - 2 * offset, y0 - 2 * offset)
    if image.mode == "RGB":
        image.paste((0, 0, 0), corner, shadow)  # the same blend as the black sprite through its alpha
    else:
        sprite = Image.new("RGBA", shadow.size, (0, 0, 0, 0))
        sprite.putalpha(shadow)
        image.paste(sprite, corner, sprite)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=fill, outline=outline, width=width)


@lru_cache(maxsize=64)
def shadow_mask(w: int, h: int, radius: int, offset: int) -> Image.Image:
    """A blurred rounded shape, the opacity of a panel's shadow, made once per panel size (kept as
    one byte a pixel: as black RGBA sprites, the shadows of every game's panels were 13 MB)."""
    pad = 2 * offset
    mask = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(mask).rounded_rectangle((pad, pad + offset, pad + w, pad + h + offset), radius=radius, fill=110)
    return mask.filter(ImageFilter.GaussianBlur(offset))


def supersampled(size: tuple[int, int], paint: Callable[[ImageDraw.ImageDraw, float], None]) -> Image.Image:
    """Paint a transparent RGBA sprite at ``SUPERSAMPLE`` times ``size`` and shrink it smoothly.

    ``paint(draw, scale)`` draws in the large image; it multiplies its own coordinates
    (given for ``size``) by ``scale``.
    """
    w, h = size
    big = Image.new("RGBA", (w * SUPERSAMPLE, h * SUPERSAMPLE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), float(SUPERSAMPLE))
    return big.resize((w, h), Image.Resampling.LANCZOS)


def paste_sprite(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    """Paste an RGBA sprite centred on ``centre``."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    image.paste(sprite, (x, y), sprite)


def vertical_gradient(size: tuple[int, int], top: RGB, bottom: RGB, mode: str = "RGB") -> Image.Image:
    """A new ``mode`` image fading from ``top`` to ``bottom``: its one-pixel column (made once, about
    5 ms at 900 px) stretched to the width (about 1.5 ms at 1600x900, twice a copy). A board's
    background is not kept whole: five of them were 30 MB of a drawing worker."""
    w, h = size
    return _gradient_column(h, top, bottom, mode).resize((w, h), Image.Resampling.NEAREST)


@lru_cache(maxsize=32)
def _gradient_column(h: int, top: RGB, bottom: RGB, mode: str) -> Image.Image:
    column = Image.new("RGB", (1, h))
    column.putdata(
        [tuple(round(t + (b - t) * y / max(1, h - 1)) for t, b in zip(top, bottom, strict=True)) for y in range(h)]
    )
    return column if mode == "RGB" else column.convert(mode)


def shade(color: RGB, factor: float) -> RGB:
    """Darken (factor < 1) or lighten (factor > 1, towards white) a colour."""
    if factor <= 1:
        return tuple(round(c * factor) for c in color)  # type: ignore[return-value]
    t = min(1.0, factor - 1)
    return tuple(round(c + (255 - c) * t) for c in color)  # type: ignore[return-value]


# Shapes in a unit square: ("ellipse", (x0, y0, x1, y1), role) or ("poly", (x, y, x, y, ...), role); the
# role picks a colour from the painter's map, so one drawing serves several colourings.
Shape = tuple[str, tuple[float, ...], str]
DETAIL_ROLES = frozenset({"eye", "light", "dark"})


def paint_shapes(
    draw: ImageDraw.ImageDraw,
    shapes: Sequence[Shape],
    box: Box,
    colors: Mapping[str, Color],
    outline: Color | None = None,
    grow: float = 0.0,
) -> None:
    """Paint unit-square shapes into ``box``; the outline is the silhouette grown by ``grow``.

    The outline is painted first under every non-detail shape, so overlapping parts show one
    clean contour rather than each part's own edge.
    """
    x0, y0, x1, y1 = box
    sx, sy = x1 - x0, y1 - y0

    def at(coords: tuple[float, ...]) -> list[tuple[float, float]]:
        return [(x0 + coords[i] * sx, y0 + coords[i + 1] * sy) for i in range(0, len(coords), 2)]

    passes = [True, False] if outline is not None and grow > 0 else [False]
    for is_outline in passes:
        for kind, coords, role in shapes:
            if is_outline and role in DETAIL_ROLES:
                continue
            fill = outline if is_outline else colors.get(role, colors["main"])
            if kind == "ellipse":
                (a, b), (c, d) = at(coords)
                g = grow if is_outline else 0
                draw.ellipse((a - g, b - g, c + g, d + g), fill=fill)
            elif is_outline:
                draw.polygon(at(coords), fill=fill, outline=fill, width=max(1, round(2 * grow)))
            else:
                draw.polygon(at(coords), fill=fill)


def dashed_slot(draw: ImageDraw.ImageDraw, box: Box, text: str, radius: int = 14) -> None:
    """A dark rounded place with a dashed edge and a short caption, where a card will go."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=radius, fill=Palette.PANEL_DARK)
    dash, gap, edge = 14, 10, Palette.PANEL_EDGE
    for x in range(int(x0) + radius, int(x1) - radius, dash + gap):
        draw.line((x, y0, min(x + dash, x1 - radius), y0), fill=edge, width=3)
        draw.line((x, y1, min(x + dash, x1 - radius), y1), fill=edge, width=3)
    for y in range(int(y0) + radius, int(y1) - radius, dash + gap):
        draw.line((x0, y, x0, min(y + dash, y1 - radius)), fill=edge, width=3)
        draw.line((x1, y, x1, min(y + dash, y1 - radius)), fill=edge, width=3)
    fnt = font(24, True)
    lines = wrap(text, fnt, x1 - x0 - 20, 2)
    for i, line in enumerate(lines):
        line_y = (y0 + y1) / 2 + (i - (len(lines) - 1) / 2) * 30
        put_text(draw, ((x0 + x1) / 2, line_y), line, font=fnt, fill=Palette.TEXT_MUTED, anchor="mm")


def panel_title(draw: ImageDraw.ImageDraw, box: Box, text: str) -> None:
    """A small capitalised heading in a panel's top-left corner."""
    put_text(draw, (box[0] + 24, box[1] + 30), text, font=font(24, True), fill=Palette.TEXT_MUTED, anchor="lm")


def backdrop(size: tuple[int, int]) -> Image.Image:
    """The forest backdrop, a dark green gradient: a new image to draw on."""
    return vertical_gradient(size, Palette.BG_TOP, Palette.BG_BOTTOM)


def backdrop_rgba(size: tuple[int, int]) -> Image.Image:
    """``backdrop`` in RGBA, for renderers that composite sprites on it: a new image to draw on."""
    return vertical_gradient(size, Palette.BG_TOP, Palette.BG_BOTTOM, "RGBA")


def gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    """``vertical_gradient``: a new image to draw on."""
    return vertical_gradient(size, top, bottom)


# --- output -----------------------------------------------------------------------------------

# Below this, even a tiny palette PNG may not fit: the budget is a caller's mistake.
MIN_BUDGET_BYTES = 1024
SHRINK_STEP = 0.8
# zlib level when not optimising: on our flat-colour boards level 6 is ~2% bigger than
# optimize (level 9) and about 3x faster (45 ms against 145 ms for a 1600x900 board).
FAST_COMPRESS_LEVEL = 6
# Boards and hands are posted after every move: a 256-colour palette (fast octree, no dither)
# at zlib level 1 costs about a third of a truecolour PNG at level 6 and half its bytes
# (bench/move_cpu.py). Our pictures are flat fills, anti-aliased text and soft gradients,
# which 256 colours hold without visible banding.
PALETTE_COLOURS = 256
PALETTE_COMPRESS_LEVEL = 1


def _png_bytes(image: Image.Image, optimize: bool, level: int = FAST_COMPRESS_LEVEL) -> bytes:
    buf = io.BytesIO()
    if optimize:
        image.save(buf, format="PNG", optimize=True)
    else:
        image.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()


# The palette is chosen on the picture reduced this many times each way (a ninth of the pixels:
# the fast octree costs 13-19 ms on a 1600x900 board, 2-4 ms on its reduction), then every pixel
# of the picture takes the nearest colour of that palette (4 ms). Our large flat fills all survive
# the reduction; what it blends (anti-aliased edges, thin lines) finds its nearest colour, at about
# the octree's own error (about 1 level of 255 on average on every game's boards). A palette chosen once per
# game and reused for its next boards is cheaper again, but a board showing a colour the first one
# lacked (a crimson card after an orange one) gets it wrong by a whole suit.
PALETTE_SAMPLE = 3


def _palette(image: Image.Image, colours: int) -> Image.Image:
    """``image`` in ``colours`` colours by the fast octree, undithered (dither noise on flat fills
    costs bytes and looks like grain on a phone); an RGB picture's palette is chosen on its reduction."""
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if "A" in image.getbands() or image.mode == "P" else "RGB")
    if image.mode == "RGB" and min(image.size) >= 64 * PALETTE_SAMPLE:
        sample = image.reduce(PALETTE_SAMPLE)
        chosen = sample.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        return image.quantize(palette=chosen, dither=Image.Dither.NONE)
    return image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode_png(image: Image.Image, budget_bytes: int, optimize: bool = True, palette: bool = False) -> bytes:
    """Encode ``image`` as PNG within ``budget_bytes``.

    Try a full-colour PNG (or, with ``palette``, a 256-colour palette PNG at a fast zlib level,
    as boards and hands are), then a 256-colour palette PNG, then ever smaller palette images
    until one fits. ``optimize`` asks zlib for its best (and slowest) compression at every step.
    """
    if budget_bytes < MIN_BUDGET_BYTES:
        raise ValueError(f"a PNG budget of {budget_bytes} bytes is too small")
    if image.mode not in ("RGB", "RGBA", "L", "P"):
        image = image.convert("RGB")
    if palette:
        level = PALETTE_COMPRESS_LEVEL
        data = _png_bytes(_palette(image, PALETTE_COLOURS), optimize, level)
        quantize = _palette
    else:
        level = FAST_COMPRESS_LEVEL
        data = _png_bytes(image, optimize)
        if len(data) <= budget_bytes:
            return data
        quantize = _median_cut
    if len(data) <= budget_bytes:
        return data
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    if not palette:
        data = _png_bytes(quantize(rgb, 256), optimize, level)
    scaled = rgb
    while len(data) > budget_bytes:
        w, h = round(scaled.width * SHRINK_STEP), round(scaled.height * SHRINK_STEP)
        if w < 16 or h < 16:
            raise ValueError(f"cannot fit the image in {budget_bytes} bytes")
        scaled = rgb.resize((w, h), Image.Resampling.LANCZOS)
        data = _png_bytes(quantize(scaled, 128), optimize, level)
    return data


def _median_cut(image: Image.Image, colours: int) -> Image.Image:
    return image.quantize(colors=colours, method=Image.Quantize.MEDIANCUT)


MAX_NAME_CHARS = 20


def seat_name(names: Sequence[str], seat: int | None, max_chars: int = MAX_NAME_CHARS, *, locale: str = "en") -> str:
    """Display name of a seat, cleaned for the fonts and cut to ``max_chars``; a placeholder if nothing is left.

    ``max_chars`` counts Latin-letter widths: a CJK character or an emoji counts two, as it is
    drawn about twice as wide, so a name slot sized for 20 letters holds 10 ideographs.
    """
    if seat is None:
        return "?"
    name = clean_text(str(names[seat])) if 0 <= seat < len(names) else ""
    if not name:
        return t("player.fallback", locale, number=seat + 1)
    return shorten(name, max_chars)
