"""Counting a collection, contract goals, equipment bonuses at the end and the final score."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine.core import Record
from engine.vivarium.content import ATTRIBUTES, CARDS, HABITATS, ICONS, STARTING, TYPES

if TYPE_CHECKING:
    from engine.vivarium.views import Progress

PRIORITY_POINTS = 2


def matches(card_id: str, flt: Record) -> bool:
    """True when the card has every attribute the filter names (equipment 'counts as' included)."""
    attrs = ATTRIBUTES[card_id]
    for key, value in flt.items():
        if attrs.get(key) != value:
            return False
    return True


def count(collection: Sequence[str], flt: Record) -> int:
    return sum(1 for c in collection if matches(c, flt))


def creature_points(collection: Sequence[str]) -> int:
    return sum(CARDS[c].points for c in collection if CARDS[c].kind == "creature")


def progress(goal: dict[str, Any], collection: Sequence[str]) -> Progress:
    """How far a collection is towards a goal: ``{"have": n, "points": p}`` (and per-part counts)."""
    kind = goal["kind"]
    if kind == "count":
        have = count(collection, goal["filter"])
        return {"have": have, "points": tier_points(goal["tiers"], have)}
    if kind == "per":
        have = count(collection, goal["filter"])
        return {"have": have, "points": have * goal["points"]}
    if kind == "sets":
        values = {"type": TYPES, "habitat": HABITATS, "icon": ICONS}[goal["of"]]
        parts = [count(collection, {goal["of"]: v}) for v in values]
        return {"have": min(parts), "parts": parts, "points": min(parts) * goal["points"]}
    if kind == "pairs":
        parts = [count(collection, f) for f in goal["filters"]]
        return {"have": min(parts), "parts": parts, "points": min(parts) * goal["points"]}
    have = creature_points(collection)  # "total"
    return {"have": have, "points": tier_points(goal["tiers"], have)}


def tier_points(tiers: list[list[int]], have: int) -> int:
    """The points of the highest tier reached (tiers are [at least, points], rising)."""
    points = 0
    for least, worth in tiers:
        if have >= least:
            points = worth
    return points


def goal_of(contract_id: str) -> Record:
    if contract_id in STARTING:
        return STARTING[contract_id]["goal"]
    return CARDS[contract_id].goal


def equipment_bonus(card_id: str, collection: Sequence[str], gems: int, priority_tokens: int) -> int:
    """End-of-game points of one equipment card (0 for instant and 'counts as' cards)."""
    ability = CARDS[card_id].ability
    kind = ability.get("kind")
    if kind == "points-per":
        return count(collection, ability["filter"]) * ability["points"]
    if kind == "points-per-priority":
        return priority_tokens * ability["points"]
    if kind == "points-per-gems":
        return gems // ability["every"] * ability["points"]
    if kind == "all-habitats":
        return ability["points"] if all(count(collection, {"habitat": h}) for h in HABITATS) else 0
    return 0


def score(collection: list[str], gems: int, priority: list[str], starting: list[str]) -> Record:
    """One player's final score, part by part, named as the rulebook names them.

    A fresh dict each call; the counting is cached (``_score``): the computer players score the
    same collections thousands of times a decision (every rollout that reaches the end of the
    game, every position they value), and near the end of a game that was most of a decision."""
    return dict(_score(tuple(collection), gems, tuple(priority), tuple(starting)))


@lru_cache(maxsize=8192)
def _score(collection: tuple[str, ...], gems: int, priority: tuple[str, ...], starting: tuple[str, ...]) -> Record:
    """``score`` of immutable arguments (the caller copies the dict it returns)."""
    creatures = creature_points(collection)
    contracts = [c for c in collection if CARDS[c].kind == "contract"]
    contract_points = sum(progress(goal_of(c), collection)["points"] for c in contracts)
    starting_points = sum(progress(goal_of(c), collection)["points"] for c in starting)
    equipment = sum(
        equipment_bonus(c, collection, gems, len(priority)) for c in collection if CARDS[c].kind == "equipment"
    )
    tokens = PRIORITY_POINTS * len(priority)
    fulfilled = [c for c in (*contracts, *starting) if progress(goal_of(c), collection)["points"] > 0]
    total = creatures + gems + tokens + contract_points + starting_points + equipment
    return {
        "creatures": creatures,
        "gems": gems,
        "priority tokens": tokens,
        "contracts": contract_points,
        "starting contracts": starting_points,
        "equipment": equipment,
        "fulfilled": len(fulfilled),
        "total": total,
    }
