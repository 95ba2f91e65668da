"""What one person sees, as JSON for the page: channels, messages, commands, unread marks."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from emulator.emulator import Emulator
from emulator.model import PRIVATE_THREAD, Channel, Message, User
from sandbox.world import World

MENTION = re.compile(r"<@!?(\d+)>")
AVATAR_COLOURS = ("#e67e22", "#3498db", "#2ecc71", "#e91e63", "#9b59b6")
BOT_COLOUR = "#5865f2"
SHOWN = 250  # newest messages sent per channel; a whole game stays well under it in one view


def person(user: User, index: int | None = None) -> dict[str, Any]:
    """A user as the page draws it."""
    colour = BOT_COLOUR if user.bot else AVATAR_COLOURS[(index or 0) % len(AVATAR_COLOURS)]
    return {
        "id": str(user.id),
        "name": user.global_name or user.username,
        "username": user.username,
        "bot": user.bot,
        "colour": colour,
        "locale": user.locale,
    }


def channel_info(channel: Channel) -> dict[str, Any]:
    """A channel of the sidebar."""
    return {
        "id": str(channel.id),
        "name": channel.name,
        "topic": channel.topic,
        "thread": channel.is_thread,
        "private": channel.type == PRIVATE_THREAD,
        "parent_id": str(channel.parent_id) if channel.parent_id else None,
    }


def localizations(item: dict[str, Any], field: str) -> dict[str, str]:
    """What the bot registered for ``field`` in other Discord locales (``name_localizations``)."""
    return {str(k): str(v) for k, v in (item.get(f"{field}_localizations") or {}).items() if v}


def command_options(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Option schemas the page needs: name, type, description, required, choices, autocomplete,
    and each one's localizations (the page shows a person's client language, as Discord does)."""
    return [
        {
            "name": o["name"],
            "name_localizations": localizations(o, "name"),
            "type": o.get("type"),
            "description": o.get("description", ""),
            "description_localizations": localizations(o, "description"),
            "required": bool(o.get("required")),
            "choices": [
                {"name": c["name"], "name_localizations": localizations(c, "name"), "value": c["value"]}
                for c in o.get("choices") or []
            ],
            "autocomplete": bool(o.get("autocomplete")),
            "min_value": o.get("min_value"),
            "max_value": o.get("max_value"),
        }
        for o in options
    ]


def commands(emu: Emulator, world: World) -> list[dict[str, Any]]:
    """Every invocable chat command, flattened: `table create`, `table join`, ...

    ``name`` is what is invoked; ``name_localizations`` the same path in each locale the bot
    translated, each word its own localization or the default (`桌 建立` or `table 建立`).
    """
    found: dict[str, dict[str, Any]] = {}
    for command in emu.commands() + emu.commands(world.guild):
        if command.type != 1:
            continue
        item = {**command.raw, "name": command.name, "description": command.description, "options": command.options}
        _flatten(found, [item], item["options"])
    return sorted(found.values(), key=lambda c: c["name"])


def _flatten(found: dict[str, dict[str, Any]], parts: list[dict[str, Any]], options: list[dict[str, Any]]) -> None:
    subs = [o for o in options if o.get("type") in (1, 2)]
    if not subs:
        path = " ".join(p["name"] for p in parts)
        locales = set().union(*(localizations(p, "name") for p in parts))
        last = parts[-1]
        found[path] = {
            "name": path,
            "name_localizations": {
                locale: " ".join(localizations(p, "name").get(locale, p["name"]) for p in parts)
                for locale in sorted(locales)
            },
            "description": last.get("description", ""),
            "description_localizations": localizations(last, "description"),
            "options": command_options(options),
        }
        return
    for sub in subs:
        _flatten(found, [*parts, sub], sub.get("options") or [])


def attachment_url(message: Message, attachment_id: int, filename: str, viewer: User) -> str:
    """Where the page loads an attachment (served only to whoever may see the message)."""
    return f"api/attachments/{message.id}/{attachment_id}/{quote(filename)}?as={viewer.id}"


def message(msg: Message, viewer: User) -> dict[str, Any]:
    """One message as the page draws it."""
    meta = msg.interaction_metadata or {}
    used = None
    if meta.get("name"):
        used = {"user_id": str(meta.get("user", {}).get("id")), "command": meta["name"]}
    return {
        "id": str(msg.id),
        "channel_id": str(msg.channel_id),
        "author_id": str(msg.author.id),
        "timestamp": msg.timestamp,
        "edited": msg.edited_timestamp is not None,
        "content": msg.content,
        "embeds": msg.embeds,
        "components": msg.components,
        "attachments": [
            {
                "id": str(a.id),
                "filename": a.filename,
                "description": a.description or "",
                "url": attachment_url(msg, a.id, a.filename, viewer),
                "image": (a.content_type or "").startswith("image/") or a.filename.lower().endswith(".png"),
                "size": a.size,
            }
            for a in msg.attachments
        ],
        "ephemeral": msg.ephemeral,
        "loading": msg.loading,
        "used": used,
        "mentions_you": str(viewer.id) in MENTION.findall(msg.content),
    }


def visible(emu: Emulator, channel: Channel, viewer: User) -> list[Message]:
    """Messages of a channel the viewer may see, oldest first."""
    return emu.visible_to(viewer, channel)


def unread(messages: list[Message], viewer: User, last_seen: str | None) -> dict[str, int]:
    """How many messages arrived after `last_seen`, and how many of those mention the viewer."""
    after = int(last_seen) if last_seen and last_seen.isdigit() else 0
    new = [m for m in messages if m.id > after and m.author.id != viewer.id]
    return {"unread": len(new), "mentions": sum(1 for m in new if str(viewer.id) in MENTION.findall(m.content))}


def dm_channel(emu: Emulator, viewer: User) -> Channel | None:
    """The viewer's DM channel with the bot, if the bot ever wrote."""
    channel_id = emu.state.dm_channels.get(viewer.id)
    return emu.state.channels.get(channel_id) if channel_id else None


def view(
    emu: Emulator, world: World, viewer: User, channel: Channel | None, seen: dict[str, str] | None = None
) -> dict[str, Any]:
    """Everything one page shows: the open channel, the viewer's DMs and the sidebar's unread marks.

    `seen` maps a channel id to the newest message id the viewer has seen there.
    """
    seen = seen or {}
    shown: list[Message] = visible(emu, channel, viewer)[-SHOWN:] if channel is not None else []
    dm = dm_channel(emu, viewer)
    dms = emu.messages(dm)[-SHOWN:] if dm is not None else []
    counts = {}
    listed = world.channels(viewer)
    for each in listed:
        counts[str(each.id)] = unread(visible(emu, each, viewer), viewer, seen.get(str(each.id)))
    if dm is not None:
        counts[str(dm.id)] = unread(dms, viewer, seen.get(str(dm.id)))
    return {
        "type": "view",
        "user_id": str(viewer.id),
        "channel_id": str(channel.id) if channel is not None else None,
        "messages": [message(m, viewer) for m in shown],
        "dm": {
            "channel_id": str(dm.id) if dm is not None else None,
            "messages": [message(m, viewer) for m in dms],
        },
        "counts": counts,
        # Live: a thread the bot creates appears at once in the channel list of every open page
        # that may see it (a private thread: its members' only).
        "channels": [channel_info(c) for c in listed],
        "commands": commands(emu, world),
        # Live too: a person renamed in one tab is renamed in every other.
        "people": [person(u, i) for i, u in enumerate(world.people)],
    }
