"""Slash commands in the user's language: every name, description and choice, within Discord's rules."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.client import MeepleBot
from bot.command_l10n import CatalogueTranslator, catalogue_for, string_key, valid
from emulator.testing import running
from l10n import catalogue, plain_commands
from services.config import Config

TRANSLATED = ("zh-TW", "pt-BR")


class Recorder(app_commands.Translator):
    """Asks nothing of the catalogues: notes every string of the tree, where it sits, and its key."""

    def __init__(self) -> None:
        self.strings: dict[str, tuple[str, app_commands.TranslationContextLocation]] = {}
        self.clashes: list[str] = []

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        key = string_key(context.location, context.data)
        if locale is discord.Locale.taiwan_chinese and key is not None:
            seen = self.strings.get(key)
            if seen is not None and seen[0] != string.message:
                self.clashes.append(f"{key}: {seen[0]!r} and {string.message!r}")
            self.strings[key] = (string.message, context.location)
        return None


async def tree_of(tmp_path: Path, translator: app_commands.Translator) -> list[dict[str, Any]]:
    """The command payload the bot syncs, built offline with ``translator``."""
    bot = MeepleBot(Config(token=None, database=tmp_path / "t.db", dev_guild=None, api_base=None, log_level="INFO"))
    for extension in ("bot.cogs.table", "bot.cogs.meeple", "bot.cogs.tournament"):
        await bot.load_extension(extension)
    await bot.tree.set_translator(translator)
    return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]


@pytest.fixture
async def strings(tmp_path: Path) -> dict[str, tuple[str, app_commands.TranslationContextLocation]]:
    recorder = Recorder()
    await tree_of(tmp_path, recorder)
    assert not recorder.clashes, recorder.clashes
    assert len(recorder.strings) > 200
    return recorder.strings


async def test_the_english_catalogue_words_the_commands_exactly_as_declared(strings) -> None:
    """A decorator reworded without its catalogue entry (or the reverse) is caught here; a command
    the catalogue refers to (``{/meeple profile}``) reads as the decorator writes it."""
    english = catalogue("en")
    declared = {key: text for key, (text, _) in strings.items()}
    stale = {k for k in english if k.startswith("command.") and k not in declared}
    assert not stale, f"catalogue keys of commands that no longer exist: {sorted(stale)[:5]}"
    for key, text in declared.items():
        worded = plain_commands(english[key], "en") if key in english else None
        assert worded == text, f"{key}: declared {text!r}, catalogue {english.get(key)!r}"


@pytest.mark.parametrize("locale", TRANSLATED)
async def test_every_command_string_is_translated_within_discords_rules(strings, locale: str) -> None:
    table = catalogue(locale)
    for key, (_, where) in strings.items():
        text = table.get(key)
        assert text, f"{locale}: no translation of {key}"
        assert valid(text, where), f"{locale}: {key} = {text!r} breaks Discord's rules for {where.name}"


@pytest.mark.parametrize("locale", TRANSLATED)
async def test_translated_names_stay_unique_among_siblings(tmp_path: Path, locale: str) -> None:
    """Two subcommands (or two options of one command) may not share a name in any language."""
    payload = await tree_of(tmp_path, CatalogueTranslator())

    def check(items: list[dict[str, Any]], where: str) -> None:
        names: dict[str, list[str]] = defaultdict(list)
        for item in items:
            names[(item.get("name_localizations") or {}).get(locale, item["name"])].append(item["name"])
            check(item.get("options") or [], f"{where} {item['name']}")
        clashes = {n: e for n, e in names.items() if len(e) > 1}
        assert not clashes, f"{locale} {where}: {clashes}"

    check(payload, "/")


def test_only_a_catalogue_of_the_locales_own_region_translates_commands() -> None:
    assert catalogue_for(discord.Locale.taiwan_chinese) == "zh-TW"
    assert catalogue_for(discord.Locale.brazil_portuguese) == "pt-BR"
    assert catalogue_for(discord.Locale.chinese) is None  # zh-CN reads the default, never zh-TW
    assert catalogue_for(discord.Locale.american_english) is None
    assert catalogue_for(discord.Locale.british_english) is None


async def test_a_broken_translation_is_left_out_rather_than_failing_the_sync(monkeypatch) -> None:
    import bot.command_l10n as module
    from l10n import Entry

    monkeypatch.setattr(module, "entries", lambda name: {"command.table.name": Entry(("Two Words",), plural=False)})
    group = app_commands.Group(name="table", description="d")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.group_name, group)
    text = await CatalogueTranslator().translate(
        app_commands.locale_str("table"), discord.Locale.taiwan_chinese, context
    )
    assert text is None


async def test_the_synced_commands_carry_their_translations(emu, world, config_for) -> None:
    """What Discord receives (the emulator checks localisations as Discord does)."""
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        pass
    synced = {c.name: c.raw for c in emu.commands(world.guild)}
    table = synced["table"]
    assert table["name_localizations"]["zh-TW"] == catalogue("zh-TW")["command.table.name"]
    assert table["name_localizations"]["pt-BR"] == catalogue("pt-BR")["command.table.name"]
    assert "zh-CN" not in table["name_localizations"]
    assert "en-US" not in table["name_localizations"]
    create = next(o for o in table["options"] if o["name"] == "create")
    assert create["description_localizations"]["zh-TW"] == catalogue("zh-TW")["command.table.create.description"]
    game = next(o for o in create["options"] if o["name"] == "game")
    assert game["name_localizations"] == {
        "zh-TW": catalogue("zh-TW")["command.table.create.option.game.name"],
        "pt-BR": catalogue("pt-BR")["command.table.create.option.game.name"],
    }
    fox = next(c for c in game["choices"] if c["value"] == "fox-duet")
    assert set(fox["name_localizations"]) == {"zh-TW", "pt-BR"}


def test_names_in_scripts_whose_vowel_signs_are_marks_are_kept() -> None:
    """Discord takes Devanagari and Thai whole: खेल and เล่น are names, though \\w leaves their marks out."""
    where = app_commands.TranslationContextLocation.command_name
    for name in ("खेल", "खेलें", "เล่น", "ตาราง", "mesa", "棋盘", "jeu_d'échecs"):
        assert valid(name, where), name
    for name in ("Mesa", "two words", "🎲", "x" * 33, "a.b"):
        assert not valid(name, where), name
