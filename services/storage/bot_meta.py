"""The bot's own key/value facts (table ``bot_meta``): what it must remember about itself across starts."""

from __future__ import annotations

from services.storage.db import Database
from services.storage.dialect import SQLITE_NOW


async def get(db: Database, key: str) -> str | None:
    """The value stored under ``key``, or None."""
    rows = await db.query("SELECT value FROM bot_meta WHERE key = ?", (key,))
    return str(rows[0]["value"]) if rows else None


async def put(db: Database, key: str, value: str) -> None:
    """Store ``value`` under ``key``, replacing any older value (one transaction)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO bot_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
            f"updated_at = {SQLITE_NOW}",
            (key, value),
        )
