"""Start Meeple Post: ``python -m bot``."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord
import yarl

from bot.config import Config, load_config

NO_TOKEN = """\
Meeple Post needs a Discord bot token to connect to Discord.

  1. Create an application at https://discord.com/developers/applications, add a Bot,
     and copy its token (Bot > Reset Token).
  2. Put it in a file named .env beside README.md:   DISCORD_TOKEN=your-token-here
     (or export DISCORD_TOKEN in your shell).
  3. Invite the bot to your server with the link in README.md (section "Create the Discord
     application and invite the bot"), then run the start command again.
"""


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
    async with bot:
        await bot.start(config.token or "")


def main(argv: list[str] | None = None) -> int:
    try:
        config = load_config()
    except ValueError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 1
    try:
        asyncio.run(run(config))
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN in .env.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
