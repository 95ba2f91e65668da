"""The words on the Fox Duet and Vivarium images come from the catalogues, in the reader's language.

Their keys live in ``data/i18n/<locale>/render-<game>.json``; every one the code names exists with
the placeholders it fills, and each is translated in zh-TW and pt-BR (with the singular form pt-BR
needs wherever English has one). Replays and the guide's pictures draw their boards in the locale
they are given.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
from l10n import placeholders, t
from render import RENDERERS
from render.howto import render_page
from render.replay import replay_animation
from tests.render.fits_common import LOCALES, every_locale_readable, played
from tests.render.text_bounds import recorded_text

ROOT = Path(__file__).resolve().parents[2]
FILES = ("render-fox-duet.json", "render-vivarium.json")
CODE = (ROOT / "render" / "fox_duet", ROOT / "render" / "vivarium")


def load(locale: str, name: str) -> dict[str, str]:
    return json.loads((ROOT / "data" / "i18n" / locale / name).read_text(encoding="utf-8"))


def literal_keys() -> dict[str, set[str]]:
    """Keys passed as literal strings to ``t(...)`` in the two renderers, with the keyword names given."""
    keys: dict[str, set[str]] = {}
    for folder in CODE:
        for path in folder.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t" and node.args:
                    first = node.args[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        if any(k.arg is None for k in node.keywords):
                            continue
                        keys.setdefault(first.value, set()).update(str(k.arg) for k in node.keywords)
    return keys


def test_every_literal_key_exists_with_the_placeholders_it_fills() -> None:
    english = {k: v for name in FILES for k, v in load("en", name).items()}
    found = literal_keys()
    assert len(found) > 40  # the scan sees the renderers' calls
    for key, given in found.items():
        if key.startswith(("fox-duet.render.", "vivarium.render.")):
            assert key in english, f"missing {key!r}"
            assert placeholders(english[key]) <= given, f"{key!r} needs {sorted(placeholders(english[key]) - given)}"


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("locale", ["zh-TW", "pt-BR"])
def test_every_image_word_is_translated_with_its_placeholders(locale: str, name: str) -> None:
    english, translated = load("en", name), load(locale, name)
    wanted = {k for k in english if locale == "pt-BR" or not k.endswith(".one")}
    assert set(translated) == wanted
    for key, text in translated.items():
        assert placeholders(text) == placeholders(english[key]), key
        assert text.strip(), key


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
    with every_locale_readable():
        drawn = words_drawn("fox-duet", locale, 2)
        expected = {t("fox-duet.render.decree", locale), t("fox-duet.render.forest-tokens", locale)}
    assert expected <= drawn


@pytest.mark.parametrize("locale", LOCALES)
def test_the_vivarium_images_are_worded_in_the_locale(locale: str) -> None:
    with every_locale_readable():
        drawn = words_drawn("vivarium", locale, 3)
        expected = {t("vivarium.render.priority", locale), t("vivarium.render.secret-contract", locale)}
    assert expected <= drawn


def test_a_replay_draws_its_boards_in_the_given_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = RENDERERS["fox-duet"]

    def board(public: Any, names: Any, *, locale: str = "en") -> Image.Image:
        asked.append(locale)
        return real.board(public, names, locale=locale)

    monkeypatch.setitem(RENDERERS, "fox-duet", dataclasses.replace(real, board=board))
    publics = [view["public"] for view, _ in played("fox-duet", 2, 3)[:3]]
    replay_animation("fox-duet", publics, ["Ann", "Bo"], locale="pt-BR")
    assert asked == ["pt-BR"] * 3


def test_a_guide_page_shows_the_board_in_the_readers_language() -> None:
    with every_locale_readable():
        pages = {
            loc: render_page("vivarium", 0, "Title", ["one", "two", "three"], ["Ann", "Bo"], loc) for loc in LOCALES
        }
    assert len(set(pages.values())) == len(LOCALES)
    for png in pages.values():
        with Image.open(io.BytesIO(png)) as image:
            assert image.format == "PNG"


def test_render_board_passes_the_locale_through() -> None:
    public, _ = played("vivarium", 2, 4)[0]
    with every_locale_readable():
        assert render.render_board("vivarium", public, ["Ann", "Bo"], "zh-TW") != render.render_board(
            "vivarium", public, ["Ann", "Bo"], "en"
        )
