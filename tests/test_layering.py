"""Imports go one way: engine <- render <- bot; engine is standard library only."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(folder: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in (ROOT / folder).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"engine", "__future__"}
    forbidden_stdlib = {"asyncio", "sqlite3", "socket", "urllib", "http", "subprocess", "threading"}
    for path, names in imported_modules("engine").items():
        assert names <= allowed, f"{path} imports {sorted(names - allowed)}"
        assert not names & forbidden_stdlib, f"{path} imports {sorted(names & forbidden_stdlib)}"


def test_render_never_imports_the_bot_or_discord() -> None:
    for path, names in imported_modules("render").items():
        bad = names & {"bot", "discord", "aiosqlite", "sqlite3", "emulator"}
        assert not bad, f"{path} imports {sorted(bad)}"


def test_computer_players_import_only_the_engine_and_the_standard_library() -> None:
    """ai/ sees games through the engine contract alone: no bot, no storage, no Discord."""
    allowed = set(sys.stdlib_module_names) | {"engine", "ai", "__future__"}
    for path, names in imported_modules("ai").items():
        assert names <= allowed, f"{path} imports {sorted(names - allowed)}"


def test_the_translation_layer_imports_neither_the_bot_nor_render() -> None:
    """render and bot both read l10n; it reads only the engine's resource accessor and libraries."""
    for path, names in imported_modules("l10n").items():
        bad = names & {"bot", "render", "discord", "aiosqlite", "sqlite3", "emulator", "ai"}
        assert not bad, f"{path} imports {sorted(bad)}"
