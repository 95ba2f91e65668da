"""Keeping async games moving: reminders, time limits and idle tables, on an injectable clock.

Every minute the bot calls ``Scheduler.tick()``. Waiting time is measured from the game's last
change (``updated_at``, written by SQLite at every move), minus the waiting players' declared
vacations. Reminders go out every ``reminder_hours`` (the game's, else the server's, else 24),
escalating, at most ``REMINDER_CAP`` per turn, unless snoozed; a time limit warns once, then
applies its consequence. Tests replace the clock and call ``tick()`` themselves.

A tick costs what is due, not what is stored: each game keeps the earliest moment it may next
need the scheduler (``due_at`` for ``due_version``, migration 0013), and a tick reads only the
games whose moment has come, or whose version or settings changed since it was worked out.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from engine import Action, AnyState
from l10n.words import t
from league.refusal import Refusal
from services.computer_turns import is_computer, move_seed
from services.follow_up import FollowUp
from services.game_service import GameService
from services.posting_port import Poster
from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage import GameRow
from services.storage import async_play as store
from services.tasks import Tasks

if TYPE_CHECKING:
    from ai.pool import Computers
    from services.storage import Database

log = logging.getLogger("meeple.scheduler")

DEFAULT_REMINDER_HOURS = 24
REMINDER_CAP = 3
WARN_BEFORE = timedelta(hours=24)
GIVE_UP_KINDS = ("concede", "resign")
# Due rows (timing columns only) read per query; whole rows, seats and states decided at once.
PAGE_SIZE = 500
BATCH_SIZE = 50
# The tick's posts: a share of Discord's global 50 requests a second (moves' boards need the
# rest), and Discord's 5 messages per 5 seconds in one channel.
POSTS_PER_SECOND = 20.0
CHANNEL_POSTS = 5
CHANNEL_WINDOW = 5.0
IN_FLIGHT = 8

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


def overlap(start: datetime, end: datetime, spans: list[tuple[datetime, datetime]]) -> timedelta:
    """How much of [start, end) the spans cover (spans may overlap each other)."""
    total = timedelta()
    cursor = start
    for span_start, span_end in sorted(spans):
        lo, hi = max(span_start, cursor), min(span_end, end)
        if hi > lo:
            total += hi - lo
            cursor = hi
    return total


def automatic_action(row: GameRow, state: AnyState, seat: int, mode: str) -> tuple[Action, str]:
    """The action the bot takes for a player out of time, and how it was chosen.

    ``forfeit`` uses the game's own concede/resign action when the rules have one; ``skip`` a
    pass when the rules allow one (the engine says which actions are which: ``action_kind``);
    otherwise (and for ``auto``) a legal move chosen at random, reproducibly from the game's
    seed and version.
    """
    actions = state.legal_actions(seat)
    if mode == "forfeit":
        for action in actions:
            if state.action_kind(action) in GIVE_UP_KINDS:
                return action, "forfeit"
    if mode == "skip":
        for action in actions:
            if state.action_kind(action) == "pass":
                return action, "skip"
    playable = [a for a in actions if state.action_kind(a) not in GIVE_UP_KINDS] or actions
    chooser = random.Random(f"{row.seed}:{row.version}:{seat}")
    return chooser.choice(playable), "auto"


def reminder_interval(row: GameRow | store.DueRow, settings: store.GuildSettings | None) -> timedelta:
    """The game's, else the server's, else the default interval between reminders."""
    hours = row.reminder_hours or (settings.reminder_hours if settings else None) or DEFAULT_REMINDER_HOURS
    return timedelta(hours=hours)


def thresholds(
    row: GameRow | store.DueRow,
    settings: store.GuildSettings | None,
    warned: bool | None = None,
    sent: int | None = None,
) -> list[timedelta]:
    """The waits (vacations left out) at which the scheduler acts on the game's current turn:
    the time limit's warning (or the limit, once warned) and the next reminder, if any is left.
    ``warned`` and ``sent`` (the wait's reminders) say what the row will say once this tick's
    warning and reminder are noted; by default, what it says."""
    if warned is None:
        warned = row.warned_version == row.version
    if sent is None:
        sent = row.reminders_sent if row.reminded_version == row.version else 0
    waits = []
    if row.time_limit_hours:
        limit = timedelta(hours=row.time_limit_hours)
        waits.append(limit if warned else limit - min(WARN_BEFORE, limit / 4))
    if row.snoozed_version != row.version:
        if sent < REMINDER_CAP:
            waits.append(reminder_interval(row, settings) * (sent + 1))
    return waits


def earliest_due(row: GameRow | store.DueRow, settings: store.GuildSettings | None) -> datetime | None:
    """The earliest the game can need the scheduler, from its row alone: nobody has waited
    longer than the time since its last change, and idle closing counts from that change too.
    None when nothing can come due at this version (no server, no limit, reminders over)."""
    times = [row.updated_at + wait for wait in thresholds(row, settings)]
    if settings is not None:
        times.append(row.updated_at + timedelta(days=settings.idle_days))
    return min(times, default=None)


class Pacer:
    """Spreads the tick's posts within Discord's rate limits.

    discord.py waits by itself for a route's bucket (a channel's messages) once Discord's headers
    have told it the bucket is empty, but of the global limit (50 requests a second for the whole
    bot) it only learns from a 429, and 429s count towards the invalid requests Discord bans for.
    So every post the tick makes (a reminder, a warning, a time-out's move and its board, an idle
    table's notice) waits here for its turn: one every ``1 / rate`` seconds overall, at most
    ``per_channel`` in ``window`` seconds in one channel, at most ``in_flight`` at once. The rest
    of the global limit is left to the boards of moves players make meanwhile.
    """

    def __init__(
        self,
        rate: float = POSTS_PER_SECOND,
        per_channel: int = CHANNEL_POSTS,
        window: float = CHANNEL_WINDOW,
        in_flight: int = IN_FLIGHT,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.rate = rate
        self.per_channel = per_channel
        self.window = window
        self.clock = clock
        self.sleep = sleep
        self._next = 0.0  # the earliest moment the next post may start
        self._recent: dict[int, deque[float]] = {}  # each channel's post starts within the window
        self._gate = asyncio.Semaphore(in_flight)
        self._running = Tasks()  # the posts under way (services/tasks.py)
        self.started = 0  # posts started, in all

    async def post(self, channel_id: int, send: Callable[[], Awaitable[object]], what: str) -> None:
        """Wait for a turn, then start ``send()`` (it runs while the caller prepares the next)."""
        while True:
            now = self.clock()
            wait = self._next - now
            recent = self._recent.get(channel_id)
            if recent:
                while recent and recent[0] <= now - self.window:
                    recent.popleft()
                if len(recent) >= self.per_channel:
                    wait = max(wait, recent[0] + self.window - now)
            if wait <= 0:
                break
            await self.sleep(wait)
        self._next = max(self._next, now) + 1 / self.rate
        self._recent.setdefault(channel_id, deque()).append(now)
        await self._gate.acquire()
        self._running.start(self._send(send, what), name=f"meeple-tick-{what}")
        self.started += 1

    async def _send(self, send: Callable[[], Awaitable[object]], what: str) -> None:
        try:
            await send()
        except Exception:
            log.exception("the scheduler could not %s", what)
        finally:
            self._gate.release()

    async def drain(self) -> None:
        """Wait for the posts started to finish; forget the channels whose window has passed."""
        await self._running.idle()
        stale = self.clock() - self.window
        for channel_id in [c for c, recent in self._recent.items() if not recent or recent[-1] <= stale]:
            del self._recent[channel_id]

    async def close(self) -> None:
        """Stop the posts still under way (a shutdown cut the tick short)."""
        await self._running.close()


@dataclass
class Plan:
    """What one tick does for one game: at most one of closing it and playing on time for a late
    player, else a warning and a reminder (each once), and else when to look again."""

    row: GameRow
    close_days: int | None = None  # closed as idle after this many days
    time_out: tuple[AnyState, int, str] | None = None  # the state, the late seat, the consequence
    warning: tuple[list[int], int, str] | None = None  # who, the hours left, the consequence in words
    reminder: tuple[int, list[int], int] | None = None  # the wait's n-th, who, the hours waited
    due: datetime | None = None  # when the game may next need the scheduler, its notes written

    @property
    def acts(self) -> bool:
        return self.close_days is not None or self.time_out is not None


class Scheduler:
    """Reminders, time limits and idle tables for every running game."""

    def __init__(
        self,
        service: GameService,
        poster: Poster,
        clock: Clock = system_clock,
        computers: Computers | None = None,
        pacer: Pacer | None = None,
        page_size: int = PAGE_SIZE,
        batch_size: int = BATCH_SIZE,
        follow_up: FollowUp | None = None,
        shards: Shards = ALL_SHARDS,
    ) -> None:
        self.service = service
        self.poster = poster  # reminders, warnings and notices in the tables' channels
        # Plays for a late player (the board, a computer taking the seat); the bot's always has one.
        self.follow_up = follow_up
        # The guilds whose games this process carries on without a click (services/shards.py).
        self.shards = shards
        self.clock = clock
        self.computers = computers  # the ``auto`` consequence plays the normal computer's move
        self.pacer = pacer or Pacer()
        self.page_size = page_size
        self.batch_size = batch_size
        self._lock = asyncio.Lock()

    @property
    def db(self) -> Database:
        return self.service.db

    async def tick(self) -> None:
        """Look at the games that may be due, and at no other; never let one game's trouble stop
        the others. Returns once everything it decided is done (its posts included).

        The due games are read a page at a time (``store.due_page``, timing columns only, keyset
        on the id), so however many are due, one page of them is in memory. Most are settled
        from these columns alone (the next due time is still ahead, seen from ``updated_at``);
        the rest are taken a batch at a time: their whole rows, seats and vacations (one query
        each) and their states, then the batch's warnings and reminders noted in one
        transaction, then the batch's posts, paced (``Pacer``). Each game looked at gets its next
        due time (as its row reads once its warning and reminder are noted), stored in one
        transaction per page: a lower bound, so a tick can look too early but never too late.
        A game played for or closed, or whose note another change got in before, is looked at
        again next tick, as is every game after a stop before its page's due times were stored.
        """
        async with self._lock:
            now = self.clock()
            settings: dict[int, store.GuildSettings] = {}
            after: int | None = 0
            while after is not None:
                page = await store.due_page(self.db, now, after, self.page_size, self.shards)
                if not page:
                    break
                # A short page is the last one: no query to find nothing after it.
                after = page[-1].id if len(page) == self.page_size else None
                missing = {row.guild_id for row in page if row.guild_id and row.guild_id not in settings}
                if missing:
                    settings.update(await store.settings_of(self.db, missing))
                dues: list[tuple[int, int, datetime | None]] = []
                near: list[int] = []
                for due_row in page:
                    earliest = earliest_due(due_row, settings.get(due_row.guild_id) if due_row.guild_id else None)
                    if earliest is not None and earliest <= now:
                        near.append(due_row.id)
                    else:
                        dues.append((due_row.id, due_row.version, earliest))
                del page
                for start in range(0, len(near), self.batch_size):
                    dues.extend(await self._batch(near[start : start + self.batch_size], now, settings))
                await store.set_due(self.db, dues)
            await self.pacer.drain()

    async def _batch(
        self, game_ids: list[int], now: datetime, settings: dict[int, store.GuildSettings]
    ) -> list[tuple[int, int, datetime | None]]:
        """Decide for a batch of games that may be due, note its warnings and reminders, make
        its posts; the next due times of the games neither played for nor closed, whose notes
        (if any) went in."""
        rows = await store.running_by_id(self.db, game_ids)
        if not rows:
            return []
        seated = await store.seat_users_of(self.db, [row.id for row in rows])
        people = {user for users in seated.values() for user in users if not is_computer(user)}
        away = await store.vacations_of(self.db, people)
        plans: list[Plan] = []
        for row in rows:
            server = settings.get(row.guild_id) if row.guild_id else None
            try:
                plans.append(await self.plan(row, now, server, seated[row.id], away))
            except Exception:
                log.exception("scheduler failed on game %s", row.id)
            await asyncio.sleep(0)  # a state decoded per game: let clicks in between
        del rows
        warned, reminded = await store.record_notices(
            self.db,
            [(p.row.id, p.row.version) for p in plans if p.warning is not None],
            [(p.row.id, p.row.version, p.reminder[0]) for p in plans if p.reminder is not None],
        )
        dues = []
        for plan in plans:
            row = plan.row
            if plan.close_days is not None:
                await self.pacer.post(row.channel_id, partial(self.close_idle, row, plan.close_days), "close")
            elif plan.time_out is not None:
                state, seat, mode = plan.time_out
                await self.pacer.post(row.channel_id, partial(self.time_out, row, state, seat, mode), "time-out")
            else:
                if plan.warning is not None and row.id in warned:
                    users, left, action = plan.warning
                    send = partial(self.poster.remind, row, users, "reminder.warning", hours=left, action=action)
                    await self.pacer.post(row.channel_id, send, "warn")
                if plan.reminder is not None and row.id in reminded:
                    nth, users, hours = plan.reminder
                    send = partial(self.poster.remind, row, users, f"reminder.{nth}", snooze=True, hours=hours)
                    await self.pacer.post(row.channel_id, send, "remind")
                if (plan.warning is None or row.id in warned) and (plan.reminder is None or row.id in reminded):
                    dues.append((row.id, row.version, plan.due))
        return dues

    def waited(
        self, row: GameRow, users: list[int], now: datetime, away: dict[int, list[tuple[datetime, datetime]]]
    ) -> dict[int, timedelta]:
        """How long each waiting user has been waited for, their vacations left out."""
        since = row.updated_at
        result = {}
        for user in users:
            result[user] = max(timedelta(), now - since - overlap(since, now, away.get(user, [])))
        return result

    async def plan(
        self,
        row: GameRow,
        now: datetime,
        settings: store.GuildSettings | None,
        users: list[int],
        away: dict[int, list[tuple[datetime, datetime]]],
    ) -> Plan:
        """Whether to close the game, play for a late player, warn or remind, and else when it
        may next be due (None: not at this version). Reads the state; writes nothing."""
        plan = Plan(row)
        idle = row.updated_at + timedelta(days=settings.idle_days) if settings else None
        if idle is not None and now >= idle:
            plan.close_days = settings.idle_days if settings else 0
            return plan
        state = await self.service.state(row)
        # Computers are never waited for (they move by themselves): no reminder, no time limit.
        seats = [s for s in state.to_move() if not is_computer(users[s])]
        waiting = self.waited(row, [users[s] for s in seats], now, away)
        if not waiting:
            plan.due = idle
            return plan
        # A time limit is fixed when the table is created (the server's default is copied then).
        limit_hours = row.time_limit_hours
        if limit_hours:
            limit = timedelta(hours=limit_hours)
            late = [s for s in seats if waiting[users[s]] >= limit]
            if late:
                plan.time_out = (state, late[0], row.timeout_action or "auto")
                return plan
            warn_at = limit - min(WARN_BEFORE, limit / 4)
            due = [users[s] for s in seats if waiting[users[s]] >= warn_at]
            if due and row.warned_version != row.version:
                left = limit - max(waiting[u] for u in due)
                action = t(f"timeout.{row.timeout_action or 'auto'}", self.poster.table_locale(row))
                plan.warning = (due, max(1, round(left.total_seconds() / 3600)), action)
        plan.reminder = self.reminder(row, seats, users, waiting, settings)
        # Waiting grows no faster than the clock, so each threshold is at least this far away;
        # the thresholds once this tick's warning and reminder are noted.
        longest = max(waiting.values())
        warned = row.warned_version == row.version or plan.warning is not None
        sent = plan.reminder[0] if plan.reminder is not None else None
        times = [now + (wait - longest) for wait in thresholds(row, settings, warned, sent)]
        if idle is not None:
            times.append(idle)
        plan.due = min(times, default=None)
        return plan

    def reminder(
        self,
        row: GameRow,
        seats: list[int],
        users: list[int],
        waiting: dict[int, timedelta],
        settings: store.GuildSettings | None,
    ) -> tuple[int, list[int], int] | None:
        """The reminder due now, if one is: the wait's n-th, whom it names, its values."""
        if row.snoozed_version == row.version:
            return None
        interval = reminder_interval(row, settings)
        sent = row.reminders_sent if row.reminded_version == row.version else 0
        if sent >= REMINDER_CAP:
            return None
        due = [users[s] for s in seats if waiting[users[s]] >= interval * (sent + 1)]
        if not due:
            return None
        return sent + 1, due, round(max(waiting[u] for u in due).total_seconds() / 3600)

    async def time_out(self, row: GameRow, state: AnyState, seat: int, mode: str) -> None:
        follow_up = self.follow_up
        assert follow_up is not None, "a scheduler that plays for late players follows up their moves"
        users = await self.service.seat_users(row.id)
        action, how = automatic_action(row, state, seat, mode)
        if how == "forfeit" and await follow_up.take_over(row.id, users[seat], "forfeit"):
            return
        if how == "auto" and self.computers is not None:
            action = await self.computer_move(row, state, seat, action)
        try:
            result = await self.service.act(
                row.id, users[seat], row.version, action.text, forfeited={seat} if how == "forfeit" else frozenset()
            )
        except Refusal as refusal:
            log.info("time-out move on game %s was refused: %s", row.id, refusal.key)
            return
        loc = self.poster.table_locale(row)
        names = self.poster.seat_names(await self.service.db.seats(row.id), loc)
        line = t(f"timeout.applied.{how}", loc, player=f"<@{users[seat]}>", action=result.worded(action, loc, names))
        await follow_up.after_move(result, before=[line], forfeited={seat} if how == "forfeit" else set())

    async def computer_move(self, row: GameRow, state: AnyState, seat: int, fallback: Action) -> Action:
        """The normal computer's move for a player out of time (it sees only what their seat
        sees: ai/ismcts.py); the random legal move if the computer cannot answer."""
        assert self.computers is not None
        try:
            text = await self.computers.decide(state, seat, "normal", move_seed(row.seed, row.version, seat))
        except Exception:
            log.exception("the computer could not move for game %s; a random legal move instead", row.id)
            return fallback
        return Action(text)

    async def close_idle(self, row: GameRow, days: int) -> None:
        await self.service.abandon(row.id)
        await self.poster.announce(row, t("game.idle-closed", self.poster.table_locale(row), days=days))
