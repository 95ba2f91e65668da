"""Backgrounds made from a column made once: a board drawn on one never changes the next board."""

from __future__ import annotations

import random

import pytest

import render
from engine import GAMES
from render.common import backdrop, backdrop_rgba, gradient, vertical_gradient


def positions(key: str, players: int, moves: int) -> list:
    game = GAMES[key]
    state = game.new(players, 1)
    rng = random.Random(1)
    seen = [game.load(state.to_dict())]
    for _ in range(moves):
        seat = rng.choice(state.to_move())
        legal = [a for a in state.legal_actions(seat) if game.action_kind(a) not in ("concede", "resign")]
        state.apply(seat, rng.choice(legal))
        seen.append(game.load(state.to_dict()))
    return seen


@pytest.mark.parametrize("key, players", [("tm-dice", 2), ("vivarium", 3)])
def test_a_board_and_hand_drawn_again_are_the_same_after_others_were_drawn(key: str, players: int) -> None:
    names = ["🦊Zoë", "林小明", "Ana"][:players]
    first, *others = positions(key, players, 6)
    board = render.render_board(key, first.view(None), names, "zh-TW")
    hand = render.render_hand(key, first.view(0), names, 0, "zh-TW")
    for state in others:  # each drawn on a copy of the shared background
        render.render_board(key, state.view(None), names, "zh-TW")
        render.render_hand(key, state.view(0), names, 0, "zh-TW")
    assert render.render_board(key, first.view(None), names, "zh-TW") == board
    assert render.render_hand(key, first.view(0), names, 0, "zh-TW") == hand


def test_backgrounds_are_the_gradients_they_replace_and_new_every_time() -> None:
    top, bottom = (48, 20, 14), (10, 20, 30)
    first = gradient((300, 200), top, bottom)
    for y in (0, 57, 199):
        expected = tuple(round(t + (b - t) * y / 199) for t, b in zip(top, bottom, strict=True))
        assert first.getpixel((0, y)) == first.getpixel((299, y)) == expected
    first.paste((255, 0, 0), (0, 0, 50, 50))  # a renderer draws on it
    again = gradient((300, 200), top, bottom)
    assert again is not first
    assert again.tobytes() == vertical_gradient((300, 200), top, bottom).tobytes() != first.tobytes()
    assert backdrop_rgba((300, 200)).mode == "RGBA"
    assert backdrop_rgba((300, 200)).convert("RGB").tobytes() == backdrop((300, 200)).tobytes()
