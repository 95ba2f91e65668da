"""The forest path: board sides, levels, gems, forest tokens and the tracker's movement.

Board sides and levels live in ``data/fox-duet/boards.json``, checked against a schema when
this module is imported. Index 0 of the path is seat 0's end, the last index seat 1's end.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.content import ContentError, OneOf, Range, load
from engine.core import Event, Record, event

BOARDS_SCHEMA = {
    "gem_tokens": Range(1, 100),
    "sides": [
        {
            "side": OneOf("A", "B"),
            "start": Range(0, 100),
            "points": [{"gems": Range(0, 9), "plus": bool, "diamond": bool}],
        }
    ],
    "levels": [
        {
            "level": Range(1, 3),
            "side": OneOf("A", "B"),
            "diamonds": bool,
            "forest_tokens": Range(0, 20),
            "gems": Range(1, 100),
            "score": Range(0, 1000),
        }
    ],
}


@dataclass(frozen=True)
class Point:
    gems: int
    plus: bool
    diamond: bool


@dataclass(frozen=True)
class Side:
    name: str
    start: int
    points: tuple[Point, ...]

    def __len__(self) -> int:
        return len(self.points)


@dataclass(frozen=True)
class Level:
    level: int
    side: str
    diamonds: bool
    forest_tokens: int
    gems: int
    score: int


def _build(data: Record) -> tuple[int, dict[str, Side], dict[int, Level]]:
    sides: dict[str, Side] = {}
    for raw in data["sides"]:
        name = raw["side"]
        where = f"fox-duet/boards.json: side {name}"
        if name in sides:
            raise ContentError(f"{where}: listed twice")
        points = tuple(Point(p["gems"], p["plus"], p["diamond"]) for p in raw["points"])
        if len(points) < 3 or not 0 < raw["start"] < len(points) - 1:
            raise ContentError(f"{where}: the start must be an inner point of a path of 3 or more points")
        if points[raw["start"]].gems or points[raw["start"]].plus or points[raw["start"]].diamond:
            raise ContentError(f"{where}: the start circle has no gem marks")
        sides[name] = Side(name, raw["start"], points)
    levels: dict[int, Level] = {}
    for raw in data["levels"]:
        level = Level(**raw)
        where = f"fox-duet/boards.json: level {level.level}"
        if level.level in levels:
            raise ContentError(f"{where}: listed twice")
        if level.side not in sides:
            raise ContentError(f"{where}: unknown side {level.side!r}")
        side = sides[level.side]
        placed = sum(setup_gems_for(side, level.diamonds))
        if placed != level.gems:
            raise ContentError(f"{where}: side {level.side} gives {placed} gems, not {level.gems}")
        pluses = sum(p.plus for p in side.points)
        if placed + 2 * pluses > data["gem_tokens"]:
            raise ContentError(f"{where}: two round ends would need more than {data['gem_tokens']} gems")
        if level.forest_tokens >= side.start:
            raise ContentError(f"{where}: that many forest tokens could cover the start circle")
        levels[level.level] = level
    if sorted(levels) != [1, 2, 3]:
        raise ContentError("fox-duet/boards.json: levels 1, 2 and 3 are needed")
    return data["gem_tokens"], sides, levels


def setup_gems_for(side: Side, diamonds: bool) -> list[int]:
    """Gems at setup: the squares of each point, plus one per diamond mark when they count."""
    return [p.gems + (1 if diamonds and p.diamond else 0) for p in side.points]


GEM_TOKENS, SIDES, LEVELS = _build(load("fox-duet/boards.json", BOARDS_SCHEMA))


def end_space(covered: list[bool], end: int) -> int:
    """The last visible (uncovered) space of ``end`` (0: seat 0's end, low indices; 1: high)."""
    indices = range(len(covered)) if end == 0 else range(len(covered) - 1, -1, -1)
    for i in indices:
        if not covered[i]:
            return i
    raise ValueError("the whole path is covered")


def inward(index: int, end: int) -> int:
    """The neighbouring index toward the centre, seen from ``end``."""
    return index + 1 if end == 0 else index - 1


def cover_end(
    covered: list[bool], gems: list[int], end: int, cause: str, left: int, chosen_by: int | None
) -> list[Event]:
    """Cover the last visible space of ``end`` with a forest token; its gems slide inward.

    ``left`` is the number of forest tokens left after this one is placed.
    """
    space = end_space(covered, end)
    covered[space] = True
    events = [event("forest token placed", None, end=end, space=space, cause=cause, left=left, chosen_by=chosen_by)]
    if gems[space]:
        to = inward(space, end)
        count = gems[space]
        gems[to] += count
        gems[space] = 0
        events.append(event("gems slid", None, **{"from": space}, to=to, count=count))
    return events


def plus_target(covered: list[bool], index: int, start: int) -> int:
    """Where a "+" mark's gem goes: the mark's own space, or, when that space is covered, the
    nearest uncovered space toward the centre (where the covered space's gems slid)."""
    step = 1 if index < start else -1
    while covered[index]:
        index += step
    return index


def move(tracker: int, steps: int, toward: int, covered: list[bool]) -> int | None:
    """The tracker's new index after ``steps`` toward ``toward``'s end, or None on an overshoot
    (moving past the last visible space of that end)."""
    target = tracker - steps if toward == 0 else tracker + steps
    limit = end_space(covered, toward)
    if (toward == 0 and target < limit) or (toward == 1 and target > limit):
        return None
    return target


def open_ends(covered: list[bool], tracker: int) -> list[int]:
    """Ends whose last visible space may take a forest token at a round's end (not the
    space the tracker stands on)."""
    return [end for end in (0, 1) if end_space(covered, end) != tracker]
