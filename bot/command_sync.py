"""Sync the slash commands with Discord only when they changed since the last successful sync.

Discord rate-limits command syncs (and discord.py's examples advise against syncing at every
start), so the bot keeps, per application and target (global, or the development guild), a hash
of the exact payload it last sent, and skips the sync when the tree would send the same again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.storage import Database, bot_meta

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
) -> bool:
    """Sync ``tree`` to ``guild`` (global when None) unless it is what was last synced; True if it synced.

    The hash is stored only once Discord has accepted the commands, so a failed sync is tried
    again at the next start.
    """
    where = "globally" if guild is None else f"to guild {guild.id}"
    digest = payload_digest(await command_payload(tree, guild))
    key = sync_key(application_id, guild)
    if not force and await bot_meta.get(db, key) == digest:
        log.info("commands unchanged since the last sync %s: not syncing (--sync-commands forces it)", where)
        return False
    await tree.sync(guild=guild)
    await bot_meta.put(db, key, digest)
    log.info("commands synced %s%s", where, " (forced)" if force else "")
    return True
