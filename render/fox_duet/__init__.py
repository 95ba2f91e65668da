"""The Fox in the Forest Duet: the public board and a seat's hand, drawn from ``view(seat)``.

The shape of the view is in docs/fox-duet-view.md. ``icons`` draws the suit symbols, gems, paws,
forest tokens and the fox tracker with Pillow shapes (painted large and shrunk, then cached);
``cards`` one face-up card; ``board`` the public board; ``hand`` a seat's hand.
"""

from __future__ import annotations

from render.common import GameRenderer
from render.fox_duet.board_picture import draw_board, status_runs
from render.fox_duet.card_pictures import ABILITIES, ability_name, ability_reminder, card_image, card_key, paste_card
from render.fox_duet.hand import draw_hand, hand_layout
from render.fox_duet.icons import SUITS, SuitStyle, icon, suit_label, suit_style

GAME_ID = "fox-duet"
BOARD_BUDGET = 400_000
HAND_BUDGET = 300_000

RENDERER = GameRenderer(
    game_id=GAME_ID,
    board=draw_board,
    hand=draw_hand,
    board_budget=BOARD_BUDGET,
    hand_budget=HAND_BUDGET,
)

__all__ = [
    "ABILITIES",
    "BOARD_BUDGET",
    "GAME_ID",
    "HAND_BUDGET",
    "RENDERER",
    "SUITS",
    "SuitStyle",
    "ability_name",
    "ability_reminder",
    "card_image",
    "card_key",
    "draw_board",
    "draw_hand",
    "hand_layout",
    "icon",
    "paste_card",
    "status_runs",
    "suit_label",
    "suit_style",
]
