"""The garbage collector kept from pausing the event loop.

CPython's cycle collector stops the process while it walks the containers of the generations it
collects, and a full collection walks every container the process keeps. Start-up leaves some
90,000 of them (modules, the games' content, discord.py, the commands), that nothing frees: on
a quiet 2-core machine a full collection of them took 40 ms, during which no click is answered.
So once start-up has loaded everything, ``settle`` collects once and freezes what is left
(``gc.freeze``: moved to a permanent generation no collection walks; objects there are still
freed when their last reference goes), and again when discord.py has read the servers (a
freeze with no collection before it: what became garbage in between stays, once). The cached
game states are kept out of the collector's sight by the service (``HOT_STATES``).

The first generation is collected every ``THRESHOLDS[0]`` new containers instead of 700: a
young collection walks only the young ones (a millisecond for 10,000), and objects that live a
few hundred microseconds (a page of rows between two awaits) die young instead of being
promoted to where a full collection walks them.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any, Protocol

from services.tasks import Tasks

THRESHOLDS = (10_000, 10, 10)


class Startable(Protocol):
    async def wait_until_ready(self) -> None: ...


def settle(client: Startable, tasks: Tasks) -> asyncio.Task[None]:
    """Tune the thresholds, collect once and freeze the start-up's objects; freeze again once
    the client is ready (its servers and channels read), in ``tasks`` (closing them stops the wait)."""
    gc.set_threshold(*THRESHOLDS)
    gc.collect()
    gc.freeze()
    return tasks.start(_freeze_when_ready(client), name="meeple-gc-freeze")


async def _freeze_when_ready(client: Startable) -> None:
    await client.wait_until_ready()
    gc.freeze()


def release() -> None:
    """Hand the frozen objects back to the collector (a stopped bot's own cycles can then go)."""
    gc.unfreeze()


class Pauses:
    """Each collection's generation and pause in seconds, through ``gc.callbacks``, while in
    the ``with`` block (the bench and the tests). ``cpu`` has the collecting thread's CPU time
    of each: on a loaded machine a pause also counts the time the process waited for a core."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self.cpu: list[float] = []
        self._started = self._started_cpu = 0.0

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started, self._started_cpu = time.perf_counter(), time.thread_time()
        else:
            self.pauses.append((info["generation"], time.perf_counter() - self._started))
            self.cpu.append(time.thread_time() - self._started_cpu)

    def __enter__(self) -> Pauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc_info: object) -> None:
        gc.callbacks.remove(self._callback)

    @property
    def longest(self) -> float:
        return max((pause for _, pause in self.pauses), default=0.0)

    @property
    def longest_cpu(self) -> float:
        return max(self.cpu, default=0.0)

    def count(self, generation: int | None = None) -> int:
        return sum(1 for gen, _ in self.pauses if generation is None or gen == generation)
