"""The Vivarium board and hand images, drawn from views of real positions (2, 3 and 4 players)."""

from __future__ import annotations

import io
import random
import time

import pytest
from PIL import Image

import render
from engine import GAMES
from render.vivarium import BOARD_BUDGET, HAND_BUDGET
from render.vivarium.card_pictures import ability_text, goal_lines
from tests.support.render_checks import check_landscape_png, without_private

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def position(players: int, steps: int, seed: int = 3):
    """A game after ``steps`` random moves that prefer taking cards (collections fill up)."""
    state = GAMES["vivarium"].new(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, rng.choice([a for a in actions if a.verb == "take"] or actions))
    return state


CASES = {
    "start-2p": (2, 0),
    "take-step-3p": (3, 31),
    "mid-game-4p": (4, 61),
    "late-2p": (2, 70),
    "game-over-4p": (4, 1000),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_board_is_a_png_within_budget(case: str) -> None:
    """1600 px wide, taller than the board: the band of key lines above it (and, at a step choosing a card,
    the cards on offer, which make it a portrait)."""
    state = position(*CASES[case])
    data = render.render_board("vivarium", state.view(None), NAMES[: state.players])
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and len(data) <= BOARD_BUDGET
    assert image.width == 1600 and image.height > 900


@pytest.mark.parametrize("case", sorted(CASES))
def test_hand_is_a_landscape_png_within_budget(case: str) -> None:
    state = position(*CASES[case])
    data = render.render_hand("vivarium", state.view(1), NAMES[: state.players], 1)
    check_landscape_png(data, HAND_BUDGET)


def test_board_never_reads_the_private_part() -> None:
    state = position(3, 20)
    view = state.view(0)
    assert render.render_board("vivarium", without_private(view), NAMES[:3])


def test_reachable_cards_are_highlighted() -> None:
    """The cells in ``reachable`` get the accent frame; the others are dimmed in the take step."""
    state = position(3, 1)
    public = state.view(None)["public"]
    assert public["phase"] == "take" and public["reachable"]
    board = render.RENDERERS["vivarium"].board(public, NAMES[:3])
    from render.vivarium.board_picture import CARD_H, CARD_W, GAP, GRID_X, GRID_Y, HIGHLIGHT

    row, col = public["reachable"][0]
    down = board.info["board_offset"]  # the band of key lines above the board
    edge = (GRID_X + (col - 1) * (CARD_W + GAP) - 3, down + GRID_Y + (row - 1) * (CARD_H + GAP) + CARD_H // 2)
    assert board.getpixel(edge) == HIGHLIGHT
    others = [(r, c) for r in range(1, 5) for c in range(1, 5) if [r, c] not in public["reachable"]]
    r, c = others[0]
    edge = (GRID_X + (c - 1) * (CARD_W + GAP) - 3, down + GRID_Y + (r - 1) * (CARD_H + GAP) + CARD_H // 2)
    assert board.getpixel(edge) != HIGHLIGHT


def test_two_player_board_shows_the_face_down_token() -> None:
    state = position(2, 0)
    public = state.view(None)["public"]
    assert public["facedown"] is not None
    assert render.render_board("vivarium", state.view(None), NAMES[:2])


def test_long_and_emoji_names_still_render() -> None:
    state = position(4, 10)
    names = ["Ünïcødé Naméwithaverylongtail", "🦎🦎🦎", "", "x" * 80]
    assert render.render_board("vivarium", state.view(None), names)
    assert render.render_hand("vivarium", state.view(2), names, 2)


def test_every_ability_and_goal_has_a_card_text() -> None:
    """No card falls back to its raw kind name on the picture."""
    from engine.vivarium.content import CARDS

    for card in CARDS.values():
        if card.kind == "equipment":
            assert ability_text(card.ability) != card.ability["kind"]
        if card.kind == "contract":
            assert all(goal_lines(card.goal))


def test_board_renders_fast_enough() -> None:
    """A board is posted after every move: keep it well under the bench target (200 ms per move)."""
    state = position(4, 61)
    view = state.view(None)
    render.render_board("vivarium", view, NAMES)  # warm the sprite caches
    start = time.perf_counter()
    render.render_board("vivarium", view, NAMES)
    assert time.perf_counter() - start < 1.0
