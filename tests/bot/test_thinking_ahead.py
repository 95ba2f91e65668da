"""Computers think while a person thinks (services/computer_turns.py, ``Foresight``): the computer's turn
is searched, in the workers, for the positions a person's likely turns lead to; a person's move
that leads to one of them is answered by that search, any other by a fresh one. Through the real
bot, the emulator, a SQLite file and the real worker pools."""

from __future__ import annotations

import asyncio
import random

import pytest

from ai.guess import likely_turns
from ai.ismcts import playable
from ai.turn_budgets import move_seed, play_turn
from bot.client import MeepleBot
from emulator.testing import running
from engine import GAMES, State
from services.computer_turns import GUESSES, Ahead, ComputerTurns, Foresight
from tests.bot.test_discord_computers import FAST, no_replays, open_with_computers  # noqa: F401
from tests.support.stored import stored


class Counted:
    """Counts the searches that count (not the searches ahead) the bot's computers make."""

    def __init__(self, bot: MeepleBot) -> None:
        self.calls = 0
        computers = bot.computers
        assert computers is not None
        real = computers.play_turn

        async def counting(*args, **kwargs):
            self.calls += 1
            return await real(*args, **kwargs)

        computers.play_turn = counting  # type: ignore[method-assign]


async def alice_to_move(bot: MeepleBot, game_id: int) -> tuple[State, int]:
    """Wait until the computers have played and searched ahead; the state Alice moves in."""
    turns = bot.flow.computer_turns
    assert turns is not None
    service = bot.flow.service
    for _ in range(200):
        await turns.idle()
        await turns.foreseen()
        row = await service.get(game_id)
        state = await service.state(row)
        if state.to_move() == [0]:
            return state, row.seed
        await asyncio.sleep(0.02)
    raise AssertionError("Alice's turn did not come")


async def play(bot: MeepleBot, game_id: int, state: State, moves: list[str]) -> None:
    service = bot.flow.service
    users = await service.seat_users(game_id)
    version = state.version
    for text in moves:
        result = await service.act(game_id, users[0], version, text)
        version = result.state.version
        await bot.flow.after_move(result)


def guessed_position(state: State, seed: int) -> tuple[list[str], State] | None:
    """Alice's likeliest turn after which the computer alone is to move, and the position it
    leads to (as the bot guesses it: the same function and seed)."""
    for turn in likely_turns(state, 0, GUESSES, move_seed(seed, state.version, 0)):
        world = GAMES[state.game.id].load(state.to_dict())
        for action in turn:
            world.apply(0, action)
        if world.outcome() is None and world.to_move() == [1]:
            return [a.text for a in turn], world
    return None


def computer_moves_after(database, game_id: int, version: int) -> list[str]:
    rows = stored(
        database,
        "SELECT seat, action FROM actions WHERE game_id = ? AND version > ? ORDER BY version",
        (game_id, version),
    )
    moves = []
    for row in rows:
        if row["seat"] != 1:
            break
        moves.append(row["action"])
    return moves


async def test_a_move_into_a_position_searched_ahead_is_answered_without_a_new_search(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, computer_delay=FAST)) as bot:
        await open_with_computers(emu, world, "vivarium", 1, "easy")
        game_id = stored(config.database, "SELECT id FROM games")[0][0]
        searches = Counted(bot)
        turns = bot.flow.computer_turns
        rng = random.Random(3)
        for _ in range(30):
            state, seed = await alice_to_move(bot, game_id)
            guessed = guessed_position(state, seed)
            foresight = turns._foresight.get(game_id)
            if guessed is not None and foresight is not None:
                moves, position = guessed
                assert any(g.fits(position, 1) for g in foresight.guesses), "searched while Alice thought"
                fresh = [a.text for a in play_turn(position, 1, "easy", seed)]
                before = searches.calls
                await play(bot, game_id, state, moves)
                await turns.idle()
                assert searches.calls == before, "no new search"
                assert turns.guess_played == 1 and turns.guess_missed == 0
                # Honesty: exactly the turn a fresh search of that position makes.
                assert computer_moves_after(config.database, game_id, position.version) == fresh
                return
            await play(bot, game_id, state, [str(rng.choice(playable(state, 0)))])
        raise AssertionError("no turn of Alice's was guessed")


async def test_a_move_elsewhere_discards_what_was_searched_and_searches_afresh(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, computer_delay=FAST)) as bot:
        await open_with_computers(emu, world, "vivarium", 1, "easy")
        game_id = stored(config.database, "SELECT id FROM games")[0][0]
        searches = Counted(bot)
        turns = bot.flow.computer_turns
        for _ in range(30):
            state, seed = await alice_to_move(bot, game_id)
            foresight = turns._foresight.get(game_id)
            # A one-move turn of Alice's that leads to none of the positions searched.
            other = None
            for action in playable(state, 0):
                world_after = GAMES["vivarium"].load(state.to_dict())
                world_after.apply(0, action)
                if world_after.to_move() == [1] and not any(g.fits(world_after, 1) for g in foresight.guesses):
                    other = (action.text, world_after)
                    break
            if foresight is not None and foresight.guesses and other is not None:
                searched = list(foresight.guesses)
                text, position = other
                before = searches.calls
                await play(bot, game_id, state, [text])
                await turns.idle()
                assert searches.calls == before + 1, "searched afresh"
                assert turns.guess_played == 0 and turns.guess_missed == 1
                assert all(g.turn.done() for g in searched), "the searches ahead were dropped"
                assert computer_moves_after(config.database, game_id, position.version) == [
                    a.text for a in play_turn(position, 1, "easy", seed)
                ]
                return
            await play(bot, game_id, state, [str(playable(state, 0)[0])])
        raise AssertionError("no position to test in")


async def test_the_end_of_a_game_drops_what_was_searched_for_it(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, computer_delay=FAST)) as bot:
        await open_with_computers(emu, world, "vivarium", 1, "easy")
        game_id = stored(config.database, "SELECT id FROM games")[0][0]
        turns = bot.flow.computer_turns
        await alice_to_move(bot, game_id)
        foresight = turns._foresight[game_id]
        assert foresight.guesses, "searched while Alice thought"
        result = await bot.flow.service.resign(game_id, world.alice.id)
        await bot.flow.after_move(result)
        await turns.idle()
        assert game_id not in turns._foresight
        assert all(g.turn.done() for g in foresight.guesses) or not foresight.guesses


# -- with fakes: when a search ahead may start --------------------------------------------------


class Busy:
    """Pictures with a drawing under way until ``idle`` is set."""

    def __init__(self) -> None:
        self.idle = False


class Pool:
    """The computers' pool, free, recording the searches ahead it starts."""

    workers = 1
    free = True

    def __init__(self) -> None:
        self.started: list[int] = []

    async def speculate_turn(self, state: State, seat: int, level: str, game_seed: int) -> list[str]:
        self.started.append(state.version)
        return ["ahead"]


async def test_no_search_ahead_starts_while_a_drawing_is_under_way_or_waiting(monkeypatch) -> None:
    monkeypatch.setattr("services.computer_turns.FREE_POLL", 0.01)
    pictures = Busy()
    pool = Pool()
    turns = ComputerTurns(service=None, after_move=None, computers=pool, pictures=pictures, delay=0)  # type: ignore[arg-type]
    foresight = Foresight(version=5)
    turns._foresight[7] = foresight
    waiting = asyncio.ensure_future(turns._free(lambda: turns._foresight.get(7) is foresight))
    await asyncio.sleep(0.1)
    assert not waiting.done(), "it waits for the drawing"
    pictures.idle = True
    assert await waiting
    # A table that moves on while the drawing goes on: nothing is started for it.
    pictures.idle = False
    gone = asyncio.ensure_future(turns._free(lambda: turns._foresight.get(7) is foresight))
    await asyncio.sleep(0.05)
    del turns._foresight[7]
    assert await gone is False
    await turns.shutdown()


async def test_the_turns_kept_per_table_and_the_tables_are_bounded() -> None:
    turns = ComputerTurns(service=None, after_move=None, computers=Pool(), delay=0)  # type: ignore[arg-type]
    state = GAMES["vivarium"].new(2, 3, {})
    turns._foreseeing = asyncio.Future()  # a search ahead under way: none started here
    try:
        from services.computer_turns import FORESEEN

        for game_id in range(FORESEEN + 5):
            turns._want(game_id, state)
        assert len(turns._foresight) == FORESEEN
        assert list(turns._foresight)[0] == 5, "the least recently moved tables went first"
    finally:
        turns._foreseeing.cancel()


@pytest.mark.parametrize("moved", [+2, -1])
async def test_a_new_position_drops_the_turns_it_cannot_lead_to(moved: int) -> None:
    turns = ComputerTurns(service=None, after_move=None, computers=Pool(), delay=0)  # type: ignore[arg-type]
    state = GAMES["vivarium"].new(2, 3, {})
    turns._foreseeing = asyncio.Future()
    future = asyncio.ensure_future(asyncio.sleep(10))
    try:
        turns._foresight[4] = Foresight(state.version, [Ahead(state.version + 1, 1, {}, future)])
        later = GAMES["vivarium"].load(state.to_dict())
        later.version = state.version + moved  # a sub-step played on, or an undo
        turns._want(4, later)
        await asyncio.sleep(0)
        kept = turns._foresight[4].guesses
        if moved > 0:
            assert kept == [] and future.cancelled(), "its position is behind the table"
        else:
            assert len(kept) == 1 and not future.cancelled()
    finally:
        future.cancel()
        turns._foreseeing.cancel()


async def test_a_drawing_does_not_wait_for_a_search_ahead_with_one_worker_each() -> None:
    """One drawing worker and one computer's worker, a long search ahead under way: a board and a
    hand are drawn and come back while it still runs (it never holds a drawing's worker, and it
    yields the CPU to them: ai/pool.py)."""
    from ai.pool import Computers
    from services.pictures import Pictures
    from tests.ai.test_ismcts import position

    computers, pictures = Computers(1), Pictures(workers=1)
    try:
        state = position("noctiluca", 3, 72, 3)
        seat = state.to_move()[0]
        await computers.play_turn(state, seat, "easy", 1)  # the computer's worker started
        ahead = asyncio.ensure_future(computers.speculate_turn(state, seat, "hard", 2))
        await asyncio.sleep(0.1)
        names = ["Alice", "Bot 1", "Bot 2"]
        board = await pictures.board(1, "noctiluca", state.view(None), names, "en")
        hand = await pictures.hand(1, state.version, "noctiluca", state.view(0), names, 0, "en")
        assert board and hand
        assert not ahead.done(), "both drawn while the search ahead ran"
        assert await ahead == await computers.play_turn(state, seat, "hard", 2)
    finally:
        computers.close()
        pictures.close()
