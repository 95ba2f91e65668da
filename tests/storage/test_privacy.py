"""services/storage/privacy.py on SQLite and PostgreSQL: the export holds each kind of the player's own
data and nobody else's; forgetting leaves their id and name in no row of any table (a running
tournament's tables, its audit log and a pending board's notes included), and the other players'
results and ratings as they were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from services.storage import Database, ratings
from services.storage import privacy as store

STAMP = "2026-11-24T10:00:00.000Z"
ZEPH, ALICE, BOB = 917_364_501_238_475_601, 917_364_501_238_475_602, 917_364_501_238_475_603
NAME = "Zephyrine Quill"


async def game(conn, status: str, creator: int, players: list[tuple[int, str]], channel: int, game: str) -> int:
    over = status == "finished"
    cursor = await conn.execute(
        "INSERT INTO games (game, guild_id, channel_id, status, seed, creator_id, version, state, outcome,"
        " finished_at) VALUES (?, 7, ?, ?, 1, ?, 1, '{}', ?, ?)",
        (game, channel, status, creator, "{}" if over else None, STAMP if over else None),
    )
    game_id = cursor.lastrowid
    await conn.executemany(
        "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
        [(game_id, seat, user, name) for seat, (user, name) in enumerate(players)],
    )
    for seat in range(len(players)):
        await conn.execute(
            "INSERT INTO actions (game_id, version, seat, action) VALUES (?, ?, ?, ?)",
            (game_id, seat + 1, seat, f"take {seat}"),
        )
    return int(game_id)


async def filled(db: Database) -> dict[str, int]:
    """Zephyrine with Alice and Bob in every kind of row there is."""
    players = [(ZEPH, NAME), (ALICE, "Alice"), (BOB, "Bob")]
    async with db.transaction() as conn:
        rated = await game(conn, "finished", ZEPH, players, 10, "vivarium")
        for seat, (user, _) in enumerate(players):
            await conn.execute(
                "INSERT INTO results (game_id, seat, user_id, game, score, rank, won, finished_at)"
                " VALUES (?, ?, ?, 'vivarium', ?, ?, ?, ?)",
                (rated, seat, user, 10 - seat, seat + 1, int(seat == 0), STAMP),
            )
        await ratings.rate_game(conn, rated, 7, "vivarium", STAMP, [(ZEPH, 1), (ALICE, 2), (BOB, 3)])
        left = await game(conn, "running", ALICE, [(ALICE, "Alice"), (5, "Computer 5")], 11, "vivarium")
        await conn.execute(
            "INSERT INTO computer_seats (game_id, seat, level, left_user) VALUES (?, 1, 'normal', ?)", (left, ZEPH)
        )
        await conn.execute("INSERT INTO abandon_votes (game_id, user_id) VALUES (?, ?)", (left, ZEPH))
        await conn.execute(
            "INSERT INTO delivery_jobs (game_id, version, kind, payload) VALUES (?, 1, 'notice', ?)",
            (left, json.dumps({"key": "game.dm-failed", "users": [ZEPH, ALICE], "notes": [f"⚐ <@{ZEPH}> resigned."]})),
        )
        solo = await game(conn, "finished", ZEPH, [(ZEPH, NAME)], 12, "noctiluca")
        await conn.execute(
            "INSERT INTO challenge_seeds (guild_id, week, mode, seed) VALUES (7, '2026-W48', 'noctiluca-solo', 5)"
        )
        await conn.execute(
            "INSERT INTO challenge_attempts (guild_id, week, mode, user_id, game_id)"
            " VALUES (7, '2026-W48', 'noctiluca-solo', ?, ?)",
            (ZEPH, solo),
        )
        cursor = await conn.execute(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, game, format, table_size, round_days,"
            " seed, status, round) VALUES (7, 13, ?, 'Autumn', 'vivarium', 'swiss', 2, 3, 1, 'running', 1)",
            (ZEPH,),
        )
        tid = int(cursor.lastrowid)
        for user, name in players:
            await conn.execute(
                "INSERT INTO entrants (tournament_id, user_id, display_name, seed_order) VALUES (?, ?, ?, 0)",
                (tid, user, name),
            )
        await conn.execute(
            "INSERT INTO tournament_rounds (tournament_id, number, seed, deadline) VALUES (?, 1, 1, ?)", (tid, STAMP)
        )
        result = {"ranks": [1, 2], "scores": [5, 3], "won": [True, False], "forfeited": [False, False], "how": "played"}
        await conn.execute(
            "INSERT INTO pairings (tournament_id, round, slot, players, result) VALUES (?, 1, 0, ?, ?)",
            (tid, json.dumps([ZEPH, ALICE]), json.dumps(result)),
        )
        await conn.execute(
            "INSERT INTO pairings (tournament_id, round, slot, players) VALUES (?, 1, 1, ?)", (tid, json.dumps([BOB]))
        )
        await conn.execute(
            "INSERT INTO tournament_audit (tournament_id, actor_id, action, detail, reason)"
            " VALUES (?, ?, 'remove', ?, ?)",
            (tid, ALICE, f"<@{ZEPH}> removed", f"{NAME} asked to leave"),
        )
        await conn.execute(
            "INSERT INTO vacations (user_id, starts_at, ends_at) VALUES (?, ?, '2026-12-01T00:00:00.000Z')",
            (ZEPH, STAMP),
        )
        await conn.execute("INSERT INTO user_locales (user_id, locale) VALUES (?, 'pt-BR')", (ZEPH,))
        await conn.execute("INSERT INTO user_locales (user_id, locale) VALUES (?, 'en-US')", (ALICE,))
    return {"rated": rated, "left": left, "solo": solo, "tournament": tid}


async def tables(db: Database, backend: str) -> list[str]:
    if backend == "sqlite":
        rows = await db.query("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        rows = await db.query("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
    return [str(r[0]) for r in rows]


async def traces(db: Database, backend: str, user_id: int, name: str) -> list[str]:
    found = []
    for table in await tables(db, backend):
        for row in await db.query(f"SELECT * FROM {table}"):
            for value in tuple(row):
                if value == user_id or (
                    isinstance(value, str) and (str(user_id) in value or name.lower() in value.lower())
                ):
                    found.append(f"{table}: {value}")
    return found


async def test_the_export_holds_each_kind_and_only_the_player_s_own(db: Database) -> None:
    ids = await filled(db)
    data = await store.export(db, ZEPH)
    text = store.export_json(data)
    assert {s["game_id"] for s in data["seats"]} == {ids["rated"], ids["solo"]}
    assert [m["action"] for m in data["moves"]] == ["take 0", "take 0"], "only the moves of her seat"
    assert data["results"][0]["rank"] == 1 and data["results"][0]["won"] is True
    assert data["ratings"] and data["rating_history"] and data["settings"] == {"locale": "pt-BR"}
    assert len(data["vacations"]) == 1 and data["challenge_entries"][0]["game_id"] == ids["solo"]
    assert data["seats_left_to_a_computer"] == [{"game_id": ids["left"], "game": "vivarium", "seat": 1}]
    entry = data["tournament_entries"][0]
    assert entry["tables"] == [
        {
            "round": 1,
            "table": 0,
            "game_id": None,
            "seat": 0,
            "result": {"ranks": 1, "scores": 5, "won": True, "forfeited": False, "how": "played"},
        }
    ]
    assert data["tournaments_organised"][0]["name"] == "Autumn"
    assert str(ALICE) not in text and str(BOB) not in text and "Alice" not in text and "Bob" not in text


@pytest.mark.parametrize("user_id", [0, -5, 5, store.ANONYMOUS_BASE + 1, 2**63, True])
async def test_ids_that_are_no_discord_user_s_are_refused(db: Database, user_id: int) -> None:
    with pytest.raises(store.NotAPlayer):
        await store.export(db, user_id)
    with pytest.raises(store.NotAPlayer):
        await store.forget(db, user_id)


async def test_forget_leaves_no_trace_and_the_others_whole(db: Database, backend: str) -> None:
    ids = await filled(db)
    assert len(await traces(db, backend, ZEPH, "Zephyrine")) > 10
    others = "SELECT game_id, seat, user_id, score, rank, won FROM results WHERE user_id <> ? ORDER BY 1, 2"
    results = [tuple(r) for r in await db.query(others, (ZEPH,))]
    board = "SELECT user_id, mu, sigma, games FROM ratings WHERE user_id <> ? ORDER BY 1"
    rated = [tuple(r) for r in await db.query(board, (ZEPH,))]
    audit_before = await db.query("SELECT detail, reason FROM tournament_audit")

    done = await store.forget(db, ZEPH)
    assert done.anonymous_id == store.ANONYMOUS_BASE + 1 and done.label == "Former player 1"
    assert await traces(db, backend, ZEPH, "Zephyrine") == []
    anonymous = done.anonymous_id
    assert [tuple(r) for r in await db.query(others, (anonymous,))] == results
    assert [tuple(r) for r in await db.query(board, (anonymous,))] == rated
    assert not await db.query("SELECT 1 FROM ratings WHERE user_id = ?", (anonymous,))
    assert not await db.query("SELECT 1 FROM user_locales WHERE user_id = ?", (anonymous,))
    assert await db.query("SELECT 1 FROM user_locales WHERE user_id = ?", (ALICE,)), "Alice's language stays"
    # Her place everywhere else: the anonymous id and the label.
    assert [tuple(r) for r in await db.query("SELECT rank, score FROM results WHERE user_id = ?", (anonymous,))] == [
        (1, 10)
    ]
    players = await db.query("SELECT players FROM pairings WHERE slot = 0")
    assert json.loads(players[0][0]) == [anonymous, ALICE]
    entrant = await db.query("SELECT display_name, status FROM entrants WHERE user_id = ?", (anonymous,))
    assert tuple(entrant[0]) == ("Former player 1", "dropped"), "she drops out of a running tournament"
    audit = await db.query("SELECT detail, reason FROM tournament_audit")
    assert tuple(audit[0]) == (f"<@{anonymous}> removed", "Former player 1 asked to leave") != tuple(audit_before[0])
    payload = json.loads((await db.query("SELECT payload FROM delivery_jobs"))[0][0])
    assert payload["users"] == [anonymous, ALICE] and payload["notes"] == [f"⚐ <@{anonymous}> resigned."]
    left = await db.query("SELECT left_user FROM computer_seats WHERE game_id = ?", (ids["left"],))
    assert left[0][0] == anonymous
    assert (await db.query("SELECT organiser_id FROM tournaments"))[0][0] == anonymous

    # A second player forgotten gets the next number; rebuilding the ratings from the results
    # gives Alice and Bob exactly what they had.
    second = await store.forget(db, ALICE)
    assert second.anonymous_id == anonymous + 1 and second.label == "Former player 2"
    async with db.transaction() as conn:
        await ratings.rebuild(conn)
    bob = [tuple(r) for r in await db.query("SELECT user_id, mu, sigma, games FROM ratings WHERE user_id = ?", (BOB,))]
    assert bob == [r for r in rated if r[0] == BOB]


async def test_a_sign_up_is_withdrawn(db: Database, tmp_path: Path) -> None:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, game, format, table_size, round_days,"
            " seed) VALUES (7, 13, ?, 'Winter', 'fox-duet', 'duplicate', 2, 3, 1)",
            (BOB,),
        )
        tid = cursor.lastrowid
        await conn.execute(
            "INSERT INTO entrants (tournament_id, user_id, display_name, partner_id) VALUES (?, ?, ?, ?)",
            (tid, ZEPH, NAME, ALICE),
        )
        await conn.execute(
            "INSERT INTO entrants (tournament_id, user_id, display_name, partner_id) VALUES (?, ?, 'Alice', ?)",
            (tid, ALICE, ZEPH),
        )
    await store.forget(db, ZEPH)
    rows = await db.query("SELECT user_id, partner_id FROM entrants")
    assert [tuple(r) for r in rows] == [(ALICE, None)], "her partner stays, alone"


async def test_a_name_read_before_a_computer_took_her_seat_is_scrubbed_too(db: Database) -> None:
    """Her seat went to a computer (it holds the computer's name now), but a board already shown
    names her: the names read before the takeover are scrubbed with the ones still stored."""
    async with db.transaction() as conn:
        left = await game(conn, "running", ALICE, [(ALICE, "Alice"), (5, "Computer 5")], 11, "vivarium")
        shown = {"shown": {"message": 1, "version": 0, "lines": [f"{NAME} takes the first player marker."]}}
        await conn.execute(
            "INSERT INTO delivery_jobs (game_id, version, kind, payload) VALUES (?, 0, 'board', ?)",
            (left, json.dumps(shown)),
        )
    assert await store.names_of(db, ZEPH) == [], "no seat holds her name any more"
    await store.forget(db, ZEPH, names=[NAME])
    payload = json.loads((await db.query("SELECT payload FROM delivery_jobs"))[0][0])
    assert payload["shown"]["lines"] == ["Former player 1 takes the first player marker."]
