"""Boards and hands drawn in worker processes: same bytes, coalesced boards, cached hands, dead workers replaced."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import render
from bot.client import MeepleBot
from emulator.testing import running
from engine import GAMES, State
from services.pictures import Pictures, Superseded, _Job
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import Table, action_buttons, mentioned, shown

NAMES = ["🦊Zoë", "林小明"]


def fox_states(moves: int, seed: int = 4) -> Iterator[State]:
    """A seeded Fox Duet game, each state after one more move."""
    game = GAMES["fox-duet"]
    state = game.new(2, seed)
    chooser = random.Random(seed)
    yield state
    for _ in range(moves):
        seat = state.to_move()[0]
        state = game.load(state.to_dict())
        legal = [a for a in state.legal_actions(seat) if game.action_kind(a) not in ("concede", "resign")]
        state.apply(seat, chooser.choice(legal))
        yield state


class GatedPictures(Pictures):
    """Pictures whose boards wait for ``gate``: a test holds the workers busy for as long as it likes."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.gate = asyncio.Event()

    async def _draw(self, job: _Job) -> bytes:
        if job.kind == "board":
            await self.gate.wait()
        return await super()._draw(job)


async def test_the_pool_draws_the_same_bytes_as_the_bot_process() -> None:
    pictures = Pictures(workers=1)
    try:
        state = list(fox_states(3))[-1]
        for loc in ("en", "zh-TW"):
            board = await pictures.board(7, "fox-duet", state.view(None), NAMES, loc)
            assert board == render.render_board("fox-duet", state.view(None), NAMES, loc)
            hand = await pictures.hand(7, state.version, "fox-duet", state.view(1), NAMES, 1, loc)
            assert hand == render.render_hand("fox-duet", state.view(1), NAMES, 1, loc)
        assert pictures.pids(), "drawn in a worker process, not in this one"
    finally:
        pictures.close()


async def test_three_queued_boards_of_a_game_draw_only_the_latest() -> None:
    pictures = GatedPictures(workers=1)
    try:
        first, *moves = list(fox_states(3))
        # Another game's board holds the one worker; the game's three boards wait behind it.
        other = asyncio.create_task(pictures.board(99, "fox-duet", first.view(None), NAMES, "en", latest=True))
        await asyncio.sleep(0)
        queued = []
        for state in moves:
            queued.append(
                asyncio.create_task(pictures.board(1, "fox-duet", state.view(None), NAMES, "en", latest=True))
            )
            await asyncio.sleep(0)
        assert pictures.waiting == 1  # one board per game waits, the latest
        pictures.gate.set()
        results = await asyncio.gather(other, *queued, return_exceptions=True)
        assert isinstance(results[1], Superseded) and isinstance(results[2], Superseded)
        assert results[3] == render.render_board("fox-duet", moves[-1].view(None), NAMES, "en")
        assert pictures.drawn["board"] == 2  # the other game's and the latest: the two older never drawn
    finally:
        pictures.close()


async def test_boards_not_posted_by_delivery_are_never_coalesced() -> None:
    pictures = GatedPictures(workers=1)
    try:
        states = list(fox_states(2))
        tasks = [
            asyncio.create_task(pictures.board(1, "fox-duet", s.view(None), NAMES, "en", latest=False)) for s in states
        ]
        await asyncio.sleep(0)
        pictures.gate.set()
        pngs = await asyncio.gather(*tasks)
        assert pngs == [render.render_board("fox-duet", s.view(None), NAMES, "en") for s in states]
    finally:
        pictures.close()


async def test_a_hand_is_drawn_once_per_version_and_again_after_a_move() -> None:
    pictures = Pictures(workers=0)  # the cache is the same whichever way the drawing goes
    before, after = list(fox_states(1))
    first = await pictures.hand(3, before.version, "fox-duet", before.view(0), NAMES, 0, "en")
    again = await pictures.hand(3, before.version, "fox-duet", before.view(0), NAMES, 0, "en")
    assert again is first and pictures.drawn["hand"] == 1
    moved = await pictures.hand(3, after.version, "fox-duet", after.view(0), NAMES, 0, "en")
    assert pictures.drawn["hand"] == 2
    assert moved == render.render_hand("fox-duet", after.view(0), NAMES, 0, "en")
    # Another language, another seat, another game: each its own picture.
    await pictures.hand(3, after.version, "fox-duet", after.view(0), NAMES, 0, "pt-BR")
    await pictures.hand(3, after.version, "fox-duet", after.view(1), NAMES, 1, "en")
    assert pictures.drawn["hand"] == 4


async def test_a_hand_cached_before_an_undo_is_not_shown_for_the_other_move_at_that_version() -> None:
    """An undo goes back a version, and a different move then reaches the same version number."""
    game = GAMES["fox-duet"]
    start = game.new(2, 5)
    seat = start.to_move()[0]
    legal = start.legal_actions(seat)
    one, two = game.load(start.to_dict()), game.load(start.to_dict())
    one.apply(seat, legal[0])
    two.apply(seat, legal[1])
    assert one.version == two.version and one.view(seat) != two.view(seat)
    pictures = Pictures(workers=0)
    a = await pictures.hand(3, one.version, "fox-duet", one.view(seat), NAMES, seat, "en")
    b = await pictures.hand(3, two.version, "fox-duet", two.view(seat), NAMES, seat, "en")
    assert a != b and b == render.render_hand("fox-duet", two.view(seat), NAMES, seat, "en")


async def test_the_hand_cache_is_bounded() -> None:
    pictures = Pictures(workers=0, hand_cache=2)
    states = list(fox_states(3))
    for state in states:
        await pictures.hand(3, state.version, "fox-duet", state.view(0), NAMES, 0, "en")
    assert len(pictures._cache) == 2
    await pictures.hand(3, states[0].version, "fox-duet", states[0].view(0), NAMES, 0, "en")
    assert pictures.drawn["hand"] == 5  # the oldest was let go, so drawn again


async def test_a_killed_worker_is_replaced_and_the_board_still_drawn() -> None:
    pictures = Pictures(workers=1)
    try:
        state = list(fox_states(2))[-1]
        await pictures.board(1, "fox-duet", state.view(None), NAMES, "en")
        (pid,) = pictures.pids()
        os.kill(pid, signal.SIGKILL)
        png = await pictures.board(1, "fox-duet", state.view(None), NAMES, "en", latest=True)
        assert png == render.render_board("fox-duet", state.view(None), NAMES, "en")
        assert pictures.pids() and pid not in pictures.pids()
    finally:
        pictures.close()


async def test_a_closed_pool_refuses_and_fails_what_waits() -> None:
    pictures = GatedPictures(workers=1)
    state = next(fox_states(0))
    running_one = asyncio.create_task(pictures.board(1, "fox-duet", state.view(None), NAMES, "en"))
    waiting = asyncio.create_task(pictures.board(2, "fox-duet", state.view(None), NAMES, "en"))
    await asyncio.sleep(0)
    pictures.close()
    with pytest.raises(RuntimeError):
        await waiting
    running_one.cancel()
    with pytest.raises(RuntimeError):
        await pictures.board(1, "fox-duet", state.view(None), NAMES, "en")


# -- through the emulator -------------------------------------------------------------------


async def test_a_full_drawing_queue_answers_the_click_at_once_and_the_board_follows(emu, world, config_for) -> None:
    config = dataclasses.replace(config_for(emu, world.guild.id), render_workers=1)
    async with running(emu, MeepleBot(config)) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
        await emu.wait_until(lambda: bool(table.boards()), timeout=30, what="the first board")
        first = table.board()
        before = shown(first)
        gated = GatedPictures(workers=1, queue=1)
        bot.flow.pictures.close()
        bot.flow.pictures = gated
        bot.flow.answer_wait = 3600  # a click that waited for its board would never be answered here
        mover = table.user(mentioned(first)[0])
        hand = await emu.click(mover, first, label="My hand")
        panel = (await hand.followups(1, timeout=30))[0]
        # Another table's boards fill the queue: one in the worker, one waiting.
        state = next(fox_states(0))
        fillers = [
            asyncio.create_task(gated.board(game, "fox-duet", state.view(None), NAMES, "en")) for game in (901, 902)
        ]
        await asyncio.sleep(0)
        assert gated.busy
        if buttons := action_buttons(panel):
            clicked = await emu.click(mover, panel, custom_id=buttons[0]["custom_id"])
        else:
            menu = panel.selects()[0]
            clicked = await emu.select(mover, panel, menu["custom_id"], [menu["options"][0]["value"]])
        answer = (await clicked.followups(1, timeout=30))[0]
        assert answer.content.startswith("Done"), answer.content
        # Answered while nothing could be drawn: the board is on its way, not posted yet.
        assert "on its way" in answer.content
        assert table.board().id == first.id and shown(first) == before
        gated.gate.set()
        # A new message when the move began a turn, else the turn's message edited (the deal decides).
        await emu.wait_until(lambda: shown(table.board()) != before, timeout=30, what="the board after the move")
        await asyncio.gather(*fillers)
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        await bot.flow.delivery.caught_up()
        row = await bot.db.get_game(game_id)
        assert row.board_version == row.version == 1 and row.board_message_id == table.board().id


async def test_a_killed_worker_does_not_lose_the_board(emu, world, config_for) -> None:
    config = dataclasses.replace(config_for(emu, world.guild.id), render_workers=1)
    async with running(emu, MeepleBot(config)) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
        await emu.wait_until(lambda: bool(table.boards()), timeout=30, what="the first board")
        (pid,) = bot.flow.pictures.pids()
        os.kill(pid, signal.SIGKILL)
        before = shown(table.board())
        await table.play_one()  # waits for the move's board: a new message, or the turn's edited
        assert shown(table.board()) != before
        assert pid not in bot.flow.pictures.pids()
        for _ in range(2):
            await table.play_one()
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        await bot.flow.delivery.caught_up()
        row = await bot.db.get_game(game_id)
        assert row.board_version == row.version == 3


KILLED_BOT = """
import asyncio, os, sys
from services.pictures import Pictures
from engine import GAMES

async def main():
    pictures = Pictures(workers=1)
    state = GAMES["fox-duet"].new(2, 1)
    await pictures.board(1, "fox-duet", state.view(None), ["a", "b"], "en")
    print(" ".join(str(pid) for pid in pictures.pids()), flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_workers_leave_when_the_bot_is_killed_hard() -> None:
    """SIGKILL or the OOM killer give the bot no chance to stop its pool; the workers stop by themselves."""
    root = Path(__file__).resolve().parents[2]
    bot = subprocess.Popen([sys.executable, "-c", KILLED_BOT], cwd=root, stdout=subprocess.PIPE, text=True)
    pids: list[int] = []
    try:
        assert bot.stdout is not None
        pids = [int(pid) for pid in bot.stdout.readline().split()]
        assert pids
        bot.kill()
        bot.wait()
        for _ in range(300):  # a bound, not a timing: workers look every OWNER_CHECK seconds
            if all(gone(pid) for pid in pids):
                break
            time.sleep(0.1)
        assert all(gone(pid) for pid in pids), "a drawing worker outlived the bot"
    finally:
        bot.kill()
        for pid in pids:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)
