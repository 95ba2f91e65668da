"""Elimination brackets: single and double for 2-player games, pods for 3-4 players.

Pure and deterministic, over plain data: a bracket is built from its seeds and then fed the
results game by game (``record``); the caller stores those results and rebuilds the same bracket
at any time by replaying them (the order between different matches does not matter).

``Bracket`` (2-player games):
- ``seeds`` lists the entrants best first (the caller orders them by rating, or at random
  before ratings exist). The bracket has the next power of two of lines; seeds are placed the
  standard way (1 v 16, 8 v 9, 4 v 13, 5 v 12, ... so that seeds 1 and 2 can only meet in the
  final, 1 to 4 only from the semi-finals on). The missing seeds are byes, so the byes go to the
  top seeds; a bye is a walkover into round 2 and never a table, and has no match to play.
- Matches have stable ids: ``W<round>-<n>`` in the winners bracket (``W1-3``: round 1, match 3
  from the top), ``L<round>-<n>`` in the losers bracket, ``GF`` the grand final and ``GF2`` its
  reset. A single-elimination final is the last winners round (``W4-1`` for 16 players).
- ``best_of`` games make a match (1, 3, 5...): the first to win more than half decides it.
  Game 1 seats the better seed first, and the first seat alternates game by game.
- ``ready`` lists the next game of every undecided match whose two players are known, so the
  caller plays waves; a match can be ready before the rest of its round is finished (two
  players who both had byes meet at once). A player is never in two ready games.
- Double elimination: a player is out after two match losses. The losers of winners round 1
  meet in losers round 1; each even losers round sets the winners of the round before against
  the players dropping from the next winners round, and each odd one (from 3 on) pairs the
  survivors among themselves: the usual drop-down schedule. So that players do not meet again
  at once, the drop-ins come reversed from winners round 2, halves swapped from round 3, and
  so on alternately. A side with nobody to drop (a bye upstream) makes a walkover: the player
  on the other side advances without playing. The winners-bracket champion meets the
  losers-bracket champion in the grand final ``GF``; if the losers-bracket champion wins it,
  both have lost once and a reset match ``GF2`` between them decides (it exists only then).
- Places: single elimination 1 the final's winner, 2 its loser, 3 shared by both semi-final
  losers, 5 shared by the quarter-final losers, and so on (a place is one more than the number
  of players who went further). Double elimination: 1, 2 (the grand final's loser), 3 the loser
  of the losers final, 4 the loser of the round before, then each losers round's losers share
  a place (5-6, 7-8, ... for 8 players). Before the end, ``placements`` lists the places
  already decided.

``PodBracket`` (3-4 player games):
- Each round seats the remaining players in pods (sizes from ``pods.pod_sizes``, largest
  first) by snake seeding over the entry seeds (with 3 pods: 1, 2, 3 head pods 1, 2, 3, then
  4 goes back in pod 3, 5 in pod 2, 6 and 7 in pod 1, ...), so pods are balanced; a round is
  seated once the round before is finished. Within a pod, whoever has sat first least often
  in this bracket sits first, then the next; equal counts by seed.
- The ``advance`` best of each pod (1 or 2) go on, until the remaining players fit one final
  pod of at most ``size``. A tie across the advance line goes to the better entry seed. A pod
  no larger than ``advance`` would put nobody out, so its players go straight on (a walkover,
  never a table); should the equal sizes put nobody out at all (tables of 3, 2 going on, 4
  players: 2 and 2), the round has full tables and one short one instead (3 and a walkover).
- Pod ids: ``R<round>-<n>`` and ``F`` for the final pod; ``record`` takes the pod's ranks
  (1 the best, ties sharing a rank) in the seat order ``ready`` gave.
- Places: the final pod's by its ranks (ties share), then the players out in the round before
  it, then the round before that, and so on; players out in the same round are ordered by
  their position in their pod (a second above a third; equal positions share a place).

Round labels (``Ready.label``) are English; the id says the same for a caller that translates,
and ``match_name`` turns an id into a name's kind and numbers ("W3-2" of 16 entrants in single
elimination: the second semi-final), for the caller to word in any language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from league.pods import pod_sizes

_Kind = Literal["seed", "winner", "loser"]


@dataclass(frozen=True)
class Ready:
    """A game to play now: its match (or pod) id, the players in seat order, which game of the
    match it is (1 for the first), and the round's label."""

    match_id: str
    players: tuple[int, ...]
    game: int
    label: str


@dataclass(frozen=True)
class MatchView:
    """One match (or pod) as it stands, for drawing the bracket: ``players`` in bracket order
    (the upper line first; a pod's in seat order), None where not known yet; ``wins`` are game
    wins, in the same order (zeros for a pod). ``bracket`` is the section: "W" winners, "L"
    losers, "F" grand final, "P" pods; a pod's ``winner`` is its first place (the better seed
    of those sharing it)."""

    id: str
    bracket: Literal["W", "L", "F", "P"]
    round: int
    label: str
    players: tuple[int | None, ...]
    wins: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True)
class _Source:
    kind: _Kind
    seed: int | None = None  # the entrant, or None for a bye line (kind "seed")
    match: str = ""  # the match whose winner or loser comes here


@dataclass
class _Match:
    id: str
    bracket: Literal["W", "L", "F"]
    round: int
    label: str
    sources: tuple[_Source, _Source]
    present: tuple[bool, bool]  # whether a player will ever come from each side

    @property
    def real(self) -> bool:
        return all(self.present)


@dataclass
class _State:
    players: tuple[int | None, int | None] = (None, None)
    wins: tuple[int, int] = (0, 0)
    winner: int | None = None
    loser: int | None = None


def bracket_order(size: int) -> list[int]:
    """The seeds of a bracket of ``size`` lines (a power of two) from the top line down:
    8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two of lines, not {size}")
    order = [1]
    while len(order) < size:
        span = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, span - seed)]
    return order


def bracket_rounds(entrants: int, double: bool) -> tuple[int, int]:
    """How many winners rounds and losers rounds a ``Bracket`` of ``entrants`` has."""
    rounds = ((1 << (max(entrants, 2) - 1).bit_length()).bit_length()) - 1
    return rounds, (2 * rounds - 2 if double and rounds >= 2 else 0)


MATCH_ID = r"^(?:(?P<section>[WLR])(?P<round>\d+)-(?P<number>\d+)|(?P<final>F|GF|GF2))$"


@dataclass(frozen=True)
class MatchName:
    """What a match (or pod) is called, before wording: ``kind`` is one of "final",
    "semi-final", "quarter-final", "match" (round and number), "winners-final", "winners-match",
    "losers-final", "losers-match", "grand-final", "reset", "final-table", "pod" (round and
    number); ``number`` is 0 where the kind says it all (a final)."""

    kind: str
    round: int = 0
    number: int = 0


def match_name(match_id: str, entrants: int, double: bool = False) -> MatchName:
    """The name of a match of a bracket of ``entrants`` (``Bracket``'s or ``PodBracket``'s ids)."""
    found = re.match(MATCH_ID, match_id)
    if found is None:
        raise ValueError(f"{match_id!r} is not a match of a bracket")
    if found["final"] is not None:
        return MatchName({"F": "final-table", "GF": "grand-final", "GF2": "reset"}[found["final"]])
    round_, number = int(found["round"]), int(found["number"])
    section = found["section"]
    rounds, losers = bracket_rounds(entrants, double)
    if section == "R":
        return MatchName("pod", round_, number)
    if section == "L":
        return MatchName("losers-final") if round_ == losers else MatchName("losers-match", round_, number)
    if double:
        return MatchName("winners-final") if round_ == rounds else MatchName("winners-match", round_, number)
    left = rounds - round_
    if left == 0:
        return MatchName("final")
    if left <= 2:
        return MatchName("semi-final" if left == 1 else "quarter-final", round_, number)
    return MatchName("match", round_, number)


class Bracket:
    """Single or double elimination for 2-player games: see the module's rules."""

    def __init__(self, seeds: Sequence[int], double: bool = False, best_of: int = 1) -> None:
        if len(seeds) < 2:
            raise ValueError("an elimination bracket needs two entrants at least")
        if len(set(seeds)) != len(seeds):
            raise ValueError("an entrant is listed twice")
        if best_of < 1 or best_of % 2 == 0:
            raise ValueError(f"a match is played best of an odd number of games, not {best_of}")
        self.seeds = tuple(seeds)
        self.double = double
        self.best_of = best_of
        self.need = best_of // 2 + 1
        self._seed_of = {p: i for i, p in enumerate(self.seeds)}
        self._games: dict[str, list[int]] = {}
        self._matches: dict[str, _Match] = {}
        n = len(self.seeds)
        self.size = 1 << (n - 1).bit_length()
        self.rounds = self.size.bit_length() - 1  # winners rounds
        lines = [self.seeds[s - 1] if s <= n else None for s in bracket_order(self.size)]
        for j in range(self.size // 2):
            a, b = lines[2 * j], lines[2 * j + 1]
            self._add(f"W1-{j + 1}", "W", 1, (_Source("seed", a), _Source("seed", b)))
        for r in range(2, self.rounds + 1):
            for j in range(self.size >> r):
                sources = (
                    _Source("winner", match=f"W{r - 1}-{2 * j + 1}"),
                    _Source("winner", match=f"W{r - 1}-{2 * j + 2}"),
                )
                self._add(f"W{r}-{j + 1}", "W", r, sources)
        self.losers_rounds = 0
        if double:
            self._build_losers()
            if self.rounds == 1:
                final = (_Source("winner", match="W1-1"), _Source("loser", match="W1-1"))
            else:
                final = (
                    _Source("winner", match=f"W{self.rounds}-1"),
                    _Source("winner", match=f"L{self.losers_rounds}-1"),
                )
            self._add("GF", "F", 1, final)
            self._add("GF2", "F", 2, final)
        self._state: dict[str, _State] = {}
        self._resolve()

    # -- construction --------------------------------------------------------------------------
    def _label(self, bracket: str, round_: int) -> str:
        if bracket == "F":
            return "Grand final" if round_ == 1 else "Grand final reset"
        if bracket == "L":
            return "Losers final" if round_ == self.losers_rounds else f"Losers round {round_}"
        if self.double:
            return "Winners final" if round_ == self.rounds else f"Winners round {round_}"
        left = self.rounds - round_
        return ("Final", "Semi-finals", "Quarter-finals")[left] if left < 3 else f"Round {round_}"

    def _add(
        self, match_id: str, bracket: Literal["W", "L", "F"], round_: int, sources: tuple[_Source, _Source]
    ) -> None:
        present = (self._present(sources[0]), self._present(sources[1]))
        label = self._label(bracket, round_)
        self._matches[match_id] = _Match(match_id, bracket, round_, label, sources, present)

    def _present(self, source: _Source) -> bool:
        if source.kind == "seed":
            return source.seed is not None
        upstream = self._matches[source.match]
        return any(upstream.present) if source.kind == "winner" else upstream.real

    def _build_losers(self) -> None:
        m = self.rounds
        if m < 2:
            return  # two entrants: the loser of the only match is the losers-bracket champion
        self.losers_rounds = 2 * m - 2
        for j in range(self.size // 4):
            sources = (_Source("loser", match=f"W1-{2 * j + 1}"), _Source("loser", match=f"W1-{2 * j + 2}"))
            self._add(f"L1-{j + 1}", "L", 1, sources)
        for k in range(1, m):
            count = self.size >> (k + 1)
            # Losers of winners round k + 1 drop in: reversed, then halves swapped, alternately.
            if k % 2:
                drop = list(range(count, 0, -1))
            else:
                half = count // 2
                drop = [*range(half + 1, count + 1), *range(1, half + 1)] if count > 1 else [1]
            for j in range(count):
                sources = (
                    _Source("winner", match=f"L{2 * k - 1}-{j + 1}"),
                    _Source("loser", match=f"W{k + 1}-{drop[j]}"),
                )
                self._add(f"L{2 * k}-{j + 1}", "L", 2 * k, sources)
            if k < m - 1:
                for j in range(count // 2):
                    sources = (
                        _Source("winner", match=f"L{2 * k}-{2 * j + 1}"),
                        _Source("winner", match=f"L{2 * k}-{2 * j + 2}"),
                    )
                    self._add(f"L{2 * k + 1}-{j + 1}", "L", 2 * k + 1, sources)

    # -- state ---------------------------------------------------------------------------------
    def _value(self, source: _Source) -> int | None:
        if source.kind == "seed":
            return source.seed
        state = self._state[source.match]
        return state.winner if source.kind == "winner" else state.loser

    def _resolve(self) -> None:
        """Every match's players, game wins and result, from the seeds and the games recorded."""
        self._state = {}
        for match in self._matches.values():
            a, b = (self._value(s) for s in match.sources)
            state = _State(players=(a, b))
            if match.id == "GF2" and not self._reset_needed():
                pass  # no reset: the match is never played
            elif match.real:
                games = self._games.get(match.id, [])
                wins = (games.count(a), games.count(b)) if a is not None and b is not None else (0, 0)
                state.wins = wins
                if wins[0] >= self.need or wins[1] >= self.need:
                    state.winner, state.loser = (a, b) if wins[0] > wins[1] else (b, a)
            elif any(match.present):
                state.winner = a if match.present[0] else b
            self._state[match.id] = state

    def _reset_needed(self) -> bool:
        final = self._state.get("GF")
        return final is not None and final.winner is not None and final.winner == final.players[1]

    def _playable(self, match: _Match) -> bool:
        return match.real and (match.id != "GF2" or self._reset_needed())

    # -- the caller's view ---------------------------------------------------------------------
    def record(self, match_id: str, winner: int) -> None:
        """Record one game of ``match_id`` won by ``winner`` (one of its two players)."""
        match = self._matches.get(match_id)
        if match is None:
            raise ValueError(f"there is no match {match_id!r} in this bracket")
        if not match.real:
            raise ValueError(f"{match_id} is a bye, not a match to play")
        state = self._state[match_id]
        if not self._playable(match) or None in state.players:
            raise ValueError(f"{match_id} is not ready: its players are not known yet")
        if state.winner is not None:
            raise ValueError(f"{match_id} is already decided")
        if winner not in state.players:
            raise ValueError(f"{winner} does not play in {match_id}")
        self._games.setdefault(match_id, []).append(winner)
        self._resolve()

    def _seated(self, match_id: str, game: int) -> tuple[int, ...]:
        a, b = self._state[match_id].players
        assert a is not None and b is not None
        better, other = sorted((a, b), key=self._seed_of.__getitem__)
        return (better, other) if game % 2 else (other, better)

    def ready(self) -> list[Ready]:
        """Every game to play now (one per undecided match whose two players are known)."""
        found = []
        for match in self._matches.values():
            state = self._state[match.id]
            if self._playable(match) and None not in state.players and state.winner is None:
                game = len(self._games.get(match.id, [])) + 1
                found.append(Ready(match.id, self._seated(match.id, game), game, match.label))
        return found

    @property
    def done(self) -> bool:
        if not self.double:
            return self._state[f"W{self.rounds}-1"].winner is not None
        if self._state["GF"].winner is None:
            return False
        return not self._reset_needed() or self._state["GF2"].winner is not None

    @property
    def champion(self) -> int | None:
        if not self.done:
            return None
        if not self.double:
            return self._state[f"W{self.rounds}-1"].winner
        return self._state["GF2" if self._reset_needed() else "GF"].winner

    def matches(self) -> list[MatchView]:
        """Every match to be played or played (byes and walkovers left out; ``GF2`` once needed)."""
        views = []
        for match in self._matches.values():
            if not self._playable(match):
                continue
            state = self._state[match.id]
            views.append(
                MatchView(match.id, match.bracket, match.round, match.label, state.players, state.wins, state.winner)
            )
        return views

    def placements(self) -> list[tuple[int, list[int]]]:
        """(place, players sharing it), best first: complete once ``done``, the places already
        decided before (a group still being played lists those already out)."""
        stages: list[list[str]] = []  # matches whose losers share a place, first out first
        if self.double:
            for r in range(1, self.losers_rounds + 1):
                stages.append([m.id for m in self._matches.values() if m.bracket == "L" and m.round == r and m.real])
        else:
            for r in range(1, self.rounds):
                stages.append([m.id for m in self._matches.values() if m.bracket == "W" and m.round == r and m.real])
        groups: list[tuple[int, list[int]]] = []
        out = 0
        n = len(self.seeds)
        for stage in stages:
            out += len(stage)
            losers = [self._state[m].loser for m in stage]
            known = sorted((p for p in losers if p is not None), key=self._seed_of.__getitem__)
            if known:
                groups.append((n - out + 1, known))
        if self.done:
            champion = self.champion
            assert champion is not None
            if not self.double:
                last = f"W{self.rounds}-1"
            else:
                last = "GF2" if self._reset_needed() else "GF"
            runner_up = self._state[last].loser
            assert runner_up is not None
            groups += [(2, [runner_up]), (1, [champion])]
        return sorted(groups)


@dataclass
class _Pod:
    id: str
    round: int
    players: tuple[int, ...]  # seat order
    walkover: bool
    ranks: tuple[int, ...] | None = None
    advanced: tuple[int, ...] = field(default=())


@dataclass(frozen=True)
class PodView:
    """One pod, for drawing: players in seat order, the ranks once recorded (None before), who
    went on, and whether it was a walkover (no table)."""

    id: str
    round: int
    label: str
    players: tuple[int, ...]
    ranks: tuple[int, ...] | None
    advanced: tuple[int, ...]
    walkover: bool


class PodBracket:
    """Pod elimination for 3-4 player games: see the module's rules."""

    def __init__(self, seeds: Sequence[int], size: int = 4, advance: int = 1) -> None:
        if len(seeds) < 2:
            raise ValueError("an elimination needs two entrants at least")
        if len(set(seeds)) != len(seeds):
            raise ValueError("an entrant is listed twice")
        if size < 2:
            raise ValueError(f"a table seats two players at least, not {size}")
        if not 1 <= advance < size:
            raise ValueError(f"from tables of {size}, 1 to {size - 1} players can go on, not {advance}")
        self.seeds = tuple(seeds)
        self.size = size
        self.advance = advance
        self._seed_of = {p: i for i, p in enumerate(self.seeds)}
        # The number of players in each round follows from the count alone.
        counts = [len(self.seeds)]
        while counts[-1] > size:
            counts.append(sum(min(advance, s) for s in self._sizes(counts[-1])))
        self.counts = counts  # players in each round, the last the final pod
        self.final_round = len(counts)
        self._rounds: list[list[_Pod]] = []
        self._first: dict[int, int] = dict.fromkeys(self.seeds, 0)
        self._seat_round(list(self.seeds))

    def _label(self, round_: int) -> str:
        return "Final" if round_ == self.final_round else f"Round {round_}"

    def _sizes(self, players: int) -> list[int]:
        """Pod sizes for a round before the final: ``pod_sizes``, or, when those would put
        nobody out (3 a table, 2 going on, 4 players: 2 and 2), full tables and one short."""
        sizes = pod_sizes(players, self.size, minimum=1)
        if sum(min(self.advance, s) for s in sizes) < players:
            return sizes
        full, rest = divmod(players, self.size)
        return [self.size] * full + ([rest] if rest else [])

    def _seat_round(self, players: list[int]) -> None:
        """The next round's pods for ``players``: sizes from pod_sizes, snake seeding."""
        round_ = len(self._rounds) + 1
        players = sorted(players, key=self._seed_of.__getitem__)
        sizes = [len(players)] if round_ == self.final_round else self._sizes(len(players))
        members: list[list[int]] = [[] for _ in sizes]
        snake = [*range(len(sizes)), *reversed(range(len(sizes)))]
        step = 0
        for player in players:
            while len(members[snake[step % len(snake)]]) >= sizes[snake[step % len(snake)]]:
                step += 1
            members[snake[step % len(snake)]].append(player)
            step += 1
        pods = []
        for j, group in enumerate(members):
            pod_id = "F" if round_ == self.final_round else f"R{round_}-{j + 1}"
            walkover = round_ != self.final_round and len(group) <= self.advance
            seated = tuple(sorted(group, key=lambda p: (self._first[p], self._seed_of[p])))
            pod = _Pod(pod_id, round_, seated, walkover)
            if walkover:
                pod.advanced = seated
            else:
                self._first[seated[0]] += 1
            pods.append(pod)
        self._rounds.append(pods)

    def _pod(self, pod_id: str) -> _Pod:
        for pods in self._rounds:
            for pod in pods:
                if pod.id == pod_id:
                    return pod
        if pod_id in self._future_ids():
            raise ValueError(f"{pod_id} is not ready: the rounds before it are not finished")
        raise ValueError(f"there is no pod {pod_id!r} in this bracket")

    def _future_ids(self) -> set[str]:
        """The ids of every pod of the rounds not seated yet (their counts are known)."""
        ids = {"F"}
        for index in range(len(self._rounds), self.final_round - 1):
            ids |= {f"R{index + 1}-{j + 1}" for j in range(len(self._sizes(self.counts[index])))}
        return ids

    def record(self, pod_id: str, ranks: Sequence[int]) -> None:
        """Record the result of pod ``pod_id``: each seated player's rank (1 best, ties share)."""
        pod = self._pod(pod_id)
        if pod.walkover:
            raise ValueError(f"{pod_id} is a walkover, not a table to play")
        if pod.ranks is not None:
            raise ValueError(f"{pod_id} is already decided")
        if len(ranks) != len(pod.players) or any(not isinstance(r, int) or r < 1 for r in ranks):
            raise ValueError(f"{pod_id} needs a rank of 1 or more for each of its {len(pod.players)} players")
        pod.ranks = given = tuple(ranks)
        if pod.round != self.final_round:
            order = sorted(range(len(pod.players)), key=lambda i: (given[i], self._seed_of[pod.players[i]]))
            pod.advanced = tuple(pod.players[i] for i in order[: self.advance])
            current = self._rounds[-1]
            if all(p.walkover or p.ranks is not None for p in current):
                self._seat_round([p for q in current for p in q.advanced])

    def ready(self) -> list[Ready]:
        """The pods to play now: the current round's undecided tables."""
        return [
            Ready(pod.id, pod.players, 1, self._label(pod.round))
            for pod in self._rounds[-1]
            if not pod.walkover and pod.ranks is None
        ]

    @property
    def done(self) -> bool:
        return len(self._rounds) == self.final_round and self._rounds[-1][0].ranks is not None

    def matches(self) -> list[MatchView]:
        """Every pod seated so far that is a table (walkovers left out), as ``MatchView``."""
        views = []
        for pods in self._rounds:
            for pod in pods:
                if pod.walkover:
                    continue
                winner = None
                if pod.ranks is not None:
                    given = pod.ranks
                    winner = min(range(len(pod.players)), key=lambda i: (given[i], self._seed_of[pod.players[i]]))
                views.append(
                    MatchView(
                        pod.id,
                        "P",
                        pod.round,
                        self._label(pod.round),
                        pod.players,
                        (0,) * len(pod.players),
                        None if winner is None else pod.players[winner],
                    )
                )
        return views

    def pods(self) -> list[PodView]:
        """Every pod seated so far, round by round."""
        return [
            PodView(pod.id, pod.round, self._label(pod.round), pod.players, pod.ranks, pod.advanced, pod.walkover)
            for pods in self._rounds
            for pod in pods
        ]

    def placements(self) -> list[tuple[int, list[int]]]:
        """(place, players sharing it), best first: complete once ``done``; before, the places of
        the players out in rounds already finished."""
        groups: list[tuple[int, list[int]]] = []
        if self.done:
            groups += self._by_position(self._rounds[-1], 1, out_only=False)
        # Every round but the last seated is finished; counts[i + 1] players went on from round i.
        for index, pods in enumerate(self._rounds[:-1]):
            groups += self._by_position(pods, self.counts[index + 1] + 1, out_only=True)
        return sorted(groups)

    def _by_position(self, pods: list[_Pod], first: int, out_only: bool) -> list[tuple[int, list[int]]]:
        """The players of ``pods`` (those out only, or all) grouped by their position in their
        pod (one more than the players ranked strictly better), from place ``first`` on."""
        found: list[tuple[int, int]] = []
        for pod in pods:
            if pod.ranks is None:
                continue
            for player, rank in zip(pod.players, pod.ranks, strict=True):
                if not (out_only and player in pod.advanced):
                    found.append((1 + sum(other < rank for other in pod.ranks), player))
        found.sort(key=lambda item: (item[0], self._seed_of[item[1]]))
        groups: list[tuple[int, list[int]]] = []
        place = first
        i = 0
        while i < len(found):
            j = i
            while j < len(found) and found[j][0] == found[i][0]:
                j += 1
            groups.append((place, [p for _, p in found[i:j]]))
            place += j - i
            i = j
        return groups
