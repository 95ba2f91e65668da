"""What the platform's services ask of the chat side: boards, hands by DM, lines in a table's channel.

The delivery worker, the scheduler and the computers post through a ``Poster`` and never see the
chat library: its failures reach them already sorted into ``RetryLater`` (Discord or the network
may get over it) and ``Refused`` (it will not change: ``Forbidden``, ``Gone``, any other refusal).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Protocol

from engine import AnyState
from services.storage import GameRow, SeatRow

# Discord's ids count milliseconds from this moment (2015-01-01) in their upper bits.
DISCORD_EPOCH_MS = 1_420_070_400_000


def message_time(message_id: int) -> datetime:
    """When a Discord message was created, read from its id (as ``discord.utils.snowflake_time``)."""
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=(message_id >> 22) + DISCORD_EPOCH_MS)


class PostFailed(Exception):
    """A post the chat side could not make; ``str`` says what happened, for the job's log."""

    def __init__(self, what: str, status: int | None = None, code: int | None = None) -> None:
        super().__init__(what)
        self.status = status
        self.code = code


class RetryLater(PostFailed):
    """A failure the same request may get over (a rate limit, a server error, the network);
    ``retry_after``: the least wait Discord asked for, if it said."""

    def __init__(
        self,
        what: str,
        status: int | None = None,
        code: int | None = None,
        retry_after: float | None = None,
        rate_limited: bool = False,
    ) -> None:
        super().__init__(what, status, code)
        self.retry_after = retry_after
        self.rate_limited = rate_limited


class Refused(PostFailed):
    """A refusal that will not change (any 4xx but a rate limit): trying again is pointless."""


class Forbidden(Refused):
    """Not allowed (403): a member who takes no DMs, a channel the bot may not write in."""


class Gone(Refused):
    """Not there any more (404): a deleted channel, message or user."""


class Poster(Protocol):
    """The chat side's posting, as the services use it (``bot.posting.Poster`` on Discord)."""

    def table_locale(self, row: GameRow) -> str:
        """The language of the table's public posts."""
        ...

    async def user_locale(self, user_id: int, fallback: str) -> str:
        """The language of what reaches a user outside an interaction (a DM)."""
        ...

    def seat_names(self, seats: Sequence[SeatRow], loc: str | None = None) -> list[str]:
        """The players' names as shown, in ``loc``."""
        ...

    async def post_board(
        self,
        row: GameRow,
        state: AnyState,
        lines: list[str],
        seats: Sequence[SeatRow] | None = None,
        *,
        edit: int | None = None,
        mention: Sequence[int] = (),
        nonce: str | None = None,
    ) -> tuple[int, list[str]]:
        """Post the board (or ``edit`` the message of that id): the message's id and the lines it shows."""
        ...

    async def send_hand(
        self,
        row: GameRow,
        state: AnyState,
        seat: int,
        reason: str,
        lines: Sequence[str] = (),
        seats: Sequence[SeatRow] | None = None,
        loc: str | None = None,
    ) -> None:
        """DM the seat's player its private view (one attempt)."""
        ...

    async def post_notice(self, row: GameRow, text: str) -> None:
        """A line in the game's channel that notifies the players it mentions (one attempt)."""
        ...

    async def announce(self, row: GameRow, text: str) -> None:
        """A plain public line in the game's channel that pings nobody; a failure is logged, not raised."""
        ...

    async def remind(self, row: GameRow, users: list[int], key: str, snooze: bool = False, **values: object) -> None:
        """Nudge waiting players in the game's channel, with a link to the board."""
        ...
