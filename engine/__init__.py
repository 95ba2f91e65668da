"""Rules of every game, pure Python. See docs/ENGINE.md for the contract."""

from __future__ import annotations

from engine.core import (
    ACTION_KINDS,
    Action,
    ActionKind,
    AnyState,
    Event,
    Game,
    IllegalAction,
    NoSecrets,
    Options,
    OptionSpec,
    Outcome,
    Saved,
    State,
    Term,
    View,
    illegal,
)
from engine.registry import GAMES, register, shipped, unregister


def _register_all() -> None:
    from engine.fox_duet import FoxDuet
    from engine.noctiluca import Noctiluca
    from engine.tm_dice import TMDice
    from engine.vivarium import Vivarium

    register(FoxDuet())
    register(Noctiluca())
    register(Vivarium())
    register(TMDice())


_register_all()

__all__ = [
    "ACTION_KINDS",
    "GAMES",
    "Action",
    "ActionKind",
    "AnyState",
    "Event",
    "Game",
    "IllegalAction",
    "NoSecrets",
    "OptionSpec",
    "Options",
    "Outcome",
    "Saved",
    "State",
    "Term",
    "View",
    "illegal",
    "register",
    "shipped",
    "unregister",
]
