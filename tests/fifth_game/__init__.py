"""Tiny Duel, a test-only fifth game: everything a game brings, registered with one line.

``undo = services.game_entry.register(FIFTH)`` (tests/fifth_game/conftest.py's fixture) makes it a game
like the shipped ones, in this process and in the worker processes started afterwards; ``undo()``
forgets it. Its parts: the rules (engine.py, with its platform facts), the words (words.py and
words/en.po), the pictures and How to play pages (render.py), the computer's knowledge (ai.py).
"""

from __future__ import annotations

from pathlib import Path

from services.game_entry import GameEntry
from tests.fifth_game.ai import TinyDuelKnowledge
from tests.fifth_game.engine import TinyDuel
from tests.fifth_game.render import RENDERER, SCENES
from tests.fifth_game.words import TinyDuelAdapter

FIFTH = GameEntry(
    game=TinyDuel(),
    adapter=TinyDuelAdapter(),
    renderer=RENDERER,
    knowledge=TinyDuelKnowledge(),
    howto=SCENES,
    words=Path(__file__).with_name("words"),
)
