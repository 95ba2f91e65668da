"""One turn, one message, one mention, through the real bot and the emulator."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest

from bot.client import MeepleBot
from emulator.testing import running
from services.storage import jobs
from tests.bot.test_discord_noctiluca import open_table, start
from tests.support.driver import Table, is_board, mentioned, notified


@pytest.fixture(autouse=True)
def no_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    async def skip(flow, row, message, seats=None) -> None:
        return None

    monkeypatch.setattr("bot.history_ui.attach_replay", skip)


async def to_a_dive(table: Table) -> None:
    """Play (the jar choices, a first dive...) until a board asks someone to pick a shore."""
    for _ in range(40):
        if "Pick a free shore" in table.board().content:
            return
        await table.play_one()
    raise AssertionError("no dive began")


async def test_a_dive_is_one_message_edited_step_by_step_and_mentions_the_diver_once(emu, world, config_for) -> None:
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await start(emu, world, await open_table(emu, world), [world.alice, world.bob])
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        await to_a_dive(table)
        turn = table.board()
        diver = table.user(next(iter(notified(turn))))
        other = world.bob if diver == world.alice else world.alice
        assert notified(turn) == [diver.id], "a turn's message pings whose turn begins, and nobody else"
        boards = len(table.boards())
        version = (await bot.db.get_game(game_id)).version
        for step in ("pick a path", "name a number"):
            await table.play_one()
            assert table.board().id == turn.id and len(table.boards()) == boards, "a step edits the turn's message"
            assert step in turn.content and notified(turn) == [diver.id]
        edits = turn.edit_count
        assert edits == 2 and "puts a pawn on shore" in turn.content  # what happened in the turn stays on it
        # The dive ends (the diver stores, others may be asked in the passing round): whoever
        # must act next is pinged once, by a new message; nobody is pinged by an edit.
        for _ in range(12):
            if other.id in [u for m in table.boards()[boards:] for u in notified(m)]:
                break
            await table.play_one()
        later = table.boards()[boards:]
        assert later, "the next turn is a new message"
        assert all(diver.id not in notified(m) for m in later if "Pick a free shore" not in m.content)
        assert sum(notified(m).count(other.id) for m in later) == 1
        # The record keeps every step: the log has each action, one by one.
        row = await bot.db.get_game(game_id)
        assert len(await bot.db.actions(game_id, after_version=version)) == row.version - version


async def test_quick_steps_of_a_turn_are_coalesced_into_paced_edits(emu, world, config_for, monkeypatch) -> None:
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
    patched: list[float] = []
    original = emu.service.edit_message

    def timed(message, body, **kwargs):
        if is_board(message):
            patched.append(time.monotonic())
        return original(message, body, **kwargs)

    monkeypatch.setattr(emu.service, "edit_message", timed)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await start(emu, world, await open_table(emu, world), [world.alice, world.bob])
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        await to_a_dive(table)
        turn = table.board()
        flow = bot.flow
        flow.delivery.edit_pace = 1.0
        boards = len(table.boards())
        users = await flow.service.seat_users(game_id)

        async def step() -> None:
            state = await flow.service.state(await bot.db.get_game(game_id))
            seat = state.to_move()[0]
            result = await flow.service.act(game_id, users[seat], None, state.legal_actions(seat)[0].text)
            await flow.after_move(result)

        patched.clear()
        await step()  # the shore: its edit goes out (after the pace, if the turn's post was just now)
        await emu.wait_until(lambda: len(patched) == 1, what="the shore's edit")
        assert "puts a pawn on shore" in turn.content
        flow.answer_wait = 0  # the next two steps come as fast as the service takes them
        await step()  # the path: its edit must wait for the channel's pace...
        await step()  # ...and meanwhile the number takes its place
        await flow.delivery.caught_up()
        posted = table.boards()[boards:]
        assert len(patched) + len(posted) == 2, "three quick steps, two board writes"
        assert all(b - a >= 0.95 for a, b in zip(patched, patched[1:], strict=False)), patched
        shown = "\n".join(m.content for m in [turn, *posted])
        assert "looks along the" in shown, "the line of the step coalesced away still shows"
        assert not await jobs.pending(bot.db, game_id)
        assert "skipped" in [j.status for j in await jobs_of(bot, game_id)]


async def jobs_of(bot, game_id: int) -> list[jobs.Job]:
    rows = await bot.db.query("SELECT * FROM delivery_jobs WHERE game_id = ? ORDER BY id", (game_id,))
    return [jobs.Job.from_row(row) for row in rows]


async def test_a_board_posted_whose_bookkeeping_was_lost_is_not_posted_again_after_a_restart(
    emu, world, config_for, monkeypatch
) -> None:
    config = config_for(emu, world.guild.id)
    real_complete = jobs.complete_all

    async def lost(db, job_ids, payloads=None) -> None:
        raise RuntimeError("the process died before writing down what it delivered")

    async with running(emu, MeepleBot(config)) as bot:
        lobby = await open_table(emu, world)
        monkeypatch.setattr(jobs, "complete_all", lost)
        await start(emu, world, lobby, [world.alice, world.bob])
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        await bot.flow.delivery.caught_up()
        assert [j.kind for j in await jobs.pending(bot.db, game_id)][:1] == ["board"]
    boards = [m for m in emu.messages(world.channel) if is_board(m)]
    assert len(boards) == 1
    monkeypatch.setattr(jobs, "complete_all", real_complete)
    async with running(emu, MeepleBot(config)) as bot:
        await emu.wait_until(lambda: True)
        for _ in range(100):
            await bot.flow.delivery.caught_up()
            if not await jobs.pending(bot.db, game_id):
                break
        assert not await jobs.pending(bot.db, game_id)
        again = [m for m in emu.messages(world.channel) if is_board(m)]
        assert [m.id for m in again] == [boards[0].id], "Discord knew the post's nonce: no second board"
        assert (await bot.db.get_game(game_id)).board_message_id == boards[0].id


async def test_a_turns_message_gone_or_too_old_is_followed_by_a_new_one_that_pings_nobody(
    emu, world, config_for
) -> None:
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await start(emu, world, await open_table(emu, world), [world.alice, world.bob])
        await to_a_dive(table)
        turn = table.board()
        diver = notified(turn)
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        flow = bot.flow

        async def step() -> None:  # the diver's next step, as a click makes it
            state = await flow.service.state(await bot.db.get_game(game_id))
            seat = state.to_move()[0]
            users = await flow.service.seat_users(game_id)
            await flow.after_move(await flow.service.act(game_id, users[seat], None, state.legal_actions(seat)[0].text))
            await flow.delivery.caught_up()  # an edit may wait for the channel's pace

        emu.service.delete_message(turn)  # a moderator deleted it: Discord refuses the edit (10008)
        await step()  # the shore
        after = table.board()
        assert after.id != turn.id and "pick a path" in after.content and "puts a pawn on shore" in after.content
        assert notified(after) == [], "the diver's turn goes on: nobody is pinged"
        flow.delivery.edit_age = timedelta(0)  # every message is now too old to edit (error 30046)
        await step()  # the path
        last = table.board()
        assert last.id != after.id and "name a number" in last.content and notified(last) == []
        assert after.edit_count == 0 and mentioned(last) == diver
