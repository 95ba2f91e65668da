"""The Fox in the Forest Duet against the engine contract: saving, refusing, secrets, data."""

from __future__ import annotations

import json
import random
import re

import pytest

from engine import GAMES, IllegalAction, Outcome
from engine.fox_duet.board import GEM_TOKENS, LEVELS, SIDES
from engine.fox_duet.cards import CARDS
from tests.engine.test_fox_duet_rules import make_state

GAME = GAMES["fox-duet"]


def random_game(seed, level, steps=None):
    """Random legal play (never conceding); yields (state, seat, action, events) after each step."""
    s = GAME.new(2, seed, {"level": level})
    rng = random.Random(seed)
    n = 0
    while s.outcome() is None and (steps is None or n < steps):
        seat = rng.choice(s.to_move())
        action = rng.choice([a for a in s.legal_actions(seat) if a.verb != "concede"])
        events = s.apply(seat, str(action))
        n += 1
        yield s, seat, str(action), events


def card_ids_in(text):
    return set(re.findall(r'"((?:dove|rose|star)-\d+)"', text))


# -- saving ----------------------------------------------------------------------------------


def test_load_of_to_dict_continues_exactly():
    """Game.load(s.to_dict()) continues exactly as s would (random generator included)."""
    for level in (1, 2, 3):
        log = []
        for s, seat, action, _ in random_game(11, level):
            data = json.loads(json.dumps(s.to_dict()))
            copy = GAME.load(data)
            assert copy.to_dict() == s.to_dict()
            assert copy.view(0) == s.view(0) and copy.view(1) == s.view(1)
            log.append((seat, action))
        replay = GAME.new(2, 11, {"level": level})
        for seat, action in log:
            replay.apply(seat, action)
        assert replay.to_dict() == s.to_dict()


def test_a_loaded_state_deals_the_next_round_like_the_original():
    """The generator's state is saved: the next round's deal is the same after loading."""
    s = make_state([["dove-4"], ["dove-6"]], "star-1", dealer=1, trick=11)
    s.apply(0, "play dove-4")
    s.apply(1, "play dove-6")
    copy = GAME.load(s.to_dict())
    s.apply(0, "forest end=0")
    copy.apply(1, "forest end=0")
    assert copy.hands == s.hands and copy.decree == s.decree and copy.deck == s.deck


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("hands"), "missing key 'hands'"),
        (lambda d: d.update(level=4), "'level'"),
        (lambda d: d.update(side="B"), "side"),
        (lambda d: d["hands"][0].__setitem__(0, d["deck"][0]), "exactly once"),
        (lambda d: d["hands"][0].extend(d["deck"][:2]), "at most 11 cards"),
        (lambda d: d.update(decree="dove-11"), "'decree'"),
        (lambda d: d.update(phase="dance"), "'phase'"),
        (lambda d: d.update(supply=0), "add up"),
        (lambda d: d.update(tracker=11), "'tracker'"),
        (lambda d: d.update(rng=-1), "'rng'"),
        (lambda d: d.update(pending={"fox_player": 0}), "'pending'"),
        (lambda d: d.update(extra=1), "unexpected key 'extra'"),
        (lambda d: d.update(players=3), "2 players"),
        (lambda d: d.update(game="noctiluca"), "not 'fox-duet'"),
        (lambda d: d["covered"].__setitem__(0, True), "a covered space holds no gems"),
        (lambda d: d["covered"].__setitem__(5, True), "start circle"),
        (lambda d: d.update(forest_left=3), "'forest_left'"),
        (lambda d: d.update(hands="nope"), "'hands'"),
        (lambda d: d.update(result={"won": True}), "'result'"),
    ],
)
def test_load_rejects_a_damaged_save_with_a_precise_message(change, message):
    """load() validates and raises ValueError with a precise message."""
    data = GAME.new(2, 3).to_dict()
    change(data)
    with pytest.raises(ValueError, match=re.escape(message)):
        GAME.load(data)


# -- refusing actions ------------------------------------------------------------------------


def test_refused_actions_leave_the_state_unchanged():
    """apply raises IllegalAction for a wrong seat, garbage text or not following suit; the
    state is unchanged when it raises."""
    s = make_state([["dove-4", "rose-6"], ["dove-8", "star-6", "rose-2"]], "star-1")
    before = s.to_dict()
    for seat, text in [
        (1, "play dove-8"),  # not seat 1's turn
        (0, ""),
        (0, "fly away"),
        (0, "play"),
        (0, "play dove-99"),
        (0, "play dove-8"),  # not in this hand
        (0, "toward 1"),
        (0, 42),
        (2, "play dove-4"),
    ]:
        with pytest.raises(IllegalAction):
            s.apply(seat, text)
        assert s.to_dict() == before
    s.apply(0, "play dove-4")
    before = s.to_dict()
    with pytest.raises(IllegalAction, match=r"follow the led suit \(dove\)"):
        s.apply(1, "play rose-2")
    with pytest.raises(IllegalAction, match="You do not hold"):
        s.apply(1, "play dove-4")
    assert s.to_dict() == before
    assert s.version == 1


def test_actions_are_case_and_space_insensitive():
    """An Action's canonical text is lower case; apply accepts the same text in any case."""
    s = make_state([["dove-4", "rose-6"], ["dove-8", "rose-2"]], "star-1")
    s.apply(0, "  PLAY   Dove-4 ")
    assert s.trick_cards == [{"seat": 0, "card": "dove-4"}]


# -- secrets ---------------------------------------------------------------------------------


def test_views_hide_each_hand_from_the_other_seat_and_spectators():
    """view(None)["private"] == {}; no card of one hand appears in the other seat's view."""
    for level in (1, 3):
        for s, _, _, _ in random_game(5, level):
            spectator = s.view(None)
            assert spectator["private"] == {}
            for seat in (0, 1):
                view = s.view(seat)
                assert view["public"] == spectator["public"]
                other = card_ids_in(json.dumps(s.view(1 - seat)["private"]))
                assert not other & card_ids_in(json.dumps(view)), (seat, other)
                assert not other & card_ids_in(json.dumps(spectator))
                hand = [c["id"] for c in view["private"]["hand"]]
                assert hand == sorted(hand, key=lambda c: (c.split("-")[0], int(c.split("-")[1])))


def test_private_events_go_only_to_their_owner():
    """Private things (hands, gift picks) go only in events visible to their owner."""
    seen = set()
    for seed in range(15):
        for _, _, _, events in random_game(seed, 1):
            for e in events:
                json.dumps(e)
                if e["type"] in ("deal", "gift chosen", "gift exchanged") and e["visible_to"] is not None:
                    assert e["visible_to"] == [e["seat"]]
                    seen.add(e["type"])
                if e["visible_to"] is None:
                    assert "hand" not in e and e["type"] not in ("gift chosen", "gift exchanged")
    assert {"deal", "gift chosen", "gift exchanged"} <= seen


# -- data ------------------------------------------------------------------------------------


def test_cards_data_matches_the_game():
    """30 cards: 3 suits x ranks 1-10; footprints by rank 0,3,2,1,1,2,0,2,0,3; abilities on 1,3,5,7,9."""
    assert len(CARDS) == 30
    footprints = [0, 3, 2, 1, 1, 2, 0, 2, 0, 3]
    abilities = {1: "musician", 3: "fox", 5: "gazelle", 7: "gift", 9: "royal"}
    for card in CARDS.values():
        assert card.footprints == footprints[card.rank - 1]
        assert card.ability == abilities.get(card.rank)


def test_side_b_is_harder_than_side_a_and_uses_every_gem_token():
    """Side B: 13 squares, 3 diamonds, 3 "+": level 3 uses 16 + 3 + 3 = 22 gems, pushed outward."""
    b = SIDES["B"]
    assert sum(p.gems for p in b.points) == LEVELS[2].gems == 13
    assert sum(p.diamond for p in b.points) == 3 and LEVELS[3].gems == 16
    assert sum(p.plus for p in b.points) == 3
    assert LEVELS[3].gems + 2 * 3 == GEM_TOKENS == 22

    def mean_distance(side, diamonds=False):
        gems = [p.gems + (diamonds and p.diamond) for p in side.points]
        return sum(g * abs(i - side.start) for i, g in enumerate(gems)) / sum(gems)

    assert mean_distance(b) > mean_distance(SIDES["A"]) + 0.5
    assert mean_distance(b, True) > mean_distance(SIDES["A"]) + 0.5


# -- smoke -----------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3])
def test_random_play_always_finishes_with_an_outcome(level):
    """Random legal play from 100 seeds finishes with an Outcome in a bounded number of steps,
    never offering more than 25 choices in one step."""
    for seed in range(100):
        s = GAME.new(2, seed, {"level": level})
        rng = random.Random(seed)
        steps = 0
        while s.outcome() is None:
            assert steps < 200
            movers = s.to_move()
            assert movers
            for seat in movers:
                assert 0 < len(s.legal_actions(seat)) <= 25
            seat = rng.choice(movers)
            s.apply(seat, rng.choice([a for a in s.legal_actions(seat) if a.verb != "concede"]))
            steps += 1
        outcome = s.outcome()
        assert isinstance(outcome, Outcome)
        assert outcome.scores[0] == outcome.scores[1]
        assert outcome.winners in ([], [0, 1])
        assert s.to_move() == [] and s.view(None)["public"]["phase"] == "over"


def test_view_has_exactly_the_documented_shape():
    """docs/fox-duet-view.md: the keys of view(seat)["public"] and ["private"]."""
    public_keys = {
        "game", "level", "side", "round", "trick", "dealer", "leader", "phase", "to_move", "spaces",
        "tracker", "forest_tokens_left", "forest_tokens_total", "gems_on_board", "gems_collected",
        "gems_in_supply", "decree", "trick_cards", "last_trick", "memory_aid", "hand_sizes", "deck_size", "pending",
        "result",
    }  # fmt: skip
    pending_keys = {
        "play": set(),
        "over": set(),
        "fox-pick": {"fox_player"},
        "fox-swap": {"fox_player", "chooser"},
        "gift": {"chosen"},
        "gazelle": {"winner", "cards"},
        "direction": {"winner", "steps"},
        "forest": {"ends"},
    }
    phases = set()
    for seed in range(8):
        for s, _, _, _ in random_game(seed, 2):
            view = s.view(0)
            public = view["public"]
            assert set(public) == public_keys
            assert set(view["private"]) == {"hand", "gift"}
            assert set(public["pending"]) == pending_keys[public["phase"]]
            assert all(set(sp) == {"covered", "gems", "plus", "diamond", "start"} for sp in public["spaces"])
            assert set(public["decree"]) == {"id", "suit", "rank", "footprints", "ability"}
            if public["last_trick"] is not None:
                assert set(public["last_trick"]) == {"cards", "winner", "steps", "toward", "overshoot", "gem"}
            phases.add(public["phase"])
    assert phases == set(pending_keys)
