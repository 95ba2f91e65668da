"""The tournament runner: rounds that pair, open, wait, settle and announce themselves.

A tournament is a state machine kept in SQLite (migration 0010). ``advance`` looks at the newest
round and does the next step, again and again, until it has to wait for players:

1. **opening**: the round's pairings were stored with the round (one transaction). Each table is
   opened in its own thread: the thread's id is stored first, then the game is created and linked
   to its pairing in one transaction (a guard refuses a second table for a pairing), then
   started. A restart at any point re-opens only what is missing: it reuses a stored thread,
   starts a table left in its lobby, and never creates a second game for a pairing.
2. **playing**: finished tables' results are copied from the stored results (forfeits and
   resignations included) as they come; at the round's deadline every unfinished table is
   settled as the tournament says: the players being waited for forfeit, or the game is scored
   as it stands (docs/TOURNAMENTS.md).
3. **settled**: the round's results, its status and the next round's pairings (or the end of
   the tournament) are one transaction; then the standings are posted (``announced``), and the
   next round opens.

The bot calls ``advance`` when a tournament table finishes, and ``tick`` every minute, which
also catches sign-up deadlines and round deadlines.

The runner knows no Discord: it plays tables through the ``GameService`` and says what it has to
say through a ``TournamentPosting`` (services/tournament_posting_port.py), which the Discord layer
implements (bot/tournament_posting.py). Its rows are ``services.storage.tournaments``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from engine import Outcome
from l10n.words import t
from league import formats
from league.final_results import ranks as outcome_ranks
from league.refusal import Refusal
from league.tournament_records import Pairing, Round, Tournament
from services import tournament_reports as reports
from services.game_service import Timing
from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage import tournaments as store
from services.storage.connection import Connection
from services.storage.dialect import stamp
from services.storage.ratings import seeding_ratings
from services.tasks import Tasks
from services.tournament_posting_port import Attachment, TournamentPosting

if TYPE_CHECKING:
    from services.game_service import GameService
    from services.pictures import Pictures
    from services.storage import Database

log = logging.getLogger(__name__)

MAX_STEPS = 200  # steps of one advance call: far more than one round ever takes


class Runner:
    """Runs every tournament of the bot; all of its state is in the database."""

    def __init__(
        self,
        service: GameService,
        posting: TournamentPosting,
        pictures: Pictures,
        clock: Callable[[], datetime],
        shards: Shards = ALL_SHARDS,
    ) -> None:
        self.service = service
        self.posting = posting
        self.pictures = pictures  # the standings, brackets and podiums are drawn there
        self.clock = clock
        self.shards = shards
        self._locks: dict[int, asyncio.Lock] = {}
        self.tasks = Tasks()  # advances started by finished tables and by ``begin`` (services/tasks.py)

    @property
    def db(self) -> Database:
        return self.service.db

    async def language(self, tournament: Tournament) -> str:
        """The language of a tournament's posts, tables and pictures: the one it was created in;
        for a tournament from before languages were kept, its server's (``server_language``)."""
        return tournament.language or await self.posting.server_language(tournament.guild_id)

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # -- entry points --------------------------------------------------------------------------
    async def tick(self) -> None:
        """Advance every tournament in sign-up or running; one's trouble never stops the others."""
        for tournament in await store.active(self.db, self.shards):
            try:
                await self.advance(tournament.id)
            except Exception:
                log.exception("tournament %s could not advance", tournament.id)

    def table_over(self, game_id: int) -> None:
        """A table finished or was abandoned: advance its tournament soon (if it has one)."""
        self._spawn(self._table_over(game_id), f"meeple-tournament-{game_id}")

    async def _table_over(self, game_id: int) -> None:
        try:
            found = await store.pairing_of_game(self.db, game_id)
            if found is not None:
                await self.advance(found[0])
        except Exception:
            log.exception("tournament of game %s could not advance", game_id)

    async def idle(self) -> None:
        """Wait for the advances started by finished tables (tests, and a clean shutdown)."""
        await self.tasks.idle()

    async def shutdown(self) -> None:
        await self.tasks.close()

    async def advance(self, tournament_id: int) -> None:
        async with self.lock(tournament_id):
            for _ in range(MAX_STEPS):
                if not await self._step(tournament_id):
                    return
            log.error("tournament %s did not settle in %d steps", tournament_id, MAX_STEPS)

    async def _step(self, tournament_id: int) -> bool:
        """Do the next thing the tournament needs; False when it has to wait."""
        tournament = await store.get(self.db, tournament_id)
        if tournament is None:
            return False
        if tournament.status == "signup":
            deadline = tournament.signup_deadline
            if deadline is not None and self.clock() >= deadline:
                await self.start_at_deadline(tournament)
                return True
            return False
        rounds = await store.rounds(self.db, tournament_id)
        for done in rounds:
            if done.status == "settled" and not done.announced:
                await self.announce(tournament, done.number)
                return True
        if tournament.status != "running" or not rounds:
            return False
        current = rounds[-1]
        if current.status == "opening":
            await self.open_tables(tournament, current)
            return True
        if current.status == "playing":
            return await self.settle(tournament, current)
        return False

    # -- start ---------------------------------------------------------------------------------
    async def start(self, tournament: Tournament, actor_id: int) -> None:
        """Close sign-up, fix the seeds and store round 1, then open it; raise Refusal if it cannot start."""
        async with self.lock(tournament.id):
            await self._start(tournament, actor_id)
        await self.advance(tournament.id)

    async def begin(self, tournament: Tournament, actor_id: int) -> None:
        """``start`` for a command: the round is stored before this returns (or Refusal is raised),
        and its tables are opened in the background, so the organiser's answer never waits for them."""
        async with self.lock(tournament.id):
            await self._start(tournament, actor_id)
        self._spawn(self._advance_logged(tournament.id), f"meeple-tournament-open-{tournament.id}")

    async def _advance_logged(self, tournament_id: int) -> None:
        try:
            await self.advance(tournament_id)
        except Exception:
            log.exception("tournament %s could not advance", tournament_id)

    def _spawn(self, work: Any, name: str) -> None:
        """Run ``work`` in the background, kept until it ends (``idle`` waits for it)."""
        self.tasks.start(work, name)

    async def _start(self, tournament: Tournament, actor_id: int) -> None:
        """``start`` under the tournament's lock."""
        entrants = [e for e in await store.entrants(self.db, tournament.id) if e.active]
        users = [e.user_id for e in entrants]
        partners = {e.user_id: e.partner_id for e in entrants if e.partner_id}
        formats.check_start(tournament, len(users), partners)
        async with self.db.transaction() as conn:
            ratings = await _seeding(conn, tournament, users)
            rng = random.Random(tournament.seed)
            order = list(users)
            rng.shuffle(order)  # a random draw first; ratings, where known, decide
            order.sort(key=lambda u: -ratings.get(u, float("-inf")))
            await store.set_seed_order(conn, tournament.id, order)
            if tournament.format == "duplicate" and tournament.table_size == 2:
                await store.set_partners(conn, tournament.id, formats.teams_for(tournament, order, partners, rng))
            entrants_now = await store.entrants_in(conn, tournament.id)
            rounds = formats.default_rounds(tournament, len(order))
            if not await store.mark_running(conn, tournament.id, rounds):
                raise Refusal("tournament.not-in-signup")
            started = await store.tournament_in(conn, tournament.id)
            tables = formats.next_tables(started, entrants_now, [], 1)
            assert tables is not None, "a tournament that can start has a first round"
            await store.insert_round(conn, tournament.id, 1, self.round_seed(), self.deadline(started), tables)
            await store.audit(conn, tournament.id, actor_id, "start", {"entrants": len(order)})

    async def start_at_deadline(self, tournament: Tournament) -> None:
        """Sign-up closed by its deadline: start, or cancel with the reason when it cannot."""
        try:
            await self._start(tournament, tournament.organiser_id)
        except Refusal as refusal:
            await store.update(self.db, tournament.id, status="cancelled", finished_at=stamp(self.clock()))
            loc = await self.language(tournament)
            reason = t(refusal.key, loc, **refusal.values)
            await self.post(tournament, t("tournament.cancelled-at-deadline", loc, name=tournament.name, reason=reason))
        await self.refresh_signup(tournament.id)

    async def refresh_signup(self, tournament_id: int) -> None:
        """The sign-up message shows the closed sign-up (the Discord layer draws it)."""
        await self.posting.signup_changed(tournament_id)

    def round_seed(self) -> int:
        return secrets.randbits(63)

    def deadline(self, tournament: Tournament) -> datetime:
        return self.clock() + timedelta(days=tournament.round_days)

    # -- opening -------------------------------------------------------------------------------
    async def open_tables(self, tournament: Tournament, current: Round) -> None:
        """Open every table of the round at once, post the pairings, then greet each table.

        The pairings (with a link to every table's thread) are posted as soon as the tables are
        open; each table's board is drawn and posted by the delivery worker meanwhile, and its
        players are greeted in its thread once it is there (``greet_when_posted``)."""
        names = await self.names(tournament.id)
        waiting = [p for p in await store.pairings(self.db, tournament.id, current.number) if p.result is None]
        opened = await asyncio.gather(
            *(self.open_table(tournament, current, pairing, names) for pairing in waiting), return_exceptions=True
        )
        try:
            failed = [x for x in opened if isinstance(x, BaseException)]
            if failed:
                raise failed[0]  # every other table was opened first: a retry opens only what is missing
            await store.set_round_status(self.db, tournament.id, current.number, "playing")
            await self.post_pairings(tournament, current.number, names)
        finally:
            # The boards are delivered after the pairings are out, so as not to hold them up (and
            # those of the tables started here even when another failed: no retry starts them again).
            for pairing, game_id in zip(waiting, opened, strict=True):
                if isinstance(game_id, int):
                    self._spawn(
                        self.greet_when_posted(tournament, current.number, pairing, game_id),
                        f"meeple-tournament-greet-{game_id}",
                    )

    async def open_table(
        self, tournament: Tournament, current: Round, pairing: Pairing, names: dict[int, str] | None = None
    ) -> int | None:
        """Open (or finish opening) one pairing's table: thread, game, start; each step once.

        The game's id when this call started it (its players are to be greeted), else None."""
        names = names if names is not None else await self.names(tournament.id)
        thread_id = pairing.thread_id
        if pairing.game_id is None:
            if thread_id is None or not await self.posting.channel_exists(thread_id):
                thread_id = await self.make_thread(tournament, current.number, pairing, names)
                await store.set_thread(self.db, tournament.id, current.number, pairing.slot, thread_id)
            first, *others = pairing.players
            try:
                row = await self.service.create(
                    tournament.game,
                    tournament.guild_id,
                    thread_id,
                    first,
                    names.get(first),
                    dict(tournament.options),
                    Timing(None, tournament.time_limit_hours, tournament.timeout_action),
                    others=[(u, names.get(u)) for u in others],
                    rated=tournament.format != "duplicate",
                    seed=current.seed if tournament.format == "duplicate" else None,
                    link=store.linker(tournament.id, current.number, pairing.slot),
                    language=await self.language(tournament),
                )
            except store.TableExists:
                return None  # opened a moment ago by another advance
            game_id = row.id
        else:
            game_id = pairing.game_id
        row = await self.service.get(game_id)
        if row.status != "lobby":
            return None
        try:
            await self.service.start(game_id, pairing.players[0])
        except Refusal as refusal:
            log.error("tournament %s table %s cannot start: %s", tournament.id, game_id, refusal.key)
            return None
        return game_id

    async def greet_when_posted(self, tournament: Tournament, number: int, pairing: Pairing, game_id: int) -> None:
        """Have the table's first board and hands delivered; once the board is posted (or after a
        short wait), mention its players."""
        try:
            await self.posting.deliver(game_id)
            row = await self.service.get(game_id)
            await self.greet(tournament, number, pairing, row)
        except Exception:
            log.exception("tournament %s: could not greet table %s", tournament.id, game_id)

    async def make_thread(self, tournament: Tournament, number: int, pairing: Pairing, names: dict[int, str]) -> int:
        loc = await self.language(tournament)
        label = formats.table_label(tournament, pairing, loc, len(names))
        name = t(
            "tournament.thread-name",
            loc,
            name=tournament.name,
            round=number,
            table=label,
            players=" – ".join(names.get(u, "?") for u in pairing.players),
        )
        # Duplicate: a private thread, so that nobody sees another team's game of the same deal.
        private = tournament.format == "duplicate"
        return await self.posting.make_thread(tournament.channel_id, name, private, pairing.players)

    async def greet(self, tournament: Tournament, number: int, pairing: Pairing, row: Any) -> None:
        """Mention the table's players in its thread, with the round's deadline."""
        current = next(r for r in await store.rounds(self.db, tournament.id) if r.number == number)
        text = t(
            "tournament.table-open",
            self.posting.table_locale(row),
            players=" ".join(f"<@{u}>" for u in pairing.players),
            name=tournament.name,
            round=number,
            deadline=int(current.deadline.timestamp()),
            url=self.posting.board_url(row),
        )
        await self.posting.greet(row, text)

    async def post_pairings(self, tournament: Tournament, number: int, names: dict[int, str] | None = None) -> None:
        names = names if names is not None else await self.names(tournament.id)
        loc = await self.language(tournament)
        lines = [t("tournament.pairings-title", loc, name=tournament.name, round=number)]
        for pairing in await store.pairings(self.db, tournament.id, number):
            lines.append(formats.pairing_line(tournament, pairing, names, loc, mention=True))
        current = next(r for r in await store.rounds(self.db, tournament.id) if r.number == number)
        lines.append(t("tournament.round-deadline", loc, deadline=int(current.deadline.timestamp())))
        message_id = await self.post(tournament, "\n".join(lines), mentions=True)
        if message_id is not None:
            await store.set_round(self.db, tournament.id, number, pairings_message_id=message_id)

    # -- results -------------------------------------------------------------------------------
    async def table_result(self, tournament: Tournament, pairing: Pairing) -> dict[str, Any] | None:
        """The result of a pairing's table if it is over, from the stored results."""
        if pairing.game_id is None:
            return None
        row = await self.service.get(pairing.game_id)
        if row.status == "finished":
            stored = await store.game_results(self.db, row.id)
            if stored is not None:
                by_user = {u: (score, rank, won, forfeited) for u, score, rank, won, forfeited in stored}
                return {
                    "how": "played",
                    "game_id": row.id,
                    "scores": [by_user[u][0] for u in pairing.players],
                    "ranks": [by_user[u][1] for u in pairing.players],
                    "won": [by_user[u][2] for u in pairing.players],
                    "forfeited": [by_user[u][3] for u in pairing.players],
                }
            # Finished, its results not stored yet (a crash in between): the outcome says it all.
            assert row.outcome is not None
            outcome = Outcome.from_dict(row.outcome)
            return {
                "how": "played",
                "game_id": row.id,
                "scores": list(outcome.scores),
                "ranks": outcome_ranks(outcome),
                "won": [seat in outcome.winners for seat in range(len(outcome.scores))],
                "forfeited": [False] * len(outcome.scores),
            }
        if row.status == "abandoned":
            # Closed without a result (an abandon vote, an idle table): everyone lost it.
            size = len(pairing.players)
            return {
                "how": "abandoned",
                "game_id": row.id,
                "scores": [0] * size,
                "ranks": [size] * size,
                "won": [False] * size,
                "forfeited": [True] * size,
            }
        return None

    async def settle_late_table(self, tournament: Tournament, pairing: Pairing) -> dict[str, Any]:
        """Settle a table still being played at the round's deadline, as the tournament says."""
        assert pairing.game_id is not None
        row = await self.service.get(pairing.game_id)
        size = len(pairing.players)
        if row.status == "lobby" or row.state is None:
            late = list(range(size))
            scores = [0] * size
        else:
            state = await self.service.state(row)
            late = sorted(state.to_move())
            scores = [0] * size
            if tournament.settle == "score":
                standing = formats.standing_now(state)
                if standing is not None:
                    scores = list(standing.scores)
                    ranks = outcome_ranks(standing)
                    return {
                        "how": "scored",
                        "game_id": row.id,
                        "scores": scores,
                        "ranks": ranks,
                        "won": [r == 1 for r in ranks],
                        "forfeited": [False] * size,
                    }
        # The players being waited for forfeit (last, together); the others share first place.
        ranks = [size - len(late) + 1 if seat in late else 1 for seat in range(size)]
        return {
            "how": "settled",
            "game_id": row.id,
            "scores": scores,
            "ranks": ranks,
            "won": [seat not in late for seat in range(size)],
            "forfeited": [seat in late for seat in range(size)],
        }

    async def settle(self, tournament: Tournament, current: Round) -> bool:
        """Copy finished results; at the deadline settle the rest; then close the round."""
        pairings = await store.pairings(self.db, tournament.id, current.number)
        waiting = []
        for pairing in pairings:
            if pairing.result is not None:
                continue
            result = await self.table_result(tournament, pairing)
            if result is None:
                waiting.append(pairing)
            else:
                await self.store_result(tournament, pairing, result)
                await self.explain_draw(tournament, replace(pairing, result=result))
        if waiting and self.clock() < current.deadline:
            return False
        for pairing in waiting:
            result = await self.settle_late_table(tournament, pairing)
            # The settlement is stored before the table is closed: a restart in between finds
            # the result and does not settle the table a second time.
            await self.store_result(tournament, pairing, result)
            if pairing.game_id is not None:
                row = await self.service.abandon(pairing.game_id)
                key = f"tournament.settled.{result['how']}"
                late = [u for u, lost in zip(pairing.players, result["forfeited"], strict=True) if lost]
                players = " ".join(f"<@{u}>" for u in late)
                await self.posting.announce(row, t(key, self.posting.table_locale(row), players=players))
                await self.explain_draw(tournament, replace(pairing, result=result))
        await self.close_round(tournament, current.number)
        return True

    async def explain_draw(self, tournament: Tournament, pairing: Pairing) -> None:
        """A drawn elimination duel: say at its table who goes on, and why."""
        if not tournament.elimination or pairing.game_id is None or pairing.result is None:
            return
        ranks = pairing.result["ranks"]
        if len(ranks) != 2 or ranks[0] != ranks[1]:
            return
        entrants = await store.entrants(self.db, tournament.id)
        row = await self.service.get(pairing.game_id)
        names = {e.user_id: e.name for e in entrants}
        note = formats.draw_note(
            tournament, pairing, formats.seeds_of(entrants), names, self.posting.table_locale(row), mention=True
        )
        if note is not None:
            await self.posting.announce(row, note)

    async def store_result(self, tournament: Tournament, pairing: Pairing, result: dict[str, Any]) -> None:
        await store.store_result(self.db, tournament.id, pairing.round, pairing.slot, result)

    async def close_round(self, tournament: Tournament, number: int) -> None:
        """The round settled and the next one paired (or the tournament over): one transaction."""
        async with self.db.transaction() as conn:
            if await store.round_status_in(conn, tournament.id, number) != "playing":
                return
            await store.mark_settled(conn, tournament.id, number)
            fresh = await store.tournament_in(conn, tournament.id)
            entrants = await store.entrants_in(conn, tournament.id)
            history = await store.pairings_in(conn, tournament.id)
            tables = formats.next_tables(fresh, entrants, history, number + 1)
            if tables is None:
                await store.mark_finished(conn, tournament.id)
            else:
                await store.insert_round(
                    conn, tournament.id, number + 1, self.round_seed(), self.deadline(fresh), tables
                )

    # -- announcing ----------------------------------------------------------------------------
    async def announce(self, tournament: Tournament, number: int) -> None:
        """Post a settled round's standings (and the bracket, and the podium at the end)."""
        tournament = await store.get(self.db, tournament.id) or tournament
        loc = await self.language(tournament)  # once, for the text and the pictures alike
        report = await reports.make_report(self, tournament, after_round=number, loc=loc)
        last = tournament.status == "finished" and number == tournament.round
        files = [Attachment(report.standings_png, "standings.png", report.alt)]
        if report.bracket_png is not None and not last:
            files = []  # an elimination's wave: its bracket tells it; the places come with the end
        if report.bracket_png is not None:
            files.append(Attachment(report.bracket_png, "bracket.png", report.bracket_alt))
        lines = [t("tournament.round-over", loc, name=tournament.name, round=number)]
        if tournament.elimination:  # a drawn duel says who went on, and why
            entrants = await store.entrants(self.db, tournament.id)
            seeds, names = formats.seeds_of(entrants), {e.user_id: e.name for e in entrants}
            for pairing in await store.pairings(self.db, tournament.id, number):
                note = formats.draw_note(tournament, pairing, seeds, names, loc, mention=False)
                if note is not None:
                    lines.append(note)
        text = "\n".join([*lines, report.text])
        await self.post(tournament, text, files=files)
        if last:
            podium = await reports.make_podium(self, tournament)
            await self.post(
                tournament,
                podium.text,
                files=[Attachment(podium.png, "podium.png", podium.alt)],
                mentions=True,
            )
        await store.set_round(self.db, tournament.id, number, announced=1)

    async def post(
        self,
        tournament: Tournament,
        text: str,
        files: Sequence[Attachment] = (),
        mentions: bool = False,
    ) -> int | None:
        """Post in the tournament's channel; the message's id, or None if it could not be posted."""
        return await self.posting.post(tournament.channel_id, text, files, mentions)

    async def names(self, tournament_id: int) -> dict[int, str]:
        return {e.user_id: e.name for e in await store.entrants(self.db, tournament_id)}


async def _seeding(conn: Connection, tournament: Tournament, users: Sequence[int]) -> dict[int, float]:
    if tournament.format == "duplicate":
        return {}
    return await seeding_ratings(conn, tournament.guild_id, tournament.game, users)
