"""Turns: which boards of a game are one message, and whom a board notifies.

A player's turn is one board message. The move that commits a change says, in its board job,
whether it began a turn (``turn_change``, from the engine's view: who is to move, and the game's
own idea of a turn, ``GameAdapter.turn_started``); the delivery then posts a new message for a
turn that began, and edits the current message for a step within the turn. A person is
mentioned once per turn: when their turn starts, or, asked to decide within someone else's turn
(Noctiluca's passing round), in one follow-up message. Pure: no awaits, no discord, no SQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import AnyState, Event
from services.wording import adapter_for

# Fields of a board job's payload: whether a whole new turn began (everyone to move starts
# afresh), and the seats whose turn began with it.
TURN = "turn"
STARTS = "starts"
# The id of the oldest board job merged into this one (skipped boards): the new message's nonce,
# so that a post repeated after a crash is recognised by Discord.
FIRST = "first"


def turn_change(game_key: str, before: AnyState | None, after: AnyState, events: Sequence[Event]) -> dict[str, Any]:
    """The payload fields that say what the change from ``before`` to ``after`` did to the turn.

    No ``before`` (the start): a new turn for everyone. A seat newly to move starts its turn
    (unless the game's turn includes others' decisions); the game may say a new turn began for
    whoever is to move (a new round, a new dive of the same seat)."""
    movers = sorted(after.to_move())
    if before is None:
        return {TURN: True, STARTS: movers}
    adapter = adapter_for(game_key)
    public = [event for event in events if event.get("visible_to") is None]
    if adapter.turn_started(public, before.view(None)["public"], after.view(None)["public"]):
        return {TURN: True, STARTS: movers}
    earlier = set(before.to_move())
    starts = [seat for seat in movers if seat not in earlier] if adapter.turn_follows_movers else []
    return {TURN: False, STARTS: starts}


def merged(payloads: Iterable[dict[str, Any]], ids: Iterable[int]) -> dict[str, Any]:
    """The turn fields of boards skipped into a later one, oldest first, with the later one's own
    (last): a turn began if one did in any of them, and every seat whose turn began in any."""
    turn = False
    starts: set[int] = set()
    first: int | None = None
    for payload, job_id in zip(payloads, ids, strict=True):
        # A board from before turns (no fields) began a turn, as every board did then.
        turn = turn or bool(payload.get(TURN, STARTS not in payload))
        starts.update(payload.get(STARTS, []))
        candidate = payload.get(FIRST, job_id)
        first = candidate if first is None else min(first, candidate)
    return {TURN: turn, STARTS: sorted(starts), **({FIRST: first} if first is not None else {})}


@dataclass(frozen=True)
class Shown:
    """The game's current board message as the delivery last left it (kept in that board's job)."""

    message: int
    version: int
    notified: frozenset[int] = frozenset()  # seats mentioned since their turn began
    lines: tuple[str, ...] = ()  # what happened, as the message shows it (the turn line apart)

    def to_dict(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "version": self.version,
            "notified": sorted(self.notified),
            "lines": list(self.lines),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Shown | None:
        if not isinstance(data, dict) or not isinstance(data.get("message"), int):
            return None
        return cls(
            data["message"],
            int(data.get("version", 0)),
            frozenset(int(seat) for seat in data.get("notified", [])),
            tuple(str(line) for line in data.get("lines", [])),
        )


@dataclass(frozen=True)
class Plan:
    """What the delivery does with a board: a new message (mentioning ``mention``) or an edit of
    ``shown``'s message; ``notified`` is who has been mentioned in the turn after it."""

    new: bool
    mention: tuple[int, ...] = ()
    notified: frozenset[int] = field(default_factory=frozenset)


def plan(
    payload: dict[str, Any], shown: Shown | None, movers: Sequence[int], people: Iterable[int], over: bool
) -> Plan:
    """Post or edit, and whom to mention, for a board whose job has ``payload`` (its turn fields
    merged with the boards it replaced), after the board ``shown``; ``people`` are the seats of
    persons (computers are never mentioned), ``movers`` the seats to move, ``over`` a game that ended.

    A new message when a turn began since the shown board (or there is none, or the game is
    over), and when a person to move has not been mentioned in this turn yet (a follow-up that
    mentions only them); otherwise an edit. Nobody whose turn goes on is mentioned again."""
    persons = set(people)
    turn = bool(payload.get(TURN, STARTS not in payload))
    starts = set(payload.get(STARTS, []))
    notified = set() if turn or shown is None else set(shown.notified) - starts
    due = tuple(seat for seat in movers if seat in persons and seat not in notified)
    if over:
        return Plan(True, (), frozenset())
    new = shown is None or turn or bool(starts) or bool(due)
    return Plan(new, due, frozenset(notified | set(due)))


def fit(lines: Sequence[str], tail: Sequence[str], limit: int) -> list[str]:
    """``lines`` then ``tail`` within ``limit`` characters (joined by newlines): the oldest lines
    give way first (a turn's message grows with each step), then the tail is cut at its end."""
    kept = list(lines)
    size = len("\n".join([*kept, *tail]))
    while kept and size > limit:
        size -= len(kept.pop(0)) + 1
    if kept and len(kept) < len(lines):
        kept[0] = "\N{HORIZONTAL ELLIPSIS}"
    return [*kept, *tail]
