"""The end of a turn: the solo storm, the next diver, the end of a round and of the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, event
from engine.noctiluca import content
from engine.noctiluca.content import SECTIONS

if TYPE_CHECKING:
    from engine.noctiluca.state import NoctilucaState


def end_turn(s: NoctilucaState) -> list[Event]:
    events: list[Event] = []
    if s.solo:
        events += storm(s)
    if sum(s.pawns) == 0:
        if s.round == 1:
            from engine.noctiluca.setup import end_round

            return events + end_round(s)
        from engine.noctiluca.scoring import finish

        return events + finish(s)
    s.current = s.after(s.current)
    s.phase, s.pending = "shore", {}
    events.append(event("turn", None, seat=s.current, round=s.round))
    return events


def storm(s: NoctilucaState) -> list[Event]:
    """Solo: after each turn, (1) a jar card is discarded and the top token of its colour goes to
    the storm, (2) the black die clears one space of the section the arrow points at, (3) the
    arrow turns to the next section (the other way in round 2)."""
    st = s.storm
    assert st is not None, "only a solo game has a storm"
    events: list[Event] = []
    card = s.deck.pop(0) if s.deck else None
    token = None
    if card is not None:
        s.discard.append(card)
        colour = s.jar_cards[card].colour
        if s.stacks[colour]:
            token = {"colour": colour, "value": s.stacks[colour].pop(0)}
            st["tokens"].append([colour, token["value"]])
    events.append(event("storm discard", None, jar=card, token=token, deck=len(s.deck)))
    section = SECTIONS[st["arrow"]]
    roll = s.rng.randint(1, 6)
    space = content.section_spaces(section)[roll]
    removed = list(s.spaces[space])
    s.spaces[space] = []
    from engine.noctiluca.setup import to_lid

    to_lid(s, removed)
    events.append(event("storm roll", None, section=section, roll=roll, space=space, removed=removed))
    step = 1 if s.round == 1 else -1
    st["arrow"] = (st["arrow"] + step) % len(SECTIONS)
    events.append(event("storm turns", None, section=SECTIONS[st["arrow"]], clockwise=step == 1))
    st["last"] = {"jar": card, "token": token, "section": section, "roll": roll, "space": space, "removed": removed}
    return events
