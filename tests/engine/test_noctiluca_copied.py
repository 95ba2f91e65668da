"""Noctiluca's determinization copies the state without loading it again (persist.copied): the
copy must be exactly what ``load(to_dict())`` gives, and every determinization a valid save."""

from __future__ import annotations

import random

from engine import GAMES
from engine.noctiluca.persist import copied


def positions(players: int, seed: int):
    rng = random.Random(seed)
    state = GAMES["noctiluca"].new(players, seed, {})
    while True:
        yield state
        if state.outcome() is not None:
            return
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_a_copy_is_the_state_loaded_again_and_shares_nothing_with_it() -> None:
    for players in (1, 2, 4):
        for state in positions(players, players):
            copy = copied(state)
            again = GAMES["noctiluca"].load(state.to_dict())
            assert copy.to_dict() == again.to_dict() == state.to_dict()
            assert vars(copy).keys() == vars(again).keys()
            assert copy.rules_version == state.rules_version and copy.version == state.version
            for seat in range(players):
                assert copy.view(seat) == state.view(seat)
            if state.outcome() is None:
                seat = copy.to_move()[0]
                copy.apply(seat, copy.legal_actions(seat)[0])
                assert state.to_dict() == again.to_dict(), "playing on the copy leaves the state alone"


def test_every_determinization_is_a_valid_save() -> None:
    for players in (1, 3):
        for index, state in enumerate(positions(players, 10 + players)):
            for seat in range(players):
                world = state.determinize(seat, index)
                assert GAMES["noctiluca"].load(world.to_dict()).to_dict() == world.to_dict()
