"""The Fox Duet hand image: a seat's cards with ability reminders, the decree and its gift pick."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    Color,
    Palette,
    backdrop,
    draw_centred,
    draw_runs,
    fitted,
    font,
    panel_title,
    paste_sprite,
    seat_name,
    shadowed_box,
    wrap,
)
from render.fox_duet.board import BOARD_CARD, HEADER, MARGIN, PANEL_RADIUS, H, W
from render.fox_duet.cards import ABILITIES, paste_card
from render.fox_duet.icons import SUITS, icon, suit_style

HAND_AREA = (MARGIN, 140, 1290, H - 28)
HAND_REF_PANEL = (1310, 140, W - MARGIN, H - 28)
# Only two card sizes are ever drawn (this and BOARD_CARD), so the card sprite cache stays small.
HAND_CARD_BIG, HAND_BIG_MAX, HAND_ONE_ROW_MAX = (228, 322), 5, 6
HAND_CARD_GAP, HAND_REMINDER_H = 16, 62
REF_CARD = BOARD_CARD


def hand_layout(n: int) -> tuple[int, int, int, int]:
    """Columns, rows and card size for ``n`` cards: big cards for a short hand, else two rows."""
    cw, ch = HAND_CARD_BIG if n <= HAND_BIG_MAX else BOARD_CARD
    rows = 1 if n <= HAND_ONE_ROW_MAX else 2
    return max(1, math.ceil(n / rows)), rows, cw, ch


def draw_hand(
    public: Mapping[str, Any], private: Mapping[str, Any], names: Sequence[str], seat: int, *, locale: str = "en"
) -> Image.Image:
    """Draw a seat's hand with ability reminders, its gift pick and the decree for reference."""
    image = backdrop((W, H)).copy()
    hand = list(private.get("hand") or [])
    shadowed_box(image, HEADER, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = HEADER
    draw.rounded_rectangle((x0 + 14, y0 + 16, x0 + 24, y1 - 16), radius=5, fill=Palette.ACCENT)
    count = f" · {len(hand)} card{'s' if len(hand) != 1 else ''}"
    name, nf = fitted(f"{seat_name(names, seat)}'s hand", 760, 46, True, 26)
    draw_runs(draw, (x0 + 44, y0 + 40), [(name, Palette.TEXT), (count, Palette.TEXT_MUTED)], nf)
    sub: list[tuple[str, Color]] = []
    if public.get("phase") != "over" and seat in (public.get("to_move") or []):
        sub.append(("YOUR TURN · ", Palette.ACCENT))
    sub.append((f"Round {public.get('round', 1)}/3 · Trick {public.get('trick', 1)}/11 · private", Palette.TEXT_MUTED))
    draw_runs(draw, (x0 + 44, y0 + 78), sub, font(22, True))
    decree = public.get("decree") or {}
    st = suit_style(str(decree.get("suit")))
    trump = f"Trump: {st.label}"
    tf = font(38, True)
    draw.text((x1 - 24, (y0 + y1) / 2), trump, font=tf, fill=st.bright, anchor="rm")
    if decree.get("suit") in SUITS:
        paste_sprite(image, icon(str(decree["suit"]), 52), (x1 - 24 - tf.getlength(trump) - 36, (y0 + y1) / 2))

    ax0, ay0, ax1, ay1 = HAND_AREA
    shadowed_box(image, HAND_AREA, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    if not hand:
        draw_centred(draw, (ax0, ay0, ax1, ay1 - 40), "No cards in hand", 56, Palette.TEXT, bold=True)
        draw_centred(draw, (ax0, ay0 + 90, ax1, ay1), "Nothing to play until the next deal", 28, Palette.TEXT_MUTED)
    else:
        cols, rows, cw, ch = hand_layout(len(hand))
        row_h = ch + HAND_REMINDER_H
        block_h = rows * row_h + (rows - 1) * 24
        top = ay0 + (ay1 - ay0 - block_h) / 2
        for i, card in enumerate(hand):
            r, c = divmod(i, cols)
            in_row = min(cols, len(hand) - r * cols)
            row_w = in_row * cw + (in_row - 1) * HAND_CARD_GAP
            x = ax0 + (ax1 - ax0 - row_w) / 2 + c * (cw + HAND_CARD_GAP)
            y = top + r * (row_h + 24)
            paste_card(image, card, (round(x), round(y)), (cw, ch))
            ability = card.get("ability")
            if ability:
                reminder = ABILITIES.get(ability, ("", ""))[1]
                fnt = font(19, True)
                colour = suit_style(str(card.get("suit"))).bright
                for k, line in enumerate(wrap(reminder, fnt, cw + HAND_CARD_GAP - 6, 2)):
                    draw.text((x + cw / 2, y + ch + 20 + k * 24), line, font=fnt, fill=colour, anchor="mm")

    shadowed_box(image, HAND_REF_PANEL, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    rx0, ry0, rx1, _ = HAND_REF_PANEL
    rw, rh = REF_CARD
    cx = (rx0 + rx1) / 2
    panel_title(draw, HAND_REF_PANEL, "DECREE")
    if decree:
        paste_card(image, decree, (round(cx - rw / 2), ry0 + 56), REF_CARD)
    gift = private.get("gift")
    if gift or public.get("phase") == "gift":
        gy = ry0 + 56 + rh + 30
        draw.text((rx0 + 24, gy + 10), "YOUR GIFT PICK", font=font(24, True), fill=Palette.TEXT_MUTED, anchor="lm")
        if gift:
            paste_card(image, gift, (round(cx - rw / 2), gy + 36), REF_CARD)
        else:
            draw.text((rx0 + 24, gy + 52), "not chosen yet", font=font(24), fill=Palette.TEXT_MUTED, anchor="lm")
    return image
