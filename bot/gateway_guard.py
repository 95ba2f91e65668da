"""Gateway events discord.py cannot read are dropped, never the reason the process stops.

discord.py reads each dispatch in ``DiscordWebSocket.received_message`` by calling the
``ConnectionState.parse_<event>`` method found in ``ConnectionState.parsers``; an exception there
(a missing key, a value of the wrong type) leaves ``Client.connect`` and ends ``Client.start``,
so one malformed event would stop the bot. ``guard_parsers`` wraps every parser: an event that
fails is dropped, and logged once per kind (the event, the exception's type and the line that
raised it); a flood of the same kind is counted, not logged again. The log names the line, never
the payload, which can carry a player's choice (a card in a hand).
"""

from __future__ import annotations

import logging
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

log = logging.getLogger("meeple.gateway")

Parser = Callable[[Any], Any]
Kind = tuple[str, str, str]

GUARDED = "__meeple_guarded__"


class MalformedEvents:
    """The kinds of unreadable event seen so far, and how many of each."""

    def __init__(self) -> None:
        self.seen: Counter[Kind] = Counter()

    def dropped(self, event: str, error: Exception) -> None:
        kind = (event, type(error).__name__, where(error))
        self.seen[kind] += 1
        if self.seen[kind] == 1:
            log.error(
                "dropped a gateway event discord.py could not read: %s (%s at %s); more of this kind are only counted",
                *kind,
            )
        else:
            log.debug("dropped another malformed %s event (%d of this kind)", event, self.seen[kind])

    def guard(self, event: str, parse: Parser) -> Parser:
        def guarded(data: Any) -> Any:
            try:
                return parse(data)
            except Exception as error:  # the point: nothing in an event stops the process
                self.dropped(event, error)
                return None

        setattr(guarded, GUARDED, True)
        return guarded


def where(error: BaseException) -> str:
    """The innermost line that raised, as ``file:line (code)``, without the values involved."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "?"
    last = frames[-1]
    path = "/".join(last.filename.replace("\\", "/").split("/")[-2:])
    return f"{path}:{last.lineno} ({(last.line or '').strip()[:80]})"


def guard_parsers(state: Any) -> MalformedEvents:
    """Wrap each of the connection state's parsers in place (the websocket reads this very dict)."""
    events = MalformedEvents()
    parsers: dict[str, Parser] = state.parsers
    for event, parse in list(parsers.items()):
        if not getattr(parse, GUARDED, False):
            parsers[event] = events.guard(event, parse)
    return events
