"""No name is cut in any picture: boards and hands of every game, in every language, with names at their longest.

The longest name a picture shows is ``render.common.MAX_NAME_CHARS`` wide (20 Latin letters; a CJK
character or an emoji counts two): ``seat_name`` shortens anything longer, once, with "…". Every
name below is at that limit (or is a computer's name in that language), and every text the
renderers cut to fit (``ellipsize``, ``shorten``) is watched: none may be a text holding a name.
A text too long for its place shrinks, wraps or moves to a line of its own instead.
"""

from __future__ import annotations

import copy
import sys
import traceback
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import render
import render.common
from l10n import content_name, t
from render import RENDERERS
from render.common import MAX_NAME_CHARS
from render.fonts import GRAPHEME, columns
from tests.render.fits_common import LOCALES, Position, played, sample

COMPUTER = {loc: t("computer.name", loc, number=2, level=t("computer.level.normal", loc)) for loc in LOCALES}
NAMES = {
    "en": ["Bartholomew Quincyxz", COMPUTER["en"], "🦊🦊Zoë Ana Lú🦊🦊", "WWWWWWWWWWWWWWWWWWWW"],
    "zh-TW": ["長長的名字測試一二三", COMPUTER["zh-TW"], "🦊小明🦊王大明🦊🦊", "陳大文先生的遊戲帳號"],
    "pt-BR": ["Joaquim da Conceição", COMPUTER["pt-BR"], "Maria Antônia Sá Góe", "ÁÉÍÓÚÂÊÔÃÕÇÀÜÖÄËÏÑŸÅ"],
}
PLAYER_COUNTS = {"fox-duet": (2,), "noctiluca": (2, 4), "vivarium": (2, 4), "tm-dice": (2, 4)}


def width(name: str) -> int:
    return sum(columns(c) for c in GRAPHEME.findall(name))


def test_the_names_are_at_the_longest_a_picture_shows() -> None:
    for names in NAMES.values():
        assert all(width(n) <= MAX_NAME_CHARS for n in names)
        assert max(width(n) for n in names) == MAX_NAME_CHARS


def kind(public: dict[str, Any]) -> Hashable:
    return (public.get("players"), public.get("phase"), public.get("stage"), bool(public.get("result")))


@cache
def positions(game_id: str) -> list[Position]:
    picked: list[Position] = []
    seen: set[Hashable] = set()
    for players in PLAYER_COUNTS[game_id]:
        picked += sample(f"{players}p", played(game_id, players, players + 20), kind, spread=1, seen=seen)
    return picked


def holds_name(text: str, name: str) -> bool:
    """A cut text holds a name: the name is in it, or it is a line of a wrapped name ("Bartholomew")."""
    return name in text or (len(text.strip()) >= 3 and text.strip() in name)


# The longest lists a player's panel shows, filled with the longest names of the locale: Vivarium's
# contracts (more than any seeded game gave a player), TM dice's played cards (every blue card, a long
# production), at every player count (four players have the smallest panels).
CROWDED_CONTRACTS = 10
CROWDED_BLUES = 9


def longest(names: dict[str, str], count: int) -> list[str]:
    """The ids of the ``count`` longest names (drawn width in columns), longest first."""
    return sorted(names, key=lambda key: -width(names[key]))[:count]


def crowded_vivarium(public: dict[str, Any], locale: str) -> dict[str, Any]:
    """``public`` with every player holding the contracts of the longest names, far along."""
    from engine.vivarium.content import CARDS, shared_card_view
    from render.vivarium.card_pictures import name_of

    contracts = {c: name_of(shared_card_view(c), locale, "contract") for c, card in CARDS.items()}
    contracts = {c: name for c, name in contracts.items() if CARDS[c].kind == "contract"}
    crowded = copy.deepcopy(public)
    for k, player in enumerate(crowded["players_info"]):
        ids = longest(contracts, CROWDED_CONTRACTS + k)[k:]
        player["contracts"] = [
            {**shared_card_view(c), "progress": {"have": 12 + i, "points": 10 * (i % 2)}} for i, c in enumerate(ids)
        ]
    return crowded


def crowded_tm_dice(public: dict[str, Any], locale: str) -> dict[str, Any]:
    """``public`` with every player holding every kind of card, the blue ones of the longest names, and dice."""
    from engine.tm_dice.content import BONUS_CARDS, CARDS
    from render.tm_dice import card_name

    blues = {c: card_name(c, locale) for c, card in CARDS.items() if card.colour == "blue"}
    reds = [c for c, card in CARDS.items() if card.colour == "red"]
    greens = [c for c, card in CARDS.items() if card.colour == "green"]
    bonus = {b: content_name("tm-dice", "bonus", b, card["name"], locale) for b, card in BONUS_CARDS.items()}
    crowded = copy.deepcopy(public)
    for k, seat in enumerate(crowded["seats"]):
        seat["blue"] = longest(blues, CROWDED_BLUES + k)[k:]
        seat["used"] = seat["blue"][::2]
        seat["red"], seat["green"] = reds[:14], greens[:14]
        seat["bonus"] = [BONUS_CARDS[b] for b in longest(bonus, 3)]
        seat["production"] = ["yellow", "green", "gray", "blue", "red"] * 4
        seat["dice"] = {"plant": 2, "heat": 2, "water": 1, "titanium": 2, "science": 1}
        seat["award_counts"] = [19] * len(seat["award_counts"])
    return crowded


CROWDED = {"vivarium": crowded_vivarium, "tm-dice": crowded_tm_dice}


@contextmanager
def cuts() -> Iterator[list[tuple[str, set[tuple[str, str]]]]]:
    """Every text a renderer cut while the block ran (the text before its cut), with the functions drawing it."""
    cut: list[tuple[str, set[tuple[str, str]]]] = []
    original_ellipsize, original_shorten = render.common.ellipsize, render.common.shorten

    def where() -> set[tuple[str, str]]:
        return {(Path(f.filename).name, f.name) for f in traceback.extract_stack() if "/render/" in f.filename}

    def ellipsize(text: str, fnt: Any, max_width: float) -> str:
        shown = original_ellipsize(text, fnt, max_width)
        if shown != text:
            cut.append((text, where()))
        return shown

    def shorten(text: str, max_columns: int) -> str:
        shown = original_shorten(text, max_columns)
        if shown != text:
            cut.append((text, where()))
        return shown

    modules = [m for name, m in list(sys.modules.items()) if name.startswith("render") and hasattr(m, "ellipsize")]
    saved = {m: m.ellipsize for m in modules}
    for m in modules:
        m.ellipsize = ellipsize
    render.common.shorten = shorten
    try:
        yield cut
    finally:
        for m, function in saved.items():
            m.ellipsize = function
        render.common.shorten = original_shorten


@cache
def cut_while_drawing(game_id: str, locale: str) -> list[tuple[str, str, frozenset[tuple[str, str]]]]:
    """Every cut made drawing the board and the hands of the sampled positions (and, for the games with long
    lists, their boards with the lists at their longest), with the names used."""
    found = []
    for label, public, seats in positions(game_id):
        names = NAMES[locale][: len(seats)]
        with cuts() as cut:
            RENDERERS[game_id].board(public["public"], names, locale=locale)
            for seat, view in enumerate(seats):
                RENDERERS[game_id].hand(view["public"], view["private"], names, seat, locale=locale)
            if game_id in CROWDED and not public["public"].get("result"):
                RENDERERS[game_id].board(CROWDED[game_id](public["public"], locale), names, locale=locale)
        found += [(label, text, frozenset(frames)) for text, frames in cut]
    return found


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", sorted(PLAYER_COUNTS))
def test_no_name_is_cut(game_id: str, locale: str) -> None:
    names = NAMES[locale]
    problems = [
        f"{label}: {text!r}"
        for label, text, _ in cut_while_drawing(game_id, locale)
        if any(holds_name(text, name) for name in names)
    ]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", sorted(PLAYER_COUNTS))
def test_no_label_is_cut(game_id: str, locale: str) -> None:
    """A label shrinks or wraps in its place, and so does a list (contracts, played cards) at its longest."""
    problems = [f"{label}: {text!r}" for label, text, _ in cut_while_drawing(game_id, locale)]
    assert not problems, "\n".join(problems[:20])


def test_the_crowded_lists_are_long() -> None:
    """The crowded panels hold more than a seeded game gives a player, so they test the lists at their longest."""
    _, public, _ = positions("vivarium")[-2]
    players = crowded_vivarium(public["public"], "pt-BR")["players_info"]
    assert all(len(p["contracts"]) == CROWDED_CONTRACTS for p in players)
    _, public, _ = positions("tm-dice")[-2]
    seats = crowded_tm_dice(public["public"], "pt-BR")["seats"]
    assert all(len(s["blue"]) == CROWDED_BLUES and len(s["production"]) == 20 for s in seats)


def test_the_watch_sees_a_cut() -> None:
    """A name longer than the limit is cut by ``seat_name``: the watch above must see it."""
    with cuts() as cut:
        render.common.seat_name(["x" * 40], 0)
    assert [text for text, _ in cut] == ["x" * 40]
