"""The standings table every report draws from (formats.standings): its displayed ranks.

The picture, its alt text and the message text all show ``Line.rank`` (bot/tournaments/
pictures.py), so these hand-made fields check the rank a reader sees in every format that ranks
by points: a rank is shared only when points and every tie-break are equal.
"""

from __future__ import annotations

from typing import Any

import pytest

from league import formats
from league.ranking import shared_ranks
from league.tournament_records import Entrant, Pairing, Tournament


def tournament(format_: str, table_size: int, game: str = "vivarium") -> Tournament:
    return Tournament(
        id=1,
        guild_id=1,
        channel_id=1,
        organiser_id=1,
        name="Test",
        game=game,
        options={},
        format=format_,
        table_size=table_size,
        rounds=None,
        best_of=1,
        advance=1,
        round_days=7,
        time_limit_hours=None,
        timeout_action=None,
        settle="forfeit",
        cap=None,
        signup_deadline=None,
        seed=0,
        status="running",
        round=2,
        signup_message_id=None,
    )


def entrants(count: int) -> list[Entrant]:
    return [Entrant(user, f"P{user}", None, user, "active") for user in range(1, count + 1)]


def played(round_: int, slot: int, players: tuple[int, ...], ranks: list[int], scores: list[int]) -> Pairing:
    result: dict[str, Any] = {"how": "played", "ranks": ranks, "scores": scores, "won": [r == 1 for r in ranks]}
    return Pairing(round_, slot, players, result=result)


def shown(table: formats.Table) -> list[tuple[str, tuple[int, ...]]]:
    return [(line.rank, line.names) for line in table.lines]


def test_shared_ranks_are_standard_competition_ranks() -> None:
    assert shared_ranks([(-3, -1), (-3, 0), (-3, 0), (-1, 0), (-1, 0), (0, 0)]) == [1, 2, 2, 4, 4, 6]
    assert shared_ranks([]) == []
    with pytest.raises(ValueError, match="row 2 is listed below a row it beats"):
        shared_ranks([(-1,), (-3,)])


def test_pods_rank_by_first_places_after_points_opponents_and_scores() -> None:
    # The same pod of four twice: all on 3 points, the same opponents and 40 in scores; 1 and 4
    # have a first place each, 2 and 3 none. Before this fix all four were shown 1st.
    history = [
        played(1, 0, (1, 2, 3, 4), [1, 2, 3, 4], [30, 25, 15, 10]),
        played(2, 0, (1, 2, 3, 4), [4, 3, 2, 1], [10, 15, 25, 30]),
    ]
    table = formats.standings(tournament("swiss", 4), entrants(4), history, "en")
    assert shown(table) == [("1", (1,)), ("1", (4,)), ("3", (2,)), ("3", (3,))]
    assert [line.tiebreaks[2] for line in table.lines] == ["1", "1", "0", "0"], "the first places column"


def test_swiss_duels_share_a_rank_only_on_a_full_tie() -> None:
    # 1 and 4 won with equal scores and never met: equal on points, Buchholz, scores and
    # head-to-head, so they share 1st (listed by seed); 2 and 3 share 3rd.
    history = [played(1, 0, (1, 2), [1, 2], [5, 5]), played(1, 1, (3, 4), [2, 1], [5, 5])]
    table = formats.standings(tournament("swiss", 2), entrants(4), history, "en")
    assert shown(table) == [("1", (1,)), ("1", (4,)), ("3", (2,)), ("3", (3,))]
    # Six players, everyone 3 points and Buchholz 6. Scores: 4 and 5 22, 3 21, 1 and 2 20, 6 15.
    # 4 and 5 never met: they share 1st. 2 beat 1: head-to-head parts them (4th and 5th).
    history = [
        played(1, 0, (2, 1), [1, 2], [10, 10]),
        played(1, 1, (3, 5), [1, 2], [11, 9]),
        played(1, 2, (6, 4), [1, 2], [8, 12]),
        played(2, 0, (1, 3), [1, 2], [10, 10]),
        played(2, 1, (4, 2), [1, 2], [10, 10]),
        played(2, 2, (5, 6), [1, 2], [13, 7]),
    ]
    table = formats.standings(tournament("swiss", 2), entrants(6), history, "en")
    assert {(line.points, line.tiebreaks[0]) for line in table.lines} == {("3", "6")}
    assert shown(table) == [("1", (4,)), ("1", (5,)), ("3", (3,)), ("4", (2,)), ("5", (1,)), ("6", (6,))]


def test_round_robin_uses_the_swiss_ranks() -> None:
    # 1 beat 2 in round 1 and 2 beat 3, 3 beat 1 later: a cycle, equal in everything, all 1st.
    history = [
        played(1, 0, (1, 2), [1, 2], [5, 5]),
        played(2, 0, (2, 3), [1, 2], [5, 5]),
        played(3, 0, (3, 1), [1, 2], [5, 5]),
    ]
    table = formats.standings(tournament("round-robin", 2), entrants(3), history, "en")
    assert shown(table) == [("1", (1,)), ("1", (2,)), ("1", (3,))]
    # Points decide first: 1 beat 2 and drew with 3 (4 points); 2 beat 3 (3); 3 has 1.
    history = [
        played(1, 0, (1, 2), [1, 2], [5, 5]),
        played(2, 0, (2, 3), [1, 2], [5, 5]),
        played(3, 0, (3, 1), [1, 1], [5, 5]),
    ]
    table = formats.standings(tournament("round-robin", 2), entrants(3), history, "en")
    assert shown(table) == [("1", (1,)), ("2", (2,)), ("3", (3,))]


def test_duplicate_ranks_share_only_a_full_tie() -> None:
    # Noctiluca solo: 1 and 2 win both rounds with 30 in total; 2's best round is higher.
    history = [
        played(1, 0, (1,), [1], [15]),
        played(1, 1, (2,), [1], [10]),
        played(1, 2, (3,), [2], [5]),
        played(1, 3, (4,), [2], [5]),
        played(2, 0, (1,), [1], [15]),
        played(2, 1, (2,), [1], [20]),
        played(2, 2, (3,), [2], [5]),
        played(2, 3, (4,), [2], [5]),
    ]
    table = formats.standings(tournament("duplicate", 1, game="noctiluca"), entrants(4), history, "en")
    assert shown(table) == [("1", (2,)), ("2", (1,)), ("3", (3,)), ("3", (4,))]
