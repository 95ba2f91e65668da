"""What the platform needs to know about a game, declared once by the game (``Game.facts``).

Pure facts, readable from pure code (tournament formats, rating rules, the weekly challenge):
whether the game is co-operative, how it is rated, the table size of a duplicate tournament, the
weekly challenge's modes. A game has a solo mode when it takes one player (docs/ENGINE.md).

Nothing else lists games: ``engine.registry``'s ``ranked_games``, ``co_operative_games``,
``duplicate_sizes`` and ``challenge_modes`` are live views of the registered games, so a game
registered after import (a test's game) is seen at once, and one unregistered is gone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

# "ranked": a free-for-all game with a winner, rated at 2-4 players (docs/RATINGS.md);
# "scores": a co-operative or solo game, kept on score boards instead.
RatingKind = Literal["ranked", "scores"]


@dataclass(frozen=True)
class Challenge:
    """One weekly challenge mode of a game: its key (``fox-duet-1``), players and options."""

    key: str
    players: int
    name: str  # the command's choice, in English (``Fox Duet, level 1``); the catalogues translate it
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ChallengeMode:
    """A challenge mode with its game (what ``league.weekly_challenge.MODES`` maps a key to)."""

    key: str
    game: str
    players: int
    options: Mapping[str, Any]
    name: str = ""


@dataclass(frozen=True)
class GameFacts:
    """The platform facts of one game. The defaults: competitive, ranked, no duplicate, no challenge."""

    co_operative: bool = False
    rating: RatingKind = "ranked"
    # Players per team of a duplicate tournament (a Fox Duet pair, one player of a solo mode);
    # None: the game has no duplicate tournaments.
    duplicate_size: int | None = None
    challenge: tuple[Challenge, ...] = ()
