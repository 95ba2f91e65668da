"""Swiss with pods: pairings and standings for 3- and 4-player tables.

For the games seated three or four at a table (Noctiluca, Vivarium, Terraforming Mars: The
Dice Game; 2 to 4 players). Pure functions over plain data, no database and no Discord, like
``swiss`` (whose 2-player rules these generalise).

Pods. ``pod_sizes`` splits the entrants into the fewest pods of at most ``size`` (so
``ceil(n / size)`` of them) whose sizes differ by one at most, largest first: 10 players at
tables of 4 sit 4, 3, 3. A pod smaller than ``minimum`` is refused (ValueError), so the caller
refuses such a start; a pod of one is a bye, possible only when the caller allows ``minimum=1``.

Match points, kept as integers in twelfths of a point (shown on a 0-3 scale by
``points_display``): finishing position p of a pod of k earns 12 * (k - p) / (k - 1), so

    k = 4: 12, 8, 4, 0     k = 3: 12, 6, 0     k = 2: 12, 0     a bye: 12

Players sharing a rank share the average of the positions they span (a 4-pod tie for first:
10 each; a 3-pod tie for second: 3 each): for pods of 2 to 4 this is always a whole number of
twelfths. Ranks come from the game, 1 the best, ties sharing a rank (1, 1, 3); positions are
read from the order of the ranks, so 1, 1, 2 counts as 1, 1, 3.

Standings: match points, then tie-breaks in order:
1. ``opponents``: the average match points of everyone the player has shared a pod with (an
   opponent met twice counts twice, as in Buchholz), an exact ``Fraction`` of twelfths; an
   average rather than a sum so that a player of 3-pods and one of 4-pods compare fairly
   (0 before any opponent);
2. ``score_sum``: the sum of the player's own game scores (a bye scores nothing);
3. ``wins``: first places (a shared first counts; a bye does not);
4. the seed, last, so the order is total.

The displayed rank (``rank``) follows points and tie-breaks 1 to 3 in order: players equal on
all of them share a rank (the seed only orders their listing), and otherwise the rank is the
position (league/ranking.py).

Pairing (``pair_round``): pods of players close in the standings with as few repeat meetings
(pairs who already shared a pod) as can be found. Finding the fewest is NP-hard for pods
(it contains partitioning a graph into triangles), so:

- up to ``EXACT`` players, every partition is tried (branch and bound): the result is the true
  minimum of (second byes, repeat pairs, spread);
- above that, pods are cut from the standings in order and then improved by a local search
  that swaps players between pods while the cost (second byes, then repeat pairs, then the
  spread) goes down. Its result guarantees that no single swap of two players, between any two
  pods, lowers the number of repeat pairs (nor of second byes), and that no swap between pods
  at most ``WINDOW`` tables apart lowers the spread without adding a repeat. While repeats
  remain, it restarts from the best pods found after a couple of random swaps (a fixed seed,
  so the same input always gives the same pods) within a fixed budget of work (``WORK``, about
  a tenth of a second), and keeps the cheapest. It is not guaranteed to reach the global
  minimum of repeats, but in the tests it finds a repeat-free round of up to 9 players
  whenever one exists, and 256 players after 4 rounds pair without a repeat in about 0.1 s.

The spread of a pod is the sum of the squared differences of its players' standing positions
(over its pairs): pods cut straight from the standings have the least; moving one player far
costs more than moving several a little. A bye's spread is the squared distance from the last
place, so the bye goes to the lowest-ranked player it can (one without a bye, while there is one).

The first round with ``rng`` is a random draw (before ratings exist); without ``rng``, and in
every later round, pods come from the standings (the seed order at first). Tables come top
table first (by their players' mean standing position), a bye last. Within a pod, players sit
in an order that rotates who goes first: the one who has sat first least often in earlier
rounds goes first, then the next least often, and so on; equal counts by standing.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from league.ranking import shared_ranks

# Match points by finishing position, in twelfths, for pods of 1 (a bye) to 4 players.
POINTS: dict[int, tuple[int, ...]] = {1: (12,), 2: (12, 0), 3: (12, 6, 0), 4: (12, 8, 4, 0)}
BYE = 12
MAX_TABLE = max(POINTS)

# Up to this many players the pairing tries every partition (exactly the fewest repeats).
EXACT = 12
# Pods this many tables apart or closer are tried against each other when lowering the spread.
WINDOW = 3
# Restarts of the local search while repeats remain: this many random swaps each, until this many
# swaps were weighed in all (a deterministic budget: about a tenth of a second).
KICK = 2
WORK = 100_000


def pod_sizes(n: int, size: int, minimum: int = 2) -> list[int]:
    """``n`` entrants split into ``ceil(n / size)`` pods differing by one at most, largest first.

    Raises ValueError when a pod would be smaller than ``minimum``.
    """
    if size < 1:
        raise ValueError(f"a table seats at least one player, not {size}")
    if minimum > size:
        raise ValueError(f"a minimum of {minimum} players is more than a table of {size} seats")
    if n < 0:
        raise ValueError(f"{n} is not a number of players")
    if n == 0:
        return []
    count = -(-n // size)
    base, extra = divmod(n, count)
    sizes = [base + 1] * extra + [base] * (count - extra)
    if sizes[-1] < minimum:
        raise ValueError(
            f"{n} players cannot be seated at tables of {size}: one table would have {sizes[-1]} "
            f"player{'s' if sizes[-1] != 1 else ''}, below the minimum of {minimum}"
        )
    return sizes


def rank_points(ranks: Sequence[int]) -> tuple[int, ...]:
    """Match points in twelfths for each rank of one pod (1 best, ties sharing a rank)."""
    k = len(ranks)
    if k not in POINTS:
        raise ValueError(f"match points cover tables of 1 to {MAX_TABLE} players, not {k}")
    table = POINTS[k]
    order = sorted(range(k), key=lambda i: ranks[i])
    result = [0] * k
    i = 0
    while i < k:
        j = i
        while j < k and ranks[order[j]] == ranks[order[i]]:
            j += 1
        share, rest = divmod(sum(table[i:j]), j - i)
        assert rest == 0, "pods of 2 to 4 always share a whole number of twelfths"
        for index in order[i:j]:
            result[index] = share
        i = j
    return tuple(result)


def match_points(twelfths: int | Fraction) -> Fraction:
    """Match points on the 0-3 scale a player reads, exact (12 -> 3, 10 -> 5/2); words: l10n.typography.decimal."""
    return Fraction(twelfths) / 4


def points_display(twelfths: int | Fraction) -> str:
    """Match points on the 0-3 scale a player reads: 12 -> "3", 10 -> "2.5", 9 -> "2.25".

    Twelfths of pods are always whole quarters here, so exact; a finer ``Fraction`` (duplicate
    play) is rounded to two decimals, halves up.
    """
    hundredths = math.floor(Fraction(twelfths) * 25 + Fraction(1, 2))
    whole, cents = divmod(hundredths, 100)
    return str(whole) if not cents else f"{whole}.{cents:02d}".rstrip("0")


@dataclass(frozen=True)
class Placed:
    """One pod of a finished round, in seat order, with its ranks and scores; one player is a bye.

    ``scores`` may be left empty when the game has none (all count 0).
    """

    round: int
    players: tuple[int, ...]
    ranks: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players) or not self.players:
            raise ValueError(f"a pod needs distinct players, not {self.players}")
        if not self.bye and len(self.ranks) != len(self.players):
            raise ValueError(f"a pod of {len(self.players)} needs {len(self.players)} ranks, not {self.ranks}")
        if self.scores and len(self.scores) != len(self.players):
            raise ValueError(f"a pod of {len(self.players)} needs {len(self.players)} scores, not {self.scores}")
        if len(self.players) > MAX_TABLE:
            raise ValueError(f"a pod seats {MAX_TABLE} players at most, not {len(self.players)}")

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    def points(self, player: int) -> int:
        """The match points in twelfths ``player`` earned here."""
        if self.bye:
            return BYE
        return rank_points(self.ranks)[self.players.index(player)]

    def score(self, player: int) -> int:
        if self.bye or not self.scores:
            return 0
        return self.scores[self.players.index(player)]


@dataclass(frozen=True)
class PodStanding:
    player: int
    points: int  # twelfths of a match point
    opponents: Fraction  # the mean match points (twelfths) of everyone met, 0 before any
    score_sum: int
    played: int  # pods, byes included
    byes: int
    wins: int  # first places, shared ones included
    rank: int  # the displayed rank: shared only by players equal on points and every tie-break


def _met(history: Iterable[Placed]) -> dict[int, list[int]]:
    """Everyone each player shared a pod with, once per meeting."""
    found: dict[int, list[int]] = defaultdict(list)
    for pod in history:
        for a, b in itertools.permutations(pod.players, 2):
            found[a].append(b)
    return found


def standings(seeds: Sequence[int], history: Sequence[Placed]) -> list[PodStanding]:
    """Everyone in ``seeds`` (best seed first), ranked by match points and the tie-breaks."""
    points: dict[int, int] = dict.fromkeys(seeds, 0)
    scores: dict[int, int] = dict.fromkeys(seeds, 0)
    played: dict[int, int] = dict.fromkeys(seeds, 0)
    byes: dict[int, int] = dict.fromkeys(seeds, 0)
    wins: dict[int, int] = dict.fromkeys(seeds, 0)
    for pod in history:
        earned = (BYE,) if pod.bye else rank_points(pod.ranks)
        best = min(pod.ranks, default=0)
        for i, player in enumerate(pod.players):
            points[player] += earned[i]
            played[player] += 1
            scores[player] += pod.score(player)
            if pod.bye:
                byes[player] += 1
            elif pod.ranks[i] == best:
                wins[player] += 1
    met = _met(history)
    opponents = {p: Fraction(sum(points[o] for o in met[p]), len(met[p])) if met.get(p) else Fraction(0) for p in seeds}
    seed_of = {p: n for n, p in enumerate(seeds)}

    def key(p: int) -> tuple[int, Fraction, int, int]:
        return (-points[p], -opponents[p], -scores[p], -wins[p])

    order = sorted(seeds, key=lambda p: (key(p), seed_of[p]))
    ranks = shared_ranks([key(p) for p in order])
    return [
        PodStanding(p, points[p], opponents[p], scores[p], played[p], byes[p], wins[p], rank)
        for p, rank in zip(order, ranks, strict=True)
    ]


def pair_round(
    seeds: Sequence[int],
    history: Sequence[Placed],
    size: int,
    dropped: Iterable[int] = (),
    rng: random.Random | None = None,
    minimum: int = 2,
) -> list[tuple[int, ...]]:
    """The next round's pods (seat order), top table first: see the module's rules.

    ``seeds`` lists every entrant, best seed first; ``dropped`` players are not seated again.
    ``size`` is the table's seats (2 to 4); ``minimum`` the fewest players a pod may have.
    """
    if not 2 <= size <= MAX_TABLE:
        raise ValueError(f"pods seat 2 to {MAX_TABLE} players, not {size}")
    gone = set(dropped)
    order = [s.player for s in standings(seeds, history) if s.player not in gone]
    if not history and rng is not None:
        rng.shuffle(order)
    sizes = pod_sizes(len(order), size, minimum)
    search = _Search(order, sizes, history)
    pods = search.exact() if len(order) <= EXACT else search.local()
    pos = search.pos
    first: dict[int, int] = defaultdict(int)
    for placed in history:
        if not placed.bye:
            first[placed.players[0]] += 1
    seated = [tuple(sorted(pod, key=lambda p: (first[p], pos[p]))) for pod in pods]
    return sorted(seated, key=lambda pod: (len(pod) == 1, Fraction(sum(pos[p] for p in pod), len(pod))))


class _Search:
    """Pods for ``order`` (standings, best first) of the given sizes, at the least cost.

    The cost, compared in this order: second byes, repeat pairs, spread (see the module).
    """

    def __init__(self, order: list[int], sizes: list[int], history: Sequence[Placed]) -> None:
        self.order = order
        self.sizes = sizes
        self.pos = {p: i for i, p in enumerate(order)}
        self.last = len(order) - 1
        self.met: dict[int, set[int]] = defaultdict(set)
        self.had_bye: set[int] = set()
        for placed in history:
            if placed.bye:
                self.had_bye.add(placed.players[0])
            for a, b in itertools.permutations(placed.players, 2):
                self.met[a].add(b)

    # -- costs ---------------------------------------------------------------------------------
    def cost(self, pod: Sequence[int]) -> tuple[int, int, int]:
        """(second byes, repeat pairs, spread) of one pod."""
        if len(pod) == 1:
            p = pod[0]
            return (int(p in self.had_bye), 0, (self.last - self.pos[p]) ** 2)
        repeats = spread = 0
        for a, b in itertools.combinations(pod, 2):
            repeats += b in self.met[a]
            spread += (self.pos[a] - self.pos[b]) ** 2
        return (0, repeats, spread)

    def total(self, pods: Iterable[Sequence[int]]) -> tuple[int, int, int]:
        byes = repeats = spread = 0
        for pod in pods:
            b, r, s = self.cost(pod)
            byes, repeats, spread = byes + b, repeats + r, spread + s
        return (byes, repeats, spread)

    def _swap_delta(self, a: int, pod_a: list[int], b: int, pod_b: list[int]) -> tuple[int, int, int]:
        """The change of cost when ``a`` (of ``pod_a``) and ``b`` (of ``pod_b``) change pods."""
        byes = repeats = spread = 0
        pa, pb = self.pos[a], self.pos[b]
        met_a, met_b = self.met[a], self.met[b]
        for mine, leaving, coming, p_leave, p_come, met_leave, met_come in (
            (pod_a, a, b, pa, pb, met_a, met_b),
            (pod_b, b, a, pb, pa, met_b, met_a),
        ):
            if len(mine) == 1:
                byes += (coming in self.had_bye) - (leaving in self.had_bye)
                spread += (self.last - p_come) ** 2 - (self.last - p_leave) ** 2
                continue
            for x in mine:
                if x != leaving:
                    px = self.pos[x]
                    repeats += (x in met_come) - (x in met_leave)
                    spread += (p_come - px) ** 2 - (p_leave - px) ** 2
        return (byes, repeats, spread)

    # -- exact ---------------------------------------------------------------------------------
    def exact(self) -> list[list[int]]:
        """The cheapest partition of all, by branch and bound; ties go to the first found."""
        best: list[list[int]] = []
        best_cost: list[tuple[int, int, int]] = [(len(self.order) + 1, 0, 0)]
        pods: list[list[int]] = []

        def place(left: list[int], sizes: list[int], cost: tuple[int, int, int]) -> None:
            if cost >= best_cost[0]:
                return
            if not left:
                best_cost[0] = cost
                best[:] = [list(pod) for pod in pods]
                return
            head, rest = left[0], left[1:]
            for size in sorted(set(sizes), reverse=True):
                remaining = list(sizes)
                remaining.remove(size)
                for mates in itertools.combinations(rest, size - 1):
                    pod = [head, *mates]
                    b, r, s = self.cost(pod)
                    pods.append(pod)
                    place([p for p in rest if p not in mates], remaining, (cost[0] + b, cost[1] + r, cost[2] + s))
                    pods.pop()

        place(list(self.order), list(self.sizes), (0, 0, 0))
        return best

    # -- local search --------------------------------------------------------------------------
    def local(self) -> list[list[int]]:
        """Pods cut from the standings, then improved by swaps (see the module's guarantees).

        While repeats (or second byes) remain, the search is restarted from the best pods found
        with a few random swaps (a fixed seed, so deterministic) for a bounded amount of work,
        and the cheapest pods found are kept.
        """
        pods: list[list[int]] = []
        start = 0
        for size in self.sizes:
            pods.append(self.order[start : start + size])
            start += size
        self.work = 0
        self._descend(pods)
        best, best_cost = [list(pod) for pod in pods], self.total(pods)
        rng = random.Random(len(self.order))
        real = [i for i, pod in enumerate(pods) if len(pod) > 1]
        while best_cost[:2] > (0, 0) and self.work < WORK and len(real) > 1:
            pods = [list(pod) for pod in best]
            for _ in range(KICK):
                i, j = rng.sample(real, 2)
                a, b = rng.randrange(len(pods[i])), rng.randrange(len(pods[j]))
                pods[i][a], pods[j][b] = pods[j][b], pods[i][a]
            self._descend(pods)
            cost = self.total(pods)
            if cost < best_cost:
                best, best_cost = [list(pod) for pod in pods], cost
        return best

    def _descend(self, pods: list[list[int]]) -> None:
        """Swaps while they lower the cost: first repeats, then the spread of nearby pods."""
        where = {p: i for i, pod in enumerate(pods) for p in pod}
        zero = (0, 0, 0)

        def swap(a: int, b: int) -> None:
            i, j = where[a], where[b]
            pods[i][pods[i].index(a)] = b
            pods[j][pods[j].index(b)] = a
            where[a], where[b] = j, i

        def conflicted() -> list[int]:
            found = []
            for pod in pods:
                if len(pod) == 1:
                    if pod[0] in self.had_bye:
                        found.append(pod[0])
                    continue
                for p in pod:
                    if any(x in self.met[p] for x in pod if x != p):
                        found.append(p)
            return sorted(found, key=self.pos.__getitem__)

        def fix_repeats() -> bool:
            """Swaps that lower (second byes, repeats), the best for each conflicted player."""
            changed = False
            progress = True
            while progress:
                progress = False
                for a in conflicted():
                    i = where[a]
                    pod_a = pods[i]
                    best: tuple[tuple[int, int, int], int, int] | None = None
                    pa = self.pos[a]
                    self.work += len(self.order)
                    for b in self.order:
                        j = where[b]
                        if j == i:
                            continue
                        delta = self._swap_delta(a, pod_a, b, pods[j])
                        if delta[:2] >= (0, 0):
                            continue
                        candidate = (delta, abs(pa - self.pos[b]), self.pos[b])
                        if best is None or candidate < best:
                            best = candidate
                    if best is not None:
                        swap(a, self.order[best[2]])
                        progress = changed = True
            return changed

        def lower_spread() -> bool:
            """Swaps between nearby pods that lower the cost, the best for each pod pair."""
            changed = False
            progress = True
            while progress:
                progress = False
                for i in range(len(pods)):
                    for j in range(i + 1, min(len(pods), i + WINDOW + 1)):
                        best: tuple[tuple[int, int, int], int, int] | None = None
                        self.work += len(pods[i]) * len(pods[j])
                        for a in pods[i]:
                            for b in pods[j]:
                                delta = self._swap_delta(a, pods[i], b, pods[j])
                                if delta < zero and (best is None or delta < best[0]):
                                    best = (delta, a, b)
                        if best is not None:
                            swap(best[1], best[2])
                            progress = changed = True
            return changed

        fix_repeats()
        while lower_spread() and fix_repeats():
            pass
