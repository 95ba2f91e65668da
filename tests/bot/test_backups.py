"""`python -m bot backup PATH` / `restore PATH` beside the bot's own options, the backup settings, and
the running bot's scheduled backups."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main, parse_options
from bot.client import MeepleBot
from emulator.testing import running
from services.backup_schedule import BackupSchedule
from services.config import load_config
from services.storage import Database
from services.storage.backup import backups_in


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No .env, no token; MEEPLE_DB a database with one game; its path."""
    (tmp_path / "empty.env").write_text("")
    monkeypatch.setenv("MEEPLE_ENV_FILE", str(tmp_path / "empty.env"))
    for name in ("DISCORD_TOKEN", "MEEPLE_BACKUP_EVERY_HOURS", "MEEPLE_BACKUP_DIR", "MEEPLE_BACKUP_KEEP"):
        monkeypatch.delenv(name, raising=False)
    database = tmp_path / "var" / "meeple-post.db"
    monkeypatch.setenv("MEEPLE_DB", str(database))
    return database


async def one_game(database: Path, channel: int = 2) -> None:
    db = await Database.open(database)
    try:
        await db.create_game("fox-duet", 1, channel, 3, {}, seed=1)
    finally:
        await db.close()


def games(database: Path) -> int:
    conn = sqlite3.connect(database)
    try:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    finally:
        conn.close()


def test_the_bot_s_own_options_still_start_it() -> None:
    options = parse_options(["--port", "9000"], {})
    assert (options.command, options.port, options.sync_commands) == (None, 9000, False)
    assert parse_options([], {}).command is None
    options = parse_options(["--sync-commands", "backup", "copy.db"], {})
    assert (options.command, options.path, options.sync_commands) == ("backup", "copy.db", True)
    assert (parse_options(["restore", "x.db"], {}).command, parse_options(["restore", "x.db"], {}).path) == (
        "restore",
        "x.db",
    )
    with pytest.raises(SystemExit):
        parse_options(["backup"], {})  # a backup needs its path


async def test_backup_then_restore_from_the_command_line(environment: Path, tmp_path: Path, capsys) -> None:
    await one_game(environment)
    assert main(["backup", str(tmp_path / "copy.db")]) == 0
    assert f"to {tmp_path / 'copy.db'}" in capsys.readouterr().out
    assert main(["backup", str(tmp_path / "copy.db")]) == 1  # never overwrites
    assert "already exists" in capsys.readouterr().err
    assert main(["backup", str(tmp_path / "dated") + "/"]) == 0  # a folder: a dated name in it
    capsys.readouterr()
    [(_, dated)] = backups_in(tmp_path / "dated", "meeple-post")
    assert games(dated) == 1
    await one_game(environment, channel=4)  # a second game, after the backup
    assert games(environment) == 2
    assert main(["restore", str(tmp_path / "copy.db")]) == 0
    said = capsys.readouterr().out
    assert f"Restored {tmp_path / 'copy.db'} to {environment}" in said and "before-restore-" in said
    assert games(environment) == 1
    (tmp_path / "junk.db").write_bytes(b"\x00" * 5000)
    assert main(["restore", str(tmp_path / "junk.db")]) == 1
    assert "Restore refused" in capsys.readouterr().err
    assert games(environment) == 1


def test_on_postgresql_the_commands_name_pg_dump_and_pg_restore(
    environment: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setenv("MEEPLE_DB", "postgresql://meeple:s3cret-pw@db.example:5432/meeple")
    assert main(["backup", "meeple.dump"]) == 1
    said = capsys.readouterr().err
    assert "pg_dump --format=custom --file=meeple.dump 'postgresql://meeple:***@db.example:5432/meeple'" in said
    assert "pg_restore --clean --if-exists" in said and "s3cret-pw" not in said
    assert main(["restore", "meeple.dump"]) == 1
    said = capsys.readouterr().err
    assert "pg_restore --clean --if-exists" in said and "s3cret-pw" not in said


def test_the_backup_settings() -> None:
    config = load_config(env={}, env_file=None)
    assert (config.backup_every_hours, config.backup_dir, config.backup_keep) == (None, None, 7)
    assert BackupSchedule.from_config(config) is None  # off unless asked for
    config = load_config(env={"MEEPLE_BACKUP_EVERY_HOURS": "0.5", "MEEPLE_BACKUP_KEEP": "3"}, env_file=None)
    schedule = BackupSchedule.from_config(config)
    assert schedule is not None and schedule.every.total_seconds() == 1800 and schedule.keep == 3
    assert schedule.folder == Path("var/backups")  # beside the database
    config = load_config(env={"MEEPLE_BACKUP_EVERY_HOURS": "24", "MEEPLE_BACKUP_DIR": "/srv/b"}, env_file=None)
    assert BackupSchedule.from_config(config).folder == Path("/srv/b")  # type: ignore[union-attr]
    for env, message in [
        ({"MEEPLE_BACKUP_EVERY_HOURS": "daily"}, "MEEPLE_BACKUP_EVERY_HOURS must be a number"),
        ({"MEEPLE_BACKUP_EVERY_HOURS": "0"}, "MEEPLE_BACKUP_EVERY_HOURS must be a number"),
        ({"MEEPLE_BACKUP_EVERY_HOURS": "nan"}, "MEEPLE_BACKUP_EVERY_HOURS must be a number"),
        ({"MEEPLE_BACKUP_KEEP": "0"}, "MEEPLE_BACKUP_KEEP"),
        ({"MEEPLE_BACKUP_EVERY_HOURS": "6", "MEEPLE_DB": "postgresql://m@db/m"}, "pg_dump"),
    ]:
        with pytest.raises(ValueError, match=message):
            load_config(env=env, env_file=None)


async def test_the_running_bot_backs_up_on_its_schedule(emu, world, config_for, tmp_path: Path) -> None:
    config = dataclasses.replace(
        config_for(emu, world.guild.id), backup_every_hours=24.0, backup_dir=tmp_path / "scheduled", backup_keep=2
    )
    async with running(emu, MeepleBot(config)):
        # None in the folder yet: the first is due at once, the next in 24 hours.
        await emu.wait_until(lambda: backups_in(tmp_path / "scheduled", "meeple"), what="the first backup")
    [(_, made)] = backups_in(tmp_path / "scheduled", "meeple")
    conn = sqlite3.connect(made)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
