"""Undo (Board Game Arena's rule), resigning, handing seats over, votes, rematches, threads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.client import MeepleBot
from emulator.testing import running
from engine import GAMES
from league.refusal import Refusal
from services.game_service import GameService
from services.storage import Database
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import Table, concede_together, labels

ALICE, BOB = 11, 22


def fox_opening_seed() -> int:
    """A seed whose first player to act holds a fox (3): playing it asks them to pick a player."""
    for seed in range(1000):
        state = GAMES["fox-duet"].new(2, seed)
        mover = state.to_move()[0]
        if any(a.text.startswith("play ") and a.text.endswith("-3") for a in state.legal_actions(mover)):
            return seed
    raise AssertionError("no seed found")


async def force_seed(db: Database, game_id: int, seed: int) -> None:
    """Replace a started game's random seed and state (tests need a known opening)."""
    state = GAMES["fox-duet"].new(2, seed)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE games SET seed = ?, state = ? WHERE id = ?", (seed, json.dumps(state.to_dict()), game_id)
        )
        await conn.execute(
            "UPDATE snapshots SET state = ? WHERE game_id = ? AND version = 0", (json.dumps(state.to_dict()), game_id)
        )


@pytest.fixture
async def fox_game(tmp_path: Path):
    db = await Database.open(tmp_path / "undo.db")
    service = GameService(db)
    row = await service.create("fox-duet", 1, 500, ALICE, "Alice", {})
    await service.join(row.id, BOB, "Bob")
    await service.start(row.id, ALICE)
    await force_seed(db, row.id, fox_opening_seed())
    service._cache.clear()
    yield service, row.id
    await db.close()


async def refused(coro) -> str:
    with pytest.raises(Refusal) as info:
        await coro
    return info.value.key


async def test_a_played_card_cannot_be_taken_back_but_a_public_choice_can(fox_game) -> None:
    service, game_id = fox_game
    state = await service.state(await service.get(game_id))
    mover = state.to_move()[0]
    user = [ALICE, BOB][mover]
    fox = next(a.text for a in state.legal_actions(mover) if a.text.startswith("play ") and a.text.endswith("-3"))
    await service.act(game_id, user, 0, fox)
    assert await refused(service.undo(game_id, user)) == "error.undo-revealed"  # the card was seen
    await service.act(game_id, user, 1, "fox-pick me")
    result = await service.undo(game_id, user)
    assert result.row.version == 1 and result.state.to_move() == [mover]
    assert (await service.get(game_id)).state == result.state.to_dict()
    assert [(v, s, a) for v, s, a in await service.db.actions(game_id)] == [(1, mover, fox)]
    undone = await service.db.query("SELECT version, action FROM undone_actions WHERE game_id = ?", (game_id,))
    assert [(r["version"], r["action"]) for r in undone] == [(2, "fox-pick me")]
    await service.act(game_id, user, 1, "fox-pick partner")  # the log continues at version 2
    assert (await service.get(game_id)).version == 2


async def test_undo_never_crosses_another_players_move_nor_outlives_the_turn(fox_game) -> None:
    service, game_id = fox_game
    assert await refused(service.undo(game_id, ALICE)) == "error.undo-nothing"
    state = await service.state(await service.get(game_id))
    mover = state.to_move()[0]
    other = [ALICE, BOB][1 - mover]
    fox = next(a.text for a in state.legal_actions(mover) if a.text.startswith("play ") and a.text.endswith("-3"))
    await service.act(game_id, [ALICE, BOB][mover], 0, fox)
    assert await refused(service.undo(game_id, other)) == "error.undo-not-yours"
    await service.act(game_id, [ALICE, BOB][mover], 1, "fox-pick partner")
    assert await refused(service.undo(game_id, [ALICE, BOB][mover])) == "error.undo-turn-over"
    assert await refused(service.undo(game_id, 99)) == "error.not-a-player"


async def test_the_log_table_refuses_deleting_an_action_that_was_not_undone(fox_game) -> None:
    service, game_id = fox_game
    state = await service.state(await service.get(game_id))
    mover = state.to_move()[0]
    await service.act(game_id, [ALICE, BOB][mover], 0, str(state.legal_actions(mover)[0]))
    with pytest.raises(Exception, match="append-only"):
        async with service.db.transaction() as conn:
            await conn.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))


async def test_resigning_ends_the_game_and_ranks_the_player_last(fox_game) -> None:
    service, game_id = fox_game
    state = await service.state(await service.get(game_id))
    waiting = [ALICE, BOB][1 - state.to_move()[0]]
    result = await service.resign(game_id, waiting)  # out of turn
    assert result.row.status == "finished" and result.row.outcome["winners"] == []
    assert (await service.db.actions(game_id))[-1].action == "resign"


async def test_undo_button_marks_the_log_and_reposts_the_board(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        await force_seed(bot.db, game_id, fox_opening_seed())
        bot.flow.service._cache.clear()
        state = await bot.flow.service.state(await bot.db.get_game(game_id))
        mover = state.to_move()[0]
        user = [world.alice, world.bob][mover]
        fox = next(a.text for a in state.legal_actions(mover) if a.text.startswith("play ") and a.text.endswith("-3"))
        bot.flow.delivery.edit_pace = 0.05  # the steps of a turn edit its message, paced
        table = Table(emu, world.channel, [world.alice, world.bob])
        await bot.flow.after_move(await bot.flow.service.act(game_id, user.id, 0, fox))
        await emu.wait_until(lambda: "I trade with the decree" in labels(table.board()), what="the fox's board")
        board = table.board()
        boards = len(table.boards())
        picked = await emu.click(user, board, label="I trade with the decree")
        done = (await picked.followups(1))[0]
        undo = await emu.click(user, done, label="Undo")
        answer = (await undo.followups(1))[0]
        assert "Taken back" in answer.content
        # Within the player's turn, the undo is said on the turn's message (edited), not a new one.
        await emu.wait_until(lambda: "took back their move" in board.content, what="the undo on the board")
        assert table.board().id == board.id and len(table.boards()) == boards
        assert "I trade with the decree" in labels(board), "the board offers the choice again"
        assert (await bot.db.get_game(game_id)).version == 1
        log = await emu.slash(world.alice, world.channel, "table log")
        assert "took back" in (await log.final_message()).content


async def test_handing_over_a_seat_sends_the_new_player_the_hand(emu, world, config_for) -> None:
    carol = emu.add_user("carol", global_name="Carol")
    emu.add_member(world.guild, carol)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        handed = await emu.slash(world.bob, world.channel, "table handover", {"member": carol})
        assert "now holds the seat" in (await handed.final_message()).content
        assert "handed their seat" in emu.last_message(world.channel).content
        await emu.wait_until(lambda: len(emu.dms(carol)) == 1, what="Carol's DM")
        row = await bot.db.active_game_in_channel(world.channel.id)
        assert carol.id in [s.user_id for s in await bot.db.seats(row.id)]
        gone = await emu.slash(world.bob, world.channel, "table hand")
        assert "not playing in this game" in (await gone.final_message()).content
        again = await emu.slash(
            world.alice, world.channel, "table replace", {"player": world.alice, "member": world.bob}
        )
        assert "Only a moderator" in (await again.final_message()).content
        modded = await emu.slash(world.owner, world.channel, "table replace", {"player": carol, "member": world.bob})
        assert "now holds the seat" in (await modded.final_message()).content


async def test_a_unanimous_vote_abandons_the_game(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        first = await emu.slash(world.alice, world.channel, "table vote-abandon")
        await first.final_message()
        assert "1 of 2" in emu.last_message(world.channel).content
        assert await bot.db.active_game_in_channel(world.channel.id) is not None
        second = await emu.slash(world.bob, world.channel, "table vote-abandon")
        await second.final_message()
        assert "Every player voted" in emu.last_message(world.channel).content
        assert await bot.db.active_game_in_channel(world.channel.id) is None


async def test_rematch_opens_a_table_with_the_same_players_and_options(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await join_and_start(emu, world, await open_table(emu, world, "level=2"))
        table = Table(emu, world.channel, [world.alice, world.bob])
        await concede_together(emu, world.channel, world.alice, world.bob)
        await emu.wait_until(table.finished, what="the final board")
        again = await emu.click(world.bob, table.board(), label="Rematch")
        assert "same players" in (await again.followups(1))[0].content
        row = await bot.db.active_game_in_channel(world.channel.id)
        assert row.status == "lobby" and row.options == {"level": 2, "memory": "off"}
        assert [s.user_id for s in await bot.db.seats(row.id)] == [world.alice.id, world.bob.id]


async def test_a_game_can_live_in_its_own_thread(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        created = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet", "thread": True})
        await created.final_message()
        row = (await bot.db.query("SELECT id, channel_id FROM games"))[0]
        assert row["channel_id"] != world.channel.id
        thread = emu.state.channels[row["channel_id"]]
        assert thread.type == 11 and "Fox in the Forest Duet" in thread.name
        # What tells threads apart comes first, where a list cut short still shows it: the table number.
        assert thread.name.startswith(f"#{row['id']} "), thread.name
        assert any("new table is open" in m.content for m in emu.messages(thread))
