"""Boards and hands drawn in worker processes, through a bounded queue that keeps one board per game.

Drawing and encoding a picture is 15-50 ms of pure Python and Pillow: in threads the GIL keeps
the bot on one core, so ``Pictures`` sends each drawing to a pool of worker processes (one per
core, ``MEEPLE_RENDER_WORKERS``), started on first use with the ``forkserver`` method (forking the
bot itself, its threads and open database, is never safe). At most ``workers`` drawings are in
the pool at once; the rest wait here, where they can be coalesced: a board asked for while an
older board of the same game and language still waits replaces it (the older caller gets
``Superseded``), so a busy game costs one drawing, its latest. Hands go before boards: a player
is waiting on the answer. A finished game's replay (seconds of drawing, rebuilt from its log in
the worker: ``services.replays``) goes after both and never takes the last free worker: with two
workers or more, one is always left for live boards. ``busy`` tells a click not to wait for its
board (it is answered at once and the board follows). A worker that dies is replaced and its
drawing tried again.

Hand pictures are cached (LRU) by game, version, seat, language, names and the view itself, so
"My hand" clicked again, or a DM of an unchanged hand, draws nothing. The view is part of the key
because an undo goes back to a version number a different move then reuses.

Every other picture of the bot (past boards, How to play, profiles, leaderboards, tournament
standings, brackets and podiums, a board shrunk for Discord) comes through ``draw``: ``await
pictures.draw(render_function, *args)`` runs a top-level function returning the image's bytes in a
worker, typed by the function's own signature. These go after hands and before boards (someone
asked for them, or a round was settled), through the same bound of ``workers`` drawings at once.
The worker imports the function by its name; one it could not import (a closure, or a function
replaced at run time, as tests do to watch or break a drawing) is drawn in a thread of this
process instead, still under the same bound. No picture is drawn or encoded on the event loop:
tests/bot/test_picture_service.py holds every call of ``render``'s image functions to this module
and to the drawings handed to it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import sys
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, ParamSpec

import render
from ai.workers import RecyclingPool
from services import metrics
from services.tasks import Tasks

if TYPE_CHECKING:
    from services.replays import ReplayOrder

log = logging.getLogger("meeple.pictures")

P = ParamSpec("P")

# Drawings waiting (not yet in a worker) beyond which clicks stop waiting for their board, per worker.
QUEUE_PER_WORKER = 4
HAND_CACHE = 512  # hand PNGs kept (~30 KB each)
ATTEMPTS = 3  # a drawing whose worker died is tried again, in a new one, this many times in all
# A worker is replaced, between two drawings, once its RSS passes this (every game in every
# language keeps a worker under 150 MB: bench/workers.py) or after this many drawings. Above
# WORKER_TRIM_MB a worker gives its C heap's free pages back after each drawing (about 1 ms).
WORKER_MAX_MB = 200
WORKER_MAX_DRAWINGS = 5000
WORKER_TRIM_MB = 128


class Superseded(Exception):
    """A newer board of the same game replaced this one before it was drawn."""


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def draw(kind: str, args: tuple[Any, ...]) -> bytes:
    """In a worker (or in-process): the PNG of a board or a hand, exactly as ``render`` draws it."""
    if kind == "board":
        return render.render_board(*args)
    if kind == "hand":
        return render.render_hand(*args)
    if kind == "replay":
        from services.replays import draw_replay  # rebuilt from the log and drawn here, frame by frame

        return draw_replay(*args)
    raise ValueError(f"no such picture: {kind!r}")


def importable(fn: Callable[..., Any]) -> bool:
    """Whether a worker process can import ``fn`` by its module and name (what pickling sends)."""
    module = sys.modules.get(getattr(fn, "__module__", None) or "")
    found: Any = module
    for part in getattr(fn, "__qualname__", "<?>").split("."):
        found = getattr(found, part, None)
    return module is not None and found is fn


@dataclass(frozen=True)
class Drawing:
    """A picture worded but not drawn yet: a top-level function returning its bytes, and the
    arguments to call it with (``drawing`` makes one; ``Pictures.make`` draws it)."""

    fn: Callable[..., bytes]
    args: tuple[Any, ...]
    kwargs: Mapping[str, Any] = field(default_factory=dict)


def drawing(fn: Callable[P, bytes], /, *args: P.args, **kwargs: P.kwargs) -> Drawing:
    """A ``Drawing`` of ``fn(*args, **kwargs)``, its arguments checked against ``fn`` by mypy."""
    return Drawing(fn, args, kwargs)


def kind_of(fn: Callable[..., Any]) -> str:
    """A drawing's kind in the counts and metrics: its function's name ("standings_png": "standings")."""
    return getattr(fn, "__name__", "drawing").removesuffix("_png")


@dataclass
class _Job:
    kind: str
    args: tuple[Any, ...]
    future: asyncio.Future[bytes] = field(repr=False)
    # Another drawing than a board, hand or replay: its function and keyword arguments.
    fn: Callable[..., bytes] | None = field(default=None, repr=False)
    kwargs: Mapping[str, Any] = field(default_factory=dict, repr=False)


class Pictures:
    """``await pictures.board(game_id, game, view, names, loc)``, ``hand(...)``, ``replay(...)`` and
    ``draw(render_function, *args)``; ``close()`` at the end.

    ``workers=0`` draws in a thread of this process instead (no pool), as before.
    """

    def __init__(self, workers: int | None = None, queue: int | None = None, hand_cache: int = HAND_CACHE) -> None:
        self.workers = default_workers() if workers is None else max(0, workers)
        self.queue_limit = queue if queue is not None else max(1, self.workers) * QUEUE_PER_WORKER
        self.hand_cache = hand_cache
        self._pool: Executor | None = None
        self._boards: OrderedDict[Hashable, _Job] = OrderedDict()  # (game id, language) -> its one board
        self._hands: OrderedDict[Hashable, _Job] = OrderedDict()  # hands waiting for a worker
        self._replays: OrderedDict[Hashable, _Job] = OrderedDict()  # finished games' replays waiting
        self._asked: OrderedDict[Hashable, _Job] = OrderedDict()  # other drawings waiting (``draw``)
        self._running_replays = 0
        self._drawing_hands: dict[Hashable, asyncio.Future[bytes]] = {}  # asked, not drawn yet
        self._running = 0
        self._cache: OrderedDict[Hashable, bytes] = OrderedDict()
        self._closed = False
        self.tasks = Tasks()  # the drawings under way, held until drawn (services/tasks.py)
        self.drawn: Counter[str] = Counter()  # pictures drawn, by kind (tests and logs)

    # -- asking ---------------------------------------------------------------------------
    @property
    def waiting(self) -> int:
        return len(self._boards) + len(self._hands) + len(self._asked)  # replays never make a click wait

    @property
    def idle(self) -> bool:
        """Whether nothing is being drawn or waits to be (a computer's search ahead starts only then)."""
        return self._running == 0 and not self.waiting and not self._replays

    @property
    def busy(self) -> bool:
        """Whether the queue is full: a click should be answered without waiting for its board."""
        return self.waiting >= self.queue_limit

    async def board(
        self, game_id: int, game: str, view: Mapping[str, Any], names: Sequence[str], loc: str, latest: bool = False
    ) -> bytes:
        """The board's PNG. A ``latest`` board (the one delivery posts) replaces the game's older
        ``latest`` board still waiting in the queue, whose caller gets ``Superseded``."""
        key: Hashable = (game_id, loc) if latest else object()
        older = self._boards.get(key)
        job = _Job("board", (game, view, list(names), loc), asyncio.get_running_loop().create_future())
        self._boards[key] = job  # an older one keeps its place in the queue, with the newer board
        if older is not None and not older.future.done():
            older.future.set_exception(Superseded())
            older.future.exception()  # retrieved: a caller that left is not an "unretrieved" error
        return await self._submit(job)

    async def hand(
        self, game_id: int, version: int, game: str, view: Mapping[str, Any], names: Sequence[str], seat: int, loc: str
    ) -> bytes:
        """The seat's hand PNG, from the cache when that hand was drawn already."""
        digest = hashlib.blake2b(json.dumps(view, sort_keys=True, default=str).encode(), digest_size=16).digest()
        key = (game_id, version, seat, loc, tuple(names), digest)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        drawing = self._drawing_hands.get(key)
        if drawing is not None:  # the same hand asked twice at once: drawn once
            return await asyncio.shield(drawing)
        job = _Job("hand", (game, view, list(names), seat, loc), asyncio.get_running_loop().create_future())
        self._hands[key] = job
        self._drawing_hands[key] = job.future
        try:
            png = await self._submit(job)
        finally:
            if self._drawing_hands.get(key) is job.future:
                del self._drawing_hands[key]
        self._cache[key] = png
        while len(self._cache) > self.hand_cache:
            self._cache.popitem(last=False)
        return png

    async def replay(self, game_id: int, order: ReplayOrder) -> bytes:
        """A finished game's animated replay (``services.replays.ReplayOrder``), drawn after every board
        and hand waiting; WebP or GIF bytes (``render.replay.extension_of``)."""
        job = _Job("replay", (order,), asyncio.get_running_loop().create_future())
        self._replays[(game_id, object())] = job
        return await self._submit(job)

    async def draw(self, fn: Callable[P, bytes], /, *args: P.args, **kwargs: P.kwargs) -> bytes:
        """``fn(*args, **kwargs)``, a top-level function returning a picture's bytes (a ``render``
        function, or one that words and draws in the worker, like ``services.howto_pictures.page_png``), drawn
        in a worker after the hands waiting and before the boards. Its arguments are pickled."""
        job = _Job(kind_of(fn), args, asyncio.get_running_loop().create_future(), fn, kwargs)
        self._asked[object()] = job
        return await self._submit(job)

    async def make(self, worded: Drawing) -> bytes:
        """A ``Drawing`` drawn, as ``draw`` draws."""
        return await self.draw(worded.fn, *worded.args, **worded.kwargs)

    async def _submit(self, job: _Job) -> bytes:
        if self._closed:
            raise RuntimeError("the picture pool is closed")
        self._pump()
        return await asyncio.shield(job.future)  # a cancelled caller does not cancel a shared drawing

    # -- drawing --------------------------------------------------------------------------
    def _next(self) -> _Job | None:
        # Hands first: a player waits on that answer; then what was asked for; then the boards.
        for queue in (self._hands, self._asked, self._boards):
            if queue:
                return queue.popitem(last=False)[1]
        # A replay last, and in at most all workers but one: a live board never waits seconds for it.
        if self._replays and self._running_replays < max(1, self.workers - 1):
            self._running_replays += 1
            return self._replays.popitem(last=False)[1]
        return None

    def _pump(self) -> None:
        while self._running < max(1, self.workers) and (job := self._next()) is not None:
            self._running += 1
            self.tasks.start(self._run(job), name=f"meeple-draw-{job.kind}")

    async def _run(self, job: _Job) -> None:
        try:
            with metrics.timed(metrics.RENDER_SECONDS, kind=job.kind):
                png = await self._draw(job)
        except BaseException as exc:
            if not job.future.done():
                job.future.set_exception(exc)
                job.future.exception()
            if not isinstance(exc, Exception):
                raise
        else:
            if not job.future.done():
                job.future.set_result(png)
        finally:
            self._running -= 1
            if job.kind == "replay":
                self._running_replays -= 1
            if not self._closed:
                self._pump()

    async def _draw(self, job: _Job) -> bytes:
        self.drawn[job.kind] += 1
        if job.fn is not None:
            call = partial(job.fn, *job.args, **job.kwargs)
            if self.workers == 0 or not importable(job.fn):
                return await asyncio.to_thread(call)  # a worker could not import it: a thread here
            return await self._in_worker(call)
        if self.workers == 0:
            return await asyncio.to_thread(draw, job.kind, job.args)
        return await self._in_worker(partial(draw, job.kind, job.args))

    async def _in_worker(self, call: Callable[[], bytes]) -> bytes:
        loop = asyncio.get_running_loop()
        for attempt in range(1, ATTEMPTS + 1):
            pool = self._executor()
            try:
                return await loop.run_in_executor(pool, call)
            except BrokenProcessPool:
                # A worker died (killed, out of memory): the whole pool is unusable; start another.
                log.warning("a drawing worker died; starting new workers (attempt %d of %d)", attempt, ATTEMPTS)
                self._replace(pool)
                if attempt == ATTEMPTS or self._closed:
                    raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _executor(self) -> Executor:
        if self._closed:
            raise RuntimeError("the picture pool is closed")
        if self._pool is None:
            # Its workers leave if the bot is killed hard, and are replaced when they grow.
            self._pool = RecyclingPool(
                self.workers, WORKER_MAX_MB * 2**20, WORKER_MAX_DRAWINGS, trim_above=WORKER_TRIM_MB * 2**20
            )
        return self._pool

    def _replace(self, broken: Executor) -> None:
        if self._pool is broken:
            self._pool = None
            broken.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """The worker processes' ids (tests kill one)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return list(processes)

    def close(self) -> None:
        """Stop the workers; drawings not started fail (their boards stay pending for the next start)."""
        self._closed = True
        for job in [*self._boards.values(), *self._hands.values(), *self._asked.values(), *self._replays.values()]:
            if not job.future.done():
                job.future.set_exception(RuntimeError("the picture pool is closed"))
                job.future.exception()
        self._boards.clear()
        self._hands.clear()
        self._replays.clear()
        self._asked.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
