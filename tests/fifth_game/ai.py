"""What a computer knows of Tiny Duel beyond the contract: win a trick as cheaply as it can."""

from __future__ import annotations

import random

from ai.knowledge import Knowledge
from engine import Action, State
from tests.fifth_game.engine import GAME_ID, value_of


class TinyDuelKnowledge(Knowledge):
    game_id = GAME_ID

    def policy(self, state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
        """Answering: the lowest card that wins the trick, else the lowest card; leading: at random."""
        trick = state.view(None)["public"]["trick"]
        if not trick:
            return rng.choice(actions)
        led = value_of(trick[0]["card"])
        by_value = sorted(actions, key=lambda a: value_of(a.args[0]))
        return next((a for a in by_value if value_of(a.args[0]) > led), by_value[0])
