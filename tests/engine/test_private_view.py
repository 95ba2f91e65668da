"""``State.private_view(seat)`` is ``view(seat)["private"]``, for every game, at every step of a game."""

from __future__ import annotations

import random

import pytest

from engine import GAMES


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_private_view_is_the_views_private_part_at_every_step(key: str) -> None:
    game = GAMES[key]
    players = max(game.min_players, 2) if game.max_players >= 2 else game.min_players
    state = game.new(players, 3)
    rng = random.Random(3)
    steps = 0
    while state.outcome() is None and steps < 150:
        for seat in range(state.players):
            assert state.private_view(seat) == state.view(seat)["private"]
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
    for bad in (-1, state.players, None, "0"):
        with pytest.raises(ValueError):
            state.private_view(bad)  # type: ignore[arg-type]
