"""A computer's whole turn, decided at once: every sub-step of it, back to back.

A turn is the run of decisions the seat makes while it stays to move (Noctiluca's shore, path,
number and stores; a TM dice turn's rolls, keeps and actions). ``play_turn`` decides them in
order on a copy of the position, each one as ``ismcts.choose`` would with that position's own
seed (``move_seed``), and applies it before deciding the next, so the moves are the ones the
seat would make one by one, and the caller plays them through the service in a row.

Between two sub-steps the search goes on from the subtree of the move just made, rather than
growing a new tree from nothing, when that move told the seat nothing it could not already
know: no die rolled, no card drawn or revealed. Then the subtree is exactly the search of the
new decision so far (its iterations were determinizations of the seat's information, all of
which the move leaves possible) and the new decision gets its level's whole budget counting
those iterations: the same search for less work. Whether a move revealed something is read by
making it in two determinizations as well: if the seat's view after it is the same in both as
in the real position, nothing hidden or random came out of it. Everything read is the seat's own
view and determinizations of it: the turn is as honest as one decision.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace

from ai import knowledge
from ai.ismcts import LEVELS, Level, Node, random_choice, weigh
from engine import Action, State

# At most this many moves in one turn: a game whose turn would be longer hands the rest to the
# next call (the computers' player asks again while the seat is still to move).
TURN_LIMIT = 60
# Determinizations a move is tried in before its subtree is reused (see the module's docstring).
PROBES = 2
# A whole turn's search is at most ``Knowledge.turn_budgets`` of its level's budgets, where a turn
# can hold many searched decisions (TM dice, ai/tm_dice.py): a decision searches at most what is
# left of the turn's budgets, and never less than this share of one.
LEAST_SHARE = 0.2


def budget_left(level: Level, game: str, spent: int) -> Level:
    """The level a turn's next decision searches at, after ``spent`` steps of that turn."""
    budgets = knowledge.knowledge_of(game).turn_budgets
    if budgets is None:
        return level
    steps = max(int(level.steps * LEAST_SHARE), min(level.steps, int(budgets * level.steps) - spent))
    return level if steps == level.steps else replace(level, steps=steps)


def move_seed(game_seed: int, version: int, seat: int) -> int:
    """The search's seed for a computer move: the same position gives the same move."""
    return int.from_bytes(hashlib.sha256(f"{game_seed}:{version}:{seat}".encode()).digest()[:8], "big") >> 1


def reveals(state: State, seat: int, action: Action, seed: int) -> bool:
    """Whether ``seat``'s ``action`` in ``state`` shows the seat anything it could not know: its
    view after the move differs between the real position and determinizations of it."""
    after = state.game.load(state.to_dict())
    after.apply_known(seat, action)
    seen = after.view(seat)
    for probe in range(PROBES):
        world = state.determinize(seat, seed + probe + 1)
        world.apply_known(seat, action)
        if world.view(seat) != seen:
            return True
    return False


def play_turn(
    state: State,
    seat: int,
    level: str | Level,
    game_seed: int,
    limit: int = TURN_LIMIT,
    stop: Callable[[], bool] | None = None,
) -> list[Action]:
    """The moves of ``seat``'s turn from ``state`` (``state`` is left alone): decided and applied
    one after the other while the seat stays to move and the game goes on. ``stop``: the
    search's (``ismcts.search``): it may end the turn's search (``Abandoned``), never change it."""
    if seat not in state.to_move():
        raise ValueError(f"seat {seat} is not to move")
    world = state.game.load(state.to_dict())
    moves: list[Action] = []
    tree: Node | None = None
    spent = 0  # engine steps this turn's searches spent
    while len(moves) < limit and world.outcome() is None and seat in world.to_move():
        seed = move_seed(game_seed, world.version, seat)
        if level == "random":
            action, root = random_choice(world, seat, seed), None
        else:
            full = LEVELS[level] if isinstance(level, str) else level
            carried = tree.steps if tree is not None else 0
            action, root = weigh(world, seat, budget_left(full, world.game.id, spent), seed, tree, stop)
            spent += root.steps - carried if root is not None else 0
        child = root.children.get(action.text) if root is not None else None
        # Carried on only where its children are the seat's own next moves, with nothing revealed.
        carry = (
            child is not None
            and bool(child.children)
            and knowledge.tree_depth(world) is None
            and not reveals(world, seat, action, seed)
        )
        world.apply(seat, action)
        moves.append(action)
        tree = child if carry and world.to_move() == [seat] else None
    return moves
