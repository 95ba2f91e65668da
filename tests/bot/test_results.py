"""Ranks from an outcome: winners first, then score; ties share a rank; forfeits last."""

from __future__ import annotations

from bot.results import ranks
from engine import Outcome


def test_winner_first_then_by_score() -> None:
    assert ranks(Outcome([10, 30, 20], [1], [{}, {}, {}])) == [3, 1, 2]


def test_shared_win_shares_first_place() -> None:
    assert ranks(Outcome([30, 30, 5], [0, 1], [{}, {}, {}])) == [1, 1, 3]


def test_cooperative_team_shares_one_rank_win_or_lose() -> None:
    assert ranks(Outcome([25, 25], [0, 1], [{}, {}])) == [1, 1]
    assert ranks(Outcome([0, 0], [], [{}, {}])) == [1, 1]


def test_a_forfeiting_player_ranks_last_whatever_the_score() -> None:
    assert ranks(Outcome([50, 10, 20], [0], [{}, {}, {}]), forfeited={0}) == [3, 2, 1]
