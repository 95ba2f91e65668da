"""A finished game's animated replay, rebuilt and drawn in a drawing worker (``services.pictures``).

The bot sends the worker a ``ReplayOrder``: how the game was set up, its logged actions, the
names and the language. The worker replays the log from the seed (the engine is deterministic,
see ``services.history``) and streams the boards into the animation (``render.replay``), so neither
the positions nor the frames are ever built in the bot process, and the worker keeps one
position and one frame at a time. No Discord and no database here:
a worker imports this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from engine import GAMES, AnyState
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


def apply_logged(state: AnyState, seat: int, text: str) -> None:
    """One entry of a stored log, as ``services.history.apply_logged`` applies it (``resign`` is the
    out-of-turn extension); repeated here so that a worker does not import the storage layer."""
    if text == "resign":
        state.resign(seat)
    else:
        state.apply(seat, text)


class LoggedPositions(Sequence[dict[str, Any]]):
    """The public view after each step (set-up first), rebuilt when asked for by playing the log
    forward from the last position asked (from the start again to go back).

    A replay asks for its frames in order, so one state is kept, not a view per step (a 1,000-move
    TM dice game's views were 12 MB), and only the ~120 positions drawn are viewed."""

    def __init__(self, order: ReplayOrder) -> None:
        self.order = order
        self._state: AnyState | None = None
        self._at = 0

    def __len__(self) -> int:
        return len(self.order.actions) + 1

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        order = self.order
        if self._state is None or index < self._at:
            game = GAMES[order.game]
            self._state = game.new(order.players, order.seed, dict(order.options), rules_version=order.rules_version)
            self._at = 0
        while self._at < index:
            seat, text = order.actions[self._at]
            apply_logged(self._state, seat, text)
            self._at += 1
        return self._state.view(None)["public"]


def publics(order: ReplayOrder) -> list[dict[str, Any]]:
    """The public view after every step, set-up first, all at once (as the bot once held them)."""
    positions = LoggedPositions(order)
    return [positions[index] for index in range(len(positions))]


def draw_replay(order: ReplayOrder) -> bytes:
    """The replay's bytes (WebP, or GIF without WebP: ``render.replay.extension_of`` tells)."""

    def caption(step: int, steps: int) -> str:
        return t(order.caption_key, order.locale, step=step, steps=steps)

    positions = LoggedPositions(order)
    data, _ = replay_animation(
        order.game, positions, list(order.names), budget=order.budget, caption=caption, locale=order.locale
    )
    return data
