"""Every slash command stays within Discord's 4,000 characters in every shipped language.

Discord refuses a command whose name, description, options and choices add up to more than
4,000 characters, and with it the whole bulk sync: no command would update. `/tournament` is the
largest (about 3,500 at its longest); `bench/command_budget.py` prints every margin, and
emulator/README.md keeps the last figures.
"""

from __future__ import annotations

from bench.command_budget import LONGEST, languages, sizes, synced_payload
from emulator.commands import MAX_COMMAND_SIZE, command_size


async def test_every_command_fits_in_every_language() -> None:
    table = sizes(await synced_payload())
    assert set(table) == {"/table", "/meeple", "/tournament"}
    assert languages()[0] == "en-US" and {"pt-BR", "zh-TW"} <= set(languages())
    over = {
        f"{name} {lang}": size for name, row in table.items() for lang, size in row.items() if size > MAX_COMMAND_SIZE
    }
    assert not over, f"Discord would refuse the command sync: {over} characters (limit {MAX_COMMAND_SIZE})"
    for row in table.values():  # the emulator's bound is never below what any language gets
        assert row[LONGEST] >= max(row[lang] for lang in languages())


def test_the_size_counts_what_discord_counts() -> None:
    choice = {"name": "Fox Duet", "value": "fox-duet", "name_localizations": {"zh-TW": "狐狸對決"}}
    option = {"name": "game", "description": "Which game", "type": 3, "choices": [choice]}
    group = {
        "name": "table",
        "description": "Tables",
        "name_localizations": {"pt-BR": "mesa"},
        "options": [{"name": "create", "description": "Open one", "type": 1, "options": [option]}],
    }
    english = 5 + 6 + 6 + 8 + 4 + 10 + 8 + 8
    assert command_size(group) == english
    assert command_size(group, "pt-BR") == english - 1  # "mesa"
    assert command_size(group, "zh-TW") == english - 4  # 狐狸對決 for "Fox Duet"
    assert command_size(group, longest=True) == english
