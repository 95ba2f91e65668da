"""The map of Mars: hex geometry, where each tile may go, and the VP a tile earns when placed.

Tiles live in ``state.tiles``: ``{label: {"tile": kind, "owner": seat or None}}``. Labels are a
row letter (a-g, top to bottom) and a column number from the left (``d4`` is the centre).
"""

from __future__ import annotations

from engine.tm_dice.content import HEXES
from engine.tm_dice.records import Tile

TILE_KINDS = ("ocean", "greenery", "city", "lava", "mine")
_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
_BY_COORD = {(h["q"], h["r"]): label for label, h in HEXES.items()}
LABELS: tuple[str, ...] = tuple(sorted(HEXES, key=lambda lab: (lab[0], int(lab[1:]))))


def neighbours(label: str) -> list[str]:
    h = HEXES[label]
    out = []
    for dq, dr in _DIRECTIONS:
        other = _BY_COORD.get((h["q"] + dq, h["r"] + dr))
        if other is not None:
            out.append(other)
    return sorted(out, key=LABELS.index)


def row_of(label: str) -> str:
    return label[0]


def legal_hexes(tiles: dict[str, Tile], kind: str) -> list[str]:
    """Free areas where a tile of ``kind`` may go now, in label order.

    Oceans only on ocean areas; special tiles only on the areas printed with their icon;
    greeneries and cities on plain land; a city never next to another city.
    """
    out = []
    for label in LABELS:
        if label in tiles:
            continue
        area = HEXES[label]["area"]
        if kind == "ocean":
            ok = area == "ocean"
        elif kind in ("lava", "mine"):
            ok = area == kind
        elif kind == "greenery":
            ok = area == "land"
        elif kind == "city":
            ok = area == "land" and not any(tiles.get(n, {}).get("tile") == "city" for n in neighbours(label))
        else:
            ok = False
        if ok:
            out.append(label)
    return out


def adjacent_count(tiles: dict[str, Tile], label: str, kind: str) -> int:
    return sum(1 for n in neighbours(label) if tiles.get(n, {}).get("tile") == kind)


def placement_vp(tiles: dict[str, Tile], label: str, kind: str) -> int:
    """VP a tile earns its owner as it is placed, beside the terraforming VP.

    A greenery: 1 per adjacent city. A city: 1 per adjacent greenery.
    """
    if kind == "greenery":
        return adjacent_count(tiles, label, "city")
    if kind == "city":
        return adjacent_count(tiles, label, "greenery")
    return 0


def owned(tiles: dict[str, Tile], seat: int, kind: str) -> int:
    return sum(1 for t in tiles.values() if t["owner"] == seat and t["tile"] == kind)
