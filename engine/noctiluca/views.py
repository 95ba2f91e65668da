"""What each seat may see. Favourites and jars not yet revealed are private; the rest is public."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from engine.noctiluca import content
from engine.noctiluca.content import SHORES, SPACES

if TYPE_CHECKING:
    from engine.noctiluca.state import NoctilucaState


class DieView(TypedDict):
    colour: str
    face: int


class JarCard(TypedDict):
    """A jar card: its slots (a colour each) and the points it scores once delivered."""

    id: str
    colour: str
    slots: list[str]
    points: int


class JarInPlay(JarCard):
    """A jar being filled: the die in each slot, None where empty."""

    dice: list[DieView | None]


class Pending(TypedDict, total=False):
    """The public side of the current step, by phase: ``keep`` (``chosen``: who has kept),
    ``path`` (``shore``), ``number`` (``shore``, ``path``), ``store`` (``hand``: the dice taken),
    ``pass`` (``dice``, ``receiver``), ``deliver``/``pile``/``draw`` (``seat``); else empty."""

    chosen: list[bool]
    shore: int
    path: str
    hand: list[DieView]
    dice: list[DieView]
    receiver: int
    seat: int


class SpaceView(TypedDict):
    id: int
    q: int
    r: int
    ring: str
    section: str
    number: int
    dice: list[DieView]


class Pawn(TypedDict):
    seat: int
    round: int


class ShoreView(TypedDict):
    id: int
    q: int
    r: int
    paths: dict[str, list[int]]
    pawn: Pawn | None


class PileView(TypedDict):
    size: int
    top: JarCard | None


class Token(TypedDict):
    colour: str
    value: int


class SeatView(TypedDict):
    pawns: int
    jars: list[JarInPlay]
    delivered: list[JarCard]
    tokens: list[Token]
    favourite: str | None


class LastDive(TypedDict):
    seat: int
    shore: int
    path: str
    spaces: list[int]
    number: int
    taken: list[DieView]


class StormTurn(TypedDict):
    """What the storm did last (solo): the jar it discarded, the token that took, where it struck."""

    jar: str | None
    token: Token | None
    section: str
    roll: int
    space: int
    removed: list[DieView]


class StormView(TypedDict):
    tokens: list[Token]
    dice: list[DieView]
    arrow: str
    turning: str
    last: StormTurn | None
    discarded: int


class Result(TypedDict):
    """The final scoring: ``details`` name each part as the rulebook does (``jar points``,
    ``favourite colour``...), ``majorities`` who took each colour's stack backs."""

    scores: list[int]
    winners: list[int]
    details: list[dict[str, Any]]
    majorities: dict[str, dict[str, int]]


class NoctilucaPublic(TypedDict):
    """``view(seat)["public"]``."""

    game: str
    solo: bool
    players: int
    round: int
    direction: str
    first: int
    current: int
    phase: str
    to_move: list[int]
    pending: Pending
    spaces: list[SpaceView]
    shores: list[ShoreView]
    lid: dict[str, int]
    lid_total: int
    stacks: dict[str, list[int]]
    piles: list[PileView]
    deck_size: int
    seats: list[SeatView]
    last_dive: LastDive | None
    storm: StormView | None
    result: Result | None
    resigned: int | None


class Favourite(TypedDict):
    id: str
    colour: str
    name: str


class NoctilucaPrivate(TypedDict):
    """``view(seat)["private"]``: the seat's favourite; while jars are dealt (``keep``) or offered
    (``draw``) to it, those in ``hand``, with ``kept`` (ids) or ``offer`` (ids)."""

    seat: int
    favourite: Favourite
    hand: list[JarCard]
    kept: NotRequired[list[str] | None]
    offer: NotRequired[list[str]]


def jar_card(s: NoctilucaState, jar_id: str) -> JarCard:
    jar = s.jar_cards[jar_id]
    return {"id": jar.id, "colour": jar.colour, "slots": list(jar.slots), "points": jar.points}


def jar_in_play(s: NoctilucaState, j: dict[str, Any]) -> JarInPlay:
    return {**jar_card(s, j["id"]), "dice": [None if d is None else content.die_view(d) for d in j["dice"]]}


def dice(ds: list[str]) -> list[DieView]:
    return [content.die_view(d) for d in ds]


def last_dive(d: dict[str, Any]) -> LastDive:
    return {
        "seat": d["seat"],
        "shore": d["shore"],
        "path": d["path"],
        "spaces": d["spaces"],
        "number": d["number"],
        "taken": dice(d["taken"]),
    }


def storm_turn(d: dict[str, Any]) -> StormTurn:
    return {
        "jar": d["jar"],
        "token": d["token"],
        "section": d["section"],
        "roll": d["roll"],
        "space": d["space"],
        "removed": dice(d["removed"]),
    }


def public_pending(s: NoctilucaState) -> Pending:
    p = s.pending
    if s.phase == "keep":
        return {"chosen": [k is not None for k in p["kept"]]}
    if s.phase == "path":
        return {"shore": p["shore"]}
    if s.phase == "number":
        return {"shore": p["shore"], "path": p["path"]}
    if s.phase == "store":
        return {"hand": dice(p["hand"])}
    if s.phase == "pass":
        return {"dice": dice(p["dice"]), "receiver": p["receiver"]}
    if s.phase in ("deliver", "pile", "draw"):
        return {"seat": p["queue"][0]}
    return {}


def public_view(s: NoctilucaState) -> NoctilucaPublic:
    over = s.phase == "over"
    view: NoctilucaPublic = {
        "game": "noctiluca",
        "solo": s.solo,
        "players": s.players,
        "round": s.round,
        "direction": "clockwise" if s.direction == 1 else "anticlockwise",
        "first": s.first,
        "current": s.current,
        "phase": s.phase,
        "to_move": s.to_move(),
        "pending": public_pending(s),
        "spaces": [
            {
                "id": sp.id,
                "q": sp.q,
                "r": sp.r,
                "ring": sp.ring,
                "section": sp.section,
                "number": sp.number,
                "dice": dice(s.spaces[sp.id]),
            }
            for sp in SPACES
        ],
        "shores": [
            {
                "id": sh.id,
                "q": sh.q,
                "r": sh.r,
                "paths": {k: list(v) for k, v in sh.paths.items()},
                "pawn": None if (pawn := s.shores[i]) is None else {"seat": pawn["seat"], "round": pawn["round"]},
            }
            for i, sh in enumerate(SHORES)
        ],
        "lid": dict(s.lid),
        "lid_total": sum(s.lid.values()),
        "stacks": {c: list(v) for c, v in s.stacks.items()},
        "piles": [{"size": len(p), "top": jar_card(s, p[0]) if p else None} for p in s.piles],
        "deck_size": len(s.deck) if (s.solo or s.phase == "keep") else 0,
        "seats": [
            {
                "pawns": s.pawns[seat],
                "jars": [jar_in_play(s, j) for j in s.jars[seat]],
                "delivered": [jar_card(s, j) for j in s.delivered[seat]],
                "tokens": [{"colour": c, "value": v} for c, v in s.tokens[seat]],
                "favourite": s.favourites[seat] if over else None,
            }
            for seat in range(s.players)
        ],
        "last_dive": None if s.last_dive is None else last_dive(s.last_dive),
        "storm": None,
        "result": None
        if (r := s.result) is None
        else {"scores": r["scores"], "winners": r["winners"], "details": r["details"], "majorities": r["majorities"]},
        "resigned": s.resigned,
    }
    if s.storm is not None:
        st = s.storm
        view["storm"] = {
            "tokens": [{"colour": c, "value": v} for c, v in st["tokens"]],
            "dice": dice(st["dice"]),
            "arrow": content.SECTIONS[st["arrow"]],
            "turning": "clockwise" if s.round == 1 else "anticlockwise",
            "last": storm_turn(st["last"]) if st["last"] else None,
            "discarded": len(s.discard),
        }
    return view


def private_view(s: NoctilucaState, seat: int) -> NoctilucaPrivate:
    fav = content.FAVOURITE_BY_COLOUR[s.favourites[seat]]
    favourite: Favourite = {"id": fav["id"], "colour": fav["colour"], "name": fav["name"]}
    private: NoctilucaPrivate = {"seat": seat, "favourite": favourite, "hand": []}
    if s.phase == "keep":
        kept = s.pending["kept"][seat]
        private["hand"] = [jar_card(s, j) for j in s.pending["dealt"][seat]]
        private["kept"] = None if kept is None else list(kept)
    if s.phase == "draw" and s.pending["queue"][0] == seat:
        private["hand"] = [jar_card(s, j) for j in s.pending["offer"]]
        private["offer"] = list(s.pending["offer"])
    return private
