"""Terraforming Mars: The Dice Game, solo mode (one player), as in docs/rules/tm-dice.md ("Solo (1 player)")."""

from __future__ import annotations

from collections import Counter

from engine.tm_dice import scoring
from engine.tm_dice.content import PARAMETERS, RULES, SOLO_SETUP, TRACKS
from tests.engine.test_tm_dice_rules import GAME, actions, give, position, run, step, table


def test_solo_setup_preplaces_tiles_and_raises_tracks() -> None:
    """Solo: a city on an area with a VP bonus, an ocean beside it and a greenery beside both (no points);
    oxygen starts one step up and the temperature at -28 C."""
    s = GAME.new(1, 4)
    public = s.view(None)["public"]
    tiles = {t["hex"]: t for t in public["tiles"]}
    assert tiles[SOLO_SETUP["city"]]["tile"] == "city" and tiles[SOLO_SETUP["city"]]["owner"] is None
    assert tiles[SOLO_SETUP["ocean"]]["tile"] == "ocean" and tiles[SOLO_SETUP["greenery"]]["tile"] == "greenery"
    assert public["parameters"]["temperature"]["value"] == -28
    assert public["parameters"]["oxygen"]["position"] == 1 and public["parameters"]["oceans"]["position"] == 1
    assert public["bonus_deck"] == 4 and public["end_at"] == 50


def test_solo_has_no_gift_and_starts_after_the_corporation() -> None:
    """Solo: there is no last player to receive the first player's gift."""
    s = GAME.new(1, 4)
    s.apply(0, actions(s)[0])
    while s.queue[-1]["kind"] != "turn":
        assert s.queue[-1]["kind"] != "gift"
        s.apply(0, actions(s)[0])
    assert s.turn == 1


def test_solo_plays_a_bonus_card_after_the_first_production() -> None:
    """Solo: after your first production, choose 1 of the 4 bonus cards and play it at once."""
    s = position(1)
    step(s, "turn")
    events = run(s, 0, "production")
    assert s.queue[-1]["kind"] == "bonus" and len(s.view(0)["private"]["bonus_choice"]) == 4
    assert [len(e["cards"]) for e in events if e["type"] == "bonus cards shown" and e["visible_to"] == [0]] == [4]
    run(s, 0, f"bonus {s.bonus_deck[0]}")
    step(s, "turn")
    run(s, 0, "production")
    assert s.queue[-1]["kind"] != "bonus"


def test_solo_award_thresholds() -> None:
    """Solo awards: 6 / 8 / 10 of the symbol (rare / uncommon / common) win 5 VP; exactly one short, 3 VP."""
    s = position(1)
    s.awards = ["animal", "event", "money"]  # rare, uncommon, common
    table(s, 0, "r-ark", "b-pen", "g-preserve")  # animal x3 in costs
    assert scoring.award_points(s)[0][0] == 0
    counts = Counter({"animal": 6, "event": 7, "money": 9})
    original = scoring.cost_faces
    try:
        scoring.cost_faces = lambda st, seat: counts
        assert scoring.award_points(s)[0] == [5, 3, 3]
        counts.update(event=1, money=1)
        assert scoring.award_points(s)[0] == [5, 5, 5]
        counts["animal"] = 4
        assert scoring.award_points(s)[0][0] == 0
    finally:
        scoring.cost_faces = original


def test_solo_milestones_are_removed_after_turns_16_20_24() -> None:
    """Solo: after turns 16 / 20 / 24, the top / middle / bottom milestone is removed if not yet claimed."""
    s = position(1)
    s.milestones = ["m-mayor", "m-gardener", "m-terraformer"]
    s.claimed = {"m-gardener": 0}
    for turn, removed in ((15, []), (16, ["m-mayor"]), (20, ["m-mayor"]), (24, ["m-mayor", "m-terraformer"])):
        s.turn = turn
        scoring.remove_solo_milestones(s)
        assert s.removed == removed


def test_solo_lasts_50_turns() -> None:
    """Solo: the game lasts 50 turns."""
    s = position(1)
    s.turn = 50
    step(s, "main")
    give(s, 0, "money", "money", "money")
    run(s, 0, "buy-vp")
    assert s.outcome() is not None


def test_solo_score_counts_only_with_all_three_parameters() -> None:
    """Solo: you must complete all 3 parameters, or your score does not count."""
    s = position(1)
    s.seats[0]["vp"] = 30
    scoring.finish(s)
    assert s.outcome().scores == [0] and s.outcome().winners == []
    s2 = position(1)
    s2.seats[0]["vp"] = 30
    for p in PARAMETERS:
        setattr(s2, p, TRACKS[p]["steps"])
    scoring.finish(s2)
    assert s2.outcome().scores[0] >= 30 and s2.outcome().winners == [0]


def test_solo_ends_after_one_more_turn_once_all_three_are_complete() -> None:
    """Solo (our choice, as in the multi-player end): completing the 3rd parameter leaves one last turn."""
    s = position(1)
    for p in ("temperature", "oxygen"):
        setattr(s, p, TRACKS[p]["steps"])
    s.oceans = TRACKS["oceans"]["steps"] - 1
    for h in ("b3", "c3", "c4", "d5", "e4", "e5"):
        s.tiles[h] = {"tile": "ocean", "owner": None}
    turn = s.turn
    step(s, "effects", effects=["ocean"], source="test")
    s._run()
    run(s, 0, "hex f3")
    assert s.end_at == turn + 1 and s.turn == turn + 1 and s.outcome() is None
    assert RULES["solo"]["turns"] == 50
