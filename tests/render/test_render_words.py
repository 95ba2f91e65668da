"""The words on the Fox Duet and Vivarium images come from the catalogues, in the reader's language.

Their keys (``<game>.render.*``) are checked with every other key by tests/test_i18n.py: every one
the code names exists with the placeholders it fills, translated in zh-TW and pt-BR. Replays and
the guide's pictures draw their boards in the locale they are given.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
from l10n import t
from render import RENDERERS
from render.howto import render_page
from render.replay import replay_animation
from tests.render.fits_common import LOCALES, played
from tests.render.text_bounds import recorded_text

ROOT = Path(__file__).resolve().parents[2]


def words_drawn(game: str, locale: str, players: int) -> set[str]:
    public, seats = played(game, players, 11)[3]
    with recorded_text() as records:
        RENDERERS[game].board(public["public"], ["Ann", "Bo", "Cy", "Di"][:players], locale=locale)
        RENDERERS[game].hand(
            seats[0]["public"], seats[0]["private"], ["Ann", "Bo", "Cy", "Di"][:players], 0, locale=locale
        )
    return {r.text for r in records}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_fox_duet_images_are_worded_in_the_locale(locale: str) -> None:
    drawn = words_drawn("fox-duet", locale, 2)
    expected = {t("fox-duet.render.decree", locale), t("fox-duet.render.forest-tokens", locale)}
    assert expected <= drawn


@pytest.mark.parametrize("locale", LOCALES)
def test_the_vivarium_images_are_worded_in_the_locale(locale: str) -> None:
    drawn = words_drawn("vivarium", locale, 3)
    expected = {t("vivarium.render.priority", locale), t("vivarium.render.secret-contract", locale)}
    assert expected <= drawn


def test_a_replay_draws_its_boards_in_the_given_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = RENDERERS["fox-duet"]

    def board(public: Any, names: Any, *, locale: str = "en", phone: bool = True) -> Image.Image:
        asked.append(locale)
        return real.board(public, names, locale=locale, phone=phone)

    monkeypatch.setitem(RENDERERS, "fox-duet", dataclasses.replace(real, board=board))
    publics = [view["public"] for view, _ in played("fox-duet", 2, 3)[:3]]
    replay_animation("fox-duet", publics, ["Ann", "Bo"], locale="pt-BR")
    assert asked == ["pt-BR"] * 3


def test_a_guide_page_shows_the_board_in_the_readers_language() -> None:
    pages = {loc: render_page("vivarium", 0, "Title", ["one", "two", "three"], ["Ann", "Bo"], loc) for loc in LOCALES}
    assert len(set(pages.values())) == len(LOCALES)
    for png in pages.values():
        with Image.open(io.BytesIO(png)) as image:
            assert image.format == "PNG"


def test_render_board_passes_the_locale_through() -> None:
    public, _ = played("vivarium", 2, 4)[0]
    assert render.render_board("vivarium", public, ["Ann", "Bo"], "zh-TW") != render.render_board(
        "vivarium", public, ["Ann", "Bo"], "en"
    )
