"""Durable delivery through the emulator: boards and private DMs get through Discord's errors."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace

import discord.http
import pytest

import services.game_service as bot_service
from bot.client import MeepleBot
from emulator.testing import running
from services.delivery import Backoff
from services.storage import jobs
from tests.bot.test_discord_table import hidden_cards, join_and_start, open_table
from tests.support.driver import Table, action_buttons, is_board
from tests.support.secrets import assert_no_hand_shown

# Our retries, fast: the real ones wait seconds to minutes.
FAST = Backoff(first=0.01, factor=2.0, cap=0.05, jitter=0.2)
DEAL = 1  # the game seed of the superseded-board test (see there)


class _QuickSleepAsyncio:
    """discord.py's asyncio with a short sleep: it waits 1 + 2n seconds after each 5xx itself."""

    def __getattr__(self, name: str) -> object:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: object = None) -> object:
        return await asyncio.sleep(min(delay, 0.01), result)


@pytest.fixture
def quick_discord_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http, "asyncio", _QuickSleepAsyncio())


async def play_via_hand(emu, table: Table, bot: MeepleBot, game_id: int) -> str:
    """Make the next move from the mover's "My hand" on the last board there is (it works while
    the new board is missing); the mover is read from the game, as the stale board cannot say."""
    row = await bot.db.get_game(game_id)
    state = await bot.flow.service.state(row)
    users = await bot.flow.service.seat_users(game_id)
    user = table.user(users[state.to_move()[0]])
    hand = await emu.click(user, table.board(), label="My hand")
    panel = (await hand.followups(1, timeout=30))[0]
    buttons = action_buttons(panel)
    if buttons:
        chosen = await emu.click(user, panel, custom_id=buttons[0]["custom_id"])
    else:
        menu = panel.selects()[0]
        chosen = await emu.select(user, panel, menu["custom_id"], [menu["options"][0]["value"]])
    return (await chosen.followups(1, timeout=30))[0].content


async def test_eight_server_errors_on_a_board_post_end_with_the_board_posted(
    emu, world, config_for, quick_discord_retries
) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), backoff=FAST)) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
        first = table.board()
        route = f"POST /channels/{world.channel.id}/messages"
        failures = [emu.faults.fail(route, status=500, times=4), emu.faults.fail(route, status=502, times=4)]
        # Play until a move begins a turn: its board is a new post. A fox's trade or a woodcutter's
        # discard continues the leader's turn (the deal decides): an edit, which the faults on
        # posts leave alone.
        for _ in range(4):
            await table.play_one()
            if table.board().id != first.id:
                break
        await emu.wait_until(lambda: table.board().id != first.id, what="the board after 8 errors")
        assert all(rule.spent for rule in failures)
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        row = await board_recorded(bot, game_id)
        posted = row.version
        assert row.board_version == posted and row.board_message_id == table.board().id
        (job,) = [j for j in await jobs_of(bot, game_id) if j.kind == "board" and j.version == posted]
        assert job.status == "done" and job.attempts >= 2
        for _ in range(3):  # play goes on from the delivered board's own buttons
            await table.play_one()
        assert (await bot.db.get_game(game_id)).version == posted + 3


async def test_a_private_dm_meeting_server_errors_is_retried_and_delivered(
    emu, world, config_for, quick_discord_retries
) -> None:
    alice_dm = emu.dm_channel(world.alice)
    rule = emu.faults.fail(f"POST /channels/{alice_dm.id}/messages", status=500, times=7)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), backoff=FAST)) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        assert rule.spent
        (hand,) = emu.dms(world.alice)
        assert hand.attachments[0].filename == "hand.png" and "Your hand" in hand.content
        assert not any("could not send a direct message" in m.content for m in emu.messages(world.channel))
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        assert all(j.status == "done" for j in await jobs_of(bot, game_id))


async def test_a_refused_dm_gives_a_public_notice_without_its_content(
    emu, world, config_for, quick_discord_retries
) -> None:
    bob_dm = emu.dm_channel(world.bob)
    emu.faults.fail(f"POST /channels/{bob_dm.id}/messages", status=403, code=50001, message="Missing Access", times=1)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), backoff=FAST)) as bot:
        await join_and_start_alice_only_dm(emu, world)
        notice = await emu.wait_for_message(world.channel, lambda m: "could not send a direct message" in m.content)
        assert f"<@{world.bob.id}>" in notice.content and f"<@{world.alice.id}>" not in notice.content
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        assert_no_hand_shown(notice, await hidden_cards(bot, game_id))
        assert emu.dms(world.bob) == []
        statuses = {(j.kind, j.seat): j.status for j in await jobs_of(bot, game_id)}
        assert statuses[("hand", 1)] == "failed" and statuses[("notice", None)] == "done"


async def test_a_board_superseded_before_it_is_posted_is_skipped_and_its_lines_carried(
    emu, world, config_for, quick_discord_retries, monkeypatch
) -> None:
    # One deal every run: its first two plays each start a turn, so each would post a new board
    # (a fox's trade or a woodcutter's discard would be a step of the same turn: an edit).
    monkeypatch.setattr(bot_service, "secrets", SimpleNamespace(randbits=lambda bits: DEAL))
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), backoff=FAST)) as bot:
        bot.flow.answer_wait = 0.2
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(4))
        first = table.board()
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        rule = emu.faults.fail(f"POST /channels/{world.channel.id}/messages", status=500, times=100_000)
        answers = [await play_via_hand(emu, table, bot, game_id), await play_via_hand(emu, table, bot, game_id)]
        assert all("on its way" in answer for answer in answers)
        assert table.board().id == first.id
        # Discord recovers only once the worker has set the board of move 1 aside for move 2's: it
        # may still have been drawing move 1's board when move 2 came (a loaded machine draws
        # slowly), and a post that starts after the recovery would go through.
        await job_reaches(bot, game_id, "board", 1, "skipped")
        rule.times = rule.hits  # Discord recovers
        await emu.wait_until(lambda: table.board().id != first.id, what="the newest board")
        boards = table.boards()
        assert len(boards) == 2  # the board of move 1 was never posted: move 2 replaced it
        row = await board_recorded(bot, game_id)
        assert row.version == 2 and row.board_version == 2 and row.board_message_id == boards[-1].id
        assert all(b["custom_id"].split(":")[3] == "2" for b in action_buttons(boards[-1]))
        names = ("Alice", "Bob")
        # Both moves are told on the board that was posted, the first one (the lead) first. The
        # second is the follower's card, or the decision a led card's ability asks for (the deal
        # is random): either way a line of its own after the lead's.
        told = [line for line in boards[-1].content.splitlines() if line.startswith(names)]
        assert len(told) >= 2 and " led " in told[0] and " led " not in "".join(told[1:]), boards[-1].content
        by_version = {j.version: j.status for j in await jobs_of(bot, game_id) if j.kind == "board"}
        assert by_version == {0: "done", 1: "skipped", 2: "done"}
        await table.play_one()  # and play goes on from it


async def join_and_start_alice_only_dm(emu, world) -> None:
    lobby = await open_table(emu, world)
    await (await emu.click(world.bob, lobby, label="Join")).response()
    await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob listed in the lobby")
    await (await emu.click(world.alice, lobby, label="Start")).response()
    await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
    await emu.wait_until(lambda: len(emu.dms(world.alice)) == 1, what="Alice's hand")


async def jobs_of(bot: MeepleBot, game_id: int) -> list[jobs.Job]:
    rows = await bot.db.query("SELECT * FROM delivery_jobs WHERE game_id = ? ORDER BY id", (game_id,))
    return [jobs.Job.from_row(row) for row in rows]


async def until(probe, what: str, timeout: float = 60.0):
    """Await ``probe()`` (a coroutine function) until it gives something truthy: a state of the
    database, which no emulator change announces. The deadline only ends a broken test."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := await probe()):
        if loop.time() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f}s waiting for {what}")
        await asyncio.sleep(0.02)
    return value


async def job_reaches(bot: MeepleBot, game_id: int, kind: str, version: int, status: str) -> jobs.Job:
    async def probe() -> jobs.Job | None:
        found = [j for j in await jobs_of(bot, game_id) if j.kind == kind and j.version == version]
        return found[0] if found and found[0].status == status else None

    return await until(probe, f"the {kind} job of version {version} to be {status}")


async def board_recorded(bot: MeepleBot, game_id: int):
    """The game once its board job is done (the bot records a board just after Discord takes it)."""

    async def probe() -> bool:
        return not [j for j in await jobs.pending(bot.db, game_id) if j.kind == "board"]

    await until(probe, "the board jobs to be done")
    return await bot.db.get_game(game_id)
