"""Shared checks for the board and hand images of the games drawn from real positions.

- ``random_position`` plays a game forward with random legal actions, to draw it at some stage;
- ``check_landscape_png`` opens an image and checks it is a landscape PNG within its byte budget
  (and of the exact size, if given), the promise every board and hand image keeps;
- ``without_private`` wraps a view so that the board fails the test if it reads the private part.
"""

from __future__ import annotations

import io
import random
from typing import Any

from PIL import Image

from engine import Game, State


def random_position(game: Game, players: int, steps: int, seed: int) -> State:
    """A game of ``game`` after ``steps`` random legal actions of random seats to move (fewer if
    the game ends first)."""
    state = game.new(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.outcome() is not None:
            break
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def check_landscape_png(data: bytes, budget: int, size: tuple[int, int] | None = None) -> Image.Image:
    """``data`` is a PNG wider than high, of ``size`` (width, height) if given, of at most
    ``budget`` bytes; returns the loaded image."""
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.width > image.height
    if size is not None:
        assert image.size == size
    assert len(data) <= budget
    return image


class ForbiddenDict(dict):
    """A private part that fails the test if the board reads a key from it."""

    def __getitem__(self, key):
        raise AssertionError("the board read view['private']")

    def get(self, key, default=None):
        raise AssertionError("the board read view['private']")


class GuardedView(dict):
    """A view whose "private" key may not even be looked up with ``view["private"]``."""

    def __getitem__(self, key):
        if key == "private":
            raise AssertionError("the board looked up view['private']")
        return super().__getitem__(key)


def without_private(view: dict[str, Any]) -> GuardedView:
    """``view`` as the board must take it: its public part, and a private part it may not read."""
    return GuardedView(public=view["public"], private=ForbiddenDict(view["private"]))
