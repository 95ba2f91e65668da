"""A player's data (README, "Privacy"): /meeple my-data, /meeple forget-me and their command-line
twins, through the real bot and the loopback emulator on a real SQLite file."""

from __future__ import annotations

import asyncio
import gzip
import json
import re
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.client import MeepleBot
from emulator.testing import running
from services.storage import Database, ratings
from services.storage import privacy as store
from tests.support.driver import Table, is_board
from tests.support.stored import stored

NAME = "Zephyrine"  # the forgotten player's name: found nowhere else in a database


@pytest.fixture(autouse=True)
def no_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished table's animated replay is tested with the games; here it only slows things down."""

    async def skip(flow, row, message, seats=None) -> None:
        return None

    monkeypatch.setattr("bot.history_ui.attach_replay", skip)


def newcomer(emu, world, name: str = NAME):
    user = emu.add_user(name.lower(), global_name=f"{name} Quill")
    emu.add_member(world.guild, user)
    return user


async def open_table(emu, world, bot, creator, others, game: str, channel=None, **options) -> int:
    """A started table of ``game`` in ``channel`` (a new one by default): ``creator`` and ``others``."""
    channel = channel or emu.add_text_channel(world.guild, f"table-{len(emu.state.channels)}")
    created = await emu.slash(creator, channel, "table create", {"game": game, **options})
    assert (await created.final_message()).ephemeral
    lobby = emu.last_message(channel)
    for user in others:
        await (await emu.click(user, lobby, label="Join")).response()
        await emu.wait_until(lambda u=user: f"<@{u.id}>" in lobby.content, what="a player in the lobby")
    await (await emu.click(creator, lobby, label="Start")).response()
    await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(channel)), what="the first board")
    return (await bot.db.active_game_in_channel(channel.id)).id


async def resign(emu, bot, user, game_id: int) -> None:
    row = await bot.db.get_game(game_id)
    path = bot.db.path
    channel = emu.state.channels[row.channel_id]
    asked = await (await emu.slash(user, channel, "table resign")).final_message()
    done = await (await emu.click(user, asked, label=asked.buttons()[0]["label"])).final_message()
    assert done.ephemeral
    await emu.wait_until(
        lambda: bool(stored(path, "SELECT 1 FROM results WHERE game_id = ?", (game_id,))),
        what="the results stored",
    )


def others_results(path, user_id: int) -> list[tuple]:
    rows = stored(path, "SELECT * FROM results WHERE user_id <> ? ORDER BY game_id, seat", (user_id,))
    return [tuple(r) for r in rows]


def others_ratings(path, user_id: int) -> list[tuple]:
    rows = stored(
        path,
        "SELECT guild_id, game, user_id, mu, sigma, games FROM ratings WHERE user_id <> ? ORDER BY 1, 2, 3",
        (user_id,),
    )
    return [tuple(r) for r in rows]


def traces(path: Path, user_id: int, name: str) -> list[str]:
    """Every place in the SQLite file where the user id (as a number, or within a text) or the
    name (any case) is stored: table, column and value."""
    found = []
    needle = name.lower()
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            cursor = conn.execute(f'SELECT * FROM "{table}"')
            columns = [d[0] for d in cursor.description]
            for row in cursor:
                for column, value in zip(columns, row, strict=True):
                    if isinstance(value, bytes):
                        value = value.decode("utf-8", "replace")
                    if value == user_id or (isinstance(value, float) and value == float(user_id)):
                        found.append(f"{table}.{column} = {value}")
                    elif isinstance(value, str) and (str(user_id) in value or needle in value.lower()):
                        found.append(f"{table}.{column}: {value[:200]}")
    return found


async def rebuilt_others(path: Path, user_ids: set[int]) -> list[tuple]:
    """The ratings ``python -m services.ratings_tool rebuild`` gives, for ``user_ids``."""
    async with await Database.open(path) as db:
        async with db.transaction() as conn:
            await ratings.rebuild(conn)
        rows = await db.query("SELECT guild_id, game, user_id, mu, sigma, games FROM ratings ORDER BY 1, 2, 3")
    return [tuple(r) for r in rows if r[2] in user_ids]


async def test_my_data_then_forget_me_leaves_no_trace_and_others_results_whole(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    zeph = newcomer(emu, world)
    alice, bob = world.alice, world.bob
    async with running(emu, MeepleBot(config)) as bot:
        # A rated duel Zephyrine loses by resigning, after a move of her own; a three-player game
        # Alice resigns (Zephyrine created it); a game still running; a challenge attempt still
        # running; a tournament sign-up; a vacation.
        duel = await open_table(emu, world, bot, zeph, [alice], "vivarium")
        table = Table(emu, emu.state.channels[(await bot.db.get_game(duel)).channel_id], [zeph, alice])
        while True:
            mover = re.findall(r"<@(\d+)>", table.board().content)
            if mover and int(mover[0]) == zeph.id:
                break
            await table.play_one()
        await table.play_one()  # Zephyrine's own move
        await resign(emu, bot, zeph, duel)
        trio = await open_table(emu, world, bot, zeph, [alice, bob], "noctiluca")
        await resign(emu, bot, alice, trio)
        # Casual: its end (her resignation, when she is forgotten) moves no rating.
        live = await open_table(emu, world, bot, bob, [zeph], "vivarium", casual=True)
        opened = await (
            await emu.slash(zeph, world.channel, "meeple challenge", {"mode": "noctiluca-solo"})
        ).final_message()
        assert opened.ephemeral and "private thread" in opened.content, opened.content
        attempt = stored(config.database, "SELECT game_id FROM challenge_attempts WHERE user_id = ?", (zeph.id,))
        assert attempt
        tournament = await (
            await emu.slash(
                world.owner,
                world.channel,
                "tournament create",
                {"name": "Autumn", "game": "vivarium", "format": "swiss"},
            )
        ).final_message()
        tid = int(re.search(r"Tournament #(\d+)", tournament.content).group(1))
        signup = next(m for m in reversed(emu.messages(world.channel)) if f"(tournament #{tid})" in m.content)
        joined = await (await emu.click(zeph, signup, label="Join")).final_message()
        assert "signed up" in joined.content, joined.content
        away = await (await emu.slash(zeph, world.channel, "meeple vacation", {"days": 3})).final_message()
        assert away.ephemeral

        # The export: one JSON file on a private answer, every kind present, only her own.
        answer = await (await emu.slash(zeph, world.channel, "meeple my-data")).final_message()
        assert answer.ephemeral and answer.attachments, answer.content
        file = answer.attachments[0]
        assert file.filename.endswith(".json")
        text = file.content.decode()
        data = json.loads(text)
        assert data["user_id"] == zeph.id
        assert {s["game_id"] for s in data["seats"]} == {duel, trio, live, attempt[0]["game_id"]}
        assert any(m["game_id"] == duel and m["action"] != "resign" for m in data["moves"]), "her own move"
        assert {m["game_id"] for m in data["moves"] if m["action"] == "resign"} == {duel}
        own_seats = {(s["game_id"], s["seat"]) for s in data["seats"]}
        assert all((m["game_id"], m["seat"]) in own_seats for m in data["moves"]), "only her seats' moves"
        assert {r["game_id"] for r in data["results"]} == {duel, trio}
        assert data["ratings"] and data["rating_history"]
        assert data["settings"]["locale"]
        assert len(data["vacations"]) == 1
        assert data["challenge_entries"][0]["mode"] == "noctiluca-solo"
        assert data["tournament_entries"][0]["tournament_id"] == tid
        assert str(alice.id) not in text and str(bob.id) not in text, "nothing of another player"
        assert "Alice" not in text and '"state"' not in text, "no game state: no seat's hidden information"
        # Someone else's export holds nothing of hers.
        theirs = await (await emu.slash(bob, world.channel, "meeple my-data")).final_message()
        assert str(zeph.id) not in theirs.attachments[0].content.decode()

        results_before = others_results(config.database, zeph.id)
        ratings_before = others_ratings(config.database, zeph.id)
        assert ratings_before and results_before

        # Forgetting asks first. Only she sees her button; a modified client's click with her
        # button's id, from Alice's own question, forgets nobody.
        asked = await (await emu.slash(zeph, world.channel, "meeple forget-me")).final_message()
        assert asked.ephemeral and "2 open tables" in asked.content, asked.content
        label = asked.buttons()[0]["label"]
        hers = await (await emu.slash(alice, world.channel, "meeple forget-me")).final_message()
        assert "0 open tables" in hers.content, hers.content
        forged = await emu.forge_component(alice, hers, asked.buttons()[0]["custom_id"])
        refused = await forged.final_message()
        assert refused.ephemeral and "forgotten" not in refused.content, refused.content
        assert stored(config.database, "SELECT 1 FROM ratings WHERE user_id = ?", (zeph.id,)), "nothing changed"
        assert stored(config.database, "SELECT 1 FROM ratings WHERE user_id = ?", (alice.id,)), "nothing changed"
        done = await (await emu.click(zeph, asked, label=label)).final_message()
        assert done.ephemeral and "forgotten you" in done.content, done.content

        # Her running games were resigned, announced under the anonymous label.
        for game_id in (live, attempt[0]["game_id"]):
            assert (await bot.db.get_game(game_id)).status == "finished"
        live_channel = emu.state.channels[(await bot.db.get_game(live)).channel_id]
        await emu.wait_until(
            lambda: any("Former player 1 resigned" in m.content for m in emu.messages(live_channel)),
            what="the resignation on the board",
        )

    assert traces(config.database, zeph.id, NAME) == []
    anonymous = store.ANONYMOUS_BASE + 1
    assert stored(config.database, "SELECT display_name FROM seats WHERE user_id = ?", (anonymous,))[0][0] == (
        "Former player 1"
    )
    assert not stored(config.database, "SELECT 1 FROM entrants WHERE tournament_id = ?", (tid,)), "sign-up withdrawn"
    # The other players' results and ratings are as they were; the live game's are new, and
    # rank her last.
    after = [r for r in others_results(config.database, anonymous) if r[0] not in (live, attempt[0]["game_id"])]
    assert after == results_before
    live_results = stored(config.database, "SELECT user_id, rank, forfeited FROM results WHERE game_id = ?", (live,))
    assert {(r[0], r[1], r[2]) for r in live_results} == {(bob.id, 1, 0), (anonymous, 2, 1)}
    assert others_ratings(config.database, anonymous) == ratings_before
    assert not stored(config.database, "SELECT 1 FROM ratings WHERE user_id = ?", (anonymous,))
    # Ratings are derived from results: rebuilding them gives the others the same numbers.
    assert await rebuilt_others(config.database, {alice.id, bob.id}) == [
        r for r in ratings_before if r[2] in (alice.id, bob.id)
    ]


def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, database: Path) -> None:
    (tmp_path / "empty.env").write_text("")
    monkeypatch.setenv("MEEPLE_ENV_FILE", str(tmp_path / "empty.env"))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("MEEPLE_DB", str(database))


async def test_the_owner_does_the_same_from_the_command_line(
    emu, world, config_for, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys
) -> None:
    config = config_for(emu, world.guild.id)
    environment(monkeypatch, tmp_path, config.database)
    zeph = newcomer(emu, world)
    async with running(emu, MeepleBot(config)) as bot:
        finished = await open_table(emu, world, bot, world.alice, [zeph, world.bob], "noctiluca")
        await resign(emu, bot, world.alice, finished)
        live = await open_table(emu, world, bot, zeph, [world.bob], "vivarium")
    results_before = others_results(config.database, zeph.id)
    ratings_before = others_ratings(config.database, zeph.id)

    # Bad input is refused with a word, never a traceback.
    assert await asyncio.to_thread(main, ["my-data", "not-a-number"]) == 2
    assert await asyncio.to_thread(main, ["forget-me", "5"]) == 2, "a computer seat's id"
    out = tmp_path / "zeph.json"
    assert await asyncio.to_thread(main, ["my-data", str(zeph.id), "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert {s["game_id"] for s in data["seats"]} == {finished, live} and data["results"] and data["ratings"]
    assert str(world.alice.id) not in out.read_text()
    capsys.readouterr()
    assert await asyncio.to_thread(main, ["my-data", str(zeph.id)]) == 0
    assert json.loads(capsys.readouterr().out) == data

    # Without --yes it only says what it would do.
    assert await asyncio.to_thread(main, ["forget-me", str(zeph.id)]) == 2
    assert traces(config.database, zeph.id, NAME), "nothing was forgotten yet"
    assert await asyncio.to_thread(main, ["forget-me", str(zeph.id), "--yes"]) == 0
    assert f"game {live}: resigned" in capsys.readouterr().out
    assert traces(config.database, zeph.id, NAME) == []
    assert (stored(config.database, "SELECT status FROM games WHERE id = ?", (live,)))[0][0] == "finished"
    anonymous = store.ANONYMOUS_BASE + 1
    # The resignation stored the live table's results and moved its ratings in its own
    # transaction; nothing else of the others' changed.
    assert [r for r in others_results(config.database, anonymous) if r[0] != live] == results_before
    assert [r for r in others_ratings(config.database, anonymous) if r[1] != "vivarium"] == ratings_before
    assert {r[2] for r in others_ratings(config.database, anonymous) if r[1] == "vivarium"} == {world.bob.id}

    # At the next start the bot posts the resignation's board (the results are already stored).
    live_channel = emu.state.channels[_channel(config, live)]
    async with running(emu, MeepleBot(config)):
        await emu.wait_until(
            lambda: any("Former player 1 resigned" in m.content for m in emu.messages(live_channel)),
            what="the resignation posted at the start",
        )
        await emu.wait_until(
            lambda: len(stored(config.database, "SELECT 1 FROM results WHERE game_id = ?", (live,))) == 2,
            what="the results stored",
        )
    ranks = stored(config.database, "SELECT user_id, rank, forfeited FROM results WHERE game_id = ?", (live,))
    assert {(r[0], r[1], r[2]) for r in ranks} == {(world.bob.id, 1, 0), (anonymous, 2, 1)}
    assert traces(config.database, zeph.id, NAME) == []


def _channel(config, game_id: int) -> int:
    return int(stored(config.database, "SELECT channel_id FROM games WHERE id = ?", (game_id,))[0][0])


async def test_the_confirmation_still_works_after_a_restart(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    zeph = newcomer(emu, world)
    async with running(emu, MeepleBot(config)) as bot:
        lobby = await emu.slash(zeph, world.channel, "table create", {"game": "vivarium"})
        assert (await lobby.final_message()).ephemeral
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        asked = await (await emu.slash(zeph, world.channel, "meeple forget-me")).final_message()
        assert "1 open table is left" in asked.content, asked.content
    async with running(emu, MeepleBot(config)) as bot:
        done = await (await emu.click(zeph, asked, label=asked.buttons()[0]["label"])).final_message()
        assert "forgotten you (1 open table left)" in done.content, done.content
        assert (await bot.db.get_game(game_id)).status == "abandoned", "her lobby, left empty, is closed"
    assert traces(config.database, zeph.id, NAME) == []


async def test_a_computer_takes_her_seat_where_the_table_allows_it(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    zeph = newcomer(emu, world)
    async with running(emu, MeepleBot(config, computer_delay=0.01)) as bot:
        game_id = await open_table(emu, world, bot, world.alice, [world.bob, zeph], "vivarium", takeover=True)
        channel = emu.state.channels[(await bot.db.get_game(game_id)).channel_id]
        asked = await (await emu.slash(zeph, world.channel, "meeple forget-me")).final_message()
        done = await (await emu.click(zeph, asked, label=asked.buttons()[0]["label"])).final_message()
        assert "forgotten you" in done.content, done.content
        notice = next(m for m in emu.messages(channel) if "takes their seat" in m.content)
        assert "Former player 1 resigned" in notice.content and str(zeph.id) not in notice.content
        assert (await bot.db.get_game(game_id)).status == "running", "the others play on"
        left = stored(config.database, "SELECT left_user FROM computer_seats WHERE game_id = ?", (game_id,))
        assert [r[0] for r in left] == [store.ANONYMOUS_BASE + 1], "the seat she left, under her anonymous id"
        await bot.flow.computer_turns.idle()
    assert traces(config.database, zeph.id, NAME) == []


async def test_a_large_export_goes_gzipped_and_one_too_large_is_refused_with_a_word(
    emu, world, config_for, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)):
        await (await emu.slash(world.alice, world.channel, "meeple vacation", {"days": 2})).final_message()
        plain = await (await emu.slash(world.alice, world.channel, "meeple my-data")).final_message()
        size = len(plain.attachments[0].content)
        monkeypatch.setattr("bot.privacy_ui.ATTACHMENT_LIMIT", size - 1)
        packed = await (await emu.slash(world.alice, world.channel, "meeple my-data")).final_message()
        assert packed.ephemeral and packed.attachments[0].filename.endswith(".json.gz")
        assert json.loads(gzip.decompress(packed.attachments[0].content)) == json.loads(plain.attachments[0].content)
        monkeypatch.setattr("bot.privacy_ui.ATTACHMENT_LIMIT", 10)
        refused = await (await emu.slash(world.alice, world.channel, "meeple my-data")).final_message()
        assert refused.ephemeral and not refused.attachments and "python -m bot my-data" in refused.content
