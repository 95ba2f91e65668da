"""Vivarium: the public board and a seat's secret contracts, drawn from ``view(seat)``.

``icons`` draws the symbols, ``cards`` one grid card, ``board`` the whole board and the hand.
"""

from __future__ import annotations

from render.common import GameRenderer
from render.vivarium.board_picture import draw_board, draw_hand

GAME_ID = "vivarium"
BOARD_BUDGET = 500_000
HAND_BUDGET = 300_000

RENDERER = GameRenderer(GAME_ID, board=draw_board, hand=draw_hand, board_budget=BOARD_BUDGET, hand_budget=HAND_BUDGET)
