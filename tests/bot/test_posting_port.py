"""The services post through ``services.posting_port`` and never see Discord: the delivery worker, the
scheduler, the computers and the follow-up of a move import neither discord nor the ``Flow``,
and the modules of a move's path import no circle."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent.parent

# The platform's side of the cut: these will live in the service package.
SERVICES = (
    "services/posting_port.py",
    "services/delivery.py",
    "services/scheduler.py",
    "services/computer_turns.py",
    "services/follow_up.py",
)
# Whatever the import (top, in a function, or only for the type checker).
FORBIDDEN = ("discord", "aiohttp", "bot.flow", "bot.posting", "bot.ui", "bot.answers", "bot.client", "bot.cogs")
# The modules one move goes through: no circle among them, top-level or in a function.
MOVE_PATH = (
    "bot.answers",
    "services.computer_turns",
    "services.delivery",
    "bot.flow",
    "services.follow_up",
    "bot.history_ui",
    "bot.howto_ui",
    "bot.posting",
    "services.posting_port",
    "services.scheduler",
    "services.game_service",
    "bot.ui",
)


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(source: str, module: str, type_checking: bool = True) -> set[str]:
    """Every module ``source`` names in an import (``from a import b`` names ``a`` and ``a.b``);
    without ``type_checking``, not those under ``if TYPE_CHECKING:``."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if not type_checking and isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    package = module.rsplit(".", child.level)[0]
                    base = f"{package}.{base}" if base else package
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in child.names)
            visit(child)

    visit(ast.parse(source))
    return found


def offending(names: set[str]) -> list[str]:
    return sorted(n for n in names if any(n == f or n.startswith(f + ".") for f in FORBIDDEN))


def circles(modules: dict[str, set[str]]) -> list[list[str]]:
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for module, names in modules.items():
        graph.add_edges_from((module, name) for name in names if name in modules and name != module)
    return [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]


def test_the_services_of_the_cut_import_neither_discord_nor_the_flow() -> None:
    for path in SERVICES:
        names = imports((ROOT / path).read_text(encoding="utf-8"), module_of(ROOT / path))
        assert not offending(names), f"{path} imports {offending(names)}"


def test_no_circle_among_the_modules_of_a_move() -> None:
    modules = {
        name: imports((ROOT / (name.replace(".", "/") + ".py")).read_text(encoding="utf-8"), name, type_checking=False)
        for name in MOVE_PATH
    }
    assert circles(modules) == []


def test_the_checks_catch_a_planted_import() -> None:
    """The two checks above fail on what they forbid, wherever the import hides."""
    planted = "def post():\n    from bot.flow import Flow\n"
    assert offending(imports(planted, "services.delivery")) == ["bot.flow", "bot.flow.Flow"]
    hidden = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import discord\n"
    assert offending(imports(hidden, "services.scheduler")) == ["discord"]
    assert imports(hidden, "services.scheduler", type_checking=False) == {"typing", "typing.TYPE_CHECKING"}
    relative = imports("from . import flow\n", "bot.answers")  # a module beside the Flow
    assert "bot.flow" in relative
    back = {"bot.a": {"bot.b"}, "bot.b": imports("def f():\n    from bot import a\n", "bot.b")}
    assert circles(back) == [["bot.a", "bot.b"]]
