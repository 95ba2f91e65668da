"""SQL statements per move, for every game and player count, through the real bot.

The bot (``MeepleBot``: its cogs, ``Flow``, ``GameService``, the delivery worker) runs in this
process against the loopback emulator, with a real SQLite file (or ``--database postgres``: a
throw-away PostgreSQL server, as the tests start one). Users open a table, join, start, and
press what the bot offers them, as ``tests/support/driver.py``'s ``Table`` does. For each move,
the statements counted by ``meeple_db_statements_total`` (services/metrics.py: every statement the
storage layer runs, BEGIN and COMMIT included, an executemany once) from the click on the move
until everything the move caused is done: the click's transaction, its answer, the board
posted, the private DMs sent, the delivery jobs' bookkeeping, a computer's check. Opening
"My hand" (a click of its own, made before a private choice) is counted apart.

A finishing move too: the game is fast-forwarded through the service (seeded random moves, the
same as a player's but without Discord; the boards and DMs of those moves are marked delivered
through the storage API, the last board is posted), and its last move is made by a click. The
finished game's results, ratings and the replay (when the board is posted with it) are counted
in that move.

    .venv/bin/python bench/statements.py [--moves 30] [--game fox-duet] [--players 2] [--trace 3]

The counts depend only on the code and the seeds, never on the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prometheus_client import REGISTRY  # noqa: E402

import services.game_service  # noqa: E402
from bot.client import MeepleBot  # noqa: E402
from emulator.emulator import Emulator  # noqa: E402
from emulator.model import Channel, Message, User  # noqa: E402
from emulator.testing import FAST, assert_clean, make_world, running  # noqa: E402
from engine import GAMES, Action, Game, State  # noqa: E402
from services.config import Config  # noqa: E402
from services.game_service import delivery_jobs  # noqa: E402
from services.storage import db as storage_db  # noqa: E402

LIMIT = 20  # the budget per ordinary move
NAMES = ("carol", "dave", "erin")


def statements() -> int:
    """The process's ``meeple_db_statements_total`` so far."""
    return int(REGISTRY.get_sample_value("meeple_db_statements_total") or 0)


@dataclass
class Measured:
    """The statements of one game at one player count."""

    game: str
    players: int
    moves: list[int] = field(default_factory=list)  # each ordinary move, in order
    dms: list[int] = field(default_factory=list)  # the private DMs each ordinary move sent
    hands: list[int] = field(default_factory=list)  # each "My hand" opened before a private choice
    finishing: int | None = None  # the move that ended the game
    traces: list[list[str]] = field(default_factory=list)  # the SQL of the traced moves

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "moves": len(self.moves),
            "mean": statistics.fmean(self.moves) if self.moves else None,
            "max": max(self.moves, default=None),
            "hand_mean": statistics.fmean(self.hands) if self.hands else None,
            "max_with_dm": max((c for c, d in zip(self.moves, self.dms, strict=True) if d), default=None),
            "finishing": self.finishing,
            "per_move": self.moves,
            "dms_per_move": self.dms,
        }


# -- tracing: the SQL text of each statement, for --trace -------------------------------------
_TRACE: list[str] | None = None


@contextlib.contextmanager
def tracing() -> Iterator[None]:
    """Record the text of every statement run through the SQLite backend into ``_TRACE``."""
    counted = storage_db.CountedConnection
    originals = {name: getattr(counted, name) for name in ("execute", "execute_fetchall", "executemany")}

    def wrap(name: str) -> Any:
        original = originals[name]

        def traced(self: Any, sql: str, *args: Any) -> Any:
            if _TRACE is not None:
                _TRACE.append(("many: " if name == "executemany" else "") + " ".join(sql.split())[:160])
            return original(self, sql, *args)

        return traced

    for name in originals:
        setattr(counted, name, wrap(name))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(counted, name, original)


# -- driving the bot ------------------------------------------------------------------------------
def is_board(message: Message) -> bool:
    return any(a.filename == "board.png" for a in message.attachments)


def buttons_of(message: Message) -> dict[str, str]:
    """Action text -> custom id of the move buttons on a message (``mp:act:<game>:<version>:<action>``)."""
    return {
        str(b["custom_id"]).split(":", 4)[4]: str(b["custom_id"])
        for b in message.buttons()
        if str(b.get("custom_id", "")).startswith("mp:act:")
    }


class Player:
    """Plays one table of the bot through the emulator, counting each move's statements."""

    def __init__(self, emu: Emulator, bot: MeepleBot, channel: Channel, users: list[User], seed: int) -> None:
        self.emu = emu
        self.bot = bot
        self.channel = channel
        self.users = {user.id: user for user in users}
        self.order = users
        self.rng = random.Random(seed)
        self.game_id = 0

    def board(self) -> Message:
        return [m for m in self.emu.messages(self.channel) if is_board(m)][-1]

    async def settle(self) -> None:
        """Wait until nothing the last click caused is still running (deliveries, a computer's check)."""
        flow = self.bot.flow
        assert flow is not None
        for _ in range(3):  # a finished worker may have kicked another, or a replay started
            await asyncio.sleep(0.02)
            await flow.delivery.caught_up()
            if flow.computer_turns is not None:
                await flow.computer_turns.idle()
            await flow.tasks.idle()

    async def open(self, key: str) -> None:
        alice = self.order[0]
        created = await self.emu.slash(alice, self.channel, "table create", {"game": key})
        await created.final_message()
        lobby = self.emu.last_message(self.channel)
        for user in self.order[1:]:
            joined = await self.emu.click(user, lobby, label="Join")
            await joined.response()
            await self.emu.wait_until(lambda u=user: f"<@{u.id}>" in lobby.content, what="a player in the lobby")
        started = await self.emu.click(alice, lobby, label="Start")
        await started.response()
        await self.emu.wait_until(lambda: any(is_board(m) for m in self.emu.messages(self.channel)), what="board")
        assert self.bot.db is not None
        row = await self.bot.db.active_game_in_channel(self.channel.id)
        assert row is not None
        self.game_id = row.id
        await self.settle()

    async def current(self) -> tuple[Game, State, list[int]]:
        service = self.bot.flow.service  # type: ignore[union-attr]
        row = await service.get(self.game_id)
        return service.game(row.game), await service.state(row), await service.seat_users(self.game_id)

    def pick(self, game: Game, offered: list[str], wanted: str | None = None) -> str:
        if wanted in offered:
            return wanted
        fair = [text for text in offered if game.action_kind(Action(text)) not in ("concede", "resign")]
        return self.rng.choice(fair or offered)

    def dms_sent(self) -> int:
        return sum(len(self.emu.dms(user)) for user in self.order)

    async def move(self, result: Measured, wanted: str | None = None, trace: bool = False) -> tuple[int, int]:
        """One move by the player the board mentions; its statements and the DMs it sent."""
        global _TRACE
        game, state, users = await self.current()
        user = self.users[users[state.to_move()[0]]]
        board = self.board()
        shown = (board.id, board.edit_count)  # a step within a turn edits the turn's board message
        public = buttons_of(board)
        if trace:
            _TRACE = []
        dms = self.dms_sent()
        if public:
            before = statements()
            clicked = await self.emu.click(user, board, custom_id=public[self.pick(game, list(public), wanted)])
        else:
            opened = statements()
            hand = await self.emu.click(user, board, label="My hand")
            panel = (await hand.followups(1))[0]
            result.hands.append(statements() - opened)
            if trace:
                _TRACE = []
            private = buttons_of(panel)
            before = statements()
            if private:
                clicked = await self.emu.click(user, panel, custom_id=private[self.pick(game, list(private), wanted)])
            else:
                menu = panel.selects()[0]
                value = self.pick(game, [o["value"] for o in menu["options"]], wanted)
                clicked = await self.emu.select(user, panel, menu["custom_id"], [value])
        answer = (await clicked.followups(1))[0]
        if not answer.content.startswith("Done"):
            raise RuntimeError(f"the move was refused: {answer.content!r}")
        await self.emu.wait_until(lambda: (self.board().id, self.board().edit_count) != shown, what="the board")
        await self.settle()
        count = statements() - before
        if trace and _TRACE is not None:
            result.traces.append(_TRACE)
        _TRACE = None
        return count, self.dms_sent() - dms

    async def finished(self) -> bool:
        assert self.bot.db is not None
        row = await self.bot.db.get_game(self.game_id)
        return row is not None and row.status == "finished"

    async def fast_forward(self) -> str | None:
        """Store all but the last move of a seeded random game as the bot stores a move
        (``Database.commit_move``: the action logged, the state written), the board of the move
        before the last left for the outbox to post, as ``bench/stored_games.py`` seeds a game;
        the last move's text. Through the service each stored move was also worded, queued and
        drawn: most of the time of the finishing-move tests, for boards nobody reads."""
        flow = self.bot.flow
        assert flow is not None and self.bot.db is not None
        game, state, _ = await self.current()
        probe = game.load(state.to_dict())
        planned: list[tuple[int, str]] = []
        chooser = random.Random(self.rng.random())
        while probe.outcome() is None:
            seat = chooser.choice(probe.to_move())
            legal = probe.legal_actions(seat)
            action = chooser.choice([a for a in legal if game.action_kind(a) not in ("concede", "resign")] or legal)
            probe.apply(seat, action)
            planned.append((seat, action.text))
        replay = game.load(state.to_dict())
        for number, (seat, text) in enumerate(planned[:-1], start=1):
            events = replay.apply(seat, Action(text))
            board = []
            if number == len(planned) - 1:
                board = [spec for spec in delivery_jobs(game.id, replay.version, events) if spec.kind == "board"]
            outcome = replay.outcome()
            committed = await self.bot.db.commit_move(
                self.game_id,
                replay.version - 1,
                seat,
                text,
                replay.to_dict(),
                outcome.to_dict() if outcome is not None else None,
                board,
            )
            assert committed is not None, f"move {number} was not stored"
        if len(planned) > 1:  # the newest board, showing the stored moves' position
            board_message = self.board()
            shown = (board_message.id, board_message.edit_count)
            flow.delivery.kick(self.game_id)
            await self.emu.wait_until(
                lambda: (self.board().id, self.board().edit_count) != shown, what="the fast-forwarded board"
            )
            await self.settle()
        return planned[-1][1] if planned else None


@contextlib.asynccontextmanager
async def bot_for(emu: Emulator, guild_id: int, database: Path | str) -> AsyncIterator[MeepleBot]:
    config = Config(
        token=emu.bot_token,
        database=database,
        dev_guild=guild_id,
        api_base=emu.base_url,
        log_level="WARNING",
        render_workers=0,  # drawn in a thread: the counts are the same, the machine is spared
    )
    never = asyncio.Event()  # no minute ticks: reminders and time limits are not the move's
    async with running(emu, MeepleBot(config, tick_wait=never.wait)) as bot:
        yield bot


async def measure(
    key: str,
    players: int,
    moves: int,
    seed: int,
    database: Path | str,
    *,
    finish: bool = True,
    trace: int = 0,
) -> Measured:
    """Play ``moves`` ordinary moves of ``key`` at ``players`` (fewer if the game ends), then, with
    ``finish``, its finishing move; ``trace`` moves keep their SQL."""
    result = Measured(key, players)
    # The deal too is seeded: the seed the service draws for a new table comes from ``seed``.
    dealer = SimpleNamespace(randbits=random.Random(f"{key}-{players}-{seed}").getrandbits)
    with mock.patch.object(services.game_service, "secrets", dealer):
        return await _measure(result, key, players, moves, seed, database, finish, trace)


async def _measure(
    result: Measured, key: str, players: int, moves: int, seed: int, database: Path | str, finish: bool, trace: int
) -> Measured:
    async with Emulator(**FAST) as emu:
        world = make_world(emu)
        users = [world.alice, world.bob]
        for name in NAMES[: max(0, players - 2)]:
            user = emu.add_user(name, global_name=name.title())
            emu.add_member(world.guild, user)
            users.append(user)
        users = users[:players]
        async with bot_for(emu, world.guild.id, database) as bot:
            player = Player(emu, bot, world.channel, users, seed)
            await player.open(key)
            for index in range(moves):
                if await player.finished():
                    break
                count, dms = await player.move(result, trace=index < trace)
                result.moves.append(count)
                result.dms.append(dms)
            if finish and not await player.finished():
                wanted = await player.fast_forward()
                for _ in range(200):
                    count, dms = await player.move(result, wanted, trace=trace > 0)
                    if await player.finished():
                        result.finishing = count
                        break
                    result.moves.append(count)
                    result.dms.append(dms)
                    wanted = None
        assert_clean(emu)  # the bot sent Discord nothing it would refuse
    return result


def configurations(game: str | None, players: int | None) -> list[tuple[str, int]]:
    found = []
    for key, rules in GAMES.items():
        if game is not None and key != game:
            continue
        for count in range(rules.min_players, rules.max_players + 1):
            if players is None or count == players:
                found.append((key, count))
    return found


@contextlib.contextmanager
def database_for(kind: str, folder: Path) -> Iterator[Any]:
    """A fresh database per configuration: a SQLite file in ``folder``, or one on a PostgreSQL server."""
    if kind == "sqlite":
        counter = iter(range(1_000_000))
        yield lambda: folder / f"meeple-{next(counter)}.db"
        return
    from tests.support.postgres import PostgresServer, find_binaries  # the tests' throw-away server

    binaries, why = find_binaries()
    if binaries is None:
        raise SystemExit(f"no PostgreSQL server to start: {why}")
    server = PostgresServer.start(binaries)
    try:
        yield lambda: server.url(asyncio.run(server.create_database()))
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=30, help="ordinary moves measured per game (default 30)")
    parser.add_argument("--game", choices=sorted(GAMES), help="one game only")
    parser.add_argument("--players", type=int, help="one player count only")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-finish", action="store_true", help="leave out the finishing move")
    parser.add_argument("--trace", type=int, default=0, help="print the SQL of the first N moves (SQLite)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--json", type=Path, help="write every count here")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    results: list[Measured] = []
    started = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="meeple-statements-") as folder,
        tracing(),
        database_for(args.database, Path(folder)) as new_database,
    ):
        for key, players in configurations(args.game, args.players):
            measured = asyncio.run(
                measure(
                    key,
                    players,
                    args.moves,
                    args.seed,
                    new_database(),
                    finish=not args.no_finish,
                    trace=args.trace if args.database == "sqlite" else 0,  # the SQLite connection is traced
                )
            )
            results.append(measured)
            s = measured.summary()
            print(f"{key} {players}p: {s['moves']} moves, max {s['max']}, finishing {s['finishing']}", flush=True)
            for number, trace in enumerate(measured.traces, 1):
                print(f"-- {key} {players}p, traced move {number}: {len(trace)} statements")
                for line in trace:
                    print("   ", line)
    print(f"\nSQL statements per move ({args.database}; budget {LIMIT} per ordinary move)\n")
    header = ("game", "players", "moves", "mean", "max", "max w/ DM", "My hand", "finishing")
    print("{:<11} {:>7} {:>6} {:>6} {:>5} {:>10} {:>8} {:>10}".format(*header))
    for m in results:
        s = m.summary()
        cells = [
            m.game,
            m.players,
            s["moves"],
            "-" if s["mean"] is None else f"{s['mean']:.1f}",
            "-" if s["max"] is None else s["max"],
            "-" if s["max_with_dm"] is None else s["max_with_dm"],
            "-" if s["hand_mean"] is None else f"{s['hand_mean']:.1f}",
            "-" if s["finishing"] is None else s["finishing"],
        ]
        print("{:<11} {:>7} {:>6} {:>6} {:>5} {:>10} {:>8} {:>10}".format(*cells))
    print(f"\n({time.monotonic() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps([m.summary() for m in results], indent=2))


if __name__ == "__main__":
    main()
