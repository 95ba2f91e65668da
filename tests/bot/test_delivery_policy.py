"""The retry policy of deliveries: which failures are tried again, and how long to wait."""

from __future__ import annotations

import random
from types import SimpleNamespace

import aiohttp
import discord

from bot.posting import is_transient
from services.delivery import Backoff


def http_error(status: int, code: int = 0) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="test")
    if status == 403:
        return discord.Forbidden(response, {"code": code, "message": "no"})
    if status == 404:
        return discord.NotFound(response, {"code": code, "message": "no"})
    if status >= 500:
        return discord.DiscordServerError(response, {"code": code, "message": "no"})
    return discord.HTTPException(response, {"code": code, "message": "no"})


def test_rate_limits_server_errors_and_the_network_are_retried() -> None:
    for exc in (http_error(429), http_error(500), http_error(502), http_error(503), http_error(504)):
        assert is_transient(exc), exc.status
    for exc in (aiohttp.ClientConnectionError(), aiohttp.ServerDisconnectedError(), OSError(104, "reset")):
        assert is_transient(exc)
    assert is_transient(TimeoutError())
    assert is_transient(discord.RateLimited(30.0))


def test_refusals_are_final() -> None:
    for exc in (http_error(403, 50007), http_error(404, 10003), http_error(400, 50035), http_error(413, 40005)):
        assert not is_transient(exc), exc.status
    assert not is_transient(ValueError("a bug is not retried"))


def test_backoff_doubles_up_to_its_cap_with_bounded_jitter() -> None:
    backoff = Backoff(first=2.0, factor=2.0, cap=60.0, jitter=0.2)
    rng = random.Random(7)
    for attempt, base in [(1, 2.0), (2, 4.0), (3, 8.0), (4, 16.0), (5, 32.0)]:
        delays = [backoff.delay(attempt, rng=rng) for _ in range(200)]
        assert all(base * 0.8 <= d <= base * 1.2 for d in delays), attempt
        assert max(delays) - min(delays) > base * 0.2  # the jitter spreads retries out
    assert all(backoff.delay(attempt, rng=rng) <= 60.0 for attempt in range(6, 40))


def test_backoff_waits_at_least_what_discord_asks() -> None:
    assert Backoff(first=0.5, cap=2.0).delay(1, retry_after=30.0) == 30.0
