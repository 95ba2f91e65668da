"""Vivarium: ``State.determinize(seat, seed)`` (docs/ENGINE-EXTENSIONS.md).

The generic checks (same view, same choices, plays on) are in tests/engine/test_determinize.py.
What a seat cannot see (docs/rules/vivarium.md, "Setup"): the others' starting contracts ("1
random habitat starting contract and 1 random type starting contract, secret", shown at the end),
the order of the three shuffled decks, the 6 priority tokens "stacked face down" and the 2 that
"go back to the box (unseen)". Only those move; everything else stays where it is.
"""

from __future__ import annotations

import json
import random

from engine import GAMES
from engine.vivarium.content import STARTING
from engine.vivarium.state import VivariumState

GAME = GAMES["vivarium"]
SEEN_FIELDS = (
    "grid", "discard", "tokens", "middle", "facedown", "gems", "collections", "priority_won",
    "priority_current", "priority_next", "first", "round", "turn", "phase", "pending", "numbers",
    "result", "resigned", "version",
)  # fmt: skip


def games(seeds=range(4), players=(2, 3, 4), every=1):
    """States at every ``every``-th step of random games, the last one finished (now and then by
    a resignation)."""
    for n in players:
        for seed in seeds:
            rng = random.Random(seed)
            state = GAME.new(n, seed)
            step = 0
            while state.outcome() is None:
                if step % every == 0:
                    yield state
                if seed == 3 and step == 150:
                    state.resign(rng.randrange(n))
                    break
                seat = rng.choice(state.to_move())
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                step += 1
            yield state


def dump(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def deck_of(contract: str) -> str:
    return STARTING[contract]["deck"]


def test_a_determinization_moves_only_what_the_seat_cannot_see() -> None:
    """The cards stay the cards (each deck its own cards), the grid, collections, discard, tokens
    and gems stay put; the seat keeps its starting contracts; the others get one habitat and one
    type contract each, none twice and none the seat's; the unseen priority tokens stay the
    unseen ones, 2 in the box and the rest stacked."""
    for state in games(every=7):
        for seat in range(state.players):
            for seed in (1, 2):
                copy = state.determinize(seat, seed)
                for field in SEEN_FIELDS:
                    assert getattr(copy, field) == getattr(state, field), field
                for kind, deck in state.decks.items():
                    assert sorted(copy.decks[kind]) == sorted(deck)
                assert sorted(copy.priority_removed + copy.priority_stack) == sorted(
                    state.priority_removed + state.priority_stack
                )
                assert len(copy.priority_removed) == 2 and len(copy.priority_stack) == len(state.priority_stack)
                assert copy.starting[seat] == state.starting[seat]
                if state.phase == "over":  # the game over event showed them all
                    assert copy.starting == state.starting
                dealt = [c for hand in copy.starting for c in hand]
                assert len(set(dealt)) == len(dealt)
                assert all(sorted(deck_of(c) for c in hand) == ["habitat", "type"] for hand in copy.starting)
                assert GAME.load(copy.to_dict()).to_dict() == copy.to_dict()


def test_the_copys_setup_events_tell_its_own_starting_contracts() -> None:
    for state in games(seeds=range(2), every=40):
        for seat in range(state.players):
            copy = state.determinize(seat, 9)
            told = {e["seat"]: e["contracts"] for e in copy.setup_events if e["type"] == "starting contracts"}
            assert told == {s: copy.starting[s] for s in range(state.players)}
            assert [e for e in copy.setup_events if e["type"] != "starting contracts"] == [
                e for e in state.setup_events if e["type"] != "starting contracts"
            ]


def other_real_state(state: VivariumState, seat: int, rng: random.Random) -> VivariumState:
    """A state the seat cannot tell from ``state``: the others' starting contracts dealt again
    from the unseen ones (until the end shows them), the decks and the unseen priority tokens
    shuffled again."""
    data = state.to_dict()
    if state.phase != "over":
        for kind in ("habitat", "type"):
            pool = sorted(c for c in STARTING if deck_of(c) == kind and c not in state.starting[seat])
            rng.shuffle(pool)
            for other in range(state.players):
                if other != seat:
                    data["starting"][other] = [c for c in data["starting"][other] if deck_of(c) != kind]
                    data["starting"][other].append(pool.pop())
        for e in data["setup_events"]:
            if e["type"] == "starting contracts":
                e["contracts"] = list(data["starting"][e["seat"]])
    for deck in data["decks"].values():
        rng.shuffle(deck)
    unseen = data["priority_removed"] + data["priority_stack"]
    rng.shuffle(unseen)
    data["priority_removed"], data["priority_stack"] = sorted(unseen[:2]), unseen[2:]
    data["rng"] = rng.getrandbits(64)
    other = GAME.load(data)
    assert other.view(seat) == state.view(seat)
    assert other.view(None) == state.view(None)
    return other  # type: ignore[return-value]


def test_a_determinization_depends_only_on_what_the_seat_saw() -> None:
    """Two real states the seat cannot tell apart give the same copy for the same seed."""
    rng = random.Random(8)
    differed = 0
    for state in games(seeds=range(3), every=11):
        for seat in range(state.players):
            other = other_real_state(state, seat, rng)
            differed += other.starting != state.starting
            for seed in (0, 5, 77):
                assert dump(state.determinize(seat, seed)) == dump(other.determinize(seat, seed))
    assert differed > 30, "the secret contracts really were dealt otherwise"


def test_any_unseen_starting_contract_can_be_dealt_to_another_player() -> None:
    """The box's starting contracts are as unseen as the dealt ones: over many seeds each other
    player is dealt every contract the seat does not hold."""
    state = GAME.new(2, 6)
    for seat in (0, 1):
        dealt = {c for seed in range(60) for c in state.determinize(seat, seed).starting[1 - seat]}
        assert dealt == set(STARTING) - set(state.starting[seat])


def test_different_seeds_redraw_differently() -> None:
    for state in games(seeds=range(2), every=25):
        for seat in range(state.players):
            copies = {dump(state.determinize(seat, seed)) for seed in range(6)}
            assert len(copies) > 1
            hidden = [
                (c.starting, c.decks, c.priority_stack) for c in (state.determinize(seat, seed) for seed in range(6))
            ]
            assert any(h != hidden[0] for h in hidden)
