"""The dive (a shore, a path, a number), storing the dice by colour, and passing the rest on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, Record, event, illegal
from engine.noctiluca import content
from engine.noctiluca.content import DICE_COLOURS, SHORES

if TYPE_CHECKING:
    from engine.noctiluca.state import NoctilucaState


def choose_shore(s: NoctilucaState, seat: int, shore: int) -> list[Event]:
    """Put a pawn on a free shore."""
    s.shores[shore - 1] = {"seat": seat, "round": s.round}
    s.pawns[seat] -= 1
    s.phase, s.pending = "path", {"shore": shore}
    return [event("pawn placed", None, seat=seat, shore=shore, round=s.round, pawns_left=s.pawns[seat])]


def choose_path(s: NoctilucaState, seat: int, kind: str) -> list[Event]:
    shore = s.pending["shore"]
    s.phase, s.pending = "number", {"shore": shore, "path": kind}
    return [event("path chosen", None, seat=seat, shore=shore, path=kind, spaces=list(path_spaces(shore, kind)))]


def path_spaces(shore: int, kind: str) -> tuple[int, ...]:
    return SHORES[shore - 1].paths[kind]


def dice_on_path(s: NoctilucaState, shore: int, kind: str, number: int) -> list[str]:
    return [d for sid in path_spaces(shore, kind) for d in s.spaces[sid] if content.die_face(d) == number]


def choose_number(s: NoctilucaState, seat: int, number: int) -> list[Event]:
    """Take every die on the path showing the number, whatever its colour."""
    shore, kind = s.pending["shore"], s.pending["path"]
    taken: list[str] = []
    for sid in path_spaces(shore, kind):
        keep = [d for d in s.spaces[sid] if content.die_face(d) != number]
        taken += [d for d in s.spaces[sid] if content.die_face(d) == number]
        s.spaces[sid] = keep
    s.last_dive = {
        "seat": seat,
        "shore": shore,
        "path": kind,
        "spaces": list(path_spaces(shore, kind)),
        "number": number,
        "taken": list(taken),
    }
    events = [event("dive", None, seat=seat, shore=shore, path=kind, number=number, taken=list(taken))]
    s.phase, s.pending = "store", {"hand": taken}
    return events + continue_storing(s)


def ambiguous_colours(s: NoctilucaState, seat: int, hand: list[str]) -> list[str]:
    """Colours of the hand whose dice fit several jars without filling every free slot."""
    out = []
    for colour in DICE_COLOURS:
        count = sum(1 for d in hand if content.die_colour(d) == colour)
        jars = s.jars_taking(seat, colour)
        if count and len(jars) > 1 and count < sum(s.free_slots(j, colour) for j in jars):
            out.append(colour)
    return out


def store_die(s: NoctilucaState, seat: int, die: str, jar: Record) -> None:
    slots = s.jar_cards[jar["id"]].slots
    colour = content.die_colour(die)
    for i, (c, d) in enumerate(zip(slots, jar["dice"], strict=True)):
        if c == colour and d is None:
            jar["dice"][i] = die
            return
    raise illegal("noctiluca.illegal.no-free-slot", "That jar has no free slot of that colour.")


def auto_store(s: NoctilucaState, seat: int, hand: list[str]) -> list[Event]:
    """Store every die whose place is forced: a single jar takes it, or every free slot fills."""
    events = []
    for colour in DICE_COLOURS:
        dice = [d for d in hand if content.die_colour(d) == colour]
        jars = s.jars_taking(seat, colour)
        if not dice or not jars:
            continue
        if len(jars) > 1 and len(dice) < sum(s.free_slots(j, colour) for j in jars):
            continue
        for jar in jars:
            while dice and s.free_slots(jar, colour):
                die = dice.pop(0)
                hand.remove(die)
                store_die(s, seat, die, jar)
                events.append(event("stored", None, seat=seat, die=die, jar=jar["id"], passed=False))
    return events


def continue_storing(s: NoctilucaState) -> list[Event]:
    """Store what is forced; ask where a die fits several jars; then pass or drop the rest."""
    seat, hand = s.current, s.pending["hand"]
    events = auto_store(s, seat, hand)
    if ambiguous_colours(s, seat, hand):
        s.phase = "store"
        return events
    if not hand:
        from engine.noctiluca.jar_delivery import start_deliveries

        return events + start_deliveries(s)
    if s.storm is not None:  # solo: the storm takes what the diver could not store
        s.storm["dice"] += hand
        events.append(event("to storm", None, seat=seat, dice=list(hand)))
        from engine.noctiluca.jar_delivery import start_deliveries

        return events + start_deliveries(s)
    s.phase = "pass"
    s.pending = {"dice": list(hand), "receiver": seat, "quiet": 0}
    events.append(event("passing", None, seat=seat, dice=list(hand)))
    return events + next_receiver(s)


def diver_store(s: NoctilucaState, seat: int, colour: str, jar_id: str) -> list[Event]:
    hand = s.pending["hand"]
    die = next(d for d in hand if content.die_colour(d) == colour)
    hand.remove(die)
    store_die(s, seat, die, s.jar(seat, jar_id))
    return [event("stored", None, seat=seat, die=die, jar=jar_id, passed=False)] + continue_storing(s)


def next_receiver(s: NoctilucaState) -> list[Event]:
    """Hand the dice on around the table (never back to the diver) until nobody stores any.

    A receiver who can store one of the dice is asked; one who cannot passes at once. A full lap
    of the other players without anyone storing ends the passing: the rest go to the box lid.
    """
    pending = s.pending
    others = s.players - 1
    events: list[Event] = []
    while pending["dice"] and pending["quiet"] < others:
        seat = s.after(pending["receiver"])
        if seat == s.current:
            seat = s.after(seat)
        pending["receiver"] = seat
        if s.can_store_any(seat, pending["dice"]):
            events.append(event("dice passed", None, to=seat, dice=list(pending["dice"])))
            return events
        pending["quiet"] += 1
    if pending["dice"]:
        from engine.noctiluca.setup import to_lid

        to_lid(s, pending["dice"])
        events.append(event("to lid", None, dice=list(pending["dice"])))
    from engine.noctiluca.jar_delivery import start_deliveries

    return events + start_deliveries(s)


def receiver_store(s: NoctilucaState, seat: int, choice: tuple[str, str] | None) -> list[Event]:
    """A receiver stores one of the passed dice, or none, and passes the rest on."""
    pending = s.pending
    if choice is None:
        pending["quiet"] += 1
        events = [event("declined", None, seat=seat, dice=list(pending["dice"]))]
    else:
        colour, jar_id = choice
        die = next(d for d in pending["dice"] if content.die_colour(d) == colour)
        pending["dice"].remove(die)
        store_die(s, seat, die, s.jar(seat, jar_id))
        pending["quiet"] = 0
        events = [event("stored", None, seat=seat, die=die, jar=jar_id, passed=True)]
    return events + next_receiver(s)
