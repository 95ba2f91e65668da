"""Slash commands are synced with Discord only when they changed, or when the owner forces it."""

from __future__ import annotations

import dataclasses

import discord
import pytest
from discord import app_commands

import bot.__main__ as entry
from bot.client import MeepleBot
from emulator.emulator import Emulator
from emulator.testing import running
from services.config import Config, load_config


def command_puts(emu: Emulator) -> list[str]:
    """Every bulk overwrite of commands (what ``CommandTree.sync`` sends) the emulator answered."""
    return [r.path for r in emu.requests if r.method == "PUT" and r.path.endswith("/commands")]


class WithAPing(MeepleBot):
    """The bot after an upgrade that added a command: its tree differs from the one last synced."""

    async def setup_hook(self) -> None:
        @app_commands.command(name="ping", description="Check that the bot answers")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        self.tree.add_command(ping)
        await super().setup_hook()


async def test_a_first_start_syncs_and_a_second_unchanged_start_does_not(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)):
        pass
    assert command_puts(emu) == [f"/applications/{emu.state.application.id}/guilds/{world.guild.id}/commands"]
    assert {c.name for c in emu.commands(world.guild)} == {"table", "meeple", "tournament"}
    async with running(emu, MeepleBot(config)):
        # The commands synced by the first start still work: nothing was sent again.
        answer = await emu.slash(world.alice, world.channel, "table join")
        assert "no open table" in (await answer.final_message()).content
    assert len(command_puts(emu)) == 1


async def test_a_changed_command_tree_syncs_again_then_not_again(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)):
        pass
    async with running(emu, WithAPing(config)):
        pass
    assert len(command_puts(emu)) == 2
    assert "ping" in {c.name for c in emu.commands(world.guild)}
    async with running(emu, WithAPing(config)):
        pass
    assert len(command_puts(emu)) == 2
    async with running(emu, MeepleBot(config)):  # and back: the command is removed from Discord
        pass
    assert len(command_puts(emu)) == 3
    assert "ping" not in {c.name for c in emu.commands(world.guild)}


async def test_the_owner_can_force_a_sync_of_unchanged_commands(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)):
        pass
    async with running(emu, MeepleBot(dataclasses.replace(config, sync_commands=True))):
        pass
    assert len(command_puts(emu)) == 2


async def test_global_and_guild_targets_are_remembered_apart(emu, world, config_for) -> None:
    guild_config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(guild_config)):
        pass
    global_config = dataclasses.replace(guild_config, dev_guild=None)
    async with running(emu, MeepleBot(global_config)):
        pass
    async with running(emu, MeepleBot(global_config)):
        pass
    assert command_puts(emu) == [
        f"/applications/{emu.state.application.id}/guilds/{world.guild.id}/commands",
        f"/applications/{emu.state.application.id}/commands",
    ]
    assert {c.name for c in emu.commands()} == {"table", "meeple", "tournament"}


async def test_a_failed_sync_is_not_remembered_and_is_tried_at_the_next_start(emu, world, config_for) -> None:
    config = config_for(emu, world.guild.id)
    emu.faults.fail("PUT /applications/", status=403, code=50001, message="Missing Access")
    refused = MeepleBot(config)
    with pytest.raises(discord.Forbidden):
        async with running(emu, refused):
            pass
    await refused.close()
    assert emu.commands(world.guild) == []
    async with running(emu, MeepleBot(config)):
        pass
    assert len(command_puts(emu)) == 2
    assert {c.name for c in emu.commands(world.guild)} == {"table", "meeple", "tournament"}


def test_the_force_switch_comes_from_the_environment_or_the_command_line(monkeypatch, tmp_path) -> None:
    assert load_config(env={}, env_file=None).sync_commands is False
    assert load_config(env={"MEEPLE_SYNC_COMMANDS": "1"}, env_file=None).sync_commands is True
    assert load_config(env={"MEEPLE_SYNC_COMMANDS": "no"}, env_file=None).sync_commands is False
    with pytest.raises(ValueError, match="MEEPLE_SYNC_COMMANDS"):
        load_config(env={"MEEPLE_SYNC_COMMANDS": "perhaps"}, env_file=None)

    started: list[Config] = []

    async def run(config: Config) -> None:  # stands in for connecting to Discord
        started.append(config)

    monkeypatch.setattr(entry, "run", run)
    monkeypatch.setenv("MEEPLE_ENV_FILE", str(tmp_path / "empty.env"))
    (tmp_path / "empty.env").write_text("")
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.delenv("MEEPLE_SYNC_COMMANDS", raising=False)
    assert entry.main([]) == 0
    assert entry.main(["--sync-commands"]) == 0
    monkeypatch.setenv("MEEPLE_SYNC_COMMANDS", "1")
    assert entry.main([]) == 0
    assert [c.sync_commands for c in started] == [False, True, True]
