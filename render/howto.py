"""Pictures of the "How to play" guide: parts of real boards from sample games, with numbered marks.

Each page of a game's guide is a ``Scene`` (render/scenes.py), declared beside the game's renderer
(render/<game>_howto.py): a position reached by playing a seeded sample game
(random legal moves, never a concession), the part of its board (or of the mover's hand) worth
looking at, and the boxes to point at. The words come from the caller (``bot.howto_ui``, through
the translation layer): a title and one short line per mark, drawn in a numbered list beside
the picture, so the guide's text can say "①" and the player finds it on the board.
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageStat

import engine
import render
from engine import GAMES, State
from render.common import Box, Palette, backdrop, circle, encode_png, fitted, font, put_text, shadowed_box, wrap
from render.scenes import Scene

__all__ = ["SCENES", "Scene", "pages", "register", "render_page", "unregister"]

SIZE = (1600, 900)
TITLE_H = 120
MARGIN = 24
LIST_W = 540
BADGE_ROOM = 44
MIN_COLUMN_BADGE = 15  # the radius of a badge under a narrow column, at the least
# A place for a badge is calm when its pixels vary less than this (grey levels' standard deviation):
# a flat panel or the page's backdrop, not a word. The first calm place of the list is taken.
CALM = 6.0
BADGE_RADII = (30, 24, 18)  # a badge shrinks before it sits on words
BUDGET = 500_000
MAX_SAMPLE_STEPS = 3000
# Scenes are searched over a few seeds so that, say, a won game can be shown whatever the
# engine's random sequence turns out to be; the first seed whose game reaches the scene wins.
SEEDS = tuple(range(1, 9))


class _Scenes(Mapping[str, tuple[Scene, ...]]):
    """Game id -> its guide's pages: what a game registered (``register``), else ``SCENES`` of
    render/<its engine package>_howto.py, beside its renderer. Read live: a game registered later
    has its guide at once."""

    def __getitem__(self, game_id: str) -> tuple[Scene, ...]:
        found = _REGISTERED.get(game_id)
        if found is None:
            package = engine.shipped().get(game_id)
            module = f"{__package__}.{package}_howto"
            if package is None or importlib.util.find_spec(module) is None:
                raise KeyError(game_id)
            found = _REGISTERED[game_id] = importlib.import_module(module).SCENES
        return found

    def __iter__(self) -> Iterator[str]:
        return iter([game_id for game_id in GAMES if game_id in self])

    def __contains__(self, game_id: object) -> bool:
        try:
            self[str(game_id)]
        except KeyError:
            return False
        return True

    def __len__(self) -> int:
        return len(list(iter(self)))


_REGISTERED: dict[str, tuple[Scene, ...]] = {}
SCENES: Mapping[str, tuple[Scene, ...]] = _Scenes()


def register(game_id: str, scenes: tuple[Scene, ...]) -> None:
    """Give a game registered from elsewhere (a test's game) its guide's pages."""
    _REGISTERED[game_id] = scenes


def unregister(game_id: str) -> None:
    _REGISTERED.pop(game_id, None)
    _page_png.cache_clear()


def pages(game_id: str) -> tuple[str, ...]:
    """The names of a game's pages, in order (``goal``, ``trick``...)."""
    return tuple(scene.page for scene in SCENES[game_id])


def _play(game_id: str, scene: Scene, seed: int) -> State | None:
    """The sample game of ``seed`` at the scene's position, or None if it never gets there."""
    state = GAMES[game_id].new(scene.players, seed)
    rng = random.Random(seed)
    for _ in range(MAX_SAMPLE_STEPS):
        if state.outcome() is not None:
            return state if scene.until is None else None
        if scene.until is not None and scene.until(state.view(None)["public"]):
            return state
        seat = state.to_move()[0]
        actions = [a for a in state.legal_actions(seat) if a.verb not in ("concede", "resign")]
        state.apply(seat, rng.choice(actions))
    return None


def _sample(game_id: str, scene: Scene, names: Sequence[str], locale: str = "en") -> tuple[State, Image.Image]:
    """The scene's sample position and the image it shows (the board, or the mover's hand)."""
    for seed in SEEDS:
        state = _play(game_id, scene, seed)
        if state is not None:
            break
    else:
        raise ValueError(f"no sample game of {game_id} reaches the page {scene.page!r}")
    if scene.source == "hand":
        seat = state.to_move()[0]
        png = render.render_hand(game_id, state.view(seat), names, seat, locale)
        with Image.open(io.BytesIO(png)) as image:
            return state, image.convert("RGB")
    # The board as the scenes' boxes know it: without the band of key lines a posted board has on top.
    board = render.RENDERERS[game_id].board(state.view(None)["public"], list(names), locale=locale, phone=False)
    return state, board.convert("RGB")


def _badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], number: int, radius: int = 30) -> None:
    circle(draw, centre, radius + 4, fill=Palette.TEXT_DARK)
    circle(draw, centre, radius, fill=Palette.ACCENT)
    put_text(draw, centre, str(number), font=font(round(radius * 1.3), True), fill=Palette.TEXT_DARK, anchor="mm")


LIST_SIZES = range(38, 23, -2)
LINE_GAP = 10
ITEM_GAP = 26
INDENT = 80


def _list_layout(
    labels: Sequence[str], width: float, height: float, columns: int
) -> tuple[int, list[list[str]], float]:
    """The largest font size at which the lines fit; the wrapped lines and the tallest column's height."""
    for size in LIST_SIZES:
        fnt = font(size, True)
        blocks = [wrap(label, fnt, width / columns - INDENT - 10, 5) for label in labels]
        heights = [len(b) * (size + LINE_GAP) + ITEM_GAP for b in blocks]
        per_column = -(-len(blocks) // columns)
        tallest = max((sum(heights[c * per_column : (c + 1) * per_column]) for c in range(columns)), default=0)
        if tallest <= height:
            break
    return size, blocks, tallest


def _draw_list(image: Image.Image, box: Box, labels: Sequence[str], numbered: int, columns: int) -> None:
    """The marks' lines, numbered like the badges; lines past the marks get a plain bullet."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    size, blocks, tallest = _list_layout(labels, x1 - x0, y1 - y0, columns)
    fnt = font(size, True)
    per_column = -(-len(blocks) // columns) if blocks else 1
    column_w = (x1 - x0) / columns
    for index, lines in enumerate(blocks):
        column = index // per_column
        if index % per_column == 0:
            y = y0 + max(0, (y1 - y0 - tallest) / 2)
        x = x0 + column * column_w
        if index < numbered:
            _badge(draw, (x + 36, y + size / 2 + 4), index + 1, 26)
        else:
            circle(draw, (x + 36, y + size / 2 + 4), 9, fill=Palette.ACCENT)
        for line in lines:
            put_text(draw, (x + INDENT, y), line, font=fnt, fill=Palette.TEXT)
            y += size + LINE_GAP
        y += ITEM_GAP


def page_image(
    game_id: str, index: int, title: str, labels: Sequence[str], names: Sequence[str], locale: str = "en"
) -> Image.Image:
    """Draw page ``index`` of a game's guide: the title, the marked board part (worded in ``locale``), the list."""
    scenes = SCENES[game_id]
    scene = scenes[index]
    image = backdrop(SIZE)
    # Title band.
    shadowed_box(image, (MARGIN, MARGIN, SIZE[0] - MARGIN, TITLE_H), 18, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((MARGIN + 18, MARGIN + 18, MARGIN + 28, TITLE_H - 18), radius=5, fill=Palette.ACCENT)
    counter = f"{index + 1} / {len(scenes)}"
    counter_font = font(40, True)
    counter_w = counter_font.getlength(counter)
    shown, title_font = fitted(title, SIZE[0] - 2 * MARGIN - 90 - counter_w, 56, True, 30)
    mid = (MARGIN + TITLE_H) / 2
    put_text(draw, (MARGIN + 50, mid), shown, font=title_font, fill=Palette.TEXT, anchor="lm")
    put_text(draw, (SIZE[0] - MARGIN - 30, mid), counter, font=counter_font, fill=Palette.TEXT_MUTED, anchor="rm")
    # The board part, as large as the room beside (or, for a wide part, under) the list allows.
    state, source = _sample(game_id, scene, names, locale)
    cx0, cy0, cx1, cy1 = scene.crop
    part = source.crop((round(cx0), round(cy0), round(cx1), round(cy1)))
    top, bottom, width = TITLE_H + MARGIN, SIZE[1] - MARGIN, SIZE[0] - 2 * MARGIN
    side_scale = min((width - LIST_W - 2 * BADGE_ROOM) / part.width, (bottom - top) / part.height)
    _, _, under_h = _list_layout(labels, width, (bottom - top) / 2, 2)
    under_scale = min(width / part.width, (bottom - top - under_h - MARGIN) / part.height)
    if under_scale > side_scale:
        scale = under_scale
        area: Box = (MARGIN, top, SIZE[0] - MARGIN, top + part.height * scale)
        list_box: Box = (MARGIN, area[3] + MARGIN, SIZE[0] - MARGIN, bottom)
        columns = 2
    else:
        scale = side_scale
        # The picture and the list side by side, centred together, with room left of the picture
        # for the badges.
        left = (SIZE[0] - (BADGE_ROOM + part.width * scale + BADGE_ROOM + LIST_W)) / 2
        area = (left + BADGE_ROOM, top, left + BADGE_ROOM + part.width * scale, bottom)
        list_box = (area[2] + BADGE_ROOM, top, min(SIZE[0] - MARGIN, area[2] + BADGE_ROOM + LIST_W), bottom)
        columns = 1
    part = part.resize((round(part.width * scale), round(part.height * scale)), Image.Resampling.LANCZOS)
    ox = area[0] + ((area[2] - area[0]) - part.width) / 2
    oy = area[1] + ((area[3] - area[1]) - part.height) / 2
    shadowed_box(image, (ox - 6, oy - 6, ox + part.width + 6, oy + part.height + 6), 12, Palette.PANEL_DARK)
    image.paste(part, (round(ox), round(oy)))
    plain = image.convert("L")  # the page before any frame or badge: where the board's words are
    draw = ImageDraw.Draw(image)
    marks = scene.marks(state.view(None)["public"]) if callable(scene.marks) else scene.marks
    boxes = [
        (ox + (mx0 - cx0) * scale, oy + (my0 - cy0) * scale, ox + (mx1 - cx0) * scale, oy + (my1 - cy0) * scale)
        for mx0, my0, mx1, my1 in marks
    ]
    for box in boxes:
        draw.rounded_rectangle(box, radius=10, outline=Palette.TEXT_DARK, width=9)
        draw.rounded_rectangle(box, radius=10, outline=Palette.ACCENT, width=5)
    badges: list[tuple[Box, tuple[float, float], int]] = []
    for number, box in enumerate(boxes, start=1):
        centre, radius = badge_place(box, plain, [(c, r) for _, c, r in badges])
        _badge(draw, centre, number, radius)
        badges.append((box, centre, radius))
    _draw_list(image, list_box, labels, len(marks), columns)
    # Where the board part went and what was marked, for the test that no badge hides a label.
    image.info["board_part"] = (ox, oy, scale, scene.crop)
    image.info["badges"] = badges
    return image


def badge_place(
    box: Box, page: Image.Image, taken: Sequence[tuple[tuple[float, float], int]]
) -> tuple[tuple[float, float], int]:
    """Where a mark's numbered badge goes (its centre and radius): the calmest of a few places around the
    mark, so that it hides none of the words the mark frames or its neighbours show.

    ``page`` is the page before frames and badges (grey levels): text is where its pixels vary.
    """
    x0, y0, x1, y1 = box
    if y1 - y0 > 3 * (x1 - x0) and x1 - x0 < 140:
        # A narrow column beside others (a track): a badge on it would hide the very spaces it
        # explains, so a small badge goes under the column, on its frame's lower edge.
        radius = max(MIN_COLUMN_BADGE, min(26, round((x1 - x0) / 2) - 8))
        return ((x0 + x1) / 2, y1 + radius - 4), radius
    fallback: tuple[float, tuple[float, float], int] | None = None
    for radius in BADGE_RADII:
        for centre in _around(box, radius):
            score = _busy(page, centre, radius, taken)
            if score <= CALM:
                return centre, radius
            if fallback is None or score < fallback[0]:
                fallback = (score, centre, radius)
    assert fallback is not None
    return fallback[1], fallback[2]


def _around(box: Box, radius: int) -> list[tuple[float, float]]:
    """Places for a badge of ``radius`` around a mark, the usual one (left, near the top) first."""
    x0, y0, x1, y1 = box
    out, inset, middle = radius + 6, radius + 6, (y0 + y1) / 2
    return [
        (x0 - out, min(y0 + inset, middle)),
        (x0 - out, middle),
        (x0 - out, y1 - inset),
        (x1 + out, min(y0 + inset, middle)),
        (x1 + out, middle),
        (x0 - out + 8, y0 - out + 8),  # off a corner
        (x1 + out - 8, y0 - out + 8),
        (x0 - out + 8, y1 + out - 8),
        (x1 + out - 8, y1 + out - 8),
        (x0 + inset, y0 - out),  # above the box
        (x1 - inset, y0 - out),
        (x0 + inset, y1 + out),  # under it
        (x0 + inset, y0 + inset),  # inside it, in a corner
        (x1 - inset, y0 + inset),
        (x0 + inset, y1 - inset),
        (x1 - inset, y1 - inset),
    ]


def _busy(
    page: Image.Image, centre: tuple[float, float], radius: int, taken: Sequence[tuple[tuple[float, float], int]]
) -> float:
    """How much the page varies under a badge there (infinite off the page or on another badge)."""
    x, y = centre
    if x - radius < MARGIN or x + radius > page.width - MARGIN or y - radius < TITLE_H or y + radius > page.height:
        return float("inf")
    if any(math.dist(centre, c) < radius + r + 8 for c, r in taken):
        return float("inf")
    area = page.crop((round(x - radius - 4), round(y - radius - 4), round(x + radius + 4), round(y + radius + 4)))
    return float(ImageStat.Stat(area).stddev[0])


@lru_cache(maxsize=64)
def _page_png(
    game_id: str, index: int, title: str, labels: tuple[str, ...], names: tuple[str, ...], locale: str
) -> bytes:
    return encode_png(page_image(game_id, index, title, labels, names, locale), BUDGET, optimize=False)


def render_page(
    game_id: str, index: int, title: str, labels: Sequence[str], names: Sequence[str], locale: str = "en"
) -> bytes:
    """The PNG of page ``index`` (from 0) of a game's guide, within ``BUDGET`` bytes.

    ``labels`` are the lines of the numbered list: one per mark of the scene first (the badges
    on the board carry the same numbers), then any further ones. Pages are the same for every
    reader of a language, so they are kept once drawn; the board part is worded in ``locale``, like
    the ``title`` and ``labels`` the bot words.
    """
    if not 0 <= index < len(SCENES[game_id]):
        raise ValueError(f"{game_id} has no guide page {index}")
    return _page_png(game_id, index, title, tuple(labels), tuple(names), locale)
