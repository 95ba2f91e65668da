"""The sandbox's Discord: a loopback emulator with one server, a #games channel, a thread and four people.

Threads the bot creates later (`/table create ... thread:True`) join the channel list as they appear.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from emulator import gateway as gw
from emulator import payloads
from emulator.emulator import Emulator
from emulator.model import GUILD_TEXT, PRIVATE_THREAD, PUBLIC_THREAD, Channel, Guild, State, User

PEOPLE = (("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol"), ("dave", "Dave"))
GUILD_NAME = "Meeple Hall"
CHANNEL_NAME = "games"
CHANNEL_TOPIC = "Board games by post: type /table create to open a table"
# Named for no game: any of the four may be played there.
THREAD_NAME = "Game night"
# The Discord client languages a person may switch to (Discord's locale codes), each named in itself.
LOCALES = {"en-US": "English", "zh-TW": "繁體中文", "pt-BR": "Português (Brasil)"}
NAME_MAX = 32  # Discord's limit on a display (global) name


class SandboxEmulator(Emulator):
    """The emulator, counting its changes so that open pages can be told at once."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.changes = 0
        self.changed = asyncio.Event()

    def notify(self) -> None:
        super().notify()
        self.changes += 1
        self.changed.set()

    def rename(self, user: User, name: str) -> str:
        """Change someone's display name as they would in Discord's settings: any Unicode, emoji
        included, 1-32 characters once trimmed. Every later payload (interactions, messages,
        members) carries it; bots with the members intent also get GUILD_MEMBER_UPDATE.

        Raises ValueError for an empty or too long name.
        """
        name = " ".join(name.split())
        if not name or len(name) > NAME_MAX:
            raise ValueError(f"a display name has 1 to {NAME_MAX} characters")
        user.global_name = name
        for guild in self.state.guilds.values():
            member = guild.members.get(user.id)
            if member is not None:
                data = {**payloads.member(member), "guild_id": str(guild.id)}
                self.gateway.dispatch("GUILD_MEMBER_UPDATE", data, intent=gw.GUILD_MEMBERS)
        self.notify()
        return name


@dataclass
class World:
    """Who and where: the four people (Alice owns the server), the guild, #games and its thread.

    `state` is the emulator's, where the threads the bot creates later are found.
    """

    people: list[User]
    guild: Guild
    channel: Channel
    thread: Channel
    state: State

    def person(self, user_id: int | str) -> User:
        """One of the four people by id (a KeyError for anyone else, the bot included)."""
        wanted = int(user_id)
        for user in self.people:
            if user.id == wanted:
                return user
        raise KeyError(f"no sandbox user {user_id}")

    def channels(self, viewer: User | None = None) -> list[Channel]:
        """The server's channels in sidebar order: each text channel, then its threads, oldest first.

        Public threads are listed for everyone; a private thread only for a ``viewer`` who is one of
        its members (Discord lists a private thread to the people in it, and no one else).
        Read from the emulator each time, so a thread the bot has just created is listed at once.
        """
        found = [self.state.channels[i] for i in self.guild.channel_ids if i in self.state.channels]
        texts = sorted((c for c in found if c.type == GUILD_TEXT), key=lambda c: (c.position, c.id))
        ordered: list[Channel] = []
        for text in texts:
            ordered.append(text)
            ordered += [
                c
                for c in found
                if c.parent_id == text.id
                and (
                    c.type == PUBLIC_THREAD
                    or (c.type == PRIVATE_THREAD and viewer is not None and viewer.id in c.thread_member_ids)
                )
            ]
        return ordered


def build_world(emu: Emulator) -> World:
    """Alice, Bob, Carol and Dave in the server "Meeple Hall", with #games and a thread under it."""
    people = [emu.add_user(username, global_name=name) for username, name in PEOPLE]
    guild = emu.add_guild(GUILD_NAME, people[0])
    for user in people[1:]:
        emu.add_member(guild, user)
    channel = emu.add_text_channel(guild, CHANNEL_NAME, topic=CHANNEL_TOPIC)
    thread = emu.add_thread(channel, THREAD_NAME, owner=people[0])
    for user in people:
        thread.thread_member_ids.add(user.id)
    return World(people, guild, channel, thread, emu.state)
