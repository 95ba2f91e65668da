"""What happens on Discord around each request: defer, call the service, render, post, DM.

Every component and command ends up here; rules live in ``engine`` and storage in
``bot.storage``. Pictures are drawn in worker processes (``bot.pictures``) so the event loop never blocks.
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

import discord

import render
from bot import alt_text, computers, ratings, turns
from bot.answers import locale_of
from bot.computers import who
from bot.delivery import UNEDITABLE, Backoff, Delivery, record_results
from bot.games import GameAdapter, adapter_for
from bot.i18n import game_title, resolve_locale, series, t
from bot.languages import LANGUAGES, language_name, table_language_of
from bot.pictures import Pictures
from bot.service import GameService, MoveResult, Refusal
from bot.shards import ALL as ALL_SHARDS
from bot.shards import Shards
from bot.storage import GameRow, SeatRow, async_play, jobs, locales
from bot.storage.jobs import JobSpec
from bot.tasks import Tasks
from bot.ui import (
    ActButton,
    ActSelect,
    GameButton,
    HandButton,
    LanguageSelect,
    LobbyButton,
    OptionSelect,
    SnoozeButton,
    UndoButton,
)
from engine import Action, Event, State

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.computers import ComputerTurns

log = logging.getLogger("meeple.flow")

MESSAGE_LIMIT = 2000
UPLOAD_LIMIT = 10 * 1024 * 1024
MAX_BUTTONS = 5
MAX_COMPONENTS = 25  # 5 rows of 5 buttons on one message
# The choice the bot proposes (a payment, for example) stands out in green.
SUGGESTED = discord.ButtonStyle.success
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
# How long a player's answer waits for the board of their move before saying it is on its way.
ANSWER_WAIT = 5.0
# Users whose language is remembered in memory (the database keeps all of them).
SEEN_LIMIT = 10_000
# Finished games remembered as recorded (bot.delivery.record_results).
RECORDED_LIMIT = 10_000


def jump_url(row: GameRow, message_id: int | None) -> str | None:
    if message_id is None:
        return None
    return f"https://discord.com/channels/{row.guild_id or '@me'}/{row.channel_id}/{message_id}"


def select_options(
    adapter: GameAdapter, actions: Sequence[Action], view: dict, loc: str, names: Sequence[str] = ()
) -> list[discord.SelectOption]:
    """A menu's options for ``actions`` (Discord takes 25): label, the action, its second line, its emoji."""
    return [
        discord.SelectOption(
            label=adapter.action_label(a, view, loc, names)[:100],
            value=a.text,
            description=(adapter.action_description(a, view, loc) or None),
            emoji=adapter.action_emoji(a, view),
        )
        for a in actions[:25]
    ]


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\N{HORIZONTAL ELLIPSIS}"


class Flow:
    """The bot's behaviour for tables and moves, shared by commands and components."""

    def __init__(
        self,
        bot: commands.Bot,
        service: GameService,
        locale: str = "en",
        backoff: Backoff | None = None,
        pictures: Pictures | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        # Tables from before languages, and what belongs to no table; a table speaks its own
        # language (table_locale), a private answer the clicker's, a DM its recipient's.
        self.locale = locale
        self._seen: dict[int, str] = {}  # user id -> Discord locale of their last interaction
        self.tasks = Tasks()  # background work (replays) kept alive until done (bot/tasks.py)
        self.delivery = Delivery(self, backoff)
        # Boards and hands are drawn here (worker processes; hands cached); closed by ``shutdown``.
        self.pictures = pictures if pictures is not None else Pictures()
        self.answer_wait = ANSWER_WAIT
        # Told when a table finishes (the tournament runner settles its round); set by the bot.
        self.table_over: Callable[[int], None] | None = None
        self.computer_turns: ComputerTurns | None = None  # plays computer seats; set by the bot
        # The guilds whose games this process carries on without a click (bot/shards.py); set by the bot.
        self.shards: Shards = ALL_SHARDS
        # Finished games whose results this process stored (bounded; after a restart, empty).
        self.results_recorded: set[int] = set()

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
    def table_locale(self, row: GameRow) -> str:
        """The language of the table's public posts (boards, lobby, announcements)."""
        return row.language or self.locale

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

    def saw(self, user_id: int, locale: str) -> asyncio.Task[bool] | None:
        """Note the Discord locale an interaction shows for its user (stored only when it changed).

        Remembered here at once (``user_locale`` reads it from memory) and stored in the
        background: the click's first answer never waits for the write behind a busy database
        connection. The task is returned for whoever wants to wait for the write (tests)."""
        if self._seen.get(user_id) == locale:
            return None
        if len(self._seen) >= SEEN_LIMIT:
            self._seen.clear()
        self._seen[user_id] = locale

        def unseen(error: BaseException) -> None:
            if self._seen.get(user_id) == locale:
                self._seen.pop(user_id, None)  # not stored: try again at their next interaction
            log.error("could not note the language of an interaction", exc_info=error)

        return self.tasks.start(
            locales.remember_locale(self.service.db, user_id, locale), name="meeple-locale", on_error=unseen
        )

    async def user_locale(self, user_id: int, fallback: str) -> str:
        """The language of what reaches a user outside an interaction (a DM): the one last seen
        from them, else ``fallback`` (the table's language)."""
        seen = self._seen.get(user_id) or await locales.user_locale(self.service.db, user_id)
        return resolve_locale(seen) if seen else fallback

    # -- names ----------------------------------------------------------------------------
    async def names(self, game_id: int, loc: str | None = None) -> list[str]:
        return self.seat_names(await self.service.db.seats(game_id), loc)

    def seat_names(self, seats: Sequence[SeatRow], loc: str | None = None) -> list[str]:
        """The players' names as shown, from seats already read."""
        return [
            (computers.reworded(s.user_id, s.display_name, loc) if loc else s.display_name)
            or t("player.fallback", loc or self.locale, number=s.seat + 1)
            for s in seats
        ]

    def note_results_recorded(self, game_id: int) -> None:
        """A finished game's results are stored (``record_results``): its final board need not store them again."""
        if len(self.results_recorded) >= RECORDED_LIMIT:
            self.results_recorded.clear()  # a game forgotten here is only recorded again, changing nothing
        self.results_recorded.add(game_id)

    # -- lobby ----------------------------------------------------------------------------
    async def lobby_payload(self, row: GameRow) -> dict:
        game = self.service.game(row.game)
        adapter = adapter_for(row.game)
        seats = await self.service.db.seats(row.id)
        loc = self.table_locale(row)
        shown = zip(seats, self.seat_names(seats, loc), strict=True)
        players = "\n".join(f"{s.seat + 1}. {who(s.user_id, name)}" for s, name in shown) or t("lobby.nobody", loc)
        options = series((adapter.option_label(k, v, loc) for k, v in row.options.items()), loc)
        seats_key = "lobby.players.exact" if game.min_players == game.max_players else "lobby.players"
        lines = [
            t("lobby.title", loc, game=game_title(game.id, loc)),
            t(seats_key, loc, low=game.min_players, high=game.max_players, count=len(seats)),
            players,
        ]
        if options:
            lines.append(t("lobby.options", loc, options=options))
        lines.append(t("language.lobby", loc, language=language_name(row.language or self.locale)))
        if not row.rated and row.game in ratings.COMPETITIVE:
            lines.append(t("lobby.casual", loc))
        view = discord.ui.View(timeout=None)
        if row.status == "lobby":
            full = len(seats) >= game.max_players  # nobody else can join: say so, and offer no Join
            lines.append(t("lobby.full" if full else "lobby.hint", loc))
            if game.options():
                lines.append(t("lobby.hint.options", loc))
            for name, spec in game.options().items():
                choices = [
                    discord.SelectOption(
                        label=adapter.option_label(name, c, loc)[:100], value=str(c), default=c == row.options.get(name)
                    )
                    for c in spec["choices"][:25]
                ]
                placeholder = t("lobby.option-placeholder", loc, option=adapter.option_name(name, loc))
                view.add_item(OptionSelect(row.id, name, choices, placeholder=placeholder[:150]))
            current = row.language or self.locale
            languages = [
                discord.SelectOption(label=label, value=code, default=code == current)
                for code, label in LANGUAGES.items()
            ]
            view.add_item(LanguageSelect(row.id, languages, placeholder=t("language.placeholder", loc)[:150]))
            for op in ("join", "leave", "start"):
                view.add_item(LobbyButton(row.id, op, loc, disabled=full and op == "join"))
        else:
            lines.append(t(f"lobby.status.{row.status}", loc))
        from bot.howto import howto_button  # the guide builds on this module

        view.add_item(howto_button(row.game, loc))
        return {"content": clip("\n".join(lines)), "view": view, "allowed_mentions": discord.AllowedMentions.none()}

    async def post_lobby(self, row: GameRow) -> None:
        payload = await self.lobby_payload(row)
        channel = self.channel(row)
        message = await channel.send(**payload)
        await self.service.db.set_message(row.id, "lobby", message.id)

    def channel(self, row: GameRow) -> discord.abc.Messageable:
        known = self.bot.get_channel(row.channel_id)
        if isinstance(known, discord.abc.Messageable):
            return known
        return self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    async def announce(self, row: GameRow, text: str) -> None:
        """A plain public line in the game's channel; mentions never ping here."""
        try:
            await self.channel(row).send(clip(text), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("could not post in the channel of game %s: %s", row.id, exc.status)

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

    async def refresh_lobby(self, row: GameRow) -> None:
        if row.lobby_message_id is None:
            return
        try:
            channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
            await channel.get_partial_message(row.lobby_message_id).edit(**await self.lobby_payload(row))
        except discord.HTTPException as exc:
            log.info("could not update the lobby of game %s: %s", row.id, exc.status)

    # -- the board ------------------------------------------------------------------------
    async def board_payload(
        self,
        row: GameRow,
        state: State,
        lines: list[str],
        loc: str | None = None,
        latest: bool = False,
        seats: Sequence[SeatRow] | None = None,
    ) -> dict:
        """The board's words and picture, in ``loc`` (a private /table status) else the table's language.

        ``latest`` (the board delivery posts) may raise ``Superseded``: a newer board of the game
        took its place in the drawing queue. ``seats``: the game's, when the caller has read them."""
        adapter = adapter_for(row.game)
        loc = loc or self.table_locale(row)
        if seats is None:
            seats = await self.service.db.seats(row.id)
        names = self.seat_names(seats, loc)
        users = [seat.user_id for seat in seats]
        public_view = state.view(None)
        png = await self.pictures.board(row.id, row.game, public_view, names, loc, latest=latest)
        body: list[str] = []
        outcome = state.outcome()
        view = discord.ui.View(timeout=None)
        if outcome is not None:
            body.extend(adapter.outcome_lines(outcome, names, loc))
            view.add_item(GameButton(row.id, "rematch", loc))
        else:
            movers = state.to_move()
            body.append(computers.turn_line(adapter, public_view["public"], movers, users, names, loc))
            # A decision only computers are to make offers nobody a button (it would only be refused).
            people_choose = any(not computers.is_computer(users[s]) for s in movers)
            for item in self.public_choices(row, state, public_view, names, loc) if people_choose else ():
                view.add_item(item)
            view.add_item(HandButton(row.id, loc))
        from bot.history_ui import log_button  # the history module builds on this one

        view.add_item(log_button(row.id, loc))
        if len(view.children) < MAX_COMPONENTS:
            from bot.howto import howto_button

            view.add_item(howto_button(row.game, loc))
        # What happened, then where the game stands: the oldest lines give way to the limit.
        text = turns.fit(lines, body, MESSAGE_LIMIT)
        kept = text[: len(text) - len(body)]
        alt = alt_text.board(row.game, public_view["public"], state.to_move(), names, loc, kept, outcome, users)
        return {"content": clip("\n".join(text)), "png": png, "view": view, "lines": kept, "alt": alt}

    def public_choices(
        self, row: GameRow, state: State, public_view: dict, names: Sequence[str] = (), loc: str | None = None
    ) -> list[discord.ui.Item]:
        """Buttons for a decision that hides nothing, shown on the board itself."""
        adapter = adapter_for(row.game)
        actions: list[Action] = []
        for seat in state.to_move():
            for action in state.legal_actions(seat):
                if action not in actions and not adapter.action_is_dangerous(action):
                    actions.append(action)
        if not actions or len(actions) > 4 * MAX_BUTTONS or any(adapter.action_is_private(a) for a in actions):
            return []
        loc = loc or self.table_locale(row)
        items: list[discord.ui.Item] = []
        for group, chosen in adapter.choice_groups(actions, public_view, loc):
            if group:  # one menu of these choices, each with its second line
                options = select_options(adapter, chosen, public_view, loc, names)
                placeholder = t(f"{row.game}.choices.{group}", loc)[:150]
                items.append(ActSelect(row.id, state.version, options, placeholder=placeholder, group=group))
                continue
            items.extend(
                ActButton(
                    row.id,
                    state.version,
                    a.text,
                    adapter.action_label(a, public_view, loc, names),
                    style=SUGGESTED if adapter.action_is_suggested(a, public_view) else discord.ButtonStyle.secondary,
                    emoji=adapter.action_emoji(a, public_view),
                )
                for a in chosen
            )
        return items

    async def deliver(self, game_id: int, row: GameRow | None = None) -> GameRow:
        """Have the game's pending boards and DMs delivered; wait a little for them, not for retries.

        The game's row after it: ``row`` (the game as a change just left it), with the board this
        process posted for it, if it did; without ``row``, read again."""
        self.delivery.kick(game_id)
        if self.computer_turns is not None:
            self.computer_turns.poke(game_id)
        if not self.pictures.busy:  # a full drawing queue: answer now, the board follows
            await self.delivery.wait(game_id, self.answer_wait)
        if row is not None:
            return self.delivery.board_of(row)
        return await self.service.get(game_id)

    def board_link(self, row: GameRow, loc: str) -> str:
        """A link to the board of the game's current version, or word that it is on its way."""
        url = jump_url(row, row.board_message_id)
        if url and row.board_version == row.version:
            return t("move.board-link", loc, url=url)
        return t("move.board-coming", loc)

    async def post_board(
        self,
        row: GameRow,
        state: State,
        lines: list[str],
        seats: Sequence[SeatRow] | None = None,
        *,
        edit: int | None = None,
        mention: Sequence[int] = (),
        nonce: str | None = None,
    ) -> tuple[discord.Message, list[str]]:
        """Post a board message in the game's channel, or ``edit`` the board message of that id
        (a step within a turn), and remember it as the current one (one attempt; the delivery
        worker retries); the message and the lines of what happened it shows. Only the seats in
        ``mention`` are notified (a turn that begins); an edit notifies nobody. ``nonce`` makes a
        post repeated after a crash come back as the message already posted. An edit Discord
        refuses for good (the message deleted, or too old) becomes a new message. A final board
        gets the replay and Rematch."""
        payload = await self.board_payload(row, state, lines, latest=True, seats=seats)
        message: discord.Message | None = None
        if edit is not None:
            try:
                message = await self.edit_in_channel(row, edit, payload)
            except discord.HTTPException as exc:
                if exc.code not in UNEDITABLE:
                    raise
                log.info("board %s of game %s cannot be edited (%s): posting a new one", edit, row.id, exc.code)
        if message is None:
            if seats is None:
                seats = await self.service.db.seats(row.id)
            users = [seats[seat].user_id for seat in mention]
            notify = discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False, users=[discord.Object(user) for user in users]
            )
            message = await self.send_to_channel(row, payload, notify, nonce)
            if message.content.strip() != payload["content"].strip():
                # Discord knew the nonce: an earlier attempt's post, showing less; bring it up to date.
                message = await self.edit_in_channel(row, message.id, payload)
        await self.service.db.set_board(row.id, message.id, state.version)
        if state.outcome() is not None:
            from bot.history_ui import attach_replay

            self.tasks.start(attach_replay(self, row, message, seats), name=f"replay-{row.id}")
        return message, payload["lines"]

    async def send_to_channel(
        self,
        row: GameRow,
        payload: dict,
        allowed_mentions: discord.AllowedMentions = MENTIONS,
        nonce: str | None = None,
    ) -> discord.Message:
        """Send a board, unarchiving its thread or shrinking its image when Discord asks; raise otherwise."""
        channel = self.channel(row)
        png: bytes = payload["png"]
        for attempt in range(3):
            try:
                return await channel.send(
                    content=payload["content"],
                    file=discord.File(io.BytesIO(png), filename="board.png", description=payload.get("alt")),
                    view=payload["view"],
                    allowed_mentions=allowed_mentions,
                    nonce=nonce if nonce is not None else secrets.randbits(64),  # as discord.py does
                )
            except discord.HTTPException as exc:
                if exc.code == 50083 and attempt == 0:
                    await self.unarchive(row.channel_id)
                elif (exc.code == 40005 or exc.status == 413) and attempt < 2:
                    png = await self.pictures.draw(render.shrink_png, png, len(png) // 4)
                else:
                    raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def edit_in_channel(self, row: GameRow, message_id: int, payload: dict) -> discord.Message:
        """Edit a board message to show ``payload`` (its picture replaced), unarchiving its thread
        or shrinking the image when Discord asks; raise otherwise. An edit notifies nobody."""
        message = self.channel(row).get_partial_message(message_id)  # type: ignore[attr-defined]
        png: bytes = payload["png"]
        for attempt in range(3):
            try:
                return await message.edit(
                    content=payload["content"],
                    attachments=[discord.File(io.BytesIO(png), filename="board.png", description=payload.get("alt"))],
                    view=payload["view"],
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as exc:
                if exc.code == 50083 and attempt == 0:
                    await self.unarchive(row.channel_id)
                elif (exc.code == 40005 or exc.status == 413) and attempt < 2:
                    png = await self.pictures.draw(render.shrink_png, png, len(png) // 4)
                else:
                    raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def unarchive(self, channel_id: int) -> None:
        try:
            thread = await self.bot.fetch_channel(channel_id)
            if isinstance(thread, discord.Thread) and thread.archived:
                await thread.edit(archived=False)
        except discord.HTTPException as exc:
            log.warning("could not unarchive thread %s: %s", channel_id, exc.status)

    # -- private information --------------------------------------------------------------
    async def hand_payload(
        self, row: GameRow, state: State, seat: int, loc: str, seats: Sequence[SeatRow] | None = None
    ) -> tuple[str, bytes]:
        """A seat's private view in words and picture, in its reader's language ``loc``."""
        adapter = adapter_for(row.game)
        names = self.seat_names(seats, loc) if seats is not None else await self.names(row.id, loc)
        view = state.view(seat)
        png = await self.pictures.hand(row.id, state.version, row.game, view, names, seat, loc)
        return adapter.hand_text(view, loc), png

    async def send_hand(
        self,
        row: GameRow,
        state: State,
        seat: int,
        reason: str,
        lines: Sequence[str] = (),
        seats: Sequence[SeatRow] | None = None,
        loc: str | None = None,
    ) -> None:
        """DM the seat's player its private view (one attempt; the delivery worker retries, and
        turns a refusal into a public notice that names the player, never the content).
        ``seats`` and the reader's ``loc``: when the caller has them already."""
        if seats is None:
            seats = await self.service.db.seats(row.id)
        users = [s.user_id for s in seats]
        game = self.service.game(row.game)
        if loc is None:
            loc = await self.user_locale(users[seat], self.table_locale(row))
        text, png = await self.hand_payload(row, state, seat, loc, seats)
        header = t(
            reason,
            loc,
            game=game_title(game.id, loc),
            url=jump_url(row, row.board_message_id) or "",
            channel=row.channel_id,
            server=self.server_name(row, loc),
        )
        content = clip("\n".join([header, *lines, text]))
        user = self.bot.get_user(users[seat]) or await self.bot.fetch_user(users[seat])
        alt = alt_text.hand(row.game, state.view(seat), loc)
        await user.send(content, file=discord.File(io.BytesIO(png), filename="hand.png", description=alt))

    def server_name(self, row: GameRow, loc: str | None = None) -> str:
        guild = self.bot.get_guild(row.guild_id) if row.guild_id else None
        return guild.name if guild else t("game.dm.server-unknown", loc or self.table_locale(row))

    def choices_view(
        self, row: GameRow, state: State, seat: int, loc: str, names: Sequence[str] = ()
    ) -> discord.ui.View | None:
        """The seat's choices as buttons (a few) or a menu (many), bound to the current version."""
        adapter = adapter_for(row.game)
        view_ = state.view(seat)
        actions = [a for a in state.legal_actions(seat) if not adapter.action_is_dangerous(a)]
        if not actions:
            return None
        view = discord.ui.View(timeout=None)
        if len(actions) <= MAX_BUTTONS:
            for a in actions:
                view.add_item(
                    ActButton(
                        row.id,
                        state.version,
                        a.text,
                        adapter.action_label(a, view_, loc, names),
                        style=SUGGESTED if adapter.action_is_suggested(a, view_) else discord.ButtonStyle.primary,
                        emoji=adapter.action_emoji(a, view_),
                    )
                )
        else:
            options = select_options(adapter, actions, view_, loc, names)
            view.add_item(ActSelect(row.id, state.version, options, placeholder=t("choices.placeholder", loc)))
        return view

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
        text, png = await self.hand_payload(row, state, seat, loc, seats)
        lines = [text]
        view = None
        if row.status == "running" and seat in state.to_move():
            lines.append(t("choices.your-turn", loc))
            meaning = adapter_for(row.game).choice_help(state.view(seat), seat, loc)
            if meaning:
                lines.append(t("howto.help.label", loc, text=meaning))
            view = self.choices_view(row, state, seat, loc, self.seat_names(seats, loc))
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
            view = self.choices_view(row, result.state, result.seat, loc, names) or discord.ui.View(timeout=None)
            if self.service.undoable(row.game, result.seat, result.state, result.events) and len(view.children) < 25:
                view.add_item(UndoButton(row.id, result.state.version, loc))
        lines.append(self.board_link(row, loc))
        await self.private(interaction, "\n".join(lines), **({"view": view} if view else {}))

    def public_lines(self, game: str, events: list[Event], names: list[str], loc: str | None = None) -> list[str]:
        """What everyone saw happen, in ``loc`` (the table's language)."""
        public = [event for event in events if event.get("visible_to") is None]
        return adapter_for(game).describe_events(public, names, loc or self.locale)

    def action_words(
        self, row: GameRow, result: MoveResult, action: Action, loc: str | None = None, names: Sequence[str] = ()
    ) -> str:
        """An action as players read it, from the acting seat's point of view when it chose it
        (before the move: a card taken is named, not the one that refilled its space)."""
        view = result.view_before if result.view_before is not None else result.state.view(result.seat)
        return adapter_for(row.game).action_label(action, view, loc or self.table_locale(row), names)

    async def after_move(
        self, result: MoveResult, before: Sequence[str] = (), forfeited: AbstractSet[int] = frozenset()
    ) -> GameRow:
        """Have the new board (with what happened) and the DMs of private information delivered.

        The service enqueued them with the move; ``before`` lines (a resignation, a time-out)
        are added to that board here.
        """
        row = result.row
        if result.state.outcome() is not None:
            if result.results_recorded:
                self.note_results_recorded(row.id)  # stored by the move itself, in its transaction
            else:
                await record_results(self, row, result.state, set(forfeited), result.seats or None)
            if self.table_over is not None:
                self.table_over(row.id)
        if before or forfeited:
            await jobs.annotate_board(self.service.db, row.id, result.state.version, list(before), sorted(forfeited))
        return await self.deliver(row.id, row)

    # -- undo, resign, seats, rematch ------------------------------------------------------
    async def undo(self, interaction: discord.Interaction, game_id: int, version: int | None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        result = await self.service.undo(game_id, interaction.user.id, version)
        row = result.row
        names = await self.names(row.id, loc)
        label = self.action_words(row, result, Action(result.action), loc, names)
        row = await self.deliver(row.id)  # the board after the undo was enqueued with it
        view = self.choices_view(row, result.state, result.seat, loc, names)
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

    async def take_over(self, game_id: int, user_id: int, why: str) -> bool:
        """At a table with the takeover option, a computer takes the seat of a player who resigns
        or forfeits on time, so the others can finish; False when the game should end instead."""
        if self.computer_turns is None or not await computers.takes_over(self.service.db, game_id, user_id):
            return False
        async with self.service.lock(game_id):
            row, seat, _ = await self.service.running_seat(game_id, user_id)
            loc = self.table_locale(row)
            label = await computers.take_over(self.service.db, game_id, seat, user_id, loc)
        await self.announce(row, t(f"computer.took-over.{why}", loc, player=f"<@{user_id}>", computer=label))
        self.computer_turns.poke(game_id)
        return True

    async def seat_changed(self, row: GameRow, seat: int, new_user: int, key: str, **values: object) -> None:
        """Announce a seat's new player and send them the seat's private information."""
        await self.announce(row, t(key, self.table_locale(row), new=f"<@{new_user}>", **values))
        await jobs.enqueue(self.service.db, row.id, [JobSpec("hand", row.version, seat, {"reason": "game.dm.seat"})])
        await self.deliver(row.id)

    # -- reminders ------------------------------------------------------------------------
    async def remind(self, row: GameRow, users: list[int], key: str, snooze: bool = False, **values: object) -> None:
        """Nudge waiting players in the game's channel, with a link to the board."""
        url = jump_url(row, row.board_message_id) or ""
        mentions = " ".join(f"<@{u}>" for u in users)
        loc = self.table_locale(row)
        text = t(key, loc, players=mentions, url=url, game=game_title(row.game, loc), **values)
        view = discord.ui.View(timeout=None)
        if snooze:
            view.add_item(SnoozeButton(row.id, row.version, loc))
        try:
            await self.channel(row).send(clip(text), view=view, allowed_mentions=MENTIONS)
        except discord.HTTPException as exc:
            if exc.code == 50083:
                await self.unarchive(row.channel_id)
                await self.channel(row).send(clip(text), view=view, allowed_mentions=MENTIONS)
            else:
                log.warning("could not remind the players of game %s: %s", row.id, exc.status)

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
        rows = await db.query(f"SELECT COUNT(*) FROM games WHERE status = 'running' AND {self.shards.sql()}")
        return int(rows[0][0])
