"""The Fox Duet hand image: a seat's cards with ability reminders, the decree and its gift pick."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.fox_duet import FoxDuetPrivate, FoxDuetPublic
from l10n import t
from render.common import (
    Color,
    Palette,
    backdrop,
    draw_centred,
    draw_runs,
    fit_runs,
    fitted,
    fitted_lines,
    font,
    paste_sprite,
    put_text,
    seat_name,
    shadowed_box,
    wrap,
)
from render.fox_duet.board_picture import BOARD_CARD, HEADER, MARGIN, PANEL_RADIUS, H, W, title
from render.fox_duet.card_pictures import ability_reminder, paste_card
from render.fox_duet.icons import SUITS, icon, suit_label, suit_style

HAND_AREA = (MARGIN, 140, 1290, H - 28)
HAND_REF_PANEL = (1310, 140, W - MARGIN, H - 28)
# Only two card sizes are ever drawn (this and BOARD_CARD), so the card sprite cache stays small.
HAND_CARD_BIG, HAND_BIG_MAX, HAND_ONE_ROW_MAX = (228, 322), 5, 6
HAND_CARD_GAP, HAND_REMINDER_H = 16, 62
REF_CARD = BOARD_CARD
TRUMP_W = 460  # the widest the header's trump may grow before it shrinks


def hand_layout(n: int) -> tuple[int, int, int, int]:
    """Columns, rows and card size for ``n`` cards: big cards for a short hand, else two rows."""
    cw, ch = HAND_CARD_BIG if n <= HAND_BIG_MAX else BOARD_CARD
    rows = 1 if n <= HAND_ONE_ROW_MAX else 2
    return max(1, math.ceil(n / rows)), rows, cw, ch


def draw_hand(
    public: FoxDuetPublic, private: FoxDuetPrivate, names: Sequence[str], seat: int, *, locale: str = "en"
) -> Image.Image:
    """Draw a seat's hand with ability reminders, its gift pick and the decree for reference, in ``locale``."""
    image = backdrop((W, H))
    hand = list(private.get("hand") or [])
    shadowed_box(image, HEADER, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = HEADER
    draw.rounded_rectangle((x0 + 14, y0 + 16, x0 + 24, y1 - 16), radius=5, fill=Palette.ACCENT)
    # Read as the drawer always has, defensively: a view without its decree card shows none.
    shown: Mapping[str, Any] = public
    decree = shown.get("decree") or {}
    suit = str(decree.get("suit"))
    st = suit_style(suit)
    trump, tf = fitted(t("fox-duet.render.trump", locale, suit=suit_label(suit, locale)), TRUMP_W, 38, True, 24)
    trump_w = tf.getlength(trump) + (72 if suit in SUITS else 0)
    put_text(draw, (x1 - 24, (y0 + y1) / 2), trump, font=tf, fill=st.bright, anchor="rm")
    if suit in SUITS:
        paste_sprite(image, icon(suit, 52), (x1 - 24 - tf.getlength(trump) - 36, (y0 + y1) / 2))
    room = x1 - x0 - 44 - 24 - trump_w - 24
    count = " · " + t("fox-duet.render.hand-count", locale, count=len(hand))
    name = t("fox-duet.render.hand-title", locale, name=seat_name(names, seat, locale=locale))
    # Two lines on baselines, so a font with deep descenders (CJK) keeps them apart.
    runs, nf = fit_runs([(name, Palette.TEXT), (count, Palette.TEXT_MUTED)], room, 40, True, 22)
    draw_runs(draw, (x0 + 44, y0 + 52), runs, nf, anchor_v="s")
    sub: list[tuple[str, Color]] = []
    if public.get("phase") != "over" and seat in (public.get("to_move") or []):
        sub.append((t("fox-duet.render.your-turn", locale) + " · ", Palette.ACCENT))
    progress = t("fox-duet.render.progress", locale, round=public.get("round", 1), trick=public.get("trick", 1))
    sub.append((f"{progress} · {t('fox-duet.render.private', locale)}", Palette.TEXT_MUTED))
    sub_runs, sf = fit_runs(sub, room, 22, True, 14)
    draw_runs(draw, (x0 + 44, y0 + 84), sub_runs, sf, anchor_v="s")

    ax0, ay0, ax1, ay1 = HAND_AREA
    shadowed_box(image, HAND_AREA, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    if not hand:
        draw_centred(
            draw, (ax0 + 24, ay0, ax1 - 24, ay1 - 40), t("fox-duet.render.no-cards", locale), 56, Palette.TEXT, True
        )
        nothing = t("fox-duet.render.nothing-to-play", locale)
        draw_centred(draw, (ax0 + 24, ay0 + 90, ax1 - 24, ay1), nothing, 28, Palette.TEXT_MUTED)
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
            paste_card(image, card, (round(x), round(y)), (cw, ch), locale)
            reminder = ability_reminder(str(card.get("ability") or ""), locale)
            if reminder:
                colour = suit_style(str(card.get("suit"))).bright
                draw_reminder(draw, reminder, (x + cw / 2, y + ch + 20), cw + HAND_CARD_GAP - 6, colour)

    shadowed_box(image, HAND_REF_PANEL, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    rx0, ry0, rx1, _ = HAND_REF_PANEL
    rw, rh = REF_CARD
    cx = (rx0 + rx1) / 2
    title(draw, HAND_REF_PANEL, t("fox-duet.render.decree", locale))
    if decree:
        paste_card(image, decree, (round(cx - rw / 2), ry0 + 56), REF_CARD, locale)
    gift = private.get("gift")
    if gift or public.get("phase") == "gift":
        gy = ry0 + 56 + rh + 30
        pick, pf = fitted(t("fox-duet.render.gift-pick", locale), rx1 - rx0 - 48, 24, True, 14)
        put_text(draw, (rx0 + 24, gy + 10), pick, font=pf, fill=Palette.TEXT_MUTED, anchor="lm")
        if gift:
            paste_card(image, gift, (round(cx - rw / 2), gy + 36), REF_CARD, locale)
        else:
            lines = wrap(t("fox-duet.render.not-chosen", locale), font(24), rx1 - rx0 - 48, 2)
            for k, line in enumerate(lines):
                put_text(draw, (rx0 + 24, gy + 52 + k * 30), line, font=font(24), fill=Palette.TEXT_MUTED, anchor="lm")
    return image


def draw_reminder(draw: ImageDraw.ImageDraw, text: str, top: tuple[float, float], width: float, colour: Color) -> None:
    """An ability's reminder under its card: two lines at most, a size smaller if it would be cut."""
    lines, fnt, _ = fitted_lines(text, width, 2, 19, True, 12)
    size = round(fnt.size)
    x, y = top
    for k, line in enumerate(lines):
        put_text(draw, (x, y + k * (size + 5)), line, font=fnt, fill=colour, anchor="mm")
