"""What each seat may see: the exact shape of docs/fox-duet-view.md."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from engine.fox_duet.cards import card_view, sort_hand

if TYPE_CHECKING:
    from engine.fox_duet.state import FoxDuetState


class CardView(TypedDict):
    """One card face up: ``dove-7``, its suit, rank, footprints and ability (None for none)."""

    id: str
    suit: str
    rank: int
    footprints: int
    ability: str | None


class SpaceView(TypedDict):
    """A space of the path: covered by a forest token, its gems, its printed marks."""

    covered: bool
    gems: int
    plus: bool
    diamond: bool
    start: bool


class PlayedCard(TypedDict):
    seat: int
    card: CardView


class LastTrick(TypedDict):
    cards: list[PlayedCard]
    winner: int
    steps: int
    toward: int
    overshoot: bool
    gem: bool


class Pending(TypedDict, total=False):
    """The public side of the decision being made, by phase: ``fox-pick`` (``fox_player``),
    ``fox-swap`` (``fox_player``, ``chooser``), ``gift`` (``chosen``: who has picked),
    ``gazelle`` (``winner``, ``cards``), ``direction`` (``winner``, ``steps``), ``forest``
    (``ends``); empty otherwise."""

    fox_player: int
    chooser: int
    chosen: list[bool]
    winner: int
    cards: list[CardView]
    steps: int
    ends: list[int]


class Result(TypedDict):
    won: bool
    reason: str
    score: int


class FoxDuetPublic(TypedDict):
    """``view(seat)["public"]`` (docs/fox-duet-view.md)."""

    game: str
    level: int
    side: str
    round: int
    trick: int
    dealer: int
    leader: int
    phase: str
    to_move: list[int]
    spaces: list[SpaceView]
    tracker: int
    forest_tokens_left: int
    forest_tokens_total: int
    gems_on_board: int
    gems_collected: int
    gems_in_supply: int
    decree: CardView
    trick_cards: list[PlayedCard]
    last_trick: LastTrick | None
    memory_aid: bool
    hand_sizes: list[int]
    deck_size: int
    pending: Pending
    result: Result | None


class FoxDuetPrivate(TypedDict):
    """``view(seat)["private"]``: the seat's hand, sorted, and the card it is giving (gift step)."""

    hand: list[CardView]
    gift: CardView | None


def public_pending(state: FoxDuetState) -> Pending:
    phase, pending = state.phase, state.pending
    if phase == "fox-pick":
        return {"fox_player": pending["fox_player"]}
    if phase == "fox-swap":
        return {"fox_player": pending["fox_player"], "chooser": pending["chooser"]}
    if phase == "gift":
        return {"chosen": [pick is not None for pick in pending["picks"]]}
    if phase == "gazelle":
        return {"winner": pending["winner"], "cards": [card_view(p["card"]) for p in state.trick_cards]}
    if phase == "direction":
        return {"winner": pending["winner"], "steps": pending["steps"]}
    if phase == "forest":
        return {"ends": list(pending["ends"])}
    return {}


def public_view(state: FoxDuetState) -> FoxDuetPublic:
    side = state.side
    # Without the memory aid the trick just won is not shown once the next begins (the seed:
    # players may not look at earlier tricks during a round); the game's end shows it again.
    last = state.last_trick if state.memory_aid or state.phase == "over" else None
    return {
        "game": "fox-duet",
        "level": state.level,
        "side": side.name,
        "round": state.round,
        "trick": state.trick,
        "dealer": state.dealer,
        "leader": state.leader,
        "phase": state.phase,
        "to_move": state.to_move(),
        "spaces": [
            {
                "covered": state.covered[i],
                "gems": state.gems[i],
                "plus": point.plus,
                "diamond": point.diamond,
                "start": i == side.start,
            }
            for i, point in enumerate(side.points)
        ],
        "tracker": state.tracker,
        "forest_tokens_left": state.forest_left,
        "forest_tokens_total": state.forest_total,
        "gems_on_board": sum(state.gems),
        "gems_collected": state.collected,
        "gems_in_supply": state.supply,
        "decree": card_view(state.decree),
        "trick_cards": [{"seat": p["seat"], "card": card_view(p["card"])} for p in state.trick_cards],
        "last_trick": None
        if last is None
        else {
            "cards": [{"seat": p["seat"], "card": card_view(p["card"])} for p in last["cards"]],
            "winner": last["winner"],
            "steps": last["steps"],
            "toward": last["toward"],
            "overshoot": last["overshoot"],
            "gem": last["gem"],
        },
        "memory_aid": state.memory_aid,
        "hand_sizes": [len(state.hands[0]), len(state.hands[1])],
        "deck_size": len(state.deck),
        "pending": public_pending(state),
        "result": None
        if state.result is None
        else {"won": state.result["won"], "reason": state.result["reason"], "score": state.result["score"]},
    }


def private_view(state: FoxDuetState, seat: int) -> FoxDuetPrivate:
    pick = state.pending["picks"][seat] if state.phase == "gift" else None
    return {
        "hand": [card_view(c) for c in sort_hand(state.hands[seat])],
        "gift": None if pick is None else card_view(pick),
    }
