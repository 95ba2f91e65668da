"""What the "text fits" tests share: the locales, names at their longest, sampled positions, the check.

A position is every seat's view after some steps of a seeded random game; the tests draw the board
and every hand of a sample of them (the first of each kind the game goes through, a spread of the
others, and the last) in every locale, and ``tests/render/text_bounds.py`` watches the words.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from engine import GAMES
from tests.render.text_bounds import overflows, recorded_text

LOCALES = ("en", "zh-TW", "pt-BR")

# Names at their longest: 20 Latin letters, 10+ CJK characters, accents (a seat name is cut at 20).
NAMES = (
    ("Bartholomew Quincyxz", "Wolfgang Maximiliann", "Christopher Jonathan", "Alexandrina Victoria"),
    ("長長的名字測試一二三四", "王小明同學的帳號名稱", "陳大文先生的遊戲帳號", "林美麗小姐的遊戲名稱"),
    ("Ægir Þórðarsonéèêñü", "Joaquim da Conceição", "Maria Antônia Sá Góe", "Ünïcødé Åçcéñtš Ōkü"),
)

View = dict[str, Any]
Position = tuple[str, View, list[View]]  # a label, the public view, every seat's view


def played(
    game_id: str,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    prefer: Callable[[str], bool] = lambda verb: True,
    rules_version: int | None = None,
) -> list[tuple[View, list[View]]]:
    """Every position of a seeded random game, from the set-up to its end (concessions left out).

    ``prefer(verb)`` picks the actions tried first (three times in four), so that collections fill up.
    """
    state = GAMES[game_id].new(players, seed, options, rules_version)
    rng = random.Random(seed)
    views = [(state.view(None), [state.view(s) for s in range(players)])]
    while state.outcome() is None:
        seat = state.to_move()[0]
        actions = [a for a in state.legal_actions(seat) if a.verb not in ("concede", "resign")]
        liked = [a for a in actions if prefer(a.verb)]
        state.apply(seat, rng.choice(liked if liked and rng.random() < 0.75 else actions))
        views.append((state.view(None), [state.view(s) for s in range(players)]))
    return views


def sample(
    label: str,
    views: Sequence[tuple[View, list[View]]],
    kind: Callable[[View], Hashable],
    spread: int,
    seen: set[Hashable] | None = None,
) -> list[Position]:
    """The first position of each ``kind`` (not in ``seen`` yet), ``spread`` more evenly spaced, and the last."""
    picked: dict[int, str] = {}
    seen = set() if seen is None else seen
    for i, (view, _) in enumerate(views):
        key = kind(view["public"])
        if key not in seen:
            seen.add(key)
            picked[i] = f"{label} step {i} ({key})"
    for k in range(1, spread + 1):
        i = k * (len(views) - 1) // (spread + 1)
        picked.setdefault(i, f"{label} step {i}")
    picked[len(views) - 1] = f"{label} final"
    return [(picked[i], views[i][0], views[i][1]) for i in sorted(picked)]


def check(positions: Sequence[Position], locale: str) -> list[str]:
    """Draw the board and every seat's hand of each position in ``locale``; list the words that overflow."""
    from render import RENDERERS

    problems: list[str] = []
    for n, (label, public_view, seats) in enumerate(positions):
        renderer = RENDERERS[public_view["public"]["game"]]
        names = list(NAMES[n % len(NAMES)][: len(seats)])
        with recorded_text() as records:
            renderer.board(public_view["public"], names, locale=locale)
        problems += [f"{locale} {label} board: {p}" for p in overflows(records)]
        for seat, view in enumerate(seats):
            with recorded_text() as records:
                renderer.hand(view["public"], view["private"], names, seat, locale=locale)
            problems += [f"{locale} {label} hand of seat {seat}: {p}" for p in overflows(records)]
    return problems
