"""Game options typed as text (``options:level=2``), in any language the bot speaks.

A game declares its options by id (``level``, ``memory``) with their choices (``engine.Game.options``);
each catalogue gives the name a player of its language types, ``<game>.option.<name>.name``
(``等級``, ``nível``), and for a word choice the word they type, ``<game>.option.<name>.<value>.value``
(``開``, ``ligada``). Every catalogue's words are accepted from everyone, whatever their language,
with the ids themselves (``level=2`` always works): what someone types does not depend on the
language of their Discord client. Typing is forgiving: case and width (``２`` and ``＝`` from a
Chinese keyboard) do not matter, nor accents (``nivel``) unless a name spelled exactly says
otherwise. A name two options answer to (one option's name in one language is another's in
another), or one no option answers to, is refused naming the options that exist.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from engine import Game
from l10n import DEFAULT_LOCALE, available_locales, entries, listing, resolve_locale, t

# Between two options: spaces, commas (also the Chinese ones) and semicolons.
SEPARATORS = re.compile(r"[\s,;、，；]+")
SHOWN = 40  # of a word a player typed, at most this much is repeated in a refusal


class OptionsRefused(ValueError):
    """Typed options that cannot be read; ``key`` and ``values`` word why (the service refuses with them)."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


def fold(text: str) -> str:
    """What two spellings of one word have in common: width, case and accents set aside."""
    text = unicodedata.normalize("NFKC", text).casefold()
    bare = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", "".join(c for c in bare if not unicodedata.combining(c)))


def _word(key: str, locale: str) -> str | None:
    entry = entries(locale).get(key)
    return entry.text if entry is not None else None


def typed_name(game: Game, name: str, locale: str | None) -> str:
    """The name of option ``name`` as a player of ``locale`` types it (``等級``); its id without one."""
    return _word(f"{game.id}.option.{name}.name", resolve_locale(locale)) or name


def typed_value(game: Game, name: str, value: object, locale: str | None) -> str:
    """A choice of option ``name`` as a player of ``locale`` types it (``開``); the choice itself else."""
    return _word(f"{game.id}.option.{name}.{value}.value", resolve_locale(locale)) or str(value)


def exact(text: str) -> str:
    """A spelling with width and case set aside, accents kept."""
    return unicodedata.normalize("NFKC", text).casefold()


@dataclass(frozen=True)
class Vocabulary:
    """Every spelling, in every catalogue, of a game's option names and of their choices."""

    names: Mapping[str, frozenset[str]]  # exact spelling -> the options it names
    loose: Mapping[str, frozenset[str]]  # spelling without accents -> the options it names
    values: Mapping[str, Mapping[str, tuple[object, ...]]]  # option -> folded word -> the choices it names

    def options_named(self, typed: str) -> frozenset[str]:
        """The options ``typed`` names: spelled exactly (``nível``), else without accents (``nivel``)."""
        return self.names.get(exact(typed)) or self.loose.get(fold(typed), frozenset())


def vocabulary(game: Game) -> Vocabulary:
    names: dict[str, set[str]] = {}
    loose: dict[str, set[str]] = {}
    values: dict[str, dict[str, list[object]]] = {}
    locales = [DEFAULT_LOCALE, *available_locales()]
    for name, spec in game.options().items():
        for spelling in {name} | {typed_name(game, name, locale) for locale in locales}:
            names.setdefault(exact(spelling), set()).add(name)
            loose.setdefault(fold(spelling), set()).add(name)
        words = values.setdefault(name, {})
        for choice in spec["choices"]:
            spellings = {str(choice)} | {typed_value(game, name, choice, locale) for locale in locales}
            for spelling in spellings:
                found = words.setdefault(fold(spelling), [])
                if choice not in found:
                    found.append(choice)
    return Vocabulary(
        {word: frozenset(options) for word, options in names.items()},
        {word: frozenset(options) for word, options in loose.items()},
        {name: {word: tuple(choices) for word, choices in words.items()} for name, words in values.items()},
    )


def parse(game: Game, text: str | None, locale: str | None = None) -> dict[str, object]:
    """``等級=2 記憶=開`` (or ``level=2 memory=on``, or a mix) into ``{"level": 2, "memory": "on"}``.

    Raises OptionsRefused, worded for ``locale``, on a word that is not ``option=value``, a name
    no option or several options answer to, or a value the option does not take.
    """
    spec = game.options()
    known = vocabulary(game)
    given: dict[str, object] = {}
    for word in SEPARATORS.split(unicodedata.normalize("NFKC", text or "").strip()):
        if not word:
            continue
        if not spec:
            raise OptionsRefused("error.no-options", option=word[:SHOWN])
        name_typed, sep, raw = word.partition("=")
        meant = known.options_named(name_typed)
        if len(meant) > 1:
            raise OptionsRefused(
                "error.option-ambiguous", option=name_typed[:SHOWN], names=names_shown(game, sorted(meant), locale)
            )
        if not meant:
            raise OptionsRefused(
                "error.bad-option",
                option=word[:SHOWN],
                names=names_shown(game, sorted(spec), locale),
                example=example(game, locale) or "",
            )
        (name,) = meant
        choices = known.values[name].get(fold(raw), ()) if sep else ()
        if len(choices) != 1:  # no value, or one the option does not take
            shown = [typed_value(game, name, c, locale) for c in spec[name]["choices"]]
            raise OptionsRefused(
                "error.bad-option-value", option=typed_name(game, name, locale), choices=listing(shown, locale, "or")
            )
        given[name] = choices[0]
    return given


def names_shown(game: Game, names: list[str], locale: str | None) -> str:
    """The options ``names`` as a refusal lists them: the reader's word, with the id when it differs."""
    shown = []
    for name in names:
        word = typed_name(game, name, locale)
        shown.append(f"`{word}`" if fold(word) == fold(name) else t("options.name-and-id", locale, name=word, id=name))
    return listing(shown, locale)


def example(game: Game, locale: str | None) -> str | None:
    """``等級=2``: the game's first option with a value other than its default, in the reader's words."""
    options = sorted(game.options().items())
    if not options:
        return None
    name, spec = options[0]
    value = ([c for c in spec["choices"] if c != spec.get("default")] or spec["choices"])[0]
    return f"{typed_name(game, name, locale)}={typed_value(game, name, value, locale)}"


def matches(game: Game, combination: Mapping[str, object], typed: str) -> bool:
    """Whether what is typed so far (``等級=2``, ``nív``) fits ``combination`` of the game's options:
    each finished ``name=value`` must name its choice; a word being typed must begin a name."""
    known = vocabulary(game)
    for word in SEPARATORS.split(unicodedata.normalize("NFKC", typed).strip()):
        if not word:
            continue
        name_typed, sep, raw = word.partition("=")
        if not sep:
            if not any(spelling.startswith(fold(name_typed)) for spelling in known.loose):
                return False
            continue
        meant = known.options_named(name_typed)
        if len(meant) != 1:
            return False
        (name,) = meant
        wanted = fold(raw)
        spellings = [word for word, choices in known.values[name].items() if combination.get(name) in choices]
        if not any(spelling.startswith(wanted) for spelling in spellings):
            return False
    return True
