"""New messages per turn and mentions per player turn, over whole games with computers.

The bot (``MeepleBot``, in this process) plays against the loopback emulator, one table per game
and player count: Fox Duet 2, Noctiluca 1-4, Vivarium 2-4, TM dice 1-4. Alice (and Bob, at three
players or more) are people, who play a seeded random legal move as soon as their board is on
the channel; the other seats are easy computers (no delay before they move). Every message the
bot posts in the game's channel is counted, with the people each one notified when it was posted
(an edit notifies nobody) and how often it was edited.

    .venv/bin/python bench/posts.py --json after.json               # play, save the raw record
    .venv/bin/python bench/posts.py --report before.json after.json   # the figures, side by side

Playing only records (the game's action log, the messages); ``--report`` replays each log with
the engine and counts its turns by this checkout's ``services.board_turns.turn_change``, so a record made by
older code (``git archive <commit> | tar -x -C /tmp/base``, then run this file there) is counted
the same way. Turns, as the issue counts them: whenever a seat newly has to move, or the game's
own turn begins (a new round, dive or turn counter); "g.turns" counts the game's own only (a
Noctiluca diver's turn takes in the passing round). The end of the game is one more turn (its
final board). A person's turn begins when that seat newly has to move, or when the game begins a
turn with it to move (a seat whose turn goes on beside another's that begins is not counted). The
pictures are not drawn (a 1-pixel PNG stands in; ``--draw`` draws them): the counts do not
depend on them, and the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import services.game_service  # noqa: E402
from bot.client import MeepleBot  # noqa: E402
from emulator.emulator import Emulator  # noqa: E402
from emulator.model import Message  # noqa: E402
from emulator.testing import FAST, make_world, running  # noqa: E402
from engine import GAMES, Action  # noqa: E402
from services.config import Config  # noqa: E402

CONFIGS = [
    ("fox-duet", 2),
    ("noctiluca", 1),
    ("noctiluca", 2),
    ("noctiluca", 3),
    ("noctiluca", 4),
    ("vivarium", 2),
    ("vivarium", 3),
    ("vivarium", 4),
    ("tm-dice", 1),
    ("tm-dice", 2),
    ("tm-dice", 3),
    ("tm-dice", 4),
]
MOVE_LIMIT = 3000  # a game longer than this is cut (and said so)
_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


def is_board(message: Message) -> bool:
    return any(a.filename == "board.png" for a in message.attachments)


def notified(message: Message) -> list[int]:
    """Whom a message pinged when it was posted. An emulator from before ``notified_ids`` (older
    code): every mention of a board, which the bot then posted with every user mention allowed."""
    pinged = getattr(message, "notified_ids", None)
    if pinged is not None:
        return list(pinged)
    return list(message.mention_ids) if is_board(message) else []


@contextlib.contextmanager
def no_drawing(draw: bool) -> Any:
    if draw:
        yield
        return

    async def png(*args: Any, **kwargs: Any) -> bytes:
        return _PNG

    async def no_replay(*args: Any, **kwargs: Any) -> None:
        return None

    with (
        mock.patch("services.pictures.Pictures.board", png),
        mock.patch("services.pictures.Pictures.hand", png),
        mock.patch("bot.history_ui.attach_replay", no_replay),
    ):
        yield


@contextlib.asynccontextmanager
async def bot_for(emu: Emulator, guild_id: int, database: Path) -> AsyncIterator[MeepleBot]:
    config = Config(
        token=emu.bot_token,
        database=database,
        dev_guild=guild_id,
        api_base=emu.base_url,
        log_level="WARNING",
        render_workers=0,
    )
    never = asyncio.Event()  # no minute ticks: no reminders in a game played at once
    async with running(emu, MeepleBot(config, computer_delay=0.0, tick_wait=never.wait)) as meeple:
        yield meeple


async def settle(meeple: MeepleBot) -> None:
    """Until nothing is under way: deliveries, computers thinking, background work."""
    flow = meeple.flow
    assert flow is not None
    for _ in range(3):
        await asyncio.sleep(0.02)
        await flow.delivery.caught_up()
        if flow.computer_turns is not None:
            await flow.computer_turns.idle()
        await flow.tasks.idle()


async def play(key: str, players: int, seed: int, database: Path, limit: int = MOVE_LIMIT) -> dict[str, Any]:
    """One whole game at one table; its raw record."""
    people = 1 if players <= 2 else 2
    async with Emulator(**FAST) as emu:
        world = make_world(emu)
        users = [world.alice, world.bob][:people]
        async with bot_for(emu, world.guild.id, database) as meeple:
            flow = meeple.flow
            assert flow is not None and meeple.db is not None
            options: dict[str, Any] = {"game": key}
            if players > people:
                options.update(computers=players - people, level="easy")
            created = await emu.slash(world.alice, world.channel, "table create", options)
            await created.final_message()
            lobby = emu.last_message(world.channel)
            assert lobby is not None
            for user in users[1:]:
                await (await emu.click(user, lobby, label="Join")).response()
                await emu.wait_until(lambda u=user: f"<@{u.id}>" in lobby.content, what="a player in the lobby")
            started_at = len(emu.messages(world.channel))
            await (await emu.click(world.alice, lobby, label="Start")).response()
            await emu.wait_until(lambda: any(is_board(m) for m in emu.messages(world.channel)), what="the first board")
            row = await meeple.db.active_game_in_channel(world.channel.id)
            assert row is not None
            game_id = row.id
            rng = random.Random(f"{key}-{players}-{seed}")
            human_ids = {user.id for user in users}
            begun = time.monotonic()
            while len(await meeple.db.actions(game_id)) < limit:
                await settle(meeple)
                row = await flow.service.get(game_id)
                if row.status != "running":
                    break
                state = await flow.service.state(row)
                seats = await flow.service.seat_users(game_id)
                due = [seat for seat in state.to_move() if seats[seat] in human_ids]
                if not due:
                    flow.computer_turns.poke(game_id)  # type: ignore[union-attr]
                    continue
                seat = due[0]
                game = GAMES[key]
                legal = state.legal_actions(seat)
                fair = [a for a in legal if game.action_kind(a) not in ("concede", "resign")] or legal
                result = await flow.service.act(game_id, seats[seat], None, rng.choice(fair).text)
                await flow.after_move(result)
            await settle(meeple)
            row = await flow.service.get(game_id)
            actions = await meeple.db.query(
                "SELECT version, seat, action FROM actions WHERE game_id = ? ORDER BY version", (game_id,)
            )
            seats = await flow.service.seat_users(game_id)
            posted = [m for m in emu.messages(world.channel)[started_at:] if m.author.id == emu.state.bot.id]
            return {
                "game": key,
                "players": players,
                "seed": row.seed,
                "options": row.options,
                "rules_version": getattr(row, "rules_version", None),
                "status": row.status,
                "people": sorted(seat for seat, user in enumerate(seats) if user in human_ids),
                "users": seats,
                "actions": [[r["seat"], r["action"]] for r in actions],
                "messages": [{"board": is_board(m), "notified": notified(m), "edits": m.edit_count} for m in posted],
                "seconds": round(time.monotonic() - begun, 1),
            }


async def record(
    configs: list[tuple[str, int]], seed: int, draw: bool, limit: int, out: Path | None
) -> list[dict[str, Any]]:
    logging.basicConfig(level=logging.WARNING)
    games = []
    for key, players in configs:
        dealer = SimpleNamespace(randbits=random.Random(f"{key}-{players}-{seed}").getrandbits)
        with mock.patch.object(services.game_service, "secrets", dealer), no_drawing(draw):
            import tempfile

            with tempfile.TemporaryDirectory() as folder:
                games.append(await play(key, players, seed, Path(folder) / "meeple.db", limit))
        if out is not None:
            out.write_text(json.dumps(games))  # after each game: a long run cut short keeps the rest
        last = games[-1]
        print(
            f"{key} {players}p: {len(last['actions'])} moves, {len(last['messages'])} messages,"
            f" {last['status']}, {last['seconds']} s",
            file=sys.stderr,
        )
    return games


# -- the figures ------------------------------------------------------------------------------
def turns_of(game: dict[str, Any]) -> tuple[int, int, dict[int, int]]:
    """The game's log replayed: its turns by the game's own count (``services.board_turns.turn_change``: a
    Noctiluca diver's turn takes in the others' decisions of its passing round), its turns as
    the issue counts them (also whenever a seat newly has to move), and each person's turns: how
    often that seat's turn starts (it newly has to move, or the game begins a turn with it to
    move; a seat whose turn goes on while another's begins beside it is not counted again). The
    end of the game is a turn of its own: its final board."""
    from services.board_turns import STARTS, TURN, turn_change

    spec = GAMES[game["game"]]
    kwargs = {"rules_version": game["rules_version"]} if game.get("rules_version") else {}
    state = spec.new(game["players"], game["seed"], game["options"] or None, **kwargs)
    own = issue = 1  # the first board
    people = {seat: int(seat in state.to_move()) for seat in game["people"]}
    for seat, text in game["actions"]:
        before = spec.load(state.to_dict())
        events = state.resign(seat) if text == "resign" else state.apply(seat, Action(text))
        changed = turn_change(game["game"], before, state, events)
        over = state.outcome() is not None
        newly = [mover for mover in state.to_move() if mover not in before.to_move()]
        own += 1 if over or changed[TURN] or changed[STARTS] else 0
        issue += 1 if over or changed[TURN] or changed[STARTS] or newly else 0
        for person in people:
            if person in state.to_move() and (changed[TURN] or person in newly):
                people[person] += 1
    return own, issue, people


def figures(game: dict[str, Any]) -> dict[str, Any]:
    own, issue, person_turns = turns_of(game)
    messages = game["messages"]
    users = game["users"]
    mentions = {seat: sum(users[seat] in m["notified"] for m in messages) for seat in game["people"]}
    return {
        "moves": len(game["actions"]),
        "turns": issue,
        "game_turns": own,
        "messages": len(messages),
        "boards": sum(m["board"] for m in messages),
        "edits": sum(m["edits"] for m in messages),
        "per_turn": len(messages) / max(1, issue),
        "per_game_turn": len(messages) / max(1, own),
        "person_turns": sum(person_turns.values()),
        "mentions": sum(mentions.values()),
        "per_person_turn": sum(mentions.values()) / max(1, sum(person_turns.values())),
        "worst_seat": max((mentions[seat] / max(1, person_turns[seat]) for seat in game["people"]), default=0.0),
        "finished": game["status"] == "finished",
    }


def report(paths: list[Path]) -> None:
    runs = [(path.stem, json.loads(path.read_text())) for path in paths]
    print("new messages per turn, mentions per person's turn (person = Alice, and Bob at 3+ players)")
    print("turns: a seat newly to move, or the game's own new turn; g.turns: the game's own only\n")
    head = f"{'game':<10}{'pl':>3}  {'run':<10}{'moves':>6}{'turns':>6}{'g.turns':>8}{'msgs':>6}{'edits':>6}"
    print(head + f"{'msg/turn':>9}{'msg/g.turn':>11}{'p.turns':>8}{'pings':>6}{'ping/p.turn':>12}{'worst':>7}")
    for key, players in CONFIGS:
        for name, games in runs:
            for game in games:
                if (game["game"], game["players"]) != (key, players):
                    continue
                f = figures(game)
                cut = "" if f["finished"] else "  (cut)"
                print(
                    f"{key:<10}{players:>3}  {name:<10}{f['moves']:>6}{f['turns']:>6}{f['game_turns']:>8}"
                    f"{f['messages']:>6}{f['edits']:>6}{f['per_turn']:>9.2f}{f['per_game_turn']:>11.2f}"
                    f"{f['person_turns']:>8}{f['mentions']:>6}"
                    f"{f['per_person_turn']:>12.2f}{f['worst_seat']:>7.2f}{cut}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game")
    parser.add_argument("--players", type=int, help="only this player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--draw", action="store_true", help="draw the pictures (slower)")
    parser.add_argument("--moves", type=int, default=MOVE_LIMIT, help="cut a game after this many moves")
    parser.add_argument("--json", type=Path, help="where to save the raw record (default: print the figures)")
    parser.add_argument("--report", type=Path, nargs="+", help="print the figures of saved records")
    args = parser.parse_args()
    if args.report:
        report(args.report)
        return
    configs = [
        (key, players)
        for key, players in CONFIGS
        if (args.game is None or key == args.game) and (args.players is None or players == args.players)
    ]
    games = asyncio.run(record(configs, args.seed, args.draw, args.moves, args.json))
    if not args.json:
        with contextlib.suppress(ImportError):
            import services.board_turns  # noqa: F401  (older code has no turns to count by)

            for game in games:
                print(game["game"], game["players"], figures(game))


if __name__ == "__main__":
    main()
