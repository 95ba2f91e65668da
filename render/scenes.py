"""A page of a game's "How to play" guide, declared next to the game's renderer (render/<game>_howto.py).

A ``Scene`` is a position reached by playing a seeded sample game (random legal moves, never a
concession), the part of its board (or of the mover's hand) worth looking at, and the boxes to
point at, in the pixels of the image the game's renderer draws: so a game's scenes live beside
its layout constants and read them. ``render.howto`` draws the pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from render.common import Box

Public = Mapping[str, Any]

BOARD: Box = (0, 0, 1600, 900)


@dataclass(frozen=True)
class Scene:
    """One page: where the sample game stops, what part of which image is shown, what is marked.

    ``until`` is tested on the public view before every move (the first position where it holds
    is shown); ``None`` plays the game to its end. ``crop`` and ``marks`` are in the pixels of
    the board (or, with ``source="hand"``, of the mover's hand image).
    """

    page: str
    crop: Box
    marks: tuple[Box, ...] | Callable[[Public], tuple[Box, ...]] = ()
    until: Callable[[Public], bool] | None = None
    source: str = "board"
    players: int = 2


def at_start(public: Public) -> bool:
    return True
