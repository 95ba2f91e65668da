"""Every SQL statement lives in the storage package; the tournament runner and service know no Discord.

Parsed with ``ast``, as tests/test_layering.py does. Modules are named by their dotted names, so
that a move of a package (``services.storage`` to another) keeps this test pointing at the same code.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STORAGE = "services.storage"
# tests/ and bench/ build and inspect databases directly: they are the tools that check storage.
NOT_SHIPPED = {"tests", "bench"}
# A statement, as the project writes SQL: keywords in capitals, the statement's own shape
# (an English sentence starting "Select" or "Update" is no statement).
STATEMENT = re.compile(
    r"\s*(SELECT\s.*\bFROM\s|SELECT\s+[\d(]|INSERT\s+(OR\s+[A-Z]+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s"
    r"|CREATE\s+(TEMP\s+|UNIQUE\s+)?(TABLE|INDEX|VIEW|TRIGGER)\s|WITH\s+(RECURSIVE\s+)?\w+(\s*\([^)]*\))?\s+AS\s*\("
    r"|DROP\s+(TABLE|INDEX|VIEW|TRIGGER)\s|ALTER\s+TABLE\s|REPLACE\s+INTO\s|PRAGMA\s+\w)",
    re.DOTALL,
)
# Modules still holding SQL and how many statements, each with the reason it waits: none.
WAITING: dict[str, int] = {}
# The tournament code that runs without Discord (the runner, the service, their interface, and
# the pure values and rules they read).
DISCORD_FREE = (
    "services.tournament_runner",
    "services.tournament_service",
    "services.tournament_posting_port",
    "league.tournament_records",
)
PURE = ("league.tournament_records", "league.rating_maths", "league.weekly_challenge")
DISCORD_LAYER = ("discord", "bot.flow", "services.delivery", "services.scheduler", "bot.client", "bot.cogs", "bot.ui")


def module_path(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, name
    return Path(spec.origin)


def storage_folder() -> Path:
    return module_path(STORAGE).parent


def text_of(node: ast.AST) -> str | None:
    """A string constant's text, or an f-string's with each placeholder as ``x``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "x" for v in node.values)
    return None


def sql_statements(source: str) -> list[str]:
    """The SQL statements written as string constants (or f-strings) in a module's source."""
    return [" ".join(text.split())[:80] for text in strings(source) if STATEMENT.match(text)]


def strings(source: str) -> list[str]:
    """The texts of a module's string constants and f-strings, docstrings left out."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skipped |= {id(v) for v in node.values}  # read as part of their f-string
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
    found = []
    for node in ast.walk(tree):
        text = text_of(node)
        if text is not None and id(node) not in skipped:
            found.append(text)
    return found


def shipped_modules() -> list[Path]:
    packages = [p.parent for p in ROOT.glob("*/__init__.py") if p.parent.name not in NOT_SHIPPED]
    return sorted(path for package in packages for path in package.rglob("*.py"))


def imported(path: Path) -> set[str]:
    """Every module a file imports, at the top, in a function or for type checking alike."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def test_the_statement_finder_finds_statements_and_passes_prose_by() -> None:
    source = '''
"""Select a tournament from the list; update the board."""
QUERY = "SELECT id FROM games WHERE status = ?"
async def f(conn, sets, now):
    await conn.execute(f"UPDATE tournaments SET {sets} WHERE id = ?", (1,))
    await conn.execute(f"INSERT OR IGNORE INTO seeds (a) VALUES (?)")
    await conn.execute("DELETE FROM ratings")
    label = "Create, join and play tables"
    return "SELECT 1"
'''
    assert sorted(sql_statements(source)) == [
        "DELETE FROM ratings",
        "INSERT OR IGNORE INTO seeds (a) VALUES (?)",
        "SELECT 1",
        "SELECT id FROM games WHERE status = ?",
        "UPDATE tournaments SET x WHERE id = ?",
    ]


def test_no_sql_statement_lives_outside_the_storage_package() -> None:
    storage = storage_folder()
    assert storage.is_dir() and any(sql_statements(p.read_text(encoding="utf-8")) for p in storage.rglob("*.py"))
    outside: dict[str, list[str]] = {}
    for path in shipped_modules():
        if path.is_relative_to(storage):
            continue
        found = sql_statements(path.read_text(encoding="utf-8"))
        name = str(path.relative_to(ROOT))
        if len(found) > WAITING.get(name, 0):
            outside[name] = found
    assert not outside, f"SQL outside {STORAGE}: {outside}"


def test_the_sqlite_clock_is_written_once() -> None:
    """One clock for every timestamp the code writes: the storage dialect's (with PostgreSQL's)."""
    clock = re.compile(r"strftime\(\s*'%Y-%m-%dT%H:%M:%fZ'\s*,\s*'now'\s*\)")
    written = {
        str(path.relative_to(ROOT)): sum(len(clock.findall(s)) for s in strings(path.read_text(encoding="utf-8")))
        for path in shipped_modules()
    }
    assert {path: n for path, n in written.items() if n} == {
        str(module_path(f"{STORAGE}.dialect").relative_to(ROOT)): 1
    }


def test_the_tournament_runner_and_service_import_nothing_of_discord() -> None:
    for name in DISCORD_FREE:
        bad = {m for m in imported(module_path(name)) if m.split(".")[0] == "discord" or m.startswith(DISCORD_LAYER)}
        assert not bad, f"{name} imports {sorted(bad)}"
    # Nor through what they import: a fresh interpreter loads them without loading discord.py.
    probe = (
        "import importlib, sys\n"
        f"for name in {DISCORD_FREE!r}: importlib.import_module(name)\n"
        f"print(sorted(n for n in sys.modules if n == 'discord' or n.startswith({DISCORD_LAYER!r})))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert loaded.stdout.strip() == "[]", loaded.stdout


def test_the_rating_maths_the_challenge_rules_and_the_tournament_records_are_pure() -> None:
    """No storage, no awaits, no Discord: they can be read and tested as plain functions."""
    for name in PURE:
        path = module_path(name)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        impure = ("discord", "aiosqlite", "asyncpg", "sqlite3", "asyncio")
        bad = {m for m in imported(path) if m.split(".")[0] in impure}
        bad |= {m for m in imported(path) if m.startswith((STORAGE, "services.game_service", "bot.flow"))}
        assert not bad, f"{name} imports {sorted(bad)}"
        awaits = [n for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef | ast.Await)]
        assert not awaits, f"{name} awaits (line {awaits[0].lineno})"
        assert not sql_statements(path.read_text(encoding="utf-8")), name
