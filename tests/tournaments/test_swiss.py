"""Swiss pairings and standings: examples, then properties with hypothesis."""

from __future__ import annotations

import itertools
import random

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.swiss import DRAW, LOSS, WIN, Played, pair_round, standings


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


def fewest_rematches(players: list[int], met: set[tuple[int, int]]) -> int:
    """The fewest rematches any pairing of ``players`` (an even count) must take."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_weighted_edges_from((a, b, 1 if (a, b) in met else 2) for a, b in itertools.combinations(players, 2))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert 2 * len(matching) == len(players)
    return sum((a, b) in met for a, b in matching)


def every_round(players: list[int]) -> list[list[tuple[int, ...]]]:
    """Every possible round of ``players``: all pairings, with each possible bye when odd."""
    if not players:
        return [[]]
    if len(players) % 2:
        return [[*pairs, (bye,)] for bye in players for pairs in every_round([p for p in players if p != bye])]
    first, rest = players[0], players[1:]
    return [[(first, partner), *pairs] for partner in rest for pairs in every_round([p for p in rest if p != partner])]


def round_cost(tables: list[tuple[int, ...]], seeds: list[int], history: list[Played]) -> tuple[int, int, int, int]:
    """(rematches, earlier meetings they repeat, the bye's byes so far, the bye's place from the bottom)."""
    table = standings(seeds, history)
    active = [s.player for s in table if any(s.player in t for t in tables)]
    byes = {s.player: s.byes for s in table}
    meetings: dict[frozenset[int], int] = {}
    for played in history:
        if len(played.players) == 2:
            key = frozenset(played.players)
            meetings[key] = meetings.get(key, 0) + 1
    rematches = repeats = bye_byes = bye_place = 0
    for t in tables:
        if len(t) == 1:
            bye_byes, bye_place = byes[t[0]], len(active) - 1 - active.index(t[0])
        elif frozenset(t) in meetings:
            rematches += 1
            repeats += meetings[frozenset(t)] - 1
    return rematches, repeats, bye_byes, bye_place


def played_rounds(rounds: list[tuple[int, list[tuple[int, int]]]]) -> list[Played]:
    """Hand-made rounds, each (the bye, the pairs): the first of each pair wins 5 to 3."""
    history: list[Played] = []
    for number, (bye, pairs) in enumerate(rounds, start=1):
        history.append(Played(number, (bye,)))
        history += [Played(number, pair, (1, 2), (5, 3)) for pair in pairs]
    return history


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
    ranks = {s.player: s.rank for s in table}
    assert ranks[1] == ranks[2] + 1, "head-to-head separates the displayed rank too"
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


def test_five_players_over_ten_rounds_take_the_fewest_rematches_and_share_out_the_byes() -> None:
    # Five players can play five rounds without a rematch (everyone meets everyone once, one bye
    # each); from round 6 every pairing repeats two meetings. The better-ranked player of each
    # table wins. Expected, round by round: the tables (pairs best first, the bye last).
    seeds = [1, 2, 3, 4, 5]
    expected = [
        [(1, 2), (3, 4), (5,)],
        [(1, 3), (5, 2), (4,)],
        [(1, 4), (5, 3), (2,)],
        [(1, 5), (2, 4), (3,)],
        [(5, 4), (2, 3), (1,)],
        # Everyone has had a bye: the lowest-ranked (4) gets the next, 2 rematches as any round.
        [(1, 5), (2, 3), (4,)],
        # 4 has had two byes: 3 is the lowest-ranked of those with one. (1, 5) would be a third
        # meeting: (1, 2) and (5, 4) are second ones.
        [(1, 2), (5, 4), (3,)],
        [(1, 4), (5, 3), (2,)],
        [(1, 3), (2, 4), (5,)],
        # Only 1 has a single bye; (5, 2) and (3, 4) are the last pairs met only once.
        [(5, 2), (3, 4), (1,)],
    ]
    history: list[Played] = []
    for number, tables in enumerate(expected, start=1):
        got = pair_round(seeds, history)
        assert got == tables, f"round {number}"
        cost = round_cost(got, seeds, history)
        assert cost[0] == (0 if number <= 5 else 2), f"round {number}: rematches"
        assert cost == min(round_cost(r, seeds, history) for r in every_round(seeds)), f"round {number}"
        for t in got:
            history.append(Played(number, t) if len(t) == 1 else Played(number, t, (1, 2), (5, 3)))
    byes = [t[0] for tables in expected for t in tables if len(t) == 1]
    assert sorted(byes[:5]) == sorted(byes[5:]) == seeds, "a bye each in rounds 1-5, and again in 6-10"
    meetings = sorted(met_pairs(history))
    assert len(meetings) == 20 and all(sum(set(p.players) == {a, b} for p in history) == 2 for a, b in meetings), (
        "every pair met exactly twice in ten rounds"
    )


def test_the_bye_goes_where_it_costs_the_fewest_rematches_not_to_the_lowest_ranked_first() -> None:
    # Seven players, seven rounds, a bye each; the first of each pair won. No round 8 is free of
    # rematches now. The lowest-ranked, 7, has met 2, 4, 5 and 6 (4 and 5 twice): with 7 out,
    # every pairing of the others repeats two meetings, while with 6 out one repeat suffices.
    rounds = [
        (4, [(2, 6), (5, 7), (1, 3)]),
        (3, [(1, 5), (2, 7), (4, 6)]),
        (6, [(4, 7), (1, 2), (3, 5)]),
        (7, [(1, 6), (3, 4), (2, 5)]),
        (5, [(6, 7), (1, 2), (3, 4)]),
        (1, [(4, 7), (5, 6), (2, 3)]),
        (2, [(5, 7), (1, 4), (3, 6)]),
    ]
    history = played_rounds(rounds)
    seeds = list(range(1, 8))
    table = standings(seeds, history)
    assert [s.player for s in table] == [1, 2, 3, 4, 5, 6, 7] and {s.byes for s in table} == {1}
    tables = pair_round(seeds, history)
    assert tables == [(1, 5), (2, 4), (3, 7), (6,)]
    assert round_cost(tables, seeds, history) == (1, 0, 1, 1)
    assert fewest_rematches([1, 2, 3, 4, 5, 6], met_pairs(history)) == 2, "a bye to 7 costs two rematches"
    assert round_cost(tables, seeds, history) == min(round_cost(r, seeds, history) for r in every_round(seeds))


def test_rematches_come_before_the_bye_rules_even_a_second_bye() -> None:
    # 4 and 5 met every round while 1, 2 and 3 took the byes and met each other. 1 and 4 lead
    # on 9, then 2 (6), 3 (3), 5 (0). A bye to 4 or 5 (none yet) leaves 1, 2 and 3 who all met:
    # a rematch. A second bye to 3, the lowest-ranked whose bye avoids every rematch, is chosen.
    history = played_rounds([(1, [(2, 3), (4, 5)]), (2, [(1, 3), (4, 5)]), (3, [(1, 2), (4, 5)])])
    seeds = [1, 2, 3, 4, 5]
    assert [(s.player, s.points, s.byes) for s in standings(seeds, history)] == [
        (1, 9, 1),
        (4, 9, 0),
        (2, 6, 1),
        (3, 3, 1),
        (5, 0, 0),
    ]
    assert pair_round(seeds, history) == [(1, 4), (2, 5), (3,)]


def test_an_even_field_with_no_rematch_free_pairing_repeats_the_fewest_meetings() -> None:
    # Four players who met twice in the pairs (1, 2) (3, 4) and once in (1, 3) (2, 4): the
    # pairs (1, 4) (2, 3) are new, so no rematch at all; after those, everyone has met, and a
    # round of second meetings is chosen, never a third (1, 2) or (3, 4).
    history = [
        Played(1, (1, 2), (1, 2), (5, 3)),
        Played(1, (3, 4), (1, 2), (5, 3)),
        Played(2, (1, 3), (1, 2), (5, 3)),
        Played(2, (2, 4), (1, 2), (5, 3)),
        Played(3, (1, 2), (1, 2), (5, 3)),
        Played(3, (3, 4), (1, 2), (5, 3)),
    ]
    seeds = [1, 2, 3, 4]
    assert {frozenset(t) for t in pair_round(seeds, history)} == {frozenset((1, 4)), frozenset((2, 3))}
    history += [Played(4, (1, 4), (1, 2), (5, 3)), Played(4, (2, 3), (1, 2), (5, 3))]
    tables = pair_round(seeds, history)
    assert frozenset((1, 2)) not in {frozenset(t) for t in tables}
    assert round_cost(tables, seeds, history) == (2, 0, 0, 0), "two rematches, both second meetings"


def test_a_full_tie_shares_a_displayed_rank_and_every_tie_break_separates() -> None:
    # 1 and 4 won 5 to 5 (a win by rank, equal scores), against 2 and 3: 1 and 4 are equal on
    # points, Buchholz, scores and head-to-head (they never met), so share rank 1; 2 and 3 too.
    history = [Played(1, (1, 2), (1, 2), (5, 5)), Played(1, (3, 4), (2, 1), (5, 5))]
    table = standings([1, 2, 3, 4], history)
    assert [(s.player, s.rank) for s in table] == [(1, 1), (4, 1), (2, 3), (3, 3)]
    # Before any result everyone shares the first rank.
    assert [s.rank for s in standings([1, 2, 3], [])] == [1, 1, 1]
    # 4 scored more than 1: no more sharing between them; 2 and 3 still tie on everything.
    history = [Played(1, (1, 2), (1, 2), (5, 5)), Played(1, (3, 4), (2, 1), (5, 6))]
    assert [(s.player, s.rank) for s in standings([1, 2, 3, 4], history)] == [(4, 1), (1, 2), (2, 3), (3, 3)]


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
    byes: dict[int, int] = dict.fromkeys(seeds, 0)
    for round_no in range(1, rounds + 1):
        met = met_pairs(history)
        tables = pair_round(seeds, history)
        seated = [p for t in tables for p in t]
        assert sorted(seated) == seeds, "every entrant seated exactly once"
        bye = [t[0] for t in tables if len(t) == 1]
        assert len(bye) == count % 2
        rematches = [t for t in tables if len(t) == 2 and (t[0], t[1]) in met]
        if rematches:
            rest = [p for p in seeds if p not in bye]
            assert not rematch_free_perfect_matching_exists(rest, met), "an avoidable rematch"
        for player in bye:
            # A bye to someone with more byes than another player only when every bye to a
            # player with fewer would cost more rematches (rematches come first).
            for other in seeds:
                if byes[other] < byes[player]:
                    rest = [p for p in seeds if p != other]
                    assert fewest_rematches(rest, met) > len(rematches), f"{other} could have had the bye"
            byes[player] += 1
        history += play_round(seeds, history, round_no, rng)


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


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    count=st.integers(min_value=1, max_value=7),
    rounds=st.integers(min_value=0, max_value=9),
    gone=st.integers(min_value=0, max_value=2),
    seed=st.integers(0, 10**6),
)
def test_the_round_is_the_cheapest_of_every_possible_round_by_brute_force(
    count: int, rounds: int, gone: int, seed: int
) -> None:
    # Random earlier rounds (random pairs and byes, so repeats and second byes happen); the
    # paired round's (rematches, repeats, the bye's byes, the bye's place from the bottom) is the
    # least of all possible rounds of the players left.
    rng = random.Random(seed)
    seeds = list(range(1, count + 1))
    history: list[Played] = []
    for number in range(1, rounds + 1):
        order = list(seeds)
        rng.shuffle(order)
        if len(order) % 2:
            history.append(Played(number, (order.pop(),)))
        for a, b in zip(order[::2], order[1::2], strict=True):
            ranks = rng.choice([(1, 2), (2, 1), (1, 1)])
            history.append(Played(number, (a, b), ranks, (rng.randint(0, 9), rng.randint(0, 9))))
    dropped = rng.sample(seeds, min(gone, count - 1))
    active = [p for p in seeds if p not in dropped]
    tables = pair_round(seeds, history, dropped=dropped)
    assert sorted(p for t in tables for p in t) == active
    assert sum(len(t) == 1 for t in tables) == len(active) % 2
    cost = round_cost(tables, seeds, history)
    assert cost == min(round_cost(r, seeds, history) for r in every_round(active))
