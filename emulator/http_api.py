"""The HTTP API v10: app, middleware (auth, faults, errors, rate-limit headers) and general routes."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from emulator import commands, payloads, spec
from emulator.bodies import read_body
from emulator.errors import INVALID_FORM_BODY, UNKNOWN_MEMBER, ApiError, form_error, not_found

if TYPE_CHECKING:
    from emulator.emulator import Emulator
    from emulator.model import ApplicationCommand

log = logging.getLogger("emulator.http")

API = r"/api/v{version:\d+}"
MAX_BODY = 128 * 1024 * 1024
MAX_RECORDS = 10_000
_NO_AUTH_PREFIXES = ("/interactions/", "/webhooks/")


@dataclass
class RequestRecord:
    """One request the bot made, for assertions and debugging."""

    method: str
    path: str
    status: int
    route: str | None
    user_agent: str | None = None  # tells apart several bot processes sharing one token


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with exactly `Content-Type: application/json` (discord.py compares the header verbatim)."""
    body = json.dumps(data, separators=(",", ":")).encode()
    return web.Response(body=body, status=status, headers={**(headers or {}), "Content-Type": "application/json"})


def no_content() -> web.Response:
    """204."""
    return web.Response(status=204)


def api_path(path: str) -> str:
    """The path without its /api/vN prefix."""
    if path.startswith("/api/v"):
        rest = path[len("/api/v") :]
        return "/" + rest.partition("/")[2]
    return path


def create_app(emu: Emulator) -> web.Application:
    """The aiohttp application serving the API, the gateway and attachment downloads."""
    app = web.Application(client_max_size=MAX_BODY, middlewares=[_middleware(emu)])
    from emulator import http_channels, http_interactions

    app.router.add_get("/", _root(emu))
    app.router.add_get("/resume", emu.gateway.handle)
    app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", _attachment(emu))
    GeneralRoutes(emu).register(app)
    http_channels.ChannelRoutes(emu).register(app)
    http_interactions.InteractionRoutes(emu).register(app)
    return app


def _root(emu: Emulator) -> Any:
    """The gateway lives at "/"; a browser opening the bare address is sent to a mounted page."""

    async def root(request: web.Request) -> web.StreamResponse:
        wants_socket = request.headers.get("Upgrade", "").lower() == "websocket"
        if not wants_socket and emu.mounts:
            raise web.HTTPFound(next(iter(emu.mounts)) + "/")
        return await emu.gateway.handle(request)

    return root


def _middleware(emu: Emulator) -> Any:
    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        route = _route_name(request)
        try:
            if request.match_info.http_exception is not None:
                return _unknown(emu, request)
            if request.path.startswith("/api/"):
                _check_auth(emu, request)
                emu.faults.check(request.method, request.path)
                if emu.check_spec:
                    await _check_request(emu, request)
            response = await handler(request)
            if request.path.startswith("/api/") and response.status < 300:
                response.headers.update(_ratelimit_headers(request.method, route))
        except ApiError as error:
            response = json_response(error.body(), error.status, error.headers)
            if error.code == INVALID_FORM_BODY and request.path.startswith("/api/"):
                where = f"{request.method} {api_path(request.path)}"
                emu.invalid_requests.append(f"{where}: {error.message}: {describe_errors(error.errors)}")
        except web.HTTPException:
            raise
        except Exception as exc:
            log.exception("emulator error on %s %s", request.method, request.path)
            emu.server_errors.append(f"{request.method} {request.path}: {exc!r}")
            response = json_response({"message": f"emulator internal error: {exc!r}", "code": 0}, 500)
        if request.path.startswith("/api/"):
            if emu.check_spec and isinstance(response, web.Response):
                _check_response(emu, request, response)
            emu.requests.append(
                RequestRecord(
                    request.method, api_path(request.path), response.status, route, request.headers.get("User-Agent")
                )
            )
            if len(emu.requests) > MAX_RECORDS:
                del emu.requests[: MAX_RECORDS // 2]
        return response

    return middleware


async def _check_request(emu: Emulator, request: web.Request) -> None:
    """Discord's API description and documented limits on the body (raises its 400 form error)."""
    if request.method not in ("POST", "PUT", "PATCH") or not request.can_read_body:
        return
    if request.content_type.startswith("multipart/"):
        payload: Any = (await read_body(request)).payload  # kept for the handler
    else:
        raw = await request.read()  # aiohttp keeps it: the handler reads it again
        try:
            payload = json.loads(raw) if raw else None
        except ValueError:
            return  # the handler answers Discord's 50109 "invalid JSON"
    started = time.perf_counter()
    try:
        spec.check_request(request.method, api_path(request.path), payload)
    finally:
        emu.spec_stats.add_request(time.perf_counter() - started)


def _check_response(emu: Emulator, request: web.Request, response: web.Response) -> None:
    """An answer unlike the one Discord's description gives is the emulator's bug: a server error."""
    if response.status >= 500:
        return
    body = response.body if isinstance(response.body, bytes) else b""
    started = time.perf_counter()
    problem = spec.check_response(request.method, api_path(request.path), response.status, body)
    emu.spec_stats.add_response(time.perf_counter() - started)
    if problem is not None:
        log.error("the emulator's answer breaks Discord's API description: %s", problem)
        emu.server_errors.append(f"answer unlike Discord's API description: {problem}")


def describe_errors(errors: dict[str, Any] | None, path: str = "") -> str:
    """Discord's nested form errors as `field.path: message` lines."""
    if not errors:
        return ""
    lines = []
    for key, value in errors.items():
        if key == "_errors":
            lines += [f"{path or '_root'}: {e.get('message')} ({e.get('code')})" for e in value]
        elif isinstance(value, dict):
            lines.append(describe_errors(value, f"{path}.{key}" if path else key))
    return "; ".join(line for line in lines if line)


def _route_name(request: web.Request) -> str | None:
    resource = request.match_info.route.resource
    return resource.canonical if resource is not None else None


def _unknown(emu: Emulator, request: web.Request) -> web.Response:
    what = f"{request.method} {request.path}"
    log.warning("emulator has no route for %s", what)
    emu.unknown_routes.append(what)
    if request.path.startswith("/api/"):
        emu.requests.append(RequestRecord(request.method, api_path(request.path), 404, None))
    return json_response({"message": f"404: Not Found (the emulator has no route for {what})", "code": 0}, 404)


def _check_auth(emu: Emulator, request: web.Request) -> None:
    if api_path(request.path).startswith(_NO_AUTH_PREFIXES):
        return
    if request.headers.get("Authorization") != f"Bot {emu.bot_token}":
        raise ApiError(401, 0, "401: Unauthorized")


def _ratelimit_headers(method: str, route: str | None) -> dict[str, str]:
    bucket = hashlib.sha1(f"{method} {route}".encode()).hexdigest()[:32]
    return {
        "X-RateLimit-Limit": "50",
        "X-RateLimit-Remaining": "49",
        "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000",
        "X-RateLimit-Bucket": bucket,
    }


def _attachment(emu: Emulator) -> Any:
    async def handler(request: web.Request) -> web.Response:
        try:
            attachment = emu.state.attachments[int(request.match_info["attachment_id"])]
        except (KeyError, ValueError):
            return web.Response(status=404, text="no such attachment")
        return web.Response(body=attachment.content, content_type=attachment.content_type or "application/octet-stream")

    return handler


class GeneralRoutes:
    """Users, gateway discovery, the application, its commands, and guild reads."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu

    def register(self, app: web.Application) -> None:
        """Add the routes."""
        r = app.router
        r.add_get(f"{API}/users/@me", self.me)
        r.add_get(f"{API}/users/{{user_id}}", self.user)
        r.add_post(f"{API}/users/@me/channels", self.open_dm)
        r.add_get(f"{API}/gateway", self.gateway)
        r.add_get(f"{API}/gateway/bot", self.gateway_bot)
        r.add_get(f"{API}/oauth2/applications/@me", self.application)
        r.add_get(f"{API}/applications/@me", self.application)
        for base in (f"{API}/applications/{{app_id}}", f"{API}/applications/{{app_id}}/guilds/{{guild_id}}"):
            r.add_get(f"{base}/commands", self.list_commands)
            r.add_put(f"{base}/commands", self.overwrite_commands)
            r.add_post(f"{base}/commands", self.create_command)
            r.add_get(f"{base}/commands/{{command_id}}", self.get_command)
            r.add_patch(f"{base}/commands/{{command_id}}", self.edit_command)
            r.add_delete(f"{base}/commands/{{command_id}}", self.delete_command)
        r.add_get(f"{API}/guilds/{{guild_id}}", self.guild)
        r.add_get(f"{API}/guilds/{{guild_id}}/channels", self.guild_channels)
        r.add_get(f"{API}/guilds/{{guild_id}}/roles", self.guild_roles)
        r.add_get(f"{API}/guilds/{{guild_id}}/members", self.guild_members)
        r.add_get(f"{API}/guilds/{{guild_id}}/members/{{user_id}}", self.guild_member)
        r.add_get(f"{API}/guilds/{{guild_id}}/threads/active", self.active_threads)

    # -- users & gateway -----------------------------------------------------------------------------

    async def me(self, request: web.Request) -> web.Response:
        """GET /users/@me."""
        bot = self.emu.state.bot
        return json_response({**payloads.user(bot), "verified": True, "mfa_enabled": False, "locale": "en-US"})

    async def user(self, request: web.Request) -> web.Response:
        """GET /users/{id}."""
        return json_response(payloads.user(self.emu.state.user(request.match_info["user_id"])))

    async def open_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels: the DM channel with a user."""
        body = await read_body(request)
        recipient = body.payload.get("recipient_id")
        if recipient is None:
            raise form_error("recipient_id", "BASE_TYPE_REQUIRED", "This field is required")
        user = self.emu.state.user(recipient)
        channel = self.emu.state.dm_channel(user)
        return json_response(payloads.channel(self.emu.state, channel))

    async def gateway(self, request: web.Request) -> web.Response:
        """GET /gateway."""
        return json_response({"url": self.emu.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        """GET /gateway/bot."""
        limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
        shards = self.emu.shard_count  # the count Discord recommends; AutoShardedClient uses it when given none
        return json_response({"url": self.emu.gateway_url, "shards": shards, "session_start_limit": limit})

    async def application(self, request: web.Request) -> web.Response:
        """GET /oauth2/applications/@me."""
        return json_response(payloads.application(self.emu.state.application))

    # -- application commands ------------------------------------------------------------------------

    def _scope(self, request: web.Request) -> int | None:
        if request.match_info["app_id"] != str(self.emu.state.application.id):
            raise ApiError(403, 50001, "Missing Access")
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return None
        return self.emu.state.guild(guild_id).id

    def _command(self, request: web.Request) -> tuple[int | None, ApplicationCommand]:
        guild_id = self._scope(request)
        try:
            found = commands.find_by_id(self.emu.state, guild_id, int(request.match_info["command_id"]))
        except ValueError:
            found = None
        if found is None:
            raise not_found(10063, "application command")
        return guild_id, found

    async def list_commands(self, request: web.Request) -> web.Response:
        """GET .../commands."""
        table = self.emu.state.commands(self._scope(request))
        return json_response([payloads.command(c) for c in table.values()])

    async def overwrite_commands(self, request: web.Request) -> web.Response:
        """PUT .../commands (bulk overwrite, what CommandTree.sync calls)."""
        guild_id = self._scope(request)
        raw = await request.read()
        items = json.loads(raw or b"[]")
        if not isinstance(items, list):
            raise form_error("_root", "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        result = commands.overwrite(self.emu.state, guild_id, items)
        self.emu.notify()
        return json_response([payloads.command(c) for c in result])

    async def create_command(self, request: web.Request) -> web.Response:
        """POST .../commands (upsert one)."""
        guild_id = self._scope(request)
        body = await read_body(request)
        key = (int(body.payload.get("type", 1)), body.payload.get("name"))
        existed = key in self.emu.state.commands(guild_id)
        command = commands.upsert(self.emu.state, guild_id, body.payload)
        self.emu.notify()
        return json_response(payloads.command(command), 200 if existed else 201)

    async def get_command(self, request: web.Request) -> web.Response:
        """GET .../commands/{id}."""
        return json_response(payloads.command(self._command(request)[1]))

    async def edit_command(self, request: web.Request) -> web.Response:
        """PATCH .../commands/{id}."""
        guild_id, command = self._command(request)
        body = await read_body(request)
        merged = {**command.raw, "name": command.name, "type": command.type, "options": command.options}
        merged.update(body.payload)
        commands.validate_command(merged)
        del self.emu.state.commands(guild_id)[(command.type, command.name)]
        updated = commands.store(self.emu.state, guild_id, merged, command)
        self.emu.notify()
        return json_response(payloads.command(updated))

    async def delete_command(self, request: web.Request) -> web.Response:
        """DELETE .../commands/{id}."""
        guild_id, command = self._command(request)
        del self.emu.state.commands(guild_id)[(command.type, command.name)]
        self.emu.notify()
        return no_content()

    # -- guild reads ---------------------------------------------------------------------------------

    async def guild(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}."""
        state = self.emu.state
        guild = state.guild(request.match_info["guild_id"])
        data = payloads.guild(state, guild, members=[])
        for key in ("members", "channels", "threads", "voice_states", "presences", "joined_at", "large"):
            data.pop(key, None)
        if request.query.get("with_counts") in ("true", "1"):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return json_response(data)

    async def guild_channels(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/channels."""
        state = self.emu.state
        guild = state.guild(request.match_info["guild_id"])
        channels = [state.channels[i] for i in guild.channel_ids if not state.channels[i].is_thread]
        return json_response([payloads.channel(state, c) for c in channels])

    async def guild_roles(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/roles."""
        guild = self.emu.state.guild(request.match_info["guild_id"])
        return json_response([payloads.role(r) for r in guild.roles.values()])

    async def guild_members(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/members?limit&after."""
        guild = self.emu.state.guild(request.match_info["guild_id"])
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return json_response([payloads.member(m) for m in members[:limit]])

    async def guild_member(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/members/{user_id}."""
        guild = self.emu.state.guild(request.match_info["guild_id"])
        try:
            member = guild.members[int(request.match_info["user_id"])]
        except (KeyError, ValueError):
            raise not_found(UNKNOWN_MEMBER, "Member") from None
        return json_response(payloads.member(member))

    async def active_threads(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/threads/active."""
        state = self.emu.state
        guild = state.guild(request.match_info["guild_id"])
        threads = state.active_threads(guild)
        members = [
            {"id": str(t.id), "user_id": str(state.bot.id), "join_timestamp": t.archive_timestamp, "flags": 0}
            for t in threads
            if state.bot.id in t.thread_member_ids
        ]
        return json_response({"threads": [payloads.channel(state, t) for t in threads], "members": members})
