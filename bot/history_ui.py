"""The game log in words and past boards, browsed with first / back / forward / last buttons."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

import discord

from bot.answers import clip, locale_of
from bot.ui import ELSEWHERE, Answered, custom_ids_on, flow_of
from l10n.words import game_title, listing, t
from league.refusal import Refusal
from render.replay import extension_of
from services import alt_text, history
from services.game_service import GameService
from services.pictures import Pictures
from services.replays import ReplayOrder
from services.storage import GameRow, SeatRow, seats_and_undo
from services.wording import adapter_for

log = logging.getLogger("meeple.history")


class Reader(Protocol):
    """What the history reads a game and its names through (the bot's ``Flow``, its ``Poster``)."""

    service: GameService
    pictures: Pictures

    def table_locale(self, row: GameRow) -> str: ...

    async def names(self, game_id: int, loc: str | None = None) -> list[str]: ...

    def seat_names(self, seats: Sequence[SeatRow], loc: str | None = None) -> list[str]: ...


OPEN = "z"


def log_button(game_id: int, loc: str) -> LogPage:
    """The board's 'Log' button: opens the log's last page privately."""
    item = LogPage(game_id, 0, OPEN, t("history.button.log", loc))
    item.item.emoji = "\N{SCROLL}"
    return item


class LogPage(
    Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:log:(?P<gid>\d+):(?P<page>\d+):(?P<tag>[a-z])"
):
    """A page of the log (the tag only keeps the four buttons' custom ids distinct)."""

    def __init__(self, game_id: int, page: int, tag: str, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or tag,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"mp:log:{game_id}:{page}:{tag}",
            )
        )
        self.game_id, self.page, self.tag = game_id, page, tag

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any) -> LogPage:
        return cls(int(match["gid"]), int(match["page"]), match["tag"])

    async def handle(self, interaction: discord.Interaction) -> None:
        if self.tag == OPEN:  # the board's "Log" button: a new private message, not an edit
            await interaction.response.defer(ephemeral=True, thinking=True)
            await show_log(flow_of(interaction), interaction, self.game_id, None, edit=False)
            return
        own_page(interaction, LogPage, self.game_id)
        await interaction.response.defer()
        await show_log(flow_of(interaction), interaction, self.game_id, self.page, edit=True)


class PastBoard(
    Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:past:(?P<gid>\d+):(?P<ver>\d+):(?P<tag>[a-z])"
):
    """The board as it stood after a given number of moves."""

    def __init__(self, game_id: int, version: int, tag: str, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or tag,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"mp:past:{game_id}:{version}:{tag}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> PastBoard:
        return cls(int(match["gid"]), int(match["ver"]), match["tag"])

    async def handle(self, interaction: discord.Interaction) -> None:
        own_page(interaction, PastBoard, self.game_id)
        await interaction.response.defer()
        await show_past_board(flow_of(interaction), interaction, self.game_id, self.version, edit=True)


def own_page(interaction: discord.Interaction, kind: type[LogPage | PastBoard], game_id: int) -> None:
    """Refuse a pager button clicked anywhere but on one of its own pages, which its answer rewrites.

    A page is the clicker's private message (Discord's ephemeral flag: never the public board) whose
    buttons are all this pager's, for this game. Both are read from the message as Discord sends
    it, not from the custom id a modified client chooses."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        raise Refusal(ELSEWHERE)
    template = kind.__discord_ui_compiled_template__
    ids = [custom_id for _, custom_id in custom_ids_on(message)]
    matches = [template.fullmatch(custom_id) for custom_id in ids]
    if not matches or not all(m and m["tag"] != OPEN and int(m["gid"]) == game_id for m in matches):
        raise Refusal(ELSEWHERE)


def pager(make: type, game_id: int, current: int, last: int, first: int, loc: str) -> discord.ui.View:
    # The log turns pages, the past board steps through moves: each says which ("第一頁", "第一步").
    pages = make is LogPage
    view = discord.ui.View(timeout=None)
    targets = [
        ("a", first, t("history.page.first" if pages else "history.first", loc)),
        ("b", current - 1, t("history.page.back" if pages else "history.back", loc)),
        ("c", current + 1, t("history.page.forward" if pages else "history.forward", loc)),
        ("d", last, t("history.page.last" if pages else "history.last", loc)),
    ]
    for tag, target, label in targets:
        disabled = target < first or target > last or target == current
        view.add_item(make(game_id, max(first, min(target, last)), tag, label, disabled))
    return view


async def viewer_seat(flow: Reader, row: GameRow, user_id: int) -> int | None:
    return await flow.service.seat_of(row, user_id)


async def started_game(flow: Reader, game_id: int) -> GameRow:
    """The game, once started and with its move-by-move record; else a refusal saying why."""
    row = await flow.service.get(game_id)
    if row.state is None:
        raise Refusal("error.not-started")
    if row.compacted_at is not None:
        ended = row.finished_at or row.compacted_at
        raise Refusal("history.compacted", ended=unix(ended), compacted=unix(row.compacted_at))
    return row


def unix(moment: datetime) -> int:
    """Seconds since the epoch, for Discord's timestamp markup (``<t:...:D>``: a date in the reader's locale)."""
    return int(moment.timestamp())


async def show_log(flow: Reader, interaction: discord.Interaction, game_id: int, page: int | None, edit: bool) -> None:
    """The log for the clicker: public events, plus the clicker's own private ones."""
    loc = locale_of(interaction)
    row = await started_game(flow, game_id)
    seat = await viewer_seat(flow, row, interaction.user.id)
    undone = await seats_and_undo.undone(flow.service.db, row.id)
    all_steps = await history.steps(flow.service.db, row)
    lines = history.log_lines(row, all_steps, await flow.names(row.id, loc), seat, loc, undone)
    shown, number, pages = history.page_of(lines, page if page is not None else 10**9)
    text = clip("\n".join([t("history.log-title", loc, page=number, pages=pages), *shown]))
    view = pager(LogPage, game_id, number, pages, 1, loc)
    if edit:
        await interaction.edit_original_response(content=text, view=view)
    else:
        await interaction.followup.send(text, view=view, ephemeral=True)


async def show_past_board(
    flow: Reader, interaction: discord.Interaction, game_id: int, version: int | None, edit: bool
) -> None:
    loc = locale_of(interaction)
    row = await started_game(flow, game_id)
    step = row.version if version is None else max(0, min(version, row.version))
    all_steps = await history.steps(flow.service.db, row)
    steps = [(s.version, s.events) for s in all_steps]
    hidden = adapter_for(row.game).hidden_boards(steps, history.public_now(row))
    notes = []
    if step in hidden:  # e.g. the Duet's earlier tricks during a round: the current board instead
        notes.append(t("history.board-hidden", loc, first=hidden.start, last=hidden.stop - 1))
        step = row.version
    state = await history.state_at(flow.service.db, row, step)
    names = await flow.names(row.id, loc)
    png = await flow.pictures.board(row.id, row.game, state.view(None), names, loc)  # in a drawing worker
    if step == 0:
        title = t("history.board-start", loc, last=row.version)
    else:  # the move it shows, as the log tells it to this reader
        seat = await viewer_seat(flow, row, interaction.user.id)
        move = history.move_words(row, all_steps, names, seat, loc, step)
        title = t("history.board-title", loc, step=step, last=row.version, move=move)
    text = clip("\n".join([title, *notes]))
    view = pager(PastBoard, game_id, step, row.version, 0, loc)
    alt = alt_text.past_board(row.game, state.view(None)["public"], names, loc, title)
    file = discord.File(io.BytesIO(png), filename="board.png", description=alt)
    if edit:
        await interaction.edit_original_response(content=text, attachments=[file], view=view)
    else:
        await interaction.followup.send(text, file=file, view=view, ephemeral=True)


async def attach_replay(
    flow: Reader, row: GameRow, message: discord.Message, seats: Sequence[SeatRow] | None = None
) -> None:
    """Add an animated replay of the whole game to its final board message.

    Drawn by a drawing worker after every live board and hand (``Pictures.replay``): the worker
    replays the log and draws the frames, the bot only reads the log and uploads the result.
    ``seats`` are the game's, when the caller has read them."""
    if row.compacted_at is not None:  # the log is gone: a replay would show the set-up only
        log.info("game %s: no replay, its record was compacted", row.id)
        return
    try:
        loc = flow.table_locale(row)  # the replay joins the public final board
        order = await replay_order(flow, row, loc, seats)
        data = await flow.pictures.replay(row.id, order)
        alt = t(
            "alt.replay",
            loc,
            game=game_title(row.game, loc),
            players=listing(order.names, loc),
            count=len(order.actions),
        )
        replay = discord.File(
            io.BytesIO(data), filename=f"replay.{extension_of(data)}", description=alt_text.fit([alt])
        )
        content = clip(f"{message.content}\n{t('replay.attached', loc)}")
        await message.edit(content=content, attachments=[*message.attachments, replay])
    except discord.HTTPException as exc:
        log.warning("could not attach the replay of game %s: %s %s", row.id, exc.status, exc.code)


async def replay_order(flow: Reader, row: GameRow, loc: str, seats: Sequence[SeatRow] | None = None) -> ReplayOrder:
    """What a worker needs to rebuild and draw the game's replay: its set-up, log, names, language
    (the seats read once, unless the caller gives them)."""
    if seats is None:
        seats = await flow.service.db.seats(row.id)
    return ReplayOrder(
        game=row.game,
        players=len(seats),
        seed=row.seed,
        options=row.options,
        rules_version=row.rules_version,
        actions=[(entry.seat, entry.action) for entry in await flow.service.db.actions(row.id)],
        names=flow.seat_names(seats, loc),
        locale=loc,
    )


HISTORY_ITEMS = (LogPage, PastBoard)
