"""The monitoring pieces in deploy/ agree with the bot: the ports, the health checks, the families.

The Dockerfile's HEALTHCHECK, the compose file's health checks and its optional monitoring profile
(Prometheus, Grafana), the sample dashboard and the systemd unit's watchdog all name things that
the bot really serves (services/observe.py, services/metrics.py); a renamed family or a moved port fails here.
"""

from __future__ import annotations

import configparser
import json
import re
from pathlib import Path

import yaml
from prometheus_client import REGISTRY

from services.config import load_config

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
HEALTH = re.compile(r"http://127\.0\.0\.1:(\d+)/healthz")


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))


def families() -> set[str]:
    """Every sample name the bot's registry can export (a counter's _total, a histogram's _bucket...)."""
    names: set[str] = set()
    for collector in list(REGISTRY._collector_to_names):
        for family in collector.describe() if hasattr(collector, "describe") else collector.collect():
            names.add(family.name)
            names.update({f"{family.name}_{suffix}" for suffix in ("total", "bucket", "sum", "count", "created")})
    return names


def test_the_image_checks_its_health_on_the_port_it_turns_on() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    port = re.search(r"MEEPLE_METRICS_PORT=(\d+)", text)
    assert port is not None
    (check,) = [line for line in re.sub(r"\\\n", " ", text).splitlines() if line.startswith("HEALTHCHECK")]
    found = HEALTH.search(check)
    assert found is not None and found.group(1) == port.group(1)
    assert "--start-period" in check  # the first connection to Discord takes a while


def test_the_compose_bots_serve_metrics_to_the_network_and_check_their_health() -> None:
    document = compose()
    bots = {name: service for name, service in document["services"].items() if name.startswith("bot")}
    targets = yaml.safe_load((DEPLOY / "prometheus.yml").read_text(encoding="utf-8"))
    (job,) = targets["scrape_configs"]
    (static,) = job["static_configs"]
    assert sorted(static["targets"]) == sorted(f"{name}:9108" for name in bots)
    for service in bots.values():
        environment = service["environment"]
        config = load_config({k: "x" if "${" in str(v) else str(v) for k, v in environment.items()}, env_file=None)
        assert config.metrics_port == 9108 and config.metrics_host == "0.0.0.0"
        found = HEALTH.search(" ".join(service["healthcheck"]["test"]))
        assert found is not None and found.group(1) == "9108"
        assert "ports" not in service  # the metrics stay on the compose network


def test_the_monitoring_profile_is_optional_and_mounts_files_that_exist() -> None:
    services = compose()["services"]
    for name in ("prometheus", "grafana"):
        assert services[name]["profiles"] == ["monitoring"], name
        for volume in services[name]["volumes"]:
            source = volume.split(":")[0]
            if source.startswith("./"):
                assert (DEPLOY / source).exists(), f"{name} mounts {source}, which does not exist"
    assert all("profiles" not in services[name] for name in services if name.startswith(("bot", "postgres")))
    assert services["grafana"]["ports"] == ["127.0.0.1:3000:3000"]


def test_the_dashboard_reads_only_families_the_bot_exports() -> None:
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "meeple-post.json").read_text(encoding="utf-8"))
    known = families()
    used: set[str] = set()
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            used.update(re.findall(r"\b((?:meeple|process)_[a-z_]+)\b", target["expr"]))
    assert used, "the dashboard queries nothing"
    assert used <= known, sorted(used - known)
    wanted = {
        "meeple_moves_total",
        "meeple_interaction_answer_seconds_bucket",
        "meeple_delivery_jobs_pending",
        "meeple_delivery_retries_total",
        "meeple_delivery_failed_total",
        "meeple_discord_rate_limits_total",
        "meeple_render_seconds_bucket",
        "meeple_render_queue_depth",
        "meeple_computer_decision_seconds_bucket",
        "meeple_running_games",
        "meeple_open_tables",
        "meeple_tournaments",
        "meeple_scheduler_tick_seconds_bucket",
        "meeple_event_loop_lag_seconds",
        "meeple_db_transaction_seconds_bucket",
        "meeple_shard_connected",
    }
    assert wanted <= used, sorted(wanted - used)


def test_the_unit_is_a_notify_service_with_a_watchdog_and_the_endpoint_on() -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((DEPLOY / "meeple-post.service").read_text(encoding="utf-8"))
    service = parser["Service"]
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    assert int(service["WatchdogSec"]) >= 30 and service["Restart"] == "on-failure"
    assert "MEEPLE_METRICS_PORT=9108" in service["Environment"]
    # The notify socket is a unix datagram socket: the unit must allow the family.
    assert "AF_UNIX" in service["RestrictAddressFamilies"]
