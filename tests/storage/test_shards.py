"""The reads that background work starts from keep to the guilds one process owns (services/shards.py)."""

from __future__ import annotations

import pytest

from services.shards import Shards
from services.storage import Database, jobs, tournaments
from services.storage.jobs import JobSpec

COUNT = 2
ZERO, ONE = Shards(frozenset({0}), COUNT), Shards(frozenset({1}), COUNT)
GUILD_ON_0, GUILD_ON_1 = (10 << 22) | 5, (11 << 22) | 5


async def running_game(db: Database, guild_id: int, channel_id: int) -> int:
    row = await db.create_game("fox-duet", guild_id, channel_id, 1001, {}, seed=7)
    await db.join(row.id, 1002)
    await db.start_game(row.id, {"step": 0})
    return row.id


@pytest.mark.asyncio
async def test_each_process_resumes_and_schedules_only_its_guilds_games(db: Database) -> None:
    first = await running_game(db, GUILD_ON_0, 201)
    second = await running_game(db, GUILD_ON_1, 202)
    assert [r.id for r in await db.running_games(ZERO)] == [first]
    assert [r.id for r in await db.running_games(ONE)] == [second]
    assert [r.id for r in await db.running_games()] == [first, second]


@pytest.mark.asyncio
async def test_each_process_delivers_only_its_guilds_pending_jobs(db: Database) -> None:
    first = await running_game(db, GUILD_ON_0, 201)
    second = await running_game(db, GUILD_ON_1, 202)
    for game in (second, first):
        await jobs.enqueue(db, game, [JobSpec("board", 0)])
    assert await jobs.games_with_pending(db, ZERO) == [first]
    assert await jobs.games_with_pending(db, ONE) == [second]
    assert await jobs.games_with_pending(db) == [second, first]  # oldest job first


@pytest.mark.asyncio
async def test_each_process_advances_only_its_guilds_tournaments(db: Database) -> None:
    made = []
    for guild in (GUILD_ON_1, GUILD_ON_0):
        created = await tournaments.create(
            db,
            guild_id=guild,
            channel_id=300,
            organiser_id=1001,
            name="Cup",
            game="fox-duet",
            format="swiss",
            table_size=2,
            round_days=3,
            seed=1,
        )
        made.append(created.id)
    assert [t.id for t in await tournaments.active(db, ONE)] == [made[0]]
    assert [t.id for t in await tournaments.active(db, ZERO)] == [made[1]]
    assert [t.id for t in await tournaments.active(db)] == made
