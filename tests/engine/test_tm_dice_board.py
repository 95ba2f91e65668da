"""Terraforming Mars: The Dice Game: icons, tiles, terraforming, milestones, the end and scoring.

Each test quotes the rule it checks (seed text in English words, or docs/rules/tm-dice.md).
"""

from __future__ import annotations

import pytest

from engine.tm_dice import board
from engine.tm_dice.content import CARDS, HEXES, TRACKS
from tests.engine.test_tm_dice_rules import GAME, actions, give, hand, position, run, start_pool, step, table, wild


def effects(s, *texts: str, seat: int = 0) -> None:
    """Make the effects the current step and resolve what needs no decision."""
    step(s, "effects", seat, effects=list(texts), source="test")
    s._run()


def place(s, label: str, seat: int = 0) -> None:
    """Choose an area, through its row when the step offers rows first."""
    row = f"open row {label[0]}"
    if row in actions(s, seat):
        run(s, seat, row)
    run(s, seat, f"hex {label}")


# -- icons ----------------------------------------------------------------------------------
def test_white_die_takes_any_colour_and_rolls_it() -> None:
    """Icons: a white die lets you take 1 die of any colour and roll it."""
    s = position()
    effects(s, "gain:any")
    assert actions(s) == [f"colour {c}" for c in ("green", "gray", "blue", "red", "yellow")]
    events = run(s, 0, "colour gray")
    assert [e["colour"] for e in events if e["type"] == "die rolled"] == ["gray"]


def test_coloured_die_takes_that_colour_and_rolls_it() -> None:
    """Icons: a die of a given colour: take 1 die of that colour from the pool and roll it at once."""
    s = position()
    effects(s, "gain:green")
    face = next(iter(s.seats[0]["dice"]))
    assert face in ("plant", "microbe", "animal") and s.pool["green"] == 11


def test_die_shown_on_a_face_is_taken_on_that_face() -> None:
    """Icons: a die shown on a face: take that die already turned to that face."""
    s = position()
    effects(s, "face:titanium")
    assert s.seats[0]["dice"] == {"titanium": 1}


def test_any_colour_die_set_to_any_face() -> None:
    """Icons: take 1 die of any colour and turn it to any face."""
    s = position()
    effects(s, "set:any")
    assert len(actions(s)) == 15
    run(s, 0, "take magma")
    assert s.seats[0]["dice"] == {"magma": 1} and s.pool["red"] == start_pool(s, "red") - 1


def test_question_die_is_a_given_colour_on_any_face() -> None:
    """Icons: the "?" die: take 1 die of the given colour and turn it to any face."""
    s = position()
    effects(s, "set:blue")
    assert actions(s) == ["take water", "take energy", "take air"]
    run(s, 0, "take air")
    assert s.seats[0]["dice"] == {"air": 1}


def test_turn_one_of_your_dice_to_any_face() -> None:
    """Icons: turn 1 of your dice to any face."""
    s = position()
    give(s, 0, "money")
    effects(s, "turn")
    assert actions(s) == ["turn money to science", "turn money to space", "leave-dice"]
    run(s, 0, "turn money to space")
    assert s.seats[0]["dice"] == {"space": 1}


def test_the_turn_icon_may_leave_every_die_as_it_is() -> None:
    """Icons: 「玩家能將 1 顆骰子轉至任意骰面」: the player *may* turn 1 die to any face."""
    s = position()
    give(s, 0, "money")
    effects(s, "turn")
    events = run(s, 0, "leave-dice")
    assert events[0] == {"type": "dice left", "visible_to": None, "seat": 0}
    assert s.seats[0]["dice"] == {"money": 1} and s.queue[-1]["kind"] != "turn-die"


def test_rules_version_1_forces_the_turn_icon_to_turn_a_die() -> None:
    """The turn icon as version 1 played it: a die must be turned (a game keeps its rules)."""
    s = position(rules_version=1)
    give(s, 0, "money")
    effects(s, "turn")
    assert actions(s) == ["turn money to science", "turn money to space"]
    assert GAME.load(s.to_dict()).rules_version == 1


def test_discarding_a_die_to_turn_another_always_turns() -> None:
    """Support 2: 「棄置任意 1 顆骰子以將另 1 顆骰子翻轉至任意面」: paid for with a die, the turn is made."""
    s = position()
    give(s, 0, "money", "heat")
    step(s, "drop", purpose="turn")
    run(s, 0, "drop heat")
    while s.queue[-1]["kind"] == "effects":
        run(s, 0, actions(s)[0])
    assert s.queue[-1]["kind"] == "turn-die" and "leave-dice" not in actions(s)


def test_turning_with_many_dice_asks_the_die_then_the_face() -> None:
    """Steps: with more than 25 die-and-face pairs, the die is chosen first, then the face."""
    s = position()
    give(s, 0, "plant", "microbe", "animal", "city", "steel", "titanium", "water", "energy", "air", "heat", "event")
    give(s, 0, "magma", "money")
    effects(s, "turn")
    assert len(actions(s)) == 14 and actions(s)[0] == "turn plant" and actions(s)[-1] == "leave-dice"
    run(s, 0, "turn air")
    assert actions(s) == ["to water", "to energy", "leave-dice"]
    run(s, 0, "to water")
    assert s.seats[0]["dice"]["water"] == 2 and "air" not in s.seats[0]["dice"]


def test_each_opponent_loses_a_die_of_the_colour_of_their_choice() -> None:
    """Icons: each opponent loses 1 die of the colour shown, any face at their choice; none, no effect."""
    s = position(3)
    give(s, 1, "plant", "animal")
    give(s, 2, "heat")
    effects(s, "attack:green")
    assert s.to_move() == [1] and actions(s, 1) == ["lose plant", "lose animal"]
    run(s, 1, "lose animal")
    assert s.seats[1]["dice"] == {"plant": 1} and s.seats[2]["dice"] == {"heat": 1}
    assert s.pool["green"] == 11


def test_attack_with_one_face_needs_no_choice() -> None:
    """Icons: an opponent holding dice of the colour on a single face simply loses one."""
    s = position(2)
    give(s, 1, "plant", "plant")
    effects(s, "attack:green")
    assert s.seats[1]["dice"] == {"plant": 1}


# -- tiles ----------------------------------------------------------------------------------
def test_oceans_only_on_ocean_areas_and_give_2_vp() -> None:
    """Tiles: an ocean goes on a blue area only (no other tile may), and gives 2 VP."""
    s = position()
    effects(s, "ocean")
    hexes = [a.split(" ")[1] for a in actions(s)]
    assert hexes and all(HEXES[h]["area"] == "ocean" for h in hexes)
    assert all(HEXES[h]["area"] != "ocean" for h in board.legal_hexes({}, "greenery") + board.legal_hexes({}, "city"))
    run(s, 0, "hex c3")
    assert s.oceans == 1 and s.seats[0]["vp"] == 2


def test_one_tile_per_area() -> None:
    """Tiles: each area holds only 1 tile."""
    s = position()
    s.tiles["a1"] = {"tile": "greenery", "owner": 1}
    assert "a1" not in board.legal_hexes(s.tiles, "greenery")


def test_greenery_raises_oxygen_and_scores_each_adjacent_city() -> None:
    """Tiles: a greenery gives 1 VP per adjacent city and raises oxygen 1 step (2 VP)."""
    s = position()
    s.tiles["d2"] = {"tile": "city", "owner": 1}
    s.tiles["d4"] = {"tile": "city", "owner": 1}
    effects(s, "greenery")
    place(s, "d3")
    assert s.oxygen == 1 and s.seats[0]["vp"] == 2 + 2 + 1  # terraform, two cities, hex bonus vp:1


def test_city_never_next_to_a_city_and_scores_each_adjacent_greenery() -> None:
    """Tiles: a city goes on an area not next to another city; +1 VP per adjacent greenery, +2 VP."""
    s = position()
    s.tiles["d4"] = {"tile": "city", "owner": 1}
    legal = board.legal_hexes(s.tiles, "city")
    assert not set(board.neighbours("d4")) & set(legal)
    s.tiles["b1"] = {"tile": "greenery", "owner": 1}
    s.tiles["c2"] = {"tile": "greenery", "owner": 1}
    effects(s, "city")
    place(s, "b2")
    assert s.tiles["b2"] == {"tile": "city", "owner": 0}
    assert s.seats[0]["vp"] == 2 + 2  # city, two greeneries (b1, c2); the hex bonus is a die


def test_special_tile_only_on_its_marked_area() -> None:
    """Tiles: a special tile goes on an area printed with its icon."""
    s = position()
    effects(s, "special:lava")
    hexes = [a.split(" ")[1] for a in actions(s)]
    assert sorted(hexes) == sorted(h for h, x in HEXES.items() if x["area"] == "lava")
    run(s, 0, f"hex {hexes[0]}")
    assert s.tiles[hexes[0]]["tile"] == "lava"


def test_printed_placement_bonus_is_paid() -> None:
    """Map: an area's printed bonus goes to whoever places a tile there."""
    s = position()
    effects(s, "ocean")
    run(s, 0, "hex e4")  # bonus: 1 wild token
    assert s.seats[0]["wild"] == 1


def test_more_than_25_areas_are_chosen_row_first() -> None:
    """Steps: no step offers more than 25 choices; with more areas, choose the row, then the area."""
    s = position()
    effects(s, "greenery")
    assert actions(s)[0] == "open row a" and len(actions(s)) == 7
    run(s, 0, "open row a")
    assert actions(s) == ["hex a1", "hex a2", "hex a3"]


# -- terraforming and tracks ----------------------------------------------------------------
def test_terraforming_gives_2_vp_and_a_finished_parameter_1_vp() -> None:
    """Other rules 2-3: terraforming gives 2 VP; a parameter already at its maximum still gives 1 VP."""
    s = position()
    effects(s, "temperature")
    assert s.temperature == 1 and s.seats[0]["vp"] == 2
    s.temperature = TRACKS["temperature"]["steps"]
    effects(s, "temperature")
    assert s.temperature == TRACKS["temperature"]["steps"] and s.seats[0]["vp"] == 3


def test_ocean_when_all_are_placed_gives_1_vp() -> None:
    """Other rules 3: with all 7 oceans placed, an ocean icon still gives 1 VP."""
    s = position()
    for h in [h for h, x in HEXES.items() if x["area"] == "ocean"]:
        s.tiles[h] = {"tile": "ocean", "owner": 1}
    s.oceans = 7
    effects(s, "ocean")
    assert s.seats[0]["vp"] == 1


def test_track_bonus_spaces_pay_whoever_reaches_them() -> None:
    """Other rules 6: spaces of the oxygen and temperature tracks with a bonus icon pay whoever reaches them."""
    s = position()
    s.oxygen = 4  # the bonus at 5 raises the temperature
    effects(s, "oxygen")
    assert s.oxygen == 5 and s.temperature == 1 and s.seats[0]["vp"] == 4


# -- milestones -----------------------------------------------------------------------------
def test_first_player_to_meet_a_milestone_takes_it() -> None:
    """Setup 6: the first player to reach a milestone takes it at once for free: 4 VP at the end."""
    s = position()
    s.milestones = ["m-engineer", "m-mayor", "m-gardener"]
    table(s, 1, "b-lab", "b-pump")
    table(s, 0, "b-vault", "b-drone", "b-pen")
    give(s, 0, "money", "money", "money")
    step(s, "main")
    run(s, 0, "buy-vp")
    assert s.claimed == {"m-engineer": 0}
    table(s, 1, "b-smelter")
    step(s, "main", 1)
    s.seats[1]["dice"]["money"] = 3
    s.pool["yellow"] -= 3
    run(s, 1, "buy-vp")
    assert s.claimed == {"m-engineer": 0}


# -- the end --------------------------------------------------------------------------------
def test_game_ends_after_everyone_plays_a_last_turn_once_two_parameters_are_done() -> None:
    """End: when the 2nd parameter is completed, every player (the one who did it included) takes a last turn."""
    s = position(3)
    s.temperature = TRACKS["temperature"]["steps"]
    s.oxygen = TRACKS["oxygen"]["steps"] - 1
    effects(s, "oxygen")
    assert s.end_at == 1 + 3 and s.outcome() is None
    for seat in (1, 2, 0):
        assert s.to_move() == [seat]
        run(s, seat, "roll red")
        while s.to_move() == [seat]:
            run(s, seat, actions(s, seat)[0])
    assert s.outcome() is not None and s.stage == "over"


def _scored(s) -> list[dict]:
    from engine.tm_dice import scoring

    scoring.finish(s)
    return s.result["details"]


def test_awards_first_5_second_3() -> None:
    """Scoring 1: for each award symbol, most in played card costs: 5 VP; second most: 3 VP."""
    s = position(3)
    s.awards = ["money", "plant", "water"]
    table(s, 0, "r-windfall")  # money x2
    table(s, 1, "r-grant")  # money x1
    details = _scored(s)
    assert [d["awards"] for d in details] == [5, 3, 0]


def test_the_award_counts_are_public_while_playing() -> None:
    """Scoring 1: the awards compare the symbols in the costs of played cards, which lie face up:
    the public view counts them for every seat, in the awards' order."""
    s = position(3)
    s.awards = ["money", "plant", "science"]
    table(s, 0, "r-windfall")  # money x2
    table(s, 1, "r-grant")  # science + money
    seats = s.view(None)["public"]["seats"]
    assert [p["award_counts"] for p in seats] == [[2, 0, 0], [1, 0, 1], [0, 0, 0]]


def test_awards_tie_for_first_gives_no_second() -> None:
    """Scoring 1: players tied for first all take 5 VP and no second place is given."""
    s = position(3)
    s.awards = ["money", "plant", "water"]
    table(s, 0, "r-windfall")
    table(s, 1, "g-suburbs")  # money x1, city x2
    table(s, 1, "r-grant")
    table(s, 2, "b-trade-desk")  # money x1
    details = _scored(s)
    assert [d["awards"] for d in details] == [5, 5, 0]


def test_awards_tie_for_second_all_take_3() -> None:
    """Scoring 1: players tied for second all take 3 VP."""
    s = position(3)
    s.awards = ["money", "plant", "water"]
    table(s, 0, "r-windfall")
    table(s, 1, "r-grant")
    table(s, 2, "b-trade-desk")
    details = _scored(s)
    assert [d["awards"] for d in details] == [5, 3, 3]


def test_final_score_adds_milestones_and_card_vp() -> None:
    """Scoring 2-3: each milestone 4 VP; the red-ribbon VP of played cards count at the end."""
    s = position(2)
    s.awards = ["magma", "animal", "air"]
    s.seats[0]["vp"] = 10
    s.claimed = {s.milestones[0]: 0}
    table(s, 0, "g-preserve")  # 3 VP at the end; its cost shows an animal
    s.seats[0]["bonus"] = ["x-patron"]
    s.bonus_deck.remove("x-patron") if "x-patron" in s.bonus_deck else None
    d = _scored(s)[0]
    assert d["milestones"] == 4 and d["card vp"] == 6 and d["awards"] == 5
    assert d["total"] == 10 + 4 + 6 + 5


def test_tie_is_broken_by_production_then_shared() -> None:
    """Scoring: on a tie, most production dice (corporation and green cards) wins; still tied, a shared win."""
    s = position(2, corps=("corp-helio", "corp-ledger"))
    s.awards = ["magma", "animal", "air"]
    s.seats[0]["vp"] = s.seats[1]["vp"] = 8
    _scored(s)
    assert s.result["winners"] == [0]  # 3 production dice against 2
    s2 = position(2, corps=("corp-helio", "corp-basalt"))
    s2.awards = ["magma", "animal", "air"]
    _scored(s2)
    assert s2.result["winners"] == [0, 1]


def test_wild_tokens_return_to_the_supply_when_spent() -> None:
    """Wild tokens: spent tokens go back to the supply."""
    s = position()
    wild(s, 0, 3)
    step(s, "main")
    run(s, 0, "buy-vp")
    assert s.wild_supply == 23 and s.seats[0]["wild"] == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_loaded_positions_are_checked(players: int) -> None:
    """Saves: a damaged tile (a city on an ocean area) is refused with a precise message."""
    data = position(players).to_dict()
    data["tiles"] = {"c3": {"tile": "city", "owner": 0}}
    with pytest.raises(ValueError, match="ocean area"):
        GAME.load(data)


def test_long_lists_are_split_by_category_then_pages() -> None:
    """Steps: more than 25 choices are offered by category first, then in pages of 24 with "more"."""
    s = position()
    wild(s, 0, 23)
    hand(s, 0, *sorted(CARDS)[:30])
    step(s, "main")
    menu = actions(s)
    assert "open play" in menu and "open general" in menu and len(menu) <= 25
    run(s, 0, "open play")
    first = actions(s)
    assert len(first) == 25 and first[-1] == "more"
    run(s, 0, "more")
    second = actions(s)
    assert second[-1] == "more" and len(second) == 30 - 24 + 1
    assert set(first[:-1]) | set(second[:-1]) == {f"play {c}" for c in sorted(CARDS)[:30]}
    run(s, 0, second[0])
    assert s.seats[0][CARDS[second[0].split()[1]].colour] == [second[0].split()[1]]
