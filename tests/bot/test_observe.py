"""The operator's endpoint on its own: health, readiness, the metrics text, systemd's notify."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from services import metrics
from services.observe import Observer, Watchdog, sd_notify, watchdog_interval
from services.storage import Database
from services.storage.stats import counts, reachable


async def get(port: int, route: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{route}") as answer:
        return answer.status, await answer.text()


async def test_health_is_the_loop_answering_and_readiness_each_check() -> None:
    database_up = True

    async def database() -> bool:
        return database_up

    async def hangs() -> bool:
        await asyncio.Event().wait()
        return True

    observer = Observer("127.0.0.1", 0, {"database": database})
    port = await observer.start()
    try:
        assert port != 0
        status, body = await get(port, "/healthz")
        assert status == 200 and '"status": "ok"' in body
        status, body = await get(port, "/readyz")
        assert status == 200 and '"database": true' in body
        database_up = False
        status, body = await get(port, "/readyz")
        assert status == 503 and '"database": false' in body and "not ready" in body
        database_up = True
        observer.checks["gateway"] = hangs  # a check that never answers has failed, within CHECK_TIMEOUT
        status, body = await get(port, "/readyz")
        assert status == 503 and '"gateway": false' in body and '"database": true' in body
    finally:
        await observer.stop()


async def test_the_metrics_parse_and_the_stored_gauges_are_refreshed_at_each_scrape() -> None:
    refreshed = 0

    async def refresh() -> None:
        nonlocal refreshed
        refreshed += 1
        metrics.RUNNING_GAMES.labels(game="noctiluca").set(3)

    observer = Observer("127.0.0.1", 0, {}, refresh)
    port = await observer.start()
    try:
        metrics.MOVES.labels(game="noctiluca").inc()
        status, text = await get(port, "/metrics")
        assert status == 200 and refreshed == 1
        families = {family.name: family for family in text_string_to_metric_families(text)}
        running = {s.labels["game"]: s.value for s in families["meeple_running_games"].samples}
        assert running["noctiluca"] == 3
        moves = [s for s in families["meeple_moves"].samples if s.name == "meeple_moves_total"]
        assert any(s.labels == {"game": "noctiluca"} and s.value >= 1 for s in moves)
        assert "process_resident_memory_bytes" in families or "python_info" in families
    finally:
        await observer.stop()


async def test_the_loop_lag_is_measured() -> None:
    observer = Observer("127.0.0.1", 0, {})
    observer.lag.interval = 0.01
    await observer.start()
    try:
        seen = observer.lag.last_seen
        while observer.lag.last_seen == seen:  # the first look, however slow the machine
            await asyncio.sleep(0.01)
        assert observer.lag.latest >= 0.0
        assert metrics.LOOP_LAG_SECONDS._sum.get() >= 0.0  # observed into the histogram
    finally:
        await observer.stop()


async def test_the_stored_counts_and_reachability(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "stats.db") as db:
        assert await reachable(db)
        game = await db.create_game("fox-duet", 1, 10, 100, {}, seed=1)
        assert game.status == "lobby"
        found = await counts(db)
        assert found.lobbies == {"fox-duet": 1} and found.running == {} and found.pending == {}
        assert found.oldest_pending is None and found.tournaments == {}
    assert not await reachable(db)  # closed: the readiness check says so instead of raising


def test_sd_notify_sends_one_datagram_to_systemds_socket(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(path))
        assert sd_notify("READY=1", {"NOTIFY_SOCKET": str(path)})
        assert systemd.recv(100) == b"READY=1"
    assert not sd_notify("READY=1", {})  # not started by systemd: nothing to do
    assert not sd_notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "gone")})  # logged, never raised


def test_the_watchdog_pets_at_half_of_systemds_period_and_only_in_its_own_process() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({}) is None and watchdog_interval({"WATCHDOG_USEC": "soon"}) is None


async def test_the_watchdog_pets_systemd_while_the_loop_runs(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(path))
        systemd.setblocking(False)
        loop = asyncio.get_running_loop()
        dog = Watchdog({"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "20000"})
        assert dog.interval == 0.01 and dog.start()
        try:
            pets = [await asyncio.wait_for(loop.sock_recv(systemd, 100), 30) for _ in range(3)]
        finally:
            await dog.stop()
        assert pets == [b"WATCHDOG=1"] * 3
    assert not Watchdog({}).start()  # no WatchdogSec: nothing runs
