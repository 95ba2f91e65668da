"""Discord's failures reach the delivery already sorted by the poster (``bot.posting``): a rate
limit, a server error or the network is ``RetryLater`` (with Discord's wait), a refusal is
``Refused`` (``Forbidden``, ``Gone``); the delivery retries and gives up exactly as before."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, cast

import aiohttp
import discord
import pytest

from bot.posting import classified, post_failure
from engine import GAMES
from services.delivery import Backoff, Delivery, describe, retryable
from services.game_service import GameService
from services.posting_port import Forbidden, Gone, PostFailed, Refused, RetryLater, message_time
from services.shards import ALL
from services.storage import Database, jobs
from tests.bot.test_finishing_move import results, to_last_move


def http_error(status: int, code: int = 0) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="test")
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    if status >= 500:
        kind = discord.DiscordServerError
    return kind(response, {"code": code, "message": "no"})


def test_rate_limits_server_errors_and_the_network_are_to_be_retried() -> None:
    limited = post_failure(discord.RateLimited(30.0))
    assert isinstance(limited, RetryLater) and limited.retry_after == 30.0 and limited.rate_limited
    too_many = post_failure(http_error(429))
    assert isinstance(too_many, RetryLater) and too_many.rate_limited and too_many.retry_after is None
    for status in (500, 502, 503, 504):
        failure = post_failure(http_error(status, 0))
        assert isinstance(failure, RetryLater) and not failure.rate_limited, status
        assert str(failure) == f"HTTP {status} (code 0)" and failure.status == status
    network = (aiohttp.ClientConnectionError(), aiohttp.ServerDisconnectedError(), OSError(104, "x"), TimeoutError())
    for exc in network:
        failure = post_failure(exc)
        assert isinstance(failure, RetryLater) and str(failure) == type(exc).__name__
    assert all(retryable(post_failure(exc)) for exc in (http_error(429), http_error(503), TimeoutError()))  # type: ignore[arg-type]


def test_refusals_are_sorted_by_what_discord_said() -> None:
    cannot_dm = post_failure(http_error(403, 50007))
    assert isinstance(cannot_dm, Forbidden) and (cannot_dm.status, cannot_dm.code) == (403, 50007)
    assert isinstance(post_failure(http_error(404, 10003)), Gone)
    for status, code in ((400, 50035), (413, 40005)):
        failure = post_failure(http_error(status, code))
        assert type(failure) is Refused and str(failure) == f"HTTP {status} (code {code})"
        assert not retryable(failure)
    assert describe(cannot_dm) == "HTTP 403 (code 50007)", "the job's log reads as before"


def test_what_is_not_discords_passes_through_unsorted() -> None:
    assert post_failure(ValueError("a bug")) is None
    with pytest.raises(ValueError):
        with classified():
            raise ValueError("a bug is not retried")
    assert not retryable(ValueError("a bug")) and describe(ValueError()) == "ValueError"
    with pytest.raises(Forbidden) as caught:
        with classified():
            raise http_error(403, 50007)
    assert isinstance(caught.value.__cause__, discord.Forbidden), "the Discord error stays its cause"


def test_a_message_time_is_read_from_its_id_as_discord_does() -> None:
    for message_id in (1_180_000_000_000_000_000, 175928847299117063, 1 << 22):
        assert abs((message_time(message_id) - discord.utils.snowflake_time(message_id)).total_seconds()) < 0.001
    assert message_time(0) == datetime(2015, 1, 1, tzinfo=UTC)


class FailingPoster:
    """A poster whose board fails once with ``first`` and whose DMs fail with ``dm``."""

    def __init__(self, first: PostFailed | None = None, dm: PostFailed | None = None) -> None:
        self.first, self.dm = first, dm
        self.boards: list[int] = []
        self.notices: list[str] = []

    def table_locale(self, row: Any) -> str:
        return "en"

    async def user_locale(self, user_id: int, fallback: str) -> str:
        return fallback

    def seat_names(self, seats: Any, loc: str | None = None) -> list[str]:
        return [seat.display_name or "?" for seat in seats]

    async def post_board(self, row: Any, state: Any, lines: list[str], seats: Any = None, **how: Any) -> Any:
        if self.first is not None:
            first, self.first = self.first, None
            raise first
        self.boards.append(state.version)
        return 10**18 + state.version, lines

    async def send_hand(self, *args: Any, **kwargs: Any) -> None:
        if self.dm is not None:
            raise self.dm

    async def post_notice(self, row: Any, text: str) -> None:
        self.notices.append(text)


async def started(db: Database) -> int:
    service = GameService(db)
    row = await service.create("fox-duet", 1, 500, 10**17 + 1, "Alice", {}, seed=3)
    await service.join(row.id, 10**17 + 2, "Bob")
    await service.start(row.id, 10**17 + 1)
    return row.id


async def test_a_rate_limited_board_waits_what_discord_asked_then_goes_out(db: Database) -> None:
    game_id = await started(db)
    poster = FailingPoster(first=RetryLater("RateLimited", retry_after=7.5, rate_limited=True))
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    delivery = Delivery(GameService(db), cast(Any, poster), Backoff(first=0.01, cap=0.02), sleep=sleep, shards=ALL)
    task = delivery.kick(game_id)
    assert task is not None
    await asyncio.wait_for(task, 60)
    assert waits == [7.5], "at least Discord's wait, not the short backoff"
    assert poster.boards == [0]
    assert not await jobs.pending(db, game_id)


async def test_a_dm_refused_for_good_becomes_a_notice_naming_the_player(db: Database) -> None:
    game_id = await started(db)
    poster = FailingPoster(dm=Forbidden("HTTP 403 (code 50007)", 403, 50007))
    delivery = Delivery(GameService(db), cast(Any, poster), Backoff(first=0.01, cap=0.02), shards=ALL)
    task = delivery.kick(game_id)
    assert task is not None
    await asyncio.wait_for(task, 60)
    assert poster.boards == [0]
    players = GAMES["fox-duet"].min_players
    # One notice per DM refused, each naming its player (never the hand).
    named = sorted(seat for notice in poster.notices for seat in range(players) if f"<@{10**17 + 1 + seat}>" in notice)
    assert len(poster.notices) == players and named == list(range(players))
    failed = await db.query("SELECT kind, last_error FROM delivery_jobs WHERE status = 'failed' ORDER BY id")
    assert [(r["kind"], r["last_error"]) for r in failed] == [("hand", "HTTP 403 (code 50007)")] * players
    assert not await jobs.pending(db, game_id)


async def test_a_final_board_from_before_moves_stored_their_results_stores_them(db: Database) -> None:
    """The one fallback left: a final board enqueued by a version of the bot that stored results
    after the move (its payload without ``recorded``), whose results a crash then lost."""
    service = GameService(db)
    row = await service.create("vivarium", None, 500, 11, "Alice", {}, seed=7)
    await service.join(row.id, 22, "Bob")
    await service.start(row.id, 11)
    version, user, action = await to_last_move(service, row.id, random.Random(5))
    await service.act(row.id, user, version, action)
    stored = await results(db, row.id)
    assert len(stored) == 2
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM results WHERE game_id = ?", (row.id,))
        final = await conn.execute_fetchall(
            "SELECT id, payload FROM delivery_jobs WHERE game_id = ? AND kind = 'board' ORDER BY version DESC LIMIT 1",
            (row.id,),
        )
        payload = {k: v for k, v in json.loads(final[0]["payload"]).items() if k != "recorded"}
        await conn.execute("UPDATE delivery_jobs SET payload = ? WHERE id = ?", (json.dumps(payload), final[0]["id"]))
    poster = FailingPoster()
    delivery = Delivery(service, cast(Any, poster), Backoff(first=0.01, cap=0.02), shards=ALL)
    task = delivery.kick(row.id)
    assert task is not None
    await asyncio.wait_for(task, 120)
    assert not await jobs.pending(db, row.id)
    assert await results(db, row.id) == stored
