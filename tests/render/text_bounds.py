"""Watch every word a renderer draws: it must stay inside its image and never run over another word.

``recorded_text()`` wraps ``ImageDraw.text`` for the duration of a ``with`` block and records, per
image drawn on, the ink box of each text drawn. ``overflows(records)`` lists what went wrong: text
reaching past the image's edge, or two different texts whose ink overlaps (a sentence too long for
its box runs into its neighbour). Text drawn twice at nearly the same place (a shadow under a
label) is one text, not an overlap.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

# Ink boxes may touch: anti-aliased edges of neighbouring lines share a pixel or two.
TOLERANCE = 2


@dataclass(frozen=True)
class Drawn:
    image: int  # which image was drawn on (a card sprite is checked apart from the board)
    size: tuple[int, int]
    text: str
    box: tuple[float, float, float, float]


@contextmanager
def recorded_text() -> Iterator[list[Drawn]]:
    records: list[Drawn] = []
    original = ImageDraw.ImageDraw.text
    images: list[Any] = []  # every image drawn on, kept alive so no two share an id() meanwhile

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, fill: Any = None, font: Any = None, *args: Any, **kw: Any):
        if isinstance(text, str) and text.strip() and font is not None:
            anchor = kw.get("anchor")
            box = self.textbbox(xy, text, font=font, anchor=anchor)
            image = self._image  # type: ignore[attr-defined]
            if not any(seen is image for seen in images):
                images.append(image)
            index = next(i for i, seen in enumerate(images) if seen is image)
            records.append(Drawn(index, image.size, text, tuple(float(v) for v in box)))  # type: ignore[arg-type]
        return original(self, xy, text, fill, font, *args, **kw)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        yield records
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def overflows(records: list[Drawn]) -> list[str]:
    problems: list[str] = []
    for r in records:
        x0, y0, x1, y1 = r.box
        w, h = r.size
        if x0 < -TOLERANCE or y0 < -TOLERANCE or x1 > w + TOLERANCE or y1 > h + TOLERANCE:
            problems.append(f"{r.text!r} at {r.box} leaves its {w}x{h} image")
    by_image: dict[int, list[Drawn]] = {}
    for r in records:
        by_image.setdefault(r.image, []).append(r)
    for drawn in by_image.values():
        for i, a in enumerate(drawn):
            for b in drawn[i + 1 :]:
                if a.text == b.text and abs(a.box[0] - b.box[0]) <= 4 and abs(a.box[1] - b.box[1]) <= 4:
                    continue  # a shadow or an outline drawn under the same label
                if _overlap(a.box, b.box) > TOLERANCE:
                    problems.append(f"{a.text!r} {a.box} runs into {b.text!r} {b.box}")
    return problems


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """How far two boxes overlap, in pixels (the smaller of the two overlaps); 0 when apart."""
    dx = min(a[2], b[2]) - max(a[0], b[0])
    dy = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, min(dx, dy))
