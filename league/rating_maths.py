"""Skill ratings with openskill's Plackett-Luce model (docs/RATINGS.md): the rules, pure.

One rating (mu, sigma) per player per game per server. A finished game moves the ratings of its
players in the same transaction that stores its results (``services.storage.ratings.rate_game``, from
services/storage/async_play.record_results), and only once: rating_history holds one row per game and
player. Ratings are derived data, so ``python -m services.ratings_tool rebuild [--db PATH]``
recomputes them from the stored results alone. This module holds what a rating is and how one
game moves it; no storage, no awaits.

Which games count: the competitive games at 2-4 players, on a server, at a table that was not
made casual. Co-operative and solo games keep score records instead. Forfeits and resignations
are already last in ``results.rank``; ties share a rank, which Plackett-Luce handles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from engine import registry

# Free-for-all games with a winner, as each game declares (``Game.facts.rating``): a live set.
COMPETITIVE = registry.ranked_games()
MIN_PLAYERS, MAX_PLAYERS = 2, 4
# Until a player has this many rated games of a game, their number is marked provisional and
# listed apart on the leaderboard: sigma is still wide, so the ordinal says little yet.
PROVISIONAL_GAMES = 5
# The shown number: 1000 + 40 x ordinal (ordinal = mu - 3 sigma, openskill's conservative
# estimate). A newcomer shows 1000; the scale only makes steps of a game read as whole points.
DISPLAY_BASE, DISPLAY_SCALE = 1000, 40

MODEL = PlackettLuce()


def counts(game: str, players: int) -> bool:
    """Whether a finished ``game`` with this many players can move ratings at all."""
    return game in COMPETITIVE and MIN_PLAYERS <= players <= MAX_PLAYERS


def ordinal(mu: float, sigma: float) -> float:
    """openskill's conservative estimate: mu minus three sigma (what ranks and seeds players)."""
    return mu - 3 * sigma


def shown(mu: float, sigma: float) -> int:
    """The number players see: conservative (mu minus three sigma), scaled."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal(mu, sigma))


def fresh() -> tuple[float, float]:
    """A newcomer's (mu, sigma)."""
    rating = MODEL.rating()
    return rating.mu, rating.sigma


def moved(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """The players' (mu, sigma) after one game in which they placed ``ranks`` (ties share a rank)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [(team[0].mu, team[0].sigma) for team in after]


@dataclass(frozen=True)
class Rating:
    user_id: int
    mu: float
    sigma: float
    games: int

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def best_first(found: Iterable[Rating]) -> list[Rating]:
    """A leaderboard's order: ordinal, then user id for a stable order."""
    return sorted(found, key=lambda r: (-ordinal(r.mu, r.sigma), r.user_id))


@dataclass(frozen=True)
class ScoreRecord:
    """One finished co-operative or solo game on a score board: who played, the score, a win?"""

    game_id: int
    user_ids: tuple[int, ...]
    score: int
    won: bool


# Solo and co-operative games keep score records, per mode: a co-operative game (Fox Duet) per
# level (its ``level`` table option, 1 when it has none), any game played alone (Noctiluca and
# Terraforming Mars dice in their solo modes) on its solo board.
def score_mode(game: str, options: dict[str, Any], players: int) -> str | None:
    """The score board a finished game goes on (``level-1``.., or ``solo``); None for a
    competitive game, which has a rating instead."""
    if game in registry.co_operative_games():
        return f"level-{options.get('level', 1)}"
    if players == 1:
        return "solo"
    return None


def best_per_mode(games: Iterable[tuple[str, ScoreRecord]], limit: int = 10) -> dict[str, list[ScoreRecord]]:
    """{mode: its best games, best score first}, modes in order."""
    best: dict[str, list[ScoreRecord]] = {}
    for mode, record in games:
        best.setdefault(mode, []).append(record)
    return {mode: sorted(found, key=lambda r: (-r.score, r.game_id))[:limit] for mode, found in sorted(best.items())}


def counts_per_mode(games: Iterable[tuple[str, ScoreRecord]]) -> dict[str, tuple[int, int]]:
    """{mode: (games, wins)}."""
    counted: dict[str, tuple[int, int]] = {}
    for mode, record in games:
        played, won = counted.get(mode, (0, 0))
        counted[mode] = (played + 1, won + int(record.won))
    return counted
