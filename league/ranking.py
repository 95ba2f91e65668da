"""The rank a standings table shows: shared only by rows equal on points and every tie-break.

Pure, shared by every format that ranks by points (Swiss, Swiss with pods, round robin,
duplicate). Each format sorts its rows by a key (points, then its tie-breaks in order, then the
seed) and hands this module the key without the seed: two rows share a displayed rank exactly
when their keys are equal, and otherwise a row's rank is its position in the table (standard
competition ranking: 1, 1, 3). The seed only orders the listing of rows fully tied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def shared_ranks(keys: Sequence[Any]) -> list[int]:
    """Ranks for rows listed in the order of ``keys`` (best first, so the keys never go down).

    Raises ValueError when the keys are out of order: the listing and the ranks must agree.
    """
    ranks: list[int] = []
    for n, key in enumerate(keys):
        if n and key < keys[n - 1]:
            raise ValueError(f"row {n + 1} is listed below a row it beats: {key!r} < {keys[n - 1]!r}")
        ranks.append(ranks[-1] if n and key == keys[n - 1] else n + 1)
    return ranks
