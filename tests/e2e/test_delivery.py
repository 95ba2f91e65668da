"""Durable delivery end to end: a board committed but not yet posted survives a hard kill."""

from __future__ import annotations

import asyncio
import random

from tests.bot.test_discord_noctiluca import open_table, start
from tests.e2e.conftest import BotProcess
from tests.e2e.test_fox_duet import game_row, open_and_start
from tests.support.driver import PROPOSAL, Table, action_buttons, ask_to_concede, mentioned, notified


def board_jobs(bot: BotProcess) -> list[tuple[int, str]]:
    return [
        (r["version"], r["status"])
        for r in bot.query("SELECT version, status FROM delivery_jobs WHERE kind = 'board' ORDER BY id")
    ]


async def test_a_kill_after_the_final_move_is_followed_by_the_final_board(emu, world, bot) -> None:
    await open_and_start(emu, world)
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(11))
    await table.play_one()
    mover = table.user(mentioned(table.board())[0])
    partner = world.bob if mover == world.alice else world.alice
    asked = await ask_to_concede(emu, world.channel, mover)  # the team concedes: the partner agrees below
    # Discord fails every board upload from now on: the final move commits, its board cannot go out.
    rule = emu.faults.fail(f"POST /channels/{world.channel.id}/messages", status=500, times=1_000_000)
    await emu.click(partner, asked, label=PROPOSAL)
    await emu.wait_until(lambda: rule.hits >= 1, what="the bot trying to post the final board")
    row = game_row(bot)
    assert row["status"] == "finished"
    assert row["board_version"] != row["version"]
    assert (row["version"], "pending") in board_jobs(bot)
    boards_before = len(table.boards())

    bot.kill()  # after the commit, before the post: the final board exists only as a job
    rule.times = rule.hits  # Discord is well again
    await bot.start()

    await emu.wait_until(lambda: len(table.boards()) > boards_before, what="the final board after restart")
    final = table.board()
    assert "Rematch" in [b.get("label") for b in final.buttons()]
    assert table.finished()
    # The bot records the board after Discord has taken it: wait for the job to be done.
    await emu.wait_until(lambda: (game_row(bot)["version"], "done") in board_jobs(bot), what="the job done")
    row = game_row(bot)
    assert row["board_version"] == row["version"] and row["board_message_id"] == final.id
    assert len(bot.query("SELECT * FROM results WHERE game_id = ?", (row["id"],))) == 2
    await emu.wait_until(lambda: any(a.filename.startswith("replay.") for a in final.attachments), what="the replay")


async def test_a_kill_before_a_turns_edit_went_out_edits_it_once_after_the_restart(emu, world, bot) -> None:
    """A step within a turn edits the turn's message: killed after the step's commit and before
    the edit, the bot edits that message after its restart (no new board, nobody notified), and a
    restart after that changes nothing in the channel."""
    await start(emu, world, await open_table(emu, world), [world.alice, world.bob])
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
    for _ in range(40):
        if "Pick a free shore" in table.board().content:
            break
        await table.play_one()
    turn = table.board()
    diver = table.user(mentioned(turn)[0])
    await table.play_one()  # the shore: the turn's message is edited
    assert table.board().id == turn.id and "pick a path" in turn.content
    boards, edits = len(table.boards()), turn.edit_count
    # Discord fails every edit of that message from now on: the path commits, its edit cannot go out.
    rule = emu.faults.fail(f"PATCH /channels/{world.channel.id}/messages/{turn.id}", status=500, times=1_000_000)
    await emu.click(diver, turn, custom_id=action_buttons(turn)[0]["custom_id"])
    await emu.wait_until(lambda: rule.hits >= 1, what="the bot trying to edit the board")
    version = game_row(bot)["version"]
    assert (version, "pending") in board_jobs(bot)

    bot.kill()  # after the commit, before the edit: the step exists only as a job
    rule.times = rule.hits  # Discord is well again
    await bot.start()

    await emu.wait_until(lambda: (version, "done") in board_jobs(bot), what="the edit after the restart")
    assert turn.edit_count == edits + 1 and "name a number" in turn.content and "looks along the" in turn.content
    assert len(table.boards()) == boards and notified(turn) == [diver.id]
    row = game_row(bot)
    assert row["board_message_id"] == turn.id and row["board_version"] == version

    await bot.stop()  # a restart with nothing pending posts and edits nothing
    await bot.start()
    await asyncio.sleep(3)
    assert len(emu.messages(world.channel)) == len(table.boards()) + 1  # the boards and the lobby
    assert len(table.boards()) == boards and turn.edit_count == edits + 1
