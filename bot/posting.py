"""Posting on Discord: boards, hands by DM, lobbies, reminders and notices in a table's channel.

The Discord side of ``services.posting_port.Poster``: the delivery worker, the scheduler and the
computers post through it and never see discord.py. Every Discord failure leaves it sorted into
the port's kinds (``classified``): ``RetryLater`` for a rate limit, a server error or the
network, ``Refused`` (``Forbidden``, ``Gone``) for what will not change.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterator, Sequence

import aiohttp
import discord
from discord.ext import commands

import render
from bot import history_ui
from bot import howto_ui as howto
from bot.answers import MESSAGE_LIMIT, clip
from bot.languages import LANGUAGES, language_name
from bot.ui import (
    ActButton,
    ActSelect,
    GameButton,
    HandButton,
    LanguageSelect,
    LobbyButton,
    OptionSelect,
    SnoozeButton,
)
from engine import Action, State
from l10n.words import game_title, resolve_locale, series, t
from league import rating_maths as ratings
from services import alt_text
from services import board_turns as turns
from services import computer_turns as computers
from services.computer_turns import who
from services.game_service import GameService
from services.pictures import Pictures
from services.posting_port import Forbidden, Gone, PostFailed, Refused, RetryLater
from services.storage import GameRow, SeatRow, locales
from services.tasks import Tasks
from services.wording import GameAdapter, adapter_for

log = logging.getLogger("meeple.posting")

UPLOAD_LIMIT = 10 * 1024 * 1024
MAX_BUTTONS = 5
MAX_COMPONENTS = 25  # 5 rows of 5 buttons on one message
# The choice the bot proposes (a payment, for example) stands out in green.
SUGGESTED = discord.ButtonStyle.success
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
# Users whose language is remembered in memory (the database keeps all of them).
SEEN_LIMIT = 10_000
# An edit Discord refuses for good (the message was deleted; too old to edit): a new message instead.
UNEDITABLE = (10008, 30046)
# Errors of the network or of Discord's side: the same request may well succeed later.
NETWORK_ERRORS = (aiohttp.ClientError, OSError, asyncio.TimeoutError)


def is_transient(exc: BaseException) -> bool:
    """Whether a failed request is worth trying again (rate limits, server errors, the network)."""
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, (discord.RateLimited, *NETWORK_ERRORS))


def describe(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"HTTP {exc.status} (code {exc.code})"
    return type(exc).__name__


def post_failure(exc: BaseException) -> PostFailed | None:
    """A failed Discord request as the port's kind of failure; None for any other error (a bug)."""
    if isinstance(exc, discord.RateLimited):
        return RetryLater(describe(exc), retry_after=exc.retry_after, rate_limited=True)
    if isinstance(exc, discord.HTTPException):
        what, status, code = describe(exc), exc.status, exc.code
        if is_transient(exc):
            return RetryLater(what, status, code, rate_limited=status == 429)
        kind = {403: Forbidden, 404: Gone}.get(status, Refused)
        return kind(what, status, code)
    if isinstance(exc, NETWORK_ERRORS):
        return RetryLater(describe(exc))
    return None


@contextlib.contextmanager
def classified() -> Iterator[None]:
    """Raise what fails inside as the port's kinds (``post_failure``), the Discord error as its cause."""
    try:
        yield
    except Exception as exc:
        failure = post_failure(exc)
        if failure is None:
            raise
        raise failure from exc


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


class Poster:
    """Boards, hands, lobbies and lines of a table's channel on Discord (``services.posting_port.Poster``)."""

    def __init__(
        self, bot: commands.Bot, service: GameService, locale: str = "en", pictures: Pictures | None = None
    ) -> None:
        self.bot = bot
        self.service = service
        # Tables from before languages, and what belongs to no table; a table speaks its own
        # language (table_locale), a private answer the clicker's, a DM its recipient's.
        self.locale = locale
        self._seen: dict[int, str] = {}  # user id -> Discord locale of their last interaction
        self.tasks = Tasks()  # background work (replays, languages noted) kept alive until done (services/tasks.py)
        # Boards and hands are drawn here (worker processes; hands cached).
        self.pictures = pictures if pictures is not None else Pictures()

    # -- languages ------------------------------------------------------------------------
    def table_locale(self, row: GameRow) -> str:
        """The language of the table's public posts (boards, lobby, announcements)."""
        return row.language or self.locale

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

    def forget_locale(self, user_id: int) -> None:
        """Drop the language remembered in memory for a user who asked to be forgotten."""
        self._seen.pop(user_id, None)

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
        view.add_item(howto.howto_button(row.game, loc))
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
        view.add_item(history_ui.log_button(row.id, loc))
        if len(view.children) < MAX_COMPONENTS:
            view.add_item(howto.howto_button(row.game, loc))
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
    ) -> tuple[int, list[str]]:
        """Post a board message in the game's channel, or ``edit`` the board message of that id
        (a step within a turn), and remember it as the current one (one attempt; the delivery
        worker retries); the message's id and the lines of what happened it shows. Only the seats in
        ``mention`` are notified (a turn that begins); an edit notifies nobody. ``nonce`` makes a
        post repeated after a crash come back as the message already posted. An edit Discord
        refuses for good (the message deleted, or too old) becomes a new message. A final board
        gets the replay and Rematch. Discord's failures are raised as the port's kinds."""
        with classified():
            message, kept = await self._post_board(row, state, lines, seats, edit, mention, nonce)
        return message.id, kept

    async def _post_board(
        self,
        row: GameRow,
        state: State,
        lines: list[str],
        seats: Sequence[SeatRow] | None,
        edit: int | None,
        mention: Sequence[int],
        nonce: str | None,
    ) -> tuple[discord.Message, list[str]]:
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
            self.tasks.start(history_ui.attach_replay(self, row, message, seats), name=f"replay-{row.id}")
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

        async def send(picture: discord.File) -> discord.Message:
            return await channel.send(
                content=payload["content"],
                file=picture,
                view=payload["view"],
                allowed_mentions=allowed_mentions,
                nonce=nonce if nonce is not None else secrets.randbits(64),  # as discord.py does
            )

        return await self._with_picture(row, payload, send)

    async def edit_in_channel(self, row: GameRow, message_id: int, payload: dict) -> discord.Message:
        """Edit a board message to show ``payload`` (its picture replaced), unarchiving its thread
        or shrinking the image when Discord asks; raise otherwise. An edit notifies nobody."""
        message = self.channel(row).get_partial_message(message_id)  # type: ignore[attr-defined]

        async def edit(picture: discord.File) -> discord.Message:
            return await message.edit(
                content=payload["content"],
                attachments=[picture],
                view=payload["view"],
                allowed_mentions=discord.AllowedMentions.none(),
            )

        return await self._with_picture(row, payload, edit)

    async def _with_picture(
        self, row: GameRow, payload: dict, request: Callable[[discord.File], Awaitable[discord.Message]]
    ) -> discord.Message:
        """``request`` with the board's picture attached, tried again once its thread is
        unarchived (50083) or its picture shrunk (40005, 413: too large); raise otherwise."""
        png: bytes = payload["png"]
        alt = payload.get("alt")
        for attempt in range(3):
            try:
                return await request(discord.File(io.BytesIO(png), filename="board.png", description=alt))
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
        ``seats`` and the reader's ``loc``: when the caller has them already. Discord's failures
        are raised as the port's kinds."""
        with classified():
            await self._send_hand(row, state, seat, reason, lines, seats, loc)

    async def _send_hand(
        self,
        row: GameRow,
        state: State,
        seat: int,
        reason: str,
        lines: Sequence[str],
        seats: Sequence[SeatRow] | None,
        loc: str | None,
    ) -> None:
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

    # -- lines in the channel -------------------------------------------------------------
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

    async def post_notice(self, row: GameRow, text: str) -> None:
        """A line in the game's channel that notifies the players it mentions (one attempt; the
        delivery worker retries). Discord's failures are raised as the port's kinds."""
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        with classified():
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False))
