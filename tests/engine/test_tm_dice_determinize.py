"""Terraforming Mars: The Dice Game: ``State.determinize(seat, seed)``.

A determinization draws again everything ``seat`` cannot see (docs/ENGINE-EXTENSIONS.md,
engine/tm_dice/determinize.py): the other hands and the deck's order, the corporations offered
to the others while they choose, the bonus cards until the seat has looked at them, and the
random generator. Each test names the knowledge it protects. tests/engine/test_determinize.py
checks the contract shared by every game (same view, same choices, same seed same copy).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import GAMES
from engine.tm_dice.content import BONUS_CARDS, CARD_IDS, CORPORATIONS
from engine.tm_dice.determinize import has_seen_bonus_cards

GAME = GAMES["tm-dice"]
PLAYED = ("red", "blue", "green")


def dump(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def play(state, rng: random.Random) -> None:
    """One random legal step (never a resignation)."""
    seat = rng.choice(state.to_move())
    actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in ("resign", "concede")]
    state.apply(seat, rng.choice(actions))


def positions(players: int, seed: int, every: int = 37, rules_version: int | None = None):
    """Positions of a random game, every ``every`` steps from the start to the end."""
    rng = random.Random(seed)
    state = GAME.new(players, seed, rules_version=rules_version)
    step = 0
    while state.outcome() is None:
        if step % every == 0:
            yield state
        play(state, rng)
        step += 1
    yield state


def reshuffled_position(players: int, seed: int):
    """A running game some turns after the discard pile became the deck, others holding cards."""
    rng = random.Random(seed)
    state = GAME.new(players, seed)
    while state.outcome() is None:
        fresh = set(state.reshuffled or CARD_IDS)
        held = [c for p in state.seats[1:] for c in p["hand"] if c not in fresh]
        if state.reshuffled is not None and held and len(state.deck) < len(state.reshuffled) - 2:
            return state
        play(state, rng)
    raise AssertionError("this game never reshuffled")


def unseen_cards(state, seat: int) -> Counter:
    return Counter(state.deck + [c for o, p in enumerate(state.seats) if o != seat for c in p["hand"]])


def known_part(state, seat: int) -> dict:
    """The save without what ``seat`` cannot see: this must be the same in every copy."""
    data = state.to_dict()
    for key in ("rng", "deck", "setup_events"):
        del data[key]
    if not has_seen_bonus_cards(state, seat):
        del data["bonus_deck"]
    for o, p in enumerate(data["seats"]):
        if o != seat:
            p["hand"] = len(p["hand"])
            if state.stage == "corp":
                p["offer"], p["corp"] = len(p["offer"]), p["corp"] is not None
    return data


# -- conservation -------------------------------------------------------------------------------
@pytest.mark.parametrize("rules_version", [1, 2])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_card_and_die_stays_and_only_the_unseen_move(players: int, rules_version: int) -> None:
    """Every project card is in exactly one place; the seat's hand, the discard pile, the cards
    played, dice, wild tokens, the board and the steps are unchanged; the others' hands keep
    their sizes and the deck its size, dealt from the cards the seat has not seen."""
    checked = 0
    for seed in range(4):
        for state in positions(players, seed, rules_version=rules_version):
            for seat in range(players):
                copy = state.determinize(seat, seed * 7 + seat)
                assert known_part(copy, seat) == known_part(state, seat)
                assert unseen_cards(copy, seat) == unseen_cards(state, seat), "the same unseen cards"
                everywhere = (
                    copy.deck + copy.discard + [c for p in copy.seats for k in ("hand",) + PLAYED for c in p[k]]
                )
                assert sorted(everywhere) == sorted(CARD_IDS)
                assert copy.view(seat) == state.view(seat)
                own_events = [e for e in state.setup_events if e["visible_to"] in (None, [seat])]
                assert copy.setup_events == own_events, "the others' private deal is not copied"
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_corporations_offered_to_the_others_come_from_those_the_seat_was_not_dealt(players: int) -> None:
    """While corporations are chosen in secret, the seat knows only its own two: the others'
    offers are any two of the rest (the box's included), and a seat that has chosen holds one
    of its offer."""
    state = GAME.new(players, 5)
    state.apply(1, state.legal_actions(1)[0])  # seat 1 has chosen, in secret
    seen = set()
    for seed in range(30):
        copy = state.determinize(0, seed)
        offers = [copy.seats[o]["offer"] for o in range(players)]
        assert offers[0] == state.seats[0]["offer"]
        flat = [c for offer in offers for c in offer]
        assert len(set(flat)) == len(flat) and set(flat) <= set(CORPORATIONS)
        assert [len(o) for o in offers] == [2] * players
        assert copy.seats[1]["corp"] in copy.seats[1]["offer"]
        assert all(copy.seats[o]["corp"] is None for o in range(2, players))
        assert copy.seats[0]["corp"] is None
        seen.add(tuple(map(tuple, offers)))
    assert len(seen) > 5, "the others' offers are drawn again"


def test_the_bonus_cards_are_drawn_again_until_the_seat_has_looked_at_them() -> None:
    """Solo: the bonus cards are drawn at random and stay hidden until the first production, when
    the player looks at them all: before, any of the unplayed bonus cards may be there; after,
    exactly those it saw (less the ones played)."""
    state = GAME.new(1, 8)
    state.apply(0, state.legal_actions(0)[0])
    assert not has_seen_bonus_cards(state, 0)
    decks = {tuple(state.determinize(0, seed).bonus_deck) for seed in range(40)}
    assert len(decks) > 10 and set().union(*decks) == set(BONUS_CARDS)
    assert all(len(d) == len(state.bonus_deck) for d in decks)
    state.apply(0, "production")
    rng = random.Random(1)
    while not has_seen_bonus_cards(state, 0):
        play(state, rng)
    assert state.view(0)["private"]["bonus_choice"]
    for seed in range(10):
        assert state.determinize(0, seed).bonus_deck == state.bonus_deck, "seen: it stays"
    while not state.seats[0]["bonus"]:
        play(state, rng)
    for seed in range(10):
        assert state.determinize(0, seed).bonus_deck == state.bonus_deck, "seen before, it stays"


def test_cards_held_when_the_deck_was_reshuffled_stay_in_the_others_hands() -> None:
    """Empty deck: the discard pile, which everyone saw, is shuffled into the new deck. The cards
    the others held then cannot be in that deck: each keeps as many of them as it holds, and
    the deck is dealt from the reshuffled cards no one has shown since."""
    for players in (2, 3, 4):
        state = reshuffled_position(players, 3)
        fresh = set(state.reshuffled or ())
        for seed in range(10):
            copy = state.determinize(0, seed)
            assert set(copy.deck) <= fresh
            for o in range(1, players):
                old = [c for c in state.seats[o]["hand"] if c not in fresh]
                assert len([c for c in copy.seats[o]["hand"] if c not in fresh]) == len(old)
            assert unseen_cards(copy, 0) == unseen_cards(state, 0)


# -- honesty ------------------------------------------------------------------------------------
def swap(data: dict, seat: int, rng: random.Random) -> None:
    """Exchange a card of another seat's hand with one of the deck, both among the cards the
    seat cannot tell apart, and give the generator another state: the seat's view is unchanged."""
    fresh = set(data["reshuffled"] or CARD_IDS)
    others = [o for o in range(data["players"]) if o != seat and data["seats"][o]["hand"]]
    deck = [i for i, c in enumerate(data["deck"]) if c in fresh]
    if others and deck:
        hand = data["seats"][rng.choice(others)]["hand"]
        i = rng.choice([k for k, c in enumerate(hand) if c in fresh] or [None])
        j = rng.choice(deck)
        if i is not None:
            hand[i], data["deck"][j] = data["deck"][j], hand[i]
    data["deck"].reverse()
    data["rng"] = (data["rng"] * 6364136223846793005 + 1442695040888963407) % (1 << 64)


def test_the_copy_depends_only_on_what_the_seat_sees() -> None:
    """Another game with the same view for the seat (cards exchanged between the others' hands
    and the deck, another deck order, another generator, other bonus cards and corporations
    where the seat has not seen them) gives the very same copy for every seed."""
    rng = random.Random(4)
    compared = 0
    for players in (1, 2, 3, 4):
        for state in positions(players, players, every=53):
            if state.outcome() is not None:
                continue
            for seat in range(players):
                data = state.to_dict()
                swap(data, seat, rng)
                if not has_seen_bonus_cards(state, seat):
                    spare = sorted(set(BONUS_CARDS) - {b for p in state.seats for b in p["bonus"]})
                    data["bonus_deck"] = rng.sample(spare, len(state.bonus_deck))
                if state.stage == "corp":
                    spare = sorted(set(CORPORATIONS) - set(state.seats[seat]["offer"]))
                    rng.shuffle(spare)
                    for o in range(players):
                        if o != seat:
                            data["seats"][o]["offer"] = [spare.pop(), spare.pop()]
                            if data["seats"][o]["corp"] is not None:
                                data["seats"][o]["corp"] = data["seats"][o]["offer"][1]
                other = GAME.load(data)
                assert other.view(seat) == state.view(seat)
                assert dump(other) != dump(state)
                for seed in (0, 1, 99):
                    assert state.determinize(seat, seed).to_dict() == other.determinize(seat, seed).to_dict()
                compared += 1
    assert compared > 20


def test_honesty_after_a_reshuffle() -> None:
    """After a reshuffle, too, cards exchanged between a hand and the new deck give the same copy."""
    state = reshuffled_position(3, 5)
    data = state.to_dict()
    swap(data, 0, random.Random(2))
    other = GAME.load(data)
    assert other.view(0) == state.view(0) and dump(other) != dump(state)
    for seed in range(5):
        assert state.determinize(0, seed).to_dict() == other.determinize(0, seed).to_dict()


# -- the seed decides ---------------------------------------------------------------------------
def test_different_seeds_deal_the_hidden_cards_differently() -> None:
    for players in (1, 2, 4):
        state = next(s for i, s in enumerate(positions(players, 2, every=11)) if i == 3)
        hidden = {
            json.dumps([copy.deck, [p["hand"] for p in copy.seats[1:]], copy.bonus_deck])
            for copy in (state.determinize(0, seed) for seed in range(12))
        }
        assert len(hidden) > 6


def test_future_rolls_and_draws_come_from_the_seed_not_the_real_generator() -> None:
    """The dice rolled and the cards drawn in a copy are the copy's own: for some seeds they are
    not those the real game would roll and draw."""
    state = GAME.new(2, 6)
    rng = random.Random(6)
    while not (
        state.stage == "play" and state.to_move() == [0] and "roll red" in [a.text for a in state.legal_actions(0)]
    ):
        play(state, rng)

    def rolled(s) -> str:
        events = s.apply(0, "roll red")
        return next(e["face"] for e in events if e["type"] == "die rolled")

    def next_card(s) -> str:
        return s.deck[-1]

    real_card = next_card(state)
    copies = [state.determinize(0, seed) for seed in range(20)]
    real_roll = rolled(GAME.load(state.to_dict()))
    assert {rolled(c) for c in copies} - {real_roll}
    assert {next_card(c) for c in copies} - {real_card}
    assert all(c.rng.state != state.rng.state for c in copies)


# -- the new field ------------------------------------------------------------------------------
def test_reshuffled_is_saved_and_a_save_without_it_loads() -> None:
    state = reshuffled_position(2, 3)
    data = state.to_dict()
    assert data["reshuffled"] == state.reshuffled and set(state.deck) <= set(state.reshuffled or ())
    assert dump(GAME.load(data)) == dump(state)
    del data["reshuffled"]
    old = GAME.load(data)
    assert old.reshuffled is None and old.view(0) == state.view(0)
    copy = old.determinize(0, 1)
    assert unseen_cards(copy, 0) == unseen_cards(state, 0)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(reshuffled="x"),
        lambda d: d.update(reshuffled=["nope"]),
        lambda d: d.update(reshuffled=[]),  # the deck's cards must be among them
        lambda d: d.update(reshuffled=d["deck"] + d["deck"][:1]),
    ],
)
def test_a_damaged_reshuffled_is_refused(damage) -> None:
    data = reshuffled_position(2, 3).to_dict()
    damage(data)
    with pytest.raises(ValueError, match="'reshuffled'"):
        GAME.load(data)
