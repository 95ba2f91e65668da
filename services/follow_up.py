"""What follows a change to a table, whoever made it (a click, a computer, a time limit): its
tournament told when it ends, its board and DMs delivered, its computers poked.

A service of the platform: it posts through the ``Poster`` interface and never imports discord.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

from l10n.words import t
from services import computer_turns as computers
from services.computer_turns import ComputerTurns
from services.delivery import Delivery
from services.game_service import GameService, MoveResult
from services.pictures import Pictures
from services.posting_port import Poster
from services.storage import GameRow, jobs

# How long a player's answer waits for the board of their move before saying it is on its way.
ANSWER_WAIT = 5.0


class FollowUp:
    """Delivers what a change enqueued, and lets the computers and the tournament know of it."""

    def __init__(
        self, service: GameService, delivery: Delivery, poster: Poster, pictures: Pictures | None = None
    ) -> None:
        self.service = service
        self.delivery = delivery
        self.poster = poster
        self.pictures = pictures  # a full drawing queue: the answer does not wait for the board
        self.answer_wait = ANSWER_WAIT
        # Told when a table finishes (the tournament runner settles its round); set by the bot.
        self.table_over: Callable[[int], None] | None = None
        self.computer_turns: ComputerTurns | None = None  # plays computer seats; set by the bot

    async def after_move(
        self, result: MoveResult, before: Sequence[str] = (), forfeited: AbstractSet[int] = frozenset()
    ) -> GameRow:
        """Have the new board (with what happened) and the DMs of private information delivered.

        The service enqueued them with the move, and a move that ends the game stored its
        results in that same transaction; ``before`` lines (a resignation, a time-out) and the
        ``forfeited`` seats are added to that board here.
        """
        row = result.row
        if result.state.outcome() is not None and self.table_over is not None:
            self.table_over(row.id)
        if before or forfeited:
            await jobs.annotate_board(self.service.db, row.id, result.state.version, list(before), sorted(forfeited))
        return await self.deliver(row.id, row)

    async def deliver(self, game_id: int, row: GameRow | None = None) -> GameRow:
        """Have the game's pending boards and DMs delivered; wait a little for them, not for retries.

        The game's row after it: ``row`` (the game as a change just left it), with the board this
        process posted for it, if it did; without ``row``, read again."""
        self.delivery.kick(game_id)
        if self.computer_turns is not None:
            self.computer_turns.poke(game_id)
        if self.pictures is None or not self.pictures.busy:  # a full drawing queue: answer now, the board follows
            await self.delivery.wait(game_id, self.answer_wait)
        if row is not None:
            return self.delivery.board_of(row)
        return await self.service.get(game_id)

    async def take_over(self, game_id: int, user_id: int, why: str) -> bool:
        """At a table with the takeover option, a computer takes the seat of a player who resigns
        or forfeits on time, so the others can finish; False when the game should end instead."""
        if self.computer_turns is None or not await computers.takes_over(self.service.db, game_id, user_id):
            return False
        async with self.service.lock(game_id):
            row, seat, _ = await self.service.running_seat(game_id, user_id)
            loc = self.poster.table_locale(row)
            label = await computers.take_over(self.service.db, game_id, seat, user_id, loc)
        await self.poster.announce(row, t(f"computer.took-over.{why}", loc, player=f"<@{user_id}>", computer=label))
        self.computer_turns.poke(game_id)
        return True
