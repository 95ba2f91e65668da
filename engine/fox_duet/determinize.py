"""``determinize(seat, seed)`` for The Fox in the Forest Duet (docs/ENGINE-EXTENSIONS.md).

What ``seat`` cannot see: the cards in its partner's hand, except those it saw arrive there this
round (``shown``: its own gift, an old decree card taken by a fox swap), the 7 face-down cards
left after the deal (``deck``, never used but a valid place for a card), the partner's secret gift
pick when it has made one, and the generator that will shuffle the next rounds. Everything else
is seen: its own hand, the decree card, the trick, the cards played this round (``discard``,
``last_trick``), the board.

The unseen cards (all 30, less the seen ones) are put in the order of the deck and redrawn from
``seed``: the partner gets, besides its shown cards, as many as it held, drawn among the unseen
cards of the suits it has not failed to follow this round (``voids``: every card it holds that the
seat did not see arrive was dealt to it, so none is of such a suit), the rest go face down in a
random order. The real cards in those places never enter the draw, only how many there are, so
two states the seat cannot tell apart give the same copy.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, cast

from engine.core import Event
from engine.fox_duet.cards import ALL_CARD_IDS, CARDS, sort_hand
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.fox_duet.state import FoxDuetState


def derived_rng(*parts: object) -> Rng:
    """A generator seeded from a hash of ``parts`` (the same parts, the same generator)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return Rng(int.from_bytes(digest[:8], "big"))


def seen_events(events: list[Event], seat: int) -> list[Event]:
    """The events ``seat`` saw: the others' private events (the partner's dealt hand) are left out."""
    return [e for e in events if e.get("visible_to") is None or seat in e["visible_to"]]


def determinize(state: FoxDuetState, seat: int, seed: int) -> FoxDuetState:
    partner = 1 - seat
    copy = cast("FoxDuetState", state.game.load(state.to_dict()))
    rng = derived_rng("fox-duet", "determinize", seed, seat, state.version)
    known = set(state.hands[seat]) | set(state.shown[partner]) | set(state.discard) | {state.decree}
    known |= {p["card"] for p in state.trick_cards}
    # The unseen cards, in a canonical order: nothing of where they really are.
    pool = [c for c in ALL_CARD_IDS if c not in known]
    hidden = len(state.hands[partner]) - len(state.shown[partner])
    # The only constrained place is the partner's hand: a uniform subset of the cards it may hold.
    allowed = [c for c in pool if CARDS[c].suit not in state.voids[partner]]
    if len(allowed) < hidden or len(pool) != hidden + len(state.deck):
        raise AssertionError("the state contradicts what its players have seen")  # real states never do
    rng.shuffle(allowed)
    dealt = set(allowed[:hidden])
    deck = [c for c in pool if c not in dealt]
    rng.shuffle(deck)
    copy.hands[partner] = sort_hand(list(state.shown[partner]) + sorted(dealt))
    copy.deck = deck
    if copy.phase == "gift" and copy.pending["picks"][partner] is not None:
        copy.pending["picks"][partner] = rng.choice(copy.hands[partner])
    copy.setup_events = seen_events(copy.setup_events, seat)
    copy.rng = derived_rng("fox-duet", "generator", seed, seat, state.version)
    return copy
