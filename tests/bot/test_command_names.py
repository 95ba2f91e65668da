"""Commands and options named as the reader sees them.

A sentence refers to a command (``{/table create}``) or an option (``{/tournament
create.players_per_table}``) and gets the name the command tree sends Discord, in its own
language; on Discord a command is a mention (``</table create:ID>``) once the bot knows the ids.
Game options are typed in any of the bot's languages (``等級=2``, ``nível=2``, ``level=2``).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from bot.client import MeepleBot
from bot.cogs.table import option_choices
from bot.command_l10n import CatalogueTranslator, CommandMentions
from bot.command_options import SUB_COMMAND, SUB_COMMAND_GROUP
from emulator.testing import running
from engine import GAMES
from l10n import (
    command_name,
    command_refs,
    entries,
    option_name,
    plain_commands,
    t,
    use_catalogues,
    use_command_mentions,
)
from l10n import tools as i18n_tools
from league.refusal import Refusal
from services.game_options import OptionsRefused, parse
from services.game_service import GameService
from tests.bot.test_command_l10n import tree_of

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("en", "zh-TW", "pt-BR")
TRANSLATED = ("zh-TW", "pt-BR")
FOX = GAMES["fox-duet"]


def walk(items: list[dict[str, Any]], path: str = "") -> list[tuple[str, dict[str, Any], str | None]]:
    """Every command, group and subcommand (``(path, item, None)``) and option (``(path, item, option)``)."""
    found: list[tuple[str, dict[str, Any], str | None]] = []
    for item in items:
        if not path or item.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            here = f"{path} {item['name']}".strip()
            found.append((here, item, None))
            found += walk(item.get("options") or [], here)
        else:
            found.append((path, item, item["name"]))
    return found


@pytest.fixture
async def tree(tmp_path: Path) -> list[dict[str, Any]]:
    """The payload the bot syncs, translated by the catalogues."""
    return await tree_of(tmp_path, CatalogueTranslator())


def shown(item: dict[str, Any], locale: str) -> str:
    return (item.get("name_localizations") or {}).get(locale, item["name"])


# -- the names are the command tree's ------------------------------------------------------------
@pytest.mark.parametrize("locale", TRANSLATED)
async def test_a_reference_reads_exactly_the_name_the_tree_sends_discord(tree, locale: str) -> None:
    """Every command path and option, in every language: what a sentence writes is what Discord shows."""
    checked = 0
    for path, item, option in walk(tree):
        if option is None:
            words = path.split()
            # Each word of the path as Discord shows it: the localization of each level.
            levels = [tree]
            expected = []
            for word in words:
                found = next(i for i in levels[-1] if i["name"] == word)
                expected.append(shown(found, locale))
                levels.append(found.get("options") or [])
            assert command_name(path, locale) == " ".join(expected), path
        else:
            assert option_name(path, option, locale) == shown(item, locale), f"{path} {option}"
        checked += 1
    assert checked > 100


async def test_every_reference_in_the_catalogues_names_a_command_or_option_that_exists(tree) -> None:
    paths = {path for path, _, option in walk(tree) if option is None}
    options = {f"{path}.{option}" for path, _, option in walk(tree) if option is not None}
    for locale in LOCALES:
        for key, entry in entries(locale).items():
            for form in entry.forms:
                for ref in command_refs(form):
                    assert ref in paths or ref in options, f"{locale} {key}: no command or option {ref!r}"


def literal_names(tree: list[dict[str, Any]]) -> tuple[set[str], set[str]]:
    """The English names of the top-level commands, and of every option."""
    tops = {item["name"] for item in tree}
    options = {option for _, _, option in walk(tree) if option is not None}
    return tops, options


QUOTED = "`'\"“”「」‘’"


@pytest.mark.parametrize("locale", LOCALES)
async def test_no_catalogue_writes_a_command_or_an_option_name_itself(tree, locale: str) -> None:
    """``/table create``, ``players_per_table``, ```partner```, ``days:0``: a name written out in
    a sentence would drift from what Discord shows; the sentence refers to it instead."""
    tops, options = literal_names(tree)
    localized = {}
    for _, item, option in walk(tree):
        if option is not None:
            localized.setdefault(option, set()).add(shown(item, locale))
    command = re.compile(r"/(?:" + "|".join(map(re.escape, sorted(tops))) + r")\b")
    word = re.compile(r"(?<![\w-])([A-Za-z_]+)(?![\w-])")
    found = []
    for key, entry in entries(locale).items():
        if key.startswith("command.") and key.endswith(".name"):
            continue  # the names themselves
        for form in entry.forms:
            text = re.sub(r"\{[^{}]*\}", "\0", form)  # references and placeholders are not written names
            if command.search(text):
                found.append((key, form))
                continue
            for match in word.finditer(text):
                name = match.group(1)
                if name not in options or localized.get(name) == {name} and locale != "zh-TW":
                    continue  # an ordinary word, or the option's name in this language too (casual)
                before, after = text[match.start() - 1 : match.start()], text[match.end() : match.end() + 2]
                as_name = (
                    "_" in name
                    or (before and before in QUOTED)
                    or (len(after) == 2 and after[0] in ":=" and not after[1].isspace())
                    or locale == "zh-TW"  # Chinese has no English words but the names and titles
                )
                if as_name:
                    found.append((key, form))
    assert not found, f"{locale}: names written out instead of referred to: {found[:5]}"


def test_a_command_reference_is_never_inside_code_formatting() -> None:
    """A mention inside backticks would show as raw ``</table create:ID>``: commands go bare."""
    for locale in LOCALES:
        for key, entry in entries(locale).items():
            for form in entry.forms:
                for ref in command_refs(form):
                    if "." in ref:
                        continue  # an option is text, in code formatting or not
                    outside = re.sub(r"`[^`]*`", "", form)
                    assert "{/" + ref + "}" in outside, f"{locale} {key}: {{/{ref}}} in code formatting"


def test_pictures_and_buttons_never_refer_to_commands() -> None:
    """Text drawn on an image, a button or a menu cannot hold a mention."""
    for key, entry in entries("en").items():
        if ".render." in key or ".button" in key or "button." in key or key.endswith(".label"):
            assert not any(command_refs(form) for form in entry.forms), key


@pytest.mark.parametrize(
    ("locale", "words"),
    [("en", "/table create"), ("zh-TW", "/牌桌 建立"), ("pt-BR", "/mesa criar")],
)
def test_without_the_ids_a_command_reads_as_its_name_in_the_sentences_language(locale: str, words: str) -> None:
    assert words in t("error.no-game-here", locale)
    assert "`每桌人數`" in t("tournament.duels-only", "zh-TW")
    assert "`jogadores_por_mesa`" in t("tournament.duels-only", "pt-BR")


def test_a_command_description_names_another_command_as_text_never_a_mention() -> None:
    mentions = CommandMentions()
    mentions.ids = {"meeple": 42}
    use_command_mentions(mentions.mention)
    try:
        key = "command.meeple.record.description"
        assert "</meeple profile:42>" in t(key, "en")
        assert plain_commands(entries("zh-TW")[key].text, "zh-TW").count("/meeple 個人檔案") == 1
    finally:
        use_command_mentions(None)


def test_a_mention_uses_the_top_level_commands_id_and_the_english_path() -> None:
    """Discord: ``</NAME SUBCOMMAND:ID>`` with the top-level command's id; the client localizes it."""
    mentions = CommandMentions()
    assert mentions.mention("table create") is None
    mentions.ids = {"table": 11, "tournament": 12}
    assert mentions.mention("table create") == "</table create:11>"
    assert mentions.mention("tournament") == "</tournament:12>"
    assert mentions.mention("meeple vacation") is None  # not synced: the text stays


# -- mentions on Discord ------------------------------------------------------------------------
async def test_a_refusal_mentions_the_command_it_points_to_with_its_synced_id(emu, world, config_for) -> None:
    mei = emu.add_user("mei", global_name="Mei", locale="zh-TW")
    emu.add_member(world.guild, mei)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        table_id = next(c.id for c in emu.commands(world.guild) if c.name == "table")
        for user, words in ((world.alice, "Start one with"), (mei, "開一桌吧")):
            answer = await (await emu.slash(user, world.channel, "table join")).final_message()
            assert answer.ephemeral and words in answer.content
            # The English base name: each reader's Discord shows it in their language.
            assert f"</table create:{table_id}>" in answer.content, answer.content
    # Restarted with the same commands, the bot syncs nothing but fetches the ids.
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        answer = await (await emu.slash(world.alice, world.channel, "table join")).final_message()
        assert f"</table create:{table_id}>" in answer.content
    assert len([r for r in emu.requests if r.method == "PUT" and r.path.endswith("/commands")]) == 1


async def test_a_process_that_does_not_sync_fetches_the_ids(emu, world, config_for, monkeypatch) -> None:
    """Sharded, only the process of shard 0 syncs; the others learn the ids by fetching them."""
    import bot.client

    config = config_for(emu, world.guild.id)
    async with running(emu, MeepleBot(config)):
        pass  # the commands are registered once

    async def never(*args: object, **kwargs: object) -> bool:
        raise AssertionError("a process that does not own shard 0 never syncs")

    monkeypatch.setattr(bot.client, "sync_if_changed", never)
    monkeypatch.setattr(type(config.shards), "owns_guild", lambda self, guild: guild is not None)
    async with running(emu, MeepleBot(config)) as bot_:
        table_id = next(c.id for c in emu.commands(world.guild) if c.name == "table")
        assert bot_.command_mentions.ids["table"] == table_id
        answer = await (await emu.slash(world.alice, world.channel, "table join")).final_message()
        assert f"</table create:{table_id}>" in answer.content


# -- game options typed in any language ---------------------------------------------------------
@pytest.mark.parametrize(
    "typed",
    [
        "level=2",
        "等級=2",
        "nível=2",
        "NIVEL=2",
        "等級＝２",
        "Level=2 memory=on",
        "等級=2，記憶=開",
        "nível=2 memória=ligada",
    ],
)
def test_game_options_are_read_in_any_of_the_bots_languages(typed: str) -> None:
    chosen = parse(FOX, typed)
    assert chosen["level"] == 2
    assert chosen.get("memory", "on") == "on"


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en", ["`level`", "`memory`"]),
        ("zh-TW", ["`等級`（或 `level`）", "`記憶`（或 `memory`）"]),
        ("pt-BR", ["`nível` (ou `level`)", "`memória` (ou `memory`)"]),
    ],
)
def test_an_unknown_option_is_refused_listing_the_names_in_the_readers_language(locale: str, words: list[str]) -> None:
    service = GameService(db=None)  # type: ignore[arg-type]  # parse_options needs no database
    with pytest.raises(Refusal) as refused:
        service.parse_options("fox-duet", "速度=2", locale)
    text = t(refused.value.key, locale, **refused.value.values)
    for word in words:
        assert word in text, text
    assert "速度=2" in text
    example = {"en": "level=2", "zh-TW": "等級=2", "pt-BR": "nível=2"}[locale]
    assert example in text


def test_a_value_the_option_does_not_take_is_refused_with_the_readers_words() -> None:
    with pytest.raises(OptionsRefused) as refused:
        parse(FOX, "記憶=也許", "zh-TW")
    text = t(refused.value.key, "zh-TW", **refused.value.values)
    assert "記憶" in text and "關或開" in text, text
    with pytest.raises(OptionsRefused) as bare:
        parse(FOX, "nível", "pt-BR")  # a name without its value: what it takes
    assert t(bare.value.key, "pt-BR", **bare.value.values) == "A opção nível aceita um destes: 1, 2 ou 3."


def test_a_name_two_options_answer_to_is_refused_as_ambiguous(tmp_path: Path) -> None:
    """A game whose option ``speed`` is written ``level`` in Portuguese, the other option's English."""

    class Clashing:
        id = "fox-duet"

        def options(self) -> dict[str, dict]:
            return {**FOX.options(), "speed": {"choices": [1, 2], "default": 1}}

    for path in (ROOT / "data" / "i18n").glob("*.po"):
        shutil.copy(path, tmp_path / path.name)
    catalog = i18n_tools.read(tmp_path / "pt_BR.po")
    catalog.add("fox-duet.option.speed.name", "level")
    i18n_tools.write(catalog, tmp_path / "pt_BR.po")
    use_catalogues(tmp_path)
    try:
        with pytest.raises(OptionsRefused) as refused:
            parse(Clashing(), "level=2", "pt-BR")  # type: ignore[arg-type]
        assert refused.value.key == "error.option-ambiguous"
        text = t(refused.value.key, "pt-BR", game="X", **refused.value.values)
        assert "`nível` (ou `level`)" in text and "`level` (ou `speed`)" in text, text
        # Each name that is only one option's still reads: the ids, and the Portuguese for level.
        assert parse(Clashing(), "speed=2 nível=3") == {"speed": 2, "level": 3}  # type: ignore[arg-type]
    finally:
        use_catalogues(None)


@pytest.mark.parametrize("typed", ["等級=2", "nível=2", "level=2", "nív"])
def test_the_options_autocomplete_follows_what_is_typed_in_any_language(typed: str) -> None:
    choices = option_choices("fox-duet", typed, "zh-TW")
    assert choices
    if "=" in typed:
        assert all("level=2" in c.value for c in choices), [c.value for c in choices]


def test_every_game_option_has_a_typed_name_and_every_word_choice_a_typed_word_in_every_catalogue() -> None:
    for game in GAMES.values():
        for name, spec in game.options().items():
            for locale in LOCALES:
                assert f"{game.id}.option.{name}.name" in entries(locale), (locale, game.id, name)
                for choice in spec["choices"]:
                    if not isinstance(choice, int):
                        assert f"{game.id}.option.{name}.{choice}.value" in entries(locale), (locale, name, choice)


async def test_a_table_is_created_with_options_typed_in_chinese_and_portuguese(emu, world, config_for) -> None:
    mei = emu.add_user("mei", global_name="Mei", locale="zh-TW")
    joao = emu.add_user("joao", global_name="João", locale="pt-BR")
    for user in (mei, joao):
        emu.add_member(world.guild, user)
    thread = emu.add_text_channel(world.guild, "games-2")
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot_:
        for user, channel, typed, level in ((mei, world.channel, "等級=3 記憶=開", 3), (joao, thread, "nível=2", 2)):
            created = await emu.slash(user, channel, "table create", {"game": "fox-duet", "options": typed})
            assert (await created.final_message()).ephemeral
            row = await bot_.db.active_game_in_channel(channel.id)
            assert row is not None and row.options["level"] == level, typed
        assert (await bot_.db.active_game_in_channel(world.channel.id)).options["memory"] == "on"
        options = {"game": "fox-duet", "options": "速度=2"}
        answer = await (await emu.slash(mei, world.channel, "table create", options)).final_message()
        assert answer.ephemeral and "`等級`（或 `level`）" in answer.content, answer.content


def test_references_are_the_tree_s_names_for_descriptions_too(tmp_path: Path) -> None:
    """The translator fills a description's reference with the command's name in that language."""
    text = plain_commands(entries("pt-BR")["command.tournament.result.option.table.description"].text, "pt-BR")
    assert "/torneio emparelhamentos" in text


async def test_a_refused_option_is_named_with_its_choices_as_the_readers_discord_lists_them(
    emu, world, config_for
) -> None:
    """A payload forged past the client: the refusal names ``time_limit`` and its choices in zh-TW."""
    mei = emu.add_user("mei", global_name="Mei", locale="zh-TW")
    emu.add_member(world.guild, mei)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        forged = {"game": "fox-duet", "time_limit": 5}
        answer = await (await emu.slash(mei, world.channel, "table create", forged, validate=False)).final_message()
        assert answer.ephemeral and "選項 時限 只能是以下其中之一：不限時、" in answer.content, answer.content
