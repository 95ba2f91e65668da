"""Swiss pairings and standings (issue 13): examples, then properties with hypothesis."""

from __future__ import annotations

import itertools
import random

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tournaments.swiss import DRAW, LOSS, WIN, Played, pair_round, standings


def play_round(seeds: list[int], history: list[Played], round_no: int, rng: random.Random, dropped=()) -> list[Played]:
    """Pair a round and play it: the better seed wins two times in three, a draw now and then."""
    tables = pair_round(seeds, history, dropped)
    played = []
    for table in tables:
        if len(table) == 1:
            played.append(Played(round_no, table))
            continue
        roll = rng.random()
        ranks = (1, 1) if roll < 0.1 else (1, 2) if roll < 0.7 else (2, 1)
        played.append(Played(round_no, table, ranks, (rng.randint(20, 80), rng.randint(20, 80))))
    return played


def rematch_free_perfect_matching_exists(players: list[int], met: set[tuple[int, int]]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for a, b in itertools.combinations(players, 2) if (a, b) not in met)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(players)


def met_pairs(history: list[Played]) -> set[tuple[int, int]]:
    found = set()
    for table in history:
        if len(table.players) == 2:
            a, b = table.players
            found |= {(a, b), (b, a)}
    return found


# -- examples ------------------------------------------------------------------------------
def test_match_points_win_draw_loss_and_a_bye_counts_as_a_win() -> None:
    history = [Played(1, (1, 2), (1, 2), (50, 40)), Played(1, (3, 4), (1, 1), (30, 30)), Played(1, (5,))]
    table = {s.player: s for s in standings([1, 2, 3, 4, 5], history)}
    assert (table[1].points, table[2].points, table[3].points, table[5].points) == (WIN, LOSS, DRAW, WIN)
    assert table[5].byes == 1 and table[5].played == 1


def test_tie_breaks_buchholz_then_game_scores_then_head_to_head() -> None:
    # 1 beat 2 and 2 beat 3 and 3 beat 1: all on 3 points from two games each, 4 and 5 apart.
    history = [
        Played(1, (1, 2), (1, 2), (10, 5)),
        Played(2, (2, 3), (1, 2), (10, 5)),
        Played(3, (3, 1), (1, 2), (10, 9)),
        Played(1, (4, 5), (1, 2), (10, 5)),
    ]
    order = [s.player for s in standings([1, 2, 3, 4, 5], history)]
    # 4 has 3 points and Buchholz 0; 1, 2, 3 have 3 points and Buchholz 3 each: they come first,
    # ordered by game scores (1: 19, 2: 15, 3: 15), then 2 before 3 head to head (2 beat 3).
    assert order[:3] == [1, 2, 3] and order[3] == 4 and order[4] == 5


def test_head_to_head_decides_when_everything_else_is_equal() -> None:
    # Six players, two rounds, everyone 1-1 (3 points, Buchholz 6); game scores set 1 and 2 apart
    # from the others (20 each) and 2 beat 1: 2 ranks right above 1.
    history = [
        Played(1, (2, 1), (1, 2), (10, 10)),
        Played(1, (3, 5), (1, 2), (11, 9)),
        Played(1, (6, 4), (1, 2), (8, 12)),
        Played(2, (1, 3), (1, 2), (10, 10)),
        Played(2, (4, 2), (1, 2), (10, 10)),
        Played(2, (5, 6), (1, 2), (13, 7)),
    ]
    table = standings([1, 2, 3, 4, 5, 6], history)
    assert {s.points for s in table} == {3} and {s.buchholz for s in table} == {6}
    order = [s.player for s in table]
    assert order.index(2) + 1 == order.index(1), "2 beat 1: right above"
    assert order.index(1) > 0 and order[-1] == 6


def test_nine_players_get_a_bye_each_round_for_a_different_lowest_player() -> None:
    seeds = list(range(1, 10))
    history: list[Played] = []
    rng = random.Random(3)
    byes = []
    for round_no in range(1, 5):
        tables = pair_round(seeds, history)
        byes += [t[0] for t in tables if len(t) == 1]
        assert sorted(p for t in tables for p in t) == seeds
        history += play_round(seeds, history, round_no, rng)
    assert len(byes) == 4 and len(set(byes)) == 4, "at most one bye each"
    # The bye went to the lowest-ranked player without one.
    assert byes[0] == 9


def test_the_first_round_pairs_neighbours_and_rng_draws_a_random_first_order() -> None:
    assert pair_round([1, 2, 3, 4], []) == [(1, 2), (3, 4)]
    drawn = pair_round(list(range(1, 9)), [], rng=random.Random(5))
    assert sorted(p for t in drawn for p in t) == list(range(1, 9))


def test_dropped_players_are_never_paired_again() -> None:
    seeds = list(range(1, 7))
    history = play_round(seeds, [], 1, random.Random(1))
    tables = pair_round(seeds, history, dropped=[2])
    assert 2 not in {p for t in tables for p in t} and sum(len(t) for t in tables) == 5


def test_a_rematch_is_taken_only_when_none_can_be_avoided() -> None:
    # Four players who have all met: the next round must repeat pairs, and it still pairs all.
    history = [Played(1, (1, 2), (1, 2), (1, 0)), Played(1, (3, 4), (1, 2), (1, 0))]
    history += [Played(2, (1, 3), (1, 2), (1, 0)), Played(2, (2, 4), (1, 2), (1, 0))]
    history += [Played(3, (1, 4), (1, 2), (1, 0)), Played(3, (2, 3), (1, 2), (1, 0))]
    tables = pair_round([1, 2, 3, 4], history)
    assert sorted(p for t in tables for p in t) == [1, 2, 3, 4]


# -- properties ----------------------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    count=st.integers(min_value=2, max_value=24),
    rounds=st.integers(min_value=1, max_value=6),
    seed=st.integers(0, 10**6),
)
def test_every_round_seats_everyone_once_with_no_avoidable_rematch_and_one_bye_at_most(
    count: int, rounds: int, seed: int
) -> None:
    seeds = list(range(1, count + 1))
    rng = random.Random(seed)
    history: list[Played] = []
    byes: dict[int, int] = {}
    for round_no in range(1, rounds + 1):
        met = met_pairs(history)
        tables = pair_round(seeds, history)
        seated = [p for t in tables for p in t]
        assert sorted(seated) == seeds, "every entrant seated exactly once"
        bye = [t[0] for t in tables if len(t) == 1]
        assert len(bye) == count % 2
        for player in bye:
            byes[player] = byes.get(player, 0) + 1
        rematches = [t for t in tables if len(t) == 2 and (t[0], t[1]) in met]
        if rematches:
            rest = [p for p in seeds if p not in bye]
            assert not rematch_free_perfect_matching_exists(rest, met), "an avoidable rematch"
        history += play_round(seeds, history, round_no, rng)
    # Nobody gets a second bye while someone has had none (rounds < players here).
    if rounds < count:
        assert all(n <= 1 for n in byes.values())


@settings(max_examples=40, deadline=None, derandomize=True)
@given(count=st.integers(min_value=2, max_value=8), seed=st.integers(0, 10**6))
def test_partners_come_from_the_same_score_group_whenever_the_groups_can_be_paired(count: int, seed: int) -> None:
    seeds = list(range(1, 2 * count + 1))
    history = play_round(seeds, [], 1, random.Random(seed))
    points = {s.player: s.points for s in standings(seeds, history)}
    met = met_pairs(history)
    groups: dict[int, list[int]] = {}
    for player, score in points.items():
        groups.setdefault(score, []).append(player)
    if all(rematch_free_perfect_matching_exists(group, met) for group in groups.values()):
        tables = pair_round(seeds, history)
        assert all(points[a] == points[b] for a, b in tables), "paired within score groups"
