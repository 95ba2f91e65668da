"""The tournament runner's and service's posts on Discord: ``TournamentPosting`` with discord.py.

Threads for the tables, messages with pictures in a tournament's channel, lines at a table, and
the sign-up message redrawn by the tournament cog. Message lengths are clipped here, to Discord's
limits.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.flow import MENTIONS, clip, jump_url
from services.tournament_posting_port import Attachment, ChannelGone

if TYPE_CHECKING:
    from bot.client import MeepleBot
    from bot.flow import Flow
    from services.storage import GameRow

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT = 100
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: a table's thread stays open through a round


class DiscordTournamentPosting:
    """``TournamentPosting`` (services/tournament_posting_port.py) on Discord."""

    def __init__(self, bot: MeepleBot, flow: Flow) -> None:
        self.bot = bot
        self.flow = flow

    async def server_language(self, guild_id: int, preferred: str | None = None) -> str:
        return await self.flow.server_language(guild_id, preferred)

    def table_locale(self, row: GameRow) -> str:
        return self.flow.table_locale(row)

    def board_url(self, row: GameRow) -> str:
        return jump_url(row, row.board_message_id) or ""

    async def find_channel(self, channel_id: int) -> Any:
        """A channel or thread from the cache, else from Discord (at start-up, before the gateway
        has filled the cache); None if it is gone."""
        known = self.bot.get_channel(channel_id)
        if known is not None:
            return known
        try:
            return await self.bot.fetch_channel(channel_id)
        except discord.NotFound:
            return None
        except discord.HTTPException as exc:
            raise RuntimeError(f"channel {channel_id} could not be fetched: {exc.status}") from exc

    async def channel_exists(self, channel_id: int) -> bool:
        return await self.find_channel(channel_id) is not None

    async def make_thread(self, channel_id: int, name: str, private: bool, members: Sequence[int]) -> int:
        channel = await self.find_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise ChannelGone(f"the tournament's channel {channel_id} is gone")
        if private:
            thread = await channel.create_thread(
                name=clip(name, THREAD_NAME_LIMIT),
                type=discord.ChannelType.private_thread,
                auto_archive_duration=ARCHIVE_MINUTES,
                invitable=False,
            )
            for user in members:
                await thread.add_user(discord.Object(user))
        else:
            thread = await channel.create_thread(
                name=clip(name, THREAD_NAME_LIMIT),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=ARCHIVE_MINUTES,
            )
        return thread.id

    async def post(
        self, channel_id: int, text: str, pictures: Sequence[Attachment] = (), mentions: bool = False
    ) -> int | None:
        channel = await self.find_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("tournament channel %s is gone", channel_id)
            return None
        files = [discord.File(io.BytesIO(p.data), p.filename, description=p.description) for p in pictures]
        try:
            message = await channel.send(
                clip(text), files=files, allowed_mentions=MENTIONS if mentions else discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            log.warning("could not post in tournament channel %s: %s", channel_id, exc.status)
            return None
        return message.id

    async def greet(self, row: GameRow, text: str) -> None:
        try:
            await self.flow.channel(row).send(clip(text), allowed_mentions=MENTIONS)
        except discord.HTTPException as exc:
            log.warning("could not greet tournament table %s: %s", row.id, exc.status)

    async def announce(self, row: GameRow, text: str) -> None:
        await self.flow.announce(row, text)

    async def seat_changed(self, row: GameRow, seat: int, new_user: int, key: str, **values: object) -> None:
        await self.flow.seat_changed(row, seat, new_user, key, **values)

    async def deliver(self, game_id: int) -> GameRow:
        return await self.flow.deliver(game_id)

    async def signup_changed(self, tournament_id: int) -> None:
        cog = self.bot.get_cog("TournamentCog")
        refresh = getattr(cog, "refresh_signup", None)
        if refresh is not None:
            await refresh(tournament_id)
