"""Checks of tm-dice beyond the shared conformance suite (tests/engine/test_conformance.py).

Discord shows at most 25 choices per step, and a damaged save names what is wrong.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.tm_dice import TMDice

GAME = TMDice()


def test_every_step_offers_at_most_25_choices() -> None:
    for players in (1, 2, 4):
        state = GAME.new(players, 11)
        rng = random.Random(11)
        while state.outcome() is None:
            seat = rng.choice(state.to_move())
            actions = state.legal_actions(seat)
            assert 1 <= len(actions) <= 25
            state.apply(seat, rng.choice(actions))


def test_damaged_saves_are_refused_precisely() -> None:
    data = json.loads(json.dumps(GAME.new(2, 5).to_dict()))
    broken = dict(data, pool={**data["pool"], "red": 3})
    with pytest.raises(ValueError, match="red dice"):
        GAME.load(broken)
    with pytest.raises(ValueError, match="missing key"):
        GAME.load({k: v for k, v in data.items() if k != "deck"})
    with pytest.raises(ValueError, match="each project card"):
        GAME.load(dict(data, deck=data["deck"][1:]))
    with pytest.raises(ValueError, match="wild tokens"):
        GAME.load(dict(data, wild_supply=0))
