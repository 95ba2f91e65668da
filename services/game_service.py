"""The platform's game service: tables, seats and moves, for every registered game.

Cogs and components call this and nothing below it. A move is validated against the engine,
committed to SQLite in one transaction, and only then reported back. One asyncio lock per game
plus ``WHERE version = ?`` in the database make two simultaneous clicks apply exactly one move.
"""

from __future__ import annotations

import asyncio
import pickle
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from engine import GAMES, Action, AnyState, Event, Game, IllegalAction, Options, Outcome
from l10n.words import Listed, OptionRef, Phrase, available_locales, title_term
from league import final_results as results
from league.final_results import ResultLine
from league.refusal import Refusal
from services import game_options, history, metrics
from services.board_turns import turn_change
from services.computer_turns import is_computer, left_players
from services.storage import (
    AlreadySeated,
    ChannelBusy,
    Database,
    GameFull,
    GameRow,
    SeatRow,
    WrongStatus,
    async_play,
    seats_and_undo,
)
from services.storage.connection import Connection
from services.storage.jobs import JobSpec, plain
from services.wording import adapter_for

# The value of the ``options`` autocomplete's only choice for a game that has no options.
NO_OPTIONS = "none"
# What the games table accepts (see the 0003 migration); the commands offer less.
REMINDER_HOURS_MAX = 720
TIME_LIMIT_MAX = 2160
# Decoded states kept in memory, most recently used first. A state is rebuilt from its row in
# a few milliseconds, so the cache only has to hold the games being played right now.
STATE_CACHE_SIZE = 1000
# Of those, the most recently used are kept as objects; the others pickled, bytes the garbage
# collector never walks (a state is 30 to 90 containers: a thousand made every full collection
# pause 70 ms). A pickled state is back in 0.1-0.2 ms, a tenth of a load from its row.
HOT_STATES = 64


def illegal_refusal(exc: IllegalAction) -> Refusal:
    """``error.illegal`` with the engine's reason in the reader's words: a ``Phrase`` of its key and
    values (docs/ENGINE-EXTENSIONS.md), which ``t`` translates in the reader's locale."""
    reason = str(exc) if exc.key is None else Phrase(exc.key, exc.values, english=str(exc))
    return Refusal("error.illegal", reason=reason)


@dataclass(frozen=True)
class Timing:
    """Chosen at creation: reminder interval (None: the server's default), time limit, consequence."""

    reminder_hours: int | None = None
    time_limit_hours: int | None = None  # None: the server's default; 0: no limit
    timeout_action: str | None = None


def check_timing(
    reminder_hours: object, time_limit_hours: object, timeout_action: object, command: str = "table create"
) -> None:
    """Refuse, naming the option of ``command``, a timing the database would not take (or take wrongly)."""
    for option, value, high in (
        ("reminders", reminder_hours, REMINDER_HOURS_MAX),
        ("time_limit", time_limit_hours, TIME_LIMIT_MAX),
    ):
        if value is None or (option == "time_limit" and value == 0):
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise Refusal("error.option-whole-number", option=OptionRef(command, option))
        if not 1 <= value <= high:
            raise Refusal("error.option-range", option=OptionRef(command, option), low=1, high=high)
    if timeout_action not in async_play.TIMEOUT_ACTIONS:
        raise Refusal(
            "error.option-choice",
            option=OptionRef(command, "on_timeout"),
            choices=Listed(tuple(async_play.TIMEOUT_ACTIONS)),
        )


@dataclass
class MoveResult:
    row: GameRow
    state: AnyState
    seat: int
    action: str
    events: list[Event] = field(default_factory=list)
    # The acting seat's view before the move: actions are worded from it (the card taken, not
    # the one that refilled its space).
    view_before: dict[str, Any] | None = None
    # The game's seats as the move read them (empty when it did not): the answer names players from them.
    seats: list[SeatRow] = field(default_factory=list)
    # Whether the move finished the game and stored its results (and ratings) with it.
    results_recorded: bool = False

    def worded(self, action: Action, loc: str, names: Sequence[str] = ()) -> str:
        """An action as players read it, from the acting seat's point of view when it chose it
        (before the move: a card taken is named, not the one that refilled its space)."""
        view = self.view_before if self.view_before is not None else self.state.view(self.seat)
        return adapter_for(self.row.game).action_label(action, view, loc, names)


@dataclass
class StartResult:
    row: GameRow
    state: AnyState
    seats: list[int]
    events: list[Event] = field(default_factory=list)


def delivery_jobs(
    game_key: str,
    version: int,
    events: list[Event],
    players: int | None = None,
    recorded: bool = False,
    turn: dict[str, Any] | None = None,
) -> list[JobSpec]:
    """What a change must announce: the board at ``version`` (its public events, worded when it is
    posted) and a DM to each seat that received private information. ``players`` is given at
    the start, when every seat gets its hand. ``recorded``: the change finished the game and
    stored its results with it (its final board, wherever it is posted, need not). ``turn``:
    what the change did to the turn (``services.board_turns.turn_change``: a new message or an edit)."""
    public = plain([event for event in events if event.get("visible_to") is None])
    turn = turn or {}
    if players is not None:
        board = JobSpec("board", version, payload={"events": public, "started": True, **turn})
        return [board, *(JobSpec("hand", version, seat, {"reason": "game.dm.start"}) for seat in range(players))]
    pushed = adapter_for(game_key).push_events()
    by_seat: dict[int, list[Event]] = {}
    for event in events:
        seats = event.get("visible_to")
        if seats is not None and event["type"] in pushed:
            for seat in seats:
                by_seat.setdefault(seat, []).append(event)
    hands = [
        JobSpec("hand", version, seat, {"reason": "game.dm.update", "events": plain(private)})
        for seat, private in sorted(by_seat.items())
    ]
    board = JobSpec("board", version, payload={"events": public, **({"recorded": True} if recorded else {}), **turn})
    return [board, *hands]


class GameService:
    """Create, join, start and play tables; the single path every move goes through."""

    def __init__(self, db: Database, games: Mapping[str, Game] = GAMES, cache_size: int = STATE_CACHE_SIZE) -> None:
        if cache_size < 1:
            raise ValueError("the state cache must hold at least one game")
        self.db = db
        self.games = games
        self.cache_size = cache_size
        # A game's lock lives as long as someone holds or awaits it (they keep it referenced),
        # then goes: a bot that served 10,000 games keeps no lock of an idle one.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: OrderedDict[int, tuple[int, AnyState | bytes]] = OrderedDict()

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _remember(self, game_id: int, state: AnyState) -> None:
        """Cache a game's current state, forgetting the least recently used beyond the limit.

        Only the ``HOT_STATES`` most recently used are kept as objects: each call moves one game
        to the end, so at most one state crosses that line, and is pickled."""
        self._cache[game_id] = (state.version, state)
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        if len(self._cache) <= HOT_STATES:
            return
        cooled = next(islice(reversed(self._cache), HOT_STATES, None))
        version, kept = self._cache[cooled]
        if not isinstance(kept, bytes):
            try:
                self._cache[cooled] = (version, pickle.dumps(kept, pickle.HIGHEST_PROTOCOL))
            except (pickle.PicklingError, TypeError, AttributeError):
                pass  # a state that cannot be pickled stays an object

    # -- tables ---------------------------------------------------------------------------
    def parse_options(
        self, game_key: str, text: str | None, locale: str | None = None, command: str = "table create"
    ) -> Options:
        """Read ``level=2 memory=on`` (or ``等級=2``, ``nível=2``: services/game_options.py) into a validated
        options dict for ``game_key``; a refusal is worded for ``locale``, naming the ``options`` of
        ``command``."""
        game = self.game(game_key)
        words = None if (text or "").strip().lower() == NO_OPTIONS else text
        try:
            given = game_options.parse(game, words, locale)
        except game_options.OptionsRefused as refused:
            raise Refusal(
                refused.key, game=title_term(game.id, game.title), field=OptionRef(command, "options"), **refused.values
            ) from refused
        return game.resolve_options(given)

    def game(self, key: str) -> Game:
        if key not in self.games:
            raise Refusal("error.unknown-game", game=key[:40])
        return self.games[key]

    async def create(
        self,
        game_key: str,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str | None,
        options: Options,
        timing: Timing | None = None,
        others: Sequence[tuple[int, str | None]] = (),
        rated: bool = True,
        seed: int | None = None,
        link: Callable[[Connection, int], Awaitable[None]] | None = None,
        language: str | None = None,
    ) -> GameRow:
        """Open a table: the table, its timing and any ``others`` seated are stored in one transaction.

        ``language`` is the table's (its public posts'); None leaves it to the server's setting.

        ``rated=False`` makes a casual table: its result never moves a rating (league/rating_maths.py).
        ``seed`` deals a given deal (the weekly challenge) instead of a new random one; ``link``
        records the table in the same transaction (Database.create_game).
        """
        game = self.game(game_key)
        try:
            options = game.resolve_options(options)
        except ValueError as exc:
            raise Refusal("error.bad-options", reason=str(exc)) from exc
        timing = timing or Timing()
        settings = await async_play.guild_settings(self.db, guild_id) if guild_id else None
        limit = timing.time_limit_hours
        if limit is None and settings is not None:
            limit = settings.time_limit_hours
        action = timing.timeout_action or (settings.timeout_action if settings else None) or "auto"
        # Checked before anything is stored, whatever the command layer let through.
        check_timing(timing.reminder_hours, limit, action)
        try:
            row = await self.db.create_game(
                game_key,
                guild_id,
                channel_id,
                user_id,
                options,
                secrets.randbits(63) if seed is None else seed,
                creator_name=name,
                reminder_hours=timing.reminder_hours,
                time_limit_hours=limit or None,
                timeout_action=action,
                others=others,
                rated=rated,
                link=link,
                language=language or (settings.language if settings else None),
            )
        except ChannelBusy as exc:
            raise Refusal("error.channel-busy") from exc
        return row

    async def active(self, channel_id: int) -> GameRow:
        row = await self.db.active_game_in_channel(channel_id)
        if row is None:
            raise Refusal("error.no-game-here")
        return row

    async def active_or_last(self, channel_id: int) -> GameRow:
        """The channel's current game, else its most recently started one (for logs and history)."""
        row = await self.db.active_game_in_channel(channel_id)
        if row is None:
            row = await self.db.last_started_in_channel(channel_id)
        if row is None:
            raise Refusal("error.no-game-here")
        return row

    async def get(self, game_id: int) -> GameRow:
        row = await self.db.get_game(game_id)
        if row is None:
            raise Refusal("error.no-such-game")
        return row

    async def seat_users(self, game_id: int) -> list[int]:
        return [s.user_id for s in await self.db.seats(game_id)]

    async def join(self, game_id: int, user_id: int, name: str | None = None) -> GameRow:
        async with self.lock(game_id):
            row = await self.get(game_id)
            if row.status != "lobby":
                raise Refusal("error.not-in-lobby")
            game = self.game(row.game)
            try:
                await self.db.join(game_id, user_id, max_seats=game.max_players, display_name=name)
            except AlreadySeated as exc:
                raise Refusal("error.already-seated") from exc
            except GameFull as exc:
                raise Refusal("error.table-full", count=game.max_players) from exc
            except WrongStatus as exc:
                raise Refusal("error.not-in-lobby") from exc
            return await self.get(game_id)

    async def leave(self, game_id: int, user_id: int) -> GameRow:
        async with self.lock(game_id):
            row = await self.get(game_id)
            if row.status != "lobby":
                raise Refusal(f"error.leave-running.{adapter_for(row.game).give_up_command}")
            if not await self.db.leave(game_id, user_id, abandon_if_empty=True):
                raise Refusal("error.not-seated")
            return await self.get(game_id)

    async def set_option(self, game_id: int, user_id: int, name: str, raw: str) -> GameRow:
        async with self.lock(game_id):
            row = await self.get(game_id)
            if row.status != "lobby":
                raise Refusal("error.not-in-lobby")
            if user_id != row.creator_id:
                raise Refusal("error.creator-only")
            chosen = self.parse_options(row.game, f"{name}={raw}")  # from the lobby's menu: the ids
            return await self.db.set_options(game_id, {**row.options, name: chosen[name]})

    async def set_language(
        self, game_id: int, user_id: int, language: str, computer_name: Callable[[int, str], str] | None = None
    ) -> GameRow:
        """The host changes a lobby's language (its computers renamed in it); refused once started."""
        if language not in available_locales():
            raise Refusal("language.unknown")
        async with self.lock(game_id):
            row = await self.get(game_id)
            if row.status != "lobby":
                raise Refusal("language.started")
            if user_id != row.creator_id:
                raise Refusal("language.host-only")
            try:
                return await self.db.set_language(game_id, language, computer_name)
            except WrongStatus as exc:
                raise Refusal("language.started") from exc

    async def start(self, game_id: int, user_id: int) -> StartResult:
        async with self.lock(game_id):
            row = await self.get(game_id)
            if row.status != "lobby":
                raise Refusal("error.not-in-lobby")
            seats = await self.seat_users(game_id)
            if user_id not in seats:
                raise Refusal("error.not-seated")
            game = self.game(row.game)
            if not game.min_players <= len(seats) <= game.max_players:
                key = "error.player-count.exact" if game.min_players == game.max_players else "error.player-count"
                raise Refusal(
                    key,
                    game=title_term(game.id, game.title),
                    low=game.min_players,
                    high=game.max_players,
                    count=len(seats),
                )
            state = game.new(len(seats), row.seed, row.options)
            # Set-up events (who deals, the first decree card) are not part of the contract;
            # a game that keeps them offers them here.
            events = getattr(state, "setup_events", [])
            try:
                row = await self.db.start_game(
                    game_id,
                    state.to_dict(),
                    jobs=delivery_jobs(
                        row.game, 0, list(events), len(seats), turn=turn_change(row.game, None, state, events)
                    ),
                )
            except WrongStatus as exc:
                raise Refusal("error.not-in-lobby") from exc
            self._remember(game_id, state)
            return StartResult(row, state, seats, list(events))

    async def abandon(self, game_id: int) -> GameRow:
        async with self.lock(game_id):
            row = await self.get(game_id)
            if row.status not in ("lobby", "running"):
                raise Refusal("error.game-over")
            await self.db.abandon(game_id)
            self._cache.pop(game_id, None)
            return await self.get(game_id)

    # -- play -----------------------------------------------------------------------------
    async def state(self, row: GameRow) -> AnyState:
        """The current state of a running or finished game (cached by version)."""
        cached = self._cache.get(row.id)
        if cached and cached[0] == row.version:
            kept = cached[1]
            state = pickle.loads(kept) if isinstance(kept, bytes) else kept
            self._remember(row.id, state)
            return state
        if row.state is None:
            raise Refusal("error.not-started")
        state = self.game(row.game).load(row.state)
        self._remember(row.id, state)
        return state

    async def seat_of(self, row: GameRow, user_id: int) -> int | None:
        users = await self.seat_users(row.id)
        return users.index(user_id) if user_id in users else None

    async def running_seat(self, game_id: int, user_id: int) -> tuple[GameRow, int, AnyState]:
        row, _, seat, state = await self._running_seat(game_id, user_id)
        return row, seat, state

    async def _running_seat(self, game_id: int, user_id: int) -> tuple[GameRow, list[SeatRow], int, AnyState]:
        """The running game, its seats, the user's seat in it and its state."""
        row = await self.get(game_id)
        if row.status == "lobby":
            raise Refusal("error.not-started")
        if row.status != "running":
            raise Refusal("error.game-over")
        seats = await self.db.seats(game_id)
        users = [s.user_id for s in seats]
        if user_id not in users:
            raise Refusal("error.not-a-player")
        return row, seats, users.index(user_id), await self.state(row)

    async def final_results(
        self, game_id: int, outcome: Outcome | None, seats: Sequence[SeatRow], forfeited: AbstractSet[int]
    ) -> list[ResultLine]:
        """The results a move that ends the game stores with it (none while it goes on). The
        players who left a seat to a computer are looked up only when a computer is seated."""
        if outcome is None:
            return []
        users = [s.user_id for s in seats]
        left = await left_players(self.db, game_id) if any(is_computer(user) for user in users) else {}
        return results.final_results(outcome, users, forfeited, left)

    def undoable(self, game_key: str, seat: int, state: AnyState, events: list[Event]) -> bool:
        """Whether ``seat`` may take back the move that produced ``events`` (BGA's rule)."""
        revealing = self.game(game_key).revealing_events
        if revealing is None or seat not in state.to_move():
            return False
        return all(e.get("visible_to") is None and e["type"] not in revealing for e in events)

    async def undo(self, game_id: int, user_id: int, expected_version: int | None = None) -> MoveResult:
        """Take back the player's own last move, while it is still their turn and it revealed nothing."""
        async with self.lock(game_id):
            row, seat, state = await self.running_seat(game_id, user_id)
            if expected_version is not None and expected_version != row.version:
                raise Refusal("error.stale-board")
            if row.version == 0:
                raise Refusal("error.undo-nothing")
            last = (await self.db.actions(game_id, after_version=row.version - 1))[0]
            if last.seat != seat:
                raise Refusal("error.undo-not-yours")
            if seat not in state.to_move():
                raise Refusal("error.undo-turn-over")
            before = await history.state_at(self.db, row, row.version - 1)
            probe = self.game(row.game).load(before.to_dict())
            events = history.apply_logged(probe, seat, last.action)
            if not self.undoable(row.game, seat, state, events):
                raise Refusal("error.undo-revealed")
            undone = {"undo": {"seat": seat, "action": last.action}, **turn_change(row.game, state, before, [])}
            board = JobSpec("board", before.version, payload=undone)
            if not await seats_and_undo.undo_last(self.db, game_id, row.version, before.to_dict(), [board]):
                raise Refusal("error.stale-board")
            self._remember(game_id, before)
            return MoveResult(await self.get(game_id), before, seat, last.action, [])

    async def _commit(
        self,
        row: GameRow,
        seat: int,
        action: str,
        before: AnyState,
        working: AnyState,
        events: list[Event],
        final: list[ResultLine],
    ) -> GameRow:
        """Store one move (``working`` is the state after it), its boards' jobs and, when it ends
        the game, its results, in one transaction; refused if another move came first."""
        outcome = working.outcome()
        moved = await self.db.commit_move(
            row.id,
            row.version,
            seat,
            action,
            working.to_dict(),
            outcome.to_dict() if outcome else None,
            delivery_jobs(
                row.game,
                working.version,
                events,
                recorded=bool(final),
                turn=turn_change(row.game, before, working, events),
            ),
            final,
        )
        if moved is None:
            raise Refusal("error.stale-board")
        return moved

    async def resign(self, game_id: int, user_id: int) -> MoveResult:
        """The player leaves for good: the game ends with them last (the rules rank the others)."""
        async with self.lock(game_id):
            row, seats, seat, state = await self._running_seat(game_id, user_id)
            if not self.game(row.game).supports_resign():
                raise Refusal("error.resign-unsupported")
            working = self.game(row.game).load(state.to_dict())
            events = working.resign(seat)
            outcome = working.outcome()
            final = await self.final_results(game_id, outcome, seats, {seat})
            moved = await self._commit(row, seat, "resign", state, working, events, final)
            self._remember(game_id, working)
            return MoveResult(moved, working, seat, "resign", events, seats=seats, results_recorded=bool(final))

    async def hand_over(self, game_id: int, from_user: int, to_user: int, name: str | None) -> tuple[GameRow, int]:
        """Give a seat to someone who is not playing in this game."""
        async with self.lock(game_id):
            row, seat, _ = await self.running_seat(game_id, from_user)
            if not await seats_and_undo.replace_seat(self.db, game_id, seat, to_user, name):
                raise Refusal("error.already-playing")
            return await self.get(game_id), seat

    async def vote_abandon(self, game_id: int, user_id: int) -> tuple[GameRow, int, int]:
        """Count a player's vote to abandon; all seated players agreeing ends the game (the
        people: a computer seat has no vote and does not hold the others back)."""
        async with self.lock(game_id):
            await self.running_seat(game_id, user_id)
            players = sum(not is_computer(user) for user in await self.seat_users(game_id))
            votes = await seats_and_undo.vote_abandon(self.db, game_id, user_id, players=players)
            if votes >= players:
                self._cache.pop(game_id, None)
            return await self.get(game_id), votes, players

    async def rematch(self, game_id: int, user_id: int) -> GameRow:
        """A new table in the same channel, the same players seated in the same order, same options."""
        old = await self.get(game_id)
        if old.status != "finished":
            raise Refusal("error.rematch-not-over")
        seats = await self.db.seats(game_id)
        if user_id not in [s.user_id for s in seats]:
            raise Refusal("error.not-a-player")
        timing = Timing(old.reminder_hours, old.time_limit_hours or 0, old.timeout_action)
        first, rest = seats[0], seats[1:]
        return await self.create(
            old.game,
            old.guild_id,
            old.channel_id,
            first.user_id,
            first.display_name,
            old.options,
            timing,
            others=[(seat.user_id, seat.display_name) for seat in rest],
            rated=old.rated,
            language=old.language,
        )

    async def act(
        self,
        game_id: int,
        user_id: int,
        expected_version: int | None,
        action: str,
        forfeited: AbstractSet[int] = frozenset(),
    ) -> MoveResult:
        """Apply ``action`` for ``user_id``; refuse strangers, stale boards, wrong turns, illegal moves.

        A move that ends the game stores its results with it, ``forfeited`` seats last (the
        rules' concession played for a player out of time)."""
        async with self.lock(game_id):
            row = await self.get(game_id)
            if row.status == "lobby":
                raise Refusal("error.not-started")
            if row.status != "running":
                raise Refusal("error.game-over")
            seats = await self.db.seats(game_id)
            users = [s.user_id for s in seats]
            seat = users.index(user_id) if user_id in users else None
            if seat is None:
                raise Refusal("error.not-a-player")
            if expected_version is not None and expected_version != row.version:
                raise Refusal("error.stale-board")
            state = await self.state(row)
            if seat not in state.to_move():
                raise Refusal("error.not-your-turn")
            # Work on a copy so a refused or failed commit leaves the cached state untouched.
            working = self.game(row.game).load(state.to_dict())
            try:
                events = working.apply(seat, action)
            except IllegalAction as exc:
                raise illegal_refusal(exc) from exc
            outcome = working.outcome()
            final = await self.final_results(game_id, outcome, seats, forfeited)
            moved = await self._commit(row, seat, str(action), state, working, events, final)
            metrics.MOVES.labels(game=row.game).inc()
            self._remember(game_id, working)
            return MoveResult(
                moved,
                working,
                seat,
                str(action),
                events,
                view_before=state.view(seat),
                seats=seats,
                results_recorded=bool(final),
            )
