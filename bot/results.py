"""Final ranks from an engine outcome, stored per seat for records, ratings and tournaments."""

from __future__ import annotations

from collections.abc import Set

from engine import Outcome


def ranks(outcome: Outcome, forfeited: Set[int] = frozenset()) -> list[int]:
    """Rank of each seat (1 = best): winners first, then by score; forfeiting seats last.

    Equal standing shares a rank (1, 1, 3). In a co-operative game every seat has the same
    score and the same rank.
    """
    players = len(outcome.scores)

    def standing(seat: int) -> tuple[int, int, int]:
        return (seat in forfeited, seat not in outcome.winners, -outcome.scores[seat])

    order = sorted(range(players), key=standing)
    result = [0] * players
    for position, seat in enumerate(order):
        if position and standing(seat) == standing(order[position - 1]):
            result[seat] = result[order[position - 1]]
        else:
            result[seat] = position + 1
    return result
