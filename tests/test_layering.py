"""Imports go one way: engine, l10n <- ai, render, league <- services <- bot; engine is standard
library only, league is pure, and only bot imports discord."""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import networkx
import pytest

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


# -- floors: bot -> services -> league, engine, ai, render, l10n --------------------------------
# Each floor may import the floors below it and never one above. ``league`` is pure (no awaits,
# no discord, no SQL), ``services`` is async without discord, and only ``bot`` imports discord.
FLOORS = {"l10n": 0, "engine": 0, "ai": 1, "render": 1, "league": 1, "services": 2, "bot": 3}
ONLY_IN = {"discord": {"bot"}}  # a library only one floor may import
LEAGUE_FORBIDDEN = {"asyncio", "aiosqlite", "sqlite3", "asyncpg", "aiohttp", "socket", "subprocess", "threading"}


def project_imports(root: Path, folder: str) -> dict[str, list[tuple[int, str]]]:
    """Every import of a package's modules, at any depth (also inside functions and under
    TYPE_CHECKING: an upward import is one wherever it hides), as (line, top-level name)."""
    found: dict[str, list[tuple[int, str]]] = {}
    for path in sorted((root / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: list[tuple[int, str]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names += [(node.lineno, a.name.split(".")[0]) for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.append((node.lineno, node.module.split(".")[0]))
        found[str(path.relative_to(root))] = names
    return found


def floor_violations(root: Path) -> list[str]:
    """Imports that run up a floor, libraries imported outside their floor, and impure league."""
    wrong: list[str] = []
    for folder, level in FLOORS.items():
        if not (root / folder).is_dir():
            continue
        for path, names in project_imports(root, folder).items():
            for line, name in names:
                if FLOORS.get(name, -1) > level:
                    wrong.append(f"{path}:{line} imports {name} (a floor up)")
                if name in ONLY_IN and folder not in ONLY_IN[name]:
                    wrong.append(f"{path}:{line} imports {name} (only {sorted(ONLY_IN[name])} may)")
                if folder == "league" and name in LEAGUE_FORBIDDEN:
                    wrong.append(f"{path}:{line} imports {name} (league/ is pure)")
    for path in sorted((root / "league").rglob("*.py")) if (root / "league").is_dir() else []:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.AsyncFunctionDef, ast.Await)):
                wrong.append(f"{path.relative_to(root)}:{node.lineno} awaits (league/ is pure)")
    return wrong


def test_each_floor_imports_only_the_floors_below_it() -> None:
    assert floor_violations(ROOT) == []


@pytest.mark.parametrize(
    ("where", "planted"),
    [
        ("league/planted.py", "from services.game_service import GameService\n"),
        ("league/planted.py", "def later() -> None:\n    import bot.client\n"),
        ("league/planted.py", "async def wait() -> None:\n    pass\n"),
        ("services/planted.py", "import discord\n"),
        ("services/planted.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.flow import Flow\n"),
        ("engine/planted.py", "from league import swiss\n"),
    ],
)
def test_a_planted_upward_import_is_caught(tmp_path: Path, where: str, planted: str) -> None:
    """The check above fails on the mistakes it is there for: planted in a copy of the floors'
    own packages (their pure part: league and engine whole, the others' package files)."""
    for folder in FLOORS:
        (tmp_path / folder).mkdir()
        shutil.copy(ROOT / folder / "__init__.py", tmp_path / folder / "__init__.py")
    for folder in ("league", "engine"):
        shutil.copytree(
            ROOT / folder, tmp_path / folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__")
        )
    assert floor_violations(tmp_path) == []
    (tmp_path / where).write_text(planted, encoding="utf-8")
    wrong = floor_violations(tmp_path)
    assert wrong and all(w.startswith(where) for w in wrong), wrong


def module_graph(folder: str) -> networkx.DiGraph:
    """Imports between one package's own modules, at run time (TYPE_CHECKING ones excepted: they
    never run), wherever they are written (a function-level import still closes a circle)."""
    graph: networkx.DiGraph = networkx.DiGraph()
    modules = {}
    for path in (ROOT / folder).rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    for module, path in modules.items():
        graph.add_node(module)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hidden = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if id(node) in hidden:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                base = node.module
                if node.level:
                    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        package = package.rpartition(".")[0]
                    base = f"{package}.{node.module}"
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets = subs if len(subs) == len(node.names) else [base, *subs]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != module and not module.startswith(target + "."):
                    graph.add_edge(module, target)
    return graph


@pytest.mark.parametrize("folder", ["bot", "services", "league"])
def test_no_import_circle_inside_a_package(folder: str) -> None:
    circles = [sorted(c) for c in networkx.strongly_connected_components(module_graph(folder)) if len(c) > 1]
    assert circles == []


GAME_PACKAGES = sorted(p.name for p in (ROOT / "engine").iterdir() if (p / "__init__.py").is_file())
# Every package of the project outside engine/ and tests/: none of them may reach into a game.
PLATFORM_PACKAGES = ("bot", "services", "league", "render", "ai", "l10n", "bench", "scripts", "sandbox", "emulator")


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
