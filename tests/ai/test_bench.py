"""The bench scripts run end to end (bench/ai.py, bench/balance.py, bench/greedy.py): two games
each, easy computers, one job, so the closing notes' commands are known to work."""

from __future__ import annotations

import random

from ai.ismcts import playable
from bench import ai as bench_ai
from bench import balance
from bench.greedy import greedy
from engine import GAMES


def test_the_match_bench_prints_win_rates_with_their_n_decision_times_and_game_length(capsys) -> None:
    bench_ai.main(["--game", "vivarium", "--games", "2", "--jobs", "1", "--match", "easy:random"])
    out = capsys.readouterr().out
    assert "2 games per match" in out
    assert "easy vs random: easy wins" in out and "/2 = " in out and "95 %" in out
    assert "easy decisions (" in out and "CPU p50" in out and "p99" in out
    assert "length mean" in out


def test_the_fox_duet_matrix_is_each_levels_team_at_each_game_level() -> None:
    teams = bench_ai.matrix("fox-duet", 2)
    assert len(teams) == 9 and len({(a, b, o["level"]) for a, b, o in teams}) == 9
    assert {(a, b) for a, b, _ in teams} == {("hard", "hard"), ("normal", "normal"), ("easy", "easy")}
    assert {o["level"] for _, _, o in teams} == {1, 2, 3}
    assert [m[:2] for m in bench_ai.matrix("noctiluca", 2)] == [
        ("hard", "random"),
        ("hard", "greedy"),
        ("hard", "normal"),
        ("normal", "easy"),
    ]


def test_the_balance_bench_prints_each_turn_position_and_the_solo_win_rate(capsys) -> None:
    balance.main(["--game", "vivarium", "--players", "2", "--games", "2", "--level", "easy", "--jobs", "1"])
    balance.main(["--game", "noctiluca", "--players", "1", "--games", "2", "--level", "random", "--jobs", "1"])
    out = capsys.readouterr().out
    assert "N = 2 games per row" in out
    assert "position 1" in out and "position 2" in out
    assert "solo wins" in out


def test_the_vivarium_greedy_player_moves_legally_through_a_whole_game() -> None:
    state = GAMES["vivarium"].new(2, 8, {})
    rng = random.Random(8)
    for _ in range(60):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        action = greedy("vivarium", state, seat, rng)
        assert action in playable(state, seat)
        state.apply(seat, action)


def test_a_logged_run_is_summed_up_from_its_log_each_game_once(capsys, tmp_path) -> None:
    """--log writes a line per finished game; --start plays later games of the same match; a game
    logged twice counts once in --summary. Noctiluca's rows carry its calibration measures."""
    log = str(tmp_path / "match.jsonl")
    for start in (0, 1, 1):
        bench_ai.main(
            ["--game", "vivarium", "--games", "1", "--start", str(start), "--jobs", "1"]
            + ["--match", "easy:random", "--log", log]
        )
    capsys.readouterr()
    bench_ai.main(["--summary", log])
    summed = capsys.readouterr().out
    assert "easy vs random: easy wins" in summed and "/2 = " in summed and "/3" not in summed
    rows = str(tmp_path / "balance.jsonl")
    balance.main(
        ["--game", "noctiluca", "--players", "2", "--games", "1", "--level", "random", "--jobs", "1", "--log", rows]
    )
    balance.main(
        [
            "--game",
            "noctiluca",
            "--players",
            "2",
            "--games",
            "1",
            "--start",
            "1",
            "--level",
            "random",
            "--jobs",
            "1",
            "--log",
            rows,
        ]
    )
    capsys.readouterr()
    balance.main(["--summary", rows])
    out = capsys.readouterr().out
    assert "[random] noctiluca" in out and "N=2" in out
    assert "jars delivered" in out and "round 2 short" in out


def test_the_pace_bench_times_the_computers_turns_by_their_cpu() -> None:
    """bench/pace.py --cpu (the emulator run is the same table, played through the bot)."""
    from bench import pace

    measured = pace.cpu_measure("vivarium", 2, "easy", turns=2, seed=3)
    assert len(measured.to_turn) == 2 and measured.to_board, "two waits of Alice's, each of computer turns"
    assert all(0 < spent < 60 for spent in measured.to_board)
    assert sum(measured.to_turn) <= sum(measured.to_board) + 1e-9
    summary = measured.summary()
    assert summary["turn"]["p50"] is not None and summary["turn"]["max"] >= summary["turn"]["p50"]
