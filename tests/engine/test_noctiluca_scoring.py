"""Noctiluca's final scoring, each test naming the rule it checks."""

from __future__ import annotations

import pytest

from engine.noctiluca.scoring import majorities, score
from tests.engine.test_noctiluca_content import (
    each_rules_version,  # noqa: F401  (the fixture)
    give_jars,
    jars_of,
    started,
)

# The rules are the same under every rules version: each test runs under each (only the jars differ).
pytestmark = pytest.mark.usefixtures("each_rules_version")


def take_tokens(s, seat: int, colour: str, count: int) -> None:
    for _ in range(count):
        s.tokens[seat].append([colour, s.stacks[colour].pop(0)])


def test_the_seeds_majority_example() -> None:
    """Seed: Bruna and Carla have three red tokens each and Alan one: Bruna and Carla each take one
    red token face down, and the last red token is discarded."""
    taken = majorities({"alan": 1, "bruna": 3, "carla": 3}, remaining=10 - 7)
    assert taken == {"alan": 0, "bruna": 1, "carla": 1}


def test_a_single_majority_takes_every_remaining_token_at_1_point() -> None:
    """Seed: whoever has the most tokens of a colour (count, not value) takes all the remaining
    tokens of that colour on their 1-point side."""
    s = started(3)
    take_tokens(s, 0, "gold", 1)  # worth 2
    take_tokens(s, 1, "gold", 2)  # worth 2 + 3: more tokens, whatever their value
    result = score(s)
    assert result["majorities"]["gold"] == {"0": 0, "1": 7, "2": 0}
    assert result["details"][1]["majorities"] == 7 and result["details"][0]["majorities"] == 0


def test_nobody_takes_a_colour_nobody_holds() -> None:
    s = started(2)
    assert score(s)["majorities"]["red"] == {"0": 0, "1": 0}


def test_every_part_of_the_final_score() -> None:
    """Seed: (2) the values of all tokens held, (3) the points printed on delivered jars, (4) 1 point
    per slot of your favourite colour on delivered jars, (5) 1 point per 2 dice on undelivered jars."""
    s = started(2)
    a = jars_of(s, "orange")  # 3 orange slots
    b = jars_of(s, "orange,blue")
    s.favourites = ["orange", "green"]
    give_jars(s, 0, [b], {b: ["b1", "b2", "o5"]})
    for p in s.piles:
        if a in p:
            p.remove(a)
    s.delivered[0] = [a]
    take_tokens(s, 0, "gold", 1)
    take_tokens(s, 1, "red", 1)
    detail = score(s)["details"][0]
    assert detail["tokens"] == 2
    assert detail["jar points"] == s.jar_cards[a].points
    assert detail["favourite"] == sum(1 for c in s.jar_cards[a].slots if c == "orange")
    assert detail["leftovers"] == 1  # 3 dice on an undelivered jar: 1 point per 2
    assert detail["majorities"] == 9  # the only gold token holder takes the other 9
    assert detail["total"] == 2 + s.jar_cards[a].points + 3 + 1 + 9


def test_a_tie_goes_to_the_player_with_more_delivered_jars() -> None:
    """Seed: on a tie, the tied player who delivered the most jars wins."""
    s = started(2)
    s.favourites = ["green", "blue"]
    jar = jars_of(s, "orange")  # 0 points, no green or blue slot: the totals stay 0 and 0
    assert s.jar_cards[jar].points == 0
    for p in s.piles:
        if jar in p:
            p.remove(jar)
    s.delivered[0] = [jar]
    result = score(s)
    assert result["scores"] == [0, 0] and result["winners"] == [0]


def test_a_tie_with_as_many_delivered_jars_is_a_shared_win() -> None:
    """Seed: if still tied, the tied players share the victory."""
    s = started(3)
    result = score(s)
    assert result["scores"] == [0, 0, 0] and result["winners"] == [0, 1, 2]
