"""Play without Discord: a loopback Discord (the emulator) and a web page that acts like its client.

    sandbox = Sandbox()
    await sandbox.start_discord(port=8765)  # the emulator (Meeple Hall, #games, a thread, 4 people),
                                            # serving the page too, under /sandbox/
    ...start the real bot against sandbox.api_base with sandbox.bot_token...
    await sandbox.wait_for_bot()            # connected, commands registered
    url = sandbox.start_web()               # http://127.0.0.1:8765/sandbox/

The bot is not told it is in a sandbox: it talks to the emulator over HTTP and the gateway exactly
as it talks to Discord.
"""

from __future__ import annotations

from sandbox.server import SandboxServer
from sandbox.world import SandboxEmulator, World, build_world

PAGE_PREFIX = "/sandbox"


class Sandbox:
    """The emulator, its world and the web page, started in that order around the bot."""

    def __init__(self) -> None:
        self.emu = SandboxEmulator(require_alt_text=True)  # as strict as the tests: every picture has alt text
        self.world: World | None = None
        self.server: SandboxServer | None = None

    @property
    def api_base(self) -> str:
        """The emulator's address, for the bot's `DISCORD_API_BASE` setting."""
        return self.emu.base_url

    @property
    def bot_token(self) -> str:
        """The token the emulator accepts."""
        return self.emu.bot_token

    async def start_discord(self, host: str = "127.0.0.1", port: int = 0) -> World:
        """Build the world and start the emulator on ``port`` (0: a free one), the page mounted on it.

        Raises OSError when the port is taken.
        """
        self.world = build_world(self.emu)
        self.server = SandboxServer(self.emu, self.world)
        self.emu.host, self.emu.port = host, port
        self.emu.mount(PAGE_PREFIX, self.server.app())
        await self.emu.start()
        return self.world

    async def wait_for_bot(self, timeout: float = 30.0) -> None:
        """Wait until the bot is connected and its slash commands are registered."""
        await self.emu.wait_for_bot(timeout)
        await self.emu.wait_until(
            lambda: self.emu.commands() or (self.world and self.emu.commands(self.world.guild)),
            timeout,
            "the bot's slash commands",
        )

    def start_web(self) -> str:
        """Start telling open pages about changes; returns the page's address."""
        if self.server is None:
            raise RuntimeError("start_discord() first")
        return self.server.serve_from(f"{self.emu.base_url}{PAGE_PREFIX}/")

    async def stop(self) -> None:
        """Stop the page, then the emulator."""
        if self.server is not None:
            await self.server.stop()
            self.server = None
        await self.emu.stop()


__all__ = ["Sandbox", "SandboxEmulator", "SandboxServer", "World", "build_world"]
