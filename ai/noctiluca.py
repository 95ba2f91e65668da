"""Noctiluca knowledge for the search: a diver's rollout policy and the worth of half-filled jars.

Random rollouts dive anywhere and name any number, so they rarely fill a jar: every position
then looks alike, and storing (the game's whole point) is undervalued. The rollout policy dives
where the taken dice fill the most of the diver's own free slots (the nearly full jars first),
counts dice handed to the next player against a dive, and stores each die in the jar closest to
full; a receiver always stores when it can. The evaluation of a position cut short adds to the
engine's standing the expected worth of each undelivered jar, growing with how full it is (the
standing counts only a point per two dice on them).

Reads only the state it is given: in the search, a determinization.
"""

from __future__ import annotations

import random
from typing import Any, cast

from ai.knowledge import Knowledge, outcome_rewards
from engine import Action, State
from engine.noctiluca.content import COLOUR_LETTER, SHORES
from engine.noctiluca.state import NoctilucaState


def own(state: State[Any, Any]) -> NoctilucaState:
    """``state`` as a NoctilucaState (for ai/knowledge.py, which dispatched on ``state.game.id``)."""
    return cast(NoctilucaState, state)


# A delivered jar's usual worth beyond its printed points: a token (values 2 to 8, the early
# ones low) and a share of the majorities.
TOKEN_WORTH = 4.0
# A die that only the next player can store is worth this much of one of the diver's own.
GIFT = 0.5
# Rollout moves taken at random instead of by the policy: keeps rollouts varied.
EXPLORE = 0.1


def free_slots(state: NoctilucaState, seat: int) -> dict[str, list[int]]:
    """Per die letter (colour), the free slots of each of the seat's jars that take it, fullest
    jar first."""
    out: dict[str, list[int]] = {}
    for jar in state.jars[seat]:
        free: dict[str, int] = {}
        for colour, die in zip(state.jar_cards[jar["id"]].slots, jar["dice"], strict=True):
            if die is None:
                letter = COLOUR_LETTER[colour]
                free[letter] = free.get(letter, 0) + 1
        for letter, n in free.items():
            out.setdefault(letter, []).append(n)
    for room in out.values():
        room.sort()
    return out


def storable(free: dict[str, list[int]], taken: dict[str, int]) -> tuple[float, dict[str, int]]:
    """How many taken dice the seat stores, each weighted up when it completes its jar (the
    fullest jar filled first, as the policy stores); and the dice left over, by letter."""
    value = 0.0
    rest: dict[str, int] = {}
    for letter, n in taken.items():
        for slots in free.get(letter, ()):
            used = n if n < slots else slots
            value += used * (1.5 if used == slots else 1.0)
            n -= used
            if not n:
                break
        if n:
            rest[letter] = n
    return value, rest


# The worth of the dives of a shore and path (number -> worth) in positions met before, keyed on
# everything it reads: the search meets the same board in every determinization of a node (the
# dice on the board are public), and a dive's three steps read the same dives again.
_DIVES: dict[tuple, list[float]] = {}
DIVES_KEPT = 100_000  # entries before the memo starts afresh (a worker's memory stays bounded)


def _jars_key(state: NoctilucaState, seat: int) -> tuple:
    return tuple((jar["id"], tuple(jar["dice"])) for jar in state.jars[seat])


def dive_values(
    state: NoctilucaState, seat: int, shores: list[int], paths: tuple[str, ...]
) -> dict[tuple[int, str, int], float]:
    """The worth of each dive (shore, path, number): own dice stored, less those the next
    player could store from what is passed on."""
    after = state.after(seat) if state.players > 1 else None
    board = (
        state.rules_version,
        seat,
        tuple(map(tuple, state.spaces)),
        _jars_key(state, seat),
        None if after is None else (after, _jars_key(state, after)),
    )
    values = {}
    worths: _Worths | None = None
    for shore in shores:
        for kind in paths:
            key = (board, shore, kind)
            worth = _DIVES.get(key)
            if worth is None:
                if worths is None:
                    worths = _Worths(free_slots(state, seat), free_slots(state, after) if after is not None else {})
                worth = worths.path(state.spaces, SHORES[shore - 1].paths[kind])
                if len(_DIVES) >= DIVES_KEPT:
                    _DIVES.clear()
                _DIVES[key] = worth
            values[(shore, kind, 1)] = worth[0]
            values[(shore, kind, 2)] = worth[1]
            values[(shore, kind, 3)] = worth[2]
            values[(shore, kind, 4)] = worth[3]
            values[(shore, kind, 5)] = worth[4]
            values[(shore, kind, 6)] = worth[5]
    return values


class _Worths:
    """The worth of dives for one seat's jars and the next seat's: ``storable`` of each handful
    of dice worked out once (the paths of one board take the same handfuls again and again)."""

    __slots__ = ("own", "nxt", "mine")

    def __init__(self, own: dict[str, list[int]], nxt: dict[str, list[int]]) -> None:
        self.own, self.nxt = own, nxt
        self.mine: dict[tuple, float] = {}  # a handful (its letters and counts, in order) -> its worth

    def handful(self, taken: dict[str, int]) -> float:
        key = tuple(taken.items())
        worth = self.mine.get(key)
        if worth is None:
            mine, rest = storable(self.own, taken)
            worth = mine - GIFT * storable(self.nxt, rest)[0] if rest else mine
            self.mine[key] = worth
        return worth

    def path(self, spaces: list[list[str]], path: tuple[int, ...]) -> list[float]:
        """The worth of diving along ``path`` naming each number 1 to 6 (``_path_values``)."""
        by_face: dict[str, dict[str, int]] = {}
        for sid in path:
            for die in spaces[sid]:  # a die is its colour letter and its face: "b3"
                counts = by_face.get(die[1])
                if counts is None:
                    counts = by_face[die[1]] = {}
                counts[die[0]] = counts.get(die[0], 0) + 1
        handful = self.handful
        return [handful(taken) if (taken := by_face.get(number)) else 0.0 for number in "123456"]


# How many of a dive's steps the search considers, best first by ``dive_values`` (move ordering).
SHORES_SEARCHED = 5
NUMBERS_SEARCHED = 3


def candidates(state: NoctilucaState, seat: int, actions: list[Action]) -> list[Action]:
    """The moves the search considers at a dive's steps: the shores whose best dive stores most
    (``SHORES_SEARCHED`` of them), both paths, the ``NUMBERS_SEARCHED`` best numbers, each list
    best first; other phases keep every move. Without it, a dive's 12 shores x 2 paths x 6
    numbers spread a hard decision's few hundred iterations over some 140 dives, most of which
    store nothing; the pruned ones are never better by the policy's own reckoning than those
    kept. Reads only the state given (the board's dice, the jars), as the policy does."""
    phase = state.phase
    if phase not in ("shore", "path", "number"):
        return actions
    pending = state.pending
    if phase == "shore":
        values = dive_values(state, seat, [int(a.args[0]) for a in actions], ("short", "long"))
        best: dict[str, float] = {}
        for (shore, _, _), value in values.items():
            key = str(shore)
            best[key] = max(best.get(key, value), value)
        keep = SHORES_SEARCHED
    elif phase == "path":
        values = dive_values(state, seat, [pending["shore"]], ("short", "long"))
        best = {}
        for (_, kind, _), value in values.items():
            best[kind] = max(best.get(kind, value), value)
        keep = 2
    else:
        values = dive_values(state, seat, [pending["shore"]], (pending["path"],))
        best = {str(number): value for (_, _, number), value in values.items()}
        keep = NUMBERS_SEARCHED
    ordered = sorted(actions, key=lambda a: -best.get(a.args[0], 0.0))  # stable: ties keep the engine's order
    return ordered[:keep]


def policy(state: NoctilucaState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """The rollout's move: each step of a dive picks the best whole dive still open; store in
    the jar nearest full; anything else (jars to keep, piles, deliveries) at random."""
    if rng.random() < EXPLORE:
        return rng.choice(actions)
    phase = state.phase
    pending = state.pending
    if phase in ("shore", "path", "number"):
        shores = [int(a.args[0]) for a in actions] if phase == "shore" else [pending["shore"]]
        paths = ("short", "long") if phase != "number" else (pending["path"],)
        values = dive_values(state, seat, shores, paths)
        best = max(values, key=lambda key: (values[key], rng.random()))
        word = {"shore": str(best[0]), "path": best[1], "number": str(best[2])}[phase]
        return next(a for a in actions if a.args[0] == word)
    if phase in ("store", "pass"):
        stores = [a for a in actions if a.args[0] != "none"]
        if stores:
            return min(stores, key=lambda a: (state.jar(seat, a.args[1])["dice"].count(None), rng.random()))
    return rng.choice(actions)


def jar_worth(state: NoctilucaState, jar: dict, favourite: str) -> float:
    """An undelivered jar's expected worth: what delivering it brings, times how full it is
    (squared: the last dice are the hardest to find), beyond the leftovers already counted. The
    jar cards are those of the game's rules version."""
    spec = state.jar_cards[jar["id"]]
    filled = sum(1 for d in jar["dice"] if d is not None)
    share = filled / len(spec.slots)
    delivered = TOKEN_WORTH + spec.points + sum(1.0 for c in spec.slots if c == favourite)
    return share * share * delivered - filled // 2


def scores(state: NoctilucaState) -> list[float] | None:
    """Each seat's score as it stands plus the expected worth of its jars in progress."""
    standing = state.standing()
    if standing is None:
        return None
    out = list(map(float, standing.scores))
    for seat in range(state.players):
        favourite = state.favourites[seat]
        out[seat] += sum(jar_worth(state, j, favourite) for j in state.jars[seat])
    return out


class NoctilucaKnowledge(Knowledge):
    """Dives where its jars fill; a position is worth the half-filled jars' expected worth too;
    the search weighs the dives that store most. Determinizing copies 84 dice: six steps."""

    game_id = "noctiluca"
    rollout_share = 0.5
    determinize_cost = 6

    def evaluate(self, state: State) -> list[float] | None:
        values = scores(cast(NoctilucaState, state))
        if values is None:
            return None
        players = len(values)
        if players == 1:
            return outcome_rewards(values, [0] if values[0] >= 1 else [], 1)
        best = max(values)
        return outcome_rewards(values, [s for s in range(players) if values[s] == best], players)

    def policy(self, state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
        return policy(cast(NoctilucaState, state), seat, actions, rng)

    def candidates(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        return candidates(cast(NoctilucaState, state), seat, actions)


KNOWLEDGE = NoctilucaKnowledge()
