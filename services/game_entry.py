"""One registration for a whole game: rules, words, pictures, How to play, computer knowledge.

The shipped games need none of this: each is registered once in ``engine/__init__.py``, and every
other layer finds the game's parts by the name of its engine package (``engine.shipped``:
``render.<name>.RENDERER``, ``render.<name>_howto.SCENES``, ``ai.<name>.KNOWLEDGE``,
``services.wording.<name>.ADAPTER``). A game that lives elsewhere (the tests' fifth game,
tests/fifth_game/) hands all its parts at once: ``undo = register(GameEntry(...))``. Its platform
facts travel with its ``Game`` (``Game.facts``); the worker processes (drawings, computer
searches) started afterwards register it too (``ai.workers.STARTUP``), and ``undo()`` forgets it
everywhere.

No Discord here: this module belongs with the services.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
import l10n
import render
from ai import knowledge as ai_knowledge
from ai import workers
from ai.knowledge import Knowledge
from engine import Game
from render import howto
from render.common import GameRenderer
from render.scenes import Scene
from services import wording as games
from services.wording import GameAdapter


@dataclass(frozen=True)
class GameEntry:
    """Everything the platform needs of one game, as its own packages declare it."""

    game: Game  # rules, and the platform facts (``game.facts``)
    adapter: GameAdapter[Any, Any, Any]  # words
    renderer: GameRenderer[Any, Any]  # board and hand pictures
    knowledge: Knowledge  # what the computer players know beyond the contract
    howto: tuple[Scene, ...] = ()  # the How to play pages, in the renderer's pixels
    # A folder of ``<locale>.po`` files holding the game's words, for a game whose words are not
    # in data/i18n (a test's game); None: the project's catalogues have them.
    words: Path | None = None

    def __post_init__(self) -> None:
        ids = {self.game.id, self.adapter.game_id, self.renderer.game_id, self.knowledge.game_id}
        if len(ids) != 1:
            raise ValueError(f"the parts of one game name different games: {sorted(ids)}")


def register(entry: GameEntry) -> Callable[[], None]:
    """Register every part of ``entry`` here and in the worker processes started from now on;
    return what forgets it again."""
    _here(entry)
    startup = (_here, (entry,))
    workers.STARTUP.append(startup)

    def undo() -> None:
        if startup in workers.STARTUP:
            workers.STARTUP.remove(startup)
        _forget(entry)

    return undo


def _here(entry: GameEntry) -> None:
    """Register ``entry``'s parts in this process (in a worker: when it starts)."""
    game_id = entry.game.id
    engine.register(entry.game)
    try:
        games.register(entry.adapter)
        render.register(entry.renderer)
        ai_knowledge.register(entry.knowledge)
        if entry.howto:
            howto.register(game_id, entry.howto)
        if entry.words is not None:
            l10n.add_words(entry.words)
    except Exception:
        _forget(entry)
        raise


def _forget(entry: GameEntry) -> None:
    game_id = entry.game.id
    if entry.words is not None:
        l10n.remove_words(entry.words)
    howto.unregister(game_id)
    ai_knowledge.unregister(game_id)
    render.unregister(game_id)
    games.unregister(game_id)
    engine.unregister(game_id)
