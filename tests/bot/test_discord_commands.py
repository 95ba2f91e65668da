"""Every /table command and lobby control, through discord.py against the emulator."""

from __future__ import annotations

from bot.client import MeepleBot
from emulator.testing import running
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import Table, ask_to_concede, concede_together, is_board, mentioned


async def test_the_creator_sets_options_from_the_lobby_menu_and_others_cannot(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        lobby = await open_table(emu, world)
        menu = lobby.selects()[0]
        assert menu["custom_id"].endswith(":level") and lobby.selects()[1]["custom_id"].endswith(":memory")
        assert [o["value"] for o in menu["options"]] == ["1", "2", "3"]
        await (await emu.select(world.alice, lobby, menu["custom_id"], ["3"])).response()
        await emu.wait_until(lambda: "Level 3" in lobby.content, what="level 3 in the lobby")
        refused = await emu.select(world.bob, lobby, menu["custom_id"], ["2"])
        answer = (await refused.followups(1))[0]
        assert answer.ephemeral and "Only the table's creator" in answer.content
        row = await bot.db.active_game_in_channel(world.channel.id)
        assert row.options == {"level": 3, "memory": "off"}


async def test_join_and_leave_commands_update_the_lobby(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        lobby = await open_table(emu, world)
        joined = await emu.slash(world.bob, world.channel, "table join")
        assert "took a seat" in (await joined.final_message()).content
        await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob in the lobby")
        again = await emu.slash(world.bob, world.channel, "table join")
        assert "already have a seat" in (await again.final_message()).content
        left = await emu.slash(world.bob, world.channel, "table leave")
        assert "left the table" in (await left.final_message()).content
        await emu.wait_until(lambda: f"<@{world.bob.id}>" not in lobby.content, what="Bob gone from the lobby")
        row = await bot.db.active_game_in_channel(world.channel.id)
        assert [s.user_id for s in await bot.db.seats(row.id)] == [world.alice.id]
        early = await emu.slash(world.alice, world.channel, "table start")
        refused = (await early.final_message()).content
        assert "needs exactly 2 players; 1 is seated." in refused
        assert "Computer players can take the empty seats" in refused and "`computers:`" in refused


async def test_commands_without_a_table_answer_privately(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        for command in ("table join", "table leave", "table start", "table status", "table hand", "table concede"):
            result = await emu.slash(world.alice, world.channel, command)
            answer = await result.final_message()
            assert answer.ephemeral and "no open table" in answer.content, command
        assert emu.messages(world.channel) == []


async def test_status_and_hand_commands_answer_privately_with_images(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        await join_and_start(emu, world, await open_table(emu, world))
        before = len(emu.messages(world.channel))
        status = await emu.slash(world.bob, world.channel, "table status")
        shown = await status.final_message()
        assert shown.ephemeral and shown.attachments[0].filename == "board.png"
        assert "Current board" in shown.content
        hand = await emu.slash(world.alice, world.channel, "table hand")
        mine = await hand.final_message()
        assert mine.ephemeral and mine.attachments[0].filename == "hand.png" and " cards: " in mine.content
        assert len(emu.messages(world.channel)) == before


async def test_the_team_concedes_only_when_the_partner_agrees(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob])
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        # Either teammate may ask, on their turn or not; the partner answers in the channel.
        waiting = world.bob if mentioned(table.board())[0] == world.alice.id else world.alice
        partner = world.alice if waiting == world.bob else world.bob
        question = await (await emu.slash(waiting, world.channel, "table concede")).final_message()
        assert question.ephemeral and "your partner decides with you" in question.content
        assert "ranked last" not in question.content
        proposal = await ask_to_concede(emu, world.channel, waiting)
        assert f"<@{partner.id}>, do you agree?" in proposal.content
        alone = await (await emu.click(waiting, proposal, label="Yes, we concede")).final_message()
        assert alone.ephemeral and "your partner decides" in alone.content
        kept = await (await emu.click(partner, proposal, label="Keep playing")).final_message()
        assert kept.ephemeral and "goes on" in kept.content
        await emu.wait_until(lambda: not proposal.buttons(), what="the declined proposal closed")
        assert "keep playing" in proposal.content and (await bot.db.get_game(game_id)).status == "running"
        # A move lapses a proposal; a new one, agreed, ends the game for both.
        stale = await ask_to_concede(emu, world.channel, waiting)
        await table.play_one()
        lapsed = await (await emu.click(partner, stale, label="Yes, we concede")).final_message()
        assert "lapsed" in lapsed.content and (await bot.db.get_game(game_id)).status == "running"
        await concede_together(emu, world.channel, waiting, partner)
        await emu.wait_until(table.finished, what="the final board")
        final = table.board()
        assert "The team conceded" in final.content and "conceded together" in final.content
        row = await bot.db.get_game(game_id)
        assert row.status == "finished" and row.outcome["winners"] == []
        assert row.outcome["details"][0]["reason"] == "conceded"


async def test_abandon_needs_the_creator_or_a_moderator(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        refused = await emu.slash(world.bob, world.channel, "table abandon")
        assert "Only the table's creator or a moderator" in (await refused.final_message()).content
        assert await bot.db.active_game_in_channel(world.channel.id) is not None
        done = await emu.slash(world.owner, world.channel, "table abandon")
        assert "closed the table" in (await done.final_message()).content
        notice = await emu.wait_for_message(world.channel, lambda m: "was closed by" in m.content)
        assert not notice.attachments
        assert await bot.db.active_game_in_channel(world.channel.id) is None
        reopened = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet"})
        assert "table is open" in (await reopened.final_message()).content


async def test_a_move_committed_before_a_crash_gets_its_board_after_the_restart(emu, world, config_for) -> None:
    """At start-up every running game carries on: a board lost to a crash is posted again."""
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        row = await bot.db.active_game_in_channel(world.channel.id)
        state = await bot.flow.service.state(row)
        seat = state.to_move()[0]
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        # The move reaches the database but the bot dies before posting the new board.
        assert await bot.db.commit_move(row.id, 0, seat, str(action), state.to_dict(), None)
    boards = len([m for m in emu.messages(world.channel) if is_board(m)])
    async with running(emu, MeepleBot(config)) as bot:
        await emu.wait_until(
            lambda: len([m for m in emu.messages(world.channel) if is_board(m)]) == boards + 1, what="a new board"
        )
        board = Table(emu, world.channel, [world.alice, world.bob]).board()
        assert "restarted" in board.content and mentioned(board)
        # The message shows before its delivery pass marks it done: wait for the bookkeeping too.
        assert await bot.flow.delivery.wait(row.id, timeout=30)
        row = await bot.db.get_game(row.id)
        assert row.board_version == row.version == 1
