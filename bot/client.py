"""The bot: discord.py client, start-up (database, components, commands) and the error paths."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ai.pool import Computers
from bot.answers import answer_failure, locale_of, refuse, say, seen
from bot.backups import start_backups
from bot.command_l10n import CatalogueTranslator
from bot.command_options import check_options, leaf_options
from bot.command_sync import sync_if_changed
from bot.computers import DELAY, ComputerTurns
from bot.config import Config
from bot.delivery import Backoff
from bot.flow import Flow
from bot.gateway_guard import guard_parsers
from bot.history_ui import HISTORY_ITEMS
from bot.howto import HOWTO_ITEMS
from bot.i18n import t
from bot.pictures import Pictures
from bot.scheduler import Clock, Scheduler, system_clock
from bot.service import GameService, Refusal
from bot.storage import Database
from bot.storage.db import watch_commits
from bot.tournaments.runner import Runner
from bot.ui import DYNAMIC_ITEMS, answer_unclaimed

log = logging.getLogger("meeple.bot")

TICK_SECONDS = 60
COMMIT_WATCH = "meeple-commit-watch"  # the key of this command's CommitWatch in interaction.extras


async def next_minute() -> None:
    """The ticker's wait between two ticks."""
    await asyncio.sleep(TICK_SECONDS)


class MeepleTree(app_commands.CommandTree):
    """The commands' side of the one error path (``bot.answers``; components use ``Answered``)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Watch this command's commits, and refuse options its declaration does not allow."""
        await seen(interaction)  # before the watch: remembering a language is not the command's change
        interaction.extras[COMMIT_WATCH] = watch_commits()
        command = interaction.command
        if interaction.type is not discord.InteractionType.application_command:
            return True  # autocomplete: the focused option is half typed, nothing runs
        if not isinstance(command, app_commands.Command):
            return True
        try:
            data: dict = interaction.data  # type: ignore[assignment]
            check_options(command.to_dict(self).get("options", []), leaf_options(data), data.get("resolved") or {})
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return False
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        what = f"command {interaction.command.qualified_name if interaction.command else '?'}"
        if isinstance(error, app_commands.CheckFailure):
            await answer_error(interaction, "error.not-allowed")
            return
        if isinstance(error, app_commands.TransformerError):
            # A value discord.py could not turn into what the command takes (a member who left,
            # a forged choice): the player's input, not a fault of the bot.
            log.info("%s: %s", what, error)
            await answer_error(interaction, "error.option-invalid")
            return
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            log.warning("%s: %s", what, error)
            await answer_error(interaction, "error.command-outdated")
            return
        await answer_failure(interaction, original, interaction.extras.get(COMMIT_WATCH), what)


async def answer_error(interaction: discord.Interaction, key: str) -> None:
    await say(interaction, t(key, locale_of(interaction)), "an error answer")


# discord.py's names for the tasks that handle an interaction: a component of a view (dynamic
# or not), an application command, or an event listener.
INTERACTION_TASKS = ("discord-ui-dynamic-item-", "discord-ui-view-dispatch-", "CommandTree-invoker", "discord.py: on_")
DRAIN_SECONDS = 5.0


class MeepleBot(commands.Bot):
    """Meeple Post: hosts board games in Discord channels."""

    def __init__(
        self,
        config: Config,
        clock: Clock = system_clock,
        backoff: Backoff | None = None,
        computer_delay: float = DELAY,
        tick_wait: Callable[[], Awaitable[object]] | None = None,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; no message content, no members list
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=MeepleTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **client_options,
        )
        self.config = config
        self.clock = clock
        self.backoff = backoff  # of board and DM deliveries; tests make it fast
        self.computer_delay = computer_delay  # before a computer moves; tests make it short
        self.tick_wait = tick_wait or next_minute  # between two ticks; tests give each tick themselves
        self.db: Database | None = None
        self.flow: Flow | None = None
        self.scheduler: Scheduler | None = None
        self.tournaments: Runner | None = None
        self.computers: Computers | None = None
        self._ticker: asyncio.Task | None = None
        self._backups: asyncio.Task | None = None  # MEEPLE_BACKUP_EVERY_HOURS (bot/backups.py)
        # A gateway event discord.py cannot read is dropped and logged, never the end of the process.
        self.malformed_events = guard_parsers(self._connection)

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.config.database)
        self.flow = Flow(
            self,
            GameService(self.db, cache_size=self.config.state_cache),
            backoff=self.backoff,
            pictures=Pictures(self.config.render_workers),
        )
        # Sharded, the work nobody clicks for keeps to this process's guilds (bot/shards.py).
        self.flow.shards = self.config.shards
        if self.config.sharded:
            log.info("this process serves %s", self.config.shards.describe())
        self.computers = Computers()
        self.flow.computer_turns = ComputerTurns(self.flow, self.computers, self.computer_delay)
        self.scheduler = Scheduler(self.flow, self.clock, self.computers)
        self.tournaments = Runner(self.flow, self.clock)
        self.flow.table_over = self.tournaments.table_over
        self.add_dynamic_items(*DYNAMIC_ITEMS, *HISTORY_ITEMS, *HOWTO_ITEMS)  # and each cog its own
        await self.load_extension("bot.cogs.table")
        await self.load_extension("bot.cogs.meeple")
        await self.load_extension("bot.cogs.tournament")
        guild = discord.Object(self.config.dev_guild) if self.config.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # Commands in each user's language (names, descriptions, choices): from the catalogues.
        await self.tree.set_translator(CatalogueTranslator())
        # Commands belong to the application, not to a shard: one process syncs them, the one that
        # owns shard 0 (there is always exactly one), so that two processes never race to.
        if self.config.shards.owns_guild(None):
            await sync_if_changed(self.tree, self.db, self.application_id, guild, force=self.config.sync_commands)
        # Before the gateway connects, so no player's click can race the recovery.
        # Pending boards and DMs start going out now (the REST API needs no gateway).
        count = await self.flow.resume_all()
        log.info("%d running games carry on", count)
        # Tournaments carry on too: a round half opened is finished opening, a settled one announced.
        await self.tournaments.tick()
        self._ticker = asyncio.create_task(self._tick_forever(), name="meeple-scheduler")
        self._backups = start_backups(self.config)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every click gets an answer: the ones no button or menu of the bot takes are refused here."""
        await answer_unclaimed(interaction)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    async def _tick_forever(self) -> None:
        """Reminders, time limits and tournament rounds, checked every minute. A tick that fails
        (the database away for a moment) is logged, and the next minute's tick comes all the same."""
        while not self.is_closed():
            await self.tick_wait()
            if self.scheduler is not None:
                try:
                    await self.scheduler.tick()
                except Exception:
                    log.exception("the minute's reminders and time limits failed; trying again next minute")
            if self.tournaments is not None:
                try:
                    await self.tournaments.tick()
                except Exception:
                    log.exception("the minute's tournament rounds failed; trying again next minute")

    async def drain_interactions(self, timeout: float = DRAIN_SECONDS) -> None:
        """Wait for the interactions being handled (discord.py runs each as a task) to finish,
        so that none is cut off with its answer half sent when the connection closes."""
        me = asyncio.current_task()
        busy = [t for t in asyncio.all_tasks() if t is not me and t.get_name().startswith(INTERACTION_TASKS)]
        if busy:
            done, pending = await asyncio.wait(busy, timeout=timeout)
            if pending:
                log.warning("shutting down with %d interactions still being handled", len(pending))

    async def on_error(self, event_method: str, /, *args: object, **kwargs: object) -> None:
        log.exception("unhandled error in %s", event_method)

    async def close(self) -> None:
        """Shut down cleanly: let the clicks and commands being handled finish (a few seconds at
        most), then background work, then the connection to Discord and the database."""
        if self._ticker is not None:
            self._ticker.cancel()
        if self._backups is not None:
            self._backups.cancel()  # a copy being written still finishes, in its thread
        await self.drain_interactions()
        if self.tournaments is not None:
            await self.tournaments.shutdown()
        if self.flow is not None:
            await self.flow.shutdown()
        if self.computers is not None:
            self.computers.close()
        # Stopped within discord.py's wait for the guilds (2 s after connecting), its pending
        # "ready" would fire after the close and fail on the closed loop: cancel it first.
        ready = getattr(self._connection, "_ready_task", None)
        if ready is not None and not ready.done():
            ready.cancel()
        await super().close()
        if self.db is not None:
            await self.db.close()
            self.db = None


class ShardedMeepleBot(MeepleBot, commands.AutoShardedBot):
    """The same bot over the shards of ``MEEPLE_SHARD_IDS`` (all, if only a count is set) of
    ``MEEPLE_SHARD_COUNT``: discord.py's AutoShardedBot, one gateway connection per shard."""

    def __init__(self, config: Config, **kwargs: Any) -> None:
        assert config.shard_count is not None, "a sharded bot needs a shard count"
        ids = list(config.shard_ids) if config.shard_ids is not None else None
        super().__init__(config, shard_ids=ids, shard_count=config.shard_count, **kwargs)
        # Several processes share one token: the User-Agent says which one made a request (Discord
        # allows text after its required "DiscordBot (url, version)"; the emulator records it).
        self.http.user_agent += f" MeeplePost ({config.shards.describe()})"


def create_bot(config: Config, **kwargs: Any) -> MeepleBot:
    """The bot the configuration asks for: sharded when a shard count is set, else one plain connection."""
    return ShardedMeepleBot(config, **kwargs) if config.sharded else MeepleBot(config, **kwargs)
