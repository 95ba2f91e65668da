"""The ``/table`` command group: everything a channel needs to host a game."""

from __future__ import annotations

import io
import itertools
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import concession
from bot.answers import locale_of
from bot.cogs import GAME_CHOICES, TIME_LIMIT_CHOICES, TIMEOUT_CHOICES, channel_of, guild_of
from bot.flow import clip, jump_url
from bot.history_ui import show_log, show_past_board
from bot.languages import LANGUAGE_CHOICES, LANGUAGES, guild_locale
from bot.ui import ActButton, GameButton
from engine import GAMES
from l10n.words import game_title, t, title_term
from league.refusal import Refusal
from services import computer_turns as computer_seats
from services import game_options
from services.game_service import NO_OPTIONS, GameService, Timing
from services.storage import async_play
from services.storage import challenge as challenge_store
from services.wording import adapter_for

if TYPE_CHECKING:
    from bot.client import MeepleBot
    from bot.flow import Flow
    from services.storage.db import GameRow


LEVEL_CHOICES = [
    app_commands.Choice(name="Easy", value="easy"),
    app_commands.Choice(name="Normal", value="normal"),
    app_commands.Choice(name="Hard", value="hard"),
]
log = logging.getLogger("meeple.table")

OPTIONS_TEXT_LIMIT = 200  # far more than every option of every game written out


def option_combinations(game_key: str) -> list[dict[str, object]]:
    """Every combination of the game's options (one empty combination for a game without any)."""
    spec = GAMES[game_key].options() if game_key in GAMES else {}
    names = sorted(spec)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(spec[n]["choices"] for n in names))]


CHOICE_LIMIT = 100  # Discord's limit on an autocomplete choice's name and value


def option_choices(game_key: str, typed: str, locale: str) -> list[app_commands.Choice[str]]:
    """The ``options`` autocomplete: each combination worded as on the lobby, within Discord's limits."""
    if game_key not in GAMES:
        return []
    adapter = adapter_for(game_key)
    raw, typed = typed, typed.lower().strip()
    choices: list[app_commands.Choice[str]] = []
    for combo in option_combinations(game_key):
        if not combo:
            # A game without options: say so, rather than offer an empty (invalid) choice.
            name = t("options.none", locale, game=game_title(game_key, locale))
            return [app_commands.Choice(name=clip(name, CHOICE_LIMIT), value=NO_OPTIONS)]
        value = " ".join(f"{k}={v}" for k, v in combo.items())
        name = " · ".join(adapter.option_label(k, v, locale) for k, v in combo.items())
        # What is typed may be words of any language (等級=2, nível=2: services/game_options.py).
        if typed in value.lower() or typed in name.lower() or game_options.matches(GAMES[game_key], combo, raw):
            choices.append(app_commands.Choice(name=clip(name, CHOICE_LIMIT), value=value[:CHOICE_LIMIT]))
    return choices[:25]


THREAD_NAME_LIMIT = 100  # Discord's limit on a channel's name; its lists show far less


def thread_name(number: int | None, game: str, player: str, locale: str) -> str:
    """A game thread's name, what tells threads apart first (Discord cuts a name to what fits):
    the table number, then the game, then the player who opened it."""
    title = game_title(game, locale)
    if number is None:
        return clip(t("thread.name.new", locale, game=title, player=player), THREAD_NAME_LIMIT)
    return clip(t("thread.name", locale, number=number, game=title, player=player), THREAD_NAME_LIMIT)


class TableCog(commands.Cog):
    """Create, join and play tables of the hosted games."""

    table = app_commands.Group(name="table", description="Host a board game in this channel", guild_only=True)

    def __init__(self, bot: MeepleBot) -> None:
        self.bot = bot

    @property
    def flow(self) -> Flow:
        assert self.bot.flow is not None, "the cogs are loaded in setup_hook, after the flow"
        return self.bot.flow

    @property
    def service(self) -> GameService:
        return self.flow.service

    @table.command(name="create")
    @app_commands.describe(
        game="The game to play",
        options="Game options: pick from the list once the game is chosen",
        reminders="Remind a waiting player every this many hours (default: the server's, else 24)",
        time_limit="Time allowed per move (default: the server's, else none)",
        on_timeout="What happens when the time limit runs out (default: a legal move is made for them)",
        thread="Give the game its own thread (default: the server's setting)",
        casual="A casual table: its result does not change anyone's rating (default: rated)",
        computers="Seats for computer players (a table with a computer is never rated)",
        level="How strong the computer players are (default: normal)",
        takeover="A computer takes the seat of a player who resigns or forfeits, so the others can finish",
        language="The language of the table's boards and announcements (default: the server's)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.choices(time_limit=TIME_LIMIT_CHOICES)
    @app_commands.choices(on_timeout=TIMEOUT_CHOICES)
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        options: app_commands.Range[str, 1, OPTIONS_TEXT_LIMIT] | None = None,
        reminders: app_commands.Range[int, 1, 168] | None = None,
        time_limit: int | None = None,
        on_timeout: str | None = None,
        thread: bool | None = None,
        casual: bool | None = None,
        computers: app_commands.Range[int, 0, 3] = 0,
        level: str = "normal",
        takeover: bool = False,
        language: str | None = None,
    ) -> None:
        """Open a new table in this channel; others join with the buttons."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.check_creator_role(interaction)
        parsed = self.service.parse_options(game, options, locale_of(interaction))
        if level not in computer_seats.LEVELS:
            raise Refusal("error.option-invalid")
        if language is not None and language not in LANGUAGES:
            raise Refusal("language.unknown")
        language = language or await self.flow.server_language(guild_of(interaction), guild_locale(interaction))
        if computers and game in GAMES and 1 + computers > GAMES[game].max_players:
            raise Refusal(
                "computer.too-many", game=title_term(game, GAMES[game].title), count=GAMES[game].max_players - 1
            )
        robots = [
            (computer_seats.computer_user(k), computer_seats.name(k, level, language)) for k in range(1, computers + 1)
        ]
        channel_id, made = await self.game_channel(interaction, game, thread, language)
        row = await self.service.create(
            game,
            guild_of(interaction),
            channel_id,
            interaction.user.id,
            interaction.user.display_name,
            parsed,
            Timing(reminders, time_limit, on_timeout),
            others=robots,
            rated=not casual and not computers,
            link=computer_seats.recorder({seat: level for seat in range(1, computers + 1)}, takeover)
            if computers or takeover
            else None,
            language=language,
        )
        if made is not None:
            await self.name_thread(made, row, interaction)
        await self.flow.post_lobby(row)
        if channel_id == interaction.channel_id:
            await self.flow.private(interaction, t("lobby.created", locale_of(interaction)))
        else:  # a new thread: link it, or the creator is left looking for the table
            await self.flow.private(interaction, t("lobby.created-thread", locale_of(interaction), channel=channel_id))

    async def game_channel(
        self, interaction: discord.Interaction, game: str, thread: bool | None, language: str
    ) -> tuple[int, discord.Thread | None]:
        """The channel the game lives in: this one, or a new thread of it (and that thread), named
        in the table's ``language``: everyone in the channel reads the name, as they read its board."""
        if thread is None:
            thread = (await async_play.guild_settings(self.service.db, guild_of(interaction))).use_threads
        channel = interaction.channel
        if not thread or not isinstance(channel, discord.TextChannel):
            return channel_of(interaction), None
        name = thread_name(None, game, interaction.user.display_name, language)
        try:
            created = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.HTTPException as exc:
            raise Refusal("error.thread-failed") from exc
        return created.id, created

    async def name_thread(self, thread: discord.Thread, row: GameRow, interaction: discord.Interaction) -> None:
        """Give a game's new thread its table number, first: the thread exists before the table
        (the table lives in it), so it is created without one and renamed once the table is stored."""
        name = thread_name(row.id, row.game, interaction.user.display_name, self.flow.table_locale(row))
        try:
            await thread.edit(name=name)
        except discord.HTTPException as exc:  # the table works without it: the name only helps find it
            log.info("could not name the thread of game %s: %s", row.id, exc.status)

    async def check_creator_role(self, interaction: discord.Interaction) -> None:
        """Refuse when the server keeps table creation to a role the user lacks (moderators pass)."""
        settings = await async_play.guild_settings(self.service.db, guild_of(interaction))
        role = settings.creator_role_id
        if role is None or interaction.permissions.manage_guild:
            return
        if not any(r.id == role for r in getattr(interaction.user, "roles", [])):
            raise Refusal("error.creator-role", role=role)

    @create.autocomplete("options")
    async def create_options(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None) or ""
        return option_choices(game, current, locale_of(interaction))

    async def channel_game(
        self, interaction: discord.Interaction, *, defer: bool = True, finished_too: bool = False
    ) -> GameRow:
        """This channel's game (``finished_too``: or its last one); a refusal when there is none.
        ``defer`` first, unless the next step answers."""
        if defer:
            await interaction.response.defer(ephemeral=True, thinking=True)
        if finished_too:
            row = await self.service.active_or_last(channel_of(interaction))
        else:
            row = await self.service.active(channel_of(interaction))
        # A weekly challenge deal stays unseen by anyone still to finish their own attempt at it.
        user = interaction.user.id
        if user not in await self.service.seat_users(row.id) and await challenge_store.unfinished_challenge_week(
            self.service.db, row.id, user
        ):
            raise Refusal("challenge.hidden")
        return row

    @table.command(name="join")
    async def join(self, interaction: discord.Interaction) -> None:
        """Take a seat at the table waiting in this channel."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self.service.active(channel_of(interaction))
        row = await self.service.join(row.id, interaction.user.id, interaction.user.display_name)
        await self.flow.refresh_lobby(row)
        await self.flow.private(interaction, t("lobby.joined", locale_of(interaction)))

    @table.command(name="leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Give up your seat at the table before it starts."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self.service.active(channel_of(interaction))
        row = await self.service.leave(row.id, interaction.user.id)
        await self.flow.refresh_lobby(row)
        await self.flow.private(interaction, t("lobby.left", locale_of(interaction)))

    @table.command(name="start")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the game at this channel's table with the players seated."""
        if row := await self.channel_game(interaction):
            await self.flow.start(interaction, row.id)

    @table.command(name="status")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show this channel's game privately: the board and whose turn it is."""
        loc = locale_of(interaction)
        row = await self.channel_game(interaction)
        if row.status == "lobby":
            payload = await self.flow.lobby_payload(row)
            await self.flow.private(interaction, payload["content"])
            return
        state = await self.service.state(row)
        payload = await self.flow.board_payload(row, state, [], loc)
        url = jump_url(row, row.board_message_id)
        text = payload["content"] + (("\n" + t("move.board-link", loc, url=url)) if url else "")
        await interaction.followup.send(
            clip(text),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
            file=discord.File(io.BytesIO(payload["png"]), filename="board.png", description=payload["alt"]),
        )

    @table.command(name="hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Show your hand privately, with your choices when it is your turn."""
        if row := await self.channel_game(interaction, defer=False):
            await self.flow.show_hand(interaction, row.id)

    @table.command(name="log")
    async def log(self, interaction: discord.Interaction) -> None:
        """Read this channel's game log privately (your own secrets included), page by page."""
        if row := await self.channel_game(interaction, finished_too=True):
            await show_log(self.flow, interaction, row.id, None, edit=False)

    @table.command(name="history")
    @app_commands.describe(step="After how many moves (default: now); then browse with the buttons")
    async def history(self, interaction: discord.Interaction, step: app_commands.Range[int, 0] | None = None) -> None:
        """See the board as it stood at any past step of this channel's game, privately."""
        if row := await self.channel_game(interaction, finished_too=True):
            await show_past_board(self.flow, interaction, row.id, step, edit=False)

    @table.command(name="concede")
    async def concede(self, interaction: discord.Interaction) -> None:
        """Give up this channel's game (asks you to confirm)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        row = await self.service.active(channel_of(interaction))
        if row.status != "running":
            raise Refusal("error.not-started")
        seat = await self.service.seat_of(row, interaction.user.id)
        if seat is None:
            raise Refusal("error.not-a-player")
        state = await self.service.state(row)
        if concession.is_team_game(row.game, state.players):  # the team concedes together
            await concession.ask(interaction, row, seat, state)
            return
        action = next((a for a in state.legal_actions(seat) if state.action_kind(a) in ("concede", "resign")), None)
        if action is None:
            if adapter_for(row.game).give_up_command == "resign":
                raise Refusal("error.concede-use-resign")
            raise Refusal("error.concede-later")
        view = discord.ui.View(timeout=None)
        view.add_item(
            ActButton(row.id, state.version, action.text, t("concede.confirm", loc), style=discord.ButtonStyle.danger)
        )
        await self.flow.private(interaction, t("concede.ask", loc), view=view)

    @table.command(name="undo")
    async def undo(self, interaction: discord.Interaction) -> None:
        """Take back your last move, while it is still your turn and it revealed nothing."""
        if row := await self.channel_game(interaction, defer=False):
            await self.flow.undo(interaction, row.id, None)

    @table.command(name="resign")
    async def resign(self, interaction: discord.Interaction) -> None:
        """Leave this channel's game for good, ranked last (asks you to confirm)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self.service.active(channel_of(interaction))
        await self.service.running_seat(row.id, interaction.user.id)
        if not self.service.game(row.game).supports_resign():
            raise Refusal("error.resign-unsupported")
        view = discord.ui.View(timeout=None)
        view.add_item(GameButton(row.id, "resign", locale_of(interaction)))
        await self.flow.private(interaction, t("resign.ask", locale_of(interaction)), view=view)

    @table.command(name="handover")
    @app_commands.describe(member="Who takes your seat (they must not be playing in this game)")
    async def handover(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Hand your seat in this channel's game to someone else."""
        await self.change_seat(interaction, interaction.user, member, "seat.handed")

    @table.command(name="replace")
    @app_commands.describe(player="The player to replace", member="Who takes the seat")
    async def replace(self, interaction: discord.Interaction, player: discord.Member, member: discord.Member) -> None:
        """Give a player's seat to someone else (moderators: Manage Channels)."""
        if not interaction.permissions.manage_channels:
            raise Refusal("error.replace-rights")
        await self.change_seat(interaction, player, member, "seat.replaced")

    async def change_seat(
        self, interaction: discord.Interaction, old: discord.abc.User, new: discord.Member, key: str
    ) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        if new.bot:
            raise Refusal("error.seat-bot")
        row = await self.service.active(channel_of(interaction))
        row, seat = await self.service.hand_over(row.id, old.id, new.id, new.display_name)
        await self.flow.seat_changed(row, seat, new.id, key, old=old.mention, mod=interaction.user.mention)
        await self.flow.private(interaction, t("seat.done", locale_of(interaction), new=new.mention))

    @table.command(name="vote-abandon")
    async def vote_abandon(self, interaction: discord.Interaction) -> None:
        """Vote to abandon this channel's game; it ends when every player has voted."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self.service.active(channel_of(interaction))
        row, votes, players = await self.service.vote_abandon(row.id, interaction.user.id)
        key = "vote.abandoned" if row.status == "abandoned" else "vote.counted"
        await self.flow.announce(
            row, t(key, self.flow.table_locale(row), player=interaction.user.mention, votes=votes, players=players)
        )
        await self.flow.private(interaction, t("vote.done", locale_of(interaction)))

    @table.command(name="abandon")
    async def abandon(self, interaction: discord.Interaction) -> None:
        """Close this channel's table without a result (its creator, or a moderator)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self.service.active(channel_of(interaction))
        perms = interaction.permissions
        if interaction.user.id != row.creator_id and not perms.manage_channels:
            raise Refusal("error.abandon-rights")
        row = await self.service.abandon(row.id)
        await self.flow.refresh_lobby(row)
        await self.flow.announce(row, t("game.abandoned", self.flow.table_locale(row), user=interaction.user.mention))
        await self.flow.private(interaction, t("game.abandoned.private", locale_of(interaction)))


async def setup(bot: MeepleBot) -> None:
    bot.add_dynamic_items(*concession.TEAM_ITEMS)  # a team's concession: the proposal and its answers
    await bot.add_cog(TableCog(bot))


async def teardown(bot: MeepleBot) -> None:
    bot.remove_dynamic_items(*concession.TEAM_ITEMS)
