"""Images of every game, drawn from a seat's view (never the raw state).

``render_board`` draws the public board from ``view["public"]`` only, so the same image can be
posted to the whole channel; ``render_hand`` draws one seat's private cards for a DM or the
"My hand" answer. Both return PNG bytes within the game's byte budget.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

import engine
from render.common import GameRenderer, encode_png

# Each game's renderer reads its own typed views; the registry, by game id, cannot know them.
RENDERERS: dict[str, GameRenderer[Any, Any]] = {}

# Pillow's optimize (zlib level 9) costs ~100 ms more per 1600x900 board for ~2% fewer bytes;
# boards and hands are posted after every move, so the bot uses a fast level (and a palette:
# ``encode_png(palette=True)``).
OPTIMIZE_PNG = False


def register(renderer: GameRenderer[Any, Any]) -> GameRenderer[Any, Any]:
    if renderer.game_id in RENDERERS:
        raise ValueError(f"renderer for {renderer.game_id!r} is registered twice")
    RENDERERS[renderer.game_id] = renderer
    return renderer


def _renderer(game_id: str) -> GameRenderer[Any, Any]:
    try:
        return RENDERERS[game_id]
    except KeyError:
        raise ValueError(f"no renderer for game {game_id!r}") from None


def render_board(game_id: str, view: Mapping[str, Any], names: Sequence[str], locale: str = "en") -> bytes:
    """Return the PNG of the public board, drawn from ``view["public"]`` only, worded in ``locale``."""
    renderer = _renderer(game_id)
    image = renderer.board(view["public"], list(names), locale=locale)
    return encode_png(image, renderer.board_budget, optimize=OPTIMIZE_PNG, palette=True)


def render_hand(game_id: str, view: Mapping[str, Any], names: Sequence[str], seat: int, locale: str = "en") -> bytes:
    """Return the PNG of ``seat``'s private hand, from a view made for that seat, worded in ``locale``."""
    renderer = _renderer(game_id)
    private = view["private"]
    if not private:
        raise ValueError("this view has no private part: make it with view(seat)")
    image = renderer.hand(view["public"], private, list(names), seat, locale=locale)
    return encode_png(image, renderer.hand_budget, optimize=OPTIMIZE_PNG, palette=True)


def shrink_png(png: bytes, budget_bytes: int) -> bytes:
    """Re-encode PNG bytes within a smaller budget (after Discord refused an upload as too big)."""
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        return encode_png(image, budget_bytes, optimize=OPTIMIZE_PNG, palette=True)


def unregister(game_id: str) -> None:
    RENDERERS.pop(game_id, None)


def _register_all() -> None:
    """The shipped games' renderers: ``RENDERER`` of this package's module named like the game's
    engine package (``engine.shipped``)."""
    for package in engine.shipped().values():
        register(importlib.import_module(f"{__name__}.{package}").RENDERER)


_register_all()

__all__ = ["RENDERERS", "GameRenderer", "register", "render_board", "render_hand", "shrink_png", "unregister"]
