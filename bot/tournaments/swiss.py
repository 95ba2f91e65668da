"""Swiss pairings and standings for 2-player games (issue 13, the Swiss format's core).

Pure functions over plain data, no database and no Discord, so the format is tested on its own
(tests/tournaments/) and timed in bench/tournament_pairing.py. The tournament runner (not built
yet) stores rounds and calls these.

Match points: a win 3, a draw 1, a loss 0; a bye counts as a win. Tie-breaks, in order:
Buchholz (the sum of the opponents' match points), the sum of one's own game scores, then the
head-to-head result among exactly the tied players; the seed last, so the order is total.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

WIN, DRAW, LOSS = 3, 1, 0


@dataclass(frozen=True)
class Played:
    """One table of a finished round: two players with their ranks and scores, or a bye."""

    round: int
    players: tuple[int, ...]
    ranks: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    def points(self, player: int) -> int:
        if self.bye:
            return WIN
        i = self.players.index(player)
        mine, theirs = self.ranks[i], self.ranks[1 - i]
        return WIN if mine < theirs else DRAW if mine == theirs else LOSS


@dataclass(frozen=True)
class Standing:
    player: int
    points: int
    buchholz: int
    score_sum: int
    played: int
    byes: int


def _opponents(history: Iterable[Played]) -> dict[int, list[int]]:
    found: dict[int, list[int]] = defaultdict(list)
    for table in history:
        if not table.bye:
            a, b = table.players
            found[a].append(b)
            found[b].append(a)
    return found


def standings(seeds: Sequence[int], history: Sequence[Played]) -> list[Standing]:
    """Everyone in ``seeds`` (best seed first), ranked by points and the tie-breaks."""
    points: dict[int, int] = dict.fromkeys(seeds, 0)
    scores: dict[int, int] = dict.fromkeys(seeds, 0)
    played: dict[int, int] = dict.fromkeys(seeds, 0)
    byes: dict[int, int] = dict.fromkeys(seeds, 0)
    for table in history:
        for i, player in enumerate(table.players):
            points[player] += table.points(player)
            played[player] += 1
            if table.bye:
                byes[player] += 1
            else:
                scores[player] += table.scores[i]
    opponents = _opponents(history)
    buchholz = {p: sum(points[o] for o in opponents.get(p, [])) for p in seeds}
    seed_of = {p: n for n, p in enumerate(seeds)}

    def key(p: int) -> tuple[int, int, int]:
        return (-points[p], -buchholz[p], -scores[p])

    order = sorted(seeds, key=lambda p: (key(p), seed_of[p]))
    # Head-to-head inside each group that is tied on everything above: points won against the
    # others of the group, then the seed.
    ranked: list[int] = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and key(order[j]) == key(order[i]):
            j += 1
        group = set(order[i:j])
        if len(group) > 1:
            h2h = {p: 0 for p in group}
            for table in history:
                if not table.bye and set(table.players) <= group:
                    for p in table.players:
                        h2h[p] += table.points(p)
            ranked += sorted(group, key=lambda p: (-h2h[p], seed_of[p]))
        else:
            ranked += order[i:j]
        i = j
    return [Standing(p, points[p], buchholz[p], scores[p], played[p], byes[p]) for p in ranked]


# Pairs considered first: each player with this many neighbours in the standings either side.
# A perfect rematch-free matching inside this window is taken at once; otherwise the whole graph
# decides, so the window only saves time and never allows an avoidable rematch.
WINDOW = 12


def pair_round(
    seeds: Sequence[int], history: Sequence[Played], dropped: Iterable[int] = (), rng: random.Random | None = None
) -> list[tuple[int, ...]]:
    """The next round's tables: pairs within score groups, no avoidable rematch, one bye at most.

    ``seeds`` lists every entrant, best seed first; ``dropped`` players are not paired again. In
    the first round (no history) players are paired by standings of equal points, which is the
    seed order: ``rng`` may shuffle that first order (a random draw before ratings exist).
    """
    gone = set(dropped)
    table = [s for s in standings(seeds, history) if s.player not in gone]
    if not history and rng is not None:
        rng.shuffle(table)
    order = [s.player for s in table]
    points = {s.player: s.points for s in table}
    had_bye = {s.player for s in table if s.byes}
    met = {(a, b) for a, opps in _opponents(history).items() for b in opps}
    pairs: list[tuple[int, ...]] = []
    players = order
    if len(order) % 2:
        # The bye goes to the lowest-ranked player without one, provided the others can then be
        # paired without a rematch; failing that, to the lowest-ranked without one at all.
        candidates = [p for p in reversed(order) if p not in had_bye] or list(reversed(order))
        choice = None
        for candidate in candidates:
            rest = [p for p in order if p != candidate]
            matched = _match(rest, points, met, allow_rematch=False)
            if matched is not None:
                choice, pairs = candidate, matched
                break
        if choice is None:
            choice = candidates[0]
            rest = [p for p in order if p != choice]
            matched = _match(rest, points, met, allow_rematch=True)
            assert matched is not None
            pairs = matched
        return [*pairs, (choice,)]
    matched = _match(players, points, met, allow_rematch=False)
    if matched is None:
        matched = _match(players, points, met, allow_rematch=True)
    assert matched is not None
    return matched


def _match(
    order: list[int], points: dict[int, int], met: set[tuple[int, int]], *, allow_rematch: bool
) -> list[tuple[int, ...]] | None:
    """A perfect matching of ``order`` (ranked), or None if none exists under the rule.

    Weights prefer, in this order: fewer rematches (only when allowed at all), then partners of
    equal points, then partners close in the standings. Integer weights keep it exact.
    """
    n = len(order)
    if n == 0:
        return []
    rank = {p: i for i, p in enumerate(order)}
    spread = max(points.values(), default=0) - min(points.values(), default=0) + 1
    # The largest secondary cost a pair can have; a rematch costs more than any n/2 of them.
    worst = spread * spread * n + n
    rematch_cost = worst * n

    def weight(a: int, b: int) -> int:
        cost = (points[a] - points[b]) ** 2 * n + abs(rank[a] - rank[b])
        if (a, b) in met:
            cost += rematch_cost
        return rematch_cost * 2 - cost

    def build(window: int | None) -> nx.Graph[int]:
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(order)
        for i, a in enumerate(order):
            stop = n if window is None else min(n, i + window + 1)
            for b in order[i + 1 : stop]:
                if allow_rematch or (a, b) not in met:
                    graph.add_edge(a, b, weight=weight(a, b))
        return graph

    # With rematches allowed, only the whole graph finds the fewest of them.
    for window in (None,) if allow_rematch else (WINDOW, None):
        if window is not None and window >= n:
            continue
        matching = nx.max_weight_matching(build(window), maxcardinality=True)
        if 2 * len(matching) == n:
            pairs = [tuple(sorted(pair, key=rank.__getitem__)) for pair in matching]
            return sorted(pairs, key=lambda pair: rank[pair[0]])
    return None
