"""The scheduler's storage: due games read a keyset page at a time, and its warnings and reminders
noted in one transaction each at most once (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from services.shards import Shards
from services.storage import Database
from services.storage import async_play as store

GUILD = 111


async def running_games(db: Database, count: int) -> list[int]:
    ids = []
    for index in range(count):
        row = await db.create_game("fox-duet", GUILD, 500 + index, 10_000 + 2 * index, {}, seed=index)
        await db.join(row.id, 10_001 + 2 * index)
        await db.start_game(row.id, {"step": 0})
        ids.append(row.id)
    return ids


async def test_due_games_come_a_page_at_a_time_after_the_last_id(db: Database) -> None:
    ids = await running_games(db, 7)
    now = datetime.now(UTC) + timedelta(minutes=1)
    # Two games are not due: their due time is stored, for later.
    await store.set_due(db, [(ids[1], 0, now + timedelta(hours=1)), (ids[4], 0, None)])
    pages, after = [], 0
    while page := await store.due_page(db, now, after, limit=2):
        assert len(page) <= 2
        pages.append([row.id for row in page])
        after = page[-1].id
    assert pages == [[ids[0], ids[2]], [ids[3], ids[5]], [ids[6]]]
    # A stored due time that has come makes the game due again; a version moved on too.
    assert [r.id for r in await store.due_page(db, now + timedelta(hours=2), 0, limit=10)] == [
        i for i in ids if i != ids[4]
    ]
    # Only the guilds of this process's shards.
    assert await store.due_page(db, now, 0, limit=10, owned=Shards(frozenset({1}), 2)) == []


async def test_each_warning_and_reminder_is_noted_once_and_only_at_its_version(db: Database) -> None:
    ids = await running_games(db, 4)
    first, second, moved, gone = ids
    assert await db.commit_move(moved, 0, 0, "move 1", {"step": 1}, None)
    await db.abandon(gone)
    warned, reminded = await store.record_notices(
        db,
        [(first, 0), (moved, 0)],
        [(first, 0, 1), (second, 0, 1), (moved, 0, 1), (gone, 0, 1)],
    )
    assert (warned, reminded) == ({first}, {first, second})
    # Noted already: neither the warning nor the first reminder again; the second in its turn.
    warned, reminded = await store.record_notices(db, [(first, 0)], [(first, 0, 1), (second, 0, 2)])
    assert (warned, reminded) == (set(), {second})
    # The third reminder is not noted before the second was.
    assert await store.record_notices(db, [], [(first, 0, 3)]) == (set(), set())
    rows = {g: await db.get_game(g) for g in ids}
    assert rows[first].warned_version == 0 and rows[first].reminders_sent == 1  # type: ignore[union-attr]
    assert rows[second].reminded_version == 0 and rows[second].reminders_sent == 2  # type: ignore[union-attr]
    assert rows[moved].warned_version is None and rows[moved].reminded_version is None  # type: ignore[union-attr]
