"""Rules of every game, pure Python. See docs/ENGINE.md for the contract."""

from __future__ import annotations

from engine.core import ACTION_KINDS, Action, ActionKind, Event, Game, IllegalAction, Outcome, State, Term, illegal

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
    ``ai.fox_duet``, ``bot.games.fox_duet``), so a shipped game is registered once, below."""
    found = {}
    for game_id, game in GAMES.items():
        package, _, rest = type(game).__module__.partition(".")
        if package == __name__ and rest:
            found[game_id] = rest.split(".")[0]
    return found


def _register_all() -> None:
    from engine.fox_duet import FoxDuet
    from engine.noctiluca import Noctiluca
    from engine.tm_dice import TMDice
    from engine.vivarium import Vivarium

    register(FoxDuet())
    register(Noctiluca())
    register(Vivarium())
    register(TMDice())


_register_all()

__all__ = [
    "ACTION_KINDS",
    "GAMES",
    "Action",
    "ActionKind",
    "Event",
    "Game",
    "IllegalAction",
    "Outcome",
    "State",
    "Term",
    "illegal",
    "register",
    "shipped",
    "unregister",
]
