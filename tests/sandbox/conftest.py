"""The sandbox as a newcomer starts it (`python -m bot` without a token), and Debian's Chromium to look at it."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest
from playwright.sync_api import Browser, sync_playwright

REPO = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ADDRESS = re.compile(r"Open\s+(http://127\.0\.0\.1:\d+/\S*)")


def chromium_path() -> str | None:
    """Debian's Chromium (installed by scripts/test), wherever it is on PATH."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Started:
    """A running `python -m bot` in sandbox mode."""

    url: str
    database: Path
    process: subprocess.Popen[str]
    banner: str
    output: list[str]  # every line printed after the banner, read as it comes (the pipe never fills up)

    def log(self) -> str:
        """Everything the start command has printed so far."""
        return self.banner + "".join(self.output)


class NoAddress(RuntimeError):
    """The start command printed no sandbox address."""


@contextmanager
def started_sandbox(home: Path) -> Iterator[Started]:
    """The start command without a token, run in ``home``: it prints the page's address; stopped on leaving."""
    env = {
        **os.environ,
        # this checkout's code first; then whatever the caller's path adds (a data package, a checkout's shim)
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        "MEEPLE_DB": str(home / "meeple.db"),
        "PYTHONUNBUFFERED": "1",
        "MEEPLE_EDIT_PACE": "0.05",
    }
    env["DISCORD_TOKEN"] = ""  # an empty variable wins over any .env
    env.pop("DISCORD_API_BASE", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "--port", str(free_port())],
        cwd=home,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    banner: list[str] = []
    deadline = time.monotonic() + 60
    url = None
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        banner.append(line)
        found = ADDRESS.search(line)
        if found:
            url = found.group(1)
            # the rest of the banner (the note on tokens) follows at once
            while "run the start command again" not in banner[-1]:
                banner.append(process.stdout.readline())
            break
    if url is None:
        process.kill()
        raise NoAddress("the start command printed no sandbox address:\n" + "".join(banner))
    output: list[str] = []

    def read(stream: IO[str]) -> None:
        for line in stream:
            output.append(line)

    threading.Thread(target=read, args=(process.stdout,), daemon=True).start()
    try:
        yield Started(url, home / "meeple.db", process, "".join(banner), output)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Started]:
    """The start command without a token, in an empty folder: it prints the page's address."""
    with ExitStack() as stack:
        try:
            started = stack.enter_context(started_sandbox(tmp_path_factory.mktemp("sandbox")))
        except NoAddress as error:
            pytest.fail(str(error))
        yield started


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium from Debian's packages, driven by Playwright."""
    executable = chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (scripts/test installs it with apt-get: chromium)")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()
