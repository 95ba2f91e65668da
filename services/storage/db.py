"""The bot's database: games, seats, the action log and snapshots, in SQLite or PostgreSQL.

SQLite (the default): one aiosqlite connection per process, in WAL mode so other readers (a
backup, the sqlite3 shell) never block the bot. Every write runs in an explicit ``BEGIN
IMMEDIATE`` transaction, and an asyncio.Lock keeps two coroutines from interleaving statements
on the one connection. Reads take the same lock, so they never see another coroutine's
uncommitted writes. PostgreSQL (a ``postgresql://`` URL): a pool, see services.storage.pg.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

import aiosqlite

from services import metrics
from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage.connection import Connection, Link, Row
from services.storage.dialect import SQLITE_NOW
from services.storage.jobs import JobSpec, insert_jobs
from services.storage.migrate import migrate
from services.storage.pg import PgBackend, is_postgres_url
from services.storage.results import store_results

if TYPE_CHECKING:
    from league.final_results import ResultLine

GameStatus = Literal["lobby", "running", "finished", "abandoned"]
MessageKind = Literal["lobby", "board"]

SNAPSHOT_EVERY = 25
BUSY_TIMEOUT_MS = 5000

# SQLite writes every timestamp, so all rows share one clock and one format (see 0001_initial).
_NOW = SQLITE_NOW
_MESSAGE_COLUMNS: dict[str, str] = {"lobby": "lobby_message_id", "board": "board_message_id"}
_SQLITE_INT = range(-(2**63), 2**63)
_ACTIVE_IN_CHANNEL = "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')"


class StorageError(Exception):
    """A request the database cannot carry out; the message is safe to show to a player."""


class GameNotFound(StorageError, LookupError):
    """No game has this id."""


class ChannelBusy(StorageError):
    """The channel already has a game in its lobby or running."""

    def __init__(self, channel_id: int, game_id: int) -> None:
        super().__init__("There is already a game in this channel; finish or abandon it first.")
        self.channel_id = channel_id
        self.game_id = game_id


class WrongStatus(StorageError):
    """The game is not in the status this request needs (joining a running game, say)."""

    def __init__(self, game_id: int, status: str, needed: str) -> None:
        super().__init__(f"This game is {status}; that can only be done while it is {needed}.")
        self.game_id = game_id
        self.status = status


class AlreadySeated(StorageError):
    """The player already has a seat in this game."""

    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__("You are already seated in this game.")
        self.game_id = game_id
        self.user_id = user_id


class GameFull(StorageError):
    """Every seat of the game is taken."""

    def __init__(self, game_id: int, seats: int) -> None:
        super().__init__(f"This game is full ({seats} players).")
        self.game_id = game_id
        self.seats = seats


class _StaleVersion(Exception):
    """Raised inside commit_move to roll its transaction back."""


@dataclass
class CommitWatch:
    """Whether a transaction was committed since the watch began (in the same asyncio task)."""

    committed: bool = False


# Each interaction is handled in its own asyncio task, so a watch set at its start sees exactly
# the commits made while handling it: its error path can then say truthfully whether anything
# was changed.
_COMMIT_WATCH: ContextVar[CommitWatch | None] = ContextVar("meeple_commit_watch", default=None)


def watch_commits() -> CommitWatch:
    """Start watching the current task's commits (replacing any earlier watch) and return the watch."""
    watch = CommitWatch()
    _COMMIT_WATCH.set(watch)
    return watch


class _Json:
    """The raw text of a JSON column, decoded by ``_JsonColumn`` on first read."""

    __slots__ = ("text",)

    def __init__(self, text: str | None) -> None:
        self.text = text


class _JsonColumn:
    """A ``GameRow`` field holding a JSON column, decoded the first time it is read.

    Most readers of a row (the scheduler, start-up, a click's checks) never look at its state:
    decoding every state of every row read was most of the cost of a tick and of start-up.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name]
        if isinstance(value, _Json):
            value = None if value.text is None else json.loads(value.text)
            obj.__dict__[self.name] = value  # decoded once; the row stays immutable to its readers
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        # Only the dataclass __init__ gets here (frozen: its __setattr__ refuses everyone else).
        obj.__dict__[self.name] = value


@dataclass(frozen=True)
class GameRow:
    """One row of ``games``; its JSON columns (options, state, outcome) decoded on first read."""

    id: int
    game: str
    guild_id: int | None
    channel_id: int
    status: GameStatus
    options: dict[str, Any]
    seed: int
    creator_id: int
    version: int
    state: dict[str, Any] | None
    outcome: dict[str, Any] | None
    lobby_message_id: int | None
    board_message_id: int | None
    board_version: int | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    reminder_hours: int | None = None
    time_limit_hours: int | None = None
    timeout_action: str | None = None
    reminded_version: int | None = None
    reminders_sent: int = 0
    snoozed_version: int | None = None
    warned_version: int | None = None
    rules_version: int = 1
    # False for a casual table (chosen at /table create): its result never moves a rating.
    rated: bool = True
    # The language of its public posts (a catalogue: 'zh-TW'); None for a table from before languages.
    language: str | None = None
    # When its move-by-move record was compacted (MEEPLE_RETENTION_DAYS); None while it is whole.
    compacted_at: datetime | None = None

    @property
    def active(self) -> bool:
        """Whether the game still occupies its channel (lobby or running)."""
        return self.status in ("lobby", "running")

    @classmethod
    def from_row(cls, row: Row) -> GameRow:
        """Build from a ``SELECT * FROM games`` row."""
        return cls(
            id=row["id"],
            game=row["game"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            status=row["status"],
            options=cast(Any, _Json(row["options"])),
            seed=row["seed"],
            creator_id=row["creator_id"],
            version=row["version"],
            state=cast(Any, _Json(row["state"])),
            outcome=cast(Any, _Json(row["outcome"])),
            lobby_message_id=row["lobby_message_id"],
            board_message_id=row["board_message_id"],
            board_version=row["board_version"],
            created_at=_parse_time(row["created_at"]),
            updated_at=_parse_time(row["updated_at"]),
            finished_at=_parse_time(row["finished_at"]) if row["finished_at"] else None,
            reminder_hours=row["reminder_hours"],
            time_limit_hours=row["time_limit_hours"],
            timeout_action=row["timeout_action"],
            reminded_version=row["reminded_version"],
            reminders_sent=row["reminders_sent"],
            snoozed_version=row["snoozed_version"],
            warned_version=row["warned_version"],
            rules_version=row["rules_version"],
            rated=bool(row["rated"]),
            language=row["language"],
            compacted_at=_parse_time(row["compacted_at"]) if row["compacted_at"] else None,
        )


# Installed after the dataclass is made, so that it sees plain required fields; its __init__
# then stores through the descriptors (frozen dataclasses set fields with object.__setattr__).
for _field in ("options", "state", "outcome"):
    _column = _JsonColumn()
    _column.__set_name__(GameRow, _field)
    setattr(GameRow, _field, _column)
del _field, _column


@dataclass(frozen=True)
class SeatRow:
    """One row of ``seats``."""

    game_id: int
    seat: int
    user_id: int
    joined_at: datetime
    display_name: str | None = None

    @classmethod
    def from_row(cls, row: Row) -> SeatRow:
        """Build from a ``SELECT * FROM seats`` row."""
        return cls(row["game_id"], row["seat"], row["user_id"], _parse_time(row["joined_at"]), row["display_name"])


class ActionRow(NamedTuple):
    """One logged action: the version it produced, the acting seat and the action text."""

    version: int
    seat: int
    action: str


class CountedConnection:
    """An aiosqlite connection whose every statement is counted in ``meeple_db_statements_total``.

    Each call is one round trip to SQLite's thread (where aiosqlite runs it), whatever it
    returns: ``execute`` (awaited or used as a context manager), ``execute_fetchall``, an
    ``executemany`` (one, however many rows), ``rollback``. Anything else is aiosqlite's own.
    """

    __slots__ = ("raw",)

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Iterable[Any] | None = None, /) -> Any:
        metrics.DB_STATEMENTS.inc()
        return self.raw.execute(sql, parameters)

    def execute_fetchall(self, sql: str, parameters: Iterable[Any] | None = None, /) -> Any:
        metrics.DB_STATEMENTS.inc()
        return self.raw.execute_fetchall(sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> Any:
        metrics.DB_STATEMENTS.inc()
        return self.raw.executemany(sql, parameters)

    def rollback(self) -> Any:
        metrics.DB_STATEMENTS.inc()
        return self.raw.rollback()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class SqliteBackend:
    """One aiosqlite connection (WAL mode) and the lock that serialises its users."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection | CountedConnection) -> None:
        self._conn: Any = conn if isinstance(conn, CountedConnection) else CountedConnection(conn)
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[Any] | None = None

    @classmethod
    async def open(cls, path: Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> SqliteBackend:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            # busy_timeout first: switching to WAL needs a lock another process may hold.
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
                row = await cursor.fetchone()
            if row is None or row[0].lower() != "wal":
                raise StorageError(f"{path}: SQLite refused WAL mode (got {row and row[0]!r})")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    async def close(self) -> None:
        async with self.reading() as conn:
            await conn.close()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        task = asyncio.current_task()
        if task is not None and task is self._holder:
            # asyncio.Lock is not reentrant: say so rather than hang forever.
            raise RuntimeError("Database method called inside db.transaction(); use its conn")
        async with self._lock:
            self._holder = task
            try:
                yield self._conn
            finally:
                self._holder = None

    @asynccontextmanager
    async def transaction(self, game_id: int | None = None) -> AsyncIterator[aiosqlite.Connection]:
        async with self.reading() as conn:
            try:
                # Inside the try: if we are cancelled while BEGIN waits for another process's
                # lock, the BEGIN still runs in aiosqlite's thread and must be rolled back.
                await conn.execute("BEGIN IMMEDIATE")
                yield conn
                await conn.execute("COMMIT")
            except BaseException:
                # Shielded so that a second cancellation cannot leave the transaction open;
                # rollback() is a no-op if COMMIT went through before we were cancelled.
                await asyncio.shield(conn.rollback())
                raise

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        async with self.reading() as conn:
            return list(await conn.execute_fetchall(sql, tuple(params)))


class Database:
    """The bot's database; open it with ``await Database.open(path or postgresql:// URL)``.

    Both backends (SQLite, the embedded default, and PostgreSQL) take the bot's one SQL dialect
    (SQLite's: services.storage.dialect translates it for PostgreSQL) and give the same guarantees:
    a transaction is all or nothing and never interleaves with another writer's.
    """

    def __init__(self, backend: SqliteBackend | PgBackend, path: Path | None, url: str | None = None) -> None:
        self._backend = backend
        self.path = path  # the SQLite file; None on PostgreSQL
        self.url = url  # the PostgreSQL server's URL; None on SQLite
        self.dialect: Literal["sqlite", "postgresql"] = "sqlite" if path is not None else "postgresql"

    @classmethod
    async def open(cls, target: str | Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> Database:
        """Open and migrate the database: a ``postgresql://`` URL, else a SQLite file (created if needed)."""
        if is_postgres_url(target):
            url = str(target).strip()
            return cls(await PgBackend.open(url), None, url)
        path = Path(target)
        return cls(await SqliteBackend.open(path, busy_timeout_ms=busy_timeout_ms), path)

    async def close(self) -> None:
        """Wait for the transaction in progress, if any, then close the connection."""
        await self._backend.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _locked(self) -> AbstractAsyncContextManager[Connection]:
        return self._backend.reading()

    @asynccontextmanager
    async def transaction(self, game_id: int | None = None) -> AsyncIterator[Connection]:
        """Run the block as one transaction: COMMIT on success, else ROLLBACK.

        On SQLite it is ``BEGIN IMMEDIATE``, serialised with every other writer. On PostgreSQL
        too, unless ``game_id`` says the block touches only that game's rows (a move): it is then
        serialised with the other transactions of that game and with every unkeyed one.

        Use only the yielded connection inside the block; calling another Database method
        there raises RuntimeError.
        """
        with metrics.timed(metrics.TRANSACTION_SECONDS):
            async with self._backend.transaction(game_id) as conn:
                yield conn
        if (watch := _COMMIT_WATCH.get()) is not None:
            watch.committed = True

    async def write(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Run one statement that changes rows, atomic on its own, and return its rows (RETURNING).

        One round trip: no BEGIN and COMMIT around it (SQLite in autocommit mode, PostgreSQL
        outside a transaction block), for a change that a single statement makes whole (a delivery
        job's bookkeeping, the board message of a game). Anything that reads before it writes, or
        writes twice, belongs in ``transaction()``.
        """
        with metrics.timed(metrics.TRANSACTION_SECONDS):
            async with self._locked() as conn:
                rows: list[Row] = list(await conn.execute_fetchall(sql, tuple(params)))
        if (watch := _COMMIT_WATCH.get()) is not None:
            watch.committed = True
        return rows

    async def query(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Run a read-only query and return its rows (for modules that add their own tables)."""
        return await self._fetchall(sql, params)

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return await self._backend.fetchall(sql, params)

    # -- games --------------------------------------------------------------------------------

    async def create_game(
        self,
        game: str,
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        options: dict[str, Any],
        seed: int,
        creator_name: str | None = None,
        *,
        reminder_hours: int | None = None,
        time_limit_hours: int | None = None,
        timeout_action: str | None = None,
        others: Sequence[tuple[int, str | None]] = (),
        rated: bool = True,
        link: Link | None = None,
        language: str | None = None,
    ) -> GameRow:
        """Open a lobby in the channel with the creator in seat 0; raise ChannelBusy if taken.

        ``link(conn, game_id)`` runs in the same transaction, for a feature that records the new
        table as its own (a weekly challenge attempt): the table and that record, or neither.

        The table, its timing and the ``others`` seated after the creator (a rematch's players,
        as (user id, display name)) are stored in one transaction: all of it, or nothing.
        """
        if seed not in _SQLITE_INT:
            raise ValueError("the seed must fit in a signed 64-bit integer")
        options_json = _dump_json(options)
        timing = (reminder_hours, time_limit_hours, timeout_action)
        async with self.transaction() as conn:
            # The partial unique index is the guarantee; this check gives the better error.
            busy = await _fetchone(conn, _ACTIVE_IN_CHANNEL, (channel_id,))
            if busy is not None:
                raise ChannelBusy(channel_id, busy["id"])
            cursor = await conn.execute(
                "INSERT INTO games (game, guild_id, channel_id, options, seed, creator_id,"
                " reminder_hours, time_limit_hours, timeout_action, rated, language)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, guild_id, channel_id, options_json, seed, creator_id, *timing, int(rated), language),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            seated = [(creator_id, creator_name), *others]
            if len({user for user, _ in seated}) != len(seated):
                raise AlreadySeated(game_id, creator_id)
            await conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
                [(game_id, seat, user, _name(name)) for seat, (user, name) in enumerate(seated)],
            )
            if link is not None:
                await link(conn, game_id)
            return await _game(conn, game_id)

    async def get_game(self, game_id: int) -> GameRow | None:
        """Return the game, or None if there is no such id."""
        rows = await self._fetchall("SELECT * FROM games WHERE id = ?", (game_id,))
        return GameRow.from_row(rows[0]) if rows else None

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        """Return the channel's game in lobby or running, if any."""
        rows = await self._fetchall(_ACTIVE_IN_CHANNEL, (channel_id,))
        return GameRow.from_row(rows[0]) if rows else None

    async def last_started_in_channel(self, channel_id: int) -> GameRow | None:
        """Return the channel's most recently started game (any status), if any."""
        rows = await self._fetchall(
            "SELECT * FROM games WHERE channel_id = ? AND state IS NOT NULL ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return GameRow.from_row(rows[0]) if rows else None

    async def running_games(self, owned: Shards = ALL_SHARDS) -> list[GameRow]:
        """Return every running game of the guilds this process owns, oldest first (to resume them at start-up)."""
        rows = await self._fetchall(f"SELECT * FROM games WHERE status = 'running' AND {owned.sql()} ORDER BY id")
        return [GameRow.from_row(row) for row in rows]

    async def running_count(self, owned: Shards = ALL_SHARDS) -> int:
        """How many games of the guilds this process owns are running (start-up's log line)."""
        rows = await self._fetchall(f"SELECT COUNT(*) FROM games WHERE status = 'running' AND {owned.sql()}")
        return int(rows[0][0])

    async def start_game(
        self,
        game_id: int,
        state: dict[str, Any],
        seat_order: list[int] | None = None,
        jobs: Sequence[JobSpec] = (),
    ) -> GameRow:
        """Move a lobby to running with its start state (version 0, snapshotted).

        ``seat_order`` lists every seated user id in the new seat order; ``jobs`` (the first
        board, the hands) are enqueued in the same transaction. The game keeps the rules version
        of its start state (``rules_version``, 1 when the state has none).
        """
        rules_version = state.get("rules_version", 1)
        if not isinstance(rules_version, int) or isinstance(rules_version, bool) or rules_version < 1:
            raise ValueError(f"the start state's rules_version must be a positive integer, not {rules_version!r}")
        state_json = _dump_json(state)
        async with self.transaction() as conn:
            await _require_status(conn, game_id, "lobby")
            if seat_order is not None:
                seated = [seat.user_id for seat in await _seats(conn, game_id)]
                if sorted(seat_order) != sorted(seated):
                    raise ValueError("seat_order must list every seated player exactly once")
                await _reseat(conn, game_id, seat_order)
            await conn.execute(
                "UPDATE games SET status = 'running', state = ?, version = 0, rules_version = ?,"
                f" updated_at = {_NOW} WHERE id = ?",
                (state_json, rules_version, game_id),
            )
            await conn.execute(
                "INSERT INTO snapshots (game_id, version, state) VALUES (?, 0, ?)",
                (game_id, state_json),
            )
            await insert_jobs(conn, game_id, jobs)
            return await _game(conn, game_id)

    async def commit_move(
        self,
        game_id: int,
        expected_version: int,
        seat: int,
        action: str,
        state: dict[str, Any],
        outcome: dict[str, Any] | None,
        jobs: Sequence[JobSpec] = (),
        results: Sequence[ResultLine] = (),
    ) -> GameRow | None:
        """Log an action and store the state it produced, if the game is still at expected_version.

        Return the game's row as the move left it (read back by the update itself: no second
        read), or None, changing nothing, when another move got there first or the game is not
        running. A non-None ``outcome`` finishes the game. ``jobs`` (the new board, the DMs) are
        enqueued in the same transaction, so a crash cannot keep a committed move unannounced.
        ``results`` (each seat's, league.final_results.final_results) of a move that finishes the game are
        stored, and its ratings moved, in the same transaction too: only the move that finishes
        the game commits, so they are stored once.
        """
        version = expected_version + 1
        state_json = _dump_json(state)
        finish = ""
        params: list[Any] = [state_json, version]
        if outcome is not None:
            finish = f", status = 'finished', outcome = ?, finished_at = {_NOW}"
            params.append(_dump_json(outcome))
        params += [game_id, expected_version]
        try:
            async with self.transaction(game_id=game_id) as conn:
                # The guarded UPDATE goes first: a stale version then simply matches no row,
                # rather than colliding with the newer move's row in the actions log.
                updated = list(
                    await conn.execute_fetchall(
                        f"UPDATE games SET state = ?, version = ?, updated_at = {_NOW}{finish}"
                        " WHERE id = ? AND version = ? AND status = 'running' RETURNING *",
                        params,
                    )
                )
                if len(updated) != 1:
                    raise _StaleVersion
                await conn.execute(
                    "INSERT INTO actions (game_id, version, seat, action) VALUES (?, ?, ?, ?)",
                    (game_id, version, seat, action),
                )
                if version % SNAPSHOT_EVERY == 0:
                    await conn.execute(
                        "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)",
                        (game_id, version, state_json),
                    )
                await insert_jobs(conn, game_id, jobs)
                moved = GameRow.from_row(updated[0])
                if outcome is not None and results:
                    await store_results(conn, moved, results)
        except _StaleVersion:
            return None
        return moved

    async def abandon(self, game_id: int) -> bool:
        """End a lobby or running game without an outcome; return False if it was already over."""
        async with self.transaction() as conn:
            cursor = await conn.execute(
                f"UPDATE games SET status = 'abandoned', finished_at = {_NOW}, updated_at = {_NOW}"
                " WHERE id = ? AND status IN ('lobby', 'running')",
                (game_id,),
            )
            if cursor.rowcount == 0:
                await _status(conn, game_id)  # raises GameNotFound for a bad id
                return False
            return True

    async def set_language(
        self, game_id: int, language: str, computer_name: Callable[[int, str], str] | None = None
    ) -> GameRow:
        """Change a lobby's language; its computer seats are renamed in it (``computer_name(user,
        level)``) in the same transaction. Raise WrongStatus once the table has started."""
        async with self.transaction() as conn:
            await _require_status(conn, game_id, "lobby")
            await conn.execute(f"UPDATE games SET language = ?, updated_at = {_NOW} WHERE id = ?", (language, game_id))
            if computer_name is not None:
                computers = await conn.execute_fetchall(
                    "SELECT s.seat, s.user_id, c.level FROM seats s"
                    " JOIN computer_seats c ON c.game_id = s.game_id AND c.seat = s.seat WHERE s.game_id = ?",
                    (game_id,),
                )
                await conn.executemany(
                    "UPDATE seats SET display_name = ? WHERE game_id = ? AND seat = ?",
                    [(computer_name(user, level), game_id, seat) for seat, user, level in computers],
                )
            return await _game(conn, game_id)

    async def set_options(self, game_id: int, options: dict[str, Any]) -> GameRow:
        """Replace the options of a lobby; raise WrongStatus once it has started."""
        options_json = _dump_json(options)
        async with self.transaction() as conn:
            await _require_status(conn, game_id, "lobby")
            await conn.execute(
                f"UPDATE games SET options = ?, updated_at = {_NOW} WHERE id = ?", (options_json, game_id)
            )
            return await _game(conn, game_id)

    async def set_message(self, game_id: int, kind: MessageKind, message_id: int | None) -> None:
        """Remember the game's current lobby or board message (not counted as activity)."""
        column = _MESSAGE_COLUMNS.get(kind)
        if column is None:
            raise ValueError(f"unknown message kind {kind!r}; expected 'lobby' or 'board'")
        await self._update_game(game_id, f"{column} = ?", (message_id,))

    async def set_board(self, game_id: int, message_id: int, version: int) -> None:
        """Remember the current board message and the state version it shows (one statement)."""
        rows = await self.write(
            "UPDATE games SET board_message_id = ?, board_version = ? WHERE id = ? RETURNING id",
            (message_id, version, game_id),
        )
        if not rows:
            raise GameNotFound(f"There is no game {game_id}.")

    async def _update_game(self, game_id: int, assignments: str, params: tuple[Any, ...]) -> None:
        async with self.transaction() as conn:
            cursor = await conn.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*params, game_id))
            if cursor.rowcount == 0:
                raise GameNotFound(f"There is no game {game_id}.")

    # -- seats --------------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        """Return the game's seats in seat order."""
        async with self._locked() as conn:
            return await _seats(conn, game_id)

    async def join(
        self, game_id: int, user_id: int, *, max_seats: int | None = None, display_name: str | None = None
    ) -> SeatRow:
        """Seat the player in the next free seat of a lobby.

        Raise AlreadySeated, WrongStatus if the game is not a lobby, or GameFull when
        ``max_seats`` seats are already taken.
        """
        async with self.transaction() as conn:
            await _require_status(conn, game_id, "lobby")
            seats = await _seats(conn, game_id)
            if any(seat.user_id == user_id for seat in seats):
                raise AlreadySeated(game_id, user_id)
            if max_seats is not None and len(seats) >= max_seats:
                raise GameFull(game_id, max_seats)
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
                (game_id, len(seats), user_id, _name(display_name)),
            )
            row = await _fetchone(conn, "SELECT * FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            assert row is not None
            return SeatRow.from_row(row)

    async def leave(self, game_id: int, user_id: int, *, abandon_if_empty: bool = False) -> bool:
        """Unseat the player from a lobby, closing the gap; return False if not seated.

        With ``abandon_if_empty``, a lobby left with nobody is closed in the same transaction,
        so that an empty table never keeps the channel busy.
        """
        async with self.transaction() as conn:
            await _require_status(conn, game_id, "lobby")
            cursor = await conn.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            if cursor.rowcount == 0:
                return False
            remaining = [seat.user_id for seat in await _seats(conn, game_id)]
            await _reseat(conn, game_id, remaining)
            closing = f", status = 'abandoned', finished_at = {_NOW}" if abandon_if_empty and not remaining else ""
            await conn.execute(f"UPDATE games SET updated_at = {_NOW}{closing} WHERE id = ?", (game_id,))
            return True

    # -- history ------------------------------------------------------------------------------

    async def actions(self, game_id: int, after_version: int = 0) -> list[ActionRow]:
        """Return the logged actions with a version above ``after_version``, in order."""
        rows = await self._fetchall(
            "SELECT version, seat, action FROM actions WHERE game_id = ? AND version > ? ORDER BY version",
            (game_id, after_version),
        )
        return [ActionRow(row["version"], row["seat"], row["action"]) for row in rows]

    async def latest_snapshot(self, game_id: int, at_or_before: int | None = None) -> tuple[int, dict[str, Any]] | None:
        """Return (version, state) of the newest snapshot, at or before a version if given."""
        sql = "SELECT version, state FROM snapshots WHERE game_id = ?"
        params: list[Any] = [game_id]
        if at_or_before is not None:
            sql += " AND version <= ?"
            params.append(at_or_before)
        rows = await self._fetchall(sql + " ORDER BY version DESC LIMIT 1", params)
        return (rows[0]["version"], json.loads(rows[0]["state"])) if rows else None


async def _fetchone(conn: Connection, sql: str, params: Iterable[Any] = ()) -> Any:
    async with conn.execute(sql, tuple(params)) as cursor:
        return await cursor.fetchone()


async def _game(conn: Connection, game_id: int) -> GameRow:
    row = await _fetchone(conn, "SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return GameRow.from_row(row)


async def _status(conn: Connection, game_id: int) -> str:
    row = await _fetchone(conn, "SELECT status FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return row["status"]


async def _require_status(conn: Connection, game_id: int, needed: GameStatus) -> None:
    status = await _status(conn, game_id)
    if status != needed:
        raise WrongStatus(game_id, status, needed)


async def _seats(conn: Connection, game_id: int) -> list[SeatRow]:
    rows = await conn.execute_fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
    return [SeatRow.from_row(row) for row in rows]


async def _reseat(conn: Connection, game_id: int, user_ids: list[int]) -> None:
    """Give ``user_ids`` seats 0..n-1 in that order, keeping each player's joined_at."""
    row = await _fetchone(conn, "SELECT MAX(seat) FROM seats WHERE game_id = ?", (game_id,))
    if row is None or row[0] is None:
        return
    # SQLite checks the primary key row by row, so first move every seat clear of 0..n-1.
    await conn.execute("UPDATE seats SET seat = seat + ? WHERE game_id = ?", (max(row[0], len(user_ids)) + 1, game_id))
    await conn.executemany(
        "UPDATE seats SET seat = ? WHERE game_id = ? AND user_id = ?",
        [(seat, game_id, user_id) for seat, user_id in enumerate(user_ids)],
    )


def _name(name: str | None) -> str | None:
    """A display name as stored: trimmed to Discord's longest, None when blank."""
    name = (name or "").strip()
    return name[:100] or None


def _dump_json(value: dict[str, Any]) -> str:
    if not isinstance(value, dict):
        raise TypeError(f"expected a dict to store as JSON, got {type(value).__name__}")
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)
