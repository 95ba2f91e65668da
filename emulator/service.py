"""Discord's behaviour on messages, threads and DMs: checks, state changes and gateway events."""

from __future__ import annotations

import copy
import mimetypes
import re
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol
from urllib.parse import quote

from emulator import components as comp
from emulator import gateway as gw
from emulator import payloads
from emulator import permissions as perms
from emulator.bodies import Body, UploadedFile
from emulator.errors import (
    EMPTY_MESSAGE,
    ENTITY_TOO_LARGE,
    THREAD_ARCHIVED,
    ApiError,
    form_error,
    missing_access,
    missing_permissions,
)
from emulator.faults import Faults
from emulator.gateway import Gateway
from emulator.model import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SUPPRESS_EMBEDS,
    Attachment,
    Channel,
    Message,
    State,
    User,
    now_iso,
    snowflake_time,
)
from emulator.validation import validate_message

_MENTION = re.compile(r"<@!?(\d+)>")
_REPLY = 19
_SETTABLE_FLAGS = SUPPRESS_EMBEDS | COMPONENTS_V2 | (1 << 12)  # (1 << 12): SUPPRESS_NOTIFICATIONS
DESCRIPTION_LIMIT = 1024  # an attachment's description (its alt text), in characters
# How long Discord remembers a nonce for ``enforce_nonce`` ("the past few minutes").
NONCE_WINDOW = timedelta(minutes=5)


class ServiceHost(Protocol):
    """What the service needs from the emulator."""

    state: State
    gateway: Gateway
    faults: Faults
    upload_limit: int
    require_alt_text: bool

    @property
    def base_url(self) -> str: ...  # read-only: known once the emulator has bound its port

    def notify(self) -> None:
        """Wake anyone waiting on emulator state."""


class Service:
    """Mutations shared by the HTTP API and the user-side Python API."""

    def __init__(self, host: ServiceHost) -> None:
        self.host = host

    @property
    def state(self) -> State:
        """The emulator's state."""
        return self.host.state

    # -- gateway helpers ---------------------------------------------------------------------------

    def dispatch_message_event(self, event: str, message: Message, data: dict[str, Any] | None = None) -> None:
        """MESSAGE_* dispatch with the right intent and MESSAGE_CONTENT redaction."""
        if message.ephemeral_to is not None:
            return
        channel = self.state.channels[message.channel_id]
        intent = gw.DIRECT_MESSAGES if channel.is_dm else gw.GUILD_MESSAGES
        payload = data if data is not None else payloads.message(self.state, message, gateway=True)
        self.host.gateway.dispatch(event, payload, intent=intent, redact=self._redactor(message, channel))
        self.host.notify()

    def _redactor(self, message: Message, channel: Channel) -> Any:
        bot_id = self.state.bot.id

        def redact(data: dict[str, Any], intents: int) -> dict[str, Any]:
            if intents & gw.MESSAGE_CONTENT or channel.is_dm or message.author.id == bot_id:
                return data
            if bot_id in message.mention_ids:
                return data
            if not any(k in data for k in ("content", "embeds", "attachments", "components")):
                return data
            return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

        return redact

    def dispatch_channel_event(self, event: str, channel: Channel) -> None:
        """CHANNEL_*/THREAD_* dispatch (GUILDS intent)."""
        data = payloads.channel(self.state, channel)
        if event == "THREAD_CREATE":
            data["newly_created"] = True
        self.host.gateway.dispatch(event, data, intent=gw.GUILDS)
        self.host.notify()

    # -- sending -----------------------------------------------------------------------------------

    def check_bot_can_send(self, channel: Channel, *, with_files: bool = False) -> None:
        """Permission, archived-thread and closed-DM checks for a bot message."""
        if channel.is_dm:
            recipient = self.state.dm_recipient(channel)
            if recipient is not None:
                self.host.faults.check_dm(recipient.id)
            return
        value = self.state.permissions_in(channel, self.state.bot.id)
        if not value & perms.VIEW_CHANNEL:
            raise missing_access()
        if channel.is_thread:
            self.check_thread_open(channel)
        needed = perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES
        if with_files:
            needed |= perms.ATTACH_FILES
        if not perms.has(value, needed):
            raise missing_permissions()

    def check_thread_open(self, channel: Channel) -> None:
        """400 code 50083 on an archived thread."""
        if channel.is_thread and channel.archived:
            raise ApiError(400, THREAD_ARCHIVED, "Thread is archived")

    def check_upload_sizes(self, body: Body) -> None:
        """413 code 40005 for a file over the upload limit."""
        for upload in body.files:
            if len(upload.content) > self.host.upload_limit:
                raise ApiError(413, ENTITY_TOO_LARGE, "Request entity too large")

    def check_alt_text(self, author: User, body: Body) -> None:
        """Every file a bot uploads carries a description (its alt text) of at most 1,024 characters.

        Discord refuses a longer one (400 50035); a missing one it takes, but a strict harness does
        not: with ``Emulator(require_alt_text=True)`` (the tests' emulator) it is the same 400, so
        the test that posted it fails (``assert_clean``). People's own uploads are not checked."""
        if not author.bot or not body.files:
            return
        described: dict[int, tuple[int, Any]] = {}
        for index, item in enumerate(body.payload.get("attachments") or []):
            if isinstance(item, dict) and str(item.get("id", "")).isdecimal():
                described[int(item["id"])] = (index, item.get("description"))
        for upload in body.files:
            index, description = described.get(upload.index, (upload.index, None))
            field = f"attachments.{index}.description"
            if isinstance(description, str) and len(description) > DESCRIPTION_LIMIT:
                raise form_error(field, "BASE_TYPE_MAX_LENGTH", f"Must be {DESCRIPTION_LIMIT} or fewer in length.")
            if self.host.require_alt_text and not (isinstance(description, str) and description.strip()):
                raise form_error(
                    field, "BASE_TYPE_REQUIRED", f"This field is required: {upload.filename} has no alt text"
                )

    def post_message(
        self,
        channel: Channel,
        author: User,
        body: Body,
        *,
        ephemeral_to: int | None = None,
        webhook_id: int | None = None,
        interaction_metadata: dict[str, Any] | None = None,
        type_: int = 0,
        extra_flags: int = 0,
    ) -> Message:
        """Validate, store and announce a new message."""
        payload = body.payload
        self.check_upload_sizes(body)
        self.check_alt_text(author, body)
        if not extra_flags & LOADING:
            validate_message(payload, file_count=len(body.files))
        if payload.get("enforce_nonce") and payload.get("nonce") is not None:
            # Discord: a nonce seen from the same author in the past few minutes returns that
            # message, and no new one is created (a post repeated after a lost answer or a crash).
            earlier = self._by_nonce(channel, author, payload["nonce"])
            if earlier is not None:
                return earlier
        flags = (int(payload.get("flags") or 0) & _SETTABLE_FLAGS) | extra_flags
        if ephemeral_to is not None:
            flags |= EPHEMERAL
        reference = payload.get("message_reference")
        if reference:
            self._check_reference(channel, reference)
            type_ = _REPLY if type_ == 0 else type_
        message = Message(
            id=self.state.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=payload.get("content") or "",
            embeds=_embeds(payload.get("embeds")),
            components=_components(payload.get("components")),
            flags=flags,
            type=type_,
            tts=bool(payload.get("tts")),
            nonce=payload.get("nonce"),
            ephemeral_to=ephemeral_to,
            webhook_id=webhook_id,
            application_id=self.state.application.id if webhook_id else None,
            interaction_metadata=interaction_metadata,
            message_reference=_reference(channel, reference) if reference else None,
        )
        message.attachments = self._attachments(message, body, existing=[])
        message.mention_ids = _mentions(message.content)
        if ephemeral_to is None:
            message.notified_ids = _notified(payload.get("allowed_mentions"), message.mention_ids)
        self.state.add_message(message)
        self.dispatch_message_event("MESSAGE_CREATE", message)
        if channel.type == PRIVATE_THREAD and ephemeral_to is None:
            # Discord adds whoever a message in a private thread mentions (and may be notified) to it
            parent = self.state.channels.get(channel.parent_id or 0)
            for user_id in _notified(payload.get("allowed_mentions"), message.mention_ids):
                if parent is not None and self.state.permissions_in(parent, user_id):
                    self.add_thread_member(channel, user_id)
        self.host.notify()
        return message

    def _by_nonce(self, channel: Channel, author: User, nonce: object) -> Message | None:
        """The message ``author`` posted in ``channel`` with ``nonce`` within ``NONCE_WINDOW``."""
        since = datetime.now(UTC) - NONCE_WINDOW
        for message in reversed(channel.messages):
            if snowflake_time(message.id) < since:
                return None
            if message.author.id == author.id and message.nonce is not None and str(message.nonce) == str(nonce):
                return message
        return None

    def edit_message(self, message: Message, body: Body, *, finish_loading: bool = False) -> Message:
        """Apply a PATCH payload to a message and announce MESSAGE_UPDATE."""
        payload = body.payload
        self.check_upload_sizes(body)
        self.check_alt_text(message.author, body)
        validate_message(payload, file_count=len(body.files), partial=True)
        content = (payload.get("content") or "") if "content" in payload else message.content
        embeds = _embeds(payload.get("embeds")) if "embeds" in payload else message.embeds
        components = _components(payload.get("components")) if "components" in payload else message.components
        if "attachments" in payload or body.files:
            attachments = self._attachments(message, body, existing=message.attachments)
        else:
            attachments = message.attachments
        flags = message.flags
        if "flags" in payload and payload["flags"] is not None:
            flags = (flags & ~SUPPRESS_EMBEDS) | (int(payload["flags"]) & SUPPRESS_EMBEDS)
            flags |= int(payload["flags"]) & COMPONENTS_V2
        if finish_loading:
            flags &= ~LOADING
        if not (content or embeds or components or attachments) and not flags & LOADING:
            raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message")
        if flags & COMPONENTS_V2 and (content or embeds):
            raise form_error("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "Cannot use content")
        was_loading = message.loading
        message.content, message.embeds, message.components = content, embeds, components
        message.attachments, message.flags = attachments, flags
        message.mention_ids = _mentions(content)
        if not was_loading:
            message.edited_timestamp = now_iso()
            message.edit_count += 1
        self.dispatch_message_event("MESSAGE_UPDATE", message)
        self.host.notify()
        return message

    def delete_message(self, message: Message) -> None:
        """Remove a message and announce MESSAGE_DELETE."""
        self.state.remove_message(message)
        data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        self.dispatch_message_event("MESSAGE_DELETE", message, data)
        self.host.notify()

    def _check_reference(self, channel: Channel, reference: dict[str, Any]) -> None:
        ref_id = reference.get("message_id")
        ref_channel = int(reference.get("channel_id") or channel.id)
        target = self.state.messages.get(int(ref_id)) if ref_id else None
        if (target is None or target.channel_id != ref_channel) and reference.get("fail_if_not_exists", True):
            raise form_error("message_reference", "REPLIES_UNKNOWN_MESSAGE", "Unknown message")

    def _attachments(self, message: Message, body: Body, *, existing: list[Attachment]) -> list[Attachment]:
        by_index = {f.index: f for f in body.files}
        kept = {a.id: a for a in existing}
        meta = body.payload.get("attachments")
        result: list[Attachment] = []
        used: set[int] = set()
        if meta is not None:
            for index, item in enumerate(meta):
                raw = item.get("id")
                key = int(raw) if raw is not None else None
                if key in by_index and key not in used:
                    used.add(key)
                    result.append(self._store(message, by_index[key], item))
                elif key in kept:
                    result.append(kept[key])
                else:
                    raise form_error(f"attachments.{index}.id", "ATTACHMENT_NOT_FOUND", "Unknown attachment")
        elif existing:
            result.extend(existing)
        for upload in body.files:
            if upload.index not in used:
                result.append(self._store(message, upload, {}))
        return result

    def _store(self, message: Message, upload: UploadedFile, meta: dict[str, Any]) -> Attachment:
        attachment_id = self.state.ids.next()
        filename = meta.get("filename") or upload.filename
        content_type = upload.content_type
        if not content_type or content_type == "application/octet-stream":
            content_type = mimetypes.guess_type(filename)[0] or content_type
        attachment = Attachment(
            id=attachment_id,
            filename=filename,
            content=upload.content,
            url=f"{self.host.base_url}/attachments/{message.channel_id}/{attachment_id}/{quote(filename)}",
            content_type=content_type,
            description=meta.get("description"),
            ephemeral=message.ephemeral_to is not None,
        )
        self.state.attachments[attachment.id] = attachment
        return attachment

    # -- channels ----------------------------------------------------------------------------------

    def create_thread(
        self,
        parent: Channel,
        name: str,
        owner: User,
        *,
        private: bool = False,
        starter: Message | None = None,
        auto_archive_duration: int = 1440,
    ) -> Channel:
        """Create a thread (from a message when `starter` is given) and announce THREAD_CREATE."""
        if parent.is_thread or parent.is_dm:
            raise form_error("type", "CHANNEL_TYPE_INVALID", "Threads need a guild text channel")
        if not name or len(name) > 100:
            raise form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if starter is not None and self.state.channels.get(starter.id) is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        thread = self.state.add_thread(
            parent, name, owner=owner, private=private, thread_id=starter.id if starter else None
        )
        thread.auto_archive_duration = auto_archive_duration
        self.dispatch_channel_event("THREAD_CREATE", thread)
        return thread

    def add_thread_member(self, thread: Channel, user_id: int) -> None:
        """Make someone a member of a thread (THREAD_MEMBERS_UPDATE; for another user than the bot,
        only to sessions with the GUILD_MEMBERS intent, as Discord does)."""
        if user_id in thread.thread_member_ids:
            return
        thread.thread_member_ids.add(user_id)
        self._members_update(thread, added=[user_id], removed=[])

    def remove_thread_member(self, thread: Channel, user_id: int) -> None:
        """Take someone out of a thread (THREAD_MEMBERS_UPDATE, as for adding)."""
        if user_id not in thread.thread_member_ids:
            return
        thread.thread_member_ids.discard(user_id)
        self._members_update(thread, added=[], removed=[user_id])

    def _members_update(self, thread: Channel, *, added: list[int], removed: list[int]) -> None:
        data = {
            "id": str(thread.id),
            "guild_id": str(thread.guild_id),
            "member_count": min(len(thread.thread_member_ids), 50),
            "added_members": [
                {"id": str(thread.id), "user_id": str(u), "join_timestamp": now_iso(), "flags": 0} for u in added
            ],
            "removed_member_ids": [str(u) for u in removed],
        }
        about_bot = self.state.bot.id in added + removed
        self.host.gateway.dispatch("THREAD_MEMBERS_UPDATE", data, intent=gw.GUILDS if about_bot else gw.GUILD_MEMBERS)
        self.host.notify()

    def update_channel(self, channel: Channel, patch: dict[str, Any], *, by: User) -> Channel:
        """PATCH /channels/{id}: rename, retopic, (un)archive, (un)lock; announces the update."""
        value = self.state.permissions_in(channel, by.id) if channel.guild_id else 0
        if channel.is_dm:
            raise missing_permissions()
        if channel.is_thread:
            if "locked" in patch and not perms.has(value, perms.MANAGE_THREADS):
                raise missing_permissions()
            if channel.locked and not perms.has(value, perms.MANAGE_THREADS):
                raise missing_permissions()
            if "archived" in patch:
                archived = bool(patch["archived"])
                if archived != channel.archived:
                    channel.archived = archived
                    channel.archive_timestamp = now_iso()
            if "locked" in patch:
                channel.locked = bool(patch["locked"])
            if "auto_archive_duration" in patch:
                channel.auto_archive_duration = int(patch["auto_archive_duration"])
        elif not perms.has(value, perms.MANAGE_CHANNELS):
            raise missing_permissions()
        if "name" in patch:
            if not patch["name"] or len(patch["name"]) > 100:
                raise form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            channel.name = patch["name"]
        if "topic" in patch and not channel.is_thread:
            channel.topic = patch["topic"]
        self.dispatch_channel_event("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel)
        return channel

    def set_reaction(self, message: Message, emoji: str, user: User, *, add: bool) -> None:
        """Add or remove one user's reaction and announce it."""
        users = message.reactions.setdefault(emoji, [])
        if add == (user.id in users):
            return
        if add:
            users.append(user.id)
        else:
            users.remove(user.id)
        channel = self.state.channels[message.channel_id]
        data: dict[str, Any] = {
            "user_id": str(user.id),
            "channel_id": str(channel.id),
            "message_id": str(message.id),
            "emoji": payloads._emoji(emoji),
            "burst": False,
            "type": 0,
        }
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
            guild = self.state.guilds[channel.guild_id]
            if add and user.id in guild.members:
                data["member"] = payloads.member(guild.members[user.id])
        if add:
            data["message_author_id"] = str(message.author.id)
        intent = gw.DIRECT_MESSAGE_REACTIONS if channel.is_dm else gw.GUILD_MESSAGE_REACTIONS
        event = "MESSAGE_REACTION_ADD" if add else "MESSAGE_REACTION_REMOVE"
        self.host.gateway.dispatch(event, data, intent=intent)
        self.host.notify()


def wants_private_thread(value: Any) -> bool:
    """True when a thread creation payload asks for a private thread."""
    return int(value or PUBLIC_THREAD) == PRIVATE_THREAD


def _embeds(raw: Any) -> list[dict[str, Any]]:
    embeds = copy.deepcopy(list(raw or []))
    for embed in embeds:
        embed.setdefault("type", "rich")
        embed.setdefault("content_scan_version", 0)
    return embeds


def _components(raw: Any) -> list[dict[str, Any]]:
    components = copy.deepcopy(list(raw or []))
    comp.assign_ids(components)
    for component in comp.walk(components):
        for key, default in _ANSWERED_DEFAULTS.get(component.get("type"), {}).items():
            if component.get(key) is None and (key not in component or default is not None):
                component[key] = default
        for item in [component, *(component.get("options") or [])]:
            _emoji(item)
    return components


# Fields Discord's answers always carry, with the value Discord gives when the bot left them out.
_SELECT_DEFAULTS = {"min_values": 1, "max_values": 1}
_ANSWERED_DEFAULTS: dict[Any, dict[str, Any]] = {
    **{kind: _SELECT_DEFAULTS for kind in comp.SELECT_TYPES},
    comp.CONTAINER: {"accent_color": None, "spoiler": False},
    14: {"spacing": 1, "divider": True},  # separator
    11: {"description": None, "spoiler": False},  # thumbnail
}


def _emoji(item: dict[str, Any]) -> None:
    """A component emoji as Discord answers it: a unicode emoji has no `id` (discord.py sends null)."""
    emoji = item.get("emoji")
    if isinstance(emoji, dict):
        if emoji.get("id") is None:
            emoji.pop("id", None)
        else:
            emoji["id"] = str(emoji["id"])


def _reference(channel: Channel, reference: dict[str, Any]) -> dict[str, Any]:
    data = {
        "type": 0,
        "message_id": str(reference.get("message_id")),
        "channel_id": str(reference.get("channel_id") or channel.id),
    }
    if channel.guild_id is not None:
        data["guild_id"] = str(reference.get("guild_id") or channel.guild_id)
    return data


def _notified(allowed: Any, mention_ids: list[int]) -> list[int]:
    """The mentioned users a message pings: all of them unless ``allowed_mentions`` narrows it."""
    if not isinstance(allowed, dict):
        return list(mention_ids)
    if "users" in (allowed.get("parse") or []):
        return list(mention_ids)
    listed = {int(u) for u in allowed.get("users") or [] if str(u).isdigit()}
    return [u for u in mention_ids if u in listed]


def _mentions(content: str) -> list[int]:
    seen: list[int] = []
    for match in _MENTION.finditer(content or ""):
        uid = int(match.group(1))
        if uid not in seen:
            seen.append(uid)
    return seen
