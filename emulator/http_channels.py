"""Channel routes: channels, messages (JSON and multipart), threads, reactions, pins, typing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from emulator import gateway as gw
from emulator import payloads
from emulator import permissions as perms
from emulator.bodies import read_body
from emulator.errors import (
    CANNOT_EDIT_OTHERS,
    UNKNOWN_MESSAGE,
    ApiError,
    form_error,
    missing_access,
    missing_permissions,
    not_found,
)
from emulator.http_api import API, json_response, no_content
from emulator.model import Channel, Message, now_iso
from emulator.service import wants_private_thread
from emulator.validation import validate_auto_archive

if TYPE_CHECKING:
    from emulator.emulator import Emulator

CHANNEL = f"{API}/channels/{{channel_id}}"
MESSAGE = f"{CHANNEL}/messages/{{message_id}}"


class ChannelRoutes:
    """Everything under /channels/{id}."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu

    def register(self, app: web.Application) -> None:
        """Add the routes (pins before {message_id} so they win)."""
        r = app.router
        r.add_get(CHANNEL, self.get_channel)
        r.add_patch(CHANNEL, self.edit_channel)
        r.add_delete(CHANNEL, self.delete_channel)
        r.add_post(f"{CHANNEL}/typing", self.typing)
        r.add_get(f"{CHANNEL}/messages", self.history)
        r.add_post(f"{CHANNEL}/messages", self.send)
        r.add_get(f"{CHANNEL}/messages/pins", self.pins)
        r.add_put(f"{CHANNEL}/messages/pins/{{message_id}}", self.pin)
        r.add_delete(f"{CHANNEL}/messages/pins/{{message_id}}", self.unpin)
        r.add_get(MESSAGE, self.get_message)
        r.add_patch(MESSAGE, self.edit_message)
        r.add_delete(MESSAGE, self.delete_message)
        r.add_post(f"{MESSAGE}/threads", self.thread_from_message)
        r.add_post(f"{CHANNEL}/threads", self.thread)
        r.add_get(f"{CHANNEL}/thread-members", self.thread_members)
        r.add_put(f"{CHANNEL}/thread-members/{{user_id}}", self.join_thread)
        r.add_delete(f"{CHANNEL}/thread-members/{{user_id}}", self.leave_thread)
        r.add_put(f"{MESSAGE}/reactions/{{emoji}}/@me", self.react)
        r.add_delete(f"{MESSAGE}/reactions/{{emoji}}/{{user_id}}", self.unreact)
        r.add_get(f"{MESSAGE}/reactions/{{emoji}}", self.reactors)
        r.add_delete(f"{MESSAGE}/reactions/{{emoji}}", self.clear_emoji)
        r.add_delete(f"{MESSAGE}/reactions", self.clear_reactions)

    # -- helpers -------------------------------------------------------------------------------------

    def _channel(self, request: web.Request, needed: int = perms.VIEW_CHANNEL) -> Channel:
        state = self.emu.state
        channel = state.channel(request.match_info["channel_id"])
        if channel.guild_id is not None:
            value = state.permissions_in(channel, state.bot.id)
            if not value & perms.VIEW_CHANNEL:
                raise missing_access()
            if not perms.has(value, needed):
                raise missing_permissions()
        return channel

    def _message(self, request: web.Request, channel: Channel) -> Message:
        message = self.emu.state.message(channel, request.match_info["message_id"])
        if message.ephemeral_to is not None:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return message

    def _can_manage(self, channel: Channel) -> bool:
        if channel.is_dm:
            return False
        return perms.has(self.emu.state.permissions_in(channel, self.emu.state.bot.id), perms.MANAGE_MESSAGES)

    # -- channels ------------------------------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        """GET /channels/{id}."""
        return json_response(payloads.channel(self.emu.state, self._channel(request)))

    async def edit_channel(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}: rename, (un)archive or (un)lock a thread."""
        channel = self._channel(request)
        body = await read_body(request)
        if channel.is_thread:
            validate_auto_archive(body.payload)
        self.emu.service.update_channel(channel, body.payload, by=self.emu.state.bot)
        return json_response(payloads.channel(self.emu.state, channel))

    async def delete_channel(self, request: web.Request) -> web.Response:
        """DELETE /channels/{id} (closing a DM is a no-op)."""
        state = self.emu.state
        channel = state.channel(request.match_info["channel_id"])
        data = payloads.channel(state, channel)
        if channel.is_dm:
            return json_response(data)
        needed = perms.MANAGE_THREADS if channel.is_thread else perms.MANAGE_CHANNELS
        self._channel(request, needed)
        for message in list(channel.messages):
            state.remove_message(message)
        state.channels.pop(channel.id, None)
        guild = state.guilds[channel.guild_id] if channel.guild_id else None
        if guild and channel.id in guild.channel_ids:
            guild.channel_ids.remove(channel.id)
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        self.emu.gateway.dispatch(event, data, intent=gw.GUILDS)
        self.emu.notify()
        return json_response(data)

    async def typing(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/typing."""
        self._channel(request)
        return no_content()

    # -- messages ------------------------------------------------------------------------------------

    async def history(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages?limit&before&after&around (newest first)."""
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        query = request.query
        limit = max(1, min(100, int(query.get("limit", 50))))
        public = [m for m in channel.messages if m.ephemeral_to is None]
        if "before" in query:
            public = [m for m in public if m.id < int(query["before"])][-limit:]
        elif "after" in query:
            public = [m for m in public if m.id > int(query["after"])][:limit]
        elif "around" in query:
            pivot = int(query["around"])
            older = [m for m in public if m.id <= pivot][-(limit // 2 + 1) :]
            newer = [m for m in public if m.id > pivot][: limit - len(older)]
            public = older + newer
        else:
            public = public[-limit:]
        return json_response([payloads.message(self.emu.state, m) for m in reversed(public)])

    async def send(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages (JSON or multipart with files)."""
        channel = self.emu.state.channel(request.match_info["channel_id"])
        body = await read_body(request)
        self.emu.service.check_upload_sizes(body)
        self.emu.service.check_bot_can_send(channel, with_files=bool(body.files))
        message = self.emu.service.post_message(channel, self.emu.state.bot, body)
        return json_response(payloads.message(self.emu.state, message))

    async def get_message(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages/{mid}."""
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        return json_response(payloads.message(self.emu.state, self._message(request, channel)))

    async def edit_message(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}/messages/{mid} (the bot's own messages)."""
        channel = self._channel(request)
        message = self._message(request, channel)
        body = await read_body(request)
        if message.author.id != self.emu.state.bot.id:
            raise ApiError(403, CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user")
        self.emu.service.check_thread_open(channel)
        self.emu.service.edit_message(message, body)
        return json_response(payloads.message(self.emu.state, message))

    async def delete_message(self, request: web.Request) -> web.Response:
        """DELETE /channels/{id}/messages/{mid}."""
        channel = self._channel(request)
        message = self._message(request, channel)
        if message.author.id != self.emu.state.bot.id and not self._can_manage(channel):
            raise missing_permissions()
        self.emu.service.check_thread_open(channel)
        self.emu.service.delete_message(message)
        return no_content()

    async def pins(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages/pins."""
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        pinned = [m for m in reversed(channel.messages) if m.pinned and m.ephemeral_to is None]
        items = [{"pinned_at": now_iso(), "message": payloads.message(self.emu.state, m)} for m in pinned]
        return json_response({"items": items, "has_more": False})

    async def pin(self, request: web.Request) -> web.Response:
        """PUT /channels/{id}/messages/pins/{mid}."""
        return self._set_pinned(request, True)

    async def unpin(self, request: web.Request) -> web.Response:
        """DELETE /channels/{id}/messages/pins/{mid}."""
        return self._set_pinned(request, False)

    def _set_pinned(self, request: web.Request, pinned: bool) -> web.Response:
        channel = self._channel(request)
        if not channel.is_dm and not self._can_manage(channel):
            raise missing_permissions()
        message = self._message(request, channel)
        message.pinned = pinned
        self.emu.service.dispatch_message_event("MESSAGE_UPDATE", message)
        return no_content()

    # -- threads -------------------------------------------------------------------------------------

    async def thread(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/threads (a thread without a starter message)."""
        body = await read_body(request)
        validate_auto_archive(body.payload)
        private = wants_private_thread(body.payload.get("type"))
        channel = self._channel(request, perms.CREATE_PRIVATE_THREADS if private else perms.CREATE_PUBLIC_THREADS)
        thread = self.emu.service.create_thread(
            channel,
            body.payload.get("name") or "",
            self.emu.state.bot,
            private=private,
            auto_archive_duration=int(body.payload.get("auto_archive_duration") or 1440),
        )
        return json_response(payloads.channel(self.emu.state, thread), 201)

    async def thread_from_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages/{mid}/threads (the thread takes the message's id)."""
        channel = self._channel(request, perms.CREATE_PUBLIC_THREADS)
        message = self._message(request, channel)
        body = await read_body(request)
        validate_auto_archive(body.payload)
        thread = self.emu.service.create_thread(
            channel,
            body.payload.get("name") or "",
            self.emu.state.bot,
            starter=message,
            auto_archive_duration=int(body.payload.get("auto_archive_duration") or 1440),
        )
        return json_response(payloads.channel(self.emu.state, thread), 201)

    def _thread(self, request: web.Request) -> Channel:
        channel = self._channel(request)
        if not channel.is_thread:
            raise form_error("channel_id", "CHANNEL_TYPE_INVALID", "Not a thread")
        return channel

    def _user_id(self, request: web.Request) -> int:
        raw = request.match_info["user_id"]
        return self.emu.state.bot.id if raw == "@me" else self.emu.state.user(raw).id

    async def thread_members(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/thread-members."""
        thread = self._thread(request)
        stamp = thread.archive_timestamp
        members = [
            {"id": str(thread.id), "user_id": str(u), "join_timestamp": stamp, "flags": 0}
            for u in sorted(thread.thread_member_ids)
        ]
        return json_response(members)

    async def join_thread(self, request: web.Request) -> web.Response:
        """PUT /channels/{id}/thread-members/{@me|user_id}."""
        thread = self._thread(request)
        self.emu.service.check_thread_open(thread)
        user_id = self._user_id(request)
        if user_id != self.emu.state.bot.id:  # adding someone else: they must see the thread's channel
            parent = self.emu.state.channels.get(thread.parent_id or 0)
            if parent is None or not self.emu.state.permissions_in(parent, user_id):
                raise missing_access()
        self.emu.service.add_thread_member(thread, user_id)
        return no_content()

    async def leave_thread(self, request: web.Request) -> web.Response:
        """DELETE /channels/{id}/thread-members/{@me|user_id}."""
        thread = self._thread(request)
        self.emu.service.check_thread_open(thread)
        self.emu.service.remove_thread_member(thread, self._user_id(request))
        return no_content()

    # -- reactions -----------------------------------------------------------------------------------

    async def react(self, request: web.Request) -> web.Response:
        """PUT .../reactions/{emoji}/@me."""
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        message = self._message(request, channel)
        self.emu.service.check_thread_open(channel)
        self.emu.service.set_reaction(message, request.match_info["emoji"], self.emu.state.bot, add=True)
        return no_content()

    async def unreact(self, request: web.Request) -> web.Response:
        """DELETE .../reactions/{emoji}/{@me|user_id}."""
        channel = self._channel(request)
        message = self._message(request, channel)
        user_id = self._user_id(request)
        if user_id != self.emu.state.bot.id and not self._can_manage(channel):
            raise missing_permissions()
        user = self.emu.state.user(user_id)
        self.emu.service.set_reaction(message, request.match_info["emoji"], user, add=False)
        return no_content()

    async def reactors(self, request: web.Request) -> web.Response:
        """GET .../reactions/{emoji}."""
        channel = self._channel(request)
        message = self._message(request, channel)
        ids = message.reactions.get(request.match_info["emoji"], [])
        limit = int(request.query.get("limit", 25))
        return json_response([payloads.user(self.emu.state.users[u]) for u in ids[:limit]])

    async def clear_emoji(self, request: web.Request) -> web.Response:
        """DELETE .../reactions/{emoji}."""
        channel = self._channel(request, perms.MANAGE_MESSAGES)
        message = self._message(request, channel)
        message.reactions.pop(request.match_info["emoji"], None)
        self.emu.notify()
        return no_content()

    async def clear_reactions(self, request: web.Request) -> web.Response:
        """DELETE .../reactions."""
        channel = self._channel(request, perms.MANAGE_MESSAGES)
        message = self._message(request, channel)
        message.reactions.clear()
        self.emu.notify()
        return no_content()
