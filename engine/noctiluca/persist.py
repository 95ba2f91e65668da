"""Saving and loading a NoctilucaState: ``to_dict`` and a validating ``from_dict``.

Loading checks every field's shape and that nothing was lost or duplicated: each of the 104
dice is on the board, in the box lid, on a jar, in a passing hand or in the storm; each of the
30 jars is in exactly one place; each stack with the tokens taken from it holds its 10 values.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from engine.content import bounded_int as _int
from engine.content import check_keys, resigned_seat, saved_rng
from engine.core import Game, Record, Saved
from engine.noctiluca import content
from engine.noctiluca.content import COMPONENTS, DICE_COLOURS, JAR_IDS, SPACES, STACKS, Jar
from engine.noctiluca.state import PATHS, PHASES, NoctilucaState

KEYS = (
    "rng",
    "spaces",
    "lid",
    "shores",
    "pawns",
    "favourites",
    "jars",
    "delivered",
    "tokens",
    "stacks",
    "piles",
    "deck",
    "discard",
    "round",
    "direction",
    "first",
    "current",
    "phase",
    "pending",
    "last_dive",
    "storm",
    "result",
    "setup_events",
)
# Keys added later: a state saved before them loads with their default.
OPTIONAL: dict[str, Any] = {"resigned": None, "to_bottom": 0}


def _plain(value: Any) -> Any:
    """A copy of plain JSON data: ``copy.deepcopy`` without its bookkeeping (a computer player
    copies the state at every determinization, thousands of times a decision)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    return copy.deepcopy(value)


def state_to_dict(s: NoctilucaState) -> Saved:
    keys = KEYS + tuple(OPTIONAL)
    return _plain({key: (s.rng.state if key == "rng" else getattr(s, key)) for key in keys})


def copied(s: NoctilucaState) -> NoctilucaState:
    """A copy of a valid state, as ``state_from_dict(state_to_dict(s))`` gives it, without
    checking it again: a computer player copies the state at every determinization, and a state
    the engine made is valid. Anything read from outside goes through ``state_from_dict``."""
    c = NoctilucaState(s.game, s.players)
    c.rules_version = s.rules_version
    c.version = s.version
    c.rng.state = s.rng.state
    for key in KEYS + tuple(OPTIONAL):
        if key != "rng":
            setattr(c, key, _plain(getattr(s, key)))
    return c


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError(f"{where} must be a list" + ("" if length is None else f" of {length}"))
    return value


def _dice(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(content.is_die(d) for d in value):
        raise ValueError(f"{where} must be a list of dice like 'b3'")
    return list(value)


def _jar_ids(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(j, str) and j in JAR_IDS for j in value):
        raise ValueError(f"{where} must be a list of jar ids")
    return list(value)


def _tokens(value: Any, where: str) -> list[list[Any]]:
    _list(value, where)
    for i, tok in enumerate(value):
        ok = isinstance(tok, list) and len(tok) == 2 and tok[0] in STACKS and isinstance(tok[1], int)
        if not ok:
            raise ValueError(f"{where}[{i}] must be [colour, value]")
    return [list(t) for t in value]


def _jars_in_play(value: Any, where: str, cards: dict[str, Jar]) -> list[Record]:
    out = []
    for i, j in enumerate(_list(value, where)):
        if not isinstance(j, dict) or set(j) != {"id", "dice"} or j["id"] not in cards:
            raise ValueError(f"{where}[{i}] must be {{'id', 'dice'}} with a known jar id")
        slots = cards[j["id"]].slots
        cells = _list(j["dice"], f"{where}[{i}].dice", len(slots))
        for c, d in zip(slots, cells, strict=True):
            if d is not None and (not content.is_die(d) or content.die_colour(d) != c):
                raise ValueError(f"{where}[{i}].dice: a slot holds a die of its own colour or nothing")
        out.append({"id": j["id"], "dice": list(cells)})
    return out


def state_from_dict(game: Game, data: Saved) -> NoctilucaState:
    check_keys(data, KEYS, OPTIONAL)
    n = data["players"]
    s = NoctilucaState(game, n)
    # The jars (their slots) are those of the game's rules version; a save from before versions
    # is version 1. Game.load sets it again afterwards, to the same value.
    s.rules_version = game.check_rules_version(data.get("rules_version", 1))
    s.version = data["version"]
    s.rng = saved_rng(data["rng"])
    spaces = _list(data["spaces"], "'spaces'", len(SPACES))
    s.spaces = [_dice(sp, f"'spaces'[{i}]") for i, sp in enumerate(spaces)]
    for sp in SPACES:
        if len(s.spaces[sp.id]) > sp.capacity:
            raise ValueError(f"'spaces'[{sp.id}] holds more than {sp.capacity} dice")
    lid = data["lid"]
    if not isinstance(lid, dict) or set(lid) != set(DICE_COLOURS):
        raise ValueError("'lid' must count the dice of each colour")
    s.lid = {c: _int(lid[c], f"'lid'.{c}", 0, COMPONENTS["dice_per_colour"]) for c in DICE_COLOURS}
    shores = _list(data["shores"], "'shores'", len(content.SHORES))
    for i, p in enumerate(shores):
        if p is not None and (not isinstance(p, dict) or set(p) != {"seat", "round"}):
            raise ValueError(f"'shores'[{i}] must be null or {{'seat', 'round'}}")
        if p is not None:
            _int(p["seat"], f"'shores'[{i}].seat", 0, n - 1)
            _int(p["round"], f"'shores'[{i}].round", 1, 2)
    s.shores = [None if p is None else dict(p) for p in shores]
    s.pawns = [_int(p, "'pawns'", 0, 12) for p in _list(data["pawns"], "'pawns'", n)]
    favourites = _list(data["favourites"], "'favourites'", n)
    if not all(f in DICE_COLOURS for f in favourites) or len(set(favourites)) != n:
        raise ValueError("'favourites' must be a different noctiluca colour per seat")
    s.favourites = list(favourites)
    s.jars = [_jars_in_play(j, f"'jars'[{i}]", s.jar_cards) for i, j in enumerate(_list(data["jars"], "'jars'", n))]
    s.delivered = [_jar_ids(d, f"'delivered'[{i}]") for i, d in enumerate(_list(data["delivered"], "'delivered'", n))]
    s.tokens = [_tokens(t, f"'tokens'[{i}]") for i, t in enumerate(_list(data["tokens"], "'tokens'", n))]
    stacks = data["stacks"]
    if not isinstance(stacks, dict) or set(stacks) != set(STACKS):
        raise ValueError("'stacks' must hold the gold, brown and red stacks")
    s.stacks = {c: [_int(v, f"'stacks'.{c}", 1, 99) for v in _list(stacks[c], f"'stacks'.{c}")] for c in STACKS}
    piles = _list(data["piles"], "'piles'")
    if len(piles) not in (0, COMPONENTS["piles"]):
        raise ValueError(f"'piles' must be empty or {COMPONENTS['piles']} piles")
    s.piles = [_jar_ids(p, f"'piles'[{i}]") for i, p in enumerate(piles)]
    s.deck = _jar_ids(data["deck"], "'deck'")
    s.discard = _jar_ids(data["discard"], "'discard'")
    # A save from before this field: nothing known under the deck (the jars put there are
    # then redrawn with the rest of the deck by determinize, still a valid arrangement).
    s.to_bottom = _int(data.get("to_bottom", OPTIONAL["to_bottom"]), "'to_bottom'", 0, len(JAR_IDS))
    if s.to_bottom and not s.solo:
        raise ValueError("'to_bottom' counts the jars put under the deck in a solo game only")
    s.round = _int(data["round"], "'round'", 1, 2)
    if data["direction"] != (1 if s.round == 1 else -1):
        raise ValueError("'direction' is 1 in round 1 and -1 in round 2")
    s.direction = data["direction"]
    s.first = _int(data["first"], "'first'", 0, n - 1)
    s.current = _int(data["current"], "'current'", 0, n - 1)
    s.phase, s.pending = _phase(s, data["phase"], data["pending"])
    s.last_dive = _last_dive(data["last_dive"], n)
    s.storm = _storm(data["storm"], n)
    if data["result"] is not None and (s.phase != "over" or not isinstance(data["result"], dict)):
        raise ValueError("'result' is set only once the game is over")
    if data["result"] is None and s.phase == "over":
        raise ValueError("a finished game needs a 'result'")
    s.result = _plain(data["result"])
    winners = (s.result or {}).get("winners", [])
    s.resigned = resigned_seat(data.get("resigned", OPTIONAL["resigned"]), s.players, s.phase == "over", winners)
    events = data["setup_events"]
    if not isinstance(events, list) or not all(isinstance(e, dict) and "type" in e for e in events):
        raise ValueError("'setup_events' must be a list of events")
    s.setup_events = _plain(events)
    _check_conservation(s)
    return s


def _phase(s: NoctilucaState, phase: Any, pending: Any) -> tuple[str, Record]:
    if phase not in PHASES:
        raise ValueError(f"'phase' must be one of {list(PHASES)}, not {phase!r}")
    if not isinstance(pending, dict):
        raise ValueError("'pending' must be a dict")
    n = s.players
    keys = {
        "keep": {"dealt", "kept"},
        "shore": set(),
        "path": {"shore"},
        "number": {"shore", "path"},
        "store": {"hand"},
        "pass": {"dice", "receiver", "quiet"},
        "deliver": {"queue"},
        "pile": {"queue"},
        "draw": {"queue", "offer"},
        "over": set(),
    }[phase]
    if set(pending) != keys:
        raise ValueError(f"'pending' in phase {phase!r} must have keys {sorted(keys)}")
    p = _plain(pending)
    if phase == "keep":
        dealt = _list(p["dealt"], "'pending'.dealt", n)
        for i, d in enumerate(dealt):
            if len(_jar_ids(d, f"'pending'.dealt[{i}]")) != COMPONENTS["jars_dealt"]:
                raise ValueError(f"'pending'.dealt[{i}] must hold {COMPONENTS['jars_dealt']} jars")
        for i, k in enumerate(_list(p["kept"], "'pending'.kept", n)):
            if k is not None and (len(_jar_ids(k, "'pending'.kept")) != 2 or not set(k) <= set(dealt[i])):
                raise ValueError(f"'pending'.kept[{i}] must be null or 2 of that seat's dealt jars")
    if phase in ("path", "number"):
        _int(p["shore"], "'pending'.shore", 1, len(content.SHORES))
        if s.shores[p["shore"] - 1] is None:
            raise ValueError("'pending'.shore has no pawn on it")
    if phase == "number" and p["path"] not in PATHS:
        raise ValueError("'pending'.path must be 'short' or 'long'")
    if phase == "store":
        _dice(p["hand"], "'pending'.hand")
    if phase == "pass":
        _dice(p["dice"], "'pending'.dice")
        _int(p["receiver"], "'pending'.receiver", 0, n - 1)
        _int(p["quiet"], "'pending'.quiet", 0, n)
    if phase in ("deliver", "pile", "draw"):
        queue = _list(p["queue"], "'pending'.queue")
        if not queue or not all(isinstance(q, int) and 0 <= q < n for q in queue):
            raise ValueError("'pending'.queue must be a non-empty list of seats")
    if phase == "draw":
        _jar_ids(p["offer"], "'pending'.offer")
    return phase, p


def _last_dive(value: Any, n: int) -> Record | None:
    if value is None:
        return None
    keys = {"seat", "shore", "path", "spaces", "number", "taken"}
    if not isinstance(value, dict) or set(value) != keys:
        raise ValueError(f"'last_dive' must be null or a dict with keys {sorted(keys)}")
    _int(value["seat"], "'last_dive'.seat", 0, n - 1)
    _int(value["shore"], "'last_dive'.shore", 1, 12)
    _int(value["number"], "'last_dive'.number", 1, 6)
    if value["path"] not in PATHS:
        raise ValueError("'last_dive'.path must be 'short' or 'long'")
    if list(value["spaces"]) != list(content.SHORES[value["shore"] - 1].paths[value["path"]]):
        raise ValueError("'last_dive'.spaces must be the chosen path")
    _dice(value["taken"], "'last_dive'.taken")
    return _plain(value)


def _storm(value: Any, n: int) -> Record | None:
    if n != 1:
        if value is not None:
            raise ValueError("only a solo game has a storm")
        return None
    keys = {"tokens", "dice", "arrow", "last"}
    if not isinstance(value, dict) or set(value) != keys:
        raise ValueError(f"'storm' must be a dict with keys {sorted(keys)}")
    _tokens(value["tokens"], "'storm'.tokens")
    _dice(value["dice"], "'storm'.dice")
    _int(value["arrow"], "'storm'.arrow", 0, len(content.SECTIONS) - 1)
    if value["last"] is not None and not isinstance(value["last"], dict):
        raise ValueError("'storm'.last must be null or a dict")
    return _plain(value)


def _check_conservation(s: NoctilucaState) -> None:
    dice: Counter[str] = Counter()
    for sp in s.spaces:
        dice.update(content.die_colour(d) for d in sp)
    for seat_jars in s.jars:
        for j in seat_jars:
            dice.update(content.die_colour(d) for d in j["dice"] if d is not None)
    if s.phase == "store":
        dice.update(content.die_colour(d) for d in s.pending["hand"])
    if s.phase == "pass":
        dice.update(content.die_colour(d) for d in s.pending["dice"])
    if s.storm is not None:
        dice.update(content.die_colour(d) for d in s.storm["dice"])
    for c in DICE_COLOURS:
        if dice[c] + s.lid[c] != COMPONENTS["dice_per_colour"]:
            raise ValueError(f"the {c} dice do not add up to {COMPONENTS['dice_per_colour']}")
    jars = [j["id"] for seat in s.jars for j in seat] + [j for d in s.delivered for j in d]
    jars += [j for p in s.piles for j in p] + s.deck + s.discard
    if s.phase == "keep":
        jars += [j for d in s.pending["dealt"] for j in d]
    if s.phase == "draw":
        jars += s.pending["offer"]
    if sorted(jars) != sorted(JAR_IDS):
        raise ValueError("each of the 30 jars must be in exactly one place")
    for colour, full in STACKS.items():
        taken = [v for seat in s.tokens for c, v in seat if c == colour]
        if s.storm is not None:
            taken += [v for c, v in s.storm["tokens"] if c == colour]
        if sorted(taken + s.stacks[colour]) != sorted(full) or s.stacks[colour] != list(full[len(taken) :]):
            raise ValueError(f"the {colour} tokens do not add up to their stack")
