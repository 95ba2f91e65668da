"""Rules of every game, pure Python. See docs/ENGINE.md for the contract."""

from __future__ import annotations

from engine.core import ACTION_KINDS, Action, ActionKind, Event, Game, IllegalAction, Outcome, State, Term, illegal
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
    "Event",
    "Game",
    "IllegalAction",
    "Outcome",
    "State",
    "Term",
    "illegal",
    "register",
    "shipped",
    "unregister",
]
