"""Durable delivery: the worker that posts boards, private DMs and their notices from SQLite.

Jobs are written by the transaction that commits a move (``services.storage.jobs``). One worker task
per game delivers that game's jobs one at a time, oldest first, so boards appear in the order
the moves were made. A failure Discord may get over (429, 5xx, a network error) is retried with
capped exponential backoff and jitter, for as long as it takes; a refusal that will not change
(403, 404, any other 4xx) ends the job: a DM that cannot be sent becomes a public notice naming
the player (never the content), a board that cannot be posted is logged (/table status still
shows it). A board that a newer board replaced before it could be posted is skipped, and its
lines (what happened) are carried into the newer one.

The posting itself is the ``Poster``'s (``services.posting_port``): its failures come here already
sorted into ``RetryLater`` and ``Refused``, and this module never imports discord.

The worker goes in passes: one statement claims every pending job of the game, the game and its
seats are read once for all of them, and what was delivered is marked done in one statement at
the end of the pass (or before a retry's wait). A crash in between sends those again at the next
start: delivery stays at least once, as when a crash came between a post and its mark.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from engine import Action, AnyState, Event
from l10n.words import game_title, listing, t
from services import board_turns as turns
from services import history, metrics
from services.computer_turns import is_computer
from services.game_service import GameService
from services.logs import LogContext, set_log_context
from services.pictures import Superseded
from services.posting_port import Poster, PostFailed, Refused, RetryLater, message_time
from services.shards import ALL as ALL_SHARDS
from services.shards import Shards, shard_of
from services.storage import GameRow, SeatRow, async_play, jobs
from services.storage.dialect import parse_stamp
from services.storage.jobs import Job, JobSpec
from services.tasks import Tasks
from services.wording import adapter_for

if TYPE_CHECKING:
    from services.storage import Database

log = logging.getLogger("meeple.delivery")

# Games whose pending jobs are caught up at once after a start: the rest wait their turn, so
# a backlog (1,000 boards a crash left unposted) never crowds out the clicks being answered.
CATCH_UP = 4

# Boards posted remembered for the moves' answers (game id -> version, message): bounded.
POSTED_LIMIT = 10_000

# Edits of boards in one channel at most this often (seconds): a turn's quick steps (a
# computer's, a player's clicks) are one edit, not one each (Discord limits a channel's writes).
EDIT_PACE = 1.5
# A board message older than this is not edited but followed by a new one: Discord rate limits
# edits of messages older than an hour (error 30046), and nobody scrolls back to it.
EDIT_AGE = timedelta(minutes=45)
# The games whose current board message is remembered (what it shows): bounded.
SHOWN_LIMIT = 10_000

# Failures of this process's own side of the network (the database's): the same step may well
# succeed later. Discord's come from the Poster, already sorted (``RetryLater``).
NETWORK_ERRORS = (OSError, asyncio.TimeoutError)


class _Paced(Exception):
    """A board edit must wait ``delay`` seconds: the channel's last board write was just now."""

    def __init__(self, delay: float) -> None:
        super().__init__(delay)
        self.delay = delay


@dataclass
class _Pass:
    """One pass of a game's worker over its pending jobs: the game's row and seats, read once
    for all of them, and the jobs delivered (marked done together)."""

    row: GameRow | None
    seats: list[SeatRow]
    done: list[int] = field(default_factory=list)
    # Boards delivered in the pass -> their payload with what their message shows (marked with them).
    shown: dict[int, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Backoff:
    """Seconds to wait before retry ``attempt`` (1, 2, ...): doubling from ``first`` up to ``cap``,
    each spread by +-``jitter`` so that many games retrying at once do not hit Discord together."""

    first: float = 2.0
    factor: float = 2.0
    cap: float = 300.0
    jitter: float = 0.2

    def delay(self, attempt: int, retry_after: float | None = None, rng: random.Random | None = None) -> float:
        base = min(self.cap, self.first * self.factor ** max(0, attempt - 1))
        spread = 1 + self.jitter * (2 * (rng or random).random() - 1)
        return max(min(self.cap, base * spread), retry_after or 0.0)


def observe_board_posted(job: Job) -> None:
    """From the move's commit (a click, a computer's move, a time limit) to its board on Discord."""
    try:
        waited = (datetime.now(UTC) - parse_stamp(job.created_at or "")).total_seconds()
    except ValueError:  # a row written by hand, without the storage clock's text
        return
    metrics.ANSWER_SECONDS.labels(stage="board_posted").observe(max(0.0, waited))


def retryable(exc: BaseException) -> bool:
    """Whether a failed step is worth trying again (rate limits, server errors, the network)."""
    return isinstance(exc, (RetryLater, *NETWORK_ERRORS))


def describe(exc: BaseException) -> str:
    if isinstance(exc, PostFailed):
        return str(exc)
    return type(exc).__name__


def public_lines(game: str, events: list[Event], names: Sequence[str], loc: str) -> list[str]:
    """What everyone saw happen, in ``loc`` (the table's language)."""
    public = [event for event in events if event.get("visible_to") is None]
    return adapter_for(game).describe_events(public, list(names), loc)


class Delivery:
    """Per-game workers over the job table; ``kick`` after enqueueing, ``resume`` at start-up."""

    def __init__(
        self,
        service: GameService,
        poster: Poster,
        backoff: Backoff | None = None,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        shards: Shards = ALL_SHARDS,
    ) -> None:
        self.service = service
        self.poster = poster
        # The guilds whose games this process carries on without a click (services/shards.py).
        self.shards = shards
        self.backoff = backoff or Backoff()
        self._sleep = sleep
        self._workers: dict[int, asyncio.Task[None]] = {}
        self.tasks = Tasks()  # the workers and the start's catch-up, held until they end (services/tasks.py)
        self._again: set[int] = set()  # games that got a job while their worker was finishing
        self._closing = False
        self.catch_up_limit = CATCH_UP
        self._catch_up: asyncio.Task[None] | None = None
        self._passes: dict[int, _Pass] = {}  # game id -> the delivery pass under way
        # game id -> (version, message id) of the last board posted; read by the move's answer.
        self._posted: dict[int, tuple[int, int]] = {}
        # game id -> what its current board message shows (None: no board message to edit).
        self._shown: dict[int, turns.Shown | None] = {}
        self.edit_pace = EDIT_PACE
        self.edit_age = EDIT_AGE
        self._written: dict[int, float] = {}  # channel id -> when a board was last posted or edited there
        self._paced: dict[int, asyncio.Event] = {}  # game id -> set while its board edit waits for the pace
        # game id -> held by its worker while it delivers (not while it waits): ``forgetting`` takes it.
        self._gates: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._holding: set[int] = set()  # the games whose worker holds its gate

    @property
    def db(self) -> Database:
        return self.service.db

    # -- running --------------------------------------------------------------------------
    def kick(self, game_id: int) -> asyncio.Task[None] | None:
        """Make sure a worker is delivering the game's pending jobs."""
        if self._closing:
            return None  # the jobs stay in SQLite for the next start
        task = self._workers.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            return task
        # An error is said once, here, whoever else looks at the task (``wait`` does): its jobs stay pending.
        task = self.tasks.start(
            self._run(game_id), name=f"meeple-delivery-{game_id}", on_error=lambda error: self._stopped(game_id, error)
        )
        self._workers[game_id] = task
        # Forget a finished worker: a bot that delivered for 10,000 games keeps none of them.
        task.add_done_callback(lambda done: self._forget(game_id, done))
        return task

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._workers.get(game_id) is task:
            del self._workers[game_id]

    @staticmethod
    def _stopped(game_id: int, error: BaseException) -> None:
        log.error(
            "the delivery worker of game %s stopped; its jobs wait for the next move or start",
            game_id,
            exc_info=error,
        )

    async def resume(self) -> int:
        """Deliver, in the background, everything left pending for each game (oldest first, at
        most ``catch_up_limit`` games at a time); how many games. A game someone plays meanwhile
        is delivered at once by its own ``kick``, not in the queue's order."""
        games = await jobs.games_with_pending(self.db, self.shards)
        if games:
            self._catch_up = self.tasks.start(self._catch_up_all(games), name="meeple-delivery-catch-up")
        return len(games)

    async def _catch_up_all(self, games: list[int]) -> None:
        gate = asyncio.Semaphore(self.catch_up_limit)
        for game_id in games:
            await gate.acquire()
            task = self.kick(game_id)  # a game already being delivered (a click's) holds its place
            if task is None:  # shutting down: the jobs stay pending for the next start
                return
            task.add_done_callback(lambda _: gate.release())

    async def caught_up(self) -> None:
        """Wait until the start's backlog has been handed to workers and they are done (tests, bench)."""
        if self._catch_up is not None:
            await self._catch_up
        while busy := [task for task in self._workers.values() if not task.done()]:
            await asyncio.wait(busy)

    async def wait(self, game_id: int, timeout: float) -> bool:
        """Wait (at most ``timeout``) for the game's jobs to be delivered; True when they are.

        The worker is not cancelled when the wait ends: the jobs go on in the background. An edit
        waiting for its channel's pace ends the wait: the step's board is on its way, and the next
        step (a computer's) may come meanwhile and take its place.
        """
        task = self._workers.get(game_id)
        if task is None:
            return not await jobs.pending(self.db, game_id)
        if not task.done():
            paced = self._paced.setdefault(game_id, asyncio.Event())
            watch = self.tasks.start(paced.wait(), name=f"meeple-delivery-pace-{game_id}")
            try:
                await asyncio.wait({task, watch}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            finally:
                watch.cancel()
        # A worker that ended by itself delivered (or gave up on) every job it claimed, and
        # nothing was enqueued since (a kick would have made it claim again).
        return task.done() and not task.cancelled() and task.exception() is None

    async def shutdown(self, grace: float = 3.0) -> None:
        """Let the workers finish the job in hand for a moment, then stop them; jobs left stay pending."""
        self._closing = True
        if self._catch_up is not None and not self._catch_up.done():
            self._catch_up.cancel()
        running = {task for task in self._workers.values() if not task.done()}
        pending = (await asyncio.wait(running, timeout=grace))[1] if running else set()
        await self.tasks.close()  # the workers still delivering, the catch-up, the waits for a pace
        if pending:
            log.info("stopped delivering for %d games; their jobs resume at the next start", len(pending))

    async def _run(self, game_id: int) -> None:
        while True:
            # A kick from now on (a new move's jobs) is seen by the claim below or makes another pass.
            self._again.discard(game_id)
            batch = await jobs.claim_all(self.db, game_id)
            if batch:
                gate = self._gate(game_id)
                await gate.acquire()
                self._holding.add(game_id)
                try:
                    await self._deliver_all(game_id, batch)
                finally:
                    if game_id in self._holding:  # not when a cancel came while it waited for the gate
                        self._holding.discard(game_id)
                        gate.release()
            if game_id not in self._again:
                return

    # -- a player forgotten ---------------------------------------------------------------
    def _gate(self, game_id: int) -> asyncio.Lock:
        gate = self._gates.get(game_id)
        if gate is None:
            gate = self._gates[game_id] = asyncio.Lock()
        return gate

    async def _pause(self, game_id: int, delay: float) -> None:
        """Wait ``delay`` (a retry's backoff, an edit's pace) with the game's gate open."""
        gate = self._gate(game_id)
        self._holding.discard(game_id)
        gate.release()
        try:
            await self._sleep(delay)
        finally:
            await gate.acquire()  # cancelled here (shutting down): not held, and not released again
            self._holding.add(game_id)

    @contextlib.asynccontextmanager
    async def forgetting(self, game_ids: Iterable[int]) -> AsyncIterator[None]:
        """Hold these games' deliveries between two steps while a player is forgotten.

        A pass keeps what the current board message shows (its lines, which may name the
        player) in memory and writes it with the jobs it marks done; a pass under way finishes
        its step first, and what this process remembers of the games' boards is dropped, so
        that every board after the anonymisation reads its lines again from storage, scrubbed.
        """
        games = sorted(set(game_ids))
        gates = [self._gate(game_id) for game_id in games]  # held here: the weak map keeps them
        async with contextlib.AsyncExitStack() as stack:
            for gate in gates:
                await stack.enter_async_context(gate)
            for game_id in games:
                self._shown.pop(game_id, None)
            yield

    async def _deliver_all(self, game_id: int, batch: list[Job]) -> None:
        """One pass over the game's pending jobs, in order: the game's row and seats read once for
        all of them, the boards a later board of the pass replaces skipped (their lines carried
        into it, in one transaction), the jobs delivered marked done together at the end (before
        any wait for a retry, too), so the bookkeeping of a move costs a few statements whatever
        its DMs."""
        row = await self.db.get_game(game_id)
        seats = await self.db.seats(game_id) if row is not None else []
        current = _Pass(row, seats)
        self._passes[game_id] = current
        boards = [job for job in batch if job.kind == "board"]
        skipped: list[Job] = []
        carried: list[str] = []
        try:
            for job in batch:
                if job.kind == "board" and job is not boards[-1] and current.row is not None:
                    lines = await self._lines_if_superseded(current.row, job)
                    if lines is not None:
                        # Post only the newest board; what happened since the last one still shows.
                        carried += lines
                        skipped.append(job)
                        continue
                if job.kind == "board" and skipped:
                    fields = turns.merged(
                        [*(j.payload for j in skipped), job.payload], [*(j.id for j in skipped), job.id]
                    )
                    job = await jobs.skip_all_into(self.db, skipped, job, carried, fields)
                    metrics.DELIVERY_DONE.labels(kind="board").inc(len(skipped))
                    skipped, carried = [], []
                await self._deliver(job, current)
        finally:
            self._passes.pop(game_id, None)
            await self._flush(current)

    async def _lines_if_superseded(self, row: GameRow, job: Job) -> list[str] | None:
        """The lines a board replaced by a later one carries into it; None when it is not to be
        skipped (its game was abandoned: it fails as any board of it does; or its lines cannot
        be worded: it is delivered alone, where its failure is classified)."""
        if row.status == "abandoned":
            return None
        try:
            return await self.board_lines(row, job)
        except Exception:  # the board's own delivery meets and classifies the same failure
            log.warning("could not word the lines of board %s of game %s", job.version, job.game_id, exc_info=True)
            return None

    async def _flush(self, current: _Pass) -> None:
        done, current.done = current.done, []
        shown, current.shown = current.shown, {}
        await jobs.complete_all(self.db, done, shown)

    async def _deliver(self, job: Job, current: _Pass) -> None:
        attempt = 1
        fresh = True  # the pass's row is the one to use; after a wait or a drawing replaced, read again
        paced = False  # an edit waited for the channel's pace: a newer board may take its place
        waited = False  # ...and then goes out without waiting again
        while True:
            if not fresh:
                current.row = await self.db.get_game(job.game_id)
                current.seats = await self.db.seats(job.game_id) if current.row is not None else []
            row = current.row
            # This worker's lines name its game, table and shard (never the click that kicked it).
            shard = shard_of(row.guild_id, self.shards.count) if row is not None else None
            set_log_context(LogContext(job.game_id, row.channel_id if row is not None else None, shard))
            if row is None or (job.kind == "board" and row.status == "abandoned"):
                await jobs.fail(self.db, job.id, "the game is gone or was abandoned")
                return
            try:
                if job.kind == "board" and (not fresh or paced):
                    waited, paced = paced, False
                    newer = await jobs.newer_board(self.db, job)
                    if newer is not None:
                        # Post only the newest board; what happened since the last one still shows.
                        fields = turns.merged([job.payload, newer.payload], [job.id, newer.id])
                        await jobs.skip_into(self.db, job, newer, await self.board_lines(row, job), fields)
                        metrics.DELIVERY_DONE.labels(kind=job.kind).inc()
                        return
                await self._attempt(row, job, pace=not waited)
            except Superseded:
                fresh = False
                continue  # a newer board took this one's place in the drawing queue: look again
            except _Paced as wait:
                # Another edit went out in this channel a moment ago: wait, then a newer board
                # of the game (a quick next step) takes this one's place, or this one goes out.
                await self._flush(current)
                pacing = self._paced.setdefault(job.game_id, asyncio.Event())
                pacing.set()
                try:
                    await self._pause(job.game_id, wait.delay)
                finally:
                    pacing.clear()
                    if len(self._paced) >= SHOWN_LIMIT:
                        self._paced.clear()
                job = await self._again_read(job)
                paced = True
                continue
            except Exception as exc:  # every failure is classified below; none may stop the worker
                if retryable(exc):
                    metrics.DELIVERY_RETRIES.labels(kind=job.kind).inc()
                    if isinstance(exc, RetryLater) and exc.rate_limited:
                        metrics.RATE_LIMITS.inc()
                    delay = self.backoff.delay(attempt, exc.retry_after if isinstance(exc, RetryLater) else None)
                    log.warning(
                        "delivery of %s (game %s, version %s) failed: %s; retry %d in %.1fs",
                        job.kind,
                        job.game_id,
                        job.version,
                        describe(exc),
                        attempt,
                        delay,
                    )
                    await self._flush(current)  # what went out is not sent again after a crash meanwhile
                    await jobs.retrying(self.db, job.id, describe(exc))
                    attempt += 1
                    fresh = False
                    await self._pause(job.game_id, delay)
                    job = await self._again_read(job)
                    continue
                metrics.DELIVERY_FAILED.labels(kind=job.kind).inc()
                await self._give_up(row, job, exc)
                return
            current.done.append(job.id)
            metrics.DELIVERY_DONE.labels(kind=job.kind).inc()
            if job.kind == "board":
                observe_board_posted(job)
            return

    async def _again_read(self, job: Job) -> Job:
        """The job as stored after a wait: lines may have been added to it meanwhile (a
        resignation's), or a forgotten player's name scrubbed from it."""
        stored = await jobs.get(self.db, job.id)
        return stored if stored is not None and stored.status == "pending" else job

    def board_of(self, row: GameRow) -> GameRow:
        """``row`` with the board this process last posted for its version, if it did (the answer
        to a move links to it without reading the game again)."""
        posted = self._posted.get(row.id)
        if posted is None or posted[0] != row.version:
            return row
        return replace(row, board_message_id=posted[1], board_version=posted[0])

    def seats_of(self, game_id: int) -> list[SeatRow] | None:
        """The seats the game's delivery pass read (None outside a pass): its jobs share one read."""
        current = self._passes.get(game_id)
        return current.seats if current is not None else None

    async def _attempt(self, row: GameRow, job: Job, pace: bool = True) -> None:
        if job.kind == "board":
            await self.post_board(row, job, pace)
        elif job.kind == "hand":
            await self.send_hand(row, job)
        else:
            await self.post_notice(row, job)

    async def _give_up(self, row: GameRow, job: Job, exc: Exception) -> None:
        if not isinstance(exc, Refused):
            log.exception("delivery of %s for game %s failed", job.kind, job.game_id, exc_info=exc)
            await jobs.fail(self.db, job.id, describe(exc))
            return
        if job.kind == "hand" and job.seat is not None:
            users = [seat.user_id for seat in await self._seats(row)]
            notice = JobSpec("notice", job.version, payload={"key": "game.dm-failed", "users": [users[job.seat]]})
            log.info("could not DM a player of game %s: %s; telling the channel", row.id, describe(exc))
            await jobs.fail(self.db, job.id, describe(exc), [notice])
            self._again.add(row.id)  # the notice is delivered by the next pass
            return
        log.warning("gave up posting a %s of game %s: %s", job.kind, row.id, describe(exc))
        await jobs.fail(self.db, job.id, describe(exc))

    # -- what each job posts ------------------------------------------------------------------
    async def state_at(self, row: GameRow, version: int) -> AnyState:
        """The position a job shows: the current state, or the one rebuilt from the log."""
        if version == row.version:
            return await self.service.state(row)
        return await history.state_at(self.db, row, version)

    async def _seats(self, row: GameRow) -> list[SeatRow]:
        """The game's seats: the pass's (read once for all its jobs), else read."""
        seats = self.seats_of(row.id)
        return seats if seats is not None else await self.db.seats(row.id)

    async def board_lines(self, row: GameRow, job: Job) -> list[str]:
        """What happened, in words (the table's language): lines carried from skipped boards, then
        this change's own."""
        loc = self.poster.table_locale(row)
        payload = job.payload
        seats = await self._seats(row)
        names = self.poster.seat_names(seats, loc)
        lines = list(payload.get("carried", []))
        if payload.get("started"):
            lines.append(t("game.started", loc, game=game_title(row.game, loc)))
            notice = adapter_for(row.game).start_notice(loc)
            if notice:
                lines.append(notice)
        lines.extend(payload.get("notes", []))
        undo = payload.get("undo")
        if undo:
            users = [seat.user_id for seat in seats]
            state = await self.state_at(row, job.version)
            label = adapter_for(row.game).action_label(Action(undo["action"]), state.view(undo["seat"]), loc, names)
            lines.append(t("undo.public", loc, player=f"<@{users[undo['seat']]}>", action=label))
        lines.extend(public_lines(row.game, payload.get("events", []), names, loc))
        return lines

    async def shown(self, row: GameRow, job: Job) -> turns.Shown | None:
        """What the game's current board message shows (None: there is none to edit): remembered
        from this process's last board of the game, else read from its last delivered board."""
        if job.payload.get("started"):
            return None  # the first board of a game: nothing before it
        if row.id in self._shown:
            return self._shown[row.id]
        shown = turns.Shown.from_dict(await jobs.last_shown(self.db, row.id))
        self._remember_shown(row.id, shown)
        return shown

    def _remember_shown(self, game_id: int, shown: turns.Shown | None) -> None:
        if len(self._shown) >= SHOWN_LIMIT:
            self._shown.clear()  # forgotten ones are read again from their board job
        self._shown[game_id] = shown

    def _editable(self, shown: turns.Shown | None) -> bool:
        """Whether the shown message may still be edited (not too old: Discord's error 30046)."""
        if shown is None:
            return False
        return datetime.now(UTC) - message_time(shown.message) < self.edit_age

    async def post_board(self, row: GameRow, job: Job, pace: bool = True) -> None:
        """Deliver a board: a new message when a turn began (mentioning the people whose turn it
        is), else an edit of the turn's message; at most one edit per ``edit_pace`` in a channel
        (``pace``: raise ``_Paced`` to wait; False once the job has waited)."""
        state = await self.state_at(row, job.version)
        outcome = state.outcome()
        seats = await self._seats(row)
        if outcome is not None and row.status == "finished" and not job.payload.get("recorded"):
            # Stored by the move that ended the game, in its own transaction, and its final board
            # says so. A final board without that word was enqueued by a version of the bot that
            # stored results after the move: a crash in between left them to this board.
            forfeited = set(job.payload.get("forfeited", []))
            await async_play.record_results(
                self.db, row, await self.service.final_results(row.id, outcome, seats, forfeited)
            )
        shown = await self.shown(row, job)
        people = [seat.seat for seat in seats if not is_computer(seat.user_id)]
        plan = turns.plan(job.payload, shown, state.to_move(), people, outcome is not None)
        edit = shown if not plan.new and self._editable(shown) else None
        if edit is not None and pace:
            wait = self._written.get(row.channel_id, -self.edit_pace) + self.edit_pace - time.monotonic()
            if wait > 0:
                raise _Paced(wait)
        lines = await self.board_lines(row, job)
        if edit is not None:
            lines = [*edit.lines, *lines]
        nonce = f"mp{row.id:x}.{job.payload.get(turns.FIRST, job.id):x}"
        message_id, kept = await self.poster.post_board(
            row, state, lines, seats, edit=edit.message if edit else None, mention=plan.mention, nonce=nonce
        )
        if len(self._written) >= SHOWN_LIMIT:
            self._written.clear()  # a channel forgotten here is only not paced for one edit
        self._written[row.channel_id] = time.monotonic()
        now = turns.Shown(message_id, state.version, plan.notified, tuple(kept))
        self._remember_shown(row.id, now)
        if len(self._posted) >= POSTED_LIMIT:
            self._posted.clear()
        self._posted[row.id] = (state.version, message_id)
        current = self._passes.get(row.id)
        if current is not None:
            current.shown[job.id] = {**job.payload, "shown": now.to_dict()}
            if current.row is not None:
                # The DMs after it link to this board (as a row read again would say).
                current.row = replace(current.row, board_message_id=message_id, board_version=state.version)

    async def send_hand(self, row: GameRow, job: Job) -> None:
        assert job.seat is not None
        poster = self.poster
        seats = await self._seats(row)
        user = seats[job.seat].user_id
        if is_computer(user):
            return  # a computer seat reads its own view; nobody to DM
        # Worded when it goes out, in the language last seen from its recipient.
        loc = await poster.user_locale(user, poster.table_locale(row))
        names = poster.seat_names(seats, loc)
        adapter = adapter_for(row.game)
        lines = [adapter.describe_event(event, names, loc) for event in job.payload.get("events", [])]
        # The hand as it is now: what the seat can act on (only ever this seat's own view).
        state = await self.service.state(row)
        reason = job.payload.get("reason", "game.dm.update")
        await poster.send_hand(row, state, job.seat, reason, [x for x in lines if x], seats=seats, loc=loc)

    async def post_notice(self, row: GameRow, job: Job) -> None:
        loc = self.poster.table_locale(row)
        mentions = listing((f"<@{user}>" for user in job.payload.get("users", [])), loc)
        await self.poster.post_notice(row, t(job.payload["key"], loc, players=mentions))
