"""Tournaments through the real bot and the loopback emulator, sign-up to podium.

The organiser and the players use the slash commands and buttons; the games at the tables are
finished quickly by test players who make random legal moves through the bot's own service (the
clicks themselves are covered by the game tests), and the finishing move goes through the same
path as a click: results stored, the board delivered, the tournament told.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from collections import Counter
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path

import pytest

from bot.client import MeepleBot
from emulator.testing import running
from services import tournament_runner as runner_module
from services.scheduler import GIVE_UP_KINDS
from tests.support.stored import stored

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


@pytest.fixture(autouse=True)
def no_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished table's animated replay (tested with the games) is left out: dozens of tables
    finish here, and drawing every replay would only slow these tests down."""

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


async def create(emu, world, **options) -> int:
    answer = await (await emu.slash(world.owner, world.channel, "tournament create", options)).final_message()
    assert answer.ephemeral, answer.content
    found = re.search(r"Tournament #(\d+)", answer.content)
    assert found, answer.content
    return int(found.group(1))


def signup_message(emu, world, tournament_id: int):
    for message in reversed(emu.messages(world.channel)):
        if f"(tournament #{tournament_id})" in message.content:
            return message
    raise AssertionError("no sign-up message")


async def join_all(emu, world, tournament_id: int, users) -> None:
    for user in users:
        message = signup_message(emu, world, tournament_id)
        answer = await (await emu.click(user, message, label="Join")).final_message()
        assert "signed up" in answer.content, answer.content


async def start(emu, world, tournament_id: int, bot: MeepleBot | None = None) -> None:
    """The organiser starts the tournament; with ``bot``, wait until round 1's tables are open
    (the command answers at once and opens them in the background)."""
    answer = await (
        await emu.slash(world.owner, world.channel, "tournament start", {"tournament": tournament_id})
    ).final_message()
    assert "has started" in answer.content, answer.content
    if bot is not None:
        await bot.tournaments.idle()


async def finish_game(bot: MeepleBot, game_id: int, rng: random.Random, moves: int = 12) -> None:
    """A few random legal moves, then a random player resigns: the game ends at once, everyone
    ranked by the rules (the resigner last, the others by the position's final scoring), and
    the result goes through the same path as a click: stored, the board delivered, the
    tournament told. (Whole games through clicks are covered by the game tests.)"""
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
        if result.state.outcome() is not None:
            await bot.flow.after_move(result)
            return
    row = await service.get(game_id)
    users = await service.seat_users(game_id)
    quitter = rng.choice(users)
    result = await service.resign(game_id, quitter)
    await bot.flow.after_move(result, forfeited={result.seat})


def round_tables(path: Path, tournament_id: int, number: int) -> list[sqlite3.Row]:
    return stored(
        path, "SELECT * FROM pairings WHERE tournament_id = ? AND round = ? ORDER BY slot", (tournament_id, number)
    )


def tournament_row(path: Path, tournament_id: int) -> sqlite3.Row:
    return stored(path, "SELECT * FROM tournaments WHERE id = ?", (tournament_id,))[0]


async def play_rounds(
    bot: MeepleBot, path: Path, tournament_id: int, rng: random.Random, limit: int = 40, moves: int = 12
) -> int:
    """Finish every table of every round until the tournament is over; return the rounds played."""
    played = 0
    for _ in range(limit):
        await bot.tournaments.idle()
        row = tournament_row(path, tournament_id)
        if row["status"] == "finished":
            return played
        tables = [t for t in round_tables(path, tournament_id, row["round"]) if t["game_id"] and not t["result"]]
        assert tables, f"round {row['round']} has nothing to play and did not end"
        await asyncio.gather(*(finish_game(bot, t["game_id"], rng, moves) for t in tables))
        await bot.tournaments.idle()
        played += 1
    raise AssertionError("the tournament did not finish")


def every_round_seats_everyone_once(path: Path, tournament_id: int, entrants: int) -> None:
    for number in {
        r["round"] for r in stored(path, "SELECT round FROM pairings WHERE tournament_id = ?", (tournament_id,))
    }:
        seated = Counter(u for t in round_tables(path, tournament_id, number) for u in json.loads(t["players"]))
        assert all(v == 1 for v in seated.values()), f"round {number}: someone sits twice"
        assert len(seated) == entrants, f"round {number}: {len(seated)} seated of {entrants}"


def one_game_per_table(path: Path, tournament_id: int) -> None:
    rows = stored(
        path,
        "SELECT game_id, thread_id FROM pairings WHERE tournament_id = ? AND game_id IS NOT NULL",
        (tournament_id,),
    )
    games = [r["game_id"] for r in rows]
    threads = [r["thread_id"] for r in rows]
    assert len(set(games)) == len(games) and len(set(threads)) == len(threads)
    linked = stored(
        path,
        "SELECT COUNT(*) FROM games WHERE id IN (SELECT game_id FROM pairings WHERE tournament_id = ?)",
        (tournament_id,),
    )
    assert linked[0][0] == len(games)


def final_posts(emu, world) -> list:
    return [
        m
        for m in emu.messages(world.channel)
        if m.attachments and any(a.filename == "podium.png" for a in m.attachments)
    ]


async def test_a_16_player_vivarium_swiss_in_pods_of_4_runs_4_rounds_to_the_podium(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 16)
    rng = random.Random(16)
    async with running(emu, MeepleBot(config)) as bot:
        tid = await create(
            emu, world, name="Vivarium night", game="vivarium", format="swiss", players_per_table=4, rounds=4
        )
        await join_all(emu, world, tid, users)
        signup = signup_message(emu, world, tid)
        assert "Entrants (16)" in signup.content
        await start(emu, world, tid, bot)
        for number in range(1, 5):
            tables = round_tables(config.database, tid, number)
            assert [len(json.loads(t["players"])) for t in tables] == [4, 4, 4, 4]
            await asyncio.gather(*(finish_game(bot, t["game_id"], rng) for t in tables))
            await bot.tournaments.idle()
        row = tournament_row(config.database, tid)
        assert row["status"] == "finished" and row["round"] == 4
        every_round_seats_everyone_once(config.database, tid, 16)
        one_game_per_table(config.database, tid)
        # Each round's standings are posted with a picture; the last with the podium.
        standings = [
            m for m in emu.messages(world.channel) if any(a.filename == "standings.png" for a in m.attachments)
        ]
        assert len(standings) == 4
        assert "round 4 is over" in standings[-1].content
        assert final_posts(emu, world), "the podium is posted"
        # Results came from the finished tables' own stored results.
        for table in stored(config.database, "SELECT * FROM pairings WHERE tournament_id = ?", (tid,)):
            result = json.loads(table["result"])
            ranks = [
                r["rank"]
                for r in stored(
                    config.database, "SELECT rank FROM results WHERE game_id = ? ORDER BY seat", (table["game_id"],)
                )
            ]
            assert result["ranks"] == ranks and result["how"] == "played"
        # Pods of four, 16 players, 4 rounds: repeat meetings kept low.
        meetings = Counter()
        for table in stored(config.database, "SELECT players FROM pairings WHERE tournament_id = ?", (tid,)):
            for a, b in combinations(sorted(json.loads(table["players"])), 2):
                meetings[(a, b)] += 1
        assert sum(v - 1 for v in meetings.values() if v > 1) <= 8
        text = await (await emu.slash(users[0], world.channel, "tournament standings", {})).final_message()
        assert text.ephemeral and "1." in text.content and text.attachments


async def test_a_9_player_swiss_gives_byes_and_no_avoidable_rematch(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 9)
    async with running(emu, MeepleBot(config)) as bot:
        tid = await create(
            emu, world, name="Duel Swiss", game="vivarium", format="swiss", time_limit=24, on_timeout="forfeit"
        )
        await join_all(emu, world, tid, users)
        await start(emu, world, tid, bot)
        assert tournament_row(config.database, tid)["rounds"] == 4, "ceil(log2(9)) rounds by default"
        timing = stored(config.database, "SELECT DISTINCT time_limit_hours, timeout_action FROM games")
        assert [tuple(r) for r in timing] == [(24, "forfeit")], "every table has the tournament's time limit"
        await play_rounds(bot, config.database, tid, random.Random(9))
        byes = [
            t
            for t in stored(config.database, "SELECT * FROM pairings WHERE tournament_id = ?", (tid,))
            if len(json.loads(t["players"])) == 1
        ]
        assert len(byes) == 4, "one bye a round"
        assert len({json.loads(t["players"])[0] for t in byes}) == 4, "nobody has two byes"
        pairs = [
            tuple(sorted(json.loads(t["players"])))
            for t in stored(config.database, "SELECT players FROM pairings WHERE tournament_id = ?", (tid,))
        ]
        duels = [p for p in pairs if len(p) == 2]
        assert len(duels) == len(set(duels)), "no rematch in 4 rounds of 9"
        every_round_seats_everyone_once(config.database, tid, 9)


async def test_a_5_player_round_robin_meets_everyone_once_across_a_restart_mid_round(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 5)
    rng = random.Random(5)
    async with running(emu, MeepleBot(config)) as bot:
        tid = await create(emu, world, name="Round robin", game="noctiluca", format="round-robin")
        await join_all(emu, world, tid, users)
        await start(emu, world, tid, bot)
        assert tournament_row(config.database, tid)["rounds"] == 5
        # Round 1 is played; in round 2 one table finishes, then the bot stops mid-round.
        tables = [t for t in round_tables(config.database, tid, 1) if t["game_id"]]
        await asyncio.gather(*(finish_game(bot, t["game_id"], rng) for t in tables))
        await bot.tournaments.idle()
        second = [t for t in round_tables(config.database, tid, 2) if t["game_id"]]
        await finish_game(bot, second[0]["game_id"], rng)
        await bot.tournaments.idle()
    before = stored(config.database, "SELECT COUNT(*) FROM games")[0][0]
    async with running(emu, MeepleBot(config)) as bot:
        await bot.tournaments.idle()
        assert stored(config.database, "SELECT COUNT(*) FROM games")[0][0] == before, "no table opened twice"
        assert tournament_row(config.database, tid)["round"] == 2
        rounds = 1 + await play_rounds(bot, config.database, tid, rng)
        assert rounds == 5
        duels = [
            tuple(sorted(json.loads(t["players"])))
            for t in stored(config.database, "SELECT players FROM pairings WHERE tournament_id = ?", (tid,))
        ]
        assert sorted(p for p in duels if len(p) == 2) == sorted(combinations(sorted(u.id for u in users), 2))
        assert Counter(p[0] for p in duels if len(p) == 1) == {u.id: 1 for u in users}
        one_game_per_table(config.database, tid)


async def test_an_8_player_single_elimination_best_of_3_seeds_and_crowns(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 8)
    async with running(emu, MeepleBot(config)) as bot:
        tid = await create(emu, world, name="Knockout", game="vivarium", format="single", best_of=3)
        await join_all(emu, world, tid, users)
        # Ratings exist for six of them (the ordinal mu - 3 sigma seeds); two are unrated.
        rated = {u.id: (30.0 - n, 2.0) for n, u in enumerate(reversed(users[2:]))}
        async with bot.flow.service.db.transaction() as conn:
            await conn.executemany(
                "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games) VALUES (?, 'vivarium', ?, ?, ?, 5)",
                [(world.guild.id, user, mu, sigma) for user, (mu, sigma) in rated.items()],
            )
        await start(emu, world, tid, bot)
        order = [
            r["user_id"]
            for r in stored(
                config.database, "SELECT user_id FROM entrants WHERE tournament_id = ? ORDER BY seed_order", (tid,)
            )
        ]
        assert order[:6] == sorted(rated, key=lambda u: -rated[u][0]), "seeded by rating, best first"
        assert set(order[6:]) == {users[0].id, users[1].id}, "the unrated after the rated"
        first = round_tables(config.database, tid, 1)
        assert len(first) == 4 and all(t["match_id"] for t in first)
        top = next(t for t in first if order[0] in json.loads(t["players"]))
        assert json.loads(top["players"]) == [order[0], order[7]], "seed 1 meets seed 8, sitting first"
        await play_rounds(bot, config.database, tid, random.Random(8))
        row = tournament_row(config.database, tid)
        assert row["status"] == "finished"
        games = stored(config.database, "SELECT rated FROM games")
        assert games and all(g["rated"] == 1 for g in games), "tournament tables are rated"
        brackets = [m for m in emu.messages(world.channel) if any(a.filename == "bracket.png" for a in m.attachments)]
        assert brackets, "the bracket is posted as a picture"
        one_game_per_table(config.database, tid)


async def test_a_6_player_double_elimination_needs_two_losses(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 6)
    async with running(emu, MeepleBot(config)) as bot:
        tid = await create(emu, world, name="Double", game="noctiluca", format="double")
        await join_all(emu, world, tid, users)
        await start(emu, world, tid, bot)
        await play_rounds(bot, config.database, tid, random.Random(6))
        assert tournament_row(config.database, tid)["status"] == "finished"
        losses: Counter[int] = Counter()
        for table in stored(
            config.database,
            "SELECT players, result FROM pairings WHERE tournament_id = ? AND match_id IS NOT NULL",
            (tid,),
        ):
            result = json.loads(table["result"])
            loser = [
                u
                for u, r in zip(json.loads(table["players"]), result["ranks"], strict=True)
                if r != min(result["ranks"])
            ]
            for u in loser:
                losses[u] += 1
        champion_posts = final_posts(emu, world)
        assert champion_posts
        out = [u for u, n in losses.items() if n >= 2]
        assert len(out) >= 4, "everyone but the last two is out after two losses"


async def test_a_duplicate_fox_duet_with_3_teams_plays_the_same_deal(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 6)
    async with running(emu, MeepleBot(config)) as bot:
        tid = await create(emu, world, name="Fox night", game="fox-duet", format="duplicate", rounds=2)
        # Two players sign up as a team; the other four are paired by the bot.
        for a, b in ((users[0], users[1]), (users[1], users[0])):
            answer = await (
                await emu.slash(a, world.channel, "tournament join", {"tournament": tid, "partner": b})
            ).final_message()
            assert "partner" in answer.content or "signed up" in answer.content, answer.content
        await join_all(emu, world, tid, users[2:])
        await start(emu, world, tid, bot)
        tables = round_tables(config.database, tid, 1)
        assert len(tables) == 3
        assert sorted(json.loads(tables[0]["players"])) == sorted([users[0].id, users[1].id]) or any(
            sorted(json.loads(t["players"])) == sorted([users[0].id, users[1].id]) for t in tables
        )
        seeds = {stored(config.database, "SELECT seed FROM games WHERE id = ?", (t["game_id"],))[0][0] for t in tables}
        assert len(seeds) == 1, "every team faces the same deal"
        threads = [emu.state.channels[t["thread_id"]] for t in tables]
        assert all(thread.type == 12 for thread in threads), "private threads: nobody sees another team's deal"
        await play_rounds(bot, config.database, tid, random.Random(3), moves=500)
        assert tournament_row(config.database, tid)["status"] == "finished"
        assert final_posts(emu, world)


@pytest.mark.parametrize("killed_after", [0, 2])
async def test_a_duplicate_noctiluca_solo_with_4_players_survives_a_restart_while_opening(
    emu, world, config_for, monkeypatch, killed_after
) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 4)
    opened = 0
    real_open = runner_module.Runner.open_table

    async def crash_after_two(self, tournament, current, pairing, *rest):
        nonlocal opened
        if opened == killed_after:
            raise asyncio.CancelledError  # the bot is killed while opening round 1's tables
        opened += 1
        return await real_open(self, tournament, current, pairing, *rest)

    async with running(emu, MeepleBot(config)) as bot:
        tid = await create(
            emu, world, name="Solo storm", game="noctiluca", format="duplicate", players_per_table=1, rounds=2
        )
        await join_all(emu, world, tid, users)
        monkeypatch.setattr(runner_module.Runner, "open_table", crash_after_two)
        with pytest.raises((asyncio.CancelledError, Exception)):
            await bot.tournaments.start(await _tournament(bot, tid), world.owner.id)
        half = round_tables(config.database, tid, 1)
        assert len(half) == 4, "the round's pairings were stored before any table"
        assert sum(1 for t in half if t["game_id"]) == killed_after
    monkeypatch.setattr(runner_module.Runner, "open_table", real_open)
    async with running(emu, MeepleBot(config)) as bot:
        await bot.tournaments.idle()
        tables = round_tables(config.database, tid, 1)
        assert all(t["game_id"] for t in tables) and len(tables) == 4
        one_game_per_table(config.database, tid)
        await play_rounds(bot, config.database, tid, random.Random(4))
        assert tournament_row(config.database, tid)["status"] == "finished"
        games = stored(config.database, "SELECT COUNT(*) FROM games")[0][0]
        assert games == 8, "two rounds of four solo tables, none lost, none twice"


async def _tournament(bot: MeepleBot, tournament_id: int):
    from services.storage import tournaments as store

    found = await store.get(bot.flow.service.db, tournament_id)
    assert found is not None
    return found


async def test_bad_input_is_refused_privately_and_changes_nothing(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)) as bot:
        refusals = [
            ({"name": "Big", "game": "vivarium", "format": "swiss", "players_per_table": 5}, "cannot be played with 5"),
            ({"name": "None", "game": "vivarium", "format": "swiss", "rounds": 0}, "at least one round"),
            ({"name": "Co-op", "game": "fox-duet", "format": "swiss"}, "co-operative"),
        ]
        for options, words in refusals:
            answer = await (await emu.slash(world.owner, world.channel, "tournament create", options)).final_message()
            assert answer.ephemeral and words in answer.content, answer.content
        assert stored(config.database, "SELECT COUNT(*) FROM tournaments")[0][0] == 0
        refused = await (
            await emu.slash(
                world.alice, world.channel, "tournament create", {"name": "X", "game": "vivarium", "format": "swiss"}
            )
        ).final_message()
        assert "Only organisers" in refused.content
        tid = await create(emu, world, name="Small", game="vivarium", format="swiss")
        await join_all(emu, world, tid, [world.alice])
        twice = await (await emu.click(world.alice, signup_message(emu, world, tid), label="Join")).final_message()
        assert "already signed up" in twice.content
        not_organiser = await (
            await emu.slash(world.alice, world.channel, "tournament start", {"tournament": tid})
        ).final_message()
        assert "organiser" in not_organiser.content
        too_few = await (
            await emu.slash(world.owner, world.channel, "tournament start", {"tournament": tid})
        ).final_message()
        assert "at least two" in too_few.content
        await join_all(emu, world, tid, [world.bob])
        await start(emu, world, tid, bot)
        assert not signup_message(emu, world, tid).buttons(), "the sign-up message loses its buttons at the start"
        assert "Running" in signup_message(emu, world, tid).content
        late_user = emu.add_user("late")
        emu.add_member(world.guild, late_user)
        late = await (await emu.slash(late_user, world.channel, "tournament join", {"tournament": tid})).final_message()
        assert late.ephemeral and "is closed" in late.content
        dropped = await (
            await emu.slash(world.bob, world.channel, "tournament drop", {"tournament": tid})
        ).final_message()
        assert "dropped out" in dropped.content
        again = await (
            await emu.slash(world.bob, world.channel, "tournament drop", {"tournament": tid})
        ).final_message()
        assert "not playing" in again.content
        entrants = stored(config.database, "SELECT user_id, status FROM entrants WHERE tournament_id = ?", (tid,))
        assert {r["user_id"]: r["status"] for r in entrants} == {world.alice.id: "active", world.bob.id: "dropped"}


async def test_organiser_tools_correct_extend_end_and_replace_with_an_audit_log(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 4)
    rng = random.Random(44)
    async with running(emu, MeepleBot(config)) as bot:
        tid = await create(emu, world, name="Tools", game="vivarium", format="swiss", rounds=2, days_per_round=3)
        await join_all(emu, world, tid, users)
        await start(emu, world, tid, bot)
        first, second = round_tables(config.database, tid, 1)
        # The organiser sets table 1's result with a reason: the table is closed with it.
        a, b = json.loads(first["players"])
        answer = await (
            await emu.slash(
                world.owner,
                world.channel,
                "tournament result",
                {"table": 1, "ranks": "2 1", "reason": "agreed in chat"},
            )
        ).final_message()
        assert "is recorded" in answer.content, answer.content
        assert (
            stored(config.database, "SELECT status FROM games WHERE id = ?", (first["game_id"],))[0][0] == "abandoned"
        )
        bad = await (
            await emu.slash(
                world.owner, world.channel, "tournament result", {"table": 1, "ranks": "1 2 3", "reason": "x"}
            )
        ).final_message()
        assert "one rank per player" in bad.content
        nope = await (
            await emu.slash(
                users[0], world.channel, "tournament result", {"table": 1, "ranks": "1 2", "reason": "mine"}
            )
        ).final_message()
        assert "organiser" in nope.content
        # More time, then the round is ended now: table 2, unfinished, is settled by forfeit.
        deadline = stored(config.database, "SELECT deadline FROM tournament_rounds WHERE tournament_id = ?", (tid,))[0][
            0
        ]
        extended = await (await emu.slash(world.owner, world.channel, "tournament extend", {"days": 2})).final_message()
        assert "now ends" in extended.content
        later = stored(config.database, "SELECT deadline FROM tournament_rounds WHERE tournament_id = ?", (tid,))[0][0]
        assert later > deadline
        state_row = stored(config.database, "SELECT version FROM games WHERE id = ?", (second["game_id"],))[0]
        assert state_row["version"] == 0
        ended = await (await emu.slash(world.owner, world.channel, "tournament end-round", {})).final_message()
        assert "is ended now" in ended.content
        await bot.tournaments.idle()
        settled = json.loads(round_tables(config.database, tid, 1)[1]["result"])
        assert settled["how"] == "settled" and sorted(settled["ranks"]) == [1, 2] and any(settled["forfeited"])
        assert (
            stored(config.database, "SELECT status FROM games WHERE id = ?", (second["game_id"],))[0][0] == "abandoned"
        )
        assert tournament_row(config.database, tid)["round"] == 2, "the next round started"
        # A substitute takes a player's place, record and seat in round 2.
        leaving = users[3]
        substitute = emu.add_user("sub", global_name="Substitute")
        emu.add_member(world.guild, substitute)
        replaced = await (
            await emu.slash(
                world.owner,
                world.channel,
                "tournament replace",
                {"player": leaving, "substitute": substitute, "reason": "moved away"},
            )
        ).final_message()
        assert "takes" in replaced.content, replaced.content
        everywhere = [json.loads(t["players"]) for t in stored(config.database, "SELECT players FROM pairings")]
        assert all(leaving.id not in p for p in everywhere) and any(substitute.id in p for p in everywhere)
        for table in round_tables(config.database, tid, 2):
            if substitute.id in json.loads(table["players"]):
                seats = stored(config.database, "SELECT user_id FROM seats WHERE game_id = ?", (table["game_id"],))
                assert substitute.id in [r[0] for r in seats]
        await play_rounds(bot, config.database, tid, rng)
        page = await (await emu.slash(users[0], world.channel, "tournament standings", {})).final_message()
        assert "agreed in chat" in page.content and "moved away" in page.content, "the audit log is on the standings"
        assert "Organiser corrections" in page.content
        mine = await (await emu.slash(users[0], world.channel, "tournament mine", {})).final_message()
        assert "no table" in mine.content
        listed = await (await emu.slash(users[0], world.channel, "tournament list", {})).final_message()
        assert "Tools" in listed.content and "Finished" in listed.content
        past = await (await emu.slash(users[0], world.channel, "tournament pairings", {"round": 1})).final_message()
        assert "Table 1" in past.content and "ranks" in past.content


async def test_a_pod_table_unfinished_at_the_deadline_is_scored_as_it_stands(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 6)
    now = [datetime(2026, 11, 24, 12, 0, tzinfo=UTC)]
    async with running(emu, MeepleBot(config, clock=lambda: now[0])) as bot:
        tid = await create(
            emu, world, name="Pods", game="vivarium", format="swiss", players_per_table=3, rounds=1, unfinished="score"
        )
        await join_all(emu, world, tid, users)
        await start(emu, world, tid, bot)
        tables = round_tables(config.database, tid, 1)
        assert [len(json.loads(t["players"])) for t in tables] == [3, 3]
        mine = await (await emu.slash(users[0], world.channel, "tournament mine", {})).final_message()
        assert "round 1" in mine.content
        # A few moves at each table, nobody finishes; the deadline passes.
        service = bot.flow.service
        rng = random.Random(3)
        for table in tables:
            for _ in range(9):
                row = await service.get(table["game_id"])
                state = await service.state(row)
                seat = state.to_move()[0]
                users_at = await service.seat_users(row.id)
                actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in GIVE_UP_KINDS]
                await service.act(row.id, users_at[seat], row.version, str(rng.choice(actions)))
        expected = {}
        for table in tables:
            state = await service.state(await service.get(table["game_id"]))
            expected[table["slot"]] = state.standing()
        await bot.tournaments.tick()
        assert tournament_row(config.database, tid)["status"] == "running", "not before the deadline"
        now[0] += timedelta(days=8)
        await bot.tournaments.tick()
        await bot.tournaments.idle()
        assert tournament_row(config.database, tid)["status"] == "finished"
        for table in round_tables(config.database, tid, 1):
            result = json.loads(table["result"])
            assert result["how"] == "scored"
            assert result["scores"] == expected[table["slot"]].scores
        assert final_posts(emu, world)


async def test_cancel_stops_the_rounds_and_sign_up_deadline_starts_by_itself(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 3)
    now = [datetime(2026, 11, 24, 12, 0, tzinfo=UTC)]
    async with running(emu, MeepleBot(config, clock=lambda: now[0])) as bot:
        tid = await create(emu, world, name="Auto", game="tm-dice", format="swiss", signup_days=2)
        await join_all(emu, world, tid, users)
        await bot.tournaments.tick()
        assert tournament_row(config.database, tid)["status"] == "signup"
        now[0] += timedelta(days=2, minutes=1)
        await bot.tournaments.tick()
        await bot.tournaments.idle()
        assert tournament_row(config.database, tid)["status"] == "running"
        assert len(round_tables(config.database, tid, 1)) == 2, "a duel and a bye"
        cancelled = await (
            await emu.slash(world.owner, world.channel, "tournament cancel", {"reason": "server event moved"})
        ).final_message()
        assert "cancelled" in cancelled.content
        assert tournament_row(config.database, tid)["status"] == "cancelled"
        again = await (
            await emu.slash(world.owner, world.channel, "tournament cancel", {"reason": "twice", "tournament": tid})
        ).final_message()
        assert "not running" in again.content
        lonely = await create(emu, world, name="Lonely", game="tm-dice", format="swiss", signup_days=1)
        now[0] += timedelta(days=1, minutes=1)
        await bot.tournaments.tick()
        assert tournament_row(config.database, lonely)["status"] == "cancelled"
        assert any("could not start" in m.content for m in emu.messages(world.channel))


async def test_organiser_tools_refuse_bad_input_and_change_nothing(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    users = players(emu, world, 2)
    async with running(emu, MeepleBot(config)):
        tid = await create(emu, world, name="Strict", game="vivarium", format="swiss", rounds=1)
        early = await (await emu.slash(world.owner, world.channel, "tournament extend", {"days": 1})).final_message()
        assert early.ephemeral and "not running" in early.content
        await join_all(emu, world, tid, users)
        stranger = emu.add_user("stranger")
        emu.add_member(world.guild, stranger)
        cases = [
            ("tournament remove", {"player": stranger, "reason": "spam"}, "is not playing in this tournament"),
            ("tournament replace", {"player": users[0], "substitute": users[0], "reason": "x"}, "another person"),
            ("tournament replace", {"player": stranger, "substitute": world.bob, "reason": "x"}, "is not playing"),
            ("tournament pairings", {"round": 5}, "no round 5"),
            ("tournament result", {"table": 1, "ranks": "1 2", "reason": "x"}, "not running"),
        ]
        before = stored(config.database, "SELECT user_id, status FROM entrants ORDER BY user_id")
        for command, options, words in cases:
            answer = await (await emu.slash(world.owner, world.channel, command, options)).final_message()
            assert answer.ephemeral and words in answer.content, (command, answer.content)
        assert stored(config.database, "SELECT user_id, status FROM entrants ORDER BY user_id") == before
        assert not stored(config.database, "SELECT * FROM tournament_audit")
