"""Ranks from an outcome: winners first, then score; ties share a rank; forfeits last."""

from __future__ import annotations

from engine import Outcome
from league.final_results import final_results, ranks


def test_winner_first_then_by_score() -> None:
    assert ranks(Outcome([10, 30, 20], [1], [{}, {}, {}])) == [3, 1, 2]


def test_shared_win_shares_first_place() -> None:
    assert ranks(Outcome([30, 30, 5], [0, 1], [{}, {}, {}])) == [1, 1, 3]


def test_cooperative_team_shares_one_rank_win_or_lose() -> None:
    assert ranks(Outcome([25, 25], [0, 1], [{}, {}])) == [1, 1]
    assert ranks(Outcome([0, 0], [], [{}, {}])) == [1, 1]


def test_a_forfeiting_player_ranks_last_whatever_the_score() -> None:
    assert ranks(Outcome([50, 10, 20], [0], [{}, {}, {}]), forfeited={0}) == [3, 2, 1]


def test_final_results_name_each_seat_its_place_win_and_forfeit() -> None:
    outcome = Outcome([10, 30, 20], [1], [{}, {}, {}])
    assert final_results(outcome, [11, 22, 33]) == [
        (0, 11, 10, 3, False, False),
        (1, 22, 30, 1, True, False),
        (2, 33, 20, 2, False, False),
    ]
    assert final_results(outcome, [11, 22, 33], forfeited={2}) == [
        (0, 11, 10, 2, False, False),
        (1, 22, 30, 1, True, False),
        (2, 33, 20, 3, False, True),
    ]


def test_a_seat_a_computer_took_over_is_the_forfeit_of_the_player_who_left() -> None:
    # Seat 1 (a computer since 22 left) lost: 22 is last and forfeited; the winner keeps the win.
    lost = final_results(Outcome([40, 10, 20], [0], [{}, {}, {}]), [11, 2, 33], left={1: 22})
    assert lost == [(0, 11, 40, 1, True, False), (1, 22, 10, 3, False, True), (2, 33, 20, 2, False, False)]
    # The computer won there: never a win for 22, the best of those who stayed win instead.
    won = final_results(Outcome([10, 40, 20], [1], [{}, {}, {}]), [11, 2, 33], left={1: 22})
    assert won == [(0, 11, 10, 2, False, False), (1, 22, 40, 3, False, True), (2, 33, 20, 1, True, False)]
    # A shared win with a player who stayed: only the one who stayed keeps it.
    shared = final_results(Outcome([30, 30, 5], [0, 1], [{}, {}, {}]), [11, 2, 33], left={1: 22})
    assert shared == [(0, 11, 30, 1, True, False), (1, 22, 30, 3, False, True), (2, 33, 5, 2, False, False)]
