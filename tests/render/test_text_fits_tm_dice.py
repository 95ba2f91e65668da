"""Every word on Terraforming Mars dice' board and hands stays in its image and off other words, in
every language.

Positions are sampled from seeded random games of every player count (the corporation choice,
points spread over the game, the first turn once the end is announced, the final board), drawn
with the longest names we allow (20 wide Latin letters, accented letters, a long Chinese name).
Every other board has its counts pushed to the largest the game reaches, so real counts (singular
forms included) and the widest numbers are both drawn. The header names what the player to act is
doing: the sampled boards take the step kinds in turn, and the header alone is drawn at every kind.
"""

from __future__ import annotations

import copy
import itertools
import random
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageDraw

import l10n
from engine import GAMES
from render.tm_dice import RIGHT_X0, STEP_WORDS, H, W, board, draw_header, hand
from tests.render.fits_common import LOCALES
from tests.render.text_bounds import overflows, recorded_text

NAMES = ["MWMWMWMWMWMWMWMWMWMW", "ÁÉÍÓÚÂÊÔÃÕÇÀÜÖÄËÏÑŸÅ", "阿里巴巴與四十大盜的故事很長的名字", "WWWWWWWWWWWWWWWWWWWW"]
SEED = 3
SPREAD = (0.3, 0.6, 0.9)  # where in the game, besides the start, the end's announcement and the end


@cache
def positions(players: int) -> list[list[dict[str, Any]]]:
    """Views (the public one, then one per seat) of positions of one random game: its length and
    when its end is announced (multiplayer: the second parameter done) are found in a first run."""
    length, announced = 0, None
    for run in ("measure", "collect"):
        if run == "collect":
            chosen = {0, length} | {int(f * length) for f in SPREAD} | ({announced} if announced else set())
        state = GAMES["tm-dice"].new(players, SEED)
        rng = random.Random(SEED)
        out, played = [], 0
        while True:
            if run == "collect" and played in chosen:
                out.append([state.view(None), *(state.view(seat) for seat in range(players))])
            if state.outcome() is not None:
                break
            seat = rng.choice(state.to_move())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            played += 1
            if announced is None and state.end_at is not None and players > 1:
                announced = played
        length = played
    return out


def someone_acts(public: dict[str, Any]) -> bool:
    return public["step"] is not None and public["result"] is None and public["stage"] != "corp"


def with_step(public: dict[str, Any], kind: str) -> dict[str, Any]:
    """The board with the player to act at step ``kind`` (only the header reads it)."""
    shown = dict(public)
    shown["step"] = {**public["step"], "kind": kind}
    return shown


def at_largest(public: dict[str, Any]) -> dict[str, Any]:
    """The same position with every count drawn as a number pushed to the largest the game reaches."""
    big = copy.deepcopy(public)
    big["turn"] = big["end_at"] if big["solo"] and big["end_at"] else 199
    big["pool"] = dict.fromkeys(big["pool"], 12)  # all 60 dice back in the pool
    big["wild_supply"], big["deck"] = 23, 98
    for seat in big["seats"]:
        seat.update(hand=30, vp=99, wild=23, award_counts=[12] * len(seat["award_counts"]))
    if big["result"] is not None:
        big["result"]["scores"] = [188] * len(big["result"]["scores"])
    return big


def check(records: list, what: str) -> None:
    problems = overflows(records)
    assert not problems, f"{what}: " + "; ".join(problems[:5])


def test_the_catalogue_is_read_in_every_locale() -> None:
    """Without it the test below would only draw English three times."""
    words = {l10n.t("tm-dice.render.milestones", locale) for locale in LOCALES}
    assert len(words) == len(LOCALES)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_header_names_every_step_in_its_width(locale: str) -> None:
    """The header of a turn at each step, with the longest name: within the 900 px left of the goals."""
    public = next(v[0]["public"] for v in positions(4) if someone_acts(v[0]["public"]))
    for kind in STEP_WORDS:
        for name in NAMES:
            shown = at_largest(with_step(public, kind))
            shown["end_at"] = 199
            image = Image.new("RGB", (W, H))
            with recorded_text() as records:
                draw_header(ImageDraw.Draw(image), shown, [name] * 4, locale)
            check(records, f"header at {kind}")
            assert all(r.box[2] <= RIGHT_X0 for r in records), (kind, name)


@pytest.mark.parametrize("locale", LOCALES)
def test_no_word_leaves_its_image_or_runs_into_another(locale: str) -> None:
    kinds = itertools.cycle(STEP_WORDS)
    for players in (1, 2, 3, 4):
        names = NAMES[:players]
        for i, views in enumerate(positions(players)):
            public = views[0]["public"]
            kind = next(kinds) if someone_acts(public) else None
            shown = with_step(public, kind) if kind else public
            with recorded_text() as records:
                board(at_largest(shown) if i % 2 else shown, names, locale=locale)
            check(records, f"{players}p board {i} (turn {public['turn']}, {kind})")
            for seat, view in enumerate(views[1:]):
                with recorded_text() as records:
                    hand(view["public"], view["private"], names, seat, locale=locale)
                check(records, f"{players}p hand of seat {seat} at {i} (turn {public['turn']})")
