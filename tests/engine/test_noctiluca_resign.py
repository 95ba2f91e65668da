"""Noctiluca's extensions: resigning (docs/ENGINE-EXTENSIONS.md) and the revealing events for undo."""

from __future__ import annotations

import copy
import random

import pytest

from engine import GAMES
from engine.noctiluca import scoring
from services.game_service import GameService
from tests.support import resign

G = GAMES["noctiluca"]

# Every event type Noctiluca emits that shows nothing hidden and no random outcome. A new event
# type must be added here or to ``Noctiluca.revealing_events``; the tests below fail otherwise.
NON_REVEALING = {
    "pawn placed",
    "path chosen",
    "dive",
    "stored",
    "passing",
    "dice passed",
    "declined",
    "to lid",
    "to storm",
    "delivered",
    "no jar left",
    "choosing jar",
    "jar choice made",
    "turn",
    "round ended",
    "round started",
    "storm turns",
    "player resigned",
}
MUST_REVEAL = {
    "board filled",
    "first player",
    "deck formed",
    "piles formed",
    "jars revealed",
    "new jar",
    "storm discard",
    "storm roll",
    "final scores",
}


def midgame(players: int, seed: int, steps: int = 30):
    return resign.midgame(G, players, seed, steps)


def check_resignation(state, seat: int) -> None:
    scored = scoring.score(G.load(state.to_dict()))
    _, outcome = resign.resign_and_check(state, seat, scored["scores"], final_type="final scores")
    others = resign.others(state, seat)
    # The others keep the rulebook's final scoring of the position; the resigning seat is below all.
    if others:
        assert outcome.scores[seat] < min(outcome.scores[s] for s in others)
        # The rulebook's winners: the highest score, then the most delivered jars.
        assert outcome.winners == resign.expected_winners(
            state, outcome.scores, seat, lambda s: len(state.delivered[s])
        )
    else:
        assert outcome.winners == [] and outcome.scores[0] <= 0
    detail = outcome.details[seat]
    parts = ("majorities", "tokens", "jar points", "favourite", "leftovers", "storm tokens", "storm dice")
    assert sum(detail.get(p, 0) for p in parts) + detail["resignation"] == detail["total"]
    resign.check_saved_resignation(G, state, seat, outcome)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_not_to_move_resigns_mid_game(players: int, seed: int) -> None:
    state = midgame(players, seed, steps=25 + 7 * seed)
    waiting = [s for s in range(state.players) if s not in state.to_move()]
    assert waiting
    check_resignation(state, waiting[seed % len(waiting)])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_seat_to_move_resigns_mid_game(players: int, seed: int) -> None:
    state = midgame(players, seed, steps=40 + 5 * seed)
    check_resignation(state, state.to_move()[0])


def test_solo_resigning_is_a_loss_even_with_a_winning_score() -> None:
    state = midgame(1, 3, steps=20)
    for colour, stack in state.stacks.items():  # the diver has delivered well: tokens of each colour
        for _ in range(4):
            state.tokens[0].append([colour, stack.pop(0)])
    state = G.load(state.to_dict())
    assert scoring.score(state)["winners"] == [0]
    check_resignation(state, 0)
    assert state.outcome().winners == [] and state.outcome().scores == [0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_leader_who_resigns_still_ranks_last(players: int) -> None:
    for seed in range(200):
        state = midgame(players, seed, steps=80)
        scores = scoring.score(state)["scores"]
        leader = max(range(players), key=lambda s: scores[s])
        if sorted(scores)[-2] < scores[leader]:
            break
    else:
        pytest.skip("no position with a single leader found")
    check_resignation(state, leader)
    assert state.outcome().scores[leader] == min(state.outcome().scores)


@pytest.mark.parametrize("phase", ["keep", "store", "pass", "deliver", "pile", "draw", "path", "number"])
def test_resigning_in_any_step_keeps_every_component_in_one_place(phase: str) -> None:
    for seed in range(300):
        players = 1 if phase == "draw" else 2 + seed % 3
        state = G.new(players, seed)
        rng = random.Random(seed)
        while state.outcome() is None and state.phase != phase:
            resign.step(state, rng)
        if state.phase == phase:
            break
    else:
        pytest.skip(f"no game reached the {phase} step")
    seat = (state.to_move()[0] + 1) % state.players
    check_resignation(state, seat)


def test_resigning_a_finished_game_or_a_bad_seat_is_refused_and_changes_nothing() -> None:
    resign.check_bad_seats_and_finished_game_refused(G, 2, 5, bad_seats=(2, -1, "0"))


def test_a_failing_resignation_leaves_the_state_unchanged(monkeypatch) -> None:
    resign.check_failing_resignation_changes_nothing(monkeypatch, midgame(3, 4), scoring, "score")


def test_a_save_from_before_resigning_existed_still_loads() -> None:
    resign.check_save_without_resigned_loads(G, midgame(3, 2))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(resigned=0, phase="shore", result=None), "'resigned'"),
        (lambda d: d.update(resigned=7), "'resigned'"),
        (lambda d: d.update(resigned="1"), "'resigned'"),
        (lambda d: d.update(resigned=d["result"]["winners"][0]), "not among its winners"),
    ],
)
def test_a_damaged_resignation_is_refused(damage, message: str) -> None:
    resign.check_damaged_resignation_refused(G, midgame(3, 1), damage, message)


# -- revealing events ----------------------------------------------------------------------------
def hidden(state) -> tuple:
    """What nobody (or only one seat) can see: the order of each pile below its top, the deck,
    the favourites, the dealt and drawn jars."""
    return (
        [p[1:] for p in state.piles],
        list(state.deck),
        list(state.favourites),
        copy.deepcopy(state.pending.get("dealt")),
        copy.deepcopy(state.pending.get("offer")),
    )


def test_every_event_type_is_classified_and_quiet_events_reveal_nothing() -> None:
    guard = resign.EventGuard(G.revealing_events, NON_REVEALING, hidden)
    guard.check_sets(MUST_REVEAL)
    seen: set[str] = set()
    for players in range(1, 5):
        for seed in range(12):
            state = G.new(players, seed)
            seen |= {e["type"] for e in state.setup_events}
            guard.check_events(state.setup_events)
            guard.play_out(state, random.Random(seed), seen, unless_over=True)
            if seed == 0:
                seen |= {e["type"] for e in G.load(G.new(players, 1).to_dict()).resign(0)}
    unseen = guard.classified - seen
    assert unseen <= {"no jar left", "jar to bottom", "jars drawn", "choosing jar"}, unseen


def test_undo_is_allowed_for_a_quiet_step_and_refused_after_a_reveal() -> None:
    service = GameService(db=None)
    state = G.new(2, 3)
    for seat in range(2):
        dealt = state.pending["dealt"][seat]
        events = state.apply(seat, f"keep {dealt[0]} {dealt[1]}")
        # Keeping jars is secret (and the last keep reveals them all and forms the piles).
        assert not service.undoable("noctiluca", seat, state, events)
    seat = state.to_move()[0]
    shore = state.legal_actions(seat)[0]
    events = state.apply(seat, shore)
    assert [e["type"] for e in events] == ["pawn placed"]
    assert service.undoable("noctiluca", seat, state, events)  # same diver, nothing shown
    events = state.apply(seat, "path short")
    assert service.undoable("noctiluca", seat, state, events)
    # The solo storm's roll after a turn can never be taken back.
    solo = G.new(1, 4)
    dealt = solo.pending["dealt"][0]
    solo.apply(0, f"keep {dealt[0]} {dealt[1]}")
    rng = random.Random(4)
    while True:
        events = resign.step(solo, rng)
        if any(e["type"] == "storm roll" for e in events):
            break
    assert solo.to_move() == [0]
    assert not service.undoable("noctiluca", 0, solo, events)
