"""Every word on Noctiluca's board and hands stays in its image and off other words, in every language.

Positions are sampled from seeded random games of every player count (the first position of every
phase met, a few more, and the final board), drawn with the longest names we allow (20 wide Latin
letters, accented letters, a long Chinese name); every other board has its counts pushed to the
largest the game reaches (so real counts, singular forms included, and the widest numbers are both
drawn, at one board per position to keep the test quick).
"""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

import pytest

import l10n
from engine import GAMES
from render.noctiluca import board, hand
from tests.render.fits_common import LOCALES
from tests.render.text_bounds import overflows, recorded_text

NAMES = ["MWMWMWMWMWMWMWMWMWMW", "ÁÉÍÓÚÂÊÔÃÕÇÀÜÖÄËÏÑŸÅ", "阿里巴巴與四十大盜的故事很長的名字", "WWWWWWWWWWWWWWWWWWWW"]
SEED = 3
PER_GAME = 10  # positions drawn per game: the first of every phase and the final board, then others


@cache
def positions(players: int) -> list[list[dict[str, Any]]]:
    """Views (the public one, then one per seat) of positions of random games, every phase included."""
    game = GAMES["noctiluca"]
    out: list[list[dict[str, Any]]] = []
    for seed in (SEED,):
        state = game.new(players, seed)
        rng = random.Random(seed)
        seen: list[list[dict[str, Any]]] = []
        firsts: dict[str, int] = {}  # phase -> index of its first position
        while True:
            seen.append([state.view(None), *(state.view(seat) for seat in range(players))])
            firsts.setdefault(state.phase, len(seen) - 1)
            if state.outcome() is not None:
                break
            seat = rng.choice(state.to_move())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        chosen = set(firsts.values()) | {len(seen) - 1}
        rest = sorted(set(range(len(seen))) - chosen)
        chosen |= set(rng.sample(rest, min(len(rest), max(0, PER_GAME - len(chosen)))))
        out += [seen[i] for i in sorted(chosen)]
    return out


def at_largest(public: dict[str, Any]) -> dict[str, Any]:
    """The same position with every count drawn as a number pushed to the largest the game reaches."""
    big = copy.deepcopy(public)
    big["lid_total"] = 104  # every die in the box lid
    big["deck_size"] = 30 if big["deck_size"] else 0
    for pile in big["piles"]:
        pile["size"] = 8
    if big.get("storm"):
        big["storm"]["dice"] = big["storm"]["dice"] * 6 or big["storm"]["dice"]
    if big.get("result"):
        big["result"]["scores"] = [-188 if big["solo"] else 188 for _ in big["result"]["scores"]]
    return big


def check(records: list, what: str) -> None:
    problems = overflows(records)
    assert not problems, f"{what}: " + "; ".join(problems[:5])


def test_the_catalogue_is_read_in_every_locale() -> None:
    """Without it the test below would only draw English three times."""
    words = {l10n.t("noctiluca.render.storm", locale) for locale in LOCALES}
    assert len(words) == len(LOCALES)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("locale", LOCALES)
def test_no_word_leaves_its_image_or_runs_into_another(locale: str, players: int) -> None:
    names = NAMES[:players]
    for i, views in enumerate(positions(players)):
        public = views[0]["public"]
        with recorded_text() as records:
            board(at_largest(public) if i % 2 else public, names, locale=locale)
        check(records, f"board {i} ({public['phase']})")
        for seat, view in enumerate(views[1:]):
            with recorded_text() as records:
                hand(view["public"], view["private"], names, seat, locale=locale)
            check(records, f"hand of seat {seat} at {i} ({public['phase']})")
