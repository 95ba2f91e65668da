"""Duplicate play: teams, a round's ranking, match points and standings."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.duplicate import Score, field_points, rank_round, solo_teams, standings, team_up
from league.pods import points_display, rank_points


# -- teams -------------------------------------------------------------------------------------
def test_declared_mutual_partners_are_kept_and_the_rest_drawn() -> None:
    teams = team_up([1, 2, 3, 4, 5, 6], {1: 4, 4: 1, 2: 5, 5: 3}, random.Random(1))
    assert teams[0] == (1, 4), "mutual: kept, in entry order"
    assert sorted(p for t in teams for p in t) == [1, 2, 3, 4, 5, 6]
    assert all(len(t) == 2 for t in teams)
    # 2 -> 5 and 5 -> 3 are not mutual: ignored, drawn at random like 3 and 6.
    assert teams == team_up([1, 2, 3, 4, 5, 6], {1: 4, 4: 1, 2: 5, 5: 3}, random.Random(1)), (
        "the same rng, the same draw"
    )


def test_a_partner_who_has_not_entered_is_ignored() -> None:
    teams = team_up([1, 2], {1: 9, 9: 1}, random.Random(0))
    assert sorted(teams[0]) == [1, 2]


def test_an_odd_player_left_over_is_refused_naming_the_count() -> None:
    with pytest.raises(ValueError, match="5 players"):
        team_up([1, 2, 3, 4, 5], {1: 2, 2: 1}, random.Random(0))
    with pytest.raises(ValueError, match="twice"):
        team_up([1, 1], {}, random.Random(0))


def test_solo_teams_are_singletons() -> None:
    assert solo_teams([3, 1, 2]) == [(3,), (1,), (2,)]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    count=st.integers(0, 30).map(lambda n: 2 * n),
    pairs=st.integers(0, 10),
    seed=st.integers(0, 10**6),
)
def test_teams_of_two_seat_everyone_once_and_keep_every_mutual_pair(count: int, pairs: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = rng.sample(range(1, 1000), count)
    partners: dict[int, int] = {}
    shuffled = list(entrants)
    rng.shuffle(shuffled)
    for a, b in zip(shuffled[: 2 * pairs : 2], shuffled[1 : 2 * pairs : 2], strict=False):
        partners[a], partners[b] = b, a
    teams = team_up(entrants, partners, rng)
    assert sorted(p for t in teams for p in t) == sorted(entrants)
    assert all(len(t) == 2 for t in teams)
    for a, b in partners.items():
        assert (a, b) in teams or (b, a) in teams


# -- a round -----------------------------------------------------------------------------------
def test_a_round_ranks_a_win_before_a_loss_then_the_score_with_shared_ranks() -> None:
    scores = [
        Score((1,), 1, False, 90),
        Score((2,), 1, True, 10),
        Score((3,), 1, True, 30),
        Score((4,), 1, True, 30),
        Score((5,), 1, False, 90),
    ]
    ranked = [(rank, s.team) for rank, s in rank_round(scores)]
    assert ranked == [(1, (3,)), (1, (4,)), (3, (2,)), (4, (1,)), (4, (5,))]


def test_field_points_generalise_the_pod_table() -> None:
    # For 2 to 4 teams, exactly the pods' table (in twelfths), shared ranks included.
    for k in (1, 2, 3, 4):
        for ranks in itertools.product(range(1, k + 1), repeat=k):
            assert field_points(ranks) == tuple(Fraction(p) for p in rank_points(ranks)), ranks
    # Five teams: 12, 9, 6, 3, 0; a tie for first shares (12 + 9) / 2.
    assert field_points([1, 2, 3, 4, 5]) == tuple(map(Fraction, (12, 9, 6, 3, 0)))
    assert field_points([1, 1, 3, 4, 5])[:2] == (Fraction(21, 2), Fraction(21, 2))
    assert points_display(Fraction(21, 2)) == "2.63", "2.625 shown to two decimals, halves up"
    assert points_display(Fraction(12, 7)) == "0.43"


@given(st.lists(st.integers(1, 8), min_size=1, max_size=12))
def test_field_points_share_the_total_and_follow_the_ranks(ranks: list[int]) -> None:
    points = field_points(ranks)
    k = len(ranks)
    assert sum(points) == (12 * k // 2 if k > 1 else 12)
    for a, b in itertools.permutations(range(k), 2):
        if ranks[a] < ranks[b]:
            assert points[a] > points[b]
        if ranks[a] == ranks[b]:
            assert points[a] == points[b]


# -- standings ---------------------------------------------------------------------------------
def test_standings_points_then_wins_then_total_then_best_then_seed() -> None:
    a, b, c, d, e = (1, 2), (3, 4), (5, 6), (7, 8), (9, 10)
    history = [
        # Round 1: a wins 20; b and c win 20 too (all share first); d loses 50; e loses 40.
        Score(a, 1, True, 20),
        Score(b, 1, True, 20),
        Score(c, 1, True, 20),
        Score(d, 1, False, 50),
        Score(e, 1, False, 40),
        # Round 2: d wins 25, e wins 15, b wins 15, a loses 60, c loses 10.
        Score(d, 2, True, 25),
        Score(e, 2, True, 15),
        Score((4, 3), 2, True, 15),  # the players in another order: still team b
        Score(a, 2, False, 60),
        Score(c, 2, False, 10),
    ]
    table = standings([a, b, c, d, e], history)
    by = {s.team: s for s in table}
    # Round 1 (5 teams, three share 1st): a, b, c 9 each, d 3, e 0.
    # Round 2: d 12, e and b share 2nd: 7.5 each, a 3, c 0.
    assert by[a].points == 12 and by[b].points == Fraction(33, 2) and by[c].points == 9
    assert by[d].points == 15 and by[e].points == Fraction(15, 2)
    assert [s.team for s in table] == [b, d, a, c, e]
    assert (by[a].wins, by[a].total, by[a].best, by[a].played) == (1, 80, 60, 2)


def test_the_displayed_rank_is_shared_only_by_a_full_tie() -> None:
    a, b, c, d = (1,), (2,), (3,), (4,)
    history = [
        # Round 1: a wins 15, b wins 10, c and d lose 5 (they share 3rd).
        Score(a, 1, True, 15),
        Score(b, 1, True, 10),
        Score(c, 1, False, 5),
        Score(d, 1, False, 5),
        # Round 2: b wins 20, a wins 15, c and d lose 5 again.
        Score(b, 2, True, 20),
        Score(a, 2, True, 15),
        Score(c, 2, False, 5),
        Score(d, 2, False, 5),
    ]
    table = standings([a, b, c, d], history)
    # a and b: 20 points, 2 rounds won, 30 in total; b's best round (20) beats a's (15).
    assert [(s.team, s.points, s.wins, s.total, s.best) for s in table[:2]] == [(b, 20, 2, 30, 20), (a, 20, 2, 30, 15)]
    assert [(s.team, s.rank) for s in table] == [(b, 1), (a, 2), (c, 3), (d, 3)]


def test_tie_breaks_in_order() -> None:
    # Every team earns the same points (a lone team each round earns 12); the tie-breaks decide.
    teams = [(1,), (2,), (3,), (4,), (5,)]
    history = [
        Score((1,), 1, False, 90),
        Score((2,), 2, True, 10),  # more rounds won than 1
        Score((3,), 3, True, 20),  # won as well, a higher total than 2
        Score((4,), 4, True, 20),  # two rounds: 24 points, ahead of all the 12s
        Score((4,), 5, True, 0),
        Score((5,), 6, True, 5),
        Score((5,), 7, True, 15),  # two wins, total 20 like 4, best 15 < 20
    ]
    # 4 and 5 earned 24, the others 12; 4 ahead of 5 on the best round.
    table = standings(teams, history)
    assert [s.team for s in table] == [(4,), (5,), (3,), (2,), (1,)]
    untied = standings(teams, [])
    assert [s.team for s in untied] == teams, "nothing played: the seed order"
    assert all(s.points == 0 and s.best == 0 and s.played == 0 for s in untied)


def test_standings_refuse_unknown_teams_and_double_results() -> None:
    with pytest.raises(ValueError, match="not in this tournament"):
        standings([(1,)], [Score((2,), 1, True, 3)])
    with pytest.raises(ValueError, match="two results"):
        standings([(1,)], [Score((1,), 1, True, 3), Score((1,), 1, False, 2)])
