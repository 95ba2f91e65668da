"""At most 20 SQL statements per move, for each game, the move that ends it included: the whole path
of a click through the real bot (its cogs, the service, the delivery of the board and the DMs, the
jobs' bookkeeping; for the finishing move its results, ratings, the tournament check and the
replay's log) against the emulator, counted by ``meeple_db_statements_total`` (bench/statements.py
measures the same, for every player count)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.statements import LIMIT, measure

MOVES = 6


@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [("fox-duet", 2, 1), ("noctiluca", 3, 1), ("vivarium", 2, 1), ("tm-dice", 2, 1)],
)
async def test_an_ordinary_move_runs_at_most_20_statements(game: str, players: int, seed: int, tmp_path: Path) -> None:
    measured = await measure(game, players, MOVES, seed, tmp_path / "meeple.db", finish=False)
    assert len(measured.moves) == MOVES
    assert min(measured.moves) > 0, "the counter counted nothing: the moves did not reach the database"
    assert max(measured.moves) <= LIMIT, f"statements per move: {measured.moves}"


async def test_a_move_that_sends_a_private_dm_stays_within_20_statements(tmp_path: Path) -> None:
    # Terraforming Mars dice, the bench's seed 1: its eighth move draws cards, sent by DM.
    measured = await measure("tm-dice", 2, 8, 1, tmp_path / "meeple.db", finish=False)
    with_dms = [count for count, dms in zip(measured.moves, measured.dms, strict=True) if dms]
    assert with_dms, f"no move sent a DM: {measured.dms}"
    assert max(with_dms) <= LIMIT, f"statements per move: {measured.moves}, DMs: {measured.dms}"


@pytest.mark.parametrize("bot_database", ["postgres"], indirect=True)
async def test_on_postgresql_too(bot_database: Path | str, tmp_path: Path) -> None:
    measured = await measure("fox-duet", 2, 4, 1, bot_database, finish=False)
    assert len(measured.moves) == 4
    assert 0 < max(measured.moves) <= LIMIT, f"statements per move: {measured.moves}"


@pytest.mark.parametrize(
    ("game", "players"), [("fox-duet", 2), ("noctiluca", 2), ("vivarium", 2), ("tm-dice", 2), ("tm-dice", 1)]
)
async def test_the_finishing_move_runs_at_most_20_statements(game: str, players: int, tmp_path: Path) -> None:
    # Its results and ratings are stored in the move's own transaction (GameService.act).
    measured = await measure(game, players, 0, 1, tmp_path / "meeple.db")
    assert measured.finishing is not None, "the game did not end"
    assert 0 < measured.finishing <= LIMIT, f"the finishing move: {measured.finishing} statements"


@pytest.mark.parametrize("bot_database", ["postgres"], indirect=True)
async def test_the_finishing_move_on_postgresql_too(bot_database: Path | str, tmp_path: Path) -> None:
    measured = await measure("vivarium", 2, 0, 1, bot_database)
    assert measured.finishing is not None, "the game did not end"
    assert 0 < measured.finishing <= LIMIT, f"the finishing move: {measured.finishing} statements"
