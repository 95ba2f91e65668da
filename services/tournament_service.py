"""Tournaments as a service: who may do what to a tournament, and doing it (docs/TOURNAMENTS.md).

Creating one, signing up and leaving, starting it, dropping out, and the organisers' tools
(remove, replace, set a result, extend or end a round, cancel): every check and every refusal is
here, async and without Discord. The ``/tournament`` cog only turns an interaction into a call
and the answer into a message; the rounds themselves are run by the ``Runner``, and what is said
in public goes through its ``TournamentPosting``.

Organisers are members with Manage Server or the table-creator role of ``/meeple settings``; a
tournament's own tools belong to its organiser and to anyone with Manage Server.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from engine import GAMES
from l10n.words import OptionRef, t
from league import formats
from league.refusal import Refusal
from league.tournament_records import FORMATS, AuditLine, Entrant, Pairing, Round, Tournament
from services.game_service import check_timing
from services.storage import async_play
from services.storage import tournaments as store

if TYPE_CHECKING:
    from services.game_service import GameService
    from services.storage import Database
    from services.tournament_posting_port import TournamentPosting
    from services.tournament_runner import Runner

RANKS = re.compile(r"^\s*\d+(\s*[ ,]\s*\d+)*\s*$")
LIVE = ("signup", "running")


@dataclass(frozen=True)
class Member:
    """Who uses a tournament command: their Discord id, the name they show, and their rights on
    the server (Manage Server, their roles)."""

    user_id: int
    name: str = ""
    manages_server: bool = False
    role_ids: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Person:
    """A user a command names (a partner, a player, a substitute)."""

    user_id: int
    name: str = ""
    bot: bool = False


@dataclass(frozen=True)
class Settings:
    """What ``/tournament create`` was given (None: the format's default)."""

    name: str
    game: str
    format: str
    players_per_table: int | None = None
    rounds: int | None = None
    days_per_round: int = 7
    options: str | None = None
    time_limit: int | None = None
    on_timeout: str | None = None
    unfinished: str = "forfeit"
    best_of: int = 1
    advance: int = 1
    cap: int | None = None
    signup_days: int | None = None
    language: str | None = None


class TournamentService:
    """The rules of tournaments' sign-up and organiser tools, over the storage and the runner."""

    def __init__(
        self, games: GameService, runner: Runner, clock: Callable[[], datetime], languages: Collection[str]
    ) -> None:
        self.games = games
        self.runner = runner
        self.clock = clock
        self.languages = languages  # the languages a tournament may speak

    @property
    def db(self) -> Database:
        return self.games.db

    @property
    def posting(self) -> TournamentPosting:
        return self.runner.posting

    # -- finding a tournament -------------------------------------------------------------------
    async def get(self, tournament_id: int) -> Tournament:
        found = await store.get(self.db, tournament_id)
        if found is None:
            raise Refusal("tournament.unknown")
        return found

    async def pick(
        self, guild_id: int, tournament_id: int | None, here: Iterable[int | None], command: str
    ) -> Tournament:
        """The tournament named, else the one of the channel ``here`` (a channel and its parent),
        else the server's only live one; ``command`` is named when the choice is not clear."""
        if tournament_id is not None:
            found = await self.get(tournament_id)
            if found.guild_id != guild_id:
                raise Refusal("tournament.unknown")
            return found
        current = await store.of_guild(self.db, guild_id)
        channels = set(here)
        live = [x for x in current if x.status in LIVE]
        for candidates in (
            [x for x in live if x.channel_id in channels],
            [x for x in current if x.channel_id in channels],
            live,
        ):
            if len(candidates) == 1:
                return candidates[0]
            if candidates:
                raise Refusal("tournament.which", option=OptionRef(command, "tournament"))
        raise Refusal("tournament.none")

    async def may_organise(self, member: Member, guild_id: int, tournament: Tournament | None = None) -> bool:
        """A tournament's tools: its organiser or Manage Server. A new tournament: Manage Server or
        the server's table-creator role."""
        if member.manages_server:
            return True
        if tournament is not None:
            return member.user_id == tournament.organiser_id
        role = (await async_play.guild_settings(self.db, guild_id)).creator_role_id
        return role is not None and role in member.role_ids

    async def require_organiser(self, member: Member, tournament: Tournament) -> None:
        if not await self.may_organise(member, tournament.guild_id, tournament):
            raise Refusal("tournament.organiser-only")

    async def organised(
        self, member: Member, guild_id: int, tournament_id: int | None, here: Iterable[int | None], command: str
    ) -> Tournament:
        """An organiser tool's tournament: found as ``pick`` finds it, the member's rights checked."""
        chosen = await self.pick(guild_id, tournament_id, here, command)
        await self.require_organiser(member, chosen)
        return chosen

    # -- reads ----------------------------------------------------------------------------------
    async def of_guild(self, guild_id: int, statuses: Sequence[str] | None = None) -> list[Tournament]:
        return await store.of_guild(self.db, guild_id, statuses)

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        return await store.entrants(self.db, tournament_id)

    async def pairings(self, tournament_id: int, round_number: int | None = None) -> list[Pairing]:
        return await store.pairings(self.db, tournament_id, round_number)

    async def audit_log(self, tournament_id: int) -> list[AuditLine]:
        return await store.audit_log(self.db, tournament_id)

    async def names(self, tournament_id: int) -> dict[int, str]:
        return await self.runner.names(tournament_id)

    # -- create and sign-up ---------------------------------------------------------------------
    async def create(
        self,
        member: Member,
        guild_id: int,
        channel_id: int | None,
        settings: Settings,
        loc: str,
        preferred: str | None = None,
    ) -> Tournament:
        """A new tournament in sign-up. ``channel_id`` is None when the command was not used in a
        text channel; ``loc`` words a refusal of the options, ``preferred`` is the server's locale."""
        game = settings.game
        if not await self.may_organise(member, guild_id):
            raise Refusal("tournament.create-rights")
        if game not in GAMES:
            raise Refusal("error.option-invalid")
        if settings.format not in FORMATS:
            raise Refusal("error.option-invalid")
        if settings.language is not None and settings.language not in self.languages:
            raise Refusal("language.unknown")
        size = formats.check_settings(
            game, settings.format, settings.players_per_table, settings.rounds, settings.best_of, settings.advance
        )
        parsed = self.games.parse_options(game, settings.options, loc, "tournament create")
        try:
            parsed = GAMES[game].resolve_options(parsed)
        except ValueError as exc:
            raise Refusal("error.bad-options", reason=str(exc)) from exc
        if settings.time_limit:
            check_timing(None, settings.time_limit, settings.on_timeout or "auto", "tournament create")
        if channel_id is None:
            raise Refusal("tournament.text-channel")
        deadline = self.clock() + timedelta(days=settings.signup_days) if settings.signup_days else None
        # Fixed now, as a table's is: a later change of the server's setting leaves it alone.
        language = settings.language or await self.posting.server_language(guild_id, preferred)
        return await store.create(
            self.db,
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=member.user_id,
            name=settings.name.strip() or GAMES[game].title,
            game=game,
            options=parsed,
            format=settings.format,
            table_size=size,
            rounds=settings.rounds,
            best_of=settings.best_of,
            advance=settings.advance,
            round_days=settings.days_per_round,
            time_limit_hours=settings.time_limit or None,
            timeout_action=(settings.on_timeout or "auto") if settings.time_limit else None,
            settle=settings.unfinished,
            cap=settings.cap,
            signup_deadline=deadline,
            seed=secrets.randbits(63),
            language=language,
        )

    async def signup_posted(self, tournament_id: int, message_id: int) -> None:
        """The sign-up message was posted: it is kept up to date from now on."""
        await store.update(self.db, tournament_id, signup_message_id=message_id)

    async def join(self, tournament: Tournament, member: Member, partner: Person | None) -> str:
        """Sign ``member`` up (with a Fox Duet partner): 'joined', or 'partner' when an entrant
        only named their partner; refuses otherwise."""
        if tournament.status != "signup":
            raise Refusal("tournament.signup-closed", name=tournament.name)
        partner_id = None
        if partner is not None:
            if not (tournament.format == "duplicate" and tournament.table_size == 2):
                raise Refusal("tournament.partner-not-here")
            if partner.user_id == member.user_id or partner.bot:
                raise Refusal("challenge.partner-invalid")
            partner_id = partner.user_id
        outcome = await store.join(self.db, tournament.id, member.user_id, member.name, partner_id, tournament.cap)
        if outcome == "already" and partner_id is not None:
            await store.set_partner(self.db, tournament.id, member.user_id, partner_id)
            outcome = "partner"
        if outcome == "already":
            raise Refusal("tournament.already-in", name=tournament.name)
        if outcome == "removed":
            raise Refusal("tournament.removed-you", name=tournament.name)
        if outcome == "full":
            raise Refusal("tournament.full", cap=tournament.cap or 0)
        if outcome == "closed":
            raise Refusal("tournament.signup-closed", name=tournament.name)
        await self.posting.signup_changed(tournament.id)
        return outcome

    async def leave(self, tournament: Tournament, user_id: int) -> None:
        """Leave during sign-up."""
        if tournament.status != "signup":
            raise Refusal("tournament.leave-started")
        if not await store.leave_signup(self.db, tournament.id, user_id):
            raise Refusal("tournament.not-in", name=tournament.name)
        await self.posting.signup_changed(tournament.id)

    async def drop(self, tournament: Tournament, user_id: int) -> str:
        """Leave for good: 'left' during sign-up, 'dropped' (said in public) once it runs."""
        if tournament.status == "signup":
            await self.leave(tournament, user_id)
            return "left"
        if tournament.status != "running":
            raise Refusal("tournament.over", name=tournament.name)
        if not await store.set_status(self.db, tournament.id, user_id, "dropped"):
            raise Refusal("tournament.not-in", name=tournament.name)
        public = await self.runner.language(tournament)
        await self.runner.post(tournament, t("tournament.dropped-public", public, user=user_id))
        return "dropped"

    async def start(self, tournament: Tournament, member: Member) -> None:
        """Close sign-up and store round 1 (its tables open in the background)."""
        await self.require_organiser(member, tournament)
        if tournament.status != "signup":
            raise Refusal("tournament.not-in-signup")
        await self.runner.begin(tournament, member.user_id)
        await self.posting.signup_changed(tournament.id)

    # -- organiser tools ------------------------------------------------------------------------
    async def remove(self, tournament: Tournament, member: Member, player: Person, reason: str) -> None:
        """Remove a player: their future tables are not paired."""
        await self.require_organiser(member, tournament)
        if tournament.status not in LIVE:
            raise Refusal("tournament.over", name=tournament.name)
        async with self.db.transaction() as conn:
            if not await store.remove_entrant(conn, tournament.id, player.user_id):
                raise Refusal("tournament.not-entrant", user=player.user_id)
            await store.audit(conn, tournament.id, member.user_id, "remove", {"user": player.user_id}, reason)
        await self.posting.signup_changed(tournament.id)

    async def replace(
        self, tournament: Tournament, member: Member, player: Person, substitute: Person, reason: str
    ) -> None:
        """A substitute takes a player's place, record and seat at their current table."""
        await self.require_organiser(member, tournament)
        if tournament.status not in LIVE:
            raise Refusal("tournament.over", name=tournament.name)
        if substitute.bot or substitute.user_id == player.user_id:
            raise Refusal("tournament.bad-substitute")
        entrants = {e.user_id: e for e in await store.entrants(self.db, tournament.id)}
        if player.user_id not in entrants or not entrants[player.user_id].active:
            raise Refusal("tournament.not-entrant", user=player.user_id)
        if substitute.user_id in entrants:
            raise Refusal("tournament.already-entrant", user=substitute.user_id)
        current = await store.pairings(self.db, tournament.id, tournament.round) if tournament.round else []
        # The seat at a running table first: it refuses (changing nothing) if impossible.
        for pairing in current:
            if player.user_id in pairing.players and pairing.game_id is not None and pairing.result is None:
                row = await self.games.get(pairing.game_id)
                if row.status == "running":
                    row, seat = await self.games.hand_over(row.id, player.user_id, substitute.user_id, substitute.name)
                    await self.posting.seat_changed(
                        row,
                        seat,
                        substitute.user_id,
                        "seat.replaced",
                        old=f"<@{player.user_id}>",
                        mod=f"<@{member.user_id}>",
                    )
        async with self.db.transaction() as conn:
            await store.substitute(conn, tournament.id, entrants[player.user_id], substitute.user_id, substitute.name)
            detail = {"old": player.user_id, "new": substitute.user_id}
            await store.audit(conn, tournament.id, member.user_id, "replace", detail, reason)
        await self.posting.signup_changed(tournament.id)

    async def set_result(
        self, tournament: Tournament, member: Member, table: int, ranks: str, reason: str, round_number: int | None
    ) -> int:
        """Set or correct a table's result (ranks in seat order, as typed); an open table is closed
        with it. The round's number."""
        await self.require_organiser(member, tournament)
        if tournament.status != "running":
            raise Refusal("tournament.over", name=tournament.name)
        number = round_number or tournament.round
        tables = await store.pairings(self.db, tournament.id, number)
        if not 1 <= table <= len(tables):
            raise Refusal("tournament.no-table", table=table, round=number)
        pairing = tables[table - 1]
        if not RANKS.match(ranks):
            raise Refusal("tournament.bad-ranks", size=len(pairing.players))
        given = [int(x) for x in re.split(r"[ ,]+", ranks.strip())]
        if (
            len(given) != len(pairing.players)
            or len(pairing.players) < 2
            or not all(1 <= r <= len(given) for r in given)
        ):
            raise Refusal("tournament.bad-ranks", size=len(pairing.players))
        # Elsewhere a past round's correction changes the standings, not the pairings made since.
        if number != tournament.round and tournament.elimination:
            raise Refusal("tournament.elimination-past")
        rounds = {r.number: r for r in await store.rounds(self.db, tournament.id)}
        if tournament.elimination and number == tournament.round and rounds[number].status == "settled":
            raise Refusal("tournament.elimination-past")
        scores = pairing.result["scores"] if pairing.result else [0] * len(given)
        entry = {
            "how": "organiser",
            "game_id": pairing.game_id,
            "scores": scores,
            "ranks": given,
            "won": [r == 1 for r in given],
            "forfeited": [False] * len(given),
        }
        detail: dict[str, Any] = {
            "round": number,
            "table": table,
            "ranks": [list(p) for p in zip(pairing.players, given, strict=True)],
        }
        async with self.db.transaction() as conn:
            await store.set_result(conn, tournament.id, number, pairing.slot, entry)
            await store.audit(conn, tournament.id, member.user_id, "result", detail, reason)
        if pairing.game_id is not None:
            row = await self.games.get(pairing.game_id)
            if row.status in ("lobby", "running"):
                row = await self.games.abandon(row.id)
                closed = t("tournament.closed-by-organiser", self.posting.table_locale(row), reason=reason)
                await self.posting.announce(row, closed)
        await self.runner.advance(tournament.id)
        return number

    async def current_round(self, tournament: Tournament) -> Round:
        if tournament.status != "running":
            raise Refusal("tournament.over", name=tournament.name)
        rounds = await store.rounds(self.db, tournament.id)
        if not rounds or rounds[-1].status == "settled":
            raise Refusal("tournament.no-round", round=tournament.round)
        return rounds[-1]

    async def _set_deadline(
        self, tournament: Tournament, member: Member, number: int, deadline: datetime, what: str, detail: dict[str, Any]
    ) -> None:
        """Move the current round's deadline, in the audit log."""
        async with self.db.transaction() as conn:
            await store.move_deadline(conn, tournament.id, number, deadline)
            await store.audit(conn, tournament.id, member.user_id, what, detail, "")

    async def extend(self, tournament: Tournament, member: Member, days: int) -> datetime:
        """Give the current round more time (said in public); its new deadline."""
        await self.require_organiser(member, tournament)
        current = await self.current_round(tournament)
        deadline = current.deadline + timedelta(days=days)
        detail = {"round": current.number, "days": days}
        await self._set_deadline(tournament, member, current.number, deadline, "extend", detail)
        public = await self.runner.language(tournament)
        when = int(deadline.timestamp())
        await self.runner.post(tournament, t("tournament.extended-public", public, round=current.number, deadline=when))
        return deadline

    async def end_round(self, tournament: Tournament, member: Member) -> int:
        """End the current round now: unfinished tables are settled as for its deadline. Its number."""
        await self.require_organiser(member, tournament)
        current = await self.current_round(tournament)
        now = self.clock()
        await self._set_deadline(tournament, member, current.number, now, "end-round", {"round": current.number})
        await self.runner.advance(tournament.id)
        return current.number

    async def cancel(self, tournament: Tournament, member: Member, reason: str) -> None:
        """Cancel the tournament (said in public); its open tables become friendly games."""
        await self.require_organiser(member, tournament)
        async with self.db.transaction() as conn:
            if not await store.cancel(conn, tournament.id):
                raise Refusal("tournament.over", name=tournament.name)
            await store.audit(conn, tournament.id, member.user_id, "cancel", {}, reason)
        await self.posting.signup_changed(tournament.id)
        public = await self.runner.language(tournament)
        await self.runner.post(
            tournament, t("tournament.cancelled-public", public, name=tournament.name, reason=reason)
        )
