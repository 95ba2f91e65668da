"""The tests' fifth game (tests/fifth_game/) follows the engine contract like the shipped games:
the conformance suite's checks at every step of random games, and its determinization."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import engine
from tests.engine.test_conformance import play
from tests.fifth_game.engine import GAME_ID, TinyDuel


@pytest.fixture
def tiny_duel() -> Iterator[None]:
    engine.register(TinyDuel())
    try:
        yield
    finally:
        engine.unregister(GAME_ID)


@pytest.mark.parametrize("seed", range(20))
def test_random_games_keep_every_promise_of_the_contract(tiny_duel, seed: int) -> None:
    log, state = play(GAME_ID, 2, {}, seed, True)
    assert len(log) == 6 and sum(state.outcome().scores) == 3
    replay = engine.GAMES[GAME_ID].new(2, seed)
    for seat, text in log:
        replay.apply(seat, text)
    assert replay.to_dict() == state.to_dict()


def test_a_determinization_keeps_the_seats_view_and_redraws_the_other_hand(tiny_duel) -> None:
    state = engine.GAMES[GAME_ID].new(2, 7)
    state.apply(state.to_move()[0], state.legal_actions(state.to_move()[0])[0])
    for seed in range(10):
        world = state.determinize(0, seed)
        assert world.view(0) == state.view(0)
        assert world.legal_actions(0) == state.legal_actions(0)
        unseen = set(range(1, 10)) - set(state.hands[0]) - set(state.played)
        assert set(world.hands[1]) <= unseen and len(world.hands[1]) == len(state.hands[1])
