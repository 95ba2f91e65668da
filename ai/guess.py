"""A person's likely turns: which positions are worth searching a computer's answer for ahead.

While a person is to move and a computer moves right after them, the bot searches that computer's
turn in a few of the positions the person's turn will likely lead to (services/computer_turns.py). The
guess only picks those positions: a computer's turn is played from a search ahead only when the
person's real moves lead to exactly the position searched, so a poor guess costs a search, never
a different decision. It is a quick search from the person's own seat (their view, as a player
would weigh it): the first move's most weighed options, each played on by the search's own
choice for as long as the person stays to move.
"""

from __future__ import annotations

from collections.abc import Callable

from ai.ismcts import Level, weigh
from ai.turn_budgets import TURN_LIMIT
from engine import Action, State

# A tenth of a hard search: enough to rank a person's sensible moves above the rest, cheap
# beside the computer's own search it chooses the positions of.
GUESS = Level("guess", steps=1000, rollout_steps=20, default=True)


def likely_turns(
    state: State,
    seat: int,
    count: int,
    seed: int,
    level: Level = GUESS,
    stop: Callable[[], bool] | None = None,
) -> list[list[Action]]:
    """Up to ``count`` different whole turns ``seat`` may play from ``state`` (left alone),
    likeliest first: each a run of moves that ends when the seat is no longer to move (or the
    game ends)."""
    if seat not in state.to_move() or count < 1:
        return []
    action, root = weigh(state, seat, level, seed, stop=stop)
    firsts = [action]
    if root is not None:
        legal = {a.text: a for a in state.legal_actions(seat)}
        ranked = sorted(
            (text for text in root.children if text in legal and text != action.text),
            key=lambda text: (-root.children[text].visits, -root.children[text].total),
        )
        firsts += [legal[text] for text in ranked[: count - 1]]
    turns: list[list[Action]] = []
    for first in firsts:
        world = state.game.load(state.to_dict())
        world.apply(seat, first)
        moves = [first]
        while len(moves) < TURN_LIMIT and world.outcome() is None and world.to_move() == [seat]:
            move, _ = weigh(world, seat, level, seed + len(moves), stop=stop)
            world.apply(seat, move)
            moves.append(move)
        turns.append(moves)
    return turns
