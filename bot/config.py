"""Configuration, read once at start-up from the environment and an optional ``.env`` file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "var/meeple-post.db"


@dataclass(frozen=True)
class Config:
    token: str | None
    database: Path
    dev_guild: int | None
    api_base: str | None
    log_level: str

    def __repr__(self) -> str:  # never show the token, even in a traceback
        shown = "set" if self.token else "missing"
        return (
            f"Config(token={shown}, database={str(self.database)!r}, dev_guild={self.dev_guild}, "
            f"api_base={self.api_base!r}, log_level={self.log_level!r})"
        )


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


def load_config(env: dict[str, str] | None = None, env_file: Path | None = Path(".env")) -> Config:
    """Build the configuration; real environment variables win over the ``.env`` file."""
    merged: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        merged.update(parse_env_file(env_file.read_text(encoding="utf-8")))
    merged.update(os.environ if env is None else env)

    guild = merged.get("MEEPLE_DEV_GUILD", "").strip()
    if guild and not guild.isdigit():
        raise ValueError("MEEPLE_DEV_GUILD must be a guild id (a number)")
    level = merged.get("MEEPLE_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        raise ValueError("MEEPLE_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR")
    return Config(
        token=merged.get("DISCORD_TOKEN", "").strip() or None,
        database=Path(merged.get("MEEPLE_DB", "").strip() or DEFAULT_DB),
        dev_guild=int(guild) if guild else None,
        api_base=merged.get("DISCORD_API_BASE", "").strip().rstrip("/") or None,
        log_level=level,
    )
