"""Elimination brackets: examples spelled out by hand, then properties with hypothesis."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.elimination import Bracket, PodBracket, bracket_order
from league.pods import pod_sizes


def wave(bracket: Bracket | PodBracket) -> list[tuple[str, tuple[int, ...], int]]:
    return [(r.match_id, r.players, r.game) for r in bracket.ready()]


# -- seeding -----------------------------------------------------------------------------------
def test_standard_seeding_places_one_against_sixteen_and_eight_against_nine() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(ValueError):
        bracket_order(6)


# -- single elimination by hand ----------------------------------------------------------------
def test_eight_player_single_elimination_spelled_out() -> None:
    b = Bracket([11, 12, 13, 14, 15, 16, 17, 18])  # seeds 1..8 are players 11..18
    assert wave(b) == [("W1-1", (11, 18), 1), ("W1-2", (14, 15), 1), ("W1-3", (12, 17), 1), ("W1-4", (13, 16), 1)]
    assert {r.label for r in b.ready()} == {"Quarter-finals"}
    b.record("W1-1", 11)
    b.record("W1-2", 15)  # 5 beats 4
    b.record("W1-3", 12)
    # W2-1 is ready at once (1 and 5 are known); W2-2 waits for W1-4.
    assert wave(b) == [("W1-4", (13, 16), 1), ("W2-1", (11, 15), 1)]
    b.record("W1-4", 13)
    assert wave(b) == [("W2-1", (11, 15), 1), ("W2-2", (12, 13), 1)]
    assert {r.label for r in b.ready()} == {"Semi-finals"}
    assert b.placements() == [(5, [14, 16, 17, 18])]
    b.record("W2-1", 15)
    b.record("W2-2", 12)
    assert wave(b) == [("W3-1", (12, 15), 1)] and b.ready()[0].label == "Final"
    assert not b.done
    b.record("W3-1", 15)
    assert b.done and b.champion == 15 and b.ready() == []
    assert b.placements() == [(1, [15]), (2, [12]), (3, [11, 13]), (5, [14, 16, 17, 18])]
    final = b.matches()[-1]
    assert (final.id, final.bracket, final.players, final.winner) == ("W3-1", "W", (15, 12), 15)


def test_byes_go_to_the_top_seeds_and_are_never_tables() -> None:
    b = Bracket([1, 2, 3, 4, 5])  # 8 lines: 1, 2, 3 get byes; only 4 v 5 plays in round 1
    # 2 and 3 both had byes: their round-2 match is ready at once, in the same wave.
    assert wave(b) == [("W1-2", (4, 5), 1), ("W2-2", (2, 3), 1)]
    assert [m.id for m in b.matches()] == ["W1-2", "W2-1", "W2-2", "W3-1"]
    assert [m.players for m in b.matches()][1:3] == [(1, None), (2, 3)]
    with pytest.raises(ValueError, match="bye"):
        b.record("W1-1", 1)


def test_best_of_three_alternates_the_first_seat_and_ends_at_two_wins() -> None:
    b = Bracket([1, 2], best_of=3)
    assert wave(b) == [("W1-1", (1, 2), 1)]
    b.record("W1-1", 2)
    assert wave(b) == [("W1-1", (2, 1), 2)]
    b.record("W1-1", 1)
    assert wave(b) == [("W1-1", (1, 2), 3)]
    b.record("W1-1", 1)
    assert b.done and b.placements() == [(1, [1]), (2, [2])]
    assert b.matches()[0].wins == (2, 1)


def test_record_refuses_what_cannot_be_played() -> None:
    b = Bracket([1, 2, 3, 4])
    with pytest.raises(ValueError, match="no match"):
        b.record("W9-1", 1)
    with pytest.raises(ValueError, match="not ready"):
        b.record("W2-1", 1)
    with pytest.raises(ValueError, match="does not play"):
        b.record("W1-1", 2)
    b.record("W1-1", 1)
    with pytest.raises(ValueError, match="already decided"):
        b.record("W1-1", 1)
    with pytest.raises(ValueError):
        Bracket([1])
    with pytest.raises(ValueError):
        Bracket([1, 1])
    with pytest.raises(ValueError):
        Bracket([1, 2], best_of=2)


# -- double elimination by hand ----------------------------------------------------------------
def test_six_player_double_elimination_spelled_out_with_a_grand_final_reset() -> None:
    b = Bracket([1, 2, 3, 4, 5, 6], double=True)
    # 8 lines: 1 and 2 have byes; their losers-bracket opponents too (walkovers for 5 and 6).
    assert wave(b) == [("W1-2", (4, 5), 1), ("W1-4", (3, 6), 1)]
    assert {r.label for r in b.ready()} == {"Winners round 1"}
    b.record("W1-2", 4)
    b.record("W1-4", 3)
    assert wave(b) == [("W2-1", (1, 4), 1), ("W2-2", (2, 3), 1)], "5 and 6 wait for a winners-round-2 loser"
    b.record("W2-1", 4)  # 4 upsets 1
    b.record("W2-2", 2)
    # Losers round 2 takes the winners-round-2 losers reversed: 5 (who lost to 4) meets 3, not 1.
    assert wave(b) == [("W3-1", (2, 4), 1), ("L2-1", (3, 5), 1), ("L2-2", (1, 6), 1)]
    assert [r.label for r in b.ready()] == ["Winners final", "Losers round 2", "Losers round 2"]
    b.record("W3-1", 2)
    b.record("L2-1", 3)
    b.record("L2-2", 1)
    assert b.placements() == [(5, [5, 6])]
    assert wave(b) == [("L3-1", (1, 3), 1)]
    b.record("L3-1", 1)
    assert wave(b) == [("L4-1", (1, 4), 1)] and b.ready()[0].label == "Losers final"
    b.record("L4-1", 1)
    assert wave(b) == [("GF", (1, 2), 1)] and b.ready()[0].label == "Grand final"
    assert "GF2" not in [m.id for m in b.matches()]
    b.record("GF", 1)  # the losers-bracket champion wins: a reset
    assert not b.done
    assert wave(b) == [("GF2", (1, 2), 1)] and b.ready()[0].label == "Grand final reset"
    b.record("GF2", 2)
    assert b.done and b.champion == 2
    assert b.placements() == [(1, [2]), (2, [1]), (3, [4]), (4, [3]), (5, [5, 6])]
    assert [(m.id, m.bracket, m.round) for m in b.matches()][-2:] == [("GF", "F", 1), ("GF2", "F", 2)]


def test_no_reset_when_the_winners_bracket_champion_wins_the_grand_final() -> None:
    b = Bracket([1, 2], double=True)
    b.record("W1-1", 1)
    assert wave(b) == [("GF", (1, 2), 1)], "two entrants: the loser of the only match is the losers' champion"
    b.record("GF", 1)
    assert b.done and b.placements() == [(1, [1]), (2, [2])]
    with pytest.raises(ValueError, match="not ready"):
        b.record("GF2", 1)


# -- single and double: properties -------------------------------------------------------------
def run(bracket: Bracket, rng: random.Random) -> tuple[list[tuple[str, int]], Counter[int], list[list[int]]]:
    """Play waves to the end with random winners; return the games, match losses and waves."""
    games: list[tuple[str, int]] = []
    losses: Counter[int] = Counter()
    waves: list[list[int]] = []
    out: set[int] = set()
    limit = bracket.double + 1
    for _ in range(10_000):
        if bracket.done:
            break
        ready = bracket.ready()
        assert ready, "not done, so something is to play"
        seated = [p for r in ready for p in r.players]
        assert len(seated) == len(set(seated)), "nobody plays two games at once"
        assert not set(seated) & out, "an eliminated player plays again"
        assert all(len(r.players) == 2 and 1 <= r.game <= bracket.best_of for r in ready)
        waves.append(seated)
        decided_before = {m.id for m in bracket.matches() if m.winner is not None}
        for r in ready:
            winner = rng.choice(r.players)
            bracket.record(r.match_id, winner)
            games.append((r.match_id, winner))
        for m in bracket.matches():
            if m.winner is not None and m.id not in decided_before:
                loser = next(p for p in m.players if p != m.winner)
                assert loser is not None
                losses[loser] += 1
                if losses[loser] >= limit and not (m.id == "GF" and bracket.double and losses[loser] == 1):
                    out.add(loser)
    assert bracket.done
    return games, losses, waves


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    count=st.integers(2, 40),
    double=st.booleans(),
    best_of=st.sampled_from([1, 3]),
    seed=st.integers(0, 10**6),
)
def test_brackets_play_everyone_until_eliminated_and_place_everyone(
    count: int, double: bool, best_of: int, seed: int
) -> None:
    seeds = [100 + 7 * i for i in range(count)]  # ids unrelated to the seed order
    bracket = Bracket(seeds, double=double, best_of=best_of)
    size = 1 << (count - 1).bit_length()
    # The byes (round-1 walkovers) go to the top seeds.
    first_round = {p for m in bracket.matches() if m.bracket == "W" and m.round == 1 for p in m.players}
    assert set(seeds) - first_round == set(seeds[: size - count])
    games, losses, waves = run(bracket, random.Random(seed))
    champion = bracket.champion
    assert champion is not None
    # Everyone else lost out: after one match loss (single) or two (double).
    for player in seeds:
        if player == champion:
            assert losses[player] <= (1 if double else 0)
        else:
            assert losses[player] == (2 if double else 1), (player, losses[player])
    # A full placement: everyone once, each place one more than the players above.
    placements = bracket.placements()
    assert sorted(p for _, group in placements for p in group) == sorted(seeds)
    above = 0
    for place, group in placements:
        assert place == above + 1
        above += len(group)
    assert placements[0] == (1, [champion])
    # No match had more games than best_of allows, and each was decided at best_of // 2 + 1.
    for match in bracket.matches():
        assert max(match.wins) == best_of // 2 + 1 and sum(match.wins) <= best_of
    # Single elimination: seeds 1 and 2 meet in the final or not at all.
    if not double:
        for match in bracket.matches():
            if set(match.players) == {seeds[0], seeds[1]}:
                assert match.id == f"W{size.bit_length() - 1}-1"
    # Replaying the same results rebuilds the same bracket.
    again = Bracket(seeds, double=double, best_of=best_of)
    for match_id, winner in games:
        again.record(match_id, winner)
    assert again.matches() == bracket.matches() and again.placements() == placements and again.done


@settings(max_examples=40, deadline=None, derandomize=True)
@given(count=st.integers(2, 40), seed=st.integers(0, 10**6))
def test_the_better_seed_always_winning_puts_the_seeds_in_order(count: int, seed: int) -> None:
    seeds = list(range(1, count + 1))
    bracket = Bracket(seeds)
    while not bracket.done:
        for r in bracket.ready():
            bracket.record(r.match_id, min(r.players))
    placements = bracket.placements()
    assert placements[0] == (1, [1])
    if count >= 2:
        assert placements[1] == (2, [2]), "1 and 2 meet only in the final"
    if count >= 4:
        assert placements[2] == (3, [3, 4])


# -- pod elimination ---------------------------------------------------------------------------
def test_sixteen_players_in_pods_of_four_one_going_on() -> None:
    b = PodBracket(list(range(1, 17)), size=4, advance=1)
    # Snake seeding: 1 2 3 4 head the pods, 5 6 7 8 come back, and so on.
    assert [(r.match_id, set(r.players)) for r in b.ready()] == [
        ("R1-1", {1, 8, 9, 16}),
        ("R1-2", {2, 7, 10, 15}),
        ("R1-3", {3, 6, 11, 14}),
        ("R1-4", {4, 5, 12, 13}),
    ]
    assert {r.label for r in b.ready()} == {"Round 1"}
    with pytest.raises(ValueError, match="not ready"):
        b.record("F", (1, 2, 3, 4))
    # The lowest seed of each pod wins, except in pod 2 where 15 wins.
    for r in b.ready():
        best = 15 if r.match_id == "R1-2" else min(r.players)
        order = sorted(r.players, key=lambda p: (p != best, p))
        b.record(r.match_id, tuple(order.index(p) + 1 for p in r.players))
    assert [(r.match_id, set(r.players), r.label) for r in b.ready()] == [("F", {1, 15, 3, 4}, "Final")]
    # Out in round 1, by position in their pod: the seconds share 5th, thirds 9th, fourths 13th.
    out = [(5, [2, 5, 6, 8]), (9, [7, 9, 11, 12]), (13, [10, 13, 14, 16])]
    assert b.placements() == out
    (final,) = b.ready()
    ranks = {1: 2, 15: 1, 3: 3, 4: 3}  # 15 wins, 3 and 4 share third
    b.record("F", tuple(ranks[p] for p in final.players))
    assert b.done and b.ready() == []
    assert b.placements() == [(1, [15]), (2, [1]), (3, [3, 4]), *out]


def test_a_tie_on_the_advance_line_goes_to_the_better_seed() -> None:
    b = PodBracket([1, 2, 3, 4, 5, 6, 7, 8], size=4, advance=2)
    for r in b.ready():
        # Everyone but the first-seated player ties for 2nd.
        b.record(r.match_id, tuple(1 if i == 0 else 2 for i in range(len(r.players))))
    pods = {p.id: p for p in b.pods()}
    for pod_id in ("R1-1", "R1-2"):
        pod = pods[pod_id]
        rest = sorted(pod.players[1:])
        assert pod.advanced == (pod.players[0], rest[0])


def test_pod_elimination_records_refuse_bad_input() -> None:
    b = PodBracket([1, 2, 3, 4, 5], size=4)
    with pytest.raises(ValueError, match="no pod"):
        b.record("X1", (1, 2))
    with pytest.raises(ValueError, match="no pod"):
        b.record("R2-1", (1, 2))  # 5 players: round 1, then the final
    with pytest.raises(ValueError, match="not ready"):
        b.record("F", (1, 2, 3))
    (pod_id, players, _) = wave(b)[0]
    with pytest.raises(ValueError, match="rank"):
        b.record(pod_id, (1,))
    b.record(pod_id, tuple(range(1, len(players) + 1)))
    with pytest.raises(ValueError, match="already decided"):
        b.record(pod_id, tuple(range(1, len(players) + 1)))
    with pytest.raises(ValueError):
        PodBracket([1, 2, 3], size=3, advance=3)


def test_when_equal_pods_would_put_nobody_out_full_tables_are_used() -> None:
    b = PodBracket([1, 2, 3, 4], size=3, advance=2)
    assert [p.players for p in b.pods()] == [(1, 3, 4), (2,)] and b.pods()[1].walkover
    assert b.counts == [4, 3]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    count=st.integers(2, 40),
    size=st.sampled_from([3, 4]),
    advance=st.sampled_from([1, 2]),
    seed=st.integers(0, 10**6),
)
def test_pod_elimination_narrows_to_one_final_and_places_everyone(
    count: int, size: int, advance: int, seed: int
) -> None:
    rng = random.Random(seed)
    seeds = list(range(1, count + 1))
    bracket = PodBracket(seeds, size=size, advance=advance)
    alive = set(seeds)
    history: list[tuple[str, tuple[int, ...]]] = []
    for round_no in range(1, 50):
        if bracket.done:
            break
        pods = [p for p in bracket.pods() if p.round == round_no]
        assert pods, "each round seats pods"
        seated = sorted(p for pod in pods for p in pod.players)
        assert seated == sorted(alive), "everyone still in, once"
        tables = [pod for pod in pods if not pod.walkover]
        if len(pods) > 1:
            full, rest = divmod(len(seated), size)
            sizes = [len(p.players) for p in pods]
            assert sizes in (pod_sizes(len(seated), size, minimum=1), [size] * full + [rest] * (rest > 0))
        else:
            assert len(pods[0].players) <= size and pods[0].id == "F"
        assert {r.match_id for r in bracket.ready()} == {pod.id for pod in tables}
        for pod in tables:
            ranks = tuple(rng.randint(1, len(pod.players)) for _ in pod.players)
            bracket.record(pod.id, ranks)
            history.append((pod.id, ranks))
        for pod in bracket.pods():
            if pod.round == round_no and pod.id != "F":
                assert len(pod.advanced) == min(advance, len(pod.players))
                alive -= set(pod.players) - set(pod.advanced)
    assert bracket.done
    placements = bracket.placements()
    assert sorted(p for _, group in placements for p in group) == seeds
    above = 0
    for place, group in placements:
        assert place == above + 1
        above += len(group)
    assert placements[0][0] == 1
    again = PodBracket(seeds, size=size, advance=advance)
    for pod_id, ranks in history:
        again.record(pod_id, ranks)
    assert again.pods() == bracket.pods() and again.placements() == placements
