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
from bot.command_l10n import CatalogueTranslator, CommandMentions
from bot.command_options import check_options, leaf_options
from bot.command_sync import learn_ids, sync_if_changed
from bot.flow import Flow
from bot.gateway_guard import guard_parsers
from bot.history_ui import HISTORY_ITEMS
from bot.howto_ui import HOWTO_ITEMS
from bot.posting import Poster
from bot.tournament_posting import DiscordTournamentPosting
from bot.ui import DYNAMIC_ITEMS, answer_unclaimed
from engine import GAMES
from l10n import use_command_mentions
from l10n.words import t
from league.refusal import Refusal
from services import collector, metrics
from services.backup_schedule import start_backups
from services.compaction import Retention
from services.computer_turns import DELAY, LEVELS, ComputerTurns
from services.config import Config
from services.delivery import Backoff, Delivery
from services.follow_up import FollowUp
from services.game_service import GameService
from services.observe import Check, Observer, Watchdog, sd_notify
from services.pictures import Pictures
from services.scheduler import Clock, Scheduler, system_clock
from services.storage import Database, stats
from services.storage.db import watch_commits
from services.tasks import Tasks, awaited
from services.tournament_runner import Runner

log = logging.getLogger("meeple.bot")

TICK_SECONDS = 60
# A job still waiting this long means delivery is stuck (Discord away, or a worker wedged): not ready.
DELIVERY_STUCK_SECONDS = 15 * 60
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
            schema = command.to_dict(self).get("options", [])
            check_options(schema, leaf_options(data), data.get("resolved") or {}, command.qualified_name)
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
        self.poster: Poster | None = None  # boards, hands, lobbies, reminders on Discord (bot/posting.py)
        self.scheduler: Scheduler | None = None
        self.tournaments: Runner | None = None
        self.computers: Computers | None = None
        self.retention: Retention | None = None  # MEEPLE_RETENTION_DAYS (services/compaction.py)
        # The bot's own background work: the minute ticker, the backups (MEEPLE_BACKUP_EVERY_HOURS),
        # the collector's freeze; all cancelled and awaited by ``close`` (services/tasks.py).
        self.tasks = Tasks()
        self.observer: Observer | None = None  # MEEPLE_METRICS_PORT (services/observe.py)
        self.watchdog = Watchdog()  # systemd's WatchdogSec, when the unit sets one
        self.command_mentions = CommandMentions()  # the commands' ids, once synced or fetched
        # A gateway event discord.py cannot read is dropped and logged, never the end of the process.
        self.malformed_events = guard_parsers(self._connection)
        self._closing = Tasks()  # holds the one shutdown every ``close`` waits for
        self._shutdown: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        # Every task the bot starts from here on (commands, clicks, deliveries, the ticker) writes a
        # command its sentences name as a clickable mention, once the ids are known (below).
        use_command_mentions(self.command_mentions.mention)
        self.db = await Database.open(self.config.database)
        service = GameService(self.db, cache_size=self.config.state_cache)
        # Boards and hands are drawn in worker processes (closed by Flow.shutdown).
        pictures = Pictures(self.config.render_workers)
        # Sharded, the work nobody clicks for keeps to this process's guilds (services/shards.py).
        shards = self.config.shards
        # The services post through the poster (services/posting_port.py), never through discord.py.
        self.poster = Poster(self, service, pictures=pictures)
        delivery = Delivery(service, self.poster, self.backoff, shards=shards)
        if self.config.edit_pace is not None:
            delivery.edit_pace = self.config.edit_pace
        follow_up = FollowUp(service, delivery, self.poster, pictures)
        self.flow = Flow(self, service, self.poster, follow_up)
        self.flow.shards = shards
        if self.config.sharded:
            log.info("this process serves %s", shards.describe())
        self.computers = Computers()
        follow_up.computer_turns = ComputerTurns(
            service, self.computers, follow_up.after_move, pictures, shards, self.computer_delay
        )
        self.scheduler = Scheduler(service, self.poster, self.clock, self.computers, follow_up=follow_up, shards=shards)
        self.tournaments = Runner(service, DiscordTournamentPosting(self, self.flow), pictures, self.clock, shards)
        follow_up.table_over = self.tournaments.table_over
        self.retention = Retention(self.db, self.config.retention_days, self.clock, self.config.shards)
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
            await sync_if_changed(
                self.tree,
                self.db,
                self.application_id,
                guild,
                force=self.config.sync_commands,
                mentions=self.command_mentions,
            )
        else:
            await learn_ids(self.tree, guild, self.command_mentions)
        # Before the gateway connects, so no player's click can race the recovery.
        # Pending boards and DMs start going out now (the REST API needs no gateway).
        count = await self.flow.resume_all()
        log.info("%d running games carry on", count)
        # Tournaments carry on too: a round half opened is finished opening, a settled one announced.
        await self.tournaments.tick()
        self.tasks.forever(self._tick_forever, "meeple-scheduler")  # started again if it ever dies
        start_backups(self.config, self.tasks)
        if self.config.metrics_port is not None:
            self.observer = Observer(
                self.config.metrics_host, self.config.metrics_port, self.readiness_checks(), self.refresh_metrics
            )
            await self.observer.start()
        metrics.initialise(GAMES, LEVELS)
        metrics.count_rate_limits()
        self.watchdog.start()
        collector.settle(self, self.tasks)  # everything is loaded: out of the garbage collector's sight
        sd_notify("READY=1")  # systemd's Type=notify: the database is open and the games carry on

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every click gets an answer: the ones no button or menu of the bot takes are refused here."""
        await answer_unclaimed(interaction)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    async def _tick_forever(self) -> None:
        """Reminders, time limits and tournament rounds, checked every minute, and once a day the
        compaction of old games' records (services/compaction.py). A tick that fails (the database away
        for a moment) is logged, and the next minute's tick comes all the same."""
        while not self.is_closed():
            await self.tick_wait()
            if self.scheduler is not None:
                try:
                    with metrics.timed(metrics.TICK_SECONDS):
                        await self.scheduler.tick()
                except Exception:
                    metrics.TICK_FAILURES.inc()
                    log.exception("the minute's reminders and time limits failed; trying again next minute")
            if self.tournaments is not None:
                try:
                    await self.tournaments.tick()
                except Exception:
                    metrics.TICK_FAILURES.inc()
                    log.exception("the minute's tournament rounds failed; trying again next minute")
            if self.retention is not None:
                try:
                    await self.retention.tick()  # at most once a day: old games' records compacted
                except Exception:
                    metrics.TICK_FAILURES.inc()
                    log.exception("compacting old games' records failed; trying again tomorrow")

    # -- the operator's endpoint (services/observe.py) ----------------------------------------------
    def shard_states(self) -> dict[int, bool]:
        """Whether the gateway connection of each of this process's shards is up."""
        ws = self.ws
        return {0: ws is not None and ws.open and not self.is_closed()}

    def readiness_checks(self) -> dict[str, Check]:
        async def database() -> bool:
            return self.db is not None and await stats.reachable(self.db)

        async def gateway() -> bool:
            states = self.shard_states()
            return bool(states) and all(states.values()) and self.is_ready()

        async def delivery() -> bool:
            if self.db is None:
                return False
            oldest = (await stats.counts(self.db)).oldest_pending
            return oldest is None or (self.clock() - oldest).total_seconds() < DELIVERY_STUCK_SECONDS

        return {"database": database, "gateway": gateway, "delivery": delivery}

    async def refresh_metrics(self) -> None:
        """The gauges of stored data and of this process's state, just before a scrape."""
        for shard, up in self.shard_states().items():
            metrics.SHARD_CONNECTED.labels(shard=str(shard)).set(1 if up else 0)
        if self.flow is not None:
            metrics.RENDER_QUEUE.set(self.flow.pictures.waiting)
        if self.db is None:
            return
        found = await stats.counts(self.db)
        for game in GAMES:
            metrics.RUNNING_GAMES.labels(game=game).set(found.running.get(game, 0))
            metrics.OPEN_TABLES.labels(game=game).set(found.lobbies.get(game, 0))
        for kind in ("board", "hand", "notice"):
            metrics.DELIVERY_PENDING.labels(kind=kind).set(found.pending.get(kind, 0))
        age = 0.0 if found.oldest_pending is None else (self.clock() - found.oldest_pending).total_seconds()
        metrics.DELIVERY_OLDEST.set(max(0.0, age))
        for status in ("signup", "running"):
            metrics.TOURNAMENTS.labels(status=status).set(found.tournaments.get(status, 0))

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
        most), then background work, then the connection to Discord and the database.

        Safe to call again and from several tasks at once (a stop signal's, then ``async with``'s
        exit): every call waits for the same one shutdown, which a caller's cancellation does not
        cut short.
        """
        if self._shutdown is None:  # a task of its own: held, and its error raised to every caller
            self._shutdown = self._closing.start(self._shut_down(), name="meeple-shutdown", on_error=awaited)
        await asyncio.shield(self._shutdown)

    def clear(self) -> None:
        super().clear()
        self._shutdown = None  # open again (discord.py's ``clear``): the next close shuts it down

    async def _shut_down(self) -> None:
        # The ticker, the backups (a copy being written still finishes, in its thread), the freeze.
        await self.tasks.close()
        if self.scheduler is not None:
            await self.scheduler.pacer.close()
        sd_notify("STOPPING=1")
        await self.watchdog.stop()
        if self.observer is not None:
            await self.observer.stop()
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
        collector.release()


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

    def shard_states(self) -> dict[int, bool]:
        shards = self.shards  # those that connected at least once
        ids = self.shard_ids or range(self.shard_count or 0)
        return {sid: sid in shards and not shards[sid].is_closed() for sid in ids}


def create_bot(config: Config, **kwargs: Any) -> MeepleBot:
    """The bot the configuration asks for: sharded when a shard count is set, else one plain connection."""
    return ShardedMeepleBot(config, **kwargs) if config.sharded else MeepleBot(config, **kwargs)
