"""The language last seen from each user, for what reaches them outside an interaction (DMs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from services.storage.db import Database


async def user_locale(db: Database, user_id: int) -> str | None:
    """The Discord locale of the user's last interaction; None for a user never seen."""
    rows = await db.query("SELECT locale FROM user_locales WHERE user_id = ?", (user_id,))
    return str(rows[0]["locale"]) if rows else None


async def remember_locale(db: Database, user_id: int, locale: str) -> bool:
    """Store the user's locale; True when it was new or changed (an unchanged one writes nothing)."""
    if await user_locale(db, user_id) == locale:
        return False
    async with db.transaction() as conn:
        cursor = await conn.execute("UPDATE user_locales SET locale = ? WHERE user_id = ?", (locale, user_id))
        if cursor.rowcount == 0:
            await conn.execute("INSERT INTO user_locales (user_id, locale) VALUES (?, ?)", (user_id, locale))
    return True
