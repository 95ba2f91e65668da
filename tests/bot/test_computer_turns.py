"""ComputerTurns (services/computer_turns.py) bounds how many tables' computers think at once: a restart
pokes every running table with a computer together, and they must not all load their states
and queue their searches at the same moment. Only the first computer after a person pauses; a
computer's turn searched ahead is played only in the very position it was searched for."""

from __future__ import annotations

import asyncio

from engine import GAMES, State
from services.computer_turns import CONCURRENCY, ComputerTurns


async def test_at_most_the_limit_of_tables_think_at_once_and_every_poked_table_plays_on() -> None:
    turns = ComputerTurns(service=None, after_move=None, computers=None, delay=0, concurrency=3)  # type: ignore[arg-type]
    thinking, peak, moves = 0, 0, dict.fromkeys(range(20), 0)

    async def one_move(game_id: int, pause: bool = True) -> bool:
        nonlocal thinking, peak
        thinking += 1
        peak = max(peak, thinking)
        await asyncio.sleep(0.005)
        thinking -= 1
        moves[game_id] += 1
        return moves[game_id] < 3  # each table's computers have three moves to make

    turns._one_turn = one_move  # type: ignore[method-assign]
    for game_id in range(20):
        turns.poke(game_id)
        turns.poke(game_id)  # a second poke of a table already being played is ignored
    await turns.idle()
    assert peak == 3
    assert all(count == 3 for count in moves.values())


def test_the_default_limit_grows_with_the_decision_workers() -> None:
    class Pool:
        workers = 7

    assert ComputerTurns(service=None, after_move=None, computers=Pool(), delay=0).concurrency == 14  # type: ignore[arg-type]
    assert ComputerTurns(service=None, after_move=None, computers=None, delay=0).concurrency == CONCURRENCY  # type: ignore[arg-type]


async def test_only_the_first_computer_after_a_person_pauses() -> None:
    turns = ComputerTurns(service=None, after_move=None, computers=None, delay=0)  # type: ignore[arg-type]
    pauses: list[bool] = []

    async def one_move(game_id: int, pause: bool = True) -> bool:
        pauses.append(pause)
        return len(pauses) < 4  # three computers move in a row, then a person is to move

    turns._one_turn = one_move  # type: ignore[method-assign]
    turns.poke(1)
    await turns.idle()
    assert pauses == [True, False, False, False]


LEVELS = {0: "easy", 1: "easy", 2: "easy"}


class Recorded:
    """The computers' pool, recording each search asked of it (its position) and answering a
    text that names it."""

    workers = 1

    def __init__(self) -> None:
        self.searched: list[tuple[int, int]] = []

    async def play_turn(self, state: State, seat: int, level: str, game_seed: int) -> list[str]:
        self.searched.append((state.version, seat))
        await asyncio.sleep(0)
        return [f"search {len(self.searched)}"]


def keeping() -> tuple[State, str, str]:
    """Noctiluca, three seats choosing their jars at once (computers, ``LEVELS``); a keep for
    seat 0 and one for seat 2."""
    state = GAMES["noctiluca"].new(3, 4, {})
    assert state.to_move() == [0, 1, 2]
    return state, state.legal_actions(0)[0].text, state.legal_actions(2)[0].text


async def test_a_turn_searched_ahead_is_played_in_the_position_it_was_searched_for() -> None:
    pool = Recorded()
    turns = ComputerTurns(service=None, after_move=None, computers=pool, delay=0)  # type: ignore[arg-type]
    state, first_keeps, _ = keeping()
    turns._think_ahead(7, state, 0, [first_keeps], LEVELS, 4)  # seat 1 is next
    after = GAMES["noctiluca"].load(state.to_dict())
    after.apply(0, first_keeps)  # seat 0's moves committed: the position searched
    assert await turns._decide(7, after, 1, "easy", 4) == ["search 1"]
    assert pool.searched == [(after.version, 1)], "searched once, ahead"
    assert turns.ahead_played == 1 and turns.ahead_discarded == 0


async def test_a_turn_searched_for_another_position_is_never_played() -> None:
    pool = Recorded()
    turns = ComputerTurns(service=None, after_move=None, computers=pool, delay=0)  # type: ignore[arg-type]
    # Seat 2 kept instead of seat 0: the same version as the position searched, and the same seat
    # to decide, but not the same position.
    state, first_keeps, last_keeps = keeping()
    turns._think_ahead(7, state, 0, [first_keeps], LEVELS, 4)
    await asyncio.sleep(0.01)  # the search ahead has answered
    other = GAMES["noctiluca"].load(state.to_dict())
    other.apply(2, last_keeps)
    assert other.version == state.version + 1
    assert await turns._decide(7, other, 1, "easy", 4) == ["search 2"]
    # An old version: the search ahead is for a position the table has left (an undo).
    turns._think_ahead(7, state, 0, [first_keeps], LEVELS, 4)
    await asyncio.sleep(0.01)
    assert await turns._decide(7, state, 0, "easy", 4) == ["search 4"]
    assert pool.searched == [(state.version + 1, 1), (other.version, 1), (state.version + 1, 1), (state.version, 0)]
    assert turns.ahead_played == 0 and turns.ahead_discarded == 2
    await turns.shutdown()


async def test_nothing_is_searched_ahead_where_a_person_is_to_move_too() -> None:
    pool = Recorded()
    turns = ComputerTurns(service=None, after_move=None, computers=pool, delay=0)  # type: ignore[arg-type]
    state, first_keeps, _ = keeping()
    turns._think_ahead(7, state, 0, [first_keeps], {0: "easy", 2: "easy"}, 4)  # seat 1: a person
    await asyncio.sleep(0.01)
    assert pool.searched == [] and 7 not in turns._ahead
