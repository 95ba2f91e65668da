"""Pictures of ratings: a server's leaderboard and a player's profile card.

The bot words everything (l10n/words) and passes plain text here; these functions only lay it
out. Drawn at 900 px wide, so that on a phone (shown about 400 px wide) the smallest text is
still about 13 px tall.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from render.common import Palette, backdrop, draw_text, encode_png, fit_font, font

WIDTH = 900
MARGIN = 36
TREND_ROOM = 70  # the rating's right edge from the margin when the trend is short (or none)
TREND_GAP = 16  # the least room between the rating and its trend arrow
ROW = 64
BUDGET = 2 * 1024 * 1024


@dataclass(frozen=True)
class BoardRow:
    """One line of a leaderboard: ``rank`` is "1", "2"... or "–" for a provisional player."""

    rank: str
    name: str
    rating: str
    games: str
    provisional: bool = False
    heading: bool = False  # a section's title row (a Fox Duet level, a solo mode)


def leaderboard_png(title: str, subtitle: str, rows: Sequence[BoardRow]) -> bytes:
    """A leaderboard page: title, then one row per player, provisional players muted."""
    height = 150 + ROW * max(1, len(rows)) + MARGIN
    image = backdrop((WIDTH, height))
    draw = ImageDraw.Draw(image)
    # A long game title shrinks before it is cut: "best scores" must stay readable.
    heading = fit_font(title, WIDTH - 2 * MARGIN, 44, bold=True, min_size=30)
    draw_text(draw, (MARGIN, 58), title, heading, Palette.TEXT, anchor="ls", max_width=WIDTH - 2 * MARGIN)
    draw_text(draw, (MARGIN, 104), subtitle, font(28), Palette.TEXT_MUTED, anchor="ls", max_width=WIDTH - 2 * MARGIN)
    top = 130
    for n, row in enumerate(rows):
        y = top + n * ROW
        if n % 2 == 0:
            draw.rounded_rectangle((MARGIN - 12, y, WIDTH - MARGIN + 12, y + ROW - 6), 12, fill=Palette.PANEL)
        colour = Palette.TEXT_MUTED if row.provisional else Palette.TEXT
        middle = y + ROW / 2 - 3
        if row.heading:
            draw_text(draw, (MARGIN, middle), row.name, font(32, True), Palette.ACCENT, anchor="lm", max_width=520)
            draw_text(draw, (WIDTH - MARGIN, middle), row.games, font(26), Palette.TEXT_MUTED, anchor="rm")
            continue
        draw_text(draw, (MARGIN + 30, middle), row.rank, font(34, True), Palette.ACCENT, anchor="mm")
        draw_text(draw, (MARGIN + 80, middle), row.name, font(34), colour, anchor="lm", max_width=WIDTH - 470)
        draw_text(draw, (WIDTH - 230, middle), row.rating, font(36, True), colour, anchor="rm")
        draw_text(draw, (WIDTH - MARGIN, middle), row.games, font(26), Palette.TEXT_MUTED, anchor="rm")
    return encode_png(image, BUDGET, optimize=False)


@dataclass(frozen=True)
class ProfileGame:
    """A game on a profile card: ``rating`` is empty for games without one (co-operative, solo)."""

    title: str
    rating: str
    trend: int | None
    played: str
    best: str


def profile_png(
    name: str, subtitle: str, games: Sequence[ProfileGame], recent_title: str, recent: Sequence[str]
) -> bytes:
    """A player's card: their games with rating and trend, then their latest games."""
    height = 140 + 118 * max(1, len(games)) + (60 + 46 * len(recent) if recent else 0) + MARGIN
    image = backdrop((WIDTH, height))
    draw = ImageDraw.Draw(image)
    draw_text(draw, (MARGIN, 60), name, font(48, True), Palette.TEXT, anchor="ls", max_width=WIDTH - 2 * MARGIN)
    draw_text(draw, (MARGIN, 106), subtitle, font(28), Palette.TEXT_MUTED, anchor="ls", max_width=WIDTH - 2 * MARGIN)
    y = 130
    for game in games:
        draw.rounded_rectangle((MARGIN - 12, y, WIDTH - MARGIN + 12, y + 106), 16, fill=Palette.PANEL)
        draw_text(draw, (MARGIN + 8, y + 40), game.title, font(34, True), Palette.TEXT, anchor="ls", max_width=560)
        draw_text(draw, (MARGIN + 8, y + 86), game.played, font(27), Palette.TEXT_MUTED, anchor="ls", max_width=560)
        # The trend at the right edge, then the rating a clear gap to its left, however wide the trend is.
        right: float = WIDTH - MARGIN - TREND_ROOM
        if game.trend:
            up = game.trend > 0
            colour = Palette.GOOD if up else Palette.BAD
            sign = "▲" if up else "▼"
            trend = f"{sign}{abs(game.trend)}"
            width = draw_text(draw, (WIDTH - MARGIN, y + 46), trend, font(26, True), colour, anchor="rm")
            right = min(right, WIDTH - MARGIN - width - TREND_GAP)
        if game.rating:
            draw_text(draw, (right, y + 46), game.rating, font(40, True), Palette.ACCENT, anchor="rm")
        draw_text(draw, (WIDTH - MARGIN, y + 88), game.best, font(26), Palette.TEXT_MUTED, anchor="rs", max_width=340)
        y += 118
    if recent:
        y += 20
        draw_text(draw, (MARGIN, y + 24), recent_title, font(30, True), Palette.TEXT_MUTED, anchor="ls")
        y += 40
        for line in recent:
            draw_text(draw, (MARGIN, y + 32), line, font(28), Palette.TEXT, anchor="ls", max_width=WIDTH - 2 * MARGIN)
            y += 46
    return encode_png(image, BUDGET, optimize=False)
