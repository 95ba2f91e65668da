"""Every picture is drawn through the one picture service (``services.pictures``), off the event loop.

The service runs ``render``'s image functions, and the drawings handed to it, in its drawing
workers; nothing else in the bot calls them. A leaderboard drawn slowly does not stop the bot.
"""

from __future__ import annotations

import ast
import asyncio
import io
import os
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path

from PIL import Image

import render.rating_pictures
from bot.client import MeepleBot
from emulator.testing import running
from league.rating_maths import Rating
from services.pictures import Pictures, drawing, importable
from services.player_profiles import ranked
from tests.bot.test_discord_ratings import play_and_resign
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import Table

ROOT = Path(__file__).resolve().parents[2]
SERVICE = "services.pictures"  # the one module that calls render's image functions itself
SCANNED = ("bot", "services", "league")  # the packages above render/ that exist
HANDED = {"draw", "drawing"}  # a function given as the first argument of these is drawn by the service


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def image_functions() -> set[str]:
    """render's functions that make a picture: they return its bytes or an image, or draw onto one
    (``*_png``, ``render_*``, ``draw_*``)."""
    found: set[str] = set()
    for path in (ROOT / "render").rglob("*.py"):
        module = module_name(path)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            returns = ast.unparse(node.returns) if node.returns is not None else ""
            named = re.fullmatch(r"_?(draw_\w+|render_\w+|\w+_png)", node.name)
            if named or re.search(r"\bbytes\b|\bImage\b", returns):
                found.add(f"{module}.{node.name}")
    return found


class Module:
    """A module's source, with what each of its names stands for (imports and its own functions)."""

    def __init__(self, name: str, source: str) -> None:
        self.name = name
        self.tree = ast.parse(source)
        self.names: dict[str, str] = {}
        package = name.rsplit(".", 1)[0]
        for node in ast.walk(self.tree):  # function-level imports too
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.names[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.names[top] = top
            elif isinstance(node, ast.ImportFrom) and node.module is not None:
                base = node.module if node.level == 0 else f"{package}.{node.module}"
                for alias in node.names:
                    self.names[alias.asname or alias.name] = f"{base}.{alias.name}"
        for node in self.tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.names.setdefault(node.name, f"{name}.{node.name}")

    def resolve(self, node: ast.AST) -> str | None:
        """The dotted name an expression stands for (``cards.leaderboard_png``:
        render.rating_pictures.leaderboard_png)."""
        if isinstance(node, ast.Name):
            return self.names.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def handed(self) -> Iterator[ast.AST]:
        """The first argument of every ``draw(...)`` and ``drawing(...)`` call."""
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                if called in HANDED:
                    yield node.args[0]


def violations(modules: dict[str, str], images: set[str]) -> list[str]:
    """Every use of an image function outside the service and the drawings it runs: a call, or a
    function handed to anything else (a thread, an executor). A drawing is a function of these
    modules handed to ``draw``/``drawing`` or named by the service; its body runs in a worker."""
    parsed = {name: Module(name, source) for name, source in modules.items()}
    drawings: set[str] = set()
    for module in parsed.values():
        targets = [module.resolve(node) for node in module.handed()]
        if module.name == SERVICE:  # what its worker-side ``draw`` calls (a finished game's replay)
            dispatch = [node for node in module.tree.body if getattr(node, "name", "") == "draw"]
            calls = [node for top in dispatch for node in ast.walk(top) if isinstance(node, ast.Call)]
            targets += [module.resolve(call.func) for call in calls]
        for target in targets:
            if target is not None and target.split(".")[0] in SCANNED and target not in images:
                drawings.add(target)
    watched = images | drawings
    found: list[str] = []
    for module in parsed.values():
        if module.name == SERVICE:
            continue
        allowed = {id(node) for node in module.handed()}
        for top in module.tree.body:
            if f"{module.name}.{getattr(top, 'name', '')}" in drawings:
                continue  # a drawing: it runs in a worker
            for node in ast.walk(top):
                if not isinstance(node, ast.Name | ast.Attribute) or id(node) in allowed:
                    continue
                target = module.resolve(node)
                if target in watched:
                    found.append(f"{module.name}:{node.lineno}: {ast.unparse(node)} ({target})")
    return found


def project_modules() -> dict[str, str]:
    return {
        module_name(path): path.read_text(encoding="utf-8")
        for package in SCANNED
        if (ROOT / package).is_dir()
        for path in (ROOT / package).rglob("*.py")
    }


def test_only_the_picture_service_draws() -> None:
    images = image_functions()
    assert {
        "render.render_board",
        "render.rating_pictures.leaderboard_png",
        "render.tournament_pictures.podium_png",
    } <= images
    assert {"render.howto.render_page", "render.replay.replay_animation", "render.shrink_png"} <= images
    found = violations(project_modules(), images)
    assert not found, "pictures drawn outside the picture service:\n" + "\n".join(found)


def test_the_scan_finds_a_picture_drawn_on_the_event_loop_or_in_a_thread_of_its_own() -> None:
    images = image_functions()
    planted = {
        "bot.planted": (
            "import asyncio\n"
            "import render\n"
            "import render.rating_pictures as cards\n"
            "from render.tournament_pictures import podium_png\n"
            "from bot.worded import page_png\n"
            "async def profile(pictures, rows):\n"
            "    board = cards.leaderboard_png('t', 's', rows)\n"  # on the event loop
            "    podium = await asyncio.to_thread(podium_png, 't', 's', [])\n"  # a thread of its own
            "    fine = await pictures.draw(render.render_board, 'fox-duet', {}, [], 'en')\n"
            "    page = page_png('fox-duet', 0, 'en')\n"  # a drawing, called on the event loop
            "    return await pictures.draw(page_png, 'fox-duet', 0, 'en')\n"
        ),
        "bot.worded": (
            "from render.howto import render_page\n"
            "def page_png(game, index, loc):\n"
            "    return render_page(game, index, 'title', [], [], locale=loc)\n"  # in a worker: fine
        ),
    }
    found = violations(planted, images)
    assert {line.split(" (")[0] for line in found} == {
        "bot.planted:7: cards.leaderboard_png",
        "bot.planted:8: podium_png",
        "bot.planted:10: page_png",
    }, found


def test_a_drawing_is_a_top_level_function_a_worker_can_import() -> None:
    def closure() -> bytes:
        return b""

    assert importable(render.rating_pictures.leaderboard_png) and importable(render.render_board)
    assert not importable(closure)
    made = drawing(render.shrink_png, b"", budget_bytes=1)
    assert made.fn is render.shrink_png and made.args == (b"",) and made.kwargs == {"budget_bytes": 1}


def rows() -> list[render.rating_pictures.BoardRow]:
    ratings = [Rating(1, 30.0, 2.0, 12), Rating(2, 25.0, 8.0, 3)]
    return [
        render.rating_pictures.BoardRow(rank, f"P{r.user_id}", str(r.shown), "", r.provisional)
        for rank, r in ranked(ratings)
    ]


def pid_png() -> bytes:
    """A "picture" that says which process drew it."""
    return str(os.getpid()).encode()


async def test_a_leaderboard_is_drawn_in_a_worker_process_with_the_same_bytes() -> None:
    pictures = Pictures(workers=1)
    try:
        png = await pictures.draw(render.rating_pictures.leaderboard_png, "Vivarium", "page 1 of 1", rows())
        assert png == render.rating_pictures.leaderboard_png("Vivarium", "page 1 of 1", rows())
        where = int(await pictures.draw(pid_png))
        assert where != os.getpid() and where in pictures.pids(), "drawn in a drawing worker, not in the bot"
        assert pictures.drawn["leaderboard"] == 1 and pictures.drawn["pid"] == 1
    finally:
        pictures.close()


async def test_drawings_share_the_workers_bound_and_go_after_hands_before_boards() -> None:
    pictures = Pictures(workers=1)
    release = threading.Event()
    order: list[str] = []

    def held() -> bytes:  # a closure: drawn in a thread here, under the same bound
        release.wait(timeout=60)
        order.append("held")
        return b"held"

    def asked() -> bytes:
        order.append("asked")
        return b"asked"

    try:
        first = asyncio.create_task(pictures.draw(held))
        await asyncio.sleep(0)
        second = asyncio.create_task(pictures.draw(asked))
        await asyncio.sleep(0)
        assert pictures.waiting == 1, "one drawing at a time with one worker: the other waits"
        release.set()
        assert await asyncio.gather(first, second) == [b"held", b"asked"]
        assert order == ["held", "asked"]
    finally:
        pictures.close()


async def test_the_event_loop_keeps_running_while_a_leaderboard_is_drawn(emu, world, config_for, monkeypatch) -> None:
    """A drawing that waits for the event loop to move: drawn on the loop, it would wait in vain."""
    real = render.rating_pictures.leaderboard_png
    started, ticked = threading.Event(), threading.Event()
    on_the_loop: list[bool] = []

    def leaderboard_png(*args: object) -> bytes:  # slow: it waits for the event loop to move
        try:
            on_the_loop.append(asyncio.get_running_loop() is not None)
        except RuntimeError:
            on_the_loop.append(False)
        started.set()
        if not ticked.wait(timeout=30):  # never reached when the loop runs on
            raise AssertionError("the event loop stood still while the leaderboard was drawn")
        return real(*args)  # type: ignore[arg-type]

    async def heartbeat() -> None:
        while not started.is_set():
            await asyncio.sleep(0.01)
        ticked.set()  # the loop ran while the drawing was under way

    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await play_and_resign(emu, world, bot, "vivarium", [world.alice, world.bob], world.bob)
        monkeypatch.setattr(render.rating_pictures, "leaderboard_png", leaderboard_png)
        beating = asyncio.create_task(heartbeat())
        asked = await emu.slash(world.alice, world.channel, "meeple leaderboard", {"game": "vivarium"})
        board = await asked.final_message()
        await beating
        assert on_the_loop == [False], "drawn on the event loop"
        assert bot.flow.pictures.drawn["leaderboard"] == 1, "drawn through the picture service"
        (picture,) = board.attachments
        assert picture.filename == "leaderboard.png" and Image.open(io.BytesIO(picture.content)).width == 900
        assert picture.description and "Vivarium" in picture.description


async def test_a_board_discord_finds_too_big_is_shrunk_by_the_picture_service(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))
        await emu.wait_until(lambda: bool(table.boards()), timeout=30, what="the first board")
        png = table.board().attachments[0].content
        row = await bot.db.active_game_in_channel(world.channel.id)
        emu.upload_limit = len(png) // 2  # refused as too big: shrunk to a quarter, then sent
        payload = {"content": "The board again", "png": png, "view": None, "alt": "The board"}
        sent = await bot.flow.poster.send_to_channel(row, payload)
        (picture,) = emu.state.messages[sent.id].attachments
        assert len(picture.content) <= emu.upload_limit
        assert Image.open(io.BytesIO(picture.content)).format == "PNG"
        assert bot.flow.pictures.drawn["shrink"] == 1, "shrunk by the picture service"
