"""The one translation layer: every sentence a user reads, and every word drawn on an image.

It sits beside ``render`` and ``bot`` (both import it; it imports neither), so images and messages
share one catalogue. A locale's catalogue is ``data/i18n/<locale>.json`` (the platform's sentences)
merged with every ``data/i18n/<locale>/*.json`` (one file per game, keys prefixed with the game id).
Locales keep their region: ``zh-TW`` is not ``zh-CN``; a locale with no catalogue reads English.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib.resources.abc import Traversable

from engine.resources import data_file

DEFAULT_LOCALE = "en"


@cache
def catalogue(locale: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    folder = data_file("i18n")
    paths = [folder / f"{locale}.json", *_json_files(folder / locale)]
    for path in paths:
        if not path.is_file():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
            raise ValueError(f"{path.name}: a translation file maps keys to strings")
        twice = sorted(set(data) & set(merged))
        if twice:
            raise ValueError(f"{path.name}: key {twice[0]!r} is defined twice")
        merged.update(data)
    return merged


def available_locales() -> list[str]:
    return sorted(p.name.removesuffix(".json") for p in _json_files(data_file("i18n")))


def _json_files(folder: Traversable) -> list[Traversable]:
    """The ``*.json`` files of a data folder, by name; none when the folder does not exist."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if p.name.endswith(".json") and p.is_file()), key=lambda p: p.name)


@cache
def resolve_locale(locale: str | None) -> str:
    """The catalogue a Discord locale reads: the exact locale (``pt-BR``), else its language when
    that catalogue has no region (``en-GB`` -> ``en``), else English. ``zh-CN`` never reads
    ``zh-TW``, nor ``pt-PT`` ``pt-BR``."""
    if not locale:
        return DEFAULT_LOCALE
    names = {name.lower(): name for name in available_locales()}
    wanted = locale.replace("_", "-").lower()
    if wanted in names:
        return names[wanted]
    language = wanted.split("-")[0]
    return names.get(language, DEFAULT_LOCALE)


def has(key: str, locale: str = DEFAULT_LOCALE) -> bool:
    return key in catalogue(resolve_locale(locale)) or key in catalogue(DEFAULT_LOCALE)


def content_name(game: str, kind: str, ident: str, default: str, locale: str | None = None) -> str:
    """The name of one of our own content items (a card, a creature, a corporation) in ``locale``.

    Names live in English in ``data/<game>/`` (``default``); a catalogue translates them under
    ``content.<game>.<kind>.<ident>``. English catalogues carry no content keys.
    """
    return catalogue(resolve_locale(locale)).get(f"content.{game}.{kind}.{ident}", default)


# The value a sentence's grammatical number follows (``{n} cards`` / ``{count} gems``).
COUNTS = ("n", "count", "points", "days", "steps")


def t(key: str, locale: str | None = None, /, **values: object) -> str:
    """Translate ``key`` for ``locale`` (falling back to English) and fill in ``{names}``.

    When the count (``n`` or ``count``) is 1 and the catalogue has ``<key>.one``, that singular
    form is used instead (``"draw {n} cards"`` / ``"draw {n} card"``).
    """
    loc = resolve_locale(locale)
    count = next((values[name] for name in COUNTS if name in values), None)
    if str(count) == "1":
        one = catalogue(loc).get(f"{key}.one") or catalogue(DEFAULT_LOCALE).get(f"{key}.one")
        if one is not None:
            return one.format_map(values)
    template = catalogue(loc).get(key) or catalogue(DEFAULT_LOCALE).get(key)
    if template is None:
        raise KeyError(f"no translation for {key!r}")
    return template.format_map(values)


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
