"""What each seat may see. Everything is public except each player's two starting contracts."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from engine.vivarium import grid as g
from engine.vivarium import turn
from engine.vivarium.content import (
    ATTRIBUTES,
    CARDS,
    CHAIN,
    HABITATS,
    ICONS,
    PRIORITY,
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


class ChainTokenView(TypedDict):
    """A token of the chain: the numbers it reaches and its dots."""

    id: str
    numbers: list[int]
    dots: int


class HeldToken(ChainTokenView):
    """A seat's token with the numbers it reaches now (adjusted in the take step)."""

    now: list[int]


class PriorityView(TypedDict):
    """A priority token: the type or habitat it counts (``{"type": ...}``), None for the blank one."""

    id: str
    icon: dict[str, str] | None


class CardView(TypedDict):
    """A grid card by ``kind``: a creature (``type``, ``habitat``, ``points``), equipment (``icon``,
    ``gems``, ``ability``) or a contract (``goal``)."""

    id: str
    kind: str
    name: str
    type: NotRequired[str | None]
    habitat: NotRequired[str | None]
    points: NotRequired[int]
    icon: NotRequired[str | None]
    gems: NotRequired[int]
    ability: NotRequired[dict[str, Any]]
    goal: NotRequired[dict[str, Any]]


class Progress(TypedDict):
    """How far a collection is towards a goal: the count, and for sets and pairs each part's."""

    have: int
    points: int
    parts: NotRequired[list[int]]


class ContractView(CardView):
    progress: Progress


class StartingContract(TypedDict):
    """A starting contract (secret until the end): its deck (``habitat`` or ``type``) and goal."""

    id: str
    name: str
    deck: str
    goal: dict[str, Any]


class StartingProgress(StartingContract):
    progress: Progress


class Counts(TypedDict):
    """How many cards of each type, habitat and icon a collection holds."""

    type: dict[str, int]
    habitat: dict[str, int]
    icon: dict[str, int]


class PlayerView(TypedDict):
    seat: int
    tokens: list[HeldToken]
    gems: int
    collection: list[CardView]
    contracts: list[ContractView]
    counts: Counts
    creature_points: int
    priority: list[PriorityView]
    starting_contracts: int


class PriorityState(TypedDict):
    """The priority tokens of this round and the next, the stack left, who leads it and each
    seat's count toward it."""

    current: PriorityView | None
    next: PriorityView | None
    stack: int
    leader: int | None
    majority: list[int]


class Pending(TypedDict, total=False):
    """The equipment ability being resolved (``ability`` step): its kind and the card."""

    ability: str
    card: CardView


class Result(TypedDict):
    scores: list[int]
    winners: list[int]
    details: list[dict[str, int]]
    starting: list[list[StartingContract]]


class VivariumPublic(TypedDict):
    """``view(seat)["public"]``."""

    game: str
    players: int
    round: int
    rounds: int
    phase: str
    to_move: list[int]
    current: int | None
    first_player: int
    turn: int
    turns_each: int
    turns_left: int
    grid: list[list[CardView | None]]
    decks: dict[str, int]
    discarded: int
    middle: list[ChainTokenView]
    facedown: ChainTokenView | None
    priority: PriorityState
    reachable: list[list[int]]
    pending: Pending
    players_info: list[PlayerView]
    result: Result | None
    resigned: int | None


class VivariumPrivate(TypedDict):
    """``view(seat)["private"]``: the seat's two starting contracts with its progress."""

    contracts: list[StartingProgress]


def counts(collection: list[str]) -> Counts:
    """How many cards of each type, habitat and icon (equipment 'counts as' included)."""
    result: Counts = {
        "type": dict.fromkeys(TYPES, 0),
        "habitat": dict.fromkeys(HABITATS, 0),
        "icon": dict.fromkeys(ICONS, 0),
    }
    by_key: dict[str, dict[str, int]] = {"type": result["type"], "habitat": result["habitat"], "icon": result["icon"]}
    for card_id in collection:
        for key, value in ATTRIBUTES[card_id].items():
            if key in by_key:
                by_key[key][value] += 1
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


def player_view(state: VivariumState, seat: int) -> PlayerView:
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
        "priority": [PRIORITY[p].to_view() for p in state.priority_won[seat]],
        "starting_contracts": len(state.starting[seat]),
    }


def public_view(state: VivariumState) -> VivariumPublic:
    """The public view: built from shared card views, then copied in one go (json is C-fast)."""
    copied: VivariumPublic = json.loads(json.dumps(_public_view(state)))
    return copied


def _public_view(state: VivariumState) -> VivariumPublic:
    over = state.phase == "over"
    winner, majority = (None, [0] * state.players) if over else priority_winner(state)
    pending: Pending = {}
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


def private_view(state: VivariumState, seat: int) -> VivariumPrivate:
    collection = state.collections[seat]
    return {
        "contracts": [{**starting_view(c), "progress": progress(goal_of(c), collection)} for c in state.starting[seat]],
    }
