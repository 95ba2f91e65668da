"""Every word on the Fox Duet's board and hands stays in its image and clear of the others, in every language.

Positions come from seeded random games of every level, with and without the memory aid, through
every phase to their end; then the outcomes random play never reaches (a win, a loss on time, a
concession) and the largest counts the game can show. Names are at their longest (see ``fits_common``).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from engine import GAMES
from tests.render.fits_common import LOCALES, Position, View, check, played, sample

LEVELS = (1, 2, 3)
MEMORY = ("off", "on")


def kind(public: dict[str, Any]) -> tuple[Any, ...]:
    """What changes the words: the phase, a trick under way, a last trick kept in view."""
    return (public.get("phase"), bool(public.get("trick_cards")), bool(public.get("last_trick")))


def at_most(public: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A copy of a public view with the game's largest counts: round 3, trick 11, 22 gems in one place."""
    bigger = copy.deepcopy(public)
    bigger.update(round=3, trick=11, gems_on_board=22, gems_collected=22, deck_size=7, hand_sizes=[11, 11])
    bigger["spaces"][0]["gems"] = 22
    bigger.update(changes)
    return bigger


def outcomes(views: list[tuple[View, list[View]]]) -> list[Position]:
    """The endings random play does not reach, at their largest numbers, and a concession played for real."""
    public, seats = views[-1]
    ended: list[Position] = []
    for label, result in (
        ("won", {"won": True, "score": 72}),
        ("lost on time", {"won": False, "reason": "time"}),
    ):
        bigger = {**public, "public": at_most(public["public"], phase="over", result=result)}
        ended.append((f"{label}, largest counts", bigger, [{**v, "public": bigger["public"]} for v in seats]))
    state = GAMES["fox-duet"].new(2, 5, {"level": 3})
    seat = state.to_move()[0]
    state.apply(seat, next(a for a in state.legal_actions(seat) if a.verb == "concede"))
    ended.append(("conceded", state.view(None), [state.view(s) for s in range(2)]))
    return ended


@cache
def positions() -> list[Position]:
    picked: list[Position] = []
    seen: set[Any] = set()
    last: list[tuple[View, list[View]]] = []
    for level in LEVELS:
        for memory in MEMORY:
            last = played("fox-duet", 2, 7 + level, {"level": level, "memory": memory})
            picked += sample(f"level {level}, memory {memory}", last, kind, spread=0, seen=seen)
    return picked + outcomes(last)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_word_fits_its_image(locale: str) -> None:
    problems = check(positions(), locale)
    assert not problems, "\n".join(problems[:20])


def test_the_positions_cover_every_phase() -> None:
    """The sample is only worth its check if it goes through every phase the status line words."""
    phases = {public["public"]["phase"] for _, public, _ in positions()}
    assert phases >= {"play", "fox-pick", "fox-swap", "gazelle", "direction", "gift", "forest", "over"}
