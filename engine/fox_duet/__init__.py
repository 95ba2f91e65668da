"""The Fox in the Forest Duet: a co-operative trick-taking game for 2 players.

Rules as implemented: docs/rules/fox-duet.md. The view's shape: docs/fox-duet-view.md.
"""

from __future__ import annotations

from engine.core import Game
from engine.fox_duet.state import FoxDuetState

__all__ = ["FoxDuet", "FoxDuetState"]


class FoxDuet(Game):
    id = "fox-duet"
    title = "The Fox in the Forest Duet"
    min_players = 2
    max_players = 2
    # Playing a card, trading one onto the decree or dealing shows cards; a gift is secret.
    revealing_events = frozenset(
        {"starting player", "deal", "card played", "decree swapped", "gift chosen", "gift exchanged", "round ended"}
    )

    def options(self) -> dict[str, dict]:
        return {"level": {"choices": [1, 2, 3], "default": 1}}

    def new(self, players: int, seed: int, options: dict | None = None) -> FoxDuetState:
        self.check_players(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("the seed must be an integer")
        level = self.resolve_options(options)["level"]
        state = FoxDuetState(self)
        state.setup(level, seed)
        return state

    def load(self, data: dict) -> FoxDuetState:
        from engine.fox_duet.persist import state_from_dict

        self.check_header(data)
        try:
            return state_from_dict(self, data)
        except ValueError:
            raise
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"this saved state is damaged: {type(exc).__name__}: {exc}") from exc
