"""The operator's endpoint of a real bot at play, through the emulator: every metric family with
sensible values, read by Prometheus's own text parser; readiness that follows the database and
the gateway while health stays up."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Awaitable, Callable

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.client import MeepleBot
from emulator.testing import running
from tests.bot.test_discord_computers import open_with_computers
from tests.bot.test_discord_ticker import Minutes
from tests.support.driver import Table, mentioned

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture(autouse=True)
def no_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The end-of-game replay is not what this test looks at."""

    async def skip(flow, row, message, seats=None) -> None:
        return None

    monkeypatch.setattr("bot.history_ui.attach_replay", skip)


async def get(port: int, route: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{route}") as answer:
        return answer.status, await answer.text()


async def scrape(port: int) -> Samples:
    status, text = await get(port, "/metrics")
    assert status == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    key = (name, tuple(sorted(labels.items())))
    assert key in samples, f"{name}{labels} is not exported"
    return samples[key]


async def until(probe: Callable[[], Awaitable[bool]], what: str, timeout: float = 60.0) -> None:
    """Wait for an answer of the endpoint (no emulator change announces it); the deadline only
    ends a broken test."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await probe():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def test_a_scrape_during_a_game_has_every_family_and_readiness_follows_database_and_gateway(
    emu, world, config_for
) -> None:
    config = dataclasses.replace(config_for(emu, world.guild.id), metrics_port=0)
    minutes = Minutes()
    async with running(emu, MeepleBot(config, computer_delay=0.01, tick_wait=minutes.wait)) as bot:
        assert bot.observer is not None and bot.observer.host == "127.0.0.1"
        port = bot.observer.port
        before = await scrape(port)
        await open_with_computers(emu, world, "vivarium", 1, "easy")
        # One board post meets Discord's rate limit: discord.py waits it out, and it is counted.
        emu.faults.rate_limit(f"POST /channels/{world.channel.id}/messages", times=1, retry_after=0.05)
        table = Table(emu, world.channel, [world.alice])
        for _ in range(3):  # Alice's turns, the computer's in between
            await bot.flow.computer_turns.idle()
            await emu.wait_until(lambda: world.alice.id in mentioned(table.board()), what="Alice's turn")
            await table.play_one()
        await bot.flow.computer_turns.idle()
        await bot.flow.delivery.caught_up()
        await minutes.tick(emu)
        after = await scrape(port)

        def grew(name: str, **labels: str) -> float:
            return value(after, name, **labels) - before.get((name, tuple(sorted(labels.items()))), 0.0)

        assert grew("meeple_moves_total", game="vivarium") >= 4  # Alice's three and the computer's
        assert value(after, "meeple_moves_total", game="fox-duet") >= 0  # every game's series exists
        assert grew("meeple_interaction_answer_seconds_count", stage="first_answer") >= 3
        answered = value(after, "meeple_interaction_answer_seconds_sum", stage="first_answer")
        assert 0 < answered / value(after, "meeple_interaction_answer_seconds_count", stage="first_answer") < 30
        assert grew("meeple_interaction_answer_seconds_count", stage="board_posted") >= 3
        assert value(after, "meeple_delivery_jobs_pending", kind="board") == 0  # all delivered
        assert grew("meeple_delivery_done_total", kind="board") >= 3
        assert grew("meeple_delivery_done_total", kind="hand") >= 1
        assert value(after, "meeple_delivery_retries_total", kind="board") >= 0
        assert value(after, "meeple_delivery_failed_total", kind="hand") >= 0
        assert grew("meeple_discord_rate_limits_total") >= 1
        assert grew("meeple_render_seconds_count", kind="board") >= 3
        assert value(after, "meeple_render_queue_depth") >= 0
        assert grew("meeple_computer_decision_seconds_count", level="easy") >= 1
        assert value(after, "meeple_computer_decision_seconds_count", level="hard") >= 0
        assert value(after, "meeple_running_games", game="vivarium") == 1
        assert value(after, "meeple_open_tables", game="vivarium") == 0
        assert value(after, "meeple_tournaments", status="running") == 0
        assert grew("meeple_scheduler_tick_seconds_count") >= 1
        assert value(after, "meeple_event_loop_lag_seconds") >= 0
        assert grew("meeple_db_transaction_seconds_count") >= 4
        assert value(after, "meeple_shard_connected", shard="0") == 1
        assert value(after, "process_resident_memory_bytes") > 10_000_000
        # Labels stay bounded: no user, channel or server id in any series.
        ids = {str(world.alice.id), str(world.channel.id), str(world.guild.id)}
        assert not {v for _, labels in after for _, v in labels} & ids

        async def readiness() -> tuple[int, dict]:
            status, body = await get(port, "/readyz")
            return status, json.loads(body)

        status, body = await readiness()
        assert status == 200 and body["checks"] == {"database": True, "gateway": True, "delivery": True}
        # The database stops answering (another transaction holds it past the check's timeout).
        async with bot.db.transaction():
            status, body = await readiness()
            healthy, _ = await get(port, "/healthz")
        assert status == 503 and body["checks"]["database"] is False and body["checks"]["gateway"] is True
        assert healthy == 200, "the process and its loop are alive all the same"
        assert (await readiness())[0] == 200

        # The gateway goes down: not ready until the bot has connected again.
        await emu.gateway_outage(True)

        async def gateway_down() -> bool:
            status, body = await readiness()
            return status == 503 and body["checks"]["gateway"] is False

        await until(gateway_down, "/readyz to say the gateway is down")
        assert (await get(port, "/healthz"))[0] == 200
        await emu.gateway_outage(False)

        async def ready_again() -> bool:
            return (await readiness())[0] == 200

        await until(ready_again, "/readyz once the bot has connected again")
    assert bot.observer is not None and bot.observer._runner is None, "the endpoint closed with the bot"
