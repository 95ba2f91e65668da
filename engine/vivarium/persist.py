"""Saving and loading a VivariumState: ``to_dict`` and a validating ``from_dict``."""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from engine.content import bounded_int as _int
from engine.content import check_keys, resigned_seat, saved_rng
from engine.core import Game, Saved
from engine.vivarium.content import (
    BLANK_PRIORITY,
    CARDS,
    CHAIN,
    CONTRACTS,
    CREATURES,
    PRIORITY,
    STARTING,
    equipment_deck,
    game_cards,
    plain_copy,
)
from engine.vivarium.rounds import ROUNDS, TURNS_EACH
from engine.vivarium.setup import chain_tokens_for
from engine.vivarium.state import PHASES, VivariumState

KEYS = (
    "rng",
    "grid",
    "decks",
    "discard",
    "tokens",
    "middle",
    "facedown",
    "gems",
    "collections",
    "priority_won",
    "starting",
    "priority_removed",
    "priority_stack",
    "priority_current",
    "priority_next",
    "first",
    "round",
    "turn",
    "phase",
    "pending",
    "numbers",
    "result",
    "setup_events",
)
# Keys added later: a state saved before them loads with their default.
OPTIONAL = {"resigned": None}


def state_to_dict(s: VivariumState) -> Saved:
    keys = KEYS + tuple(OPTIONAL)
    return plain_copy({key: (s.rng.state if key == "rng" else getattr(s, key)) for key in keys})


def _ids(value: Any, where: str, allowed: Container[str]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v in allowed for v in value):
        raise ValueError(f"{where} must be a list of known ids")
    return list(value)


def _per_seat(value: Any, where: str, n: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"{where} must hold one entry per seat ({n})")
    return value


def state_from_dict(game: Game, data: Saved) -> VivariumState:
    check_keys(data, KEYS, OPTIONAL)
    n = data["players"]
    s = VivariumState(game, n)
    s.version = data["version"]
    s.rng = saved_rng(data["rng"])
    grid = data["grid"]
    if not isinstance(grid, list) or len(grid) != 16 or not all(c is None or c in CARDS for c in grid):
        raise ValueError("'grid' must be 16 cells, each a card id or null")
    s.grid = list(grid)
    decks = data["decks"]
    if not isinstance(decks, dict) or set(decks) != {"creature", "equipment", "contract"}:
        raise ValueError("'decks' must have the keys creature, equipment, contract")
    version = data.get("rules_version", 1)  # already checked by Game.load
    pools = {"creature": CREATURES, "equipment": equipment_deck(version), "contract": CONTRACTS}
    s.decks = {k: _ids(decks[k], f"'decks'.{k}", pools[k]) for k in pools}
    s.discard = _ids(data["discard"], "'discard'", CARDS)
    s.collections = [
        _ids(c, f"'collections'[{i}]", CARDS) for i, c in enumerate(_per_seat(data["collections"], "'collections'", n))
    ]
    everything = [c for c in s.grid if c is not None] + s.discard + [c for d in s.decks.values() for c in d]
    everything += [c for col in s.collections for c in col]
    if sorted(everything) != sorted(game_cards(version)):
        raise ValueError("grid, decks, discard and collections must hold every card exactly once")
    s.tokens = [_ids(t, f"'tokens'[{i}]", CHAIN) for i, t in enumerate(_per_seat(data["tokens"], "'tokens'", n))]
    if any(len(t) != 2 for t in s.tokens):
        raise ValueError("'tokens': every player holds 2 chain tokens")
    s.middle = _ids(data["middle"], "'middle'", CHAIN)
    facedown = data["facedown"]
    if (n == 2) != (facedown is not None) or (facedown is not None and facedown not in CHAIN):
        raise ValueError("'facedown' is a chain token in a 2-player game and null otherwise")
    s.facedown = facedown
    held = [t for ts in s.tokens for t in ts] + s.middle + ([facedown] if facedown else [])
    if sorted(held) != sorted(chain_tokens_for(n)) or len(s.middle) != 1:
        raise ValueError(f"the chain tokens in play for {n} players must each be in one place, 1 face up in the middle")
    s.gems = [_int(v, f"'gems'[{i}]", 0, 10_000) for i, v in enumerate(_per_seat(data["gems"], "'gems'", n))]
    won = _per_seat(data["priority_won"], "'priority_won'", n)
    s.priority_won = [_ids(p, f"'priority_won'[{i}]", PRIORITY) for i, p in enumerate(won)]
    s.starting = [
        _ids(p, f"'starting'[{i}]", STARTING) for i, p in enumerate(_per_seat(data["starting"], "'starting'", n))
    ]
    if any(sorted(STARTING[c]["deck"] for c in p) != ["habitat", "type"] for p in s.starting):
        raise ValueError("'starting': each player holds one habitat and one type starting contract")
    s.first = _int(data["first"], "'first'", 0, n - 1)
    s.round = _int(data["round"], "'round'", 1, ROUNDS)
    s.turn = _int(data["turn"], "'turn'", 0, TURNS_EACH * n)
    s.priority_removed = _ids(data["priority_removed"], "'priority_removed'", PRIORITY)
    s.priority_stack = _ids(data["priority_stack"], "'priority_stack'", PRIORITY)
    if data["priority_current"] not in PRIORITY:
        raise ValueError("'priority_current' must be a priority token")
    s.priority_current = data["priority_current"]
    if data["priority_next"] is not None and data["priority_next"] not in PRIORITY:
        raise ValueError("'priority_next' must be a priority token or null")
    s.priority_next = data["priority_next"]
    won_tokens = [p for w in s.priority_won for p in w]
    # Once the game is over, round 7's token may already be in its winner's hands.
    over = data["phase"] == "over" and s.priority_current in won_tokens
    tokens = s.priority_removed + s.priority_stack + ([] if over else [s.priority_current]) + won_tokens
    tokens += [s.priority_next] if s.priority_next else []
    if len(tokens) != len(set(tokens)) or len(s.priority_removed) != 2:
        raise ValueError("priority tokens: each in one place, 2 back in the box")
    if (s.priority_current == BLANK_PRIORITY) != (data["round"] == 1):
        raise ValueError("the blank priority token is round 1's")
    if data["phase"] not in PHASES:
        raise ValueError(f"'phase' must be one of {list(PHASES)}")
    s.phase = data["phase"]
    if s.phase != "over" and s.turn == TURNS_EACH * n:
        raise ValueError(f"'turn' must be below {TURNS_EACH * n} while the game runs")
    if not isinstance(data["pending"], dict) or (s.phase == "ability") != bool(data["pending"]):
        raise ValueError("'pending' is set exactly in the 'ability' phase")
    if s.phase == "ability" and data["pending"].get("card") not in equipment_deck(version):
        raise ValueError("'pending'.card must be an equipment card")
    s.pending = plain_copy(data["pending"])
    numbers = data["numbers"]
    if s.phase == "take":
        if not isinstance(numbers, dict) or sorted(numbers) != sorted(s.tokens[s.current]):
            raise ValueError("'numbers' holds the current player's two tokens in the 'take' phase")
        for pair in numbers.values():
            if not isinstance(pair, list) or len(pair) != 2 or not all(_int(v, "'numbers'", 1, 4) for v in pair):
                raise ValueError("'numbers': two numbers from 1 to 4 per token")
    elif numbers != {}:
        raise ValueError("'numbers' is empty outside the 'take' phase")
    s.numbers = plain_copy(numbers)
    result = data["result"]
    if (result is None) == (s.phase == "over") or (
        result is not None and set(result) != {"scores", "winners", "details"}
    ):
        raise ValueError("'result' is set exactly when the game is over")
    s.result = plain_copy(result)
    winners = (s.result or {}).get("winners", [])
    s.resigned = resigned_seat(data.get("resigned", OPTIONAL["resigned"]), n, s.phase == "over", winners)
    events = data["setup_events"]
    if not isinstance(events, list) or not all(isinstance(e, dict) and "type" in e for e in events):
        raise ValueError("'setup_events' must be a list of events")
    s.setup_events = plain_copy(events)
    return s
