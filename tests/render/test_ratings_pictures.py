"""The leaderboard and profile pictures: sizes, long names cut, every row drawn."""

from __future__ import annotations

import io

from PIL import Image

from render.common import font
from render.rating_pictures import WIDTH, BoardRow, ProfileGame, leaderboard_png, profile_png


def test_a_full_leaderboard_page_keeps_long_names_inside_the_picture() -> None:
    rows = [BoardRow(str(n), "W" * 60, str(1000 + n), f"{n} games", n > 15) for n in range(1, 21)]
    image = Image.open(io.BytesIO(leaderboard_png("Vivarium: ratings", "Page 1 of 1", rows)))
    assert image.width == WIDTH and image.height >= 150 + 64 * 20
    # The name column ends before the rating column: the right edge of every row stays free
    # of name ink between the name's limit and the rating (a long name is cut with an ellipsis).
    assert font(34).getlength("W" * 60) > WIDTH, "the test name really is too long to fit"
    gap = image.crop((WIDTH - 350, 130, WIDTH - 328, image.height - 40)).convert("L")
    assert gap.getextrema()[1] < 120, "no text drawn in the gap between the name and the rating"


def test_a_profile_card_grows_with_its_games_and_shows_a_falling_trend() -> None:
    games = [ProfileGame(f"Game {n}", "987", -12, "3 games, 1 won", "best score 40") for n in range(4)]
    image = Image.open(io.BytesIO(profile_png("Zoë", "9 finished games", games, "Latest games", ["a", "b"])))
    assert image.width == WIDTH and image.height > 140 + 118 * 4
    colours = image.convert("RGB").getcolors(1 << 20) or []
    red = sum(count for count, (r, g, b) in colours if r > 180 and g < 110 and b < 110)
    assert red > 100, "a falling trend is drawn in red"


def test_the_rating_and_its_trend_never_touch() -> None:
    """However wide the trend ("▲5" or "▼1234"), a clear gap separates it from the rating."""
    from tests.render.text_bounds import recorded_text

    for trend in (5, -12, 123, -1234):
        games = [ProfileGame("Vivarium", "1987", trend, "3 games, 1 won", "best score 40")]
        with recorded_text() as records:
            profile_png("Zoë", "9 finished games", games, "Latest games", [])
        rating = next(r.box for r in records if r.text == "1987")
        arrow = next(r.box for r in records if r.text.endswith(str(abs(trend))) and r.text[0] in "▲▼")
        assert arrow[0] - rating[2] >= 12, (trend, rating, arrow)
