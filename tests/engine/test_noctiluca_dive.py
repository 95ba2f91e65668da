"""Noctiluca's dive, storing and passing, each test naming the rule it checks."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.noctiluca import content
from engine.noctiluca.content import SHORES
from tests.engine.test_noctiluca_content import (
    checked,
    clear_board,
    each_rules_version,  # noqa: F401  (the fixture)
    give_jars,
    jars_of,
    put,
    started,
)

SHORT = SHORES[0].paths["short"]
LONG = SHORES[0].paths["long"]

# The rules are the same under every rules version: each test runs under each (only the jars differ).
pytestmark = pytest.mark.usefixtures("each_rules_version")


def dive(s, seat: int, shore: int, path: str, number: int) -> list[dict]:
    events = s.apply(seat, f"shore {shore}")
    events += s.apply(seat, f"path {path}")
    return events + s.apply(seat, f"number {number}")


def test_a_pawn_goes_on_any_free_shore_but_not_a_taken_one() -> None:
    """Seed: put one of your pawns on any free shore at the edge of the pool."""
    s = started(2)
    me = s.current
    assert [a.text for a in s.legal_actions(me)] == [f"shore {i}" for i in range(1, 13)]
    s.apply(me, "shore 5")
    assert s.shores[4] == {"seat": me, "round": 1} and s.pawns[me] == 5
    s.apply(me, "path short")
    s.apply(me, "number 6")
    while s.phase != "shore":
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[-1])
    assert "shore 5" not in [a.text for a in s.legal_actions(s.current)]
    with pytest.raises(IllegalAction, match="free shore"):
        s.apply(s.current, "shore 5")


def test_the_dive_is_asked_in_three_small_steps() -> None:
    """Discord: the shore, then one of its two straight paths, then a number from 1 to 6."""
    s = started(2)
    me = s.current
    s.apply(me, "shore 1")
    assert [a.text for a in s.legal_actions(me)] == ["path short", "path long"]
    s.apply(me, "path long")
    assert [a.text for a in s.legal_actions(me)] == [f"number {n}" for n in range(1, 7)]
    assert s.view(None)["public"]["pending"] == {"shore": 1, "path": "long"}


def test_the_dive_takes_every_die_on_the_path_showing_the_number_whatever_its_colour() -> None:
    """Seed: take every die on that path showing the number named, whatever its colour."""
    s = started(2)
    me = s.current
    clear_board(s)
    put(s, SHORT[0], ["b3", "g3", "o1"])
    put(s, SHORT[2], ["p3", "b5"])
    put(s, LONG[1], ["o3"])  # on the other path: stays
    give_jars(s, me, [])
    give_jars(s, 1 - me, [])
    events = dive(s, me, 1, "short", 3)
    taken = next(e for e in events if e["type"] == "dive")["taken"]
    assert sorted(taken) == ["b3", "g3", "p3"]
    assert s.spaces[SHORT[0]] == ["o1"] and s.spaces[SHORT[2]] == ["b5"] and s.spaces[LONG[1]] == ["o3"]
    assert s.last_dive["taken"] == taken


def test_dice_are_stored_by_colour_only_and_stay_in_their_jar() -> None:
    """Seed: put the taken dice on empty slots of their colour on your jars; only the colour matters."""
    s = started(2)
    me = s.current
    clear_board(s)
    put(s, SHORT[0], ["o4", "o4"])
    jar = jars_of(s, "orange")
    give_jars(s, me, [jar])
    dive(s, me, 1, "short", 4)
    stored = [d for j in s.jars[me] for d in j["dice"] if d]
    assert stored == ["o4", "o4"]
    checked(s)


def test_a_die_that_fits_several_jars_lets_the_diver_choose_the_jar() -> None:
    """Seed: put the dice on empty slots of their colour on your jars (the owner picks which jar)."""
    s = started(2)
    me = s.current
    clear_board(s)
    put(s, SHORT[0], ["o2"])
    a, b = jars_of(s, "orange"), jars_of(s, "orange,blue")
    give_jars(s, me, [a, b])
    dive(s, me, 1, "short", 2)
    assert s.phase == "store" and s.to_move() == [me]
    assert sorted(x.text for x in s.legal_actions(me)) == sorted([f"store orange {a}", f"store orange {b}"])
    s.apply(me, f"store orange {b}")
    assert "o2" in s.jar(me, b)["dice"] and "o2" not in s.jar(me, a)["dice"]


def test_dice_the_diver_cannot_store_are_passed_to_the_next_player() -> None:
    """Seed: dice you cannot store must be passed to the next player in turn order."""
    s = started(3)
    me = s.current
    clear_board(s)
    put(s, SHORT[0], ["p5"])
    give_jars(s, me, [jars_of(s, "orange")])
    nxt = s.after(me)
    give_jars(s, nxt, [jars_of(s, "purple")])
    give_jars(s, s.after(me, 2), [jars_of(s, "orange,blue")])
    dive(s, me, 1, "short", 5)
    assert s.phase == "pass" and s.to_move() == [nxt]
    assert s.view(None)["public"]["pending"]["dice"] == [{"colour": "purple", "face": 5}]


def test_a_receiver_stores_at_most_one_die_and_passes_the_rest_on() -> None:
    """Seed: a player receiving dice may store one of them, then passes the rest to the next player."""
    s = started(3)
    me = s.current
    clear_board(s)
    put(s, SHORT[0], ["p5", "p5"])
    purple = jars_of(s, "purple")
    give_jars(s, me, [jars_of(s, "orange")])
    b, c = s.after(me), s.after(me, 2)
    give_jars(s, b, [purple])
    give_jars(s, c, [jars_of(s, "green,purple")])
    dive(s, me, 1, "short", 5)
    s.apply(b, f"store purple {purple}")
    assert sum(1 for d in s.jar(b, purple)["dice"] if d) == 1
    assert s.to_move() == [c]
    assert s.pending["dice"] == ["p5"]


def test_a_receiver_may_store_none() -> None:
    """Seed: a player receiving dice *may* store one of them."""
    s = started(2)
    me = s.current
    clear_board(s)
    put(s, SHORT[0], ["p5"])
    give_jars(s, me, [jars_of(s, "orange")])
    give_jars(s, 1 - me, [jars_of(s, "purple")])
    dive(s, me, 1, "short", 5)
    assert "store none" in [a.text for a in s.legal_actions(1 - me)]
    events = s.apply(1 - me, "store none")
    assert [e for e in events if e["type"] == "to lid"][0]["dice"] == ["p5"]
    assert s.lid["purple"] > 0 and s.phase == "shore"


def test_passing_goes_on_around_the_table_until_nothing_more_is_stored() -> None:
    """Seed: this goes on until every die that can be stored is stored; the rest go to the box lid."""
    s = started(2)
    me = s.current
    clear_board(s)
    purple = jars_of(s, "purple")
    slots = len(s.jar_cards[purple].slots)
    for i, d in enumerate(["p1"] * slots + ["g1"]):  # spread along the path, within each space's room
        put(s, SHORT[i % len(SHORT)], [d])
    give_jars(s, me, [jars_of(s, "orange")])
    give_jars(s, 1 - me, [purple])
    lid_before = s.lid["green"]
    dive(s, me, 1, "short", 1)
    for _ in range(slots):  # the same receiver is handed the rest again after each die it stores
        assert s.to_move() == [1 - me]
        s.apply(1 - me, f"store purple {purple}")
    # the purple jar is full and delivered; the green die fits nobody: box lid
    assert purple in s.delivered[1 - me]
    assert s.lid["green"] == lid_before + 1


def test_players_who_cannot_store_any_passed_die_are_skipped() -> None:
    """Seed: the rest are passed on to the next player in turn order (one who can store none just passes)."""
    s = started(4)
    me = s.current
    clear_board(s)
    put(s, SHORT[0], ["p2"])
    give_jars(s, me, [jars_of(s, "orange")])
    for k in (1, 2):
        give_jars(s, s.after(me, k), [])
    last = s.after(me, 3)
    give_jars(s, last, [jars_of(s, "purple")])
    dive(s, me, 1, "short", 2)
    assert s.to_move() == [last]


def test_dice_nobody_can_store_go_to_the_box_lid() -> None:
    """Seed: dice that cannot be stored go to the box lid."""
    s = started(2)
    me = s.current
    clear_board(s)
    put(s, SHORT[0], ["b6", "b6"])
    give_jars(s, me, [jars_of(s, "orange")])
    give_jars(s, 1 - me, [jars_of(s, "purple")])
    blue = s.lid["blue"]
    events = dive(s, me, 1, "short", 6)
    assert any(e["type"] == "to lid" for e in events)
    assert s.lid["blue"] == blue + 2 and s.phase == "shore" and s.current == s.after(me)
    checked(s)


def test_no_dive_step_offers_more_than_25_choices() -> None:
    """Engine contract: no step offers more than 25 choices."""
    import random

    from engine import GAMES

    for players in (1, 2, 3, 4):
        s = GAMES["noctiluca"].new(players, players)
        rng = random.Random(players)
        while s.outcome() is None:
            seat = rng.choice(s.to_move())
            actions = s.legal_actions(seat)
            assert len(actions) <= 25
            s.apply(seat, rng.choice(actions))


def test_stored_dice_match_their_slot_colour() -> None:
    """Seed: only the colour of a die matters on a jar."""
    s = started(2)
    me = s.current
    clear_board(s)
    jar = jars_of(s, "orange,blue")
    put(s, SHORT[0], ["b4", "o4", "g4"])
    give_jars(s, me, [jar])
    give_jars(s, 1 - me, [])
    dive(s, me, 1, "short", 4)
    slots = s.jar_cards[jar].slots
    for colour, d in zip(slots, s.jar(me, jar)["dice"], strict=True):
        assert d is None or content.die_colour(d) == colour


def test_in_round_2_dice_are_passed_the_other_way_round() -> None:
    """Seed: play goes the other way round in round 2 (so does passing to the next player in turn order)."""
    s = started(3)
    while s.round == 1:
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    me = s.current
    clear_board(s)
    put(s, SHORT[0], ["p5"])
    give_jars(s, me, [jars_of(s, "orange")])
    give_jars(s, (me + 1) % 3, [jars_of(s, "purple")])
    give_jars(s, (me - 1) % 3, [jars_of(s, "green,purple")])
    assert s.shores[0] is None  # pawns came back at the end of round 1
    dive(s, me, 1, "short", 5)
    assert s.to_move() == [(me - 1) % 3]
