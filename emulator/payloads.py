"""Serialise state objects into the JSON shapes Discord sends (see discord/types/*.py)."""

from __future__ import annotations

from typing import Any

from emulator.model import (
    Application,
    ApplicationCommand,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    State,
    User,
)


def sid(value: int | None) -> str | None:
    """Snowflakes travel as strings."""
    return None if value is None else str(value)


def user(u: User) -> dict[str, Any]:
    """A user object."""
    data: dict[str, Any] = {
        "id": str(u.id),
        "username": u.username,
        "discriminator": "0",
        "global_name": u.global_name,
        "avatar": u.avatar,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "primary_guild": None,
    }
    if u.bot:
        data["bot"] = True
    return data


def role(r: Role) -> dict[str, Any]:
    """A role object."""
    data: dict[str, Any] = {
        "id": str(r.id),
        "name": r.name,
        "color": r.color,
        "colors": {"primary_color": r.color, "secondary_color": None, "tertiary_color": None},
        "hoist": r.hoist,
        "icon": None,
        "unicode_emoji": None,
        "position": r.position,
        "permissions": str(r.permissions),
        "managed": r.managed,
        "mentionable": r.mentionable,
        "flags": 0,
    }
    if r.bot_id is not None:
        data["tags"] = {"bot_id": str(r.bot_id)}
    return data


def member(m: Member, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
    """A guild member object (interaction members carry their permissions)."""
    data: dict[str, Any] = {
        "roles": [str(r) for r in m.role_ids],
        "joined_at": m.joined_at,
        "nick": m.nick,
        "avatar": None,
        "banner": None,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(m.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def channel(state: State, c: Channel, *, permissions: int | None = None) -> dict[str, Any]:
    """A channel object: guild text channel, thread or DM."""
    data: dict[str, Any] = {"id": str(c.id), "type": c.type, "flags": 0, "last_message_id": sid(c.last_message_id)}
    if c.is_dm:
        recipient = state.dm_recipient(c)
        data["recipients"] = [user(recipient)] if recipient else []
    else:
        data.update(
            guild_id=str(c.guild_id),
            name=c.name,
            parent_id=sid(c.parent_id),
            rate_limit_per_user=0,
            nsfw=False,
        )
    if c.is_thread:
        data.update(
            owner_id=sid(c.owner_id),
            member_count=min(len(c.thread_member_ids), 50),
            message_count=len([m for m in c.messages if m.ephemeral_to is None]),
            total_message_sent=c.total_message_sent,
            thread_metadata={
                "archived": c.archived,
                "auto_archive_duration": c.auto_archive_duration,
                "archive_timestamp": c.archive_timestamp,
                "locked": c.locked,
                "invitable": True,
                "create_timestamp": c.archive_timestamp,
            },
        )
        if state.bot.id in c.thread_member_ids:
            data["member"] = {
                "id": str(c.id),
                "user_id": str(state.bot.id),
                "join_timestamp": c.archive_timestamp,
                "flags": 0,
            }
    elif not c.is_dm:
        data.update(
            position=c.position,
            topic=c.topic,
            permission_overwrites=[
                {"id": str(o.id), "type": o.type, "allow": str(o.allow), "deny": str(o.deny)}
                for o in c.overwrites.values()
            ],
            default_auto_archive_duration=1440,
        )
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def guild(state: State, g: Guild, *, members: list[Member]) -> dict[str, Any]:
    """A full guild object as in GUILD_CREATE (channels, active threads, roles, the given members)."""
    channels = [state.channels[i] for i in g.channel_ids]
    bot_member = g.members.get(state.bot.id)
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(g.owner_id),
        "region": "deprecated",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": g.locale,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "vanity_url_code": None,
        "features": [],
        "emojis": [],
        "stickers": [],
        "roles": [role(r) for r in g.roles.values()],
        "unavailable": False,
        "large": False,
        "lazy": True,
        "joined_at": bot_member.joined_at if bot_member else None,
        "member_count": len(g.members),
        "max_members": 500000,
        "members": [member(m) for m in members],
        "channels": [channel(state, c) for c in channels if not c.is_thread],
        "threads": [channel(state, c) for c in state.active_threads(g)],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "incidents_data": None,
    }


def attachment(a: Attachment) -> dict[str, Any]:
    """An attachment object (its url serves the bytes from the emulator)."""
    data: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": a.url,
        "proxy_url": a.url,
        "flags": 0,
    }
    if a.content_type:
        data["content_type"] = a.content_type
    if a.description:
        data["description"] = a.description
    if a.ephemeral:
        data["ephemeral"] = True
    return data


def message(state: State, m: Message, *, gateway: bool = False) -> dict[str, Any]:
    """A message object; gateway events also carry guild_id and the author's member."""
    mentions = []
    guild_ = state.guilds.get(m.guild_id) if m.guild_id else None
    for uid in m.mention_ids:
        mentioned = state.users.get(uid)
        if mentioned is None:
            continue
        entry = user(mentioned)
        if guild_ and uid in guild_.members:
            entry["member"] = member(guild_.members[uid], with_user=False)
        mentions.append(entry)
    data: dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel_id),
        "type": m.type,
        "content": m.content,
        "author": user(m.author),
        "timestamp": m.timestamp,
        "edited_timestamp": m.edited_timestamp,
        "tts": m.tts,
        "mention_everyone": False,
        "mentions": mentions,
        "mention_roles": [],
        "mention_channels": [],
        "attachments": [attachment(a) for a in m.attachments],
        "embeds": m.embeds,
        "components": m.components,
        "pinned": m.pinned,
        "flags": m.flags,
        "reactions": [
            {
                "count": len(users),
                "count_details": {"burst": 0, "normal": len(users)},
                "me": state.bot.id in users,
                "me_burst": False,
                "burst_colors": [],
                "emoji": _emoji(name),
            }
            for name, users in m.reactions.items()
            if users
        ],
    }
    if m.nonce is not None:
        data["nonce"] = m.nonce
    if m.webhook_id is not None:
        data["webhook_id"] = str(m.webhook_id)
    if m.application_id is not None:
        data["application_id"] = str(m.application_id)
    if m.interaction_metadata is not None:
        data["interaction_metadata"] = m.interaction_metadata
    if m.message_reference is not None:
        data["message_reference"] = m.message_reference
        ref_id = m.message_reference.get("message_id")
        referenced = state.messages.get(int(ref_id)) if ref_id else None
        data["referenced_message"] = message(state, referenced) if referenced else None
    thread = state.channels.get(m.id)
    if thread is not None and thread.is_thread:
        data["thread"] = channel(state, thread)
    if gateway and guild_ is not None:
        data["guild_id"] = str(guild_.id)
        author_member = guild_.members.get(m.author.id)
        if author_member is not None:
            data["member"] = member(author_member, with_user=False)
    return data


def _emoji(name: str) -> dict[str, Any]:
    """A reaction emoji from its route form: `name` (unicode) or `name:id` (custom)."""
    if ":" in name:
        emoji_name, emoji_id = name.split(":", 1)
        return {"id": emoji_id, "name": emoji_name, "animated": False}
    return {"id": None, "name": name}


def command(c: ApplicationCommand) -> dict[str, Any]:
    """An application command object: what was registered plus Discord's fields."""
    data = dict(c.raw)
    data.update(
        id=str(c.id),
        application_id=str(c.application_id),
        version=str(c.version),
        name=c.name,
        type=c.type,
        description=c.description,
        options=c.options,
    )
    data.setdefault("default_member_permissions", None)
    data.setdefault("nsfw", False)
    data.setdefault("contexts", None)
    if data.get("integration_types") is None:  # sent as null or left out: Discord answers its default
        data["integration_types"] = [0]
    if c.guild_id is not None:
        data["guild_id"] = str(c.guild_id)
    return data


def application(app: Application) -> dict[str, Any]:
    """The application object of GET /oauth2/applications/@me."""
    return {
        "id": str(app.id),
        "name": app.name,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": app.verify_key,
        "flags": app.flags,
        "owner": user(app.owner),
        "team": None,
        "rpc_origins": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "integration_types_config": {"0": {}},
        "approximate_guild_count": 0,
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0,
        "eligible_oauth2_scopes": ["applications.commands", "bot"],
        "flags_new": str(app.flags),
    }
