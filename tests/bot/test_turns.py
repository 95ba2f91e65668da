"""Turns (services/board_turns.py): which boards are one message, and whom a board notifies."""

from __future__ import annotations

import random

from engine import GAMES, Action, State
from services.board_turns import FIRST, STARTS, TURN, Shown, fit, merged, plan, turn_change


def play(state: State, seat: int, text: str) -> tuple[State, State, list]:
    before = GAMES[state.view(None)["public"]["game"]].load(state.to_dict())
    events = state.apply(seat, Action(text))
    return before, state, events


def first_dive(players: int, seed: int = 3) -> State:
    """A Noctiluca game whose set-up is over: the first diver picks a shore."""
    state = GAMES["noctiluca"].new(players, seed)
    while state.view(None)["public"]["phase"] == "keep":
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return state


def test_the_start_is_a_turn_for_everyone_to_move() -> None:
    state = GAMES["noctiluca"].new(3, 1)
    assert turn_change("noctiluca", None, state, []) == {TURN: True, STARTS: [0, 1, 2]}


def test_the_steps_of_a_dive_are_one_turn_and_the_next_dive_is_another() -> None:
    state = first_dive(2)
    diver = state.to_move()[0]
    changes = []
    while True:
        seat = state.to_move()[0]
        before, state, events = play(state, seat, state.legal_actions(seat)[0].text)
        changes.append(turn_change("noctiluca", before, state, events))
        if changes[-1][TURN]:
            break
    assert all(change == {TURN: False, STARTS: []} for change in changes[:-1]), changes
    assert len(changes) >= 3  # shore, path, number at least
    assert changes[-1][STARTS] == state.to_move() and state.to_move() != [diver]


def test_solo_every_dive_is_a_new_turn_of_the_same_seat() -> None:
    state = first_dive(1)
    turns = 0
    for _ in range(12):
        before, state, events = play(state, 0, state.legal_actions(0)[0].text)
        turns += turn_change("noctiluca", before, state, events)[TURN]
    assert state.to_move() == [0] and 2 <= turns <= 4


def test_a_seat_newly_to_move_starts_its_turn_and_a_simultaneous_step_does_not_restart() -> None:
    state = GAMES["tm-dice"].new(3, 1)  # the corporations are chosen by all three at once
    before, state, events = play(state, 0, state.legal_actions(0)[0].text)
    assert turn_change("tm-dice", before, state, events) == {TURN: False, STARTS: []}
    game = GAMES["fox-duet"]
    state, rng = game.new(2, 5), random.Random(2)
    for _ in range(30):
        seat = state.to_move()[0]
        fair = [a for a in state.legal_actions(seat) if game.action_kind(a) != "concede"]
        before, state, events = play(state, seat, rng.choice(fair).text)
        change = turn_change("fox-duet", before, state, events)
        newly = [s for s in state.to_move() if s not in before.to_move()]
        if before.view(None)["public"]["round"] == state.view(None)["public"]["round"]:
            assert change == {TURN: False, STARTS: newly}


def test_a_turn_begun_in_a_skipped_board_carries_into_the_board_that_replaces_it() -> None:
    assert merged([{TURN: True, STARTS: [1]}, {TURN: False, STARTS: []}], [7, 8]) == {TURN: True, STARTS: [1], FIRST: 7}
    assert merged([{TURN: False, STARTS: [0]}, {TURN: False, STARTS: [1], FIRST: 5}], [9, 10])[FIRST] == 5
    # A board from before turns were kept (no fields) began a turn, as every board did then.
    assert merged([{"events": []}, {TURN: False, STARTS: []}], [1, 2])[TURN] is True


def test_a_turn_that_begins_is_a_new_message_mentioning_the_people_to_move() -> None:
    shown = Shown(100, 4, frozenset({0}))
    assert plan({TURN: True, STARTS: [0, 1]}, shown, [0, 1], people=[0, 1], over=False).mention == (0, 1)
    decided = plan({TURN: False, STARTS: [1]}, shown, [1], people=[0, 1], over=False)
    assert decided.new and decided.mention == (1,)


def test_a_step_within_a_turn_edits_and_mentions_nobody() -> None:
    shown = Shown(100, 4, frozenset({0}))
    decided = plan({TURN: False, STARTS: []}, shown, [0], people=[0, 1], over=False)
    assert not decided.new and decided.mention == () and decided.notified == {0}


def test_a_person_asked_within_someone_elses_turn_gets_one_follow_up() -> None:
    shown = Shown(100, 4, frozenset({0}))
    asked = plan({TURN: False, STARTS: []}, shown, [1], people=[0, 1], over=False)
    assert asked.new and asked.mention == (1,)
    again = plan({TURN: False, STARTS: []}, Shown(101, 6, asked.notified), [1], people=[0, 1], over=False)
    assert not again.new and again.mention == ()


def test_whose_turn_goes_on_is_not_mentioned_when_another_turn_begins_beside_it() -> None:
    decided = plan({TURN: False, STARTS: [1]}, Shown(100, 4, frozenset({0})), [0, 1], people=[0, 1], over=False)
    assert decided.new and decided.mention == (1,)


def test_computers_are_never_mentioned_and_their_turn_is_a_message() -> None:
    decided = plan({TURN: True, STARTS: [1]}, Shown(100, 4, frozenset({0})), [1], people=[0], over=False)
    assert decided.new and decided.mention == ()
    step = plan({TURN: False, STARTS: []}, Shown(101, 5, frozenset()), [1], people=[0], over=False)
    assert not step.new


def test_the_final_board_is_a_new_message_that_mentions_nobody() -> None:
    assert plan({TURN: False, STARTS: []}, Shown(100, 4), [], people=[0, 1], over=True) == plan(
        {}, None, [], people=[0, 1], over=True
    )
    assert plan({TURN: False, STARTS: []}, Shown(100, 4), [], people=[0, 1], over=True).new


def test_no_message_to_edit_means_a_new_one() -> None:
    assert plan({TURN: False, STARTS: []}, None, [0], people=[0], over=False).new


def test_the_oldest_lines_give_way_to_the_message_limit() -> None:
    lines = [f"line {n:02d} " + "x" * 30 for n in range(10)]
    kept = fit(lines, ["whose turn"], 200)
    assert kept[-1] == "whose turn" and kept[-2] == lines[-1] and kept[0] == "\N{HORIZONTAL ELLIPSIS}"
    assert len("\n".join(kept)) <= 200
    assert fit(["a", "b"], ["c"], 2000) == ["a", "b", "c"]


def test_what_a_message_shows_round_trips_and_nonsense_reads_as_nothing() -> None:
    shown = Shown(5, 2, frozenset({1, 0}), ("a", "b"))
    assert Shown.from_dict(shown.to_dict()) == shown
    assert Shown.from_dict(None) is None and Shown.from_dict({"message": "x"}) is None
