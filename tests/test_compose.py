"""deploy/compose.yaml: PostgreSQL and two bot processes, one per shard, checked without a Docker engine.

The file is parsed (PyYAML, merge keys resolved as Compose does) and each bot's environment is fed
to the bot's own configuration reader, so a misspelt variable or a shard left out fails here.
`docker compose config` checks it too where a Docker client with the compose plugin is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from services.config import load_config

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "deploy" / "compose.yaml"
SAMPLE = {"DISCORD_TOKEN": "not-a-real-token", "POSTGRES_PASSWORD": "not-a-real-password"}
REFERENCE = re.compile(r"\$\{(\w+)(?::?[?\-][^}]*)?\}")


def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def bots() -> dict[str, dict]:
    return {name: service for name, service in compose()["services"].items() if name.startswith("bot")}


def substituted(value: str) -> str:
    """``${NAME:?message}`` replaced by the sample value, as Compose fills it from deploy/.env."""
    return REFERENCE.sub(lambda found: SAMPLE[found[1]], value)


def settings_read_by_the_bot() -> set[str]:
    code = "".join((ROOT / path).read_text(encoding="utf-8") for path in ("services/config.py", "bot/__main__.py"))
    return set(re.findall(r'"((?:MEEPLE|DISCORD)_[A-Z_]+)"', code))


def test_two_bot_processes_share_out_the_two_shards() -> None:
    services = bots()
    assert len(services) == 2
    owned: list[int] = []
    for service in services.values():
        config = load_config({k: substituted(str(v)) for k, v in service["environment"].items()}, env_file=None)
        assert config.shard_count == 2 and config.shard_ids is not None
        owned.extend(config.shard_ids)
    assert sorted(owned) == [0, 1]


def test_every_bot_setting_named_is_one_the_bot_reads_and_the_token_comes_from_outside() -> None:
    known = settings_read_by_the_bot()
    assert {"DISCORD_TOKEN", "MEEPLE_DB", "MEEPLE_SHARD_IDS", "MEEPLE_SHARD_COUNT"} <= known
    for service in bots().values():
        environment = service["environment"]
        assert set(environment) <= known, set(environment) - known
        assert REFERENCE.fullmatch(environment["DISCORD_TOKEN"])  # never a token in the file


def test_the_bots_use_the_postgres_service_once_it_is_healthy() -> None:
    document = compose()
    postgres = document["services"]["postgres"]
    assert postgres["image"].startswith("postgres:") and postgres["healthcheck"]["test"]
    database = postgres["environment"]
    for service in bots().values():
        url = urlsplit(substituted(service["environment"]["MEEPLE_DB"]))
        assert url.scheme == "postgresql" and url.hostname == "postgres"
        assert url.username == database["POSTGRES_USER"] and url.path == f"/{database['POSTGRES_DB']}"
        assert url.password == substituted(database["POSTGRES_PASSWORD"])
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in postgres["volumes"])


def test_the_bots_are_built_from_the_repositorys_dockerfile_and_stopped_with_sigterm() -> None:
    for service in bots().values():
        build = service["build"]
        context = (COMPOSE.parent / build["context"]).resolve()
        assert context == ROOT and (context / build["dockerfile"]).is_file()
        assert service["stop_signal"] == "SIGTERM"
        assert service["restart"] == "unless-stopped"


def test_docker_compose_accepts_the_file(tmp_path: Path) -> None:
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "compose", "version"], capture_output=True).returncode != 0:
        pytest.skip("no Docker client with the compose plugin here")
    env_file = tmp_path / "compose.env"
    env_file.write_text("".join(f"{key}={value}\n" for key, value in SAMPLE.items()))
    done = subprocess.run(
        [docker, "compose", "--env-file", str(env_file), "-f", str(COMPOSE), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
