"""The conformance checks of ENGINE.md run on tm-dice while it is not yet registered.

Uses the project's own helpers (``play``, ``check_step``) with fewer seeds than the full suite.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import GAMES, IllegalAction, Outcome
from engine.tm_dice import TMDice
from tests.engine.test_conformance import GARBAGE, play

GAME = TMDice()
SEEDS = {1: 4, 2: 3, 3: 2, 4: 2}


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(GAMES, GAME.id, GAME)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_play_finishes_with_every_check(players: int) -> None:
    for seed in range(SEEDS[players]):
        log, state = play(GAME.id, players, {}, seed, full_checks=seed == 0)
        outcome = state.outcome()
        assert isinstance(outcome, Outcome)
        assert len(outcome.scores) == players and len(outcome.details) == players
        replay = GAME.new(players, seed)
        for seat, text in log:
            replay.apply(seat, text)
        assert replay.to_dict() == state.to_dict()


def test_every_step_offers_at_most_25_choices() -> None:
    for players in (1, 2, 4):
        state = GAME.new(players, 11)
        rng = random.Random(11)
        while state.outcome() is None:
            seat = rng.choice(state.to_move())
            actions = state.legal_actions(seat)
            assert 1 <= len(actions) <= 25
            state.apply(seat, rng.choice(actions))


def test_metadata_and_bad_setup() -> None:
    assert GAME.min_players == 1 and GAME.max_players == 4
    for bad in (0, 5, "2", True):
        with pytest.raises(ValueError):
            GAME.new(bad, 1)
    with pytest.raises(ValueError):
        GAME.new(2, 1, {"no-such-option": 1})
    with pytest.raises(ValueError):
        GAME.load({"game": "fox-duet"})


def test_same_seed_same_game_whatever_the_global_random() -> None:
    random.seed(1)
    a = GAME.new(2, 42).to_dict()
    random.seed(2)
    b = GAME.new(2, 42).to_dict()
    assert a == b
    assert GAME.new(2, 43).to_dict() != a


def test_refused_action_leaves_state_unchanged() -> None:
    state = GAME.new(2, 7)
    before = state.to_dict()
    for text in GARBAGE:
        with pytest.raises(IllegalAction) as info:
            state.apply(state.to_move()[0], text)
        assert str(info.value)
    assert state.to_dict() == before


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
