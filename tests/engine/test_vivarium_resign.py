"""Vivarium's extensions: resigning (docs/ENGINE-EXTENSIONS.md) and the revealing events for undo."""

from __future__ import annotations

import copy
import random

import pytest

from engine import GAMES
from engine.vivarium import rounds
from engine.vivarium.scoring import score
from services.game_service import GameService
from tests.support import resign

G = GAMES["vivarium"]

# Every event type Vivarium emits that shows nothing hidden and no random outcome. A new event
# type must be added here or to ``Vivarium.revealing_events``; the tests below fail otherwise.
NON_REVEALING = {
    "swap",
    "gem spent",
    "gems taken",
    "card taken",
    "ability",
    "column cleared",
    "priority awarded",
    "round ended",
    "player resigned",
}
MUST_REVEAL = {
    "first player",
    "setup",
    "starting contracts",
    "grid refilled",
    "priority revealed",
    "tokens flipped",
    "game over",
}
PARTS = ("creatures", "gems", "priority tokens", "contracts", "starting contracts", "equipment")


def midgame(players: int, seed: int, steps: int = 30):
    return resign.midgame(G, players, seed, steps)


def final_scores(state) -> list[int]:
    return [
        score(state.collections[s], state.gems[s], state.priority_won[s], state.starting[s])["total"]
        for s in range(state.players)
    ]


def check_resignation(state, seat: int) -> None:
    events, outcome = resign.resign_and_check(state, seat, final_scores(state), final_type="game over")
    assert events[-1]["starting"] == state.starting
    others = resign.others(state, seat)
    # The others keep the rulebook's final score of their collections; the highest share the win.
    assert outcome.winners == resign.expected_winners(state, outcome.scores, seat)
    assert outcome.scores[seat] < min(outcome.scores[s] for s in others)
    detail = outcome.details[seat]
    assert sum(detail[p] for p in PARTS) + detail["resignation"] == detail["total"]
    resign.check_saved_resignation(G, state, seat, outcome)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_not_to_move_resigns_mid_game(players: int, seed: int) -> None:
    state = midgame(players, seed, steps=20 + 9 * seed)
    waiting = [s for s in range(state.players) if s not in state.to_move()]
    check_resignation(state, waiting[seed % len(waiting)])


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_seat_to_move_resigns_mid_game(players: int, seed: int) -> None:
    state = midgame(players, seed, steps=35 + 6 * seed)
    check_resignation(state, state.to_move()[0])


@pytest.mark.parametrize("phase", ["swap", "take", "ability"])
def test_resigning_in_any_step(phase: str) -> None:
    for seed in range(300):
        state = G.new(2 + seed % 3, seed)
        rng = random.Random(seed)
        while state.outcome() is None and state.phase != phase:
            resign.step(state, rng)
        if state.phase == phase:
            break
    else:
        pytest.skip(f"no game reached the {phase} step")
    check_resignation(state, state.to_move()[0])


def test_resigning_before_the_first_move() -> None:
    state = G.new(3, 9)
    check_resignation(state, 2)
    assert sorted(state.outcome().winners) == [0, 1]  # nobody has a thing yet: 1 gem each


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_leader_who_resigns_still_ranks_last(players: int) -> None:
    for seed in range(100):
        state = midgame(players, seed, steps=20 * players)
        scores = final_scores(state)
        leader = max(range(players), key=lambda s: scores[s])
        if sorted(scores)[-2] < scores[leader]:
            break
    else:
        pytest.skip("no position with a single leader found")
    check_resignation(state, leader)
    assert state.outcome().scores[leader] == min(state.outcome().scores)


def test_resigning_a_finished_game_or_a_bad_seat_is_refused_and_changes_nothing() -> None:
    resign.check_bad_seats_and_finished_game_refused(G, 2, 5, bad_seats=(2, -1, "0", None))


def test_a_failing_resignation_leaves_the_state_unchanged(monkeypatch) -> None:
    resign.check_failing_resignation_changes_nothing(monkeypatch, midgame(3, 4), rounds, "final_details")


def test_a_save_from_before_resigning_existed_still_loads() -> None:
    resign.check_save_without_resigned_loads(G, midgame(3, 2))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(resigned=7), "'resigned'"),
        (lambda d: d.update(resigned=True), "'resigned'"),
        (lambda d: d.update(resigned=d["result"]["winners"][0]), "not among its winners"),
    ],
)
def test_a_damaged_resignation_is_refused(damage, message: str) -> None:
    resign.check_damaged_resignation_refused(G, midgame(3, 1), damage, message)


# -- revealing events ----------------------------------------------------------------------------
def hidden(state) -> tuple:
    """What nobody (or only one seat) can see: the decks, the priority stack and the tokens back in
    the box, the face-down chain token, the starting contracts."""
    return (
        copy.deepcopy(state.decks),
        list(state.priority_stack),
        list(state.priority_removed),
        state.facedown,
        copy.deepcopy(state.starting),
    )


def test_every_event_type_is_classified_and_quiet_events_reveal_nothing() -> None:
    guard = resign.EventGuard(G.revealing_events, NON_REVEALING, hidden)
    guard.check_sets(MUST_REVEAL)
    seen: set[str] = set()
    for players in range(2, 5):
        for seed in range(12):
            state = G.new(players, seed)
            seen |= {e["type"] for e in state.setup_events}
            guard.check_events(state.setup_events)
            guard.play_out(state, random.Random(seed), seen)
            if seed == 0:
                seen |= {e["type"] for e in G.new(players, 1).resign(0)}
    assert seen == guard.classified


def test_undo_after_the_compulsory_swap_but_not_after_a_reveal_or_the_turn() -> None:
    service = GameService(db=None)
    state = G.new(2, 11)
    seat = state.to_move()[0]
    events = state.apply(seat, state.legal_actions(seat)[0])
    assert [e["type"] for e in events] == ["swap"]
    assert state.to_move() == [seat]
    assert service.undoable("vivarium", seat, state, events)  # same player, nothing shown
    events = state.apply(seat, "gems")
    assert not service.undoable("vivarium", seat, state, events)  # the turn has passed on
    # Two players: whoever ends a round also starts the next, but the refilled grid is shown.
    rng = random.Random(11)
    while True:
        mover = state.to_move()[0]
        events = resign.step(state, rng)
        if any(e["type"] == "grid refilled" for e in events):
            break
    assert state.to_move() == [mover]
    assert not service.undoable("vivarium", mover, state, events)
