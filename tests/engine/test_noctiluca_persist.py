"""Saving and loading Noctiluca: a damaged save is refused with a precise message."""

from __future__ import annotations

import copy
import json

import pytest

from tests.engine.test_noctiluca_content import G, started


def saved(players: int = 2) -> dict:
    return json.loads(json.dumps(started(players).to_dict()))


def test_a_save_loads_back_identically_at_every_stage() -> None:
    s = G.new(4, 3)
    for seat in range(4):
        d = s.pending["dealt"][seat]
        s.apply(seat, f"keep {d[0]} {d[2]}")
        assert G.load(s.to_dict()).to_dict() == s.to_dict()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d["spaces"][0].pop(), "dice do not add up"),
        (lambda d: d["piles"][0].append(d["piles"][1][0]), "each of the 30 jars"),
        (lambda d: d["stacks"]["gold"].pop(0), "gold tokens"),
        (lambda d: d["spaces"][0].append("x9"), "list of dice"),
        (lambda d: d.update(phase="nap"), "'phase' must be one of"),
        (lambda d: d.update(direction=-1), "'direction'"),
        (lambda d: d.pop("lid"), "missing key 'lid'"),
        (lambda d: d.update(storm={"tokens": [], "dice": [], "arrow": 0, "last": None}), "only a solo game"),
        (lambda d: d.update(favourites=["orange", "orange"]), "different noctiluca colour"),
    ],
)
def test_a_damaged_save_is_refused_precisely(damage, message: str) -> None:
    data = saved()
    broken = copy.deepcopy(data)
    damage(broken)
    with pytest.raises(ValueError, match=message):
        G.load(broken)
    assert G.load(data).to_dict() == data
