"""Swiss pairings and standings for 2-player games.

Pure functions over plain data, no database and no Discord, so the format is tested on its own
(tests/tournaments/) and timed in bench/tournament_pairing.py. The tournament runner (not built
yet) stores rounds and calls these.

Match points: a win 3, a draw 1, a loss 0; a bye counts as a win. Tie-breaks, in order:
Buchholz (the sum of the opponents' match points), the sum of one's own game scores, then the
head-to-head result among exactly the tied players; the seed last, so the order is total. The
displayed rank (``rank``) is shared only by players equal on points and all of those tie-breaks
(head-to-head included); the seed orders their listing but not their rank.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from league.ranking import shared_ranks

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
    rank: int  # the displayed rank: shared only by players equal on points and every tie-break


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
    # others of the group, then the seed. The displayed rank follows the key and head-to-head;
    # players equal on both share it (the seed only orders their listing).
    ranked: list[int] = []
    h2h: dict[int, int] = dict.fromkeys(seeds, 0)
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and key(order[j]) == key(order[i]):
            j += 1
        group = set(order[i:j])
        if len(group) > 1:
            for table in history:
                if not table.bye and set(table.players) <= group:
                    for p in table.players:
                        h2h[p] += table.points(p)
            ranked += sorted(group, key=lambda p: (-h2h[p], seed_of[p]))
        else:
            ranked += order[i:j]
        i = j
    ranks = shared_ranks([(key(p), -h2h[p]) for p in ranked])
    return [
        Standing(p, points[p], buchholz[p], scores[p], played[p], byes[p], rank)
        for p, rank in zip(ranked, ranks, strict=True)
    ]


# Pairs considered first: each player with this many neighbours in the standings either side.
# A perfect rematch-free matching inside this window is taken at once; otherwise the whole graph
# decides, so the window only saves time and never allows an avoidable rematch.
WINDOW = 12
# The bye's opponent in the matching of an odd field (no player's id is a string).
BYE = "bye"


def pair_round(
    seeds: Sequence[int], history: Sequence[Played], dropped: Iterable[int] = (), rng: random.Random | None = None
) -> list[tuple[int, ...]]:
    """The next round's tables: pairs within score groups, the fewest rematches, one bye at most.

    ``seeds`` lists every entrant, best seed first; ``dropped`` players are not paired again. In
    the first round (no history) players are paired by standings of equal points, which is the
    seed order: ``rng`` may shuffle that first order (a random draw before ratings exist).

    The round is the cheapest of all possible rounds, comparing in this order:

    1. rematches (pairs who have met before), fewest first;
    2. meetings those rematches repeat (a second meeting before a third);
    3. the bye (an odd field): to a player with the fewest byes so far (none while possible);
    4. then to the lowest-ranked such player;
    5. partners of equal points (the sum of the squared differences of points), then partners
       close in the standings.

    The bye and the pairs are chosen together, so the bye never costs a rematch that another
    bye would avoid. Fast path: the preferred bye (levels 3 and 4) with a rematch-free pairing of
    the others, which is then the cheapest on levels 1 to 4; otherwise one exact matching over
    the whole field, the bye included, weighs every level at once.
    """
    gone = set(dropped)
    table = [s for s in standings(seeds, history) if s.player not in gone]
    if not history and rng is not None:
        rng.shuffle(table)
    order = [s.player for s in table]
    points = {s.player: s.points for s in table}
    byes = {s.player: s.byes for s in table}
    met: Counter[tuple[int, int]] = Counter()
    for a, opps in _opponents(history).items():
        for b in opps:
            met[(a, b)] += 1
    if len(order) % 2 == 0:
        matched = _match(order, points, met)
        return matched if matched is not None else _cheapest(order, points, met, None)
    fewest = min(byes.values())
    choice = next(p for p in reversed(order) if byes[p] == fewest)
    matched = _match([p for p in order if p != choice], points, met)
    if matched is not None:
        return [*matched, (choice,)]
    return _cheapest(order, points, met, byes)


def _secondary(order: list[int], points: dict[int, int]) -> tuple[int, Callable[[int, int], int]]:
    """Level 5's cost of a pair (points apart, then places apart) and a bound on a round's total."""
    n = len(order)
    rank = {p: i for i, p in enumerate(order)}
    spread = max(points.values(), default=0) - min(points.values(), default=0) + 1

    def cost(a: int, b: int) -> int:
        return (points[a] - points[b]) ** 2 * n + abs(rank[a] - rank[b])

    # The largest a pair can cost is below spread² · n + n; a round has n / 2 pairs at most.
    return (spread * spread * n + n) * (n // 2 + 1), cost


def _match(order: list[int], points: dict[int, int], met: Counter[tuple[int, int]]) -> list[tuple[int, ...]] | None:
    """A rematch-free perfect matching of ``order`` (ranked) of the least level-5 cost, or None.

    Tried first inside the window (``WINDOW``), then over the whole field. Integer weights keep
    the matching exact.
    """
    n = len(order)
    if n == 0:
        return []
    rank = {p: i for i, p in enumerate(order)}
    bound, cost = _secondary(order, points)

    def build(window: int | None) -> nx.Graph[int]:
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(order)
        for i, a in enumerate(order):
            stop = n if window is None else min(n, i + window + 1)
            for b in order[i + 1 : stop]:
                if (a, b) not in met:
                    graph.add_edge(a, b, weight=bound - cost(a, b))
        return graph

    for window in (WINDOW, None):
        if window is not None and window >= n:
            continue
        matching = nx.max_weight_matching(build(window), maxcardinality=True)
        if 2 * len(matching) == n:
            pairs = [tuple(sorted(pair, key=rank.__getitem__)) for pair in matching]
            return sorted(pairs, key=lambda pair: rank[pair[0]])
    return None


def _cheapest(
    order: list[int], points: dict[int, int], met: Counter[tuple[int, int]], byes: dict[int, int] | None
) -> list[tuple[int, ...]]:
    """The cheapest round of all (levels 1 to 5 of ``pair_round``): one exact matching.

    Every level is a weight larger than the most the levels below it can add up to, so the
    maximum-weight perfect matching of the complete graph (with a ``BYE`` node for an odd field,
    joined to everyone) is the least cost compared level by level. ``byes`` is None for an even
    field.
    """
    n = len(order)
    rank = {p: i for i, p in enumerate(order)}
    bound, cost = _secondary(order, points)
    pairs = n // 2
    # Levels 4 and 3: the bye's place from the bottom, then its byes so far.
    place_unit = bound + 1
    bye_unit = n * place_unit
    most_byes = max(byes.values(), default=0) if byes is not None else 0
    # Level 2: each earlier meeting a rematch repeats beyond the first; level 1: a rematch.
    repeat_unit = (most_byes + 1) * bye_unit
    most_met = max(met.values(), default=0)
    rematch_unit = repeat_unit * (pairs * most_met + 1)
    top = rematch_unit * (most_met + 1)  # above any one edge's cost, so every weight is positive

    graph: nx.Graph[int | str] = nx.Graph()
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            times = met[(a, b)]
            pair_cost = cost(a, b) + (rematch_unit + (times - 1) * repeat_unit if times else 0)
            graph.add_edge(a, b, weight=top - pair_cost)
        if byes is not None:
            graph.add_edge(a, BYE, weight=top - (byes[a] * bye_unit + (n - 1 - rank[a]) * place_unit))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert 2 * len(matching) == n + (byes is not None), "a complete graph always pairs everyone"
    found: list[tuple[int, ...]] = []
    bye: list[tuple[int, ...]] = []
    for x, y in matching:
        if x == BYE or y == BYE:
            player = y if x == BYE else x
            assert isinstance(player, int)
            bye.append((player,))
        else:
            assert isinstance(x, int) and isinstance(y, int)
            found.append((x, y) if rank[x] < rank[y] else (y, x))
    return [*sorted(found, key=lambda pair: rank[pair[0]]), *bye]
