"""Gateway v10 over websocket: HELLO, IDENTIFY/READY, heartbeats, dispatches, RESUME with replay.

Sharding as Discord does it: IDENTIFY may carry ``shard: [id, count]``; a session then hears only
about the guilds with ``(guild_id >> 22) % count == id`` (READY's guild list, GUILD_CREATE, every
event and interaction carrying a ``guild_id``), and whatever has no guild (DMs) goes to shard 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from emulator import payloads
from emulator.model import State

log = logging.getLogger("emulator.gateway")

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
DIRECT_MESSAGE_REACTIONS = 1 << 13
MESSAGE_CONTENT = 1 << 15

INVALID_SHARD = 4010

REPLAY_BUFFER = 2000
# Discord answers a heartbeat after a network round trip, never in the same instant. discord.py's
# heartbeat thread notes the send time only once the event loop has sent the beat; an ACK arriving
# before that (possible on loopback, above all with the emulator on the bot's own loop, as in the
# sandbox) is measured from the previous beat and logged as "Can't keep up ... N s behind", N being
# the heartbeat interval. A realistic delay leaves the thread time to note the send first.
HEARTBEAT_ACK_DELAY = 0.1


class GatewayHost(Protocol):
    """What the gateway needs from the emulator."""

    state: State
    bot_token: str
    heartbeat_interval: float

    # Read-only: the emulator computes both from its bound port.
    @property
    def gateway_url(self) -> str: ...

    @property
    def resume_gateway_url(self) -> str: ...

    def notify(self) -> None:
        """Wake anyone waiting on emulator state."""


class _Compressor:
    """zlib-stream (one context per connection, Z_SYNC_FLUSH) or zstd-stream framing."""

    def __init__(self, kind: str | None) -> None:
        self.kind = kind
        self._zlib = zlib.compressobj() if kind == "zlib-stream" else None
        self._zstd: Any = None
        if kind == "zstd-stream":
            self._zstd = _zstd_compressor()

    def encode(self, text: str) -> bytes | str:
        """One gateway message, framed for this connection."""
        raw = text.encode()
        if self._zlib is not None:
            return self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        if self._zstd is not None:
            return self._zstd(raw)
        return text


def _zstd_compressor() -> Callable[[bytes], bytes]:
    """A per-connection zstd stream that flushes a block per message."""
    try:
        import zstandard  # type: ignore[import-not-found]

        stream = zstandard.ZstdCompressor().compressobj()
        return lambda raw: stream.compress(raw) + stream.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
    except ImportError:
        from compression.zstd import ZstdCompressor  # type: ignore[import-not-found]

        compressor = ZstdCompressor()
        return lambda raw: compressor.compress(raw, mode=ZstdCompressor.FLUSH_BLOCK)


@dataclass(eq=False)
class Connection:
    """One websocket connection, with its own compressor and ordered send queue."""

    ws: web.WebSocketResponse
    request: web.Request
    compressor: _Compressor
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    session: Session | None = None
    writer: asyncio.Task[None] | None = None
    server_closed: bool = False

    def send(self, payload: dict[str, Any]) -> None:
        """Queue a payload; the writer task sends it in order."""
        self.queue.put_nowait(payload)

    async def run_writer(self) -> None:
        """Send queued payloads until told to stop."""
        while True:
            payload = await self.queue.get()
            if payload is None or self.ws.closed:
                return
            frame = self.compressor.encode(json.dumps(payload, separators=(",", ":")))
            try:
                if isinstance(frame, bytes):
                    await self.ws.send_bytes(frame)
                else:
                    await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return

    async def close(self, code: int, message: bytes = b"") -> None:
        """Close from the server side with a close code."""
        self.server_closed = True
        await self.ws.close(code=code, message=message)

    def abort(self) -> None:
        """Kill the TCP connection without a close frame (an abnormal closure)."""
        self.server_closed = True
        transport = self.request.transport
        if transport is not None:
            transport.abort()


@dataclass(eq=False)
class Session:
    """A gateway session: survives its connection so the client can RESUME."""

    id: str
    intents: int
    shard: list[int]
    seq: int = 0
    buffer: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=REPLAY_BUFFER))
    connection: Connection | None = None
    resumes: int = 0

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session's shard serves the guild (None: a DM, served by shard 0)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id


def guild_of(data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, from its ``guild_id`` (None: a DM or no guild)."""
    raw = data.get("guild_id")
    return int(raw) if raw is not None else None


def valid_shard(shard: object) -> list[int] | None:
    """``[id, count]`` as IDENTIFY gives it, checked; None when it is not a valid shard."""
    if not isinstance(shard, list) or len(shard) != 2 or not all(type(n) is int for n in shard):
        return None
    shard_id, count = shard
    return [shard_id, count] if count >= 1 and 0 <= shard_id < count else None


class Gateway:
    """The websocket endpoint and the sessions behind it."""

    def __init__(self, host: GatewayHost) -> None:
        self.host = host
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.identify_count = 0
        self.resume_count = 0
        self.replayed_count = 0
        self.received: deque[dict[str, Any]] = deque(maxlen=1000)
        self.connection_paths: list[str] = []
        # An outage: new connections are answered 503, as Discord's gateway does while it is down.
        self.outage = False

    # -- public ----------------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """True when an identified session has a live connection."""
        return any(s.connection is not None and not s.connection.ws.closed for s in self.sessions.values())

    @property
    def ready(self) -> bool:
        """True when at least one session was identified (live or waiting to resume)."""
        return bool(self.sessions)

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        redact: Callable[[dict[str, Any], int], dict[str, Any]] | None = None,
    ) -> list[Session]:
        """Send a DISPATCH to every session subscribed to the intent whose shard serves the event's
        guild (shard 0 for one without), buffered for resume; the sessions it went to."""
        guild_id = guild_of(data)
        sent = []
        for session in list(self.sessions.values()):
            if intent is not None and not session.intents & intent:
                continue
            if not session.owns(guild_id):
                continue
            self._send_dispatch(session, event, redact(data, session.intents) if redact else data)
            sent.append(session)
        return sent

    def guild_joined(self, guild_id: int) -> None:
        """GUILD_CREATE to the session of the guild's shard, members filtered by its intents."""
        for session in list(self.sessions.values()):
            if session.owns(guild_id):
                self._send_dispatch(session, "GUILD_CREATE", self.guild_create(guild_id, session.intents))

    async def drop(self, code: int | None = None) -> None:
        """Cut every live connection: abnormally (no close frame) or with a close code."""
        for conn in list(self.connections):
            if code is None:
                conn.abort()
            else:
                await conn.close(code)
        await asyncio.sleep(0)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client should reconnect and resume."""
        for conn in list(self.connections):
            conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    def invalidate_sessions(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION (and forget the sessions unless resumable)."""
        for session in list(self.sessions.values()):
            if session.connection is not None:
                session.connection.send({"op": INVALID_SESSION, "d": resumable, "s": None, "t": None})
            if not resumable:
                self.sessions.pop(session.id, None)

    async def close(self) -> None:
        """Close every connection (server shutdown)."""
        for conn in list(self.connections):
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await conn.close(1001)

    # -- websocket handler -------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """aiohttp handler for the gateway URL."""
        if self.outage:
            return web.Response(status=503, text="the gateway is down (an outage set by the test)")
        encoding = request.query.get("encoding", "json")
        compress = request.query.get("compress")
        if encoding != "json":
            return web.Response(status=400, text=f"emulator gateway supports encoding=json only, not {encoding!r}")
        if compress not in (None, "zlib-stream", "zstd-stream"):
            return web.Response(status=400, text=f"unsupported compress={compress!r}")
        try:
            compressor = _Compressor(compress)
        except ImportError:
            return web.Response(
                status=400, text="compress=zstd-stream needs the zstandard package on the emulator side"
            )
        ws = web.WebSocketResponse(autoping=True, max_msg_size=4 * 1024 * 1024)
        await ws.prepare(request)
        conn = Connection(ws=ws, request=request, compressor=compressor)
        conn.writer = asyncio.create_task(conn.run_writer())
        self.connections.append(conn)
        self.connection_paths.append(request.path)
        interval_ms = int(self.host.heartbeat_interval * 1000)
        conn.send({"op": HELLO, "d": {"heartbeat_interval": interval_ms, "_trace": ["emulator"]}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    if msg.type is WSMsgType.BINARY:
                        await conn.close(4002, b"Decode error")
                    break
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await conn.close(4002, b"Decode error")
                    break
                self.received.append(payload)
                await self._on_payload(conn, payload)
        finally:
            await self._disconnect(conn)
        return ws

    async def _disconnect(self, conn: Connection) -> None:
        conn.queue.put_nowait(None)
        if conn.writer is not None:
            conn.writer.cancel()
            with contextlib.suppress(BaseException):
                await conn.writer
        if conn in self.connections:
            self.connections.remove(conn)
        session = conn.session
        if session is not None and session.connection is conn:
            session.connection = None
            if conn.ws.close_code in (1000, 1001) and not conn.server_closed:
                self.sessions.pop(session.id, None)
        self.host.notify()

    async def _on_payload(self, conn: Connection, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            ack = {"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None}
            asyncio.get_running_loop().call_later(HEARTBEAT_ACK_DELAY, conn.send, ack)
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            await conn.close(4003, b"Not authenticated.")
        elif op == REQUEST_MEMBERS:
            self._request_members(conn.session, data or {})
        elif op in (PRESENCE, VOICE_STATE):
            pass
        else:
            await conn.close(4001, b"Unknown opcode.")

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.close(4005, b"Already authenticated.")
            return
        if data.get("token") != self.host.bot_token:
            await conn.close(4004, b"Authentication failed.")
            return
        shard = valid_shard(data.get("shard", [0, 1]))
        if shard is None:
            await conn.close(INVALID_SHARD, b"Invalid shard.")
            return
        session = Session(id=secrets.token_hex(16), intents=int(data.get("intents", 0)), shard=shard)
        self.sessions[session.id] = session
        session.connection, conn.session = conn, session
        self.identify_count += 1
        state = self.host.state
        ready = {
            "v": 10,
            "user": {**payloads.user(state.bot), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in state.guilds.values() if session.owns(g.id)],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.host.resume_gateway_url,
            "shard": session.shard,
            "application": {"id": str(state.application.id), "flags": state.application.flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "user_settings": {},
            "auth": {},
            "geo_ordered_rtc_regions": [],
            "_trace": ["emulator"],
        }
        self._send_dispatch(session, "READY", ready)
        for guild in state.guilds.values():
            if session.owns(guild.id):
                self._send_dispatch(session, "GUILD_CREATE", self.guild_create(guild.id, session.intents))
        self.host.notify()

    def guild_create(self, guild_id: int, intents: int) -> dict[str, Any]:
        """GUILD_CREATE payload; members beyond the bot only with the GUILD_MEMBERS intent."""
        state = self.host.state
        guild = state.guilds[guild_id]
        members = list(guild.members.values())
        if not intents & GUILD_MEMBERS:
            members = [m for m in members if m.user.id == state.bot.id]
        return payloads.guild(state, guild, members=members)

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.host.bot_token:
            conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        last = int(data.get("seq") or 0)
        missed = [p for p in session.buffer if p["s"] > last]
        if last < session.seq and (not session.buffer or session.buffer[0]["s"] > last + 1):
            conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        old = session.connection
        session.connection, conn.session = conn, session
        if old is not None and old is not conn:
            old.session = None
            old.abort()
        for payload in missed:
            conn.send(payload)
        self.replayed_count += len(missed)
        session.resumes += 1
        self.resume_count += 1
        self._send_dispatch(session, "RESUMED", {"_trace": ["emulator"]})
        self.host.notify()

    def _request_members(self, session: Session, data: dict[str, Any]) -> None:
        state = self.host.state
        guild_ids = data.get("guild_id")
        for gid in guild_ids if isinstance(guild_ids, list) else [] if guild_ids is None else [guild_ids]:
            guild = state.guilds.get(int(gid))
            if guild is None or not session.owns(guild.id):
                continue
            members = list(guild.members.values())
            query = (data.get("query") or "").lower()
            user_ids = {int(u) for u in data.get("user_ids") or []}
            if user_ids:
                members = [m for m in members if m.user.id in user_ids]
            elif query:
                members = [m for m in members if m.user.username.lower().startswith(query)]
            limit = int(data.get("limit") or 0)
            if limit:
                members = members[:limit]
            chunk: dict[str, Any] = {
                "guild_id": str(guild.id),
                "members": [payloads.member(m) for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            self._send_dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    def _send_dispatch(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.buffer.append(payload)
        conn = session.connection
        if conn is not None and not conn.ws.closed:
            conn.send(payload)
