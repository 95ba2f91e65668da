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
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.computers import is_computer, move_seed
from bot.i18n import t
from bot.service import Refusal
from bot.storage import GameRow
from bot.storage import async_play as store
from engine import Action, State

if TYPE_CHECKING:
    from ai.pool import Computers
    from bot.flow import Flow

log = logging.getLogger("meeple.scheduler")

DEFAULT_REMINDER_HOURS = 24
REMINDER_CAP = 3
WARN_BEFORE = timedelta(hours=24)
GIVE_UP_KINDS = ("concede", "resign")

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


def automatic_action(row: GameRow, state: State, seat: int, mode: str) -> tuple[Action, str]:
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


def thresholds(row: GameRow | store.DueRow, settings: store.GuildSettings | None) -> list[timedelta]:
    """The waits (vacations left out) at which the scheduler acts on the game's current turn:
    the time limit's warning (or the limit, once warned) and the next reminder, if any is left."""
    waits = []
    if row.time_limit_hours:
        limit = timedelta(hours=row.time_limit_hours)
        waits.append(limit if row.warned_version == row.version else limit - min(WARN_BEFORE, limit / 4))
    if row.snoozed_version != row.version:
        sent = row.reminders_sent if row.reminded_version == row.version else 0
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


class Scheduler:
    """Reminders, time limits and idle tables for every running game."""

    def __init__(self, flow: Flow, clock: Clock = system_clock, computers: Computers | None = None) -> None:
        self.flow = flow
        self.clock = clock
        self.computers = computers  # the ``auto`` consequence plays the normal computer's move
        self._lock = asyncio.Lock()

    @property
    def db(self):  # noqa: ANN201 - the bot's Database
        return self.flow.service.db

    async def tick(self) -> None:
        """Look at the games that may be due, and at no other; never let one game's trouble stop
        the others.

        One query finds the games whose stored due time has come or was never worked out for
        their current version (``store.due_games``, timing columns only); their servers'
        settings come in one more. Most of those are settled from these columns alone (the next
        due time is still ahead, seen from ``updated_at``); only the rest get their whole row,
        seats and vacations (batched) and their state. Each game looked at without acting gets
        its next due time, stored in one transaction: a lower bound, so a tick can look too
        early but never too late.
        """
        async with self._lock:
            now = self.clock()
            rows = await store.due_games(self.db, now, self.flow.shards)
            if not rows:
                return
            settings = await store.settings_of(self.db, {row.guild_id for row in rows if row.guild_id})
            dues: list[tuple[int, int, datetime | None]] = []
            near: list[int] = []
            for index, due_row in enumerate(rows):
                if index and index % store.YIELD_EVERY == 0:
                    await asyncio.sleep(0)  # a long list (the first tick after an upgrade): let clicks in
                earliest = earliest_due(due_row, settings.get(due_row.guild_id) if due_row.guild_id else None)
                if earliest is not None and earliest <= now:
                    near.append(due_row.id)
                else:
                    dues.append((due_row.id, due_row.version, earliest))
            close = await store.running_by_id(self.db, near) if near else []
            if close:
                seated = await store.seat_users_of(self.db, [row.id for row in close])
                people = {user for users in seated.values() for user in users if not is_computer(user)}
                away = await store.vacations_of(self.db, people)
                for row in close:
                    try:
                        acted, due = await self.check(
                            row, now, settings.get(row.guild_id) if row.guild_id else None, seated[row.id], away
                        )
                    except Exception:
                        log.exception("scheduler failed on game %s", row.id)
                        continue
                    if not acted:  # a game that was acted on is looked at again next tick
                        dues.append((row.id, row.version, due))
            await store.set_due(self.db, dues)

    def waited(
        self, row: GameRow, users: list[int], now: datetime, away: dict[int, list[tuple[datetime, datetime]]]
    ) -> dict[int, timedelta]:
        """How long each waiting user has been waited for, their vacations left out."""
        since = row.updated_at
        result = {}
        for user in users:
            result[user] = max(timedelta(), now - since - overlap(since, now, away.get(user, [])))
        return result

    async def check(
        self,
        row: GameRow,
        now: datetime,
        settings: store.GuildSettings | None,
        users: list[int],
        away: dict[int, list[tuple[datetime, datetime]]],
    ) -> tuple[bool, datetime | None]:
        """Remind, warn, play on time or close the game if due; whether it did, and else when it
        may next be due (None: not at this version)."""
        idle = row.updated_at + timedelta(days=settings.idle_days) if settings else None
        if idle is not None and now >= idle:
            await self.close_idle(row, settings.idle_days if settings else 0)
            return True, None
        state = await self.flow.service.state(row)
        # Computers are never waited for (they move by themselves): no reminder, no time limit.
        seats = [s for s in state.to_move() if not is_computer(users[s])]
        waiting = self.waited(row, [users[s] for s in seats], now, away)
        if not waiting:
            return False, idle
        acted = False
        # A time limit is fixed when the table is created (the server's default is copied then).
        limit_hours = row.time_limit_hours
        if limit_hours:
            limit = timedelta(hours=limit_hours)
            late = [s for s in seats if waiting[users[s]] >= limit]
            if late:
                await self.time_out(row, state, late[0], row.timeout_action or "auto")
                return True, None
            warn_at = limit - min(WARN_BEFORE, limit / 4)
            due = [users[s] for s in seats if waiting[users[s]] >= warn_at]
            if due and row.warned_version != row.version:
                if await store.mark_warned(self.db, row.id, row.version):
                    acted = True
                    left = limit - max(waiting[u] for u in due)
                    await self.flow.remind(
                        row,
                        due,
                        "reminder.warning",
                        hours=max(1, round(left.total_seconds() / 3600)),
                        action=t(f"timeout.{row.timeout_action or 'auto'}", self.flow.table_locale(row)),
                    )
        acted = await self.remind(row, seats, users, waiting, settings) or acted
        # Waiting grows no faster than the clock, so each threshold is at least this far away.
        longest = max(waiting.values())
        times = [now + (wait - longest) for wait in thresholds(row, settings)]
        if idle is not None:
            times.append(idle)
        return acted, min(times, default=None)

    async def remind(
        self,
        row: GameRow,
        seats: list[int],
        users: list[int],
        waiting: dict[int, timedelta],
        settings: store.GuildSettings | None,
    ) -> bool:
        """Send the next reminder if it is due; whether one was sent."""
        if row.snoozed_version == row.version:
            return False
        interval = reminder_interval(row, settings)
        sent = row.reminders_sent if row.reminded_version == row.version else 0
        if sent >= REMINDER_CAP:
            return False
        due = [users[s] for s in seats if waiting[users[s]] >= interval * (sent + 1)]
        if not due:
            return False
        if await store.record_reminder(self.db, row.id, row.version, sent + 1):
            waited_hours = round(max(waiting[u] for u in due).total_seconds() / 3600)
            await self.flow.remind(row, due, f"reminder.{sent + 1}", hours=waited_hours, snooze=True)
            return True
        return False

    async def time_out(self, row: GameRow, state: State, seat: int, mode: str) -> None:
        users = await self.flow.service.seat_users(row.id)
        action, how = automatic_action(row, state, seat, mode)
        if how == "forfeit" and await self.flow.take_over(row.id, users[seat], "forfeit"):
            return
        if how == "auto" and self.computers is not None:
            action = await self.computer_move(row, state, seat, action)
        try:
            result = await self.flow.service.act(row.id, users[seat], row.version, action.text)
        except Refusal as refusal:
            log.info("time-out move on game %s was refused: %s", row.id, refusal.key)
            return
        line = t(
            f"timeout.applied.{how}",
            self.flow.table_locale(row),
            player=f"<@{users[seat]}>",
            action=self.flow.action_words(
                row, result, action, names=await self.flow.names(row.id, self.flow.table_locale(row))
            ),
        )
        await self.flow.after_move(result, before=[line], forfeited={seat} if how == "forfeit" else set())

    async def computer_move(self, row: GameRow, state: State, seat: int, fallback: Action) -> Action:
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
        await self.flow.service.abandon(row.id)
        await self.flow.announce(row, t("game.idle-closed", self.flow.table_locale(row), days=days))
