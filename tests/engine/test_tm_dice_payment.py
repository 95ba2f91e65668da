"""Terraforming Mars: The Dice Game: paying a cost in one step, with a proposed payment.

Rules: the seed's "playing a card" (pay the resources shown, return the dice to the pool, a wild
token stands for any resource) and docs/rules/tm-dice.md "Paying" (the proposal and its order).
"""

from __future__ import annotations

from collections import Counter
from random import Random

from engine import IllegalAction
from engine.tm_dice import dice
from engine.tm_dice.content import ALL_FACES
from tests.engine.test_tm_dice_rules import GAME, actions, give, hand, position, run, start_pool, step, table, wild


def paying(s) -> dict:
    task = s.queue[-1]
    assert task["kind"] == "pay"
    return task


def test_the_proposal_spends_dice_first_and_wild_tokens_only_for_what_is_missing() -> None:
    """Paying: the proposal keeps the wild tokens, which pay for any resource later."""
    s = position(2)
    give(s, 0, "heat", "heat", "heat", "money")
    wild(s, 0, 2)
    step(s, "main")
    run(s, 0, "raise-temperature")
    offered = actions(s)
    assert offered[0] == "pay wild=none"
    assert s.view(0)["public"]["step"]["proposal"] == "pay wild=none"
    run(s, 0, offered[0])
    assert s.seats[0]["dice"] == {"money": 1} and s.seats[0]["wild"] == 2 and s.temperature == 1


def test_a_payment_with_no_choice_is_made_at_once() -> None:
    """Paying: with only one way to pay (no wild tokens, or exactly the dice needed), nothing is asked."""
    s = position(2)
    give(s, 0, "heat", "heat")
    wild(s, 0, 1)
    step(s, "main")
    events = run(s, 0, "raise-temperature")
    paid = [e for e in events if e["type"] == "paid"]
    assert paid == [paid[0]] and paid[0]["faces"] == {"heat": 2} and paid[0]["wild"] == 1
    assert s.seats[0]["wild"] == 0 and s.wild_supply == 23 and s.temperature == 1


def test_the_player_may_pay_with_wild_tokens_instead_and_keep_the_dice() -> None:
    """Paying: every way to pay is offered; wild tokens may replace dice the player would rather keep."""
    s = position(2)
    give(s, 0, "heat", "heat", "heat")
    wild(s, 0, 2)
    step(s, "main")
    run(s, 0, "raise-temperature")
    assert sorted(actions(s)) == ["pay wild=heat:1", "pay wild=heat:2", "pay wild=none"]
    events = run(s, 0, "pay wild=heat:2")
    assert s.seats[0]["dice"] == {"heat": 2} and s.seats[0]["wild"] == 0 and s.wild_supply == 23
    assert s.pool["red"] == start_pool(s, "red") - 3 + 1
    assert [e for e in events if e["type"] == "paid"][0] == {
        "type": "paid",
        "visible_to": None,
        "seat": 0,
        "faces": {"heat": 1},
        "wild": 2,
    }


def test_alternatives_keep_the_dice_that_still_pay_for_a_general_action_first() -> None:
    """Paying: among payments spending as many wild tokens, the one whose kept dice still pay for
    a general action comes first (docs: "the proposal and its order")."""
    s = position(2)
    hand(s, 0, "r-grant")  # science + money
    give(s, 0, "science", "money", "money", "money")
    wild(s, 0, 1)
    step(s, "main")
    run(s, 0, "play r-grant")
    # One wild token: on money (keeps 3 money: buy 2 VP next) or on science (keeps only 2 money).
    one_wild = [a for a in actions(s) if a.count(":") == 1]
    assert one_wild == ["pay wild=money:1", "pay wild=science:1"]
    assert actions(s)[0] == "pay wild=none"


def test_the_order_of_the_payments_never_depends_on_the_hand() -> None:
    """Private information: the ways to pay are public buttons, so the cards in hand do not change them."""
    orders = []
    for cards in ((), ("r-thermal-vent", "r-flare-burn"), ("r-ice-lance",)):
        s = position(2)
        hand(s, 0, "r-grant", *cards)
        give(s, 0, "science", "money", "heat")
        wild(s, 0, 2)
        step(s, "main")
        run(s, 0, "play r-grant")
        orders.append(actions(s))
    assert orders[0] == orders[1] == orders[2]


def test_blue_card_actions_count_as_uses_for_kept_dice() -> None:
    """Paying: the player's blue cards' actions (public) count like the general actions."""
    s = position(2)
    table(s, 0, "b-smelter")  # main: 2 heat, raise the temperature
    hand(s, 0, "r-flare-burn")  # heat + event
    give(s, 0, "heat", "heat", "event")
    wild(s, 0, 1)
    step(s, "main")
    run(s, 0, "play r-flare-burn")
    one_wild = [a for a in actions(s) if a.count(":") == 1]
    # A wild token on heat keeps both heat dice: the smelter can still be used.
    assert one_wild == ["pay wild=heat:1", "pay wild=event:1"]


def test_many_ways_to_pay_come_in_pages_with_the_proposal_first() -> None:
    """Steps: no step offers more than 25 choices; the ways to pay go straight to pages, proposal first."""
    s = position(2)
    hand(s, 0, "r-ice-lance")  # space, water, money
    give(s, 0, "space", "water", "money")
    wild(s, 0, 3)
    hand(s, 0, "r-sky-city")
    give(s, 0, "city", "titanium")
    step(s, "main")
    run(s, 0, "play r-ice-lance")
    assert len(dice.payment_plans(s.seats[0], paying(s)["cost"])) == 8
    # A bigger cost: three faces with two dice each and six wild tokens: 27 ways.
    s = position(2)
    give(s, 0, "heat", "heat", "money", "money", "water", "water")
    wild(s, 0, 6)
    step(s, "pay", cost={"heat": 2, "money": 2, "water": 2})
    first = actions(s)
    assert len(first) == 25 and first[0] == "pay wild=none" and first[-1] == "more"
    run(s, 0, "more")
    second = actions(s)
    assert second[-1] == "more" and not set(second[:-1]) & set(first[:-1])
    run(s, 0, second[0])
    assert s.seats[0]["wild"] + sum(s.seats[0]["dice"].values()) == 6


def test_a_payment_not_offered_is_refused_and_changes_nothing() -> None:
    """Bad input: an impossible payment is refused; the game is untouched."""
    s = position(2)
    give(s, 0, "heat", "heat", "heat")
    wild(s, 0, 1)
    step(s, "main")
    run(s, 0, "raise-temperature")
    before = s.to_dict()
    for text in ("pay wild=heat:2", "pay wild=money:1", "pay wild=heat:x", "pay", "pay wild=heat:-1"):
        try:
            s.apply(0, text)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{text!r} was accepted")
    assert s.to_dict() == before
    assert GAME.load(before).to_dict() == before


def test_can_pay_is_the_shortfall_within_the_wild_tokens() -> None:
    """``can_pay`` (the fast path the legal-action lists use) answers as ``shortfall`` does, for
    costs given as face lists and as counts."""
    rng = Random(5)
    for _ in range(3000):
        player = {"dice": {f: rng.randrange(3) for f in ALL_FACES if rng.random() < 0.6}, "wild": rng.randrange(4)}
        faces = [rng.choice(ALL_FACES) for _ in range(rng.randrange(6))]
        expected = dice.shortfall(player, dict(Counter(faces))) <= player["wild"]
        assert dice.can_pay(player, faces) is expected
        assert dice.can_pay(player, tuple(faces)) is expected
        assert dice.can_pay(player, dict(Counter(faces))) is expected
