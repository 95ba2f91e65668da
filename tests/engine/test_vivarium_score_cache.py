"""engine.vivarium.scoring.score is cached for speed (the computer players score the same
collections thousands of times a decision): the cache must never change a score or share it."""

from __future__ import annotations

import random

from engine import GAMES
from engine.vivarium import scoring
from engine.vivarium.rounds import final_details


def finished(seed: int):
    state = GAMES["vivarium"].new(3, seed, {})
    rng = random.Random(seed)
    while state.outcome() is None:
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_a_cached_score_is_the_uncached_count_and_a_fresh_dict_each_call() -> None:
    for seed in range(3):
        state = finished(seed)
        for seat in range(state.players):
            args = (state.collections[seat], state.gems[seat], state.priority_won[seat], state.starting[seat])
            uncached = scoring._score.__wrapped__(*(tuple(a) if isinstance(a, list) else a for a in args))
            first = scoring.score(*args)
            assert first == uncached
            first["total"] = -1  # a caller changing its copy changes nobody else's
            assert scoring.score(*args) == uncached
        assert [d["total"] for d in final_details(state)] == list(state.outcome().scores)


def test_a_saved_state_copies_its_nested_data() -> None:
    """persist's plain copy (faster than deepcopy): the saved dict shares nothing mutable."""
    state = finished(7)
    saved = state.to_dict()
    saved["setup_events"][0]["type"] = "changed"
    saved["result"]["details"][0]["total"] = -1
    saved["collections"][0].append("x")
    assert state.setup_events[0]["type"] != "changed"
    assert state.result["details"][0]["total"] != -1
    assert "x" not in state.collections[0]
    loaded = GAMES["vivarium"].load(state.to_dict())
    assert loaded.to_dict() == state.to_dict()
