"""Computer decisions in worker processes, never on the bot's event loop.

A search takes up to a couple of seconds of pure CPU; in the bot's process it would freeze every
other table. ``Computers`` sends the saved state to a small pool of worker processes (one per
core but one, at least one) and awaits the answer. The pool starts on first use, with the
``forkserver`` method: forking the bot itself (its threads, its open database) is never safe.
Its workers leave by themselves when the bot is killed hard (``ai/workers.py``).

Searches ahead (``speculate_turn``, ``likely_turns``: a computer's turn searched while a person
thinks, services/computer_turns.py) are worth less than any search a table waits for, and than any
drawing. They run in a worker process of their own, at the lowest CPU priority (nice 19: the
drawing workers, the decision workers and the bot all run first on a busy core), one at a time,
and only while the decision workers are not all busy (``free``): a search that counts never
waits behind one, and never shares a process (its GIL) with one. A search ahead nobody wants any
more gives up within a few iterations (``abandon``: a counter shared with that worker, read
through ``ismcts.search``'s ``stop``). When a search ahead's answer is wanted now (the person
moved into its position before it ended), ``hurry`` raises its worker to the normal priority if
this process may (it re-lowers itself at its next search ahead); else the caller searches
afresh. A search ahead runs the very function with the very arguments a search that counts
would: only when it runs, and whether it is let finish, differ.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ai.guess import likely_turns
from ai.ismcts import Abandoned, decide
from ai.turn_budgets import play_turn
from ai.workers import owned_pool, worker_started
from engine import GAMES, State

LOWEST = 19  # the nice value of the searches ahead's worker


def _decide(game: str, data: dict, seat: int, level: str, seed: int) -> str:
    """In a worker: load the state and decide (its text crosses back, like any action)."""
    return decide(GAMES[game].load(data), seat, level, seed).text


def _play_turn(game: str, data: dict, seat: int, level: str, game_seed: int) -> list[str]:
    """In a worker: load the state and decide the seat's whole turn (``ai/turn_budgets.py``)."""
    return [action.text for action in play_turn(GAMES[game].load(data), seat, level, game_seed)]


def _guess(game: str, data: dict, seat: int, count: int, seed: int, stop: Callable[[], bool]) -> list[list[str]]:
    """In a worker: ``ai.guess.likely_turns``, as texts."""
    turns = likely_turns(GAMES[game].load(data), seat, count, seed, stop=stop)
    return [[action.text for action in turn] for turn in turns]


def _turn_ahead(game: str, data: dict, seat: int, level: str, game_seed: int, stop: Callable[[], bool]) -> list[str]:
    """In a worker: ``_play_turn``'s very search, which ``stop`` may end."""
    state = GAMES[game].load(data)
    return [action.text for action in play_turn(state, seat, level, game_seed, stop=stop)]


AHEAD: dict[str, Callable[..., Any]] = {"guess": _guess, "turn": _turn_ahead}

_abandoned: Any = None  # in a worker: the shared counter of the searches ahead given up (``Computers``)


def _started(owner: int, abandoned: Any) -> None:
    """In each new worker: ``worker_started``, and keep the counter of searches ahead given up."""
    global _abandoned
    worker_started(owner)
    _abandoned = abandoned


def _ahead(token: int, kind: str, *args: Any) -> Any:
    """In the searches ahead's worker: search ahead number ``token`` (``AHEAD[kind]``) at the
    lowest CPU priority, until done or given up (``Abandoned`` once the counter reaches ``token``)."""
    # Raising one's own nice value is always allowed; ``hurry`` may have lowered it since.
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, 0, LOWEST)

    def given_up() -> bool:
        return _abandoned is not None and _abandoned.value >= token

    return AHEAD[kind](*args, given_up)


def default_workers() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


class Computers:
    """The bot's computer players: ``await computers.play_turn(state, seat, level, game_seed)`` for
    a computer's turn, ``await computers.decide(state, seat, level, seed)`` for one move;
    ``speculate_turn`` and ``likely_turns`` for searches ahead (see the module's docstring)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None
        self._ahead_pool: ProcessPoolExecutor | None = None  # the searches ahead's one worker
        self._abandoned: Any = None  # shared with that worker: searches ahead up to this number give up
        self._ahead_number = 0  # the latest search ahead's number
        self._counting = 0  # searches that count under way
        self._speculating: asyncio.Future | None = None  # the search ahead under way
        self.speculated = 0  # searches ahead started (tests and benches)
        self.abandoned = 0  # searches ahead given up before their end

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = owned_pool(self.workers)
        return self._pool

    def _ahead_executor(self) -> ProcessPoolExecutor:
        if self._ahead_pool is None:
            self._abandoned = multiprocessing.get_context("forkserver").RawValue("q", self._ahead_number)
            self._ahead_pool = owned_pool(1, _started, (self._abandoned,))
        return self._ahead_pool

    @property
    def free(self) -> bool:
        """Whether a search ahead may start: none runs, and a decision worker is idle."""
        return self._speculating is None and self._counting < self.workers

    async def decide(self, state: State, seat: int, level: str, seed: int) -> str:
        return await self._counted(_decide, state.game.id, state.to_dict(), seat, level, seed)

    async def play_turn(self, state: State, seat: int, level: str, game_seed: int) -> list[str]:
        """The moves of ``seat``'s whole turn, in order (``ai.turn_budgets.play_turn``)."""
        return await self._counted(_play_turn, state.game.id, state.to_dict(), seat, level, game_seed)

    async def _counted(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        self._counting += 1
        try:
            return await loop.run_in_executor(self._executor(), fn, *args)
        finally:
            self._counting -= 1

    async def speculate_turn(self, state: State, seat: int, level: str, game_seed: int) -> list[str]:
        """``play_turn``'s very search, as a search ahead: raises ``Abandoned`` when given up."""
        return await self._speculate("turn", state.game.id, state.to_dict(), seat, level, game_seed)

    async def likely_turns(self, state: State, seat: int, count: int, seed: int) -> list[list[str]]:
        """``ai.guess.likely_turns`` as texts, as a search ahead: raises ``Abandoned`` when given up."""
        return await self._speculate("guess", state.game.id, state.to_dict(), seat, count, seed)

    async def _speculate(self, kind: str, *args: Any) -> Any:
        if not self.free:
            raise Abandoned
        loop = asyncio.get_running_loop()
        pool = self._ahead_executor()
        self._ahead_number += 1
        number = self._ahead_number
        future = loop.run_in_executor(pool, _ahead, number, kind, *args)
        self._speculating = future
        self.speculated += 1
        try:
            return await future
        except asyncio.CancelledError:
            self.abandon(number)  # nobody will read it: the worker stops searching
            raise
        finally:
            if self._speculating is future:
                self._speculating = None

    def abandon(self, number: int | None = None) -> None:
        """Have the search ahead under way give up (only search ahead ``number``, if given)."""
        number = self._ahead_number if number is None else number
        if self._abandoned is not None and self._abandoned.value < number:
            self._abandoned.value = number
            self.abandoned += 1

    def hurry(self) -> bool:
        """Run the search ahead under way at the normal priority (its answer is wanted now):
        False where this process may not lower a nice value (no CAP_SYS_NICE, RLIMIT_NICE 0)."""
        processes = getattr(self._ahead_pool, "_processes", None) or {}
        try:
            for pid in list(processes):
                os.setpriority(os.PRIO_PROCESS, pid, 0)
        except (OSError, AttributeError):
            return False
        return bool(processes)

    def close(self) -> None:
        for pool in (self._pool, self._ahead_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._ahead_pool = None
