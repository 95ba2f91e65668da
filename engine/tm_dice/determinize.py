"""``determinize(seat, seed)`` for Terraforming Mars: The Dice Game (docs/ENGINE-EXTENSIONS.md).

What a seat cannot see, and how it is drawn again from ``seed``:

- the other seats' project cards and the order of the deck. The discard pile is public (every
  card goes there face up) and stays. The unseen cards (the deck and the other hands) are dealt
  again, each hand keeping its size. Once the discard pile has been shuffled into a new deck
  (``reshuffled``: the cards it held, known to all), the unseen cards not among them were in the
  others' hands at that moment and cannot be in the deck: each other seat gets back as many of
  those as it holds (a number everyone can tell, since every card leaving a hand is shown), and
  the deck and the rest of the hands are dealt from the reshuffled cards still unseen;
- while corporations are chosen: the two corporations offered to each other seat, and which it
  kept; dealt again from every corporation but the seat's own two (those left in the box too);
- the bonus cards, until the seat has looked at them (when it reached a threshold, or solo after
  its first production): drawn again from the bonus cards nobody played, as many as the deck
  holds. Once seen, the seat knows them, and they stay;
- the random generator: the dice still in the pool are public, their rolls are not.

Dice, wild tokens, tiles, tracks, played cards, awards and milestones are public and stay. The
unseen cards are gathered as a multiset, put in a canonical (sorted) order and shuffled by a
generator derived from ``seed`` alone, so the copy depends only on what ``seat`` sees.

A finished game keeps its discard pile as it is (the hands are thrown on it at the end); only
the deck's order, the unseen bonus cards and the generator are drawn again.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from engine.rng import Rng
from engine.tm_dice.content import BONUS_CARDS, CARD_IDS, CORPORATIONS

if TYPE_CHECKING:
    from engine.tm_dice.state import TMDiceState


def seeded(seed: int, seat: int) -> Rng:
    """The generator of a determinization: from ``seed`` and ``seat`` only, never the game's own."""
    digest = hashlib.sha256(f"tm-dice determinize {seed} {seat}".encode()).digest()
    return Rng(int.from_bytes(digest[:8], "big"))


def has_seen_bonus_cards(s: TMDiceState, seat: int) -> bool:
    """Whether ``seat`` has looked at the bonus cards: it is choosing one, or it chose one before
    (every look ends with a choice); since then the others' choices were played face up."""
    if s.seats[seat]["bonus"]:
        return True
    return s.stage == "play" and bool(s.queue) and s.queue[-1]["kind"] == "bonus" and s.queue[-1]["seat"] == seat


def determinize(s: TMDiceState, seat: int, seed: int) -> TMDiceState:
    rng = seeded(seed, seat)
    data = s.to_dict()
    others = [o for o in range(s.players) if o != seat]
    if s.stage == "corp":
        pool = sorted(set(CORPORATIONS) - set(s.seats[seat]["offer"]))
        rng.shuffle(pool)
        for o in others:
            size = len(s.seats[o]["offer"])
            offer, pool = pool[:size], pool[size:]
            data["seats"][o]["offer"] = offer
            if s.seats[o]["corp"] is not None:  # chosen in secret: one of its (new) offer
                data["seats"][o]["corp"] = offer[0]
    # Project cards. ``fresh``: the cards of the deck as last shuffled.
    fresh = set(CARD_IDS) if s.reshuffled is None else set(s.reshuffled)
    unseen = s.deck + [c for o in others for c in s.seats[o]["hand"]]
    held = sorted(c for c in unseen if c not in fresh)
    drawable = sorted(c for c in unseen if c in fresh)
    rng.shuffle(held)
    rng.shuffle(drawable)
    for o in others:
        hand = s.seats[o]["hand"]
        old = sum(1 for c in hand if c not in fresh)
        new_hand = held[:old] + drawable[: len(hand) - old]
        held, drawable = held[old:], drawable[len(hand) - old :]
        rng.shuffle(new_hand)
        data["seats"][o]["hand"] = new_hand
    assert not held and len(drawable) == len(s.deck), "the cards held at a reshuffle are in the others' hands"
    data["deck"] = drawable
    if not has_seen_bonus_cards(s, seat):
        played = {b for p in s.seats for b in p["bonus"]}
        pool = sorted(set(BONUS_CARDS) - played)
        rng.shuffle(pool)
        data["bonus_deck"] = pool[: len(s.bonus_deck)]
    # Set-up events other seats alone saw (their cards and corporations dealt) are not the
    # seat's to know: the copy keeps only those it saw.
    data["setup_events"] = [e for e in data["setup_events"] if e.get("visible_to") is None or seat in e["visible_to"]]
    data["rng"] = Rng(rng.next64()).state
    copy = s.game.load(data)
    assert isinstance(copy, type(s))
    return copy
