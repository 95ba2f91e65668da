"""What a profile and a leaderboard read: the names players sat down with, a player's finished
games on a server, and the moves of their rating (``services.player_profiles`` words and draws them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from services.storage import Database


class FinishedGame(NamedTuple):
    """One finished game of a player's, as a profile lists it."""

    game_id: int
    score: int
    rank: int
    won: bool
    finished_at: str
    players: int
    game: str
    channel_id: int
    board_message_id: int | None


async def seat_names(db: Database, user_ids: Sequence[int]) -> list[tuple[int, str]]:
    """(user, the name they sat down with) of every seat of theirs, oldest seat first."""
    if not user_ids:
        return []
    marks = ",".join("?" * len(user_ids))
    rows = await db.query(
        f"SELECT user_id, display_name FROM seats WHERE user_id IN ({marks}) AND display_name IS NOT NULL"
        " ORDER BY joined_at",
        tuple(user_ids),
    )
    return [(row[0], row[1]) for row in rows]


async def finished_games(db: Database, guild_id: int, user_id: int) -> list[FinishedGame]:
    """The player's finished games on this server, latest first: only the columns a profile
    shows, never a whole state decoded per game."""
    rows = await db.query(
        "SELECT r.game_id, r.score, r.rank, r.won, r.finished_at,"
        " (SELECT COUNT(*) FROM results AS o WHERE o.game_id = r.game_id) AS players,"
        " g.game, g.channel_id, g.board_message_id"
        " FROM results AS r JOIN games AS g ON g.id = r.game_id"
        " WHERE r.user_id = ? AND g.guild_id = ? ORDER BY r.finished_at DESC, r.game_id DESC",
        (user_id, guild_id),
    )
    return [FinishedGame(*row) for row in rows]


async def rating_moves(
    db: Database, guild_id: int, game: str, user_id: int, limit: int
) -> list[tuple[float, float, float, float]]:
    """(mu, sigma before; mu, sigma after) of the player's latest ``limit`` rated games, latest first."""
    rows = await db.query(
        "SELECT mu_before, sigma_before, mu_after, sigma_after FROM rating_history"
        " WHERE guild_id = ? AND game = ? AND user_id = ? ORDER BY finished_at DESC, game_id DESC LIMIT ?",
        (guild_id, game, user_id, limit),
    )
    return [(row[0], row[1], row[2], row[3]) for row in rows]
