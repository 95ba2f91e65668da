"""Configuration, read once at start-up from the environment and an optional ``.env`` file."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from services.shards import Shards

DEFAULT_DB = "var/meeple-post.db"
ENV_FILE_VARIABLE = "MEEPLE_ENV_FILE"
TRUE_WORDS, FALSE_WORDS = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")
# Games whose decoded state stays in memory (services.game_service); the rest are read again when used.
DEFAULT_STATE_CACHE = 1000
DEFAULT_METRICS_HOST = "127.0.0.1"  # the metrics endpoint stays on this machine unless told otherwise
DEFAULT_BACKUP_KEEP = 7  # scheduled backups kept (the oldest beyond are deleted)
# Finished games keep their whole move-by-move record this long, then it is compacted (services/compaction.py):
# a year covers any look back players make at a game (disputes, a season, a year's recap) and
# bounds the database of a busy server to about a year of logs (docs/STORAGE.md, Retention).
DEFAULT_RETENTION_DAYS = 365
RETENTION_MAX_DAYS = 36500


@dataclass(frozen=True)
class Config:
    token: str | None
    database: Path | str  # a SQLite file, or a PostgreSQL server's postgresql:// URL
    dev_guild: int | None
    api_base: str | None
    log_level: str
    sync_commands: bool = False  # sync the slash commands even when they did not change
    # Sharding (README, "Running sharded with PostgreSQL"): None when the bot runs as one process
    # on one connection; else this process connects ``shard_ids`` of ``shard_count`` shards.
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    state_cache: int = DEFAULT_STATE_CACHE  # decoded game states kept in memory (an LRU)
    # Processes drawing boards and hands (services/pictures.py): None is one per core, 0 draws in a thread.
    render_workers: int | None = None
    # Seconds between two edits of boards in one channel (services/delivery.py): None is EDIT_PACE.
    edit_pace: float | None = None
    log_format: str = "text"  # "text" (human-readable) or "json" (one object a line): services/logs.py
    # Scheduled SQLite backups (services/backup_schedule.py): every ``backup_every_hours`` (None: off) into
    # ``backup_dir`` (None: "backups" beside the database), keeping the newest ``backup_keep``.
    backup_dir: Path | None = None
    backup_every_hours: float | None = None
    backup_keep: int = DEFAULT_BACKUP_KEEP
    # The operator's endpoint (services/observe.py: /metrics, /healthz, /readyz): off unless a port is set.
    metrics_port: int | None = None
    metrics_host: str = DEFAULT_METRICS_HOST
    # MEEPLE_RETENTION_DAYS: a game over for longer loses its move-by-move record; None: kept forever.
    retention_days: int | None = DEFAULT_RETENTION_DAYS

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def shards(self) -> Shards:
        """The guilds this process serves (all of them unless sharded)."""
        if self.shard_count is None:
            return Shards()
        return Shards(frozenset(self.shard_ids or range(self.shard_count)), self.shard_count)

    def __repr__(self) -> str:  # never show the token, even in a traceback
        shown = "set" if self.token else "missing"
        return (
            f"Config(token={shown}, database={redact_url(str(self.database))!r}, dev_guild={self.dev_guild}, "
            f"api_base={self.api_base!r}, log_level={self.log_level!r}, sync_commands={self.sync_commands}, "
            f"shard_ids={self.shard_ids}, shard_count={self.shard_count}, state_cache={self.state_cache}, "
            f"render_workers={self.render_workers}, log_format={self.log_format!r}, backup_dir={self.backup_dir}, "
            f"backup_every_hours={self.backup_every_hours}, backup_keep={self.backup_keep}, "
            f"metrics_port={self.metrics_port}, metrics_host={self.metrics_host!r}, "
            f"retention_days={self.retention_days})"
        )


def database_setting(value: str) -> Path | str:
    """``MEEPLE_DB``: a ``postgresql://`` (or ``postgres://``) URL as it is, else a SQLite file's path."""
    value = value.strip() or DEFAULT_DB
    if value.lower().startswith(("postgresql://", "postgres://")):
        return value
    return Path(value)


def redact_url(value: str) -> str:
    """The database setting as it may be shown (logs, reprs): a URL's password replaced by ***."""
    return re.sub(r"^(postgres(?:ql)?://[^:/@]*:)[^/?#]*@", r"\1***@", value, flags=re.IGNORECASE)


def parse_env_file(text: str) -> dict[str, str]:
    """Read ``KEY=value`` lines; ``#`` comments, blank lines, ``export`` and quotes allowed."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key.replace("_", "").isalnum():
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        else:
            value = value.split(" #", 1)[0].rstrip()
        values[key] = value
    return values


def checkout_root() -> Path | None:
    """The source checkout the bot runs from (README.md and pyproject.toml beside ``bot/``), else None.

    An editable install runs from its checkout; a ``pip install .`` or a container image does not.
    """
    root = Path(__file__).resolve().parent.parent
    return root if (root / "README.md").is_file() and (root / "pyproject.toml").is_file() else None


def find_env_file(environ: Mapping[str, str] | None = None) -> Path:
    """Where the ``.env`` file is: ``MEEPLE_ENV_FILE`` if set, else beside the README of the checkout
    the bot runs from, else ``.env`` in the working directory (an installed bot has no checkout).

    The working directory never decides for a checkout: ``python -m bot`` started from elsewhere
    (a service manager, a test) reads the same file as ``./scripts/start``.
    """
    chosen = (os.environ if environ is None else environ).get(ENV_FILE_VARIABLE, "").strip()
    if chosen:
        path = Path(chosen).expanduser()
        if not path.is_file():
            raise ValueError(f"{ENV_FILE_VARIABLE} names {chosen}, which is not a file")
        return path
    root = checkout_root()
    return (root if root is not None else Path.cwd()) / ".env"


def read_settings(
    env: Mapping[str, str] | None = None, env_file: Path | None | Literal["find"] = "find"
) -> dict[str, str]:
    """The ``.env`` file's values overridden by the real environment (``env``, else ``os.environ``)."""
    environ = os.environ if env is None else env
    path = find_env_file(environ) if env_file == "find" else env_file
    merged: dict[str, str] = {}
    if path is not None and path.is_file():
        merged.update(parse_env_file(path.read_text(encoding="utf-8")))
    merged.update(environ)
    return merged


def flag(settings: Mapping[str, str], name: str) -> bool:
    """A yes/no setting: 1/true/yes/on or 0/false/no/off (or unset)."""
    value = settings.get(name, "").strip().lower()
    if value not in TRUE_WORDS + FALSE_WORDS:
        raise ValueError(f"{name} must be 1 or 0 (yes or no)")
    return value in TRUE_WORDS


def parse_shards(ids_text: str, count_text: str) -> tuple[tuple[int, ...] | None, int | None]:
    """``MEEPLE_SHARD_IDS`` (``0,1`` or a range ``0-3``) and ``MEEPLE_SHARD_COUNT``.

    Neither set: one process, one connection (no sharding). A count alone: this process runs
    every shard of that count. Ids need a count, since a guild's shard depends on it.
    """
    ids_text, count_text = ids_text.strip(), count_text.strip()
    if not count_text:
        if ids_text:
            raise ValueError("MEEPLE_SHARD_IDS needs MEEPLE_SHARD_COUNT (the total number of shards)")
        return None, None
    if not count_text.isdigit() or not 1 <= int(count_text) <= 10_000:
        raise ValueError("MEEPLE_SHARD_COUNT must be a number of shards (1 or more)")
    count = int(count_text)
    if not ids_text:
        return None, count
    ids: list[int] = []
    for item in ids_text.replace(" ", "").split(","):
        low, dash, high = item.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError("MEEPLE_SHARD_IDS must be shard numbers separated by commas (0,1) or a range (0-3)")
        ids.extend(range(int(low), int(high) + 1) if dash else [int(low)])
    if not ids or any(shard >= count for shard in ids):
        raise ValueError(f"MEEPLE_SHARD_IDS must be between 0 and {count - 1} (MEEPLE_SHARD_COUNT is {count})")
    if len(set(ids)) != len(ids):
        raise ValueError("MEEPLE_SHARD_IDS names a shard twice")
    return tuple(sorted(ids)), count


def load_config(env: Mapping[str, str] | None = None, env_file: Path | None | Literal["find"] = "find") -> Config:
    """Build the configuration; real environment variables win over the ``.env`` file.

    ``env_file="find"`` looks for it as ``find_env_file`` says; ``None`` reads no file.
    """
    merged = read_settings(env, env_file)
    guild = merged.get("MEEPLE_DEV_GUILD", "").strip()
    if guild and not guild.isdigit():
        raise ValueError("MEEPLE_DEV_GUILD must be a guild id (a number)")
    level = merged.get("MEEPLE_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        raise ValueError("MEEPLE_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR")
    shard_ids, shard_count = parse_shards(merged.get("MEEPLE_SHARD_IDS", ""), merged.get("MEEPLE_SHARD_COUNT", ""))
    cache = merged.get("MEEPLE_STATE_CACHE", "").strip()
    if cache and not (cache.isdigit() and int(cache) >= 1):
        raise ValueError("MEEPLE_STATE_CACHE must be a whole number of games, at least 1")
    workers = merged.get("MEEPLE_RENDER_WORKERS", "").strip()
    if workers and not workers.isdigit():
        raise ValueError("MEEPLE_RENDER_WORKERS must be a whole number of processes (0 draws in the bot's own)")
    pace = merged.get("MEEPLE_EDIT_PACE", "").strip()
    try:
        edit_pace = float(pace) if pace else None
    except ValueError:
        edit_pace = -1.0
    if edit_pace is not None and not 0 <= edit_pace <= 60:
        raise ValueError("MEEPLE_EDIT_PACE must be a number of seconds from 0 to 60")
    log_format = merged.get("MEEPLE_LOG_FORMAT", "").strip().lower() or "text"
    if log_format not in {"text", "json"}:
        raise ValueError("MEEPLE_LOG_FORMAT must be text (the default) or json (one JSON object a line)")
    database = database_setting(merged.get("MEEPLE_DB", ""))
    metrics_port, metrics_host = metrics_settings(merged)
    backup_dir, every, keep = backup_settings(merged, database)
    return Config(
        token=merged.get("DISCORD_TOKEN", "").strip() or None,
        database=database,
        dev_guild=int(guild) if guild else None,
        api_base=merged.get("DISCORD_API_BASE", "").strip().rstrip("/") or None,
        log_level=level,
        sync_commands=flag(merged, "MEEPLE_SYNC_COMMANDS"),
        shard_ids=shard_ids,
        shard_count=shard_count,
        state_cache=int(cache) if cache else DEFAULT_STATE_CACHE,
        render_workers=int(workers) if workers else None,
        edit_pace=edit_pace,
        log_format=log_format,
        backup_dir=backup_dir,
        backup_every_hours=every,
        backup_keep=keep,
        metrics_port=metrics_port,
        metrics_host=metrics_host,
        retention_days=retention_setting(merged),
    )


def backup_settings(settings: Mapping[str, str], database: Path | str) -> tuple[Path | None, float | None, int]:
    """``MEEPLE_BACKUP_DIR``, ``MEEPLE_BACKUP_EVERY_HOURS`` (unset: no scheduled backups) and
    ``MEEPLE_BACKUP_KEEP``; scheduled backups copy a SQLite file (PostgreSQL has pg_dump)."""
    folder = settings.get("MEEPLE_BACKUP_DIR", "").strip()
    every_text = settings.get("MEEPLE_BACKUP_EVERY_HOURS", "").strip()
    keep_text = settings.get("MEEPLE_BACKUP_KEEP", "").strip()
    every: float | None = None
    if every_text:
        try:
            every = float(every_text)
        except ValueError:
            every = None
        if every is None or not 0 < every <= 24 * 366:
            raise ValueError("MEEPLE_BACKUP_EVERY_HOURS must be a number of hours (0.5, 6, 24)")
        if not isinstance(database, Path):
            raise ValueError(
                "MEEPLE_BACKUP_EVERY_HOURS backs up a SQLite file; for PostgreSQL use pg_dump (README, Backups)"
            )
    if keep_text and not (keep_text.isdigit() and int(keep_text) >= 1):
        raise ValueError("MEEPLE_BACKUP_KEEP must be a whole number of backups, at least 1")
    return Path(folder).expanduser() if folder else None, every, int(keep_text) if keep_text else DEFAULT_BACKUP_KEEP


def metrics_settings(settings: Mapping[str, str]) -> tuple[int | None, str]:
    """``MEEPLE_METRICS_PORT`` (none: no endpoint; 0: any free port) and ``MEEPLE_METRICS_HOST``."""
    port_text = settings.get("MEEPLE_METRICS_PORT", "").strip()
    if port_text and (not port_text.isdigit() or int(port_text) > 65535):
        raise ValueError("MEEPLE_METRICS_PORT must be a port number (0-65535), or unset for no metrics endpoint")
    host = settings.get("MEEPLE_METRICS_HOST", "").strip() or DEFAULT_METRICS_HOST
    return (int(port_text) if port_text else None), host


def retention_setting(settings: Mapping[str, str]) -> int | None:
    """``MEEPLE_RETENTION_DAYS``: days a game over keeps its move-by-move record (unset: a year);
    ``0`` or ``off``: kept forever (None)."""
    text = settings.get("MEEPLE_RETENTION_DAYS", "").strip().lower()
    if not text:
        return DEFAULT_RETENTION_DAYS
    if text == "off" or (text.isdigit() and int(text) == 0):
        return None
    if not text.isdigit() or int(text) > RETENTION_MAX_DAYS:
        raise ValueError(
            f"MEEPLE_RETENTION_DAYS must be a whole number of days (1 to {RETENTION_MAX_DAYS}), or 0 or off to keep "
            "every game's record forever"
        )
    return int(text)
