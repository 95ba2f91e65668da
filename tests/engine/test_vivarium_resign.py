"""Vivarium's extensions: resigning (docs/ENGINE-EXTENSIONS.md) and the revealing events for undo."""

from __future__ import annotations

import copy
import json
import random

import pytest

from bot.service import GameService
from engine import GAMES, IllegalAction
from engine.vivarium import rounds
from engine.vivarium.scoring import score

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


def step(state, rng: random.Random) -> list[dict]:
    seat = rng.choice(state.to_move())
    return state.apply(seat, rng.choice(state.legal_actions(seat)))


def midgame(players: int, seed: int, steps: int = 30):
    state = G.new(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        before = state.to_dict()
        step(state, rng)
        if state.outcome() is not None:
            return G.load(before)
    return state


def final_scores(state) -> list[int]:
    return [
        score(state.collections[s], state.gems[s], state.priority_won[s], state.starting[s])["total"]
        for s in range(state.players)
    ]


def check_resignation(state, seat: int) -> None:
    scored = final_scores(state)
    version = state.version
    events = state.resign(seat)
    assert state.version == version + 1
    assert state.to_move() == []
    assert all(state.legal_actions(s) == [] for s in range(state.players))
    outcome = state.outcome()
    assert outcome is not None
    assert events[0] == {"type": "player resigned", "visible_to": None, "seat": seat}
    final = events[-1]
    assert final["type"] == "game over" and final["resigned"] == seat
    assert final["scores"] == outcome.scores and final["winners"] == outcome.winners
    assert final["starting"] == state.starting
    others = [s for s in range(state.players) if s != seat]
    assert seat not in outcome.winners
    # The others keep the rulebook's final score of their collections; the highest share the win.
    for s in others:
        assert outcome.scores[s] == scored[s] == outcome.details[s]["total"]
        assert "resignation" not in outcome.details[s]
    best = max(outcome.scores[s] for s in others)
    assert outcome.winners == [s for s in others if outcome.scores[s] == best]
    assert outcome.scores[seat] < min(outcome.scores[s] for s in others)
    detail = outcome.details[seat]
    assert detail["resignation"] <= 0
    assert detail["total"] == outcome.scores[seat] == scored[seat] + detail["resignation"]
    assert sum(detail[p] for p in PARTS) + detail["resignation"] == detail["total"]
    assert state.view(None)["public"]["resigned"] == seat
    data = json.loads(json.dumps(state.to_dict()))
    loaded = G.load(data)
    assert loaded.to_dict() == state.to_dict()
    assert loaded.resigned == seat and loaded.to_move() == []
    assert loaded.outcome() == outcome
    for s in range(state.players):
        with pytest.raises(IllegalAction, match="over"):
            loaded.resign(s)
    assert loaded.to_dict() == data


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
            step(state, rng)
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
    state = G.new(2, 5)
    rng = random.Random(5)
    for bad in (2, -1, "0", None):
        with pytest.raises(IllegalAction):
            state.resign(bad)
    while state.outcome() is None:
        step(state, rng)
    before = state.to_dict()
    for seat in (0, 1):
        with pytest.raises(IllegalAction, match="over"):
            state.resign(seat)
    assert state.to_dict() == before and state.resigned is None


def test_a_failing_resignation_leaves_the_state_unchanged(monkeypatch) -> None:
    state = midgame(3, 4)
    before = state.to_dict()

    def broken(_state):
        raise IllegalAction("no")

    monkeypatch.setattr(rounds, "final_details", broken)
    with pytest.raises(IllegalAction):
        state.resign(1)
    assert state.to_dict() == before
    assert state.outcome() is None


def test_a_save_from_before_resigning_existed_still_loads() -> None:
    data = midgame(3, 2).to_dict()
    del data["resigned"]
    assert G.load(data).resigned is None


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(resigned=7), "'resigned'"),
        (lambda d: d.update(resigned=True), "'resigned'"),
        (lambda d: d.update(resigned=d["result"]["winners"][0]), "not among its winners"),
    ],
)
def test_a_damaged_resignation_is_refused(damage, message: str) -> None:
    state = midgame(3, 1)
    state.resign(1)
    data = json.loads(json.dumps(state.to_dict()))
    broken = copy.deepcopy(data)
    damage(broken)
    with pytest.raises(ValueError, match=message):
        G.load(broken)
    with pytest.raises(ValueError, match="'resigned'"):
        G.load({**midgame(3, 1).to_dict(), "resigned": 1})


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
    revealing = G.revealing_events
    assert not revealing & NON_REVEALING
    assert MUST_REVEAL <= revealing
    seen: set[str] = set()
    for players in range(2, 5):
        for seed in range(12):
            state = G.new(players, seed)
            rng = random.Random(seed)
            seen |= {e["type"] for e in state.setup_events}
            for e in state.setup_events:
                assert e["visible_to"] is None or e["type"] in revealing
            while state.outcome() is None:
                rng_before, hidden_before = state.rng.state, hidden(state)
                events = step(state, rng)
                seen |= {e["type"] for e in events}
                for e in events:
                    assert e["type"] in revealing | NON_REVEALING, f"unclassified event type {e['type']!r}"
                    assert e["visible_to"] is None or e["type"] in revealing, e["type"]
                if all(e["type"] in NON_REVEALING for e in events):
                    assert state.rng.state == rng_before, [e["type"] for e in events]
                    assert hidden(state) == hidden_before, [e["type"] for e in events]
            if seed == 0:
                seen |= {e["type"] for e in G.new(players, 1).resign(0)}
    assert seen == revealing | NON_REVEALING


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
        events = step(state, rng)
        if any(e["type"] == "grid refilled" for e in events):
            break
    assert state.to_move() == [mover]
    assert not service.undoable("vivarium", mover, state, events)
