"""Tiny Duel's pictures, and its How to play pages beside the layout constants they point at."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from l10n import t
from render.common import Box, GameRenderer, Palette, backdrop, draw_centred, seat_name, shadowed_box
from render.scenes import BOARD, Public, Scene, at_start
from tests.fifth_game.engine import GAME_ID

W, H = 1600, 900
SEAT_PANELS: tuple[Box, Box] = ((40, 40, 780, 260), (820, 40, 1560, 260))  # names and tricks won
TRICK_PANEL: Box = (300, 300, 1300, 860)  # the trick under way
CARD = (200, 300)
CARD_SLOTS: tuple[Box, Box] = ((420, 420, 620, 720), (980, 420, 1180, 720))
HAND_W, HAND_H = 900, 420
CARD_FILL = (246, 236, 210)


def _card(draw: ImageDraw.ImageDraw, box: Box, value: int | None) -> None:
    draw.rounded_rectangle(
        box, radius=18, fill=CARD_FILL if value else Palette.PANEL_DARK, outline=Palette.ACCENT, width=5
    )
    if value:
        draw_centred(draw, box, str(value), 150, Palette.TEXT_DARK, bold=True)


def board(public: Mapping[str, Any], names: Sequence[str], *, locale: str = "en", phone: bool = True) -> Image.Image:
    """The two seats with their tricks, and the trick under way; drawn from the public view only."""
    image = backdrop((W, H))
    draw = ImageDraw.Draw(image)
    for seat, panel in enumerate(SEAT_PANELS):
        shadowed_box(image, panel, 22, Palette.PANEL, Palette.PANEL_EDGE)
        x0, y0, x1, y1 = panel
        draw_centred(
            draw, (x0, y0 + 10, x1, y0 + 110), seat_name(names, seat, 18, locale=locale), 64, Palette.TEXT, True
        )
        tricks = t("tiny-duel.render.tricks", locale, count=public["tricks"][seat])
        draw_centred(draw, (x0, y0 + 120, x1, y1 - 10), tricks, 56, Palette.TEXT_MUTED, True)
    shadowed_box(image, TRICK_PANEL, 22, Palette.PANEL, Palette.PANEL_EDGE)
    heading = t("tiny-duel.render.trick", locale, number=public["trick_number"])
    draw_centred(
        draw,
        (TRICK_PANEL[0], TRICK_PANEL[1] + 20, TRICK_PANEL[2], TRICK_PANEL[1] + 100),
        heading,
        60,
        Palette.TEXT,
        True,
    )
    played = {play["seat"]: int(play["card"][1:]) for play in public["trick"]}
    for seat, slot in enumerate(CARD_SLOTS):
        _card(draw, slot, played.get(seat))
    return image


def hand(
    public: Mapping[str, Any], private: Mapping[str, Any], names: Sequence[str], seat: int, *, locale: str = "en"
) -> Image.Image:
    """The seat's cards, large."""
    image = backdrop((HAND_W, HAND_H))
    draw = ImageDraw.Draw(image)
    draw_centred(draw, (0, 10, HAND_W, 90), t("tiny-duel.render.hand", locale), 56, Palette.TEXT, True)
    for i, card in enumerate(private["hand"]):
        x = 60 + i * (CARD[0] + 60)
        _card(draw, (x, 100, x + CARD[0], 100 + CARD[1]), card["value"])
    return image


def trick_started(public: Public) -> bool:
    return len(public.get("trick", [])) == 1


# How to play: the goal (the seats' tricks), a trick, the end; in the board's pixels above.
SCENES = (
    Scene("goal", BOARD, SEAT_PANELS, at_start),
    Scene("trick", TRICK_PANEL, CARD_SLOTS, trick_started),
    Scene("end", (0, 0, W, 300), SEAT_PANELS, None),
)

RENDERER = GameRenderer(GAME_ID, board=board, hand=hand, board_budget=400_000, hand_budget=300_000)
