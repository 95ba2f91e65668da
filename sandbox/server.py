"""The sandbox's web server: the page, and a small JSON + websocket API over the emulator's Python API.

It runs on the same event loop as the emulator and the bot, on its own loopback port. Every action
goes through the emulator exactly as a person's click in the Discord client would: the bot cannot
tell the difference.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from emulator.errors import ApiError
from emulator.interactions import InteractionFailed
from emulator.model import Channel, Message, User
from sandbox import pages as views
from sandbox.world import LOCALES, SandboxEmulator, World

log = logging.getLogger("sandbox")

STATIC = Path(__file__).parent / "static"
RESPONSE_TIMEOUT = 4.0  # Discord shows "This interaction failed" when the bot stays silent past 3 s
PUSH_DELAY = 0.03  # gather a burst of changes (a deferral, then its follow-up) into one push
USER_OPTION, CHANNEL_OPTION, INTEGER_OPTION, BOOLEAN_OPTION, NUMBER_OPTION = 6, 7, 4, 5, 10


class Refused(Exception):
    """A request the page should not have made (unknown user, channel or message)."""


class Subscriber:
    """One open page: who it is, which channel it shows, what it saw last."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.user_id: str | None = None
        self.channel_id: str | None = None
        self.seen: dict[str, str] = {}
        self.last_sent = ""


class SandboxServer:
    """The page's application (sandbox/static and its /api routes), mounted on the emulator's server."""

    def __init__(self, emu: SandboxEmulator, world: World) -> None:
        self.emu = emu
        self.world = world
        self.subscribers: set[Subscriber] = set()
        self._pusher: asyncio.Task[None] | None = None
        self.url: str | None = None

    # -- lifecycle -----------------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.index)
        app.router.add_get("/api/world", self.world_info)
        app.router.add_get("/api/live", self.live)
        app.router.add_post("/api/slash", self.slash)
        app.router.add_post("/api/autocomplete", self.autocomplete)
        app.router.add_post("/api/click", self.click)
        app.router.add_post("/api/select", self.select)
        app.router.add_post("/api/send", self.send)
        app.router.add_post("/api/locale", self.set_locale)
        app.router.add_post("/api/rename", self.rename)
        app.router.add_get("/api/attachments/{message_id}/{attachment_id}/{filename}", self.attachment)
        app.router.add_static("/static/", STATIC)
        return app

    def serve_from(self, url: str) -> str:
        """The page is served by the emulator's own server at ``url``: start the live pushes."""
        self.url = url
        if self._pusher is None:
            self._pusher = asyncio.create_task(self._push_changes(), name="sandbox-push")
        return url

    async def stop(self) -> None:
        if self._pusher is not None:
            self._pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pusher
        for sub in list(self.subscribers):
            await sub.ws.close()

    # -- page and facts ------------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def world_info(self, request: web.Request) -> web.Response:
        """The guild, the people, the bot, the commands and the channels: those ``?as=`` (an id or
        a username) may see, or only the public ones."""
        people = [views.person(u, i) for i, u in enumerate(self.world.people)]
        wanted = request.query.get("as", "").lower()
        viewer = next((u for u in self.world.people if wanted in (str(u.id), u.username)), None)
        return web.json_response(
            {
                "guild": {"id": str(self.world.guild.id), "name": self.world.guild.name},
                "people": people,
                "bot": views.person(self.emu.bot_user),
                "channels": [views.channel_info(c) for c in self.world.channels(viewer)],
                "commands": views.commands(self.emu, self.world),
                "locales": [{"value": code, "label": label} for code, label in LOCALES.items()],
            }
        )

    # -- live updates --------------------------------------------------------------------------------

    async def live(self, request: web.Request) -> web.StreamResponse:
        """A websocket per page: it says who and where; it is sent its view at once and on every change."""
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        sub = Subscriber(ws)
        self.subscribers.add(sub)
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                try:
                    data = json.loads(msg.data)
                except ValueError:
                    continue
                sub.user_id = str(data.get("user_id") or "") or None
                sub.channel_id = str(data.get("channel_id") or "") or None
                sub.seen = {str(k): str(v) for k, v in (data.get("seen") or {}).items()}
                await self._push(sub, force=bool(data.get("force")))
        finally:
            self.subscribers.discard(sub)
        return ws

    async def _push_changes(self) -> None:
        while True:
            await self.emu.changed.wait()
            await asyncio.sleep(PUSH_DELAY)
            self.emu.changed.clear()
            for sub in list(self.subscribers):
                try:
                    await self._push(sub)
                except Exception:  # a closing page must not stop the others' updates
                    log.debug("push failed", exc_info=True)

    async def _push(self, sub: Subscriber, *, force: bool = False) -> None:
        if sub.user_id is None or sub.ws.closed:
            return
        try:
            viewer = self.world.person(sub.user_id)
        except (KeyError, ValueError):
            return
        channel = self._channel_or_none(sub.channel_id, viewer)
        text = json.dumps(views.view(self.emu, self.world, viewer, channel, sub.seen), separators=(",", ":"))
        if force or text != sub.last_sent:
            sub.last_sent = text
            await sub.ws.send_str(text)

    # -- acting as a person --------------------------------------------------------------------------

    async def slash(self, request: web.Request) -> web.Response:
        async def act(body: dict[str, Any], user: User) -> Any:
            channel = self._channel(body.get("channel_id"), user)
            options = self._typed_options(str(body.get("command", "")), body.get("options") or {}, user)
            return await self.emu.slash(user, channel, str(body.get("command", "")), options)

        return await self._interaction(request, act)

    async def autocomplete(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
            user = self._person(body.get("user_id"))
            channel = self._channel(body.get("channel_id"), user)
            command = str(body.get("command", ""))
            options = {k: v for k, v in (body.get("options") or {}).items() if v not in (None, "")}
            focused = str(body.get("focused", ""))
            options[focused] = str((body.get("options") or {}).get(focused) or "")
            options = self._typed_options(command, options, user, keep=focused)
            result = await self.emu.autocomplete(user, channel, command, options, focused)
            choices = await result.choices(timeout=RESPONSE_TIMEOUT)
        except (Refused, ApiError, LookupError, ValueError, TypeError, PermissionError) as exc:
            return web.json_response({"ok": False, "error": str(exc)})
        except (TimeoutError, InteractionFailed):
            return web.json_response({"ok": False, "error": "Loading options failed"})
        return web.json_response({"ok": True, "choices": choices})

    async def click(self, request: web.Request) -> web.Response:
        async def act(body: dict[str, Any], user: User) -> Any:
            return await self.emu.click(user, self._message(body.get("message_id")), str(body.get("custom_id")))

        return await self._interaction(request, act)

    async def select(self, request: web.Request) -> web.Response:
        async def act(body: dict[str, Any], user: User) -> Any:
            values = [str(v) for v in body.get("values") or []]
            return await self.emu.select(
                user, self._message(body.get("message_id")), str(body.get("custom_id")), values
            )

        return await self._interaction(request, act)

    async def send(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
            user = self._person(body.get("user_id"))
            channel = self._channel(body.get("channel_id"), user)
            content = str(body.get("content", "")).strip()[:2000]
            if not content:
                raise Refused("an empty message")
            await self.emu.send_message(user, channel, content)
        except (Refused, ApiError, LookupError, ValueError, PermissionError) as exc:
            return web.json_response({"ok": False, "error": str(exc)})
        return web.json_response({"ok": True})

    async def set_locale(self, request: web.Request) -> web.Response:
        """Switch a person's Discord client language: their next interactions carry that locale."""
        try:
            body = await request.json()
            user = self._person(body.get("user_id"))
            locale = str(body.get("locale", ""))
            if locale not in LOCALES:
                raise Refused(f"the sandbox offers no language {locale[:20]!r}")
        except (Refused, ValueError, TypeError, AttributeError) as exc:
            return web.json_response({"ok": False, "error": str(exc)})
        user.locale = locale
        return web.json_response({"ok": True, "locale": locale})

    async def rename(self, request: web.Request) -> web.Response:
        """Change a person's display name (Discord's global name): any Unicode, emoji included."""
        try:
            body = await request.json()
            user = self._person(body.get("user_id"))
            name = self.emu.rename(user, str(body.get("name", "")))
        except (Refused, ValueError, TypeError, AttributeError) as exc:
            return web.json_response({"ok": False, "error": str(exc)})
        return web.json_response({"ok": True, "name": name})

    async def _interaction(self, request: web.Request, act: Any) -> web.Response:
        """Dispatch an interaction as a person; answer once the bot has responded (or failed to)."""
        try:
            body = await request.json()
            user = self._person(body.get("user_id"))
            result = await act(body, user)
        except (Refused, ApiError, LookupError, ValueError, TypeError, PermissionError) as exc:
            return web.json_response({"ok": False, "error": str(exc)})
        try:
            await result.response(timeout=RESPONSE_TIMEOUT)
        except (TimeoutError, InteractionFailed):
            return web.json_response({"ok": False, "error": "This interaction failed", "failed": True})
        return web.json_response({"ok": True})

    # -- attachments ---------------------------------------------------------------------------------

    async def attachment(self, request: web.Request) -> web.StreamResponse:
        """An attachment's bytes, only for someone who can see its message (a hand stays private)."""
        try:
            viewer = self._person(request.query.get("as"))
            message = self._message(request.match_info["message_id"])
            wanted = int(request.match_info["attachment_id"])
        except (Refused, ValueError):
            raise web.HTTPNotFound() from None
        channel = self.emu.state.channels.get(message.channel_id)
        if not message.visible_to(viewer) or channel is None or not self._may_read(channel, viewer):
            raise web.HTTPNotFound()
        found = next((a for a in message.attachments if a.id == wanted), None)
        if found is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=found.content,
            content_type=found.content_type or "application/octet-stream",
            headers={"Cache-Control": "private, max-age=3600"},
        )

    # -- lookups -------------------------------------------------------------------------------------

    def _person(self, user_id: Any) -> User:
        try:
            return self.world.person(str(user_id))
        except (KeyError, ValueError):
            raise Refused(f"unknown sandbox user {user_id!r}") from None

    def _may_read(self, channel: Channel, user: User) -> bool:
        if channel.is_dm:
            return channel.recipient_ids == [user.id]
        return channel in self.world.channels(user)

    def _channel(self, channel_id: Any, user: User) -> Channel:
        channel = self._channel_or_none(None if channel_id is None else str(channel_id), user)
        if channel is None:
            raise Refused(f"unknown channel {channel_id!r}")
        return channel

    def _channel_or_none(self, channel_id: str | None, user: User) -> Channel | None:
        if not channel_id or not channel_id.isdigit():
            return None
        channel = self.emu.state.channels.get(int(channel_id))
        if channel is None or not self._may_read(channel, user):
            return None
        return channel

    def _message(self, message_id: Any) -> Message:
        try:
            found = self.emu.state.messages.get(int(str(message_id)))
        except ValueError:
            found = None
        if found is None:
            raise Refused("that message no longer exists")
        return found

    def _typed_options(
        self, command: str, values: dict[str, Any], user: User, *, keep: str | None = None
    ) -> dict[str, Any]:
        """The page sends text; give each option the type the command's schema declares."""
        schema = next((c for c in views.commands(self.emu, self.world) if c["name"] == command.strip()), None)
        if schema is None:
            return dict(values)
        types = {o["name"]: o["type"] for o in schema["options"]}
        typed: dict[str, Any] = {}
        for name, value in values.items():
            kind = types.get(name)
            if name == keep or kind is None:
                typed[name] = value
            elif kind == USER_OPTION:
                typed[name] = self.emu.state.user(value)
            elif kind == CHANNEL_OPTION:
                typed[name] = self._channel(value, user)
            elif kind == INTEGER_OPTION:
                typed[name] = int(value)
            elif kind == NUMBER_OPTION:
                typed[name] = float(value)
            elif kind == BOOLEAN_OPTION:
                typed[name] = str(value).lower() in ("true", "1", "yes")
            else:
                typed[name] = str(value)
        return typed
