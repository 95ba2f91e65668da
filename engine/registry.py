"""The registered games (``GAMES``), and what the platform reads of them: live views of their facts.

A game is registered once (``engine/__init__.py`` for the shipped ones, ``register`` for one from
elsewhere); ratings, tournaments, the weekly challenge and the commands read the views below,
which look at ``GAMES`` when asked, never a list of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Set
from typing import Any

from engine.core import Game
from engine.facts import ChallengeMode

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.id in GAMES:
        raise ValueError(f"game {game.id!r} is registered twice")
    GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    """Forget a game (a test's game, after the test)."""
    GAMES.pop(game_id, None)


def shipped() -> dict[str, str]:
    """Game id -> the name of its package under ``engine`` (``fox_duet``), for the games shipped
    here: the other layers find the game's parts by that name (``render.fox_duet``,
    ``ai.fox_duet``, ``services.wording.fox_duet``), so a shipped game is registered once."""
    found = {}
    top = __name__.partition(".")[0]
    for game_id, game in GAMES.items():
        package, _, rest = type(game).__module__.partition(".")
        if package == top and rest:
            found[game_id] = rest.split(".")[0]
    return found


class _LiveSet(Set[str]):
    """The ids of the registered games whose facts pass ``test``, read when asked."""

    def __init__(self, test: Callable[[Any], bool]) -> None:
        self._test = test

    def _ids(self) -> list[str]:
        return [gid for gid, game in GAMES.items() if self._test(game)]

    def __contains__(self, game_id: object) -> bool:
        game = GAMES.get(game_id) if isinstance(game_id, str) else None
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


def duplicate_sizes() -> Mapping[str, int]:
    """Game id -> team size, for the games that have duplicate tournaments."""
    return _LiveMap(
        lambda: {gid: g.facts.duplicate_size for gid, g in GAMES.items() if g.facts.duplicate_size is not None}
    )


def challenge_modes() -> Mapping[str, ChallengeMode]:
    """Every weekly challenge mode by key: the solo modes first, then by players, each game's in
    its own order (the order ``/meeple challenge`` offers them)."""

    def build() -> dict[str, ChallengeMode]:
        modes = [
            ChallengeMode(c.key, gid, c.players, dict(c.options), c.name)
            for gid, g in GAMES.items()
            for c in g.facts.challenge
        ]
        return {m.key: m for m in sorted(modes, key=lambda m: m.players)}

    return _LiveMap(build)
