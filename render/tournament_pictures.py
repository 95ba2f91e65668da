"""Pictures of tournaments: the standings table, the bracket and the final podium.

The bot words everything (l10n/words) and passes plain text here; these functions only lay it
out. Drawn at 900 px wide, so that on a phone (shown about 400 px wide) the smallest text is
still about 13 px tall; a long standings list or a big bracket grows taller (a bracket with
many rounds also wider, up to ``MAX_WIDTH``) rather than shrinking its text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw, ImageFont

from render.common import (
    RGB,
    Box,
    Palette,
    backdrop,
    clean_text,
    draw_text,
    ellipsize,
    encode_png,
    fit_font,
    font,
    shade,
)

WIDTH = 900
MAX_WIDTH = 1600
MARGIN = 36
TOP = 130  # where the content starts, under the title and subtitle
BUDGET = 2 * 1024 * 1024


def _header(draw: ImageDraw.ImageDraw, title: str, subtitle: str, width: int) -> None:
    """The title (shrunk before it is cut) and the muted subtitle, as on the leaderboard."""
    room = width - 2 * MARGIN
    heading = fit_font(title, room, 44, bold=True, min_size=30)
    draw_text(draw, (MARGIN, 58), title, heading, Palette.TEXT, anchor="ls", max_width=room)
    draw_text(draw, (MARGIN, 104), subtitle, font(28), Palette.TEXT_MUTED, anchor="ls", max_width=room)


def _name(text: str | None) -> str:
    """A display name without the characters the font cannot draw (emoji); a dash if nothing is left."""
    return clean_text(text or "") or "–"


# --- standings --------------------------------------------------------------------------------

ROW = 58
RANK_MIN_W = 48
MIN_NAME_W = 224
COLUMN_GAP = 12
NUMBER_MIN_W = 64
NUMBER_MAX_W = 170
HEADING_SIZES = (22, 20)  # column headings shrink once before they are squeezed and cut
HEADING_LINE = 26
MAX_TIEBREAKS = 3
# Sizes of the row texts: rank, name, points, tie-breaks, games played.
RANK_SIZE, NAME_SIZE, POINTS_SIZE, TIEBREAK_SIZE, PLAYED_SIZE = 28, 32, 34, 28, 26


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings: ``rank`` is "1", "=3"... or "" for a player who dropped out."""

    rank: str
    name: str
    points: str
    tiebreaks: tuple[str, ...]
    played: str
    dropped: bool = False  # drawn muted, the name struck through
    highlight: bool = False  # the leader(s): drawn in the accent colour


@dataclass(frozen=True)
class StandingsLayout:
    """Where the columns go: ``columns`` holds (left, right) for rank, name, points, each tie-break, played."""

    width: int
    height: int
    columns: tuple[tuple[float, float], ...]
    heading_size: int
    heading_lines: tuple[tuple[str, ...], ...]
    rows_top: float


def _number_sizes(tiebreaks: int) -> list[tuple[int, bool]]:
    return [(POINTS_SIZE, True)] + [(TIEBREAK_SIZE, False)] * tiebreaks + [(PLAYED_SIZE, False)]


def _lines_of(text: str) -> list[list[str]]:
    """A heading's unbreakable pieces, word by word: split after hyphens ("Sonneborn-", "Berger")."""
    return [re.findall(r"[^-]+-?|-", word) for word in text.split()]


def _two_line_width(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """The narrowest width in which ``text`` fits on at most two lines, broken at a space or a hyphen."""
    pieces = [(piece, "" if n else " ") for word in _lines_of(text) for n, piece in enumerate(word)]
    if not pieces:
        return 0.0

    def line(part: list[tuple[str, str]]) -> float:
        return fnt.getlength("".join(glue + piece for piece, glue in part).lstrip()) if part else 0.0

    return min(max(line(pieces[:k]), line(pieces[k:])) for k in range(1, len(pieces) + 1))


def _heading_lines(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> tuple[str, ...]:
    """Break a heading into at most two lines at spaces or after hyphens; cut what still does not fit."""
    lines: list[str] = []
    for word in text.split():
        for n, piece in enumerate(_lines_of(word)[0]):
            glue = "" if n else " "
            if lines and fnt.getlength(lines[-1] + glue + piece) <= width:
                lines[-1] += glue + piece
            elif lines and len(lines) == 2:
                lines[-1] += glue + piece
            else:
                lines.append(piece)
    return tuple(ellipsize(line, fnt, width) for line in lines)


def standings_layout(headings: Sequence[str], rows: Sequence[StandingRow]) -> StandingsLayout:
    """Column edges and wrapped headings: numeric columns as wide as their content, the name takes the rest.

    A column is as wide as its widest value or its heading on at most two lines; when
    they leave the name less than ``MIN_NAME_W``, the headings shrink a size, then the widest
    columns narrow to a common width (their headings cut with an ellipsis).
    """
    tiebreaks = len(headings) - 4
    if not 0 <= tiebreaks <= MAX_TIEBREAKS:
        raise ValueError(f"standings need 4 to {4 + MAX_TIEBREAKS} column headings, got {len(headings)}")
    cells = [_cells(row, tiebreaks) for row in rows]
    for size in HEADING_SIZES:
        head_font = font(size, True)

        ranks = max((font(RANK_SIZE, True).getlength(row.rank) for row in rows), default=0.0)
        rank_w = max(RANK_MIN_W, ranks, _two_line_width(headings[0], head_font))
        wanted: list[float] = []
        for n, (value_size, bold) in enumerate(_number_sizes(tiebreaks)):
            values = max((font(value_size, bold).getlength(c[n]) for c in cells), default=0.0)
            wanted.append(
                float(min(NUMBER_MAX_W, max(NUMBER_MIN_W, values, _two_line_width(headings[2 + n], head_font))))
            )
        room = WIDTH - 2 * MARGIN - rank_w - MIN_NAME_W - COLUMN_GAP * (len(wanted) + 1)
        if sum(wanted) <= room:
            break
    if sum(wanted) > room:  # too many wide columns: the widest narrow to a common width, the others keep theirs
        left, cap = room, room / len(wanted)
        for n, w in enumerate(sorted(wanted)):
            cap = left / (len(wanted) - n)
            if w > cap:
                break
            left -= w
        wanted = [min(w, cap) for w in wanted]
    right = float(WIDTH - MARGIN)
    numbers: list[tuple[float, float]] = []
    for w in reversed(wanted):
        numbers.insert(0, (right - w, right))
        right -= w + COLUMN_GAP
    rank = (float(MARGIN), MARGIN + rank_w)
    name = (rank[1] + COLUMN_GAP, right)
    columns = (rank, name, *numbers)
    heading_lines = tuple(
        _heading_lines(text, head_font, x1 - x0) for text, (x0, x1) in zip(headings, columns, strict=True)
    )
    lines = max((len(h) for h in heading_lines), default=1)
    rows_top = TOP + 10 + HEADING_LINE * lines + 14
    height = round(rows_top + ROW * max(1, len(rows)) + MARGIN)
    return StandingsLayout(WIDTH, height, columns, size, heading_lines, rows_top)


def _cells(row: StandingRow, tiebreaks: int) -> list[str]:
    """The numeric cells of a row: points, exactly ``tiebreaks`` tie-breaks (padded or cut), played."""
    values = (list(row.tiebreaks) + [""] * tiebreaks)[:tiebreaks]
    return [row.points, *values, row.played]


def standings_png(title: str, subtitle: str, headings: tuple[str, ...], rows: Sequence[StandingRow]) -> bytes:
    """The standings table: one row per player, leaders in the accent colour, dropped players muted.

    ``headings`` titles the columns: rank, name, points, up to three tie-breaks, games played.
    """
    layout = standings_layout(headings, rows)
    image = backdrop((layout.width, layout.height))
    draw = ImageDraw.Draw(image)
    _header(draw, title, subtitle, layout.width)
    head_font = font(layout.heading_size, True)
    baseline = layout.rows_top - 14
    for n, (lines, (x0, x1)) in enumerate(zip(layout.heading_lines, layout.columns, strict=True)):
        # Bottom-aligned: a heading on two lines grows upwards; numbers are right-aligned under theirs.
        x, anchor = ((x0 + x1) / 2, "ms") if n == 0 else (x0, "ls") if n == 1 else (x1, "rs")
        for k, line in enumerate(reversed(lines)):
            draw_text(draw, (x, baseline - k * HEADING_LINE), line, head_font, Palette.TEXT_MUTED, anchor=anchor)
    draw.line((MARGIN - 12, baseline + 8, WIDTH - MARGIN + 12, baseline + 8), fill=Palette.PANEL_EDGE, width=2)
    tiebreaks = len(headings) - 4
    sizes = _number_sizes(tiebreaks)
    for n, row in enumerate(rows):
        y = layout.rows_top + n * ROW
        band = (MARGIN - 12, y, WIDTH - MARGIN + 12, y + ROW - 6)
        if n % 2 == 0 or row.highlight:
            outline = Palette.ACCENT if row.highlight else None
            draw.rounded_rectangle(band, 12, fill=Palette.PANEL, outline=outline, width=2)
        middle = y + ROW / 2 - 3
        strong = Palette.ACCENT if row.highlight else Palette.TEXT_MUTED if row.dropped else Palette.TEXT
        plain = Palette.TEXT_MUTED if row.dropped else Palette.TEXT
        (r0, r1), (n0, n1) = layout.columns[0], layout.columns[1]
        rank_colour = Palette.ACCENT if row.highlight else Palette.TEXT_MUTED
        draw_text(draw, ((r0 + r1) / 2, middle), row.rank, font(RANK_SIZE, True), rank_colour, "mm", r1 - r0)
        name_font = font(NAME_SIZE, row.highlight)
        drawn = draw_text(draw, (n0, middle), _name(row.name), name_font, strong, "lm", n1 - n0)
        if row.dropped:
            draw.line((n0, middle + 2, n0 + drawn, middle + 2), fill=Palette.TEXT_MUTED, width=3)
        for k, (value, (x0, x1)) in enumerate(zip(_cells(row, tiebreaks), layout.columns[2:], strict=True)):
            size, bold = sizes[k]
            last = k == len(sizes) - 1
            colour = strong if k == 0 else Palette.TEXT_MUTED if last else plain
            draw_text(draw, (x1, middle), value, font(size, bold), colour, "rm", x1 - x0)
    return encode_png(image, BUDGET, optimize=False)


# --- bracket ----------------------------------------------------------------------------------

SLOT_H = 42  # one line of a match box
BOX_PAD = 5  # inside a box, above the first line and below the last
BOX_GAP = 20  # vertical space between two boxes of a column
ROUND_GAP = 36  # horizontal space between two rounds, where the connectors run
BOX_MIN_W = 172  # narrower than this at 900 px wide, the picture grows wider instead
BOX_MAX_W = 330
SECTION_TITLE_H = 56
ROUND_TITLE_LINE = 26  # a round's title takes one or two such lines, then this gap:
ROUND_TITLE_PAD = 14
SECTION_GAP = 34
CONNECTOR: RGB = Palette.PANEL_EDGE


@dataclass(frozen=True)
class BracketSlot:
    """One entrant of a match: ``name`` None when not known yet (a muted dash), or the worded "bye"."""

    name: str | None
    wins: str = ""  # games won in this match, or "" for a single game
    winner: bool = False


@dataclass(frozen=True)
class BracketMatch:
    """A match box: ``round`` is its 1-based column inside ``section`` (already worded)."""

    section: str
    round: int
    slots: tuple[BracketSlot, ...]  # 2 for a duel, 3 or 4 for a pod


@dataclass(frozen=True)
class SectionLayout:
    """One section of a bracket: its boxes, and which boxes feed which (empty when irregular)."""

    title: str
    top: float  # the section title's top
    rounds_top: float  # the round titles' top
    bottom: float
    boxes: tuple[tuple[BracketMatch, Box], ...]
    links: tuple[tuple[tuple[Box, ...], Box], ...]  # (feeder boxes, the box they lead to)
    titles: tuple[tuple[float, tuple[str, ...]], ...]  # (left edge, lines) of each round title
    title_lines: int  # the most lines a round title of this section takes


@dataclass(frozen=True)
class BracketLayout:
    width: int
    height: int
    box_width: float
    font_size: int
    sections: tuple[SectionLayout, ...]


def _box_height(match: BracketMatch) -> float:
    return max(1, len(match.slots)) * SLOT_H + 2 * BOX_PAD


def _grid(columns: int) -> tuple[int, float, float]:
    """Picture width, box width and the first column's left edge for ``columns`` rounds side by side."""
    room = WIDTH - 2 * MARGIN
    box = (room - (columns - 1) * ROUND_GAP) / columns
    if box >= BOX_MIN_W:
        box = min(box, BOX_MAX_W)
        grid = columns * box + (columns - 1) * ROUND_GAP
        return WIDTH, box, MARGIN + (room - grid) / 2
    width = min(MAX_WIDTH, round(2 * MARGIN + columns * BOX_MIN_W + (columns - 1) * ROUND_GAP))
    box = (width - 2 * MARGIN - (columns - 1) * ROUND_GAP) / columns
    return width, box, MARGIN


def _slot_size(box_width: float) -> int:
    return 26 if box_width >= 250 else 24 if box_width >= 200 else 22


def _tree_factors(counts: Sequence[int]) -> list[int] | None:
    """How many boxes feed each box of the next round, or None when the rounds do not divide evenly."""
    factors = []
    for here, after in zip(counts, counts[1:], strict=False):
        if after == 0 or here % after:
            return None
        factors.append(here // after)
    return factors


def bracket_layout(round_titles: dict[tuple[str, int], str], matches: Sequence[BracketMatch]) -> BracketLayout:
    """Place every match box: sections stacked top to bottom, rounds left to right in each.

    A section whose rounds divide evenly (8, 4, 2, 1 boxes; or 2, 2, 1, 1 for a losers bracket;
    4, 1 for pods) is a tree: each box sits in the middle of those feeding it, joined by lines.
    Any other section stacks each round's boxes, centred in the section's height.
    """
    if any(m.round < 1 for m in matches):
        raise ValueError("bracket rounds are numbered from 1")
    sections: dict[str, dict[int, list[BracketMatch]]] = {}
    for match in matches:
        sections.setdefault(match.section, {}).setdefault(match.round, []).append(match)
    columns = max((m.round for m in matches), default=1)
    width, box_w, left = _grid(columns)
    x_of = {r: left + (r - 1) * (box_w + ROUND_GAP) for r in range(1, columns + 1)}
    round_font = font(HEADING_SIZES[0], True)
    y = float(TOP)
    placed_sections = []
    for title, by_round in sections.items():
        top = y
        if title:
            y += SECTION_TITLE_H
        rounds = sorted(by_round)
        titles = [
            (x_of[r], _heading_lines(round_titles[(title, r)], round_font, box_w))
            for r in rounds
            if round_titles.get((title, r), "").strip()
        ]
        title_lines = max((len(lines) for _, lines in titles), default=0)
        rounds_top = y
        if title_lines:
            y += ROUND_TITLE_LINE * title_lines + ROUND_TITLE_PAD
        pitch = max(_box_height(m) for ms in by_round.values() for m in ms) + BOX_GAP
        counts = [len(by_round[r]) for r in rounds]
        factors = _tree_factors(counts) if rounds == list(range(1, len(rounds) + 1)) else None
        body = max(counts) * pitch
        centres: dict[int, list[float]] = {}
        links: list[tuple[tuple[Box, ...], Box]] = []
        boxes: list[tuple[BracketMatch, Box]] = []

        def box_at(match: BracketMatch, r: int, centre: float) -> Box:
            half = _box_height(match) / 2
            return (x_of[r], centre - half, x_of[r] + box_w, centre + half)

        if factors is not None:
            centres[1] = [y + (i + 0.5) * pitch for i in range(counts[0])]
            for r, k in zip(rounds[1:], factors, strict=True):
                before = centres[r - 1]
                centres[r] = [sum(before[j * k : j * k + k]) / k for j in range(len(by_round[r]))]
        else:
            for r, count in zip(rounds, counts, strict=True):
                offset = y + (body - count * pitch) / 2
                centres[r] = [offset + (i + 0.5) * pitch for i in range(count)]
        placed: dict[int, list[Box]] = {}
        for r in rounds:
            placed[r] = [box_at(m, r, c) for m, c in zip(by_round[r], centres[r], strict=True)]
            boxes += zip(by_round[r], placed[r], strict=True)
        if factors is not None:
            for r, k in zip(rounds[1:], factors, strict=True):
                for j, target in enumerate(placed[r]):
                    links.append((tuple(placed[r - 1][j * k : j * k + k]), target))
        y += body
        placed_sections.append(
            SectionLayout(title, top, rounds_top, y, tuple(boxes), tuple(links), tuple(titles), title_lines)
        )
        y += SECTION_GAP
    height = round(y - SECTION_GAP + MARGIN) if placed_sections else TOP + MARGIN
    return BracketLayout(width, height, box_w, _slot_size(box_w), tuple(placed_sections))


def _draw_match(draw: ImageDraw.ImageDraw, match: BracketMatch, box: Box, size: int) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, 10, fill=Palette.PANEL, outline=Palette.PANEL_EDGE, width=2)
    decided = any(slot.winner for slot in match.slots)
    wins_font = font(size, True)
    wins_w = max((wins_font.getlength(s.wins) for s in match.slots), default=0)
    name_room = x1 - x0 - 16 - 12 - (wins_w + 12 if wins_w else 0)
    for i, slot in enumerate(match.slots):
        top = y0 + BOX_PAD + i * SLOT_H
        middle = top + SLOT_H / 2
        if i:
            draw.line((x0 + 10, top, x1 - 10, top), fill=Palette.PANEL_DARK, width=2)
        if slot.winner:
            colour, bold = Palette.ACCENT, True
            draw.rounded_rectangle((x0 + 5, top + 8, x0 + 9, top + SLOT_H - 8), 2, fill=Palette.ACCENT)
        else:
            colour, bold = (Palette.TEXT_MUTED if decided or slot.name is None else Palette.TEXT), False
        draw_text(draw, (x0 + 16, middle), _name(slot.name), font(size, bold), colour, "lm", name_room)
        if slot.wins:
            draw_text(draw, (x1 - 12, middle), slot.wins, wins_font, colour, "rm")


def _draw_links(draw: ImageDraw.ImageDraw, links: Sequence[tuple[tuple[Box, ...], Box]]) -> None:
    """Elbow lines from each feeding box's right edge to the middle of the gap, then on to the next box."""
    for feeders, target in links:
        ty = (target[1] + target[3]) / 2
        mid = (feeders[0][2] + target[0]) / 2
        ys = [(f[1] + f[3]) / 2 for f in feeders]
        for f, fy in zip(feeders, ys, strict=True):
            draw.line((f[2], fy, mid, fy), fill=CONNECTOR, width=3)
        top, bottom = min(*ys, ty), max(*ys, ty)
        if bottom > top:
            draw.line((mid, top - 1, mid, bottom + 1), fill=CONNECTOR, width=3)
        draw.line((mid, ty, target[0], ty), fill=CONNECTOR, width=3)


def bracket_png(
    title: str, subtitle: str, round_titles: dict[tuple[str, int], str], matches: Sequence[BracketMatch]
) -> bytes:
    """The bracket: each section (winners, losers, final...) as rounds left to right, winners in accent."""
    layout = bracket_layout(round_titles, matches)
    image = backdrop((layout.width, layout.height))
    draw = ImageDraw.Draw(image)
    _header(draw, title, subtitle, layout.width)
    round_font = font(HEADING_SIZES[0], True)
    for section in layout.sections:
        if section.title:
            room = layout.width - 2 * MARGIN
            draw_text(draw, (MARGIN, section.top + 38), section.title, font(30, True), Palette.TEXT, "ls", room)
            right = MARGIN + font(30, True).getlength(section.title) + 16
            if right < layout.width - MARGIN:
                draw.line((right, section.top + 28, layout.width - MARGIN, section.top + 28), Palette.PANEL_EDGE, 2)
        for x, lines in section.titles:
            # Bottom-aligned: a title on two lines grows upwards, away from its boxes.
            baseline = section.rounds_top + ROUND_TITLE_LINE * section.title_lines
            for k, line in enumerate(reversed(lines)):
                centre = (x + layout.box_width / 2, baseline - k * ROUND_TITLE_LINE)
                draw_text(draw, centre, line, round_font, Palette.TEXT_MUTED, "ms")
        _draw_links(draw, section.links)
        for match, box in section.boxes:
            _draw_match(draw, match, box, layout.font_size)
    return encode_png(image, BUDGET, optimize=False)


# --- podium -----------------------------------------------------------------------------------

GOLD: RGB = (232, 184, 72)
SILVER: RGB = (190, 200, 204)
BRONZE: RGB = (200, 128, 74)
STEP_COLOURS = (GOLD, SILVER, BRONZE)
STEP_HEIGHTS = (220, 164, 124)
STEP_W = 250
STEP_GAP = 14
STEP_NAME_SIZES = (32, 30, 28, 26)  # a name above a step shrinks to these before it is cut
STEP_NAME_LINE = 36
STEP_DETAIL_LINE = 30
PODIUM_ROW = 58


MAX_ON_PODIUM = 8  # names standing on the steps; a shared place that would pass this is listed below
STEP_MIN_W = 170  # narrower than this per name, the picture grows wider (up to MAX_WIDTH) instead
SHARED_GAP = 10  # between two names sharing a step


@dataclass(frozen=True)
class PodiumStep:
    """One step: its metal (0 gold, 1 silver, 2 bronze), the place label on its face, and the
    (name, detail) of everyone sharing that place, side by side."""

    tier: int
    label: str
    entries: tuple[tuple[str, str], ...]


def podium_steps(places: Sequence[tuple[str, str, str]]) -> tuple[list[PodiumStep], list[tuple[str, str, str]]]:
    """The steps (in finishing order) and the places listed below them.

    Entries with the same label share a place, so they share a step, side by side. A step's
    metal is its place (the number in its label: "1", "=2", "3."): gold, silver, bronze; a place
    after the third, or one that would put more than ``MAX_ON_PODIUM`` names on the steps, is
    listed below. A label without a number takes the next metal.
    """
    groups: list[tuple[str, list[tuple[str, str]]]] = []
    for label, name, detail in places:
        if groups and groups[-1][0] == label:
            groups[-1][1].append((name, detail))
        else:
            groups.append((label, [(name, detail)]))
    steps: list[PodiumStep] = []
    rest: list[tuple[str, str, str]] = []
    standing = 0
    for label, entries in groups:
        number = re.search(r"\d+", label)
        tier = int(number.group()) - 1 if number else (steps[-1].tier + 1 if steps else 0)
        fits = not steps or standing + len(entries) <= MAX_ON_PODIUM
        if not rest and tier < len(STEP_COLOURS) and fits and (not steps or tier > steps[-1].tier):
            steps.append(PodiumStep(tier, label, tuple(entries)))
            standing += len(entries)
        else:
            rest += [(label, name, detail) for name, detail in entries]
    return steps, rest


def _step_name(name: str, width: float) -> tuple[tuple[str, ...], ImageFont.FreeTypeFont]:
    """A name above a step: the largest size at which it fits on two lines (broken at spaces or hyphens)."""
    text = _name(name)
    for size in STEP_NAME_SIZES:
        fnt = font(size, True)
        lines = _heading_lines(text, fnt, width)
        if "".join(lines).replace(" ", "") == text.replace(" ", ""):
            break
    return lines, fnt


def _step_text_height(lines: Sequence[str], detail: str) -> float:
    """How far above its step a podium entry's name and detail reach."""
    return 14 + (STEP_DETAIL_LINE if detail else 0) + STEP_NAME_LINE * len(lines) + 4


def _podium_grid(steps: Sequence[PodiumStep]) -> tuple[int, float]:
    """The picture's width and the width of one name's share of a step."""
    names = sum(len(step.entries) for step in steps)
    gaps = (len(steps) - 1) * STEP_GAP + sum(len(step.entries) - 1 for step in steps) * SHARED_GAP
    room = WIDTH - 2 * MARGIN
    column = min(float(STEP_W), (room - gaps) / max(1, names))
    if column >= STEP_MIN_W:
        return WIDTH, column
    width = min(MAX_WIDTH, round(2 * MARGIN + names * STEP_MIN_W + gaps))
    return width, (width - 2 * MARGIN - gaps) / names


def podium_png(title: str, subtitle: str, places: Sequence[tuple[str, str, str]]) -> bytes:
    """The final podium: 2nd left, 1st centre, 3rd right, the rest listed below.

    ``places`` holds (place label, name, detail) in finishing order; equal labels are a shared
    place, whose players stand side by side on one step (``podium_steps``).
    """
    steps, rest = podium_steps(places)
    width, column = _podium_grid(steps)
    room = column + (STEP_GAP if all(len(step.entries) == 1 for step in steps) else SHARED_GAP) - 10
    names = {id(step): [_step_name(name, room) for name, _ in step.entries] for step in steps}
    reach = max(
        (
            STEP_HEIGHTS[step.tier] + _step_text_height(lines, detail)
            for step in steps
            for (lines, _), (_, detail) in zip(names[id(step)], step.entries, strict=True)
        ),
        default=0,
    )
    floor = round(TOP + 16 + reach)
    height = floor + 24 + (PODIUM_ROW * len(rest) + 20 if rest else 0) + MARGIN
    image = backdrop((width, height))
    draw = ImageDraw.Draw(image)
    _header(draw, title, subtitle, width)
    by_tier = {step.tier: step for step in steps}
    order = [by_tier[t] for t in (1, 0, 2) if t in by_tier]  # 2nd left, 1st centre, 3rd right
    spans = [len(step.entries) * column + (len(step.entries) - 1) * SHARED_GAP for step in order]
    x = (width - sum(spans) - (len(order) - 1) * STEP_GAP) / 2
    for step, span in zip(order, spans, strict=True):
        _draw_step(draw, (x, floor), span, column, step, names[id(step)])
        x += span + STEP_GAP
    draw.line((MARGIN - 12, floor, width - MARGIN + 12, floor), fill=Palette.PANEL_EDGE, width=3)
    y = floor + 24
    for n, (label, name, detail) in enumerate(rest):
        top = y + n * PODIUM_ROW
        if n % 2 == 0:
            draw.rounded_rectangle(
                (MARGIN - 12, top, width - MARGIN + 12, top + PODIUM_ROW - 6), 12, fill=Palette.PANEL
            )
        middle = top + PODIUM_ROW / 2 - 3
        draw_text(draw, (MARGIN + 36, middle), label, font(30, True), Palette.TEXT_MUTED, "mm", 80)
        draw_text(draw, (MARGIN + 96, middle), _name(name), font(32), Palette.TEXT, "lm", width - 2 * MARGIN - 400)
        draw_text(draw, (width - MARGIN, middle), detail, font(26), Palette.TEXT_MUTED, "rm", 280)
    return encode_png(image, BUDGET, optimize=False)


def _draw_step(
    draw: ImageDraw.ImageDraw,
    bottom_left: tuple[float, float],
    span: float,
    column: float,
    step: PodiumStep,
    names: Sequence[tuple[tuple[str, ...], ImageFont.FreeTypeFont]],
) -> None:
    """One podium step in its metal's colour, the place once on its face, and above it each name
    sharing it (with its detail), side by side."""
    x0, floor = bottom_left
    x1 = x0 + span
    top = floor - STEP_HEIGHTS[step.tier]
    colour = STEP_COLOURS[step.tier]
    draw.rounded_rectangle((x0, top, x1, floor), 14, fill=colour, corners=(True, True, False, False))
    draw.rounded_rectangle((x0, top, x1, top + 16), 14, fill=shade(colour, 1.35), corners=(True, True, False, False))
    draw.rectangle((x0, floor - 14, x1, floor), fill=shade(colour, 0.82))
    place_font = fit_font(step.label, span - 24, 60, True, min_size=30)
    draw_text(draw, ((x0 + x1) / 2, top + 24), step.label, place_font, Palette.TEXT_DARK, "mt", span - 24)
    room = column + (SHARED_GAP if len(step.entries) > 1 else STEP_GAP) - 10
    for k, ((lines, fnt), (_, detail)) in enumerate(zip(names, step.entries, strict=True)):
        centre = x0 + k * (column + SHARED_GAP) + column / 2
        y = top - 14
        if detail:
            draw_text(draw, (centre, y), detail, font(24), Palette.TEXT_MUTED, "ms", room)
            y -= STEP_DETAIL_LINE
        for line in reversed(lines):
            draw_text(draw, (centre, y), line, fnt, Palette.ACCENT if step.tier == 0 else Palette.TEXT, "ms")
            y -= STEP_NAME_LINE
