"""Noctiluca's deliveries, new jars, rounds and the end of the game, each test naming its rule."""

from __future__ import annotations

import pytest

from engine.noctiluca import content
from engine.noctiluca.content import SHORES, SPACES
from tests.engine.test_noctiluca_content import (
    checked,
    clear_board,
    each_rules_version,  # noqa: F401  (the fixture)
    give_jars,
    jars_of,
    put,
    started,
)
from tests.engine.test_noctiluca_dive import dive

SHORT = SHORES[0].paths["short"]

# The rules are the same under every rules version: each test runs under each (only the jars differ).
pytestmark = pytest.mark.usefixtures("each_rules_version")


def nearly_full(s, jar_id: str, missing: str) -> list[str]:
    """Dice filling every slot of the jar but one of colour ``missing``."""
    slots = list(s.jar_cards[jar_id].slots)
    slots.remove(missing)
    return [content.die(c, 1) for c in slots]


def test_a_full_jar_is_delivered_for_the_top_token_of_its_colour() -> None:
    """Seed: its dice go to the box lid, the owner takes the top score token of the jar's colour
    and keeps the jar face down."""
    s = started(2)
    me = s.current
    clear_board(s)
    jar = jars_of(s, "orange")
    give_jars(s, me, [jar], {jar: nearly_full(s, jar, "orange")})
    put(s, SHORT[0], ["o6"])
    colour = s.jar_cards[jar].colour
    lid = s.lid["orange"]
    events = dive(s, me, 1, "short", 6)
    delivered = next(e for e in events if e["type"] == "delivered")
    assert delivered["token"] == {"colour": colour, "value": 2}
    assert s.tokens[me] == [[colour, 2]] and s.stacks[colour][0] == 2 and len(s.stacks[colour]) == 9
    assert jar in s.delivered[me] and jar not in [j["id"] for j in s.jars[me]]
    assert s.lid["orange"] == lid + len(s.jar_cards[jar].slots)
    checked(s)


def test_a_new_jar_comes_from_the_pile_of_the_owners_choice() -> None:
    """Seed: then take the top jar of any one of the 4 piles."""
    s = started(2)
    me = s.current
    clear_board(s)
    jar = jars_of(s, "orange")
    give_jars(s, me, [jar], {jar: nearly_full(s, jar, "orange")})
    put(s, SHORT[0], ["o6"])
    dive(s, me, 1, "short", 6)
    assert s.phase == "pile" and s.to_move() == [me]
    assert [a.text for a in s.legal_actions(me)] == ["pile 1", "pile 2", "pile 3", "pile 4"]
    top = s.piles[2][0]
    s.apply(me, "pile 3")
    assert top in [j["id"] for j in s.jars[me]] and s.phase == "shore"


def test_an_empty_pile_is_not_refilled() -> None:
    """Seed: a pile that runs out during the game is not refilled."""
    s = started(2)
    me = s.current
    clear_board(s)
    jar = jars_of(s, "orange")
    give_jars(s, me, [jar], {jar: nearly_full(s, jar, "orange")})
    s.deck += s.piles[1]
    s.piles[1] = []
    s.discard, s.deck = s.deck, []
    put(s, SHORT[0], ["o6"])
    dive(s, me, 1, "short", 6)
    assert "pile 2" not in [a.text for a in s.legal_actions(me)]


def test_several_full_jars_are_delivered_one_at_a_time_in_the_owners_order() -> None:
    """Seed: with several full jars, deliver them one at a time in the order of your choice."""
    s = started(2)
    me = s.current
    clear_board(s)
    a, b = jars_of(s, "orange"), jars_of(s, "purple")
    give_jars(s, me, [a, b], {a: nearly_full(s, a, "orange"), b: nearly_full(s, b, "purple")})
    put(s, SHORT[0], ["o3", "p3"])
    dive(s, me, 1, "short", 3)
    assert s.phase == "deliver"
    assert sorted(x.text for x in s.legal_actions(me)) == sorted([f"deliver {a}", f"deliver {b}"])
    s.apply(me, f"deliver {b}")
    assert s.delivered[me] == [b] and s.phase == "pile"
    s.apply(me, "pile 1")
    # the other full jar follows, then its new jar
    assert s.delivered[me] == [b, a] and s.phase == "pile"


def test_a_jar_filled_by_passed_dice_is_delivered_in_turn_order_from_the_current_player() -> None:
    """Seed: a jar filled during another player's turn is delivered at once, the same way; several
    such players deliver in turn order from the current player."""
    s = started(3)
    me = s.current
    b, c = s.after(me), s.after(me, 2)
    clear_board(s)
    pb, pc = jars_of(s, "purple"), jars_of(s, "orange")
    mine = jars_of(s, "green,purple")
    give_jars(s, me, [mine])
    give_jars(s, b, [pb], {pb: nearly_full(s, pb, "purple")})
    give_jars(s, c, [pc], {pc: nearly_full(s, pc, "orange")})
    put(s, SHORT[0], ["p4", "o4", "p4", "p4", "p4", "p4"])
    dive(s, me, 1, "short", 4)
    # the diver's jar takes purple dice; the rest are passed
    while s.phase == "store":
        s.apply(me, s.legal_actions(me)[0])
    order = []
    while s.phase == "pass":
        seat = s.to_move()[0]
        choice = [a for a in s.legal_actions(seat) if a.text != "store none"]
        s.apply(seat, choice[0])
    while s.phase in ("pile", "deliver"):
        seat = s.to_move()[0]
        order.append(seat)
        s.apply(seat, s.legal_actions(seat)[0])
    assert order == [b, c]
    assert pb in s.delivered[b] and pc in s.delivered[c]


def test_no_token_is_taken_when_the_stack_is_empty() -> None:
    s = started(2)
    me = s.current
    clear_board(s)
    jar = jars_of(s, "orange")
    colour = s.jar_cards[jar].colour
    give_jars(s, me, [jar], {jar: nearly_full(s, jar, "orange")})
    s.tokens[1 - me] = [[colour, v] for v in s.stacks[colour]]
    s.stacks[colour] = []
    put(s, SHORT[0], ["o6"])
    events = dive(s, me, 1, "short", 6)
    assert next(e for e in events if e["type"] == "delivered")["token"] is None
    checked(s)


# -- rounds ------------------------------------------------------------------------------------
def play_round(s) -> None:
    """Everyone dives at shore after shore, always the first choice, until the round changes."""
    start = s.round
    while s.round == start and s.phase != "over":
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[0])


def test_round_2_refills_the_pool_from_the_box_lid_and_gives_pawns_back() -> None:
    """Seed: when all pawns are placed the round ends: pawns back and shared out again, all dice off
    the board and the board refilled as in setup from the dice in the box lid."""
    s = started(2)
    play_round(s)
    assert s.round == 2 and s.pawns == [6, 6] and s.shores == [None] * 12
    assert [len(s.spaces[sp.id]) for sp in SPACES] == [sp.capacity for sp in SPACES]
    checked(s)


def test_a_short_refill_spreads_the_dice_as_evenly_as_possible() -> None:
    """Seed: when too few dice are left, fill as far as possible, spreading them as evenly as possible at random."""
    from engine.noctiluca.setup import fill_board

    s = started(2)
    clear_board(s)
    s.lid = {"orange": 10, "green": 10, "purple": 5, "blue": 5}
    event = fill_board(s, 2)
    counts = sorted(len(sp) for sp in s.spaces)
    assert sum(counts) == 30 and counts[0] == 1 and counts[-1] == 2
    assert event["short"] == 84 - 30


def test_the_marker_goes_to_whoever_placed_the_last_pawn_and_play_turns_the_other_way() -> None:
    """Seed: the marker flips to "2" and goes to whoever placed the last pawn of round 1, who starts
    round 2; play goes the other way round."""
    s = started(3)
    first = s.current
    last = s.after(first, 2)  # 12 pawns, 3 players: the 12th pawn is the third player's
    play_round(s)
    assert s.first == s.current == last and s.direction == -1
    me = s.current
    s.apply(me, s.legal_actions(me)[0])
    s.apply(me, "path short")
    s.apply(me, "number 1")
    while s.phase != "shore":
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    assert s.current == (me - 1) % 3


def test_the_game_ends_after_round_2_with_an_outcome() -> None:
    """Seed: the game ends after round 2."""
    s = started(4)
    play_round(s)
    assert s.outcome() is None and s.round == 2
    play_round(s)
    outcome = s.outcome()
    assert outcome is not None and s.to_move() == []
    assert len(outcome.scores) == 4 and outcome.winners
