"""Saving and loading a FoxDuetState: ``to_dict`` and a validating ``from_dict``.

Every problem found while loading raises ValueError naming the field, so a damaged save is
reported precisely instead of failing later in the middle of a game.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.content import check_keys, saved_rng
from engine.core import Game, Record, Saved
from engine.fox_duet import board
from engine.fox_duet.board import GEM_TOKENS, LEVELS
from engine.fox_duet.cards import ALL_CARD_IDS, CARDS, GAZELLE, SUITS, sort_hand
from engine.fox_duet.state import HAND_SIZE, PHASES, ROUNDS, TRICKS_PER_ROUND, FoxDuetState

KEYS = (
    "level",
    "side",
    "rng",
    "covered",
    "gems",
    "tracker",
    "forest_left",
    "forest_total",
    "supply",
    "collected",
    "round",
    "trick",
    "dealer",
    "leader",
    "hands",
    "deck",
    "decree",
    "trick_cards",
    "discard",
    "last_trick",
    "phase",
    "pending",
    "result",
    "setup_events",
)
# Keys added later: a state saved before them loads with their default. "voids" and "shown"
# (what each seat has shown the other this round, for determinize) default to nothing shown.
OPTIONAL = ("memory_aid", "voids", "shown")


def state_to_dict(s: FoxDuetState) -> Saved:
    return copy.deepcopy(
        {
            "level": s.level,
            "side": s.side.name,
            "rng": s.rng.state,
            "covered": s.covered,
            "gems": s.gems,
            "tracker": s.tracker,
            "forest_left": s.forest_left,
            "forest_total": s.forest_total,
            "supply": s.supply,
            "collected": s.collected,
            "round": s.round,
            "trick": s.trick,
            "dealer": s.dealer,
            "leader": s.leader,
            "hands": s.hands,
            "deck": s.deck,
            "decree": s.decree,
            "trick_cards": s.trick_cards,
            "discard": s.discard,
            "last_trick": s.last_trick,
            "phase": s.phase,
            "pending": s.pending,
            "result": s.result,
            "setup_events": s.setup_events,
            "memory_aid": s.memory_aid,
            "voids": s.voids,
            "shown": s.shown,
        }
    )


def _int(data: Record, key: str, lo: int, hi: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{key!r} must be an integer from {lo} to {hi}, not {value!r}")
    return value


def _seat(value: Any, where: str) -> int:
    if value not in (0, 1) or isinstance(value, bool):
        raise ValueError(f"{where} must be a seat (0 or 1), not {value!r}")
    return value


def _card_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in CARDS for c in value):
        raise ValueError(f"{where} must be a list of card ids")
    return list(value)


def _plays(value: Any, where: str) -> list[Record]:
    if not isinstance(value, list):
        raise ValueError(f"{where} must be a list")
    plays = []
    for i, p in enumerate(value):
        if not isinstance(p, dict) or set(p) != {"seat", "card"}:
            raise ValueError(f"{where}[{i}] must be {{'seat', 'card'}}")
        _seat(p["seat"], f"{where}[{i}].seat")
        if p["card"] not in CARDS:
            raise ValueError(f"{where}[{i}].card is not a card id: {p['card']!r}")
        plays.append({"seat": p["seat"], "card": p["card"]})
    return plays


def state_from_dict(game: Game, data: Saved) -> FoxDuetState:
    check_keys(data, KEYS, optional=OPTIONAL)
    if data["players"] != 2:
        raise ValueError("The Fox in the Forest Duet is for exactly 2 players")
    s = FoxDuetState(game)
    s.version = data["version"]
    s.level = _int(data, "level", 1, 3)
    side = s.side
    if data["side"] != side.name:
        raise ValueError(f"level {s.level} is played on side {side.name}, not {data['side']!r}")
    s.rng = saved_rng(data.get("rng"))
    n = len(side)
    covered = data["covered"]
    if not isinstance(covered, list) or len(covered) != n or not all(isinstance(c, bool) for c in covered):
        raise ValueError(f"'covered' must be a list of {n} booleans")
    if covered[side.start]:
        raise ValueError("'covered': the start circle cannot be covered")
    s.covered = list(covered)
    gems = data["gems"]
    if not isinstance(gems, list) or len(gems) != n or not all(type(g) is int and g >= 0 for g in gems):
        raise ValueError(f"'gems' must be a list of {n} non-negative integers")
    if any(g and c for g, c in zip(gems, covered, strict=True)):
        raise ValueError("'gems': a covered space holds no gems")
    s.gems = list(gems)
    s.tracker = _int(data, "tracker", 0, n - 1)
    if s.covered[s.tracker]:
        raise ValueError("'tracker' stands on a covered space")
    s.forest_total = _int(data, "forest_total", 0, 20)
    if s.forest_total != LEVELS[s.level].forest_tokens:
        raise ValueError(f"'forest_total' must be {LEVELS[s.level].forest_tokens} at level {s.level}")
    s.forest_left = _int(data, "forest_left", 0, s.forest_total)
    if s.forest_left + sum(s.covered) != s.forest_total:
        raise ValueError("'forest_left' and the covered spaces do not add up to 'forest_total'")
    s.supply = _int(data, "supply", 0, GEM_TOKENS)
    s.collected = _int(data, "collected", 0, GEM_TOKENS)
    if s.supply + s.collected + sum(s.gems) != GEM_TOKENS:
        raise ValueError(f"gems on the board, collected and in the supply must add up to {GEM_TOKENS}")
    s.round = _int(data, "round", 1, ROUNDS)
    s.trick = _int(data, "trick", 1, TRICKS_PER_ROUND)
    s.dealer = _seat(data["dealer"], "'dealer'")
    s.leader = _seat(data["leader"], "'leader'")
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != 2:
        raise ValueError("'hands' must be a list of 2 hands")
    s.hands = [sort_hand(_card_list(h, f"'hands'[{i}]")) for i, h in enumerate(hands)]
    if any(len(h) > HAND_SIZE for h in s.hands):
        raise ValueError(f"'hands': a hand holds at most {HAND_SIZE} cards")
    s.deck = _card_list(data["deck"], "'deck'")
    if data["decree"] not in CARDS:
        raise ValueError(f"'decree' is not a card id: {data['decree']!r}")
    s.decree = data["decree"]
    s.trick_cards = _plays(data["trick_cards"], "'trick_cards'")
    if len(s.trick_cards) > 2 or [p["seat"] for p in s.trick_cards] != [s.leader, 1 - s.leader][: len(s.trick_cards)]:
        raise ValueError("'trick_cards' must be the leader's card, then the follower's")
    s.discard = _card_list(data["discard"], "'discard'")
    everything = s.hands[0] + s.hands[1] + s.deck + [s.decree] + [p["card"] for p in s.trick_cards] + s.discard
    if sorted(everything) != sorted(ALL_CARD_IDS):
        raise ValueError("hands, deck, decree, trick and discard must hold each of the 30 cards exactly once")
    s.last_trick = _last_trick(data["last_trick"])
    # Saves from before rules version 2 have no "memory_aid": they showed earlier tricks.
    s.memory_aid = data.get("memory_aid", True)
    if not isinstance(s.memory_aid, bool):
        raise ValueError("'memory_aid' must be a boolean")
    s.voids, s.shown = _shown(s, data.get("voids", [[], []]), data.get("shown", [[], []]))
    s.phase, s.pending = _phase(s, data["phase"], data["pending"])
    s.result = _result(data["result"], s.phase)
    events = data["setup_events"]
    if not isinstance(events, list) or not all(isinstance(e, dict) and "type" in e for e in events):
        raise ValueError("'setup_events' must be a list of events")
    s.setup_events = copy.deepcopy(events)
    return s


def _shown(s: FoxDuetState, voids: Any, shown: Any) -> tuple[list[list[str]], list[list[str]]]:
    """What each seat has shown the other this round: the suits it failed to follow, and the
    cards in its hand the partner saw arrive (they may be of those suits; no other card is)."""
    if not isinstance(voids, list) or len(voids) != 2:
        raise ValueError("'voids' must be a list of 2 lists of suits")
    if not isinstance(shown, list) or len(shown) != 2:
        raise ValueError("'shown' must be a list of 2 lists of cards")
    out_voids, out_shown = [], []
    for seat in (0, 1):
        v = voids[seat]
        if not isinstance(v, list) or not all(x in SUITS for x in v) or len(set(v)) != len(v):
            raise ValueError(f"'voids'[{seat}] must be a list of different suits")
        cards = sort_hand(_card_list(shown[seat], f"'shown'[{seat}]"))
        if len(set(cards)) != len(cards) or not set(cards) <= set(s.hands[seat]):
            raise ValueError(f"'shown'[{seat}] must be cards of that hand")
        unshown = [c for c in s.hands[seat] if c not in cards]
        if any(CARDS[c].suit in v for c in unshown):
            raise ValueError(f"'voids'[{seat}]: a card dealt to that hand is of a suit it failed to follow")
        out_voids.append([x for x in SUITS if x in v])
        out_shown.append(cards)
    return out_voids, out_shown


def _last_trick(value: Any) -> Record | None:
    if value is None:
        return None
    keys = {"cards", "winner", "steps", "toward", "overshoot", "gem"}
    if not isinstance(value, dict) or set(value) != keys:
        raise ValueError(f"'last_trick' must be null or a dict with keys {sorted(keys)}")
    plays = _plays(value["cards"], "'last_trick'.cards")
    if len(plays) != 2:
        raise ValueError("'last_trick'.cards must hold 2 cards")
    _seat(value["winner"], "'last_trick'.winner")
    _seat(value["toward"], "'last_trick'.toward")
    _int(value, "steps", 0, 6)
    if not isinstance(value["overshoot"], bool) or not isinstance(value["gem"], bool):
        raise ValueError("'last_trick'.overshoot and .gem must be booleans")
    return {**value, "cards": plays}


def _phase(s: FoxDuetState, phase: Any, pending: Any) -> tuple[str, Record]:
    if phase not in PHASES:
        raise ValueError(f"'phase' must be one of {list(PHASES)}, not {phase!r}")
    if not isinstance(pending, dict):
        raise ValueError("'pending' must be a dict")
    plays = len(s.trick_cards)

    def need(keys: set[str], cards_in_trick: tuple[int, ...]) -> None:
        if set(pending) != keys:
            raise ValueError(f"'pending' in phase {phase!r} must have keys {sorted(keys)}")
        if plays not in cards_in_trick:
            raise ValueError(f"phase {phase!r} cannot happen with {plays} card(s) in the trick")

    if phase in ("play", "over"):
        need(set(), (0, 1) if phase == "play" else (0, 1, 2))
    elif phase == "fox-pick":
        need({"fox_player"}, (1, 2))
        _seat(pending["fox_player"], "'pending'.fox_player")
    elif phase == "fox-swap":
        need({"fox_player", "chooser"}, (1, 2))
        _seat(pending["fox_player"], "'pending'.fox_player")
        if not s.hands[_seat(pending["chooser"], "'pending'.chooser")]:
            raise ValueError("'pending'.chooser has no card to swap")
    elif phase == "gift":
        need({"picks"}, (1, 2))
        picks = pending["picks"]
        if not isinstance(picks, list) or len(picks) != 2:
            raise ValueError("'pending'.picks must be a list of 2")
        for seat, pick in enumerate(picks):
            if pick is not None and pick not in s.hands[seat]:
                raise ValueError(f"'pending'.picks[{seat}] must be null or a card in that hand")
        if None not in picks:
            raise ValueError("'pending'.picks: the exchange happens as soon as both have picked")
    elif phase == "gazelle":
        need({"winner"}, (2,))
        _seat(pending["winner"], "'pending'.winner")
        if not any(CARDS[p["card"]].ability == GAZELLE for p in s.trick_cards):
            raise ValueError("phase 'gazelle' needs a gazelle in the trick")
    elif phase == "direction":
        need({"winner", "steps"}, (2,))
        _seat(pending["winner"], "'pending'.winner")
        _int(pending, "steps", 1, 6)
    elif phase == "forest":
        need({"ends"}, (0,))
        ends = pending["ends"]
        if ends != board.open_ends(s.covered, s.tracker) or len(ends) != 2:
            raise ValueError("'pending'.ends must be [0, 1] with the tracker on neither end")
    return phase, copy.deepcopy(pending)


def _result(value: Any, phase: str) -> Record | None:
    if value is None:
        if phase == "over":
            raise ValueError("phase 'over' needs a 'result'")
        return None
    keys = {"won", "reason", "score", "round", "details"}
    if not isinstance(value, dict) or set(value) != keys:
        raise ValueError(f"'result' must be null or a dict with keys {sorted(keys)}")
    if phase != "over":
        raise ValueError("a 'result' is only set in phase 'over'")
    if not isinstance(value["won"], bool):
        raise ValueError("'result'.won must be a boolean")
    reasons = ("all-gems",) if value["won"] else ("no-forest-token", "time", "conceded")
    if value["reason"] not in reasons:
        raise ValueError(f"'result'.reason must be one of {list(reasons)}")
    _int(value, "score", 0, 1000)
    _int(value, "round", 1, ROUNDS)
    if not isinstance(value["details"], dict):
        raise ValueError("'result'.details must be a dict")
    return copy.deepcopy(value)
