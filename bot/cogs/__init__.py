"""Slash-command cogs, and the choices they share."""

from __future__ import annotations

import discord
from discord import app_commands

from engine import GAMES, registry
from league.refusal import Refusal
from render.howto import SCENES

TIME_LIMIT_CHOICES = [
    app_commands.Choice(name="No limit", value=0),
    app_commands.Choice(name="1 day per move", value=24),
    app_commands.Choice(name="3 days per move", value=72),
    app_commands.Choice(name="7 days per move", value=168),
]
TIMEOUT_CHOICES = [
    app_commands.Choice(name="Make a legal move for them", value="auto"),
    app_commands.Choice(name="Skip their turn where the rules allow", value="skip"),
    app_commands.Choice(name="They forfeit the game", value="forfeit"),
]

# The choices that name games, derived from the registered games. discord.py keeps these very
# lists as the options' choices, so ``refresh_game_choices`` (at import, and when a cog is made)
# fills them in place: a game registered later (a test's game) is offered by the next bot.
GAME_CHOICES: list[app_commands.Choice[str]] = []
GUIDE_CHOICES: list[app_commands.Choice[str]] = []  # the games with a How to play guide
CHALLENGE_CHOICES: list[app_commands.Choice[str]] = []


def refresh_game_choices() -> None:
    # locale_str names: discord.py made the commands' strings translatable before these existed.
    named = app_commands.locale_str
    GAME_CHOICES[:] = [app_commands.Choice(name=named(g.title), value=g.id) for g in GAMES.values()]
    GUIDE_CHOICES[:] = [c for c in GAME_CHOICES if c.value in SCENES]
    modes = registry.challenge_modes().values()
    CHALLENGE_CHOICES[:] = [app_commands.Choice(name=named(m.name), value=m.key) for m in modes]


refresh_game_choices()


def guild_of(interaction: discord.Interaction) -> int:
    """The server a guild-only command was used in (Discord never sends those from a DM)."""
    if interaction.guild_id is None:
        raise Refusal("error.guild-only")
    return interaction.guild_id


def channel_of(interaction: discord.Interaction) -> int:
    """The channel (or thread) a command was used in."""
    if interaction.channel_id is None:
        raise Refusal("error.guild-only")
    return interaction.channel_id
