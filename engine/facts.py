"""What the platform needs to know about a game, declared once by the game (``Game.facts``).

Pure facts, readable from pure code (tournament formats, rating rules, the weekly challenge):
whether the game is co-operative, how it is rated, the table size of a duplicate tournament, the
weekly challenge's modes. A game has a solo mode when it takes one player (docs/ENGINE.md).

Nothing else lists games: ``ranked_games``, ``co_operative_games``, ``duplicate_sizes`` and
``challenge_modes`` are live views of the registered games (``engine.GAMES``), so a game
registered after import (a test's game) is seen at once, and one unregistered is gone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Set
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
    """A challenge mode with its game (what ``bot.challenge.MODES`` maps a key to)."""

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


def _games() -> Mapping[str, Any]:
    from engine import GAMES  # engine/__init__ imports engine.core, which imports this module

    return GAMES


class _LiveSet(Set[str]):
    """The ids of the registered games whose facts pass ``test``, read when asked."""

    def __init__(self, test: Callable[[Any], bool]) -> None:
        self._test = test

    def _ids(self) -> list[str]:
        return [gid for gid, game in _games().items() if self._test(game)]

    def __contains__(self, game_id: object) -> bool:
        game = _games().get(game_id) if isinstance(game_id, str) else None
        return game is not None and self._test(game)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(self._ids())

    def __repr__(self) -> str:
        return f"{{{', '.join(map(repr, self._ids()))}}}"


class _LiveMap(Mapping[str, Any]):
    """A mapping built from the registered games when asked."""

    def __init__(self, build: Callable[[], dict[str, Any]]) -> None:
        self._build = build

    def __getitem__(self, key: str) -> Any:
        return self._build()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._build())

    def __len__(self) -> int:
        return len(self._build())

    def __repr__(self) -> str:
        return repr(self._build())


def ranked_games() -> Set[str]:
    """The games whose finished tables move ratings (at 2-4 players)."""
    return _LiveSet(lambda game: game.facts.rating == "ranked")


def co_operative_games() -> Set[str]:
    return _LiveSet(lambda game: game.facts.co_operative)


def solo_games() -> Set[str]:
    """The games with a solo mode (they take one player)."""
    return _LiveSet(lambda game: game.min_players == 1)


def duplicate_sizes() -> Mapping[str, int]:
    """Game id -> team size, for the games that have duplicate tournaments."""
    return _LiveMap(
        lambda: {gid: g.facts.duplicate_size for gid, g in _games().items() if g.facts.duplicate_size is not None}
    )


def challenge_modes() -> Mapping[str, ChallengeMode]:
    """Every weekly challenge mode by key, in the games' order."""
    return _LiveMap(
        lambda: {
            c.key: ChallengeMode(c.key, gid, c.players, dict(c.options), c.name)
            for gid, g in _games().items()
            for c in g.facts.challenge
        }
    )
