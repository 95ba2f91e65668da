"""What each seat may see. Hands, the corporations being chosen and the bonus cards being
looked at are private; dice, wild tokens, played cards and everything on the board are public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.tm_dice import scoring
from engine.tm_dice.content import (
    FACE_COLOUR,
    FACE_RANK,
    MILESTONES,
    PARAMETERS,
    TRACK_BONUS,
    TRACKS,
    bonus_view,
    card_view,
    corporation_view,
)
from engine.tm_dice.scoring import cost_faces
from engine.tm_dice.steps import production_colours

if TYPE_CHECKING:
    from engine.tm_dice.state import TMDiceState

# Public fields of each kind of step: nothing here may be a secret.
_STEP_FIELDS = {
    "effects": ("effects", "source"),
    "pay": ("cost",),
    "place": ("tile",),
    "lose": ("colour",),
    "gift": ("to",),
    "drop": ("purpose",),
    "support": ("as_main",),
    "pick-face": ("colours",),
    "turn-die": ("face",),
    "pick-colour": ("source",),
    "keep": ("kept",),
    "discard": ("open",),
}


def parameter_view(state: TMDiceState, p: str) -> dict:
    track = TRACKS[p]
    position = getattr(state, p)
    return {
        "position": position,
        "steps": track["steps"],
        "value": track["start"] + position * track["step"],
        "unit": track["unit"],
        "complete": position >= track["steps"],
        "bonuses": [{"at": at, "effects": list(e)} for at, e in sorted(TRACK_BONUS[p].items())],
    }


def seat_view(state: TMDiceState, seat: int) -> dict:
    p = state.seats[seat]
    revealed = state.stage != "corp"
    faces = cost_faces(state, seat)
    return {
        "corporation": corporation_view(p["corp"]) if revealed and p["corp"] else None,
        "chosen": p["corp"] is not None,
        "dice": dict(p["dice"]),
        "wild": p["wild"],
        "vp": p["vp"],
        "hand": len(p["hand"]),
        "red": list(p["red"]),
        "blue": list(p["blue"]),
        "green": list(p["green"]),
        "used": list(p["used"]),
        "bonus": [bonus_view(b) for b in p["bonus"]],
        "production": production_colours(state, seat) if revealed else [],
        "thresholds": list(p["thresholds"]),
        # How many of each award's face the costs of this seat's played cards show, in the
        # order of the awards: the count the awards compare at the end.
        "award_counts": [faces[f] for f in state.awards],
    }


def public_view(state: TMDiceState) -> dict:
    step = None
    if state.stage == "play" and state.queue:
        task = state.queue[-1]
        step = {"kind": task["kind"], "seat": task["seat"]}
        for key in _STEP_FIELDS.get(task["kind"], ()):
            value = task[key]
            step[key] = dict(value) if isinstance(value, dict) else list(value) if isinstance(value, list) else value
        if task["kind"] == "pay":
            offered = state.choices(task)
            step["proposal"] = offered[0][1] if offered else None
    return {
        "game": "tm-dice",
        "players": state.players,
        "solo": state.players == 1,
        "stage": state.stage,
        "turn": state.turn,
        "current": state.current,
        "first": state.first,
        "end_at": state.end_at,
        "parameters": {p: parameter_view(state, p) for p in PARAMETERS},
        "tiles": [{"hex": h, "tile": t["tile"], "owner": t["owner"]} for h, t in sorted(state.tiles.items())],
        "pool": dict(state.pool),
        "wild_supply": state.wild_supply,
        "deck": len(state.deck),
        "discard": len(state.discard),
        "bonus_deck": len(state.bonus_deck),
        "awards": [{"face": f, "colour": FACE_COLOUR[f], "rarity": FACE_RANK[f]} for f in state.awards],
        "milestones": [
            {**MILESTONES[m], "owner": state.claimed.get(m), "removed": m in state.removed} for m in state.milestones
        ],
        "seats": [seat_view(state, s) for s in range(state.players)],
        "step": step,
        "awards_now": scoring.award_points(state) if state.stage != "corp" else None,
        "result": state.result,
        "resigned": state.resigned,
    }


def private_view(state: TMDiceState, seat: int) -> dict:
    p = state.seats[seat]
    out: dict = {"hand": [card_view(c) for c in p["hand"]]}
    if state.stage == "corp":
        out["corporations"] = [corporation_view(c) for c in p["offer"]]
        out["kept"] = p["corp"]
    if state.stage == "play" and state.queue and state.queue[-1]["kind"] == "bonus" and state.queue[-1]["seat"] == seat:
        out["bonus_choice"] = [bonus_view(b) for b in state.bonus_deck]
    return out
