"""The public content of Terraforming Mars: The Dice Game, for the platform (docs/ENGINE.md,
"A game's public content").

Events name cards, corporations, bonus cards and milestones by id, and the board is drawn on a
map no view repeats: the wording adapter and the renderer read them here, in the shapes of the
views (engine/tm_dice/views.py), never from the engine's internal tables. Everything here is
printed on the components, so nothing is secret; treat it as read-only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypedDict

from engine.tm_dice.content import (
    BONUS_CARDS,
    CARDS,
    CORPORATIONS,
    FACE_COLOUR,
    HEXES,
    MILESTONES,
    RULES,
    bonus_view,
    card_view,
    corporation_view,
)
from engine.tm_dice.dice import left_after, parse_plan
from engine.tm_dice.views import BonusView, CardView, CorporationView, HexView, MilestoneView, SoloRules


@dataclass(frozen=True)
class Content:
    """Every card, corporation, bonus card and milestone by id, the colour of each die face, the
    map's areas by label (``c4``) and what the solo game adds."""

    cards: Mapping[str, CardView]
    corporations: Mapping[str, CorporationView]
    bonus_cards: Mapping[str, BonusView]
    milestones: Mapping[str, MilestoneView]
    face_colour: Mapping[str, str]
    hexes: Mapping[str, HexView]
    solo: SoloRules


def _milestone(milestone_id: str) -> MilestoneView:
    m = MILESTONES[milestone_id]
    return {"id": m["id"], "name": m["name"], "kind": m["kind"], "n": m["n"]}


def _hex(label: str) -> HexView:
    h = HEXES[label]
    return {"label": h["label"], "q": h["q"], "r": h["r"], "area": h["area"], "bonus": list(h["bonus"])}


CONTENT = Content(
    cards=MappingProxyType({c: card_view(c) for c in CARDS}),
    corporations=MappingProxyType({c: corporation_view(c) for c in CORPORATIONS}),
    bonus_cards=MappingProxyType({b: bonus_view(b) for b in BONUS_CARDS}),
    milestones=MappingProxyType({m: _milestone(m) for m in MILESTONES}),
    face_colour=MappingProxyType(dict(FACE_COLOUR)),
    hexes=MappingProxyType({label: _hex(label) for label in HEXES}),
    solo={
        "award_thresholds": dict(RULES["solo"]["award_thresholds"]),
        "milestone_removal": list(RULES["solo"]["milestone_removal"]),
    },
)


class Payment(TypedDict):
    """A way to pay a cost (a ``pay wild=...`` action): the wild tokens spent for each face, the
    dice paid by face, and what the payer keeps (dice by face, wild tokens)."""

    wild: dict[str, int]
    dice: dict[str, int]
    kept: dict[str, int]
    kept_wild: int


def payment(plan: str, cost: Mapping[str, int], dice: Mapping[str, int], wild: int) -> Payment:
    """What the payment ``plan`` (the argument of a ``pay`` action: ``wild=heat:1`` or
    ``wild=none``) of ``cost`` (the pay step's, by face) spends and leaves to a seat holding
    ``dice`` (by face) and ``wild`` tokens (both from the public view)."""
    owed = dict(cost)
    tokens = parse_plan(plan, owed)
    kept, kept_wild = left_after({"dice": dict(dice), "wild": wild}, tokens, owed)
    paid = {face: n - tokens[face] for face, n in owed.items() if n > tokens[face]}
    return {"wild": tokens, "dice": paid, "kept": kept, "kept_wild": kept_wild}
