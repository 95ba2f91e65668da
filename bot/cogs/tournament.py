"""The ``/tournament`` command group: sign-up, rounds that run themselves, and organiser tools.

Each command turns its interaction into a call of the ``TournamentService``
(services/tournament_service.py, which holds every check: who may do what, when) and its result into
an answer; the sign-up message and its buttons are drawn here. docs/TOURNAMENTS.md has the
formats and every choice.
"""

from __future__ import annotations

import io
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from babel import dates as babel_dates
from discord import app_commands
from discord.ext import commands

from bot.answers import locale_of
from bot.cogs import GAME_CHOICES, TIME_LIMIT_CHOICES, TIMEOUT_CHOICES, guild_of
from bot.cogs.table import OPTIONS_TEXT_LIMIT, option_choices
from bot.flow import clip, jump_url
from bot.languages import LANGUAGE_CHOICES, LANGUAGES, guild_locale
from bot.ui import Answered
from l10n.words import game_title, has, listing, series, t
from league import formats
from league.refusal import Refusal
from league.tournament_records import AuditLine, Tournament
from services import tournament_reports as reports
from services.tournament_service import Member, Person, Settings, TournamentService

if TYPE_CHECKING:
    from bot.client import MeepleBot
    from bot.flow import Flow
    from services.tournament_runner import Runner

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


def runner_of(bot: Any) -> Runner:
    runner = getattr(bot, "tournaments", None)
    assert runner is not None, "the runner is made in setup_hook, before the cogs"
    return runner


def member_of(interaction: discord.Interaction) -> Member:
    """The command's user and their rights, as the tournament service reads them."""
    return Member(
        interaction.user.id,
        interaction.user.display_name,
        bool(interaction.permissions.manage_guild),
        frozenset(r.id for r in getattr(interaction.user, "roles", [])),
    )


def person(user: discord.User | discord.Member) -> Person:
    return Person(user.id, user.display_name, user.bot)


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
        self._service: TournamentService | None = None

    @property
    def flow(self) -> Flow:
        assert self.bot.flow is not None
        return self.bot.flow

    @property
    def runner(self) -> Runner:
        return runner_of(self.bot)

    @property
    def service(self) -> TournamentService:
        if self._service is None:
            self._service = TournamentService(self.flow.service, self.runner, self.bot.clock, LANGUAGES)
        return self._service

    # -- finding a tournament -----------------------------------------------------------------
    async def get(self, tournament_id: int) -> Tournament:
        return await self.service.get(tournament_id)

    async def pick(self, interaction: discord.Interaction, tournament_id: int | None) -> Tournament:
        """The tournament named, else this channel's (or its parent's), else the server's only one."""
        here = {interaction.channel_id, getattr(interaction.channel, "parent_id", None)}
        # Named as the command being used names its option (the buttons never get there).
        command = interaction.command.qualified_name if interaction.command else "tournament join"
        return await self.service.pick(guild_of(interaction), tournament_id, here, command)

    async def organised(self, interaction: discord.Interaction, tournament_id: int | None) -> Tournament:
        """An organiser tool's start: answer privately, find the tournament, check the rights."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = await self.pick(interaction, tournament_id)
        await self.service.require_organiser(member_of(interaction), chosen)
        return chosen

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
        tournaments = await self.service.of_guild(interaction.guild_id)
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
        channel = interaction.channel
        settings = Settings(
            name=name,
            game=game,
            format=format,
            players_per_table=players_per_table,
            rounds=rounds,
            days_per_round=days_per_round,
            options=options,
            time_limit=time_limit,
            on_timeout=on_timeout,
            unfinished=unfinished,
            best_of=best_of,
            advance=advance,
            cap=cap,
            signup_days=signup_days,
            language=language,
        )
        created = await self.service.create(
            member_of(interaction),
            guild_of(interaction),
            channel.id if isinstance(channel, discord.TextChannel) else None,
            settings,
            loc,
            guild_locale(interaction),
        )
        assert isinstance(channel, discord.TextChannel)  # the service refuses any other
        message = await channel.send(**await self.signup_payload(created))
        await self.service.signup_posted(created.id, message.id)
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
        entrants = [e for e in await self.service.entrants(tournament.id) if e.active]
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
        chosen = person(partner) if partner is not None else None
        outcome = await self.service.join(tournament, member_of(interaction), chosen)
        key = "tournament.partner-set" if outcome == "partner" else "tournament.joined"
        partner_id = chosen.user_id if chosen is not None else 0
        await self.flow.private(interaction, t(key, loc, name=tournament.name, partner=partner_id))

    async def do_leave(self, interaction: discord.Interaction, tournament: Tournament) -> None:
        await self.service.leave(tournament, interaction.user.id)
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
        await self.service.start(chosen, member_of(interaction))  # round 1's tables open in the background
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
        report = await reports.make_report(self.runner, chosen, None, loc)
        lines = [t("tournament.standings-title", loc, name=chosen.name), self.describe(chosen, loc), report.text]
        corrections = await self.service.audit_log(chosen.id)
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
        tables = await self.service.pairings(chosen.id, number) if number else []
        if not tables:
            raise Refusal("tournament.no-round", round=number)
        names = await self.service.names(chosen.id)
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
        for chosen in await self.service.of_guild(guild_of(interaction), ("running",)):
            for pairing in await self.service.pairings(chosen.id, chosen.round):
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
        found = await self.service.of_guild(guild_of(interaction))
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
        if await self.service.drop(chosen, interaction.user.id) == "left":
            await self.flow.private(interaction, t("tournament.left", locale_of(interaction), name=chosen.name))
            return
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
        await self.service.remove(chosen, member_of(interaction), person(player), reason)
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
        await self.service.replace(chosen, member_of(interaction), person(player), person(substitute), reason)
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
        number = await self.service.set_result(chosen, member_of(interaction), table, ranks, reason, round)
        await self.flow.private(interaction, t("tournament.result-set", loc, table=table, round=number))

    result.autocomplete("tournament")(tournament_choices)

    @tournament.command(name="extend")
    @app_commands.describe(days="How many more days the current round lasts", tournament="Which tournament")
    async def extend(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 30], tournament: int | None = None
    ) -> None:
        """(Organiser) Give the current round more time."""
        chosen = await self.organised(interaction, tournament)
        deadline = await self.service.extend(chosen, member_of(interaction), days)
        when = int(deadline.timestamp())
        await self.flow.private(interaction, t("tournament.extended", locale_of(interaction), deadline=when))

    extend.autocomplete("tournament")(tournament_choices)

    @tournament.command(name="end-round")
    @app_commands.describe(tournament="Which tournament")
    async def end_round(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """(Organiser) End the current round now: unfinished tables are settled as for its deadline."""
        chosen = await self.organised(interaction, tournament)
        number = await self.service.end_round(chosen, member_of(interaction))
        await self.flow.private(interaction, t("tournament.round-ended", locale_of(interaction), round=number))

    end_round.autocomplete("tournament")(tournament_choices)

    @tournament.command(name="cancel")
    @app_commands.describe(reason="Why (told to the players)", tournament="Which tournament")
    async def cancel(
        self, interaction: discord.Interaction, reason: app_commands.Range[str, 1, 300], tournament: int | None = None
    ) -> None:
        """(Organiser) Cancel the tournament; its open tables become friendly games."""
        chosen = await self.organised(interaction, tournament)
        await self.service.cancel(chosen, member_of(interaction), reason)
        await self.flow.private(interaction, t("tournament.cancelled", locale_of(interaction), name=chosen.name))

    cancel.autocomplete("tournament")(tournament_choices)


def audit_line(line: AuditLine, loc: str) -> str:
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
