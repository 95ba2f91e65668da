"""Waiting for emulator state to change, without polling."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


POLL = 0.02
# How long a wait for something that should happen may take before the test fails. Only a broken
# test ever reaches it: a slow machine (a second test suite beside this one, a loaded CI host) only
# makes the wait longer, never the test red. Waits that check something does NOT happen name their
# own short timeout.
PATIENCE = 60.0


class Signal:
    """Fires on every state change; waiters re-check their condition (and poll, for conditions outside it)."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def fire(self) -> None:
        """Wake every current waiter."""
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(self, probe: Callable[[], T | None], timeout: float, what: str) -> T:
        """Return probe()'s first truthy value; raise TimeoutError naming `what` after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            event = self._event
            value = probe()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:.2f}s waiting for {what}")
            try:
                await asyncio.wait_for(event.wait(), min(remaining, POLL))
            except TimeoutError:
                continue
