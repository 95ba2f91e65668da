"""What each seat may see: the exact shape of docs/fox-duet-view.md."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.fox_duet.cards import card_view, sort_hand

if TYPE_CHECKING:
    from engine.fox_duet.state import FoxDuetState


def public_pending(state: FoxDuetState) -> dict:
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


def public_view(state: FoxDuetState) -> dict:
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


def private_view(state: FoxDuetState, seat: int) -> dict:
    pick = state.pending["picks"][seat] if state.phase == "gift" else None
    return {
        "hand": [card_view(c) for c in sort_hand(state.hands[seat])],
        "gift": None if pick is None else card_view(pick),
    }
