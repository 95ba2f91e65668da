"""An animated replay of a whole game: one frame per step, within Discord's upload limit."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw, features

from render import RENDERERS
from render.common import fit_font

FRAME_WIDTH = 800
MAX_FRAMES = 120
STEP_MS = 700
LAST_FRAME_MS = 4000
DEFAULT_BUDGET = 8 * 1024 * 1024


def pick_frames(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """Indices of the frames to keep: all of them, or an even spread that keeps first and last."""
    if count <= limit:
        return list(range(count))
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


def replay_animation(
    game_id: str,
    publics: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    budget: int = DEFAULT_BUDGET,
    caption: Callable[[int, int], str] | None = None,
    locale: str = "en",
) -> tuple[bytes, str]:
    """Animate the public boards of every step; return the bytes and the file extension.

    Animated WebP when Pillow has it (far smaller), GIF otherwise. If the result is over the
    budget, fewer and smaller frames are tried until it fits. ``caption(step, steps)`` (the
    words come from the bot's catalogue) is drawn as a band across the top of every frame, so
    the replay is never mistaken for the current board. The boards are worded in ``locale``.
    """
    if not publics:
        raise ValueError("a replay needs at least one position")
    renderer = RENDERERS[game_id]
    width, limit = FRAME_WIDTH, MAX_FRAMES
    while True:
        frames = []
        for index in pick_frames(len(publics), limit):
            board = renderer.board(publics[index], list(names), locale=locale).convert("RGB")
            height = round(board.height * width / board.width)
            frame = board.resize((width, height), Image.Resampling.LANCZOS)
            if caption:
                frame = label_frame(frame, caption(index, len(publics) - 1))
            frames.append(frame)
        data, extension = encode_animation(frames)
        if len(data) <= budget or width <= 320:
            return data, extension
        width, limit = int(width * 0.75), max(10, int(limit * 0.6))


BAND_COLOUR = (28, 30, 36)
BAND_TEXT = (255, 214, 102)


def label_frame(frame: Image.Image, text: str) -> Image.Image:
    """``frame`` under a dark band that reads ``text`` (the band is added above: it hides nothing)."""
    band = max(22, frame.height // 12)
    labelled = Image.new("RGB", (frame.width, frame.height + band), BAND_COLOUR)
    labelled.paste(frame, (0, band))
    fnt = fit_font(text, frame.width - band, int(band * 0.62), bold=True)
    ImageDraw.Draw(labelled).text((band // 2, band // 2), text, font=fnt, fill=BAND_TEXT, anchor="lm")
    return labelled


def encode_animation(frames: list[Image.Image]) -> tuple[bytes, str]:
    durations = [STEP_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    if features.check("webp"):
        frames[0].save(
            out,
            format="WEBP",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            loop=0,
            quality=70,
            method=4,
        )
        return out.getvalue(), "webp"
    paletted = [f.quantize(colors=128, method=Image.Quantize.MEDIANCUT) for f in frames]
    paletted[0].save(
        out, format="GIF", save_all=True, append_images=paletted[1:], duration=durations, loop=0, optimize=False
    )
    return out.getvalue(), "gif"
