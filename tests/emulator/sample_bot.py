"""A small real discord.py bot that exercises the emulator end to end."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from emulator.testing import CLIENT_OPTIONS

GAMES = {"fox-duet": "Fox Duet", "hex-race": "Hex Race", "meeple-market": "Meeple Market"}
BOARD_BYTES = bytes(range(256)) * 40


class CellButton(discord.ui.DynamicItem[discord.ui.Button], template=r"cell:(?P<game>[0-9]+):(?P<cell>[0-9]+)"):
    """A board cell whose state lives in its custom_id (survives restarts)."""

    def __init__(self, game: int, cell: int) -> None:
        super().__init__(discord.ui.Button(label=f"Cell {cell}", custom_id=f"cell:{game}:{cell}"))
        self.game, self.cell = game, cell

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> CellButton:
        return cls(int(match["game"]), int(match["cell"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        client: SampleBot = interaction.client  # type: ignore[assignment]
        client.clicks.append((self.game, self.cell, interaction.user.id))
        await interaction.response.edit_message(content=f"cell {self.cell} taken by {interaction.user.name}")


class SeatSelect(discord.ui.Select):
    """Choose a seat at the table."""

    def __init__(self) -> None:
        options = [discord.SelectOption(label=n, value=v) for v, n in (("n", "North"), ("s", "South"))]
        super().__init__(custom_id="seat", placeholder="Pick a seat", options=options)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"seat {self.values[0]}", ephemeral=True)


class InviteSelect(discord.ui.UserSelect):
    """Invite another player."""

    def __init__(self) -> None:
        super().__init__(custom_id="invite", placeholder="Invite a player")

    async def callback(self, interaction: discord.Interaction) -> None:
        invited = self.values[0]
        kind = "member" if isinstance(invited, discord.Member) else "user"
        await interaction.response.send_message(f"invited {invited.name} ({kind})", ephemeral=True)


class NameModal(discord.ui.Modal, title="Name your table"):
    """A one-field modal."""

    table_name = discord.ui.TextInput(label="Table name", custom_id="table_name", max_length=40)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"table named {self.table_name.value}")


class SampleBot(commands.Bot):
    """Records what happened so tests can assert on the bot's side too."""

    def __init__(self, **options: Any) -> None:
        """``options`` go to discord.py's client (``shard_id``/``shard_count``: one shard of several)."""
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(command_prefix="!", intents=intents, **CLIENT_OPTIONS, **options)
        self.clicks: list[tuple[int, int, int]] = []
        self.errors: list[BaseException] = []
        self.resumed = 0
        self.seen_messages: list[discord.Message] = []
        self.slow_delay = 0.0
        self.followup_messages: list[discord.WebhookMessage] = []
        self.message_event = asyncio.Event()
        add_commands(self)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CellButton)

    async def on_resumed(self) -> None:
        self.resumed += 1

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message)
        self.message_event.set()


def add_commands(bot: SampleBot) -> None:
    """/ping, /table create, /report, /board, /slow, /name."""
    table = app_commands.Group(name="table", description="Game tables")

    @table.command(name="create", description="Open a table")
    @app_commands.describe(game="Which game", seats="How many seats")
    async def create(interaction: discord.Interaction, game: str, seats: app_commands.Range[int, 2, 4] = 2) -> None:
        await interaction.response.send_message(f"created {GAMES[game]} for {seats}", ephemeral=True)

    @create.autocomplete("game")
    async def game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=n, value=v) for v, n in GAMES.items() if current.lower() in v]

    bot.tree.add_command(table)

    @bot.tree.command(name="ping", description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    @bot.tree.command(name="report", description="Deferred report with a picture")
    async def report(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        file = discord.File(io.BytesIO(BOARD_BYTES), filename="board.png", description="The sample board")
        first = await interaction.followup.send("here is the board", file=file, wait=True)
        second = await interaction.followup.send("and a private note", ephemeral=True, wait=True)
        bot.followup_messages += [first, second]

    @bot.tree.command(name="board", description="Show the board")
    async def board(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        for cell in range(3):
            view.add_item(CellButton(7, cell))
        view.add_item(SeatSelect())
        view.add_item(InviteSelect())
        await interaction.response.send_message("the board", view=view)

    @bot.tree.command(name="slow", description="Answers too late")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(bot.slow_delay)
        try:
            await interaction.response.send_message("too late?")
        except discord.HTTPException as exc:
            bot.errors.append(exc)

    @bot.tree.command(name="progress", description="Edits its own response, then a follow-up")
    async def progress(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("working", ephemeral=True)
        original = await interaction.original_response()
        await interaction.edit_original_response(content=f"done ({original.content} before)")
        note = await interaction.followup.send("temporary", wait=True)
        await note.edit(content="temporary, edited")
        await note.delete()

    @bot.tree.command(name="name", description="Name the table")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())


def channel_of(bot: discord.Client, channel_id: int) -> Any:
    """The cached discord.py channel for an emulator channel id."""
    found = bot.get_channel(channel_id)
    assert found is not None, f"channel {channel_id} is not in the client's cache"
    return found
