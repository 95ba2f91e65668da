"""The move that ends a game stores its results and moves its ratings in its own transaction
(GameService.act and resign, Database.commit_move): once, whoever clicks twice; with the right
places for a resignation, a forfeit on time and a seat a computer took over."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from league.final_results import ranks
from league.refusal import Refusal
from services import computer_turns as computers
from services.game_service import GameService, MoveResult
from services.scheduler import automatic_action
from services.storage import Database, async_play

ALICE, BOB = 11, 22
GUILD, CHANNEL = 1, 500


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    db = await Database.open(tmp_path / "meeple.db")
    try:
        yield GameService(db)
    finally:
        await db.close()


async def started(service: GameService, game: str = "vivarium", seed: int = 7) -> int:
    row = await service.create(game, GUILD, CHANNEL, ALICE, "Alice", {}, seed=seed)
    await service.join(row.id, BOB, "Bob")
    await service.start(row.id, ALICE)
    return row.id


async def to_last_move(service: GameService, game_id: int, rng: random.Random) -> tuple[int, int, str]:
    """Play random moves until the next one would end the game: (its version, its user, its action)."""
    for _ in range(2000):
        row = await service.get(game_id)
        state = await service.state(row)
        users = await service.seat_users(game_id)
        seat = state.to_move()[0]
        actions = list(state.legal_actions(seat))
        for action in actions:
            probe = service.game(row.game).load(state.to_dict())
            probe.apply(seat, str(action))
            if probe.outcome() is not None:
                return row.version, users[seat], str(action)
        await service.act(game_id, users[seat], row.version, str(rng.choice(actions)))
    raise AssertionError("the game did not end")


async def results(db: Database, game_id: int) -> list[tuple[int, int, int, int, int]]:
    rows = await db.query(
        "SELECT seat, user_id, rank, won, forfeited FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return [tuple(r) for r in rows]


async def rated(db: Database, game_id: int) -> list[tuple[int, float]]:
    history = await db.query("SELECT user_id FROM rating_history WHERE game_id = ? ORDER BY user_id", (game_id,))
    ratings = await db.query("SELECT user_id, mu, games FROM ratings ORDER BY user_id")
    assert all(r["games"] == 1 for r in ratings), "a rating moved twice"
    assert [r[0] for r in history] == [r["user_id"] for r in ratings]
    return [(r["user_id"], r["mu"]) for r in ratings]


async def test_the_finishing_move_stores_results_and_ratings_itself(service: GameService) -> None:
    game_id = await started(service)
    version, user, action = await to_last_move(service, game_id, random.Random(1))
    result = await service.act(game_id, user, version, action)
    outcome = result.state.outcome()
    assert outcome is not None and result.results_recorded
    # Stored by the move alone: nothing after it (the board, Flow.after_move) has run.
    places = ranks(outcome)
    assert await results(service.db, game_id) == [
        (0, ALICE, places[0], int(0 in outcome.winners), 0),
        (1, BOB, places[1], int(1 in outcome.winners), 0),
    ]
    moved = await rated(service.db, game_id)
    assert len(moved) == 2
    # Its final board says so: the delivery, in whichever process, does not record them again.
    boards = await service.db.query(
        "SELECT version, payload FROM delivery_jobs WHERE game_id = ? AND kind = 'board' ORDER BY version", (game_id,)
    )
    assert [json.loads(b["payload"]).get("recorded", False) for b in boards] == [False] * (len(boards) - 1) + [True]
    assert boards[-1]["version"] == result.state.version
    # The once-only fallback (a final board delivered after a crash) changes nothing.
    row = await service.get(game_id)
    await async_play.record_results(service.db, row, [(0, ALICE, 0, 2, False, True), (1, BOB, 0, 1, True, False)])
    assert await results(service.db, game_id) == [
        (0, ALICE, places[0], int(0 in outcome.winners), 0),
        (1, BOB, places[1], int(1 in outcome.winners), 0),
    ]
    assert await rated(service.db, game_id) == moved


async def test_a_raced_finishing_click_records_once(service: GameService) -> None:
    game_id = await started(service)
    version, user, action = await to_last_move(service, game_id, random.Random(2))
    outcomes = await asyncio.gather(
        *(service.act(game_id, user, version, action) for _ in range(3)), return_exceptions=True
    )
    done = [o for o in outcomes if isinstance(o, MoveResult)]
    assert len(done) == 1 and done[0].results_recorded
    others = [o for o in outcomes if o not in done]
    assert all(isinstance(o, Refusal) and o.key in ("error.game-over", "error.stale-board") for o in others)
    # Another process's click at the same version (no shared lock): its guarded update matches
    # no row, so its transaction stores nothing.
    row = await service.get(game_id)
    assert row.state is not None and row.outcome is not None
    late = [(0, ALICE, 0, 1, True, False), (1, BOB, 0, 2, False, False)]
    assert await service.db.commit_move(game_id, version, 0, action, row.state, row.outcome, (), late) is None
    assert len(await results(service.db, game_id)) == 2
    assert len(await rated(service.db, game_id)) == 2
    with pytest.raises(Refusal):  # clicked again later: the game is over
        await service.act(game_id, user, version, action)
    assert len(await rated(service.db, game_id)) == 2


async def test_a_resignation_stores_the_resigner_last_and_forfeited(service: GameService) -> None:
    game_id = await started(service)
    result = await service.resign(game_id, BOB)
    assert result.results_recorded
    assert await results(service.db, game_id) == [(0, ALICE, 1, 1, 0), (1, BOB, 2, 0, 1)]
    assert len(await rated(service.db, game_id)) == 2


async def test_a_forfeit_on_time_that_ends_the_game_ranks_that_seat_last(service: GameService) -> None:
    # As the scheduler does: the rules' concession, played for the seat out of time.
    game_id = await started(service, "fox-duet")
    row = await service.get(game_id)
    state = await service.state(row)
    seat = state.to_move()[0]
    action, how = automatic_action(row, state, seat, "forfeit")
    assert how == "forfeit"
    users = await service.seat_users(game_id)
    result = await service.act(game_id, users[seat], row.version, str(action), forfeited={seat})
    assert result.state.outcome() is not None and result.results_recorded
    stored = {r[0]: r for r in await results(service.db, game_id)}
    assert stored[seat] == (seat, users[seat], 2, 0, 1)
    assert stored[1 - seat] == (1 - seat, users[1 - seat], 1, 0, 0)


async def test_a_seat_a_computer_took_over_is_a_forfeit_of_the_player_who_left(service: GameService) -> None:
    game_id = await started(service)
    await computers.take_over(service.db, game_id, 1, BOB, None)
    version, user, action = await to_last_move(service, game_id, random.Random(4))
    result = await service.act(game_id, user, version, action)
    assert result.results_recorded
    # Bob's result, not the computer's: last, forfeited, never a win; Alice wins whatever the score.
    assert await results(service.db, game_id) == [(0, ALICE, 1, 1, 0), (1, BOB, 2, 0, 1)]


async def test_a_move_that_does_not_finish_stores_no_results(service: GameService) -> None:
    game_id = await started(service)
    row = await service.get(game_id)
    state = await service.state(row)
    seat = state.to_move()[0]
    users = await service.seat_users(game_id)
    result = await service.act(game_id, users[seat], row.version, str(state.legal_actions(seat)[0]))
    assert not result.results_recorded
    assert await results(service.db, game_id) == []
