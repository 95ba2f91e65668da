"""Saving and loading a TMDiceState: ``to_dict`` and a validating ``from_dict``.

Loading checks types, ids and the conservation of dice, wild tokens and cards, and raises
ValueError naming the field, so a damaged save is reported before play goes wrong.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Container
from typing import Any

from engine.content import bounded_int as _int
from engine.content import check_keys, resigned_seat, saved_rng
from engine.core import Game, Saved
from engine.tm_dice import board
from engine.tm_dice.content import (
    ALL_FACES,
    BONUS_CARDS,
    CARD_IDS,
    COLOURS,
    CORPORATIONS,
    DICE_PER_COLOUR,
    FACE_COLOUR,
    HEXES,
    MILESTONES,
    PARAMETERS,
    TRACKS,
    WILD_TOKENS,
)
from engine.tm_dice.records import Player, Task, Tile
from engine.tm_dice.state import STAGES, TMDiceState, new_seat
from engine.tm_dice.steps import HANDLERS

KEYS = (
    "rng",
    "stage",
    "temperature",
    "oxygen",
    "oceans",
    "tiles",
    "pool",
    "wild_supply",
    "deck",
    "discard",
    "bonus_deck",
    "awards",
    "milestones",
    "claimed",
    "removed",
    "seats",
    "first",
    "current",
    "turn",
    "end_at",
    "queue",
    "result",
    "setup_events",
)
# Keys added later: a state saved before them loads with their default.
OPTIONAL: dict[str, Any] = {"resigned": None, "reshuffled": None}
SEAT_KEYS = tuple(new_seat())
# Fields each kind of step must carry besides "kind" and "seat" ("cat"/"page" are optional).
TASK_FIELDS = {
    "keep": {"kept"},
    "discard": {"open"},
    "support": {"as_main"},
    "drop": {"purpose"},
    "effects": {"effects", "source"},
    "pay": {"cost"},
    "pick-colour": {"source"},
    "pick-face": {"colours", "source"},
    "turn-die": {"face"},
    "lose": {"colour"},
    "place": {"tile"},
    "gift": {"to"},
}
# Fields a step may carry (added by a later rules version; absent from older saves).
OPTIONAL_TASK_FIELDS = {"turn-die": {"may_leave"}}


def state_to_dict(s: TMDiceState) -> Saved:
    # A JSON round trip is the deep copy: several times faster than copy.deepcopy here.
    keys = KEYS + tuple(OPTIONAL)
    return json.loads(json.dumps({key: (s.rng.state if key == "rng" else getattr(s, key)) for key in keys}))


def _ids(value: Any, where: str, table: Container[str]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v in table for v in value):
        raise ValueError(f"{where} must be a list of known ids")
    return list(value)


def state_from_dict(game: Game, data: Saved) -> TMDiceState:
    check_keys(data, KEYS, OPTIONAL)
    n = data["players"]
    s = TMDiceState(game, n)
    s.version = data["version"]
    s.rng = saved_rng(data["rng"])
    if data["stage"] not in STAGES:
        raise ValueError(f"'stage' must be one of {list(STAGES)}")
    s.stage = data["stage"]
    for p in PARAMETERS:
        setattr(s, p, _int(data[p], repr(p), 0, TRACKS[p]["steps"]))
    s.tiles = _tiles(data["tiles"], n)
    if sum(1 for t in s.tiles.values() if t["tile"] == "ocean") != s.oceans:
        raise ValueError("'oceans' must equal the ocean tiles on the map")
    s.seats = [_seat(v, f"'seats'[{i}]", n) for i, v in enumerate(_list(data["seats"], "'seats'", n))]
    awards = data["awards"]
    if not isinstance(awards, list) or len(awards) != 3 or not all(a in ALL_FACES for a in awards):
        raise ValueError("'awards' must be 3 faces")
    if len({FACE_COLOUR[a] for a in awards}) != 3:
        raise ValueError("'awards' come from 3 dice of different colours")
    s.awards = list(awards)
    pool = data["pool"]
    if not isinstance(pool, dict) or set(pool) != set(COLOURS):
        raise ValueError("'pool' must count the dice of each colour")
    s.pool = {c: _int(pool[c], f"'pool'.{c}", 0, DICE_PER_COLOUR) for c in COLOURS}
    held = [(FACE_COLOUR[f], k) for p in s.seats for f, k in p["dice"].items()]
    totals = {c: s.pool[c] + sum(k for colour, k in held if colour == c) for c in COLOURS}
    award_colours = {FACE_COLOUR[a] for a in s.awards}
    # The award dice are out of the pool; saves from before that rule have them in it.
    out = 0 if all(totals[c] == DICE_PER_COLOUR for c in award_colours) else 1
    for c in COLOURS:
        expected = DICE_PER_COLOUR - (out if c in award_colours else 0)
        if totals[c] != expected:
            raise ValueError(f"the {c} dice in the pool and in hands must add up to {expected}")
    s.wild_supply = _int(data["wild_supply"], "'wild_supply'", 0, WILD_TOKENS)
    if s.wild_supply + sum(p["wild"] for p in s.seats) != WILD_TOKENS:
        raise ValueError(f"wild tokens in the supply and held must add up to {WILD_TOKENS}")
    s.deck = _ids(data["deck"], "'deck'", CARD_IDS)
    s.discard = _ids(data["discard"], "'discard'", CARD_IDS)
    everywhere = s.deck + s.discard + [c for p in s.seats for k in ("hand", "red", "blue", "green") for c in p[k]]
    if sorted(everywhere) != sorted(CARD_IDS):
        raise ValueError("deck, discard, hands and played cards must hold each project card exactly once")
    # A save from before this field: as if the deck had never been reshuffled (the cards held
    # at a reshuffle are then not told apart by determinize, still a valid arrangement).
    reshuffled = data.get("reshuffled", OPTIONAL["reshuffled"])
    if reshuffled is not None:
        reshuffled = _ids(reshuffled, "'reshuffled'", CARD_IDS)
        if len(set(reshuffled)) != len(reshuffled) or not set(s.deck) <= set(reshuffled):
            raise ValueError("'reshuffled' must list different cards, the deck's among them")
    s.reshuffled = reshuffled
    s.bonus_deck = _ids(data["bonus_deck"], "'bonus_deck'", BONUS_CARDS)
    played_bonus = [b for p in s.seats for b in p["bonus"]]
    if len(set(s.bonus_deck + played_bonus)) != len(s.bonus_deck) + len(played_bonus):
        raise ValueError("a bonus card is in the deck and played, or played twice")
    s.milestones = _ids(data["milestones"], "'milestones'", MILESTONES)
    if len(s.milestones) != 3 or len(set(s.milestones)) != 3:
        raise ValueError("'milestones' must be 3 different milestones")
    claimed = data["claimed"]
    if not isinstance(claimed, dict) or not set(claimed) <= set(s.milestones):
        raise ValueError("'claimed' must map milestones in play to seats")
    s.claimed = {m: _int(v, f"'claimed'.{m}", 0, n - 1) for m, v in claimed.items()}
    s.removed = _ids(data["removed"], "'removed'", s.milestones)
    if set(s.removed) & set(s.claimed):
        raise ValueError("a milestone cannot be both claimed and removed")
    s.first = _int(data["first"], "'first'", 0, n - 1)
    s.current = _int(data["current"], "'current'", 0, n - 1)
    s.turn = _int(data["turn"], "'turn'", 0, 100000)
    s.end_at = None if data["end_at"] is None else _int(data["end_at"], "'end_at'", 0, 100000)
    if n == 1 and s.end_at is None:
        raise ValueError("'end_at': a solo game always has a last turn")
    s.queue = [_task(t, f"'queue'[{i}]", n) for i, t in enumerate(_list(data["queue"], "'queue'"))]
    s.result = _result(data["result"], n)
    if (s.stage == "over") != (s.result is not None):
        raise ValueError("'result' is set exactly when 'stage' is 'over'")
    winners = (s.result or {}).get("winners", [])
    s.resigned = resigned_seat(data.get("resigned", OPTIONAL["resigned"]), n, s.stage == "over", winners)
    if s.stage == "play" and not s.queue:
        raise ValueError("'queue' cannot be empty while the game is played")
    if s.stage == "corp" and (s.queue or any(len(p["offer"]) != 2 for p in s.seats)):
        raise ValueError("while corporations are chosen, each seat holds 2 offers and no step is queued")
    events = data["setup_events"]
    if not isinstance(events, list) or not all(isinstance(e, dict) and "type" in e for e in events):
        raise ValueError("'setup_events' must be a list of events")
    s.setup_events = json.loads(json.dumps(events))
    return s


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError(f"{where} must be a list" + ("" if length is None else f" of {length}"))
    return value


def _tiles(value: Any, n: int) -> dict[str, Tile]:
    if not isinstance(value, dict):
        raise ValueError("'tiles' must map hexes to tiles")
    out = {}
    for label, t in value.items():
        if label not in HEXES:
            raise ValueError(f"'tiles': unknown hex {label!r}")
        if not isinstance(t, dict) or set(t) != {"tile", "owner"} or t["tile"] not in board.TILE_KINDS:
            raise ValueError(f"'tiles'.{label} must be {{'tile', 'owner'}} with a known tile")
        area = HEXES[label]["area"]
        if (t["tile"] == "ocean") != (area == "ocean") or (t["tile"] in ("lava", "mine")) != (area in ("lava", "mine")):
            raise ValueError(f"'tiles'.{label}: a {t['tile']} cannot lie on a {area} area")
        if t["owner"] is not None:
            _int(t["owner"], f"'tiles'.{label}.owner", 0, n - 1)
        out[label] = {"tile": t["tile"], "owner": t["owner"]}
    return out


def _seat(value: Any, where: str, n: int) -> Player:
    if not isinstance(value, dict) or set(value) != set(SEAT_KEYS):
        raise ValueError(f"{where} must have keys {sorted(SEAT_KEYS)}")
    p = copy.deepcopy(value)
    if p["corp"] is not None and p["corp"] not in CORPORATIONS:
        raise ValueError(f"{where}.corp is not a corporation")
    _ids(p["offer"], f"{where}.offer", CORPORATIONS)
    for key in ("hand", "red", "blue", "green", "used"):
        _ids(p[key], f"{where}.{key}", CARD_IDS)
    if not set(p["used"]) <= set(p["blue"]):
        raise ValueError(f"{where}.used must list played blue cards")
    _ids(p["bonus"], f"{where}.bonus", BONUS_CARDS)
    if not isinstance(p["dice"], dict) or not all(f in ALL_FACES for f in p["dice"]):
        raise ValueError(f"{where}.dice must count dice by face")
    for f, k in p["dice"].items():
        _int(k, f"{where}.dice.{f}", 1, DICE_PER_COLOUR)
    _int(p["wild"], f"{where}.wild", 0, WILD_TOKENS)
    _int(p["vp"], f"{where}.vp", 0, 10000)
    _int(p["productions"], f"{where}.productions", 0, 100000)
    if not isinstance(p["thresholds"], list) or not all(isinstance(t, int) for t in p["thresholds"]):
        raise ValueError(f"{where}.thresholds must be a list of integers")
    return p


def _task(value: Any, where: str, n: int) -> Task:
    if not isinstance(value, dict) or value.get("kind") not in HANDLERS:
        raise ValueError(f"{where} must be a step of a known kind")
    _int(value.get("seat"), f"{where}.seat", 0, n - 1)
    need = {"kind", "seat"} | TASK_FIELDS.get(value["kind"], set())
    if not need <= set(value) or not set(value) <= need | {"cat", "page"} | OPTIONAL_TASK_FIELDS.get(
        value["kind"], set()
    ):
        raise ValueError(f"{where} ({value['kind']}) must have keys {sorted(need)}")
    return copy.deepcopy(value)


def _result(value: Any, n: int) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"scores", "winners", "details"}:
        raise ValueError("'result' must be null or {'scores', 'winners', 'details'}")
    if (
        len(_list(value["scores"], "'result'.scores", n)) != n
        or len(_list(value["details"], "'result'.details", n)) != n
    ):
        raise ValueError("'result' needs one score and one detail per seat")
    for w in _list(value["winners"], "'result'.winners"):
        _int(w, "'result'.winners", 0, n - 1)
    return copy.deepcopy(value)
