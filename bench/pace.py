"""How long a player waits for the computers, through the real bot.

The bot (``MeepleBot``: its cogs, ``Flow``, ``GameService``, the delivery worker, the drawing
workers and the computer players' worker pool, as deployed) runs in this process against the
loopback emulator, with a real SQLite file. Alice opens a table with ``computers:`` filling every
other seat at one level, starts it, and plays her turns by pressing what the bot offers her (at
random, never conceding); the computers play theirs by themselves. For each of Alice's turns,
from her click that ends it (she is no longer to move):

- **computer's board**: until the board of the first computer to move after her is posted with
  that computer's turn finished (all its sub-steps; for a table whose computers post every
  sub-step, the board of its last one);
- **her next turn**: until a board is posted on which she is to move again (or the game ended).

Times are wall times measured in this process (the moves are read from ``GameService.act``,
the boards from ``Poster.post_board``), so they include the drawing of the boards and everything
else the machine runs: read the load average printed with them.

    .venv/bin/python bench/pace.py [--game noctiluca] [--players 3] [--level hard] [--turns 5] [--json out.json]
    .venv/bin/python bench/pace.py --game noctiluca --players 2 --level hard --think 8 --alice search

Thinking while Alice thinks (services/computer_turns.py): with ``--think S`` Alice waits ``S`` seconds before
each of her moves, as a person reading the board would (not counted in the times above, which
start at her click), and the computers search their answers to her likely turns meanwhile. With
``--alice search`` she plays what a normal-level search from her own seat chooses (her seed, not
the bot's guess: a stand-in for a sensible player) instead of a random move. For each of her
turns the bench says whether the first computer after her played a turn searched while she
thought (a hit) or searched afresh (a miss): the hit rate, and the time to the computer's board
on hits and on misses. ``--no-guess`` turns the guessing off, to compare at the same load.

``--cpu`` measures instead, without the bot and whatever the machine's load, the CPU seconds the
computers' turns cost (this process's ``time.process_time``): seeded games, Alice's moves at
random, each computer's turn decided as the checkout's bot decides it (``ai.turn_budgets.play_turn`` where
there is one, else one ``ismcts.decide`` per sub-step, as older checkouts did); per computer turn, and
per wait of Alice's (every computer turn between two of hers, summed).

The same script runs on an older checkout (it only uses what the base commit 6303d94 has): copy
it into a ``git archive`` of that commit to measure "before".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.posting  # noqa: E402
import services.game_service  # noqa: E402
from bot.client import MeepleBot  # noqa: E402
from emulator.emulator import Emulator  # noqa: E402
from emulator.model import Channel, Message, User  # noqa: E402
from emulator.testing import FAST, assert_clean, make_world, running  # noqa: E402
from engine import GAMES, Action  # noqa: E402
from services.config import Config  # noqa: E402

LEVELS = ("easy", "normal", "hard")
TARGET = {"easy": 3.0, "normal": 3.0, "hard": 5.0}  # the seconds to the computer's board
WAIT_TARGET = 15.0  # a table of three hard computers: at most this between the human's turns


@dataclass
class Record:
    """What the bot did, in order, with the time it did it (``time.monotonic``)."""

    # Each move: time, seat, version after it, the seats to move after it, whether it ended the game.
    moves: list[tuple[float, int, int, tuple[int, ...], bool]] = field(default_factory=list)
    # Each board posted: time, version, the seats to move on it, whether the game is over.
    boards: list[tuple[float, int, tuple[int, ...], bool]] = field(default_factory=list)


@dataclass
class Measured:
    game: str
    players: int
    level: str
    to_board: list[float] = field(default_factory=list)
    to_turn: list[float] = field(default_factory=list)
    human_turns: int = 0
    ended: bool = False
    # Computer turns played from a search ahead, and searches ahead discarded (None: a checkout
    # without thinking ahead, or --cpu).
    ahead: tuple[int | None, int | None] = (None, None)
    # Per measured turn of Alice's with a computer's board: whether that computer's turn was
    # searched while she thought (None: a checkout without it, or --cpu).
    hits: list[bool | None] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        known = [h for h in self.hits if h is not None]
        paired = list(zip(self.hits, self.to_board, strict=False))
        return {
            "game": self.game,
            "players": self.players,
            "level": self.level,
            "turns": len(self.to_turn),
            "ended": self.ended,
            "ahead_played": self.ahead[0],
            "ahead_discarded": self.ahead[1],
            "hit_rate": sum(known) / len(known) if known else None,
            "board_hit": stats([b for h, b in paired if h]),
            "board_miss": stats([b for h, b in paired if h is False]),
            "board": stats(self.to_board),
            "turn": stats(self.to_turn),
            "board_samples": [round(x, 3) for x in self.to_board],
            "turn_samples": [round(x, 3) for x in self.to_turn],
            "hit_samples": self.hits,
        }


def stats(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p95": None, "max": None}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
    return {"p50": statistics.median(ordered), "p95": p95, "max": ordered[-1]}


@contextlib.contextmanager
def recording(record: Record) -> Any:
    """Time every move the service applies and every board the poster posts."""
    act, post = services.game_service.GameService.act, bot.posting.Poster.post_board

    async def timed_act(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = await act(self, *args, **kwargs)
        state = result.state
        record.moves.append(
            (time.monotonic(), result.seat, state.version, tuple(state.to_move()), state.outcome() is not None)
        )
        return result

    async def timed_post(self: Any, row: Any, state: Any, *args: Any, **kwargs: Any) -> Any:
        message = await post(self, row, state, *args, **kwargs)
        record.boards.append((time.monotonic(), state.version, tuple(state.to_move()), state.outcome() is not None))
        return message

    with (
        mock.patch.object(services.game_service.GameService, "act", timed_act),
        mock.patch.object(bot.posting.Poster, "post_board", timed_post),
    ):
        yield


def is_board(message: Message) -> bool:
    return any(a.filename == "board.png" for a in message.attachments)


def buttons_of(message: Message) -> dict[str, str]:
    return {
        str(b["custom_id"]).split(":", 4)[4]: str(b["custom_id"])
        for b in message.buttons()
        if str(b.get("custom_id", "")).startswith("mp:act:")
    }


class Human:
    """Alice at a table of computers: plays when the latest board says it is her turn."""

    def __init__(
        self,
        emu: Emulator,
        bot: MeepleBot,
        channel: Channel,
        alice: User,
        seed: int,
        record: Record,
        think: float = 0.0,
        style: str = "random",
    ) -> None:
        self.emu, self.bot, self.channel, self.alice = emu, bot, channel, alice
        self.record = record
        self.rng = random.Random(seed)
        self.game_id = 0
        self.key = ""
        self.think_seconds = think
        self.style = style
        self.wish: str | None = None  # the move her search chose (--alice search)

    def board(self) -> Message:
        return [m for m in self.emu.messages(self.channel) if is_board(m)][-1]

    async def open(self, key: str, computers: int, level: str) -> None:
        self.key = key
        created = await self.emu.slash(
            self.alice, self.channel, "table create", {"game": key, "computers": computers, "level": level}
        )
        await created.final_message()
        lobby = self.emu.last_message(self.channel)
        started = await self.emu.click(self.alice, lobby, label="Start")
        await started.response()
        await self.emu.wait_until(
            lambda: any(is_board(m) for m in self.emu.messages(self.channel)), timeout=600, what="board"
        )
        assert self.bot.db is not None
        row = await self.bot.db.active_game_in_channel(self.channel.id)
        assert row is not None
        self.game_id = row.id

    async def think(self) -> None:
        """Before a move: read the board for ``think_seconds``; with ``--alice search``, choose
        the move by a normal-level search from her seat (in a thread: the bot goes on meanwhile)."""
        self.wish = None
        if self.style == "search":
            from ai.ismcts import choose

            service = self.bot.flow.service
            state = await service.state(await service.get(self.game_id))
            if 0 in state.to_move():
                seed = self.rng.getrandbits(32)
                self.wish = (await asyncio.to_thread(choose, state, 0, "normal", seed)).text
        if self.think_seconds:
            await asyncio.sleep(self.think_seconds)

    def pick(self, offered: list[str]) -> str:
        if self.wish is not None and self.wish in offered:
            return self.wish
        game = GAMES[self.key]
        fair = [text for text in offered if game.action_kind(Action(text)) not in ("concede", "resign")]
        return self.rng.choice(fair or offered)

    async def my_turn_or_end(self, timeout: float) -> bool:
        """Wait for a board on which Alice is to move (True) or the game's end (False): the
        latest board posted shows the latest move."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.record.boards:
                board = self.record.boards[-1]
                latest = self.record.moves[-1][2] if self.record.moves else 0
                if board[1] == latest:
                    if board[3]:
                        return False
                    if 0 in board[2]:
                        return True
            await asyncio.sleep(0.02)
        raise TimeoutError(f"Alice's turn did not come within {timeout:.0f} s")

    async def move(self) -> None:
        """One move of Alice's from the current board (a public button or her hand); again from
        the new board when a computer moved first (a step all seats play at once)."""
        for _ in range(20):
            if await self._move():
                return
            await asyncio.sleep(0.2)
            if not await self.my_turn_or_end(600):
                return
        raise RuntimeError("Alice's move was refused as out of date 20 times")

    async def _move(self) -> bool:
        board = self.board()
        public = buttons_of(board)
        if public:
            clicked = await self.emu.click(self.alice, board, custom_id=public[self.pick(list(public))])
        else:
            hand = await self.emu.click(self.alice, board, label="My hand")
            panel = (await hand.followups(1))[0]
            private = buttons_of(panel)
            if private:
                clicked = await self.emu.click(self.alice, panel, custom_id=private[self.pick(list(private))])
            else:
                menu = panel.selects()[0]
                value = self.pick([o["value"] for o in menu["options"]])
                clicked = await self.emu.select(self.alice, panel, menu["custom_id"], [value])
        answer = (await clicked.followups(1))[0]
        if "out of date" in answer.content:
            return False
        if not answer.content.startswith("Done"):
            raise RuntimeError(f"the move was refused: {answer.content!r}")
        return True


def waits(record: Record, alice: int, computers: set[int], clicked: float, version: int) -> tuple[float | None, float]:
    """From Alice's click that ended her turn (the move to ``version``): to the first computer's
    turn on the board, and to her next turn on the board."""
    after = [m for m in record.moves if m[2] > version]
    first = next((s for s in next((m[3] for m in record.moves if m[2] == version), ()) if s in computers), None)
    to_board = None
    if first is not None:
        # The move that ended that computer's turn: it is no longer to move after it.
        ending = next((m for m in after if m[1] == first and (first not in m[3] or m[4])), None)
        if ending is not None:
            posted = next((b for b in record.boards if b[1] >= ending[2]), None)
            if posted is not None:
                to_board = posted[0] - clicked
    turn = next((b for b in record.boards if b[1] > version and (alice in b[2] or b[3])), None)
    if turn is None:
        raise RuntimeError(f"her next turn was never posted: moves {record.moves[-8:]}, boards {record.boards[-4:]}")
    return to_board, turn[0] - clicked


async def measure(
    key: str, players: int, level: str, turns: int, seed: int, database: Path, think: float = 0.0, style: str = "random"
) -> Measured:
    result = Measured(key, players, level)
    dealer = SimpleNamespace(randbits=random.Random(f"{key}-{players}-{seed}").getrandbits)
    record = Record()
    with mock.patch.object(services.game_service, "secrets", dealer), recording(record):
        async with Emulator(**FAST) as emu:
            world = make_world(emu)
            config = Config(
                token=emu.bot_token,
                database=database,
                dev_guild=world.guild.id,
                api_base=emu.base_url,
                log_level="WARNING",
            )
            async with running(emu, MeepleBot(config)) as meeple:
                human = Human(emu, meeple, world.channel, world.alice, seed, record, think, style)
                foresight = getattr(meeple.flow, "computer_turns", None)
                await human.open(key, players - 1, level)
                computers = set(range(1, players))
                while len(result.to_turn) < turns:
                    if not await human.my_turn_or_end(600):
                        result.ended = True
                        break
                    # Alice's turn: her sub-steps, each from its board, until she is no longer to move.
                    while True:
                        await human.think()
                        seen = len(record.moves)
                        played = getattr(foresight, "guess_played", None)
                        clicked = time.monotonic()
                        await human.move()
                        mine = next((m for m in record.moves[seen:] if m[1] == 0), None)
                        if mine is None:  # the game ended before she could move
                            break
                        if 0 not in mine[3] or mine[4]:
                            break
                        await human.my_turn_or_end(600)
                    if mine is None or mine[4]:
                        result.ended = True
                        break
                    if not await human.my_turn_or_end(600):
                        result.ended = True
                    to_board, to_turn = waits(record, 0, computers, clicked, mine[2])
                    if to_board is not None:
                        result.to_board.append(to_board)
                        now = getattr(foresight, "guess_played", None)
                        result.hits.append(None if played is None or now is None else now > played)
                    result.to_turn.append(to_turn)
                    if result.ended:
                        break
                turns = getattr(meeple.flow, "computer_turns", None)
                result.ahead = (getattr(turns, "ahead_played", None), getattr(turns, "ahead_discarded", None))
            assert_clean(emu)
    return result


def cpu_measure(key: str, players: int, level: str, turns: int, seed: int) -> Measured:
    """``--cpu``: the CPU seconds of each computer turn (``to_board``) and of the computers between
    two of Alice's turns (``to_turn``), in this process."""
    from ai.ismcts import decide, playable

    try:
        from ai.turn_budgets import play_turn  # the turn decided at once
    except ImportError:
        play_turn = None
    try:
        from ai.turn_budgets import move_seed
    except ImportError:  # older checkouts kept the seed with the bot
        from services.computer_turns import move_seed

    result = Measured(key, players, level)
    rng = random.Random(seed)
    state = GAMES[key].new(players, seed, {})
    waited = 0.0
    while state.outcome() is None and len(result.to_turn) < turns:
        seat = state.to_move()[0]
        if seat == 0:
            if waited:
                result.to_turn.append(waited)
                waited = 0.0
            state.apply(0, rng.choice(playable(state, 0)))
            continue
        began = time.process_time()
        if play_turn is not None:
            for action in play_turn(state, seat, level, seed):
                state.apply(seat, action)
        else:
            while state.outcome() is None and seat in state.to_move():
                state.apply(seat, decide(state, seat, level, move_seed(seed, state.version, seat)))
        spent = time.process_time() - began
        result.to_board.append(spent)
        waited += spent
    result.ended = state.outcome() is not None
    return result


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(GAMES), help="one game only")
    parser.add_argument("--players", type=int, help="one player count only (2 and more: one human)")
    parser.add_argument("--level", choices=LEVELS, action="append", help="levels (default all three)")
    parser.add_argument("--turns", type=int, default=5, help="Alice's turns measured per table (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--cpu", action="store_true", help="the computers' CPU seconds instead, without the bot")
    parser.add_argument(
        "--no-guess", action="store_true", help="the computers do not search while Alice thinks (to compare)"
    )
    parser.add_argument("--think", type=float, default=0.0, help="seconds Alice reads the board before each move")
    parser.add_argument(
        "--alice", choices=("random", "search"), default="random", help="how Alice chooses (default at random)"
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if args.no_guess:
        import services.computer_turns

        services.computer_turns.GUESSES = 0  # nothing guessed: every turn after Alice's is searched when due
    print(f"load average before: {os.getloadavg()}", flush=True)
    results: list[Measured] = []
    with tempfile.TemporaryDirectory(prefix="meeple-pace-") as folder:
        counter = 0
        for key, rules in GAMES.items():
            if args.game and key != args.game:
                continue
            for players in range(max(2, rules.min_players), rules.max_players + 1):
                if args.players and players != args.players:
                    continue
                for level in args.level or LEVELS:
                    counter += 1
                    started = time.monotonic()
                    if args.cpu:
                        measured = cpu_measure(key, players, level, args.turns, args.seed)
                    else:
                        measured = asyncio.run(
                            measure(
                                key,
                                players,
                                level,
                                args.turns,
                                args.seed,
                                Path(folder) / f"m{counter}.db",
                                args.think,
                                args.alice,
                            )
                        )
                    results.append(measured)
                    s = measured.summary()
                    print(
                        f"{key} {players}p {level}: {s['turns']} turns, computer's board p50 {fmt(s['board']['p50'])}"
                        f" max {fmt(s['board']['max'])} s, next turn p50 {fmt(s['turn']['p50'])}"
                        f" max {fmt(s['turn']['max'])} s ({time.monotonic() - started:.0f} s)"
                        + (
                            ""
                            if s["ahead_played"] is None
                            else f"; turns searched ahead: {s['ahead_played']} played, {s['ahead_discarded']} discarded"
                        )
                        + ("" if s["hit_rate"] is None else f"; answered from a guess: {s['hit_rate']:.0%}"),
                        flush=True,
                    )
    print(f"load average after: {os.getloadavg()}")
    if args.cpu:
        print("\nCPU seconds of a computer's turn (board), and of the computers between two of Alice's turns\n")
    else:
        print("\nSeconds from Alice's move to the first computer's turn on the board, and to her next turn\n")
    print(
        f"{'game':<10} {'pl':>2} {'level':<6} {'n':>3}  {'board p50/p95/max':>18}  {'next turn p50/p95/max':>22}"
        f"  {'hits':>5}  {'board p50 hit/miss':>18}"
    )
    for m in results:
        s = m.summary()
        b, t = s["board"], s["turn"]
        rate = "-" if s["hit_rate"] is None else f"{s['hit_rate']:.0%}"
        print(
            f"{m.game:<10} {m.players:>2} {m.level:<6} {s['turns']:>3}  "
            f"{fmt(b['p50']):>6}/{fmt(b['p95']):>5}/{fmt(b['max']):>5}  "
            f"{fmt(t['p50']):>9}/{fmt(t['p95']):>5}/{fmt(t['max']):>6}"
            f"  {rate:>5}  {fmt(s['board_hit']['p50']):>8}/{fmt(s['board_miss']['p50']):>9}"
        )
    if args.json:
        args.json.write_text(json.dumps([m.summary() for m in results], indent=1))


if __name__ == "__main__":
    main()
