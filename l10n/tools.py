"""The catalogues' own workflow, with Babel: ``python -m l10n.tools extract|update|check``.

- ``extract``: Babel's extractor lists every literal key the code passes to ``t(...)``,
  ``Refusal(...)`` or the engine's ``illegal(...)`` (folders and method in ``babel.cfg``);
  each must be a message of ``en.po``.
- ``update``: writes the template ``messages.pot`` from ``en.po`` (the English text as a
  comment for translators), then brings every other ``.po`` up to date with Babel's
  ``Catalog.update``: new keys arrive empty (or fuzzy, with a guess), removed keys go.
- ``check``: what tests/test_i18n.py checks; prints each problem, exits 1 when there is one.
- ``init LOCALE``: a new language's ``.po`` from the template, with its CLDR plural forms.

``en.po`` is the source of truth for keys and English text; it is edited by hand.
"""

from __future__ import annotations

import argparse
import ast
import gettext
import io
import re
import sys
from collections.abc import Collection, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

import babel
from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from l10n import COUNTS, DEFAULT_LOCALE, command_refs, placeholders, po_name

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "data" / "i18n"
TEMPLATE = "messages.pot"
# The functions whose first argument is a message key.
KEYWORDS: dict[str, None] = {"t": None, "Refusal": None, "illegal": None}
# Header dates carry no information here (git has the history); fixed, so that converting or
# updating twice writes the same bytes.
STAMP = datetime(2026, 1, 1, tzinfo=UTC)
WIDTH = 76


# -- reading and writing ----------------------------------------------------------------------
def new_catalogue(locale: str | None) -> Catalog:
    """An empty catalogue for a locale tag (``zh-TW``), or the template (None)."""
    language = "the template" if locale is None else locale
    return Catalog(
        locale=None if locale is None else po_name(locale),
        header_comment=f"# Meeple Post: messages ({language}). The msgids are message keys; see README, "
        '"Adding a language".',
        project="Meeple Post",
        version="1",
        msgid_bugs_address="the Meeple Post issue tracker",
        last_translator="Meeple Post translators",
        language_team="Meeple Post" if locale is None else f"Meeple Post {locale}",
        creation_date=STAMP,
        revision_date=STAMP,
        fuzzy=False,
    )


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=None if path.suffix == ".pot" else po_name(path.stem))


def write(catalog: Catalog, path: Path) -> bool:
    """Write ``catalog`` to ``path`` unless it already holds exactly these bytes; True if written."""
    buffer = io.BytesIO()
    catalog.creation_date = STAMP
    catalog.revision_date = STAMP
    write_po(buffer, catalog, width=WIDTH, ignore_obsolete=True, include_previous=False)
    data = buffer.getvalue()
    if path.is_file() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


def po_files(folder: Path) -> dict[str, Path]:
    """Every ``<locale>.po`` in ``folder``, by locale tag."""
    return {p.stem.replace("_", "-"): p for p in sorted(folder.glob("*.po"))}


def forms_of(message: Message) -> tuple[str, ...]:
    string = message.string
    return tuple(string) if isinstance(string, (list, tuple)) else (string or "",)


def key_of(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def plural_categories(locale: str) -> list[str]:
    """The CLDR category (``one``, ``other``...) of each gettext form of ``locale``, in order."""
    rule = get_plural(po_name(locale))
    cldr = Locale.parse(po_name(locale)).plural_form
    index = gettext.c2py(rule.plural_expr)
    found: dict[int, str] = {}
    for n in [*range(1000), *(10**k for k in range(3, 10))]:  # pt's "many" starts at a million
        found.setdefault(index(n), cldr(n))
    return [found.get(i, "other") for i in range(rule.num_plurals)]


# -- extract ----------------------------------------------------------------------------------
def extract_keys(
    fileobj: IO[bytes], keywords: Mapping[str, object], comment_tags: Collection[str], options: Mapping[str, object]
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extraction method (``babel.cfg``: ``[l10n.tools:extract_keys: bot/**.py]``) that
    reads the syntax tree: Babel's own ``python`` method joins every string inside the first
    argument, so ``t("a" if c else "b")`` would give the key ``"ab"`` and ``t(d["key"])`` ``"key"``.
    Here a literal key is found, each branch of a conditional too; anything else is not a literal.
    """
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if isinstance(name, str) and name in keywords:
            for key in _literals(node.args[0]):
                yield node.lineno, name, key, []


def _literals(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def extracted_keys(root: Path = ROOT) -> dict[str, list[tuple[str, int]]]:
    """Every literal key passed to a ``KEYWORDS`` function in the folders of ``babel.cfg``,
    with where it is used."""
    with (root / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    folders = sorted({pattern.split("/", 1)[0] for pattern, _ in method_map})
    found: dict[str, list[tuple[str, int]]] = {}
    for folder in folders:
        prefix = f"{folder}/"
        local = [(pattern.removeprefix(prefix), method) for pattern, method in method_map if pattern.startswith(prefix)]
        local_options = {pattern.removeprefix(prefix): options_map.get(pattern, {}) for pattern, _ in local}
        for filename, lineno, message, _comments, _context in extract_from_dir(
            root / folder, local, local_options, keywords=KEYWORDS
        ):
            key = message if isinstance(message, str) else message[0]
            if key:
                found.setdefault(key, []).append((f"{folder}/{filename}", lineno))
    return found


def missing_keys(folder: Path = FOLDER, root: Path = ROOT) -> list[str]:
    english = {key_of(m) for m in read(folder / "en.po") if m.id}
    return [
        f"{key}: used at {places[0][0]}:{places[0][1]} but not in en.po"
        for key, places in sorted(extracted_keys(root).items())
        if key not in english
    ]


# -- update -----------------------------------------------------------------------------------
def template(english: Catalog) -> Catalog:
    """The template of every catalogue: the English keys, empty, with the English as a comment."""
    pot = new_catalogue(None)
    for message in english:
        if not message.id:
            continue
        forms = forms_of(message)
        comments = [f"en: {form}" for form in forms]
        string: str | tuple[str, ...] = ("", "") if isinstance(message.id, tuple) else ""
        pot.add(message.id, string, auto_comments=comments, flags=message.flags - {"fuzzy"})
    return pot


def fit_forms(catalog: Catalog) -> None:
    """Give every plural message exactly as many forms as the locale has (Babel's update copies
    the template's two); a translated form that has to go makes the message fuzzy."""
    wanted = catalog.num_plurals
    for message in catalog:
        if not message.id or isinstance(message.id, str):
            continue
        forms = forms_of(message)
        if len(forms) == wanted:
            continue
        if any(forms[wanted:]):
            message.flags.add("fuzzy")
        message.string = tuple(forms[:wanted]) + ("",) * max(0, wanted - len(forms))


def update(folder: Path = FOLDER) -> list[str]:
    """Write the template and update every other catalogue; the files written."""
    pot = template(read(folder / "en.po"))
    written = [TEMPLATE] if write(pot, folder / TEMPLATE) else []
    for locale, path in po_files(folder).items():
        if locale == DEFAULT_LOCALE:
            continue
        catalog = read(path)
        catalog.update(pot, update_header_comment=False)
        catalog.obsolete.clear()
        fit_forms(catalog)
        if write(catalog, path):
            written.append(path.name)
    return written


def init(locale: str, folder: Path = FOLDER) -> Path:
    """Start the catalogue of a new language from the template (``pybabel init``, in short):
    its header and plural forms from CLDR, every message empty."""
    try:
        get_plural(po_name(locale))
    except (ValueError, UnknownLocaleError) as exc:
        raise ValueError(f"{locale}: not a locale Babel knows") from exc
    path = folder / f"{po_name(locale)}.po"
    if path.exists():
        raise ValueError(f"{path.name} already exists: use update")
    update(folder)  # the template first, so that it has every English key
    catalog = new_catalogue(locale)
    catalog.update(read(folder / TEMPLATE), no_fuzzy_matching=True)
    fit_forms(catalog)
    write(catalog, path)
    return path


# -- check ------------------------------------------------------------------------------------
def catalogue_problems(folder: Path = FOLDER) -> list[str]:
    """Everything wrong with the ``.po`` files of ``folder``, one line each."""
    files = po_files(folder)
    if DEFAULT_LOCALE not in files:
        return [f"{folder}: no {DEFAULT_LOCALE}.po"]
    problems: list[str] = []
    english = {key_of(m): m for m in read(files[DEFAULT_LOCALE]) if m.id}
    for locale, path in files.items():
        catalog = read(path)
        problems += header_problems(locale, path.name, catalog)
        seen = {key_of(m): m for m in catalog if m.id}
        for key in sorted(set(english) - set(seen)):
            problems.append(f"{path.name}: {key} is missing")
        for key in sorted(set(seen) - set(english)):
            problems.append(f"{path.name}: {key} is not an English key")
        full_width = po_name(locale).split("_")[0] in FULL_WIDTH_LANGUAGES
        for key, message in seen.items():
            if key in english:
                problems += message_problems(path.name, catalog.num_plurals, english[key], message)
            if full_width:
                problems += [
                    f"{path.name}: {key} {problem}" for form in forms_of(message) for problem in ascii_joins(form)
                ]
    pot = folder / TEMPLATE
    if pot.is_file() and {key_of(m) for m in read(pot) if m.id} != set(english):
        problems.append(f"{TEMPLATE} does not have the keys of en.po: run `python -m l10n.tools update`")
    return problems


def header_problems(locale: str, name: str, catalog: Catalog) -> list[str]:
    try:
        rule = get_plural(po_name(locale))
    except (ValueError, UnknownLocaleError):
        return [f"{name}: {locale} is not a locale Babel knows"]
    if catalog.plural_forms != rule.plural_forms:
        return [
            f"{name}: Plural-Forms is {catalog.plural_forms!r}, CLDR (Babel {babel.__version__}) says"
            f" {rule.plural_forms!r}: give every plural message the locale's forms, in that order"
            " (`python -m l10n.tools update` makes the slots), or install the locked Babel (./scripts/test)"
        ]
    return []


def message_problems(name: str, forms_wanted: int, english: Message, message: Message) -> list[str]:
    key = key_of(message)
    if message.fuzzy:
        return [f"{name}: {key} is fuzzy (its translation needs a look)"]
    if isinstance(english.id, tuple) != isinstance(message.id, tuple):
        return [f"{name}: {key} is {'' if isinstance(english.id, tuple) else 'not '}a plural message in English"]
    forms = forms_of(message)
    problems = []
    if isinstance(message.id, tuple) and len(forms) != forms_wanted:
        problems.append(f"{name}: {key} has {len(forms)} forms, the locale has {forms_wanted}")
    if not all(forms):
        problems.append(f"{name}: {key} has an empty translation")
    wanted = placeholders(forms_of(english)[-1])
    for form in forms:
        if form and placeholders(form) != wanted:
            problems.append(f"{name}: {key} fills {sorted(placeholders(form))}, English {sorted(wanted)}: {form!r}")
    # The commands and options a sentence names ({/table create}) are the same in every language.
    commands = command_refs(forms_of(english)[-1])
    for form in forms:
        if form and command_refs(form) != commands:
            problems.append(
                f"{name}: {key} names the commands {sorted(command_refs(form))}, English {sorted(commands)}"
            )
    if isinstance(message.id, tuple) and not wanted & set(COUNTS):
        problems.append(f"{name}: {key} is plural but names no count ({', '.join(COUNTS)})")
    for form in forms:
        if "(s)" in form:
            problems.append(f"{name}: {key} hedges its plural: {form!r}")
    return problems


# Languages written with full-width punctuation: an ASCII comma, colon, parenthesis... beside
# their characters reads as a typo ("(對手分 0, 得分 17)" for "（對手分 0，得分 17）").
FULL_WIDTH_LANGUAGES = ("zh", "ja")
ASCII_JOINS = ",;:!?()"
_CJK = re.compile(r"[\u2e80-\u303f\u3040-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")
# What keeps its ASCII: {placeholders}, `code`, <Discord markup>, URLs, and command syntax
# (/meeple vacation days:0), written as the reader types it.
_VERBATIM = re.compile(
    r"\{[^{}]*\}|`[^`]*`|<[^<>]*>|https?://\S+"
    r"|/[a-z][\w-]*(?: [a-z][\w-]*)*(?: [a-z_]+:[^\s\u3000-\u303f\uff00-\uffef]*)*"
)


def ascii_joins(text: str) -> list[str]:
    """The ASCII punctuation of ``text`` that joins Chinese (or Japanese) words: beside a CJK
    character or full-width mark (spaces between do not count), outside verbatim spans, each with
    its surroundings; or between values alone ("({ability})"). A closing parenthesis after Latin
    text is a foreign name's ("Português (Brasil)。"), and a comma or colon between digits is a
    number's ("1,000", "2:1")."""
    bare = _VERBATIM.sub("", text)
    if not any(c.isalnum() for c in bare) and any(mark in bare for mark in ASCII_JOINS):
        # Only punctuation around values ("({ability})"): in Chinese the values are Chinese.
        return [f"joins its values with ASCII punctuation: {text!r} (use full-width)"]
    plain = _VERBATIM.sub(lambda m: "x" * len(m.group()), text)
    found = []
    for i, mark in enumerate(plain):
        if mark not in ASCII_JOINS:
            continue
        before, after = plain[:i].rstrip()[-1:], plain[i + 1 :].lstrip()[:1]
        if mark in ",:" and before.isdigit() and after.isdigit():
            continue
        cjk_before, cjk_after = bool(_CJK.fullmatch(before)), bool(_CJK.fullmatch(after))
        if cjk_before or (cjk_after and mark != ")"):
            found.append(f"joins Chinese with an ASCII {mark!r}: {text[max(0, i - 10) : i + 11]!r} (use full-width)")
    return found


def check(folder: Path = FOLDER, root: Path = ROOT) -> list[str]:
    return catalogue_problems(folder) + missing_keys(folder, root)


# -- command line -----------------------------------------------------------------------------
def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m l10n.tools", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("extract", "update", "check", "init"))
    parser.add_argument("locale", nargs="?", help="init: the new language's tag (fr, ja, es-419...)")
    parser.add_argument("--folder", type=Path, default=FOLDER, help="the catalogues (default: data/i18n)")
    args = parser.parse_args(None if argv is None else list(argv))
    if args.command == "extract":
        found = extracted_keys()
        missing = missing_keys(args.folder)
        print(f"{len(found)} literal keys in the code; {len(missing)} missing from en.po")
        lines = missing
    elif args.command == "init":
        if not args.locale:
            parser.error("init needs the new language's tag, for example: init fr")
        try:
            lines, missing = [f"wrote {init(args.locale, args.folder).name}"], []
        except ValueError as exc:
            lines = missing = [str(exc)]
    elif args.command == "update":
        lines = [f"wrote {name}" for name in update(args.folder)] or ["every catalogue is up to date"]
        missing = []
    else:
        missing = check(args.folder)
        lines = missing or ["every catalogue is complete and consistent"]
    for line in lines:
        print(line)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
