"""Worker process pools that stop with the process that started them.

The bot's two pools (computer players, ``ai/pool.py``; drawings, ``bot/pictures.py``) start their
workers with the ``forkserver`` method: forking the bot itself (its threads, its open database)
is never safe. A bot that stops cleanly shuts its pools down; a bot killed hard (SIGKILL, the
out-of-memory killer) cannot, and a forkserver's workers are not its children: nothing tells
them, and each would stay (tens of MB) for good. So every worker watches the process that
started its pool, from a daemon thread, and leaves as soon as that process is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import select
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

OWNER_CHECK = 2.0  # seconds between a worker's looks at its owner, where it cannot wait on it


def owned_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` forkserver processes that leave when this process dies."""
    context = multiprocessing.get_context("forkserver")
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=worker_started, initargs=(os.getpid(),)
    )


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
