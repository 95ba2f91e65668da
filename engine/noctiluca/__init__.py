"""Noctiluca: dive for glowing dice and fill jars, for 2 to 4 players, or alone against the storm.

Rules as implemented: docs/rules/noctiluca.md. Content: data/noctiluca/ (the jars by rules version).
"""

from __future__ import annotations

from engine.core import Game, Options, Saved
from engine.facts import Challenge, GameFacts
from engine.noctiluca.state import NoctilucaState
from engine.noctiluca.views import DieView, JarCard, JarInPlay, NoctilucaPrivate, NoctilucaPublic

__all__ = ["DieView", "JarCard", "JarInPlay", "Noctiluca", "NoctilucaPrivate", "NoctilucaPublic", "NoctilucaState"]


class Noctiluca(Game):
    id = "noctiluca"
    title = "Noctiluca"
    min_players = 1
    max_players = 4
    # Rated at 2-4 players; its solo mode is a duplicate team of one and a weekly challenge.
    facts = GameFacts(duplicate_size=1, challenge=(Challenge("noctiluca-solo", 1, "Noctiluca solo"),))
    # Version 2 plays the calibrated jars (data/noctiluca/jars-v2.json); version 1 the
    # first ones (jars.json). The rules are the same: only the jar cards differ, read through
    # ``NoctilucaState.jar_cards``, so a game started under version 1 keeps its jars.
    rules_version = 2
    rules_versions = (1, 2)
    # Undo (docs/ENGINE-EXTENSIONS.md) refuses an action that caused any of these: a random
    # outcome (dice rolled onto the board, the first player, a shuffle, the solo storm's roll),
    # a card that was hidden (dealt jars and favourites, the secret choice of jars and its
    # reveal, a pile's next top or a jar from the deck, the solo draw and the storm's discard),
    # or the favourites shown at the end. The rest only moves what everyone already saw.
    revealing_events = frozenset(
        {
            "board filled",
            "first player",
            "favourite dealt",
            "jars dealt",
            "jars kept",
            "jars revealed",
            "deck formed",
            "piles formed",
            "new jar",
            "jars drawn",
            "jar to bottom",
            "storm discard",
            "storm roll",
            "final scores",
        }
    )

    # No action concedes or passes: resigning is the resign() extension, and "store none" is a
    # receiver's answer to dice passed to them, not a turn given up.
    action_kinds = {}

    def _new(self, players: int, seed: int, options: Options, rules_version: int) -> NoctilucaState:
        from engine.noctiluca.setup import new_game

        state = NoctilucaState(self, players)
        state.rules_version = rules_version
        new_game(state, seed)
        return state

    def _load(self, data: Saved) -> NoctilucaState:
        from engine.noctiluca.persist import state_from_dict

        return state_from_dict(self, data)
