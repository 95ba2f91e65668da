#!/usr/bin/env python3
"""Convert the JSON catalogues to gettext catalogues: ``data/i18n/<locale>.json`` and
``data/i18n/<locale>/*.json`` (locale folders ``en``, ``zh-TW``, ``pt-BR``) become
``data/i18n/<locale>.po`` (``en.po``, ``zh_TW.po``, ``pt_BR.po``).

A key with a singular ``<key>.one`` in English becomes one plural entry, its forms in the order of
the locale's CLDR ``Plural-Forms``: the form of category "one" is ``<key>.one``, every other
category ``<key>`` (so zh-TW, one form, takes ``<key>``; pt-BR's "one", 0 and 1, ``<key>.one``).
Every key is kept; a key defined twice in one locale is an error. Rerunning gives the same files.
The template ``messages.pot`` is written from the new ``en.po`` too.

    .venv/bin/python scripts/i18n_json_to_po.py [--source data/i18n] [--dest data/i18n]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from babel import Locale, UnknownLocaleError  # noqa: E402
from babel.messages.catalog import Catalog  # noqa: E402

from l10n import po_name  # noqa: E402
from l10n.tools import TEMPLATE, new_catalogue, plural_categories, read, template, write  # noqa: E402

ONE = ".one"


def json_locales(source: Path) -> list[str]:
    """The locale tags with a JSON catalogue in ``source`` (a file ``<tag>.json`` or a folder)."""
    names = {p.stem for p in source.glob("*.json")} | {p.name for p in source.iterdir() if p.is_dir()}
    found = []
    for name in sorted(names):
        try:
            Locale.parse(po_name(name))
        except (ValueError, UnknownLocaleError):
            continue
        if (source / f"{name}.json").is_file() or any((source / name).glob("*.json")):
            found.append(name)
    return found


def read_json(source: Path, locale: str) -> dict[str, str]:
    """A locale's JSON files merged, in the old loader's order (platform file, then by name)."""
    merged: dict[str, str] = {}
    folder = source / locale
    paths = [source / f"{locale}.json", *(sorted(folder.glob("*.json")) if folder.is_dir() else [])]
    for path in paths:
        if not path.is_file():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
            raise ValueError(f"{path}: a translation file maps keys to strings")
        twice = sorted(set(data) & set(merged))
        if twice:
            raise ValueError(f"{path}: key {twice[0]!r} is defined twice in {locale}")
        merged.update(data)
    return merged


def plural_keys(english: dict[str, str]) -> set[str]:
    return {key.removesuffix(ONE) for key in english if key.endswith(ONE) and key.removesuffix(ONE) in english}


def convert(locale: str, texts: dict[str, str], plurals: set[str], english: dict[str, str]) -> Catalog:
    """One locale's JSON texts as a catalogue; keys in English order, then the locale's own. A
    translation carries the English as a comment, as ``python -m l10n.tools update`` gives it."""
    catalog = new_catalogue(locale)
    categories = plural_categories(locale)
    keys = [k for k in english if k in texts] + [k for k in texts if k not in english]
    keys += [base for base in english if base in plurals and base not in texts and base + ONE in texts]
    for key in keys:
        if key.endswith(ONE) and key.removesuffix(ONE) in plurals:
            continue
        if key in plurals:
            forms = tuple(texts.get(key + ONE if c == "one" else key, "") for c in categories)
            catalog.add((key, key), forms, auto_comments=comments(locale, english, key + ONE, key))
        else:
            catalog.add(key, texts[key], auto_comments=comments(locale, english, key))
    return catalog


def comments(locale: str, english: dict[str, str], *keys: str) -> list[str]:
    if locale == "en":
        return []
    return [f"en: {english[key]}" for key in keys if key in english]


def flatten(catalog: Catalog, locale: str) -> dict[str, str]:
    """A catalogue back in the JSON layout (``key`` / ``key.one``): what a round trip must give."""
    categories = plural_categories(locale)
    flat: dict[str, str] = {}
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            flat[message.id] = str(message.string)
            continue
        for category, form in zip(categories, message.string, strict=True):
            if form:
                flat[message.id[0] + (ONE if category == "one" else "")] = form
    return flat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT / "data" / "i18n", help="the JSON catalogues")
    parser.add_argument("--dest", type=Path, default=ROOT / "data" / "i18n", help="where the .po files go")
    args = parser.parse_args(argv)
    locales = json_locales(args.source)
    if "en" not in locales:
        print(f"{args.source}: no English JSON catalogue", file=sys.stderr)
        return 1
    english = read_json(args.source, "en")
    plurals = plural_keys(english)
    args.dest.mkdir(parents=True, exist_ok=True)
    for locale in locales:
        texts = read_json(args.source, locale)
        catalog = convert(locale, texts, plurals, english)
        path = args.dest / f"{po_name(locale)}.po"
        written = write(catalog, path)
        lost = set(texts) - set(flatten(catalog, locale))
        if lost:
            print(f"{path.name}: lost {sorted(lost)[:5]}", file=sys.stderr)
            return 1
        print(f"{path.name}: {len(catalog)} messages from {len(texts)} keys ({'written' if written else 'unchanged'})")
    # The template follows en.po, so that one run leaves the catalogues consistent.
    written = write(template(read(args.dest / "en.po")), args.dest / TEMPLATE)
    print(f"{TEMPLATE}: the template of en.po ({'written' if written else 'unchanged'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
