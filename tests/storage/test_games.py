"""Games: creation, one active game per channel, start, abandon and bookkeeping."""

from __future__ import annotations

import sqlite3
from datetime import UTC

import pytest

from services.storage import ChannelBusy, Database, GameNotFound, GameRow, WrongStatus
from tests.storage.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, play

pytestmark = pytest.mark.asyncio


async def test_create_game_opens_a_lobby_with_the_creator_in_seat_zero(db: Database) -> None:
    row = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {"variant": "basic"}, seed=42)
    assert (row.game, row.guild_id, row.channel_id, row.creator_id) == ("fox-duet", GUILD, CHANNEL, ALICE)
    assert (row.status, row.version, row.state, row.outcome) == ("lobby", 0, None, None)
    assert (row.options, row.seed) == ({"variant": "basic"}, 42)
    assert row.created_at.tzinfo == UTC and row.finished_at is None
    assert [(seat.seat, seat.user_id) for seat in await db.seats(row.id)] == [(0, ALICE)]


async def test_create_game_without_a_guild_is_allowed(db: Database) -> None:
    row = await db.create_game("fox-duet", None, CHANNEL, ALICE, {}, seed=1)
    assert row.guild_id is None


async def test_second_game_in_the_same_channel_is_refused(db: Database, lobby: GameRow) -> None:
    with pytest.raises(ChannelBusy) as refused:
        await db.create_game("fox-duet", GUILD, CHANNEL, CAROL, {}, seed=1)
    assert refused.value.game_id == lobby.id


async def test_database_itself_refuses_a_second_active_game_in_a_channel(db: Database, lobby: GameRow) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO games (game, channel_id, seed, creator_id) VALUES ('fox-duet', ?, 1, ?)", (CHANNEL, CAROL)
            )


async def test_new_game_is_allowed_in_a_channel_after_abandon(db: Database, lobby: GameRow) -> None:
    assert await db.abandon(lobby.id)
    row = await db.create_game("fox-duet", GUILD, CHANNEL, CAROL, {}, seed=1)
    assert (await db.active_game_in_channel(CHANNEL)) == row


async def test_new_game_is_allowed_in_a_channel_after_finish(db: Database, running: GameRow) -> None:
    assert await db.commit_move(running.id, 0, 0, "win", {"step": 1}, {"winners": [0]})
    row = await db.create_game("fox-duet", GUILD, CHANNEL, CAROL, {}, seed=1)
    assert row.status == "lobby"


async def test_games_in_other_channels_do_not_conflict(db: Database, lobby: GameRow) -> None:
    other = await db.create_game("fox-duet", GUILD, CHANNEL + 1, ALICE, {}, seed=1)
    assert other.id != lobby.id


async def test_invalid_game_id_is_refused_by_the_schema(db: Database) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        await db.create_game("Fox Duet!", GUILD, CHANNEL, ALICE, {}, seed=1)


async def test_get_game_returns_none_for_an_unknown_id(db: Database) -> None:
    assert await db.get_game(999) is None


async def test_start_game_stores_the_state_at_version_zero(db: Database, lobby: GameRow) -> None:
    row = await db.start_game(lobby.id, {"step": 0, "deck": [1, 2, 3]})
    assert (row.status, row.version, row.state) == ("running", 0, {"step": 0, "deck": [1, 2, 3]})
    assert await db.latest_snapshot(lobby.id) == (0, {"step": 0, "deck": [1, 2, 3]})
    assert await db.running_games() == [row]


async def test_start_game_applies_the_seat_order(db: Database, lobby: GameRow) -> None:
    await db.join(lobby.id, CAROL)
    await db.start_game(lobby.id, {"step": 0}, seat_order=[CAROL, ALICE, BOB])
    assert [(seat.seat, seat.user_id) for seat in await db.seats(lobby.id)] == [(0, CAROL), (1, ALICE), (2, BOB)]


async def test_start_game_refuses_a_seat_order_that_is_not_a_permutation(db: Database, lobby: GameRow) -> None:
    with pytest.raises(ValueError, match="every seated player"):
        await db.start_game(lobby.id, {"step": 0}, seat_order=[ALICE, ALICE])
    row = await db.get_game(lobby.id)
    assert row is not None and row.status == "lobby"
    assert [seat.user_id for seat in await db.seats(lobby.id)] == [ALICE, BOB]


async def test_start_game_refuses_a_game_that_is_not_a_lobby(db: Database, running: GameRow) -> None:
    with pytest.raises(WrongStatus, match="running"):
        await db.start_game(running.id, {"step": 0})


async def test_abandon_ends_a_running_game_without_outcome(db: Database, running: GameRow) -> None:
    assert await db.abandon(running.id)
    row = await db.get_game(running.id)
    assert row is not None
    assert (row.status, row.outcome, row.state) == ("abandoned", None, {"step": 0})
    assert row.finished_at is not None and not row.active
    assert await db.running_games() == []


async def test_abandon_returns_false_for_a_game_already_over(db: Database, lobby: GameRow) -> None:
    assert await db.abandon(lobby.id)
    assert not await db.abandon(lobby.id)


async def test_abandon_raises_for_an_unknown_game(db: Database) -> None:
    with pytest.raises(GameNotFound):
        await db.abandon(999)


async def test_set_message_records_the_lobby_and_board_messages(db: Database, lobby: GameRow) -> None:
    await db.set_message(lobby.id, "lobby", 5001)
    await db.set_message(lobby.id, "board", 5002)
    row = await db.get_game(lobby.id)
    assert row is not None and (row.lobby_message_id, row.board_message_id) == (5001, 5002)
    assert row.updated_at == lobby.updated_at
    await db.set_message(lobby.id, "lobby", None)
    row = await db.get_game(lobby.id)
    assert row is not None and row.lobby_message_id is None


async def test_set_board_records_the_message_and_the_version_it_shows(db: Database, running: GameRow) -> None:
    await play(db, running.id, 2)
    await db.set_board(running.id, 6001, 2)
    row = await db.get_game(running.id)
    assert row is not None and (row.board_message_id, row.board_version, row.version) == (6001, 2, 2)


async def test_set_board_refuses_a_version_the_game_has_not_reached(db: Database, running: GameRow) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        await db.set_board(running.id, 6001, 1)


async def test_set_message_raises_for_an_unknown_game(db: Database) -> None:
    with pytest.raises(GameNotFound):
        await db.set_message(999, "board", 1)


async def test_set_options_replaces_the_options_of_a_lobby(db: Database, lobby: GameRow) -> None:
    row = await db.set_options(lobby.id, {"variant": "advanced", "rounds": 3})
    assert row.options == {"variant": "advanced", "rounds": 3}


async def test_set_options_refuses_a_started_game(db: Database, running: GameRow) -> None:
    with pytest.raises(WrongStatus):
        await db.set_options(running.id, {"variant": "advanced"})
