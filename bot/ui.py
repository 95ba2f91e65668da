"""Persistent components: every button and menu is a ``DynamicItem`` whose custom id carries the
game id (and the state version where a stale click must be refused), so they keep working
after a restart. Handlers stay thin: they hand over to ``bot.flow``, and every one of them runs
through ``Answered``, the components' one error path.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.answers import answered, locale_of, say, seen
from engine import GAMES
from l10n.words import t
from league.refusal import Refusal
from services.wording import adapter_for

if TYPE_CHECKING:
    from bot.flow import Flow

log = logging.getLogger("meeple.ui")

PREFIX = "mp"
CUSTOM_ID_LIMIT = 100
NUMBER_LIMIT = 2**63 - 1  # the databases' largest integer (SQLite INTEGER, PostgreSQL BIGINT)
UNKNOWN = "error.unknown-component"  # a button or menu the bot never made (or no longer knows)
ELSEWHERE = "error.wrong-message"  # one of the bot's ids, but clicked on a message that is not its own
NOTHING_CHOSEN = "error.nothing-chosen"


def flow_of(interaction: discord.Interaction) -> Flow:
    return interaction.client.flow  # type: ignore[attr-defined]


def custom_id_of(interaction: discord.Interaction) -> str:
    data: Any = interaction.data
    return str(data.get("custom_id", "")) if isinstance(data, dict) else ""


def could_be_ours(custom_id: str, template: re.Pattern[str]) -> bool:
    """Whether the bot could have made this id with this template: at most 100 characters (Discord's
    limit), and every number in it within the databases' range."""
    if len(custom_id) > CUSTOM_ID_LIMIT:
        return False
    match = template.fullmatch(custom_id)
    if match is None:
        return False
    numbers = [v for v in match.groupdict().values() if v and v.isdecimal()]
    return all(v.isascii() and int(v) <= NUMBER_LIMIT for v in numbers)


def custom_ids_on(message: discord.Message) -> list[tuple[int, str]]:
    """(component type, custom id) of every component of a message, as discord.py reads them
    when it rebuilds a DynamicItem from ``interaction.message``."""
    view_cls = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    try:
        view = view_cls.from_message(message, timeout=None)
    except Exception:  # a message discord.py cannot rebuild: it calls no item either
        log.info("could not read the components of message %s", message.id)
        return []
    found = []
    for item in view.walk_children():
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str):
            found.append((item.type.value, custom_id))
    return found


def unclaimed(interaction: discord.Interaction) -> str | None:
    """Why no item of the bot will answer this button or menu (the refusal's key), or None when
    one will. The tests are discord.py's own (``ViewStore.dispatch_view``): a stored view for the
    message (or for none), else a DynamicItem whose template matches and which stands on the message.
    Items refuse ids the bot cannot have made themselves (``Answered``), so this says only what
    discord.py would drop in silence."""
    data: Any = interaction.data
    if not isinstance(data, dict):
        return UNKNOWN
    custom_id, component_type = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str):
        return UNKNOWN
    store: Any = getattr(interaction._state, "_view_store", None)
    if store is None:
        return None  # not discord.py's usual state: leave the click to it
    message = interaction.message
    key = (component_type, custom_id)
    views: dict[Any, dict[Any, Any]] = store._views
    if key in views.get(message.id if message is not None else None, {}) or key in views.get(None, {}):
        return None
    templates: Iterable[re.Pattern[str]] = store._dynamic_items
    matching = [template for template in templates if template.fullmatch(custom_id)]
    if not matching:
        return UNKNOWN
    if message is not None and key in custom_ids_on(message):
        return None  # the item answers (and refuses an id the bot cannot have made itself)
    # Not on the message it came from: a modified client's click.
    return ELSEWHERE if any(could_be_ours(custom_id, template) for template in matching) else UNKNOWN


async def answer_unclaimed(interaction: discord.Interaction) -> None:
    """Every click gets an answer: a private refusal for the ones no item of the bot will take."""
    if interaction.type is not discord.InteractionType.component:
        return
    key = unclaimed(interaction)
    if key is None:
        return
    log.info("refused a click no item takes (%s)", key)
    await seen(interaction)
    await say(interaction, t(key, locale_of(interaction)), "an unknown click")


class Answered:
    """Mixin for the project's DynamicItems: ``callback`` runs ``handle`` through the one error path.

    discord.py only logs an exception raised in a DynamicItem's callback (its ViewStore catches
    it; no View.on_error is involved), which leaves the player looking at "thinking..." forever.
    """

    game_id: int

    async def handle(self, interaction: discord.Interaction) -> None:
        """What the click does; each item defines it."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        # Named by its kind and game, never by its custom id: an action there can name a card in a hand.
        what = f"{type(self).__name__} of game {self.game_id}"
        await answered(interaction, lambda: self.checked(interaction), what, self.game_id)

    async def checked(self, interaction: discord.Interaction) -> None:
        """``handle``, for an id the bot could have made (not overlong, numbers a database can hold)."""
        template: re.Pattern[str] = type(self).__discord_ui_compiled_template__  # type: ignore[attr-defined]
        if not could_be_ours(custom_id_of(interaction), template):
            raise Refusal(UNKNOWN)
        await self.handle(interaction)


async def own_lobby(interaction: discord.Interaction, game_id: int) -> None:
    """Refuse a lobby button or menu clicked anywhere but on its table's own lobby message, which
    its answer rewrites (the message id is the database's, not the click's word)."""
    row = await flow_of(interaction).service.db.get_game(game_id)
    if row is None:
        return  # the service says there is no such table
    if interaction.message is None or interaction.message.id != row.lobby_message_id:
        raise Refusal(ELSEWHERE)


async def refuse_lone_concession(interaction: discord.Interaction, game_id: int, action: str) -> None:
    """A co-operative game ends on its team's word, never on one player's click (an old or forged
    button): its concession goes through /table concede, which the partner confirms (bot.concession)."""
    if not any(game.action_kind(action) == "concede" for game in GAMES.values()):
        return
    row = await flow_of(interaction).service.db.get_game(game_id)
    if row is not None and row.game in GAMES and GAMES[row.game].min_players > 1:
        if adapter_for(row.game).give_up_command == "concede":
            raise Refusal("concede.team.use-command")


class LobbyButton(
    Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:lobby:(?P<gid>\d+):(?P<op>join|leave|start)"
):
    """Join, Leave and Start on a lobby message."""

    def __init__(self, game_id: int, op: str, locale: str | None = None, disabled: bool = False) -> None:
        styles = {
            "join": discord.ButtonStyle.primary,
            "leave": discord.ButtonStyle.secondary,
            "start": discord.ButtonStyle.success,
        }
        super().__init__(
            discord.ui.Button(
                label=t(f"lobby.button.{op}", locale),
                style=styles[op],
                custom_id=f"{PREFIX}:lobby:{game_id}:{op}",
                disabled=disabled,
            )
        )
        self.game_id = game_id
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> LobbyButton:
        return cls(int(match["gid"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        await own_lobby(interaction, self.game_id)
        await flow_of(interaction).lobby_button(interaction, self.game_id, self.op)


class OptionSelect(
    Answered, discord.ui.DynamicItem[discord.ui.Select], template=r"mp:opt:(?P<gid>\d+):(?P<name>[a-z0-9_-]{1,40})"
):
    """A lobby menu for one game option; only the table's creator may change it."""

    def __init__(
        self,
        game_id: int,
        name: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"{PREFIX}:opt:{game_id}:{name}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.game_id = game_id
        self.name = name

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> OptionSelect:
        return cls(int(match["gid"]), match["name"])

    async def handle(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        if not values:
            raise Refusal(NOTHING_CHOSEN)
        await own_lobby(interaction, self.game_id)
        await flow_of(interaction).set_option(interaction, self.game_id, self.name, values[0])


class LanguageSelect(Answered, discord.ui.DynamicItem[discord.ui.Select], template=r"mp:lang:(?P<gid>\d+)"):
    """A lobby menu for the table's language; only its host may change it, before the start."""

    def __init__(
        self, game_id: int, options: list[discord.SelectOption] | None = None, placeholder: str | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"{PREFIX}:lang:{game_id}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> LanguageSelect:
        return cls(int(match["gid"]))

    async def handle(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        if not values:
            raise Refusal(NOTHING_CHOSEN)
        await own_lobby(interaction, self.game_id)
        await flow_of(interaction).set_language(interaction, self.game_id, values[0])


class HandButton(Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:hand:(?P<gid>\d+)"):
    """'My hand': the clicker's private view and, on their turn, their choices. Works at any time."""

    def __init__(self, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("board.button.hand", locale),
                emoji="\N{PLAYING CARD BLACK JOKER}",
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:hand:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> HandButton:
        return cls(int(match["gid"]))

    async def handle(self, interaction: discord.Interaction) -> None:
        await flow_of(interaction).show_hand(interaction, self.game_id)


class ActButton(
    Answered,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mp:act:(?P<gid>\d+):(?P<ver>\d+):(?P<action>.{1,80})$",
):
    """One action of the engine, valid only at the state version it was offered at."""

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or action)[:80],
                style=style,
                emoji=emoji,
                custom_id=act_custom_id(game_id, version, action),
            )
        )
        self.game_id = game_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ActButton:
        return cls(int(match["gid"]), int(match["ver"]), match["action"])

    async def handle(self, interaction: discord.Interaction) -> None:
        await refuse_lone_concession(interaction, self.game_id, self.action)
        await flow_of(interaction).act(interaction, self.game_id, self.version, self.action)


class ActSelect(
    Answered,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"mp:pick:(?P<gid>\d+):(?P<ver>\d+)(?::(?P<group>[a-z-]{1,20}))?",
):
    """A menu of actions (up to 25) whose values are the actions' texts. A board with several
    menus names each by its ``group`` of choices (``take``, ``adjust``), as custom ids must differ."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        group: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"{PREFIX}:pick:{game_id}:{version}" + (f":{group}" if group else ""),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-")],
            )
        )
        self.game_id = game_id
        self.version = version
        self.group = group

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ActSelect:
        return cls(int(match["gid"]), int(match["ver"]), group=match["group"])

    async def handle(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        if not values:
            raise Refusal(NOTHING_CHOSEN)
        await refuse_lone_concession(interaction, self.game_id, values[0])
        await flow_of(interaction).act(interaction, self.game_id, self.version, values[0])


class SnoozeButton(
    Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:snooze:(?P<gid>\d+):(?P<ver>\d+)"
):
    """On a reminder: no more reminders for this turn (the time limit, if any, still runs)."""

    def __init__(self, game_id: int, version: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("reminder.button.snooze", locale),
                emoji="\N{SLEEPING SYMBOL}",
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:snooze:{game_id}:{version}",
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> SnoozeButton:
        return cls(int(match["gid"]), int(match["ver"]))

    async def handle(self, interaction: discord.Interaction) -> None:
        await flow_of(interaction).snooze(interaction, self.game_id, self.version)


class UndoButton(Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:undo:(?P<gid>\d+):(?P<ver>\d+)"):
    """Take back the move just made (only while it is still the player's turn)."""

    def __init__(self, game_id: int, version: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("undo.button", locale),
                emoji="\N{LEFTWARDS ARROW WITH HOOK}",
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:undo:{game_id}:{version}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> UndoButton:
        return cls(int(match["gid"]), int(match["ver"]))

    async def handle(self, interaction: discord.Interaction) -> None:
        await flow_of(interaction).undo(interaction, self.game_id, self.version)


class GameButton(
    Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:(?P<op>resign|rematch):(?P<gid>\d+)"
):
    """Resign (after /table resign asks to confirm) and Rematch (on a finished game's board)."""

    def __init__(self, game_id: int, op: str, locale: str | None = None) -> None:
        style = discord.ButtonStyle.danger if op == "resign" else discord.ButtonStyle.success
        super().__init__(
            discord.ui.Button(label=t(f"{op}.button", locale), style=style, custom_id=f"{PREFIX}:{op}:{game_id}")
        )
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> GameButton:
        return cls(int(match["gid"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        flow = flow_of(interaction)
        await (flow.resign if self.op == "resign" else flow.rematch)(interaction, self.game_id)


def act_custom_id(game_id: int, version: int, action: str) -> str:
    # The action is the id's last field, so it may contain ':' itself.
    custom_id = f"{PREFIX}:act:{game_id}:{version}:{action}"
    if len(custom_id) > CUSTOM_ID_LIMIT or not action:
        raise ValueError(f"action text too long or malformed for a custom id: {action!r}")
    return custom_id


DYNAMIC_ITEMS = (
    LobbyButton,
    OptionSelect,
    LanguageSelect,
    HandButton,
    ActButton,
    ActSelect,
    SnoozeButton,
    UndoButton,
    GameButton,
)
