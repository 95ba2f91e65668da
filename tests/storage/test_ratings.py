"""services/storage/ratings.py against a real migrated database: ties, idempotency, what never counts."""

from __future__ import annotations

from pathlib import Path

from openskill.models import PlackettLuce

from league import rating_maths as rules
from services.storage import Database, ratings

STAMP = "2026-11-24T10:00:00.000Z"


async def finished_game(db: Database, game: str, guild: int | None, users: list[int], *, rated: bool = True) -> int:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO games (game, guild_id, channel_id, status, seed, creator_id, version, state, outcome,"
            " finished_at, rated) VALUES (?, ?, 99, 'finished', 1, ?, 1, '{}', '{}', ?, ?)",
            (game, guild, users[0], STAMP, int(rated)),
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        return game_id


async def test_ties_share_a_rank_exactly_as_openskill_rates_them(db_target: str | Path) -> None:
    db = await Database.open(db_target)
    try:
        game_id = await finished_game(db, "vivarium", 7, [1, 2, 3])
        async with db.transaction() as conn:
            assert await ratings.rate_game(conn, game_id, 7, "vivarium", STAMP, [(1, 1), (2, 1), (3, 3)])
        model = PlackettLuce()
        expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 1, 3])
        board = {r.user_id: r for r in await ratings.ratings_of(db, 7, "vivarium")}
        for user, team in zip((1, 2, 3), expected, strict=True):
            assert (board[user].mu, board[user].sigma) == (team[0].mu, team[0].sigma)
        assert board[1].mu == board[2].mu > board[3].mu
        assert all(r.games == 1 and r.provisional for r in board.values())
        # A second call for the same game changes nothing.
        async with db.transaction() as conn:
            assert not await ratings.rate_game(conn, game_id, 7, "vivarium", STAMP, [(1, 3), (2, 3), (3, 1)])
        again = {r.user_id: r for r in await ratings.ratings_of(db, 7, "vivarium")}
        assert again == board
    finally:
        await db.close()


async def test_cooperative_solo_and_five_seat_games_never_move_a_rating(db_target: str | Path) -> None:
    db = await Database.open(db_target)
    try:
        async with db.transaction() as conn:
            for game, placed in (("fox-duet", [(1, 1), (2, 1)]), ("noctiluca", [(1, 1)]), ("tm-dice", [(1, 1)])):
                game_id = await conn.execute(
                    "INSERT INTO games (game, guild_id, channel_id, status, seed, creator_id, version, state,"
                    " outcome, finished_at) VALUES (?, 7, 99, 'finished', 1, 1, 1, '{}', '{}', ?)",
                    (game, STAMP),
                )
                assert game_id.lastrowid is not None
                assert not await ratings.rate_game(conn, game_id.lastrowid, 7, game, STAMP, placed)
        assert not await db.query("SELECT 1 FROM ratings")
        assert not rules.counts("vivarium", 5) and rules.counts("vivarium", 4)
    finally:
        await db.close()


async def test_rebuild_skips_casual_abandoned_and_guildless_games(db_target: str | Path) -> None:
    db = await Database.open(db_target)
    try:
        rated = await finished_game(db, "vivarium", 7, [1, 2])
        casual = await finished_game(db, "vivarium", 7, [1, 2], rated=False)
        direct = await finished_game(db, "vivarium", None, [1, 2])
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO games (game, guild_id, channel_id, status, seed, creator_id, version, state, finished_at)"
                " VALUES ('vivarium', 7, 98, 'abandoned', 1, 1, 1, '{}', ?)",
                (STAMP,),
            )
            for game_id in (rated, casual, direct):
                await conn.executemany(
                    "INSERT INTO results (game_id, seat, user_id, game, score, rank, won, forfeited, finished_at)"
                    " VALUES (?, ?, ?, 'vivarium', 0, ?, ?, 0, ?)",
                    [(game_id, 0, 1, 1, 1, STAMP), (game_id, 1, 2, 2, 0, STAMP)],
                )
        async with db.transaction() as conn:
            assert await ratings.rebuild(conn) == 1
        rows = await db.query("SELECT DISTINCT game_id FROM rating_history")
        assert [r[0] for r in rows] == [rated]
        async with db.transaction() as conn:
            seeds = await ratings.seeding_ratings(conn, 7, "vivarium", [1, 2, 3])
        assert set(seeds) == {1, 2} and seeds[1] > seeds[2]
    finally:
        await db.close()


def test_the_rebuild_script_works_on_a_database_file(db_target: str | Path, tmp_path: Path, capsys) -> None:
    import asyncio
    import subprocess
    import sys

    path = db_target

    async def prepare() -> None:
        db = await Database.open(path)
        try:
            game_id = await finished_game(db, "tm-dice", 7, [1, 2])
            async with db.transaction() as conn:
                await conn.executemany(
                    "INSERT INTO results (game_id, seat, user_id, game, score, rank, won, forfeited, finished_at)"
                    " VALUES (?, ?, ?, 'tm-dice', 0, ?, 0, 0, ?)",
                    [(game_id, 0, 1, 2, STAMP), (game_id, 1, 2, 1, STAMP)],
                )
        finally:
            await db.close()

    asyncio.run(prepare())
    done = subprocess.run(
        [sys.executable, "-m", "services.ratings_tool", "rebuild", "--db", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "1 rated game(s)" in done.stdout
    missing = subprocess.run(  # a missing SQLite file is reported, never created
        [sys.executable, "-m", "services.ratings_tool", "rebuild", "--db", str(tmp_path / "none.db")],
        capture_output=True,
    )
    assert missing.returncode == 1 and not (tmp_path / "none.db").exists()

    async def read() -> list:
        db = await Database.open(path)
        try:
            return [tuple(r) for r in await db.query("SELECT user_id, games FROM ratings ORDER BY user_id")]
        finally:
            await db.close()

    assert asyncio.run(read()) == [(1, 1), (2, 1)]
