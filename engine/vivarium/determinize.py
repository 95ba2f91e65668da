"""``determinize(seat, seed)`` for Vivarium (docs/ENGINE-EXTENSIONS.md).

What ``seat`` cannot see (docs/rules/vivarium.md): the other players' two secret starting
contracts (until the game is over, when they are shown), the order of the three decks (their
contents are known: every card not in the grid, a collection or the discard, all seen face up),
which 6 of the 8 unseen priority tokens are stacked face down and in which order (2 went back to
the box unseen), and the generator. Everything else is public; in a two-player game the
face-down chain token is shown greyed in the view (and is the only chain token left anyway).

The redraw: each other seat gets a habitat and a type starting contract drawn from those of their
deck that the seat does not hold itself (the ones in the box are as unseen as the dealt ones);
each deck is put in a canonical order and shuffled; the unseen priority tokens likewise, 2 to the
box and the rest stacked. Only how many cards are in each place comes from the real state, never
where a card really is, so two states the seat cannot tell apart give the same copy. Nothing the
seat has seen constrains these places further: no play depends on a secret contract.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, cast

from engine.rng import Rng
from engine.vivarium.content import STARTING

if TYPE_CHECKING:
    from engine.vivarium.state import VivariumState

STARTING_DECKS = ("habitat", "type")


def derived_rng(*parts: object) -> Rng:
    """A generator seeded from a hash of ``parts`` (the same parts, the same generator)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return Rng(int.from_bytes(digest[:8], "big"))


def determinize(state: VivariumState, seat: int, seed: int) -> VivariumState:
    copy = cast("VivariumState", state.game.load(state.to_dict()))
    rng = derived_rng("vivarium", "determinize", seed, seat, state.version)
    if state.phase != "over":  # at the end every starting contract is shown
        others = [s for s in range(state.players) if s != seat]
        drawn: dict[str, list[str]] = {}
        for deck in STARTING_DECKS:
            pool = [c for c in sorted(STARTING) if STARTING[c]["deck"] == deck and c not in state.starting[seat]]
            rng.shuffle(pool)
            drawn[deck] = pool
        for i, other in enumerate(others):
            copy.starting[other] = [drawn[deck][i] for deck in STARTING_DECKS]
        for e in copy.setup_events:
            if e["type"] == "starting contracts" and e["seat"] != seat:
                e["contracts"] = list(copy.starting[e["seat"]])
    for kind in sorted(copy.decks):
        cards = sorted(state.decks[kind])
        rng.shuffle(cards)
        copy.decks[kind] = cards
    unseen = sorted(state.priority_removed + state.priority_stack)
    rng.shuffle(unseen)
    removed = len(state.priority_removed)
    copy.priority_removed = sorted(unseen[:removed])
    copy.priority_stack = unseen[removed:]
    copy.rng = derived_rng("vivarium", "generator", seed, seat, state.version)
    return copy
