"""``State.determinize(seat, seed)`` for every game, player count and option.

A determinization is a copy in which everything ``seat`` cannot see is drawn again. The checks
that hold for every game live here; each game's own test file checks that the hidden things
are a valid arrangement of the real ones (the same cards, only shuffled where unseen) and the
constraints play has revealed (a suit a player could not follow, a card seen passing).
"""

from __future__ import annotations

import json
import random

import pytest

from engine import GAMES, State
from tests.engine.test_conformance import cases, ids

SEEDS = 6
MAX_STEPS = 5000
CHECKPOINTS = (0, 3, 11, 29, 60, 140)


def dump(state: State) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def texts(state: State, seat: int) -> list[str]:
    return [a.text for a in state.legal_actions(seat)]


def positions(game: str, players: int, options: dict, seed: int):
    """States met along a random game, at a few checkpoints."""
    rng = random.Random(seed)
    state = GAMES[game].new(players, seed, options)
    for step in range(max(CHECKPOINTS) + 1):
        if state.outcome() is not None:
            return
        if step in CHECKPOINTS:
            yield state
        movers = state.to_move()
        seat = rng.choice(movers)
        actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in ("resign", "concede")]
        state.apply(seat, rng.choice(actions or state.legal_actions(seat)))


def play_out(state: State, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if state.outcome() is not None:
            return
        seat = rng.choice(state.to_move())
        actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in ("resign", "concede")]
        state.apply(seat, rng.choice(actions or state.legal_actions(seat)))
    raise AssertionError("the determinized copy did not reach an outcome")


@pytest.mark.parametrize("case", cases(), ids=ids)
def test_a_determinization_keeps_the_seats_view_and_choices_and_plays_on(case) -> None:
    game, players, options = case
    for seed in range(SEEDS):
        for state in positions(game, players, options, seed):
            before = dump(state)
            for seat in range(players):
                copy = state.determinize(seat, seed * 31 + seat)
                assert dump(state) == before, "the real state is untouched"
                assert copy is not state
                assert copy.view(seat) == state.view(seat), f"seat {seat} sees exactly the same"
                assert copy.view(None) == state.view(None), "the public view is the same"
                assert copy.to_move() == state.to_move()
                assert texts(copy, seat) == texts(state, seat), "the same choices"
                assert copy.version == state.version
                again = state.determinize(seat, seed * 31 + seat)
                assert dump(again) == dump(copy), "the same seed draws the same copy"
                # It depends only on what the seat sees: a copy (the same view, other hidden
                # things) determinized with the same seed gives the same copy.
                assert dump(copy.determinize(seat, seed * 31 + seat)) == dump(copy), "depends only on the view"
                loaded = GAMES[game].load(copy.to_dict())
                assert dump(loaded) == dump(copy), "the copy saves and loads like any state"
            play_out(state.determinize(seed % players, seed), seed)


def test_a_bad_seat_is_refused() -> None:
    state = GAMES["vivarium"].new(2, 1, {})
    for seat in (-1, 2, "0", None):
        with pytest.raises(ValueError):
            state.determinize(seat, 1)  # type: ignore[arg-type]
