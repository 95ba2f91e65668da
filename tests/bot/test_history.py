"""The log in words, past boards, and the animated replay at the end of a game."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.client import MeepleBot
from emulator.testing import running
from render.replay import pick_frames
from services.history import page_of
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import Table


def test_log_pages_clamp_to_the_last_page() -> None:
    lines = [str(i) for i in range(40)]
    assert page_of(lines, 99) == (lines[25:], 3, 3)
    assert page_of([], 5) == ([], 1, 1)


def test_log_pages_are_counted_from_the_end_so_the_latest_page_is_a_full_one() -> None:
    """The log opens on its last page, with the latest move: a full page to read, never the
    two lines left over; those open the log instead."""
    lines = [str(i) for i in range(17)]
    assert page_of(lines, 10**9) == (lines[2:], 2, 2)
    assert page_of(lines, 1) == (lines[:2], 1, 2)
    forty = [str(i) for i in range(40)]
    assert [page_of(forty, n)[0] for n in (1, 2, 3)] == [forty[:10], forty[10:25], forty[25:]]
    assert page_of(lines[:15], 1) == (lines[:15], 1, 1)


def test_frame_picking_keeps_first_and_last() -> None:
    assert pick_frames(5, 10) == [0, 1, 2, 3, 4]
    picked = pick_frames(1000, 50)
    assert picked[0] == 0 and picked[-1] == 999 and len(picked) == 50


async def test_the_log_shows_public_lines_and_only_my_own_secrets(emu, world, config_for) -> None:
    carol = emu.add_user("carol", global_name="Carol")
    emu.add_member(world.guild, carol)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(1))
        for _ in range(3):
            await table.play_one()
        mine = await emu.slash(world.alice, world.channel, "table log")
        alice_log = (await mine.final_message()).content
        assert "Game log" in alice_log and "dealt 11 cards each" in alice_log
        assert "you were dealt a new hand" in alice_log  # Alice's own private deal event
        spectator = await emu.click(carol, table.board(), label="Log")
        carol_log = (await spectator.followups(1))[0]
        assert carol_log.ephemeral and "dealt 11 cards each" in carol_log.content
        assert "you were dealt" not in carol_log.content
        assert [b["label"] for b in carol_log.buttons()] == ["⏮ First", "◀ Back", "Forward ▶", "Last ⏭"]


async def test_past_boards_are_browsed_with_buttons(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        # With the memory aid: without it, the Duet's boards of the round in progress stay closed.
        await join_and_start(emu, world, await open_table(emu, world, "level=1 memory=on"))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(2))
        for _ in range(3):
            await table.play_one()
        asked = await emu.slash(world.bob, world.channel, "table history", {"step": 1})
        shown = await asked.final_message()
        # The title names the move the board shows, as the log words it: move 1 leads the first trick.
        assert "after move 1 of 3:** " in shown.content and " led " in shown.content, shown.content
        assert shown.attachments[0].filename == "board.png"
        first = await emu.click(world.bob, shown, label="⏮ First")
        await first.response()
        await emu.wait_until(lambda: "after move 0" in shown.content, what="the first board")
        assert "after move 0 of 3:** the game as it was set up" in shown.content
        last = await emu.click(world.bob, shown, label="Last ⏭")
        await last.response()
        await emu.wait_until(lambda: "after move 3" in shown.content, what="the last board")
        assert Image.open(io.BytesIO(shown.attachments[0].content)).format == "PNG"


async def test_the_duets_earlier_boards_of_a_round_stay_closed_without_the_memory_aid(emu, world, config_for) -> None:
    """「每輪遊戲進行時，玩家無法查看先前牌墩」: /table history shows the current board instead, and says why."""
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(2))
        for _ in range(3):
            await table.play_one()
        asked = await emu.slash(world.bob, world.channel, "table history", {"step": 1})
        shown = await asked.final_message()
        assert "after move 3 of 3:** " in shown.content and "earlier tricks stay hidden" in shown.content


async def test_a_finished_game_gets_an_animated_replay_on_its_final_board(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(4))
        while not table.finished():
            await table.play_one()
        final = table.board()
        await emu.wait_until(lambda: len(final.attachments) == 2, timeout=60, what="the replay attached")
        replay = final.attachments[1]
        assert replay.filename.startswith("replay.") and len(replay.content) < 10 * 1024 * 1024
        animation = Image.open(io.BytesIO(replay.content))
        assert animation.n_frames >= 10 and animation.width > animation.height
