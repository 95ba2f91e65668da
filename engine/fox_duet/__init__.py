"""The Fox in the Forest Duet: a co-operative trick-taking game for 2 players.

Rules as implemented: docs/rules/fox-duet.md. The view's shape: docs/fox-duet-view.md.
"""

from __future__ import annotations

from engine.core import Game, Options, OptionSpec, Saved
from engine.facts import Challenge, GameFacts
from engine.fox_duet.state import FoxDuetState
from engine.fox_duet.views import CardView, FoxDuetPrivate, FoxDuetPublic

__all__ = ["CardView", "FoxDuet", "FoxDuetPrivate", "FoxDuetPublic", "FoxDuetState"]


class FoxDuet(Game):
    id = "fox-duet"
    title = "The Fox in the Forest Duet"
    min_players = 2
    max_players = 2
    # Playing a card, trading one onto the decree or dealing shows cards; a gift is secret.
    revealing_events = frozenset(
        {"starting player", "deal", "card played", "decree swapped", "gift chosen", "gift exchanged", "round ended"}
    )

    # Conceding loses the game for the team (docs/rules/fox-duet.md).
    action_kinds = {"concede": "concede"}
    # Co-operative: scored, never rated; a duplicate team is the pair; each level a weekly challenge.
    facts = GameFacts(
        co_operative=True,
        rating="scores",
        duplicate_size=2,
        challenge=tuple(Challenge(f"fox-duet-{n}", 2, f"Fox Duet, level {n}", {"level": n}) for n in (1, 2, 3)),
    )

    # Version 2 (docs/rules/fox-duet.md, "Rules versions"): 「每輪遊戲進行時，玩家無法查看先前牌墩」
    # (during a round players may not look at earlier tricks), unless the table's "memory aid"
    # option is on. Version 1 games keep showing the last trick, as they were played.
    rules_version = 2
    rules_versions = (1, 2)

    def options(self) -> dict[str, OptionSpec]:
        return {"level": {"choices": [1, 2, 3], "default": 1}, "memory": {"choices": ["off", "on"], "default": "off"}}

    def _new(self, players: int, seed: int, options: Options, rules_version: int) -> FoxDuetState:
        level = options["level"]
        state = FoxDuetState(self)
        state.rules_version = rules_version
        state.memory_aid = rules_version < 2 or options.get("memory") == "on"
        state.setup(level, seed)
        return state

    def _load(self, data: Saved) -> FoxDuetState:
        from engine.fox_duet.persist import state_from_dict

        return state_from_dict(self, data)
