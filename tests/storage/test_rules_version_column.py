"""Migration 0005: games stored before rules had versions are played by rules version 1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import aiosqlite
import pytest

from engine import GAMES
from services import history
from services.game_service import GameService
from services.storage import Database
from services.storage.migrate import MIGRATIONS_DIR, migrate

pytestmark = pytest.mark.asyncio


async def database_before_rules_versions(tmp_path: Path) -> Path:
    """A database at the schema before 0005 with a running Duet whose state has no rules_version."""
    older = tmp_path / "older"
    older.mkdir()
    for migration in sorted(MIGRATIONS_DIR.glob("*.sql")):
        if migration.name < "0005":
            shutil.copy(migration, older)
    state = GAMES["fox-duet"].new(2, 7).to_dict()
    del state["rules_version"]
    path = tmp_path / "meeple.db"
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        await migrate(conn, older)
        await conn.execute(
            "INSERT INTO games (id, game, channel_id, status, options, seed, creator_id, state)"
            " VALUES (1, 'fox-duet', 500, 'running', '{\"level\": 1}', 7, 11, ?)",
            (json.dumps(state),),
        )
        await conn.execute(
            "INSERT INTO games (id, game, channel_id, seed, creator_id) VALUES (2, 'fox-duet', 501, 8, 11)"
        )
        for game_id, seat, user in ((1, 0, 11), (1, 1, 22), (2, 0, 11), (2, 1, 22)):
            await conn.execute("INSERT INTO seats (game_id, seat, user_id) VALUES (?, ?, ?)", (game_id, seat, user))
        await conn.execute("INSERT INTO snapshots (game_id, version, state) VALUES (1, 0, ?)", (json.dumps(state),))
    finally:
        await conn.close()
    return path


async def test_games_stored_before_rules_versions_are_version_one_and_keep_playing(tmp_path: Path) -> None:
    path = await database_before_rules_versions(tmp_path)
    async with await Database.open(path) as db:
        service = GameService(db)
        row = await service.get(1)
        assert row.rules_version == 1 and (await service.get(2)).rules_version == 1
        state = await service.state(row)
        assert state.rules_version == 1
        seat = state.to_move()[0]
        moved = await service.act(1, [11, 22][seat], 0, state.legal_actions(seat)[0].text)
        assert moved.state.to_dict()["rules_version"] == 1
        assert [s.version for s in await history.steps(db, moved.row)] == [0, 1]


async def test_a_started_game_stores_the_rules_version_of_its_start_state(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "meeple.db") as db:
        row = await db.create_game("fox-duet", 1, 500, 11, {"level": 1}, 5)
        await db.join(row.id, 22)
        state = GAMES["fox-duet"].new(2, 5).to_dict()
        started = await db.start_game(row.id, {**state, "rules_version": 3})
        assert started.rules_version == 3
        with pytest.raises(ValueError, match="rules_version"):
            await db.start_game(row.id, {**state, "rules_version": "3"})
