"""scripts/phone_shots.py still works: one table, in one language, gives a phone screenshot showing its board."""

from __future__ import annotations

import io
import urllib.request
from pathlib import Path

from PIL import Image, ImageChops, ImageStat
from playwright.sync_api import Browser

from scripts.phone_shots import PHONE, Setup, shoot
from tests.sandbox.conftest import Started


def test_a_phone_screenshot_of_a_solo_noctiluca_board_in_portuguese(
    sandbox: Started, browser: Browser, tmp_path: Path
) -> None:
    shots = shoot(browser, sandbox, Setup("noctiluca", 1), "pt-BR", tmp_path, turns=1)
    assert [shot.path.name for shot in shots] == ["noctiluca-1p-1.png", "noctiluca-1p-2.png"]
    assert all(shot.path.parent == tmp_path / "pt-BR" for shot in shots)
    scale = PHONE["scale"]
    for shot in shots:
        screen = Image.open(shot.path).convert("RGB")
        assert screen.size == (PHONE["width"] * scale, PHONE["height"] * scale)  # a phone's screen, at its density
        x, y, width, height = shot.box
        assert 300 <= width <= PHONE["width"] and 0 <= y < PHONE["height"] - 150, shot.box  # inline, on the screen
        # The part of the board on the screen is the board's picture, shrunk as the phone shows it.
        bottom = min(y + height, PHONE["height"])
        crop = screen.crop((round(x * scale), round(y * scale), round((x + width) * scale), round(bottom * scale)))
        with urllib.request.urlopen(sandbox.url + shot.source.lstrip("/"), timeout=10) as answer:
            board = Image.open(io.BytesIO(answer.read())).convert("RGB")
        full = board.resize((crop.width, round(board.height * crop.width / board.width)))
        original = full.crop((0, 0, crop.width, crop.height))
        difference = ImageStat.Stat(ImageChops.difference(crop, original)).mean
        assert sum(difference) / 3 < 12, "the screenshot does not show the board"
        assert ImageStat.Stat(crop.convert("L")).stddev[0] > 20  # a drawing, not a blank box
