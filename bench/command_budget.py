"""Each slash command's size as Discord counts it, against its limit of 4,000 characters.

Discord refuses a command (and with it the whole bulk sync) when its name, description, options
and choices (names, descriptions, values) add up to more than 4,000 characters. The bot's
commands are translated, so the size differs by language: this builds the payload the bot syncs
(offline, with its translator) and prints, per command, the size a user of each shipped language
gets, and the size with each string at its longest localization, which is what the emulator
enforces. `tests/bot/test_command_budget.py` fails above 4,000.

    .venv/bin/python bench/command_budget.py [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from emulator.commands import MAX_COMMAND_SIZE, command_size  # noqa: E402
from l10n import DEFAULT_LOCALE, available_locales  # noqa: E402

LONGEST = "longest"  # each string at its longest localization: the emulator's bound


def languages() -> list[str]:
    """The shipped languages as Discord locales: the default (English) first, then the catalogues."""
    return ["en-US", *sorted(name for name in available_locales() if name != DEFAULT_LOCALE)]


async def synced_payload() -> list[dict[str, Any]]:
    """The command payload the bot syncs, translated by its catalogues (no Discord, no database)."""
    from bot.client import MeepleBot
    from bot.command_l10n import CatalogueTranslator
    from services.config import Config

    with tempfile.TemporaryDirectory() as folder:
        config = Config(token=None, database=Path(folder) / "t.db", dev_guild=None, api_base=None, log_level="INFO")
        bot = MeepleBot(config)
        for extension in ("bot.cogs.table", "bot.cogs.meeple", "bot.cogs.tournament"):  # as setup_hook
            await bot.load_extension(extension)
        translator = CatalogueTranslator()
        await bot.tree.set_translator(translator)
        payload = [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
        await bot.close()
        return payload


def sizes(payload: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per command: its size in each shipped language, and at each string's longest localization."""
    table: dict[str, dict[str, int]] = {}
    for item in payload:
        row = {lang: command_size(item, None if lang == "en-US" else lang) for lang in languages()}
        row[LONGEST] = command_size(item, longest=True)
        table[f"/{item['name']}"] = row
    return table


def render(table: dict[str, dict[str, int]]) -> str:
    columns = [*languages(), LONGEST]
    lines = [
        f"limit {MAX_COMMAND_SIZE} characters per command; each cell: size (margin)",
        "| command | " + " | ".join(columns) + " |",
        "| --- |" + " ---: |" * len(columns),
    ]
    for name, row in sorted(table.items(), key=lambda kv: -kv[1][LONGEST]):
        cells = [f"{row[c]:,} ({MAX_COMMAND_SIZE - row[c]:,})" for c in columns]
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the sizes as JSON here")
    args = parser.parse_args()
    table = sizes(asyncio.run(synced_payload()))
    print(render(table))
    if args.json:
        args.json.write_text(json.dumps({"limit": MAX_COMMAND_SIZE, "commands": table}, indent=2))


if __name__ == "__main__":
    main()
