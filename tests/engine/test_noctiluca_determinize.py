"""Noctiluca: ``State.determinize(seat, seed)``.

A determinization draws again everything ``seat`` cannot see (docs/ENGINE-EXTENSIONS.md,
engine/noctiluca/determinize.py): the others' favourite colours, their dealt and kept jars and
the deck while jars are chosen, the piles below their tops, the solo deck's order (but for the
jars the player put under it) and the random generator. Each test names the knowledge it
protects. tests/engine/test_determinize.py checks the contract shared by every game.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import GAMES
from engine.noctiluca import content

G = GAMES["noctiluca"]
COLOURS = sorted(f["colour"] for f in content.FAVOURITES)


def dump(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def play(state, rng: random.Random) -> None:
    seat = rng.choice(state.to_move())
    actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in ("resign", "concede")]
    state.apply(seat, rng.choice(actions))


def positions(players: int, seed: int, every: int = 5):
    """Positions of a random game, every ``every`` steps from the deal to the end."""
    rng = random.Random(seed)
    state = G.new(players, seed)
    step = 0
    while state.outcome() is None:
        if step % every == 0:
            yield state
        play(state, rng)
        step += 1
    yield state


def known_bottom(state) -> list[str]:
    """Solo: the jars the player put under the deck and that are still there, in order."""
    k = min(state.to_bottom, len(state.deck))
    return state.deck[len(state.deck) - k :]


def unseen_jars(state, seat: int) -> Counter:
    jars = Counter(state.deck) + Counter(j for p in state.piles for j in p[1:])
    if state.phase == "keep":
        jars += Counter(j for o in range(state.players) if o != seat for j in state.pending["dealt"][o])
    return jars


def known_part(state, seat: int) -> dict:
    """The save without what ``seat`` cannot see: this must be the same in every copy."""
    data = state.to_dict()
    for key in ("rng", "deck", "setup_events"):
        del data[key]
    data["piles"] = [(p[0], len(p)) if p else None for p in state.piles]
    data["deck"] = (len(state.deck), known_bottom(state))
    over = state.phase == "over"
    for o in range(state.players):
        if o != seat and not over:
            data["favourites"][o] = None
        if o != seat and state.phase == "keep":
            data["pending"]["dealt"][o] = None
            data["pending"]["kept"][o] = data["pending"]["kept"][o] is not None
    return data


# -- conservation -------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_jar_and_die_stays_and_only_the_unseen_move(players: int) -> None:
    """Each of the 30 jars is in exactly one place, and the jars the seat has not seen are the
    same ones; the board, the lid, the jars in play with their dice, the delivered jars, the
    tokens, the pile tops and sizes, the seat's favourite and dealt jars are unchanged; the
    others' favourites are different colours, never the seat's own."""
    checked = 0
    for seed in range(5):
        for state in positions(players, seed):
            for seat in range(players):
                copy = state.determinize(seat, seed * 5 + seat)
                assert known_part(copy, seat) == known_part(state, seat)
                assert unseen_jars(copy, seat) == unseen_jars(state, seat)
                assert copy.favourites[seat] == state.favourites[seat]
                assert sorted(copy.favourites) == sorted(set(copy.favourites))
                if copy.phase == "keep":
                    for o in range(players):
                        kept = copy.pending["kept"][o]
                        assert kept is None or set(kept) <= set(copy.pending["dealt"][o])
                assert copy.view(seat) == state.view(seat)
                own_events = [e for e in state.setup_events if e["visible_to"] in (None, [seat])]
                assert copy.setup_events == own_events, "the others' private deal is not copied"
                G.load(copy.to_dict())  # every jar and die in exactly one place
                checked += 1
    assert checked > 30


def test_the_others_favourites_are_any_colour_but_the_seats_own() -> None:
    """Favourites are secret until the end: the seat knows only that the others' are not its own
    (with 2 players, one colour of the box is also possible). At the end they are shown, and stay."""
    state = G.new(2, 4)
    drawn = {state.determinize(0, seed).favourites[1] for seed in range(30)}
    assert drawn == set(COLOURS) - {state.favourites[0]}
    rng = random.Random(4)
    while state.outcome() is None:
        play(state, rng)
    assert all(state.determinize(0, seed).favourites == state.favourites for seed in range(5))


def test_a_jar_choice_made_in_secret_is_two_of_the_new_dealt_jars() -> None:
    """While jars are chosen, the others' three dealt jars come from the deck and their dealt
    jars together; one that has chosen keeps two of its (new) three, one that has not, none."""
    state = G.new(3, 2)
    dealt = state.pending["dealt"][1]
    state.apply(1, f"keep {dealt[0]} {dealt[2]}")
    hands = set()
    for seed in range(20):
        copy = state.determinize(0, seed)
        assert copy.pending["dealt"][0] == state.pending["dealt"][0]
        kept = copy.pending["kept"][1]
        assert kept is not None and len(kept) == 2 and set(kept) <= set(copy.pending["dealt"][1])
        assert copy.pending["kept"][2] is None and copy.to_move() == [0, 2]
        hands.add(tuple(copy.pending["dealt"][1]))
    assert len(hands) > 10


def test_solo_the_jars_put_under_the_deck_stay_at_the_bottom() -> None:
    """Solo: of two drawn jars the player keeps one and puts the other under the deck. It knows
    those jars and their places; only the jars above them are drawn again."""
    found = 0
    for seed in range(40):
        for state in positions(1, seed, every=1):
            bottom = known_bottom(state)
            if not bottom or len(bottom) == len(state.deck) or state.phase == "over":
                continue
            orders = set()
            for s in range(8):
                copy = state.determinize(0, s)
                assert copy.deck[len(copy.deck) - len(bottom) :] == bottom
                orders.add(tuple(copy.deck))
            assert len(orders) > 1 or len(state.deck) - len(bottom) == 1
            found += 1
    assert found > 10


def solo_game_with_a_jar_under_the_deck(rules_version: int):
    """A random solo game up to the first jar put under the deck (random play fills a jar in
    some games only: the first such seed)."""
    for seed in range(1, 40):
        rng = random.Random(seed)
        state = G.new(1, seed, rules_version=rules_version)
        while state.outcome() is None:
            if "jar to bottom" in [e["type"] for e in state.apply(0, rng.choice(state.legal_actions(0)))]:
                return state
    raise AssertionError("no jar was put under the deck")


@pytest.mark.parametrize("rules_version", G.rules_versions)
def test_to_bottom_counts_the_jars_put_under_the_deck_and_old_saves_load(rules_version: int) -> None:
    state = solo_game_with_a_jar_under_the_deck(rules_version)
    assert state.to_bottom == 1 and state.to_dict()["to_bottom"] == 1
    data = state.to_dict()
    del data["to_bottom"]
    old = G.load(data)
    assert old.to_bottom == 0, "a save from before the field: nothing known under the deck"
    assert unseen_jars(old.determinize(0, 3), 0) == unseen_jars(state, 0)
    for bad in (-1, 31, "1", True):
        with pytest.raises(ValueError, match="'to_bottom'"):
            G.load({**state.to_dict(), "to_bottom": bad})
    with pytest.raises(ValueError, match="'to_bottom'"):
        G.load({**G.new(2, 1).to_dict(), "to_bottom": 1})


# -- honesty ------------------------------------------------------------------------------------
def other_hidden(state, seat: int, rng: random.Random) -> dict:
    """A save with the same view for ``seat`` and other hidden things: jars exchanged between
    the others' dealt jars and the deck, the piles below their tops and the solo deck above the
    known bottom shuffled, other favourites for the others, another generator."""
    data = state.to_dict()
    others = [o for o in range(state.players) if o != seat]
    if state.phase != "over":
        spare = [c for c in COLOURS if c != state.favourites[seat]]
        rng.shuffle(spare)
        for o in others:
            data["favourites"][o] = spare.pop()
    if state.phase == "keep":
        pending = data["pending"]
        for o in others:
            if pending["kept"][o] is None and data["deck"]:
                i, j = rng.randrange(3), rng.randrange(len(data["deck"]))
                pending["dealt"][o][i], data["deck"][j] = data["deck"][j], pending["dealt"][o][i]
        rng.shuffle(data["deck"])
    else:
        below = [j for p in data["piles"] for j in p[1:]]
        rng.shuffle(below)
        for p in data["piles"]:
            if p:
                p[1:], below = below[: len(p) - 1], below[len(p) - 1 :]
        k = len(known_bottom(state))
        top = data["deck"][: len(data["deck"]) - k]
        rng.shuffle(top)
        data["deck"][: len(top)] = top
    data["rng"] = (data["rng"] * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return data


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_copy_depends_only_on_what_the_seat_sees(players: int) -> None:
    """Another game with the same view for the seat but other hidden things gives the very same
    copy for every seed: nothing the seat cannot see leaks into it."""
    rng = random.Random(players)
    compared = 0
    for seed in range(3):
        for state in positions(players, seed, every=7):
            for seat in range(players):
                other = G.load(other_hidden(state, seat, rng))
                assert other.view(seat) == state.view(seat)
                assert dump(other) != dump(state)
                for s in (0, 1, 77):
                    assert state.determinize(seat, s).to_dict() == other.determinize(seat, s).to_dict()
                compared += 1
    assert compared > 10


# -- the seed decides ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_different_seeds_draw_the_hidden_things_differently(players: int) -> None:
    for state in list(positions(players, 9, every=9))[:3]:
        hidden = {
            json.dumps([copy.deck, copy.piles, copy.favourites, copy.pending.get("dealt")])
            for copy in (state.determinize(0, seed) for seed in range(10))
        }
        assert len(hidden) > 5


def test_solo_the_storm_and_the_deck_of_a_copy_are_its_own() -> None:
    """The storm's roll and the jar it discards in a copy come from the copy's generator and deck:
    for some seeds they are not those of the real game."""
    state = G.new(1, 5)
    state.apply(0, state.legal_actions(0)[0])

    def storm(s) -> tuple:
        for _ in range(50):
            events = s.apply(0, s.legal_actions(0)[0])
            roll = next((e for e in events if e["type"] == "storm roll"), None)
            if roll is not None:
                discard = next(e for e in events if e["type"] == "storm discard")
                return roll["roll"], roll["removed"], discard["jar"]
        raise AssertionError("no storm")

    real = storm(G.load(state.to_dict()))
    copies = [storm(state.determinize(0, seed)) for seed in range(20)]
    assert {c[0] for c in copies} - {real[0]}, "other rolls"
    assert {c[2] for c in copies} - {real[2]}, "other jars discarded"


def test_the_next_round_is_drawn_from_the_copys_generator() -> None:
    """The pool is refilled for round 2 from the box lid: which dice come out and how they land
    are the copy's own (as many dice as in the real game)."""
    state = G.new(2, 3)
    rng = random.Random(3)
    while state.round == 1 and sum(state.pawns) > 1:
        play(state, rng)
    assert state.round == 1

    def finish_round(s):
        while s.round == 1 and s.outcome() is None:
            seat = s.to_move()[0]
            s.apply(seat, s.legal_actions(seat)[0])
        assert s.round == 2
        return s

    real = finish_round(G.load(state.to_dict()))
    copies = [finish_round(state.determinize(0, seed)) for seed in range(6)]
    assert all(sum(c.lid.values()) == sum(real.lid.values()) for c in copies)
    assert any(c.spaces != real.spaces for c in copies)
