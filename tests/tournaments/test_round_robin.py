"""Round robin: everyone meets everyone exactly once; one bye a round when odd."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.round_robin import round_count, schedule


def test_five_players_play_five_rounds_each_resting_once() -> None:
    rounds = schedule([1, 2, 3, 4, 5])
    assert len(rounds) == 5 == round_count(5)
    byes = [t[0] for tables in rounds for t in tables if len(t) == 1]
    assert sorted(byes) == [1, 2, 3, 4, 5]
    pairs = Counter(frozenset(t) for tables in rounds for t in tables if len(t) == 2)
    assert set(pairs) == {frozenset(p) for p in itertools.combinations([1, 2, 3, 4, 5], 2)}
    assert set(pairs.values()) == {1}


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.integers(1, 10**9), min_size=2, max_size=30, unique=True))
def test_every_pair_meets_exactly_once_and_everyone_plays_every_round(entrants: list[int]) -> None:
    rounds = schedule(entrants)
    assert len(rounds) == round_count(len(entrants))
    for tables in rounds:
        seated = [p for t in tables for p in t]
        assert sorted(seated) == sorted(entrants), "everyone seated once per round"
        assert sum(len(t) == 1 for t in tables) == len(entrants) % 2, "a bye only when the count is odd"
    met = Counter(frozenset(t) for tables in rounds for t in tables if len(t) == 2)
    assert len(met) == len(entrants) * (len(entrants) - 1) // 2 and set(met.values()) == {1}
    first = Counter(t[0] for tables in rounds for t in tables if len(t) == 2)
    assert max(first.values()) - min(first.values(), default=0) <= len(rounds) // 2 + 1


def test_an_entrant_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        schedule([1, 2, 2])
