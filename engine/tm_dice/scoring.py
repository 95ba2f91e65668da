"""Milestones, awards, the final scoring and the tie-break by production."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from engine.core import Event, Outcome, event
from engine.tm_dice import board, dice
from engine.tm_dice.content import (
    BONUS_CARDS,
    CARDS,
    CORPORATIONS,
    FACE_COLOUR,
    FACE_RANK,
    MILESTONES,
    PARAMETERS,
    RULES,
    TRACKS,
)

if TYPE_CHECKING:
    from engine.tm_dice.state import TMDiceState


def production_count(s: TMDiceState, seat: int) -> int:
    """Dice in the brown boxes of the seat's corporation and green cards."""
    player = s.seats[seat]
    total = len(CORPORATIONS[player["corp"]]["production"]) if player["corp"] else 0
    return total + sum(len(CARDS[c].production) for c in player["green"])


def milestone_value(s: TMDiceState, seat: int, kind: str) -> int:
    player = s.seats[seat]
    if kind == "cities":
        return board.owned(s.tiles, seat, "city")
    if kind == "greeneries":
        return board.owned(s.tiles, seat, "greenery")
    if kind in ("blue-cards", "green-cards", "red-cards"):
        return len(player[kind.split("-")[0]])
    if kind == "production":
        return production_count(s, seat)
    if kind == "colours-held":
        return len(dice.held_colours(player))
    return player["vp"]


def claim_milestones(s: TMDiceState) -> list[Event]:
    """The first seat to meet a milestone takes it at once, for free (turn order from the mover)."""
    events: list[Event] = []
    for mid in s.milestones:
        if mid in s.claimed or mid in s.removed:
            continue
        m = MILESTONES[mid]
        for seat in s.turn_order_from(s.current):
            if milestone_value(s, seat, m["kind"]) >= m["n"]:
                s.claimed[mid] = seat
                events.append(event("milestone claimed", None, seat=seat, milestone=mid))
                break
    return events


def remove_solo_milestones(s: TMDiceState) -> list[Event]:
    """Solo: after turns 16, 20 and 24 the top, middle and bottom milestone goes if unclaimed."""
    if s.players != 1:
        return []
    events = []
    for index, turn in enumerate(RULES["solo"]["milestone_removal"]):
        if s.turn == turn and index < len(s.milestones):
            mid = s.milestones[index]
            if mid not in s.claimed and mid not in s.removed:
                s.removed.append(mid)
                events.append(event("milestone removed", None, milestone=mid, turn=turn))
    return events


def award_count(s: TMDiceState, seat: int, face: str) -> int:
    """How often ``face`` appears in the costs of the project cards the seat played."""
    return cost_faces(s, seat)[face]


def cost_faces(s: TMDiceState, seat: int) -> Counter[str]:
    player = s.seats[seat]
    return Counter(f for colour in ("red", "blue", "green") for c in player[colour] for f in CARDS[c].cost)


def award_points(s: TMDiceState) -> list[list[int]]:
    """Per seat, the points of each of the 3 awards."""
    out = [[0] * len(s.awards) for _ in range(s.players)]
    solo = RULES["solo"]
    faces = [cost_faces(s, seat) for seat in range(s.players)]
    for i, face in enumerate(s.awards):
        counts = [faces[seat][face] for seat in range(s.players)]
        if s.players == 1:
            need = solo["award_thresholds"][FACE_RANK[face]]
            out[0][i] = solo["award_vp"] if counts[0] >= need else solo["award_near_vp"] if counts[0] == need - 1 else 0
            continue
        ranked = sorted({c for c in counts if c > 0}, reverse=True)
        if not ranked:
            continue
        firsts = [seat for seat in range(s.players) if counts[seat] == ranked[0]]
        for seat in firsts:
            out[seat][i] = RULES["awards"]["first"]
        if len(firsts) == 1 and len(ranked) > 1:
            for seat in range(s.players):
                if counts[seat] == ranked[1]:
                    out[seat][i] = RULES["awards"]["second"]
    return out


def card_vp(s: TMDiceState, seat: int) -> int:
    player = s.seats[seat]
    total = sum(CARDS[c].end_vp for colour in ("red", "blue", "green") for c in player[colour])
    return total + sum(BONUS_CARDS[b]["end_vp"] for b in player["bonus"])


def final_details(s: TMDiceState) -> list[dict[str, int]]:
    awards = award_points(s)
    out = []
    for seat in range(s.players):
        parts = {
            "terraforming and tiles": s.seats[seat]["vp"],
            "awards": sum(awards[seat]),
            "milestones": RULES["milestone_vp"] * sum(1 for owner in s.claimed.values() if owner == seat),
            "card vp": card_vp(s, seat),
        }
        out.append({**parts, "total": sum(parts.values()), "production": production_count(s, seat)})
    return out


def _winners(s: TMDiceState, scores: list[int], seats: list[int]) -> list[int]:
    """The highest score among ``seats``; ties go to the most production dice, then are shared."""
    best = max(scores[seat] for seat in seats)
    tied = [seat for seat in seats if scores[seat] == best]
    top = max(production_count(s, seat) for seat in tied)
    return [seat for seat in tied if production_count(s, seat) == top]


def _close(s: TMDiceState, scores: list[int], winners: list[int], details: list[dict[str, int]]) -> None:
    s.result = {"scores": scores, "winners": winners, "details": details}
    s.queue = []
    for player in s.seats:  # the end: hands and resources are discarded
        s.discard.extend(player["hand"])
        player["hand"] = []
        for face, n in player["dice"].items():
            s.pool[FACE_COLOUR[face]] += n
        player["dice"] = {}
        s.wild_supply += player["wild"]
        player["wild"] = 0


def _solo_done(s: TMDiceState) -> bool:
    return all(getattr(s, p) >= TRACKS[p]["steps"] for p in PARAMETERS)


def finish(s: TMDiceState) -> list[Event]:
    """End the game: discard hands and resources, score, and decide the winners."""
    details = final_details(s)
    scores = [d["total"] for d in details]
    if s.players == 1:
        done = _solo_done(s)
        details[0]["all parameters"] = done
        winners = [0] if done else []
        if not done:
            scores = [0]
    else:
        winners = _winners(s, scores, list(range(s.players)))
    _close(s, scores, winners, details)
    return [event("game over", None, scores=scores, winners=winners)]


def standing(s: TMDiceState) -> Outcome:
    """The final scoring of the position as it stands (awards, milestones, card VP; steps not yet
    resolved left out), the usual winners; solo, an unfinished game is no win. Nothing changes:
    while corporations are being chosen, nobody has scored anything yet."""
    details = final_details(s)
    scores = [d["total"] for d in details]
    winners = _winners(s, scores, list(range(s.players))) if s.players > 1 else []
    return Outcome(scores, winners, details)


def resign(s: TMDiceState, seat: int) -> list[Event]:
    """``seat`` leaves for good: the game ends now with the final scoring of the position as it
    stands (awards, milestones, card VP; steps not yet resolved are dropped). The seat ranks
    last: its score is lowered to at most one below everyone else's (the ``resignation`` part,
    0 or less, so the parts still add up to the total) and it never wins; the others win by the
    usual rule (the highest score, ties to the most production dice, then shared). Solo,
    resigning is a loss: no winner and a score of 0 at most.

    Resigning while corporations are still being chosen ends the game before it began: the
    corporations go back to the box unrevealed (no production dice for anyone)."""
    if s.stage == "corp":
        for player in s.seats:
            player["corp"], player["offer"] = None, []
    details = final_details(s)
    scores = [d["total"] for d in details]
    others = [o for o in range(s.players) if o != seat]
    ceiling = min(scores[o] for o in others) - 1 if others else 0
    capped = min(scores[seat], ceiling)
    details[seat]["resignation"] = capped - scores[seat]
    details[seat]["total"] = scores[seat] = capped
    if s.players == 1:
        details[0]["all parameters"] = _solo_done(s)
    winners = _winners(s, scores, others) if others else []
    _close(s, scores, winners, details)
    s.resigned = seat
    s.stage = "over"
    return [
        event("player resigned", None, seat=seat),
        event("game over", None, scores=list(scores), winners=list(winners), resigned=seat),
    ]
