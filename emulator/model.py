"""In-memory model of the fake Discord: users, guilds, roles, channels, messages, commands."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from emulator import components as comp
from emulator import permissions as perms
from emulator.errors import (
    UNKNOWN_CHANNEL,
    UNKNOWN_GUILD,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    not_found,
)

DISCORD_EPOCH_MS = 1420070400000

GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({PUBLIC_THREAD, PRIVATE_THREAD})

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
COMPONENTS_V2 = 1 << 15


class Snowflakes:
    """Monotonic Discord-style snowflake ids (timestamp in the top bits)."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """A fresh id, strictly greater than every earlier one."""
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_in_shard(self, shard_id: int, count: int) -> int:
        """A fresh id of a guild that Discord serves on shard ``shard_id`` of ``count``
        (``(id >> 22) % count``): the next millisecond that falls there."""
        if not 0 <= shard_id < count:
            raise ValueError(f"shard {shard_id} is not one of {count}")
        stamp = self.next() >> 22
        stamp += (shard_id - stamp) % count
        self._last = max(stamp << 22, self._last)
        return self._last


def snowflake_time(snowflake: int) -> datetime:
    """The creation time encoded in a snowflake."""
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


def iso(moment: datetime) -> str:
    """ISO 8601 with offset, as Discord writes timestamps."""
    return moment.isoformat(timespec="microseconds")


def now_iso() -> str:
    """The current time as a Discord timestamp."""
    return iso(datetime.now(tz=UTC))


@dataclass(eq=False)
class User:
    """A Discord user (bot or human)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    avatar: str | None = None
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        """`<@id>` as typed in a message."""
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"User(id={self.id}, username={self.username!r})"


@dataclass(eq=False)
class Role:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    managed: bool = False
    mentionable: bool = False
    bot_id: int | None = None

    def __repr__(self) -> str:
        return f"Role(id={self.id}, name={self.name!r})"


@dataclass(eq=False)
class Member:
    """A user's membership of a guild."""

    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=now_iso)
    nick: str | None = None

    @property
    def id(self) -> int:
        """The user's id."""
        return self.user.id

    def __repr__(self) -> str:
        return f"Member(guild={self.guild_id}, user={self.user!r})"


@dataclass(eq=False)
class Guild:
    """A guild (server) with its roles, members and channel ids."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        """The @everyone role."""
        return self.roles[self.id]

    def __repr__(self) -> str:
        return f"Guild(id={self.id}, name={self.name!r})"


@dataclass
class Overwrite:
    """A channel permission overwrite for a role (type 0) or member (type 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0


@dataclass(eq=False)
class Channel:
    """A guild text channel, a thread or a DM channel, with its messages."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=now_iso)
    recipient_ids: list[int] = field(default_factory=list)
    thread_member_ids: set[int] = field(default_factory=set)
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
    total_message_sent: int = 0

    @property
    def is_thread(self) -> bool:
        """True for threads."""
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        """True for DM channels."""
        return self.type == DM

    @property
    def last_message_id(self) -> int | None:
        """Id of the newest public message."""
        public = [m for m in self.messages if m.ephemeral_to is None]
        return public[-1].id if public else None

    @property
    def mention(self) -> str:
        """`<#id>`."""
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        return f"Channel(id={self.id}, type={self.type}, name={self.name!r})"


@dataclass(eq=False)
class Attachment:
    """A file attached to a message; the bytes are kept."""

    id: int
    filename: str
    content: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.content)

    def __repr__(self) -> str:
        return f"Attachment(id={self.id}, filename={self.filename!r}, size={self.size})"


@dataclass(eq=False)
class Message:
    """A message as stored: what the bot (or a user) sent, plus Discord's bookkeeping."""

    id: int
    channel_id: int
    author: User
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    pinned: bool = False
    nonce: str | int | None = None
    edited_timestamp: str | None = None
    edit_count: int = 0
    ephemeral_to: int | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    mention_ids: list[int] = field(default_factory=list)
    # The users the message notified when it was created (its mentions that ``allowed_mentions``
    # let ping); an edit notifies nobody, as on Discord, and leaves this as it was.
    notified_ids: list[int] = field(default_factory=list)
    reactions: dict[str, list[int]] = field(default_factory=dict)

    @property
    def timestamp(self) -> str:
        """Creation time."""
        return iso(snowflake_time(self.id))

    @property
    def ephemeral(self) -> bool:
        """True when only one user can see the message."""
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        """True while a deferred interaction response is still 'thinking'."""
        return bool(self.flags & LOADING)

    def visible_to(self, user: User | int) -> bool:
        """Whether that user can see the message."""
        uid = user if isinstance(user, int) else user.id
        return self.ephemeral_to is None or self.ephemeral_to == uid

    def buttons(self) -> list[dict[str, Any]]:
        """All buttons of the message."""
        return comp.buttons(self.components)

    def selects(self) -> list[dict[str, Any]]:
        """All select menus of the message."""
        return comp.selects(self.components)

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> dict[str, Any]:
        """The only button with that label and/or custom_id."""
        return comp.find_button(self.components, label=label, custom_id=custom_id)

    def select(self, custom_id: str | None = None, *, placeholder: str | None = None) -> dict[str, Any]:
        """The only select with that custom_id and/or placeholder."""
        return comp.find_select(self.components, custom_id=custom_id, placeholder=placeholder)

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields and text displays, for loose assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for fld in embed.get("fields") or []:
                parts += [fld.get("name") or "", fld.get("value") or ""]
        parts += [c.get("content") or "" for c in comp.walk(self.components) if c.get("type") == comp.TEXT_DISPLAY]
        return "\n".join(p for p in parts if p)

    def __repr__(self) -> str:
        who = self.author.username
        return f"Message(id={self.id}, channel={self.channel_id}, author={who!r}, content={self.content!r})"


@dataclass(eq=False)
class ApplicationCommand:
    """A registered application command (global when guild_id is None)."""

    id: int
    application_id: int
    name: str
    type: int = 1
    description: str = ""
    guild_id: int | None = None
    options: list[dict[str, Any]] = field(default_factory=list)
    version: int = 0
    raw: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"ApplicationCommand(name={self.name!r}, type={self.type}, guild={self.guild_id})"


@dataclass(eq=False)
class Application:
    """The bot's application."""

    id: int
    name: str
    owner: User
    flags: int = (1 << 15) | (1 << 19) | (1 << 23)
    verify_key: str = field(default_factory=lambda: secrets.token_hex(32))


class State:
    """Every object of the fake Discord, with lookups and permission maths."""

    def __init__(self, bot_name: str = "Meeple Post") -> None:
        self.ids = Snowflakes()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.dm_channels: dict[int, int] = {}
        self.global_commands: dict[tuple[int, str], ApplicationCommand] = {}
        self.guild_commands: dict[int, dict[tuple[int, str], ApplicationCommand]] = {}
        self.bot = self.add_user(bot_name, bot=True)
        owner = self.add_user(f"{bot_name} owner")
        self.application = Application(id=self.bot.id, name=bot_name, owner=owner)

    # -- creation -------------------------------------------------------------------------------

    def add_user(self, username: str, *, global_name: str | None = None, bot: bool = False) -> User:
        """Create a user."""
        user = User(id=self.ids.next(), username=username, global_name=global_name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        owner: User,
        *,
        everyone_permissions: int,
        bot_permissions: int,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """Create a guild with @everyone, the owner and the bot (with its managed role) as members."""
        guild_id = self.ids.next() if shard is None else self.ids.next_in_shard(*shard)
        guild = Guild(id=guild_id, name=name, owner_id=owner.id)
        guild.roles[guild.id] = Role(id=guild.id, guild_id=guild.id, name="@everyone", permissions=everyone_permissions)
        self.guilds[guild.id] = guild
        bot_role = self.add_role(guild, self.bot.username, bot_permissions)
        bot_role.managed, bot_role.bot_id = True, self.bot.id
        self.add_member(guild, owner)
        self.add_member(guild, self.bot, [bot_role.id])
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        """Create a role in a guild."""
        role = Role(
            id=self.ids.next(), guild_id=guild.id, name=name, permissions=permissions, position=len(guild.roles)
        )
        guild.roles[role.id] = role
        return role

    def add_member(self, guild: Guild, user: User, role_ids: list[int] | None = None) -> Member:
        """Make a user a member of a guild (or update its roles)."""
        member = guild.members.get(user.id)
        if member is None:
            member = guild.members[user.id] = Member(user=user, guild_id=guild.id)
        for role_id in role_ids or []:
            if role_id not in member.role_ids:
                member.role_ids.append(role_id)
        return member

    def add_channel(self, guild: Guild, name: str, *, topic: str | None = None) -> Channel:
        """Create a text channel in a guild."""
        position = len([c for c in guild.channel_ids if not self.channels[c].is_thread])
        channel = Channel(
            id=self.ids.next(), type=GUILD_TEXT, name=name, guild_id=guild.id, position=position, topic=topic
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner: User,
        private: bool = False,
        archived: bool = False,
        thread_id: int | None = None,
    ) -> Channel:
        """Create a thread under a text channel (thread_id is the starter message's id when there is one)."""
        if parent.guild_id is None or parent.is_thread:
            raise ValueError("threads live under guild text channels")
        thread = Channel(
            id=thread_id or self.ids.next(),
            type=PRIVATE_THREAD if private else PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            archived=archived,
        )
        thread.thread_member_ids.add(owner.id)
        self.channels[thread.id] = thread
        self.guilds[parent.guild_id].channel_ids.append(thread.id)
        return thread

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and a user, created on first use."""
        channel_id = self.dm_channels.get(user.id)
        if channel_id is None:
            channel = Channel(id=self.ids.next(), type=DM, recipient_ids=[user.id])
            self.channels[channel.id] = channel
            self.dm_channels[user.id] = channel_id = channel.id
        return self.channels[channel_id]

    def add_message(self, message: Message) -> Message:
        """Store a message in its channel."""
        channel = self.channels[message.channel_id]
        channel.messages.append(message)
        if message.ephemeral_to is None:
            channel.total_message_sent += 1
        self.messages[message.id] = message
        return message

    def remove_message(self, message: Message) -> None:
        """Forget a message."""
        channel = self.channels.get(message.channel_id)
        if channel is not None and message in channel.messages:
            channel.messages.remove(message)
        self.messages.pop(message.id, None)

    # -- lookups ---------------------------------------------------------------------------------

    def user(self, user_id: int | str) -> User:
        """A user by id, or 404 Unknown User."""
        try:
            return self.users[int(user_id)]
        except (KeyError, ValueError):
            raise not_found(UNKNOWN_USER, "User") from None

    def guild(self, guild_id: int | str) -> Guild:
        """A guild by id, or 404 Unknown Guild."""
        try:
            return self.guilds[int(guild_id)]
        except (KeyError, ValueError):
            raise not_found(UNKNOWN_GUILD, "Guild") from None

    def channel(self, channel_id: int | str) -> Channel:
        """A channel by id, or 404 Unknown Channel."""
        try:
            return self.channels[int(channel_id)]
        except (KeyError, ValueError):
            raise not_found(UNKNOWN_CHANNEL, "Channel") from None

    def message(self, channel: Channel, message_id: int | str) -> Message:
        """A message of a channel by id, or 404 Unknown Message."""
        try:
            message = self.messages[int(message_id)]
        except (KeyError, ValueError):
            raise not_found(UNKNOWN_MESSAGE, "Message") from None
        if message.channel_id != channel.id:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return message

    def guild_of(self, channel: Channel) -> Guild | None:
        """The guild a channel belongs to (None for DMs)."""
        return self.guilds.get(channel.guild_id) if channel.guild_id is not None else None

    def dm_recipient(self, channel: Channel) -> User | None:
        """The human of a DM channel."""
        return self.users.get(channel.recipient_ids[0]) if channel.is_dm and channel.recipient_ids else None

    def active_threads(self, guild: Guild) -> list[Channel]:
        """Threads of the guild that are not archived."""
        return [c for c in (self.channels[i] for i in guild.channel_ids) if c.is_thread and not c.archived]

    def commands(self, guild_id: int | None = None) -> dict[tuple[int, str], ApplicationCommand]:
        """The command table for a guild, or the global one."""
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.setdefault(guild_id, {})

    def find_command(self, name: str, guild_id: int | None, type_: int = 1) -> ApplicationCommand | None:
        """A command the user could invoke there: the guild's first, then the global one."""
        if guild_id is not None:
            found = self.commands(guild_id).get((type_, name))
            if found is not None:
                return found
        return self.global_commands.get((type_, name))

    # -- permissions -----------------------------------------------------------------------------

    def base_permissions(self, guild: Guild, user_id: int) -> int:
        """Guild-level permissions of a member (owner and administrators get everything)."""
        if user_id == guild.owner_id:
            return perms.ALL
        member = guild.members.get(user_id)
        if member is None:
            return 0
        value = guild.everyone.permissions
        for role_id in member.role_ids:
            role = guild.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        return perms.ALL if value & perms.ADMINISTRATOR else value

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """Channel permissions of a user, overwrites applied (threads use their parent's)."""
        guild = self.guild_of(channel)
        if guild is None:
            return perms.VIEW_CHANNEL | perms.SEND_MESSAGES | perms.READ_MESSAGE_HISTORY | perms.ATTACH_FILES
        value = self.base_permissions(guild, user_id)
        if value & perms.ADMINISTRATOR or value == perms.ALL:
            return value
        source = self.channels.get(channel.parent_id) if channel.is_thread and channel.parent_id else channel
        overwrites = source.overwrites if source else {}
        everyone = overwrites.get(guild.id)
        if everyone:
            value = (value & ~everyone.deny) | everyone.allow
        member = guild.members.get(user_id)
        role_ids = member.role_ids if member else []
        allow = deny = 0
        for role_id in role_ids:
            ow = overwrites.get(role_id)
            if ow and ow.type == 0:
                allow, deny = allow | ow.allow, deny | ow.deny
        value = (value & ~deny) | allow
        own = overwrites.get(user_id)
        if own and own.type == 1:
            value = (value & ~own.deny) | own.allow
        if not value & perms.VIEW_CHANNEL:
            return 0
        if channel.type == PRIVATE_THREAD and user_id not in channel.thread_member_ids:
            # a private thread shows only to its members, and to whoever may manage threads
            return value if value & perms.MANAGE_THREADS else 0
        return value
