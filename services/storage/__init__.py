"""Persistence: one SQLite file holding games, seats, the action log and snapshots."""

from __future__ import annotations

from services.storage.db import (
    ActionRow,
    AlreadySeated,
    ChannelBusy,
    Database,
    GameFull,
    GameNotFound,
    GameRow,
    GameStatus,
    SeatRow,
    StorageError,
    WrongStatus,
)
from services.storage.migrate import DatabaseTooNew, MigrationError

__all__ = [
    "ActionRow",
    "AlreadySeated",
    "ChannelBusy",
    "Database",
    "DatabaseTooNew",
    "GameFull",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "MigrationError",
    "SeatRow",
    "StorageError",
    "WrongStatus",
]
