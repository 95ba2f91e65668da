"""``determinize(seat, seed)`` for Noctiluca: a copy with everything ``seat`` cannot see drawn again.

What a seat cannot see, and how it is drawn again from ``seed`` (docs/ENGINE-EXTENSIONS.md):

- the other seats' favourite colours, until the end shows them: any favourite but the seat's own
  (those left in the box too: the seat does not know which ones are out), one per other seat;
- while the jars are chosen: the other seats' three dealt jars, which two they kept, and the
  deck; all dealt again from those jars together;
- the piles below their face-up tops (the seat's own jar set aside at the start is somewhere in
  them, like the rest): the jars below the tops, shuffled together and put back, each pile
  keeping its size and top;
- solo, the order of the deck, except the jars the player put under it (``to_bottom``), which
  stay at the bottom in the order the player put them there;
- the random generator (the dice drawn from the box lid and rolled, the storm's roll). Which
  dice are in the lid is public: only their draws are redrawn, through the new generator.

Everything else (the board, the lid's counts, jars in play, delivered jars, tokens, discards) is
public and stays. The unseen jars are gathered from the state as a multiset, put in a canonical
(sorted) order and shuffled by a generator derived from ``seed`` alone, so the copy depends only
on what ``seat`` sees: another state with the same view gives the same copy.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from engine.noctiluca import content
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.noctiluca.state import NoctilucaState


def seeded(seed: int, seat: int) -> Rng:
    """The generator of a determinization: from ``seed`` and ``seat`` only, never the game's own."""
    digest = hashlib.sha256(f"noctiluca determinize {seed} {seat}".encode()).digest()
    return Rng(int.from_bytes(digest[:8], "big"))


def determinize(s: NoctilucaState, seat: int, seed: int) -> NoctilucaState:
    from engine.noctiluca.persist import copied

    rng = seeded(seed, seat)
    copy = copied(s)  # as ``load(to_dict())`` would give it: a state the engine made is valid
    others = [o for o in range(s.players) if o != seat]
    over = s.phase == "over"
    if not over:
        # Favourites: shown only at the end.
        pool = sorted(f["colour"] for f in content.FAVOURITES if f["colour"] != s.favourites[seat])
        rng.shuffle(pool)
        for o, colour in zip(others, pool, strict=False):
            copy.favourites[o] = colour
    if s.phase == "keep":
        pending = copy.pending
        unseen = sorted(s.deck + [j for o in others for j in s.pending["dealt"][o]])
        rng.shuffle(unseen)
        for o in others:
            size = len(s.pending["dealt"][o])
            hand, unseen = unseen[:size], unseen[size:]
            pending["dealt"][o] = hand
            kept = s.pending["kept"][o]
            if kept is not None:  # that seat has chosen, in secret: two of its (new) jars
                pending["kept"][o] = hand[: len(kept)]
        copy.deck = unseen
    else:
        below = sorted(j for pile in s.piles for j in pile[1:])
        rng.shuffle(below)
        for i, pile in enumerate(s.piles):
            if pile:
                size = len(pile) - 1
                copy.piles[i] = [pile[0]] + below[:size]
                below = below[size:]
        known = min(s.to_bottom, len(s.deck)) if s.solo else 0
        hidden = sorted(s.deck[: len(s.deck) - known])
        rng.shuffle(hidden)
        copy.deck = hidden + s.deck[len(s.deck) - known :]
    # Set-up events other seats alone saw (their favourite, their dealt jars) are not the seat's
    # to know: the copy keeps only those it saw.
    copy.setup_events = [e for e in copy.setup_events if e.get("visible_to") is None or seat in e["visible_to"]]
    copy.rng = Rng(rng.next64())
    return copy
