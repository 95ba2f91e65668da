"""Durable delivery end to end: a board committed but not yet posted survives a hard kill."""

from __future__ import annotations

import random

from tests.e2e.conftest import BotProcess
from tests.e2e.test_fox_duet import game_row, open_and_start
from tests.support.driver import PROPOSAL, Table, ask_to_concede, mentioned


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
    await emu.wait_until(
        lambda: any(a.filename.startswith("replay.") for a in final.attachments), what="the replay"
    )
