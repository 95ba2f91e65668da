"""Background tasks, started one way: kept, logged, restarted, stopped.

asyncio keeps only a weak reference to a task, so a task nobody holds can vanish half way; a
task whose exception nobody reads is reported late, at garbage collection, if at all. A
``Tasks`` group holds each task it starts until the task ends, says an error once (the task's
name and the exception, nothing the task was working on), and cancels and awaits what is left
when it is closed. ``forever`` runs a loop that must not die (the minute ticker): after an error
it is started again, after a pause that doubles up to a ceiling.

No discord import: the services use it as well as the Discord layer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

log = logging.getLogger("meeple.tasks")

T = TypeVar("T")

FIRST_PAUSE = 1.0  # seconds before a failed loop is started again
MOST_PAUSE = 60.0  # the pause doubles after each failure, up to this
HEALTHY = 300.0  # a loop that ran this long before failing starts again from the first pause


def awaited(error: BaseException) -> None:
    """``on_error`` of a task that another awaits: the error is said there, where it is raised again."""


class Tasks:
    """A group of background tasks (one per owner: the bot, the delivery, the tournaments...)."""

    def __init__(
        self,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._running: set[asyncio.Task[Any]] = set()
        self._sleep = sleep
        self._clock = clock
        self._closing = False
        self.restarts = 0  # loops started again after an error, in all

    def __len__(self) -> int:
        return len(self._running)

    @property
    def closing(self) -> bool:
        return self._closing

    def start(
        self, work: Coroutine[Any, Any, T], name: str, on_error: Callable[[BaseException], object] | None = None
    ) -> asyncio.Task[T]:
        """Run ``work`` in the background, held until it ends. An error in it is said once: by
        ``on_error(error)`` when given (the owner's own words; ``awaited`` when the code that awaits
        the task says it), else logged with the task's name."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._running.add(task)
        task.add_done_callback(lambda done: self._done(done, on_error))
        return task

    def forever(
        self,
        loop: Callable[[], Awaitable[None]],
        name: str,
        first: float = FIRST_PAUSE,
        most: float = MOST_PAUSE,
        healthy: float = HEALTHY,
    ) -> asyncio.Task[None]:
        """Run ``loop()`` until the group is closed, starting it again after an error (logged,
        then a pause of ``first`` seconds, doubled after each failure up to ``most``; a run that
        lasted ``healthy`` seconds starts again from ``first``). A ``loop()`` that returns is done."""
        return self.start(self._keep_alive(loop, name, first, most, healthy), name)

    async def _keep_alive(
        self, loop: Callable[[], Awaitable[None]], name: str, first: float, most: float, healthy: float
    ) -> None:
        pause = first
        while not self._closing:
            began = self._clock()
            try:
                await loop()
                return
            except Exception as error:
                if self._clock() - began >= healthy:
                    pause = first
                log.error(
                    "background loop %s failed (%s); starting it again in %.0f s",
                    name,
                    type(error).__name__,
                    pause,
                    exc_info=error,
                )
                self.restarts += 1
            await self._sleep(pause)
            pause = min(most, pause * 2)

    def _done(self, task: asyncio.Task[Any], on_error: Callable[[BaseException], object] | None) -> None:
        self._running.discard(task)
        if task.cancelled():
            return
        error = task.exception()  # read here, so asyncio does not report it a second time
        if error is None:
            return
        if on_error is not None:
            on_error(error)
        else:
            log.error("background task %s failed (%s)", task.get_name(), type(error).__name__, exc_info=error)

    async def idle(self) -> None:
        """Wait until every task of the group has ended (tests; a shutdown's grace)."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)

    async def close(self, grace: float = 0.0) -> int:
        """Stop the group: no loop starts again; the tasks get ``grace`` seconds to finish, then
        the rest are cancelled and awaited. How many were cancelled."""
        self._closing = True
        running = set(self._running)
        if running and grace > 0:
            _, running = await asyncio.wait(running, timeout=grace)
        for task in running:
            task.cancel()
        if running:
            await asyncio.gather(*running, return_exceptions=True)
        return len(running)


def log_every_task(limit: int = 12) -> None:
    """Log what every task of the running loop is waiting on (its name and innermost frames):
    the bot does so on SIGUSR1, for an operator asking why it does not stop or answer."""
    import io

    tasks = sorted(asyncio.all_tasks(), key=lambda task: task.get_name())
    lines = [f"{len(tasks)} tasks:"]
    for task in tasks:
        stack = io.StringIO()
        task.print_stack(limit=limit, file=stack)
        lines.append(stack.getvalue().rstrip())
    log.warning("\n".join(lines))
