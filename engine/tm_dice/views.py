"""What each seat may see. Hands, the corporations being chosen and the bonus cards being
looked at are private; dice, wild tokens, played cards and everything on the board are public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

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


class CardAction(TypedDict):
    """A blue card's action: ``main``, ``support`` or ``free``, what it costs and gives."""

    type: str
    cost: list[str]
    effects: list[str]


class CardView(TypedDict):
    """A project card: red cards have ``effects``, blue an ``action``, green ``production``."""

    id: str
    name: str
    colour: str
    cost: list[str]
    vp: int
    end_vp: int
    effects: NotRequired[list[str]]
    action: NotRequired[CardAction]
    production: NotRequired[list[str]]
    passive: NotRequired[list[str]]


class BonusView(TypedDict):
    id: str
    name: str
    effects: list[str]
    end_vp: int
    passive: list[str]


class CorporationView(TypedDict):
    id: str
    name: str
    start: list[str]
    production: list[str]


class MilestoneView(TypedDict):
    """A milestone: reach ``n`` of ``kind`` (``cities``, ``vp``...)."""

    id: str
    name: str
    kind: str
    n: int


class MilestoneInPlay(MilestoneView):
    owner: int | None
    removed: bool


class HexView(TypedDict):
    """An area of the map: its label (``c4``), axial position, kind of area and printed bonus."""

    label: str
    q: int
    r: int
    area: str
    bonus: list[str]


class SoloRules(TypedDict):
    """What the solo game adds: the count each award's rarity needs, the turn after which each
    milestone (in order) is removed unless claimed."""

    award_thresholds: dict[str, int]
    milestone_removal: list[int]


class TrackBonus(TypedDict):
    at: int
    effects: list[str]


class ParameterView(TypedDict):
    position: int
    steps: int
    value: int
    unit: str
    complete: bool
    bonuses: list[TrackBonus]


class TileView(TypedDict):
    hex: str
    tile: str
    owner: int | None


class AwardView(TypedDict):
    face: str
    colour: str
    rarity: str


class SeatView(TypedDict):
    """A seat in public: its corporation once revealed, dice held by face, wild tokens, VP, hand
    size, played cards by colour (ids), used blue cards, bonus cards, production colours."""

    corporation: CorporationView | None
    chosen: bool
    dice: dict[str, int]
    wild: int
    vp: int
    hand: int
    red: list[str]
    blue: list[str]
    green: list[str]
    used: list[str]
    bonus: list[BonusView]
    production: list[str]
    thresholds: list[int]
    award_counts: list[int]


class StepView(TypedDict):
    """The step being decided: its kind and seat, and its public fields by kind (``effects`` and
    ``source``, ``cost`` and ``proposal`` for ``pay``, ``tile``, ``colour``...)."""

    kind: str
    seat: int
    effects: NotRequired[list[str]]
    source: NotRequired[str]
    cost: NotRequired[dict[str, int]]
    proposal: NotRequired[str | None]
    tile: NotRequired[str]
    colour: NotRequired[str]
    to: NotRequired[int]
    purpose: NotRequired[str]
    as_main: NotRequired[bool]
    colours: NotRequired[list[str]]
    face: NotRequired[str | None]
    kept: NotRequired[dict[str, int]]
    open: NotRequired[bool]


class Result(TypedDict):
    """The final scores, winners and each seat's parts (``terraforming and tiles``, ``awards``,
    ``milestones``, ``card vp``, ``total``, ``resignation`` for one who resigned; solo, whether
    ``all parameters`` were completed)."""

    scores: list[int]
    winners: list[int]
    details: list[dict[str, int | bool]]


class TMDicePublic(TypedDict):
    """``view(seat)["public"]``."""

    game: str
    players: int
    solo: bool
    stage: str
    turn: int
    current: int
    first: int
    end_at: int | None
    parameters: dict[str, ParameterView]
    tiles: list[TileView]
    pool: dict[str, int]
    wild_supply: int
    deck: int
    discard: int
    bonus_deck: int
    awards: list[AwardView]
    milestones: list[MilestoneInPlay]
    seats: list[SeatView]
    step: StepView | None
    awards_now: list[list[int]] | None
    result: Result | None
    resigned: int | None


class TMDicePrivate(TypedDict):
    """``view(seat)["private"]``: the hand; while corporations are chosen, those offered and the
    one kept; while this seat picks a bonus card, the cards to pick from."""

    hand: list[CardView]
    corporations: NotRequired[list[CorporationView]]
    kept: NotRequired[str | None]
    bonus_choice: NotRequired[list[BonusView]]


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


def parameter_view(state: TMDiceState, p: str) -> ParameterView:
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


def seat_view(state: TMDiceState, seat: int) -> SeatView:
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


def public_view(state: TMDiceState) -> TMDicePublic:
    step: StepView | None = None
    if state.stage == "play" and state.queue:
        task = state.queue[-1]
        fields: dict[str, object] = {"kind": task["kind"], "seat": task["seat"]}
        for key in _STEP_FIELDS.get(task["kind"], ()):
            value = task[key]
            fields[key] = dict(value) if isinstance(value, dict) else list(value) if isinstance(value, list) else value
        # The fields of a kind of step are those _STEP_FIELDS lists, each declared in StepView.
        step = cast(StepView, fields)
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
            {
                "id": (mm := MILESTONES[m])["id"],
                "name": mm["name"],
                "kind": mm["kind"],
                "n": mm["n"],
                "owner": state.claimed.get(m),
                "removed": m in state.removed,
            }
            for m in state.milestones
        ],
        "seats": [seat_view(state, s) for s in range(state.players)],
        "step": step,
        "awards_now": scoring.award_points(state) if state.stage != "corp" else None,
        "result": None
        if (r := state.result) is None
        else {"scores": r["scores"], "winners": r["winners"], "details": r["details"]},
        "resigned": state.resigned,
    }


def private_view(state: TMDiceState, seat: int) -> TMDicePrivate:
    p = state.seats[seat]
    out: TMDicePrivate = {"hand": [card_view(c) for c in p["hand"]]}
    if state.stage == "corp":
        out["corporations"] = [corporation_view(c) for c in p["offer"]]
        out["kept"] = p["corp"]
    if state.stage == "play" and state.queue and state.queue[-1]["kind"] == "bonus" and state.queue[-1]["seat"] == seat:
        out["bonus_choice"] = [bonus_view(b) for b in state.bonus_deck]
    return out
