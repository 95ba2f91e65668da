"""Moves: the guarded commit, the append-only log and snapshots."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from services.storage import Database, GameRow
from tests.storage.conftest import play

pytestmark = pytest.mark.asyncio


async def test_commit_move_appends_the_action_and_updates_the_game(db: Database, running: GameRow) -> None:
    moved = await db.commit_move(running.id, 0, 1, "play dove-7", {"step": 1}, None)
    row = await db.get_game(running.id)
    assert row is not None and (row.version, row.state, row.status) == (1, {"step": 1}, "running")
    assert moved == row  # the row as stored, read back by the update itself
    assert row.updated_at >= running.updated_at
    assert await db.actions(running.id) == [(1, 1, "play dove-7")]


async def test_commit_move_that_fails_midway_changes_nothing(db: Database, running: GameRow) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        await db.commit_move(running.id, 0, 0, "", {"step": 1}, None)  # empty action text
    assert await db.get_game(running.id) == running
    assert await db.actions(running.id) == []


async def test_stale_expected_version_returns_false_and_changes_nothing(db: Database, running: GameRow) -> None:
    await play(db, running.id, 2)
    before = await db.get_game(running.id)
    assert not await db.commit_move(running.id, 1, 0, "late", {"step": 99}, None)
    assert await db.get_game(running.id) == before
    assert [action.action for action in await db.actions(running.id)] == ["move 1", "move 2"]


async def test_two_concurrent_moves_on_one_version_apply_exactly_one(db: Database, running: GameRow) -> None:
    results = await asyncio.gather(
        db.commit_move(running.id, 0, 0, "first", {"who": "first"}, None),
        db.commit_move(running.id, 0, 1, "second", {"who": "second"}, None),
    )
    assert sorted(result is not None for result in results) == [False, True]
    winner = "first" if results[0] else "second"
    row = await db.get_game(running.id)
    assert row is not None and (row.version, row.state) == (1, {"who": winner})
    assert [action.action for action in await db.actions(running.id)] == [winner]


async def test_commit_move_on_a_lobby_returns_false(db: Database, lobby: GameRow) -> None:
    assert not await db.commit_move(lobby.id, 0, 0, "early", {"step": 1}, None)
    assert await db.actions(lobby.id) == []


async def test_commit_move_with_outcome_finishes_the_game(db: Database, running: GameRow) -> None:
    outcome = {"scores": [3, 5], "winners": [1], "details": [{}, {}]}
    moved = await db.commit_move(running.id, 0, 1, "last", {"step": 1}, outcome)
    row = await db.get_game(running.id)
    assert row is not None and moved == row
    assert (row.status, row.outcome, row.version) == ("finished", outcome, 1)
    assert row.finished_at is not None and not row.active
    assert await db.running_games() == []


async def test_commit_move_after_finish_returns_false(db: Database, running: GameRow) -> None:
    await db.commit_move(running.id, 0, 1, "last", {"step": 1}, {"winners": [1]})
    assert not await db.commit_move(running.id, 1, 0, "more", {"step": 2}, None)


async def test_actions_after_a_version_returns_only_later_ones(db: Database, running: GameRow) -> None:
    await play(db, running.id, 4)
    assert await db.actions(running.id, after_version=2) == [(3, 1, "move 3"), (4, 0, "move 4")]


async def test_updating_an_action_is_refused_by_the_database(db: Database, running: GameRow) -> None:
    await play(db, running.id, 1)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with db.transaction() as conn:
            await conn.execute("UPDATE actions SET action = 'forged' WHERE game_id = ?", (running.id,))
    assert await db.actions(running.id) == [(1, 1, "move 1")]


async def test_deleting_an_action_is_refused_by_the_database(db: Database, running: GameRow) -> None:
    await play(db, running.id, 1)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM actions WHERE game_id = ?", (running.id,))
    assert len(await db.actions(running.id)) == 1


async def test_deleting_a_game_with_moves_is_refused_by_the_database(db: Database, running: GameRow) -> None:
    await play(db, running.id, 1)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM games WHERE id = ?", (running.id,))
    assert await db.get_game(running.id) is not None


async def test_snapshots_are_taken_at_zero_and_every_25_versions(db: Database, running: GameRow) -> None:
    await play(db, running.id, 60)
    async with db.transaction() as conn:
        rows = await conn.execute_fetchall("SELECT version FROM snapshots WHERE game_id = ?", (running.id,))
    assert [row[0] for row in rows] == [0, 25, 50]


async def test_latest_snapshot_at_or_before_a_version(db: Database, running: GameRow) -> None:
    await play(db, running.id, 30)
    assert await db.latest_snapshot(running.id) == (25, {"step": 25})
    assert await db.latest_snapshot(running.id, at_or_before=24) == (0, {"step": 0})
    assert await db.latest_snapshot(running.id, at_or_before=25) == (25, {"step": 25})


async def test_latest_snapshot_is_none_before_the_game_starts(db: Database, lobby: GameRow) -> None:
    assert await db.latest_snapshot(lobby.id) is None
