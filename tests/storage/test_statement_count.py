"""``meeple_db_statements_total`` counts every statement the storage layer runs, on both backends."""

from __future__ import annotations

from prometheus_client import REGISTRY

from services.storage import Database
from tests.storage.conftest import ALICE, BOB, CHANNEL, GUILD


def counted() -> int:
    return int(REGISTRY.get_sample_value("meeple_db_statements_total") or 0)


def framing(db: Database) -> int:
    """The statements a transaction adds around its own: BEGIN and COMMIT, and on PostgreSQL the
    advisory locks (one statement, whichever locks it takes)."""
    return 2 if db.dialect == "sqlite" else 3


async def test_a_read_is_one_statement(db: Database) -> None:
    before = counted()
    await db.get_game(1)
    await db.query("SELECT COUNT(*) FROM games")
    assert counted() - before == 2


async def test_a_transaction_counts_its_statements_its_begin_and_its_commit(db: Database) -> None:
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, 5)
    before = counted()
    async with db.transaction() as conn:
        await conn.execute("UPDATE games SET options = ? WHERE id = ?", ("{}", row.id))
        await conn.execute_fetchall("SELECT * FROM seats WHERE game_id = ?", (row.id,))
        async with conn.execute("SELECT status FROM games WHERE id = ?", (row.id,)) as cursor:
            assert (await cursor.fetchone())[0] == "lobby"
    assert counted() - before == 3 + framing(db)


async def test_an_executemany_is_one_statement_however_many_rows(db: Database) -> None:
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, 5)
    before = counted()
    async with db.transaction(game_id=row.id) as conn:
        await conn.executemany(
            "INSERT INTO delivery_jobs (game_id, version, kind, seat, payload) VALUES (?, ?, 'notice', NULL, '{}')",
            [(row.id, version) for version in range(10)],
        )
    assert counted() - before == 1 + framing(db)
    assert len(await db.query("SELECT id FROM delivery_jobs WHERE game_id = ?", (row.id,))) == 10


async def test_a_rolled_back_transaction_counts_its_rollback(db: Database) -> None:
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, 5, others=[(BOB, "Bob")])
    before = counted()
    try:
        async with db.transaction() as conn:
            await conn.execute("UPDATE games SET options = ? WHERE id = ?", ("{}", row.id))
            raise LookupError("changed our mind")
    except LookupError:
        pass
    # BEGIN, the update, ROLLBACK (and the locks on PostgreSQL): the failed block's own count.
    assert counted() - before == 1 + framing(db)
