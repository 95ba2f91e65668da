"""The Noctiluca board and hand images, drawn from views of real positions at every stage."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

import render
from engine import GAMES
from render.noctiluca import BOARD_BUDGET, HAND_BUDGET, H, W, die_sprite
from tests.support.render_checks import check_landscape_png, random_position, without_private

NAMES = ["Alice", "Bob", "Carol", "Dmitri"]


def position(players: int, steps: int, seed: int = 7):
    return random_position(GAMES["noctiluca"], players, steps, seed)


STAGES = {
    "keep-4p": (4, 0),
    "mid-4p": (4, 40),
    "round2-3p": (3, 70),
    "mid-2p": (2, 25),
    "end-2p": (2, 5000),
    "solo-mid": (1, 30),
    "solo-end": (1, 5000),
}


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_board_is_a_landscape_png_within_budget(stage: str) -> None:
    players, steps = STAGES[stage]
    s = position(players, steps)
    png = render.render_board("noctiluca", s.view(None), NAMES[:players])
    image = check_landscape_png(png, BOARD_BUDGET)
    assert image.width == W and image.height > H  # the band of key lines above the board


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_hand_is_a_landscape_png_within_budget(stage: str) -> None:
    players, steps = STAGES[stage]
    s = position(players, steps)
    png = render.render_hand("noctiluca", s.view(0), NAMES[:players], 0)
    check_landscape_png(png, HAND_BUDGET)


def test_board_never_reads_the_private_part() -> None:
    s = position(3, 0)
    view = s.view(0)
    render.render_board("noctiluca", without_private(view), NAMES)


def test_a_die_shows_its_colour_and_face() -> None:
    """A player must be able to tell the colour and count the faces from the image."""
    orange = die_sprite("orange", 3).convert("RGB")
    blue = die_sprite("blue", 3).convert("RGB")
    centre_off = (6, 6)
    assert orange.getpixel(centre_off) != blue.getpixel(centre_off)
    assert die_sprite("orange", 3).tobytes() != die_sprite("orange", 4).tobytes()


def test_the_last_dive_is_outlined_on_the_board() -> None:
    s = position(2, 0)
    for seat in range(2):
        d = s.pending["dealt"][seat]
        s.apply(seat, f"keep {d[0]} {d[1]}")
    before = Image.open(io.BytesIO(render.render_board("noctiluca", s.view(None), NAMES[:2]))).convert("RGB")
    me = s.current
    s.apply(me, "shore 1")
    s.apply(me, "path long")
    s.apply(me, "number 6")
    after = Image.open(io.BytesIO(render.render_board("noctiluca", s.view(None), NAMES[:2]))).convert("RGB")
    assert yellow_pixels(after) > yellow_pixels(before) + 3000


def yellow_pixels(image: Image.Image) -> int:
    """Pixels of the dive's yellow outline in the pool (the left part of the board)."""
    data = image.crop((0, 0, 880, H)).tobytes()
    return sum(1 for i in range(0, len(data), 3) if data[i] > 240 and data[i + 1] > 220 and data[i + 2] < 140)


def test_a_board_renders_quickly() -> None:
    s = position(4, 40)
    view = s.view(None)
    render.render_board("noctiluca", view, NAMES)
    start = time.perf_counter()
    for _ in range(3):
        render.render_board("noctiluca", view, NAMES)
    assert (time.perf_counter() - start) / 3 < 0.5
