"""What an operator watches: the bot's Prometheus metrics (``prometheus_client``).

The families are registered once per process in the client's default registry (with its
process and Python collectors: memory, CPU, open files, garbage collection). Labels stay bounded:
a game id of the registry, a job kind, a computer level, a stage, a shard number; never a user,
a channel or a server. Counters and histograms are moved where things happen; the gauges that
describe stored data (pending jobs, running games, tournaments) are set from one query when the
endpoint is scraped (``services.observe``), so no bookkeeping can drift from the database.

No discord import here: storage, services and the Discord layer all record into these.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from prometheus_client import Counter, Gauge, Histogram

# Seconds: from a few milliseconds (a cached hand) to the Discord deadlines and beyond.
LATENCY = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
# Database transactions and ticks: mostly milliseconds.
SHORT = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# Computer decisions: the levels' budgets run from tens of milliseconds to about two seconds.
THINKING = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)

MOVES = Counter("meeple_moves", "Moves applied, by game (players', computers' and automatic ones)", ["game"])
ANSWER_SECONDS = Histogram(
    "meeple_interaction_answer_seconds",
    "From a click or command reaching the bot to its first answer (stage first_answer), and from a"
    " move's click to its board posted (stage board_posted)",
    ["stage"],
    buckets=LATENCY,
)
DELIVERY_PENDING = Gauge("meeple_delivery_jobs_pending", "Boards, DMs and notices waiting to be delivered", ["kind"])
DELIVERY_OLDEST = Gauge("meeple_delivery_oldest_pending_seconds", "Age of the oldest job still waiting to be delivered")
DELIVERY_RETRIES = Counter("meeple_delivery_retries", "Delivery attempts that failed and will be retried", ["kind"])
DELIVERY_FAILED = Counter("meeple_delivery_failed", "Deliveries given up (a refusal that will not change)", ["kind"])
DELIVERY_DONE = Counter("meeple_delivery_done", "Deliveries made (or skipped for a newer board)", ["kind"])
RATE_LIMITS = Counter("meeple_discord_rate_limits", "Rate-limit answers (HTTP 429) the bot met from Discord")
RENDER_SECONDS = Histogram("meeple_render_seconds", "Drawing one picture, by kind", ["kind"], buckets=LATENCY)
RENDER_QUEUE = Gauge("meeple_render_queue_depth", "Drawings waiting for a drawing worker")
DECISION_SECONDS = Histogram(
    "meeple_computer_decision_seconds", "A computer player's decision, by level", ["level"], buckets=THINKING
)
RUNNING_GAMES = Gauge("meeple_running_games", "Games being played, by game", ["game"])
OPEN_TABLES = Gauge("meeple_open_tables", "Tables waiting in their lobby, by game", ["game"])
TOURNAMENTS = Gauge("meeple_tournaments", "Tournaments by status (signup, running)", ["status"])
TICK_SECONDS = Histogram("meeple_scheduler_tick_seconds", "One tick of the minute ticker", buckets=SHORT)
TICK_FAILURES = Counter("meeple_scheduler_tick_failures", "Ticks of the minute ticker that raised (it carries on)")
LOOP_LAG = Gauge("meeple_event_loop_lag_seconds", "How late the event loop ran a timer, at the last look")
LOOP_LAG_SECONDS = Histogram("meeple_event_loop_lag", "How late the event loop runs timers", buckets=SHORT)
TRANSACTION_SECONDS = Histogram(
    "meeple_db_transaction_seconds", "One database transaction, waits included", buckets=SHORT
)
DB_STATEMENTS = Counter(
    "meeple_db_statements",
    "SQL statements the storage layer ran (each a round trip to the database: BEGIN and COMMIT"
    " included, an executemany counted once), on SQLite and PostgreSQL",
)
SHARD_CONNECTED = Gauge("meeple_shard_connected", "1 while the gateway connection of a shard is up", ["shard"])


def initialise(games: Iterable[str], levels: Iterable[str]) -> None:
    """Create every labelled series at zero, so that a scrape shows each family from the start
    (a series that appears only at its first event breaks rate() and alerts on absence)."""
    for game in games:
        MOVES.labels(game=game)
        RUNNING_GAMES.labels(game=game)
        OPEN_TABLES.labels(game=game)
    for stage in ("first_answer", "board_posted"):
        ANSWER_SECONDS.labels(stage=stage)
    for kind in ("board", "hand", "notice"):
        DELIVERY_PENDING.labels(kind=kind)
        DELIVERY_RETRIES.labels(kind=kind)
        DELIVERY_FAILED.labels(kind=kind)
        DELIVERY_DONE.labels(kind=kind)
    for kind in ("board", "hand"):
        RENDER_SECONDS.labels(kind=kind)
    for level in levels:
        DECISION_SECONDS.labels(level=level)
    for status in ("signup", "running"):
        TOURNAMENTS.labels(status=status)


@contextmanager
def timed(histogram: Histogram, **labels: str) -> Iterator[None]:
    """Observe the block's wall time in ``histogram`` (with ``labels``), whether it raised or not."""
    started = time.perf_counter()
    try:
        yield
    finally:
        (histogram.labels(**labels) if labels else histogram).observe(time.perf_counter() - started)


# discord.py waits out a 429 itself and says so in one warning line per answer: its HTTP client
# ("We are being rate limited. ...") and its webhook client, which answers interactions ("Webhook
# ID ... is rate limited. ..."). Counting those lines counts every 429 without touching discord.py.
RATE_LIMIT_LINES = {
    "discord.http": "We are being rate limited",
    "discord.webhook.async_": "Webhook ID %s is rate limited",
}


class _RateLimitCounter(logging.Filter):
    def __init__(self, start: str) -> None:
        super().__init__()
        self.start = start

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith(self.start):
            RATE_LIMITS.inc()
        return True  # counted, never hidden


def count_rate_limits() -> None:
    """Count discord.py's rate-limit lines into ``RATE_LIMITS`` (once per process, however often called)."""
    for name, start in RATE_LIMIT_LINES.items():
        logger = logging.getLogger(name)
        if not any(isinstance(f, _RateLimitCounter) for f in logger.filters):
            logger.addFilter(_RateLimitCounter(start))
