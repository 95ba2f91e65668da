"""ComputerTurns (bot/computers.py) bounds how many tables' computers think at once: a restart
pokes every running table with a computer together, and they must not all load their states
and queue their searches at the same moment."""

from __future__ import annotations

import asyncio

from bot.computers import CONCURRENCY, ComputerTurns


async def test_at_most_the_limit_of_tables_think_at_once_and_every_poked_table_plays_on() -> None:
    turns = ComputerTurns(flow=None, computers=None, delay=0, concurrency=3)  # type: ignore[arg-type]
    thinking, peak, moves = 0, 0, dict.fromkeys(range(20), 0)

    async def one_move(game_id: int) -> bool:
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

    assert ComputerTurns(flow=None, computers=Pool(), delay=0).concurrency == 14  # type: ignore[arg-type]
    assert ComputerTurns(flow=None, computers=None, delay=0).concurrency == CONCURRENCY  # type: ignore[arg-type]
