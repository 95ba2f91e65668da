"""Duplicate play for co-operative and solo games: every team plays the same deal.

Each round, every team (a Fox Duet pair, or one player of a solo mode) plays the round's same
seed on its own table, and the teams are ranked against each other, as the weekly challenge
ranks its attempts (league/weekly_challenge.py ``board``). Pure functions over plain data.

Teams: ``team_up`` keeps the partner pairs declared both ways (a declaration that is not
returned, or names someone not entered, is ignored) and pairs the others at random with the
given ``rng``; an odd player left over is a ValueError (the caller refuses the start). Solo
teams are one player each (``solo_teams``).

A round's ranking: a win before a loss (Fox Duet's target, Noctiluca's storm), then the higher
score; equal (won, score) shares a rank (1, 1, 3).

Match points per round, in twelfths (shown by ``pods.points_display`` on a 0-3 scale): the
round is scored like one pod of all the teams that finished it, generalising the pods' table:
position p of k teams earns 12 * (k - p) / (k - 1), and teams sharing a rank share the average
of the positions they span. That is the share of the field a team beat, a tie counting half
(duplicate bridge's match points): 12 * (2 * beaten + tied) / (2 * (k - 1)). With more than 4
teams this is seldom a whole number, so points are kept exact as a ``Fraction`` (no rounding
that could make two ranks equal); for 2 to 4 teams it is exactly the pods' table. A team alone
in a round earns 12 (like a bye); a team with no result in a round earns nothing for it.

Standings: match points, then the tie-breaks in order: rounds won (games won), the total score
over all rounds, the best single-round score; the order the teams were given in (their seeds)
last, so the order is total. The displayed rank (``rank``) is shared only by teams equal on
points and all three tie-breaks; otherwise it is the position (league/ranking.py).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from league.ranking import shared_ranks

Team = tuple[int, ...]


def team_up(entrants: Sequence[int], partners: dict[int, int], rng: random.Random) -> list[Team]:
    """Teams of two: declared mutual partners together (in entry order), the rest drawn by ``rng``.

    Raises ValueError when an odd player would be left without a partner.
    """
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    present = set(entrants)
    teams: list[Team] = []
    paired: set[int] = set()
    for player in entrants:
        partner = partners.get(player)
        if player in paired or partner is None or partner == player or partner not in present:
            continue
        if partner not in paired and partners.get(partner) == player:
            teams.append((player, partner))
            paired |= {player, partner}
    rest = [p for p in entrants if p not in paired]
    if len(rest) % 2:
        raise ValueError(
            f"{len(entrants)} players cannot all play in teams of two: one would be left without a partner"
        )
    rng.shuffle(rest)
    teams += [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    return teams


def solo_teams(entrants: Sequence[int]) -> list[Team]:
    """Solo play: every entrant is a team of one."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    return [(p,) for p in entrants]


@dataclass(frozen=True)
class Score:
    """One team's finished game of a round: whether it won, and the game's score."""

    team: Team
    round: int
    won: bool
    score: int


def rank_round(scores: Sequence[Score]) -> list[tuple[int, Score]]:
    """One round's results ranked, best first, as (rank, score): a win before a loss, then the
    higher score; equal standing shares a rank (1, 1, 3)."""
    ordered = sorted(scores, key=lambda s: (not s.won, -s.score))
    ranked: list[tuple[int, Score]] = []
    for n, entry in enumerate(ordered):
        same = ranked and (ranked[-1][1].won, ranked[-1][1].score) == (entry.won, entry.score)
        ranked.append((ranked[-1][0] if same else n + 1, entry))
    return ranked


def field_points(ranks: Sequence[int]) -> tuple[Fraction, ...]:
    """Match points in twelfths for each rank of a field of k teams: 12 * (k - p) / (k - 1),
    shared ranks sharing the average (12 * (2 * beaten + tied) / (2 * (k - 1)))."""
    k = len(ranks)
    if k == 1:
        return (Fraction(12),)
    points = []
    for mine in ranks:
        beaten = sum(other > mine for other in ranks)
        tied = sum(other == mine for other in ranks) - 1
        points.append(Fraction(12 * (2 * beaten + tied), 2 * (k - 1)))
    return tuple(points)


@dataclass(frozen=True)
class DuplicateStanding:
    team: Team
    points: Fraction  # twelfths of a match point, exact
    wins: int  # rounds won (games won)
    total: int  # the sum of the scores
    best: int  # the best single-round score (0 before any)
    played: int
    rank: int  # the displayed rank: shared only by teams equal on points and every tie-break


def standings(teams: Sequence[Team], history: Iterable[Score]) -> list[DuplicateStanding]:
    """Every team of ``teams`` (in seed order) ranked by match points and the tie-breaks.

    A result's team may list its players in any order. Raises ValueError for a result of a team
    not listed, or two results of one team in the same round.
    """
    canonical: dict[frozenset[int], Team] = {}
    for team in teams:
        if frozenset(team) in canonical:
            raise ValueError(f"the team {team} is listed twice")
        canonical[frozenset(team)] = team
    rounds: dict[int, list[Score]] = defaultdict(list)
    for score in history:
        known = canonical.get(frozenset(score.team))
        if known is None:
            raise ValueError(f"the team {score.team} is not in this tournament")
        if any(other.team == known for other in rounds[score.round]):
            raise ValueError(f"the team {known} has two results in round {score.round}")
        rounds[score.round].append(Score(known, score.round, score.won, score.score))
    points: dict[Team, Fraction] = {team: Fraction(0) for team in teams}
    wins: dict[Team, int] = dict.fromkeys(teams, 0)
    total: dict[Team, int] = dict.fromkeys(teams, 0)
    best: dict[Team, int | None] = dict.fromkeys(teams, None)
    played: dict[Team, int] = dict.fromkeys(teams, 0)
    for scores in rounds.values():
        ranked = rank_round(scores)
        earned = field_points([rank for rank, _ in ranked])
        for (_, entry), share in zip(ranked, earned, strict=True):
            team = entry.team
            points[team] += share
            wins[team] += entry.won
            total[team] += entry.score
            previous = best[team]
            best[team] = entry.score if previous is None else max(previous, entry.score)
            played[team] += 1
    order = {team: n for n, team in enumerate(teams)}

    def best_of(team: Team) -> int:
        value = best[team]
        return 0 if value is None else value

    def key(team: Team) -> tuple[Fraction, int, int, int]:
        return (-points[team], -wins[team], -total[team], -best_of(team))

    ranked_teams = sorted(teams, key=lambda t: (key(t), order[t]))
    ranks = shared_ranks([key(t) for t in ranked_teams])
    return [
        DuplicateStanding(t, points[t], wins[t], total[t], best_of(t), played[t], rank)
        for t, rank in zip(ranked_teams, ranks, strict=True)
    ]
