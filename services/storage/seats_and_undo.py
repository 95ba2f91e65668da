"""Storage for undo, seat changes and votes: each change is one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.storage.db import Database
from services.storage.dialect import SQLITE_NOW
from services.storage.jobs import JobSpec, insert_jobs


async def undo_last(
    db: Database, game_id: int, version: int, state: dict[str, Any], jobs: Sequence[JobSpec] = ()
) -> bool:
    """Take back the action that produced ``version``; the game returns to ``state`` at version - 1.

    False, changing nothing, when the game is no longer at ``version``. ``jobs`` (the board
    after the undo) are enqueued in the same transaction.
    """
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE games SET state = ?, version = ?, board_version = NULL, reminded_version = NULL,"
            f" due_version = NULL, updated_at = {SQLITE_NOW}"
            " WHERE id = ? AND version = ? AND status = 'running'",
            (_json(state), version - 1, game_id, version),
        )
        if cursor.rowcount != 1:
            return False
        await conn.execute(
            "INSERT INTO undone_actions (game_id, version, seat, action, created_at)"
            " SELECT game_id, version, seat, action, created_at FROM actions WHERE game_id = ? AND version = ?",
            (game_id, version),
        )
        await conn.execute("DELETE FROM actions WHERE game_id = ? AND version = ?", (game_id, version))
        await conn.execute("DELETE FROM snapshots WHERE game_id = ? AND version >= ?", (game_id, version))
        await insert_jobs(conn, game_id, jobs)
        return True


async def undone(db: Database, game_id: int) -> list[tuple[int, int, str]]:
    """(version, seat, action) of every taken-back action, oldest first."""
    rows = await db.query(
        "SELECT version, seat, action FROM undone_actions WHERE game_id = ? ORDER BY undone_at", (game_id,)
    )
    return [(r["version"], r["seat"], r["action"]) for r in rows]


async def replace_seat(db: Database, game_id: int, seat: int, user_id: int, name: str | None) -> bool:
    """Give ``seat`` to another user (not already seated in this game)."""
    async with db.transaction() as conn:
        taken = await conn.execute_fetchall("SELECT 1 FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
        if taken:
            return False
        cursor = await conn.execute(
            "UPDATE seats SET user_id = ?, display_name = ? WHERE game_id = ? AND seat = ?",
            (user_id, (name or "").strip()[:100] or None, game_id, seat),
        )
        await conn.execute("DELETE FROM abandon_votes WHERE game_id = ?", (game_id,))
        # Another player, other vacations: the scheduler works the game's due time out again.
        await conn.execute("UPDATE games SET due_version = NULL WHERE id = ?", (game_id,))
        return cursor.rowcount == 1


async def vote_abandon(db: Database, game_id: int, user_id: int, players: int | None = None) -> int:
    """Record a vote to abandon; return how many seated players have voted.

    When the votes reach ``players``, the game is abandoned in the same transaction.
    """
    async with db.transaction() as conn:
        await conn.execute("INSERT OR IGNORE INTO abandon_votes (game_id, user_id) VALUES (?, ?)", (game_id, user_id))
        rows = await conn.execute_fetchall(
            "SELECT COUNT(*) FROM abandon_votes v JOIN seats s ON s.game_id = v.game_id AND s.user_id = v.user_id"
            " WHERE v.game_id = ?",
            (game_id,),
        )
        votes = list(rows)[0][0]
        if players is not None and votes >= players:
            await conn.execute(
                f"UPDATE games SET status = 'abandoned', finished_at = {SQLITE_NOW},"
                f" updated_at = {SQLITE_NOW} WHERE id = ? AND status IN ('lobby', 'running')",
                (game_id,),
            )
        return votes


def _json(value: dict[str, Any]) -> str:
    import json

    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
