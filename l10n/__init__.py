"""The one translation layer: every sentence a user reads, and every word drawn on an image.

It sits beside ``render`` and ``bot`` (both import it; it imports neither), so images and messages
share one catalogue. Each language is one gettext catalogue, ``data/i18n/<locale>.po`` with a Babel
locale identifier (``en.po``, ``zh_TW.po``, ``pt_BR.po``), read with Babel's ``read_po``: the msgids
are message keys (``lobby.joined``), the English text lives in ``en.po``. A sentence with a count is
a real gettext plural entry, its form picked by the catalogue's ``Plural-Forms`` (CLDR, via Babel).
Adding a language is adding a ``.po`` file (``python -m l10n.tools``; README "Adding a language").

Locales keep their region: ``zh-TW`` is not ``zh-CN``; a locale with no catalogue reads English, and
so does a key a catalogue lacks, leaves empty or marks fuzzy.
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal

from babel import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from regex import compile as regex_compile

from engine.core import Term
from engine.resources import data_file

DEFAULT_LOCALE = "en"

# The value a sentence's grammatical number follows (``{n} cards`` / ``{count} gems``).
COUNTS = ("n", "count", "points", "days", "steps")

__all__ = [
    "COUNTS",
    "DEFAULT_LOCALE",
    "CommandRef",
    "Entry",
    "Listed",
    "add_words",
    "OptionRef",
    "Phrase",
    "Term",
    "available_locales",
    "catalogue",
    "catalogue_folder",
    "command_name",
    "command_refs",
    "command_word",
    "content_name",
    "decimal",
    "entries",
    "game_title",
    "has",
    "listing",
    "option_name",
    "placeholders",
    "plain_commands",
    "plural_index",
    "po_name",
    "remove_words",
    "resolve_locale",
    "series",
    "t",
    "title_term",
    "use_catalogues",
    "use_command_mentions",
    "valid_command_name",
]


@dataclass(frozen=True)
class Entry:
    """One message of a catalogue: a single text, or the plural forms in ``Plural-Forms`` order."""

    forms: tuple[str, ...]
    plural: bool

    @property
    def text(self) -> str:
        """The sentence without a count: the last form (CLDR "other" in every catalogue we ship)."""
        return self.forms[-1]


# Tests point the layer at a catalogue folder of their own (use_catalogues); None: data/i18n.
_folder: Path | None = None
# Folders whose ``<locale>.po`` add words to a language's catalogue (``add_words``): a game
# registered from outside the project's packages (a test's game) brings its own words.
_added: tuple[Path, ...] = ()


def use_catalogues(folder: Path | None) -> None:
    """Read catalogues from ``folder`` from now on (None: the installed ``data/i18n``)."""
    global _folder
    _folder = folder
    _po_files.cache_clear()
    _load.cache_clear()
    resolve_locale.cache_clear()


def add_words(folder: Path) -> None:
    """Read ``folder``'s ``<locale>.po`` files too, over each language's own catalogue."""
    global _added
    _added = (*[f for f in _added if f != folder], folder)
    _load.cache_clear()


def remove_words(folder: Path) -> None:
    global _added
    _added = tuple(f for f in _added if f != folder)
    _load.cache_clear()


def catalogue_folder() -> Traversable:
    return _folder if _folder is not None else data_file("i18n")


def po_name(locale: str) -> str:
    """The file stem of a locale tag: Babel's identifier (``zh-TW`` -> ``zh_TW``)."""
    return locale.replace("-", "_")


@cache
def _po_files() -> dict[str, Traversable]:
    """Every ``<locale>.po`` of the catalogue folder, by locale tag (``zh-TW``)."""
    folder = catalogue_folder()
    if not folder.is_dir():
        return {}
    return {
        p.name.removesuffix(".po").replace("_", "-"): p
        for p in sorted(folder.iterdir(), key=lambda p: p.name)
        if p.name.endswith(".po") and p.is_file()
    }


@dataclass(frozen=True)
class _Loaded:
    entries: dict[str, Entry]
    plural: Callable[[int], int]
    forms: int


@cache
def _load(locale: str) -> _Loaded:
    path = _po_files().get(locale)
    if path is None:
        return _Loaded({}, lambda n: 0, 1)
    with path.open("rb") as handle:
        po = read_po(handle, locale=po_name(locale))
    found = _entries_of(po)
    for folder in _added:
        added = folder / f"{po_name(locale)}.po"
        if added.is_file():
            with added.open("rb") as handle:
                found.update(_entries_of(read_po(handle, locale=po_name(locale))))
    return _Loaded(found, gettext.c2py(po.plural_expr), po.num_plurals)


def _entries_of(po: Catalog) -> dict[str, Entry]:
    """The translated messages of a catalogue; a fuzzy or (partly) empty one counts as missing."""
    found: dict[str, Entry] = {}
    for message in po:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, str):
            if isinstance(message.string, str) and message.string:
                found[message.id] = Entry((message.string,), plural=False)
            continue
        string = message.string
        forms = tuple(f or "" for f in string) if isinstance(string, (list, tuple)) else (string or "",)
        # A plural with the wrong number of forms reads English (``python -m l10n.tools check``
        # reports it) rather than a form meant for another count.
        if len(forms) == po.num_plurals and all(forms):
            found[message.id[0]] = Entry(forms, plural=True)
    return found


def entries(locale: str) -> dict[str, Entry]:
    """Every translated message of ``locale``'s catalogue (exactly that catalogue: no fallback)."""
    return _load(resolve_locale(locale)).entries


def catalogue(locale: str) -> dict[str, str]:
    """Key -> sentence for ``locale``'s own catalogue; a plural message gives its "other" form."""
    return {key: entry.text for key, entry in entries(locale).items()}


def available_locales() -> list[str]:
    """The locale tags that have a catalogue: a new ``.po`` file is a new language."""
    return sorted(_po_files())


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
    return key in entries(locale) or key in entries(DEFAULT_LOCALE)


def content_name(game: str, kind: str, ident: str, default: str, locale: str | None = None) -> str:
    """The name of one of our own content items (a card, a creature, a corporation) in ``locale``.

    Names live in English in ``data/<game>/`` (``default``, also read when a catalogue lacks the
    key); ``en.po`` carries them too (the translators' template, kept equal by a test) and every
    catalogue translates them under ``content.<game>.<kind>.<ident>``.
    """
    entry = entries(resolve_locale(locale)).get(f"content.{game}.{kind}.{ident}")
    return default if entry is None else entry.text


def listing(items: Iterable[object], locale: str | None = None, style: Literal["standard", "or"] = "standard") -> str:
    """Words joined as the language lists them (CLDR through Babel): "A, B, and C", "A、B和C", "A, B e C";
    ``style="or"`` for alternatives: "A, B, or C", "A、B或C", "A, B ou C"."""
    words = [str(item) for item in items]
    if not words:
        return ""
    return format_list(words, style=style, locale=po_name(resolve_locale(locale)))


@cache
def _separator(locale: str) -> str:
    """The separator between items in the middle of a CLDR list (", " in English, "、" in Chinese)."""
    pattern = Locale.parse(locale).list_patterns["standard"]["middle"]
    return pattern.replace("{0}", "").replace("{1}", "")


def series(items: Iterable[object], locale: str | None = None) -> str:
    """Items enumerated with no "and" (ranks, option values): "Carol 1, Dave 2", "Carol 1、Dave 2".

    The separator is the middle one of the language's CLDR list pattern; ``listing`` is for a
    list read as part of a sentence ("A, B and C").
    """
    return _separator(po_name(resolve_locale(locale))).join(str(item) for item in items)


Number = int | float | Decimal | Fraction


def _exact(value: Number, digits: int) -> Decimal:
    """``value`` rounded to ``digits`` decimals, halves up (as a reader rounds, not as banks do)."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    elif isinstance(value, float):
        value = Decimal(repr(value))  # the float as printed (2.675 stays 2.675, not 2.67499...)
    return Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


def decimal(value: Number, locale: str | None = None, digits: int = 2) -> str:
    """A number with at most ``digits`` decimals, trailing zeros dropped: "2.33" / "2,33", "3", "1,234.5".

    ``t`` words every fractional value (float, Decimal, Fraction) of a sentence so.
    """
    pattern = "#,##0" + ("." + "#" * digits if digits > 0 else "")
    return format_decimal(_exact(value, digits), pattern, locale=po_name(resolve_locale(locale)))


@dataclass(frozen=True)
class Listed:
    """Items as a value of a sentence worded later, in its reader's language (a refusal):
    enumerated (``series``), or with the language's "and" when ``conjunction`` (``listing``)."""

    items: tuple[object, ...]
    conjunction: bool = False


def game_title(game_id: str, locale: str | None = None) -> str:
    """A game's title in ``locale`` (``game.title.<id>``): the seed rulebooks' names where they give one."""
    return t(f"game.title.{game_id}", locale)


def title_term(game_id: str, english: str) -> Term:
    """A game's title as a value of a sentence worded later, in its reader's language (a refusal)."""
    return Term(f"game.title.{game_id}", english)


def plural_index(locale: str, count: object) -> int:
    """Which form of a plural message ``count`` takes in ``locale`` (its ``Plural-Forms``).

    Counts may arrive as text parsed from content (``"1"``); one that is not a whole number
    takes the last form.
    """
    loaded = _load(resolve_locale(locale))
    try:
        number = int(str(count))
    except ValueError:
        return loaded.forms - 1
    return min(loaded.plural(abs(number)), loaded.forms - 1)


def t(key: str, locale: str | None = None, /, **values: object) -> str:
    """Translate ``key`` for ``locale`` (falling back to English) and fill in ``{names}``.

    A plural message takes the form its count (the first value named in ``COUNTS``) calls for;
    a ``Term`` or ``Phrase`` value (a key of its own, as the engine's refusals carry) is
    translated first, in the same locale.
    """
    filled = {name: _word(value, locale) for name, value in values.items()}
    loc = resolve_locale(locale)
    if loc != DEFAULT_LOCALE and key in entries(loc):
        try:
            return _named(_form(entries(loc)[key], loc, values), loc).format_map(filled)
        except (KeyError, IndexError, ValueError):
            pass  # a translation naming a value the code does not give (check reports it): English
    entry = entries(DEFAULT_LOCALE).get(key)
    if entry is None:
        raise KeyError(f"no translation for {key!r}")
    return _named(_form(entry, DEFAULT_LOCALE, values), DEFAULT_LOCALE).format_map(filled)


def _form(entry: Entry, locale: str, values: dict[str, object]) -> str:
    """The form of ``entry`` its count calls for (the first value named in ``COUNTS``)."""
    if not entry.plural:
        return entry.text
    count = next((values[name] for name in COUNTS if name in values), None)
    return entry.text if count is None else entry.forms[plural_index(locale, count)]


@dataclass(frozen=True)
class Phrase:
    """A value that is a sentence of its own (the engine's reason for a refusal): ``t`` words it
    in the same locale, with its own values; ``english`` stands in when no catalogue has ``key``."""

    key: str
    values: Mapping[str, object] = field(default_factory=dict)
    english: str = ""


def _word(value: object, locale: str | None) -> object:
    """A value as the sentence shows it: ``Term`` and ``Phrase`` are translated first."""
    if isinstance(value, Term):
        return t(value.key, locale) if has(value.key) else value.english
    if isinstance(value, Phrase):
        return t(value.key, locale, **value.values) if has(value.key) else value.english
    if isinstance(value, CommandRef):
        return _command_text(value.path, resolve_locale(locale))
    if isinstance(value, OptionRef):
        return option_name(value.path, value.option, locale)
    if isinstance(value, Listed):
        words = [_word(item, locale) for item in value.items]
        return listing(words, locale) if value.conjunction else series(words, locale)
    if isinstance(value, float | Decimal | Fraction):
        return decimal(value, locale)
    return value


def placeholders(template: str) -> set[str]:
    """The values a sentence takes from the code (``{game}``); its command references excluded."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name and not name.startswith("/")}


# -- commands and options, named as Discord shows them --------------------------------------------
#
# A sentence never writes a command's or an option's name itself: it refers to it, ``{/table
# create}`` for a command (or a group, or a subcommand) and ``{/tournament create.players_per_table}``
# for an option of one, and the reference is filled with the name Discord shows in the sentence's
# language, read from the same catalogue keys, by the same rule, as the command tree the bot syncs
# (bot/command_l10n.py). On Discord, once the bot knows its commands' ids, a command becomes a
# clickable mention instead (``use_command_mentions``).

# Discord's rule for chat-input command and option names, as its documentation writes it: letters
# and numbers of any script, Devanagari and Thai whole (their vowel signs are marks, which \w
# leaves out: खेल and เล่น are valid names), '-', '_' and "'"; lower case wherever the script has
# case.
COMMAND_NAME = regex_compile(r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
COMMAND_REF = re.compile(r"\{/([^{}]+)\}")

# How this task's messages write a command (a clickable mention), given its English path; None
# (or a function answering None) writes its name as text. Set by the bot for its own tasks.
_mentions: ContextVar[Callable[[str], str | None] | None] = ContextVar("command_mentions", default=None)


@dataclass(frozen=True)
class CommandRef:
    """A command as a value of a sentence (``table create``): worded like ``{/table create}``."""

    path: str


@dataclass(frozen=True)
class OptionRef:
    """An option of a command as a value of a sentence: worded like ``{/path.option}``."""

    path: str
    option: str


def valid_command_name(text: str) -> bool:
    """Whether Discord takes ``text`` as a command or option name (its pattern, lower case)."""
    return bool(COMMAND_NAME.match(text)) and text == text.lower()


def command_word(key: str, english: str, locale: str | None) -> str:
    """One name of the command tree (``command.table.create.name``) as Discord shows it in ``locale``:
    the exact catalogue's translation when Discord would take it, else the English."""
    loc = resolve_locale(locale)
    if loc == DEFAULT_LOCALE:
        return english
    entry = entries(loc).get(key)
    return entry.text if entry is not None and valid_command_name(entry.text) else english


def command_name(path: str, locale: str | None = None) -> str:
    """``table create`` as Discord shows it in ``locale`` (``牌桌 建立``), without the slash."""
    words = path.split()
    return " ".join(
        command_word(f"command.{'.'.join(words[: i + 1])}.name", word, locale) for i, word in enumerate(words)
    )


def option_name(path: str, option: str, locale: str | None = None) -> str:
    """An option of the command ``path`` as Discord shows it in ``locale`` (``每桌人數``)."""
    return command_word(f"command.{'.'.join(path.split())}.option.{option}.name", option, locale)


def command_refs(template: str) -> set[str]:
    """The commands and options a sentence refers to: ``{"table create", "tournament create.rounds"}``."""
    return set(COMMAND_REF.findall(template))


def use_command_mentions(mention: Callable[[str], str | None] | None) -> None:
    """From now on, in this task and the tasks it starts, write a command with ``mention`` (its
    English path -> a mention, or None for its name as text)."""
    _mentions.set(mention)


def _command_text(ref: str, locale: str) -> str:
    path, _, option = ref.partition(".")
    if option:
        return option_name(path, option, locale)
    mention = _mentions.get()
    written = mention(path) if mention is not None else None
    return written if written is not None else "/" + command_name(path, locale)


def plain_commands(template: str, locale: str | None) -> str:
    """``template`` with its command references written as names (never mentions): for texts that
    are not messages (a command's description)."""
    loc = resolve_locale(locale)
    token = _mentions.set(None)
    try:
        return COMMAND_REF.sub(lambda m: _command_text(m.group(1), loc), template)
    finally:
        _mentions.reset(token)


def _named(template: str, locale: str) -> str:
    """``template`` with its command references filled, ready for ``format_map``."""
    if "{/" not in template:
        return template
    return COMMAND_REF.sub(lambda m: _command_text(m.group(1), locale).replace("{", "{{").replace("}", "}}"), template)
