"""Computer seats on Discord: seated like anyone, moving by themselves.

A computer takes a seat under a reserved user id (below ``COMPUTER_LIMIT``; Discord's ids are
far larger), so every seat rule of the platform holds; ``computer_seats`` (migration 0011) says
which seats are computers and at which level. When a computer's turn comes, ``ComputerTurns``
asks the search (ai/, in worker processes) for the whole turn at once, every sub-step of it
(ai/turn_budgets.py), and plays those moves through the service back to back, like clicks; only then
does it ask for the board: the delivery posts one board for the turn, worded with
every move of it. The first computer's turn after a person's move lands no sooner than
``DELAY`` after that move (a reply that lands instantly reads as a glitch, and the person's own
board gets a moment on screen), the thinking counted in it; a computer after a computer does not
wait: its turn is a board of its own, and the thinking of a hard one is pause enough. Never a
pause per sub-step: a turn is played back to back.

Thinking ahead: as soon as a computer's moves are decided, and before they are played, the
position after them is worked out (the service applies moves exactly so) and, when a computer is
to move in it, that computer's turn is searched at once in the worker pool, while the first
computer's moves are played and its board is drawn and delivered. The precomputed turn is played
only if the position it was searched for is the table's position when that computer's turn comes
(the same version and the same state, field for field); else it is discarded and the turn is
searched afresh (someone undid a move). Not when a person is to move in that position too (a step
all seats play at once): the person would likely move first, and a search a worker has begun
cannot be stopped, so it would only delay the search that counts.
The search is the one the computer would run then, from its own seat's view of that very
position (ai/turn_budgets.py): thinking ahead changes when, never what. The search sees only what its
seat sees (ai/ismcts.py); a table with a computer is never rated.

Thinking while a person thinks (``Foresight``): when a person alone is to move, the position a
computer will decide in depends on their move, so a quick search from the person's seat guesses
their likely turns (ai/guess.py, ``GUESSES`` of them); each is applied to a copy of the table's
state, and where a computer is to move after it, that computer's turn is searched in that exact
position, one search after the other. These are searches ahead (ai/pool.py): one at a time in
the process, only while no drawing is under way or waiting and a decision worker is idle, in a
worker process of their own at the lowest CPU priority (a search that counts never waits for
one). When the person's real move comes, a turn searched for exactly the position it led to
(``Ahead.fits``, the whole state) is played, still no sooner than ``DELAY`` after that move (one
still under way is hurried, ``Computers.hurry``, or else searched afresh); every other is
discarded, gives up, and the turn is searched afresh. Any change to the table (a sub-step, an undo, a
resignation, a time-out's move, the game's end) is a new position: guesses for positions it
cannot reach any more are dropped. The guess may read anything the server knows, since it only
chooses where to search: it is never logged, worded or stored, and never changes what a computer
plays (the search ahead is the very search that position would get). Nothing of it is kept
across a restart; at most ``GUESSES`` turns per table, for ``FORESEEN`` tables.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ai.ismcts import Abandoned
from ai.turn_budgets import move_seed as move_seed  # the scheduler's time-out move uses it too
from engine import AnyState, IllegalAction
from l10n.words import available_locales, listing, t
from league.refusal import Refusal
from services import metrics
from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage import computers as computer_store
from services.storage.computers import left_players as left_players  # delivery and the service read it here
from services.storage.computers import levels_of as levels_of
from services.storage.computers import recorder as recorder  # the table cog's link for a new table
from services.storage.computers import running_with_computers as running_with_computers
from services.tasks import Tasks, awaited

if TYPE_CHECKING:
    from ai.pool import Computers
    from services.game_service import GameService, MoveResult
    from services.pictures import Pictures
    from services.storage import Database
    from services.wording import GameAdapter

log = logging.getLogger("meeple.computers")

COMPUTER_LIMIT = 1000  # user ids below this are computer seats
LEVELS = ("easy", "normal", "hard")
# Least seconds from a person's move to the next computer's moves, the thinking included (only
# the first computer after a person: see the module's docstring).
DELAY = 0.8
CONCURRENCY = 8  # tables whose computers think at once, at least (ComputerTurns)
GUESSES = 3  # a person's likely turns whose computer's answer is searched while they think
FORESEEN = 16  # tables whose guesses are kept at once (the one least recently moved goes first)
FREE_POLL = 0.25  # seconds between two looks at whether a search ahead may start


def is_computer(user_id: int) -> bool:
    return 0 < user_id < COMPUTER_LIMIT


def computer_user(index: int) -> int:
    """The reserved user id of a table's ``index``-th computer (1, 2, 3...)."""
    if not 1 <= index < COMPUTER_LIMIT:
        raise ValueError("no such computer")
    return index


def name(index: int, level: str, locale: str | None = None) -> str:
    return t("computer.name", locale, number=index, level=t(f"computer.level.{level}", locale))


def reworded(user_id: int, stored: str | None, locale: str | None) -> str | None:
    """A computer seat's name in ``locale``. The seat keeps the name it was given in its table's
    language ("Bot 1 (fácil)"); a reader in another language (a past board, the log) reads it in
    theirs, its level read back from that name. A name no language gives is kept as it is."""
    if not is_computer(user_id) or stored is None:
        return stored
    for level in LEVELS:
        if any(name(user_id, level, known) == stored for known in available_locales()):
            return name(user_id, level, locale)
    return stored


def who(user_id: int, display: str | None) -> str:
    """How a seat is named in a public line: a mention for a person, the name for a computer."""
    return (display or "?") if is_computer(user_id) else f"<@{user_id}>"


def turn_line(
    adapter: GameAdapter[Any, Any, Any],
    public: dict[str, Any],
    movers: Sequence[int],
    users: Sequence[int],
    names: Sequence[str],
    locale: str,
) -> str:
    """The board's turn line: the people to move are asked to (mentioned), the computers to move
    are said to be choosing; nobody tells a computer to open My hand."""
    people = [seat for seat in movers if not is_computer(users[seat])]
    machines = [names[seat] for seat in movers if is_computer(users[seat])]
    if people:
        line = adapter.prompt(public, [who(users[seat], names[seat]) for seat in people], locale)
    else:
        line = adapter.status(public, locale)
    if machines:
        key = "computer.choosing" if len(machines) == 1 else "computer.choosing.several"
        line += "\n" + t(key, locale, computers=listing(machines, locale))
    return line


def seat_label(user_id: int, levels: Mapping[int, str], seat: int, locale: str | None) -> str:
    """How a list names a seat: a mention for a person; for a computer its name and level in the
    reader's language (a computer has no Discord account: a mention would read @unknown-user)."""
    if not is_computer(user_id):
        return f"<@{user_id}>"
    return name(user_id, levels.get(seat, "normal"), locale)


async def seat_labels(db: Database, game_id: int, user_ids: Sequence[int], locale: str | None) -> list[str]:
    """``seat_label`` of each seat of a game, in seat order (its computers' levels read only when it has one)."""
    levels = await levels_of(db, game_id) if any(is_computer(u) for u in user_ids) else {}
    return [seat_label(user, levels, seat, locale) for seat, user in enumerate(user_ids)]


async def takes_over(db: Database, game_id: int, leaving: int) -> bool:
    """Whether a computer should take ``leaving``'s seat: the table asked for it, and a person
    other than them is still playing (else the game simply ends)."""
    if not await computer_store.takeover_asked(db, game_id):
        return False
    return any(u != leaving and not is_computer(u) for u in await computer_store.seated(db, game_id))


async def take_over(db: Database, game_id: int, seat: int, leaving: int, locale: str | None) -> str:
    """A normal computer takes the seat of ``leaving`` (one transaction); its name."""

    def choose(taken: set[int]) -> tuple[int, str]:
        index = next(k for k in range(1, COMPUTER_LIMIT) if computer_user(k) not in taken)
        return computer_user(index), name(index, "normal", locale)

    return await computer_store.take_seat(db, game_id, seat, leaving, choose)


@dataclass
class Ahead:
    """A computer's turn searched before its position was played (``ComputerTurns._think_ahead``):
    valid only for that very position."""

    version: int
    seat: int
    position: dict[str, Any]  # the state it was searched in (``State.to_dict``)
    turn: asyncio.Task[list[str]]  # its moves' texts

    def fits(self, state: AnyState, seat: int) -> bool:
        return self.version == state.version and self.seat == seat and self.position == state.to_dict()


@dataclass
class Foresight:
    """A table where a person alone is to move: the version of that position, and the computer's
    turns searched for the positions their likely turns lead to (``ComputerTurns._foresee``)."""

    version: int
    guesses: list[Ahead] = field(default_factory=list)
    wanted: bool = True  # a guess from this very position is still to be made

    def discard(self) -> None:
        for guess in self.guesses:
            guess.turn.cancel()  # a search still under way gives up (ai/pool.py)
        self.guesses.clear()


class ComputerTurns:
    """Plays the computers' turns of every table, one task per table at a time, and at most
    ``concurrency`` tables at once (``CONCURRENCY``): after a restart every running table with a
    computer is poked together, and each one loads its state and queues a search; the rest
    wait their turn instead of all loading at once."""

    def __init__(
        self,
        service: GameService,
        computers: Computers,
        after_move: Callable[[MoveResult], Coroutine[Any, Any, object]],
        pictures: Pictures | None = None,
        shards: Shards = ALL_SHARDS,
        delay: float = DELAY,
        concurrency: int = 0,
    ) -> None:
        self.service = service
        self.computers = computers
        # What follows a computer's turn: its board and DMs delivered (services.follow_up.FollowUp.after_move).
        self.after_move = after_move
        self.pictures = pictures  # searches ahead wait while drawings are under way
        # The guilds whose games this process carries on without a click (services/shards.py).
        self.shards = shards
        self.delay = delay
        self.concurrency = concurrency or max(CONCURRENCY, 2 * getattr(computers, "workers", 1))
        self._slots = asyncio.Semaphore(self.concurrency)
        self._running: dict[int, asyncio.Task[None]] = {}
        self._boards: dict[int, asyncio.Task[object]] = {}  # game id -> its computer's board being delivered
        self._ahead: dict[int, Ahead] = {}  # game id -> the next computer's turn, searched ahead
        self.ahead_played = 0  # turns played from a search ahead (logs and tests)
        self.ahead_discarded = 0  # searches ahead thrown away: the position was not the one searched
        # Game id -> the person's position and the turns searched while they think, least recently moved first.
        self._foresight: OrderedDict[int, Foresight] = OrderedDict()
        self._foreseeing: asyncio.Task[None] | None = None  # the one task making those searches
        self.guess_played = 0  # a person's move led to a position searched while they thought
        self.guess_missed = 0  # it led elsewhere: those searches were discarded
        self.tasks = Tasks()  # every task above, held until it ends and cancelled at shutdown (services/tasks.py)

    def poke(self, game_id: int) -> None:
        """The table changed: if a computer is to move and nobody plays for it yet, start."""
        task = self._running.get(game_id)
        if task is not None and not task.done():
            return
        task = self.tasks.start(self._play(game_id), name=f"meeple-computer-{game_id}")
        self._running[game_id] = task
        # Forget a finished task (a bot serving thousands of tables keeps none of them).
        task.add_done_callback(functools.partial(self._forget, game_id))

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._running.get(game_id) is task:
            del self._running[game_id]

    async def idle(self) -> None:
        """Wait until no computer is thinking (tests)."""
        while any(not task.done() for task in list(self._running.values())):
            await asyncio.gather(*[t for t in list(self._running.values()) if not t.done()], return_exceptions=True)

    async def foreseen(self) -> None:
        """Wait until no search ahead of a person's move is under way or due (tests, benches)."""
        while self._foreseeing is not None and not self._foreseeing.done():
            await asyncio.wait([self._foreseeing])

    async def shutdown(self) -> None:
        await self.tasks.close()
        self._running.clear()
        self._foresight.clear()

    async def _play(self, game_id: int) -> None:
        awaited_board = None
        try:
            pause = True  # poked after a person's move (or a restart): the first turn waits DELAY
            while True:
                async with self._slots:
                    if not await self._one_turn(game_id, pause=pause):
                        break
                pause = False
            awaited_board = board = self._boards.get(game_id)
            if board is not None:
                await board
        except asyncio.CancelledError:
            board = self._boards.get(game_id)
            if board is not None:
                board.cancel()
            raise
        except Exception:
            log.exception("a computer of game %s could not move", game_id)
        finally:
            ahead = self._ahead.pop(game_id, None)
            if ahead is not None:  # nobody will play it
                ahead.turn.cancel()
            left = self._boards.pop(game_id, None)
            if left is not None and left is not awaited_board:  # nobody awaits it: its error is said here
                left.add_done_callback(functools.partial(self._board_failed, game_id))

    @staticmethod
    def _board_failed(game_id: int, board: asyncio.Task[object]) -> None:
        if not board.cancelled() and (error := board.exception()) is not None:
            log.error("the board after a computer's move in game %s failed", game_id, exc_info=error)

    async def _one_turn(self, game_id: int, pause: bool = True) -> bool:
        """Play one computer's whole turn if one is due: its moves back to back, then one request
        for the board (``after_move`` of the last move: the delivery posts the turn's boards
        as one, every move's lines on it). False when no computer is to move.

        That board is delivered in the background (``_boards``) while the table's next computer
        thinks; its moves are made once it is (the boards keep the moves' order). ``pause``: the
        turn lands no sooner than the delay after it came (the first computer after a person)."""
        service = self.service
        levels = await levels_of(service.db, game_id)
        if not levels:
            return False
        row = await service.get(game_id)
        # Another process's guild: its own process plays its computers (services/shards.py).
        if row.status != "running" or not self.shards.owns_guild(row.guild_id):
            self._drop(game_id)
            return False
        state = await service.state(row)
        due = [seat for seat in state.to_move() if seat in levels]
        if not due:
            self._want(game_id, state)
            return False
        seat = due[0]
        loop = asyncio.get_running_loop()
        began = loop.time()
        with metrics.timed(metrics.DECISION_SECONDS, level=levels[seat]):
            texts = await self._decide(game_id, state, seat, levels[seat], row.seed)
        self._think_ahead(game_id, state, seat, texts, levels, row.seed)
        board = self._boards.pop(game_id, None)
        if board is not None:
            await board
        rest = self.delay - (loop.time() - began) if pause else 0.0
        if rest > 0:
            await asyncio.sleep(rest)
        users = await service.seat_users(game_id)
        version, result = row.version, None
        for text in texts:
            try:
                result = await service.act(game_id, users[seat], version, text)
            except Refusal as refusal:  # someone else moved meanwhile (an undo): look again
                log.info("computer move of game %s refused: %s", game_id, refusal.key)
                break
            version = result.state.version
        if result is not None:
            # Awaited by ``_play``, which says its error.
            self._boards[game_id] = self.tasks.start(
                self.after_move(result), name=f"meeple-computer-board-{game_id}", on_error=awaited
            )
        return True

    async def _decide(self, game_id: int, state: AnyState, seat: int, level: str, game_seed: int) -> list[str]:
        """``seat``'s turn in ``state``: the one searched ahead for this very position if there is
        one, else searched now. A search ahead for another position is discarded."""
        foresight = self._foresight.pop(game_id, None)
        if foresight is not None:
            texts = await self._guessed(foresight, state, seat)
            if texts is not None:
                return texts
        ahead = self._ahead.pop(game_id, None)
        if ahead is not None:
            if ahead.fits(state, seat):
                try:
                    texts = await ahead.turn
                except Exception:
                    log.exception("a search ahead of game %s failed; searching again", game_id)
                else:
                    self.ahead_played += 1
                    return list(texts)
            else:
                ahead.turn.cancel()
                self.ahead_discarded += 1
                log.debug("game %s: search ahead for version %s discarded at %s", game_id, ahead.version, state.version)
        return await self.computers.play_turn(state, seat, level, game_seed)

    def _think_ahead(
        self, game_id: int, state: AnyState, seat: int, texts: Sequence[str], levels: Mapping[int, str], game_seed: int
    ) -> None:
        """Start searching the next computer's turn in the position after ``seat`` plays ``texts``
        in ``state``, if a computer is to move there (``Ahead``; ``_decide`` plays it or not)."""
        world = state.game.load(state.to_dict())
        try:
            for text in texts:
                world.apply(seat, text)
        except IllegalAction:  # cannot happen with the search's own moves; then nothing is guessed
            return
        movers = world.to_move()
        due = [s for s in movers if s in levels]
        # Not where a person is to move too (a step all seats play at once): their move would
        # likely come first and change the position, and a search the worker has begun runs on.
        if not due or len(due) < len(movers) or world.outcome() is not None:
            return
        nxt = due[0]
        turn = self.tasks.start(
            self.computers.play_turn(world, nxt, levels[nxt], game_seed),
            name=f"meeple-computer-ahead-{game_id}",
            on_error=awaited,
        )
        self._ahead[game_id] = Ahead(world.version, nxt, world.to_dict(), turn)

    # -- thinking while a person thinks ----------------------------------------------------------

    async def _guessed(self, foresight: Foresight, state: AnyState, seat: int) -> list[str] | None:
        """The turn searched while the person thought for this very position, if one was; every
        other is discarded."""
        hit = next((guess for guess in foresight.guesses if guess.fits(state, seat)), None)
        if foresight.guesses and hit is None:
            self.guess_missed += 1
        for guess in foresight.guesses:
            if guess is not hit:
                guess.turn.cancel()
        if hit is None:
            return None
        if not hit.turn.done() and not getattr(self.computers, "hurry", lambda: True)():
            hit.turn.cancel()  # it would go on at the lowest priority: searched afresh instead
            return None
        await asyncio.wait([hit.turn])
        if hit.turn.cancelled() or hit.turn.exception() is not None:
            return None
        self.guess_played += 1
        return list(hit.turn.result())

    def _want(self, game_id: int, state: AnyState) -> None:
        """A person alone is to move at ``game_id`` in ``state``: have their likely turns guessed
        and the computer's answers searched, when the workers are free."""
        movers = state.to_move()
        if len(movers) != 1 or state.outcome() is not None:
            self._drop(game_id)
            return
        if not hasattr(self.computers, "speculate_turn"):  # a pool that cannot search ahead (tests' fakes)
            return
        foresight = self._foresight.get(game_id)
        if foresight is None:
            foresight = self._foresight[game_id] = Foresight(state.version)
        elif foresight.version != state.version:
            foresight.version, foresight.wanted = state.version, True
            # Kept only while their position may still come (a person's next sub-step may lead there).
            for guess in [g for g in foresight.guesses if g.version <= state.version]:
                guess.turn.cancel()
                foresight.guesses.remove(guess)
        self._foresight.move_to_end(game_id)
        while len(self._foresight) > FORESEEN:
            self._foresight.popitem(last=False)[1].discard()
        if self._foreseeing is None or self._foreseeing.done():
            self._foreseeing = self.tasks.start(self._foresee_all(), name="meeple-computer-foresight")

    def _drop(self, game_id: int) -> None:
        foresight = self._foresight.pop(game_id, None)
        if foresight is not None:
            foresight.discard()

    async def _foresee_all(self) -> None:
        """Guess and search for the tables waiting for it, the latest moved first, one at a time."""
        while True:
            game_id = next((g for g, f in reversed(self._foresight.items()) if f.wanted), None)
            if game_id is None:
                return
            foresight = self._foresight[game_id]
            foresight.wanted = False
            try:
                await self._foresee(game_id, foresight, foresight.version)
            except Abandoned:  # a search that counted needed the worker
                pass
            except Exception as error:  # nothing of the guess is said: only that it failed
                log.warning("game %s: searching ahead failed (%s)", game_id, type(error).__name__)

    async def _foresee(self, game_id: int, foresight: Foresight, version: int) -> None:
        def current() -> bool:
            return self._foresight.get(game_id) is foresight and foresight.version == version

        if not await self._free(current):
            return
        service = self.service
        levels = await levels_of(service.db, game_id)
        row = await service.get(game_id)
        if not current() or not levels or row.status != "running" or row.version != version:
            return
        state = await service.state(row)
        movers = state.to_move()
        if len(movers) != 1 or movers[0] in levels or not await self._free(current):
            return
        person = movers[0]
        likely = await self.computers.likely_turns(state, person, GUESSES, move_seed(row.seed, version, person))
        if not current():
            return
        positions: list[tuple[AnyState, int]] = []
        for texts in likely:
            world = state.game.load(state.to_dict())
            try:
                for text in texts:
                    world.apply(person, text)
            except IllegalAction:  # cannot happen with the search's own moves; then it is left out
                continue
            after = world.to_move()
            due = [s for s in after if s in levels]
            # A computer alone, or computers alone, to move right after the person.
            if world.outcome() is None and due and len(due) == len(after):
                positions.append((world, due[0]))
        for guess in [g for g in foresight.guesses if not any(g.fits(w, s) for w, s in positions)]:
            guess.turn.cancel()
            foresight.guesses.remove(guess)
        for world, seat in positions:
            if any(guess.fits(world, seat) for guess in foresight.guesses):
                continue  # searched already, from an earlier sub-step of the person's turn
            if not await self._free(current):
                return
            turn = self.tasks.start(
                self.computers.speculate_turn(world, seat, levels[seat], row.seed),
                name=f"meeple-computer-foreseen-{game_id}",
                on_error=awaited,  # read by ``_guessed``, or by nobody once discarded
            )
            foresight.guesses.append(Ahead(world.version, seat, world.to_dict(), turn))
            await asyncio.wait([turn])  # one search ahead at a time

    async def _free(self, current: Callable[[], bool]) -> bool:
        """Wait until a search ahead may start: no drawing under way or waiting, a computer's
        worker free and no other search ahead; False once the table has moved on."""
        while not (self.computers.free and (self.pictures is None or self.pictures.idle)):
            if not current() or self.tasks.closing:
                return False
            await asyncio.sleep(FREE_POLL)
        return current() and not self.tasks.closing
