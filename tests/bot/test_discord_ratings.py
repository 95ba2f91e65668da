"""Ratings through the real bot and the loopback emulator.

Games are ended quickly by a resignation, which the rules rank last (results.rank): the point
here is the rating arithmetic and where it runs, not the games themselves.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from openskill.models import PlackettLuce
from PIL import Image

from bot.client import MeepleBot
from emulator.testing import running
from league import rating_maths as ratings
from tests.support.driver import concede_together, is_board
from tests.support.stored import stored

# Set to a folder to keep the pictures for a look (they are checked for size here, judged by eye).
SAVE_IMAGES = Path(os.environ["MEEPLE_SAVE_IMAGES"]) if os.environ.get("MEEPLE_SAVE_IMAGES") else None


def extra_players(emu, world, count: int) -> list:
    users = [world.alice, world.bob]
    for name in ("carol", "dave")[: count - 2]:
        user = emu.add_user(name, global_name=name.title())
        emu.add_member(world.guild, user)
        users.append(user)
    return users


async def play_and_resign(emu, world, bot, game: str, users: list, resigner, options: dict | None = None) -> int:
    """Open a table of ``game``, seat ``users``, start, and end it by ``resigner``'s resignation."""
    created = await emu.slash(world.alice, world.channel, "table create", {"game": game, **(options or {})})
    assert (await created.final_message()).ephemeral
    lobby = emu.last_message(world.channel)
    for user in users[1:]:
        await (await emu.click(user, lobby, label="Join")).response()
        await emu.wait_until(lambda u=user: f"<@{u.id}>" in lobby.content, what="a player in the lobby")
    boards = sum(1 for m in emu.messages(world.channel) if is_board(m))
    await (await emu.click(world.alice, lobby, label="Start")).response()
    # This table's first board (earlier tables of the channel have boards too).
    await emu.wait_until(
        lambda: sum(1 for m in emu.messages(world.channel) if is_board(m)) > boards, what="the first board"
    )
    game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
    asked = await (await emu.slash(resigner, world.channel, "table resign")).final_message()
    # The answer comes after the move is stored and its results recorded (Flow.resign).
    done = await (await emu.click(resigner, asked, label=asked.buttons()[0]["label"])).final_message()
    assert done.ephemeral
    assert await bot.db.query("SELECT 1 FROM results WHERE game_id = ?", (game_id,)), "results stored"
    return game_id


def expected_after(path, guild_id: int) -> dict[tuple[str, int], tuple[float, float]]:
    """openskill's own rate(), applied game by game to the stored ranks of the rated games."""
    model = PlackettLuce()
    current: dict[tuple[str, int], tuple[float, float]] = {}
    games = stored(
        path,
        "SELECT g.id, g.game FROM games g WHERE g.status = 'finished' AND g.rated = 1 AND g.guild_id = ?"
        " ORDER BY g.finished_at, g.id",
        (guild_id,),
    )
    for game in games:
        rows = stored(path, "SELECT user_id, rank FROM results WHERE game_id = ? ORDER BY seat", (game["id"],))
        if not 2 <= len(rows) <= 4 or game["game"] == "fox-duet":
            continue
        teams = []
        for row in rows:
            mu, sigma = current.get((game["game"], row["user_id"]), (model.mu, model.sigma))
            teams.append([model.rating(mu=mu, sigma=sigma)])
        rated = model.rate(teams, ranks=[row["rank"] for row in rows])
        for row, team in zip(rows, rated, strict=True):
            current[(game["game"], row["user_id"])] = (team[0].mu, team[0].sigma)
    return current


def stored_ratings(path, guild_id: int) -> dict[tuple[str, int], tuple[float, float]]:
    rows = stored(path, "SELECT game, user_id, mu, sigma FROM ratings WHERE guild_id = ?", (guild_id,))
    return {(r["game"], r["user_id"]): (r["mu"], r["sigma"]) for r in rows}


async def test_rated_games_move_ratings_as_openskill_says_and_casual_ones_do_not(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = extra_players(emu, world, 4)
    alice, bob, carol, dave = users
    async with running(emu, MeepleBot(config)) as bot:
        # 2, 3 and 4 players, three games; the resigner is last, the others share or split the top.
        two = await play_and_resign(emu, world, bot, "vivarium", [alice, bob], bob)
        three = await play_and_resign(emu, world, bot, "noctiluca", [alice, bob, carol], carol)
        four = await play_and_resign(emu, world, bot, "tm-dice", [alice, bob, carol, dave], alice)
        again = await play_and_resign(emu, world, bot, "vivarium", [alice, bob], alice)
        for game_id, resigner, players in ((two, 1, 2), (three, 2, 3), (four, 0, 4), (again, 0, 2)):
            ranks = [
                r["rank"]
                for r in stored(config.database, "SELECT rank FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
            ]
            assert len(ranks) == players and ranks[resigner] == players, "a resignation ranks last"
        after = stored_ratings(config.database, world.guild.id)
        assert after == expected_after(config.database, world.guild.id)
        assert len(after) == 2 + 3 + 4 - 0  # vivarium: 2 players; noctiluca: 3; tm-dice: 4
        history = stored(config.database, "SELECT game_id FROM rating_history")
        assert len(history) == 2 + 3 + 4 + 2, "one history row per rated game and player"

        # A casual table stores its result but moves nobody's rating.
        casual = await play_and_resign(emu, world, bot, "vivarium", [alice, bob], bob, {"casual": True})
        assert stored(config.database, "SELECT rated FROM games WHERE id = ?", (casual,))[0]["rated"] == 0
        assert stored(config.database, "SELECT COUNT(*) AS n FROM results WHERE game_id = ?", (casual,))[0]["n"] == 2
        assert stored_ratings(config.database, world.guild.id) == after
        assert not stored(config.database, "SELECT 1 FROM rating_history WHERE game_id = ?", (casual,))

        # The leaderboard: everyone is provisional after so few games, listed apart, worded.
        board = await (
            await emu.slash(carol, world.channel, "meeple leaderboard", {"game": "vivarium"})
        ).final_message()
        assert board.ephemeral and "Vivarium" in board.content and "Provisional" in board.content
        assert f"<@{alice.id}>" in board.content and f"<@{carol.id}>" not in board.content
        shown = {u: ratings.shown(*after[("vivarium", u.id)]) for u in (alice, bob)}
        for user, number in shown.items():
            assert f"<@{user.id}>: {number} (2 games)" in board.content
        # The record shows the rating of this server.
        record = await (await emu.slash(bob, world.channel, "meeple record")).final_message()
        assert f"rating {shown[bob]} (provisional: 2 of {ratings.PROVISIONAL_GAMES}" in record.content
        # The profile: the same record, the trend, the latest games with links, and a card image.
        page = await (await emu.slash(carol, world.channel, "meeple profile", {"member": bob})).final_message()
        assert page.ephemeral and "5 finished games" in page.content
        assert "Latest games:" in page.content and "https://discord.com/channels/" in page.content
        assert page.attachments and page.attachments[0].filename == "profile.png"
        card = Image.open(io.BytesIO(page.attachments[0].content))
        assert card.format == "PNG" and card.width == 900
        picture = board.attachments[0]
        assert picture.filename == "leaderboard.png" and Image.open(io.BytesIO(picture.content)).width == 900
        if SAVE_IMAGES:
            SAVE_IMAGES.mkdir(parents=True, exist_ok=True)
            (SAVE_IMAGES / "profile.png").write_bytes(page.attachments[0].content)
            (SAVE_IMAGES / "leaderboard.png").write_bytes(picture.content)


async def test_rebuild_gives_exactly_the_incremental_ratings_and_only_for_the_owner(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = extra_players(emu, world, 3)
    owner = emu.state.application.owner
    emu.add_member(world.guild, owner)
    async with running(emu, MeepleBot(config)) as bot:
        await play_and_resign(emu, world, bot, "vivarium", users[:2], users[0])
        await play_and_resign(emu, world, bot, "noctiluca", users, users[1])
        await play_and_resign(emu, world, bot, "vivarium", users[:2], users[1])
        incremental = stored(config.database, "SELECT * FROM ratings ORDER BY game, user_id")
        history = stored(config.database, "SELECT * FROM rating_history ORDER BY game_id, user_id")
        assert incremental and history

        refused = await (await emu.slash(world.alice, world.channel, "meeple rebuild-ratings")).final_message()
        assert refused.ephemeral and "Only the bot's owner" in refused.content

        # Wipe the ratings by hand, then rebuild from the results alone: the same numbers, exactly.
        stored(config.database, "UPDATE ratings SET mu = 0, sigma = 1")
        done = await (await emu.slash(owner, world.channel, "meeple rebuild-ratings")).final_message()
        assert done.ephemeral and "3 rated games" in done.content
        rebuilt = stored(config.database, "SELECT * FROM ratings ORDER BY game, user_id")
        assert [dict(r) | {"updated_at": None} for r in rebuilt] == [
            dict(r) | {"updated_at": None} for r in incremental
        ]
        assert [dict(r) for r in stored(config.database, "SELECT * FROM rating_history ORDER BY game_id, user_id")] == [
            dict(r) for r in history
        ]


async def test_cooperative_and_solo_games_keep_score_records_not_ratings(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    # The computer partner never moves on its own here (the team concedes first).
    async with running(emu, MeepleBot(config, computer_delay=3600)) as bot:
        # Fox Duet, ended by the team's concession: one asks, the partner agrees.
        await (await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet"})).final_message()
        lobby = emu.last_message(world.channel)
        await (await emu.click(world.bob, lobby, label="Join")).response()
        await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob in the lobby")
        await (await emu.click(world.alice, lobby, label="Start")).response()
        await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
        await concede_together(emu, world.channel, world.bob, world.alice)
        assert await bot.db.query("SELECT 1 FROM results r JOIN games g ON g.id = r.game_id WHERE g.game = 'fox-duet'")
        # Fox Duet with a computer partner: the lobby is full at once, the lists name the computer
        # with its level, and the computer agrees to the team's concession.
        opened = await emu.slash(world.alice, world.channel, "table create", {"game": "fox-duet", "computers": 1})
        await opened.final_message()
        lobby = emu.last_message(world.channel)
        assert "The table is full" in lobby.content and "Press **Join**" not in lobby.content, lobby.content
        assert lobby.button("Join")["disabled"] and not lobby.button("Start")["disabled"]
        await (await emu.click(world.alice, lobby, label="Start")).response()
        listed = await (await emu.slash(world.bob, world.channel, "meeple list")).final_message()
        assert f"<@{world.alice.id}>, Bot 1 (normal)" in listed.content and "<@1>" not in listed.content
        asked = await (await emu.slash(world.alice, world.channel, "table concede")).final_message()
        assert "Bot 1 (normal) agrees" in asked.content and "ranked last" not in asked.content
        await (await emu.click(world.alice, asked, label="Yes, we concede")).final_message()
        await emu.wait_until(
            lambda: "and Bot 1 (normal) agreed" in emu.messages(world.channel)[-1].content, what="the final board"
        )
        await emu.wait_until(lambda: "The team conceded" in asked.content and not asked.buttons(), what="the answer")
        profile = await (await emu.slash(world.alice, world.channel, "meeple profile")).final_message()
        assert ": lost " in profile.content and " of 2" not in profile.content, profile.content
        # Noctiluca solo, ended by a resignation.
        await play_and_resign(emu, world, bot, "noctiluca", [world.alice], world.alice)
        assert not stored(config.database, "SELECT 1 FROM ratings"), "co-operative and solo games are never rated"

        fox = await (
            await emu.slash(world.bob, world.channel, "meeple leaderboard", {"game": "fox-duet"})
        ).final_message()
        assert "best scores" in fox.content and "__Level 1__: 2 games, 0 won (0%)" in fox.content
        assert f"<@{world.alice.id}> and <@{world.bob.id}>" in fox.content
        assert f"<@{world.alice.id}> and Bot 1 (normal)" in fox.content and "<@1>" not in fox.content
        solo = await (
            await emu.slash(world.bob, world.channel, "meeple leaderboard", {"game": "noctiluca", "solo": True})
        ).final_message()
        assert "__Solo__: 1 game" in solo.content and f"1. <@{world.alice.id}>:" in solo.content
        for answer, name in ((fox, "fox"), (solo, "solo")):
            assert answer.attachments and answer.attachments[0].filename == "scores.png"
            if SAVE_IMAGES:
                (SAVE_IMAGES / f"scores-{name}.png").write_bytes(answer.attachments[0].content)
        rated = await (
            await emu.slash(world.bob, world.channel, "meeple leaderboard", {"game": "noctiluca"})
        ).final_message()
        assert "Nobody has a rating" in rated.content


async def test_leaderboard_refusals_change_nothing(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        coop = await (
            await emu.slash(world.alice, world.channel, "meeple leaderboard", {"game": "fox-duet"})
        ).final_message()
        assert coop.ephemeral and "Nobody has finished a game of" in coop.content
        nosolo = await (
            await emu.slash(world.alice, world.channel, "meeple leaderboard", {"game": "vivarium", "solo": True})
        ).final_message()
        assert nosolo.ephemeral and "has no solo mode" in nosolo.content
        deep = await (
            await emu.slash(world.alice, world.channel, "meeple leaderboard", {"game": "fox-duet", "page": 3})
        ).final_message()
        assert deep.ephemeral and "Nobody has finished" in deep.content
        empty = await (
            await emu.slash(world.alice, world.channel, "meeple leaderboard", {"game": "vivarium"})
        ).final_message()
        assert empty.ephemeral and "Nobody has a rating" in empty.content
        forged = await emu.slash(world.alice, world.channel, "meeple leaderboard", {"game": "chess"}, validate=False)
        assert (await forged.final_message()).ephemeral
