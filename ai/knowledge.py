"""Per-game knowledge for the search, where the engine contract alone gives too little signal.

Fox Duet is co-operative and cannot be scored half played (``State.standing`` is None), and
random play loses almost every game, so a rollout played to the end says nothing about the
moves that led there. Its evaluation of an unfinished position reads the public view: the
share of the gems collected, and the forest tokens still left (each one a later chance).
Rollouts there are kept short, so the evaluation reflects the moves searched, not the random
tail.
"""

from __future__ import annotations

from engine import State

# Rollout length per game, as a share of the level's (the default is the level's own).
ROLLOUT_SHARE = {"fox-duet": 0.3}


def evaluate(state: State) -> list[float] | None:
    """Each seat's value in [0, 0.6] of a position nobody can score yet; None if unknown."""
    if state.game.id != "fox-duet":
        return None
    public = state.view(None)["public"]
    collected = public["gems_collected"]
    on_board = public["gems_on_board"]
    progress = collected / (collected + on_board) if collected + on_board else 1.0
    total = public["forest_tokens_total"] or 1
    forest = public["forest_tokens_left"] / total
    value = 0.45 * progress + 0.15 * forest
    return [value, value]


def rollout_steps(state: State, steps: int) -> int:
    return max(4, round(steps * ROLLOUT_SHARE.get(state.game.id, 1.0)))
