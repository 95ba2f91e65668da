"""Noctiluca's setup for 2 to 4 players and solo, each test naming the rule it checks."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine import IllegalAction
from engine.noctiluca import content
from engine.noctiluca.content import SPACES
from tests.engine.test_noctiluca_content import G, checked


def test_dice_of_random_colours_and_faces_fill_every_space() -> None:
    """Seed: mix the dice and place them randomly on the board: 4 on each inner space, 5 on each outer."""
    a, b = G.new(3, 1), G.new(3, 2)
    for s in (a, b):
        assert [len(s.spaces[sp.id]) for sp in SPACES] == [sp.capacity for sp in SPACES]
        on_board = Counter(content.die_colour(d) for sp in s.spaces for d in sp)
        assert all(on_board[c] + s.lid[c] == 26 for c in content.DICE_COLOURS)
    assert a.spaces != b.spaces
    event = a.setup_events[0]
    assert event["type"] == "board filled" and event["visible_to"] is None and event["spaces"] == a.spaces


@pytest.mark.parametrize(("players", "each"), [(2, 6), (3, 4), (4, 3), (1, 6)])
def test_the_12_pawns_are_shared_out_evenly(players: int, each: int) -> None:
    """Seed: divide the 12 pawns equally (4 players: 3 each); solo: take only 6 pawns."""
    assert G.new(players, 5).pawns == [each] * players


def test_each_player_has_a_secret_favourite_of_a_different_colour() -> None:
    """Seed: deal one favourite card to each player, who looks at it secretly."""
    s = G.new(4, 9)
    favourites = [s.view(seat)["private"]["favourite"]["colour"] for seat in range(4)]
    assert sorted(favourites) == sorted(content.DICE_COLOURS)
    public = json.dumps(s.view(None))
    assert "favourite-" not in public
    dealt = [e for e in s.setup_events if e["type"] == "favourite dealt"]
    assert [e["visible_to"] for e in dealt] == [[0], [1], [2], [3]]


def test_three_jars_are_dealt_and_two_kept_in_secret_then_revealed_together() -> None:
    """Seed: deal three jar cards to each player; each chooses two to keep, face down; once all have
    chosen, turn them face up and shuffle the set-aside cards into the rest."""
    s = G.new(2, 4)
    assert s.to_move() == [0, 1]
    dealt0, dealt1 = s.pending["dealt"]
    assert len(s.legal_actions(0)) == 3
    events = s.apply(0, f"keep {dealt0[0]} {dealt0[2]}")
    public = [e for e in events if e["visible_to"] is None]
    assert all(dealt0[0] not in json.dumps(e) for e in public)
    assert dealt0[0] not in json.dumps(s.view(None)) and dealt0[0] not in json.dumps(s.view(1))
    assert s.to_move() == [1] and s.jars[0] == []
    events = s.apply(1, f"keep {dealt1[1]} {dealt1[2]}")
    revealed = next(e for e in events if e["type"] == "jars revealed")
    assert revealed["visible_to"] is None and revealed["kept"] == [[dealt0[0], dealt0[2]], [dealt1[1], dealt1[2]]]
    assert [j["id"] for j in s.jars[0]] == [dealt0[0], dealt0[2]]
    in_piles = [j for p in s.piles for j in p]
    assert dealt0[1] in in_piles and dealt1[0] in in_piles
    checked(s)


def test_the_other_jars_form_4_face_up_piles_as_even_as_possible() -> None:
    """Seed: divide the jar cards as evenly as possible into four face-up piles; only the top card shows."""
    s = G.new(3, 2)
    for seat in range(3):
        d = s.pending["dealt"][seat]
        s.apply(seat, f"keep {d[0]} {d[1]}")
    assert sorted(len(p) for p in s.piles) == [6, 6, 6, 6]
    s = G.new(2, 2)
    for seat in range(2):
        d = s.pending["dealt"][seat]
        s.apply(seat, f"keep {d[0]} {d[1]}")
    assert sorted(len(p) for p in s.piles) == [6, 6, 7, 7]
    tops = [p["top"]["id"] for p in s.view(None)["public"]["piles"]]
    assert tops == [p[0] for p in s.piles]


def test_solo_keeps_the_jars_in_one_face_down_deck() -> None:
    """Seed (solo): instead of piles, shuffle all the jar cards into one face-down deck."""
    s = G.new(1, 3)
    d = s.pending["dealt"][0]
    s.apply(0, f"keep {d[0]} {d[1]}")
    assert s.piles == [] and len(s.deck) == 28
    public = s.view(None)["public"]
    assert public["deck_size"] == 28 and public["piles"] == []
    assert not any(j in json.dumps(public) for j in s.deck)


def test_a_player_cannot_keep_jars_they_were_not_dealt() -> None:
    s = G.new(2, 4)
    other = s.pending["dealt"][1]
    with pytest.raises(IllegalAction):
        s.apply(0, f"keep {other[0]} {other[1]}")


def test_the_first_player_is_drawn_at_random_and_announced() -> None:
    """Seed: the youngest player starts (the bot cannot know ages: chance decides, in an event)."""
    firsts = {G.new(4, seed).first for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    s = G.new(4, 8)
    event = next(e for e in s.setup_events if e["type"] == "first player")
    assert event["seat"] == s.first == s.current
