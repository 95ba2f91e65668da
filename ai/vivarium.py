"""Vivarium knowledge for the search: a rollout policy that takes cards.

Random rollouts spend about half their take steps on gem adjustments (each one an action of its
own) and the rest on any reachable card, so a rolled-out collection is mostly chance and every
position looks alike. The policy takes a card when one is reachable (``TAKE``), choosing by a
quick worth: a creature's points, an equipment card's gems, a contract's usual worth, a gem for
a card matching the round's priority icon, and a little noise so rollouts stay varied; it adjusts
or takes gems only otherwise, and plays every other step (swaps, abilities) at random.

Reads only the state it is given: in the search, a determinization.
"""

from __future__ import annotations

import random
from typing import Any, cast

from ai.knowledge import Knowledge
from engine import Action, State
from engine.vivarium.content import CARDS, PRIORITY
from engine.vivarium.grid import cell_index
from engine.vivarium.scoring import matches
from engine.vivarium.state import VivariumState


def own(state: State[Any, Any]) -> VivariumState:
    """``state`` as a VivariumState (for ai/knowledge.py, which dispatched on ``state.game.id``)."""
    return cast(VivariumState, state)


# Rollout steps of the take phase that take a reachable card, by worth (the rest: at random).
TAKE = 0.85
# A contract card's usual worth in points when taken (its goal is met about half the time).
CONTRACT_WORTH = 2.0
# Noise added to a card's worth, so rollouts from one position differ.
NOISE = 1.0


def worth(state: VivariumState, card_id: str) -> float:
    """A card's quick worth to whoever takes it now."""
    card = CARDS[card_id]
    if card.kind == "creature":
        value = float(card.points)
    elif card.kind == "equipment":
        value = card.gems + 1.0
    else:
        value = CONTRACT_WORTH
    icon = PRIORITY[state.priority_current].icon
    if icon is not None and matches(card_id, icon):
        value += 1.0
    return value


def policy(state: VivariumState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    if state.phase == "take" and rng.random() < TAKE:
        best: tuple[float, Action] | None = None
        for action in actions:
            if action.verb != "take":
                continue
            row, col = (int(word.split("=")[1]) for word in action.args)
            card_id = state.grid[cell_index(row, col)]
            if card_id is None:
                continue
            key = worth(state, card_id) + NOISE * rng.random()
            if best is None or key > best[0]:
                best = (key, action)
        if best is not None:
            return best[1]
    return rng.choice(actions)


class VivariumKnowledge(Knowledge):
    """Takes the reachable card worth most; positions valued by the margin (after a short rollout
    "who leads" flips on a point and says little, while the margin is what the moves changed)."""

    game_id = "vivarium"
    rollout_share = 0.25
    margin_scale = 4.0

    def policy(self, state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
        return policy(cast(VivariumState, state), seat, actions, rng)


KNOWLEDGE = VivariumKnowledge()
