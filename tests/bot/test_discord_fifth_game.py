"""A game registered once: the tests' fifth game (tests/fifth_game/), registered with one line,
is offered, played, rated, played by a computer, played in a Swiss tournament and explained by
How to play, through the real bot and the loopback emulator, like the shipped games.

Nothing of the platform names it: its facts (competitive, rated), its words, its pictures, its
How to play pages and its computer's knowledge all come from its own registration.
"""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image

from ai.knowledge import knowledge_of
from bot.client import MeepleBot
from bot.cogs import GAME_CHOICES, GUIDE_CHOICES
from emulator.testing import running
from engine import GAMES
from l10n.words import has, listing, t
from league import formats
from league import rating_maths as ratings
from league import weekly_challenge as challenge
from render import RENDERERS
from render.howto import SCENES, pages
from services.game_entry import GameEntry, register
from services.wording import ADAPTERS
from tests.bot.test_discord_computers import open_with_computers, play_against_computers
from tests.bot.test_discord_tournaments import (
    create,
    finish_game,
    join_all,
    players,
    round_tables,
    start,
    tournament_row,
)
from tests.fifth_game import FIFTH
from tests.support.driver import Table, is_board
from tests.support.stored import stored

GAME = FIFTH.game.id
pytestmark = pytest.mark.usefixtures("no_replays")


@pytest.fixture
def fifth_game() -> Iterator[GameEntry]:
    undo = register(FIFTH)  # the one line that adds the game
    try:
        yield FIFTH
    finally:
        undo()


def test_the_platform_reads_the_registration_and_forgets_it_after() -> None:
    """Ratings, tournaments, the challenge, pictures, How to play and the computer read the game's
    own declaration; undoing the registration forgets it everywhere."""
    assert GAME not in GAMES
    undo = register(FIFTH)
    try:
        assert GAME in GAMES and GAME in RENDERERS and GAME in SCENES and GAME in ADAPTERS
        assert knowledge_of(GAME) is FIFTH.knowledge
        assert GAME in ratings.COMPETITIVE and ratings.counts(GAME, 2)
        assert GAME not in formats.CO_OPERATIVE and GAME not in formats.DUPLICATE_SIZES
        assert not [m for m in challenge.MODES.values() if m.game == GAME]
        assert t("game.title.tiny-duel") == "Tiny Duel"
        with pytest.raises(ValueError, match="registered twice"):
            register(FIFTH)
    finally:
        undo()
    assert GAME not in GAMES and GAME not in RENDERERS and GAME not in SCENES and GAME not in ADAPTERS
    assert GAME not in ratings.COMPETITIVE and not has("game.title.tiny-duel")


async def test_two_people_play_it_from_the_lobby_with_hands_by_dm_and_a_rated_result(
    fifth_game, emu, world, config_for
) -> None:
    config = config_for(emu, world.guild.id)
    table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
    async with running(emu, MeepleBot(config)) as bot:
        assert GAME in [c.value for c in GAME_CHOICES] and GAME in [c.value for c in GUIDE_CHOICES]
        created = await emu.slash(world.alice, world.channel, "table create", {"game": GAME})
        answer = await created.final_message()
        assert answer.ephemeral and "table is open" in answer.content, answer.content
        lobby = emu.last_message(world.channel)
        assert [b["label"] for b in lobby.buttons()] == ["Join", "Leave", "Start", "How to play"]
        await (await emu.click(world.bob, lobby, label="Join")).response()
        await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob listed in the lobby")
        await (await emu.click(world.alice, lobby, label="Start")).response()
        await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
        await emu.wait_until(lambda: len(emu.dms(world.alice)) and len(emu.dms(world.bob)), what="both hands by DM")
        row = await bot.db.active_game_in_channel(world.channel.id)
        state = GAMES[GAME].new(2, row.seed, row.options)
        for user, seat in ((world.alice, 0), (world.bob, 1)):
            cards = listing([str(card["value"]) for card in state.view(seat)["private"]["hand"]])
            dm = emu.dms(user)[0]
            assert t("tiny-duel.hand", cards=cards) in dm.content, dm.content
            assert dm.attachments, "the hand's picture comes with it"
        board = table.board()
        assert "Tiny Duel · trick 1 of 3" in board.content and "open My hand" in board.content
        # The hands stay private: the first board names no card of either hand.
        dealt = [card["id"] for seat in (0, 1) for card in state.view(seat)["private"]["hand"]]
        assert not any(f"Play {card[1:]}" in board.content for card in dealt)
        while not table.finished():
            await table.play_one()
        assert table.moves == 6
        finished = await bot.db.get_game(row.id)
        assert finished.status == "finished" and finished.outcome is not None
        assert "wins with" in table.board().content
        ranks = stored(config.database, "SELECT user_id, rank FROM results WHERE game_id = ? ORDER BY seat", (row.id,))
        assert sorted(r["rank"] for r in ranks) == [1, 2]
        rated = stored(
            config.database, "SELECT user_id FROM ratings WHERE guild_id = ? AND game = ?", (world.guild.id, GAME)
        )
        assert {r["user_id"] for r in rated} == {world.alice.id, world.bob.id}, "a competitive game is rated"
        assert stored(config.database, "SELECT 1 FROM rating_history WHERE game_id = ?", (row.id,))


async def test_a_computer_opponent_plays_it_to_the_end(fifth_game, emu, world, config_for) -> None:
    """The computer searches with the game's own knowledge, in the worker processes (which
    register the game when they start)."""
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), computer_delay=0.01)) as bot:
        await open_with_computers(emu, world, GAME, 1, "easy")
        table = await play_against_computers(emu, world, bot)
        assert table.finished()
        row = await bot.db.get_game((await bot.db.query("SELECT id FROM games ORDER BY id DESC LIMIT 1"))[0][0])
        assert row.status == "finished" and len(row.outcome["scores"]) == 2
        boards = [m for m in emu.messages(world.channel) if is_board(m)]
        assert any("Bot 1 (easy) plays" in m.content for m in boards), "the computer's moves are worded"


async def test_how_to_play_shows_its_pages_from_the_lobby_and_the_command(fifth_game, emu, world, config_for) -> None:
    count = len(pages(GAME))
    assert count == 3
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        asked = await emu.slash(world.alice, world.channel, "meeple rules", {"game": GAME})
        shown = await asked.final_message()
        assert shown.ephemeral and f"page 1 of {count}" in shown.content and "Win two tricks" in shown.content
        picture = shown.attachments[0]
        assert picture.filename == "how-to-play.png"
        assert Image.open(io.BytesIO(picture.content)).size == (1600, 900)
        step = await emu.click(world.alice, shown, label="Next ▶")
        await step.response()
        await emu.wait_until(lambda: f"page 2 of {count}" in shown.content, what="page 2")
        assert "A trick" in shown.content
        await (await emu.slash(world.bob, world.channel, "table create", {"game": GAME})).final_message()
        lobby = emu.last_message(world.channel)
        answer = await (await emu.click(world.alice, lobby, label="How to play")).final_message()
        assert answer.ephemeral and "How to play Tiny Duel" in answer.content, answer.content


async def test_a_two_round_swiss_tournament_of_it_runs_to_the_podium(fifth_game, emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 4)
    rng = random.Random(28)
    async with running(emu, MeepleBot(config)) as bot:
        tid = await create(emu, world, name="Duel night", game=GAME, format="swiss", rounds=2)
        await join_all(emu, world, tid, users)
        await start(emu, world, tid, bot)
        for number in (1, 2):
            tables = round_tables(config.database, tid, number)
            assert len(tables) == 2 and all(t["game_id"] for t in tables)
            await asyncio.gather(*(finish_game(bot, t["game_id"], rng) for t in tables))
            await bot.tournaments.idle()
        row = tournament_row(config.database, tid)
        assert row["status"] == "finished" and row["round"] == 2
        assert any(a.filename == "podium.png" for m in emu.messages(world.channel) for a in m.attachments)
        # Every table was played to its end by the rules (no resignation: the game has none).
        games = [t["game_id"] for n in (1, 2) for t in round_tables(config.database, tid, n)]
        for game_id in games:
            finished = await bot.db.get_game(game_id)
            assert finished.status == "finished" and sum(finished.outcome["scores"]) == 3
