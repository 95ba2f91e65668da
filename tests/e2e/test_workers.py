"""The bot's worker processes (computer players and drawings) end with the bot, even killed hard."""

from __future__ import annotations

import os
import select
import signal
import time
from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.support.driver import Table, is_board, mentioned

LEAVE_DEADLINE = 30.0  # seconds: a bound on the wait, which ends as soon as the last worker exits


def parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def descendants(root: int) -> dict[int, int]:
    """Every process below ``root`` (children, their children...) -> its parent."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (parent := parent_of(int(entry.name))) is not None:
            parents[int(entry.name)] = parent
    found: dict[int, int] = {}
    frontier = [root]
    while frontier:
        pid = frontier.pop()
        for child, parent in parents.items():
            if parent == pid and child not in found:
                found[child] = parent
                frontier.append(child)
    return found


def computer_moves(bot: BotProcess) -> int:
    return bot.query(
        "SELECT COUNT(*) FROM actions a JOIN computer_seats c ON c.game_id = a.game_id AND c.seat = a.seat"
    )[0][0]


async def test_no_worker_outlives_the_bot_killed_hard(emu, world, bot) -> None:
    """SIGKILL (or the out-of-memory killer) gives the bot no chance to stop its pools: the
    computer players' and the drawings' workers must leave by themselves."""
    created = await emu.slash(
        world.alice, world.channel, "table create", {"game": "fox-duet", "computers": 1, "level": "easy"}
    )
    assert "table is open" in (await created.final_message()).content
    await (await emu.click(world.alice, emu.last_message(world.channel), label="Start")).response()
    await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
    table = Table(emu, world.channel, [world.alice])
    await emu.wait_until(
        lambda: computer_moves(bot) or world.alice.id in mentioned(table.board()), what="a turn"
    )
    for _ in range(4):  # Alice leads: the computer answers her card once her turn is over (a
        # fox's trade or a woodcutter's discard is one more step of her turn, on the same board)
        if computer_moves(bot) or world.alice.id not in mentioned(table.board()):
            break
        await table.play_one()
    await emu.wait_until(lambda: computer_moves(bot) > 0, what="a computer move")
    await emu.wait_until(lambda: len(table.boards()) >= 2, what="a board drawn after the computer's move")

    assert bot.process is not None
    tree = descendants(bot.process.pid)
    # Both pools' workers are the forkserver's children, the bot's grandchildren.
    workers = [pid for pid, parent in tree.items() if parent != bot.process.pid]
    assert len(workers) >= 2, f"expected a computer worker and a drawing worker below the bot: {tree}"
    # Pid file descriptors name these very processes (never a later one given a reused pid),
    # and become readable when they exit.
    handles = {os.pidfd_open(pid): pid for pid in tree}
    waiting = set(handles)
    try:
        bot.kill()
        deadline = time.monotonic() + LEAVE_DEADLINE
        while waiting and (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select(list(waiting), [], [], left)
            waiting -= set(ready)
        assert not waiting, f"still running after the bot was killed: {sorted(handles[h] for h in waiting)}"
    finally:
        for handle in handles:
            if handle in waiting:  # the test failed: leave nothing behind it either
                signal.pidfd_send_signal(handle, signal.SIGKILL)
            os.close(handle)
