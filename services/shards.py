"""Which guilds this bot process serves, when the bot runs as several processes sharing one database.

Discord puts a guild on shard ``(guild_id >> 22) % shard_count`` and sends its events and
interactions only to the connection of that shard. Each process connects the shards of
``MEEPLE_SHARD_IDS`` (of ``MEEPLE_SHARD_COUNT``), so it hears about its own guilds only; the
work nobody clicks for (start-up recovery, the scheduler's tick, delivery, computer turns,
tournaments) must keep to the same guilds, or two processes would post the same board twice.

A game, tournament or job without a guild belongs to shard 0, the shard Discord sends direct
messages to. The shard is computed in SQL rather than stored, so changing the shard count needs
no migration: every process just reads the guilds it owns under the new count.

Clicks need nothing more: Discord routes each to its guild's process, and everything in a DM to
shard 0's, which serves it from the shared database (the guide's page buttons, profiles, records,
vacations). No component in a DM acts on a game (a DM carries the hand as words and a picture),
so only a game's own process ever changes it, and its state cache and delivery worker stay the
only ones for that game. A DM button that moved a game would break that: it would need handing to
the game's process, not just the ``WHERE version = ?`` that keeps the move itself safe.
"""

from __future__ import annotations

from dataclasses import dataclass

DM_SHARD = 0  # Discord sends direct messages (and their interactions) to shard 0


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord serves a guild on; shard 0 for anything outside a guild."""
    if guild_id is None:
        return DM_SHARD
    return (guild_id >> 22) % count


@dataclass(frozen=True)
class Shards:
    """The shards this process owns (``ids`` of ``count``); the default owns everything."""

    ids: frozenset[int] = frozenset({0})
    count: int = 1

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("the shard count must be at least 1")
        if not self.ids or any(not 0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shard ids must be between 0 and {self.count - 1}")

    @property
    def everything(self) -> bool:
        """Whether this one process owns every shard (no filtering needed)."""
        return len(self.ids) == self.count

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process serves the guild (None: a DM or a game outside any guild)."""
        return self.everything or shard_of(guild_id, self.count) in self.ids

    def sql(self, column: str = "guild_id") -> str:
        """A WHERE condition keeping the rows whose ``column`` (a guild id or NULL) this process owns.

        The numbers are inlined (they come from the configuration, always integers): the same
        text then runs on SQLite and PostgreSQL whatever their placeholders. Parenthesised,
        since SQLite's ``%`` binds tighter than ``>>``.
        """
        if self.everything:
            return "1 = 1"
        shards = ", ".join(str(shard) for shard in sorted(self.ids))
        owned = f"(({column} >> 22) % {self.count}) IN ({shards})"
        if DM_SHARD in self.ids:
            return f"({column} IS NULL OR {owned})"
        return f"({column} IS NOT NULL AND {owned})"

    def describe(self) -> str:
        """For the log: ``shards 0, 1 of 4``."""
        return f"shards {', '.join(str(s) for s in sorted(self.ids))} of {self.count}"


ALL = Shards()
