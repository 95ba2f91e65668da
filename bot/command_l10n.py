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

A description may refer to another command (``{/meeple profile}``): it is filled with that
command's name in the same language (``l10n.plain_commands``), the name the sentences of the bot
use too, so no text names a command otherwise than Discord shows it.

Only a catalogue of the locale's own region translates (``zh-TW`` never reads another Chinese):
a locale with no catalogue, and English, send nothing, so Discord shows the default. A translated
name that breaks Discord's rules (lowercase, no spaces, at most 32 characters) is dropped with a
warning rather than failing the whole sync.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from l10n import DEFAULT_LOCALE, available_locales, entries, plain_commands, resolve_locale, valid_command_name

log = logging.getLogger("meeple.commands")

# Names follow Discord's rule (l10n.valid_command_name, which the sentences naming a command use
# too); descriptions and choice names 1-100.
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
        return choice_key(data.name)
    return None


def choice_key(name: str) -> str:
    """The catalogue key of a choice, from its English name (``No limit`` -> ``command.choice.no-limit``)."""
    return f"command.choice.{slug(name)}"


def slug(text: str) -> str:
    """``Make a legal move for them`` -> ``make-a-legal-move-for-them`` (at most 60 characters)."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))[:60].strip("-")


def valid(text: str, location: Where) -> bool:
    """Whether Discord accepts ``text`` at ``location`` (names: its pattern and lower case)."""
    if location in NAME_WHERE:
        return valid_command_name(text)
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
        text = entry.text if context.location in NAME_WHERE else plain_commands(entry.text, name)
        if not valid(text, context.location):
            log.warning("%s: the %s translation %r breaks Discord's rules; left out", key, name, text)
            return None
        return text


class CommandMentions:
    """The ids Discord gave the bot's commands, learned when the bot syncs or fetches them: a
    sentence's command reference (``{/table create}``) is then a mention, ``</table create:ID>``.

    Discord's message formatting writes a command as ``</NAME:COMMAND_ID>``, a subcommand as
    ``</NAME SUBCOMMAND:ID>`` (a group's as ``</NAME GROUP SUBCOMMAND:ID>``), always with the
    top-level command's id and the English base names; each reader's client shows it in their own
    language, and a click puts the command in their message box. Before the ids are known (no sync
    or fetch has answered yet) the reference stays the localized ``/name sub`` text.
    """

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def learn(self, commands: Iterable[app_commands.AppCommand]) -> None:
        """Remember the ids of the chat-input commands Discord answered with (a sync or a fetch)."""
        self.ids = {c.name: c.id for c in commands if c.type is discord.AppCommandType.chat_input}

    def mention(self, path: str) -> str | None:
        """``table create`` -> ``</table create:ID>``; None while the command's id is unknown."""
        command_id = self.ids.get(path.split()[0]) if path.strip() else None
        return None if command_id is None else f"</{' '.join(path.split())}:{command_id}>"
