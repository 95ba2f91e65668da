"""Start Meeple Post: ``python -m bot``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import errno
import logging
import os
import signal
import sys
from pathlib import Path

import discord
import yarl

from bot.config import Config, load_config, parse_env_file

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


def sandbox_port(argv: list[str] | None) -> int:
    """The sandbox page's port: --port, else MEEPLE_SANDBOX_PORT (environment or .env), else 8765."""
    env_file = Path(".env")
    values = parse_env_file(env_file.read_text(encoding="utf-8")) if env_file.is_file() else {}
    values.update(os.environ)
    parser = argparse.ArgumentParser(prog="python -m bot", description="Start Meeple Post.")
    default = (values.get("MEEPLE_SANDBOX_PORT") or "").strip() or str(SANDBOX_PORT)
    if not default.isdigit() or not 0 < int(default) < 65536:
        raise ValueError("MEEPLE_SANDBOX_PORT must be a port number (1-65535)")
    parser.add_argument(
        "--port",
        type=int,
        default=int(default),
        help="port of the local sandbox page when no DISCORD_TOKEN is set (default %(default)s)",
    )
    return parser.parse_args(argv).port


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
    bot_config = dataclasses.replace(config, token=sandbox.bot_token, api_base=sandbox.api_base, dev_guild=None)
    bot = asyncio.create_task(run(bot_config), name="meeple-bot")
    try:
        ready = asyncio.create_task(sandbox.wait_for_bot())
        await asyncio.wait({bot, ready}, return_when=asyncio.FIRST_COMPLETED)
        if bot.done():
            ready.cancel()
            bot.result()
            return 1
        ready.result()
        url = sandbox.start_web()
        print(SANDBOX_READY.format(url=url, database=config.database, no_token=NO_TOKEN), flush=True)
        await bot
        return 0
    finally:
        bot.cancel()
        await asyncio.gather(bot, return_exceptions=True)
        await sandbox.stop()


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
    from bot.client import MeepleBot

    configure_api_base(config)
    bot = MeepleBot(config)
    # SIGTERM (a service manager or container stopping the bot) shuts down as cleanly as Ctrl+C.
    main = asyncio.current_task()
    assert main is not None, "run() is always awaited inside a task"
    with contextlib.suppress(NotImplementedError, RuntimeError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)
    async with bot:
        await bot.start(config.token or "")


def main(argv: list[str] | None = None) -> int:
    try:
        config = load_config()
        port = sandbox_port(argv)
    except ValueError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
