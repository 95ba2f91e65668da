"""Persistent components: every button and menu is a ``DynamicItem`` whose custom id carries the
game id (and the state version where a stale click must be refused), so they keep working
after a restart. Handlers stay thin: they hand over to ``bot.flow``, and every one of them runs
through ``Answered``, the components' one error path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.answers import answered
from bot.i18n import t

if TYPE_CHECKING:
    from bot.flow import Flow

PREFIX = "mp"
CUSTOM_ID_LIMIT = 100


def flow_of(interaction: discord.Interaction) -> Flow:
    return interaction.client.flow  # type: ignore[attr-defined]


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
        await answered(interaction, lambda: self.handle(interaction), what, self.game_id)


class LobbyButton(
    Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:lobby:(?P<gid>\d+):(?P<op>join|leave|start)"
):
    """Join, Leave and Start on a lobby message."""

    def __init__(self, game_id: int, op: str, locale: str | None = None) -> None:
        styles = {
            "join": discord.ButtonStyle.primary,
            "leave": discord.ButtonStyle.secondary,
            "start": discord.ButtonStyle.success,
        }
        super().__init__(
            discord.ui.Button(
                label=t(f"lobby.button.{op}", locale), style=styles[op], custom_id=f"{PREFIX}:lobby:{game_id}:{op}"
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
        await flow_of(interaction).set_option(interaction, self.game_id, self.name, values[0] if values else "")


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
        await flow_of(interaction).act(interaction, self.game_id, self.version, self.action)


class ActSelect(Answered, discord.ui.DynamicItem[discord.ui.Select], template=r"mp:pick:(?P<gid>\d+):(?P<ver>\d+)"):
    """A menu of actions (up to 25) whose values are the actions' texts."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"{PREFIX}:pick:{game_id}:{version}",
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-")],
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ActSelect:
        return cls(int(match["gid"]), int(match["ver"]))

    async def handle(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        if not values:
            return
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


DYNAMIC_ITEMS = (LobbyButton, OptionSelect, HandButton, ActButton, ActSelect, SnoozeButton, UndoButton, GameButton)
