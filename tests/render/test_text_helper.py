"""Text goes through render.fonts.put_text, Pillow is left as it is, and the text caches stay bounded."""

from __future__ import annotations

import ast
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

import render
from render import fonts
from render.common import font, put_text

RENDER = Path(render.__file__).parent
HELPER = RENDER / "fonts.py"  # put_text, and the runs it composes on its own canvas


def direct_text_calls(path: Path) -> list[str]:
    """Where a module calls ``<something>.text(...)`` (ImageDraw's text) itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "text":
            found.append(f"{path.relative_to(RENDER.parent)}:{node.lineno}")
    return found


def test_no_renderer_draws_text_but_through_the_helper() -> None:
    modules = sorted(RENDER.rglob("*.py"))
    assert len(modules) > 10
    calls = [call for path in modules if path != HELPER for call in direct_text_calls(path)]
    assert calls == []
    assert direct_text_calls(HELPER)  # the helper itself does call it: the scan sees such calls


def test_pillow_text_is_not_patched_by_importing_render() -> None:
    assert ImageDraw.ImageDraw.text.__module__ == "PIL.ImageDraw"
    assert ImageDraw.ImageDraw.text.__qualname__ == "ImageDraw.text"
    image = Image.new("RGB", (200, 100))
    ImageDraw.Draw(image).text((10, 80), "🦊", font=font(40), fill=(255, 255, 255), anchor="ls")
    r, g, b = image.split()
    assert ImageChops.difference(r, g).getbbox() is None  # Pillow alone: the emoji in the ink, no colour
    put_text(ImageDraw.Draw(image), (110, 80), "🦊", font=font(40), fill=(255, 255, 255), anchor="ls")
    if fonts.stack(False).emoji is not None:
        r, g, b = image.split()
        assert ImageChops.difference(r, b).getbbox() is not None  # the helper: in colour


def drawn(text: str, fill: tuple[int, int, int], size: int = 30) -> bytes:
    image = Image.new("RGB", (400, 80), (20, 40, 30))
    put_text(ImageDraw.Draw(image), (200.5, 40), text, font=font(size, True), fill=fill, anchor="mm")
    return image.tobytes()


def test_text_drawn_from_the_cache_is_what_freetype_draws_in_any_ink() -> None:
    fonts.masks.clear()
    texts = ["Round 3/3 · Trick 1/11", "小明 João 🦊Zoë", "第 2/3 回合"]
    fresh = {(text, fill): drawn(text, fill) for text in texts for fill in ((255, 0, 0), (0, 0, 255))}
    assert fonts.masks.hits > 0  # the second ink came from the cache
    hits = fonts.masks.hits
    for (text, fill), pixels in fresh.items():
        assert drawn(text, fill) == pixels
    assert fonts.masks.hits >= hits + len(fresh)
    fonts.masks.clear()
    assert drawn(texts[0], (0, 0, 255)) == fresh[texts[0], (0, 0, 255)]  # and without it


def test_the_mask_cache_stays_within_its_bytes_and_drops_the_oldest() -> None:
    fonts.masks.clear()
    for i in range(600):
        drawn(f"label number {i} of many", (250, 240, 220), size=40 + i % 3)
        assert fonts.masks.weight <= fonts.MASK_CACHE_BYTES
    assert fonts.masks.weight > fonts.MASK_CACHE_BYTES // 2  # it did fill up
    misses = fonts.masks.misses
    drawn("label number 0 of many", (250, 240, 220), size=40)  # long since dropped
    assert fonts.masks.misses == misses + 1
    drawn("label number 599 of many", (250, 240, 220), size=40 + 599 % 3)  # still there
    assert fonts.masks.misses == misses + 1


def test_a_bounded_map_keeps_its_weight_and_its_recent_entries() -> None:
    cache = fonts.Bounded(100)
    for i in range(50):
        cache.put(i, str(i), weight=7)
        assert cache.weight <= 100
    assert len(cache) == 14 and cache.get(49) == "49" and cache.get(0) is None
    cache.get(36)  # used: outlives the ones put after it
    cache.put("new", "x", weight=7)
    assert cache.get(36) == "36" and cache.get(37) is None
    cache.put("huge", "y", weight=101)  # never fits: not kept, nothing dropped for it
    assert cache.get("huge") is None and len(cache) == 14


def test_measures_are_bounded_in_entries() -> None:
    fonts.measures.clear()
    fnt = font(22)
    assert isinstance(fnt, fonts.StackFont)
    for i in range(fonts.MEASURE_CACHE_ENTRIES + 500):
        fnt.getlength(f"w{i}")
    assert len(fonts.measures) == fonts.MEASURE_CACHE_ENTRIES
    assert fnt.getlength("w0") == fonts.StackFont._getlength(fnt, "w0")
