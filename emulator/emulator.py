"""The Emulator: a loopback fake Discord (HTTP API v10 + gateway) with a Python API to set it up and act in it."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from aiohttp import web

from emulator import gateway as gw
from emulator import payloads
from emulator import permissions as perms
from emulator.faults import Faults
from emulator.gateway import Gateway
from emulator.http_api import RequestRecord, create_app
from emulator.interactions import Interactions
from emulator.model import ApplicationCommand, Channel, Guild, Member, Message, Overwrite, Role, State, User, now_iso
from emulator.service import Service
from emulator.spec import SpecStats
from emulator.user_api import UserActions
from emulator.waiting import PATIENCE, Signal

log = logging.getLogger("emulator")

MiB = 1024 * 1024


class Emulator(UserActions):
    """A fake Discord on 127.0.0.1: `emu = Emulator(); await emu.start()`, then point discord.py at it."""

    def __init__(
        self,
        *,
        bot_name: str = "Meeple Post",
        bot_token: str | None = None,
        heartbeat_interval: float = 41.25,
        interaction_deadline: float = 3.0,
        upload_limit: int = 10 * MiB,
        host: str = "127.0.0.1",
        port: int = 0,
        shard_count: int = 1,
        check_spec: bool = True,
        require_alt_text: bool = False,
    ) -> None:
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the emulator binds to loopback only")
        self.host = host
        self.port = port
        self.bot_token = bot_token or f"emu.{secrets.token_urlsafe(24)}"
        self.heartbeat_interval = heartbeat_interval
        self.interaction_deadline = interaction_deadline
        self.interaction_token_ttl = 15 * 60.0
        self.upload_limit = upload_limit
        self.shard_count = shard_count  # what GET /gateway/bot recommends
        self.state = State(bot_name)
        self.faults = Faults()
        self.signal = Signal()
        self.gateway = Gateway(self)
        self.service = Service(self)
        self.interactions = Interactions(self)
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[str] = []
        self.server_errors: list[str] = []
        # Every body is checked against Discord's API description and documented limits, every
        # answer against the description; requests refused with 400 50035 are kept here.
        self.check_spec = check_spec
        # Strictness: every file the bot uploads must carry alt text (its description), or the
        # upload is refused with 400 50035 (service.check_alt_text); the tests turn it on.
        self.require_alt_text = require_alt_text
        self.spec_stats = SpecStats()
        self.invalid_requests: list[str] = []
        self._runner: web.AppRunner | None = None
        self._base_url: str | None = None
        # Other applications served by this same server under a path prefix (the sandbox page).
        self.mounts: dict[str, web.Application] = {}

    # -- lifecycle -----------------------------------------------------------------------------------

    def mount(self, prefix: str, app: web.Application) -> None:
        """Serve ``app`` under ``prefix`` (e.g. "/sandbox/") from this server; call before start()."""
        if self._runner is not None:
            raise RuntimeError("mount() must come before start()")
        self.mounts[prefix.rstrip("/")] = app

    async def start(self) -> Emulator:
        """Bind to the loopback port (0: a free one) and serve."""
        if self._runner is not None:
            return self
        app = create_app(self)
        for prefix, sub in self.mounts.items():
            app.add_subapp(prefix, sub)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        address = self._runner.addresses[0]
        self.port = address[1]
        self._base_url = f"http://{self.host}:{self.port}"
        log.info("emulator listening on %s", self._base_url)
        return self

    async def stop(self) -> None:
        """Close gateway connections and the server."""
        if self._runner is None:
            return
        await self.gateway.close()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> Emulator:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:PORT`; discord.py's API base is `{base_url}/api/v10`."""
        if self._base_url is None:
            raise RuntimeError("the emulator is not started")
        return self._base_url

    @property
    def api_base(self) -> str:
        """The value for `discord.http.Route.BASE`."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway URL (for `DiscordWebSocket.DEFAULT_GATEWAY` and /gateway/bot)."""
        return self.base_url.replace("http://", "ws://", 1)

    @property
    def resume_gateway_url(self) -> str:
        """The resume_gateway_url given in READY (a distinct path, to prove the client used it)."""
        return f"{self.gateway_url}/resume"

    def notify(self) -> None:
        """Wake whoever waits on emulator state."""
        self.signal.fire()

    # -- world building ------------------------------------------------------------------------------

    @property
    def bot_user(self) -> User:
        """The bot's user."""
        return self.state.bot

    @property
    def application_id(self) -> int:
        """The application id (equal to the bot user's id)."""
        return self.state.application.id

    def add_user(self, name: str, *, global_name: str | None = None, locale: str = "en-US") -> User:
        """A human user."""
        user = self.state.add_user(name, global_name=global_name)
        user.locale = locale
        return user

    def add_guild(
        self,
        name: str,
        owner: User,
        *,
        bot_permissions: int = perms.DEFAULT_BOT,
        everyone_permissions: int = perms.DEFAULT_EVERYONE,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild with the owner and the bot in it (GUILD_CREATE if the bot is connected);
        ``shard=(id, count)`` picks its id so that Discord would serve it on that shard."""
        guild = self.state.add_guild(
            name, owner, everyone_permissions=everyone_permissions, bot_permissions=bot_permissions, shard=shard
        )
        self._guild_created(guild)
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        """A role (GUILD_ROLE_CREATE)."""
        role = self.state.add_role(guild, name, permissions)
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": payloads.role(role)}, intent=gw.GUILDS
        )
        self.notify()
        return role

    def add_member(
        self, guild: Guild, user: User, permissions: int | None = None, *, roles: list[Role] | None = None
    ) -> Member:
        """Make user a member; `permissions` gives it a personal role with those bits (GUILD_MEMBER_ADD)."""
        role_ids = [r.id for r in roles or []]
        if permissions is not None:
            role_ids.append(self.add_role(guild, f"{user.username} role", permissions).id)
        is_new = user.id not in guild.members
        member = self.state.add_member(guild, user, role_ids)
        data = {**payloads.member(member), "guild_id": str(guild.id)}
        self.gateway.dispatch("GUILD_MEMBER_ADD" if is_new else "GUILD_MEMBER_UPDATE", data, intent=gw.GUILD_MEMBERS)
        self.notify()
        return member

    def add_text_channel(self, guild: Guild, name: str, *, topic: str | None = None) -> Channel:
        """A text channel (CHANNEL_CREATE)."""
        channel = self.state.add_channel(guild, name, topic=topic)
        self.service.dispatch_channel_event("CHANNEL_CREATE", channel)
        return channel

    def add_thread(
        self,
        channel: Channel,
        name: str,
        *,
        archived: bool = False,
        private: bool = False,
        owner: User | None = None,
        bot_joined: bool = True,
    ) -> Channel:
        """A thread under a text channel (THREAD_CREATE unless archived)."""
        thread = self.state.add_thread(channel, name, owner=owner or self.state.bot, private=private, archived=archived)
        if bot_joined:
            thread.thread_member_ids.add(self.state.bot.id)
        if not archived:
            self.service.dispatch_channel_event("THREAD_CREATE", thread)
        self.notify()
        return thread

    def set_archived(self, thread: Channel, archived: bool = True, *, locked: bool = False) -> None:
        """Archive (or unarchive) a thread as a moderator would (THREAD_UPDATE)."""
        thread.archived, thread.locked, thread.archive_timestamp = archived, locked, now_iso()
        self.service.dispatch_channel_event("THREAD_UPDATE", thread)

    def set_channel_permissions(
        self, channel: Channel, target: Role | Member | User, *, allow: int = 0, deny: int = 0
    ) -> None:
        """A permission overwrite on a channel for a role or a member (CHANNEL_UPDATE)."""
        target_id = target.id
        kind = 0 if isinstance(target, Role) else 1
        channel.overwrites[target_id] = Overwrite(target_id, kind, allow, deny)
        self.service.dispatch_channel_event("CHANNEL_UPDATE", channel)

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and user (created on demand)."""
        return self.state.dm_channel(user)

    def _guild_created(self, guild: Guild) -> None:
        self.gateway.guild_joined(guild.id)
        self.notify()

    # -- reading -------------------------------------------------------------------------------------

    def messages(self, channel: Channel) -> list[Message]:
        """Public messages of a channel, oldest first."""
        return [m for m in channel.messages if m.ephemeral_to is None]

    def visible_to(self, user: User, channel: Channel) -> list[Message]:
        """Public messages plus that user's ephemerals, oldest first."""
        return [m for m in channel.messages if m.visible_to(user)]

    def ephemerals(self, user: User, channel: Channel | None = None) -> list[Message]:
        """Ephemeral messages shown to a user (in one channel or everywhere), oldest first."""
        found = [m for m in self.state.messages.values() if m.ephemeral_to == user.id]
        if channel is not None:
            found = [m for m in found if m.channel_id == channel.id]
        return sorted(found, key=lambda m: m.id)

    def dms(self, user: User) -> list[Message]:
        """Messages of the DM channel between the bot and user."""
        channel_id = self.state.dm_channels.get(user.id)
        return self.messages(self.state.channels[channel_id]) if channel_id else []

    def last_message(self, channel: Channel) -> Message | None:
        """The newest public message of a channel."""
        found = self.messages(channel)
        return found[-1] if found else None

    def commands(self, guild: Guild | None = None) -> list[ApplicationCommand]:
        """Registered commands: global, or of one guild."""
        return list(self.state.commands(guild.id if guild else None).values())

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float = PATIENCE,
        *,
        user: User | None = None,
    ) -> Message:
        """First message (existing or future, public or visible to `user`) matching predicate; edits count too."""

        def probe() -> Message | None:
            pool = self.visible_to(user, channel) if user else self.messages(channel)
            return next((m for m in pool if not m.loading and (predicate is None or predicate(m))), None)

        return await self.signal.wait_until(probe, timeout, f"a matching message in {channel!r}")

    async def wait_until(
        self, predicate: Callable[[], Any], timeout: float = PATIENCE, what: str = "a condition"
    ) -> Any:
        """Wait until predicate() is truthy (re-checked on every emulator change)."""
        return await self.signal.wait_until(predicate, timeout, what)

    # -- gateway faults ------------------------------------------------------------------------------

    async def drop_gateway(self, code: int | None = None) -> None:
        """Cut the bot's gateway connection (abnormally by default) so it reconnects and RESUMEs."""
        await self.gateway.drop(code)

    async def gateway_outage(self, down: bool = True) -> None:
        """Take the gateway down (every connection cut, every new one refused with 503) or bring it
        back; the bot reconnects by itself once it is back."""
        self.gateway.outage = down
        if down:
            await self.gateway.drop()

    async def wait_for_resume(self, count: int = 1, timeout: float = PATIENCE) -> None:
        """Wait until the gateway saw `count` successful RESUMEs in total."""
        await self.wait_until(lambda: self.gateway.resume_count >= count, timeout, f"{count} gateway resume(s)")

    async def wait_for_bot(self, timeout: float = PATIENCE) -> None:
        """Wait until a bot identified and holds a live gateway connection."""
        await self.wait_until(lambda: self.gateway.connected, timeout, "the bot's gateway connection")
