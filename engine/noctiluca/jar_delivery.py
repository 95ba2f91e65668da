"""Delivering full jars (a score token, a new jar from a pile or, solo, the deck) and ending a turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, event
from engine.noctiluca.content import COMPONENTS

if TYPE_CHECKING:
    from engine.noctiluca.state import NoctilucaState


def start_deliveries(s: NoctilucaState) -> list[Event]:
    """Every player with full jars delivers them, in turn order from the current player."""
    s.phase = "deliver"
    s.pending = {"queue": s.order_from(s.current)}
    return continue_deliveries(s)


def continue_deliveries(s: NoctilucaState) -> list[Event]:
    events: list[Event] = []
    queue = s.pending["queue"]
    while queue:
        seat = queue[0]
        full = [j for j in s.jars[seat] if s.is_full(j)]
        if not full:
            queue.pop(0)
            continue
        if len(full) > 1:
            s.phase = "deliver"
            return events
        events += deliver(s, seat, full[0]["id"])
        if s.phase in ("pile", "draw"):
            return events
    from engine.noctiluca.storm import end_turn

    return events + end_turn(s)


def deliver(s: NoctilucaState, seat: int, jar_id: str) -> list[Event]:
    """Empty the jar into the box lid, take the top token of its colour, keep the jar face down."""
    from engine.noctiluca.setup import to_lid

    jar = s.jar(seat, jar_id)
    s.jars[seat].remove(jar)
    to_lid(s, jar["dice"])
    colour = s.jar_cards[jar_id].colour
    stack = s.stacks[colour]
    token = None
    if stack:
        token = {"colour": colour, "value": stack.pop(0)}
        s.tokens[seat].append([colour, token["value"]])
    s.delivered[seat].append(jar_id)
    events = [event("delivered", None, seat=seat, jar=jar_id, token=token, dice=list(jar["dice"]))]
    return events + new_jar(s, seat)


def new_jar(s: NoctilucaState, seat: int) -> list[Event]:
    if s.solo:
        if not s.deck:
            return [event("no jar left", None, seat=seat)]
        if len(s.deck) == 1:
            return [take(s, seat, s.deck.pop(0), None)]
        count = min(COMPONENTS["solo_draw"], len(s.deck))
        offer, s.deck = s.deck[:count], s.deck[count:]
        s.phase = "draw"
        s.pending["offer"] = offer
        return [event("jars drawn", [seat], seat=seat, jars=list(offer)), event("choosing jar", None, seat=seat)]
    piles = [i for i, p in enumerate(s.piles) if p]
    if not piles:
        return [event("no jar left", None, seat=seat)]
    if len(piles) == 1:
        return [take(s, seat, s.piles[piles[0]].pop(0), piles[0])]
    s.phase = "pile"
    return []


def take(s: NoctilucaState, seat: int, jar_id: str, pile: int | None) -> Event:
    s.jars[seat].append({"id": jar_id, "dice": [None] * len(s.jar_cards[jar_id].slots)})
    data = {"seat": seat, "jar": jar_id}
    if pile is not None:
        data |= {"pile": pile + 1, "top": s.piles[pile][0] if s.piles[pile] else None}
    return event("new jar", None, **data)


def deliver_chosen(s: NoctilucaState, seat: int, jar_id: str) -> list[Event]:
    events = deliver(s, seat, jar_id)
    if s.phase in ("pile", "draw"):
        return events
    return events + continue_deliveries(s)


def take_from_pile(s: NoctilucaState, seat: int, pile: int) -> list[Event]:
    events = [take(s, seat, s.piles[pile].pop(0), pile)]
    s.phase = "deliver"
    return events + continue_deliveries(s)


def take_drawn(s: NoctilucaState, seat: int, jar_id: str) -> list[Event]:
    """Solo: keep one of the two drawn jars; the other goes to the bottom of the deck."""
    offer = s.pending.pop("offer")
    rest = [j for j in offer if j != jar_id]
    s.deck += rest
    s.to_bottom += len(rest)
    events = [take(s, seat, jar_id, None), event("jar to bottom", [seat], seat=seat, jars=rest)]
    s.phase = "deliver"
    return events + continue_deliveries(s)
