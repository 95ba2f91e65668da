"""Start Meeple Post: ``python -m bot``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import errno
import faulthandler
import signal
import sys

import discord
import yarl

from services.config import Config, load_config, read_settings, redact_url
from services.logs import configure_logging, secrets_of
from services.tasks import Tasks, awaited, log_every_task

NO_TOKEN = """\
Meeple Post needs a Discord bot token to connect to Discord.

  1. Create an application at https://discord.com/developers/applications, add a Bot,
     and copy its token (Bot > Reset Token).
  2. Put it in a file named .env beside README.md:   DISCORD_TOKEN=your-token-here
     (or export DISCORD_TOKEN in your shell).
  3. Invite the bot to your server with the link in README.md (section "Create the Discord
     application and invite the bot"), then run the start command again.
"""


SANDBOX_READY = """\
Meeple Post is running in the local sandbox (no DISCORD_TOKEN is set).

    Open  {url}  in your browser.

A stand-in Discord runs on this machine with four people (Alice, Bob, Carol, Dave) in the server
"Meeple Hall": play as one, switch to another, or open a second tab. The real bot is connected to
it and stores its games in {database}. Press Ctrl+C to stop.

Note: to host games on a real Discord server instead of this sandbox:
{no_token}"""


SANDBOX_PORT = 8765
# Seconds a process may take to exit once its loop is closed before it says what holds it.
EXIT_WATCH = 10.0


def parse_options(argv: list[str] | None, settings: dict[str, str]) -> argparse.Namespace:
    """The command line; --port defaults to MEEPLE_SANDBOX_PORT (environment or .env), else 8765."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="Start Meeple Post.")
    default = (settings.get("MEEPLE_SANDBOX_PORT") or "").strip() or str(SANDBOX_PORT)
    if not default.isdigit() or not 0 < int(default) < 65536:
        raise ValueError("MEEPLE_SANDBOX_PORT must be a port number (1-65535)")
    parser.add_argument(
        "--port",
        type=int,
        default=int(default),
        help="port of the local sandbox page when no DISCORD_TOKEN is set (default %(default)s)",
    )
    parser.add_argument(
        "--sync-commands",
        action="store_true",
        help="sync the slash commands with Discord even if they did not change since the last sync "
        "(same as MEEPLE_SYNC_COMMANDS=1)",
    )
    # Without a subcommand the bot starts; these two work on its SQLite file instead (services/backup_schedule.py).
    commands = parser.add_subparsers(dest="command", metavar="{backup,restore,my-data,forget-me}")
    backup = commands.add_parser("backup", help="copy the database, safely while the bot plays")
    backup.add_argument("path", help="the copy to write (a folder, or a name ending in /: a dated file in it)")
    restore = commands.add_parser("restore", help="check a copy, then put it in place (the bot stopped)")
    restore.add_argument("path", help="the copy to restore")
    # A player's data, for a request that arrives by mail (services/player_data.py; README, "Privacy").
    my_data = commands.add_parser("my-data", help="write everything stored about a user as JSON")
    my_data.add_argument("user", help="the user's Discord id")
    my_data.add_argument("--out", help="the file to write (default: standard output)")
    forget = commands.add_parser("forget-me", help="forget a user: resign their games, anonymise their records")
    forget.add_argument("user", help="the user's Discord id")
    forget.add_argument("--yes", action="store_true", help="really do it (without it, only says what it would do)")
    return parser.parse_args(argv)


async def run_sandbox(config: Config, port: int) -> int:
    """No token: start a loopback Discord, the real bot against it, then the sandbox page."""
    from sandbox import Sandbox

    sandbox = Sandbox()
    try:
        await sandbox.start_discord(port=port)
    except OSError as exc:
        why = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror
        print(
            f"The sandbox cannot listen on 127.0.0.1:{port}: {why}. Choose another port, for example:\n"
            f"    ./scripts/start --port {port + 1}    (or MEEPLE_SANDBOX_PORT={port + 1})",
            file=sys.stderr,
        )
        await sandbox.stop()
        return 1
    # The stand-in Discord starts empty every time: it needs the commands whatever the database remembers.
    # One process serves its one server: shard settings meant for Discord do not apply.
    bot_config = dataclasses.replace(
        config,
        token=sandbox.bot_token,
        api_base=sandbox.api_base,
        dev_guild=None,
        sync_commands=True,
        shard_ids=None,
        shard_count=None,
    )
    tasks = Tasks()  # both are awaited here, which says their errors
    bot = tasks.start(run(bot_config), name="meeple-bot", on_error=awaited)
    try:
        ready = tasks.start(sandbox.wait_for_bot(), name="meeple-sandbox-ready", on_error=awaited)
        await asyncio.wait({bot, ready}, return_when=asyncio.FIRST_COMPLETED)
        if bot.done():
            ready.cancel()
            bot.result()
            return 1
        ready.result()
        url = sandbox.start_web()
        print(SANDBOX_READY.format(url=url, database=redact_url(str(config.database)), no_token=NO_TOKEN), flush=True)
        await bot
        return 0
    finally:
        await tasks.close()
        await sandbox.stop()


def quiet_voice_warnings() -> None:
    """Drop discord.py's start-up warnings about missing voice libraries (PyNaCl, davey).

    Meeple Post never joins a voice channel, so those libraries are not installed and the warnings
    would alarm whoever reads the log. discord.py checks these two class flags once, when a client
    is created; every other warning keeps its level.
    """
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def configure_api_base(config: Config) -> None:
    """Point discord.py at another Discord host (the loopback emulator): its API and its gateway.

    A non-sharded client connects to a hardcoded default gateway rather than asking the API,
    so both must move together.
    """
    if config.api_base:
        discord.http.Route.BASE = f"{config.api_base}/api/v10"
        gateway = config.api_base.replace("http", "ws", 1)
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


async def run(config: Config) -> None:
    from bot.client import create_bot

    configure_api_base(config)
    bot = create_bot(config)
    main = asyncio.current_task()
    assert main is not None, "run() is always awaited inside a task"
    stopping = Tasks()  # the shutdown a stop signal starts (its error is raised where it is awaited, below)
    asked = asyncio.Event()

    def stop() -> None:
        """Ctrl+C, or SIGTERM (a service manager or container stopping the bot): close the client.

        Cancelling the main task interrupts a start-up wherever it waits, but discord.py may
        swallow that cancellation (``asyncio.wait_for`` around the gateway's connection returns a
        result that arrives with the cancel), and the bot would then run on: closing the client
        ends ``bot.start()`` whatever it was doing. A second signal changes nothing: the one
        shutdown is under way.
        """
        if asked.is_set():
            return
        asked.set()
        main.cancel()
        stopping.start(bot.close(), name="meeple-stop", on_error=awaited)

    with contextlib.suppress(NotImplementedError, RuntimeError):
        for sig in (signal.SIGINT, signal.SIGTERM):
            asyncio.get_running_loop().add_signal_handler(sig, stop)
        # ``kill -USR1 PID``: the log says what every task waits on (a stop that does not end).
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, log_every_task)
    try:
        async with bot:
            await bot.start(config.token or "")
    finally:
        await bot.close()  # the shutdown a signal started, if any: every call waits for the same one
        await stopping.idle()


def main(argv: list[str] | None = None) -> int:
    try:
        settings = read_settings()
        config = load_config(settings, env_file=None)
        options = parse_options(argv, settings)
    except ValueError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    if options.sync_commands:
        config = dataclasses.replace(config, sync_commands=True)
    port = options.port
    configure_logging(config.log_level, config.log_format, secrets_of(config.token, str(config.database)))
    if options.command in ("my-data", "forget-me"):
        from services import player_data as privacy

        out, yes = getattr(options, "out", None), getattr(options, "yes", False)
        return privacy.command(options.command, options.user, config, out=out, yes=yes)
    if options.command is not None:
        from services.backup_schedule import command

        return command(options.command, options.path, config)
    quiet_voice_warnings()
    if not config.token:
        try:
            return asyncio.run(run_sandbox(config, port))
        except (KeyboardInterrupt, asyncio.CancelledError):
            return 0
    try:
        asyncio.run(run(config))
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN in .env.", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass
    # The loop is closed; what is left is the interpreter's own exit (threads, worker pools). A
    # process still here after EXIT_WATCH seconds writes every thread's stack to the log.
    faulthandler.dump_traceback_later(EXIT_WATCH, exit=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
