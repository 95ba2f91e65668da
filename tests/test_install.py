"""`pip install .` gives a working bot: the wheel carries every data file, and an install outside the
checkout starts the sandbox, where a game is created and its boards are drawn.

Offline: the wheel is built with the test environment's setuptools (--no-build-isolation), and
the fresh virtualenv borrows the test environment's dependencies through a .pth file, leaving out
the editable install of this checkout so that only the installed copy can be imported.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "ai", "l10n", "render", "league", "services", "bot", "emulator", "sandbox")
# What the build needs; tests, docs and the benchmarks are not part of the distribution.
SKIPPED = ".git .venv var tests docs bench build dist *.egg-info __pycache__ .*_cache .env *.db*"
NOT_SHIPPED = shutil.ignore_patterns(*SKIPPED.split())
ADDRESS = re.compile(r"Open\s+(http://127\.0\.0\.1:\d+/\S*)")
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without this project's settings or any path leading back to the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MEEPLE_", "PYTHON", "VIRTUAL_ENV"))}
    env.update(PYTHONUNBUFFERED="1", PYTHONNOUSERSITE="1", **extra)
    return env


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout's distributable files, so that building leaves nothing in the checkout."""
    copy = tmp_path_factory.mktemp("source") / "meeple-post"
    shutil.copytree(ROOT, copy, ignore=NOT_SHIPPED)
    return copy


@pytest.fixture(scope="module")
def wheel(source: Path, tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheelhouse")
    run([*PIP, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(out), str(source)], cwd=out)
    (built,) = out.glob("meeple_post-*.whl")
    return zipfile.ZipFile(built)


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def test_the_wheel_holds_every_data_file_migration_and_sandbox_file(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    data = files_under(ROOT / "data")
    assert any(p.suffix == ".ttf" for p in data) and any(p.parent.name == "i18n" for p in data)
    for path in data:  # content, fonts (and their licence), translations
        assert f"meeple_data/{path.relative_to(ROOT / 'data').as_posix()}" in names, path
    specs = sorted((ROOT / "emulator/specs").glob("*.json"))  # Discord's OpenAPI description (not its README)
    assert specs, "emulator/specs/openapi.json is missing"
    for path in [*files_under(ROOT / "services/storage/migrations"), *files_under(ROOT / "sandbox/static"), *specs]:
        assert path.relative_to(ROOT).as_posix() in names, path


def test_the_wheel_holds_every_package_of_the_checkout(wheel: zipfile.ZipFile) -> None:
    """pyproject.toml lists the packages by hand: a new package folder must be added there."""
    names = set(wheel.namelist())
    for top in PACKAGES:
        for init in (ROOT / top).rglob("__init__.py"):
            for module in init.parent.glob("*.py"):
                assert module.relative_to(ROOT).as_posix() in names, f"{module} is not in the wheel (pyproject.toml)"


def dependencies_without_this_project(target: Path) -> Path:
    """The test environment's installed packages, minus the editable install of this checkout."""
    target.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        name = entry.name.lower()
        if name.startswith(("__editable__", "meeple_post", "meeple-post")) or name.endswith(".pth"):
            continue
        (target / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    return target


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def installed(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv outside the checkout with `pip install . --no-deps --no-build-isolation` done."""
    home = tmp_path_factory.mktemp("installed")
    venv = home / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=home, env=clean_env())
    python = venv / "bin" / "python"
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], home).strip())
    (site / "dependencies.pth").write_text(f"{dependencies_without_this_project(home / 'dependencies')}\n")
    run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", str(source)],
        cwd=home,
        env=clean_env(),
    )
    return python


def test_the_installed_copy_is_the_one_imported(installed: Path, tmp_path: Path) -> None:
    where = run(
        [str(installed), "-c", "import bot, meeple_data, render, sandbox; print(bot.__file__, meeple_data.__file__)"],
        cwd=tmp_path,
        env=clean_env(),
    )
    site = str(installed.parent.parent)
    for path in where.split():
        assert path.startswith(site) and not path.startswith(str(ROOT)), where


@pytest.fixture
def sandbox(installed: Path, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """`python -m bot` of the installed copy, started without a token in a folder of its own.

    Its port comes from the .env file of that folder: an installed bot reads ./.env.
    """
    workdir = tmp_path / "run"
    workdir.mkdir()
    (workdir / ".env").write_text(f"MEEPLE_SANDBOX_PORT={free_port()}\n")
    log_path = tmp_path / "bot.log"
    env = clean_env(MEEPLE_DB=str(workdir / "meeple.db"))
    with log_path.open("wb") as log:
        process = subprocess.Popen([str(installed), "-m", "bot"], cwd=workdir, env=env, stdout=log, stderr=log)
    try:
        deadline, url = time.monotonic() + 60, None
        while url is None and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
            found = ADDRESS.search(log_path.read_text(errors="replace"))
            url = found.group(1) if found else None
        assert url is not None, "no sandbox address:\n" + log_path.read_text(errors="replace")
        yield url, process, log_path
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)


class Page:
    """The sandbox's HTTP API, as its page in the browser uses it."""

    def __init__(self, http: aiohttp.ClientSession, url: str) -> None:
        self.http = http
        self.url = url

    async def get(self, route: str) -> Any:
        async with self.http.get(self.url + route) as answer:
            assert answer.status == 200, route
            return await answer.json()

    async def post(self, route: str, **body: Any) -> None:
        async with self.http.post(self.url + route, json=body) as answer:
            assert answer.status == 200
            result = await answer.json()
        assert result.get("ok"), (route, body, result)

    async def view(self, user_id: str, channel_id: str) -> dict[str, Any]:
        async with self.http.ws_connect(self.url + "api/live") as ws:
            await ws.send_str(json.dumps({"user_id": user_id, "channel_id": channel_id, "force": True}))
            return json.loads((await ws.receive(timeout=10)).data)

    async def image(self, attachment: dict[str, Any]) -> Image.Image:
        async with self.http.get(self.url + attachment["url"]) as answer:
            assert answer.status == 200
            return Image.open(io.BytesIO(await answer.read()))


def button(message: dict[str, Any], label: str) -> str | None:
    for row in message["components"] or []:
        for item in row.get("components", []):
            if item.get("label") == label:
                return str(item["custom_id"])
    return None


async def until(found: Any, what: str, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = await found()
        if result:
            return result
        await asyncio.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


async def test_an_install_outside_the_checkout_runs_the_sandbox_and_draws_the_boards(sandbox) -> None:
    url, process, log_path = sandbox
    async with aiohttp.ClientSession() as http:
        page = Page(http, url)
        async with http.get(url) as index:
            assert index.status == 200 and "<html" in (await index.text()).lower()
        world = await page.get("api/world")
        people = {p["username"]: p["id"] for p in world["people"]}
        channel = next(c["id"] for c in world["channels"] if c["name"] == "games")
        assert {"table create", "table join"} <= {c["name"] for c in world["commands"]}

        alice, bob = people["alice"], people["bob"]
        game = {"game": "fox-duet"}
        await page.post("api/slash", user_id=alice, channel_id=channel, command="table create", options=game)

        async def lobby() -> dict[str, Any] | None:
            messages = (await page.view(people["alice"], channel))["messages"]
            return next((m for m in messages if button(m, "Join")), None)

        message = await until(lobby, "the lobby")
        await page.post("api/click", user_id=bob, message_id=message["id"], custom_id=button(message, "Join"))
        await page.post("api/click", user_id=alice, message_id=message["id"], custom_id=button(message, "Start"))

        async def board() -> dict[str, Any] | None:
            messages = (await page.view(people["bob"], channel))["messages"]
            return next((a for m in messages for a in m["attachments"] if a["filename"] == "board.png"), None)

        drawn = await page.image(await until(board, "the first board"))
        assert drawn.format == "PNG" and drawn.width > drawn.height > 300

        async def hand() -> dict[str, Any] | None:
            dms = (await page.view(people["bob"], channel))["dm"]["messages"]
            return next((a for m in dms for a in m["attachments"] if a["image"]), None)

        assert (await page.image(await until(hand, "Bob's hand by DM"))).format == "PNG"

    process.send_signal(signal.SIGTERM)  # what `docker stop` and systemd send
    assert process.wait(15) == 0
    log = log_path.read_text(errors="replace")
    assert "Traceback" not in log, log
