"""Changes that touch several rows are one transaction each: all of them, or none."""

from __future__ import annotations

import asyncio

from services.storage import Database
from services.storage.db import watch_commits
from services.storage.seats_and_undo import vote_abandon
from tests.storage.conftest import ALICE, BOB, CHANNEL, GUILD


async def test_the_last_player_leaving_closes_the_lobby_in_the_same_transaction(db: Database) -> None:
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, 5)
    assert await db.leave(row.id, ALICE, abandon_if_empty=True)
    assert (await db.get_game(row.id)).status == "abandoned"
    assert await db.active_game_in_channel(CHANNEL) is None


async def test_the_deciding_vote_abandons_the_game_in_the_same_transaction(db: Database) -> None:
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, 5, others=[(BOB, "Bob")])
    await db.start_game(row.id, {"any": "state"})
    assert await vote_abandon(db, row.id, ALICE, players=2) == 1
    assert (await db.get_game(row.id)).status == "running"
    assert await vote_abandon(db, row.id, BOB, players=2) == 2
    assert (await db.get_game(row.id)).status == "abandoned"


async def test_a_commit_watch_sees_only_its_own_task_commits(db: Database) -> None:
    async def read_only() -> bool:
        watch = watch_commits()
        await db.get_game(1)
        return watch.committed

    async def writing() -> bool:
        watch = watch_commits()
        await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, 5)
        return watch.committed

    assert await asyncio.gather(asyncio.create_task(read_only()), asyncio.create_task(writing())) == [False, True]
