"""Computer decisions in worker processes, never on the bot's event loop.

A search takes up to a couple of seconds of pure CPU; in the bot's process it would freeze every
other table. ``Computers`` sends the saved state to a small pool of worker processes (one per
core but one, at least one) and awaits the answer. The pool starts on first use, with the
``forkserver`` method: forking the bot itself (its threads, its open database) is never safe.
Its workers leave by themselves when the bot is killed hard (``ai/workers.py``).
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ProcessPoolExecutor

from ai.ismcts import decide
from ai.turns import play_turn
from ai.workers import owned_pool
from engine import GAMES, State


def _decide(game: str, data: dict, seat: int, level: str, seed: int) -> str:
    """In a worker: load the state and decide (its text crosses back, like any action)."""
    return decide(GAMES[game].load(data), seat, level, seed).text


def _play_turn(game: str, data: dict, seat: int, level: str, game_seed: int) -> list[str]:
    """In a worker: load the state and decide the seat's whole turn (``ai/turns.py``)."""
    return [action.text for action in play_turn(GAMES[game].load(data), seat, level, game_seed)]


def default_workers() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


class Computers:
    """The bot's computer players: ``await computers.play_turn(state, seat, level, game_seed)`` for
    a computer's turn, ``await computers.decide(state, seat, level, seed)`` for one move."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = owned_pool(self.workers)
        return self._pool

    async def decide(self, state: State, seat: int, level: str, seed: int) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), _decide, state.game.id, state.to_dict(), seat, level, seed)

    async def play_turn(self, state: State, seat: int, level: str, game_seed: int) -> list[str]:
        """The moves of ``seat``'s whole turn, in order (``ai.turns.play_turn``)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor(), _play_turn, state.game.id, state.to_dict(), seat, level, game_seed
        )

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
