"""The font stack of the images: DejaVu Sans, then Noto Sans CJK TC, then Noto Color Emoji, per run of glyphs.

Pillow draws a string with one font and has no fallback of its own, so a player called 小明 or
🦊Zoë would show empty boxes. ``StackFont`` is a ``FreeTypeFont`` (DejaVu, so all-Latin text takes
Pillow's own path untouched) whose ``getmask2``/``getbbox``/``getlength`` cut the text into runs by
the first face of the stack that has their glyphs, and compose the runs on DejaVu's baseline. The
renderers' ``draw.text``, ``textbbox``, ``textlength`` and ``getlength`` calls need no change.

Where the faces come from (the bot runs, and draws what it can, wherever one is missing):
- DejaVu Sans (regular, bold) ships in ``data/fonts``.
- Noto Sans CJK TC: Debian's ``fonts-noto-cjk`` when installed (``scripts/setup.sh``, the
  Dockerfile: every CJK character, regular and bold), else the subset shipped in ``data/fonts``
  (Big5's frequent characters, one weight: see ``scripts/subset_cjk_font.py``).
- Noto Color Emoji: Debian's ``fonts-noto-color-emoji``. It is a bitmap font with one strike
  (109 px), so its glyphs are drawn at that size once, scaled to the text, and pasted in colour.
"""

from __future__ import annotations

import itertools
import logging
import math
import struct
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

import regex
from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]
from PIL import Image, ImageChops, ImageDraw, ImageFont

from engine.resources import data_file

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

log = logging.getLogger(__name__)

DEJAVU = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
CJK_SUBSET = "NotoSansCJKtc-Subset-Regular.otf"
CJK_FAMILY = "Noto Sans CJK TC"
# Standard places of the system fonts (Debian and Ubuntu first, then Fedora and Arch).
CJK_PATHS = {
    False: [
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    ],
    True: [
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc",
    ],
}
EMOJI_PATHS = [
    "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    "/usr/share/fonts/google-noto-emoji/NotoColorEmoji.ttf",
    "/usr/share/fonts/noto/NotoColorEmoji.ttf",
]
EMOJI_PPEM = 109  # Noto Color Emoji's only bitmap strike; FreeType refuses other sizes

GRAPHEME = regex.compile(r"\X")
_EMOJI_DEFAULT = regex.compile(r"\p{Emoji_Presentation}")
# Marks that make a cluster an emoji whatever its base: VS16, keycap, skin tones, tag letters, flags.
_EMOJI_MARKS = regex.compile(r"[\uFE0F\u20E3\U0001F3FB-\U0001F3FF\U000E0020-\U000E007F\p{Regional_Indicator}]")
_PICTOGRAPHIC = regex.compile(r"\p{Extended_Pictographic}")
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
# Format characters that belong inside an emoji sequence; every other control or format character goes.
_KEPT_FORMAT = frozenset({0x200D}) | frozenset(range(0xE0020, 0xE0080))


@dataclass(frozen=True)
class Face:
    """One font of the stack: its file (a path, or bytes for a zipped install), face index and coverage."""

    name: str
    source: str | bytes
    index: int
    cmap: frozenset[int]
    color: bool = False

    def load(self, size: float) -> ImageFont.FreeTypeFont:
        src = BytesIO(self.source) if isinstance(self.source, bytes) else self.source
        return ImageFont.truetype(src, size, index=self.index)


@dataclass(frozen=True)
class Stack:
    """The text faces in order of preference (the first is the base font) and the colour emoji face."""

    faces: tuple[Face, ...]
    emoji: Face | None


# --- finding the faces ------------------------------------------------------------------------


def _read_face(name: str, source: str | bytes, family: str | None = None, color: bool = False) -> Face | None:
    """Open a font file, pick the face of ``family`` in a collection, read its cmap; None if unusable."""
    try:
        stream: Any = BytesIO(source) if isinstance(source, bytes) else source
        index = 0
        if family is not None and not isinstance(source, bytes) and source.endswith((".ttc", ".otc")):
            with TTCollection(stream, lazy=True) as collection:
                index = [f["name"].getDebugName(1) for f in collection.fonts].index(family)
        with TTFont(stream, fontNumber=index, lazy=True) as font_file:
            cmap = font_file.getBestCmap() or {}
        face = Face(name, source, index, frozenset(cmap), color)
        face.load(EMOJI_PPEM if color else 24)  # FreeType must accept it too
        return face
    except Exception as exc:  # a missing, truncated or foreign file: draw with the others
        log.warning("font %s (%s) is not usable: %s", name, source if isinstance(source, str) else "bytes", exc)
        return None


def _packaged(name: str, filename: str) -> Face | None:
    """A font shipped in data/fonts, or None when it is missing from the install."""
    try:
        found = data_file("fonts", filename)
        # A path lets FreeType read the file as it needs it; bytes (a zipped install) are copied per size.
        source = str(found) if isinstance(found, Path) else found.read_bytes()
    except OSError as exc:
        log.warning("font %s is not in the install: %s", filename, exc)
        return None
    return _read_face(name, source)


def _first(name: str, paths: Sequence[str], family: str | None = None, color: bool = False) -> Face | None:
    for path in paths:
        if Path(path).is_file():
            face = _read_face(name, path, family, color)
            if face is not None:
                return face
    return None


@lru_cache(maxsize=2)
def stack(bold: bool = False) -> Stack:
    """The faces drawing bold or regular text, found once per process."""
    faces: list[Face | None] = [_packaged(DEJAVU[bold], DEJAVU[bold])]
    cjk = _first(f"{CJK_FAMILY} {'Bold' if bold else 'Regular'}", CJK_PATHS[bold], CJK_FAMILY)
    if cjk is None and bold:
        cjk = _first(f"{CJK_FAMILY} Regular", CJK_PATHS[False], CJK_FAMILY)
    if cjk is None:
        cjk = _packaged(f"{CJK_FAMILY} (subset)", CJK_SUBSET)
    faces.append(cjk)
    emoji = _first("Noto Color Emoji", EMOJI_PATHS, color=True)
    return Stack(tuple(f for f in faces if f is not None), emoji)


def clear_caches() -> None:
    """Forget the faces found and the fonts loaded (tests that move fonts away call this)."""
    for cached in (
        stack,
        _runs,
        _face_font,
        _emoji_piece,
        _scaled_emoji,
        _vertical_shift,
        _cached_layout,
        font,
        unkept_font,
    ):
        cached.cache_clear()
    masks.clear()
    measures.clear()


# --- cutting text into runs -------------------------------------------------------------------

EMOJI = -1  # the face number of a run drawn with the emoji face


def is_emoji_cluster(cluster: str) -> bool:
    """True when a grapheme cluster asks to be drawn as a colour emoji (by default or by its marks)."""
    if "\ufe0e" in cluster:  # VS15 asks for the text form
        return False
    if _EMOJI_DEFAULT.match(cluster) or _EMOJI_MARKS.search(cluster):
        return True
    return "\u200d" in cluster and bool(_PICTOGRAPHIC.match(cluster))


def cluster_face(st: Stack, cluster: str) -> int | None:
    """The face that draws ``cluster`` (an index of ``st.faces`` or ``EMOJI``); None when none can."""
    visible = [ord(c) for c in cluster if not _IGNORABLE.match(c)]
    if not visible:
        return None
    if st.emoji is not None and visible[0] in st.emoji.cmap and is_emoji_cluster(cluster):
        return EMOJI
    for i, face in enumerate(st.faces):
        if all(c in face.cmap for c in visible):
            return i
    for i, face in enumerate(st.faces):
        if visible[0] in face.cmap:
            return i
    if st.emoji is not None and visible[0] in st.emoji.cmap:
        return EMOJI
    return None


@lru_cache(maxsize=4096)
def _runs(st: Stack, text: str) -> tuple[tuple[int, str], ...]:
    """``text`` as (face, piece) runs; clusters nothing draws stay with the run before (a box, as before)."""
    runs: list[list[Any]] = []
    for cluster in GRAPHEME.findall(text):
        face = cluster_face(st, cluster)
        if face is None:
            face = runs[-1][0] if runs else 0
        if runs and runs[-1][0] == face:
            runs[-1][1] += cluster
        else:
            runs.append([face, cluster])
    return tuple((face, piece) for face, piece in runs)


def drawable(cluster: str, bold: bool = False) -> bool:
    """True when some face of the stack draws this grapheme cluster."""
    return cluster_face(stack(bold), cluster) is not None


def _kept_char(c: str) -> bool:
    category = unicodedata.category(c)
    if category in ("Cc", "Cs", "Co", "Cn"):
        return False
    return category != "Cf" or ord(c) in _KEPT_FORMAT


def clean(text: str) -> str:
    """``text`` without control characters and without the clusters no face of the stack draws."""
    kept = []
    for cluster in GRAPHEME.findall("".join(c for c in text if _kept_char(c))):
        if drawable(cluster):
            kept.append(cluster)
    return "".join(kept)


def columns(cluster: str) -> int:
    """How many Latin-letter widths a cluster takes: 2 for CJK (wide) characters and emoji, else 1."""
    if not cluster:
        return 0
    if is_emoji_cluster(cluster) or unicodedata.east_asian_width(cluster[0]) in ("W", "F"):
        return 2
    return 1


def shorten(text: str, max_columns: int) -> str:
    """Cut ``text`` with "…" to ``max_columns`` Latin-letter widths, never inside a grapheme cluster."""
    clusters = GRAPHEME.findall(text)
    if sum(columns(c) for c in clusters) <= max_columns:
        return text
    kept, used = [], 0
    for cluster in clusters:
        width = columns(cluster)
        if used + width > max_columns - 1:
            break
        kept.append(cluster)
        used += width
    return "".join(kept).rstrip() + "…"


# --- the font ---------------------------------------------------------------------------------


class Bounded:
    """A least-recently-used map holding at most ``limit`` in weight (bytes, or 1 per entry), thread-safe
    (the bot without workers draws in threads)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.weight = 0
        self.hits = 0
        self.misses = 0
        self._data: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: Hashable) -> Any:
        with self._lock:
            found = self._data.get(key)
            if found is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return found[0]

    def put(self, key: Hashable, value: Any, weight: int = 1) -> None:
        if weight > self.limit:
            return
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.weight -= old[1]
            self._data[key] = (value, weight)
            self.weight += weight
            while self.weight > self.limit:
                self.weight -= self._data.popitem(last=False)[1][1]

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.weight = 0


# The masks of text drawn (a board draws the same labels, names and numbers move after move), in
# bytes of pixels; and the lengths and boxes measured (fit_font, ellipsize and wrap measure the
# same text at each size), in entries.
MASK_CACHE_BYTES = 8 * 2**20
MEASURE_CACHE_ENTRIES = 8192
MASK_OVERHEAD = 256  # bytes an entry costs beyond its pixels (key, tuple, core object)
masks = Bounded(MASK_CACHE_BYTES)
measures = Bounded(MEASURE_CACHE_ENTRIES)
_serials = itertools.count()


# A CJK face costs 2-3 MB of a worker's memory at each size (its tables are read per size, about
# 1 ms): keep the few sizes in use, not every size fit_font() ever tried. Text drawn or measured
# again comes from ``masks`` and ``measures`` without its face.
FACE_CACHE = 4


@lru_cache(maxsize=FACE_CACHE)
def _face_font(face: Face, size: float) -> ImageFont.FreeTypeFont:
    return face.load(size)


@lru_cache(maxsize=512)
def _emoji_piece(face: Face, text: str) -> tuple[Image.Image, tuple[int, int], float]:
    """An emoji run at the face's own strike: the RGBA picture, its offset from the baseline origin, its advance."""
    fnt = _face_font(face, EMOJI_PPEM)
    core, offset = fnt.getmask2(text, "RGBA", anchor="ls")
    picture = Image.new("RGBA", core.size)
    picture.im = core  # the core image Pillow made, wrapped without a copy
    return picture, offset, fnt.getlength(text, "RGBA")


@lru_cache(maxsize=1024)
def _scaled_emoji(face: Face, text: str, size: float) -> tuple[Image.Image, tuple[float, float], float]:
    picture, (ox, oy), advance = _emoji_piece(face, text)
    scale = size / EMOJI_PPEM
    w, h = max(1, round(picture.width * scale)), max(1, round(picture.height * scale))
    return picture.resize((w, h), Image.Resampling.LANCZOS), (ox * scale, oy * scale), advance * scale


@lru_cache(maxsize=256)
def _vertical_shift(fnt: ImageFont.FreeTypeFont, v: str) -> int:
    """How far down anchor row ``v`` (a, m, d) moves text from the baseline, by the base font's metrics."""
    probe = ImageFont.FreeTypeFont.getbbox
    return int(probe(fnt, "x", anchor="l" + v)[1] - probe(fnt, "x", anchor="ls")[1])


@dataclass(frozen=True)
class _Piece:
    face: int
    text: str
    pen: float  # the run's origin on the baseline, from the text's origin
    box: tuple[float, float, float, float]  # ink box from the run's own baseline origin


class StackFont(ImageFont.FreeTypeFont):
    """DejaVu at ``size`` that hands the runs it lacks to the stack's other faces (see the module doc)."""

    def __init__(self, st: Stack, size: float) -> None:
        base = st.faces[0]
        super().__init__(BytesIO(base.source) if isinstance(base.source, bytes) else base.source, size, base.index)
        self.stack = st
        self.serial = next(_serials)  # names this font in the shared caches (an id could be reused)
        self.keeps_masks = True  # False for text drawn once (see ``unkept_font``): its masks are not kept

    def __getstate__(self) -> list[Any]:
        return [self.stack, self.size]

    def __setstate__(self, state: list[Any]) -> None:
        StackFont.__init__(self, state[0], state[1])

    def font_variant(
        self,
        font: Any = None,
        size: float | None = None,
        index: int | None = None,
        encoding: str | None = None,
        layout_engine: ImageFont.Layout | None = None,
    ) -> ImageFont.FreeTypeFont:
        if font is None and index is None and encoding is None and layout_engine is None:
            return StackFont(self.stack, self.size if size is None else size)
        return super().font_variant(font, size, index, encoding, layout_engine)

    def _split(self, text: str | bytes, direction: str | None) -> tuple[tuple[int, str], ...] | None:
        """The runs of ``text``, or None when the base font alone draws it (Pillow's own path)."""
        if isinstance(text, bytes) or text.isascii() or direction not in (None, "ltr") or "\n" in text:
            return None
        runs = _runs(self.stack, text)
        return None if len(runs) == 1 and runs[0][0] == 0 else runs

    def has_colour(self, text: str) -> bool:
        """True when ``text`` has a run drawn from the colour emoji face."""
        runs = self._split(text, None)
        return runs is not None and any(face == EMOJI for face, _ in runs)

    def _layout(
        self, runs: tuple[tuple[int, str], ...], features: list[str] | None, language: str | None, stroke: float
    ) -> tuple[list[_Piece], float]:
        if features is None:
            # fitted() and ellipsize() measure the same text at each size: lay it out once.
            return _cached_layout(self, runs, language, stroke)
        return self._measure(runs, features, language, stroke)

    def _measure(
        self, runs: tuple[tuple[int, str], ...], features: list[str] | None, language: str | None, stroke: float
    ) -> tuple[list[_Piece], float]:
        pieces, pen = [], 0.0
        for face, piece in runs:
            if face == EMOJI:
                assert self.stack.emoji is not None
                picture, (ox, oy), advance = _scaled_emoji(self.stack.emoji, piece, self.size)
                box = (ox, oy, ox + picture.width, oy + picture.height)
            else:
                fnt = self if face == 0 else _face_font(self.stack.faces[face], self.size)
                lsbox = ImageFont.FreeTypeFont.getbbox(fnt, piece, "", None, features, language, stroke, "ls")
                advance = ImageFont.FreeTypeFont.getlength(fnt, piece, "", None, features, language)
                box = tuple(float(v) for v in lsbox)  # type: ignore[assignment]
            pieces.append(_Piece(face, piece, pen, box))
            pen += advance
        return pieces, pen

    def _anchor_shift(
        self, anchor: str | None, advance: float, box: tuple[float, float, float, float]
    ) -> tuple[int, int]:
        """Where the text's baseline origin goes from the anchor point, as Pillow computes it for one font."""
        h, v = (anchor or "la")[0], (anchor or "la")[1]
        if len(anchor or "la") != 2 or h not in "lmr" or v not in "atmsbd":
            raise ValueError(f"unsupported anchor {anchor!r}")
        dx = {"l": 0, "m": -math.floor(advance / 2 + 0.5), "r": -math.floor(advance + 0.5)}[h]
        if v in "amd":
            dy = _vertical_shift(self, v)
        else:
            dy = {"s": 0, "t": -math.floor(box[1]), "b": -math.ceil(box[3])}[v]
        return dx, dy

    @staticmethod
    def _union(pieces: list[_Piece]) -> tuple[float, float, float, float]:
        return (
            min(p.pen + p.box[0] for p in pieces),
            min(p.box[1] for p in pieces),
            max(p.pen + p.box[2] for p in pieces),
            max(p.box[3] for p in pieces),
        )

    def getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        key = ("length", self.serial, text, mode, direction, _frozen(features), language)
        found = measures.get(key)
        if found is None:
            found = self._getlength(text, mode, direction, features, language)
            measures.put(key, found)
        return found

    def _getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        runs = self._split(text, direction)
        if runs is None:
            return super().getlength(text, mode, direction, features, language)
        return self._layout(runs, features, language, 0)[1]

    def getbbox(
        self,
        text: str | bytes | bytearray,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
    ) -> tuple[float, float, float, float]:
        if isinstance(text, bytearray):
            return self._getbbox(text, mode, direction, features, language, stroke_width, anchor)
        key = ("box", self.serial, text, mode, direction, _frozen(features), language, stroke_width, anchor)
        found = measures.get(key)
        if found is None:
            found = self._getbbox(text, mode, direction, features, language, stroke_width, anchor)
            measures.put(key, found)
        return found

    def _getbbox(
        self,
        text: str | bytes | bytearray,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
    ) -> tuple[float, float, float, float]:
        runs = None if isinstance(text, bytearray) else self._split(text, direction)
        if runs is None:
            return super().getbbox(text, mode, direction, features, language, stroke_width, anchor)
        pieces, advance = self._layout(runs, features, language, stroke_width)
        left, top, right, bottom = self._union(pieces)
        dx, dy = self._anchor_shift(anchor, advance, (left, top, right, bottom))
        return math.floor(left) + dx, math.floor(top) + dy, math.ceil(right) + dx, math.ceil(bottom) + dy

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[ImagingCore, tuple[int, int]]:
        """The text's mask (or, in "RGBA", its colours) as Pillow's ``getmask2``, from ``masks`` when this
        text was drawn before with the same font, anchor and sub-pixel start. Only colour masks
        depend on the ink; ImageDraw overwrites a colour mask's alpha, so those are handed out as copies."""
        if not self.keeps_masks:
            return self._getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
        try:
            key = (
                self.serial,
                text,
                mode,
                direction,
                _frozen(features),
                language,
                stroke_width,
                anchor,
                ink if mode == "RGBA" else 0,
                start,
                args,
                tuple(sorted(kwargs.items())),
            )
            hash(key)
        except TypeError:  # an argument nobody here passes (a list in kwargs): draw it uncached
            return self._getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
        found = masks.get(key)
        if found is None:
            core, offset = self._getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
            width, height = core.size
            depth = 4 if mode == "RGBA" else 1
            masks.put(key, (core.copy() if mode == "RGBA" else core, offset), width * height * depth + MASK_OVERHEAD)
            return core, offset
        core, offset = found
        return (core.copy() if mode == "RGBA" else core), offset

    def _getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[ImagingCore, tuple[int, int]]:
        runs = self._split(text, direction)
        if runs is None:
            return super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
        pieces, advance = self._layout(runs, features, language, stroke_width)
        union = self._union(pieces)
        dx, dy = self._anchor_shift(anchor, advance, union)
        sx, sy = start or (0.0, 0.0)
        # The canvas, in pixels from the integer point Pillow pastes at; one spare pixel for sub-pixel starts.
        x0, y0 = math.floor(sx + dx + union[0]), math.floor(sy + dy + union[1])
        x1, y1 = math.ceil(sx + dx + union[2]) + 1, math.ceil(sy + dy + union[3]) + 1
        size = (max(1, x1 - x0), max(1, y1 - y0))
        coverage = Image.new("L", size, 0)
        pen = ImageDraw.Draw(coverage)
        emoji: list[tuple[Image.Image, tuple[int, int]]] = []
        for p in pieces:
            ox, oy = sx + dx + p.pen - x0, sy + dy - y0  # the run's baseline origin on the canvas
            if p.face == EMOJI:
                assert self.stack.emoji is not None
                picture, (ex, ey), _ = _scaled_emoji(self.stack.emoji, p.text, self.size)
                emoji.append((picture, (round(ox + ex), round(oy + ey))))
                continue
            fnt = self if p.face == 0 else _face_font(self.stack.faces[p.face], self.size)
            # ImageDraw on the canvas turns the sub-pixel origin into Pillow's own start offsets.
            pen.text(
                (ox, oy),
                p.text,
                fill=255,
                font=_plain(fnt),
                anchor="ls",
                features=features,
                language=language,
                stroke_width=stroke_width,
                stroke_fill=255,
            )
        if mode == "RGBA":
            red, green, blue = struct.pack("i", ink)[:3]
            result = Image.new("RGBA", size, (red, green, blue, 0))
            result.putalpha(coverage)
            for picture, xy in emoji:
                if _inside(picture, xy, size):
                    result.alpha_composite(picture, xy)
                else:
                    result.paste(picture, xy, picture)
            return result.im, (x0, y0)
        for picture, xy in emoji:
            # An image without colour (a mask, a palette) gets the emoji's silhouette in the ink.
            silhouette = Image.new("L", size, 0)
            silhouette.paste(picture.getchannel("A"), xy)
            coverage = ImageChops.lighter(coverage, silhouette)
        if mode == "1":  # palette and bilevel images take no grey levels: Pillow draws them unsmoothed
            coverage = coverage.point(lambda v: 255 if v >= 128 else 0)
        return coverage.im, (x0, y0)


@lru_cache(maxsize=2048)
def _cached_layout(
    fnt: StackFont, runs: tuple[tuple[int, str], ...], language: str | None, stroke: float
) -> tuple[list[_Piece], float]:
    return fnt._measure(runs, None, language, stroke)


def _frozen(features: list[str] | None) -> tuple[str, ...] | None:
    return None if features is None else tuple(features)


def _inside(picture: Image.Image, xy: tuple[int, int], size: tuple[int, int]) -> bool:
    return xy[0] >= 0 and xy[1] >= 0 and xy[0] + picture.width <= size[0] and xy[1] + picture.height <= size[1]


def _plain(fnt: ImageFont.FreeTypeFont) -> ImageFont.FreeTypeFont:
    """The base font seen as a plain FreeTypeFont, so drawing one run does not cut it into runs again."""
    if not isinstance(fnt, StackFont):
        return fnt
    return _face_font(fnt.stack.faces[0], fnt.size)


# Each size is a DejaVu face (about 0.4 MB of a worker): every game in every language uses about 50.
@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The stack at ``size`` pixels, made once per size (Pillow's default font if no face loads at all)."""
    st = stack(bold)
    if not st.faces:
        return ImageFont.load_default(size)  # type: ignore[return-value]
    return StackFont(st, size)


@lru_cache(maxsize=4)
def unkept_font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """``font(size, bold)`` whose masks are not kept: for large text that changes at every move (a board's
    key lines), which would push out of ``masks`` the many small labels drawn again and again."""
    fnt = font(size, bold)
    if not isinstance(fnt, StackFont):
        return fnt
    unkept = StackFont(fnt.stack, size)
    unkept.keeps_masks = False
    return unkept


# --- drawing text -----------------------------------------------------------------------------


def put_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fill: Any = None,
    font: Any = None,
    anchor: str | None = None,
    **kwargs: Any,
) -> None:
    """Draw ``text`` as ``draw.text`` does, with emoji in colour: every renderer draws text through this.

    ImageDraw asks a font for colour only with ``embedded_color=True``: it is turned on for text
    with an emoji run, on images that have colour. The stack font's masks come from its bounded
    cache (``StackFont.getmask2``), so a label drawn again costs a paste, not FreeType's rendering.
    """
    if (
        "embedded_color" not in kwargs
        and isinstance(font, StackFont)
        and draw.mode in ("RGB", "RGBA")
        and isinstance(text, str)
        and font.has_colour(text)
    ):
        kwargs["embedded_color"] = True
    draw.text(xy, text, fill=fill, font=font, anchor=anchor, **kwargs)
