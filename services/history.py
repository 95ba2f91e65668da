"""A game's past, rebuilt from its seed and action log: the log in words, old boards, replays.

The engine is deterministic, so replaying the stored actions from the seed gives every past
position and every event exactly as it happened; nothing but the log needs to be stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import GAMES, Action, AnyState, Event
from l10n.words import t
from services.storage import Database, GameRow
from services.wording import adapter_for

LOG_PAGE_LINES = 15


class RecordCompacted(LookupError):
    """The game's move-by-move record was compacted (MEEPLE_RETENTION_DAYS): its past cannot be rebuilt."""

    def __init__(self, row: GameRow) -> None:
        super().__init__(f"the record of game {row.id} was compacted at {row.compacted_at}")
        self.row = row


def require_record(row: GameRow) -> None:
    """Raise RecordCompacted if the game's log and snapshots are gone: never rebuild a wrong past."""
    if row.compacted_at is not None:
        raise RecordCompacted(row)


def apply_logged(state: AnyState, seat: int, text: str) -> list[Event]:
    """Apply one entry of a stored log: ``resign`` is the out-of-turn extension, the rest actions."""
    return state.resign(seat) if text == "resign" else state.apply(seat, text)


@dataclass(frozen=True)
class Step:
    """One entry of the log: the version it produced, who acted, what, and what followed."""

    version: int
    seat: int | None
    action: str | None
    events: list[Event]


async def steps(db: Database, row: GameRow) -> list[Step]:
    """Every step of the game, set-up first (version 0)."""
    require_record(row)
    state, setup = start_state(row, len(await db.seats(row.id)))
    result = [Step(0, None, None, setup)]
    for entry in await db.actions(row.id):
        result.append(Step(entry.version, entry.seat, entry.action, apply_logged(state, entry.seat, entry.action)))
    return result


def start_state(row: GameRow, players: int) -> tuple[AnyState, list[Event]]:
    """The game as it was set up, under the rules version it was started with."""
    state = GAMES[row.game].new(players, row.seed, row.options, rules_version=row.rules_version)
    return state, list(getattr(state, "setup_events", []))


async def state_at(db: Database, row: GameRow, version: int) -> AnyState:
    """The position as it stood after ``version`` actions (from the nearest snapshot)."""
    require_record(row)
    game = GAMES[row.game]
    snapshot = await db.latest_snapshot(row.id, at_or_before=version)
    if snapshot is None:
        state, _ = start_state(row, len(await db.seats(row.id)))
        start = 0
    else:
        start, data = snapshot
        state = game.load(data)
    for entry in await db.actions(row.id, after_version=start):
        if entry.version > version:
            break
        apply_logged(state, entry.seat, entry.action)
    return state


def public_now(row: GameRow) -> dict[str, Any]:
    """The game's public view as it stands (what a game's log or past boards may tell depends on it)."""
    if row.state is None:
        return {}
    return GAMES[row.game].load(row.state).view(None)["public"]


def log_lines(
    row: GameRow,
    all_steps: list[Step],
    names: list[str],
    viewer: int | None,
    locale: str,
    undone: Sequence[tuple[int, int, str]] = (),
) -> list[str]:
    """The log in words for ``viewer`` (a seat, or None for a spectator): public events, that
    seat's own private ones, and the moves taken back, marked where they were made."""
    adapter = adapter_for(row.game)
    lines = []
    for step, seen in zip(all_steps, events_seen(row, all_steps, viewer), strict=True):
        lines += [f"`{step.version:>3}` {line}" for line in adapter.describe_events(seen, names, locale)]
        for version, seat, text in undone:
            if version == step.version + 1:
                label = adapter.action_label(Action(text), {"public": {}, "private": {}}, locale)
                who = names[seat] if 0 <= seat < len(names) else "?"
                lines.append(f"`{version:>3}` " + t("history.undone", locale, name=who, action=label))
    return lines


def events_seen(row: GameRow, all_steps: list[Step], viewer: int | None) -> list[list[Event]]:
    """The events of each step that ``viewer`` (a seat, or None) may read now: public ones and
    the seat's own private ones, of those the game tells at this point (``log_events``)."""
    told = adapter_for(row.game).log_events([(step.version, step.events) for step in all_steps], public_now(row))
    return [
        [e for e in events if e.get("visible_to") is None or (viewer is not None and viewer in e["visible_to"])]
        for events in told
    ]


def move_words(
    row: GameRow, all_steps: list[Step], names: list[str], viewer: int | None, locale: str, version: int
) -> str:
    """What the move that produced ``version`` was, in one line, as the log tells it to ``viewer``
    (its lines joined; the player's name alone when the game words none of its events)."""
    for step, seen in zip(all_steps, events_seen(row, all_steps, viewer), strict=True):
        if step.version != version:
            continue
        lines = adapter_for(row.game).describe_events(seen, names, locale)
        if lines:
            return " · ".join(lines)
        if step.seat is not None and 0 <= step.seat < len(names):
            return t("history.moved", locale, name=names[step.seat])
        return ""
    return ""


def page_of(lines: list[str], page: int) -> tuple[list[str], int, int]:
    """One page of the log (the last page when ``page`` is past the end), its number, the count.

    Pages are counted from the end: the last page, where the log opens on the latest move, is
    a full one, and the first page holds what is left over (a log of 17 lines: 2, then 15)."""
    pages = max(1, -(-len(lines) // LOG_PAGE_LINES))
    page = min(max(page, 1), pages)
    end = len(lines) - (pages - page) * LOG_PAGE_LINES
    return lines[max(0, end - LOG_PAGE_LINES) : end], page, pages
