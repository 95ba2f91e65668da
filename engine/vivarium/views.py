"""What each seat may see. Everything is public except each player's two starting contracts."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from engine.vivarium import grid as g
from engine.vivarium import turn
from engine.vivarium.content import (
    ATTRIBUTES,
    CARDS,
    CHAIN,
    HABITATS,
    ICONS,
    TYPES,
    chain_view,
    priority_view,
    shared_card_view,
    starting_view,
)
from engine.vivarium.rounds import ROUNDS, TURNS_EACH, priority_winner
from engine.vivarium.scoring import creature_points, goal_of, progress

if TYPE_CHECKING:
    from engine.vivarium.state import VivariumState


def counts(collection: list[str]) -> dict:
    """How many cards of each type, habitat and icon (equipment 'counts as' included)."""
    result = {
        "type": dict.fromkeys(TYPES, 0),
        "habitat": dict.fromkeys(HABITATS, 0),
        "icon": dict.fromkeys(ICONS, 0),
    }
    for card_id in collection:
        for key, value in ATTRIBUTES[card_id].items():
            if key in result:
                result[key][value] += 1
    return result


def reachable_now(state: VivariumState) -> list[list[int]]:
    """Cards the player to act can reach: with the tokens as adjusted (take step), with any swap
    and no gem (swap step), or the cards an ability offers."""
    seat = state.current
    if state.phase == "take":
        return [list(c) for c in turn.take_cells(state, seat)]
    if state.phase == "swap":
        cells: set[tuple[int, int]] = set()
        for mine in state.tokens[seat]:
            for mid in state.middle:
                kept = [t for t in state.tokens[seat] if t != mine] + [mid]
                cells |= set(g.reachable([CHAIN[t].numbers for t in kept], state.grid))
        return [list(c) for c in sorted(cells)]
    if state.phase == "ability" and "cells" in state.pending:
        return [list(c) for c in state.pending["cells"]]
    return []


def player_view(state: VivariumState, seat: int) -> dict:
    collection = state.collections[seat]
    contracts = [c for c in collection if CARDS[c].kind == "contract"]
    numbers = state.numbers if seat == state.current and state.phase == "take" else {}
    return {
        "seat": seat,
        "tokens": [{**chain_view(t), "now": list(numbers.get(t, CHAIN[t].numbers))} for t in state.tokens[seat]],
        "gems": state.gems[seat],
        "collection": [shared_card_view(c) for c in collection if c not in contracts],
        "contracts": [{**shared_card_view(c), "progress": progress(goal_of(c), collection)} for c in contracts],
        "counts": counts(collection),
        "creature_points": creature_points(collection),
        "priority": [priority_view(p) for p in state.priority_won[seat]],
        "starting_contracts": len(state.starting[seat]),
    }


def public_view(state: VivariumState) -> dict:
    """The public view: built from shared card views, then copied in one go (json is C-fast)."""
    return json.loads(json.dumps(_public_view(state)))


def _public_view(state: VivariumState) -> dict:
    over = state.phase == "over"
    winner, majority = (None, [0] * state.players) if over else priority_winner(state)
    pending = {}
    if state.phase == "ability":
        pending = {"ability": state.pending["ability"], "card": shared_card_view(state.pending["card"])}
    return {
        "game": "vivarium",
        "players": state.players,
        "round": state.round,
        "rounds": ROUNDS,
        "phase": state.phase,
        "to_move": state.to_move(),
        "current": None if over else state.current,
        "first_player": state.first,
        "turn": state.turn // state.players + 1,
        "turns_each": TURNS_EACH,
        "turns_left": 0 if over else TURNS_EACH * state.players - state.turn,
        "grid": [
            [None if (card := state.grid[g.cell_index(r, c)]) is None else shared_card_view(card) for c in range(1, 5)]
            for r in range(1, 5)
        ],
        "decks": {k: len(v) for k, v in state.decks.items()},
        "discarded": len(state.discard),
        "middle": [chain_view(t) for t in state.middle],
        "facedown": None if state.facedown is None else chain_view(state.facedown),
        "priority": {
            "current": priority_view(state.priority_current),
            "next": priority_view(state.priority_next),
            "stack": len(state.priority_stack),
            "leader": winner,
            "majority": majority,
        },
        "reachable": [] if over else reachable_now(state),
        "pending": pending,
        "players_info": [player_view(state, s) for s in range(state.players)],
        "result": None
        if state.result is None
        else {
            "scores": list(state.result["scores"]),
            "winners": list(state.result["winners"]),
            "details": [dict(d) for d in state.result["details"]],
            "starting": [[starting_view(c) for c in s] for s in state.starting],
        },
        "resigned": state.resigned,
    }


def private_view(state: VivariumState, seat: int) -> dict:
    collection = state.collections[seat]
    return {
        "contracts": [{**starting_view(c), "progress": progress(goal_of(c), collection)} for c in state.starting[seat]],
    }
