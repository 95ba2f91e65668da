"""The sandbox's JSON and websocket API over the emulator, with the real bot, without a browser."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest_asyncio

from bot.client import MeepleBot
from emulator.testing import assert_clean, running
from engine import GAMES
from sandbox import Sandbox
from sandbox.world import THREAD_NAME, World
from services.config import Config


@dataclass
class Running:
    sandbox: Sandbox
    world: World
    url: str
    http: aiohttp.ClientSession

    def id_of(self, username: str) -> str:
        return next(str(u.id) for u in self.world.people if u.username == username)

    async def post(self, route: str, **body: Any) -> dict[str, Any]:
        async with self.http.post(self.url + route, json=body) as answer:
            assert answer.status == 200
            return await answer.json()

    async def view(self, username: str, channel_id: int | None = None) -> dict[str, Any]:
        """The view the websocket sends a page of that person."""
        async with self.http.ws_connect(self.url + "api/live") as ws:
            channel = channel_id or self.world.channel.id
            await ws.send_str(json.dumps({"user_id": self.id_of(username), "channel_id": str(channel), "force": True}))
            return json.loads((await ws.receive(timeout=5)).data)


@pytest_asyncio.fixture
async def live(tmp_path: Path) -> AsyncIterator[Running]:
    sandbox = Sandbox()
    world = await sandbox.start_discord()
    sandbox.emu.heartbeat_interval = 0.25
    config = Config(sandbox.bot_token, tmp_path / "meeple.db", None, sandbox.api_base, "INFO")
    async with running(sandbox.emu, MeepleBot(config)):
        await sandbox.wait_for_bot()
        url = sandbox.start_web()
        async with aiohttp.ClientSession() as http:
            yield Running(sandbox, world, url, http)
    await sandbox.stop()
    assert_clean(sandbox.emu)


async def start_a_game(live: Running) -> None:
    channel = str(live.world.channel.id)
    created = await live.post(
        "api/slash",
        user_id=live.id_of("alice"),
        channel_id=channel,
        command="table create",
        options={"game": "fox-duet", "options": "level=1"},
    )
    assert created == {"ok": True}
    emu = live.sandbox.emu
    lobby = await emu.wait_for_message(live.world.channel, lambda m: bool(m.buttons()))
    joined = await live.post(
        "api/click", user_id=live.id_of("bob"), message_id=str(lobby.id), custom_id=lobby.button("Join")["custom_id"]
    )
    assert joined["ok"]
    await emu.wait_until(lambda: "<@" + live.id_of("bob") + ">" in lobby.content, what="Bob in the lobby")
    start = lobby.button("Start")["custom_id"]
    assert (await live.post("api/click", user_id=live.id_of("alice"), message_id=str(lobby.id), custom_id=start))["ok"]
    bob = live.world.people[1]
    await emu.wait_until(lambda: emu.dms(bob) and emu.dms(live.world.people[0]), what="both hands by DM")


async def test_world_lists_four_people_the_channels_and_the_bots_commands(live: Running) -> None:
    async with live.http.get(live.url + "api/world") as answer:
        world = await answer.json()
    assert [p["name"] for p in world["people"]] == ["Alice", "Bob", "Carol", "Dave"]
    assert [c["name"] for c in world["channels"]] == ["games", THREAD_NAME]
    create = next(c for c in world["commands"] if c["name"] == "table create")
    game = next(o for o in create["options"] if o["name"] == "game")
    fox = next(c for c in game["choices"] if c["value"] == "fox-duet")
    assert game["required"] and fox["name"] == "The Fox in the Forest Duet"
    assert next(o for o in create["options"] if o["name"] == "options")["autocomplete"]
    async with live.http.get(live.url) as page:
        assert page.status == 200 and "sandbox.js" in await page.text()


async def test_autocomplete_answers_the_bots_choices(live: Running) -> None:
    answer = await live.post(
        "api/autocomplete",
        user_id=live.id_of("carol"),
        channel_id=str(live.world.channel.id),
        command="table create",
        options={"game": "fox-duet", "options": "lev"},
        focused="options",
    )
    assert answer["ok"] and [c["value"] for c in answer["choices"]][::2] == [
        "level=1 memory=off",
        "level=2 memory=off",
        "level=3 memory=off",
    ]
    assert answer["choices"][0]["name"].startswith("Level 1 (side A, 12 gems, 4 forest tokens) · Memory aid off")


async def test_private_answers_and_hands_reach_only_their_owner(live: Running) -> None:
    await start_a_game(live)
    alice, bob = await live.view("alice"), await live.view("bob")
    assert any(m["ephemeral"] for m in alice["messages"])  # "your table is open", only for Alice
    assert not any(m["ephemeral"] for m in bob["messages"])
    assert [m["id"] for m in alice["messages"] if not m["ephemeral"]] == [m["id"] for m in bob["messages"]]
    hand = next(a for m in bob["dm"]["messages"] for a in m["attachments"] if a["image"])
    assert not set(m["id"] for m in bob["dm"]["messages"]) & set(m["id"] for m in alice["dm"]["messages"])
    async with live.http.get(live.url + hand["url"].lstrip("/")) as own:
        assert own.status == 200 and (await own.read()).startswith(b"\x89PNG")
    forged = hand["url"].replace(f"as={live.id_of('bob')}", f"as={live.id_of('alice')}")
    async with live.http.get(live.url + forged.lstrip("/")) as stolen:
        assert stolen.status == 404
    carol = await live.view("carol")
    assert carol["dm"]["messages"] == []
    assert [m["id"] for m in carol["messages"]] == [m["id"] for m in bob["messages"]]


async def test_a_page_is_sent_each_change_live(live: Running) -> None:
    async with live.http.ws_connect(live.url + "api/live") as ws:
        await ws.send_str(json.dumps({"user_id": live.id_of("bob"), "channel_id": str(live.world.thread.id)}))
        first = json.loads((await ws.receive(timeout=5)).data)
        assert first["messages"] == []
        sent = await live.post(
            "api/send", user_id=live.id_of("alice"), channel_id=str(live.world.thread.id), content="hello <@bob>"
        )
        assert sent["ok"]
        update = json.loads((await ws.receive(timeout=5)).data)
        assert [m["content"] for m in update["messages"]] == ["hello <@bob>"]
        assert update["counts"][str(live.world.thread.id)]["unread"] == 1


async def private_answer(live: Running, username: str, channel: Any) -> str:
    """The newest answer only that person sees in that channel, once the bot has finished it."""
    user = next(u for u in live.world.people if u.username == username)
    emu = live.sandbox.emu

    def done() -> list[Any]:
        return [m for m in emu.ephemerals(user, channel) if not m.loading and m.content]

    await emu.wait_until(done, what=f"{username}'s private answer")
    return done()[-1].content


async def test_the_sandbox_thread_is_named_for_no_game(live: Running) -> None:
    """Any of the four games may be played in it: a game's name would mislead."""
    async with live.http.get(live.url + "api/world") as answer:
        thread = next(c for c in (await answer.json())["channels"] if c["thread"])
    named = set(re.findall(r"[a-z]+", thread["name"].lower()))
    for game in GAMES.values():
        words = set(re.findall(r"[a-z]+", f"{game.title} {game.id}".lower())) - {"the", "in", "game"}
        assert not named & words, f"the thread {thread['name']!r} is named after {game.title}"


async def test_a_thread_the_bot_creates_is_listed_live_and_linked(live: Running) -> None:
    """`/table create thread:True`: the new thread reaches every open page, the reply and /meeple list link it."""
    emu, games = live.sandbox.emu, live.world.channel
    async with live.http.ws_connect(live.url + "api/live") as ws:  # Bob's page, already open on #games
        await ws.send_str(json.dumps({"user_id": live.id_of("bob"), "channel_id": str(games.id)}))
        assert len(json.loads((await ws.receive(timeout=5)).data)["channels"]) == 2
        created = await live.post(
            "api/slash",
            user_id=live.id_of("alice"),
            channel_id=str(games.id),
            command="table create",
            options={"game": "vivarium", "thread": "true"},
        )
        assert created == {"ok": True}

        def new_threads() -> list[Any]:
            return [c for c in emu.state.channels.values() if c.is_thread and c is not live.world.thread]

        await emu.wait_until(new_threads, what="the table's thread")
        thread = new_threads()[0]
        assert thread.parent_id == games.id
        # Created before its table, the thread is renamed with the table's number once it is stored.
        await emu.wait_until(lambda: thread.name.startswith("#"), what="the thread named with its table's number")
        listed: list[dict[str, Any]] = []
        while not any(c["id"] == str(thread.id) and c["name"] == thread.name for c in listed):
            listed = json.loads((await ws.receive(timeout=5)).data)["channels"]
        assert [c["name"] for c in listed] == ["games", THREAD_NAME, thread.name]
        assert next(c for c in listed if c["id"] == str(thread.id))["parent_id"] == str(games.id)
    await emu.wait_for_message(thread, lambda m: bool(m.buttons()))  # the lobby is in the thread
    reply = await private_answer(live, "alice", games)
    assert f"<#{thread.id}>" in reply and "this channel" not in reply
    in_thread = await live.view("carol", thread.id)  # anyone can open it and sees the lobby
    assert in_thread["channel_id"] == str(thread.id) and any(m["components"] for m in in_thread["messages"])
    listing = await live.post(
        "api/slash", user_id=live.id_of("carol"), channel_id=str(games.id), command="meeple list", options={}
    )
    assert listing == {"ok": True}
    assert f"<#{thread.id}>" in await private_answer(live, "carol", games)
    carol = await live.view("carol")
    assert str(thread.id) in {c["id"] for c in carol["channels"]}  # so the page can name it, not "#unknown"


async def test_mistakes_are_answered_not_crashed_on(live: Running) -> None:
    alice, channel = live.id_of("alice"), str(live.world.channel.id)
    unknown = await live.post("api/slash", user_id=alice, channel_id=channel, command="nothing here", options={})
    assert not unknown["ok"] and "not registered" in unknown["error"]
    missing = await live.post("api/slash", user_id=alice, channel_id=channel, command="table create", options={})
    assert not missing["ok"] and "game" in missing["error"]
    stranger = await live.post("api/send", user_id="12345", channel_id=channel, content="hi")
    assert not stranger["ok"]
    gone = await live.post("api/click", user_id=alice, message_id="1", custom_id="x")
    assert not gone["ok"]


async def test_the_bare_address_leads_to_the_page(live: Running) -> None:
    bare = live.url.removesuffix("sandbox/")
    async with live.http.get(bare, allow_redirects=False) as answer:
        assert answer.status == 302 and answer.headers["Location"] == "/sandbox/"


async def test_each_person_picks_a_language_and_their_interactions_carry_it(live: Running, tmp_path: Path) -> None:
    """The language switch sets the person's Discord locale: the bot sees it on their next
    interaction (and remembers it for their DMs); a language the sandbox does not offer changes nothing."""
    async with live.http.get(live.url + "api/world") as answer:
        world = await answer.json()
    assert [x["value"] for x in world["locales"]] == ["en-US", "zh-TW", "pt-BR"]
    assert {p["locale"] for p in world["people"]} == {"en-US"}
    bob = live.id_of("bob")
    refused = await live.post("api/locale", user_id=bob, locale="xx-YY")
    assert not refused["ok"] and live.world.people[1].locale == "en-US"
    assert not (await live.post("api/locale", user_id="12345", locale="zh-TW"))["ok"]
    assert await live.post("api/locale", user_id=bob, locale="zh-TW") == {"ok": True, "locale": "zh-TW"}
    async with live.http.get(live.url + "api/world") as answer:
        assert next(p for p in (await answer.json())["people"] if p["id"] == bob)["locale"] == "zh-TW"
    listed = await live.post(
        "api/slash", user_id=bob, channel_id=str(live.world.channel.id), command="meeple list", options={}
    )
    assert listed == {"ok": True}

    def stored() -> list[tuple[str]]:
        with sqlite3.connect(tmp_path / "meeple.db") as db:
            return db.execute("SELECT locale FROM user_locales WHERE user_id = ?", (int(bob),)).fetchall()

    for _ in range(100):  # the bot stores a reader's language in the background, after its answer
        if stored():
            break
        await asyncio.sleep(0.1)
    assert stored() == [("zh-TW",)]


async def test_commands_come_with_the_localizations_the_bot_registered(live: Running) -> None:
    """The page shows a zh-TW or pt-BR client the commands as Discord does: the bot's own translations."""
    async with live.http.get(live.url + "api/world") as answer:
        commands = {c["name"]: c for c in (await answer.json())["commands"]}
    challenge = commands["meeple challenge"]
    assert challenge["name_localizations"] == {"pt-BR": "meeple desafio", "zh-TW": "meeple 挑戰"}
    assert challenge["description_localizations"]["zh-TW"] != challenge["description"]
    mode = next(o for o in challenge["options"] if o["name"] == "mode")
    assert mode["name_localizations"] == {"zh-TW": "模式", "pt-BR": "modo"}
    solo = next(c for c in mode["choices"] if c["value"] == "noctiluca-solo")
    assert solo["name"] == "Noctiluca solo" and solo["name_localizations"]["zh-TW"] == "繽紛夜光蟲 單人"
    assert commands["table create"]["name_localizations"]["zh-TW"] == "牌桌 建立"


async def test_a_challenge_opens_a_private_thread_that_only_its_players_see(live: Running) -> None:
    """`/meeple challenge` with a partner: the thread is listed to both and to nobody else, the
    answer and the partner's DM link it, and anyone else is kept out of it."""
    emu, games = live.sandbox.emu, live.world.channel
    alice, bob, carol = live.id_of("alice"), live.id_of("bob"), live.id_of("carol")
    opened = await live.post(
        "api/slash",
        user_id=alice,
        channel_id=str(games.id),
        command="meeple challenge",
        options={"mode": "fox-duet-1", "partner": bob},
    )
    assert opened == {"ok": True}
    reply = await private_answer(live, "alice", games)
    thread = next(c for c in emu.state.channels.values() if c.type == 12)
    assert f"<#{thread.id}>" in reply
    await emu.wait_until(lambda: emu.dms(live.world.people[1]), what="Bob's hand")
    assert any(str(thread.id) in m.content for m in emu.dms(live.world.people[1]))  # "Board: <the thread>"
    for username in ("alice", "bob"):
        listed = {c["id"]: c for c in (await live.view(username))["channels"]}
        assert listed[str(thread.id)]["private"] and listed[str(thread.id)]["parent_id"] == str(games.id)
        inside = await live.view(username, thread.id)
        assert inside["channel_id"] == str(thread.id) and any(m["attachments"] for m in inside["messages"])
    outsider = await live.view("carol", thread.id)
    assert str(thread.id) not in {c["id"] for c in outsider["channels"]}
    assert outsider["channel_id"] is None and outsider["messages"] == []
    refused = await live.post("api/send", user_id=carol, channel_id=str(thread.id), content="let me in")
    assert not refused["ok"]
    async with live.http.get(live.url + "api/world?as=carol") as answer:
        assert str(thread.id) not in {c["id"] for c in (await answer.json())["channels"]}
    async with live.http.get(live.url + "api/world?as=bob") as answer:
        assert str(thread.id) in {c["id"] for c in (await answer.json())["channels"]}
    before = len(emu.ephemerals(live.world.people[0], games))
    again = await live.post(
        "api/slash",
        user_id=alice,
        channel_id=str(games.id),
        command="meeple challenge",
        options={"mode": "fox-duet-1", "partner": bob},
    )
    assert again == {"ok": True}  # answered, not opened twice: one attempt a week, linked
    refused_again = await emu.wait_until(
        lambda: [m for m in emu.ephemerals(live.world.people[0], games)[before:] if m.content and not m.loading],
        what="the answer to a second try",
    )
    refusal = refused_again[-1].content
    assert "One attempt" in refusal and f"<#{thread.id}>" in refusal, refusal
    assert len([c for c in emu.state.channels.values() if c.type == 12]) == 1


async def test_a_person_renamed_from_the_page_is_renamed_for_the_bot(live: Running) -> None:
    """Any Unicode display name, emoji included: the page lists it and the bot's next interaction
    carries it (the challenge's thread is named for the player)."""
    alice = live.id_of("alice")
    name = "Ålice 🎲 星"
    assert await live.post("api/rename", user_id=alice, name=f"  {name} ") == {"ok": True, "name": name}
    assert not (await live.post("api/rename", user_id=alice, name="   "))["ok"]
    assert not (await live.post("api/rename", user_id=alice, name="x" * 33))["ok"]
    assert not (await live.post("api/rename", user_id="12345", name="Mallory"))["ok"]
    view = await live.view("bob")
    assert next(p for p in view["people"] if p["id"] == alice)["name"] == name
    assert live.world.people[0].global_name == name and live.world.people[0].username == "alice"
    opened = await live.post(
        "api/slash",
        user_id=alice,
        channel_id=str(live.world.channel.id),
        command="meeple challenge",
        options={"mode": "noctiluca-solo"},
    )
    assert opened == {"ok": True}
    emu = live.sandbox.emu
    thread = await emu.wait_until(lambda: next((c for c in emu.state.channels.values() if c.type == 12), None))
    assert name in thread.name, thread.name  # the thread is named for its player
