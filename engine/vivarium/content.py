"""Vivarium's components, loaded once from ``data/vivarium/*.json`` and checked against schemas.

Chain tokens and priority tokens (``tokens.json``), the 48 creatures (``creatures.json``), the 16
equipment cards (``equipment.json``), the 21 contracts and 8 starting contracts
(``contracts.json``). The rules only read the tables built here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.content import ContentError, OneOf, Optional, Range, load
from engine.core import Record

if TYPE_CHECKING:
    from engine.vivarium.views import CardView, ChainTokenView, PriorityView, StartingContract

TYPES = ("animal", "plant", "mineral", "dragon")
HABITATS = ("mountain", "forest", "desert", "swamp")
ICONS = ("lamp", "mister", "net", "lens")

FILTER = {
    "type": Optional(OneOf(*TYPES)),
    "habitat": Optional(OneOf(*HABITATS)),
    "icon": Optional(OneOf(*ICONS)),
    "points": Optional(Range(1, 3)),
}
GOAL_KINDS = ("count", "per", "sets", "pairs", "total")
GOAL = {
    "kind": OneOf(*GOAL_KINDS),
    "filter": Optional(FILTER),
    "filters": Optional([FILTER]),
    "tiers": Optional([[Range(0, 99)]]),
    "points": Optional(Range(1, 20)),
    "of": Optional(OneOf("type", "habitat", "icon")),
}
INSTANT = ("clear-column", "extra-row", "extra-column", "swap-again", "take-small", "gems-per")
END_GAME = ("points-per", "points-per-priority", "points-per-gems", "all-habitats")
PASSIVE = ("counts-as",)
# Vivarium's rules versions (docs/rules/vivarium.md, "Rules versions"): version 2 replaced the four
# "counts as" equipment cards with cards of the seed's two kinds of ability.
RULES_VERSIONS = (1, 2)
ABILITY = {
    "kind": OneOf(*INSTANT, *END_GAME, *PASSIVE),
    "filter": Optional(FILTER),
    "points": Optional(Range(1, 20)),
    "every": Optional(Range(1, 20)),
}

TOKENS_SCHEMA = {
    "chain_tokens": [{"id": str, "numbers": [Range(1, 4)], "dots": OneOf(0, 3, 4)}],
    "priority_tokens": [
        {
            "id": str,
            "icon": OneOf(None, *[{"type": t} for t in TYPES], *[{"habitat": h} for h in HABITATS]),
        }
    ],
}
CREATURES_SCHEMA = {
    "types": [str],
    "habitats": [str],
    "creatures": [{"id": str, "name": str, "type": OneOf(*TYPES), "habitat": OneOf(*HABITATS), "points": Range(1, 3)}],
}
EQUIPMENT_SCHEMA = {
    "icons": [str],
    "equipment": [
        {
            "id": str,
            "name": str,
            "icon": OneOf(*ICONS),
            "gems": Range(0, 5),
            "ability": ABILITY,
            # The rules versions whose deck holds the card (absent: every version).
            "versions": Optional([Range(1, RULES_VERSIONS[-1])]),
        }
    ],
}
CONTRACTS_SCHEMA = {
    "contracts": [{"id": str, "name": str, "goal": GOAL}],
    "starting_contracts": [{"id": str, "name": str, "deck": OneOf("habitat", "type"), "goal": GOAL}],
}


@dataclass(frozen=True)
class ChainToken:
    id: str
    numbers: tuple[int, int]
    dots: int

    def to_view(self) -> ChainTokenView:
        return {"id": self.id, "numbers": list(self.numbers), "dots": self.dots}


@dataclass(frozen=True)
class PriorityToken:
    id: str
    icon: Record | None  # {"type": ...} or {"habitat": ...}; None for the blank one

    def to_view(self) -> PriorityView:
        return {"id": self.id, "icon": None if self.icon is None else dict(self.icon)}


@dataclass(frozen=True)
class Card:
    """A creature, an equipment card or a contract on the grid: ``kind`` tells which."""

    id: str
    kind: str  # "creature", "equipment", "contract"
    name: str
    type: str | None = None
    habitat: str | None = None
    points: int = 0
    icon: str | None = None
    gems: int = 0
    ability: Record = field(default_factory=Record)
    goal: Record = field(default_factory=Record)

    def attributes(self) -> Record:
        """What filters match: a creature's type, habitat and points; equipment's icon and 'counts as'."""
        if self.kind == "creature":
            return {"type": self.type, "habitat": self.habitat, "points": self.points}
        if self.kind == "equipment":
            attrs: Record = {"icon": self.icon}
            if self.ability.get("kind") == "counts-as":
                attrs.update(self.ability["filter"])
            return attrs
        return {}

    def to_view(self) -> CardView:
        view: CardView = {"id": self.id, "kind": self.kind, "name": self.name}
        if self.kind == "creature":
            view["type"], view["habitat"], view["points"] = self.type, self.habitat, self.points
        elif self.kind == "equipment":
            view["icon"], view["gems"], view["ability"] = self.icon, self.gems, plain_copy(self.ability)
        else:
            view["goal"] = plain_copy(self.goal)
        return view


def plain_copy(value: Any) -> Any:
    """A copy of plain JSON data (faster than copy.deepcopy: views are built very often, and the
    computer players copy the state at every determinization)."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_copy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain_copy(v) for v in value)
    return value


def _check_filter(where: str, f: Record) -> None:
    if not f:
        raise ContentError(f"{where}: an empty filter matches nothing useful")


def _check_goal(where: str, goal: Record) -> None:
    kind = goal["kind"]
    need = {
        "count": {"filter", "tiers"},
        "per": {"filter", "points"},
        "sets": {"of", "points"},
        "pairs": {"filters", "points"},
        "total": {"tiers"},
    }[kind]
    given = set(goal) - {"kind"}
    if given != need:
        raise ContentError(f"{where}: a {kind!r} goal takes exactly {sorted(need)}, not {sorted(given)}")
    if "filter" in goal:
        _check_filter(where, goal["filter"])
    if kind == "pairs":
        if len(goal["filters"]) != 2:
            raise ContentError(f"{where}: a 'pairs' goal names 2 filters")
        for f in goal["filters"]:
            _check_filter(where, f)
    if "tiers" in goal:
        tiers = goal["tiers"]
        if not tiers or any(len(t) != 2 for t in tiers):
            raise ContentError(f"{where}: tiers are [at least, points] pairs")
        if [t[0] for t in tiers] != sorted({t[0] for t in tiers}) or [t[1] for t in tiers] != sorted(
            t[1] for t in tiers
        ):
            raise ContentError(f"{where}: tiers must rise")


def _check_ability(where: str, ability: Record) -> None:
    kind = ability["kind"]
    need = {
        "counts-as": {"filter"},
        "points-per": {"filter", "points"},
        "gems-per": {"filter", "points"},
        "points-per-priority": {"points"},
        "points-per-gems": {"every", "points"},
        "all-habitats": {"points"},
    }.get(kind, set())
    given = set(ability) - {"kind"}
    if given != need:
        raise ContentError(f"{where}: ability {kind!r} takes exactly {sorted(need)}, not {sorted(given)}")
    if kind == "counts-as" and (len(ability["filter"]) != 1 or set(ability["filter"]) - {"type", "habitat"}):
        raise ContentError(f"{where}: 'counts-as' names one type or one habitat")


def _unique(where: str, ids: list[str]) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise ContentError(f"{where}: id {i!r} is listed twice")
        seen.add(i)


def _build() -> tuple[
    dict[str, ChainToken],
    dict[str, PriorityToken],
    dict[str, Card],
    tuple[str, ...],
    dict[int, tuple[str, ...]],
    tuple[str, ...],
    dict[str, Record],
]:
    tokens = load("vivarium/tokens.json", TOKENS_SCHEMA)
    chain = {}
    for raw in tokens["chain_tokens"]:
        if len(raw["numbers"]) != 2:
            raise ContentError(f"vivarium/tokens.json: chain token {raw['id']!r} shows exactly 2 numbers")
        chain[raw["id"]] = ChainToken(raw["id"], (raw["numbers"][0], raw["numbers"][1]), raw["dots"])
    _unique("vivarium/tokens.json", [r["id"] for r in tokens["chain_tokens"]])
    dots = sorted(t.dots for t in chain.values())
    if len(chain) != 9 or dots.count(4) != 2 or dots.count(3) != 1:
        raise ContentError("vivarium/tokens.json: 9 chain tokens, 2 with four dots and 1 with three dots")
    priority = {raw["id"]: PriorityToken(raw["id"], raw["icon"]) for raw in tokens["priority_tokens"]}
    _unique("vivarium/tokens.json", [r["id"] for r in tokens["priority_tokens"]])
    if len(priority) != 9 or sum(1 for p in priority.values() if p.icon is None) != 1:
        raise ContentError("vivarium/tokens.json: 9 priority tokens, exactly one blank")

    creatures_raw = load("vivarium/creatures.json", CREATURES_SCHEMA)
    if tuple(creatures_raw["types"]) != TYPES or tuple(creatures_raw["habitats"]) != HABITATS:
        raise ContentError(f"vivarium/creatures.json: types must be {TYPES} and habitats {HABITATS}")
    cards: dict[str, Card] = {}
    creatures = []
    for raw in creatures_raw["creatures"]:
        cards[raw["id"]] = Card(raw["id"], "creature", raw["name"], raw["type"], raw["habitat"], raw["points"])
        creatures.append(raw["id"])
    _unique("vivarium/creatures.json", creatures)
    combos = sorted((cards[c].type, cards[c].habitat, cards[c].points) for c in creatures)
    if combos != sorted((t, h, p) for t in TYPES for h in HABITATS for p in (1, 2, 3)):
        raise ContentError("vivarium/creatures.json: one creature per type, habitat and points 1-3 (48)")

    equipment_raw = load("vivarium/equipment.json", EQUIPMENT_SCHEMA)
    if tuple(equipment_raw["icons"]) != ICONS:
        raise ContentError(f"vivarium/equipment.json: icons must be {ICONS}")
    equipment = []
    decks: dict[int, list[str]] = {v: [] for v in RULES_VERSIONS}
    for raw in equipment_raw["equipment"]:
        _check_ability(f"vivarium/equipment.json: {raw['id']}", raw["ability"])
        cards[raw["id"]] = Card(
            raw["id"], "equipment", raw["name"], icon=raw["icon"], gems=raw["gems"], ability=raw["ability"]
        )
        equipment.append(raw["id"])
        for version in raw.get("versions", RULES_VERSIONS):
            decks[version].append(raw["id"])
    _unique("vivarium/equipment.json", equipment)
    for version, deck in decks.items():
        if len(deck) != 16 or any(sum(1 for e in deck if cards[e].icon == i) != 4 for i in ICONS):
            raise ContentError(f"vivarium/equipment.json: 16 cards, 4 of each icon, in rules version {version}")
        # Seed: an ability is used at once or is a bonus at the end; "counts as" is neither, and
        # only version 1 (games started before the redesign) still deals it.
        if version >= 2 and any(cards[e].ability["kind"] in PASSIVE for e in deck):
            raise ContentError(f"vivarium/equipment.json: rules version {version} deals no 'counts as' card")

    contracts_raw = load("vivarium/contracts.json", CONTRACTS_SCHEMA)
    contracts = []
    for raw in contracts_raw["contracts"]:
        _check_goal(f"vivarium/contracts.json: {raw['id']}", raw["goal"])
        cards[raw["id"]] = Card(raw["id"], "contract", raw["name"], goal=raw["goal"])
        contracts.append(raw["id"])
    if len(contracts) != 21:
        raise ContentError("vivarium/contracts.json: 21 contracts")
    starting: dict[str, Record] = {}
    for raw in contracts_raw["starting_contracts"]:
        _check_goal(f"vivarium/contracts.json: {raw['id']}", raw["goal"])
        starting[raw["id"]] = raw
    by_deck = [sum(1 for s in starting.values() if s["deck"] == d) for d in ("habitat", "type")]
    if by_deck != [4, 4]:
        raise ContentError("vivarium/contracts.json: 4 starting contracts by habitat and 4 by type")
    _unique("vivarium", list(cards) + list(starting) + list(chain) + list(priority))
    equipment_decks = {v: tuple(d) for v, d in decks.items()}
    return chain, priority, cards, tuple(creatures), equipment_decks, tuple(contracts), starting


CHAIN, PRIORITY, CARDS, CREATURES, EQUIPMENT_DECKS, CONTRACTS, STARTING = _build()
# The equipment deck of a new game (the current rules version's).
EQUIPMENT = EQUIPMENT_DECKS[RULES_VERSIONS[-1]]


def equipment_deck(rules_version: int) -> tuple[str, ...]:
    """The equipment of a game played by ``rules_version``: the deck of the latest content version
    at or before it (a later rules change that leaves the cards alone keeps them)."""
    return EQUIPMENT_DECKS[max(v for v in EQUIPMENT_DECKS if v <= rules_version)]


def game_cards(rules_version: int) -> tuple[str, ...]:
    """Every grid card of a game played by ``rules_version``: creatures, its equipment, contracts."""
    return CREATURES + equipment_deck(rules_version) + CONTRACTS


BLANK_PRIORITY = next(p.id for p in PRIORITY.values() if p.icon is None)
ATTRIBUTES = {card_id: card.attributes() for card_id, card in CARDS.items()}
_VIEWS = {card_id: card.to_view() for card_id, card in CARDS.items()}


_FLAT = {card_id for card_id, view in _VIEWS.items() if not any(isinstance(v, dict | list) for v in view.values())}


def card_view(card_id: str) -> CardView:
    view = _VIEWS[card_id]
    if card_id in _FLAT:
        return view.copy()
    copied: CardView = plain_copy(view)
    return copied


def shared_card_view(card_id: str) -> CardView:
    """The card's view object itself, for a caller that copies the whole result once."""
    return _VIEWS[card_id]


def starting_view(contract_id: str) -> StartingContract:
    raw = STARTING[contract_id]
    return {"id": raw["id"], "name": raw["name"], "deck": raw["deck"], "goal": plain_copy(raw["goal"])}


def chain_view(token_id: str) -> ChainTokenView:
    return CHAIN[token_id].to_view()


def priority_view(token_id: str | None) -> PriorityView | None:
    return None if token_id is None else PRIORITY[token_id].to_view()
