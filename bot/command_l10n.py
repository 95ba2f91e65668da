"""Slash commands in the user's language: names, descriptions and choices from the catalogues.

discord.py asks an ``app_commands.Translator`` for every string of the command tree in every
Discord locale when it builds the payload it syncs; Discord then shows each user the commands in
their client's language. The decorators stay in English (the default Discord shows everyone else);
each string's catalogue key is derived from where it sits, so no decorator names a key:

- ``command.<qualified name>.name`` / ``.description`` for commands and groups
  (``command.table.create.description``);
- ``command.<qualified name>.option.<option>.name`` / ``.description`` for options;
- ``command.choice.<its English name, slugged>`` for a choice (``command.choice.no-limit``): a
  choice knows neither its option nor its command, and one value means different things in
  different options, so the English wording identifies it. The languages offered by name in
  their own language (``language:`` options) are never translated.

Only a catalogue of the locale's own region translates (``zh-TW`` never reads another Chinese):
a locale with no catalogue, and English, send nothing, so Discord shows the default. A translated
name that breaks Discord's rules (lowercase, no spaces, at most 32 characters) is dropped with a
warning rather than failing the whole sync.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
import regex
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from l10n import DEFAULT_LOCALE, available_locales, entries, resolve_locale

log = logging.getLogger("meeple.commands")

# Discord's rule for chat-input command and option names, as its documentation writes it: letters
# and numbers of any script, Devanagari and Thai whole (their vowel signs are marks, which \w
# leaves out: खेल and เล่น are valid names), '-', '_' and "'"; lower case wherever the script has
# case. Descriptions and choice names 1-100.
NAME = regex.compile(r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
DESCRIPTION_MAX = 100
NAME_WHERE = frozenset({Where.command_name, Where.group_name, Where.parameter_name})


def string_key(location: Where, data: Any) -> str | None:
    """The catalogue key of a command-tree string, from where it sits; None for other strings."""
    if location in (Where.command_name, Where.command_description, Where.group_name, Where.group_description):
        path = data.qualified_name.replace(" ", ".")
        part = "name" if location in NAME_WHERE else "description"
        return f"command.{path}.{part}"
    if location in (Where.parameter_name, Where.parameter_description):
        path = data.command.qualified_name.replace(" ", ".")
        part = "name" if location in NAME_WHERE else "description"
        return f"command.{path}.option.{data.name}.{part}"
    if location is Where.choice_name:
        if str(data.value) in available_locales():
            return None  # a language's own name (繁體中文, Português (Brasil)) reads the same for everyone
        return f"command.choice.{slug(data.name)}"
    return None


def slug(text: str) -> str:
    """``Make a legal move for them`` -> ``make-a-legal-move-for-them`` (at most 60 characters)."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))[:60].strip("-")


def valid(text: str, location: Where) -> bool:
    """Whether Discord accepts ``text`` at ``location`` (names: its pattern and lower case)."""
    if location in NAME_WHERE:
        return bool(NAME.match(text)) and text == text.lower()
    return 1 <= len(text) <= DESCRIPTION_MAX


def catalogue_for(locale: discord.Locale) -> str | None:
    """The catalogue that translates commands for a Discord locale, or None to show the default."""
    name = resolve_locale(locale.value)
    if name == DEFAULT_LOCALE:
        return None
    # resolve_locale falls back from a region to its bare language; commands want the exact one.
    if name.lower() != locale.value.lower() and "-" in name:
        return None
    return name


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        name = catalogue_for(locale)
        if name is None:
            return None
        key = string_key(context.location, context.data)
        if key is None:
            return None
        entry = entries(name).get(key)  # that catalogue's own message: no English fallback
        if entry is None:
            return None
        text = entry.text
        if not valid(text, context.location):
            log.warning("%s: the %s translation %r breaks Discord's rules; left out", key, name, text)
            return None
        return text
