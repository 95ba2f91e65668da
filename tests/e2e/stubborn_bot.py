"""``python -m tests.e2e.stubborn_bot``: the bot, with a discord.py that swallows every
cancellation of its connection, as ``asyncio.wait_for`` (Python 3.11) does when the gateway's
connection completes in the same instant as the cancel. Only closing the client ends it, so a
stop that relied on cancelling the main task would leave this process running.
"""

from __future__ import annotations

import asyncio

import discord

from bot.__main__ import main

connect = discord.Client.connect


async def stubborn_connect(self: discord.Client, *, reconnect: bool = True) -> None:
    connection = asyncio.ensure_future(connect(self, reconnect=reconnect))
    while True:
        try:
            return await asyncio.shield(connection)  # ends when the client is closed
        except asyncio.CancelledError:
            continue  # swallowed, as discord.py's wait_for may


if __name__ == "__main__":
    discord.Client.connect = stubborn_connect  # type: ignore[method-assign]
    raise SystemExit(main())
