"""What the tournament runner and the tournament service need said on the chat platform, as an
interface: threads for tables, posts in a tournament's channel, lines at a table. No Discord here
(``bot.tournament_posting`` implements it with discord.py), so the runner runs, and is tested,
without a gateway.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from services.storage import GameRow


class ChannelGone(RuntimeError):
    """The tournament's channel cannot be found any more."""


@dataclass(frozen=True)
class Attachment:
    """A picture posted with a message: PNG bytes, a file name and its alt text."""

    data: bytes
    filename: str
    description: str


class TournamentPosting(Protocol):
    """The runner's and the tournament service's way to the players."""

    async def server_language(self, guild_id: int, preferred: str | None = None) -> str:
        """The language a server's new tables and tournaments speak by default (its setting, else
        its ``preferred`` locale when there is a catalogue for it)."""
        ...

    def table_locale(self, row: GameRow) -> str:
        """The language of a table's public posts."""
        ...

    def board_url(self, row: GameRow) -> str:
        """A link to the table's current board message ("" before it is posted)."""
        ...

    async def channel_exists(self, channel_id: int) -> bool:
        """Whether a channel or thread can still be posted in."""
        ...

    async def make_thread(self, channel_id: int, name: str, private: bool, members: Sequence[int]) -> int:
        """A new thread under a tournament's channel (a private one with ``members`` added); its id.

        Raises ChannelGone when the channel is not there."""
        ...

    async def post(
        self, channel_id: int, text: str, pictures: Sequence[Attachment] = (), mentions: bool = False
    ) -> int | None:
        """Post in a tournament's channel (pinging the users mentioned only when ``mentions``);
        the message's id, or None when it could not be posted (the failure is logged)."""
        ...

    async def greet(self, row: GameRow, text: str) -> None:
        """A line at a table that pings the users it mentions; a failure is logged."""
        ...

    async def announce(self, row: GameRow, text: str) -> None:
        """A plain public line at a table; mentions never ping."""
        ...

    async def seat_changed(self, row: GameRow, seat: int, new_user: int, key: str, **values: object) -> None:
        """Announce a seat's new player at the table and send them the seat's private information."""
        ...

    async def deliver(self, game_id: int) -> GameRow:
        """Have a table's pending boards and hands delivered (waiting a little for them); its row."""
        ...

    async def signup_changed(self, tournament_id: int) -> None:
        """The tournament's sign-up message shows its entrants and status as they are now."""
        ...
