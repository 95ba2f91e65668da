"""One language per message, through the real bot and the loopback emulator.

For each of the three languages, a server, its people and its table speak it; the test sends
every kind of message of tables and tournaments (lobby and its menus, refusals, boards, hands by
DM and on the button, status, the end of a game; sign-up, pairings, threads, greetings, organiser
corrections, standings, bracket, podium, cancellation) and checks, from the catalogues
(tests/support/languages.py), that none of them holds another language's words, nor English in a
translated message. The words drawn on the tournament pictures are checked too (as they are
handed to the drawing), and every game picture is drawn in the language of its message.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re

import pytest

import services.pictures
import services.tournament_reports as tournament_pictures
from bot.client import MeepleBot
from bot.languages import LANGUAGES
from emulator.testing import running
from l10n import entries
from l10n.words import t
from services.scheduler import GIVE_UP_KINDS
from services.storage import tournaments as store
from tests.support.driver import is_board
from tests.support.languages import CJK as CJK_TEXT
from tests.support.languages import PLACEHOLDER, Seen, foreign_words, message_texts, other_languages, words
from tests.support.stored import stored

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")

DISCORD = {"en": "en-US", "zh-TW": "zh-TW", "pt-BR": "pt-BR"}  # each catalogue's Discord locale
FOX = "fox-duet"  # the table: options to choose in the lobby, hands by DM
GAME = "vivarium"  # the tournaments (the Duet, co-operative, plays only duplicate ones)
# Names that are no catalogue's words (checked below), so that they never count as a language.
PEOPLE = ("Kobu", "Zint", "Quav", "Yorp")
CUP = "Xyloq"
OTHER_CUP = "Vrumq"
REASON = "xq"


# A sentence of each kind of message the test must have seen (found by its words up to the first
# placeholder), so that a scenario that stops sending one is noticed.
KINDS = (
    "lobby.hint",
    "language.host-only",
    "game.started",
    "game.dm.start",
    "board.button.hand",
    "tournament.created",
    "tournament.joined",
    "tournament.already-in",
    "tournament.started",
    "tournament.pairings-title",
    "tournament.table-open",
    "tournament.extended-public",
    "tournament.result-set",
    "tournament.closed-by-organiser",
    "tournament.round-over",
    "tournament.champion",
    "tournament.standings-title",
    "tournament.audit-title",
    "tournament.audit.result",
    "tournament.audit.extend",
    "tournament.audit.end-round",
    "tournament.audit-line.no-reason",
    "tournament.settled.settled",
    "tournament.cancelled-public",
    "tournament.signup-closed",
)


def sentence(key: str, locale: str) -> re.Pattern[str]:
    """A catalogue sentence as a pattern, each placeholder standing for any text (any form)."""
    forms = [
        r"[\s\S]*?".join(re.escape(part) for part in PLACEHOLDER.split(form)) for form in entries(locale)[key].forms
    ]
    return re.compile("|".join(f"(?:{f})" for f in forms))


@pytest.fixture(autouse=True)
def no_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The animated replay of a finished table is left out (the replay tests cover it)."""

    async def skip(flow, row, message, seats=None) -> None:
        return None

    monkeypatch.setattr("bot.history_ui.attach_replay", skip)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> dict:
    """What the pictures are drawn with: the words on tournament pictures, the language of each
    game picture."""
    seen: dict = {"words": [], "languages": []}

    def wrap(name: str) -> None:
        original = getattr(tournament_pictures, name)

        def recording(*args, **kwargs):
            seen["words"].append((name, "\n".join(strings_in([args, kwargs]))))
            return original(*args, **kwargs)

        monkeypatch.setattr(tournament_pictures, name, recording)

    for name in ("standings_png", "bracket_png", "podium_png"):
        wrap(name)
    board, hand = services.pictures.Pictures.board, services.pictures.Pictures.hand

    async def board_in(self, game_id, game, view, names, loc, latest=False):
        seen["languages"].append(("board", loc))
        return await board(self, game_id, game, view, names, loc, latest=latest)

    async def hand_in(self, game_id, version, game, view, names, seat, loc):
        seen["languages"].append(("hand", loc))
        return await hand(self, game_id, version, game, view, names, seat, loc)

    monkeypatch.setattr(services.pictures.Pictures, "board", board_in)
    monkeypatch.setattr(services.pictures.Pictures, "hand", hand_in)
    return seen


def strings_in(value: object) -> list[str]:
    """Every string inside a picture's arguments (titles, rows, names, labels)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings_in(k) + strings_in(v)]
    if isinstance(value, (list, tuple, set)):
        return [s for v in value for s in strings_in(v)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return strings_in([getattr(value, f.name) for f in dataclasses.fields(value)])
    return []


def look(emu, seen: Seen) -> None:
    """Note every message as it reads now (an edited message counts in each of its versions)
    and every thread's name."""
    for message in list(emu.state.messages.values()):
        if message.author.id != emu.bot_user.id:
            continue
        seen.add("message", message.id, message.edit_count, "\n".join(message_texts(message)))
    for channel in list(emu.state.channels.values()):
        if getattr(channel, "parent_id", None) is not None and getattr(channel, "name", None):
            seen.add("thread", channel.id, 0, channel.name)


async def answer(emu, seen: Seen, result) -> object:
    message = await result.final_message()
    look(emu, seen)
    return message


async def private_refusal(emu, seen: Seen, result) -> str:
    """A menu's refusal: the menu's message is redrawn as stored, the refusal follows privately."""
    (followup,) = await result.followups(1)
    assert followup.ephemeral, followup.content
    look(emu, seen)
    return followup.content


async def play_out(bot: MeepleBot, game_id: int, rng: random.Random, moves: int = 400) -> None:
    """Random legal moves through the bot's service, each delivered as a click's would be,
    until the game ends (no concession or resignation: a game's own end)."""
    service = bot.flow.service
    for _ in range(moves):
        row = await service.get(game_id)
        if row.status != "running":
            return
        state = await service.state(row)
        seat = state.to_move()[0]
        users = await service.seat_users(game_id)
        actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in GIVE_UP_KINDS]
        result = await service.act(game_id, users[seat], row.version, str(rng.choice(actions)))
        await bot.flow.after_move(result)
    raise AssertionError(f"game {game_id} did not end")


async def finish_table(bot: MeepleBot, game_id: int, rng: random.Random) -> None:
    """A few random moves, then one player resigns (the game ends at once, its results stored
    and the tournament told, as after a click)."""
    service = bot.flow.service
    for _ in range(6):
        row = await service.get(game_id)
        state = await service.state(row)
        seat = state.to_move()[0]
        users = await service.seat_users(game_id)
        actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in GIVE_UP_KINDS]
        result = await service.act(game_id, users[seat], row.version, str(rng.choice(actions)))
        await bot.flow.after_move(result)
    users = await service.seat_users(game_id)
    result = await service.resign(game_id, users[0])
    await bot.flow.after_move(result, forfeited={result.seat})
    await bot.tournaments.idle()


@pytest.mark.parametrize("locale", list(LANGUAGES))
async def test_every_message_of_tables_and_tournaments_is_in_one_language(
    emu, world, config_for, drawn, locale: str
) -> None:
    other = next(code for code in LANGUAGES if code != locale)
    world.guild.locale = DISCORD[locale]
    world.owner.locale = DISCORD[locale]
    people = []
    for name in PEOPLE:
        user = emu.add_user(name.lower(), global_name=name, locale=DISCORD[locale])
        emu.add_member(world.guild, user)
        people.append(user)
    host, guest, onlooker = people[0], people[1], people[2]
    allowed = [*PEOPLE, CUP, OTHER_CUP, REASON]
    for name in allowed:
        assert not words(name) & set(foreign_words(locale)), f"{name} reads as a language: choose another"
    seen = Seen()
    rng = random.Random(30)
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)) as bot:
        # -- a table: opened in another language, switched by its host in the lobby ------------
        created = await emu.slash(host, world.channel, "table create", {"game": FOX, "language": other})
        await created.final_message()
        lobby = emu.last_message(world.channel)
        row = await bot.db.active_game_in_channel(world.channel.id)
        assert row.language == other
        menu = f"mp:lang:{row.id}"
        switched = await emu.select(host, lobby, menu, [locale])
        await switched.response()
        await emu.wait_until(lambda: t("lobby.hint", locale) in lobby.content, what="the lobby in its new language")
        assert (await bot.db.get_game(row.id)).language == locale
        look(emu, seen)
        # Everything from here on is in the table's language (the lobby's earlier versions were
        # in the language it was opened in, as they should).
        seen.texts.clear()
        look(emu, seen)
        refused = await private_refusal(emu, seen, await emu.select(onlooker, lobby, menu, [other]))
        assert refused == t("language.host-only", locale)
        assert (await bot.db.get_game(row.id)).language == locale
        chosen = await emu.select(host, lobby, f"mp:opt:{row.id}:level", ["2"])
        await chosen.response()
        joined = await emu.click(guest, lobby, custom_id=f"mp:lobby:{row.id}:join")
        await joined.response()
        look(emu, seen)
        started = await emu.click(host, lobby, custom_id=f"mp:lobby:{row.id}:start")
        await started.response()
        await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
        await emu.wait_until(lambda: emu.dms(host) and emu.dms(guest), what="the hands by DM")
        look(emu, seen)
        board = [m for m in emu.messages(world.channel) if is_board(m)][-1]
        await answer(emu, seen, await emu.click(guest, board, custom_id=f"mp:hand:{row.id}"))
        await answer(emu, seen, await emu.slash(onlooker, world.channel, "table status"))
        await answer(emu, seen, await emu.slash(onlooker, world.channel, "table create", {"game": FOX}))
        await play_out(bot, row.id, rng)
        assert (await bot.db.get_game(row.id)).status == "finished"
        await answer(emu, seen, await emu.click(guest, board, custom_id=f"mp:hand:{row.id}"))  # an old board
        look(emu, seen)

        # -- a tournament, created with the server's language by default ----------------------
        made = await emu.slash(
            world.owner, world.channel, "tournament create", {"name": CUP, "game": GAME, "format": "single"}
        )
        assert (await answer(emu, seen, made)).content == t("tournament.created", locale, name=CUP, id=1)
        (cup,) = await store.of_guild(bot.db, world.guild.id)
        assert cup.language == locale
        signup = next(m for m in reversed(emu.messages(world.channel)) if f"mp:tour:{cup.id}:join" in str(m.components))
        for user in people:
            await answer(emu, seen, await emu.click(user, signup, custom_id=f"mp:tour:{cup.id}:join"))
        await answer(emu, seen, await emu.click(people[0], signup, custom_id=f"mp:tour:{cup.id}:join"))  # again
        await answer(emu, seen, await emu.slash(world.owner, world.channel, "tournament start", {"tournament": cup.id}))
        await bot.tournaments.idle()
        first, second = stored(
            config.database, "SELECT * FROM pairings WHERE tournament_id = ? ORDER BY slot", (cup.id,)
        )
        await answer(emu, seen, await emu.slash(world.owner, world.channel, "tournament extend", {"days": 1}))
        corrected = await emu.slash(
            world.owner, world.channel, "tournament result", {"table": 1, "ranks": "1 2", "reason": REASON}
        )
        await answer(emu, seen, corrected)
        await finish_table(bot, second["game_id"], rng)
        look(emu, seen)
        await answer(emu, seen, await emu.slash(people[3], world.channel, "tournament mine"))
        ended = await emu.slash(world.owner, world.channel, "tournament end-round", {"tournament": cup.id})
        await answer(emu, seen, ended)
        await bot.tournaments.idle()
        assert (await store.get(bot.db, cup.id)).status == "finished"
        for command, options in (
            ("tournament standings", {"tournament": cup.id}),
            ("tournament pairings", {"tournament": cup.id, "round": 1}),
            ("tournament list", {}),
            ("tournament join", {"tournament": cup.id}),
        ):
            await answer(emu, seen, await emu.slash(people[1], world.channel, command, options))
        # A second tournament, cancelled during its sign-up.
        await answer(
            emu,
            seen,
            await emu.slash(
                world.owner, world.channel, "tournament create", {"name": OTHER_CUP, "game": GAME, "format": "swiss"}
            ),
        )
        cancelled = await emu.slash(
            world.owner, world.channel, "tournament cancel", {"reason": REASON, "tournament": cup.id + 1}
        )
        await answer(emu, seen, cancelled)
        await asyncio.sleep(0)
        look(emu, seen)

    assert first["game_id"] is not None
    kinds = {text.split("\n")[0][:40] for text in seen.texts.values()}
    assert len(seen.texts) > 60, f"too few messages seen to judge: {len(seen.texts)} ({kinds})"
    for name, text in drawn["words"]:
        seen.add(f"picture {name}", 0, len(seen.texts), text)
    assert {kind for kind, _ in drawn["words"]} == {"standings_png", "bracket_png", "podium_png"}
    everything = "\n".join(seen.texts.values())
    missing = [key for key in KINDS if not sentence(key, locale).search(everything)]
    assert not missing, f"message kinds not seen: {missing}"
    problems = seen.problems(locale, allowed)
    assert not problems, "\n".join(problems)
    after_switch = drawn["languages"]
    assert after_switch and all(loc == locale for _, loc in after_switch), after_switch


@pytest.mark.parametrize("bot_database", ["sqlite", "postgres"], indirect=True)
async def test_a_tournament_created_in_chinese_keeps_chinese_after_the_server_switches_to_portuguese(
    emu, world, config_for, drawn
) -> None:
    zh, pt = "zh-TW", "pt-BR"
    world.guild.locale = zh
    world.owner.locale = zh
    mei = emu.add_user("kobu", global_name="Kobu", locale=zh)
    joao = emu.add_user("zint", global_name="Zint", locale=pt)
    people = [mei, joao]
    for user in (mei, joao):
        emu.add_member(world.guild, user)
    for name in ("Quav", "Yorp"):
        people.append(emu.add_user(name.lower(), global_name=name, locale=pt))
        emu.add_member(world.guild, people[-1])
    allowed = [*PEOPLE, CUP, REASON]
    config = config_for(emu, world.guild.id)
    rng = random.Random(31)
    async with running(emu, MeepleBot(config)) as bot:
        made = await emu.slash(
            world.owner, world.channel, "tournament create", {"name": CUP, "game": GAME, "format": "single"}
        )
        await made.final_message()
        (cup,) = await store.of_guild(bot.db, world.guild.id)
        assert cup.language == zh, "no language chosen: the server's, kept from now on"
        signup = next(m for m in reversed(emu.messages(world.channel)) if f"mp:tour:{cup.id}:join" in str(m.components))
        for user in people:
            await (await emu.click(user, signup, custom_id=f"mp:tour:{cup.id}:join")).final_message()
        await (await emu.slash(world.owner, world.channel, "tournament start", {"tournament": cup.id})).final_message()
        await bot.tournaments.idle()
        # The server now speaks Portuguese: new tables are Portuguese, the tournament is not.
        switched = await emu.slash(world.owner, world.channel, "meeple settings", {"language": pt})
        await switched.final_message()
        assert await bot.flow.server_language(world.guild.id) == pt
        posted_before = len(emu.messages(world.channel))
        drawn["words"].clear()
        first, second = stored(
            config.database, "SELECT * FROM pairings WHERE tournament_id = ? ORDER BY slot", (cup.id,)
        )
        corrected = await emu.slash(
            world.owner, world.channel, "tournament result", {"table": 1, "ranks": "2 1", "reason": REASON}
        )
        await corrected.final_message()
        await finish_table(bot, second["game_id"], rng)
        await (
            await emu.slash(world.owner, world.channel, "tournament end-round", {"tournament": cup.id})
        ).final_message()
        await bot.tournaments.idle()
        assert (await store.get(bot.db, cup.id)).status == "finished"
        posts = emu.messages(world.channel)[posted_before:]
        assert len(posts) >= 3, "round 1's standings, round 2's pairings, the final standings and podium"
        for post in posts:
            text = "\n".join(message_texts(post))
            assert CJK_TEXT.search(text), text
            assert not other_languages(text, zh, allowed), (other_languages(text, zh, allowed), text)
        final_games = stored(
            config.database, "SELECT language FROM games WHERE id IN (SELECT game_id FROM pairings WHERE round = 2)"
        )
        assert [r["language"] for r in final_games] == [zh], "the final's table is Chinese too"
        threads = [c.name for c in emu.state.channels.values() if getattr(c, "parent_id", None) == world.channel.id]
        assert threads and all(CJK_TEXT.search(name) for name in threads), threads
        for name, words_drawn in drawn["words"]:
            assert not other_languages(words_drawn, zh, allowed), (name, words_drawn)
        # Asked privately, each reader gets the whole answer in their own language: header, rows,
        # corrections, picture (the answer came back Chinese, Portuguese and English at once).
        for reader, loc in ((mei, zh), (joao, pt)):
            drawn["words"].clear()
            page = await (await emu.slash(reader, world.channel, "tournament standings", {})).final_message()
            text = "\n".join(message_texts(page))
            assert text.startswith(t("tournament.standings-title", loc, name=CUP)), text
            assert t("tournament.audit.result", loc, round=1, table=1, ranks="\0").split("\0")[0] in text, text
            assert t("tournament.audit.end-round", loc, round=2) in text, text
            assert "()" not in text and "（）" not in text, text
            assert not other_languages(text, loc, allowed), (other_languages(text, loc, allowed), text)
            assert [name for name, _ in drawn["words"]] == ["standings_png", "bracket_png"]
            for name, words_drawn in drawn["words"]:
                assert not other_languages(words_drawn, loc, allowed), (name, words_drawn)
        # Another tournament may be created in any language, whatever the server's.
        chosen = await emu.slash(
            world.owner,
            world.channel,
            "tournament create",
            {"name": CUP, "game": GAME, "format": "swiss", "language": "en"},
        )
        await chosen.final_message()
        assert (await store.get(bot.db, cup.id + 1)).language == "en"
        english = next(
            m for m in reversed(emu.messages(world.channel)) if f"mp:tour:{cup.id + 1}:join" in str(m.components)
        )
        assert english.content.startswith(t("tournament.signup-title", "en", name=CUP, id=cup.id + 1)), english.content


@pytest.mark.parametrize("bot_database", ["sqlite", "postgres"], indirect=True)
async def test_the_host_changes_the_tables_language_in_the_lobby_and_only_before_the_start(
    emu, world, config_for
) -> None:
    zh, pt = "zh-TW", "pt-BR"
    world.bob.locale = pt
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await (
            await emu.slash(world.alice, world.channel, "table create", {"game": FOX, "computers": 1})
        ).final_message()
        lobby = emu.last_message(world.channel)
        row = await bot.db.active_game_in_channel(world.channel.id)
        assert row.language == "en"
        menu = f"mp:lang:{row.id}"
        assert [o["value"] for o in lobby.select(custom_id=menu)["options"]] == list(LANGUAGES)
        assert lobby.select(custom_id=menu)["placeholder"] == t("language.placeholder", "en")
        # The host picks Chinese: the lobby is redrawn in it, the computer's seat renamed in it.
        await (await emu.select(world.alice, lobby, menu, [zh])).response()
        await emu.wait_until(lambda: t("lobby.full", zh) in lobby.content, what="the lobby in Chinese")
        assert t("language.lobby", zh, language=LANGUAGES[zh]) in lobby.content
        seats = await bot.db.seats(row.id)
        computer = t("computer.name", zh, number=1, level=t("computer.level.normal", zh))
        assert seats[1].display_name == computer and computer in lobby.content
        assert [o["value"] for o in lobby.select(custom_id=menu)["options"] if o.get("default")] == [zh]
        # Anyone else is refused privately, in their own language; nothing changes.
        before = lobby.content
        refused = await emu.select(world.bob, lobby, menu, [pt])
        (answer,) = await refused.followups(1)
        assert answer.ephemeral_to == world.bob.id and answer.content == t("language.host-only", pt)
        assert (await bot.db.get_game(row.id)).language == zh and lobby.content == before
        # The table starts (another click, before this lobby was redrawn): the menu is refused.
        await bot.flow.service.start(row.id, world.alice.id)
        late = await emu.select(world.alice, lobby, menu, [pt])
        (answer,) = await late.followups(1)
        assert answer.ephemeral_to == world.alice.id and answer.content == t("language.started", "en")
        assert (await bot.db.get_game(row.id)).language == zh
        await emu.wait_until(lambda: not lobby.selects(), what="the lobby redrawn as started, without menus")
        assert t("lobby.status.running", zh) in lobby.content


def test_the_check_knows_each_language_from_the_catalogues() -> None:
    """The check's own test: it finds the issue's mixed messages and passes clean ones."""
    corrections_of_old = "Correções da organização:\n2026-11-26 <@1>: round 1, table 1: <@2> 1, <@3> 2 (xq)"
    assert "'round' (en" in " ".join(other_languages(corrections_of_old, "pt-BR"))
    mixed = t("tournament.standings-title", "zh-TW", name=CUP) + "\n" + t("tournament.col.played", "pt-BR")
    assert other_languages(mixed, "zh-TW", [CUP])
    assert any(
        "(zh-TW" in w for w in other_languages(t("tournament.round-over", "zh-TW", name=CUP, round=2), "en", [CUP])
    )
    board = "<@1>，Rain Chain：再交換一次連鎖指示物，或略過。"
    assert "'chain' (en: content.vivarium.equipment.e05)" in " ".join(other_languages(board, "zh-TW"))
    for loc in LANGUAGES:
        clean = t("tournament.audit.result", loc, round=1, table=2, ranks="<@1>")
        assert not other_languages(clean, loc), (loc, clean)
        # Markup, command mentions and the languages' own names are nobody's words.
        assert not other_languages(f"<t:1:R> </table create:12> https://discord.com/x {LANGUAGES['zh-TW']}", loc)
