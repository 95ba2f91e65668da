"""The lock (requirements/*.txt): the exact versions the suite was run with, installed everywhere.

``pyproject.toml`` keeps compatible ranges for people who install the package into their own
environment; ``./scripts/lock`` resolves them to exact versions with hashes; ``scripts/setup.sh``
(so ``./scripts/start``, ``./scripts/test`` and ``.ci/run``) and the Dockerfile install exactly
those. These tests fail, with the package and both versions named, when the environment running
them is not the locked one, or when the lock and ``pyproject.toml`` disagree.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;\\]+)\s*(?:;\s*(?P<marker>[^\\]+?))?\s*\\?$")


def locked(name: str) -> dict[str, tuple[Version, int]]:
    """Package -> (version, number of hashes) of the entries of ``requirements/<name>.txt`` whose
    environment marker holds on this machine (a universal lock may pin a package once per Python)."""
    found: dict[str, tuple[Version, int]] = {}
    lines = (LOCKS / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        match = PIN.match(line)
        if not match:
            continue
        marker = match["marker"]
        if marker and not Marker(marker).evaluate():
            continue
        hashes = 0
        for following in lines[number + 1 :]:
            if not following.startswith("    --hash="):
                break
            hashes += 1
        found[canonicalize_name(match["name"])] = (Version(match["version"]), hashes)
    return found


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_every_locked_release_has_its_hashes() -> None:
    """pip's --require-hashes mode refuses a file whose hash is not in the lock: a tampered or
    re-uploaded release never installs."""
    for name in ("bot", "test"):
        pins = locked(name)
        assert pins, f"requirements/{name}.txt pins nothing"
        for package, (_, hashes) in pins.items():
            assert hashes >= 1, f"requirements/{name}.txt: {package} has no hash"


def test_the_lock_satisfies_the_ranges_of_pyproject() -> None:
    """Each dependency (and each test tool) is locked, at a version its range in pyproject.toml
    admits: the lock is a choice inside the ranges, never a way round them."""
    spec = project()
    for lock, requirements in (
        ("bot", spec["dependencies"]),
        ("test", spec["dependencies"] + spec["optional-dependencies"]["test"]),
    ):
        pins = locked(lock)
        for text in requirements:
            requirement = Requirement(text)
            if requirement.marker and not requirement.marker.evaluate():
                continue
            name = canonicalize_name(requirement.name)
            assert name in pins, f"{requirement.name} is in pyproject.toml but not in requirements/{lock}.txt"
            version = pins[name][0]
            assert requirement.specifier.contains(version, prereleases=True), (
                f"requirements/{lock}.txt pins {requirement.name} {version}, outside pyproject.toml's {text!r}:"
                " run ./scripts/lock"
            )


def test_the_bot_lock_is_the_test_lock_without_the_test_tools() -> None:
    """The bot runs with the very versions the tests ran with."""
    bot, test = locked("bot"), locked("test")
    for package, (version, _) in bot.items():
        assert package in test, f"{package} is locked for the bot but not for the tests"
        assert test[package][0] == version, f"{package}: {version} for the bot, {test[package][0]} for the tests"


def test_this_environment_is_the_locked_one() -> None:
    """What runs the suite is what the lock says: a package upgraded by hand (a newer Babel, say)
    is named here with both versions, before any test can fail for a less obvious reason."""
    wrong = []
    for package, (version, _) in locked("test").items():
        try:
            installed = Version(metadata.version(package))
        except metadata.PackageNotFoundError:
            wrong.append(f"{package} {version} is locked but not installed")
            continue
        if installed != version:
            wrong.append(f"{package} {installed} is installed but the lock pins {version}")
    assert not wrong, "; ".join(wrong) + ". ./scripts/test installs the lock; ./scripts/lock upgrades it."


@pytest.mark.parametrize("script", ["scripts/setup.sh"])
def test_the_scripts_install_the_lock_with_hashes_and_nothing_else(script: str) -> None:
    text = (ROOT / script).read_text(encoding="utf-8")
    assert '--require-hashes -r "$lock"' in text
    assert 'lock="requirements/${extra:-bot}.txt"' in text
    # The project itself adds nothing unlocked: no dependency resolution, no isolated build.
    assert "--no-deps --no-build-isolation -e ." in text
    for name in ("start", "test"):
        assert ". scripts/setup.sh" in (ROOT / "scripts" / name).read_text(encoding="utf-8")
    assert "./scripts/test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_image_installs_the_bot_lock_before_the_project() -> None:
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    runs = [line.strip()[4:] for line in text.splitlines() if line.strip().startswith("RUN ")]
    locked_install = next(i for i, run in enumerate(runs) if "--require-hashes -r /src/requirements/bot.txt" in run)
    project_install = next(i for i, run in enumerate(runs) if "pip install --no-deps --no-build-isolation /src" in run)
    assert locked_install < project_install


def test_the_readme_says_how_installs_are_locked_and_upgraded() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "./scripts/lock" in readme and "requirements/test.txt" in readme and "requirements/bot.txt" in readme
