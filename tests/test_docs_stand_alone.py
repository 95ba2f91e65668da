"""Everything in the repository reads on its own: someone who clones it has no steering folder.

Docs, the README, every package, the tests, benches, scripts and deploy files cite the rulebooks by
title and edition and keep what a reader needs in the repository; none of them points to files
outside it (a ``../shared`` path, the steering repository's rules notes, a seed file's name).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Paths and names of files that exist only beside the repository, never in a clone of it.
OUTSIDE = re.compile(
    r"\.\./shared|\bshared/(?:seeds|RULES-NOTES|STYLE|DISCORD|ENGINE)|RULES-NOTES|\b\d{3}_[0-9a-f]{16}\.txt"
)
FOLDERS = (
    *("docs", "engine", "ai", "render", "league", "services", "bot", "l10n", "emulator", "sandbox", "data"),
    *("tests", "bench", "scripts", "deploy"),
)
TOP = ("README.md", "pyproject.toml", "Dockerfile", ".ci/run")
TEXT = {".py", ".md", ".json", ".po", ".pot", ".sql", ".toml", ".yaml", ".yml", ".txt", ".sh", ".html", ".css", ".js"}
TEXT |= {".service", ""}


def tracked() -> list[Path]:
    """The repository's files under FOLDERS and TOP, as git lists them (untracked new ones too)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", *FOLDERS, *TOP],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an unpacked archive)
        skip = ("__pycache__", ".egg-info", "/out/")
        found = [p for folder in FOLDERS for p in (ROOT / folder).rglob("*") if not any(s in str(p) for s in skip)]
        return [p for p in found + [ROOT / name for name in TOP] if p.is_file()]
    return [ROOT / name for name in listed if name and (ROOT / name).is_file()]


def test_nothing_points_outside_the_repository() -> None:
    files = [path for path in tracked() if path.suffix in TEXT]
    assert len(files) > 300 and ROOT / "docs" / "rules" / "tm-dice.md" in files
    found = []
    for path in files:
        if path == Path(__file__):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "these lines point outside the repository:\n" + "\n".join(found)


def test_the_guard_catches_each_kind_of_outside_path() -> None:
    for line in (
        "The seed (`../shared/seeds/003_2d2e9d2ddb19d0d5.txt`) is the authority",
        "see shared/RULES-NOTES.md",
        "(RULES-NOTES)",
        "seed 004_2245ed38e4e240e7.txt says",
    ):
        assert OUTSIDE.search(line), line
    assert not OUTSIDE.search("a shared win; the seeds of the challenge; docs/rules/tm-dice.md")


def test_every_rules_doc_cites_its_rulebook_by_title() -> None:
    titles = {
        "fox-duet": "*The Fox in the Forest Duet*",
        "noctiluca": "*Noctiluca*",
        "vivarium": "*Vivarium*",
        "tm-dice": "*Terraforming Mars: The Dice Game*",
    }
    for game, title in titles.items():
        assert title in (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"), game


# The code's own docs name no issue of the tracker (a reader of a clone has none): they say what
# the code does and why. Tests may cite the issue they were written for.
ISSUE = re.compile(r"\b[Ii]ssue \d+\b")
CODE = (
    "engine",
    "ai",
    "render",
    "league",
    "services",
    "bot",
    "l10n",
    "emulator",
    "sandbox",
    "bench",
    "scripts",
    "tests",
)


def test_the_code_names_no_issue_number() -> None:
    found = []
    for path in tracked():
        if path.suffix != ".py" or path.relative_to(ROOT).parts[0] not in CODE:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if ISSUE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "these lines name an issue number:\n" + "\n".join(found)
    assert ISSUE.search('"""Round robin (' + "issue" + ' 13): everyone meets everyone."""')
