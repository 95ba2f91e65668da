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


GAME_PACKAGES = sorted(p.name for p in (ROOT / "engine").iterdir() if (p / "__init__.py").is_file())
# Every package of the project outside engine/ and tests/: none of them may reach into a game.
PLATFORM_PACKAGES = ("bot", "render", "ai", "l10n", "bench", "scripts", "sandbox", "emulator")


def engine_imports(path: Path) -> set[str]:
    """Every module of ``engine`` a file imports, at any depth (also inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "engine"}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "engine":
                found.add(node.module)
                # ``from engine.tm_dice import content`` names a module of the game as well.
                found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def game_internals(modules: set[str], game: str) -> set[str]:
    """The modules of ``engine.<game>`` below its package: ``engine.tm_dice`` itself is its public
    API (its ``__all__``); ``engine.tm_dice.content``, ``engine.tm_dice.dice``... are internals."""
    named = {".".join(m.split(".")[:3]) for m in modules if m.startswith(f"engine.{game}.")}
    return named - {f"engine.{game}.{name}" for name in public_names(game)}


def public_names(game: str) -> set[str]:
    """What ``engine/<game>/__init__.py`` exports (its ``__all__``), read without importing it."""
    tree = ast.parse((ROOT / "engine" / game / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return {ast.literal_eval(e) for e in node.value.elts} if isinstance(node.value, ast.List) else set()
    return set()


def test_no_package_reaches_into_a_games_engine_modules() -> None:
    """The platform reads a game through the contract, its typed views and what its package exports
    (docs/ENGINE.md); only the game's own package, its tests and its computer knowledge module
    (ai/<game>.py) import its modules."""
    assert {"fox_duet", "noctiluca", "tm_dice", "vivarium"} <= set(GAME_PACKAGES)
    bad = []
    for package in PLATFORM_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            modules = engine_imports(path)
            for game in GAME_PACKAGES:
                if path == ROOT / "ai" / f"{game}.py":
                    continue
                bad += [f"{path.relative_to(ROOT)} imports {m}" for m in sorted(game_internals(modules, game))]
    assert not bad, "\n".join(bad)


def test_the_game_internals_check_sees_a_planted_import(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        "from engine.tm_dice.content import CARDS\nimport engine.vivarium.grid\n"
        "def f():\n    from engine.fox_duet import cards\n    from engine.noctiluca import NoctilucaState\n"
        "from engine.tm_dice import CONTENT\n",
        encoding="utf-8",
    )
    modules = engine_imports(planted)
    assert game_internals(modules, "tm_dice") == {"engine.tm_dice.content"}
    assert game_internals(modules, "vivarium") == {"engine.vivarium.grid"}
    assert game_internals(modules, "fox_duet") == {"engine.fox_duet.cards"}
    assert "NoctilucaState" in public_names("noctiluca")
    assert game_internals(modules, "noctiluca") == set()
