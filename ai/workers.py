"""Worker process pools that stop with the process that started them.

The bot's two pools (computer players, ``ai/pool.py``; drawings, ``services/pictures.py``) start their
workers with the ``forkserver`` method: forking the bot itself (its threads, its open database)
is never safe. A bot that stops cleanly shuts its pools down; a bot killed hard (SIGKILL, the
out-of-memory killer) cannot, and a forkserver's workers are not its children: nothing tells
them, and each would stay (tens of MB) for good. So every worker watches the process that
started its pool, from a daemon thread, and leaves as soon as that process is gone.

``RecyclingPool`` (the drawings) replaces a worker, between two tasks, once it has grown past a
memory limit or run a number of tasks.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import select
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("meeple.workers")

OWNER_CHECK = 2.0  # seconds between a worker's looks at its owner, where it cannot wait on it
# Calls every new worker makes before its work, (function, arguments), pickled to it: a game
# registered at run time (a test's game, services/game_entry.py) is registered in the workers too.
STARTUP: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []


def owned_pool(
    workers: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
) -> ProcessPoolExecutor:
    """A pool of ``workers`` forkserver processes that leave when this process dies.

    ``initializer`` (``worker_started`` by default) runs in each new worker with this process's id
    then ``initargs``; it must call ``worker_started`` with that id (``ai/pool.py`` hands its
    workers a shared value so)."""
    context = multiprocessing.get_context("forkserver")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_start,
        initargs=(list(STARTUP), initializer or worker_started, (os.getpid(), *initargs)),
    )


def _start(
    startup: list[tuple[Callable[..., Any], tuple[Any, ...]]], initializer: Callable[..., None], args: tuple[Any, ...]
) -> None:
    for call, call_args in startup:
        call(*call_args)
    initializer(*args)


def worker_started(owner: int) -> None:
    """In each new worker: ignore Ctrl+C and leave with ``owner``."""
    # Ctrl+C reaches the whole process group: the bot shuts its pools down, workers need no traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=leave_with, args=(owner,), name="meeple-worker-owner", daemon=True).start()


def leave_with(owner: int) -> None:
    """Block until process ``owner`` ends, then end this process at once."""
    wait_for_exit(owner)
    os._exit(0)


def wait_for_exit(pid: int) -> None:
    """Return once process ``pid`` no longer runs: woken by the kernel through a pid file
    descriptor where there is one (Linux 5.3+), else by looking every ``OWNER_CHECK`` seconds."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    except (AttributeError, OSError):  # not Linux, an old kernel, or a sandbox that forbids it
        handle = None
    if handle is not None:
        try:
            select.select([handle], [], [])  # readable once the process has exited
        finally:
            os.close(handle)
        return
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        except PermissionError:
            pass  # it exists, run by another user: only a reused pid, not worth guarding
        time.sleep(OWNER_CHECK)


# --- workers replaced when they grow ------------------------------------------------------------


def rss_bytes() -> int:
    """This process's resident memory (Linux /proc; 0 where there is none)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _trim() -> None:
    """Give the C heap's free pages back to the system (glibc); nothing elsewhere."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def measured(trim_above: int, fn: Callable[..., Any], /, *args: Any) -> tuple[Any, int]:
    """In a worker: ``fn(*args)`` and this worker's RSS after it. Above ``trim_above`` bytes the
    C heap's free pages are given back first (big images freed leave holes that stay resident)."""
    result = fn(*args)
    rss = rss_bytes()
    if rss > trim_above:
        _trim()
        rss = rss_bytes()
    return result, rss


@dataclass(eq=False)
class _Slot:
    pool: ProcessPoolExecutor | None = None
    running: int = 0
    tasks: int = 0


class RecyclingPool(Executor):
    """``workers`` forkserver processes (each an ``owned_pool`` of one) that are replaced between two
    tasks once one has grown past ``max_rss`` bytes, or has run ``max_tasks`` tasks.

    The standard pool's ``max_tasks_per_child`` would do the second, but on Python 3.11-3.13 it can
    leave queued tasks without a worker for good (CPython gh-115634); and only the worker knows its
    memory. So each task reports the worker's RSS with its result; a worker over the limit gets no
    further task: its one-process pool is shut down (a task it still runs finishes) and the next task
    goes to a new one. A worker that dies still breaks the task it ran (``BrokenProcessPool``), for
    the caller to start again; its slot's next task gets a new worker. ``submit`` gives a task to
    the slot running the fewest.
    """

    def __init__(self, workers: int, max_rss: int, max_tasks: int | None = None, trim_above: int | None = None) -> None:
        self.max_rss = max_rss
        self.max_tasks = max_tasks
        self.trim_above = max_rss * 3 // 4 if trim_above is None else trim_above
        self.replaced = 0  # workers retired so far (logs and tests)
        self._slots = [_Slot() for _ in range(max(1, workers))]
        self._lock = threading.Lock()
        self._shutdown = False

    @property
    def _processes(self) -> dict[int, Any]:
        """The live worker processes by pid, as a ``ProcessPoolExecutor`` names them."""
        found: dict[int, Any] = {}
        with self._lock:
            for slot in self._slots:
                found.update(getattr(slot.pool, "_processes", None) or {})
        return found

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if kwargs:
            raise TypeError("RecyclingPool.submit takes positional arguments only")
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot schedule new futures after shutdown")
            slot = min(self._slots, key=lambda s: s.running)
            if slot.pool is None:
                slot.pool = owned_pool(1)
            pool = slot.pool
            slot.running += 1
            slot.tasks += 1
            inner = pool.submit(measured, self.trim_above, fn, *args)
        outer: Future[Any] = Future()
        outer.set_running_or_notify_cancel()
        inner.add_done_callback(lambda done: self._finished(slot, pool, done, outer))
        return outer

    def _finished(self, slot: _Slot, pool: ProcessPoolExecutor, done: Future[Any], outer: Future[Any]) -> None:
        with self._lock:
            slot.running -= 1
        if done.cancelled():
            outer.cancel()
            return
        error = done.exception()
        if error is not None:
            if isinstance(error, BrokenProcessPool):  # its worker died: the slot's next task starts another
                self._retire(slot, pool, "its worker died")
            outer.set_exception(error)
            return
        result, rss = done.result()
        grown = rss > self.max_rss
        if grown or (self.max_tasks is not None and slot.tasks >= self.max_tasks):
            # Before the result is handed on: the task it lets start goes to a new worker.
            self._retire(slot, pool, f"{rss / 2**20:.0f} MB" if grown else f"{slot.tasks} tasks")
        outer.set_result(result)

    def _retire(self, slot: _Slot, pool: ProcessPoolExecutor, why: str) -> None:
        with self._lock:
            if slot.pool is not pool:
                return
            slot.pool = None
            slot.tasks = 0
            self.replaced += 1
        log.info("replacing a worker after %s", why)
        pool.shutdown(wait=False)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shutdown = True
            pools = [slot.pool for slot in self._slots if slot.pool is not None]
            for slot in self._slots:
                slot.pool = None
        for pool in pools:
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)
