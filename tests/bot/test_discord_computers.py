"""Computer players at Discord tables, through the real bot and the emulator."""

from __future__ import annotations

import random

import pytest

from ai.ismcts import playable
from bot.client import MeepleBot
from emulator.testing import running
from services.computer_turns import is_computer
from tests.support.driver import Table, is_board, mentioned
from tests.support.stored import stored

FAST = 0.01  # seconds a computer waits before moving, in tests


@pytest.fixture(autouse=True)
def no_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The end-of-game animated replay is tested with the games; drawing it here only slows."""

    async def skip(flow, row, message, seats=None) -> None:
        return None

    monkeypatch.setattr("bot.history_ui.attach_replay", skip)


async def open_with_computers(emu, world, game: str, computers: int, level: str):
    created = await emu.slash(
        world.alice, world.channel, "table create", {"game": game, "computers": computers, "level": level}
    )
    answer = await created.final_message()
    assert "table is open" in answer.content, answer.content
    lobby = emu.last_message(world.channel)
    assert "Bot 1 (easy)" in lobby.content and "<@1>" not in lobby.content, lobby.content
    started = await emu.click(world.alice, lobby, label="Start")
    await started.response()
    await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")


async def play_against_computers(emu, world, bot: MeepleBot) -> Table:
    """Alice plays her turns by clicking; the computers play theirs by themselves."""
    table = Table(emu, world.channel, [world.alice])
    for _ in range(2000):
        await bot.flow.computer_turns.idle()

        def settled() -> bool:
            board = table.board()
            return table.finished() or world.alice.id in mentioned(board)

        await emu.wait_until(settled, what="Alice's turn or the end")
        if table.finished():
            return table
        await table.play_one()
    raise AssertionError("the game did not end")


async def test_a_vivarium_game_against_a_computer_is_played_to_the_end_and_never_rated(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, computer_delay=FAST)) as bot:
        await open_with_computers(emu, world, "vivarium", 1, "easy")
        game = stored(config.database, "SELECT * FROM games")[0]
        assert game["rated"] == 0, "a table with a computer is never rated"
        seats = stored(config.database, "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game["id"],))
        assert [is_computer(s["user_id"]) for s in seats] == [False, True]
        assert stored(config.database, "SELECT seat, level FROM computer_seats")[0]["level"] == "easy"
        table = await play_against_computers(emu, world, bot)
        assert table.moves > 5, "Alice played her part"
        computer_moves = stored(
            config.database, "SELECT COUNT(*) FROM actions WHERE game_id = ? AND seat = 1", (game["id"],)
        )[0][0]
        assert computer_moves > 5, "the computer played its part"
        # Its moves are worded like anyone's, its name never a broken mention, and nobody tried
        # to DM it (a refused DM would have been announced in the channel).
        contents = [m.content for m in emu.messages(world.channel)]
        assert not any("<@1>" in c for c in contents)
        assert any("Bot 1 (easy)" in c for c in contents)
        assert not any("could not send" in c.lower() or "direct message" in c.lower() for c in contents)
        assert stored(config.database, "SELECT status FROM games")[0][0] == "finished"
        assert not stored(config.database, "SELECT * FROM rating_history"), "no rating moved"


async def play_people_quickly(bot: MeepleBot, game_id: int, people: set[int], seed: int) -> None:
    """The people's moves at random through the bot's service (the clicks are covered above and
    by the game tests), the computers' by themselves, until the game ends."""
    rng = random.Random(seed)
    service = bot.flow.service
    for _ in range(5000):
        await bot.flow.computer_turns.idle()
        row = await service.get(game_id)
        if row.status != "running":
            return
        state = await service.state(row)
        users = await service.seat_users(game_id)
        mine = [s for s in state.to_move() if users[s] in people]
        if not mine:
            bot.flow.computer_turns.poke(game_id)
            continue
        seat = mine[0]
        result = await service.act(game_id, users[seat], row.version, str(rng.choice(playable(state, seat))))
        await bot.flow.after_move(result)
    raise AssertionError("the game did not end")


async def test_fox_duet_with_a_computer_teammate(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, computer_delay=FAST)) as bot:
        await open_with_computers(emu, world, "fox-duet", 1, "easy")
        game_id = stored(config.database, "SELECT id FROM games")[0][0]
        await play_people_quickly(bot, game_id, {world.alice.id}, seed=2)
        moves = stored(config.database, "SELECT seat, COUNT(*) AS n FROM actions GROUP BY seat ORDER BY seat")
        assert [r["n"] > 3 for r in moves] == [True, True], "both teammates played their cards"
        row = stored(config.database, "SELECT status, outcome FROM games")[0]
        assert row["status"] == "finished"
        dms = emu.dms(world.alice)
        assert dms, "Alice gets her hand by DM as usual"


async def test_too_many_computers_are_refused_and_nothing_is_created(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, computer_delay=FAST)):
        refused = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet", "computers": 2})
        answer = await refused.final_message()
        assert answer.ephemeral and "at most 1 computer" in answer.content, answer.content
        assert not stored(config.database, "SELECT * FROM games")


async def test_a_computer_takes_over_a_resigned_seat_and_the_others_finish(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    carol = emu.add_user("carol", global_name="Carol")
    emu.add_member(world.guild, carol)
    async with running(emu, MeepleBot(config, computer_delay=FAST)) as bot:
        created = await emu.slash(world.alice, world.channel, "table create", {"game": "vivarium", "takeover": True})
        assert "table is open" in (await created.final_message()).content
        lobby = emu.last_message(world.channel)
        for user in (world.bob, carol):
            await (await emu.click(user, lobby, label="Join")).response()
        await emu.wait_until(lambda: f"<@{carol.id}>" in lobby.content, what="Carol seated")
        await (await emu.click(world.alice, lobby, label="Start")).response()
        await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
        game_id = stored(config.database, "SELECT id FROM games")[0][0]
        asked = await (await emu.slash(carol, world.channel, "table resign")).final_message()
        done = await (await emu.click(carol, asked, label=asked.buttons()[0]["label"])).final_message()
        assert done.ephemeral
        notice = next(m for m in emu.messages(world.channel) if "takes their seat" in m.content)
        assert f"<@{carol.id}>" in notice.content and "forfeit" in notice.content
        seats = stored(config.database, "SELECT seat, user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        assert is_computer(seats[2]["user_id"]), "a computer sits where Carol sat"
        assert stored(config.database, "SELECT status FROM games")[0][0] == "running", "the game goes on"
        await play_people_quickly(bot, game_id, {world.alice.id, world.bob.id}, seed=3)
        await bot.flow.deliver(game_id)
        assert stored(config.database, "SELECT status FROM games")[0][0] == "finished"
        results = {
            r["user_id"]: r for r in stored(config.database, "SELECT * FROM results WHERE game_id = ?", (game_id,))
        }
        assert set(results) == {world.alice.id, world.bob.id, carol.id}, "Carol's result is hers, not the computer's"
        assert results[carol.id]["forfeited"] == 1 and results[carol.id]["rank"] == 3
        assert not results[carol.id]["won"]


async def test_a_vote_to_abandon_counts_the_people_not_the_computers(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, computer_delay=3600)) as bot:  # the computers wait
        created = await emu.slash(world.alice, world.channel, "table create", {"game": "vivarium", "computers": 1})
        assert "table is open" in (await created.final_message()).content
        lobby = emu.last_message(world.channel)
        await (await emu.click(world.bob, lobby, label="Join")).response()
        await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob seated")
        await (await emu.click(world.alice, lobby, label="Start")).response()
        await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
        await (await emu.slash(world.alice, world.channel, "table vote-abandon")).final_message()
        assert "(1 of 2;" in emu.last_message(world.channel).content, "the computer seat has no vote"
        await (await emu.slash(world.bob, world.channel, "table vote-abandon")).final_message()
        assert "Every player voted" in emu.last_message(world.channel).content
        assert await bot.db.active_game_in_channel(world.channel.id) is None


async def test_a_computers_whole_turn_is_one_board_worded_with_every_move(emu, world, config_for, monkeypatch) -> None:
    """A computer's sub-steps are played back to back and the delivery posts one board
    for the turn: no board is posted between two moves of one computer turn, and the turn's board
    names its moves (Noctiluca: a dive is a shore, a path and a number, then stores)."""
    from bot.posting import Poster

    posted: list[tuple[int, list[int]]] = []  # each board: its version, the seats to move on it
    post = Poster.post_board

    async def recorded(self, row, state, lines, seats=None, **how):  # how: edit, mention, nonce
        message = await post(self, row, state, lines, seats, **how)
        posted.append((state.version, list(state.to_move())))
        return message

    monkeypatch.setattr(Poster, "post_board", recorded)
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config, computer_delay=FAST)) as bot:
        await open_with_computers(emu, world, "noctiluca", 1, "easy")
        game_id = stored(config.database, "SELECT id FROM games")[0][0]
        table = Table(emu, world.channel, [world.alice])
        for _ in range(12):  # Alice's moves, the computer's turns between them
            await bot.flow.computer_turns.idle()
            await emu.wait_until(lambda: table.finished() or world.alice.id in mentioned(table.board()))
            if table.finished():
                break
            await table.play_one()
        await bot.flow.computer_turns.idle()
        await bot.flow.delivery.caught_up()
        moves = stored(config.database, "SELECT version, seat FROM actions WHERE game_id = ?", (game_id,))
        by = {row["version"]: row["seat"] for row in moves}
        computer_moves = [v for v, seat in by.items() if seat == 1]
        assert len(computer_moves) > 3, "the computer played its part"
        for version, movers in posted:
            if by.get(version) == 1:
                assert 1 not in movers, f"a board was posted in the middle of the computer's turn (version {version})"
        turns = [v for v in computer_moves if by.get(v + 1) != 1]  # the last move of each computer turn
        boards = {version for version, _ in posted}
        assert any(by.get(v - 1) == 1 for v in turns), "some computer turn had several moves"
        assert all(v in boards for v in turns), "each computer turn has its board"
