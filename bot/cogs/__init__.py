"""Slash-command cogs, and the choices they share."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.service import Refusal

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
