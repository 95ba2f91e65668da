"""The tournament pictures: standings, brackets and the podium, laid out legibly at any size."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

from render.common import Box, Palette, font
from render.tournament_pictures import (
    BOX_MIN_W,
    BRONZE,
    BUDGET,
    GOLD,
    MAX_ON_PODIUM,
    MAX_WIDTH,
    POINTS_SIZE,
    ROW,
    SILVER,
    WIDTH,
    BracketMatch,
    BracketSlot,
    StandingRow,
    bracket_layout,
    bracket_png,
    podium_png,
    podium_steps,
    standings_layout,
    standings_png,
)

HEADINGS = ("#", "Player", "Points", "Buchholz", "Score", "Head-to-head", "Played")


def picture(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def count(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 10) -> int:
    """Pixels within ``tolerance`` of ``colour`` on every channel."""
    found = image.getcolors(1 << 22) or []
    return sum(
        n
        for n, rgb in found
        if isinstance(rgb, tuple) and all(abs(a - b) <= tolerance for a, b in zip(rgb, colour, strict=True))
    )


def brightest(image: Image.Image) -> float:
    """The brightest grey level in ``image``: below ~120 means no text is drawn there."""
    low, high = image.convert("L").getextrema()
    assert isinstance(high, int | float)
    return high


def player_rows(n: int, name: str = "Player") -> list[StandingRow]:
    return [StandingRow(str(k), f"{name} {k}", "9", ("12.5", "30", "1"), "5") for k in range(1, n + 1)]


# --- standings --------------------------------------------------------------------------------


def test_the_standings_grow_one_row_per_player() -> None:
    few = picture(standings_png("Swiss", "Round 2 of 5", HEADINGS, player_rows(4)))
    many = picture(standings_png("Swiss", "Round 2 of 5", HEADINGS, player_rows(16)))
    assert few.width == many.width == WIDTH
    assert many.height - few.height == 12 * ROW


def test_long_names_are_cut_before_the_numeric_columns() -> None:
    rows = [StandingRow(str(k), "W" * 60, "9", ("12.5", "30", "1"), "5") for k in range(1, 9)]
    layout = standings_layout(HEADINGS, rows)
    image = picture(standings_png("Swiss", "Round 5 of 5", HEADINGS, rows))
    assert font(32).getlength("W" * 60) > WIDTH, "the test name really is too long to fit"
    name_right = layout.columns[1][1]
    points_left = layout.columns[2][1] - font(POINTS_SIZE, True).getlength("9")
    assert points_left - name_right > 20, "the points sit well right of the name column"
    rows_area = (layout.rows_top, layout.rows_top + ROW * len(rows))
    # Between the end of the name column and the right-aligned points: no text at all.
    gap = image.crop((round(name_right) + 2, round(rows_area[0]), round(points_left) - 4, round(rows_area[1])))
    assert brightest(gap) < 120, "no name ink reaches into the numbers"
    # ...while the name column itself is full of (cut) names.
    names = image.crop((round(name_right) - 60, round(rows_area[0]), round(name_right), round(rows_area[1])))
    assert brightest(names) > 200


def test_the_leader_is_drawn_in_the_accent_colour_and_a_dropped_player_is_muted() -> None:
    rows = player_rows(6)
    rows[0] = StandingRow("1", "Leader", "15", ("20", "44", "2"), "5", highlight=True)
    rows[4] = StandingRow("", "Gone", "3", ("8", "10", "0"), "2", dropped=True)
    layout = standings_layout(HEADINGS, rows)
    image = picture(standings_png("Swiss", "Round 5 of 5", HEADINGS, rows))

    def band(n: int) -> Image.Image:
        y = round(layout.rows_top + n * ROW)
        return image.crop((0, y, WIDTH, y + ROW - 6))

    assert count(band(0), Palette.ACCENT, 30) > 300, "the leader's rank, name and points are in accent"
    for n in range(1, len(rows)):
        assert count(band(n), Palette.ACCENT, 30) == 0, f"row {n} is not highlighted"
    assert count(band(4), Palette.TEXT, 12) < 20, "the dropped player has no bright text"
    assert count(band(4), Palette.TEXT_MUTED, 12) > 200, "the dropped player is drawn muted"
    assert count(band(3), Palette.TEXT, 12) > 200


def test_zero_to_three_tiebreaks_with_headings_that_stay_readable() -> None:
    for tiebreaks in range(4):
        headings = HEADINGS[: 3 + tiebreaks] + ("Played",)
        rows = [StandingRow("1", "Ann", "9", ("7",) * tiebreaks, "5")]
        layout = standings_layout(headings, rows)
        assert len(layout.columns) == 4 + tiebreaks
        lines = [line for heading in layout.heading_lines for line in heading]
        assert not any(line.endswith("…") for line in lines), lines
        assert layout.columns[1][1] - layout.columns[1][0] >= 220, "the name column keeps its room"
        edges = [x for column in layout.columns for x in column]
        assert edges == sorted(edges), "columns do not overlap"
        picture(standings_png("Swiss", "", headings, rows))
    with pytest.raises(ValueError):
        standings_png("Swiss", "", HEADINGS + ("Extra",), [])


def test_sixty_four_players_make_one_tall_picture_within_the_budget() -> None:
    data = standings_png("Open", "Round 7 of 7 · 64 players", HEADINGS, player_rows(64, "Somebody Longname"))
    image = picture(data)
    assert len(data) <= BUDGET
    assert image.size[0] == WIDTH and image.size[1] >= 64 * ROW


# --- brackets ---------------------------------------------------------------------------------


def duel(section: str, rnd: int, a: str | None, b: str | None, won: int | None = None) -> BracketMatch:
    wins = ("2", "1") if won == 0 else ("1", "2") if won == 1 else ("", "")
    return BracketMatch(section, rnd, (BracketSlot(a, wins[0], won == 0), BracketSlot(b, wins[1], won == 1)))


def single_elimination(players: int, section: str = "Bracket", played_rounds: int = 99) -> list[BracketMatch]:
    """A full single-elimination bracket; the first seat wins every match of the first ``played_rounds``."""
    field: list[str | None] = [f"Player {k}" for k in range(1, players + 1)]
    matches, rnd = [], 1
    while len(field) > 1:
        played = rnd <= played_rounds
        matches += [duel(section, rnd, field[i], field[i + 1], 0 if played else None) for i in range(0, len(field), 2)]
        field = [field[i] if played else None for i in range(0, len(field), 2)]
        rnd += 1
    return matches


def centre_y(box: Box) -> float:
    return (box[1] + box[3]) / 2


def assert_no_overlap(boxes: list[Box]) -> None:
    for a, b in itertools.combinations(boxes, 2):
        apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
        assert apart, f"boxes {a} and {b} overlap"


def test_an_eight_player_bracket_is_a_tree_with_connectors_and_the_winners_in_accent() -> None:
    matches = single_elimination(8, played_rounds=1)
    titles = {("Bracket", 1): "Quarter-finals", ("Bracket", 2): "Semi-finals", ("Bracket", 3): "Final"}
    layout = bracket_layout(titles, matches)
    assert layout.width == WIDTH and layout.font_size >= 22
    (section,) = layout.sections
    assert len(section.boxes) == 7 and len(section.links) == 3
    for feeders, target in section.links:
        assert len(feeders) == 2
        assert centre_y(target) == pytest.approx(sum(map(centre_y, feeders)) / 2), "a box sits between its feeders"
        assert all(f[2] < target[0] for f in feeders), "feeders are in the column to the left"
    assert_no_overlap([box for _, box in section.boxes])

    image = picture(bracket_png("Cup", "Quarter-finals played", titles, matches))
    assert image.size == (layout.width, layout.height)
    # A connector runs through the gap between the first two columns, at the height of each first-round box.
    first = [box for match, box in section.boxes if match.round == 1]
    second_left = min(box[0] for match, box in section.boxes if match.round == 2)
    x = round((first[0][2] + second_left) / 2)
    column = image.crop((x - 1, 0, x + 2, image.height))
    assert count(column, Palette.PANEL_EDGE, 6) > 100, "vertical connector lines between the rounds"
    # In each played match the winner's name (the first line) is in accent, the loser's line is not.
    for box in first:
        x0, y0, x1, y1 = (round(v) for v in box)
        middle = (y0 + y1) // 2
        name = image.crop((x0 + 14, y0, x1 - 40, middle))  # past the winner's mark, before the games won
        assert count(name, Palette.ACCENT, 30) > 100
        assert count(image.crop((x0, middle, x1, y1)), Palette.ACCENT, 30) == 0
    # The unplayed semi-finals hold no accent at all.
    for match, box in section.boxes:
        if match.round > 1:
            assert count(image.crop(box), Palette.ACCENT, 30) == 0


def test_a_six_player_double_elimination_stacks_winners_losers_and_the_grand_final() -> None:
    wb, lb, gf = "Winners bracket", "Losers bracket", "Grand final"
    matches = [
        duel(wb, 1, "Ann", "bye", 0), duel(wb, 1, "Dan", "Eve", 1),
        duel(wb, 1, "Bob", "bye", 0), duel(wb, 1, "Cat", "Fay", 0),
        duel(wb, 2, "Ann", "Eve", 0), duel(wb, 2, "Bob", "Cat", 1),
        duel(wb, 3, "Ann", "Cat", 0),
        duel(lb, 1, "Dan", "bye", 0), duel(lb, 1, "Fay", "bye", 0),
        duel(lb, 2, "Dan", "Bob", 1), duel(lb, 2, "Fay", "Eve", 0),
        duel(lb, 3, "Bob", "Fay", 0),
        duel(lb, 4, "Bob", "Cat", 0),
        duel(gf, 1, "Ann", "Bob", 1), duel(gf, 2, "Ann", "Bob", 0),
    ]  # fmt: skip
    titles = {(lb, 4): "Losers final", (gf, 1): "Grand final", (gf, 2): "Reset"}
    layout = bracket_layout(titles, matches)
    assert [s.title for s in layout.sections] == [wb, lb, gf]
    assert layout.width == WIDTH, "four rounds side by side still fit 900 px"
    assert layout.font_size >= 22
    for upper, lower in itertools.pairwise(layout.sections):
        assert upper.bottom <= lower.top, "sections are stacked, not overlapping"
    every = [box for s in layout.sections for _, box in s.boxes]
    assert len(every) == len(matches)
    assert_no_overlap(every)
    assert all(0 <= b[0] and b[2] <= layout.width and 0 <= b[1] and b[3] <= layout.height for b in every)
    # The losers bracket (2, 2, 1, 1 boxes) is still a tree: straight lines, then a merge.
    losers = layout.sections[1]
    assert [len(feeders) for feeders, _ in losers.links] == [1, 1, 2, 1]
    assert [len(lines) for _, lines in losers.titles] == [1], "only the titled round has a title"
    # The grand final and its reset are joined by one straight line.
    assert len(layout.sections[2].links) == 1
    image = picture(bracket_png("Double", "Finished", titles, matches))
    assert image.size == (layout.width, layout.height)
    assert count(image, Palette.ACCENT, 30) > 15 * 100, "a winner in accent in each of the 15 matches"


def test_thirty_two_players_stay_legible_in_a_wider_taller_picture() -> None:
    singles = single_elimination(32)
    layout = bracket_layout({}, singles)
    assert WIDTH < layout.width <= MAX_WIDTH
    assert layout.box_width >= BOX_MIN_W and layout.font_size >= 22
    boxes = [box for s in layout.sections for _, box in s.boxes]
    assert_no_overlap(boxes)
    assert layout.height > 16 * (boxes[0][3] - boxes[0][1]), "sixteen first-round boxes stacked"
    data = bracket_png("Open", "32 players", {}, singles)
    assert picture(data).size == (layout.width, layout.height) and len(data) <= BUDGET

    # Double elimination adds a losers bracket of eight rounds (8, 8, 4, 4, 2, 2, 1, 1 matches).
    losers = [
        duel("Losers bracket", rnd, f"L{rnd}-{k}a", f"L{rnd}-{k}b")
        for rnd, n in enumerate([8, 8, 4, 4, 2, 2, 1, 1], start=1)
        for k in range(n)
    ]
    both = singles + losers + [duel("Grand final", 1, None, None)]
    layout = bracket_layout({}, both)
    assert layout.width <= MAX_WIDTH and layout.font_size >= 22
    assert layout.box_width >= 150, "even eight rounds side by side leave room for a name"
    assert_no_overlap([box for s in layout.sections for _, box in s.boxes])
    data = bracket_png("Open", "32 players, double elimination", {}, both)
    assert len(data) <= BUDGET


def test_pods_are_taller_boxes_and_four_heats_feed_one_final_table() -> None:
    heats = [
        BracketMatch("Pods", 1, tuple(BracketSlot(f"P{4 * p + k}", winner=k == 0) for k in range(4))) for p in range(4)
    ]
    final = BracketMatch("Pods", 2, tuple(BracketSlot(f"P{4 * p}") for p in range(4)))
    layout = bracket_layout({("Pods", 1): "Heats", ("Pods", 2): "Final table"}, [*heats, final])
    duel_box = bracket_layout({}, [duel("Pods", 1, "a", "b")]).sections[0].boxes[0][1]
    (section,) = layout.sections
    heights = [box[3] - box[1] for _, box in section.boxes]
    assert all(h > 1.8 * (duel_box[3] - duel_box[1]) for h in heights), "four lines make a taller box"
    ((feeders, target),) = section.links
    assert len(feeders) == 4 and centre_y(target) == pytest.approx(sum(map(centre_y, feeders)) / 4)
    assert_no_overlap([box for _, box in section.boxes])
    bracket_png("Pods", "", {}, [*heats, final])


def test_an_irregular_section_stacks_its_boxes_centred_without_connectors() -> None:
    matches = [duel("Losers", 1, "a", "b"), duel("Losers", 2, "c", "d"), duel("Losers", 2, "e", "f")]
    layout = bracket_layout({}, matches)
    (section,) = layout.sections
    assert section.links == ()
    (lone,) = [box for match, box in section.boxes if match.round == 1]
    pair = [box for match, box in section.boxes if match.round == 2]
    assert centre_y(lone) == pytest.approx(sum(map(centre_y, pair)) / 2), "the single box is centred on the pair"
    assert_no_overlap([box for _, box in section.boxes])
    bracket_png("Odd", "", {}, matches)


def test_two_entrants_and_an_empty_bracket_still_draw() -> None:
    image = picture(bracket_png("Duel", "", {("Final", 1): "Final"}, [duel("Final", 1, "Ann", None)]))
    assert image.width == WIDTH
    assert count(image, Palette.ACCENT, 30) == 0, "nobody has won yet"
    assert picture(bracket_png("Nothing yet", "", {}, [])).width == WIDTH


# --- podium -----------------------------------------------------------------------------------


def podium(places: int) -> Image.Image:
    entries = [(f"{k}.", f"Player {k}", f"{10 - k} points") for k in range(1, places + 1)]
    return picture(podium_png("Spring Swiss", "Final standings", entries))


def test_a_podium_with_one_two_three_and_eight_places() -> None:
    one, two, three, eight = podium(1), podium(2), podium(3), podium(8)
    for image in (one, two, three, eight):
        assert image.width == WIDTH
        assert count(image, GOLD) > 10_000, "a gold step for the winner"
    assert count(one, SILVER) == 0 and count(one, BRONZE) == 0
    assert count(two, SILVER) > 5_000 and count(two, BRONZE) == 0
    assert count(three, SILVER) > 5_000 and count(three, BRONZE) > 5_000
    assert eight.height > three.height + 4 * 50, "places after the third are listed below"
    # 2nd on the left, 1st in the centre, 3rd on the right: the steps' colours in that order.
    pixels = [three.getpixel((x, three.height - 90)) for x in range(WIDTH)]
    xs = {
        name: [x for x, pixel in enumerate(pixels) if pixel == colour]
        for name, colour in (("gold", GOLD), ("silver", SILVER), ("bronze", BRONZE))
    }
    assert max(xs["silver"]) < min(xs["gold"]) and max(xs["gold"]) < min(xs["bronze"])


def test_a_shared_place_shares_its_step() -> None:
    image = picture(podium_png("Cup", "", [("1", "Ann", ""), ("=2", "Bob", ""), ("=2", "Cat", "")]))
    assert count(image, BRONZE) == 0, "two players sharing second both stand on silver"
    assert count(image, SILVER) > 2 * 20_000


def test_a_shared_third_place_puts_both_players_on_the_bronze_step() -> None:
    """Single elimination: both semi-final losers are third; both stand on the step, none below."""
    alone = [("1", "Ann", ""), ("2", "Bob", ""), ("3", "Cat", "")]
    shared = [*alone, ("3", "Dan", "")]
    steps, rest = podium_steps(shared)
    assert [(s.tier, [n for n, _ in s.entries]) for s in steps] == [(0, ["Ann"]), (1, ["Bob"]), (2, ["Cat", "Dan"])]
    assert rest == []
    one, two = picture(podium_png("Cup", "", alone)), picture(podium_png("Cup", "", shared))
    assert two.height == one.height, "nobody is listed under the podium"
    assert two.width == WIDTH
    assert count(two, BRONZE) > 1.5 * count(one, BRONZE), "the bronze step holds two names side by side"
    # The bronze step is still on the right of gold, silver on the left.
    pixels = [two.getpixel((x, two.height - 90)) for x in range(WIDTH)]
    xs = {
        name: [x for x, pixel in enumerate(pixels) if pixel == colour]
        for name, colour in (("gold", GOLD), ("silver", SILVER), ("bronze", BRONZE))
    }
    assert max(xs["silver"]) < min(xs["gold"]) and max(xs["gold"]) < min(xs["bronze"])


def test_podium_steps_share_places_and_list_the_rest_below() -> None:
    steps, rest = podium_steps([("1", "A", ""), ("1", "B", ""), ("3", "C", ""), ("4", "D", "")])
    assert [(s.tier, len(s.entries)) for s in steps] == [(0, 2), (2, 1)], "a shared first: no silver step"
    assert rest == [("4", "D", "")]
    crowd = [("1", "A", "")] + [("2", f"P{k}", "") for k in range(MAX_ON_PODIUM)]
    steps, rest = podium_steps(crowd)
    assert [s.tier for s in steps] == [0] and len(rest) == MAX_ON_PODIUM, "too many to stand: listed below"
