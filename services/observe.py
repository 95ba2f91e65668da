"""The operator's endpoint: ``/metrics`` (Prometheus), ``/healthz`` and ``/readyz``; systemd's notify.

Off unless ``MEEPLE_METRICS_PORT`` is set; it listens on ``MEEPLE_METRICS_HOST`` (127.0.0.1 by
default, so nothing is exposed beyond the machine unless asked). The server is aiohttp's (already
a dependency of discord.py) on the bot's own event loop, so a loop that stops answering is exactly
what ``/healthz`` and the systemd watchdog notice.

- ``/healthz``: 200 while the process is alive and its loop answers (with the loop's lag).
- ``/readyz``: 200 when every readiness check holds (the database answers, the gateway is
  connected for each of this process's shards, delivery is not stuck), else 503; the JSON body
  says which check failed. A check that does not answer within ``CHECK_TIMEOUT`` has failed.
- ``/metrics``: the families of ``services.metrics`` and the client's process collectors, in the text
  format; the gauges of stored data are refreshed from one query first.

No discord import: the checks and the refresh are callables that the client gives.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from services import metrics
from services.tasks import Tasks

log = logging.getLogger("meeple.observe")

CHECK_TIMEOUT = 2.0  # seconds a readiness check may take before it counts as failed
LAG_INTERVAL = 0.5  # seconds between two looks at the event loop's lag

Check = Callable[[], Awaitable[bool]]


@dataclass
class LoopLag:
    """Measures how late the event loop runs a timer: a loop busy with one long step (a drawing,
    a big query, a garbage collection) runs everything else that late."""

    interval: float = LAG_INTERVAL
    latest: float = 0.0
    last_seen: float = field(default_factory=time.monotonic)
    _tasks: Tasks | None = None

    def start(self) -> None:
        self._tasks = Tasks()
        self._tasks.forever(self._run, "meeple-loop-lag")

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            expected = loop.time() + self.interval
            await asyncio.sleep(self.interval)
            self.latest = max(0.0, loop.time() - expected)
            self.last_seen = time.monotonic()
            metrics.LOOP_LAG.set(self.latest)
            metrics.LOOP_LAG_SECONDS.observe(self.latest)

    async def stop(self) -> None:
        if self._tasks is not None:
            await self._tasks.close()
        self._tasks = None


def sd_notify(message: str, environ: Mapping[str, str] | None = None) -> bool:
    """Tell systemd ``message`` (``READY=1``, ``WATCHDOG=1``, ``STOPPING=1``) on ``$NOTIFY_SOCKET``;
    False when not started by systemd with ``Type=notify``. The protocol is one datagram on a unix
    socket (an abstract one when the path starts with ``@``): a few lines, so no library for it."""
    path = (environ if environ is not None else os.environ).get("NOTIFY_SOCKET")
    if not path:
        return False
    address = "\0" + path[1:] if path.startswith("@") else path
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("could not notify systemd (%s): %s", message, exc)
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Half of systemd's ``WatchdogSec`` (``$WATCHDOG_USEC``) for this process, or None."""
    env = environ if environ is not None else os.environ
    usec, pid = env.get("WATCHDOG_USEC"), env.get("WATCHDOG_PID")
    if not usec or not usec.isdigit() or (pid and pid.isdigit() and int(pid) != os.getpid()):
        return None
    return int(usec) / 2_000_000


class Observer:
    """The HTTP endpoint and the watchdog; ``start`` after the bot's set-up, ``stop`` at its close."""

    def __init__(
        self,
        host: str,
        port: int,
        checks: Mapping[str, Check],
        refresh: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.checks = dict(checks)
        self.refresh = refresh
        self.lag = LoopLag()
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        """Listen; the port actually bound (``0`` asks the system for a free one)."""
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:
            self.port = int(self._runner.addresses[0][1])
        self.lag.start()
        log.info("metrics and health on http://%s:%d/ (/metrics, /healthz, /readyz)", self.host, self.port)
        return self.port

    async def stop(self) -> None:
        await self.lag.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def ready(self) -> dict[str, bool]:
        """Each readiness check's answer (a check that raises or hangs is False)."""

        async def run(check: Check) -> bool:
            try:
                return bool(await asyncio.wait_for(check(), CHECK_TIMEOUT))
            except Exception:  # a failing check is an answer, not an error of the endpoint
                return False

        names = list(self.checks)
        answers = await asyncio.gather(*(run(self.checks[name]) for name in names))
        return dict(zip(names, answers, strict=True))

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "loop_lag_seconds": round(self.lag.latest, 4)})

    async def _readyz(self, request: web.Request) -> web.Response:
        checks = await self.ready()
        ok = all(checks.values())
        body = {"status": "ready" if ok else "not ready", "checks": checks}
        return web.json_response(body, status=200 if ok else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        if self.refresh is not None:
            try:
                await asyncio.wait_for(self.refresh(), CHECK_TIMEOUT)
            except Exception:  # stale gauges beat no metrics at all
                log.warning("could not refresh the stored-data gauges", exc_info=True)
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


class Watchdog:
    """systemd's watchdog (``WatchdogSec=`` in the unit): ``WATCHDOG=1`` every half period while
    the event loop runs. A stuck loop stops petting and systemd restarts the bot. Nothing to do
    when systemd set no watchdog for this process."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self.environ = environ
        self.interval = watchdog_interval(environ)
        self._tasks: Tasks | None = None

    def start(self) -> bool:
        if self.interval is None:
            return False
        interval = self.interval
        self._tasks = Tasks()
        self._tasks.forever(lambda: self._pet(interval), "meeple-watchdog")
        return True

    async def _pet(self, interval: float) -> None:
        while True:
            sd_notify("WATCHDOG=1", self.environ)
            await asyncio.sleep(interval)

    async def stop(self) -> None:
        if self._tasks is not None:
            await self._tasks.close()
        self._tasks = None
