"""What happens on Discord around each request: defer, call the service, answer the clicker.

Every component and command ends up here; rules live in ``engine`` and storage in
``services.storage``. What is posted (boards, hands, lobbies, reminders) is ``bot.posting``'s; what
follows a change to a table (its board and DMs delivered, its computers poked) is
``services.follow_up``'s, which the delivery worker, the scheduler and the computers share.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

import discord

from bot.answers import MESSAGE_LIMIT as MESSAGE_LIMIT
from bot.answers import clip as clip
from bot.answers import locale_of
from bot.languages import LANGUAGES, table_language_of
from bot.posting import MENTIONS as MENTIONS
from bot.posting import Poster
from bot.posting import jump_url as jump_url
from bot.ui import UndoButton
from engine import Action, State
from l10n.words import t
from league.refusal import Refusal
from services import alt_text
from services import computer_turns as computers
from services.follow_up import FollowUp
from services.game_service import GameService, MoveResult
from services.pictures import Pictures
from services.shards import ALL as ALL_SHARDS
from services.shards import Shards
from services.storage import GameRow, SeatRow, async_play, jobs
from services.storage.jobs import JobSpec
from services.wording import adapter_for

if TYPE_CHECKING:
    from discord.ext import commands

    from services.computer_turns import ComputerTurns
    from services.delivery import Delivery

log = logging.getLogger("meeple.flow")


class Flow:
    """The bot's behaviour for tables and moves, shared by commands and components."""

    def __init__(self, bot: commands.Bot, service: GameService, poster: Poster, follow_up: FollowUp) -> None:
        self.bot = bot
        self.service = service
        self.poster = poster  # what is posted: boards, hands, lobbies, lines in a table's channel
        self.follow_up = follow_up  # what follows a change: its board and DMs delivered, computers poked
        self.delivery: Delivery = follow_up.delivery
        self.locale = poster.locale
        self.tasks = poster.tasks  # background work (replays, languages noted) kept alive until done
        # The guilds whose games this process carries on without a click (services/shards.py); set by the bot.
        self.shards: Shards = ALL_SHARDS

    @property
    def pictures(self) -> Pictures:
        """The picture service everything here draws with (closed by ``shutdown``)."""
        return self.poster.pictures

    @pictures.setter
    def pictures(self, pictures: Pictures) -> None:
        self.poster.pictures = self.follow_up.pictures = pictures
        if self.computer_turns is not None:
            self.computer_turns.pictures = pictures

    @property
    def answer_wait(self) -> float:
        """How long a player's answer waits for the board of their move (``FollowUp.answer_wait``)."""
        return self.follow_up.answer_wait

    @answer_wait.setter
    def answer_wait(self, seconds: float) -> None:
        self.follow_up.answer_wait = seconds

    @property
    def computer_turns(self) -> ComputerTurns | None:
        return self.follow_up.computer_turns

    # -- answering ------------------------------------------------------------------------
    async def refuse(self, interaction: discord.Interaction, refusal: Refusal, row: GameRow | None = None) -> None:
        loc = locale_of(interaction)
        text = t(refusal.key, loc, **refusal.values)
        if refusal.key == "error.stale-board" and row is not None:
            url = jump_url(row, row.board_message_id)
            if url:
                text += "\n" + t("error.current-board", loc, url=url)
        await self.private(interaction, text)

    async def private(self, interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        """Answer only the clicker, whether or not the interaction was deferred."""
        if interaction.response.is_done():
            await interaction.followup.send(clip(text), ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(clip(text), ephemeral=True, **kwargs)

    async def shutdown(self, grace: float = 10.0) -> None:
        """Let deliveries and background work (replays) finish for a moment, then cancel what is left.

        Deliveries not made stay in the database and go out at the next start; a computer's
        turn cut off here is played at the next start.
        """
        if self.computer_turns is not None:
            await self.computer_turns.shutdown()
        await self.delivery.shutdown()
        await self.tasks.close(grace)
        self.pictures.close()
        await self.pictures.tasks.close()

    # -- languages ------------------------------------------------------------------------
    async def server_language(self, guild_id: int | None, preferred: str | None = None) -> str:
        """A new table's language by default: the server's setting, else its preferred locale
        (``preferred``, or the cached server's) when we have that catalogue, else English."""
        if guild_id is None:
            return table_language_of(preferred) if preferred else self.locale
        settings = await async_play.guild_settings(self.service.db, guild_id)
        if settings.language:
            return settings.language
        if preferred is None:
            guild = self.bot.get_guild(guild_id)
            preferred = str(guild.preferred_locale.value) if guild is not None and guild.preferred_locale else None
        return table_language_of(preferred) if preferred else self.locale

    # -- the poster's and the follow-up's, for commands and the tournament runner -----------
    def table_locale(self, row: GameRow) -> str:
        return self.poster.table_locale(row)

    def saw(self, user_id: int, locale: str) -> asyncio.Task[bool] | None:
        return self.poster.saw(user_id, locale)

    async def names(self, game_id: int, loc: str | None = None) -> list[str]:
        return await self.poster.names(game_id, loc)

    def seat_names(self, seats: Sequence[SeatRow], loc: str | None = None) -> list[str]:
        return self.poster.seat_names(seats, loc)

    async def lobby_payload(self, row: GameRow) -> dict:
        return await self.poster.lobby_payload(row)

    async def post_lobby(self, row: GameRow) -> None:
        await self.poster.post_lobby(row)

    async def refresh_lobby(self, row: GameRow) -> None:
        await self.poster.refresh_lobby(row)

    def channel(self, row: GameRow) -> discord.abc.Messageable:
        return self.poster.channel(row)

    async def announce(self, row: GameRow, text: str) -> None:
        await self.poster.announce(row, text)

    async def board_payload(self, row: GameRow, state: State, lines: list[str], loc: str | None = None) -> dict:
        return await self.poster.board_payload(row, state, lines, loc)

    async def deliver(self, game_id: int, row: GameRow | None = None) -> GameRow:
        return await self.follow_up.deliver(game_id, row)

    async def after_move(
        self, result: MoveResult, before: Sequence[str] = (), forfeited: AbstractSet[int] = frozenset()
    ) -> GameRow:
        return await self.follow_up.after_move(result, before, forfeited)

    async def take_over(self, game_id: int, user_id: int, why: str) -> bool:
        return await self.follow_up.take_over(game_id, user_id, why)

    # -- lobby ----------------------------------------------------------------------------
    async def lobby_button(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        await interaction.response.defer()
        if op == "join":
            row = await self.service.join(game_id, interaction.user.id, interaction.user.display_name)
        elif op == "leave":
            row = await self.service.leave(game_id, interaction.user.id)
        else:
            await self.start(interaction, game_id)
            return
        await interaction.edit_original_response(**await self.lobby_payload(row))

    async def set_option(self, interaction: discord.Interaction, game_id: int, name: str, value: str) -> None:
        await interaction.response.defer()
        try:
            row = await self.service.set_option(game_id, interaction.user.id, name, value)
        except Refusal:
            # The refused menu shows the clicker's choice until the lobby is redrawn as stored:
            # redraw it, then let the one error path give the refusal its private answer.
            if (stored := await self.service.db.get_game(game_id)) is not None:
                await interaction.edit_original_response(**await self.lobby_payload(stored))
            raise
        await interaction.edit_original_response(**await self.lobby_payload(row))

    async def set_language(self, interaction: discord.Interaction, game_id: int, language: str) -> None:
        """The lobby's language menu: the lobby is redrawn in the chosen language."""
        await interaction.response.defer()
        if language not in LANGUAGES:
            raise Refusal("language.unknown")
        try:
            row = await self.service.set_language(
                game_id, interaction.user.id, language, lambda user, level: computers.name(user, level, language)
            )
        except Refusal:
            # As for an option: the menu is redrawn as stored before the private refusal.
            if (stored := await self.service.db.get_game(game_id)) is not None:
                await interaction.edit_original_response(**await self.lobby_payload(stored))
            raise
        await interaction.edit_original_response(**await self.lobby_payload(row))

    async def start(self, interaction: discord.Interaction, game_id: int) -> None:
        """Start the table: set up the game, post the first board, push each hand by DM."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        started = await self.service.start(game_id, interaction.user.id)
        row = started.row
        await self.refresh_lobby(row)
        # The first board and the hands were enqueued with the start itself.
        await self.deliver(row.id)
        if interaction.message is None or interaction.message.id != row.lobby_message_id:
            await self.private(interaction, t("game.started.private", locale_of(interaction)))

    # -- the board ------------------------------------------------------------------------
    def board_link(self, row: GameRow, loc: str) -> str:
        """A link to the board of the game's current version, or word that it is on its way."""
        url = jump_url(row, row.board_message_id)
        if url and row.board_version == row.version:
            return t("move.board-link", loc, url=url)
        return t("move.board-coming", loc)

    # -- private information --------------------------------------------------------------
    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        row = await self.service.get(game_id)
        seats = await self.service.db.seats(game_id)
        users = [s.user_id for s in seats]
        seat = users.index(interaction.user.id) if interaction.user.id in users else None
        if seat is None:
            raise Refusal("error.spectator-hand")
        state = await self.service.state(row)
        text, png = await self.poster.hand_payload(row, state, seat, loc, seats)
        lines = [text]
        view = None
        if row.status == "running" and seat in state.to_move():
            lines.append(t("choices.your-turn", loc))
            meaning = adapter_for(row.game).choice_help(state.view(seat), seat, loc)
            if meaning:
                lines.append(t("howto.help.label", loc, text=meaning))
            view = self.poster.choices_view(row, state, seat, loc, self.seat_names(seats, loc))
        elif row.status == "running":
            lines.append(t("choices.not-your-turn", loc))
        else:
            lines.insert(0, t(f"choices.game-{row.status}", loc))
        alt = alt_text.hand(row.game, state.view(seat), loc)
        kwargs: dict = {"file": discord.File(io.BytesIO(png), filename="hand.png", description=alt)}
        if view is not None:
            kwargs["view"] = view
        await interaction.followup.send(clip("\n".join(lines)), ephemeral=True, **kwargs)

    # -- moves ----------------------------------------------------------------------------
    async def act(self, interaction: discord.Interaction, game_id: int, version: int | None, action: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        result = await self.service.act(game_id, interaction.user.id, version, action)
        row = await self.after_move(result)
        names = self.seat_names(result.seats, loc) if result.seats else await self.names(row.id, loc)
        lines = [t("move.done", loc, action=self.action_words(row, result, Action(result.action), loc, names))]
        view = None
        if result.seat in result.state.to_move():
            lines.append(t("choices.still-your-turn", loc))
            view = self.poster.choices_view(row, result.state, result.seat, loc, names) or discord.ui.View(timeout=None)
            if self.service.undoable(row.game, result.seat, result.state, result.events) and len(view.children) < 25:
                view.add_item(UndoButton(row.id, result.state.version, loc))
        lines.append(self.board_link(row, loc))
        await self.private(interaction, "\n".join(lines), **({"view": view} if view else {}))

    def action_words(
        self, row: GameRow, result: MoveResult, action: Action, loc: str | None = None, names: Sequence[str] = ()
    ) -> str:
        """An action as players read it, from the acting seat's point of view when it chose it
        (before the move: a card taken is named, not the one that refilled its space)."""
        return result.worded(action, loc or self.table_locale(row), names)

    # -- undo, resign, seats, rematch ------------------------------------------------------
    async def undo(self, interaction: discord.Interaction, game_id: int, version: int | None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        result = await self.service.undo(game_id, interaction.user.id, version)
        row = result.row
        names = await self.names(row.id, loc)
        label = self.action_words(row, result, Action(result.action), loc, names)
        row = await self.deliver(row.id)  # the board after the undo was enqueued with it
        view = self.poster.choices_view(row, result.state, result.seat, loc, names)
        await self.private(interaction, t("undo.done", loc, action=label), **({"view": view} if view else {}))

    async def resign(self, interaction: discord.Interaction, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if await self.take_over(game_id, interaction.user.id, "resign"):
            await self.private(interaction, t("resign.done", locale_of(interaction)))
            return
        result = await self.service.resign(game_id, interaction.user.id)
        line = t("resign.public", self.table_locale(result.row), player=f"<@{interaction.user.id}>")
        await self.after_move(result, before=[line], forfeited={result.seat})
        await self.private(interaction, t("resign.done", locale_of(interaction)))

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self.service.rematch(game_id, interaction.user.id)
        await self.post_lobby(row)
        await self.private(interaction, t("rematch.done", locale_of(interaction)))

    async def seat_changed(self, row: GameRow, seat: int, new_user: int, key: str, **values: object) -> None:
        """Announce a seat's new player and send them the seat's private information."""
        await self.announce(row, t(key, self.table_locale(row), new=f"<@{new_user}>", **values))
        await jobs.enqueue(self.service.db, row.id, [JobSpec("hand", row.version, seat, {"reason": "game.dm.seat"})])
        await self.deliver(row.id)

    # -- reminders ------------------------------------------------------------------------
    async def snooze(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        row = await self.service.get(game_id)
        seat = await self.service.seat_of(row, interaction.user.id)
        if seat is None:
            raise Refusal("error.not-a-player")
        if row.status != "running" or row.version != version:
            raise Refusal("snooze.too-late")
        state = await self.service.state(row)
        if seat not in state.to_move():
            raise Refusal("snooze.not-waiting")
        if not await async_play.snooze(self.service.db, game_id, version):
            raise Refusal("snooze.too-late")
        await self.private(interaction, t("snooze.done", loc))

    # -- start-up -------------------------------------------------------------------------
    async def resume_all(self) -> int:
        """Carry on after a stop or crash, reading only what that needs: boards a crash kept from
        being posted get a job if they have none, computers that may be due to move are poked,
        and every pending board and DM is caught up in the background, a few games at a time.
        No state is loaded here (each loads on first use). How many games run."""
        db = self.service.db
        # A database from before durable delivery: the board of a move a crash kept from being
        # posted has no job; give it one.
        unposted = await jobs.unposted_without_job(db, self.shards)
        if unposted:
            async with db.transaction() as conn:
                for game_id, version, language in unposted:
                    notes = [t("game.resumed", language or self.locale)]
                    await jobs.insert_jobs(conn, game_id, [JobSpec("board", version, payload={"notes": notes})])
        if self.computer_turns is not None:
            for game_id in await computers.running_with_computers(db, self.shards):
                self.computer_turns.poke(game_id)  # a computer whose turn a stop cut off
        resumed = await self.delivery.resume()
        if resumed:
            log.info("catching up deliveries for %d games in the background", resumed)
        return await db.running_count(self.shards)
