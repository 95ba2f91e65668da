"""Vivarium: draft creatures, equipment and contracts from a 4 x 4 grid with chain tokens.

Rules as implemented and every adaptation choice: docs/rules/vivarium.md.
"""

from __future__ import annotations

from engine.core import Game, Options, Saved
from engine.vivarium.content import RULES_VERSIONS
from engine.vivarium.state import VivariumState
from engine.vivarium.views import CardView, PriorityView, VivariumPrivate, VivariumPublic

__all__ = ["CardView", "PriorityView", "Vivarium", "VivariumPrivate", "VivariumPublic", "VivariumState"]


class Vivarium(Game):
    id = "vivarium"
    title = "Vivarium"
    min_players = 2
    max_players = 4
    # Undo (docs/ENGINE-EXTENSIONS.md) refuses an action that caused any of these: the setup's
    # shuffles and deal, the secret starting contracts, the grid refilled from the shuffled decks,
    # the next priority token turned from its face-down stack, the two-player token flip (the
    # face-down token is shown greyed, but the rulebook hides it), and the starting contracts
    # shown at the end. Swaps, gems, cards taken, abilities and column clears only move what
    # everyone already saw.
    revealing_events = frozenset(
        {
            "first player",
            "setup",
            "starting contracts",
            "grid refilled",
            "priority revealed",
            "tokens flipped",
            "game over",
        }
    )

    # "skip" declines an instant ability's question: the seat passes on it.
    action_kinds = {"skip": "pass"}
    rules_versions = RULES_VERSIONS
    rules_version = RULES_VERSIONS[-1]

    def _new(self, players: int, seed: int, options: Options, rules_version: int) -> VivariumState:
        from engine.vivarium.setup import setup

        state = VivariumState(self, players)
        state.rules_version = rules_version
        setup(state, seed)
        return state

    def _load(self, data: Saved) -> VivariumState:
        from engine.vivarium.persist import state_from_dict

        return state_from_dict(self, data)
