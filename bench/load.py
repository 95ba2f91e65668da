"""Load on the real bot process through the loopback Discord emulator: moves/s and latencies.

The bot runs as its own process (``python -m bot``, as in ``tests/e2e``), pointed at the emulator
with ``DISCORD_API_BASE``; this process is Discord and its users. ``--games`` tables hold the four
games at the player counts people play, on servers in each language the bot ships (en, zh-TW,
pt-BR: the server's preferred locale, which its tables take, and its members' Discord locale).
Each ``--stage`` is a run of its own (a new emulator, bot and database), the tables then:

- ``fresh``: opened by ``/table create``, Join and Start once the bot is up: every game starts at
  its deal, so the boards are early ones and few games end in a minute;
- ``stored``: written into the bot's database before it starts (``bench/stored_games.py``: through
  the bot's storage API, a third each early, middle and late, up to 300 moves in), each with its
  current board left pending in the bot's delivery outbox, which the bot posts at start-up as
  after any restart; the users then click on those boards.

In both, a game that ends is replaced by a new table (``/table create``) at the same channel.
For each ``--rate`` a phase of ``--duration`` seconds follows, in which users press a legal button
on their turn: a public move button on the board, or "My hand" and then a button or menu choice
in the private answer.

A numeric rate is an open loop: every 1/rate seconds a random game whose board is up gets a
click (a click finding no such game counts as "no idle game"). ``max`` is the saturation and
overload case: every game clicks again as soon as its new board is shown (posted or edited), so ``--games`` clicks
are outstanding at once and the bot's queue is whatever it cannot serve.

A move's board is either a new message (a turn begins) or an edit of the turn's board message
(a later step of the same turn, services/delivery.py ``post_board``; the bot edits a channel's board at
most once per ``MEEPLE_EDIT_PACE`` seconds, 1.5 by default, and the bench leaves that pace on, as
players see it, unless ``--edit-pace`` says otherwise). Both count as the move's board: an edit of
the channel's current board that changes its picture or buttons (not the replay attached to a
final board); each phase counts the posted and the edited apart.

Measured per phase: moves/s (boards shown, posted or edited, for clicks made in the phase, over
its duration), click-to-board latency (from the click that makes the move to the board message
showing its new version in that channel, posted or edited, the edit pace included), the
interaction answer latency (the bot's first callback, as Discord times it: later than 3 s and the
click fails), boards posted and edited, clicks outstanding (sent, board not yet shown: the queue
seen from outside), games ended, CPU per move of the bot process and of its drawing workers
apart (/proc of the bot and its children), SQL statements per move (the bot's
``meeple_db_statements_total`` on its /metrics), the RSS of the bot and of its whole process tree,
board bytes. With two stages the figures are printed side by side at the end.

    .venv/bin/python bench/load.py --games 100 --rate 10,25,40,max --duration 60
    .venv/bin/python bench/load.py --games 100 --rate 10,max --stage stored --json load.json
    .venv/bin/python bench/load.py --games 1000 --rate 10,max --duration 60 --stage fresh --mix classic
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pstats
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.stored_games import STAGES, StoredTable, seed  # noqa: E402
from emulator.emulator import Emulator  # noqa: E402
from emulator.interactions import InteractionFailed, InteractionResult  # noqa: E402
from emulator.model import Channel, Message, User  # noqa: E402
from l10n.words import t  # noqa: E402

# (game, players) dealt round-robin to the tables after a seeded shuffle. ``played`` (the
# default): each game a quarter of the tables, at the player counts people play (Fox Duet 2,
# Noctiluca 1-4, Vivarium 2-4, TM dice 1-4); ``classic``: the mix of the figures before
# 2026-11-26 (2 or 3 players, English only).
PLAYED = [  # interleaved, so that a few tables already hold every game
    ("fox-duet", 2),
    ("noctiluca", 1),
    ("vivarium", 2),
    ("tm-dice", 1),
    ("fox-duet", 2),
    ("noctiluca", 2),
    ("vivarium", 3),
    ("tm-dice", 2),
    ("fox-duet", 2),
    ("noctiluca", 3),
    ("vivarium", 3),
    ("tm-dice", 3),
    ("fox-duet", 2),
    ("noctiluca", 4),
    ("vivarium", 4),
    ("tm-dice", 4),
]
CLASSIC = [
    ("fox-duet", 2),
    ("noctiluca", 2),
    ("vivarium", 2),
    ("tm-dice", 2),
    ("fox-duet", 2),
    ("noctiluca", 3),
    ("vivarium", 3),
    ("tm-dice", 3),
]
MIXES = {"played": PLAYED, "classic": CLASSIC}
# The languages the bot ships, each the Discord locale of its servers and their members.
LANGUAGES = {"en": "en-US", "zh-TW": "zh-TW", "pt-BR": "pt-BR"}
# "Done: {action}." as each language says it: the answer to a move that was made.
DONE_IN = {code: t("move.done", code, action="\x00").split("\x00")[0] for code in LANGUAGES}
DONE = tuple(DONE_IN.values())
LOBBY_JOIN = re.compile(r"^mp:lobby:\d+:join$")
CHANNELS_PER_GUILD = 250  # Discord allows 500 channels in a server
MENTION = re.compile(r"<@!?(\d+)>")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# The storage layer's count of SQL statements (services/metrics.py), as /metrics shows it.
STATEMENTS = "meeple_db_statements_total"


# -- the bot process and what it costs -------------------------------------------------------------


def descendants(root: int) -> list[int]:
    """The process and all its children (render workers, if any), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
    return total / 1024


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_split(root: int) -> tuple[float, float]:
    """CPU seconds (user + system) of the process itself and of its children: the drawing workers
    and their forkserver, live or already reaped (a reaped child's time is in its parent's
    ``cutime``: counted for every process of the tree, it covers every generation)."""
    own = children = 0
    for pid in descendants(root):
        fields = _stat(pid)
        if fields is None:
            continue
        done = int(fields[11]) + int(fields[12])
        reaped = int(fields[13]) + int(fields[14])
        if pid == root:
            own += done
        else:
            children += done
        children += reaped
    return own / CLOCK_TICKS, children / CLOCK_TICKS


def bots_cpu(bots: list[BotProcess]) -> tuple[float, float]:
    """CPU seconds of the bot processes themselves, and of their children (drawing workers)."""
    split = [cpu_split(bot.pid) for bot in bots]
    return sum(own for own, _ in split), sum(children for _, children in split)


def runqueue_wait_seconds(pids: list[int]) -> float:
    """Time the processes' threads were ready to run but waited for a core (``schedstat``): the
    share of the machine other work took from the bot."""
    total = 0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as fh:
                    total += int(fh.read().split()[1])
            except (OSError, IndexError, ValueError):
                continue
    return total / 1e9


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def statements(bots: list[BotProcess]) -> float | None:
    """The SQL statements every bot process has run so far (None: the bot does not count them)."""
    counts = [await bot.statements() for bot in bots]
    return None if any(c is None for c in counts) else sum(c for c in counts if c is not None)


class BotProcess:
    """``python -m bot`` configured by its environment, as a deployment is; its log in a file."""

    def __init__(
        self,
        emu: Emulator,
        workdir: Path,
        database: str | None,
        log_level: str,
        shard: tuple[int, int] | None = None,
        edit_pace: float | None = None,
        profile: Path | None = None,
    ) -> None:
        self.emu = emu
        self.edit_pace = edit_pace  # MEEPLE_EDIT_PACE for the bot; None: the bot's own (EDIT_PACE)
        self.profile = profile  # cProfile the bot's main thread (its event loop) into this file
        self.database = database or str(workdir / "meeple.db")
        self.shard = shard  # (this process's shard id, the shard count): several processes share the load
        self.log_path = workdir / ("bot.log" if shard is None else f"bot-shard-{shard[0]}.log")
        self.env_file = workdir / "empty.env"
        self.env_file.write_text("", encoding="utf-8")
        self.log_level = log_level
        self.metrics_port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def start(self, timeout: float) -> float:
        """Start the bot and wait until it is connected with its commands synced; seconds taken."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MEEPLE_"))}
        env.update(
            DISCORD_TOKEN=self.emu.bot_token,
            DISCORD_API_BASE=self.emu.base_url,
            MEEPLE_DB=self.database,
            MEEPLE_LOG_LEVEL=self.log_level,
            MEEPLE_ENV_FILE=str(self.env_file),  # never a developer's .env: this bot talks to the emulator only
            MEEPLE_METRICS_PORT=str(self.metrics_port),
            MEEPLE_METRICS_HOST="127.0.0.1",
            PYTHONUNBUFFERED="1",
        )
        if self.edit_pace is not None:
            env.update(MEEPLE_EDIT_PACE=f"{self.edit_pace:g}")
        if self.shard is not None:
            env.update(MEEPLE_SHARD_IDS=str(self.shard[0]), MEEPLE_SHARD_COUNT=str(self.shard[1]))
        started = time.monotonic()
        with self.log_path.open("a") as log:
            profiled = [] if self.profile is None else ["-m", "cProfile", "-o", str(self.profile)]
            self.process = subprocess.Popen(
                [sys.executable, *profiled, "-m", "bot"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        process = self.process
        shard = self.shard
        await self.emu.wait_until(
            lambda: (
                process.poll() is not None
                or (
                    self.emu.gateway.connected
                    and self.emu.commands()
                    and (shard is None or any(s.shard[0] == shard[0] for s in self.emu.gateway.sessions.values()))
                )
            ),
            timeout=timeout,
            what="the bot to connect",
        )
        if process.poll() is not None:
            raise RuntimeError(f"the bot exited with code {process.returncode}; see {self.log_path}")
        return time.monotonic() - started

    async def stop(self) -> None:
        """Ctrl+C, as an operator stops it; killed if it has not exited after 15 s."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 15
        while self.process.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        self.process = None

    async def statements(self) -> float | None:
        """``meeple_db_statements_total`` from the bot's /metrics; None when it has no such counter."""
        url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        async with aiohttp.ClientSession() as session, session.get(url) as answer:
            answer.raise_for_status()
            text = await answer.text()
        for line in text.splitlines():
            if line.startswith(STATEMENTS + " "):
                return float(line.split()[1])
        return None

    def tracebacks(self) -> int:
        text = self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""
        return text.count("Traceback")


# -- watching the emulator ------------------------------------------------------------------------


def is_board(message: Message) -> bool:
    return message.ephemeral_to is None and any(a.filename.startswith("board.") for a in message.attachments)


def version_of(message: Message) -> tuple[int | str, ...]:
    """What tells one version of a board from the next: its picture (a new upload has a new
    attachment id) and its components' custom ids (a move's buttons carry the game's version; the
    "My hand" button does not, hence the picture too)."""
    pictures = [a.id for a in message.attachments if a.filename.startswith("board.")]
    return (*pictures, *(str(c.get("custom_id", "")) for c in [*message.buttons(), *message.selects()]))


class Watch:
    """Hooks on the emulator's message store: new boards, new versions of a board (an edit of the
    channel's current board message that changes its picture or components: a later step of the same turn,
    services/delivery.py ``post_board``) and interaction answers wake exactly their waiter (the
    emulator's own waits wake every waiter on every change, too dear for 1,000 games). A board
    waiter gets ``(message, edited)``. Other edits of a board (the replay attached to a final
    board: its picture and buttons unchanged) wake nobody.

    Attachment bytes are counted and then dropped, so a long run does not keep every image."""

    def __init__(self, emu: Emulator) -> None:
        self.boards: dict[int, Message] = {}
        self.board_waiters: dict[int, asyncio.Future[tuple[Message, bool]]] = {}
        self.posted = 0  # new board messages
        self.edited = 0  # new versions of a board shown by editing its message
        self.answer_waiters: dict[int, asyncio.Future[Message]] = {}
        self.board_bytes: list[int] = []
        self.image_bytes = 0
        service, interactions = emu.service, emu.interactions
        post, edit, followup = service.post_message, service.edit_message, interactions._followup

        def post_message(channel: Channel, author: User, body: Any, **kwargs: Any) -> Message:
            message = post(channel, author, body, **kwargs)
            if is_board(message):
                self.shown(message, edited=False)
            self.strip(message)
            return message

        def edit_message(message: Message, body: Any, **kwargs: Any) -> Message:
            # The store edits the message in place: its version is read before.
            current = self.boards.get(message.channel_id)
            before = version_of(message) if current is not None and current.id == message.id else None
            edited = edit(message, body, **kwargs)
            if before is not None and is_board(edited) and version_of(edited) != before:
                self.shown(edited, edited=True)
            self.strip(edited)
            return edited

        def on_followup(record: Any, body: Any, thread_id: str | None) -> Message:
            message = followup(record, body, thread_id)
            waiter = self.answer_waiters.pop(record.id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(message)
            return message

        service.post_message = post_message  # type: ignore[method-assign]
        service.edit_message = edit_message  # type: ignore[method-assign]
        interactions._followup = on_followup  # type: ignore[method-assign]

    def shown(self, message: Message, edited: bool) -> None:
        """A new version of the channel's board, posted or edited: its waiter wakes."""
        self.boards[message.channel_id] = message
        self.board_bytes.append(sum(a.size for a in message.attachments))
        if edited:
            self.edited += 1
        else:
            self.posted += 1
        waiter = self.board_waiters.pop(message.channel_id, None)
        if waiter is not None and not waiter.done():
            waiter.set_result((message, edited))

    def strip(self, message: Message) -> None:
        for attachment in message.attachments:
            if attachment.content:
                self.image_bytes += len(attachment.content)
                attachment.content = b""

    def next_board(self, channel: Channel) -> asyncio.Future[tuple[Message, bool]]:
        """The channel's next board version, posted or edited: ``(message, edited)``."""
        future: asyncio.Future[tuple[Message, bool]] = asyncio.get_running_loop().create_future()
        self.board_waiters[channel.id] = future
        return future

    def answer(self, result: InteractionResult) -> asyncio.Future[Message]:
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        if result.record.followups:
            future.set_result(result.record.followups[0])
        else:
            self.answer_waiters[result.id] = future
        return future


# -- tables and moves ------------------------------------------------------------------------------


@dataclass
class Table:
    index: int
    game: str
    players: int
    channel: Channel
    users: list[User]
    language: str = "en"
    stage: str = "fresh"  # fresh (opened by /table create), or the stage of its stored game
    moves_in: int = 0  # the stored game's moves when the bot started
    busy: bool = False
    dead: bool = False  # a new game could not be opened here (under overload): left out from then on
    refusals: int = 0
    games_started: int = 0


@dataclass
class Phase:
    label: str
    rate: float | None
    duration: float
    games: int
    start: float = 0.0
    end: float = 0.0
    issued: int = 0
    in_window: int = 0  # boards shown (posted or edited) before the phase ended
    completed: int = 0  # moves whose board was shown: posted as a new message or edited
    completed_edited: int = 0  # ... of which by an edit of the turn's board message
    refused: int = 0
    expired: int = 0  # the click got no answer within Discord's 3 s: the user saw "interaction failed"
    lost: int = 0  # answered, but no board within --move-timeout
    no_idle: int = 0
    restarts: int = 0
    ended: int = 0  # moves whose board was the game's last
    other_language: int = 0  # moves answered in a language other than the player's
    restart_failed: int = 0
    board_ms: list[float] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)
    hand_ms: list[float] = field(default_factory=list)
    samples: list[dict[str, float]] = field(default_factory=list)
    outstanding: int = 0
    cpu_bot: float = 0.0  # the bot processes themselves
    cpu_workers: float = 0.0  # their children: the drawing workers
    cpu_harness: float = 0.0
    statements: float | None = None  # SQL statements the bots ran during the phase and its drain
    waited_bot: float = 0.0
    drained: float | None = None
    board_bytes: list[int] = field(default_factory=list)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def action_buttons(message: Message) -> list[dict[str, Any]]:
    return [b for b in message.buttons() if str(b.get("custom_id", "")).startswith("mp:act:")]


def is_final(board: Message) -> bool:
    """A board without moves to make: its game has ended."""
    return not action_buttons(board) and hand_button(board) is None


def join_button(message: Message) -> str | None:
    """The custom id of a lobby's Join button (whatever the table's language labels it)."""
    ids = (str(b.get("custom_id", "")) for b in message.buttons())
    return next((i for i in ids if LOBBY_JOIN.match(i)), None)


def hand_button(message: Message) -> dict[str, Any] | None:
    return next((b for b in message.buttons() if str(b.get("custom_id", "")).startswith("mp:hand:")), None)


class Load:
    def __init__(self, emu: Emulator, args: argparse.Namespace, stage: str) -> None:
        self.emu = emu
        self.args = args
        self.stage = stage  # fresh: tables opened by /table create; stored: games seeded at every stage
        self.rng = random.Random(args.seed)
        self.watch = Watch(emu)
        self.tables: list[Table] = []
        self.phase: Phase | None = None
        self.deadline = emu.interaction_deadline
        self.scrape_statements = 0.0  # statements one reading of /metrics costs (its gauges' refresh)

    # -- the world and its tables
    def build_world(self) -> None:
        """Servers, channels and members: one table per channel, each server in one language (its
        preferred locale, which new tables take, and its members' Discord locale)."""
        emu, count, args = self.emu, self.args.games, self.args
        mix = MIXES[args.mix]
        deals = [mix[i % len(mix)] for i in range(count)]
        self.rng.shuffle(deals)
        languages = ["en"] if args.mix == "classic" else list(LANGUAGES)
        spoken = [languages[i % len(languages)] for i in range(count)]
        self.rng.shuffle(spoken)
        stages = [list(STAGES)[i % len(STAGES)] if self.stage == "stored" else "fresh" for i in range(count)]
        self.rng.shuffle(stages)
        number = 0
        for language in languages:
            ours = [i for i in range(count) if spoken[i] == language]
            for first in range(0, len(ours), CHANNELS_PER_GUILD):
                size = min(CHANNELS_PER_GUILD, len(ours) - first)
                locale = LANGUAGES[language]
                owner = emu.add_user(f"owner{number}", locale=locale)
                shards = self.args.shards
                guild = emu.add_guild(
                    f"Load {number + 1} ({language})", owner, shard=(number % shards, shards) if shards > 1 else None
                )
                guild.locale = locale
                number += 1
                # Each player sits at a few tables, as people do; never twice at one.
                pool = [
                    emu.add_user(f"p{number}_{i}", global_name=f"Player {i}", locale=locale)
                    for i in range(max(4, size))
                ]
                for user in pool:
                    emu.add_member(guild, user)
                for offset in range(size):
                    index = ours[first + offset]
                    game, players = deals[index]
                    users = [pool[(offset * 3 + k) % len(pool)] for k in range(players)]
                    channel = emu.add_text_channel(guild, f"table-{index}")
                    self.tables.append(Table(index, game, players, channel, users, language, stages[index]))
        self.tables.sort(key=lambda table: table.index)

    def stored_tables(self) -> list[StoredTable]:
        """What to write into the bot's database for the tables of a stored run."""
        return [
            StoredTable(
                table.game,
                table.channel.guild_id or 0,
                table.channel.id,
                [(user.id, user.global_name or user.username) for user in table.users],
                table.language,
                table.stage,
                self.args.seed * 1_000_003 + table.index,
            )
            for table in self.tables
        ]

    async def await_boards(self, timeout: float) -> float:
        """Wait until the bot has posted every stored game's board (its outbox at start-up); seconds."""
        started = time.monotonic()
        channels = {table.channel.id for table in self.tables}
        while not channels <= self.watch.boards.keys():
            if time.monotonic() - started > timeout:
                missing = len(channels - self.watch.boards.keys())
                raise RuntimeError(f"{missing} stored games' boards were not posted within {timeout:.0f} s")
            await asyncio.sleep(0.1)
        return time.monotonic() - started

    async def open_table(self, table: Table) -> None:
        """/table create, the others join, the creator starts; returns once the first board is up."""
        emu, timeout = self.emu, self.args.move_timeout
        creator = table.users[0]
        created = await emu.slash(creator, table.channel, "table create", {"game": table.game})
        answer = await created.final_message(timeout=timeout)
        lobbies = [m for m in emu.messages(table.channel) if join_button(m) is not None]
        if not lobbies:
            raise RuntimeError(f"table {table.index}: no lobby was posted; /table create answered {answer.content!r}")
        lobby = lobbies[-1]
        join = join_button(lobby)
        assert join is not None
        for user in table.users[1:]:
            await (await emu.click(user, lobby, custom_id=join)).response(timeout=timeout)
            listed = f"<@{user.id}>"
            await emu.wait_until(lambda: listed in lobby.content, timeout, "a player in the lobby")  # noqa: B023
        board = self.watch.next_board(table.channel)
        start = join.removesuffix(":join") + ":start"
        await (await emu.click(creator, lobby, custom_id=start)).response(timeout=timeout)
        await asyncio.wait_for(board, timeout)
        table.games_started += 1

    async def open_all(self) -> float:
        started = time.monotonic()
        limit = asyncio.Semaphore(self.args.setup_concurrency)

        async def one(table: Table) -> None:
            async with limit:
                await self.open_table(table)

        await asyncio.gather(*(one(t) for t in self.tables))
        return time.monotonic() - started

    # -- one move
    async def await_answer(self, result: InteractionResult, answer: asyncio.Future[Message]) -> Message | None:
        """The bot's answer to a click, or None when it was not acknowledged within Discord's deadline."""
        loop = asyncio.get_running_loop()
        record = result.record
        while not answer.done():
            if record.expired or (record.callback_type is None and loop.time() - record.dispatched_at > self.deadline):
                self.watch.answer_waiters.pop(result.id, None)
                return None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(answer), 0.5)
            if loop.time() - record.dispatched_at > self.args.move_timeout:
                self.watch.answer_waiters.pop(result.id, None)
                return None
        return answer.result()

    async def move(self, table: Table) -> bool:
        """One user's move on ``table``: True once its board shows the move (a new message, or the
        turn's message edited), False when the click failed."""
        phase = self.phase
        assert phase is not None
        board = self.watch.boards[table.channel.id]
        public = action_buttons(board)
        hand = hand_button(board)
        if is_final(board):  # finished: a new game at the same table
            phase.restarts += 1
            try:
                await self.open_table(table)
            except (TimeoutError, RuntimeError, InteractionFailed) as exc:
                print(f"  table {table.index}: no new game ({exc}); left out", file=sys.stderr)
                phase.restart_failed += 1
                table.dead = True
                return False
            return True
        seated = {u.id: u for u in table.users}
        movers = [seated[int(m)] for m in MENTION.findall(board.content) if int(m) in seated]
        if not movers:
            raise RuntimeError(f"table {table.index}: the board mentions no player: {board.content[:200]!r}")
        # The first mentioned is the one to act; after a refusal, any of them (several may be).
        user = self.rng.choice(movers) if table.refusals else movers[0]
        loop = asyncio.get_running_loop()
        phase.issued += 1
        phase.outstanding += 1
        try:
            if public:
                target, custom_id = board, self.rng.choice(public)["custom_id"]
                values: list[str] | None = None
            else:
                assert hand is not None
                opened = await self.emu.click(user, board, custom_id=hand["custom_id"])
                panel = await self.await_answer(opened, self.watch.answer(opened))
                if panel is None:
                    phase.expired += 1
                    return False
                if opened.record.callback_delay is not None:
                    phase.hand_ms.append(opened.record.callback_delay * 1000)
                buttons = action_buttons(panel)
                menus = panel.selects()
                if buttons:
                    target, custom_id, values = panel, self.rng.choice(buttons)["custom_id"], None
                elif menus:
                    target, custom_id = panel, menus[0]["custom_id"]
                    values = [self.rng.choice(menus[0]["options"])["value"]]
                else:  # not this user's choice after all
                    phase.refused += 1
                    table.refusals += 1
                    return False
            next_board = self.watch.next_board(table.channel)
            clicked = loop.time()
            if values is None:
                result = await self.emu.click(user, target, custom_id=custom_id)
            else:
                result = await self.emu.select(user, target, custom_id, values)
            answer = await self.await_answer(result, self.watch.answer(result))
            if result.record.callback_delay is not None:
                phase.ack_ms.append(result.record.callback_delay * 1000)
            if answer is None:
                phase.expired += 1
                return False
            if not answer.content.startswith(DONE):
                phase.refused += 1
                table.refusals += 1
                return False
            if not answer.content.startswith(DONE_IN[table.language]):
                phase.other_language += 1  # the player's Discord language is the table's
            table.refusals = 0
            remaining = self.args.move_timeout - (loop.time() - clicked)
            try:
                await asyncio.wait_for(asyncio.shield(next_board), max(0.0, remaining))
            except TimeoutError:
                phase.lost += 1
                return False
            posted = loop.time()
            shown, edited = next_board.result()
            if is_final(shown):
                phase.ended += 1
            phase.completed += 1
            phase.completed_edited += edited
            if posted <= phase.end:
                phase.in_window += 1
            phase.board_ms.append((posted - clicked) * 1000)
            return True
        finally:
            phase.outstanding -= 1
            self.watch.board_waiters.pop(table.channel.id, None)

    async def guarded_move(self, table: Table) -> bool:
        table.busy = True
        try:
            return await self.move(table)
        finally:
            table.busy = False

    # -- one phase
    async def sample(self, bots: list[BotProcess], phase: Phase) -> None:
        loop = asyncio.get_running_loop()
        while True:
            phase.samples.append(
                {
                    "t": loop.time() - phase.start,
                    "outstanding": phase.outstanding,
                    "completed": phase.completed,
                    "rss_mb": sum(rss_mb(descendants(bot.pid)) for bot in bots),
                    "rss_bot_mb": sum(rss_mb([bot.pid]) for bot in bots),
                    "cpu_s": sum(bots_cpu(bots)),
                }
            )
            await asyncio.sleep(self.args.sample)

    async def run_phase(self, bots: list[BotProcess], rate: float | None) -> Phase:
        loop = asyncio.get_running_loop()
        label = "max" if rate is None else f"{rate:g}/s"
        phase = Phase(label, rate, self.args.duration, len(self.tables))
        self.phase = phase
        counted = await statements(bots)  # read first: the reading's own CPU is not the phase's
        cpu_bot, cpu_workers = bots_cpu(bots)
        waited_bot = sum(runqueue_wait_seconds(descendants(bot.pid)) for bot in bots)
        cpu_harness = time.process_time()
        phase.start = loop.time()
        phase.end = phase.start + self.args.duration
        bytes_before = len(self.watch.board_bytes)
        sampler = asyncio.create_task(self.sample(bots, phase))
        moves: set[asyncio.Task[None]] = set()

        def spawn(coro: Any) -> None:
            task = asyncio.create_task(coro)
            moves.add(task)
            task.add_done_callback(moves.discard)

        if rate is None:

            async def keep_playing(table: Table) -> None:
                while loop.time() < phase.end and not table.dead:
                    if not await self.guarded_move(table):
                        await asyncio.sleep(0.5)  # a failed click is tried again, as a person would

            for table in self.tables:
                spawn(keep_playing(table))
        else:
            interval, tick = 1.0 / rate, phase.start
            while tick < phase.end:
                idle = [t for t in self.tables if not t.busy and not t.dead]
                if idle:
                    spawn(self.guarded_move(self.rng.choice(idle)))
                else:
                    phase.no_idle += 1
                tick += interval
                await asyncio.sleep(max(0.0, tick - loop.time()))
        await asyncio.sleep(max(0.0, phase.end - loop.time()))
        if moves:
            done, pending = await asyncio.wait(set(moves), timeout=self.args.drain)
            for task in done:
                task.result()  # a harness bug must not pass silently
            if pending:
                for task in pending:
                    task.cancel()
                await asyncio.wait(pending)
        phase.drained = loop.time() - phase.end
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler
        own, children = bots_cpu(bots)
        phase.cpu_bot, phase.cpu_workers = own - cpu_bot, children - cpu_workers
        after = await statements(bots)
        if counted is not None and after is not None:
            # Each reading of /metrics runs the refresh of its gauges: one reading's worth is not the phase's.
            phase.statements = max(0.0, after - counted - self.scrape_statements)
        phase.waited_bot = sum(runqueue_wait_seconds(descendants(bot.pid)) for bot in bots) - waited_bot
        phase.cpu_harness = time.process_time() - cpu_harness
        phase.board_bytes = self.watch.board_bytes[bytes_before:]
        return phase


# -- report ---------------------------------------------------------------------------------------


def summary(phase: Phase) -> dict[str, Any]:
    rss = [s["rss_mb"] for s in phase.samples] or [float("nan")]
    rss_bot = [s["rss_bot_mb"] for s in phase.samples] or [float("nan")]
    moves = phase.completed
    queue = [s["outstanding"] for s in phase.samples] or [0]
    return {
        "phase": phase.label,
        "games": phase.games,
        "duration_s": phase.duration,
        "clicks": phase.issued,
        "moves_per_s": phase.in_window / phase.duration,
        # Every board of the phase's clicks over the time they took: under overload most arrive
        # after the clicks stop.
        "served_per_s": phase.completed / (phase.duration + (phase.drained or 0.0)),
        # A move's board is shown either as a new message (a new turn) or as an edit of the turn's
        # message (a later step of the same turn); both are a move's board.
        "boards_shown": phase.completed,
        "boards_posted": phase.completed - phase.completed_edited,
        "boards_edited": phase.completed_edited,
        "board_p50_ms": percentile(phase.board_ms, 50),
        "board_p99_ms": percentile(phase.board_ms, 99),
        "board_max_ms": max(phase.board_ms, default=float("nan")),
        "ack_p50_ms": percentile(phase.ack_ms, 50),
        "ack_p99_ms": percentile(phase.ack_ms, 99),
        "hand_ack_p50_ms": percentile(phase.hand_ms, 50),
        "expired": phase.expired,
        "refused": phase.refused,
        "lost": phase.lost,
        "no_idle_game": phase.no_idle,
        "ended": phase.ended,
        "answers_in_other_language": phase.other_language,
        "new_games": phase.restarts,
        "new_games_failed": phase.restart_failed,
        "queue_mean": statistics.mean(queue),
        "queue_max": max(queue),
        "rss_start_mb": rss[0],
        "rss_max_mb": max(rss),
        "rss_end_mb": rss[-1],
        "rss_bot_max_mb": max(rss_bot),
        # CPU per move: the bot processes and their drawing workers together, then each apart.
        "cpu_ms_per_move": (phase.cpu_bot + phase.cpu_workers) * 1000 / moves if moves else float("nan"),
        "bot_cpu_ms_per_move": phase.cpu_bot * 1000 / moves if moves else float("nan"),
        "workers_cpu_ms_per_move": phase.cpu_workers * 1000 / moves if moves else float("nan"),
        "statements_per_move": phase.statements / moves if moves and phase.statements is not None else None,
        "bot_cpu_cores": (phase.cpu_bot + phase.cpu_workers) / (phase.duration + (phase.drained or 0.0)),
        "harness_cpu_cores": phase.cpu_harness / (phase.duration + (phase.drained or 0.0)),
        # Threads of the bot ready to run but kept off a core by other processes (this harness included).
        "bot_runqueue_wait_cores": phase.waited_bot / (phase.duration + (phase.drained or 0.0)),
        "board_kb_mean": statistics.mean(phase.board_bytes) / 1024 if phase.board_bytes else float("nan"),
        "drain_s": phase.drained,
        "timeline": phase.samples,
    }


def number(digits: int) -> Callable[[Any], str]:
    return lambda v: "n/a" if v is None else f"{v:.{digits}f}"


COLUMNS: list[tuple[str, str, Callable[[Any], str]]] = [
    ("phase", "rate", str),
    ("games", "games", str),
    ("clicks", "clicks", str),
    ("boards_posted", "posted", str),
    ("boards_edited", "edited", str),
    ("moves_per_s", "moves/s", number(1)),
    ("served_per_s", "served/s", number(1)),
    ("board_p50_ms", "board p50", number(0)),
    ("board_p99_ms", "board p99", number(0)),
    ("ack_p50_ms", "ack p50", number(0)),
    ("ack_p99_ms", "ack p99", number(0)),
    ("expired", ">3s", str),
    ("lost", "lost", str),
    ("no_idle_game", "no idle", str),
    ("ended", "ended", str),
    ("new_games", "new", str),
    ("queue_max", "queue max", str),
    ("cpu_ms_per_move", "CPU ms/move", number(0)),
    ("bot_cpu_ms_per_move", "bot ms", number(0)),
    ("workers_cpu_ms_per_move", "workers ms", number(0)),
    ("statements_per_move", "SQL/move", number(1)),
    ("rss_bot_max_mb", "RSS bot", number(0)),
    ("rss_max_mb", "RSS tree", number(0)),
    ("bot_cpu_cores", "bot cores", number(2)),
    ("harness_cpu_cores", "harness cores", number(2)),
    ("bot_runqueue_wait_cores", "bot waiting", number(2)),
    ("board_kb_mean", "board KB", number(0)),
]

# Side by side, one stage per cell: what changes when the boards are those of games people play.
COMPARED: list[tuple[str, str, Callable[[Any], str]]] = [
    ("moves_per_s", "moves/s", number(1)),
    ("board_p50_ms", "board p50", number(0)),
    ("board_p99_ms", "board p99", number(0)),
    ("ack_p50_ms", "ack p50", number(0)),
    ("ack_p99_ms", "ack p99", number(0)),
    ("bot_cpu_ms_per_move", "bot ms/move", number(0)),
    ("workers_cpu_ms_per_move", "workers ms/move", number(0)),
    ("statements_per_move", "SQL/move", number(1)),
    ("rss_bot_max_mb", "RSS bot", number(0)),
    ("rss_max_mb", "RSS tree", number(0)),
    ("ended", "ended", str),
    ("bot_runqueue_wait_cores", "bot waiting", number(2)),
]


def print_cells(cells: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in cells) for i in range(len(cells[0]))]
    for n, row in enumerate(cells):
        print("  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)))
        if n == 0:
            print("  ".join("-" * w for w in widths))


def print_side_by_side(runs: list[dict[str, Any]]) -> None:
    """One row per rate, each cell the stages' figures in the order run (fresh | stored)."""
    stages = [run["stage"] for run in runs]
    print(f"side by side ({' | '.join(stages)}):")
    cells = [["rate", *(head for _, head, _ in COMPARED)]]
    for index, first in enumerate(runs[0]["phases"]):
        rows = [run["phases"][index] for run in runs if index < len(run["phases"])]
        cells.append([first["phase"], *(" | ".join(fmt(row[key]) for row in rows) for key, _, fmt in COMPARED)])
    print_cells(cells)


def print_table(rows: list[dict[str, Any]]) -> None:
    print_cells([[head for _, head, _ in COLUMNS]] + [[fmt(row[key]) for key, _, fmt in COLUMNS] for row in rows])
    print(
        "a move's board is shown as a new message (a new turn: posted) or by editing the turn's message\n"
        "(a later step of the same turn: edited, at most one edit per MEEPLE_EDIT_PACE s per channel);\n"
        "moves/s = boards shown during the phase; served/s = all its clicks' boards over the phase and\n"
        "its drain; board = click to the board showing the move, posted or edited (ms, the edit pace\n"
        "included); ack = the bot's first answer (ms);\n"
        ">3s = clicks not answered within Discord's 3 s; lost = no board within --move-timeout;\n"
        "no idle = ticks of a target rate that found every game waiting for its board;\n"
        "ended = moves that ended their game; new = tables opened (/table create) where one had ended;\n"
        "queue = clicks sent whose board is not shown yet; CPU ms/move = the bot and its drawing\n"
        "workers (bot ms + workers ms); SQL/move = the bot's meeple_db_statements_total over the phase\n"
        "and its drain per move (n/a: the bot does not count them); RSS in MB: the bot process, and\n"
        "the whole tree (its drawing workers too);\n"
        "cores = CPU seconds per second; bot waiting = its threads ready to run but without a core\n"
        "(summed over its threads, in the same unit): high when other processes hold the cores."
    )


def print_timeline(row: dict[str, Any], every: float) -> None:
    samples = row["timeline"]
    if not samples:
        return
    print(f"  timeline of {row['phase']} (t s: boards shown, queue, RSS MB):")
    shown, last, line = -every, 0.0, []
    for sample in samples:
        if sample["t"] - shown < every:
            continue
        shown = sample["t"]
        line.append(
            f"{sample['t']:.0f}: {sample['completed'] - last:.0f}, {sample['outstanding']:.0f}, {sample['rss_mb']:.0f}"
        )
        last = sample["completed"]
    for start in range(0, len(line), 6):
        print("    " + " | ".join(line[start : start + 6]))


def parse_rates(text: str) -> list[float | None]:
    rates: list[float | None] = []
    for word in text.split(","):
        word = word.strip().lower()
        if word == "max":
            rates.append(None)
            continue
        value = float(word)
        if value <= 0:
            raise argparse.ArgumentTypeError("a rate is a positive number of moves per second, or max")
        rates.append(value)
    return rates


def uptime() -> str:
    with open("/proc/loadavg") as fh:
        return "load average " + " ".join(fh.read().split()[:3])


def describe_tables(tables: list[Table]) -> str:
    """Which games, player counts, languages and stages the tables hold."""
    games = ", ".join(
        f"{game} x{sum(t.game == game for t in tables)}"
        f" ({'/'.join(f'{n}p' for n in sorted({t.players for t in tables if t.game == game}))})"
        for game in sorted({t.game for t in tables})
    )
    languages = ", ".join(f"{code} x{sum(t.language == code for t in tables)}" for code in LANGUAGES)
    stages = sorted({t.stage for t in tables}, key=lambda s: [*STAGES, "fresh"].index(s))
    where = ", ".join(
        f"{stage} x{len(ins)}"
        + (f" ({min(ins)}-{max(ins)} moves in, mean {statistics.mean(ins):.0f})" if stage != "fresh" else "")
        for stage in stages
        for ins in [[t.moves_in for t in tables if t.stage == stage]]
    )
    return f"{games}; {languages}; {where}"


def print_profile(path: Path, top: int = 25) -> None:
    """Where the bot's main thread (the event loop) spent its time: own time by area of the code
    (the bot's packages, discord.py, aiohttp, aiosqlite, the standard library), then the functions
    with the most own time. cProfile times the wall clock, so the loop's wait for I/O (``poll`` of
    its selector) is counted apart and left out of the shares; cProfile also slows what it
    watches about twofold, so read the shares, not the seconds."""
    stats = pstats.Stats(str(path))
    areas: Counter[str] = Counter()
    total = waiting = 0.0
    for (filename, _, name), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        if "poll' of 'select." in name:
            waiting += own
            continue
        total += own
        areas[profile_area(filename)] += own
    print(f"profile of the bot's main thread ({path}): busy {total:.1f} s, waiting for I/O {waiting:.1f} s")
    for area, seconds in areas.most_common(12):
        print(f"  {area:<28} {seconds:7.2f} s {100 * seconds / (total or 1):5.1f} %")
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]  # type: ignore[attr-defined]
    print(f"  top {top} functions by own time:")
    for (filename, line, name), (_, calls, own, cumulative, _) in rows:
        where = filename.replace(str(ROOT) + "/", "")
        print(f"    {own:6.2f} s {cumulative:7.2f} s cum {calls:9d} calls  {name} ({where}:{line})")


def profile_area(filename: str) -> str:
    """The part of the code a profiled function belongs to: a package of ours, or a library."""
    if "site-packages/" in filename:
        return filename.split("site-packages/", 1)[1].split("/", 1)[0]
    if filename.startswith(str(ROOT)):
        return filename[len(str(ROOT)) + 1 :].split("/", 1)[0]
    if filename.startswith("~") or filename.startswith("<"):
        return "built-in calls"
    return "standard library"


async def run_stage(args: argparse.Namespace, stage: str, workdir: Path, database: str | None) -> dict[str, Any]:
    """One run: a new emulator and bot on a new database, the tables fresh or seeded, every phase."""

    def profile_of(shard: int) -> Path | None:
        if args.profile is None:
            return None
        Path(args.profile).mkdir(parents=True, exist_ok=True)
        return Path(args.profile) / f"bot-{stage}-{shard}.prof"

    print(f"-- {stage}: {uptime()}", flush=True)
    async with Emulator(interaction_deadline=3.0, shard_count=args.shards, check_spec=args.spec_checks) as emu:
        load = Load(emu, args, stage)
        load.build_world()
        if args.shards > 1:
            bots = [
                BotProcess(emu, workdir, database, args.log_level, (i, args.shards), args.edit_pace, profile_of(i))
                for i in range(args.shards)
            ]
        else:
            bots = [BotProcess(emu, workdir, database, args.log_level, edit_pace=args.edit_pace, profile=profile_of(0))]
        seeded_s = 0.0
        if stage == "stored":
            began = time.monotonic()
            for table, stored in zip(load.tables, await seed(bots[0].database, load.stored_tables()), strict=True):
                table.moves_in = stored.moves_in
            seeded_s = time.monotonic() - began
            print(f"{len(load.tables)} games stored in {seeded_s:.1f} s, {uptime()}", flush=True)
        ready = 0.0
        for bot in bots:
            ready += await bot.start(args.start_timeout)
        try:
            if stage == "stored":
                setup = await load.await_boards(args.move_timeout + len(load.tables))
                opened = f"their boards posted by the bot's outbox in {setup:.1f} s"
            else:
                setup = await load.open_all()
                opened = f"opened in {setup:.1f} s"
            print(f"bot ready in {ready:.1f} s; {len(load.tables)} tables {opened}: {describe_tables(load.tables)}")
            pace = "the bot's default" if args.edit_pace is None else f"{args.edit_pace:g} s (--edit-pace)"
            print(f"edit pace (MEEPLE_EDIT_PACE): {pace}; a board edited for a move counts as its board")
            before = await statements(bots)
            after = await statements(bots)
            if before is not None and after is not None:
                load.scrape_statements = after - before
            rows = []
            for rate in args.rate:
                phase = await load.run_phase(bots, rate)
                rows.append(summary(phase))
                print(f"  {stage} {phase.label}: done (drained in {phase.drained:.1f} s), {uptime()}", flush=True)
        finally:
            for bot in bots:
                await bot.stop()
        tracebacks = sum(bot.tracebacks() for bot in bots)
    print()
    print(f"{stage}:")
    print_table(rows)
    for row in rows:
        print_timeline(row, args.timeline)
    print(f"bot log: {tracebacks} tracebacks; {uptime()}")
    for bot in bots:
        if bot.profile is not None and bot.profile.exists():
            print_profile(bot.profile)
    print()
    return {
        "stage": stage,
        "bot_ready_s": ready,
        "seeded_s": seeded_s,
        "setup_s": setup,
        "tables": [
            {"game": t.game, "players": t.players, "language": t.language, "stage": t.stage, "moves_in": t.moves_in}
            for t in load.tables
        ],
        "tracebacks": tracebacks,
        "phases": rows,
    }


async def run(args: argparse.Namespace, databases: dict[str, str | None]) -> dict[str, Any]:
    print(f"before: {uptime()} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="meeple-load-") as tmp:
        root = Path(args.keep) if args.keep else Path(tmp)
        runs = []
        for stage in args.stage:
            workdir = root / stage
            workdir.mkdir(parents=True, exist_ok=True)
            runs.append(await run_stage(args, stage, workdir, databases[stage]))
        if len(runs) > 1:
            print_side_by_side(runs)
        print(f"after: {uptime()}")
        if args.keep:
            print(f"kept the bots' logs and databases in {root}")
        return {
            "args": {k: v for k, v in vars(args).items() if k != "rate"},
            "rates": args.rate,
            "runs": runs,
            "tracebacks": sum(run["tracebacks"] for run in runs),
        }


def parse_stages(text: str) -> list[str]:
    stages = [word.strip().lower() for word in text.split(",")]
    for stage in stages:
        if stage not in ("fresh", "stored"):
            raise argparse.ArgumentTypeError(f"a stage is fresh or stored, not {stage!r}")
    if len(set(stages)) != len(stages):
        raise argparse.ArgumentTypeError("each stage once")
    return stages


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("--games", type=int, default=100, help="active tables (default 100)")
    parser.add_argument(
        "--rate",
        type=parse_rates,
        default=parse_rates("10,max"),
        help="moves/s per phase, comma-separated; max = every game clicks again at once (default 10,max)",
    )
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per phase (default 60)")
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="seeds which game each table plays and the users' choices (the bot deals its games itself)",
    )
    parser.add_argument("--move-timeout", type=float, default=120.0, help="a board later than this is lost (s)")
    parser.add_argument("--drain", type=float, default=120.0, help="seconds to let a phase's clicks finish")
    parser.add_argument("--setup-concurrency", type=int, default=4, help="tables opened at once (default 4)")
    parser.add_argument("--start-timeout", type=float, default=120.0, help="seconds for the bot to connect")
    parser.add_argument("--sample", type=float, default=1.0, help="seconds between samples of RSS and queue")
    parser.add_argument("--timeline", type=float, default=10.0, help="seconds between timeline entries printed")
    parser.add_argument(
        "--database",
        help="MEEPLE_DB for the bot (default: a new SQLite file; 'postgres': a throw-away PostgreSQL server)",
    )
    parser.add_argument(
        "--shards",
        type=int,
        default=1,
        help="bot processes, each owning one shard of this many (their guilds alternate); share --database",
    )
    parser.add_argument(
        "--stage",
        type=parse_stages,
        default=parse_stages("fresh,stored"),
        help="fresh = tables opened by /table create (early boards); stored = games written into the"
        " database at every stage before the bot starts; both (default fresh,stored) print side by side",
    )
    parser.add_argument(
        "--mix",
        choices=sorted(MIXES),
        default="played",
        help="played: the four games at the player counts people play, in en, zh-TW and pt-BR (default);"
        " classic: 2-3 players in English, the mix of the figures before 2026-11-26",
    )
    parser.add_argument(
        "--no-spec-checks",
        dest="spec_checks",
        action="store_false",
        help="the emulator skips checking each request and answer against Discord's OpenAPI "
        "description: at 1,000 games those checks cost the shared 2 cores more than the bot does",
    )
    parser.add_argument(
        "--edit-pace",
        type=float,
        metavar="S",
        help="MEEPLE_EDIT_PACE for the bot: seconds between two edits of boards in a channel (default:"
        " the bot's own, 1.5 s, part of what players see; 0 measures the bot without it)",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="run the bot under cProfile (its main thread: the event loop), write bot-<stage>-<shard>.prof"
        " into DIR and print where its CPU went; it slows the bot about twofold, so not for the figures",
    )
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    parser.add_argument("--keep", metavar="DIR", help="keep the bot's log and database in DIR")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or args.duration <= 0:
        parser.error("--games and --duration must be positive")
    if args.database == "postgres":  # a throw-away server, as the tests start one (Debian's postgresql)
        from tests.support.postgres import PostgresServer, find_binaries

        bin_dir, reason = find_binaries()
        if bin_dir is None:
            parser.error(f"--database postgres: {reason}")
        server = PostgresServer.start(bin_dir)
        try:  # a database per stage: the emulator's ids repeat from one run to the next
            databases: dict[str, str | None] = {
                s: server.url(asyncio.run(server.create_database(migrated=False))) for s in args.stage
            }
            result = asyncio.run(run(args, databases))
        finally:
            server.stop()
    else:
        if args.database is not None and len(args.stage) > 1:
            parser.error("--database with several --stage: run one stage at a time (each needs a new database)")
        result = asyncio.run(run(args, dict.fromkeys(args.stage, args.database)))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
