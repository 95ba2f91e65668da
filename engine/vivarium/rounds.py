"""The end of a round: the priority token awarded, the first player marker passed on, the
two-player token flip and column clear, the grid refilled, the next priority token revealed;
and the end of the game after round 7."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, Outcome, Record, event
from engine.vivarium import grid as g
from engine.vivarium.content import CHAIN, PRIORITY, card_view, chain_view, priority_view
from engine.vivarium.scoring import count, score

if TYPE_CHECKING:
    from engine.vivarium.state import VivariumState

ROUNDS = 7
TURNS_EACH = 2


def turn_order(state: VivariumState) -> list[int]:
    return [(state.first + i) % state.players for i in range(state.players)]


def priority_winner(state: VivariumState) -> tuple[int | None, list[int]]:
    """Who takes this round's priority token: the most cards of its icon, a tie going to the
    player later in this round's turn order; nobody when nobody has one (or the token is blank)."""
    icon = PRIORITY[state.priority_current].icon
    counts = [count(state.collections[s], icon) if icon else 0 for s in range(state.players)]
    best = max(counts)
    if icon is None or best == 0:
        return None, counts
    tied = [s for s in turn_order(state) if counts[s] == best]
    return tied[-1], counts


def end_round(state: VivariumState) -> list[Event]:
    events: list[Event] = []
    winner, counts = priority_winner(state)
    token = state.priority_current
    if winner is not None:
        state.priority_won[winner].append(token)
    events.append(
        event("priority awarded", None, round=state.round, token=priority_view(token), seat=winner, counts=counts)
    )
    if state.round == ROUNDS:
        return events + end_game(state)
    state.first = (state.first + 1) % state.players
    events.append(event("round ended", None, round=state.round, first=state.first))
    if state.players == 2:
        events += flip_two_player(state)
    placed = g.refill(state.grid, state.decks)
    events.append(event("grid refilled", None, cards=[{**p, "card": card_view(p["card"])} for p in placed]))
    assert state.priority_next is not None, "every round but the last has a next priority token"
    state.priority_current = state.priority_next
    state.priority_next = state.priority_stack.pop() if state.priority_stack else None
    state.round += 1
    state.turn = 0
    events.append(
        event(
            "priority revealed",
            None,
            round=state.round,
            current=priority_view(state.priority_current),
            next=priority_view(state.priority_next),
        )
    )
    return events


def flip_two_player(state: VivariumState) -> list[Event]:
    """Two players: turn the face-down token up and the other down; clear the column numbered by
    the largest number on the newly revealed token (it is refilled with the rest of the grid)."""
    revealed, hidden = state.facedown, state.middle[0]
    assert revealed is not None, "a two-player game always has a face-down token"
    state.middle, state.facedown = [revealed], hidden
    col = max(CHAIN[revealed].numbers)
    removed = g.clear_column(col, state.grid, state.discard)
    return [
        event("tokens flipped", None, revealed=chain_view(revealed), hidden=chain_view(hidden)),
        event("column cleared", None, seat=None, col=col, cards=[card_view(c) for c in removed], cause="two-player"),
    ]


def final_details(state: VivariumState) -> list[Record]:
    return [
        score(state.collections[s], state.gems[s], state.priority_won[s], state.starting[s])
        for s in range(state.players)
    ]


def end_game(state: VivariumState) -> list[Event]:
    details = final_details(state)
    scores = [d["total"] for d in details]
    best = max(scores)
    winners = [s for s in range(state.players) if scores[s] == best]
    state.result = {"scores": scores, "winners": winners, "details": details}
    state.phase, state.pending, state.numbers = "over", {}, {}
    return [game_over_event(state)]


def game_over_event(state: VivariumState, **extra: object) -> Event:
    result = state.result
    assert result is not None, "the game is scored before its final event"
    return event(
        "game over",
        None,
        scores=list(result["scores"]),
        winners=list(result["winners"]),
        details=[dict(d) for d in result["details"]],
        starting=[list(s) for s in state.starting],
        **extra,
    )


def standing(state: VivariumState) -> Outcome:
    """Every collection's final score as it stands (the round in progress awards no priority
    token), the highest total winning as at the normal end; the state is not changed."""
    details = final_details(state)
    scores = [d["total"] for d in details]
    best = max(scores)
    return Outcome(scores, [s for s in range(state.players) if scores[s] == best], details)


def resign(state: VivariumState, seat: int) -> list[Event]:
    """``seat`` leaves for good: the game ends now with the final score of every collection as it
    stands (the round in progress awards no priority token). The seat ranks last: its score is
    lowered below everyone else's (the ``resignation`` part, 0 or less) and it never wins; the
    highest of the other totals share the win, as at the normal end."""
    details = final_details(state)
    scores = [d["total"] for d in details]
    others = [s for s in range(state.players) if s != seat]
    capped = min(scores[seat], min(scores[s] for s in others) - 1)
    details[seat]["resignation"] = capped - scores[seat]
    details[seat]["total"] = scores[seat] = capped
    best = max(scores[s] for s in others)
    winners = [s for s in others if scores[s] == best]
    state.result = {"scores": scores, "winners": winners, "details": details}
    state.resigned = seat
    state.phase, state.pending, state.numbers = "over", {}, {}
    return [event("player resigned", None, seat=seat), game_over_event(state, resigned=seat)]
