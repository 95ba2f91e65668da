"""Final scoring: majorities, token values, jar points, favourites, leftovers, tie-breaks, solo."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from engine.core import Event, Outcome, Record, event
from engine.noctiluca import content
from engine.noctiluca.content import BACK_VALUE, JAR_COLOURS

if TYPE_CHECKING:
    from engine.noctiluca.state import NoctilucaState

STORM = "storm"
# Who may take a colour's remaining tokens: a seat, or the storm (solo).
_Who = TypeVar("_Who", int, str, int | str)


def majorities(counts: Mapping[_Who, int], remaining: int) -> dict[_Who, int]:
    """Who takes the remaining tokens of one colour, face down (1 point each).

    ``counts`` maps each contender to the number of tokens it holds (not their value). The
    single leader takes them all; tied leaders share them equally and the rest are discarded.
    Nobody with tokens of the colour: nobody takes any.
    """
    top = max(counts.values(), default=0)
    if top == 0 or remaining == 0:
        return {who: 0 for who in counts}
    leaders = [who for who, n in counts.items() if n == top]
    share = remaining // len(leaders)
    return {who: (share if who in leaders else 0) for who in counts}


def score(s: NoctilucaState) -> Record:
    """The final scoring of every seat (and, solo, of the storm), part by part."""
    contenders: list[int | str] = list(range(s.players)) + ([STORM] if s.solo else [])
    # Only a solo game has a storm, and only then is it read below.
    storm: Record = s.storm if s.storm is not None else {}

    def held(who: int | str) -> list[list[Any]]:
        if isinstance(who, str):  # the storm
            tokens: list[list[Any]] = storm["tokens"]
            return tokens
        return s.tokens[who]

    extra = {who: 0 for who in contenders}
    by_colour = {}
    for colour in JAR_COLOURS:
        counts = {who: sum(1 for c, _ in held(who) if c == colour) for who in contenders}
        taken = majorities(counts, len(s.stacks[colour]))
        by_colour[colour] = {str(who): n for who, n in taken.items()}
        for who, n in taken.items():
            extra[who] += n * BACK_VALUE
    details = []
    scores = []
    for seat in range(s.players):
        tokens = sum(v for _, v in s.tokens[seat])
        cards = s.jar_cards
        jars = sum(cards[j].points for j in s.delivered[seat])
        favourite = sum(1 for j in s.delivered[seat] for c in cards[j].slots if c == s.favourites[seat])
        leftovers = sum(1 for j in s.jars[seat] for d in j["dice"] if d is not None) // 2
        parts = {
            "majorities": extra[seat],
            "tokens": tokens,
            "jar points": jars,
            "favourite": favourite,
            "leftovers": leftovers,
        }
        if s.solo:
            parts["storm tokens"] = -(sum(v for _, v in storm["tokens"]) + extra[STORM])
            parts["storm dice"] = -len(storm["dice"])
        total = sum(parts.values())
        details.append(
            {
                **parts,
                "total": total,
                "delivered jars": len(s.delivered[seat]),
                "favourite colour": s.favourites[seat],
            }
        )
        scores.append(total)
    if s.solo:
        winners = [0] if scores[0] >= 1 else []
    else:
        best = max(scores)
        tied = [seat for seat in range(s.players) if scores[seat] == best]
        most = max(len(s.delivered[seat]) for seat in tied)
        winners = [seat for seat in tied if len(s.delivered[seat]) == most]
    return {"scores": scores, "winners": winners, "details": details, "majorities": by_colour}


def finish(s: NoctilucaState) -> list[Event]:
    s.result = score(s)
    s.phase, s.pending = "over", {}
    return [event("round ended", None, round=s.round), final_scores_event(s)]


def final_scores_event(s: NoctilucaState, **extra: object) -> Event:
    result = s.result
    assert result is not None, "the game is scored before its final event"
    return event(
        "final scores",
        None,
        scores=list(result["scores"]),
        winners=list(result["winners"]),
        details=[dict(d) for d in result["details"]],
        majorities=result["majorities"],
        favourites=[content.FAVOURITE_BY_COLOUR[c]["colour"] for c in s.favourites],
        **extra,
    )


def _put_back(s: NoctilucaState) -> None:
    """Whatever is in the middle of a step goes back, so each component stays in one place."""
    from engine.noctiluca.setup import to_lid

    pending = s.pending
    if s.phase == "keep":
        s.deck += [j for dealt in pending["dealt"] for j in dealt]
    elif s.phase == "store":
        to_lid(s, pending["hand"])
    elif s.phase == "pass":
        to_lid(s, pending["dice"])
    elif s.phase == "draw":
        s.deck += pending["offer"]


def standing(s: NoctilucaState) -> Outcome:
    """The final scoring of the position as it stands; the highest score wins, ties to the most
    delivered jars. Solo, an unfinished game is no win. Read-only: what is in the middle of a
    step (dice in hand, jars dealt or offered) scores nothing either way, so nothing is put
    back first (a resignation does put it back, to end the game tidily)."""
    result = score(s)
    scores = result["scores"]
    winners = [] if s.players == 1 else list(result["winners"])
    return Outcome(list(scores), winners, list(result["details"]))


def resign(s: NoctilucaState, seat: int) -> list[Event]:
    """``seat`` leaves for good: the game ends now with the final scoring of the position as it
    stands (majorities of the tokens left in the stacks, leftovers...; the seat's own tokens
    still count in the majorities). The seat ranks last: its score is lowered below everyone
    else's (the ``resignation`` part, 0 or less) and it never wins; the others win by the usual
    rule (the highest score, ties to the most delivered jars). Solo, resigning is a loss (a
    score of 0 at most)."""
    _put_back(s)
    result = score(s)
    scores = result["scores"]
    others = [o for o in range(s.players) if o != seat]
    ceiling = min(scores[o] for o in others) - 1 if others else 0
    capped = min(scores[seat], ceiling)
    detail = result["details"][seat]
    detail["resignation"] = capped - scores[seat]
    detail["total"] = capped
    scores[seat] = capped
    if others:
        best = max(scores[o] for o in others)
        tied = [o for o in others if scores[o] == best]
        most = max(len(s.delivered[o]) for o in tied)
        result["winners"] = [o for o in tied if len(s.delivered[o]) == most]
    else:
        result["winners"] = []
    s.result = result
    s.resigned = seat
    s.phase, s.pending = "over", {}
    return [event("player resigned", None, seat=seat), final_scores_event(s, resigned=seat)]
