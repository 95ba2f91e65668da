"""Terraforming Mars: The Dice Game: the content in data/tm-dice/ and every card, corporation,
milestone and bonus card played from a hand-built position."""

from __future__ import annotations

import pytest

from engine.content import ContentError, check
from engine.tm_dice import content, effects, scoring
from engine.tm_dice.content import (
    BONUS_CARDS,
    CARDS,
    CORPORATIONS,
    FACES,
    GENERAL_ACTIONS,
    HEXES,
    MILESTONES,
)
from tests.engine.test_tm_dice_rules import GAME, actions, give, hand, position, run, step, table, wild

ICONS = {
    "gain:any": "white die",
    "gain:green": "die of a given colour",
    "face:plant": "die set to a face",
    "set:any": "any die set to any face",
    "set:blue": "the ? die",
    "turn": "turn a die",
    "attack:green": "opponents lose a die",
    "temperature": "raise temperature",
    "oxygen": "raise oxygen",
    "ocean": "ocean tile",
    "greenery": "greenery tile",
    "city": "city tile",
    "special:lava": "special tile",
    "vp:1": "VP",
    "wild:1": "wild token",
    "draw:1": "draw cards",
}


def all_card_effects() -> set[str]:
    out = set()
    for c in CARDS.values():
        out |= set(c.effects)
        if c.action:
            out |= set(c.action["effects"])
    return out


def test_content_scale() -> None:
    """Content: 8 corporations, at least 60 project cards of 3 colours, 8 milestones,
    at least 8 bonus cards, a 37-hex map with 7 ocean areas."""
    assert len(CORPORATIONS) == 8 and len(MILESTONES) == 8 and len(BONUS_CARDS) >= 8
    assert len(CARDS) >= 60 and {c.colour for c in CARDS.values()} == {"red", "blue", "green"}
    assert len(HEXES) == 37 and sum(1 for h in HEXES.values() if h["area"] == "ocean") == 7
    assert len({c.name for c in CARDS.values()}) == len(CARDS)


def test_green_dice_are_plant_microbe_animal_3_2_1() -> None:
    """Dice: green has 3 plant faces, 2 microbe and 1 animal, as published; each die is 3 common, 2 uncommon, 1 rare."""
    assert FACES["green"] == ("plant", "microbe", "animal")
    assert [content.die_face("green", r) for r in range(6)] == ["plant"] * 3 + ["microbe"] * 2 + ["animal"]


def test_every_general_action_is_reachable_with_dice() -> None:
    """Dice: every general main action's resource is a face of some die (heat, water, plants, city, money)."""
    faces = {f for fs in FACES.values() for f in fs}
    for g in GENERAL_ACTIONS.values():
        assert set(g["cost"]) <= faces


def test_cards_use_every_icon_and_every_kind_of_action() -> None:
    """Content: the project cards use every icon of the rules, every blue action kind and the passives."""
    used = all_card_effects()
    kinds = {e.split(":")[0] for e in used}
    for icon in ICONS:
        kind = icon.split(":")[0]
        assert (icon in used) if kind in ("gain", "set") and icon.endswith("any") else kind in kinds, icon
    assert any(e.startswith("gain:") and e != "gain:any" for e in used)
    assert any(e.startswith("set:") and e != "set:any" for e in used)
    assert {"special:lava", "special:mine"} <= used
    assert {c.action["type"] for c in CARDS.values() if c.action} == {"main", "support", "free"}
    passives = {p.split(":")[0] for c in CARDS.values() for p in c.passive} | {
        p.split(":")[0] for b in BONUS_CARDS.values() for p in b["passive"]
    }
    assert passives == {"keep", "on-green"}
    assert any(c.vp for c in CARDS.values()) and any(c.end_vp for c in CARDS.values())


def test_schema_refuses_a_bad_card() -> None:
    """Content is loaded through a validated schema: a bad colour is refused with its place."""
    with pytest.raises(ContentError, match="colour"):
        check(
            {"cards": [{"id": "x", "name": "x", "colour": "pink", "cost": [], "vp": 0, "end_vp": 0}]},
            content.CARDS_SCHEMA,
        )
    assert not content.effect_ok("gain:purple") and not content.effect_ok("fly")


def settle(s, seat: int = 0) -> list[dict]:
    """Answer the first offered choice (opponents too) until the seat's turn is over."""
    events = []
    guard = 0
    while s.to_move() and s.queue[-1]["kind"] not in ("turn", "advance"):
        mover = s.to_move()[0]
        events += s.apply(mover, actions(s, mover)[0])
        guard += 1
        assert guard < 100
    return events


# What each icon leaves in the events once resolved (or "skipped" when it cannot be done).
EFFECT_EVENTS = {
    "gain": {"die rolled"},
    "face": {"die taken"},
    "set": {"die taken"},
    "turn": {"die turned"},
    "attack": {"attack"},
    "temperature": {"parameter raised", "parameter maxed"},
    "oxygen": {"parameter raised", "parameter maxed"},
    "ocean": {"tile placed", "parameter maxed"},
    "greenery": {"tile placed"},
    "city": {"tile placed"},
    "special": {"tile placed"},
    "vp": {"vp"},
    "wild": {"wild gained"},
    "draw": {"cards drawn"},
}


@pytest.mark.parametrize("card_id", sorted(CARDS))
def test_every_card_can_be_played_and_works(card_id: str) -> None:
    """Cards: pay the cost, then red cards act at once, blue cards give their action, green cards add production."""
    card = CARDS[card_id]
    s = position(2)
    give(s, 1, "plant", "heat", "water", "city", "money")  # an opponent to attack
    hand(s, 0, card_id)
    give(s, 0, *card.cost)
    vp_before = s.seats[0]["vp"]
    step(s, "main")
    events = run(s, 0, f"play {card_id}")
    assert card_id in s.seats[0][card.colour]
    events += settle(s)
    GAME.load(s.to_dict())
    types = [e["type"] for e in events]
    for effect in card.effects:
        expected = EFFECT_EVENTS[effect.split(":")[0]]
        assert expected & set(types) or "skipped" in types, (effect, types)
    assert s.seats[0]["vp"] >= vp_before + card.vp
    if card.colour == "green":
        assert all(c in s.view(None)["public"]["seats"][0]["production"] for c in card.production)
        assert not [e for e in events if e["type"] == "die rolled"]
    if card.colour == "blue":
        s.seats[0]["used"] = []
        give(s, 0, *card.action["cost"], "heat")  # and one more die, for a "turn" effect
        kind = card.action["type"]
        step(s, "support", as_main=False) if kind == "support" else step(s, "main" if kind == "main" else "turn")
        verb = "free" if kind == "free" else "use"
        assert f"{verb} {card_id}" in actions(s)
        events = run(s, 0, f"{verb} {card_id}") + settle(s)
        assert card_id in s.seats[0]["used"]
        types = [e["type"] for e in events]
        for effect in card.action["effects"]:
            assert EFFECT_EVENTS[effect.split(":")[0]] & set(types), (effect, types)


@pytest.mark.parametrize("corp_id", sorted(CORPORATIONS))
def test_every_corporation_gives_its_start_and_production(corp_id: str) -> None:
    """Corporations: the starting bonus (red box), then the production dice (brown box) taken and rolled."""
    corp = CORPORATIONS[corp_id]
    s = position(2, corps=(corp_id,) if corp_id != "corp-helio" else (corp_id, "corp-ledger"))
    s.seats[0]["corp"] = corp_id
    s.queue = [{"kind": "begin", "seat": 0}, {"kind": "start-production", "seat": 0}]
    effects.push_effects(s, 0, corp["start"], corp_id)
    s._run()
    settle(s)
    p = s.seats[0]
    wilds = sum(int(e.split(":")[1]) for e in corp["start"] if e.startswith("wild:"))
    dice_gained = sum(1 for e in corp["start"] if e.split(":")[0] in ("gain", "face", "set"))
    assert p["wild"] == wilds
    assert sum(p["dice"].values()) == dice_gained + len(corp["production"])
    assert len(p["hand"]) == sum(int(e.split(":")[1]) for e in corp["start"] if e.startswith("draw:"))
    assert scoring.production_count(s, 0) == len(corp["production"])


def _meet(s, kind: str, n: int) -> None:
    if kind == "cities":
        for h in ("a1", "a3", "c1", "e2", "g2")[:n]:
            s.tiles[h] = {"tile": "city", "owner": 0}
    elif kind == "greeneries":
        for h in ("a1", "a2", "a3", "b1", "b2")[:n]:
            s.tiles[h] = {"tile": "greenery", "owner": 0}
    elif kind in ("blue-cards", "green-cards", "red-cards"):
        colour = kind.split("-")[0]
        table(s, 0, *[c for c in sorted(CARDS) if CARDS[c].colour == colour][:n])
    elif kind == "production":
        table(s, 0, "g-consortium")
    elif kind == "colours-held":
        give(s, 0, "plant", "city", "water", "heat", "money")
    else:
        s.seats[0]["vp"] = n


@pytest.mark.parametrize("milestone_id", sorted(MILESTONES))
def test_every_milestone_is_claimed_when_met(milestone_id: str) -> None:
    """Milestones: the first player to reach the goal takes the milestone at once, for free."""
    m = MILESTONES[milestone_id]
    s = position(2)
    s.milestones = [milestone_id] + [x for x in sorted(MILESTONES) if x != milestone_id][:2]
    scoring.claim_milestones(s)
    assert milestone_id not in s.claimed
    _meet(s, m["kind"], m["n"])
    scoring.claim_milestones(s)
    assert s.claimed.get(milestone_id) == 0


@pytest.mark.parametrize("bonus_id", sorted(BONUS_CARDS))
def test_every_bonus_card_plays_for_free(bonus_id: str) -> None:
    """Bonus cards: look at all of them, play 1 for free; the rest go back face down."""
    b = BONUS_CARDS[bonus_id]
    s = position(2)
    if bonus_id not in s.bonus_deck:
        s.bonus_deck[0] = bonus_id
    step(s, "bonus")
    before = len(s.bonus_deck)
    run(s, 0, f"bonus {bonus_id}")
    settle(s)
    assert s.seats[0]["bonus"] == [bonus_id] and len(s.bonus_deck) == before - 1
    assert scoring.card_vp(s, 0) == b["end_vp"]
    keep = sum(int(p.split(":")[1]) for p in b["passive"] if p.startswith("keep:"))
    assert effects.keep_limit(s, 0) == 3 + keep
    if any(p.startswith("on-green:") for p in b["passive"]):
        hand(s, 0, "g-farms")
        give(s, 0, "plant", "water")
        vp = s.seats[0]["vp"]
        step(s, "main")
        run(s, 0, "play g-farms")
        assert s.seats[0]["vp"] == vp + 1


def test_storage_card_raises_the_dice_kept_in_production() -> None:
    """Cards: a storage card raises the limit of 3 dice kept in a production turn."""
    s = position(2)
    table(s, 0, "b-vault")
    give(s, 0, "heat", "heat", "water", "plant", "money", "city")
    wild(s, 0, 1)
    step(s, "turn")
    run(s, 0, "production", "keep heat", "keep heat", "keep water", "keep plant")
    assert s.queue[-1]["kind"] == "keep"  # 5 may be kept with the vault
    events = run(s, 0, "keep money")
    assert s.queue[-1]["kind"] != "keep"
    assert [e["dice"] for e in events if e["type"] == "dice returned"] == [{"city": 1}]
