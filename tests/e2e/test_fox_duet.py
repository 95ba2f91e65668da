"""The Fox in the Forest Duet end to end: the bot process, discord.py's real HTTP and gateway
code, and the loopback emulator; users only read messages and press buttons."""

from __future__ import annotations

import asyncio
import json
import random
import signal

from engine import GAMES
from tests.e2e.conftest import BotProcess
from tests.support.driver import Table, action_buttons, is_board, mentioned
from tests.support.secrets import assert_no_hand_shown, hidden_fox_cards


async def open_and_start(emu, world) -> None:
    created = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet"})
    assert "table is open" in (await created.final_message()).content
    lobby = emu.last_message(world.channel)
    await (await emu.click(world.bob, lobby, label="Join")).response()
    await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob in the lobby")
    await (await emu.click(world.alice, lobby, label="Start")).response()
    await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")


def game_row(bot: BotProcess):
    rows = bot.query("SELECT * FROM games ORDER BY id DESC LIMIT 1")
    return rows[0]


def move_log(bot: BotProcess) -> tuple[dict, list[tuple[int, str]]]:
    row = game_row(bot)
    log = [
        (r["seat"], r["action"])
        for r in bot.query("SELECT seat, action FROM actions WHERE game_id = ? ORDER BY version", (row["id"],))
    ]
    return row, log


def began_a_turn(bot: BotProcess) -> bool:
    """Whether the last move began a turn (the game replayed): a new round, someone newly to
    move, or the end; otherwise it was a step of the same turn (a fox's trade, a discard, a
    trick won by the seat that leads the next one)."""
    row, log = move_log(bot)
    state = GAMES["fox-duet"].new(2, row["seed"], json.loads(row["options"]))
    for seat, action in log[:-1]:
        state.apply(seat, action)
    movers, round_ = set(state.to_move()), state.view(None)["public"].get("round")
    state.apply(*log[-1])
    newly = set(state.to_move()) - movers
    return state.outcome() is not None or bool(newly) or state.view(None)["public"].get("round") != round_


async def no_pending_jobs(bot: BotProcess, patience: float = 30.0) -> None:
    """Wait until the bot has delivered (or given up) every board, DM and notice it owes."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    while bot.query("SELECT id FROM delivery_jobs WHERE status = 'pending'"):
        assert loop.time() < deadline, "the bot still owes deliveries"
        await asyncio.sleep(0.05)


def hidden_now(bot: BotProcess, since: int | None = None) -> list[str]:
    """The secret cards now; ``since`` is how many moves the board before this one told."""
    row, log = move_log(bot)
    return hidden_fox_cards(row["seed"], json.loads(row["options"]), log, since)


def assert_channel_never_showed_a_hand(emu, world, shown: dict[int, list[str]]) -> None:
    for message in emu.messages(world.channel):
        if message.id in shown:
            assert_no_hand_shown(message, shown[message.id])


async def test_two_users_play_a_whole_game_and_nothing_secret_reaches_the_channel(emu, world, bot) -> None:
    await open_and_start(emu, world)
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(11))
    shown: dict[int, list[str]] = {table.board().id: hidden_now(bot)}
    # A board tells every move of its turn (the turn's message is edited when the same player
    # moves again), so each message is checked against the moves since the one it began with.
    began = {table.board().id: 0}
    told = len(move_log(bot)[1])
    while not table.finished():
        await table.play_one()
        since = began.setdefault(table.board().id, told)
        shown[table.board().id] = hidden_now(bot, since=since)
        told = len(move_log(bot)[1])
        assert table.moves < 500
    assert_channel_never_showed_a_hand(emu, world, shown)
    row = game_row(bot)
    assert row["status"] == "finished" and json.loads(row["outcome"])["scores"]
    assert ("Team score" in table.board().content) or ("Game over" in table.board().content)
    assert len(emu.dms(world.alice)) >= 1 and len(emu.dms(world.bob)) >= 1


async def test_a_third_user_is_refused_and_nothing_changes(emu, world, bot) -> None:
    carol = emu.add_user("carol", global_name="Carol")
    emu.add_member(world.guild, carol)
    await open_and_start(emu, world)
    board = Table(emu, world.channel, [world.alice, world.bob]).board()
    peek = await emu.click(carol, board, label="My hand")
    answer = (await peek.followups(1))[0]
    assert answer.ephemeral and "not playing in this game" in answer.content and not answer.attachments
    joined = await emu.slash(carol, world.channel, "table join")
    assert "no longer taking players" in (await joined.final_message()).content
    assert game_row(bot)["version"] == 0


async def test_a_click_on_an_old_board_is_refused(emu, world, bot) -> None:
    found = None
    for attempt in range(5):  # the bot deals at random: a deal may end the game before such a board
        boards = len([m for m in emu.messages(world.channel) if is_board(m)])
        await open_and_start(emu, world)
        await emu.wait_until(
            lambda before=boards: len([m for m in emu.messages(world.channel) if is_board(m)]) > before,
            what="the new game's board",
        )
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3 + attempt))
        while not table.finished():  # a board with public choices, then a move that starts a turn
            while not table.finished() and not action_buttons(table.board()):
                await table.play_one()
            if table.finished():
                break
            old = table.board()
            custom_id, mover = action_buttons(old)[0]["custom_id"], mentioned(old)[0]
            await table.play_one()
            if table.board().id != old.id and not table.finished():
                found = old
                break
        if found is not None:
            break
    assert found is not None, "five deals without a new turn after a board with public choices"
    old = found
    version = game_row(bot)["version"]
    late = await emu.click(table.user(mover), old, custom_id=custom_id)
    answer = (await late.followups(1))[0]
    assert answer.ephemeral and "out of date" in answer.content and str(table.board().id) in answer.content
    assert game_row(bot)["version"] == version


async def test_two_simultaneous_clicks_apply_exactly_one_move(emu, world, bot) -> None:
    await open_and_start(emu, world)
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(4))
    user = table.user(mentioned(table.board())[0])
    panel = (await (await emu.click(user, table.board(), label="My hand")).followups(1))[0]
    menu = panel.selects()[0]
    first, second = menu["options"][0]["value"], menu["options"][1]["value"]
    a, b = await asyncio.gather(
        emu.select(user, panel, menu["custom_id"], [first]), emu.select(user, panel, menu["custom_id"], [second])
    )
    answers = [(await a.followups(1))[0].content, (await b.followups(1))[0].content]
    assert sum(text.startswith("Done") for text in answers) == 1
    assert sum("out of date" in text for text in answers) == 1
    assert game_row(bot)["version"] == 1
    assert len(bot.query("SELECT * FROM actions")) == 1


async def test_the_bot_killed_hard_mid_game_carries_on_and_old_buttons_work(emu, world, bot) -> None:
    await open_and_start(emu, world)
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(6))
    for _ in range(8):
        await table.play_one()
    version = game_row(bot)["version"]
    shown, posted = table.board(), len(table.boards())
    edited = shown.edit_count
    bot.kill()
    await bot.start()
    assert game_row(bot)["version"] == version
    # Killed perhaps between sending the last board and marking it sent: the new process sends
    # what is pending once (an edit of the turn's message again), and posts nothing twice.
    await no_pending_jobs(bot)
    board = table.board()  # posted by the killed process: its buttons must still work
    assert board.id == shown.id and len(table.boards()) == posted
    assert edited <= board.edit_count <= edited + 1
    boards, edits, movers = len(table.boards()), board.edit_count, set(mentioned(board))
    await table.play_one()
    assert game_row(bot)["version"] == version + 1
    # The move's board is delivered once by the new process: a new message when a turn began,
    # else the killed process's message of the turn, edited (one turn, one message).
    if began_a_turn(bot):
        assert table.board().id != board.id and len(table.boards()) == boards + 1
        assert board.edit_count == edits, "the old turn's message is left as it was"
    else:
        assert table.board().id == board.id and len(table.boards()) == boards
        assert board.edit_count == edits + 1, "the move's board is one edit"
        assert set(mentioned(board)) <= movers, "the same turn goes on: nobody new is named"
    while not table.finished():
        await table.play_one()
    assert game_row(bot)["status"] == "finished"


async def test_a_stop_signal_lets_the_bot_answer_and_exit_and_play_carries_on(emu, world, bot) -> None:
    """SIGTERM (a service manager stopping the bot) while a click is being handled: the click is
    answered, the bot exits by itself with code 0, and once started again the game goes on."""
    await open_and_start(emu, world)
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(4))
    for _ in range(4):
        await table.play_one()
    board = table.board()
    hand = await emu.click(table.user(mentioned(board)[0]), board, label="My hand")
    await hand.response()  # deferred: the bot is working on it
    took = await bot.stop(signal.SIGTERM)
    # Exited by itself (code 0), not killed after the test's patience: how fast is no test's to measure.
    assert bot.exit_code == 0, f"the bot did not exit by itself ({took:.1f} s, {bot.exit_code})"
    assert not hand.errors and (await hand.followups(1))[0].ephemeral
    version = game_row(bot)["version"]
    await bot.start()
    await table.play_one()
    assert game_row(bot)["version"] == version + 1


async def test_closed_dms_get_a_public_notice_and_my_hand_still_works(emu, world, bot) -> None:
    emu.faults.dm_closed(world.bob)
    await open_and_start(emu, world)
    notice = await emu.wait_for_message(world.channel, lambda m: "could not send a direct message" in m.content)
    assert f"<@{world.bob.id}>" in notice.content and not notice.attachments
    assert_no_hand_shown(notice, hidden_now(bot))
    assert emu.dms(world.bob) == [] and len(emu.dms(world.alice)) == 1
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(8))
    bob_moves = 0
    while bob_moves < 3 and not table.finished():
        if mentioned(table.board())[0] == world.bob.id:
            bob_moves += 1
        await table.play_one()
    assert bob_moves == 3


async def test_a_rate_limited_upload_is_waited_out(emu, world, bot) -> None:
    await open_and_start(emu, world)
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(9))
    rule = emu.faults.rate_limit(f"POST /channels/{world.channel.id}/messages", times=1, retry_after=0.5)
    boards = len(table.boards())
    # Until a move begins a turn (a new post): a fox's trade or a woodcutter's discard continues
    # the leader's turn as an edit, which the limit on posts leaves alone (the deal decides).
    for _ in range(4):
        await table.play_one()
        if len(table.boards()) > boards:
            break
    assert rule.hits == 1
    assert len(table.boards()) == boards + 1
    await table.play_one()


async def test_a_dropped_gateway_resumes_and_play_goes_on(emu, world, bot) -> None:
    await open_and_start(emu, world)
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(10))
    await table.play_one()
    await emu.drop_gateway()
    await emu.wait_for_resume()
    for _ in range(4):
        await table.play_one()
    assert game_row(bot)["version"] >= 5
