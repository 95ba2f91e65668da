"""Every word on Vivarium's board and hands stays in its image and clear of the others, in every language.

Positions come from seeded random games of 2, 3 and 4 players (and of the first rules version, whose
equipment differs), through every step of a turn to the final scores; then the largest counts a
player can show (every gem, every creature kind, every priority token, contracts beyond their room).
Names are at their longest (see ``fits_common``).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from engine.vivarium.content import CARDS, card_view, priority_view
from tests.render.fits_common import LOCALES, Position, View, check, played, sample

GAMES_PLAYED = ((2, None), (3, None), (4, None), (2, 1))  # (players, rules version: None is the newest)
PRIORITY_TOKENS = [priority_view(t) for t in ("p-dragon", "p-swamp", "p-animal", "p-forest", "p-plant", "p-desert")]


def kind(public: dict[str, Any]) -> tuple[Any, ...]:
    """What changes the words: the player count (the panels' height) and the step of the turn."""
    return (len(public.get("players_info", [])), public.get("phase"))


def at_most(public: dict[str, Any]) -> dict[str, Any]:
    """A copy of a public view where every player shows the game's largest counts."""
    contracts = [card_view(c.id) for c in CARDS.values() if c.kind == "contract"][:8]
    creatures = [card_view(c.id) for c in CARDS.values() if c.kind == "creature"][:14]
    equipment = [card_view(c.id) for c in CARDS.values() if c.kind == "equipment"][:7]
    bigger = copy.deepcopy(public)
    for player in bigger["players_info"]:
        player.update(gems=40, creature_points=42, priority=PRIORITY_TOKENS)
        player["counts"] = {group: dict.fromkeys(values, 14) for group, values in player["counts"].items()}
        player["contracts"] = [{**c, "progress": {"have": 14, "points": 9}} for c in contracts]
        player["collection"] = creatures + equipment
    result = bigger.get("result")
    if result:
        result["scores"] = [150] * len(bigger["players_info"])
        result["details"] = [dict.fromkeys(d, 88) for d in result["details"]]
    return bigger


def largest(label: str, view: tuple[View, list[View]]) -> Position:
    public, seats = view
    bigger = {**public, "public": at_most(public["public"])}
    hands = []
    for v in seats:
        private = copy.deepcopy(v["private"])
        for contract in private.get("contracts", []):
            contract["progress"] = {"have": 14, "points": 10}
        hands.append({"public": bigger["public"], "private": private})
    return (f"{label}, largest counts", bigger, hands)


@cache
def positions() -> list[Position]:
    picked: list[Position] = []
    seen: set[Any] = set()
    for players, version in GAMES_PLAYED:
        views = played("vivarium", players, players, prefer=lambda verb: verb == "take", rules_version=version)
        label = f"{players} players" + (f", rules version {version}" if version else "")
        picked += sample(label, views, kind, spread=1, seen=seen)
        if version is None and players in (2, 4):
            picked += [largest(f"{label} mid-game", views[len(views) // 2]), largest(f"{label} final", views[-1])]
    return picked


@pytest.mark.parametrize("locale", LOCALES)
def test_every_word_fits_its_image(locale: str) -> None:
    problems = check(positions(), locale)
    assert not problems, "\n".join(problems[:20])


def test_the_positions_cover_every_step_and_player_count() -> None:
    """The sample is only worth its check if it shows every step of a turn at every player count."""
    shown = {kind(public["public"]) for _, public, _ in positions()}
    assert shown >= {(n, phase) for n in (2, 3, 4) for phase in ("swap", "take", "over")}
    assert any(phase == "ability" for _, phase in shown)
