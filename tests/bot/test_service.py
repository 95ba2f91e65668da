"""The game service on a real SQLite file: seats, turns, stale boards, concurrency, restarts."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from engine import GAMES
from league.refusal import Refusal
from services.game_service import GameService
from services.storage import Database

ALICE, BOB, CAROL = 11, 22, 33
CHANNEL = 500


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    db = await Database.open(tmp_path / "meeple.db")
    try:
        yield GameService(db)
    finally:
        await db.close()


async def started(service: GameService, level: int = 1) -> int:
    row = await service.create("fox-duet", 1, CHANNEL, ALICE, "Alice", {"level": level})
    await service.join(row.id, BOB, "Bob")
    await service.start(row.id, ALICE)
    return row.id


async def refusal(coro) -> str:
    with pytest.raises(Refusal) as info:
        await coro
    return info.value.key


async def test_create_refuses_unknown_game_and_busy_channel(service: GameService) -> None:
    assert await refusal(service.create("chess", 1, CHANNEL, ALICE, "A", {})) == "error.unknown-game"
    await service.create("fox-duet", 1, CHANNEL, ALICE, "A", {})
    assert await refusal(service.create("fox-duet", 1, CHANNEL, BOB, "B", {})) == "error.channel-busy"


def test_options_text_is_parsed_and_checked(service: GameService) -> None:
    assert service.parse_options("fox-duet", "level=3") == {"level": 3, "memory": "off"}
    assert service.parse_options("fox-duet", None) == {"level": 1, "memory": "off"}
    with pytest.raises(Refusal) as bad_name:
        service.parse_options("fox-duet", "speed=9")
    assert bad_name.value.key == "error.bad-option"
    with pytest.raises(Refusal) as bad_value:
        service.parse_options("fox-duet", "level=9")
    assert bad_value.value.key == "error.bad-option-value"


async def test_table_full_and_double_join_are_refused(service: GameService) -> None:
    row = await service.create("fox-duet", 1, CHANNEL, ALICE, "A", {})
    assert await refusal(service.join(row.id, ALICE, "A")) == "error.already-seated"
    await service.join(row.id, BOB, "B")
    assert await refusal(service.join(row.id, CAROL, "C")) == "error.table-full"


async def test_start_needs_a_seated_player_and_the_right_count(service: GameService) -> None:
    row = await service.create("fox-duet", 1, CHANNEL, ALICE, "A", {})
    assert await refusal(service.start(row.id, ALICE)) == "error.player-count.exact"
    await service.join(row.id, BOB, "B")
    assert await refusal(service.start(row.id, CAROL)) == "error.not-seated"
    result = await service.start(row.id, BOB)
    assert result.row.status == "running" and result.state.version == 0
    assert await refusal(service.start(row.id, ALICE)) == "error.not-in-lobby"


async def test_only_the_creator_changes_options_in_the_lobby(service: GameService) -> None:
    row = await service.create("fox-duet", 1, CHANNEL, ALICE, "A", {})
    await service.join(row.id, BOB, "B")
    assert await refusal(service.set_option(row.id, BOB, "level", "2")) == "error.creator-only"
    assert (await service.set_option(row.id, ALICE, "level", "2")).options == {"level": 2, "memory": "off"}


async def test_strangers_wrong_turns_stale_boards_and_bad_moves_change_nothing(service: GameService) -> None:
    game_id = await started(service)
    row = await service.get(game_id)
    state = await service.state(row)
    mover = state.to_move()[0]
    waiting = 1 - mover
    users = [ALICE, BOB]
    before = state.to_dict()
    legal = str(state.legal_actions(mover)[0])
    assert await refusal(service.act(game_id, CAROL, 0, legal)) == "error.not-a-player"
    assert await refusal(service.act(game_id, users[waiting], 0, legal)) == "error.not-your-turn"
    assert await refusal(service.act(game_id, users[mover], 7, legal)) == "error.stale-board"
    assert await refusal(service.act(game_id, users[mover], 0, "play nothing-0")) == "error.illegal"
    row = await service.get(game_id)
    assert row.version == 0 and row.state == before
    assert await service.db.actions(game_id) == []


async def test_two_simultaneous_clicks_apply_exactly_one_move(service: GameService) -> None:
    game_id = await started(service)
    state = await service.state(await service.get(game_id))
    mover = state.to_move()[0]
    user = [ALICE, BOB][mover]
    first, second = (str(a) for a in state.legal_actions(mover)[:2])
    results = await asyncio.gather(
        service.act(game_id, user, 0, first), service.act(game_id, user, 0, second), return_exceptions=True
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(applied) == 1 and len(refused) == 1
    assert refused[0].key == "error.stale-board"
    assert (await service.get(game_id)).version == 1
    assert len(await service.db.actions(game_id)) == 1


async def test_a_whole_game_is_stored_and_survives_a_restart_between_any_two_moves(tmp_path: Path) -> None:
    path = tmp_path / "restart.db"
    db = await Database.open(path)
    service = GameService(db)
    game_id = await started(service)
    chooser = random.Random(3)
    users = [ALICE, BOB]
    moves = 0
    while True:
        row = await service.get(game_id)
        if row.status != "running":
            break
        state = await service.state(row)
        seat = chooser.choice(state.to_move())
        actions = [a for a in state.legal_actions(seat) if a.verb != "concede"]
        await service.act(game_id, users[seat], row.version, str(chooser.choice(actions)))
        moves += 1
        if moves % 10 == 0:  # a restart: a new process, a new connection, an empty cache
            await db.close()
            db = await Database.open(path)
            service = GameService(db)
    row = await service.get(game_id)
    assert row.status == "finished" and row.outcome is not None
    assert len(await db.actions(game_id)) == row.version == moves
    replay = GAMES["fox-duet"].new(2, row.seed, row.options)
    for entry in await db.actions(game_id):
        replay.apply(entry.seat, entry.action)
    assert replay.to_dict() == row.state
    await db.close()
