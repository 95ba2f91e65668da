"""The log: text by default, one JSON object a line with MEEPLE_LOG_FORMAT=json, each line naming
the game, table, shard and interaction it was written for; the token never in it."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.__main__ import main
from bot.client import MeepleBot
from emulator.testing import running
from services.config import load_config
from services.delivery import Backoff
from services.logs import REDACTED, configure_logging, make_handler, secrets_of
from tests.bot.test_discord_table import open_table
from tests.support.driver import Table

TOKEN = "MTE5.not-a-real-token.but-shaped-like-one"
FAST = Backoff(first=0.01, factor=2.0, cap=0.05, jitter=0.2)


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The root logger's lines as the JSON format writes them, with the context filter on."""
    stream = io.StringIO()
    handler = make_handler("json", stream=stream)
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def lines(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_json_lines_parse_and_carry_time_level_logger_message_and_exception() -> None:
    stream = io.StringIO()
    logger = logging.getLogger("meeple.test-json")
    logger.propagate = False
    assert configure_logging("INFO", "json", stream=stream, logger=logger) is not None
    logger.debug("not at INFO")
    logger.info("a board for %d players", 2)
    try:
        raise ValueError("what went wrong\non two lines")
    except ValueError:
        logger.exception("it failed")
    first, second = lines(stream)
    assert first["message"] == "a board for 2 players" and first["level"] == "INFO"
    assert first["logger"] == "meeple.test-json"
    assert first["time"].endswith("+00:00") and "T" in first["time"]
    assert "exception" not in first and "game_id" not in first
    assert second["level"] == "ERROR" and "ValueError: what went wrong\non two lines" in second["exception"]
    # Configured again (a second start in one process): replaced, never doubled.
    configure_logging("INFO", "json", stream=stream, logger=logger)
    assert len(logger.handlers) == 1


def test_the_text_format_is_the_default_and_reads_as_a_sentence() -> None:
    assert load_config(env={}, env_file=None).log_format == "text"
    stream = io.StringIO()
    logger = logging.getLogger("meeple.test-text")
    logger.propagate = False
    configure_logging("INFO", "text", stream=stream, logger=logger)
    logger.info("%d running games carry on", 3)
    logger.warning("with a game", extra={"game_id": 12, "table": 34})
    plain, with_game = stream.getvalue().splitlines()
    assert plain.endswith(" INFO meeple.test-text: 3 running games carry on")
    assert with_game.endswith("WARNING meeple.test-text: with a game [game=12 table=34]")


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_the_token_never_appears_even_when_logged_by_mistake(log_format: str) -> None:
    stream = io.StringIO()
    logger = logging.getLogger(f"meeple.test-token-{log_format}")
    logger.propagate = False
    password = "pg-s3cret-word"
    secrets = secrets_of(TOKEN, f"postgresql://meeple:{password}@db.example/meeple")
    configure_logging("DEBUG", log_format, secrets, stream=stream, logger=logger)
    logger.info("connecting with %s", TOKEN)
    logger.info(f"headers: Authorization: Bot {TOKEN}")
    logger.info("url %r", f"postgresql://meeple:{password}@db.example/meeple")
    try:
        raise RuntimeError(f"login failed for {TOKEN}")
    except RuntimeError:
        logger.exception("login")
    written = stream.getvalue()
    assert TOKEN not in written and password not in written
    assert written.count(REDACTED) == 4
    if log_format == "json":
        assert len(lines(stream)) == 4


def test_a_bad_log_format_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch, tmp_path, capsys) -> None:
    with pytest.raises(ValueError, match="MEEPLE_LOG_FORMAT must be text .* or json"):
        load_config(env={"MEEPLE_LOG_FORMAT": "xml"}, env_file=None)
    assert load_config(env={"MEEPLE_LOG_FORMAT": " JSON "}, env_file=None).log_format == "json"
    monkeypatch.setenv("MEEPLE_ENV_FILE", str(tmp_path / "empty.env"))
    (tmp_path / "empty.env").write_text("")
    monkeypatch.setenv("MEEPLE_LOG_FORMAT", "yaml")
    assert main([]) == 2
    assert "Configuration error: MEEPLE_LOG_FORMAT" in capsys.readouterr().err


async def join_and_start_without_bobs_dm(emu, world) -> None:
    lobby = await open_table(emu, world)
    await (await emu.click(world.bob, lobby, label="Join")).response()
    await emu.wait_until(lambda: f"<@{world.bob.id}>" in lobby.content, what="Bob joined")
    await (await emu.click(world.alice, lobby, label="Start")).response()
    await emu.wait_for_message(world.channel, lambda m: "could not send a direct message" in m.content)


async def test_lines_written_in_a_click_and_in_a_delivery_name_their_game_table_and_shard(
    emu, world, config_for, json_log, monkeypatch
) -> None:
    emu.faults.dm_closed(world.bob)  # Bob's hand cannot go out: the delivery worker logs it
    async with running(emu, MeepleBot(config_for(emu, world.guild.id), backoff=FAST)) as bot:
        await join_and_start_without_bobs_dm(emu, world)
        game_id = (await bot.db.active_game_in_channel(world.channel.id)).id
        table = Table(emu, world.channel, [world.alice, world.bob])

        async def broken(row):
            raise RuntimeError("injected fault in the service")

        monkeypatch.setattr(bot.flow.service, "state", broken)
        clicked = await emu.click(world.alice, table.board(), label="My hand")
        await clicked.followups(1)

    records = lines(json_log)
    undelivered = [r for r in records if r["message"].startswith(f"could not DM a player of game {game_id}")]
    assert len(undelivered) == 1 and undelivered[0]["logger"] == "meeple.delivery"
    # The worker was kicked by the Start click, yet its line names no interaction: only its game's.
    assert {k: undelivered[0].get(k) for k in ("game_id", "table", "shard", "interaction_id")} == {
        "game_id": game_id,
        "table": world.channel.id,
        "shard": 0,
        "interaction_id": None,
    }
    failed = [r for r in records if r["message"] == f"HandButton of game {game_id} failed"]
    assert len(failed) == 1 and "injected fault" in failed[0]["exception"]
    assert {k: failed[0].get(k) for k in ("game_id", "table", "shard", "interaction_id")} == {
        "game_id": game_id,
        "table": world.channel.id,
        "shard": 0,
        "interaction_id": clicked.id,
    }
    # Lines written outside any interaction or game name none.
    started = [r for r in records if "running games carry on" in r["message"]]
    assert started and "game_id" not in started[0] and "interaction_id" not in started[0]
    assert emu.bot_token not in json_log.getvalue()
