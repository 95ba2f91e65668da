"""Seats remember the display name a player had when they sat down (migration 0002)."""

from __future__ import annotations

from pathlib import Path

from services.storage import Database
from tests.storage.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD


async def test_names_are_stored_at_create_and_join_and_survive_a_restart(db_target: str | Path) -> None:
    db = await Database.open(db_target)
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, seed=1, creator_name="Alice")
    await db.join(row.id, BOB, display_name="  Bob  ")
    await db.close()
    db = await Database.open(db_target)
    try:
        assert [s.display_name for s in await db.seats(row.id)] == ["Alice", "Bob"]
    finally:
        await db.close()


async def test_names_follow_their_players_when_seats_are_renumbered(db: Database) -> None:
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, seed=1, creator_name="Alice")
    await db.join(row.id, BOB, display_name="Bob")
    await db.join(row.id, CAROL, display_name="Carol")
    await db.leave(row.id, BOB)
    assert [(s.seat, s.display_name) for s in await db.seats(row.id)] == [(0, "Alice"), (1, "Carol")]


async def test_blank_or_missing_names_are_stored_as_none(db: Database) -> None:
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, seed=1)
    await db.join(row.id, BOB, display_name="   ")
    assert [s.display_name for s in await db.seats(row.id)] == [None, None]
