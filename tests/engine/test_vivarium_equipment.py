"""Vivarium: every equipment card (data/vivarium/equipment.json), its gems and its ability.

裝備卡:左上角是一個圖標,可用於某些合約卡;右下角是可以立即獲得的寶石;左下角是一個立即使用的
特殊能力或者游戲結束時的額外獎勵 (an icon for contracts, gems gained at once, an instant ability
or an end-of-game bonus). The abilities themselves are ours: docs/rules/vivarium.md.
"""

from __future__ import annotations

import pytest

from engine.vivarium.content import CARDS, EQUIPMENT, equipment_deck
from engine.vivarium.grid import cell_index
from engine.vivarium.scoring import equipment_bonus, progress, score
from tests.engine.test_vivarium_rules import check, creature, give, make_state, of_type, put, set_tokens, texts


def ready(card: str, cell: tuple[int, int] = (3, 1), gems: int = 0):
    """Seat 0 of 3 to act with tokens 1|2 and 2|3 after the swap, ``card`` on a reachable cell."""
    s = make_state(3, first=0, gems=gems)
    set_tokens(s, [["t1", "t5"], ["t3", "t4"], ["t2", "t6"]], ["t7"])
    put(s, *cell, card)
    check(s)
    s.apply(0, "swap give=t5 take=t7")
    return s


def take(s, cell: tuple[int, int]):
    return s.apply(s.current, f"take row={cell[0]} col={cell[1]}")


@pytest.mark.parametrize("card", EQUIPMENT)
def test_equipment_gems_are_gained_at_once(card):
    """右下角是可以立即獲得的寶石: the gems shown are gained when the card is taken."""
    s = ready(card)
    events = take(s, (3, 1))
    taken = of_type(events, "card taken")[0]
    assert taken["gems"] == CARDS[card].gems
    extra = sum(e.get("gems", 0) for e in of_type(events, "ability"))
    assert s.gems[0] == CARDS[card].gems + extra


def test_glass_scraper_clears_a_column_of_the_players_choice():
    """e01 Glass Scraper (instant): remove every card of one grid column; it is refilled at the round's end."""
    s = ready("e01")
    take(s, (3, 1))
    assert s.phase == "ability"
    assert texts(s, 0) == ["clear col=1", "clear col=2", "clear col=3", "clear col=4", "skip"]
    column = [s.grid[cell_index(r, 4)] for r in range(1, 5)]
    events = s.apply(0, "clear col=4")
    cleared = of_type(events, "column cleared")[0]
    assert [c["id"] for c in cleared["cards"]] == column and cleared["cause"] == "ability"
    assert all(s.grid[cell_index(r, 4)] is None for r in range(1, 5))
    assert s.current == 1 and s.phase == "swap"


def test_an_ability_may_be_skipped():
    """Adaptation: every instant ability that asks a question may be declined with 'skip'."""
    s = ready("e01")
    take(s, (3, 1))
    grid = list(s.grid)
    events = s.apply(0, "skip")
    assert of_type(events, "ability")[0]["skipped"] is True
    assert s.grid == grid and s.current == 1


def test_long_tongs_take_one_more_card_from_the_same_row():
    """e04 Long Tongs (instant): take one more card from the row the tongs were in."""
    s = ready("e04", (3, 2))
    put(s, 3, 1, "e14")
    put(s, 3, 3, "e15")
    put(s, 3, 4, "e11")
    take(s, (3, 2))
    offered = [t for t in texts(s, 0) if t.startswith("take")]
    assert offered == [f"take row=3 col={c}" for c in (1, 3, 4)]
    events = s.apply(0, "take row=3 col=4")
    assert of_type(events, "card taken")[0]["bonus"] is True
    assert s.collections[0] == ["e04", "e11"] and s.current == 1


def test_spyglass_takes_one_more_card_from_the_same_column():
    """e16 Spyglass (instant): take one more card from the column the spyglass was in."""
    s = ready("e16", (3, 2))
    take(s, (3, 2))
    offered = [t for t in texts(s, 0) if t.startswith("take")]
    assert offered == ["take row=1 col=2", "take row=2 col=2", "take row=4 col=2"]
    card = s.grid[cell_index(4, 2)]
    s.apply(0, "take row=4 col=2")
    assert s.collections[0] == ["e16", card]


def test_an_extra_card_can_chain_into_its_own_ability():
    """A card taken by an ability brings its own gems and ability (Long Tongs into a Glass Scraper)."""
    s = ready("e04", (3, 2))
    put(s, 3, 3, "e01")
    take(s, (3, 2))
    s.apply(0, "take row=3 col=3")
    assert s.phase == "ability" and s.pending["ability"] == "clear-column"
    s.apply(0, "clear col=1")
    assert s.current == 1


def test_an_extra_take_with_nothing_left_to_take_is_lost():
    """With no card left where an ability looks, it has no effect and the turn ends."""
    s = ready("e04", (3, 2))
    for col in (1, 3, 4):
        put(s, 3, col, None)
    events = take(s, (3, 2))
    assert of_type(events, "ability")[0]["unused"] is True and s.current == 1


def test_rain_chain_swaps_a_chain_token_again():
    """e05 Rain Chain (instant): swap one of your chain tokens with the middle once more."""
    s = ready("e05")
    take(s, (3, 1))
    assert texts(s, 0) == ["swap give=t1 take=t5", "swap give=t7 take=t5", "skip"]
    s.apply(0, "swap give=t1 take=t5")
    assert s.tokens[0] == ["t5", "t7"] and s.middle == ["t1"] and s.current == 1


def test_butterfly_net_takes_any_one_point_creature():
    """e09 Butterfly Net (instant): take any 1-point creature from the grid."""
    s = ready("e09")
    put(s, 1, 4, creature("dragon", "desert", 1))
    put(s, 2, 4, creature("dragon", "desert", 3))
    take(s, (3, 1))
    offered = {t for t in texts(s, 0) if t.startswith("take")}
    ones = {
        f"take row={r} col={c}"
        for r in range(1, 5)
        for c in range(1, 5)
        if s.grid[cell_index(r, c)]
        and CARDS[s.grid[cell_index(r, c)]].points == 1
        and CARDS[s.grid[cell_index(r, c)]].kind == "creature"
    }
    assert offered == ones and "take row=1 col=4" in offered and "take row=2 col=4" not in offered
    s.apply(0, "take row=1 col=4")
    assert "dragon-desert-1" in s.collections[0]


def test_drip_feeder_gives_a_gem_per_plant():
    """e08 Drip Feeder (instant): 1 gem (its own) plus 1 gem per plant you have."""
    s = ready("e08")
    give(s, 0, creature("plant", "forest", 1), creature("plant", "swamp", 2), creature("animal", "swamp", 2))
    events = take(s, (3, 1))
    assert of_type(events, "ability")[0]["gems"] == 2
    assert s.gems[0] == 1 + 2


@pytest.mark.parametrize(
    ("card", "contract", "creatures"),
    [
        ("e03", "c04", [("dragon", "forest", 1)]),  # Egg Warmer: a dragon
        ("e06", "c08", [("plant", "swamp", 1), ("animal", "swamp", 1)]),  # Mist Fountain: swamp
        ("e10", "c01", [("animal", "forest", 1), ("animal", "desert", 1)]),  # Nest Box: an animal
        ("e13", "c05", [("plant", "mountain", 1), ("animal", "mountain", 1)]),  # Rock Pick: mountain
    ],
)
def test_rules_version_1_counts_as_equipment_completes_contracts(card, contract, creatures):
    """Rules version 1's equipment 'counts as' a type or habitat for contracts (and priority tokens)."""
    collection = [creature(*c) for c in creatures]
    goal = CARDS[contract].goal
    assert progress(goal, collection)["points"] == 0
    assert progress(goal, collection + [card])["points"] > 0
    assert progress(goal, collection + [card])["have"] == len(collection) + 1


def test_rules_version_1_counts_as_does_not_add_creature_points_or_combined_filters():
    """A version-1 'counts as' card is not a creature: no creature points, no type-and-habitat match."""
    assert score(["e03"], 0, [], [])["creatures"] == 0
    assert progress(CARDS["c21"].goal, ["e03", "dragon-desert-1"])["have"] == 1


@pytest.mark.parametrize(
    ("card", "collection", "gems", "tokens", "points"),
    [
        ("e02", ["desert-x"] * 0 + ["animal-desert-1", "plant-desert-2", "mineral-forest-1"], 0, 0, 2),
        ("e07", ["plant-desert-2", "plant-forest-1", "plant-swamp-3", "dragon-swamp-1"], 0, 0, 3),
        ("e12", ["plant-forest-1", "dragon-forest-2", "animal-swamp-1"], 0, 0, 2),
        ("e11", [], 0, 3, 6),
        ("e14", [], 7, 0, 2),
        ("e15", ["plant-forest-1", "dragon-mountain-2", "animal-swamp-1", "mineral-desert-1"], 0, 0, 3),
        ("e15", ["plant-forest-1", "dragon-mountain-2", "animal-swamp-1"], 0, 0, 0),
        ("e01", ["plant-forest-1"], 5, 2, 0),
    ],
)
def test_end_of_game_equipment_bonuses(card, collection, gems, tokens, points):
    """End-of-game bonuses: e02 1 per desert, e07 1 per plant, e12 1 per forest, e11 2 per priority
    token, e14 1 per 3 gems, e15 3 with every habitat; instant cards score nothing at the end."""
    assert equipment_bonus(card, collection + [card], gems, tokens) == points


def test_equipment_bonuses_are_part_of_the_final_score():
    """The final score's 'equipment' part adds every end-of-game bonus."""
    parts = score(["e07", "plant-forest-1", "plant-swamp-3", "e14"], 6, ["p-animal"], [])
    assert parts["equipment"] == 2 + 2
    assert parts["total"] == 4 + 6 + 2 + 4


# -- rules version 2: the four "counts as" cards redesigned (docs/rules/vivarium.md) ----------
@pytest.mark.parametrize(
    ("card", "collection", "points"),
    [
        ("e17", ["dragon-forest-1", "dragon-swamp-3", "plant-desert-1"], 2),  # Egg Warmer: 1 per dragon
        ("e18", ["plant-swamp-1", "animal-swamp-2", "dragon-forest-1"], 2),  # Mist Fountain: 1 per swamp
        ("e20", ["mineral-mountain-1", "plant-mountain-3", "animal-forest-2"], 2),  # Rock Pick: 1 per mountain
    ],
)
def test_redesigned_equipment_is_an_end_of_game_bonus(card, collection, points):
    """左下角是一個立即使用的特殊能力或者游戲結束時的額外獎勵: the ability is used at once or is an
    extra reward at the end of the game; from rules version 2 these three are end-of-game rewards."""
    assert CARDS[card].ability["kind"] == "points-per"
    assert equipment_bonus(card, collection + [card], 0, 0) == points


def test_redesigned_nest_box_gives_a_gem_per_animal_at_once():
    """e19 Nest Box (version 2, instant): 1 gem (its own) plus 1 gem per animal you have."""
    s = ready("e19")
    give(s, 0, creature("animal", "forest", 1), creature("animal", "swamp", 2), creature("plant", "swamp", 2))
    events = take(s, (3, 1))
    assert of_type(events, "ability")[0]["gems"] == 2
    assert s.gems[0] == 1 + 2


def test_redesigned_equipment_counts_as_nothing_for_contracts_and_priority():
    """Version 2: an equipment card is never a creature type or habitat, for contracts or priority tokens."""
    for card, contract in (("e17", "c04"), ("e18", "c08"), ("e19", "c01"), ("e20", "c05")):
        assert progress(CARDS[contract].goal, [card])["have"] == 0, card
        assert CARDS[card].attributes() == {"icon": CARDS[card].icon}


def test_each_rules_version_deals_16_equipment_cards_and_version_2_no_counts_as():
    """16張裝備卡 (16 equipment cards), 4 of each icon, in every rules version; version 1 keeps its
    four 'counts as' cards for the games started with them."""
    v1, v2 = equipment_deck(1), equipment_deck(2)
    assert len(v1) == len(v2) == 16
    assert {"e03", "e06", "e10", "e13"} <= set(v1) and not {"e17", "e18", "e19", "e20"} & set(v1)
    assert {"e17", "e18", "e19", "e20"} <= set(v2) and not {"e03", "e06", "e10", "e13"} & set(v2)
    assert not [e for e in v2 if CARDS[e].ability["kind"] == "counts-as"]
    assert [CARDS[e].name for e in ("e17", "e18", "e19", "e20")] == [
        CARDS[e].name for e in ("e03", "e06", "e10", "e13")
    ]


def test_a_version_1_game_keeps_dealing_its_counts_as_cards():
    """A game keeps the rules it started with: a version-1 game deals and loads version 1's cards."""
    from engine import GAMES

    old = GAMES["vivarium"].new(2, 5, rules_version=1)
    cards = [c for c in old.grid if c] + [c for d in old.decks.values() for c in d]
    assert {"e03", "e06", "e10", "e13"} <= set(cards) and not {"e17", "e18", "e19", "e20"} & set(cards)
    assert GAMES["vivarium"].load(old.to_dict()).rules_version == 1
    new = GAMES["vivarium"].new(2, 5)
    assert new.rules_version == 2 and "e17" in [c for c in new.grid if c] + new.decks["equipment"]


def test_every_equipment_card_is_covered_by_a_test_here():
    """Each card of every rules version's 16 appears in this file's tests by id."""
    import inspect
    import sys

    source = inspect.getsource(sys.modules[__name__])
    missing = [e for v in (1, 2) for e in equipment_deck(v) if f'"{e}"' not in source]
    assert missing == []
