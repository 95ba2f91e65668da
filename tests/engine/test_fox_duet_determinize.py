"""The Fox in the Forest Duet: ``State.determinize(seat, seed)`` (docs/ENGINE-EXTENSIONS.md).

The generic checks (same view, same choices, plays on) are in tests/engine/test_determinize.py.
Here: the redrawn cards are the real ones, only moved where the seat cannot see (the partner's
hand and the 7 face-down cards); the copy depends only on what the seat saw; and it respects what
play revealed. The rule behind the last point (docs/rules/fox-duet.md, "A trick"): "The follower
must play a card of the led suit if able, otherwise anything; a led royal (9) lifts that duty."
So a partner who did not follow a (non-royal) led suit held none of it, and every card it holds
now that the seat did not see arrive (its own gift, an old decree card) was dealt to it then.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import GAMES
from engine.fox_duet.cards import ALL_CARD_IDS, CARDS, ROYAL, SUITS, sort_hand
from engine.fox_duet.state import FoxDuetState

GAME = GAMES["fox-duet"]
OPTIONS = [{"level": 1}, {"level": 2, "memory": "on"}, {"level": 3}]
PUBLIC_FIELDS = (
    "level", "covered", "gems", "tracker", "forest_left", "forest_total", "supply", "collected", "round",
    "trick", "dealer", "leader", "decree", "trick_cards", "discard", "last_trick", "memory_aid", "phase",
    "result", "voids", "shown", "version",
)  # fmt: skip


class Watcher:
    """What each seat learns from the events it sees, kept apart from the engine's own record:
    the suits each player failed to follow this round, and the cards each saw arrive in the
    other's hand and still there."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.voids: list[set[str]] = [set(), set()]
        self.seen_in: list[list[set[str]]] = [[set(), set()], [set(), set()]]  # [viewer][holder]
        self.led: str | None = None

    def see(self, events: list[dict]) -> None:
        for e in events:
            kind = e["type"]
            if kind == "deal" and e["visible_to"] is None:
                self.reset()
            elif kind == "card played":
                card, seat = e["card"]["id"], e["seat"]
                if e["lead"]:
                    self.led = card
                elif CARDS[self.led].ability != ROYAL and CARDS[card].suit != CARDS[self.led].suit:
                    self.voids[seat].add(CARDS[self.led].suit)
                for viewer in (0, 1):
                    self.seen_in[viewer][seat].discard(card)
            elif kind == "decree swapped":
                for viewer in (0, 1):  # public: the old decree card goes to the swapper's hand
                    self.seen_in[viewer][e["seat"]].discard(e["new"]["id"])
                    self.seen_in[viewer][e["seat"]].add(e["old"]["id"])
            elif kind == "gift exchanged":
                seat = e["seat"]  # private to seat: what it gave now is in the partner's hand
                self.seen_in[seat][1 - seat].add(e["given"]["id"])
                self.seen_in[seat][1 - seat].discard(e["received"]["id"])
                self.seen_in[seat][seat].discard(e["given"]["id"])
                self.seen_in[1 - seat][seat].discard(e["given"]["id"])


def games(seeds=range(8), options=OPTIONS, every=1):
    """(state, watcher) at every ``every``-th step of random games (resigning left out)."""
    for opts in options:
        for seed in seeds:
            rng = random.Random(seed)
            state = GAME.new(2, seed, opts)
            watcher = Watcher()
            watcher.see(state.setup_events)
            step = 0
            while state.outcome() is None:
                if step % every == 0:
                    yield state, watcher
                seat = rng.choice(state.to_move())
                actions = [a for a in state.legal_actions(seat) if a.verb != "concede"]
                watcher.see(state.apply(seat, rng.choice(actions)))
                step += 1
            yield state, watcher


def dump(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def unseen_by(state: FoxDuetState, seat: int) -> list[str]:
    partner = 1 - seat
    return sort_hand([c for c in state.hands[partner] if c not in state.shown[partner]] + state.deck)


def test_the_engine_records_exactly_the_voids_and_cards_each_seat_saw() -> None:
    """``voids`` and ``shown`` hold what the events showed: a suit not followed (a led royal
    excepted), a gift given, an old decree card taken; and they agree with the real hands."""
    voids_seen = 0
    for state, watcher in games(every=1):
        for seat in (0, 1):
            assert state.voids[seat] == [s for s in SUITS if s in watcher.voids[seat]]
            assert set(state.shown[seat]) == watcher.seen_in[1 - seat][seat]
            dealt = [c for c in state.hands[seat] if c not in state.shown[seat]]
            assert not any(CARDS[c].suit in state.voids[seat] for c in dealt)
            voids_seen += len(state.voids[seat])
    assert voids_seen > 100, "random games show many voids"


def test_a_determinization_moves_only_the_unseen_cards() -> None:
    """The 30 cards stay the 30 cards; the seat's hand, the decree card, the trick, the cards
    played, the board and what each seat saw stay put; the partner keeps the cards the seat saw
    arrive and as many cards as it held; the 7 face-down cards stay 7."""
    for state, _ in games(every=3):
        for seat in (0, 1):
            partner = 1 - seat
            for seed in (1, 2):
                copy = state.determinize(seat, seed)
                everything = copy.hands[0] + copy.hands[1] + copy.deck + [copy.decree] + copy.discard
                everything += [p["card"] for p in copy.trick_cards]
                assert sorted(everything) == sorted(ALL_CARD_IDS)
                for field in PUBLIC_FIELDS:
                    assert getattr(copy, field) == getattr(state, field), field
                assert copy.hands[seat] == state.hands[seat]
                assert set(state.shown[partner]) <= set(copy.hands[partner])
                assert len(copy.hands[partner]) == len(state.hands[partner])
                assert len(copy.deck) == len(state.deck)
                assert unseen_by(copy, seat) == unseen_by(state, seat)
                if state.phase == "gift":
                    assert copy.pending["picks"][seat] == state.pending["picks"][seat]
                    pick = copy.pending["picks"][partner]
                    assert (pick is None) == (state.pending["picks"][partner] is None)
                    assert pick is None or pick in copy.hands[partner]
                else:
                    assert copy.pending == state.pending
                assert GAME.load(copy.to_dict()).to_dict() == copy.to_dict()


def test_every_determinization_respects_the_voids_play_revealed() -> None:
    """A partner who failed to follow a suit this round is dealt no card of it, except one the
    seat saw arrive (the watcher's own record, not the engine's)."""
    checked = 0
    for state, watcher in games(seeds=range(12), every=2):
        for seat in (0, 1):
            partner = 1 - seat
            if not watcher.voids[partner]:
                continue
            for seed in range(3):
                copy = state.determinize(seat, seed)
                for c in copy.hands[partner]:
                    if CARDS[c].suit in watcher.voids[partner]:
                        assert c in watcher.seen_in[seat][partner], (c, watcher.voids[partner])
                checked += 1
    assert checked > 200


def test_the_partners_hand_can_hold_any_card_it_may_hold() -> None:
    """The draw is not bound to the real hand: over many seeds every unseen card of a suit the
    partner has not failed to follow turns up in its hand, and none of a void suit."""
    for state, _ in games(seeds=range(3), options=[{"level": 1}], every=9):
        for seat in (0, 1):
            partner = 1 - seat
            hidden = len(state.hands[partner]) - len(state.shown[partner])
            if hidden == 0 or not state.deck:
                continue
            dealt: set[str] = set()
            for seed in range(60):
                copy = state.determinize(seat, seed)
                dealt |= set(copy.hands[partner]) - set(state.shown[partner])
            allowed = {c for c in unseen_by(state, seat) if CARDS[c].suit not in state.voids[partner]}
            assert dealt == allowed


def other_real_state(state: FoxDuetState, seat: int, rng: random.Random) -> FoxDuetState:
    """A state the seat cannot tell from ``state``: the partner's unseen cards and the face-down
    ones dealt again (still none of a suit the partner failed to follow; a gift pick kept)."""
    partner = 1 - seat
    data = state.to_dict()
    pick = state.pending["picks"][partner] if state.phase == "gift" else None
    fixed = set(state.shown[partner]) | ({pick} if pick else set())
    loose = [c for c in state.hands[partner] if c not in fixed]
    pool = loose + state.deck
    allowed = [c for c in pool if CARDS[c].suit not in state.voids[partner]]
    rng.shuffle(allowed)
    hand = allowed[: len(loose)]
    deck = [c for c in pool if c not in hand]
    rng.shuffle(deck)
    data["hands"][partner] = sort_hand(hand + list(fixed))
    data["deck"] = deck
    other = GAME.load(data)
    assert other.view(seat) == state.view(seat)
    assert other.legal_actions(seat) == state.legal_actions(seat)
    return other  # type: ignore[return-value]


def test_a_determinization_depends_only_on_what_the_seat_saw() -> None:
    """Two real states with the same view for the seat but other hidden cards give the same copy
    for the same seed: nothing of the real partner hand or deck order leaks into it."""
    rng = random.Random(5)
    differed = 0
    for state, _ in games(seeds=range(5), every=4):
        for seat in (0, 1):
            other = other_real_state(state, seat, rng)
            differed += dump(other) != dump(state)
            for seed in (0, 7, 123):
                assert dump(state.determinize(seat, seed)) == dump(other.determinize(seat, seed))
    assert differed > 100, "the hidden cards really were dealt otherwise"


def test_a_copy_does_not_carry_the_partners_dealt_hand_in_its_setup_events() -> None:
    state = GAME.new(2, 3)
    for seat in (0, 1):
        copy = state.determinize(seat, 1)
        assert all(e["visible_to"] in (None, [seat]) for e in copy.setup_events)
        assert [e for e in state.setup_events if e["visible_to"] in (None, [seat])] == copy.setup_events


def test_different_seeds_deal_the_hidden_cards_differently() -> None:
    for state, _ in games(seeds=range(3), every=10):
        for seat in (0, 1):
            if len(unseen_by(state, seat)) < 2:
                continue
            deals = {
                dump(copy)
                for copy in (state.determinize(seat, seed) for seed in range(8))
                if copy.hands[1 - seat] != state.hands[1 - seat] or copy.deck != state.deck
            }
            assert len(deals) > 1


def test_the_generator_is_drawn_again_from_the_seed() -> None:
    """The next rounds' deals come from the seed, not from the real generator."""
    state = GAME.new(2, 11)
    a, b = state.determinize(0, 1), state.determinize(0, 2)
    assert a.rng.state != state.rng.state and a.rng.state != b.rng.state
    assert a.rng.state == state.determinize(0, 1).rng.state


def test_a_save_from_before_voids_and_shown_loads_with_nothing_shown() -> None:
    """Saves written before ``voids`` and ``shown`` existed still load (nothing recorded yet)
    and can be determinized; the new fields are kept in ``to_dict``."""
    for state, _ in games(seeds=range(2), options=[{"level": 1}], every=25):
        data = state.to_dict()
        assert data["voids"] == state.voids and data["shown"] == state.shown
        del data["voids"], data["shown"]
        old = GAME.load(data)
        assert old.voids == [[], []] and old.shown == [[], []]
        assert old.view(0) == state.view(0) and old.view(1) == state.view(1)
        copy = old.determinize(0, 4)
        assert sorted(copy.hands[0] + copy.hands[1] + copy.deck) == sorted(old.hands[0] + old.hands[1] + old.deck)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(voids=[["dove"]]), "'voids' must be a list of 2"),
        (lambda d: d.update(voids=[["moon"], []]), "'voids'[0] must be a list of different suits"),
        (lambda d: d.update(shown="x"), "'shown' must be a list of 2"),
        (lambda d: d.update(shown=[[d["deck"][0]], []]), "'shown'[0] must be cards of that hand"),
        (lambda d: d.update(voids=[[], [CARDS[d["hands"][1][0]].suit]]), "'voids'[1]: a card dealt"),
    ],
)
def test_load_checks_voids_and_shown(change, message) -> None:
    data = GAME.new(2, 3).to_dict()
    change(data)
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        GAME.load(data)
