"""Who reads which language: a table's public posts in the table's language, a private answer in
the reader's Discord language, a DM in the language last seen from its recipient.

A table's language is one of ``LANGUAGES`` (the catalogues the bot is translated into), chosen at
``/table create``, else the server's setting in ``/meeple settings``, else the server's own
preferred locale when a catalogue reads it, else English.
"""

from __future__ import annotations

import discord
from discord import app_commands

from l10n.words import DEFAULT_LOCALE, resolve_locale

# Each language named in itself: a reader finds their own language whatever the client shows.
LANGUAGES: dict[str, str] = {"en": "English", "zh-TW": "繁體中文", "pt-BR": "Português (Brasil)"}
LANGUAGE_CHOICES = [app_commands.Choice(name=label, value=code) for code, label in LANGUAGES.items()]


def language_name(code: str | None) -> str:
    return LANGUAGES.get(code or DEFAULT_LOCALE, LANGUAGES[DEFAULT_LOCALE])


def table_language_of(locale: str | None) -> str:
    """The table language a Discord locale stands for: its catalogue when it is one of ours
    (``zh-TW``, ``pt-BR``, ``en-GB`` -> ``en``), else English (``zh-CN`` is not ``zh-TW``)."""
    if locale in LANGUAGES:
        return locale
    resolved = resolve_locale(locale)
    return resolved if resolved in LANGUAGES else DEFAULT_LOCALE


def discord_locale(interaction: discord.Interaction) -> str:
    """The reader's Discord locale as Discord sent it (``zh-TW``, ``en-US``)."""
    return str(interaction.locale.value if interaction.locale else "en-US")


def guild_locale(interaction: discord.Interaction) -> str | None:
    """The server's preferred locale, from the interaction (or the cached server)."""
    if interaction.guild_locale is not None:
        return str(interaction.guild_locale.value)
    guild = interaction.guild
    return str(guild.preferred_locale.value) if guild is not None and guild.preferred_locale else None
