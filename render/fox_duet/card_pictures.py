"""Fox Duet cards: one face-up card sprite (rank, suit, footprints, ability), cached by size."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from l10n import t
from render.common import fitted, font, put_text, supersampled
from render.fox_duet.icons import SUITS, icon, suit_style

CARD_FACE = (252, 248, 236)
CARD_BACK = (52, 96, 70)

ABILITIES = ("musician", "fox", "gazelle", "gift", "royal")


def ability_name(ability: str, locale: str) -> str:
    """An ability's name in ``locale`` (the bot's word for it, shown on the card's band)."""
    return t(f"fox-duet.ability.{ability}", locale) if ability in ABILITIES else ability.title()


def ability_reminder(ability: str, locale: str) -> str:
    """The one-line reminder under a card in the hand; empty for an unknown ability."""
    return t(f"fox-duet.render.reminder.{ability}", locale) if ability in ABILITIES else ""


def card_key(card: Mapping[str, Any]) -> tuple[str, int, int, str]:
    return (
        str(card.get("suit")),
        int(card.get("rank", 0)),
        int(card.get("footprints", 0)),
        str(card.get("ability") or ""),
    )


@lru_cache(maxsize=192)
def card_image(key: tuple[str, int, int, str], w: int, h: int, locale: str = "en") -> Image.Image:
    """One face-up card: rank, suit symbol, footprints and the ability's name (odd ranks) in ``locale``."""
    suit, rank, footprints, ability = key
    st = suit_style(suit)
    card = Image.new("RGBA", (w, h), (0, 0, 0, 0))

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        r = 0.08 * w * s
        draw.rounded_rectangle(
            (0, 0, w * s - 1, h * s - 1), r, fill=CARD_FACE, outline=st.main, width=round(0.04 * w * s)
        )
        if ability:
            band_top = 0.83 * h * s
            draw.rounded_rectangle((0, band_top, w * s - 1, h * s - 1), r, fill=st.main)
            draw.rectangle((0, band_top, w * s - 1, band_top + r), fill=st.main)
            name = ability_name(ability, locale).upper()
            text, fnt = fitted(name, 0.86 * w * s, round(0.125 * w * s), bold=True)
            put_text(draw, (w * s / 2, (band_top + h * s) / 2), text, font=fnt, fill=CARD_FACE, anchor="mm")
        put_text(
            draw,
            (0.10 * w * s, 0.03 * h * s),
            str(rank),
            font=font(round(0.34 * w * s), bold=True),
            fill=st.dark,
            anchor="lt",
        )

    face = supersampled((w, h), paint)
    card.alpha_composite(face)
    small = round(0.24 * w)
    card.alpha_composite(
        icon(suit, small) if suit in SUITS else Image.new("RGBA", (small, small)),
        (w - small - round(0.08 * w), round(0.05 * h)),
    )
    big = round(0.50 * w)
    if suit in SUITS:
        card.alpha_composite(icon(suit, big), ((w - big) // 2, round(0.47 * h - big / 2)))
    paw = round(0.17 * w)
    paw_y = round((0.755 if ability else 0.83) * h - paw / 2)
    count = max(0, footprints)
    if count == 0:
        # No footprints: a faint paw with a bold zero, so it reads "0 steps", not "missing".
        zero = font(round(0.17 * w), bold=True)
        total = paw + 4 + zero.getlength("0")
        x = round((w - total) / 2)
        card.alpha_composite(icon("paw", paw, "faint"), (x, paw_y))
        put_text(ImageDraw.Draw(card), (x + paw + 4, paw_y + paw / 2), "0", font=zero, fill=(92, 58, 30), anchor="lm")
    else:
        gap = round(0.03 * w)
        total = count * paw + (count - 1) * gap
        for i in range(count):
            card.alpha_composite(icon("paw", paw), ((w - total) // 2 + i * (paw + gap), paw_y))
    return card


def paste_card(
    image: Image.Image, card: Mapping[str, Any], xy: tuple[int, int], size: tuple[int, int], locale: str = "en"
) -> None:
    key = card_key(card)
    # Only an ability's band carries a word: even cards share one sprite in every language.
    sprite = card_image(key, *size, locale if key[3] else "")
    image.paste(sprite, xy, sprite)
