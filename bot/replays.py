"""A finished game's animated replay, rebuilt and drawn in a drawing worker (``bot.pictures``).

The bot sends the worker a ``ReplayOrder``: how the game was set up, its logged actions, the
names and the language. The worker replays the log from the seed (the engine is deterministic,
see ``bot.history``) and streams the boards into the animation (``render.replay``), so neither
the positions nor the frames are ever built in the bot process. No Discord and no database here:
a worker imports this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import GAMES, State
from l10n import t
from render.replay import DEFAULT_BUDGET, replay_animation


@dataclass(frozen=True)
class ReplayOrder:
    """Everything a worker needs to draw one game's replay (it is pickled to the worker)."""

    game: str
    players: int
    seed: int
    options: Mapping[str, Any]
    rules_version: int
    actions: Sequence[tuple[int, str]]  # (seat, action text) of every logged entry, in order
    names: Sequence[str]
    locale: str
    budget: int = DEFAULT_BUDGET
    caption_key: str = field(default="replay.caption")


def apply_logged(state: State, seat: int, text: str) -> None:
    """One entry of a stored log, as ``bot.history.apply_logged`` applies it (``resign`` is the
    out-of-turn extension); repeated here so that a worker does not import the storage layer."""
    if text == "resign":
        state.resign(seat)
    else:
        state.apply(seat, text)


def publics(order: ReplayOrder) -> list[dict[str, Any]]:
    """The public view after every step, set-up first, rebuilt from the seed and the log."""
    state = GAMES[order.game].new(order.players, order.seed, dict(order.options), rules_version=order.rules_version)
    views = [state.view(None)["public"]]
    for seat, text in order.actions:
        apply_logged(state, seat, text)
        views.append(state.view(None)["public"])
    return views


def draw_replay(order: ReplayOrder) -> bytes:
    """The replay's bytes (WebP, or GIF without WebP: ``render.replay.extension_of`` tells)."""

    def caption(step: int, steps: int) -> str:
        return t(order.caption_key, order.locale, step=step, steps=steps)

    data, _ = replay_animation(
        order.game, publics(order), list(order.names), budget=order.budget, caption=caption, locale=order.locale
    )
    return data
