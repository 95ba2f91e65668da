"""bench/workers.py runs on a tiny configuration, so it never rots; what it did is checked, never how fast."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_drawing_worker_bench_draws_boards_and_hands_and_reports_its_memory(tmp_path: Path) -> None:
    out = tmp_path / "workers.json"
    done = subprocess.run(
        [sys.executable, "bench/workers.py", "--rounds", "2", "--positions", "1", "--game", "fox-duet"]
        + ["--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "load average before" in done.stdout and "RSS:" in done.stdout
    result = json.loads(out.read_text())
    assert result["jobs"] == 3 * (1 + 2)  # one position, three languages: a board and two hands
    assert len(result["cpu"]["fox-duet"]["board"]) == 3 and len(result["cpu"]["fox-duet"]["hand"]) == 6
    assert all(size > 1000 for size in result["size"]["fox-duet"]["board"])
    assert len(result["rss_rounds"]) == 2 and all(mb > 10 for mb in result["rss_rounds"])
    assert sum(result["profile"].values()) > 0 and "text" in result["profile"]
    assert result["caches"]["masks"][0] + result["caches"]["masks"][1] > 0
