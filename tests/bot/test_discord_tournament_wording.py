"""Tournaments that explain themselves, through the real bot and the emulator,
in each language the bot ships: the sign-up message says how the tournament is played, byes and
matches are named as players say them, and a drawn elimination duel says who goes on and why."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta

import pytest

from bot.client import MeepleBot
from emulator.testing import running
from l10n.words import game_title, t
from services import tournament_reports as pictures
from tests.support.stored import stored

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")

LANGUAGES = ["en", "zh-TW", "pt-BR"]


@pytest.fixture(autouse=True)
def no_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished table's animated replay is tested with the games; it only slows these down."""

    async def skip(flow, row, message, seats=None) -> None:
        return None

    monkeypatch.setattr("bot.history_ui.attach_replay", skip)


def players(emu, world, count: int) -> list:
    users = []
    for n in range(count):
        user = emu.add_user(f"p{n}", global_name=f"Player {n:02d}")
        emu.add_member(world.guild, user)
        users.append(user)
    return users


async def speak(emu, world, language: str) -> None:
    """The server's language, which a tournament created afterwards speaks."""
    if language != "en":
        answer = await (
            await emu.slash(world.owner, world.channel, "meeple settings", {"language": language})
        ).final_message()
        assert answer.ephemeral


async def open_tournament(emu, world, users, **options):
    """Create (the organiser's answer is in their own client's English), sign everyone up with the
    sign-up message's first button (Join, in the tournament's language); the sign-up message."""
    answer = await (await emu.slash(world.owner, world.channel, "tournament create", options)).final_message()
    found = re.search(r"Tournament #(\d+)", answer.content)
    assert found, answer.content
    tid = int(found.group(1))

    def signup():
        return next(
            m
            for m in reversed(emu.messages(world.channel))
            if any(b.get("custom_id", "").startswith(f"mp:tour:{tid}:") for b in m.buttons())
        )

    for user in users:
        message = signup()
        joined = await (await emu.click(user, message, message.buttons()[0]["custom_id"])).final_message()
        assert joined.ephemeral
    return tid, signup()


async def start(emu, world, bot, tid: int) -> None:
    answer = await (
        await emu.slash(world.owner, world.channel, "tournament start", {"tournament": tid})
    ).final_message()
    assert "has started" in answer.content, answer.content
    await bot.tournaments.idle()


def seeds(path, tid: int) -> list[int]:
    return [
        r["user_id"]
        for r in stored(path, "SELECT user_id FROM entrants WHERE tournament_id = ? ORDER BY seed_order", (tid,))
    ]


def pairings_post(emu, world, loc: str, number: int = 1):
    head = t("tournament.pairings-title", loc, name="Cup", round=number)
    return next(m for m in emu.messages(world.channel) if m.content.startswith(head))


@pytest.mark.parametrize("loc", LANGUAGES)
async def test_a_drawn_elimination_duel_says_who_goes_on_and_why(emu, world, config_for, monkeypatch, loc) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 2)
    now = [datetime(2026, 11, 24, 12, 0, tzinfo=UTC)]
    sections: list[set[str]] = []
    real_bracket_png = pictures.bracket_png

    def bracket_png(title, subtitle, titles, matches):
        sections.append({m.section for m in matches})
        return real_bracket_png(title, subtitle, titles, matches)

    monkeypatch.setattr(pictures, "bracket_png", bracket_png)
    async with running(emu, MeepleBot(config, clock=lambda: now[0])) as bot:
        await speak(emu, world, loc)
        tid, signup = await open_tournament(
            emu, world, users, name="Cup", game="vivarium", format="single", unfinished="score"
        )
        # The sign-up says the format, the table size, how the rounds are set and the round length.
        for part in (
            t("tournament.format.single", loc),
            t("tournament.table-size", loc, count=2),
            t("tournament.rounds-auto.elimination", loc),
            t("tournament.days", loc, count=7),
        ):
            assert part in signup.content, (part, signup.content)
        await start(emu, world, bot, tid)
        first, second = seeds(config.database, tid)
        final = t("tournament.match.final", loc)
        posted = pairings_post(emu, world, loc)
        assert final in posted.content and "W1-1" not in posted.content, posted.content
        (table,) = stored(config.database, "SELECT * FROM pairings WHERE tournament_id = ?", (tid,))
        thread = emu.state.channels[table["thread_id"]]
        assert final in thread.name and "W1" not in thread.name, thread.name
        # Nobody moves; at the deadline the game is scored as it stands: a draw.
        now[0] += timedelta(days=8)
        await bot.tournaments.tick()
        await bot.tournaments.idle()
        result = json.loads(
            stored(config.database, "SELECT result FROM pairings WHERE tournament_id = ?", (tid,))[0][0]
        )
        assert result["how"] == "scored" and result["ranks"][0] == result["ranks"][1]
        a, b = result["scores"]  # in seat order, as the note gives them
        score = t("tournament.draw.score", loc, a=a, b=b)
        said = t(
            "tournament.draw.single",
            loc,
            match=final,
            winner=f"<@{first}>",
            loser=f"<@{second}>",
            winner_seed=1,
            loser_seed=2,
            score=score,
        )
        assert any(said == m.content for m in emu.messages(thread)), [m.content for m in emu.messages(thread)]
        names = {u.id: u.global_name for u in users}
        in_channel = t(
            "tournament.draw.single",
            loc,
            match=final,
            winner=names[first],
            loser=names[second],
            winner_seed=1,
            loser_seed=2,
            score=score,
        )
        over = [m for m in emu.messages(world.channel) if in_channel in m.content]
        assert over, "the round's announcement says it too"
        champion = t("tournament.champion", loc, name="Cup", winners=names[first])
        assert any(champion in m.content for m in emu.messages(world.channel)), "the better seed won"
        assert sections and all(found == {""} for found in sections), "one bracket: no section heading"


@pytest.mark.parametrize("loc", LANGUAGES)
async def test_a_bye_says_what_it_counts_for_and_has_no_table(emu, world, config_for, loc) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 3)
    async with running(emu, MeepleBot(config)) as bot:
        await speak(emu, world, loc)
        tid, signup = await open_tournament(emu, world, users, name="Cup", game="vivarium", format="swiss")
        assert t("tournament.rounds-auto.field", loc, count=4, field=16) in signup.content, signup.content
        assert t("tournament.table-size", loc, count=2) in signup.content
        await start(emu, world, bot, tid)
        tables = stored(config.database, "SELECT * FROM pairings WHERE tournament_id = ? ORDER BY slot", (tid,))
        (bye,) = [json.loads(x["players"]) for x in tables if len(json.loads(x["players"])) == 1]
        posted = pairings_post(emu, world, loc).content
        line = t("tournament.line.bye-duel", loc, players=f"<@{bye[0]}>", points=3)
        assert line in posted.splitlines(), posted
        assert t("tournament.table", loc, table=2) not in posted, "a bye is no table"


async def test_elimination_matches_are_named_as_players_name_them(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 8)
    async with running(emu, MeepleBot(config)) as bot:
        tid, signup = await open_tournament(emu, world, users, name="Cup", game="noctiluca", format="double")
        assert "as many rounds as the bracket needs" in signup.content
        await start(emu, world, bot, tid)
        posted = pairings_post(emu, world, "en").content
        assert [f"Winners' round 1, match {n}" in posted for n in range(1, 5)] == [True] * 4, posted
        assert not re.search(r"\b[WL]\d-\d\b", posted)


async def test_both_semi_final_losers_stand_on_the_podium(emu, world, config_for, monkeypatch) -> None:
    from render.tournament_pictures import podium_steps
    from tests.bot.test_discord_tournaments import play_rounds

    config = config_for(emu, world.guild.id)
    users = players(emu, world, 4)
    drawn: list[list[tuple[str, str, str]]] = []
    real_podium_png = pictures.podium_png

    def podium_png(title, subtitle, places):
        drawn.append(list(places))
        return real_podium_png(title, subtitle, places)

    monkeypatch.setattr(pictures, "podium_png", podium_png)
    async with running(emu, MeepleBot(config)) as bot:
        tid, _ = await open_tournament(emu, world, users, name="Cup", game="vivarium", format="single")
        await start(emu, world, bot, tid)
        await play_rounds(bot, config.database, tid, random.Random(30))
        (places,) = drawn
        assert [label for label, _, _ in places] == ["1", "2", "3", "3"]
        steps, below = podium_steps(places)
        assert [len(step.entries) for step in steps] == [1, 1, 2] and below == []
        posted = next(m for m in emu.messages(world.channel) if any(a.filename == "podium.png" for a in m.attachments))
        podium = next(a for a in posted.attachments if a.filename == "podium.png")
        thirds = [name for label, name, _ in places if label == "3"]
        assert all(f"3. {name}" in (podium.description or "") for name in thirds), podium.description


@pytest.mark.parametrize("loc", LANGUAGES)
async def test_the_tournament_autocomplete_speaks_the_readers_language(emu, world, config_for, loc) -> None:
    """Typing a tournament's name offers it with its game and status in the reader's language."""
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)):
        tid, _ = await open_tournament(emu, world, [], name="Cup", game="vivarium", format="swiss")
        reader = emu.add_user("reader", global_name="Reader", locale=loc)
        emu.add_member(world.guild, reader)
        typed = await emu.autocomplete(reader, world.channel, "tournament join", {"tournament": "cu"}, "tournament")
        (choice,) = await typed.choices()
        status = t("tournament.autocomplete.signup", loc)
        game = game_title("vivarium", loc)
        expected = t("tournament.autocomplete", loc, id=tid, name="Cup", game=game, status=status)
        assert choice == {"name": expected, "value": tid}
        assert "signup" not in choice["name"]
        if loc == "zh-TW":
            assert choice["name"] == f"#{tid} Cup（生態園，報名中）"
