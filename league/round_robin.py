"""Round robin for 2-player games: everyone meets everyone once.

The circle method: seat the entrants around a table, keep the first in place and turn the others
one step each round. With an odd count a "bye" seat is added, so one entrant rests each round.
Colours alternate in the first pair so nobody always sits first. Pure and deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

BYE = None


def schedule(entrants: Sequence[int]) -> list[list[tuple[int, ...]]]:
    """Every round's tables: pairs (seat order) and, with an odd count, one bye as ``(entrant,)``."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    seats: list[int | None] = list(entrants)
    if len(seats) % 2:
        seats.append(BYE)
    n = len(seats)
    rounds: list[list[tuple[int, ...]]] = []
    for r in range(n - 1):
        tables: list[tuple[int, ...]] = []
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a  # the fixed seat alternates between first and second
            if a is None or b is None:
                rest = b if a is None else a
                assert rest is not None
                tables.append((rest,))
            else:
                tables.append((a, b))
        rounds.append(tables)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def round_count(entrants: int) -> int:
    """How many rounds a round robin of this many entrants takes."""
    return entrants - 1 if entrants % 2 == 0 else entrants
