"""The content of Terraforming Mars: The Dice Game, loaded from ``data/tm-dice/`` and checked.

Each file is checked against its schema, then across files: every effect names a known icon,
every cost a known face, every special tile an area of the map. The rules only read the frozen
tables built here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.content import ContentError, OneOf, Optional, Range, load

if TYPE_CHECKING:
    from engine.tm_dice.views import BonusView, CardView, CorporationView

COLOURS = ("green", "gray", "blue", "red", "yellow")
RARITIES = ("common", "uncommon", "rare")
# Six faces per die: three common, two uncommon, one rare.
FACE_RARITY = ("common", "common", "common", "uncommon", "uncommon", "rare")
PARAMETERS = ("temperature", "oxygen", "oceans")
AREAS = ("land", "ocean", "lava", "mine")
SPECIAL_TILES = ("lava", "mine")

DICE_SCHEMA = {
    "per_colour": Range(1, 40),
    "wild_tokens": Range(0, 60),
    "colours": [{"id": OneOf(*COLOURS), "common": str, "uncommon": str, "rare": str}],
}
TRACK_SCHEMA = {
    "start": int,
    "step": Range(1, 10),
    "steps": Range(1, 20),
    "unit": str,
    "bonuses": [{"at": Range(1, 20), "effects": [str]}],
}
RULES_SCHEMA = {
    "temperature": TRACK_SCHEMA,
    "oxygen": TRACK_SCHEMA,
    "oceans": TRACK_SCHEMA,
    "general_actions": [{"id": str, "cost": [str], "effects": [str]}],
    "bonus_thresholds": [Range(1, 100)],
    "bonus_cards_by_players": {"1": Range(1, 20), "2": Range(1, 20), "3": Range(1, 20), "4": Range(1, 20)},
    "solo": {
        "turns": Range(1, 200),
        "start": {"temperature": Range(0, 20), "oxygen": Range(0, 20), "oceans": Range(0, 20)},
        "award_thresholds": {"rare": Range(1, 30), "uncommon": Range(1, 30), "common": Range(1, 30)},
        "award_vp": Range(0, 20),
        "award_near_vp": Range(0, 20),
        "milestone_removal": [Range(1, 200)],
    },
    "awards": {"first": Range(0, 20), "second": Range(0, 20)},
    "milestone_vp": Range(0, 20),
    "hand_size": Range(1, 10),
    "keep_dice": Range(0, 10),
    "starting_cards": Range(0, 10),
    "corporations_dealt": Range(1, 2),
}
MAP_SCHEMA = {
    "hexes": [{"label": str, "q": Range(-3, 3), "r": Range(-3, 3), "area": OneOf(*AREAS), "bonus": [str]}],
    "solo_setup": {"city": str, "ocean": str, "greenery": str},
}
CORPS_SCHEMA = {"corporations": [{"id": str, "name": str, "start": [str], "production": [OneOf(*COLOURS)]}]}
CARDS_SCHEMA = {
    "cards": [
        {
            "id": str,
            "name": str,
            "colour": OneOf("red", "blue", "green"),
            "cost": [str],
            "vp": Range(0, 10),
            "end_vp": Range(0, 10),
            "effects": Optional([str]),
            "action": Optional({"type": OneOf("main", "support", "free"), "cost": [str], "effects": [str]}),
            "production": Optional([OneOf(*COLOURS)]),
            "passive": Optional([str]),
        }
    ]
}
BONUS_SCHEMA = {"bonus_cards": [{"id": str, "name": str, "effects": [str], "end_vp": Range(0, 10), "passive": [str]}]}
MILESTONE_KINDS = ("cities", "greeneries", "blue-cards", "green-cards", "red-cards", "production", "colours-held", "vp")
MILESTONES_SCHEMA = {"milestones": [{"id": str, "name": str, "kind": OneOf(*MILESTONE_KINDS), "n": Range(1, 50)}]}


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    colour: str
    cost: tuple[str, ...]
    vp: int
    end_vp: int
    effects: tuple[str, ...]
    action: dict[str, Any] | None
    production: tuple[str, ...]
    passive: tuple[str, ...]

    def to_view(self) -> CardView:
        out: CardView = {
            "id": self.id,
            "name": self.name,
            "colour": self.colour,
            "cost": list(self.cost),
            "vp": self.vp,
            "end_vp": self.end_vp,
        }
        if self.colour == "red":
            out["effects"] = list(self.effects)
        if self.action is not None:
            a = self.action
            out["action"] = {"type": a["type"], "cost": list(a["cost"]), "effects": list(a["effects"])}
        if self.colour == "green":
            out["production"] = list(self.production)
        if self.passive:
            out["passive"] = list(self.passive)
        return out

    def blue_action(self) -> dict[str, Any]:
        """The action of this blue card (the content check gives every blue card one)."""
        assert self.action is not None, f"card {self.id} has no action"
        return self.action


# -- loading --------------------------------------------------------------------------------
_dice = load("tm-dice/dice.json", DICE_SCHEMA)
if sorted(c["id"] for c in _dice["colours"]) != sorted(COLOURS):
    raise ContentError("tm-dice/dice.json: each of the 5 colours must be listed once")
FACES: dict[str, tuple[str, str, str]] = {
    c["id"]: (c["common"], c["uncommon"], c["rare"])
    for c in sorted(_dice["colours"], key=lambda c: COLOURS.index(c["id"]))
}
FACE_COLOUR: dict[str, str] = {}
FACE_RANK: dict[str, str] = {}
for _colour, _faces in FACES.items():
    for _rarity, _face in zip(RARITIES, _faces, strict=True):
        if _face in FACE_COLOUR or _face in COLOURS or _face in ("any", "wild"):
            raise ContentError(f"tm-dice/dice.json: face {_face!r} is used twice or clashes with a colour")
        FACE_COLOUR[_face] = _colour
        FACE_RANK[_face] = _rarity
ALL_FACES: tuple[str, ...] = tuple(f for c in COLOURS for f in FACES[c])
DICE_PER_COLOUR: int = _dice["per_colour"]
WILD_TOKENS: int = _dice["wild_tokens"]

RULES: dict[str, Any] = load("tm-dice/rules.json", RULES_SCHEMA)
TRACKS: dict[str, dict[str, Any]] = {p: RULES[p] for p in PARAMETERS}
TRACK_BONUS: dict[str, dict[int, tuple[str, ...]]] = {
    p: {b["at"]: tuple(b["effects"]) for b in RULES[p]["bonuses"]} for p in PARAMETERS
}
GENERAL_ACTIONS: dict[str, dict[str, Any]] = {g["id"]: g for g in RULES["general_actions"]}

_map = load("tm-dice/map.json", MAP_SCHEMA)
HEXES: dict[str, dict[str, Any]] = {h["label"].lower(): {**h, "label": h["label"].lower()} for h in _map["hexes"]}
SOLO_SETUP: dict[str, str] = {k: v.lower() for k, v in _map["solo_setup"].items()}

CORPORATIONS: dict[str, dict[str, Any]] = {
    c["id"]: c for c in load("tm-dice/corporations.json", CORPS_SCHEMA)["corporations"]
}

CARDS: dict[str, Card] = {}
for _raw in load("tm-dice/cards.json", CARDS_SCHEMA)["cards"]:
    CARDS[_raw["id"]] = Card(
        id=_raw["id"],
        name=_raw["name"],
        colour=_raw["colour"],
        cost=tuple(_raw["cost"]),
        vp=_raw["vp"],
        end_vp=_raw["end_vp"],
        effects=tuple(_raw.get("effects", ())),
        action=_raw.get("action"),
        production=tuple(_raw.get("production", ())),
        passive=tuple(_raw.get("passive", ())),
    )
CARD_IDS: tuple[str, ...] = tuple(CARDS)

BONUS_CARDS: dict[str, dict[str, Any]] = {b["id"]: b for b in load("tm-dice/bonus.json", BONUS_SCHEMA)["bonus_cards"]}
MILESTONES: dict[str, dict[str, Any]] = {
    m["id"]: m for m in load("tm-dice/milestones.json", MILESTONES_SCHEMA)["milestones"]
}


# -- cross-checks ---------------------------------------------------------------------------
def effect_ok(text: str) -> bool:
    """True when ``text`` is an icon the rules know (see docs/rules/tm-dice.md, "Icons")."""
    kind, _, arg = text.partition(":")
    if kind in ("temperature", "oxygen", "ocean", "greenery", "city", "turn") and not arg:
        return True
    if kind == "gain" or kind == "set":
        return arg in COLOURS or arg == "any"
    if kind == "face":
        return arg in FACE_COLOUR
    if kind == "attack":
        return arg in COLOURS
    if kind == "special":
        return arg in SPECIAL_TILES
    if kind in ("vp", "wild", "draw"):
        return arg.isdigit() and 1 <= int(arg) <= 9
    return False


def passive_ok(text: str) -> bool:
    kind, _, arg = text.partition(":")
    return kind in ("keep", "on-green") and arg.isdigit() and 1 <= int(arg) <= 9


def _check_effects(effects: Iterable[str], where: str) -> None:
    for e in effects:
        if not effect_ok(e):
            raise ContentError(f"{where}: unknown effect {e!r}")


def _check_cost(cost: Iterable[str], where: str) -> None:
    for face in cost:
        if face not in FACE_COLOUR:
            raise ContentError(f"{where}: unknown resource {face!r} in a cost")


def _cross_check() -> None:
    ids: set[str] = set()
    for kind, table in (
        ("card", CARDS),
        ("corporation", CORPORATIONS),
        ("bonus card", BONUS_CARDS),
        ("milestone", MILESTONES),
    ):
        for key in table:
            if key in ids or not key or key != key.lower() or " " in key:
                raise ContentError(f"tm-dice: {kind} id {key!r} is repeated, empty, spaced or not lower case")
            ids.add(key)
    for p in PARAMETERS:
        for at, effects in TRACK_BONUS[p].items():
            if at > TRACKS[p]["steps"]:
                raise ContentError(f"tm-dice/rules.json: {p} bonus at {at} lies beyond the track")
            _check_effects(effects, f"tm-dice/rules.json: {p} bonus")
    for g in GENERAL_ACTIONS.values():
        _check_cost(g["cost"], f"tm-dice/rules.json: general action {g['id']}")
        _check_effects(g["effects"], f"tm-dice/rules.json: general action {g['id']}")
    if len(HEXES) != 37 or len({(h["q"], h["r"]) for h in HEXES.values()}) != 37:
        raise ContentError("tm-dice/map.json: the map must hold the 37 hexes of radius 3 once each")
    oceans = [h for h in HEXES.values() if h["area"] == "ocean"]
    if len(oceans) != TRACKS["oceans"]["steps"]:
        raise ContentError("tm-dice/map.json: there must be one ocean area per ocean tile")
    for h in HEXES.values():
        if max(abs(h["q"]), abs(h["r"]), abs(h["q"] + h["r"])) > 3:
            raise ContentError(f"tm-dice/map.json: hex {h['label']} lies outside radius 3")
        _check_effects(h["bonus"], f"tm-dice/map.json: hex {h['label']}")
    for kind in SPECIAL_TILES:
        if not any(h["area"] == kind for h in HEXES.values()):
            raise ContentError(f"tm-dice/map.json: no area for the special tile {kind!r}")
    for c in CORPORATIONS.values():
        _check_effects(c["start"], f"tm-dice/corporations.json: {c['id']}")
    if len(CORPORATIONS) < 8:
        raise ContentError("tm-dice/corporations.json: 8 corporations are needed to deal 2 to each of 4 players")
    for card in CARDS.values():
        where = f"tm-dice/cards.json: {card.id}"
        _check_cost(card.cost, where)
        if not card.cost:
            raise ContentError(f"{where}: a project card has a cost")
        expect = {"red": card.effects, "blue": card.action, "green": card.production}[card.colour]
        if not expect:
            field = {"red": "effects", "blue": "action", "green": "production"}[card.colour]
            raise ContentError(f"{where}: a {card.colour} card needs its {field}")
        foreign = (card.colour != "red" and card.effects, card.colour != "blue" and card.action)
        if any(foreign) or (card.colour != "green" and card.production):
            raise ContentError(f"{where}: a {card.colour} card carries a field of another colour")
        _check_effects(card.effects, where)
        if card.action:
            _check_cost(card.action["cost"], where)
            _check_effects(card.action["effects"], where)
        for p in card.passive:
            if not passive_ok(p):
                raise ContentError(f"{where}: unknown passive {p!r}")
    for b in BONUS_CARDS.values():
        _check_effects(b["effects"], f"tm-dice/bonus.json: {b['id']}")
        for p in b["passive"]:
            if not passive_ok(p):
                raise ContentError(f"tm-dice/bonus.json: {b['id']}: unknown passive {p!r}")
    if len(BONUS_CARDS) < max(RULES["bonus_cards_by_players"].values()):
        raise ContentError("tm-dice/bonus.json: too few bonus cards for 4 players")
    if len(MILESTONES) < 3:
        raise ContentError("tm-dice/milestones.json: at least 3 milestones are needed")
    solo = SOLO_SETUP
    for role, area in (("city", "land"), ("ocean", "ocean"), ("greenery", "land")):
        if solo[role] not in HEXES or HEXES[solo[role]]["area"] != area:
            raise ContentError(f"tm-dice/map.json: the solo {role} must be on a {area} area")


_cross_check()


def die_face(colour: str, roll: int) -> str:
    """The face shown by a die of ``colour`` rolled to ``roll`` (0-5)."""
    return FACES[colour][RARITIES.index(FACE_RARITY[roll])]


def card_view(card_id: str) -> CardView:
    return CARDS[card_id].to_view()


def bonus_view(bonus_id: str) -> BonusView:
    b = BONUS_CARDS[bonus_id]
    return {
        "id": b["id"],
        "name": b["name"],
        "effects": list(b["effects"]),
        "end_vp": b["end_vp"],
        "passive": list(b["passive"]),
    }


def corporation_view(corp_id: str) -> CorporationView:
    c = CORPORATIONS[corp_id]
    return {"id": c["id"], "name": c["name"], "start": list(c["start"]), "production": list(c["production"])}
