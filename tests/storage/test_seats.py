"""Seats: joining and leaving a lobby, with contiguous seat numbers."""

from __future__ import annotations

import pytest

from services.storage import AlreadySeated, Database, GameFull, GameNotFound, GameRow, WrongStatus
from tests.storage.conftest import ALICE, BOB, CAROL

pytestmark = pytest.mark.asyncio

DAVE = 1004


async def seating(db: Database, game_id: int) -> list[tuple[int, int]]:
    return [(seat.seat, seat.user_id) for seat in await db.seats(game_id)]


async def test_join_takes_the_next_free_seat(db: Database, lobby: GameRow) -> None:
    seat = await db.join(lobby.id, CAROL)
    assert (seat.game_id, seat.seat, seat.user_id) == (lobby.id, 2, CAROL)
    assert await seating(db, lobby.id) == [(0, ALICE), (1, BOB), (2, CAROL)]


async def test_join_twice_raises_already_seated(db: Database, lobby: GameRow) -> None:
    with pytest.raises(AlreadySeated):
        await db.join(lobby.id, BOB)


async def test_join_a_full_game_raises_game_full(db: Database, lobby: GameRow) -> None:
    with pytest.raises(GameFull, match="2 players"):
        await db.join(lobby.id, CAROL, max_seats=2)
    assert await seating(db, lobby.id) == [(0, ALICE), (1, BOB)]


async def test_join_a_running_game_raises_wrong_status(db: Database, running: GameRow) -> None:
    with pytest.raises(WrongStatus, match="only be done while it is lobby"):
        await db.join(running.id, CAROL)


async def test_join_an_unknown_game_raises_game_not_found(db: Database) -> None:
    with pytest.raises(GameNotFound):
        await db.join(999, CAROL)


async def test_leave_renumbers_the_remaining_seats(db: Database, lobby: GameRow) -> None:
    await db.join(lobby.id, CAROL)
    await db.join(lobby.id, DAVE)
    assert await db.leave(lobby.id, BOB)
    assert await seating(db, lobby.id) == [(0, ALICE), (1, CAROL), (2, DAVE)]


async def test_leave_of_seat_zero_moves_everyone_up(db: Database, lobby: GameRow) -> None:
    assert await db.leave(lobby.id, ALICE)
    assert await seating(db, lobby.id) == [(0, BOB)]


async def test_leave_keeps_when_each_player_joined(db: Database, lobby: GameRow) -> None:
    before = {seat.user_id: seat.joined_at for seat in await db.seats(lobby.id)}
    await db.leave(lobby.id, ALICE)
    assert {seat.user_id: seat.joined_at for seat in await db.seats(lobby.id)} == {BOB: before[BOB]}


async def test_leave_returns_false_for_a_player_not_seated(db: Database, lobby: GameRow) -> None:
    assert not await db.leave(lobby.id, CAROL)
    assert await seating(db, lobby.id) == [(0, ALICE), (1, BOB)]


async def test_leave_of_the_last_player_leaves_an_empty_lobby(db: Database, lobby: GameRow) -> None:
    assert await db.leave(lobby.id, BOB)
    assert await db.leave(lobby.id, ALICE)
    assert await db.seats(lobby.id) == []


async def test_join_after_leave_takes_the_seat_after_the_last(db: Database, lobby: GameRow) -> None:
    await db.leave(lobby.id, ALICE)
    seat = await db.join(lobby.id, CAROL)
    assert seat.seat == 1


async def test_leave_a_running_game_raises_wrong_status(db: Database, running: GameRow) -> None:
    with pytest.raises(WrongStatus):
        await db.leave(running.id, BOB)
    assert await seating(db, running.id) == [(0, ALICE), (1, BOB)]
