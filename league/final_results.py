"""Final ranks from an engine outcome, stored per seat for records, ratings and tournaments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

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


# One seat's stored result: (seat, user id, score, rank, won, forfeited).
ResultLine = tuple[int, int, int, int, bool, bool]


def final_results(
    outcome: Outcome, users: Sequence[int], forfeited: Set[int] = frozenset(), left: Mapping[int, int] | None = None
) -> list[ResultLine]:
    """Each seat's result of a finished game, from its outcome and its seated ``users``.

    ``forfeited`` seats (a resignation, a forfeit on time) rank last. ``left`` maps each seat a
    computer took over to the player who left it: that seat is the result of that player, a
    forfeit, never a win. Should the computer have won there, the best of those who stayed win
    instead.
    """
    players = list(users)
    gone = dict(left or {})
    forfeits = set(forfeited) | set(gone)
    for seat, user in gone.items():
        players[seat] = user
    places = ranks(outcome, forfeits)
    winners = set(outcome.winners)
    if gone and winners and winners <= set(gone):
        winners = {seat for seat in range(len(players)) if places[seat] == 1 and seat not in forfeits}
    elif gone:
        winners -= set(gone)
    return [
        (seat, players[seat], outcome.scores[seat], places[seat], seat in winners, seat in forfeits)
        for seat in range(len(players))
    ]
