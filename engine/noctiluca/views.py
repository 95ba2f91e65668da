"""What each seat may see. Favourites and jars not yet revealed are private; the rest is public."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.noctiluca import content
from engine.noctiluca.content import SHORES, SPACES

if TYPE_CHECKING:
    from engine.noctiluca.state import NoctilucaState


def jar_card(s: NoctilucaState, jar_id: str) -> dict:
    jar = s.jar_cards[jar_id]
    return {"id": jar.id, "colour": jar.colour, "slots": list(jar.slots), "points": jar.points}


def jar_in_play(s: NoctilucaState, j: dict) -> dict:
    return {**jar_card(s, j["id"]), "dice": [None if d is None else content.die_view(d) for d in j["dice"]]}


def dice(ds: list[str]) -> list[dict]:
    return [content.die_view(d) for d in ds]


def public_pending(s: NoctilucaState) -> dict:
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


def public_view(s: NoctilucaState) -> dict:
    over = s.phase == "over"
    view = {
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
                "pawn": None if (pawn := s.shores[i]) is None else dict(pawn),
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
        "last_dive": None
        if s.last_dive is None
        else {**{k: v for k, v in s.last_dive.items() if k != "taken"}, "taken": dice(s.last_dive["taken"])},
        "storm": None,
        "result": None if s.result is None else {k: v for k, v in s.result.items()},
        "resigned": s.resigned,
    }
    if s.storm is not None:
        st = s.storm
        view["storm"] = {
            "tokens": [{"colour": c, "value": v} for c, v in st["tokens"]],
            "dice": dice(st["dice"]),
            "arrow": content.SECTIONS[st["arrow"]],
            "turning": "clockwise" if s.round == 1 else "anticlockwise",
            "last": st["last"]
            and {
                **st["last"],
                "removed": dice(st["last"]["removed"]),
            },
            "discarded": len(s.discard),
        }
    return view


def private_view(s: NoctilucaState, seat: int) -> dict:
    fav = content.FAVOURITE_BY_COLOUR[s.favourites[seat]]
    private: dict = {"seat": seat, "favourite": dict(fav), "hand": []}
    if s.phase == "keep":
        kept = s.pending["kept"][seat]
        private["hand"] = [jar_card(s, j) for j in s.pending["dealt"][seat]]
        private["kept"] = None if kept is None else list(kept)
    if s.phase == "draw" and s.pending["queue"][0] == seat:
        private["hand"] = [jar_card(s, j) for j in s.pending["offer"]]
        private["offer"] = list(s.pending["offer"])
    return private
