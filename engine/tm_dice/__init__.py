"""Terraforming Mars: The Dice Game (fan adaptation with our own content), 1 to 4 players.

Rules as implemented and every adaptation choice: docs/rules/tm-dice.md.

The game's public API (docs/ENGINE.md, "Typed views" and "A game's public content"): the views'
types, ``CONTENT`` (cards, corporations, bonus cards, milestones, die faces, the map, the solo
rules) and ``payment``. Nothing outside engine/tm_dice/ but the game's tests and its computer
knowledge (ai/tm_dice.py) imports its modules.
"""

from __future__ import annotations

from engine.core import Game, Options, Saved
from engine.facts import Challenge, GameFacts
from engine.tm_dice.public import CONTENT, Content, Payment, payment
from engine.tm_dice.state import TMDiceState
from engine.tm_dice.views import (
    BonusView,
    CardView,
    CorporationView,
    HexView,
    MilestoneView,
    SeatView,
    SoloRules,
    StepView,
    TMDicePrivate,
    TMDicePublic,
)

__all__ = [
    "CONTENT",
    "BonusView",
    "CardView",
    "Content",
    "CorporationView",
    "HexView",
    "MilestoneView",
    "Payment",
    "SeatView",
    "SoloRules",
    "StepView",
    "TMDice",
    "TMDicePrivate",
    "TMDicePublic",
    "TMDiceState",
    "payment",
]


class TMDice(Game):
    id = "tm-dice"
    title = "Terraforming Mars: The Dice Game"
    min_players = 1
    max_players = 4
    # Rated at 2-4 players; its solo mode is a duplicate team of one and a weekly challenge.
    facts = GameFacts(
        duplicate_size=1, challenge=(Challenge("tm-dice-solo", 1, "Terraforming Mars: The Dice Game solo"),)
    )
    # Undo (docs/ENGINE-EXTENSIONS.md) refuses an action that caused any of these. Random: the
    # awards rolled and milestones drawn at set-up, every die rolled, the deck reshuffled. Hidden
    # cards shown: the deal (private), cards drawn (private list), the corporation kept (private)
    # and then revealed, a project card played or discarded from the hand, the bonus cards looked
    # at in secret ("bonus earned" opens that choice, "bonus cards shown" is what the seat sees)
    # and the one played. "game over" ends it
    # all. Dice set to a chosen face, payments, tiles, tracks, milestones, attacks and gifts only
    # move what everyone already saw.
    revealing_events = frozenset(
        {
            "awards rolled",
            "milestones drawn",
            "dealt",
            "corporation kept",
            "corporation revealed",
            "die rolled",
            "cards drawn",
            "deck reshuffled",
            "card played",
            "card discarded",
            "bonus earned",
            "bonus cards shown",
            "bonus played",
            "game over",
        }
    )

    # "skip" is offered only when no support or main action is possible: the seat passes.
    action_kinds = {"skip": "pass"}
    # Version 2 (docs/rules/tm-dice.md, "Rules versions"): the "turn a die" icon may leave every
    # die as it is, and a production turn may return dice even when holding no more than the
    # limit ("keep at most 3"). Version 1 games keep forcing both, as they were played.
    rules_version = 2
    rules_versions = (1, 2)

    def _new(self, players: int, seed: int, options: Options, rules_version: int) -> TMDiceState:
        state = TMDiceState(self, players)
        state.rules_version = rules_version
        state.setup(seed)
        return state

    def _load(self, data: Saved) -> TMDiceState:
        from engine.tm_dice.persist import state_from_dict

        return state_from_dict(self, data)
