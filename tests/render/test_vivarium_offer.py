"""Vivarium's step that chooses a card reads inline on a phone: the cards on offer are drawn again, large.

At the take step and at an ability's step, the cards that may be chosen are drawn above the board, each
under the name of its cell as the menu gives it ("R2 C3"). Measured at Discord's inline size (the picture
shrunk to ``INLINE_WIDTH``, 360 px, wide): every offered card's name and text (an equipment's ability, a
contract's goal) is drawn with capitals at least ``NAME_CAP`` / ``TEXT_CAP`` px tall (on the grid they are
about 3 px: a tap was needed to read them), and the cell names are key lines (checked with the others
by ``test_phone_legibility``). Seven or eight on offer are drawn as tiles (``render/vivarium/offer.py``), at
least as legible as six large cards, in a picture no taller than ``MAX_ASPECT`` times its width.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import ImageDraw

from render import RENDERERS
from render.phone import INLINE_WIDTH, cap_height, key_lines
from render.vivarium import card_pictures as vivarium_cards
from render.vivarium.board_picture import W, offered
from render.vivarium.card_pictures import ability_text, goal_lines, name_of
from render.vivarium.offer import described, laid_out, tile_width
from tests.render.fits_common import LOCALES, NAMES, played

NAME_CAP = 7.5  # px at inline scale: a card's name (bold), about a 10.5 pt font on a phone
TEXT_CAP = 6.7  # px at inline scale: its ability or goal, about a 9.5 pt font
MAX_ASPECT = 1.55  # a board with cards on offer: its height over its width


@contextmanager
def drawn_sizes() -> Iterator[list[tuple[str, int, bool]]]:
    """Every text drawn while the block runs, with its font's size and whether it is bold."""
    found: list[tuple[str, int, bool]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, fill: Any = None, font: Any = None, *a: Any, **k: Any):
        if isinstance(text, str) and font is not None:
            found.append((text.strip(), int(font.size), "Bold" in str(getattr(font, "path", ""))))
        return original(self, xy, text, fill, font, *a, **k)

    vivarium_cards._card.cache_clear()  # a card kept from before would not be drawn again
    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        yield found
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def choosing_positions() -> list[dict[str, Any]]:
    """Public views at the take step and at an ability's step, at every player count."""
    picked: list[dict[str, Any]] = []
    for players in (2, 3, 4):
        views = [view["public"] for view, _ in played("vivarium", players, players + 40)]
        takes = [v for v in views if v["phase"] == "take" and offered(v)]
        abilities = [v for v in views if v["phase"] == "ability" and offered(v)]
        picked += takes[:1] + takes[len(takes) // 2 : len(takes) // 2 + 1] + abilities[:1]
        picked += many_on_offer(players)
    return picked


def many_on_offer(players: int) -> list[dict[str, Any]]:
    """A take step with seven cards on offer and one with eight, at that player count (a few games looked at)."""
    found: dict[int, dict[str, Any]] = {}
    for seed in range(players + 40, players + 46):
        for view, _ in played("vivarium", players, seed):
            public = view["public"]
            if public["phase"] == "take" and len(offered(public)) >= 7:
                found.setdefault(len(offered(public)), public)
        if len(found) == 2:
            break
    return list(found.values())


def texts_of(card: Mapping[str, Any], locale: str) -> list[str]:
    """The words of a card the choice depends on, beside its name: an ability, a goal."""
    if card.get("kind") == "equipment":
        return [ability_text(card.get("ability", {}), locale)]
    if card.get("kind") == "contract":
        return goal_lines(card.get("goal", {}), locale)
    return []


def largest(found: list[tuple[str, int, bool]], whole: str) -> int:
    """The largest size any line of ``whole`` (drawn whole or wrapped in lines) was drawn at."""
    return max(
        (size for text, size, _ in found if text and (len(text) >= 2 or text == whole) and text in whole), default=0
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_the_cards_on_offer_read_inline(locale: str) -> None:
    problems = []
    positions = choosing_positions()
    assert {p["phase"] for p in positions} == {"take", "ability"}
    for n, public in enumerate(positions):
        names = list(NAMES[n % len(NAMES)][: public["players"]])
        with drawn_sizes() as found:
            image = RENDERERS["vivarium"].board(public, names, locale=locale)
        scale = INLINE_WIDTH / image.width
        for row, col, card in offered(public):
            name = name_of(card, locale)
            cap = cap_height(largest(found, name)) * scale if largest(found, name) else 0.0
            if cap < NAME_CAP:
                problems.append(f"{public['phase']} R{row} C{col} {name!r}: capitals {cap:.1f} px inline")
            for text in texts_of(card, locale):
                size = largest(found, text)
                cap = cap_height(size) * scale if size else 0.0
                if cap < TEXT_CAP:
                    problems.append(f"{public['phase']} R{row} C{col} {text!r}: capitals {cap:.1f} px inline")
        cells = [line.text for line in key_lines(image) if line.role == "choice"]
        assert len(cells) == len(offered(public)), cells
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("locale", LOCALES)
def test_seven_or_eight_on_offer_are_tiles_whole_and_the_picture_stays_short(locale: str) -> None:
    """Every word of every tile is drawn whole, and the board with its tiles is at most ``MAX_ASPECT`` times as
    tall as it is wide (on a phone, 360 px wide, about 560 px tall: two thirds of a screen)."""
    positions = [p for players in (2, 3, 4) for p in many_on_offer(players)]
    assert {len(offered(p)) for p in positions} == {7, 8}
    for n, public in enumerate(positions):
        image = RENDERERS["vivarium"].board(public, list(NAMES[n % len(NAMES)][: public["players"]]), locale=locale)
        assert image.height <= MAX_ASPECT * image.width, (len(offered(public)), image.size)
        for tile in laid_out(offered(public), tile_width(W), locale):
            assert squeezed(tile.names) == squeezed([name_of(tile.card, locale)]), tile.names
            assert squeezed(tile.texts) == squeezed(described(tile.card, locale)), tile.texts


def squeezed(lines: list[str]) -> str:
    return "".join(lines).replace(" ", "")


def test_no_card_is_offered_at_the_swap_step() -> None:
    """At the swap step the choice is a chain token: the board is drawn without the cards on offer."""
    views = [view["public"] for view, _ in played("vivarium", 3, 43)]
    swap = next(v for v in views if v["phase"] == "swap")
    image = RENDERERS["vivarium"].board(swap, list(NAMES[0][:3]))
    assert not [line for line in key_lines(image) if line.role == "choice"]
