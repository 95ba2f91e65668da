"""Noctiluca's content from ``data/noctiluca/``: the pool's geometry, jars, tokens, favourites.

Every file is checked against a schema, then the geometry is checked against the facts the
rules rely on (18 spaces around an island, 12 shores each seeing one 3-long and one 4-long
straight path that misses the island, 3 solo sections numbered 1 to 6), so a bad edit fails
at import time with a precise message instead of in the middle of a game.

The jars depend on the rules version (``JAR_FILES``): version 1 plays ``jars.json``, version 2
the calibrated ``jars-v2.json`` (docs/rules/noctiluca.md, "Calibration"). A game keeps the jars
of the version it started with, so rule code reads them through ``jar_set(rules_version)``
(``NoctilucaState.jar_cards``), never from a module-level table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.content import ContentError, OneOf, Range, load
from engine.core import Record

HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

COMPONENTS_SCHEMA = {
    "dice_colours": [str],
    "dice_per_colour": Range(1, 100),
    "faces": Range(6, 6),
    "jar_colours": [str],
    "pawns": Range(12, 12),
    "solo_pawns_per_round": Range(6, 6),
    "piles": Range(1, 10),
    "jars_dealt": Range(1, 5),
    "jars_kept": Range(1, 5),
    "solo_draw": Range(1, 5),
    "rounds": Range(2, 2),
}

BOARD_SCHEMA = {
    "island": {"q": int, "r": int},
    "dice_per_space": {"inner": Range(1, 10), "outer": Range(1, 10)},
    "sections": [str],
    "spaces": [
        {
            "id": Range(0, 99),
            "q": int,
            "r": int,
            "ring": OneOf("inner", "outer"),
            "section": str,
            "number": Range(1, 6),
        }
    ],
    "shores": [{"id": Range(1, 99), "q": int, "r": int, "paths": {"short": [int], "long": [int]}}],
}

JARS_SCHEMA = {"jars": [{"id": str, "colour": str, "slots": [str], "points": Range(0, 2)}]}
TOKENS_SCHEMA = {"back_value": Range(1, 1), "stacks": {"gold": [int], "brown": [int], "red": [int]}}
# The jar cards of each rules version (relative to data/noctiluca/): version 1 is the first design,
# kept unchanged for the games started under it; version 2 is the calibration by computer play
# (bench/noctiluca_balance.py).
JAR_FILES = {1: "jars.json", 2: "jars-v2.json"}
FAVOURITES_SCHEMA = {"favourites": [{"id": str, "colour": str, "name": str}]}


if TYPE_CHECKING:
    from engine.noctiluca.views import DieView


@dataclass(frozen=True)
class Space:
    id: int
    q: int
    r: int
    ring: str
    capacity: int
    section: str
    number: int


@dataclass(frozen=True)
class Shore:
    id: int
    q: int
    r: int
    paths: dict[str, tuple[int, ...]]


@dataclass(frozen=True)
class Jar:
    id: str
    colour: str
    slots: tuple[str, ...]
    points: int


def _dist(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


def _check_geometry(board: Record) -> tuple[list[Space], list[Shore]]:
    where = "noctiluca/board.json"
    island = (board["island"]["q"], board["island"]["r"])
    if island != (0, 0):
        raise ContentError(f"{where}: the island must be at the centre (0, 0)")
    raw = board["spaces"]
    if [s["id"] for s in raw] != list(range(len(raw))) or len(raw) != 18:
        raise ContentError(f"{where}: spaces must be 18, with ids 0 to 17 in order")
    coords = {(s["q"], s["r"]): s["id"] for s in raw}
    if len(coords) != 18:
        raise ContentError(f"{where}: two spaces share a hex")
    spaces = []
    for s in raw:
        d = _dist(s["q"], s["r"])
        ring = {1: "inner", 2: "outer"}.get(d)
        if ring is None or ring != s["ring"]:
            raise ContentError(f"{where}: space {s['id']} is {d} steps from the island but says {s['ring']!r}")
        if s["section"] not in board["sections"]:
            raise ContentError(f"{where}: space {s['id']} names an unknown section {s['section']!r}")
        spaces.append(Space(s["id"], s["q"], s["r"], ring, board["dice_per_space"][ring], s["section"], s["number"]))
    sections = board["sections"]
    if len(sections) != 3 or sections[0] != "purple":
        raise ContentError(f"{where}: the solo side has 3 sections, the purple one first")
    for name in sections:
        numbers = sorted(s.number for s in spaces if s.section == name)
        if numbers != [1, 2, 3, 4, 5, 6]:
            raise ContentError(f"{where}: section {name!r} must number its 6 spaces 1 to 6, not {numbers}")
    shores = []
    raw_shores = board["shores"]
    if [s["id"] for s in raw_shores] != list(range(1, 13)):
        raise ContentError(f"{where}: shores must be 12, numbered 1 to 12 in order")
    for s in raw_shores:
        start = (s["q"], s["r"])
        if _dist(*start) != 3 or start in {(3 * a, 3 * b) for a, b in HEX_DIRECTIONS}:
            raise ContentError(f"{where}: shore {s['id']} must be a non-corner hex just outside the pool")
        paths = {}
        for kind, length in (("short", 3), ("long", 4)):
            path = s["paths"][kind]
            if len(path) != length:
                raise ContentError(f"{where}: shore {s['id']}'s {kind} path must be {length} spaces long")
            expected = _ray(start, coords)
            if tuple(path) not in expected:
                raise ContentError(f"{where}: shore {s['id']}'s {kind} path is not a straight path from it")
            paths[kind] = tuple(path)
        shores.append(Shore(s["id"], s["q"], s["r"], paths))
    return spaces, shores


def _ray(start: tuple[int, int], coords: dict[tuple[int, int], int]) -> set[tuple[int, ...]]:
    """Every straight run of spaces from ``start`` inward that does not cross the island."""
    rays = set()
    for dq, dr in HEX_DIRECTIONS:
        q, r = start[0] + dq, start[1] + dr
        run: list[int] = []
        crossed = False
        while _dist(q, r) <= 2:
            if (q, r) == (0, 0):
                crossed = True
            else:
                run.append(coords[(q, r)])
            q, r = q + dq, r + dr
        if run and not crossed:
            rays.add(tuple(run))
    return rays


def _load_jars(relative: str) -> dict[str, Jar]:
    """One rules version's 30 jar cards, checked: 10 per jar colour, 3 to 6 slots, 0 to 2 points."""
    where_file = f"noctiluca/{relative}"
    jars: dict[str, Jar] = {}
    for i, j in enumerate(load(where_file, JARS_SCHEMA)["jars"]):
        where = f"{where_file}[{i}]"
        if j["id"] in jars or ":" in j["id"] or " " in j["id"]:
            raise ContentError(f"{where}: jar ids must be unique words, not {j['id']!r}")
        if j["colour"] not in JAR_COLOURS:
            raise ContentError(f"{where}: unknown jar colour {j['colour']!r}")
        if not 3 <= len(j["slots"]) <= 6 or any(c not in DICE_COLOURS for c in j["slots"]):
            raise ContentError(f"{where}: a jar has 3 to 6 slots of noctiluca colours")
        jars[j["id"]] = Jar(j["id"], j["colour"], tuple(j["slots"]), j["points"])
    for colour in JAR_COLOURS:
        if sum(1 for j in jars.values() if j.colour == colour) != 10:
            raise ContentError(f"{where_file}: there must be 10 {colour} jars")
    return jars


def jar_set(rules_version: int) -> dict[str, Jar]:
    """The jar cards a game of this rules version is played with (id -> card)."""
    return JAR_SETS[rules_version]


def _load() -> None:
    global COMPONENTS, DICE_COLOURS, JAR_COLOURS, SPACES, SHORES, SECTIONS, JAR_SETS, JAR_IDS
    global STACKS, BACK_VALUE, FAVOURITES, FAVOURITE_BY_COLOUR
    COMPONENTS = load("noctiluca/components.json", COMPONENTS_SCHEMA)
    DICE_COLOURS = tuple(COMPONENTS["dice_colours"])
    JAR_COLOURS = tuple(COMPONENTS["jar_colours"])
    if DICE_COLOURS != ("orange", "green", "purple", "blue") or JAR_COLOURS != ("gold", "brown", "red"):
        raise ContentError("noctiluca/components.json: unexpected colours")
    board = load("noctiluca/board.json", BOARD_SCHEMA)
    spaces, shores = _check_geometry(board)
    SPACES, SHORES, SECTIONS = tuple(spaces), tuple(shores), tuple(board["sections"])
    on_board = sum(s.capacity for s in SPACES)
    if on_board > len(DICE_COLOURS) * COMPONENTS["dice_per_colour"]:
        raise ContentError("noctiluca: more dice on the board than in the box")
    JAR_SETS = {version: _load_jars(relative) for version, relative in JAR_FILES.items()}
    first = sorted(JAR_SETS[min(JAR_SETS)])
    for version, jars in JAR_SETS.items():
        # Jar names and translations are keyed by id: every version has the same 30 cards.
        if sorted(jars) != first:
            raise ContentError(f"noctiluca/{JAR_FILES[version]}: the jar ids must be those of every other version")
    JAR_IDS = tuple(JAR_SETS[min(JAR_SETS)])
    tokens = load("noctiluca/tokens.json", TOKENS_SCHEMA)
    BACK_VALUE = tokens["back_value"]
    STACKS = {}
    for colour in JAR_COLOURS:
        values = tokens["stacks"][colour]
        if len(values) != 10 or values[0] != 2 or values[-1] != 8 or values != sorted(values):
            raise ContentError(f"noctiluca/tokens.json: the {colour} stack is 10 values from 2 (top) to 8 (bottom)")
        STACKS[colour] = tuple(values)
    favourites = load("noctiluca/favourites.json", FAVOURITES_SCHEMA)["favourites"]
    if sorted(f["colour"] for f in favourites) != sorted(DICE_COLOURS):
        raise ContentError("noctiluca/favourites.json: one favourite card per noctiluca colour")
    FAVOURITES = tuple(favourites)
    FAVOURITE_BY_COLOUR = {f["colour"]: f for f in favourites}


COMPONENTS: dict[str, Any]

DICE_COLOURS: tuple[str, ...]
JAR_COLOURS: tuple[str, ...]
SPACES: tuple[Space, ...]
SHORES: tuple[Shore, ...]
SECTIONS: tuple[str, ...]
JAR_SETS: dict[int, dict[str, Jar]]
JAR_IDS: tuple[str, ...]
STACKS: dict[str, tuple[int, ...]]
BACK_VALUE: int
FAVOURITES: tuple[Record, ...]
FAVOURITE_BY_COLOUR: dict[str, Record]
_load()

COLOUR_LETTER = {"orange": "o", "green": "g", "purple": "p", "blue": "b"}
LETTER_COLOUR = {v: k for k, v in COLOUR_LETTER.items()}


def die(colour: str, face: int) -> str:
    """A die as stored: colour letter and face, ``b3``."""
    return f"{COLOUR_LETTER[colour]}{face}"


def die_colour(d: str) -> str:
    return LETTER_COLOUR[d[0]]


def die_face(d: str) -> int:
    return int(d[1])


def is_die(value: object) -> bool:
    return isinstance(value, str) and len(value) == 2 and value[0] in LETTER_COLOUR and value[1] in "123456"


def die_view(d: str) -> DieView:
    return {"colour": die_colour(d), "face": die_face(d)}


def section_spaces(section: str) -> dict[int, int]:
    """Solo side: number (1-6) -> space id, for one section."""
    return {s.number: s.id for s in SPACES if s.section == section}
