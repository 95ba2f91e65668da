"""Noctiluca's solo mode against the storm, each test naming the rule it checks."""

from __future__ import annotations

import pytest

from engine.noctiluca import content
from engine.noctiluca.content import SECTIONS, SHORES
from engine.noctiluca.scoring import score
from tests.engine.test_noctiluca_content import (
    checked,
    clear_board,
    each_rules_version,  # noqa: F401  (the fixture)
    give_jars,
    jars_of,
    put,
    started,
)
from tests.engine.test_noctiluca_delivery import nearly_full
from tests.engine.test_noctiluca_dive import dive

SHORT = SHORES[0].paths["short"]

# The rules are the same under every rules version: each test runs under each (only the jars differ).
pytestmark = pytest.mark.usefixtures("each_rules_version")


def solo():
    """A solo game after the jar choice, with no jar in front of the player (nothing to store)."""
    s = started(1, seed=11)
    give_jars(s, 0, [])
    return s


def test_solo_dice_you_would_pass_go_to_the_storm() -> None:
    """Seed (solo): dice you would pass go to the storm instead; each costs a point at the end."""
    s = solo()
    clear_board(s)
    give_jars(s, 0, [jars_of(s, "orange")])
    put(s, SHORT[0], ["b2", "g2", "o2"])
    events = dive(s, 0, 1, "short", 2)
    assert sorted(s.storm["dice"]) == ["b2", "g2"]
    assert sorted(next(e for e in events if e["type"] == "to storm")["dice"]) == ["b2", "g2"]
    assert score(s)["details"][0]["storm dice"] == -2
    checked(s)


def test_solo_a_new_jar_is_one_of_two_drawn_the_other_to_the_bottom() -> None:
    """Seed (solo): whenever you take a new jar, draw 2 and keep 1, the other to the bottom of the deck."""
    s = solo()
    clear_board(s)
    jar = jars_of(s, "orange")
    give_jars(s, 0, [jar], {jar: nearly_full(s, jar, "orange")})
    put(s, SHORT[0], ["o6"])
    top2 = s.deck[:2]
    dive(s, 0, 1, "short", 6)
    assert s.phase == "draw" and s.view(0)["private"]["offer"] == top2
    assert top2[0] not in str(s.view(None)["public"])
    s.apply(0, f"take {top2[1]}")
    assert top2[1] in [j["id"] for j in s.jars[0]]
    assert s.deck[-1] == top2[0]
    checked(s)


def test_the_storm_discards_the_top_jar_and_puts_its_token_in_the_storm() -> None:
    """Seed (solo): (1) discard the top jar card and put the top score token of its colour into the storm."""
    s = solo()
    top = s.deck[0]
    colour = s.jar_cards[top].colour
    value = s.stacks[colour][0]
    events = dive(s, 0, 1, "short", 1)
    while s.phase != "shore":
        s.apply(0, s.legal_actions(0)[0])
    discard = next(e for e in events if e["type"] == "storm discard")
    assert discard["jar"] == top and s.discard == [top]
    assert s.storm["tokens"] == [[colour, value]] and discard["token"] == {"colour": colour, "value": value}


def test_the_black_die_clears_the_space_with_its_number_in_the_arrows_section() -> None:
    """Seed (solo): (2) roll the black die and remove all dice from the space with that number in the
    section the arrow points at."""
    s = solo()
    assert SECTIONS[s.storm["arrow"]] == "purple"
    events = dive(s, 0, 1, "short", 1)
    roll = next(e for e in events if e["type"] == "storm roll")
    assert roll["section"] == "purple"
    space = content.section_spaces("purple")[roll["roll"]]
    assert roll["space"] == space and s.spaces[space] == []
    checked(s)


def test_the_storm_arrow_turns_one_way_in_round_1_and_the_other_in_round_2() -> None:
    """Seed (solo): (3) turn the arrow to the next section; in round 2 the arrow turns the other way."""
    s = solo()
    arrows = []
    while s.round == 1:
        if s.phase == "shore":
            arrows.append(s.storm["arrow"])
        s.apply(0, s.legal_actions(0)[0])
    assert arrows == [0, 1, 2, 0, 1, 2]
    assert s.storm["arrow"] == 0
    arrows = []
    while s.phase != "over" and len(arrows) < 3:
        if s.phase == "shore":
            arrows.append(s.storm["arrow"])
        s.apply(0, s.legal_actions(0)[0])
    assert arrows == [0, 2, 1]


def test_round_1_pawns_stay_and_block_their_shores_in_round_2() -> None:
    """Seed (solo): round 1's pawns stay on the board in round 2 and block their shores; the other 6 pawns
    are used in round 2."""
    s = solo()
    while s.round == 1:
        s.apply(0, s.legal_actions(0)[0])
    taken = [i + 1 for i, p in enumerate(s.shores) if p is not None]
    assert len(taken) == 6 and s.pawns == [6]
    free = [int(a.args[0]) for a in s.legal_actions(0)]
    assert not set(free) & set(taken) and len(free) == 6


def test_solo_majorities_are_against_the_storm_and_its_tokens_cost_points() -> None:
    """Seed (solo): majorities are decided between you and the storm; where the storm has the majority
    it takes the remaining tokens at 1 point each; subtract the storm's token values."""
    s = solo()
    s.storm["tokens"] = [["red", s.stacks["red"].pop(0)], ["red", s.stacks["red"].pop(0)]]  # 2 + 2
    s.tokens[0] = [["gold", s.stacks["gold"].pop(0)]]
    detail = score(s)["details"][0]
    # the storm holds the red majority: the 8 other reds go to it at 1 point each
    assert detail["storm tokens"] == -(2 + 2 + 8)
    assert detail["majorities"] == 9  # the gold majority is the player's


def test_solo_is_won_with_1_point_or_more() -> None:
    """Seed (solo): a final score of 1 or more wins."""
    s = solo()
    s.tokens[0] = [["gold", s.stacks["gold"].pop(0)]]
    result = score(s)
    assert result["scores"][0] >= 1 and result["winners"] == [0]
    s.storm["dice"] = ["o1"] * 40
    result = score(s)
    assert result["scores"][0] < 1 and result["winners"] == []


def test_solo_a_tie_with_the_storm_splits_the_remaining_tokens() -> None:
    """Seed (solo): majorities are decided as with several players: a tie splits the remaining
    tokens equally, the remainder discarded."""
    s = solo()
    s.storm["tokens"] = [["brown", s.stacks["brown"].pop(0)]]
    s.tokens[0] = [["brown", s.stacks["brown"].pop(0)]]
    result = score(s)
    assert result["majorities"]["brown"] == {"0": 4, "storm": 4}  # 8 left: 4 each
    assert result["details"][0]["majorities"] == 4
    assert result["details"][0]["storm tokens"] == -(2 + 4)
