"""The load and CPU benchmarks run on a tiny configuration, so they never rot.

Only what they did is checked (tables opened, moves played, every click accounted for, the
encodings compared), never how fast: speed is read from the scripts' own output.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from engine import GAMES

ROOT = Path(__file__).resolve().parent.parent


def run(script: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, f"bench/{script}", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )


def test_every_bench_script_explains_itself() -> None:
    for script in ("load.py", "move_cpu.py"):
        shown = run(script, "--help", timeout=60)
        assert shown.returncode == 0, shown.stderr
        assert "usage:" in shown.stdout and "--json" in shown.stdout


def check_phases(run: dict, labels: list[str], games: int) -> None:
    assert [p["phase"] for p in run["phases"]] == labels
    for phase in run["phases"]:
        assert phase["games"] == games
        # A move's board is a new message or an edit of the turn's message: both are its board.
        assert phase["boards_posted"] + phase["boards_edited"] == phase["boards_shown"], phase
        settled = phase["boards_shown"] + phase["refused"] + phase["expired"] + phase["lost"]
        assert settled == phase["clicks"], f"a click of {phase['phase']} was never settled: {phase}"
        assert phase["boards_posted"] >= 1, phase
        assert not math.isnan(phase["board_p50_ms"]) and phase["queue_max"] >= 1
        assert not math.isnan(phase["ack_p50_ms"]), "the bot's first answers were not timed"
        assert 0 < phase["rss_bot_max_mb"] < phase["rss_max_mb"], "the bot and its drawing workers apart"
        assert phase["bot_cpu_ms_per_move"] > 0 and phase["workers_cpu_ms_per_move"] > 0, phase
        assert phase["statements_per_move"] > 0, "meeple_db_statements_total was not read from /metrics"
        assert phase["answers_in_other_language"] == 0, "a move was answered in another language than its player's"
        assert phase["timeline"], "RSS and queue were never sampled"


def test_load_plays_moves_through_the_bot_process_at_a_rate_and_at_saturation(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    done = run(
        "load.py",
        *("--games", "3", "--rate", "4,max", "--duration", "5", "--drain", "120"),
        *("--stage", "fresh", "--mix", "classic", "--json", str(out)),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["tracebacks"] == 0, "the bot logged an error under load"
    [fresh] = result["runs"]
    assert fresh["stage"] == "fresh"
    assert {t["language"] for t in fresh["tables"]} == {"en"} and {t["stage"] for t in fresh["tables"]} == {"fresh"}
    check_phases(fresh, ["4/s", "max"], 3)
    assert "moves/s" in done.stdout and "board p99" in done.stdout  # the table was printed


def test_load_on_stored_games_at_every_stage_in_every_language_beside_fresh_ones(tmp_path: Path) -> None:
    """Stored games of the four games, early to late, in en, zh-TW and pt-BR: the bot posts their
    boards from its outbox at start-up and the users play on; both stages are printed side by side."""
    out = tmp_path / "load.json"
    done = run(
        "load.py",
        *("--games", "6", "--rate", "max", "--duration", "6", "--drain", "120"),
        *("--stage", "fresh,stored", "--json", str(out)),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["tracebacks"] == 0, "the bot logged an error under load"
    fresh, stored = result["runs"]
    assert (fresh["stage"], stored["stage"]) == ("fresh", "stored")
    tables = stored["tables"]
    assert {t["game"] for t in tables} == set(GAMES)
    assert {t["language"] for t in tables} == {"en", "zh-TW", "pt-BR"}
    assert {t["stage"] for t in tables} == {"early", "middle", "late"}
    assert all(t["moves_in"] >= 1 for t in tables) and max(t["moves_in"] for t in tables) >= 20
    assert [t["game"] for t in fresh["tables"]] == [t["game"] for t in tables], "the same tables in both"
    assert all(t["moves_in"] == 0 for t in fresh["tables"])
    check_phases(fresh, ["max"], 6)
    check_phases(stored, ["max"], 6)
    assert "side by side (fresh | stored)" in done.stdout


def test_move_cpu_times_every_phase_of_every_game_and_compares_encodings(tmp_path: Path) -> None:
    out = tmp_path / "cpu.json"
    sample = ("--games", "1", "--max-moves", "3", "--encode-sample", "1", "--webp-methods", "0")
    done = run("move_cpu.py", *sample, "--json", str(out))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(out.read_text())
    assert sorted(result) == sorted(GAMES)
    for key, game in result.items():
        assert game["moves"] == 3, key
        assert {"apply", "commit", "draw", "encode", "board", "hand"} <= set(game["phases"])
        names = [e["encoder"] for e in game["encodings"]]
        assert names[0] == "PNG truecolour zlib 6 (today)" and any("256 colours" in n for n in names)
        assert all(e["bytes_mean"] > 0 for e in game["encodings"])


def test_retention_bench_compacts_and_reports_every_run(tmp_path: Path) -> None:
    out = tmp_path / "retention.json"
    args = ("--days", "6", "--games-per-day", "2", "--retention", "2", "--templates", "1", "--report-every", "3")
    done = run("retention.py", *args, "--json", str(out))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    off, kept, incremental = json.loads(out.read_text())
    assert [r["day"] for r in off["reports"]] == [3, 6] and off["reports"][-1]["games"] == 12
    assert off["compacted"] == 0 and kept["compacted"] == incremental["compacted"] == 8  # ended on days 1-4
    for run_with in (kept, incremental):
        assert 0 < run_with["reports"][-1]["actions"] < off["reports"][-1]["actions"]
    assert incremental["reports"][-1]["free_bytes"] == 0, "incremental auto_vacuum gives the pages back"
    assert "file MB" in done.stdout and "KB once compacted" in done.stdout
