"""The ``/meeple`` command group: you and your server, across every table."""

from __future__ import annotations

import io
import re
import sqlite3
from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import privacy_ui
from bot.answers import locale_of
from bot.cogs import (
    CHALLENGE_CHOICES,
    GAME_CHOICES,
    GUIDE_CHOICES,
    TIME_LIMIT_CHOICES,
    TIMEOUT_CHOICES,
    guild_of,
    refresh_game_choices,
)
from bot.flow import clip, jump_url
from bot.howto_ui import show_page
from bot.languages import LANGUAGE_CHOICES, LANGUAGES, guild_locale, language_name
from engine import GAMES
from l10n.words import ago, game_title, iso_week, listing, percent, series, t
from league import rating_maths as ratings
from league import weekly_challenge as challenge
from league.refusal import Refusal
from services import alt_text
from services import computer_turns as computers
from services import player_profiles as profiles
from services.storage import async_play as store
from services.storage import challenge as challenge_store
from services.storage import ratings as rating_store

if TYPE_CHECKING:
    from bot.client import MeepleBot
    from bot.flow import Flow
    from services.storage import Database

VACATION_DAYS_PER_YEAR = 21
LIST_LIMIT = 20


class MeepleCog(commands.Cog):
    """Your games, your record, your vacations; the server's tables and settings."""

    meeple = app_commands.Group(name="meeple", description="Your games across tables, and this server's settings")

    def __init__(self, bot: MeepleBot) -> None:
        self.bot = bot
        refresh_game_choices()

    @property
    def flow(self) -> Flow:
        assert self.bot.flow is not None, "the cogs are loaded in setup_hook, after the flow"
        return self.bot.flow

    @property
    def db(self) -> Database:
        return self.flow.service.db

    @meeple.command(name="games")
    async def games(self, interaction: discord.Interaction) -> None:
        """List the games waiting for your move, longest-waiting first, with links."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        now = self.bot.clock()
        waiting: list[str] = []
        others: list[str] = []
        for row in await store.games_of(self.db, interaction.user.id):
            state = await self.flow.service.state(row)
            seat = await self.flow.service.seat_of(row, interaction.user.id)
            line = t(
                "mine.line",
                loc,
                game=game_title(row.game, loc),
                url=jump_url(row, row.board_message_id) or "",
                ago=ago(now - row.updated_at, loc),
            )
            (waiting if seat in state.to_move() else others).append(line)
        if not waiting and not others:
            await self.flow.private(interaction, t("mine.none", loc))
            return
        lines = [t("mine.waiting", loc, count=len(waiting)), *waiting[:LIST_LIMIT]]
        if others:
            lines += [t("mine.others", loc, count=len(others)), *others[:LIST_LIMIT]]
        await self.flow.private(interaction, "\n".join(lines))

    @meeple.command(name="rules")
    @app_commands.describe(game="The game to learn")
    @app_commands.choices(game=GUIDE_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """How to play a game: a short illustrated guide, page by page, shown only to you."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await show_page(interaction, game, 0, edit=False)

    @meeple.command(name="list")
    @app_commands.guild_only()
    async def list_tables(self, interaction: discord.Interaction) -> None:
        """List this server's open tables and running games."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        rows = await store.games_in_guild(self.db, guild_of(interaction))
        if not rows:
            await self.flow.private(interaction, t("list.none", loc))
            return
        lines = [t("list.title", loc, count=len(rows))]
        for row in rows[:LIST_LIMIT]:
            users = await self.flow.service.seat_users(row.id)
            players = series(await computers.seat_labels(self.db, row.id, users, loc), loc)
            message = row.board_message_id or row.lobby_message_id
            lines.append(
                t(
                    f"list.line.{row.status}",
                    loc,
                    game=game_title(row.game, loc),
                    channel=row.channel_id,
                    players=players,
                    url=jump_url(row, message) or "",
                )
            )
        await self.flow.private(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    @meeple.command(name="profile")
    @app_commands.describe(member="Whose profile to show (default: yours)")
    async def profile(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        """A player's games on this server: rating and trend, games, wins, best scores, latest games."""
        await self.show_profile(interaction, member)

    @meeple.command(name="record")
    @app_commands.describe(player="Whose record to show (default: yours)")
    async def record(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """A player's record on this server (the same page as /meeple profile)."""
        await self.show_profile(interaction, player)

    async def show_profile(self, interaction: discord.Interaction, member: discord.abc.User | None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        guild = guild_of(interaction)
        who = member or interaction.user
        found = await profiles.profile(self.db, self.flow.pictures, guild, who.id, who.mention, who.display_name, loc)
        if found is None:
            await self.flow.private(
                interaction, t("record.none", loc, player=who.mention), allowed_mentions=discord.AllowedMentions.none()
            )
            return
        await self.flow.private(
            interaction,
            clip(found.text),
            file=discord.File(io.BytesIO(found.png), filename="profile.png", description=await self.alt(found.text)),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @meeple.command(name="leaderboard")
    @app_commands.describe(
        game="Which game",
        solo="Best scores of the solo mode instead of ratings (Noctiluca, Terraforming Mars dice)",
        page="Which page (default: the first)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str,
        solo: bool = False,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        """This server's ratings in a game (provisional players apart), or its best scores."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        guild = guild_of(interaction)
        if game not in GAMES:
            raise Refusal("error.unknown-game", game=game[:40])
        title = game_title(game, loc)
        if solo and GAMES[game].min_players > 1:
            raise Refusal("leaderboard.no-solo", game=title)
        if solo or game not in ratings.COMPETITIVE:
            lines = await self.score_lines(guild, game, loc)
            if not lines:
                await self.flow.private(interaction, t("scores.none", loc, game=title))
                return
            pages = max(1, -(-len(lines) // LIST_LIMIT))
            if page > pages:
                raise Refusal("leaderboard.no-page", page=page, pages=pages)
            chunk = lines[(page - 1) * LIST_LIMIT : page * LIST_LIMIT]
            text = "\n".join([t("scores.title", loc, game=title, page=page, pages=pages), *chunk])
            png = await profiles.scores_png(self.db, self.flow.pictures, guild, game, loc)
            await self.flow.private(
                interaction,
                clip(text),
                file=discord.File(io.BytesIO(png), filename="scores.png", description=await self.alt(text)),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        entries = profiles.ranked(await rating_store.ratings_of(self.db, guild, game))
        if not entries:
            await self.flow.private(interaction, t("leaderboard.none", loc, game=title))
            return
        pages = max(1, -(-len(entries) // LIST_LIMIT))
        if page > pages:
            raise Refusal("leaderboard.no-page", page=page, pages=pages)
        shown = entries[(page - 1) * LIST_LIMIT : page * LIST_LIMIT]
        lines = [t("leaderboard.title", loc, game=title, page=page, pages=pages)]
        for n, (rank, r) in enumerate(shown):
            if r.provisional and (n == 0 or not shown[n - 1][1].provisional):
                lines.append(t("leaderboard.provisional", loc, needed=ratings.PROVISIONAL_GAMES))
            lines.append(t("leaderboard.line", loc, rank=rank, player=f"<@{r.user_id}>", rating=r.shown, count=r.games))
        png = await profiles.leaderboard_png(self.db, self.flow.pictures, game, shown, page, pages, loc)
        alt = await self.alt("\n".join(lines))
        await self.flow.private(
            interaction,
            clip("\n".join(lines)),
            file=discord.File(io.BytesIO(png), filename="leaderboard.png", description=alt),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def alt(self, text: str) -> str:
        """A picture's alt text from the message it illustrates, the players it mentions by name."""
        return alt_text.fit([text], await profiles.display_names(self.db, alt_text.mentioned([text])))

    async def score_lines(self, guild: int, game: str, loc: str) -> list[str]:
        """Per level or mode: its win rate, then the best games (a team is named together)."""
        best = await rating_store.score_records(self.db, guild, game)
        counts = await rating_store.score_counts(self.db, guild, game)
        lines: list[str] = []
        for mode, records in best.items():
            played, won = counts[mode]
            label = t("scores.mode.solo", loc) if mode == "solo" else t("scores.mode.level", loc, level=mode[6:])
            lines.append(t("scores.mode", loc, mode=label, count=played, won=won, rate=percent(won, played, loc)))
            for n, record in enumerate(records, start=1):
                who = listing(await computers.seat_labels(self.db, record.game_id, record.user_ids, loc), loc)
                key = "scores.line.won" if record.won else "scores.line"
                lines.append(t(key, loc, rank=n, players=who, score=record.score))
        return lines

    @meeple.command(name="challenge")
    @app_commands.describe(
        mode="This week's deal to play: a solo mode or a Fox Duet level",
        partner="Your teammate (Fox Duet is played by two)",
    )
    @app_commands.choices(mode=CHALLENGE_CHOICES)
    async def challenge(self, interaction: discord.Interaction, mode: str, partner: discord.User | None = None) -> None:
        """Play this week's challenge: the same deal as everyone on the server, in a private thread."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        guild = guild_of(interaction)
        settings = await store.guild_settings(self.db, guild)
        if not settings.challenge_enabled:
            raise Refusal("challenge.off")
        chosen = challenge.MODES.get(mode)
        if chosen is None:
            raise Refusal("challenge.unknown-mode")
        team = [interaction.user]
        if chosen.players == 2:
            if partner is None:
                raise Refusal("challenge.partner-needed")
            if partner.id == interaction.user.id or partner.bot:
                raise Refusal("challenge.partner-invalid")
            team.append(partner)
        elif partner is not None:
            raise Refusal("challenge.partner-solo")
        week = challenge.week_of(challenge.now())
        for member in team:
            if (game_id := await challenge_store.attempt_of(self.db, guild, week, mode, member.id)) is not None:
                row = await self.flow.service.get(game_id)
                raise Refusal("challenge.already", player=member.mention, channel=row.channel_id)
        seed = await challenge_store.week_seed(self.db, guild, week, mode)
        home = self.bot.get_channel(settings.challenge_channel_id or interaction.channel_id or 0)
        if not isinstance(home, discord.TextChannel):
            raise Refusal("challenge.no-channel")
        title = game_title(chosen.game, loc)
        try:
            thread = await home.create_thread(
                # Who plays which deal first: a list of threads cut short still tells them apart.
                name=clip(
                    t(
                        "challenge.thread-name",
                        loc,
                        mode=t(f"challenge.mode.{mode}", loc),
                        week=week,
                        player=interaction.user.display_name,
                    ),
                    100,
                ),
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=10080,
            )
            for member in team:
                await thread.add_user(member)
        except discord.HTTPException as exc:
            raise Refusal("error.thread-failed") from exc
        try:
            row = await self.flow.service.create(
                chosen.game,
                guild,
                thread.id,
                interaction.user.id,
                interaction.user.display_name,
                dict(chosen.options),
                others=[(m.id, m.display_name) for m in team[1:]],
                rated=False,
                seed=seed,
                link=challenge_store.recorder(guild, week, mode, [m.id for m in team]),
                language=await self.flow.server_language(guild, guild_locale(interaction)),
            )
        except sqlite3.IntegrityError as exc:  # the same player's attempt, made a moment ago
            await thread.delete()
            raise Refusal("challenge.already-now") from exc
        await self.flow.post_lobby(row)
        started = await self.flow.service.start(row.id, interaction.user.id)
        await self.flow.refresh_lobby(started.row)
        await self.flow.deliver(row.id)
        await self.flow.private(
            interaction, t("challenge.opened", loc, game=title, channel=thread.id, week=iso_week(week, loc))
        )

    @meeple.command(name="challenge-board")
    @app_commands.describe(mode="Which deal", week="Which week, as 2026-W48 (default: this week)")
    @app_commands.choices(mode=CHALLENGE_CHOICES)
    async def challenge_board(
        self, interaction: discord.Interaction, mode: str, week: app_commands.Range[str, 8, 8] | None = None
    ) -> None:
        """The ranking of a week's challenge on this server."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        guild = guild_of(interaction)
        if mode not in challenge.MODES:
            raise Refusal("challenge.unknown-mode")
        week = week or challenge.week_of(challenge.now())
        if not re.fullmatch(r"\d{4}-W\d{2}", week):
            raise Refusal("challenge.bad-week", week=week[:20])
        entries, playing = await challenge_store.board(self.db, guild, week, mode)
        label = t(f"challenge.mode.{mode}", loc)
        lines = [t("challenge.board.title", loc, mode=label, week=iso_week(week, loc))]
        for entry in entries[:LIST_LIMIT]:
            players = listing((f"<@{u}>" for u in entry.user_ids), loc)
            key = "challenge.board.won" if entry.won else "challenge.board.line"
            lines.append(t(key, loc, rank=entry.rank, players=players, score=entry.score))
        if not entries:
            lines.append(t("challenge.board.none", loc))
        if playing:
            lines.append(t("challenge.board.playing", loc, count=playing))
        await self.flow.private(interaction, clip("\n".join(lines)), allowed_mentions=discord.AllowedMentions.none())

    @meeple.command(name="rebuild-ratings")
    async def rebuild_ratings(self, interaction: discord.Interaction) -> None:
        """(Bot owner) Recompute every rating from the stored results."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if not await self.bot.is_owner(interaction.user):
            raise Refusal("ratings.owner-only")
        async with self.db.transaction() as conn:
            games = await rating_store.rebuild(conn)
        await self.flow.private(interaction, t("ratings.rebuilt", locale_of(interaction), count=games))

    @meeple.command(name="my-data")
    async def my_data(self, interaction: discord.Interaction) -> None:
        """Get a file with everything Meeple Post stores about you (only you see it)."""
        await privacy_ui.send_my_data(self.flow, interaction)

    @meeple.command(name="forget-me")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        """Have Meeple Post forget you: your games are resigned, your name removed (asks you to confirm)."""
        await privacy_ui.ask_forget(self.flow, interaction)

    @meeple.command(name="vacation")
    @app_commands.describe(
        days=f"How many days to pause your clock (0 ends a vacation; at most {VACATION_DAYS_PER_YEAR} days a year)"
    )
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 21]) -> None:
        """Pause your reminders and time limits in every game while you are away."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        now = self.bot.clock()
        if days == 0:
            ended = await store.end_vacation(self.db, interaction.user.id, now)
            await self.flow.private(interaction, t("vacation.ended" if ended else "vacation.none", loc))
            return
        year_ago = now - timedelta(days=365)
        used = timedelta()
        for start, end in await store.vacations(self.db, interaction.user.id):
            if end > year_ago:
                used += min(end, now) - max(start, year_ago) if start < now else timedelta()
        left = VACATION_DAYS_PER_YEAR - used.days
        if any(start <= now < end for start, end in await store.vacations(self.db, interaction.user.id)):
            raise Refusal("vacation.already")
        if days > left:
            raise Refusal("vacation.too-long", left=max(0, left), limit=VACATION_DAYS_PER_YEAR)
        await store.add_vacation(self.db, interaction.user.id, now, now + timedelta(days=days))
        await self.flow.private(interaction, t("vacation.started", loc, days=days, left=left - days))

    @meeple.command(name="settings")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        reminders="Default hours between reminders for new tables",
        time_limit="Default time limit per move for new tables (0: none)",
        on_timeout="Default consequence when the time limit runs out",
        idle_days="Close tables untouched for this many days",
        creator_role="Only members with this role may create tables (leave empty to keep; see 'everyone')",
        everyone="Let everyone create tables again (removes the creator role)",
        threads="Give every new game its own thread",
        challenge="Offer the weekly challenge (/meeple challenge) on this server",
        challenge_channel="The channel whose private threads host challenge games (default: where it is asked)",
        language="The default language of new tables' boards and announcements",
    )
    @app_commands.choices(time_limit=TIME_LIMIT_CHOICES)
    @app_commands.choices(on_timeout=TIMEOUT_CHOICES)
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        reminders: app_commands.Range[int, 1, 168] | None = None,
        time_limit: int | None = None,
        on_timeout: str | None = None,
        idle_days: app_commands.Range[int, 1, 365] | None = None,
        creator_role: discord.Role | None = None,
        everyone: bool | None = None,
        threads: bool | None = None,
        challenge: bool | None = None,
        challenge_channel: discord.TextChannel | None = None,
        language: str | None = None,
    ) -> None:
        """Show or change this server's defaults (Manage Server)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        if not interaction.permissions.manage_guild:
            raise Refusal("settings.rights")
        if language is not None and language not in LANGUAGES:
            raise Refusal("language.unknown")
        changes: dict[str, object] = {}
        if reminders is not None:
            changes["reminder_hours"] = reminders
        if time_limit is not None:
            changes["time_limit_hours"] = time_limit or None
        if on_timeout is not None:
            changes["timeout_action"] = on_timeout
        if idle_days is not None:
            changes["idle_days"] = idle_days
        if creator_role is not None:
            changes["creator_role_id"] = creator_role.id
        if everyone:
            changes["creator_role_id"] = None
        if threads is not None:
            changes["use_threads"] = threads
        if challenge is not None:
            changes["challenge_enabled"] = challenge
        if challenge_channel is not None:
            changes["challenge_channel_id"] = challenge_channel.id
        if language is not None:
            changes["language"] = language
        if changes:
            current = await store.update_guild_settings(self.db, guild_of(interaction), **changes)
        else:
            current = await store.guild_settings(self.db, guild_of(interaction))
        none = t("settings.none", loc)
        text = t(
            "settings.show",
            loc,
            reminders=current.reminder_hours or 24,
            limit=t("settings.hours", loc, hours=current.time_limit_hours) if current.time_limit_hours else none,
            action=t(f"timeout.{current.timeout_action or 'auto'}", loc),
            idle=current.idle_days,
            role=f"<@&{current.creator_role_id}>" if current.creator_role_id else t("settings.everyone", loc),
            threads=t("settings.yes" if current.use_threads else "settings.no", loc),
        )
        text += "\n" + t(
            "settings.show.challenge",
            loc,
            challenge=t("settings.yes" if current.challenge_enabled else "settings.no", loc),
            channel=f"<#{current.challenge_channel_id}>"
            if current.challenge_channel_id
            else t("challenge.anywhere", loc),
        )
        # The language new tables get: the server's own locale until one is chosen here.
        default = await self.flow.server_language(guild_of(interaction), guild_locale(interaction))
        key = "settings.show.language" if current.language else "settings.show.language-default"
        text += "\n" + t(key, loc, language=language_name(default))
        await self.flow.private(interaction, text, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: MeepleBot) -> None:
    bot.add_dynamic_items(*privacy_ui.PRIVACY_ITEMS)  # the forget-me confirmation
    await bot.add_cog(MeepleCog(bot))


async def teardown(bot: MeepleBot) -> None:
    bot.remove_dynamic_items(*privacy_ui.PRIVACY_ITEMS)
