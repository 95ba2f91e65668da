"""The ratings' rows: one finished game moving ratings, a rebuild from the stored results, and
the reads of leaderboards, profiles, score boards and tournament seeds (docs/RATINGS.md).

What a rating is and how a game moves it is ``league.rating_maths`` (pure); this is its storage.
``python -m services.ratings_tool rebuild [--db PATH]`` recomputes every rating (``rebuild``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from league.rating_maths import (
    Rating,
    ScoreRecord,
    best_first,
    best_per_mode,
    counts,
    counts_per_mode,
    fresh,
    moved,
    ordinal,
    score_mode,
)
from services.storage.connection import Connection

if TYPE_CHECKING:
    from services.storage import Database


async def rate_game(
    conn: Connection,
    game_id: int,
    guild_id: int,
    game: str,
    finished_at: str,
    placed: Sequence[tuple[int, int]],
    first: bool = False,
) -> bool:
    """Move the ratings of ``placed`` (user id, rank) players by one finished game.

    Runs inside the caller's transaction. A game already rated (rating_history has its rows)
    changes nothing, so a repeated call is harmless. Returns whether ratings moved.

    ``first``: the caller's transaction is the one that finished the game (its guarded update
    moved it from running to finished), so nothing can have rated it yet: the check is skipped.
    """
    if not counts(game, len(placed)):
        return False
    if not first:
        async with conn.execute("SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (game_id,)) as cursor:
            if await cursor.fetchone() is not None:
                return False
    users = [user for user, _ in placed]
    marks = ",".join("?" * len(users))
    async with conn.execute(
        f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
        (guild_id, game, *users),
    ) as cursor:
        known = {row[0]: (row[1], row[2], row[3]) for row in await cursor.fetchall()}
    newcomer = (*fresh(), 0)
    before = [known.get(user, newcomer) for user in users]
    after = moved([(mu, sigma) for mu, sigma, _ in before], [rank for _, rank in placed])
    changed = [
        (user, mu0, sigma0, games, mu1, sigma1)
        for user, (mu0, sigma0, games), (mu1, sigma1) in zip(users, before, after, strict=True)
    ]
    # Every player's rating, then every player's history row: two statements, whatever the players.
    await conn.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, game, user_id)"
        " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
        " updated_at = excluded.updated_at",
        [(guild_id, game, user, mu1, sigma1, games + 1, finished_at) for user, _, _, games, mu1, sigma1 in changed],
    )
    await conn.executemany(
        "INSERT INTO rating_history (game_id, user_id, guild_id, game, mu_before, sigma_before,"
        " mu_after, sigma_after, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game_id, user, guild_id, game, mu0, sigma0, mu1, sigma1, finished_at)
            for user, mu0, sigma0, _, mu1, sigma1 in changed
        ],
    )
    return True


# The rated games, in the order their results were stored: the order incremental updates ran.
_RATED_GAMES = """
SELECT g.id, g.guild_id, g.game, MIN(r.finished_at) AS finished_at
FROM games AS g JOIN results AS r ON r.game_id = g.id
WHERE g.status = 'finished' AND g.rated = 1 AND g.guild_id IS NOT NULL
GROUP BY g.id
ORDER BY finished_at, g.id
"""


async def rebuild(conn: Connection) -> int:
    """Recompute every rating from the stored results alone, inside the caller's transaction.

    Returns how many games were rated. Gives exactly what the incremental updates gave, since
    it applies the same function to the same results in the same order (finish time, then id).
    """
    await conn.execute("DELETE FROM rating_history")
    await conn.execute("DELETE FROM ratings")
    async with conn.execute(_RATED_GAMES) as cursor:
        games = list(await cursor.fetchall())
    rated = 0
    for game_id, guild_id, game, finished_at in games:
        async with conn.execute(
            "SELECT user_id, rank FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        ) as cursor:
            placed = [(row[0], row[1]) for row in await cursor.fetchall()]
        if await rate_game(conn, game_id, guild_id, game, finished_at, placed):
            rated += 1
    return rated


async def ratings_of(db: Database, guild_id: int, game: str) -> list[Rating]:
    """A server's ratings of one game, best first (ordinal, then user id for a stable order)."""
    rows = await db.query(
        "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game)
    )
    return best_first(Rating(row[0], row[1], row[2], row[3]) for row in rows)


async def player_ratings(db: Database, guild_id: int, user_id: int) -> dict[str, Rating]:
    """One player's rating in each game they have played rated on this server."""
    rows = await db.query(
        "SELECT game, user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return {row[0]: Rating(row[1], row[2], row[3], row[4]) for row in rows}


async def score_records(db: Database, guild_id: int, game: str, limit: int = 10) -> dict[str, list[ScoreRecord]]:
    """The best games per mode (``level-1``.., or ``solo``), best score first, and all the games.

    Returns {mode: best games}; the win rate per mode comes from ``score_counts``.
    """
    return best_per_mode(await _score_games(db, guild_id, game), limit)


async def score_counts(db: Database, guild_id: int, game: str) -> dict[str, tuple[int, int]]:
    """{mode: (games, wins)} of the co-operative or solo games of ``game`` on this server."""
    return counts_per_mode(await _score_games(db, guild_id, game))


async def _score_games(db: Database, guild_id: int, game: str) -> list[tuple[str, ScoreRecord]]:
    rows = await db.query(
        "SELECT g.id, g.options, r.user_id, r.score, r.won FROM games AS g JOIN results AS r ON r.game_id = g.id"
        " WHERE g.guild_id = ? AND g.game = ? AND g.status = 'finished' ORDER BY g.id, r.seat",
        (guild_id, game),
    )
    by_game: dict[int, list[Any]] = {}
    for row in rows:
        by_game.setdefault(row[0], []).append(row)
    found: list[tuple[str, ScoreRecord]] = []
    for game_id, seats in by_game.items():
        mode = score_mode(game, json.loads(seats[0][1]), len(seats))
        if mode is None:
            continue  # a competitive game: it has a rating instead
        record = ScoreRecord(game_id, tuple(s[2] for s in seats), seats[0][3], bool(seats[0][4]))
        found.append((mode, record))
    return found


async def seeding_ratings(conn: Connection, guild_id: int, game: str, user_ids: Sequence[int]) -> dict[int, float]:
    """Ordinals (mu - 3 sigma) of these players, for seeding tournaments; unrated players absent."""
    if not user_ids:
        return {}
    marks = ",".join("?" * len(user_ids))
    async with conn.execute(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
        (guild_id, game, *user_ids),
    ) as cursor:
        return {row[0]: ordinal(row[1], row[2]) for row in await cursor.fetchall()}
