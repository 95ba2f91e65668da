"""Elimination matches named as players name them, and a drawn duel explained."""

from __future__ import annotations

import dataclasses

import pytest

from l10n.words import t
from league import formats
from league.elimination import Bracket, MatchName, PodBracket, bracket_rounds, match_name
from league.tournament_records import Pairing, Tournament

CUP = Tournament(
    id=1, guild_id=1, channel_id=1, organiser_id=1, name="Cup", game="vivarium", options={}, format="single",
    table_size=2, rounds=None, best_of=1, advance=1, round_days=7, time_limit_hours=None, timeout_action=None,
    settle="forfeit", cap=None, signup_deadline=None, seed=1, status="running", round=1, signup_message_id=None,
)  # fmt: skip
NAMES = {1: "Ann", 2: "Bob"}


@pytest.mark.parametrize("entrants", [2, 3, 5, 8, 13, 16, 33])
@pytest.mark.parametrize("double", [False, True])
def test_bracket_rounds_agree_with_the_bracket(entrants: int, double: bool) -> None:
    bracket = Bracket(list(range(entrants)), double=double)
    assert bracket_rounds(entrants, double) == (bracket.rounds, bracket.losers_rounds)
    for match in bracket.matches():
        match_name(match.id, entrants, double)  # every id of every bracket has a name


def test_single_elimination_names_the_last_rounds_and_numbers_the_first() -> None:
    assert match_name("W4-1", 16) == MatchName("final")
    assert match_name("W3-2", 16) == MatchName("semi-final", 3, 2)
    assert match_name("W2-4", 16) == MatchName("quarter-final", 2, 4)
    assert match_name("W1-7", 16) == MatchName("match", 1, 7)
    assert match_name("W1-1", 2) == MatchName("final")


def test_double_elimination_names_its_brackets_and_finals() -> None:
    assert match_name("W3-1", 8, double=True) == MatchName("winners-final")
    assert match_name("W1-2", 8, double=True) == MatchName("winners-match", 1, 2)
    assert match_name("L4-1", 8, double=True) == MatchName("losers-final")
    assert match_name("L2-2", 8, double=True) == MatchName("losers-match", 2, 2)
    assert match_name("GF", 8, double=True) == MatchName("grand-final")
    assert match_name("GF2", 8, double=True) == MatchName("reset")


def test_pods_are_tables_of_a_round_then_the_final_table() -> None:
    bracket = PodBracket(list(range(16)), size=4)
    assert [match_name(r.match_id, 16) for r in bracket.ready()][:2] == [MatchName("pod", 1, 1), MatchName("pod", 1, 2)]
    assert match_name("F", 16) == MatchName("final-table")
    with pytest.raises(ValueError):
        match_name("X1", 16)


@pytest.mark.parametrize("loc", ["en", "zh-TW", "pt-BR"])
def test_a_table_label_never_shows_a_match_id(loc: str) -> None:
    for double, entrants in ((False, 16), (True, 16)):
        tournament = dataclasses.replace(CUP, format="double" if double else "single")
        for match in Bracket(list(range(entrants)), double=double).matches():
            label = formats.table_label(tournament, Pairing(1, 0, (1, 2), match.id), loc, entrants)
            assert match.id not in label and label.strip()


def drawn(how: str = "played", game: int = 1) -> Pairing:
    return Pairing(2, 0, (2, 1), "W1-1", game, result={"how": how, "ranks": [1, 1], "scores": [38, 38]})


def test_a_drawn_match_goes_to_the_better_seed_and_says_so() -> None:
    note = formats.draw_note(CUP, drawn(), [1, 2], NAMES, "en", mention=False)
    assert note == (
        "Final: Ann and Bob drew (38–38). A drawn match goes to the better seed, "
        "so Ann (seed 1, against seed 2) goes on."
    )
    assert formats.winner_of(drawn(), {1: 0, 2: 1}) == 1, "the code sends on whom the note names"


def test_a_drawn_game_of_a_best_of_3_and_a_double_elimination_match() -> None:
    best_of_3 = dataclasses.replace(CUP, best_of=3)
    assert formats.draw_note(best_of_3, drawn(game=2), [1, 2], NAMES, "en", mention=True) == t(
        "tournament.draw.game", "en", match="Final, game 2", winner="<@1>", loser="<@2>",
        winner_seed=1, loser_seed=2, score="38–38",
    )  # fmt: skip
    double = dataclasses.replace(CUP, format="double")
    assert "wins it" in (formats.draw_note(double, drawn(), [1, 2], NAMES, "en", mention=False) or "")


def test_no_note_without_a_draw_and_a_plain_one_without_a_score() -> None:
    won = dataclasses.replace(drawn(), result={"how": "played", "ranks": [1, 2], "scores": [40, 38]})
    assert formats.draw_note(CUP, won, [1, 2], NAMES, "en", mention=False) is None
    swiss = dataclasses.replace(CUP, format="swiss")
    assert formats.draw_note(swiss, drawn(), [1, 2], NAMES, "en", mention=False) is None
    closed = formats.draw_note(CUP, drawn("abandoned"), [1, 2], NAMES, "zh-TW", mention=False)
    assert closed == t(
        "tournament.draw.no-winner", "zh-TW", match="決賽", winner="Ann", loser="Bob", winner_seed=1, loser_seed=2
    )


def test_a_walkover_names_who_won_it_and_who_dropped_out() -> None:
    walkover = Pairing(
        1, 0, (1, 2), "W1-1", 1,
        result={"how": "walkover", "ranks": [2, 1], "scores": [0, 0], "won": [False, True], "forfeited": [True, False]},
    )  # fmt: skip
    line = formats.pairing_line(CUP, walkover, NAMES, "en", mention=False)
    assert line == "Final: won without playing by Bob (Ann dropped out)."
    assert formats.pairing_line(CUP, walkover, NAMES, "zh-TW", mention=True) == "決賽：<@1> 已退出，<@2> 不戰而勝。"
