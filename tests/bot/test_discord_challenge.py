"""The weekly challenge through the real bot and the loopback emulator."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from bot.client import MeepleBot
from emulator.permissions import MANAGE_THREADS
from emulator.testing import running
from league import weekly_challenge as challenge
from tests.support.driver import is_board
from tests.support.stored import stored


def thread_of(answer) -> int:
    found = re.search(r"<#(\d+)>", answer.content)
    assert found, answer.content
    return int(found.group(1))


async def resign_in(emu, user, thread) -> None:
    """End a solo game at once: the player resigns (ranked last, scored as the rules say)."""
    asked = await (await emu.slash(user, thread, "table resign")).final_message()
    done = await (await emu.click(user, asked, label=asked.buttons()[0]["label"])).final_message()
    assert done.ephemeral


def test_weeks_are_iso_weeks_in_utc_starting_on_monday() -> None:
    sunday_night = datetime(2026, 11, 29, 23, 59, tzinfo=UTC)
    assert challenge.week_of(sunday_night) == "2026-W48"
    assert challenge.week_of(sunday_night + timedelta(minutes=1)) == "2026-W49"
    assert challenge.week_of(datetime(2027, 1, 1, tzinfo=UTC)) == "2026-W53"


async def test_two_players_play_the_same_deal_privately_and_are_ranked(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    carol = emu.add_user("carol", global_name="Carol")
    # A moderator (Manage Threads): on Discord only a thread's members and moderators can open a
    # private thread, so only she could try to look into Alice's before finishing her own.
    emu.add_member(world.guild, carol, MANAGE_THREADS)
    async with running(emu, MeepleBot(config)):
        opened = await (
            await emu.slash(world.alice, world.channel, "meeple challenge", {"mode": "noctiluca-solo"})
        ).final_message()
        assert opened.ephemeral and "private thread" in opened.content
        alice_thread = emu.state.channels[thread_of(opened)]
        assert alice_thread.type == 12, "a private thread"
        await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(alice_thread)), what="Alice's board")
        second = await (
            await emu.slash(carol, world.channel, "meeple challenge", {"mode": "noctiluca-solo"})
        ).final_message()
        carol_thread = emu.state.channels[thread_of(second)]
        assert carol_thread.id != alice_thread.id
        await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(carol_thread)), what="Carol's board")

        games = stored(config.database, "SELECT id, seed, options, state, rated FROM games ORDER BY id")
        assert len(games) == 2 and games[0]["seed"] == games[1]["seed"], "the same deal for everyone"
        assert games[0]["state"] == games[1]["state"], "the same starting position"
        assert not games[0]["rated"] and not games[1]["rated"]

        # One attempt a week, with a link to it.
        again = await (
            await emu.slash(world.alice, world.channel, "meeple challenge", {"mode": "noctiluca-solo"})
        ).final_message()
        assert again.ephemeral and "already played this week's deal" in again.content
        assert f"<#{alice_thread.id}>" in again.content
        assert len(stored(config.database, "SELECT id FROM games")) == 2

        # Carol cannot look at Alice's game of the same deal before finishing her own.
        peek = await (await emu.slash(carol, alice_thread, "table history")).final_message()
        assert peek.ephemeral and "stays hidden" in peek.content and not peek.attachments

        await resign_in(emu, world.alice, alice_thread)
        half = await (
            await emu.slash(world.bob, world.channel, "meeple challenge-board", {"mode": "noctiluca-solo"})
        ).final_message()
        assert f"1. <@{world.alice.id}>:" in half.content and "1 attempt is still being played" in half.content
        await resign_in(emu, carol, carol_thread)
        full = await (
            await emu.slash(world.bob, world.channel, "meeple challenge-board", {"mode": "noctiluca-solo"})
        ).final_message()
        assert f"<@{world.alice.id}>" in full.content and f"<@{carol.id}>" in full.content
        assert "still being played" not in full.content
        scores = {r["user_id"]: r["score"] for r in stored(config.database, "SELECT user_id, score FROM results")}
        if scores[world.alice.id] == scores[carol.id]:
            assert full.content.count("1. ") == 2, "equal scores share a rank"
        # Once her own attempt is over, Carol may look at Alice's.
        seen = await (await emu.slash(carol, alice_thread, "table history")).final_message()
        assert "stays hidden" not in seen.content


async def test_a_new_week_brings_a_new_deal(emu, world, config_for, monkeypatch) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)):
        monkeypatch.setattr(challenge, "now", lambda: datetime(2026, 11, 29, 23, 0, tzinfo=UTC))
        first = await (
            await emu.slash(world.alice, world.channel, "meeple challenge", {"mode": "tm-dice-solo"})
        ).final_message()
        await resign_in(emu, world.alice, emu.state.channels[thread_of(first)])
        monkeypatch.setattr(challenge, "now", lambda: datetime(2026, 11, 30, 0, 30, tzinfo=UTC))
        second = await (
            await emu.slash(world.alice, world.channel, "meeple challenge", {"mode": "tm-dice-solo"})
        ).final_message()
        assert "week 49 of 2026" in second.content, "a new week: a new attempt is allowed"
        seeds = stored(config.database, "SELECT week, seed FROM challenge_seeds ORDER BY week")
        assert [s["week"] for s in seeds] == ["2026-W48", "2026-W49"]
        assert seeds[0]["seed"] != seeds[1]["seed"]
        past = await (
            await emu.slash(
                world.bob, world.channel, "meeple challenge-board", {"mode": "tm-dice-solo", "week": "2026-W48"}
            )
        ).final_message()
        assert f"1. <@{world.alice.id}>" in past.content


async def test_fox_duet_is_played_by_a_team_of_two(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)):
        alone = await (
            await emu.slash(world.alice, world.channel, "meeple challenge", {"mode": "fox-duet-2"})
        ).final_message()
        assert alone.ephemeral and "choose your teammate" in alone.content
        opened = await (
            await emu.slash(
                world.alice, world.channel, "meeple challenge", {"mode": "fox-duet-2", "partner": world.bob}
            )
        ).final_message()
        thread = emu.state.channels[thread_of(opened)]
        await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(thread)), what="the team's board")
        seats = stored(config.database, "SELECT user_id FROM seats ORDER BY seat")
        assert [s["user_id"] for s in seats] == [world.alice.id, world.bob.id]
        assert '"level": 2' in stored(config.database, "SELECT options FROM games")[0]["options"].replace(":", ": ")
        # Bob is on a team this week already.
        bob = await (
            await emu.slash(
                world.bob, world.channel, "meeple challenge", {"mode": "fox-duet-2", "partner": world.owner}
            )
        ).final_message()
        assert "already played" in bob.content


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"mode": "noctiluca-solo", "partner": "bob"}, "solo game"),
        ({"mode": "fox-duet-1", "partner": "alice"}, "another person"),
        ({"mode": "chess"}, "takes one of"),
    ],
)
async def test_bad_challenges_are_refused_and_open_nothing(emu, world, config_for, options, expected) -> None:
    config = config_for(emu, world.guild.id)
    values = {k: getattr(world, v) if k == "partner" else v for k, v in options.items()}
    async with running(emu, MeepleBot(config)):
        answer = await (
            await emu.slash(world.alice, world.channel, "meeple challenge", values, validate=False)
        ).final_message()
        assert answer.ephemeral and expected in answer.content
        assert not stored(config.database, "SELECT 1 FROM games")


async def test_a_server_can_switch_the_challenge_off(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)):
        shown = await (
            await emu.slash(world.owner, world.channel, "meeple settings", {"challenge": False})
        ).final_message()
        assert "Weekly challenge: no" in shown.content
        refused = await (
            await emu.slash(world.alice, world.channel, "meeple challenge", {"mode": "noctiluca-solo"})
        ).final_message()
        assert refused.ephemeral and "switched off" in refused.content
        assert not stored(config.database, "SELECT 1 FROM games")
        assert not stored(config.database, "SELECT 1 FROM challenge_seeds")
