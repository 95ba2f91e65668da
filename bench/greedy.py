"""Simple greedy players, the opponents the computer players are measured against (bench/ai.py).

- Noctiluca: the test suite's diver (tests/engine/test_noctiluca_simulation.py): dive where the
  most dice fit your jars, store in the jar nearest full.
- Terraforming Mars: The Dice Game: the test suite's goal-seeking player (ai/tm_dice.py, which
  the tests import through tests/support/tm_dice_policy.py).
- Vivarium (the suite has none): the move after which the seat's score as it stands leads the
  best other score by the most, looking one move of the same turn further (a swap or a gem
  adjustment scores nothing by itself, the card it lets the seat take does). It reads copies
  determinized from its own seat, so it sees nothing hidden.
- Fox Duet is co-operative: a greedy opponent means nothing there (two computers play as one
  team); its measures are the team's win rates per level.
"""

from __future__ import annotations

import random

from ai.ismcts import playable
from engine import Action, State

GREEDY_GAMES = ("noctiluca", "tm-dice", "vivarium")


def greedy(game: str, state: State, seat: int, rng: random.Random) -> Action:
    if game == "noctiluca":
        from tests.engine.test_noctiluca_simulation import greedy as diver

        return diver(state, seat, rng)
    if game == "tm-dice":
        from ai.tm_dice import choose as goal_seeker

        actions = playable(state, seat)
        text = goal_seeker(state, seat, [a.text for a in actions], rng)
        return next(a for a in actions if a.text == text)
    if game == "vivarium":
        return lookahead(state, seat, rng)
    raise SystemExit(f"no greedy player for {game} (co-operative games have none)")


def margin(state: State, seat: int) -> float:
    outcome = state.outcome() or state.standing()
    if outcome is None:
        return 0.0
    scores = outcome.scores
    others = [scores[s] for s in range(len(scores)) if s != seat]
    return scores[seat] - max(others, default=0)


def lookahead(state: State, seat: int, rng: random.Random) -> Action:
    """The action whose best follow-up in the same turn leaves the seat furthest ahead."""
    seed = rng.getrandbits(63)
    best: tuple[float, float] | None = None
    chosen = None
    for action in playable(state, seat):
        world = state.determinize(seat, seed)
        world.apply(seat, action)
        value = margin(world, seat)
        if world.outcome() is None and world.to_move() == [seat]:
            for follow in playable(world, seat):
                after = world.determinize(seat, seed)
                after.apply(seat, follow)
                value = max(value, margin(after, seat))
        key = (value, rng.random())
        if best is None or key > best:
            best, chosen = key, action
    assert chosen is not None
    return chosen
