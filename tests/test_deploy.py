"""The Dockerfile and the sample systemd unit, checked as far as this machine can without running them.

No Docker engine runs here, so the image is never built: its instructions are parsed and held to
what README.md promises (non-root, database on a volume, SIGTERM reaching python, no token inside).
The unit is parsed, and checked with `systemd-analyze verify` where systemd is installed.
"""

from __future__ import annotations

import configparser
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "deploy" / "meeple-post.service"


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def arguments(keyword: str) -> list[str]:
    return [rest for key, rest in instructions() if key == keyword]


def test_the_image_is_python_311_slim_and_runs_the_bot_as_python_itself() -> None:
    assert arguments("FROM") == ["python:3.11-slim"]
    (command,) = arguments("CMD")
    # Exec form (a JSON list): no shell in between, so python is PID 1 and receives SIGTERM.
    assert json.loads(command) == ["python", "-m", "bot"]
    assert not arguments("ENTRYPOINT")
    assert arguments("STOPSIGNAL") == ["SIGTERM"]


def test_the_bot_runs_as_an_unprivileged_user() -> None:
    keys = [key for key, _ in instructions()]
    (user,) = arguments("USER")
    assert user not in ("root", "0") and not user.startswith(("root:", "0:"))
    assert keys.index("USER") < keys.index("CMD")
    assert any("useradd" in run and user in run for run in arguments("RUN"))


def test_the_database_is_on_the_volume_and_no_token_is_baked_in() -> None:
    (volume,) = arguments("VOLUME")
    volumes = [PurePosixPath(v) for v in json.loads(volume)]
    settings = " ".join(arguments("ENV"))
    database = PurePosixPath(re.search(r"MEEPLE_DB=(\S+)", settings).group(1))
    assert any(v in database.parents for v in volumes)
    for key in ("ENV", "ARG", "LABEL"):
        assert not any("TOKEN" in value.upper() for value in arguments(key)), key


def test_the_image_gets_every_package_and_the_data_and_the_context_keeps_secrets_out() -> None:
    sources: set[str] = set()
    for copy in arguments("COPY"):
        parts = [p for p in copy.split() if not p.startswith("--")]
        for source in parts[:-1]:
            assert (ROOT / source).exists(), f"the Dockerfile copies {source}, which does not exist"
            sources.add(source.rstrip("/"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {project["package-dir"].get(name, name.replace(".", "/")).split("/")[0] for name in project["packages"]}
    assert folders | {"pyproject.toml", "README.md"} <= sources
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".env", "*.db", ".git/", ".venv/"} <= set(ignored)
    assert not {s for s in sources if s in ignored or f"{s}/" in ignored}, "the Dockerfile copies an ignored path"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return parser


def test_the_unit_runs_the_bot_as_its_own_user_restarts_it_and_stops_it_with_sigterm() -> None:
    service = unit()["Service"]
    assert service["User"] not in ("root", "0")
    assert service["ExecStart"].endswith(" -m bot")
    assert service["EnvironmentFile"].startswith("/etc/")
    assert service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM"
    assert int(service["TimeoutStopSec"]) >= 10  # the bot needs a few seconds to answer the clicks in progress
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_the_unit_is_hardened_and_may_write_its_database() -> None:
    service = unit()["Service"]
    assert service["NoNewPrivileges"] == "yes" and service["ProtectSystem"] == "strict"
    assert service["ProtectHome"] == "yes" and service["PrivateTmp"] == "yes"
    # ProtectSystem=strict leaves only the state directory writable: the database must be in it.
    database = re.search(r"MEEPLE_DB=(\S+)", service["Environment"]).group(1)
    assert PurePosixPath(f"/var/lib/{service['StateDirectory']}") in PurePosixPath(database).parents


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    # Point the paths that only exist on a server at files of this machine; the rest is verified as is.
    env_file = tmp_path / "meeple-post.env"
    env_file.write_text("DISCORD_TOKEN=not-a-real-token\n")
    text = UNIT.read_text(encoding="utf-8")
    text = text.replace("/opt/meeple-post/bin/python", str(Path(sys.executable).resolve()))
    text = re.sub(r"EnvironmentFile=\S+", f"EnvironmentFile={env_file}", text)
    copy = tmp_path / UNIT.name
    copy.write_text(text)
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
