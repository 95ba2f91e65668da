"""Every colour that carries meaning also has a shape or a letter, so it reads without telling colours apart.

Noctiluca's four dice colours and three jar colours each have their own shape (a die and the jar slot
it fits, a score token and its jar card): the shapes are checked to be told apart by their outline
alone, with the colours taken away. The other games' coloured markers carry words or letters.
"""

from __future__ import annotations

import itertools

from PIL import Image, ImageDraw

from render import noctiluca
from render.noctiluca import DICE, DIE_SHAPES, JAR_COLOURS, JAR_SHAPES, die_sprite, draw_shape, draw_token

# Two silhouettes are told apart when at least this share of their joint area belongs to one only.
DISTINCT = 0.12


def silhouette_of(kind: str, size: int = 40) -> Image.Image:
    image = Image.new("L", (size, size), 0)
    draw_shape(ImageDraw.Draw(image), kind, (2, 2, size - 2, size - 2), 255)
    return image


def difference(a: Image.Image, b: Image.Image) -> float:
    """The share of the joint area of two masks that only one of them covers."""
    pa = [v > 127 for v in a.convert("L").tobytes()]
    pb = [v > 127 for v in b.convert("L").tobytes()]
    both = sum(x or y for x, y in zip(pa, pb, strict=True))
    one = sum(x != y for x, y in zip(pa, pb, strict=True))
    return one / max(1, both)


def test_every_dice_colour_and_jar_colour_has_a_shape_of_its_own() -> None:
    assert set(DIE_SHAPES) == set(DICE) and set(JAR_SHAPES) == set(JAR_COLOURS)
    for shapes in (DIE_SHAPES, JAR_SHAPES):
        assert len(set(shapes.values())) == len(shapes)
        for a, b in itertools.combinations(set(shapes.values()), 2):
            assert difference(silhouette_of(a), silhouette_of(b)) >= DISTINCT, (a, b)


def test_a_die_is_drawn_in_its_colours_shape() -> None:
    """With the colours taken away (only where the die is), the dice of different colours still differ."""
    masks = {colour: die_sprite(colour, 3).getchannel("A").point(lambda v: 255 if v > 127 else 0) for colour in DICE}
    for a, b in itertools.combinations(DICE, 2):
        assert difference(masks[a], masks[b]) >= DISTINCT, (a, b)


def test_a_score_token_is_drawn_in_its_jar_colours_shape() -> None:
    masks = {}
    for colour in JAR_COLOURS:
        image = Image.new("RGB", (60, 60), (0, 0, 0))
        draw_token(ImageDraw.Draw(image), (30, 30), colour, 5, 20)
        masks[colour] = image.convert("L").point(lambda v: 255 if v > 10 else 0)
    for a, b in itertools.combinations(JAR_COLOURS, 2):
        assert difference(masks[a], masks[b]) >= DISTINCT, (a, b)


def test_a_jar_slot_shows_the_shape_of_the_die_it_takes() -> None:
    """An empty slot is outlined in its die's shape: a jar of one slot per colour shows four outlines."""
    outlines = {}
    for colour in DICE:
        image = Image.new("RGB", (noctiluca.JAR_W + 20, noctiluca.JAR_H + 20), (0, 0, 0))
        jar = {"colour": "gold", "points": 0, "slots": [colour], "dice": [None], "id": "x"}
        noctiluca.draw_jar(image, (10, 10), jar, "en")
        pixels = image.tobytes()
        exact = bytes(255 if tuple(pixels[i : i + 3]) == DICE[colour] else 0 for i in range(0, len(pixels), 3))
        ink = Image.frombytes("L", image.size, exact)
        assert ink.getbbox() is not None, colour
        outlines[colour] = ink.crop(ink.getbbox()).resize((40, 40))
    for a, b in itertools.combinations(DICE, 2):
        assert difference(outlines[a], outlines[b]) >= DISTINCT, (a, b)


def test_a_tm_dice_tile_names_its_owner_by_number_as_the_owners_panel_does() -> None:
    """A tile's owner is shown by the seat's colour and by its number, the number its panel carries."""
    from engine import GAMES
    from render.tm_dice import HEX, board, hex_centre
    from render.tm_dice import HEXES as TM_HEXES
    from tests.render.text_bounds import recorded_text
    from tests.support.render_checks import random_position

    state = random_position(GAMES["tm-dice"], 3, 20000, 4)
    public = state.view(None)["public"]
    owned = [tile for tile in public["tiles"] if tile["owner"] is not None]
    assert len(owned) >= 5
    with recorded_text() as records:
        image = board(public, ["Ann", "Bo", "Cy"], phone=False)
    numbers = [r for r in records if r.image == 0 and r.text in ("1", "2", "3")]
    for tile in owned:
        h = TM_HEXES[tile["hex"]]
        cx, cy = hex_centre(h["q"], h["r"])
        inside = [r.text for r in numbers if cx - HEX < r.box[0] < cx + HEX and cy < r.box[1] < cy + HEX]
        assert str(tile["owner"] + 1) in inside, tile
    assert image.width == 1600


def head_of(seat: int, size: int = 40) -> Image.Image:
    """The upper part of a seat's pawn (its head), as a mask."""
    alpha = noctiluca.pawn_sprite(seat, size).getchannel("A")
    return alpha.crop((0, 0, size, round(size * 0.6))).point(lambda v: 255 if v > 127 else 0)


def test_every_seats_pawn_has_a_head_of_its_own_shape() -> None:
    """Four seats' pawns differ by the shape of their head, not by their colour alone."""
    assert len(set(noctiluca.SEAT_SHAPES)) == len(noctiluca.SEAT_SHAPES) == len(noctiluca.SEAT_COLOURS)
    for a, b in itertools.combinations(range(4), 2):
        for size in (38, noctiluca.PAWN):  # beside the name in a seat's panel, and on a shore
            assert difference(head_of(a, size), head_of(b, size)) >= DISTINCT, (a, b, size)


def test_a_pawn_on_a_shore_has_the_shape_of_its_players_pawn_in_the_seat_list(monkeypatch) -> None:
    """Every pawn the pool shows is drawn as its seat's pawn, the one drawn beside that seat's name."""
    from engine import GAMES
    from tests.support.render_checks import random_position

    drawn: list[tuple[int, int]] = []
    original = noctiluca.pawn_sprite

    def recording(seat: int, size: int = 40, grey: bool = False) -> Image.Image:
        drawn.append((seat, size))
        return original(seat, size, grey)

    monkeypatch.setattr(noctiluca, "pawn_sprite", recording)
    state = random_position(GAMES["noctiluca"], 4, 31, 40)
    public = state.view(None)["public"]
    on_shores = sorted(shore["pawn"]["seat"] for shore in public["shores"] if shore["pawn"] is not None)
    assert len(set(on_shores)) >= 3
    noctiluca.board(public, ["Ann", "Bo", "Cy", "Di"])
    assert sorted(seat for seat, size in drawn if size == noctiluca.PAWN) == on_shores
    beside_names = [seat for seat, size in drawn if size != noctiluca.PAWN]
    assert beside_names == [0, 1, 2, 3]
