"""The bot's log: human-readable lines by default, one JSON object a line with ``MEEPLE_LOG_FORMAT=json``.

Each line names, where known, the game, the table (its channel), the shard and the interaction it
was written for. They are carried by a context variable, set where the bot takes an interaction
(``bot.answers``) or delivers a game's job (``services.delivery``): discord.py handles each interaction
in a task of its own and each game's deliveries run in a worker task of their own, and a task keeps
its own copy of the context, so what one sets never shows in another's lines.

What the bot logs never holds a token, a DM's content or a hand (the code logs ids, kinds and
counts, never texts it sends). As a safety net, the formatter replaces the secrets it is given
(the bot's token, a database password) wherever they appear in a line, whichever format.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sys
from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TextIO
from urllib.parse import urlsplit

from services.shards import shard_of

LogFormat = Literal["text", "json"]
LOG_FORMATS: tuple[LogFormat, ...] = ("text", "json")
REDACTED = "[redacted]"
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


@dataclass(frozen=True)
class LogContext:
    """What a line was written for; None where unknown."""

    game_id: int | None = None
    table: int | None = None  # the channel the game is played in
    shard: int | None = None
    interaction_id: int | None = None

    def known(self) -> dict[str, int]:
        return {key: value for key, value in dataclasses.asdict(self).items() if value is not None}


NO_CONTEXT = LogContext()
_CONTEXT: ContextVar[LogContext] = ContextVar("meeple_log_context", default=NO_CONTEXT)
CONTEXT_FIELDS = tuple(field.name for field in dataclasses.fields(LogContext))


def log_context() -> LogContext:
    """The current task's context."""
    return _CONTEXT.get()


def set_log_context(context: LogContext) -> None:
    """Name what the current task's lines are about (until the task ends or sets another)."""
    _CONTEXT.set(context)


def note_game(game_id: int | None) -> None:
    """Add the game to the current context (an interaction found out which game it acts on)."""
    _CONTEXT.set(dataclasses.replace(_CONTEXT.get(), game_id=game_id))


def note_interaction(interaction: Any) -> None:
    """A fresh context for an interaction's task: its id, its channel (the table) and its shard."""
    config = getattr(getattr(interaction, "client", None), "config", None)
    count = getattr(config, "shard_count", None) or 1
    guild_id = getattr(interaction, "guild_id", None)
    _CONTEXT.set(
        LogContext(
            table=getattr(interaction, "channel_id", None),
            shard=shard_of(guild_id if isinstance(guild_id, int) else None, count),
            interaction_id=getattr(interaction, "id", None),
        )
    )


class ContextFilter(logging.Filter):
    """Adds the current task's context to every record (a handler's filter: it sees every logger's)."""

    def filter(self, record: logging.LogRecord) -> bool:
        context = _CONTEXT.get()
        for name in CONTEXT_FIELDS:
            if getattr(record, name, None) is None:  # an ``extra=`` given by the caller wins
                setattr(record, name, getattr(context, name))
        return True


def secrets_of(token: str | None, database: str | None = None) -> tuple[str, ...]:
    """What must never be written: the token, and the password of a database URL."""
    found = [token] if token else []
    if database and "://" in database:
        try:
            password = urlsplit(database).password
        except ValueError:
            password = None
        if password:
            found.append(password)
    return tuple(secret for secret in found if len(secret) >= 4)


class _Redacting(logging.Formatter):
    """A formatter that replaces each secret in the finished line."""

    def __init__(self, fmt: str | None = None, secrets: Iterable[str] = ()) -> None:
        super().__init__(fmt)
        # Longest first, so that a secret containing another is replaced whole.
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text


class TextFormatter(_Redacting):
    """``time LEVEL logger: message [game=.. table=.. shard=.. interaction=..]``, then any traceback."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__(TEXT_FORMAT, secrets)

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        line = super().formatMessage(record)
        known = [(name, getattr(record, name, None)) for name in CONTEXT_FIELDS]
        shown = " ".join(f"{name.removesuffix('_id')}={value}" for name, value in known if value is not None)
        return f"{line} [{shown}]" if shown else line

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))


class JsonFormatter(_Redacting):
    """One JSON object a line: time (ISO 8601, UTC), level, logger, message, exception, context."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": self.redact(record.getMessage()),
        }
        if record.exc_info:
            entry["exception"] = self.redact(self.formatException(record.exc_info))
        elif record.exc_text:
            entry["exception"] = self.redact(record.exc_text)
        if record.stack_info:
            entry["stack"] = self.redact(self.formatStack(record.stack_info))
        for name in CONTEXT_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        # Redacted again as a whole: a secret json.dumps escaped differently cannot slip through.
        return self.redact(json.dumps(entry, ensure_ascii=False, default=str))


def make_handler(log_format: str, secrets: Iterable[str] = (), stream: TextIO | None = None) -> logging.Handler:
    """A handler writing to ``stream`` (stderr) in the format, with the context and the redaction."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"MEEPLE_LOG_FORMAT must be {' or '.join(LOG_FORMATS)}, not {log_format!r}")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter(secrets=secrets) if log_format == "json" else TextFormatter(secrets))
    handler.meeple = True  # type: ignore[attr-defined]  # ours: configured again, not doubled
    return handler


def configure_logging(
    level: str,
    log_format: str,
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
    logger: logging.Logger | None = None,
) -> logging.Handler | None:
    """Send the log (the root logger's, unless ``logger``) to stderr in the chosen format.

    Like ``logging.basicConfig``, this leaves a logger that already has someone else's handlers
    alone (a test runner capturing the log) and returns None; a handler of ours is replaced.
    """
    target = logger or logging.getLogger()
    handler = make_handler(log_format, secrets, stream)
    if any(not getattr(existing, "meeple", False) for existing in target.handlers):
        return None
    for existing in list(target.handlers):
        target.removeHandler(existing)
    target.addHandler(handler)
    target.setLevel(level)
    return handler
