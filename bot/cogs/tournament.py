"""The ``/tournament`` command group: sign-up, rounds that run themselves, and organiser tools.

Organisers are members with Manage Server or the table-creator role of ``/meeple settings``; a
tournament's own tools (start, results, rounds, players, cancel) belong to its organiser and to
anyone with Manage Server. docs/TOURNAMENTS.md has the formats and every choice.
"""

from __future__ import annotations

import io
import json
import re
import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from babel import dates as babel_dates
from discord import app_commands
from discord.ext import commands

from bot.answers import locale_of
from bot.cogs import GAME_CHOICES, TIME_LIMIT_CHOICES, TIMEOUT_CHOICES, guild_of
from bot.cogs.table import OPTIONS_TEXT_LIMIT, option_choices
from bot.flow import clip, jump_url
from bot.i18n import OptionRef, game_title, has, listing, series, t
from bot.languages import LANGUAGE_CHOICES, LANGUAGES, guild_locale
from bot.service import Refusal, check_timing
from bot.storage import async_play
from bot.tournaments import formats, store
from bot.tournaments.store import Tournament
from bot.ui import Answered
from engine import GAMES

if TYPE_CHECKING:
    from bot.client import MeepleBot
    from bot.flow import Flow
    from bot.storage import Database
    from bot.tournaments.runner import Runner

PREFIX = "mp"
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss (pods when tables of 3-4)", value="swiss"),
    app_commands.Choice(name="Round robin", value="round-robin"),
    app_commands.Choice(name="Single elimination (pods when tables of 3-4)", value="single"),
    app_commands.Choice(name="Double elimination", value="double"),
    app_commands.Choice(name="Duplicate (same deal for all: Fox Duet, solo modes)", value="duplicate"),
]
SETTLE_CHOICES = [
    app_commands.Choice(name="The players being waited for forfeit", value="forfeit"),
    app_commands.Choice(name="The game is scored as it stands", value="score"),
]
BEST_OF_CHOICES = [app_commands.Choice(name="Best of 1", value=1), app_commands.Choice(name="Best of 3", value=3)]
LIST_LIMIT = 20
RANKS = re.compile(r"^\s*\d+(\s*[ ,]\s*\d+)*\s*$")


def runner_of(bot: Any) -> Runner:
    runner = getattr(bot, "tournaments", None)
    assert runner is not None, "the runner is made in setup_hook, before the cogs"
    return runner


class SignupButton(
    Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:tour:(?P<tid>\d+):(?P<op>join|leave)"
):
    """Join and Leave on a tournament's sign-up message."""

    def __init__(self, tournament_id: int, op: str, locale: str | None = None) -> None:
        style = discord.ButtonStyle.primary if op == "join" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=t(f"tournament.button.{op}", locale), style=style, custom_id=f"{PREFIX}:tour:{tournament_id}:{op}"
            )
        )
        self.game_id = tournament_id  # named for the one error path's log line
        self.tournament_id = tournament_id
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> SignupButton:
        return cls(int(match["tid"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        cog = interaction.client.get_cog("TournamentCog")  # type: ignore[attr-defined]
        assert isinstance(cog, TournamentCog)
        tournament = await cog.get(self.tournament_id)
        if self.op == "join":
            await cog.do_join(interaction, tournament, None)
        else:
            await cog.do_leave(interaction, tournament)


TOURNAMENT_ITEMS = (SignupButton,)


class TournamentCog(commands.Cog):
    """Tournaments: Swiss, round robin, elimination and duplicate, run by the bot."""

    tournament = app_commands.Group(name="tournament", description="Tournaments run by the bot", guild_only=True)

    def __init__(self, bot: MeepleBot) -> None:
        self.bot = bot

    @property
    def flow(self) -> Flow:
        assert self.bot.flow is not None
        return self.bot.flow

    @property
    def db(self) -> Database:
        return self.flow.service.db

    @property
    def runner(self) -> Runner:
        return runner_of(self.bot)

    # -- finding a tournament -----------------------------------------------------------------
    async def get(self, tournament_id: int) -> Tournament:
        found = await store.get(self.db, tournament_id)
        if found is None:
            raise Refusal("tournament.unknown")
        return found

    async def pick(self, interaction: discord.Interaction, tournament_id: int | None) -> Tournament:
        """The tournament named, else this channel's (or its parent's), else the server's only one."""
        guild = guild_of(interaction)
        if tournament_id is not None:
            found = await self.get(tournament_id)
            if found.guild_id != guild:
                raise Refusal("tournament.unknown")
            return found
        current = await store.of_guild(self.db, guild)
        channel = interaction.channel
        here = {interaction.channel_id, getattr(channel, "parent_id", None)}
        live = [x for x in current if x.status in ("signup", "running")]
        for candidates in (
            [x for x in live if x.channel_id in here],
            [x for x in current if x.channel_id in here],
            live,
        ):
            if len(candidates) == 1:
                return candidates[0]
            if candidates:
                # Named as the command being used names its option (the buttons never get here).
                command = interaction.command.qualified_name if interaction.command else "tournament join"
                raise Refusal("tournament.which", option=OptionRef(command, "tournament"))
        raise Refusal("tournament.none")

    async def is_organiser(self, interaction: discord.Interaction, tournament: Tournament | None = None) -> bool:
        if interaction.permissions.manage_guild:
            return True
        if tournament is not None:
            return interaction.user.id == tournament.organiser_id
        settings = await async_play.guild_settings(self.db, guild_of(interaction))
        role = settings.creator_role_id
        return role is not None and any(r.id == role for r in getattr(interaction.user, "roles", []))

    async def require_organiser(self, interaction: discord.Interaction, tournament: Tournament) -> None:
        if not await self.is_organiser(interaction, tournament):
            raise Refusal("tournament.organiser-only")

    async def organised(self, interaction: discord.Interaction, tournament_id: int | None) -> Tournament:
        """An organiser tool's start: answer privately, find the tournament, check the rights."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = await self.pick(interaction, tournament_id)
        await self.require_organiser(interaction, chosen)
        return chosen

    async def set_deadline(
        self,
        interaction: discord.Interaction,
        chosen: Tournament,
        number: int,
        deadline: datetime,
        what: str,
        detail: dict[str, Any],
    ) -> None:
        """Move the current round's deadline, in the audit log."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE tournament_rounds SET deadline = ? WHERE tournament_id = ? AND number = ?",
                (async_play.stamp(deadline), chosen.id, number),
            )
            await store.audit(conn, chosen.id, interaction.user.id, what, detail, "")

    @staticmethod
    def tournament_autocomplete_values(
        tournaments: list[Tournament], typed: str, loc: str | None = None
    ) -> list[app_commands.Choice[int]]:
        """The tournaments matching what the reader typed, labelled in the reader's language."""
        typed = typed.lower().strip()

        def label(x: Tournament) -> str:
            status_key = f"tournament.autocomplete.{x.status}"
            status = t(status_key, loc) if has(status_key) else x.status
            return t("tournament.autocomplete", loc, id=x.id, name=x.name, game=game_title(x.game, loc), status=status)

        return [
            app_commands.Choice(name=clip(label(x), 100), value=x.id)
            for x in tournaments
            if typed in x.name.lower() or typed in str(x.id)
        ][:25]

    async def tournament_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        tournaments = await store.of_guild(self.db, interaction.guild_id)
        return self.tournament_autocomplete_values(tournaments, current, locale_of(interaction))

    # -- create and sign-up -------------------------------------------------------------------
    @tournament.command(name="create")
    @app_commands.describe(
        name="The tournament's name",
        game="The game to play",
        format="How players are paired and ranked",
        players_per_table="Players at each table (2 for duels; 3 or 4 for pods)",
        rounds="Number of rounds (default: a sensible count for the format and the entrants)",
        days_per_round="Days each round lasts before unfinished tables are settled (default 7)",
        options="Game options: pick from the list once the game is chosen",
        time_limit="Time allowed per move at every table (default: none)",
        on_timeout="What happens when a move's time limit runs out",
        unfinished="How a table still playing at the round's deadline is settled",
        best_of="Elimination matches: best of 1 or best of 3",
        advance="Pod elimination: how many of each pod go on",
        cap="The most players who can sign up",
        signup_days="Sign-up closes and the tournament starts by itself after this many days",
        language="The language of its posts, tables and pictures (default: the server's)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.choices(format=FORMAT_CHOICES)
    @app_commands.choices(unfinished=SETTLE_CHOICES)
    @app_commands.choices(best_of=BEST_OF_CHOICES)
    @app_commands.choices(time_limit=TIME_LIMIT_CHOICES)
    @app_commands.choices(on_timeout=TIMEOUT_CHOICES)
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80],
        game: str,
        format: str,
        players_per_table: app_commands.Range[int, 1, 8] | None = None,
        rounds: app_commands.Range[int, 0, 64] | None = None,
        days_per_round: app_commands.Range[int, 1, 60] = 7,
        options: app_commands.Range[str, 1, OPTIONS_TEXT_LIMIT] | None = None,
        time_limit: int | None = None,
        on_timeout: str | None = None,
        unfinished: str = "forfeit",
        best_of: int = 1,
        advance: app_commands.Range[int, 1, 3] = 1,
        cap: app_commands.Range[int, 2, 512] | None = None,
        signup_days: app_commands.Range[int, 1, 60] | None = None,
        language: str | None = None,
    ) -> None:
        """Create a tournament in this channel and open its sign-up."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        guild = guild_of(interaction)
        if not await self.is_organiser(interaction):
            raise Refusal("tournament.create-rights")
        if game not in GAMES:
            raise Refusal("error.option-invalid")
        if format not in store.FORMATS:
            raise Refusal("error.option-invalid")
        if language is not None and language not in LANGUAGES:
            raise Refusal("language.unknown")
        size = formats.check_settings(game, format, players_per_table, rounds, best_of, advance)
        parsed = self.flow.service.parse_options(game, options, loc, "tournament create")
        try:
            parsed = GAMES[game].resolve_options(parsed)
        except ValueError as exc:
            raise Refusal("error.bad-options", reason=str(exc)) from exc
        if time_limit:
            check_timing(None, time_limit, on_timeout or "auto", "tournament create")
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise Refusal("tournament.text-channel")
        deadline = self.bot.clock() + timedelta(days=signup_days) if signup_days else None
        # Fixed now, as a table's is: a later change of the server's setting leaves it alone.
        language = language or await self.flow.server_language(guild, guild_locale(interaction))
        created = await store.create(
            self.db,
            guild_id=guild,
            channel_id=channel.id,
            organiser_id=interaction.user.id,
            name=name.strip() or GAMES[game].title,
            game=game,
            options=parsed,
            format=format,
            table_size=size,
            rounds=rounds,
            best_of=best_of,
            advance=advance,
            round_days=days_per_round,
            time_limit_hours=time_limit or None,
            timeout_action=(on_timeout or "auto") if time_limit else None,
            settle=unfinished,
            cap=cap,
            signup_deadline=deadline,
            seed=secrets.randbits(63),
            language=language,
        )
        message = await channel.send(**await self.signup_payload(created))
        await store.update(self.db, created.id, signup_message_id=message.id)
        await self.flow.private(interaction, t("tournament.created", loc, name=created.name, id=created.id))

    @create.autocomplete("options")
    async def create_options(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None) or ""
        return option_choices(game, current, locale_of(interaction))

    def describe(self, tournament: Tournament, loc: str) -> str:
        """The tournament's settings in one line: game, format, table size, rounds, round length..."""
        size = tournament.table_size
        parts = [
            game_title(tournament.game, loc),
            t(f"tournament.format.{tournament.format}", loc)
            + (t("tournament.format.pods", loc, size=size) if tournament.pods else ""),
        ]
        if not tournament.pods:  # "in pods of 4" says it already
            parts.append(t("tournament.table-size", loc, count=size))
        if tournament.rounds:
            parts.append(t("tournament.rounds", loc, count=tournament.rounds))
        elif tournament.elimination:
            parts.append(t("tournament.rounds-auto.elimination", loc))
        elif tournament.format == "round-robin":
            parts.append(t("tournament.rounds-auto.round-robin", loc))
        elif tournament.format == "duplicate":  # the same count whoever comes
            parts.append(t("tournament.rounds", loc, count=formats.default_rounds(tournament, formats.EXAMPLE_FIELD)))
        else:  # set at the start from the entrants: an example shows how many
            example = formats.default_rounds(tournament, formats.EXAMPLE_FIELD) or 1
            parts.append(t("tournament.rounds-auto.field", loc, count=example, field=formats.EXAMPLE_FIELD))
        parts.append(t("tournament.days", loc, count=tournament.round_days))
        if tournament.best_of == 3:
            parts.append(t("tournament.best-of-3", loc))
        if tournament.elimination and tournament.pods:
            parts.append(t("tournament.advance", loc, count=tournament.advance))
        if tournament.time_limit_hours:
            parts.append(t("tournament.time-limit", loc, hours=tournament.time_limit_hours))
        parts.append(t(f"tournament.settle.{tournament.settle}", loc))
        return " · ".join(parts)

    async def signup_payload(self, tournament: Tournament) -> dict[str, Any]:
        loc = await self.runner.language(tournament)
        entrants = [e for e in await store.entrants(self.db, tournament.id) if e.active]
        lines = [
            t("tournament.signup-title", loc, name=tournament.name, id=tournament.id),
            self.describe(tournament, loc),
            t("tournament.organiser", loc, user=tournament.organiser_id),
        ]
        if tournament.cap:
            lines.append(t("tournament.entrants-capped", loc, count=len(entrants), cap=tournament.cap))
        else:
            lines.append(t("tournament.entrants", loc, count=len(entrants)))
        lines.append(listing((f"<@{e.user_id}>" for e in entrants), loc) or t("tournament.nobody", loc))
        view = discord.ui.View(timeout=None)
        if tournament.status == "signup":
            if tournament.signup_deadline is not None:
                lines.append(t("tournament.signup-until", loc, when=int(tournament.signup_deadline.timestamp())))
            lines.append(t("tournament.signup-hint", loc))
            view.add_item(SignupButton(tournament.id, "join", loc))
            view.add_item(SignupButton(tournament.id, "leave", loc))
        else:
            lines.append(t(f"tournament.status.{tournament.status}", loc))
        return {"content": clip("\n".join(lines)), "view": view, "allowed_mentions": discord.AllowedMentions.none()}

    async def refresh_signup(self, tournament_id: int) -> None:
        tournament = await self.get(tournament_id)
        if tournament.signup_message_id is None:
            return
        channel = self.bot.get_channel(tournament.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        try:
            await channel.get_partial_message(tournament.signup_message_id).edit(
                **await self.signup_payload(tournament)
            )
        except discord.HTTPException:
            pass  # the list is shown again by the next join or /tournament standings

    async def do_join(
        self, interaction: discord.Interaction, tournament: Tournament, partner: discord.User | None
    ) -> None:
        loc = locale_of(interaction)
        if tournament.status != "signup":
            raise Refusal("tournament.signup-closed", name=tournament.name)
        partner_id = None
        if partner is not None:
            if not (tournament.format == "duplicate" and tournament.table_size == 2):
                raise Refusal("tournament.partner-not-here")
            if partner.id == interaction.user.id or partner.bot:
                raise Refusal("challenge.partner-invalid")
            partner_id = partner.id
        outcome = await store.join(
            self.db, tournament.id, interaction.user.id, interaction.user.display_name, partner_id, tournament.cap
        )
        if outcome == "already" and partner_id is not None:
            async with self.db.transaction() as conn:
                await conn.execute(
                    "UPDATE entrants SET partner_id = ? WHERE tournament_id = ? AND user_id = ?",
                    (partner_id, tournament.id, interaction.user.id),
                )
            outcome = "partner"
        if outcome == "already":
            raise Refusal("tournament.already-in", name=tournament.name)
        if outcome == "removed":
            raise Refusal("tournament.removed-you", name=tournament.name)
        if outcome == "full":
            raise Refusal("tournament.full", cap=tournament.cap or 0)
        if outcome == "closed":
            raise Refusal("tournament.signup-closed", name=tournament.name)
        await self.refresh_signup(tournament.id)
        key = "tournament.partner-set" if outcome == "partner" else "tournament.joined"
        await self.flow.private(interaction, t(key, loc, name=tournament.name, partner=partner_id or 0))

    async def do_leave(self, interaction: discord.Interaction, tournament: Tournament) -> None:
        if tournament.status != "signup":
            raise Refusal("tournament.leave-started")
        if not await store.leave_signup(self.db, tournament.id, interaction.user.id):
            raise Refusal("tournament.not-in", name=tournament.name)
        await self.refresh_signup(tournament.id)
        await self.flow.private(interaction, t("tournament.left", locale_of(interaction), name=tournament.name))

    @tournament.command(name="join")
    @app_commands.describe(tournament="Which tournament (default: this channel's)", partner="Fox Duet: your teammate")
    async def join(
        self, interaction: discord.Interaction, tournament: int | None = None, partner: discord.User | None = None
    ) -> None:
        """Sign up for a tournament (the Join button does the same); name a Fox Duet partner."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.do_join(interaction, await self.pick(interaction, tournament), partner)

    join.autocomplete("tournament")(tournament_choices)

    @tournament.command(name="start")
    @app_commands.describe(tournament="Which tournament (default: this channel's)")
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """(Organiser) Close sign-up and start round 1."""
        chosen = await self.organised(interaction, tournament)
        if chosen.status != "signup":
            raise Refusal("tournament.not-in-signup")
        await self.runner.begin(chosen, interaction.user.id)  # round 1's tables open in the background
        await self.refresh_signup(chosen.id)
        await self.flow.private(interaction, t("tournament.started", locale_of(interaction), name=chosen.name))

    start.autocomplete("tournament")(tournament_choices)

    # -- looking ------------------------------------------------------------------------------
    @tournament.command(name="standings")
    @app_commands.describe(tournament="Which tournament (default: this channel's)")
    async def standings(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """The standings as a picture and as text, with the organisers' corrections."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        chosen = await self.pick(interaction, tournament)
        # A private answer: all of it (text, picture, corrections) in the reader's language.
        report = await formats.report(self.runner, chosen, None, loc)
        lines = [t("tournament.standings-title", loc, name=chosen.name), self.describe(chosen, loc), report.text]
        corrections = await store.audit_log(self.db, chosen.id)
        shown = [c for c in corrections if c.action != "start"]
        if shown:
            lines.append(t("tournament.audit-title", loc))
            lines += [audit_line(c, loc) for c in shown[-10:]]
        files = [discord.File(io.BytesIO(report.standings_png), "standings.png", description=report.alt)]
        if report.bracket_png is not None:
            files.append(discord.File(io.BytesIO(report.bracket_png), "bracket.png", description=report.bracket_alt))
        await self.flow.private(interaction, clip("\n".join(lines)), files=files)

    standings.autocomplete("tournament")(tournament_choices)

    @tournament.command(name="pairings")
    @app_commands.describe(
        tournament="Which tournament (default: this channel's)", round="Which round (default: the current one)"
    )
    async def pairings(
        self,
        interaction: discord.Interaction,
        tournament: int | None = None,
        round: app_commands.Range[int, 1, 64] | None = None,
    ) -> None:
        """The tables of a round, with links and results."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        chosen = await self.pick(interaction, tournament)
        number = round or chosen.round
        tables = await store.pairings(self.db, chosen.id, number) if number else []
        if not tables:
            raise Refusal("tournament.no-round", round=number)
        names = await self.runner.names(chosen.id)
        lines = [t("tournament.pairings-title", loc, name=chosen.name, round=number)]
        for pairing in tables:
            line = formats.pairing_line(chosen, pairing, names, loc, mention=False)
            if pairing.result is not None and pairing.result.get("how") not in ("bye",):
                ranks = series(
                    (f"{names.get(u, u)} {r}" for u, r in zip(pairing.players, pairing.result["ranks"], strict=True)),
                    loc,
                )
                line += " · " + t("tournament.line.ranks", loc, ranks=ranks)
            lines.append(line)
        await self.flow.private(interaction, clip("\n".join(lines)))

    pairings.autocomplete("tournament")(tournament_choices)

    @tournament.command(name="mine")
    async def mine(self, interaction: discord.Interaction) -> None:
        """Your tables in this server's tournaments, with links."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        lines: list[str] = []
        for chosen in await store.of_guild(self.db, guild_of(interaction), ("running",)):
            for pairing in await store.pairings(self.db, chosen.id, chosen.round):
                if interaction.user.id not in pairing.players:
                    continue
                if pairing.game_id is not None:
                    row = await self.flow.service.get(pairing.game_id)
                    status = t(f"lobby.status.{row.status}", loc) if row.status != "running" else ""
                    link = jump_url(row, row.board_message_id) or f"<#{row.channel_id}>"
                    lines.append(
                        t("tournament.mine-line", loc, name=chosen.name, round=chosen.round, link=link) + f" {status}"
                    )
                elif pairing.result is not None:
                    lines.append(t("tournament.mine-bye", loc, name=chosen.name, round=chosen.round))
        await self.flow.private(interaction, clip("\n".join(lines) if lines else t("tournament.mine-none", loc)))

    @tournament.command(name="list")
    async def list_(self, interaction: discord.Interaction) -> None:
        """This server's tournaments."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        found = await store.of_guild(self.db, guild_of(interaction))
        if not found:
            await self.flow.private(interaction, t("tournament.list-none", loc))
            return
        lines = [
            t(
                "tournament.list-line",
                loc,
                id=x.id,
                name=x.name,
                game=game_title(x.game, loc),
                status=t(f"tournament.status.{x.status}", loc),
                round=x.round,
                channel=x.channel_id,
            )
            for x in found[:LIST_LIMIT]
        ]
        await self.flow.private(interaction, clip("\n".join(lines)))

    @tournament.command(name="drop")
    @app_commands.describe(tournament="Which tournament (default: this channel's)")
    async def drop(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Leave a tournament for good (your finished games still count)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = await self.pick(interaction, tournament)
        if chosen.status == "signup":
            await self.do_leave(interaction, chosen)
            return
        if chosen.status != "running":
            raise Refusal("tournament.over", name=chosen.name)
        if not await store.set_status(self.db, chosen.id, interaction.user.id, "dropped"):
            raise Refusal("tournament.not-in", name=chosen.name)
        public = await self.runner.language(chosen)
        await self.runner.post(chosen, t("tournament.dropped-public", public, user=interaction.user.id))
        await self.flow.private(interaction, t("tournament.dropped", locale_of(interaction), name=chosen.name))

    drop.autocomplete("tournament")(tournament_choices)

    # -- organiser tools ----------------------------------------------------------------------
    @tournament.command(name="remove")
    @app_commands.describe(
        player="Who leaves the tournament", reason="Why (kept in the audit log)", tournament="Which tournament"
    )
    async def remove(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        reason: app_commands.Range[str, 1, 300],
        tournament: int | None = None,
    ) -> None:
        """(Organiser) Remove a player: their future tables are not paired."""
        chosen = await self.organised(interaction, tournament)
        if chosen.status not in ("signup", "running"):
            raise Refusal("tournament.over", name=chosen.name)
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE entrants SET status = 'removed' WHERE tournament_id = ? AND user_id = ? AND status = 'active'",
                (chosen.id, player.id),
            )
            if cursor.rowcount != 1:
                raise Refusal("tournament.not-entrant", user=player.id)
            await store.audit(conn, chosen.id, interaction.user.id, "remove", {"user": player.id}, reason)
        await self.refresh_signup(chosen.id)
        await self.flow.private(interaction, t("tournament.removed", locale_of(interaction), user=player.id))

    remove.autocomplete("tournament")(tournament_choices)

    @tournament.command(name="replace")
    @app_commands.describe(
        player="Who leaves", substitute="Who takes their place and record", reason="Why", tournament="Which tournament"
    )
    async def replace(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        substitute: discord.User,
        reason: app_commands.Range[str, 1, 300],
        tournament: int | None = None,
    ) -> None:
        """(Organiser) A substitute takes a player's place, record and seat at their current table."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        chosen = await self.pick(interaction, tournament)
        await self.require_organiser(interaction, chosen)
        if chosen.status not in ("signup", "running"):
            raise Refusal("tournament.over", name=chosen.name)
        if substitute.bot or substitute.id == player.id:
            raise Refusal("tournament.bad-substitute")
        entrants = {e.user_id: e for e in await store.entrants(self.db, chosen.id)}
        if player.id not in entrants or not entrants[player.id].active:
            raise Refusal("tournament.not-entrant", user=player.id)
        if substitute.id in entrants:
            raise Refusal("tournament.already-entrant", user=substitute.id)
        current = await store.pairings(self.db, chosen.id, chosen.round) if chosen.round else []
        # The seat at a running table first: it refuses (changing nothing) if impossible.
        for pairing in current:
            if player.id in pairing.players and pairing.game_id is not None and pairing.result is None:
                row = await self.flow.service.get(pairing.game_id)
                if row.status == "running":
                    row, seat = await self.flow.service.hand_over(
                        row.id, player.id, substitute.id, substitute.display_name
                    )
                    await self.flow.seat_changed(
                        row,
                        seat,
                        substitute.id,
                        "seat.replaced",
                        old=f"<@{player.id}>",
                        mod=f"<@{interaction.user.id}>",
                    )
        async with self.db.transaction() as conn:
            old = entrants[player.id]
            await conn.execute(
                "INSERT INTO entrants (tournament_id, user_id, display_name, partner_id, seed_order, status)"
                " VALUES (?, ?, ?, ?, ?, 'active')",
                (chosen.id, substitute.id, substitute.display_name[:100], old.partner_id, old.seed_order),
            )
            await conn.execute(
                "UPDATE entrants SET status = 'removed', seed_order = NULL WHERE tournament_id = ? AND user_id = ?",
                (chosen.id, player.id),
            )
            if old.partner_id is not None:
                await conn.execute(
                    "UPDATE entrants SET partner_id = ? WHERE tournament_id = ? AND user_id = ?",
                    (substitute.id, chosen.id, old.partner_id),
                )
            # The substitute takes over the player's record: every table of theirs in this tournament.
            async with conn.execute(
                "SELECT round, slot, players FROM pairings WHERE tournament_id = ?", (chosen.id,)
            ) as cursor:
                for round_, slot, players in await cursor.fetchall():
                    users = [substitute.id if u == player.id else u for u in json.loads(players)]
                    await conn.execute(
                        "UPDATE pairings SET players = ? WHERE tournament_id = ? AND round = ? AND slot = ?",
                        (store.dumps(users), chosen.id, round_, slot),
                    )
            await store.audit(
                conn, chosen.id, interaction.user.id, "replace", {"old": player.id, "new": substitute.id}, reason
            )
        await self.refresh_signup(chosen.id)
        await self.flow.private(interaction, t("tournament.replaced", loc, old=player.id, new=substitute.id))

    replace.autocomplete("tournament")(tournament_choices)

    @tournament.command(name="result")
    @app_commands.describe(
        table="The table's number in its round (see /tournament pairings)",
        ranks="Each player's rank in seat order, e.g. '1 2' or '2 1 3 4' (ties share a rank)",
        reason="Why (kept in the audit log and shown with the standings)",
        round="The round (default: the current one)",
        tournament="Which tournament",
    )
    async def result(
        self,
        interaction: discord.Interaction,
        table: app_commands.Range[int, 1, 256],
        ranks: app_commands.Range[str, 1, 40],
        reason: app_commands.Range[str, 1, 300],
        round: app_commands.Range[int, 1, 64] | None = None,
        tournament: int | None = None,
    ) -> None:
        """(Organiser) Set or correct a table's result; an open table is closed with it."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        chosen = await self.pick(interaction, tournament)
        await self.require_organiser(interaction, chosen)
        if chosen.status != "running":
            raise Refusal("tournament.over", name=chosen.name)
        number = round or chosen.round
        tables = await store.pairings(self.db, chosen.id, number)
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
        if number != chosen.round and chosen.elimination:
            raise Refusal("tournament.elimination-past")
        rounds = {r.number: r for r in await store.rounds(self.db, chosen.id)}
        if chosen.elimination and number == chosen.round and rounds[number].status == "settled":
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
        detail = {"round": number, "table": table, "ranks": [list(p) for p in zip(pairing.players, given, strict=True)]}
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE pairings SET result = ? WHERE tournament_id = ? AND round = ? AND slot = ?",
                (store.dumps(entry), chosen.id, number, pairing.slot),
            )
            await store.audit(conn, chosen.id, interaction.user.id, "result", detail, reason)
        if pairing.game_id is not None:
            row = await self.flow.service.get(pairing.game_id)
            if row.status in ("lobby", "running"):
                row = await self.flow.service.abandon(row.id)
                closed = t("tournament.closed-by-organiser", self.flow.table_locale(row), reason=reason)
                await self.flow.announce(row, closed)
        await self.runner.advance(chosen.id)
        await self.flow.private(interaction, t("tournament.result-set", loc, table=table, round=number))

    result.autocomplete("tournament")(tournament_choices)

    @tournament.command(name="extend")
    @app_commands.describe(days="How many more days the current round lasts", tournament="Which tournament")
    async def extend(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 30], tournament: int | None = None
    ) -> None:
        """(Organiser) Give the current round more time."""
        chosen = await self.organised(interaction, tournament)
        current = await self.current_round(chosen)
        deadline = current.deadline + timedelta(days=days)
        await self.set_deadline(
            interaction, chosen, current.number, deadline, "extend", {"round": current.number, "days": days}
        )
        when = int(deadline.timestamp())
        public = await self.runner.language(chosen)
        await self.runner.post(chosen, t("tournament.extended-public", public, round=current.number, deadline=when))
        await self.flow.private(interaction, t("tournament.extended", locale_of(interaction), deadline=when))

    extend.autocomplete("tournament")(tournament_choices)

    @tournament.command(name="end-round")
    @app_commands.describe(tournament="Which tournament")
    async def end_round(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """(Organiser) End the current round now: unfinished tables are settled as for its deadline."""
        chosen = await self.organised(interaction, tournament)
        current = await self.current_round(chosen)
        now = self.bot.clock()
        await self.set_deadline(interaction, chosen, current.number, now, "end-round", {"round": current.number})
        await self.runner.advance(chosen.id)
        await self.flow.private(interaction, t("tournament.round-ended", locale_of(interaction), round=current.number))

    end_round.autocomplete("tournament")(tournament_choices)

    async def current_round(self, chosen: Tournament) -> store.Round:
        if chosen.status != "running":
            raise Refusal("tournament.over", name=chosen.name)
        rounds = await store.rounds(self.db, chosen.id)
        if not rounds or rounds[-1].status == "settled":
            raise Refusal("tournament.no-round", round=chosen.round)
        return rounds[-1]

    @tournament.command(name="cancel")
    @app_commands.describe(reason="Why (told to the players)", tournament="Which tournament")
    async def cancel(
        self, interaction: discord.Interaction, reason: app_commands.Range[str, 1, 300], tournament: int | None = None
    ) -> None:
        """(Organiser) Cancel the tournament; its open tables become friendly games."""
        chosen = await self.organised(interaction, tournament)
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                f"UPDATE tournaments SET status = 'cancelled', finished_at = {store.NOW}"
                " WHERE id = ? AND status IN ('signup', 'running')",
                (chosen.id,),
            )
            if cursor.rowcount != 1:
                raise Refusal("tournament.over", name=chosen.name)
            await store.audit(conn, chosen.id, interaction.user.id, "cancel", {}, reason)
        await self.refresh_signup(chosen.id)
        public = await self.runner.language(chosen)
        await self.runner.post(chosen, t("tournament.cancelled-public", public, name=chosen.name, reason=reason))
        await self.flow.private(interaction, t("tournament.cancelled", locale_of(interaction), name=chosen.name))

    cancel.autocomplete("tournament")(tournament_choices)


def audit_line(line: store.AuditLine, loc: str) -> str:
    """One organiser correction, worded in ``loc`` from what was stored (its action and values)."""
    when = format_date(line.created_at, loc)
    values = line.values
    if values is None:  # written before corrections were stored as values: kept as it was
        what = line.detail
    elif line.action == "result":
        ranks = listing((t("tournament.audit.rank", loc, user=u, rank=r) for u, r in values["ranks"]), loc)
        what = t("tournament.audit.result", loc, round=values["round"], table=values["table"], ranks=ranks)
    elif line.action == "extend":
        what = t("tournament.audit.extend", loc, round=values["round"], count=values["days"])
    elif line.action in ("end-round", "remove", "replace", "cancel"):
        what = t(f"tournament.audit.{line.action}", loc, **values)
    else:
        what = line.action
    if not line.reason:
        return t("tournament.audit-line.no-reason", loc, when=when, user=line.actor_id, what=what)
    return t("tournament.audit-line", loc, when=when, user=line.actor_id, what=what, reason=line.reason)


def format_date(stamp: str, loc: str) -> str:
    """A stored timestamp's day as the reader's locale writes it (26 Nov 2026, 2026年11月26日)."""
    try:
        day = datetime.fromisoformat(stamp.replace("Z", "+00:00")).date()
    except ValueError:
        return stamp[:10]
    return babel_dates.format_date(day, "medium", locale=loc.replace("-", "_"))


async def setup(bot: MeepleBot) -> None:
    # The sign-up buttons are registered here, with the cog, never imported by the bot: discord.py
    # runs an extension's module anew when it loads it, and a SignupButton of an earlier copy of
    # this module would not know this copy's TournamentCog (every click failed after a restart).
    bot.add_dynamic_items(*TOURNAMENT_ITEMS)
    await bot.add_cog(TournamentCog(bot))


async def teardown(bot: MeepleBot) -> None:
    bot.remove_dynamic_items(*TOURNAMENT_ITEMS)
