"""Sync the slash commands with Discord only when they changed since the last successful sync.

Discord rate-limits command syncs (and discord.py's examples advise against syncing at every
start), so the bot keeps, per application and target (global, or the development guild), a hash
of the exact payload it last sent, and skips the sync when the tree would send the same again.

Either way the bot learns its commands' ids (from the sync's answer, else by fetching them), so
its messages can mention commands (bot/command_l10n.py ``CommandMentions``).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.command_l10n import CommandMentions
from services.storage import Database, bot_meta

log = logging.getLogger("meeple.commands")


async def command_payload(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
    """The JSON ``tree.sync(guild=guild)`` would send: the same commands, translated the same way."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


def payload_digest(payload: list[dict[str, Any]]) -> str:
    """A stable hash of a command payload (key order does not matter; list order does, as for Discord)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sync_key(application_id: int | None, guild: discord.abc.Snowflake | None) -> str:
    """Where the hash of one target's last sync is kept: another application or guild syncs anew."""
    target = "global" if guild is None else f"guild:{guild.id}"
    return f"commands-synced:{application_id}:{target}"


async def sync_if_changed(
    tree: app_commands.CommandTree,
    db: Database,
    application_id: int | None,
    guild: discord.abc.Snowflake | None = None,
    *,
    force: bool = False,
    mentions: CommandMentions | None = None,
) -> bool:
    """Sync ``tree`` to ``guild`` (global when None) unless it is what was last synced; True if it synced.

    The hash is stored only once Discord has accepted the commands, so a failed sync is tried
    again at the next start. ``mentions`` learns the commands' ids from the sync, or, when nothing
    is synced, from a fetch.
    """
    where = "globally" if guild is None else f"to guild {guild.id}"
    digest = payload_digest(await command_payload(tree, guild))
    key = sync_key(application_id, guild)
    if not force and await bot_meta.get(db, key) == digest:
        log.info("commands unchanged since the last sync %s: not syncing (--sync-commands forces it)", where)
        if mentions is not None:
            await learn_ids(tree, guild, mentions)
        return False
    synced = await tree.sync(guild=guild)
    await bot_meta.put(db, key, digest)
    log.info("commands synced %s%s", where, " (forced)" if force else "")
    if mentions is not None:
        mentions.learn(synced)
    return True


async def learn_ids(
    tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None, mentions: CommandMentions
) -> None:
    """Fetch the commands registered on Discord for ``guild`` (global when None) and learn their ids.

    A failure leaves the commands named as text: the bot works the same without mentions.
    """
    try:
        mentions.learn(await tree.fetch_commands(guild=guild))
    except (discord.HTTPException, OSError) as exc:
        log.warning("could not fetch the commands' ids (%s): commands are named without mentions", exc)
