"""Terraforming Mars: The Dice Game (fan adaptation with our own content), 1 to 4 players.

Rules as implemented and every adaptation choice: docs/rules/tm-dice.md.
"""

from __future__ import annotations

from engine.core import Game
from engine.tm_dice.state import TMDiceState

__all__ = ["TMDice", "TMDiceState"]


class TMDice(Game):
    id = "tm-dice"
    title = "Terraforming Mars: The Dice Game"
    min_players = 1
    max_players = 4

    def new(self, players: int, seed: int, options: dict | None = None) -> TMDiceState:
        self.check_players(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("the seed must be an integer")
        self.resolve_options(options)
        state = TMDiceState(self, players)
        state.setup(seed)
        return state

    def load(self, data: dict) -> TMDiceState:
        from engine.tm_dice.persist import state_from_dict

        self.check_header(data)
        try:
            return state_from_dict(self, data)
        except ValueError:
            raise
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"this saved state is damaged: {type(exc).__name__}: {exc}") from exc
