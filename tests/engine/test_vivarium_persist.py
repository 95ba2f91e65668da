"""Vivarium: saving and loading, damaged saves refused precisely, content files validated."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine import GAMES
from engine.content import ContentError, check
from engine.vivarium import content
from engine.vivarium.content import CONTRACTS_SCHEMA, EQUIPMENT_SCHEMA, _check_ability, _check_goal

GAME = GAMES["vivarium"]


def played(players: int, steps: int, seed: int = 1):
    state = GAME.new(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_load_continues_exactly_as_the_original(players):
    state = played(players, 40)
    copy_ = GAME.load(json.loads(json.dumps(state.to_dict())))
    rng = random.Random(9)
    while state.outcome() is None:
        seat = state.to_move()[0]
        action = rng.choice(state.legal_actions(seat))
        assert state.apply(seat, action) == copy_.apply(seat, str(action))
        assert state.to_dict() == copy_.to_dict()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_finished_game_loads_with_its_outcome(players):
    state = played(players, 0)
    rng = random.Random(players)
    while state.outcome() is None:
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    loaded = GAME.load(json.loads(json.dumps(state.to_dict())))
    assert loaded.to_dict() == state.to_dict()
    assert loaded.outcome() == state.outcome() and loaded.to_move() == []


def damaged(players: int, change) -> dict:
    data = copy.deepcopy(played(players, 7).to_dict())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("grid"), "missing key 'grid'"),
        (lambda d: d.update(extra=1), "unexpected key 'extra'"),
        (lambda d: d["grid"].__setitem__(0, "nothing"), "'grid'"),
        (lambda d: d["discard"].append(d["decks"]["creature"][0]), "exactly once"),
        (lambda d: d["tokens"][0].pop(), "2 chain tokens"),
        (lambda d: d.update(facedown="t9"), "facedown"),
        (lambda d: d.update(gems=[1, -1, 1]), "'gems'"),
        (lambda d: d.update(round=9), "'round'"),
        (lambda d: d.update(turn=6), "while the game runs"),
        (lambda d: d.update(phase="dancing"), "'phase'"),
        (lambda d: d["starting"][0].__setitem__(1, d["starting"][0][0]), "one habitat and one type"),
        (lambda d: d.update(priority_current=d["priority_next"]), "priority tokens"),
        (lambda d: d.update(result={"scores": [1, 2, 3], "winners": [1], "details": []}), "'result'"),
    ],
)
def test_a_damaged_save_is_refused_with_a_precise_message(change, message):
    with pytest.raises(ValueError, match=message):
        GAME.load(damaged(3, change))


def test_the_two_player_face_down_token_is_required():
    data = copy.deepcopy(played(2, 3).to_dict())
    data["facedown"] = None
    with pytest.raises(ValueError, match="facedown"):
        GAME.load(data)


def test_shipped_content_matches_the_component_list():
    """48 creatures, 16 equipment (4 per icon), 21 contracts, 4+4 starting, 9 chain and 9 priority tokens."""
    assert len(content.CREATURES) == 48 and len(content.EQUIPMENT) == 16 and len(content.CONTRACTS) == 21
    assert len(content.STARTING) == 8 and len(content.CHAIN) == 9 and len(content.PRIORITY) == 9
    dots = sorted(t.dots for t in content.CHAIN.values())
    assert dots.count(4) == 2 and dots.count(3) == 1


def test_content_schema_refuses_bad_cards():
    with pytest.raises(ContentError):
        check(
            {
                "icons": [],
                "equipment": [{"id": "x", "name": "x", "icon": "sword", "gems": 1, "ability": {"kind": "swap-again"}}],
            },
            EQUIPMENT_SCHEMA,
        )
    with pytest.raises(ContentError):
        check(
            {"contracts": [{"id": "c", "name": "c", "goal": {"kind": "most"}}], "starting_contracts": []},
            CONTRACTS_SCHEMA,
        )
    with pytest.raises(ContentError, match="takes exactly"):
        _check_goal("here", {"kind": "count", "filter": {"type": "animal"}})
    with pytest.raises(ContentError, match="rise"):
        _check_goal("here", {"kind": "count", "filter": {"type": "animal"}, "tiers": [[5, 4], [3, 8]]})
    with pytest.raises(ContentError, match="one type or one habitat"):
        _check_ability("here", {"kind": "counts-as", "filter": {"icon": "lamp"}})
