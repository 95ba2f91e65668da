"""Terraforming Mars: The Dice Game: set-up, the production turn and the action turn.

Positions are built by hand with ``position``; each test quotes the rule it checks from the
rulebook (Terraforming Mars: The Dice Game, FryxGames, crowdfunding edition, after the Traditional Chinese preview
that docs/rules/tm-dice.md cites; in English words) or docs/rules/tm-dice.md.
"""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.tm_dice import TMDice
from engine.tm_dice.content import CARDS, CORPORATIONS, DICE_PER_COLOUR, FACE_COLOUR

GAME = TMDice()


# -- building positions ---------------------------------------------------------------------
def position(players: int = 2, seed: int = 3, corps: tuple[str, ...] = (), rules_version: int | None = None) -> object:
    """A game past set-up with empty hands, no dice, no wild tokens and no VP; seat 0 to start.

    ``corps`` names each seat's corporation (default: the first one offered); ``rules_version``
    (default: the current one) the rules it is played by.
    """
    s = GAME.new(players, seed, rules_version=rules_version)
    for seat in range(players):
        p = s.seats[seat]
        p["corp"] = corps[seat] if seat < len(corps) else p["offer"][0]
        p["offer"] = []
    s.stage = "play"
    for p in s.seats:
        s.deck.extend(p["hand"])
        p["hand"] = []
    s.queue = [{"kind": "advance", "seat": 0}, {"kind": "finish", "seat": 0}]
    s.turn, s.current = 1, 0
    GAME.load(s.to_dict())
    return s


def start_pool(s, colour: str) -> int:
    """The dice of ``colour`` in the pool after set-up: 12, less the award die of that colour."""
    return DICE_PER_COLOUR - sum(FACE_COLOUR[a] == colour for a in s.awards)


def give(s, seat: int, *faces: str) -> None:
    for face in faces:
        s.pool[FACE_COLOUR[face]] -= 1
        s.seats[seat]["dice"][face] = s.seats[seat]["dice"].get(face, 0) + 1


def wild(s, seat: int, n: int) -> None:
    s.wild_supply -= n
    s.seats[seat]["wild"] += n


def hand(s, seat: int, *card_ids: str) -> None:
    for c in card_ids:
        for pile in [s.deck, s.discard] + [p["hand"] for p in s.seats]:
            if c in pile:
                pile.remove(c)
        s.seats[seat]["hand"].append(c)


def table(s, seat: int, *card_ids: str) -> None:
    """Put cards straight onto the seat's table, as if played earlier."""
    for c in card_ids:
        s.deck.remove(c)
        s.seats[seat][CARDS[c].colour].append(c)


def step(s, kind: str, seat: int = 0, **data) -> None:
    """Make ``kind`` the step now asked of ``seat`` (on top of the turn's end)."""
    s.queue.append({"kind": kind, "seat": seat, **data})


def run(s, seat: int, *texts: str) -> list[dict]:
    events = []
    for text in texts:
        events += s.apply(seat, text)
    GAME.load(s.to_dict())
    return events


def actions(s, seat: int = 0) -> list[str]:
    return [str(a) for a in s.legal_actions(seat)]


def finish_turn(s, seat: int = 0) -> None:
    """Answer 'end' while the finishing step is asked."""
    while s.queue and s.queue[-1]["kind"] == "finish" and s.queue[-1]["seat"] == seat:
        s.apply(seat, "end")


# -- set-up ---------------------------------------------------------------------------------
def test_setup_puts_markers_at_start_and_every_die_in_the_pool() -> None:
    """Setup 1-2: oxygen marker on 0 %, temperature on -32 C, the 7 oceans stacked; all dice in the pool
    (but the 3 award dice, setup 5)."""
    s = GAME.new(3, 1)
    view = s.view(None)["public"]
    assert view["parameters"]["oxygen"]["value"] == 0
    assert view["parameters"]["temperature"]["value"] == -32
    assert view["parameters"]["oceans"]["position"] == 0 and view["tiles"] == []
    awards = {FACE_COLOUR[a] for a in s.awards}
    assert view["pool"] == {c: 12 - (c in awards) for c in ("green", "gray", "blue", "red", "yellow")}
    assert view["wild_supply"] == 23


@pytest.mark.parametrize(("players", "count"), [(1, 4), (2, 4), (3, 6), (4, 8)])
def test_bonus_cards_chosen_by_player_count(players: int, count: int) -> None:
    """Setup 4: choose 4 / 4 / 6 / 8 bonus cards at random for 1 / 2 / 3 / 4 players."""
    s = GAME.new(players, 5)
    assert len(s.bonus_deck) == count == len(set(s.bonus_deck))
    assert s.view(None)["public"]["bonus_deck"] == count


def test_three_award_dice_of_different_colours_are_rolled() -> None:
    """Setup 5: take one die of each colour, choose 3 at random and roll them onto the award spots."""
    for seed in range(10):
        awards = GAME.new(2, seed).view(None)["public"]["awards"]
        assert len(awards) == 3 and len({a["colour"] for a in awards}) == 3


def test_three_random_milestones() -> None:
    """Setup 6: choose 3 milestone tiles at random; the rest go back to the box."""
    drawn = {tuple(GAME.new(2, seed).milestones) for seed in range(12)}
    assert all(len(set(m)) == 3 for m in drawn) and len(drawn) > 1


def test_five_cards_and_two_corporations_are_dealt_in_secret() -> None:
    """Setup 8: deal 5 project cards and 2 corporation cards to each player; each keeps 1."""
    s = GAME.new(2, 9)
    for seat in (0, 1):
        private = s.view(seat)["private"]
        assert len(private["hand"]) == 5 and len(private["corporations"]) == 2
        assert actions(s, seat) == [f"corporation {c['id']}" for c in private["corporations"]]
    s.apply(0, actions(s, 0)[0])
    assert s.to_move() == [1]
    assert s.view(None)["public"]["seats"][0]["corporation"] is None  # kept secretly until all chose


def test_corporations_revealed_with_starting_bonus_and_production_dice() -> None:
    """Setup 9-10: in turn order, reveal the corporation, take its starting bonus, take and roll its production dice."""
    s = GAME.new(2, 2)
    for seat in (0, 1):
        s.apply(seat, actions(s, seat)[0])
    public = s.view(None)["public"]
    for seat in (0, 1):
        corp = CORPORATIONS[s.seats[seat]["corp"]]
        assert public["seats"][seat]["corporation"]["id"] == corp["id"]
    while s.queue[-1]["kind"] != "turn":
        seat = s.to_move()[0]
        s.apply(seat, actions(s, seat)[0])
    for seat in (0, 1):
        corp = CORPORATIONS[s.seats[seat]["corp"]]
        held = sum(s.seats[seat]["dice"].values()) + s.seats[seat]["wild"]
        assert held >= len(corp["production"])


def test_first_player_gives_one_resource_to_the_last() -> None:
    """Setup 11: the first player must give 1 of their resources to the player who goes last."""
    s = position(3)
    give(s, 0, "heat", "water")
    s.queue = [{"kind": "begin", "seat": 0}, {"kind": "gift", "seat": 0, "to": 2}]
    assert actions(s) == ["give water", "give heat"]
    run(s, 0, "give heat")
    assert s.seats[2]["dice"] == {"heat": 1} and s.seats[0]["dice"] == {"water": 1}
    assert s.queue[-1] == {"kind": "turn", "seat": 0}


# -- production turn ------------------------------------------------------------------------
def test_production_keeps_at_most_three_dice() -> None:
    """Production 1: keep at most 3 of your dice (wild tokens do not count); the rest go back to the pool."""
    s = position(2, corps=("corp-helio", "corp-ledger"))
    give(s, 0, "heat", "heat", "water", "plant", "money")
    wild(s, 0, 2)
    step(s, "turn")
    run(s, 0, "production")
    assert actions(s) == ["keep plant", "keep water", "keep heat", "keep money", "return-rest"]
    run(s, 0, "keep heat", "keep heat")
    assert actions(s) == ["keep plant", "keep water", "keep money", "return-rest"]
    run(s, 0, "keep water")
    assert s.seats[0]["wild"] == 2
    produced = 3  # corp-helio: red, red, gray
    assert sum(s.seats[0]["dice"].values()) == 3 + produced
    assert s.pool["green"] == start_pool(s, "green") and s.pool["yellow"] == start_pool(s, "yellow")


def test_production_may_keep_fewer_dice() -> None:
    """Production 1: keep *at most* 3 dice: the player may return the rest at any point."""
    s = position(2, corps=("corp-helio", "corp-ledger"))
    give(s, 0, "heat", "heat", "water", "plant", "money")
    step(s, "turn")
    run(s, 0, "production", "keep money", "return-rest")
    assert s.pool["red"] == start_pool(s, "red") - 2 and sum(s.seats[0]["dice"].values()) == 1 + 3


def test_rules_version_1_production_keeps_every_die_under_the_limit() -> None:
    """Production 1 as version 1 played it (docs, adaptation 5): holding no more than 3 dice, all
    are kept without a question."""
    s = position(2, rules_version=1)
    give(s, 0, "heat", "water")
    step(s, "turn")
    run(s, 0, "production")
    assert s.queue[-1]["kind"] != "keep" and s.seats[0]["dice"].get("water", 0) >= 1


def test_production_keeps_at_most_3_so_fewer_may_be_kept() -> None:
    """Production 1: 「保留至多 3 顆自己當前擁有的骰子 … 並將其餘的骰子放回骰池」 (keep *at most* 3 of
    your dice, return the rest to the pool): holding 3 or fewer, a player may still return some."""
    s = position(2)
    give(s, 0, "heat", "water")
    step(s, "turn")
    run(s, 0, "production")
    assert sorted(actions(s)) == ["keep-all", "return heat", "return water"] and actions(s)[0] == "keep-all"
    heat_in_pool = s.pool["red"]
    events = run(s, 0, "return heat")
    assert events == [{"type": "dice returned", "visible_to": None, "seat": 0, "dice": {"heat": 1}}]
    assert s.pool["red"] == heat_in_pool + 1 and "heat" not in s.seats[0]["dice"]
    assert actions(s) == ["keep-all", "return water"]
    events = run(s, 0, "keep-all")
    assert events[0]["type"] == "dice kept" and events[0]["dice"] == {"water": 1}
    assert s.queue[-1]["kind"] != "keep"


def test_production_returning_every_die_ends_the_keep_step() -> None:
    """Production 1: keeping none of your dice is keeping at most 3."""
    s = position(2)
    give(s, 0, "heat")
    step(s, "turn")
    run(s, 0, "production")
    run(s, 0, "return heat")
    assert s.queue[-1]["kind"] != "keep" and "heat" not in s.seats[0]["dice"]


def test_production_discards_then_draws_up_to_five() -> None:
    """Production 2-3: discard any number of cards, then draw until you hold 5."""
    s = position(2)
    hand(s, 0, "r-grant", "r-windfall", "g-farms")
    step(s, "turn")
    run(s, 0, "production")
    assert "keep-hand" in actions(s)
    run(s, 0, "discard-cards", "discard r-grant", "keep-hand")
    assert len(s.seats[0]["hand"]) == 5 and "r-grant" in s.discard and "r-windfall" in s.seats[0]["hand"]


def test_production_rolls_corporation_and_green_card_dice() -> None:
    """Production 4: take and roll every die in the brown boxes of your corporation and green cards."""
    s = position(2, corps=("corp-helio", "corp-ledger"))
    table(s, 0, "g-furnace")
    step(s, "turn")
    events = run(s, 0, "production")
    rolled = [e["colour"] for e in events if e["type"] == "die rolled"]
    assert sorted(rolled) == sorted(["red", "red", "gray", "red", "red"])


def test_short_pool_gives_one_wild_token_in_production_only() -> None:
    """Production 4: if the pool runs short, take what there is and 1 wild token, however many were missing."""
    s = position(2, corps=("corp-helio", "corp-ledger"))
    give(s, 1, *["heat"] * start_pool(s, "red"))
    step(s, "turn")
    run(s, 0, "production")
    assert s.seats[0]["wild"] == 1 and sum(s.seats[0]["dice"].values()) == 1
    s2 = position(2)
    give(s2, 1, *["heat"] * start_pool(s2, "red"))
    step(s2, "effects", effects=["gain:red"], source="test")
    events = s2._run()
    assert [e["reason"] for e in events if e["type"] == "skipped"] == ["pool-empty"]
    assert s2.seats[0]["wild"] == 0  # outside production, no compensation


def test_production_readies_used_blue_cards() -> None:
    """Production 5: turn your used blue cards back; they may be used again."""
    s = position(2)
    table(s, 0, "b-lab")
    s.seats[0]["used"] = ["b-lab"]
    step(s, "turn")
    run(s, 0, "production")
    assert s.seats[0]["used"] == []


# -- action turn ----------------------------------------------------------------------------
def test_action_turn_is_one_support_then_one_main_action() -> None:
    """Action turn: perform 1 support action, then 1 main action (docs: choosing the support
    action at the start of the turn is choosing an action turn)."""
    s = position(2)
    give(s, 0, "money", "money", "money")
    step(s, "turn")
    assert actions(s)[0] == "production" and "roll green" in actions(s) and "action" not in actions(s)
    events = run(s, 0, "roll green")
    assert [e["kind"] for e in events if e["type"] == "turn kind"] == ["action"]
    assert s.queue[-1]["kind"] == "main"
    run(s, 0, "buy-vp")
    assert s.seats[0]["vp"] == 2 and s.to_move() == [1]


def test_action_turn_without_any_support_action_skips_it() -> None:
    """Action turn (docs, adaptation 4): with no support action possible, the support step is passed."""
    s = position(2)
    for colour in s.pool:
        s.pool[colour] = 0
    s.seats[1]["dice"] = {"heat": 12, "water": 12, "plant": 12, "city": 12, "money": 12}
    step(s, "turn")
    assert actions(s) == ["production", "action"]
    run(s, 0, "action")
    assert actions(s) == ["skip"]


def test_support_takes_and_rolls_a_die_of_your_choice() -> None:
    """Support 1: take 1 die of your choice from the pool and roll it."""
    s = position(2)
    step(s, "support", as_main=False)
    events = run(s, 0, "roll blue")
    assert [e["colour"] for e in events if e["type"] == "die rolled"] == ["blue"]
    assert s.pool["blue"] == start_pool(s, "blue") - 1


def test_support_discards_a_die_to_turn_another_to_any_face() -> None:
    """Support 2: discard any 1 die to turn another die to any face."""
    s = position(2)
    give(s, 0, "heat", "plant")
    step(s, "support", as_main=False)
    run(s, 0, "discard-to-turn", "drop heat")
    assert actions(s) == ["turn plant to microbe", "turn plant to animal"]
    run(s, 0, "turn plant to animal")
    assert s.seats[0]["dice"] == {"animal": 1} and s.pool["red"] == start_pool(s, "red")


def test_support_discards_a_die_to_draw_two_cards() -> None:
    """Support 3: discard any 1 die to draw 2 cards."""
    s = position(2)
    give(s, 0, "heat")
    step(s, "support", as_main=False)
    run(s, 0, "discard-to-draw", "drop heat")
    assert len(s.seats[0]["hand"]) == 2 and s.seats[0]["dice"] == {}


@pytest.mark.parametrize(
    ("action", "faces", "check"),
    [
        ("raise-temperature", ["heat"] * 3, lambda s: s.temperature == 1),
        ("place-ocean", ["water"] * 3, lambda s: s.oceans == 1),
        ("place-greenery", ["plant"] * 4, lambda s: s.oxygen == 1),
        ("place-city", ["city"] * 3, lambda s: any(t["tile"] == "city" for t in s.tiles.values())),
        ("buy-vp", ["money"] * 3, lambda s: s.seats[0]["vp"] == 2),
    ],
)
def test_general_main_actions(action: str, faces: list[str], check) -> None:
    """Main: 3 heat raise the temperature; 3 water place an ocean; 4 plants a greenery;
    3 city resources a city; 3 money give 2 VP."""
    s = position(2)
    give(s, 0, *faces)
    step(s, "main")
    paid = [e for e in run(s, 0, action) if e["type"] == "paid"]
    assert paid and paid[0]["faces"] == {faces[0]: len(faces)}
    if s.queue[-1]["kind"] == "place":
        if actions(s)[0].startswith("open "):  # more than 25 areas: first the row
            run(s, 0, actions(s)[0])
        run(s, 0, actions(s)[0])
    assert check(s) and s.seats[0]["vp"] >= 2


def test_general_action_needs_its_resources() -> None:
    """Main: the general actions are paid in full; 2 heat cannot raise the temperature."""
    s = position(2)
    give(s, 0, "heat", "heat")
    step(s, "main")
    assert "raise-temperature" not in actions(s)
    with pytest.raises(IllegalAction):
        s.apply(0, "raise-temperature")
    wild(s, 0, 1)
    assert "raise-temperature" in actions(s)


def test_main_action_may_be_a_support_action() -> None:
    """Main 4: one support action may be taken as the main action."""
    s = position(2)
    step(s, "main")
    run(s, 0, "support", "roll red")
    assert sum(s.seats[0]["dice"].values()) == 1


def test_playing_a_card_pays_its_exact_cost_with_wild_tokens_for_any_resource() -> None:
    """Playing a card: pay the resources (dice) shown; wild tokens stand for any resource; dice go back to the pool."""
    s = position(2)
    hand(s, 0, "r-grant")  # science + money: draw 3
    give(s, 0, "money")
    wild(s, 0, 1)
    step(s, "main")
    run(s, 0, "play r-grant")
    assert s.seats[0]["wild"] == 0 and s.seats[0]["dice"] == {} and s.wild_supply == 23
    assert s.seats[0]["red"] == ["r-grant"] and len(s.seats[0]["hand"]) == 3


def test_payment_asks_whether_a_die_or_a_wild_token_pays() -> None:
    """Paying: when dice and wild tokens both could pay, the player picks the whole payment in one
    step (docs: "Paying"); a wild token stands for any resource."""
    s = position(2)
    hand(s, 0, "r-grant")
    give(s, 0, "money", "science")
    wild(s, 0, 1)
    step(s, "main")
    run(s, 0, "play r-grant")
    assert actions(s) == ["pay wild=none", "pay wild=money:1", "pay wild=science:1"]
    run(s, 0, "pay wild=money:1")
    assert s.seats[0]["dice"] == {"money": 1} and s.seats[0]["wild"] == 0


def test_card_without_the_resources_cannot_be_played() -> None:
    """Playing a card requires paying its whole cost."""
    s = position(2)
    hand(s, 0, "r-grant")
    give(s, 0, "money")
    step(s, "main")
    assert "play r-grant" not in actions(s)


def test_effects_resolve_in_any_order() -> None:
    """Playing a card: resolve its effects in any order you like."""
    s = position(2)
    give(s, 0, "heat")
    step(s, "effects", effects=["turn", "face:plant"], source="test")
    assert actions(s) == ["resolve turn", "resolve face:plant"]
    run(s, 0, "resolve face:plant")
    assert s.queue[-1]["kind"] == "turn-die"
    assert actions(s) == [
        "turn plant to microbe",
        "turn plant to animal",
        "turn heat to event",
        "turn heat to magma",
        "leave-dice",
    ]


def test_impossible_effects_are_skipped() -> None:
    """Playing a card: ignore any effect that cannot be carried out."""
    s = position(2)
    give(s, 1, *["plant"] * 6, *["microbe"] * 4, *["animal"] * 2)
    step(s, "effects", effects=["gain:green", "turn"], source="test")
    events = run(s, 0, "resolve gain:green")
    assert any(e["type"] == "skipped" for e in events)
    assert s.seats[0]["dice"] == {} and s.to_move() == [1]


def test_red_card_acts_once_when_played() -> None:
    """Red cards: the effect is resolved at once when the card is played."""
    s = position(2)
    hand(s, 0, "r-windfall")
    give(s, 0, "money", "money")
    step(s, "main")
    run(s, 0, "play r-windfall")
    assert s.seats[0]["wild"] == 2 and s.seats[0]["red"] == ["r-windfall"]


def test_green_card_does_nothing_when_played_and_adds_production() -> None:
    """Green cards: no effect when played; each production turn, take and roll the dice in its brown box."""
    s = position(2, corps=("corp-helio", "corp-ledger"))
    hand(s, 0, "g-bank")
    give(s, 0, "money", "science")
    step(s, "main")
    events = run(s, 0, "play g-bank")
    assert not [e for e in events if e["type"] == "die rolled"]
    assert s.view(None)["public"]["seats"][0]["production"] == ["red", "red", "gray", "yellow"]


def test_blue_main_action_once_until_next_production() -> None:
    """Blue cards: pay the cost left of the arrow, do the effect, turn the card; usable again after your production."""
    s = position(2)
    table(s, 0, "b-ventures")  # main: space -> 2 VP
    give(s, 0, "space", "space")
    step(s, "main")
    run(s, 0, "use b-ventures")
    assert s.seats[0]["vp"] == 2 and s.seats[0]["used"] == ["b-ventures"]
    step(s, "main")
    assert "use b-ventures" not in actions(s)


def test_blue_support_action_is_a_support_action() -> None:
    """Support: the support action of one of your unused blue cards."""
    s = position(2)
    table(s, 0, "b-lab")  # support: free -> draw 1
    step(s, "support", as_main=False)
    assert "use b-lab" in actions(s)
    step(s, "main")
    assert "use b-lab" not in actions(s)
    s.queue.pop()
    run(s, 0, "use b-lab")
    assert len(s.seats[0]["hand"]) == 1


def test_free_actions_any_time_in_your_turn() -> None:
    """Free actions: at any time in your turn, before or after the main or support action,
    or at the start or end of a production turn."""
    s = position(2)
    table(s, 0, "b-drone")  # free: turn a die
    give(s, 0, "heat")
    for kind in ("turn", "support", "main"):
        step(s, kind, as_main=False) if kind == "support" else step(s, kind)
        assert "free b-drone" in actions(s)
        s.queue.pop()
    assert actions(s) == ["end", "free b-drone"]
    run(s, 0, "free b-drone", "turn heat to magma")
    assert s.seats[0]["dice"] == {"magma": 1} and s.queue[-1]["kind"] == "turn"


def test_dice_are_never_rerolled() -> None:
    """Other rules 1: players may not re-roll dice (no action re-rolls a held die)."""
    s = position(2)
    give(s, 0, "heat", "water")
    for kind in ("support", "main"):
        step(s, kind, as_main=False) if kind == "support" else step(s, kind)
        assert not [a for a in actions(s) if "reroll" in a]
        s.queue.pop()


def test_bonus_card_played_at_end_of_turn_on_reaching_5_vp() -> None:
    """Other rules 7: reaching 5 and 12 VP, at the end of your turn look at all bonus cards, play 1 for free."""
    s = position(2)
    s.seats[0]["vp"] = 4
    give(s, 0, "money", "money", "money")
    step(s, "main")
    events = run(s, 0, "buy-vp")
    assert s.queue[-1]["kind"] == "bonus" and s.view(0)["private"]["bonus_choice"]
    assert "bonus_choice" not in s.view(1)["private"]
    # Looked at in secret: the cards are in an event for seat 0 only (the bot DMs them).
    shown = [e for e in events if e["type"] == "bonus cards shown"]
    assert len(shown) == 1 and shown[0]["visible_to"] == [0]
    assert [c["id"] for c in shown[0]["cards"]] == list(s.bonus_deck)
    deck = list(s.bonus_deck)
    choice = deck[0]
    run(s, 0, f"bonus {choice}")
    while s.queue[-1]["seat"] == 0 and s.queue[-1]["kind"] != "turn":
        run(s, 0, actions(s)[0])
    assert s.seats[0]["bonus"] == [choice] and len(s.bonus_deck) == len(deck) - 1
    assert s.seats[0]["thresholds"] == [5]
