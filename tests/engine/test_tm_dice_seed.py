"""Terraforming Mars: The Dice Game: the seed's rules that the other test files check only in part.

An audit of the rulebook (Terraforming Mars: The Dice Game, FryxGames, crowdfunding edition, as the Traditional
Chinese preview cited in docs/rules/tm-dice.md gives it, and the published solo rules stated
there) sentence by sentence; each test names the rule it checks. Tests marked
``xfail(strict=True)`` are places where the engine differs from the seed.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.rng import Rng
from engine.tm_dice import board, dice, scoring
from engine.tm_dice.content import (
    CARD_IDS,
    COLOURS,
    CORPORATIONS,
    DICE_PER_COLOUR,
    FACE_COLOUR,
    FACES,
    HEXES,
    RULES,
    SOLO_SETUP,
    TRACKS,
    die_face,
)
from tests.engine.test_tm_dice_rules import GAME, actions, give, hand, position, run, start_pool, step, table, wild


def resolve(s, *texts: str, seat: int = 0) -> None:
    """Make the effects the current step and resolve what needs no decision."""
    step(s, "effects", seat, effects=list(texts), source="test")
    s._run()


def place(s, label: str, seat: int = 0) -> None:
    """Choose an area, through its row when the step offers rows first."""
    row = f"open row {label[0]}"
    if row in actions(s, seat):
        run(s, seat, row)
    run(s, seat, f"hex {label}")


def answer_until(s, done) -> list[dict]:
    """Answer the first offered choice of whoever is to move until ``done(s)``."""
    events: list[dict] = []
    for _ in range(200):
        if done(s):
            return events
        mover = s.to_move()[0]
        events += s.apply(mover, actions(s, mover)[0])
    raise AssertionError("no end in sight")


# -- resources ------------------------------------------------------------------------------
@pytest.mark.parametrize("colour", COLOURS)
def test_every_die_has_three_common_two_uncommon_one_rare_faces(colour: str) -> None:
    """Resources: the dice come in 5 colours; every die has 3 faces of a common resource,
    2 of an uncommon resource and 1 of a rare resource."""
    common, uncommon, rare = FACES[colour]
    assert len({common, uncommon, rare}) == 3
    assert Counter(die_face(colour, r) for r in range(6)) == {common: 3, uncommon: 2, rare: 1}
    rng = Rng(11)
    rolled = Counter(dice.roll(rng, colour) for _ in range(600))
    assert set(rolled) == {common, uncommon, rare}
    assert rolled[common] > rolled[uncommon] > rolled[rare]


# -- set-up ---------------------------------------------------------------------------------
def test_project_deck_is_shuffled_face_down_with_an_empty_discard_pile() -> None:
    """Setup 3: shuffle the project cards into a face-down deck beside the board and leave
    room for a discard pile."""
    orders = set()
    for seed in range(4):
        s = GAME.new(3, seed)
        dealt = [c for p in s.seats for c in p["hand"]]
        assert Counter(s.deck + dealt) == Counter(CARD_IDS) and s.discard == []
        assert s.view(None)["public"]["deck"] == len(CARD_IDS) - 15
        orders.add(tuple(s.deck))
    assert len(orders) == 4


def test_award_dice_are_taken_from_the_pool() -> None:
    """Setup 5: take 1 die of each colour from the pool, choose 3 at random, roll them and put
    them on the award spots of the board (so those 3 dice are no longer in the pool)."""
    s = GAME.new(2, 4)
    award_colours = {FACE_COLOUR[f] for f in s.awards}
    assert len(award_colours) == 3
    expected = {c: DICE_PER_COLOUR - (c in award_colours) for c in COLOURS}
    assert s.pool == expected
    assert GAME.load(s.to_dict()).pool == expected  # and a save keeps them out


def test_a_save_from_before_the_award_dice_left_the_pool_still_loads() -> None:
    """Setup 5 (saves): a game saved while the award dice were still counted in the pool loads
    as it was; a save with only some of them out is damaged and refused."""
    s = GAME.new(2, 4)
    award_colours = [FACE_COLOUR[f] for f in s.awards]
    before = s.to_dict()
    before["pool"] = {c: n + (c in award_colours) for c, n in before["pool"].items()}
    assert GAME.load(before).pool == before["pool"]
    mixed = s.to_dict()
    mixed["pool"] = dict(mixed["pool"], **{award_colours[0]: mixed["pool"][award_colours[0]] + 1})
    with pytest.raises(ValueError, match="must add up to"):
        GAME.load(mixed)


def test_first_player_starts_and_turns_go_clockwise() -> None:
    """Setup 7: one player is the first player (ours: seat 0) and play goes clockwise
    (seat 0, 1, 2, then 0 again)."""
    s = position(3)
    assert s.view(None)["public"]["first"] == 0
    s.queue, s.turn = [{"kind": "begin", "seat": 0}], 0
    s._run()
    order = []
    for _ in range(4):
        seat = s.to_move()[0]
        order.append((seat, s.turn, s.current))
        run(s, seat, "production")
        answer_until(s, lambda st: st.queue[-1]["kind"] == "turn")
    assert order == [(0, 1, 0), (1, 2, 1), (2, 3, 2), (0, 4, 0)]


@pytest.mark.parametrize("players", [2, 4])
def test_two_different_corporations_each_and_the_unused_go_back_to_the_box(players: int) -> None:
    """Setup 8: shuffle the corporations and deal 2 to each player; each keeps 1 and the
    unused corporations go back to the box."""
    s = GAME.new(players, 6)
    offers = [c for p in s.seats for c in p["offer"]]
    assert len(offers) == 2 * players and len(set(offers)) == len(offers) and set(offers) <= set(CORPORATIONS)
    kept = []
    for seat in range(players):
        choice = s.seats[seat]["offer"][1]
        kept.append(choice)
        s.apply(seat, f"corporation {choice}")
    assert all(p["offer"] == [] for p in s.seats)
    public = s.view(None)["public"]
    assert [p["corporation"]["id"] for p in public["seats"]] == kept


def test_corporations_are_revealed_and_set_up_in_turn_order_then_the_gift() -> None:
    """Setup 9-11: in turn order each player reveals the corporation and takes its starting
    bonus, takes and rolls its production dice; then the first player gives 1 resource to the
    last player and begins."""
    s = GAME.new(3, 8)
    events: list[dict] = []
    for seat in range(3):
        events += s.apply(seat, actions(s, seat)[0])
    events += answer_until(s, lambda st: st.queue and st.queue[-1]["kind"] == "turn")
    assert [e["seat"] for e in events if e["type"] == "corporation revealed"] == [0, 1, 2]
    rolled = [e["seat"] for e in events if e["type"] == "die rolled" and e["reason"] == "production"]
    assert rolled == sorted(rolled) and set(rolled) == {0, 1, 2}
    types = [e["type"] for e in events]
    gift = types.index("gift")
    assert gift > max(i for i, e in enumerate(events) if e["type"] == "die rolled")
    assert [e["to"] for e in events if e["type"] == "gift"] == [2]
    assert s.to_move() == [0] and s.turn == 1
    for seat in range(3):
        assert scoring.production_count(s, seat) == len(CORPORATIONS[s.seats[seat]["corp"]]["production"])


# -- production turn ------------------------------------------------------------------------
def test_production_draws_only_below_five_cards_and_never_forces_a_discard() -> None:
    """Production 2-3: the player may discard any number of cards; only with fewer than 5
    cards in hand does the player draw up to 5 (no hand limit otherwise)."""
    s = position(2)
    hand(s, 0, "r-grant", "r-windfall", "g-farms", "b-lab", "b-drone", "r-ark", "g-bank")
    deck = len(s.deck)
    step(s, "turn")
    run(s, 0, "production")
    assert actions(s) == ["keep-hand", "discard-cards"]
    run(s, 0, "keep-hand")
    assert len(s.seats[0]["hand"]) == 7 and len(s.deck) == deck


# -- action turn ----------------------------------------------------------------------------
def test_discarding_to_turn_needs_another_die_to_turn() -> None:
    """Support 2: discard 1 die to turn *another* die to any face: with a single die it is not
    offered (discarding it to draw 2 cards still is)."""
    s = position(2)
    give(s, 0, "heat")
    step(s, "support", as_main=False)
    assert "discard-to-turn" not in actions(s) and "discard-to-draw" in actions(s)
    give(s, 0, "heat")
    assert "discard-to-turn" in actions(s)


def test_rolling_a_die_takes_a_new_one_and_never_rerolls_the_dice_held() -> None:
    """Other rules 1: players may not re-roll; taking and rolling a die takes a new die from the
    pool, the dice already held keep their faces."""
    s = position(2)
    give(s, 0, "heat", "water", "water")
    step(s, "support", as_main=False)
    run(s, 0, "roll red")
    held = s.seats[0]["dice"]
    assert held["water"] == 2 and held.get("heat", 0) >= 1 and sum(held.values()) == 4
    assert s.pool["red"] == start_pool(s, "red") - 2


def test_blue_card_does_nothing_when_played_and_gives_its_action() -> None:
    """Blue cards: playing one triggers no effect; it gives its owner an action (cost left of
    the arrow, effect right) to use in later action steps."""
    s = position(2)
    hand(s, 0, "b-smelter")  # cost heat + steel; main: 2 heat -> temperature
    give(s, 0, "heat", "steel", "heat", "heat")
    step(s, "main")
    events = run(s, 0, "play b-smelter")
    assert s.seats[0]["blue"] == ["b-smelter"] and s.seats[0]["used"] == []
    assert s.temperature == 0 and s.seats[0]["vp"] == 0 and s.seats[0]["dice"] == {"heat": 2}
    assert {e["type"] for e in events} <= {"card played", "paid", "turn started", "dice kept"}
    step(s, "main")
    assert "use b-smelter" in actions(s)
    run(s, 0, "use b-smelter")
    assert s.temperature == 1 and s.seats[0]["vp"] == 2 and s.seats[0]["used"] == ["b-smelter"]


def test_a_free_action_is_used_once_then_the_card_is_turned() -> None:
    """Free actions: after a blue card's free action the card is turned 90 degrees; it is not
    usable again until it is readied in a production turn."""
    s = position(2)
    table(s, 0, "b-drone")  # free: turn a die
    give(s, 0, "heat", "water")
    step(s, "main")
    run(s, 0, "free b-drone", "turn heat to magma")
    assert s.seats[0]["used"] == ["b-drone"] and s.queue[-1]["kind"] == "main"
    assert "free b-drone" not in actions(s)


def test_green_ribbon_vp_at_once_red_ribbon_vp_at_the_end() -> None:
    """Other rules 5: a card with a green ribbon moves your VP marker as it is played; the
    red ribbon VP of played cards are counted only at the end."""
    s = position(2)
    hand(s, 0, "g-orchards", "g-bioplant")  # green ribbon 1 VP; red ribbon 1 VP
    give(s, 0, "plant", "plant", "microbe", "microbe", "microbe")
    step(s, "main")
    run(s, 0, "play g-orchards")
    assert s.seats[0]["vp"] == 1
    step(s, "main")
    run(s, 0, "play g-bioplant")
    assert s.seats[0]["vp"] == 1 and scoring.card_vp(s, 0) == 1
    scoring.finish(s)
    details = s.result["details"][0]
    assert details["terraforming and tiles"] == 1 and details["card vp"] == 1
    assert details["total"] == 2 + details["awards"]


# -- terraforming ---------------------------------------------------------------------------
def test_raising_full_oxygen_gives_1_vp_and_a_greenery_is_still_placed() -> None:
    """Other rules 3: a parameter at its maximum may still be raised: nothing moves and the
    player scores 1 VP (oxygen too; a greenery is still placed, with its adjacency VP)."""
    s = position()
    s.oxygen = TRACKS["oxygen"]["steps"]
    resolve(s, "oxygen")
    assert s.oxygen == TRACKS["oxygen"]["steps"] and s.seats[0]["vp"] == 1
    city = next(n for n in board.neighbours("e3") if HEXES[n]["area"] == "land")
    s.tiles[city] = {"tile": "city", "owner": 1}
    resolve(s, "greenery")
    place(s, "e3")  # no printed bonus
    assert s.tiles["e3"] == {"tile": "greenery", "owner": 0}
    assert s.oxygen == TRACKS["oxygen"]["steps"] and s.seats[0]["vp"] == 1 + 1 + 1


# -- bonus cards ----------------------------------------------------------------------------
def test_bonus_card_comes_at_the_end_of_the_turn_not_when_5_vp_is_reached() -> None:
    """Other rules 7: reaching 5 VP, the player takes the bonus card at the end of their turn
    (after the main action), not in the middle of it."""
    s = position(2)
    s.seats[0]["vp"] = 4
    table(s, 0, "b-compost")  # support: 1 microbe -> a plant and 1 VP
    give(s, 0, "microbe", "money", "money", "money")
    step(s, "turn")
    run(s, 0, "use b-compost")
    answer_until(s, lambda st: st.queue[-1]["kind"] != "effects")
    assert s.seats[0]["vp"] == 5 and s.queue[-1]["kind"] == "main"
    assert "bonus_choice" not in s.view(0)["private"]
    run(s, 0, "buy-vp")
    assert s.queue[-1]["kind"] == "bonus" and s.seats[0]["thresholds"] == [5]


def test_bonus_card_on_reaching_12_vp() -> None:
    """Other rules 7 / Setup 4: reaching the 12th space of the VP track also earns a bonus card."""
    s = position(2)
    s.seats[0]["vp"] = 11
    s.seats[0]["thresholds"] = [5]
    s.bonus_deck = ["x-patron", "x-windfall", "x-survey", "x-greenhouse"]
    give(s, 0, "money", "money", "money")
    step(s, "main")
    run(s, 0, "buy-vp")
    assert s.queue[-1]["kind"] == "bonus" and s.seats[0]["thresholds"] == [5, 12]
    assert len(s.view(0)["private"]["bonus_choice"]) == 4
    run(s, 0, "bonus x-patron")
    assert s.seats[0]["bonus"] == ["x-patron"] and s.to_move() == [1]


def test_passing_5_and_12_vp_in_one_turn_earns_two_bonus_cards() -> None:
    """Other rules 7 (docs, adaptation 12): passing both 5 and 12 VP in one turn earns a bonus
    card for each, one after the other, before the next player's turn."""
    s = position(2)
    s.seats[0]["vp"] = 10
    s.bonus_deck = ["x-patron", "x-windfall", "x-survey", "x-greenhouse"]
    give(s, 0, "money", "money", "money")
    step(s, "main")
    run(s, 0, "buy-vp", "bonus x-patron")
    assert s.queue[-1]["kind"] == "bonus" and s.to_move() == [0]
    run(s, 0, "bonus x-greenhouse")
    assert s.seats[0]["bonus"] == ["x-patron", "x-greenhouse"] and s.bonus_deck == ["x-windfall", "x-survey"]
    assert s.to_move() == [1]


# -- the end --------------------------------------------------------------------------------
def test_after_the_end_is_triggered_the_third_parameter_still_scores_2_vp() -> None:
    """End: once 2 parameters are complete, completing the third still gives 2 VP, and raising
    a finished temperature or oxygen still gives 1 VP; the end stays where it was."""
    s = position(3)
    s.temperature = TRACKS["temperature"]["steps"]
    s.oxygen = TRACKS["oxygen"]["steps"] - 1
    resolve(s, "oxygen")
    end_at = s.end_at
    assert end_at == 1 + 3 and s.seats[0]["vp"] == 2
    oceans = [h for h, x in HEXES.items() if x["area"] == "ocean" and h != "c3"]
    for h in oceans:
        s.tiles[h] = {"tile": "ocean", "owner": 1}
    s.oceans = TRACKS["oceans"]["steps"] - 1
    resolve(s, "ocean")
    assert actions(s) == ["hex c3"]
    run(s, 0, "hex c3")  # no printed bonus
    assert s.oceans == TRACKS["oceans"]["steps"] and s.seats[0]["vp"] == 2 + 2
    resolve(s, "temperature")
    resolve(s, "oxygen")
    assert s.seats[0]["vp"] == 2 + 2 + 1 + 1 and s.end_at == end_at


def test_hands_are_discarded_at_the_end() -> None:
    """End: after the game, discard the cards left in hand, then score."""
    s = position(2)
    hand(s, 0, "r-grant", "g-farms")
    hand(s, 1, "b-lab")
    scoring.finish(s)
    assert all(p["hand"] == [] for p in s.seats)
    assert {"r-grant", "g-farms", "b-lab"} <= set(s.discard)


def test_resources_are_discarded_at_the_end() -> None:
    """End: after the game, discard the cards left in hand *and the resources* (dice back to the
    pool, wild tokens back to the supply), then score."""
    s = position(2)
    give(s, 0, "heat", "water")
    give(s, 1, "plant")
    wild(s, 1, 2)
    scoring.finish(s)
    assert all(p["dice"] == {} and p["wild"] == 0 for p in s.seats)
    assert s.pool == {c: start_pool(s, c) for c in COLOURS} and s.wild_supply == 23
    s.stage = "over"
    assert GAME.load(s.to_dict()).to_dict() == s.to_dict()


# -- solo -----------------------------------------------------------------------------------
def test_solo_preplaced_tiles_lie_together_on_a_vp_area_and_score_nothing() -> None:
    """Solo set-up: a city on an area with a VP bonus, an ocean next to it and a greenery next
    to both; nobody owns them and nobody scores for them."""
    s = GAME.new(1, 4)
    city, ocean, greenery = SOLO_SETUP["city"], SOLO_SETUP["ocean"], SOLO_SETUP["greenery"]
    assert any(b.startswith("vp:") for b in HEXES[city]["bonus"]) and HEXES[city]["area"] == "land"
    assert HEXES[ocean]["area"] == "ocean" and HEXES[greenery]["area"] == "land"
    assert ocean in board.neighbours(city)
    assert greenery in board.neighbours(city) and greenery in board.neighbours(ocean)
    assert all(s.tiles[h]["owner"] is None for h in (city, ocean, greenery))
    assert s.seats[0]["vp"] == 0
    assert scoring.milestone_value(s, 0, "cities") == 0 and scoring.milestone_value(s, 0, "greeneries") == 0


def test_solo_milestone_removed_at_the_end_of_turn_16_unless_claimed() -> None:
    """Solo: after turn 16 the top milestone is removed if nobody claimed it (then 20: middle,
    24: bottom)."""
    s = position(1)
    s.milestones = ["m-mayor", "m-gardener", "m-engineer"]
    s.turn = 16
    give(s, 0, "money", "money", "money")
    step(s, "main")
    run(s, 0, "buy-vp")
    assert s.removed == ["m-mayor"] and s.turn == 17
    assert [m["removed"] for m in s.view(None)["public"]["milestones"]] == [True, False, False]


def test_solo_bonus_cards_first_production_then_5_and_12_vp_the_last_unused() -> None:
    """Solo: 4 bonus cards; after the first production choose 1 and play it at once, take 2 more
    during the game (5 and 12 VP); the last one goes unused."""
    s = position(1)
    s.bonus_deck = ["x-patron", "x-windfall", "x-survey", "x-greenhouse"]
    step(s, "turn")
    run(s, 0, "production", "bonus x-patron")
    for vp, card in ((4, "x-greenhouse"), (11, "x-windfall")):
        s.queue = []
        step(s, "advance")
        step(s, "main")
        s.seats[0]["vp"] = vp
        s.seats[0]["dice"] = {}
        s.pool = {c: start_pool(s, c) for c in COLOURS}
        give(s, 0, "money", "money", "money")
        run(s, 0, "buy-vp")
        assert s.queue[-1]["kind"] == "bonus"
        run(s, 0, f"bonus {card}")
    assert s.seats[0]["bonus"] == ["x-patron", "x-greenhouse", "x-windfall"] and s.bonus_deck == ["x-survey"]
    assert s.seats[0]["thresholds"] == RULES["bonus_thresholds"]
