"""An animated replay of a whole game: one frame per step, within Discord's upload limit.

Frames are drawn and encoded one at a time: each goes into the animated WebP encoder as soon
as it is drawn (libwebp's ``WebPAnimEncoder``, which Pillow exposes as ``PIL._webp``) and is let
go, so a replay holds a couple of frames, not all of them (120 frames of 800x450 were ~130 MB).
Without that encoder (an older or a WebP-less Pillow) Pillow's ``save_all`` is used with every
frame in memory, as before: a WebP when Pillow has WebP at all, a GIF otherwise.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any, Protocol

from PIL import Image, ImageDraw, features

from render import RENDERERS
from render.common import fit_font, put_text

FRAME_WIDTH = 800
MAX_FRAMES = 120
MIN_WIDTH = 320
MIN_FRAMES = 10
STEP_MS = 700
LAST_FRAME_MS = 4000
DEFAULT_BUDGET = 8 * 1024 * 1024
QUALITY = 70
# libwebp's effort, 0-6. Measured on Fox Duet frames 800 wide: method 4 took 36 ms a frame,
# method 2 19 ms for 3 % more bytes (method 0: 13 ms, 34 % more bytes).
METHOD = 2
FIT_MARGIN = 0.9  # a smaller replay is aimed at 90 % of the budget: the size estimate is rough
# A WebP replay's bytes grow with its frames and about the 1.2th power of its width (measured on
# the Fox Duet: 800 -> 600 -> 450 -> 337 px wide gave 100 / 71 / 52 / 38 %); 1.1 errs on the safe side.
WIDTH_POWER = 1.1


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
    budget, fewer and smaller frames are tried, skipping straight to the first size expected to
    fit (each try draws every frame again). ``caption(step, steps)`` (the words come from the
    bot's catalogue) is drawn as a band across the top of every frame, so the replay is never
    mistaken for the current board. The boards are worded in ``locale``.
    """
    if not publics:
        raise ValueError("a replay needs at least one position")
    renderer = RENDERERS[game_id]
    width, limit = FRAME_WIDTH, MAX_FRAMES
    while True:
        picked = pick_frames(len(publics), limit)
        frames = (
            replay_frame(
                # Without the band of key lines: its height follows the words, and every frame has one size.
                renderer.board(publics[index], list(names), locale=locale, phone=False),
                width,
                caption(index, len(publics) - 1) if caption else None,
            )
            for index in picked
        )
        data, extension = encode_animation(frames)
        if len(data) <= budget or width <= MIN_WIDTH:
            return data, extension
        width, limit = smaller(width, limit, len(publics), len(picked), len(data), budget)


def smaller(width: int, limit: int, positions: int, frames: int, size: int, budget: int) -> tuple[int, int]:
    """The width and frame limit to try next, after ``frames`` frames ``width`` wide came to ``size`` bytes.

    Each step is 3/4 of the width and 6/10 of the frames, as before; a step whose estimated
    size (``WIDTH_POWER``) is still over the budget is skipped without being drawn."""
    measured = width
    while True:
        width, limit = max(MIN_WIDTH, int(width * 0.75)), max(MIN_FRAMES, int(limit * 0.6))
        estimate = size * min(limit, positions) / frames * (width / measured) ** WIDTH_POWER
        if width <= MIN_WIDTH or estimate <= budget * FIT_MARGIN:
            return width, limit


def replay_frame(board: Image.Image, width: int, caption: str | None) -> Image.Image:
    """One frame: the board scaled to ``width``, under its caption band.

    The board is first halved by averaging (``reducing_gap=1``: Pillow's ``reduce``), then Lanczos
    does the rest: 2-3 ms a frame instead of 30 for Lanczos on the whole 1600x900 board, a mean
    difference of one level in 255."""
    height = round(board.height * width / board.width)
    frame = board.convert("RGB").resize((width, height), Image.Resampling.LANCZOS, reducing_gap=1.0)
    return label_frame(frame, caption) if caption else frame


BAND_COLOUR = (28, 30, 36)
BAND_TEXT = (255, 214, 102)


def label_frame(frame: Image.Image, text: str) -> Image.Image:
    """``frame`` under a dark band that reads ``text`` (the band is added above: it hides nothing)."""
    band = max(22, frame.height // 12)
    labelled = Image.new("RGB", (frame.width, frame.height + band), BAND_COLOUR)
    labelled.paste(frame, (0, band))
    fnt = fit_font(text, frame.width - band, int(band * 0.62), bold=True)
    put_text(ImageDraw.Draw(labelled), (band // 2, band // 2), text, font=fnt, fill=BAND_TEXT, anchor="lm")
    return labelled


class FrameSink(Protocol):
    """Takes the frames of one animation in order, then gives its bytes and file extension."""

    def add(self, frame: Image.Image) -> None: ...

    def finish(self) -> tuple[bytes, str]: ...


def encode_animation(frames: Iterable[Image.Image]) -> tuple[bytes, str]:
    """Encode the frames in order (each ``STEP_MS``, the last ``LAST_FRAME_MS``), one at a time."""
    sink = new_sink()
    count = 0
    for frame in frames:
        sink.add(frame)
        count += 1
        del frame  # the sink has it now: nothing here keeps it past the next one's drawing
    if not count:
        raise ValueError("an animation needs at least one frame")
    return sink.finish()


def new_sink() -> FrameSink:
    return WebPStream() if streaming_webp() else KeptFrames()


@cache
def streaming_webp() -> bool:
    """Whether Pillow's libwebp animation encoder is there and takes the arguments used here."""
    if not features.check("webp"):
        return False
    try:
        from PIL import _webp

        WebPStream.encoder(_webp, (2, 2))
    except (ImportError, AttributeError, TypeError):
        return False
    return True


class WebPStream:
    """An animated WebP encoded a frame at a time through ``PIL._webp.WebPAnimEncoder``.

    The calls are the ones ``PIL.WebPImagePlugin._save_all`` makes (Pillow 11-13): a frame is
    added with the time it starts at, and a last ``add(None, end)`` closes the animation."""

    def __init__(self) -> None:
        from PIL import _webp

        self._webp = _webp
        self._encoder: Any = None
        self._size: tuple[int, int] | None = None
        self._timestamp = 0

    @staticmethod
    def encoder(webp: Any, size: tuple[int, int]) -> Any:
        background = 0  # transparent black, Pillow's default
        return webp.WebPAnimEncoder(size, background, 0, False, 3, 5, False, False)  # loop for ever, kmin 3, kmax 5

    def add(self, frame: Image.Image) -> None:
        if self._encoder is None:
            self._size = frame.size
            self._encoder = self.encoder(self._webp, frame.size)
        elif frame.size != self._size:  # a board of another size: shown on the first one's canvas
            frame = frame.resize(self._size, Image.Resampling.LANCZOS)
        if frame.mode not in ("RGB", "RGBA", "RGBX"):
            frame = frame.convert("RGB")
        self._encoder.add(frame.getim(), self._timestamp, False, QUALITY, 100, METHOD)
        self._timestamp += STEP_MS

    def finish(self) -> tuple[bytes, str]:
        end = self._timestamp - STEP_MS + LAST_FRAME_MS
        self._encoder.add(None, end, False, QUALITY, 100, 0)
        data = self._encoder.assemble("", "", "")
        if data is None:
            raise OSError("the WebP encoder returned nothing")
        return bytes(data), "webp"


class KeptFrames:
    """Pillow's own ``save_all``, which needs every frame at once (WebP if it can, else GIF)."""

    def __init__(self) -> None:
        self.frames: list[Image.Image] = []
        self.webp = features.check("webp")

    def add(self, frame: Image.Image) -> None:
        # A GIF frame is kept as its 128 colours (1 byte a pixel rather than 3).
        self.frames.append(frame if self.webp else frame.quantize(colors=128, method=Image.Quantize.MEDIANCUT))

    def finish(self) -> tuple[bytes, str]:
        frames, out = self.frames, io.BytesIO()
        durations = [STEP_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
        if self.webp:
            frames[0].save(
                out,
                format="WEBP",
                save_all=True,
                append_images=frames[1:],
                duration=durations,
                loop=0,
                quality=QUALITY,
                method=METHOD,
            )
            return out.getvalue(), "webp"
        frames[0].save(
            out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False
        )
        return out.getvalue(), "gif"


def extension_of(data: bytes) -> str:
    """The file extension of an encoded replay, from its first bytes."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    raise ValueError("not a replay animation")
