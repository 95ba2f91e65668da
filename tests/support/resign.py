"""Shared checks for the engine extensions every game implements the same way: resigning and the
revealing events that decide whether an action may be undone (docs/ENGINE-EXTENSIONS.md).

Each game's test module keeps its own data (its quiet event types, the parts of a score, what it
hides) and its own rules (how winners are broken, what else a resignation clears); the helpers
here hold what does not depend on the game:

- playing: ``step`` and ``midgame`` drive a game with random legal actions;
- resigning: ``resign_and_check`` and ``check_saved_resignation`` check a resignation and its save,
  ``expected_winners`` the winners among the seats still playing;
- refusals: ``check_bad_seats_and_finished_game_refused``, ``check_failing_resignation_changes_nothing``,
  ``check_save_without_resigned_loads`` and ``check_damaged_resignation_refused``;
- revealing events: ``EventGuard`` checks that every event type is classified and that a quiet
  action (one undo may take back) draws nothing at random and shows nothing hidden.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import pytest

from engine import Game, IllegalAction, Outcome, State


# -- playing -------------------------------------------------------------------------------------
def step(state: State, rng: random.Random) -> list[dict]:
    """One random legal action of a random seat to move; the events it emitted."""
    seat = rng.choice(state.to_move())
    return state.apply(seat, rng.choice(state.legal_actions(seat)))


def midgame(game: Game, players: int, seed: int, steps: int) -> State:
    """A running game after ``steps`` random actions (fewer if the game would end)."""
    state = game.new(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        before = state.to_dict()
        step(state, rng)
        if state.outcome() is not None:
            return game.load(before)
    return state


# -- resigning -----------------------------------------------------------------------------------
def others(state: State, seat: int) -> list[int]:
    """The seats still playing when ``seat`` resigns."""
    return [s for s in range(state.players) if s != seat]


def expected_winners(
    state: State, scores: list[int], resigned: int, tiebreak: Callable[[int], int] | None = None
) -> list[int]:
    """The winners among the seats still playing: the highest score, then (if given) the highest
    ``tiebreak(seat)``; a tie on both is shared."""
    rest = others(state, resigned)
    best = max(scores[s] for s in rest)
    tied = [s for s in rest if scores[s] == best]
    if tiebreak is None:
        return tied
    most = max(tiebreak(s) for s in tied)
    return [s for s in tied if tiebreak(s) == most]


def resign_and_check(state: State, seat: int, scored: list[int], *, final_type: str) -> tuple[list[dict], Outcome]:
    """``seat`` resigns; checks what every game promises and returns the events and the outcome.

    ``scored`` is the game's final scoring of the position before resigning, ``final_type`` the
    type of the game's last event (which carries the scores, the winners and the resigned seat).
    The game is over at once (a new version, nobody to move, no legal action), the first event
    says who resigned, the resigning seat does not win, the others keep their scores and the
    resigning seat's ``resignation`` part (0 or less) is all that changes its score."""
    version = state.version
    events = state.resign(seat)
    assert state.version == version + 1
    assert state.to_move() == []
    assert all(state.legal_actions(s) == [] for s in range(state.players))
    outcome = state.outcome()
    assert outcome is not None
    assert events[0] == {"type": "player resigned", "visible_to": None, "seat": seat}
    final = events[-1]
    assert final["type"] == final_type and final["resigned"] == seat
    assert final["scores"] == outcome.scores and final["winners"] == outcome.winners
    assert seat not in outcome.winners
    for s in others(state, seat):
        assert outcome.scores[s] == scored[s] == outcome.details[s]["total"]
        assert "resignation" not in outcome.details[s]
    detail = outcome.details[seat]
    assert detail["resignation"] <= 0
    assert detail["total"] == outcome.scores[seat] == scored[seat] + detail["resignation"]
    assert state.view(None)["public"]["resigned"] == seat
    return events, outcome


def check_saved_resignation(game: Game, state: State, seat: int, outcome: Outcome) -> None:
    """A saved resigned game loads back identically, still over, still resigned, and refuses
    another resignation from any seat without changing."""
    data = json.loads(json.dumps(state.to_dict()))
    loaded = game.load(data)
    assert loaded.to_dict() == state.to_dict()
    assert loaded.resigned == seat and loaded.to_move() == []
    assert loaded.outcome() == outcome
    for s in range(state.players):
        with pytest.raises(IllegalAction, match="over"):
            loaded.resign(s)
    assert loaded.to_dict() == data


# -- refusals ------------------------------------------------------------------------------------
def check_bad_seats_and_finished_game_refused(game: Game, players: int, seed: int, bad_seats: Iterable[Any]) -> None:
    """Resigning a seat that is not one is refused; so is resigning a game played to its end, by
    any seat, and the finished game is left as it was."""
    state = game.new(players, seed)
    rng = random.Random(seed)
    for bad in bad_seats:
        with pytest.raises(IllegalAction):
            state.resign(bad)
    while state.outcome() is None:
        step(state, rng)
    before = state.to_dict()
    for seat in range(players):
        with pytest.raises(IllegalAction, match="over"):
            state.resign(seat)
    assert state.to_dict() == before and state.resigned is None


def check_failing_resignation_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, state: State, module: Any, name: str
) -> None:
    """With ``module.name`` (the final scoring the resignation uses) broken, seat 1's resignation
    fails and leaves ``state`` exactly as it was: still running, nobody resigned."""
    before = state.to_dict()

    def broken(_state):
        raise IllegalAction("no")

    monkeypatch.setattr(module, name, broken)
    with pytest.raises(IllegalAction):
        state.resign(1)
    assert state.to_dict() == before
    assert state.outcome() is None and state.resigned is None


def check_save_without_resigned_loads(game: Game, state: State) -> tuple[State, dict]:
    """A save of ``state`` from before resigning existed (no ``resigned`` key) loads, with nobody
    resigned; returns the loaded game and the save."""
    data = state.to_dict()
    del data["resigned"]
    loaded = game.load(data)
    assert loaded.resigned is None
    return loaded, data


def check_damaged_resignation_refused(game: Game, state: State, damage: Callable[[dict], Any], message: str) -> None:
    """Seat 1 resigns the running 3-player game ``state``; its save, damaged by ``damage``, is
    refused with ``message``. A running game's save that claims a resignation is refused too."""
    running = json.loads(json.dumps(state.to_dict()))
    state.resign(1)
    data = json.loads(json.dumps(state.to_dict()))
    broken = copy.deepcopy(data)
    damage(broken)
    with pytest.raises(ValueError, match=message):
        game.load(broken)
    with pytest.raises(ValueError, match="'resigned'"):
        game.load({**running, "resigned": 1})


# -- revealing events ----------------------------------------------------------------------------
def types(events: Iterable[dict]) -> list[str]:
    return [e["type"] for e in events]


@dataclass(frozen=True)
class EventGuard:
    """The classification guard of a game's event types.

    ``revealing`` is the game's ``revealing_events`` (undo is refused after one of them),
    ``non_revealing`` the test's list of the event types that show nothing hidden and no random
    outcome, and ``hidden(state)`` what nobody (or only one seat) can see. Every event type the
    game emits must be in exactly one of the two sets, and only a revealing event may be private."""

    revealing: frozenset[str]
    non_revealing: frozenset[str] | set[str]
    hidden: Callable[[State], Any]

    def check_sets(self, must_reveal: set[str]) -> None:
        """The two sets do not overlap, and the events that must reveal are revealing."""
        assert not self.revealing & self.non_revealing
        assert must_reveal <= self.revealing

    @property
    def classified(self) -> frozenset[str] | set[str]:
        """Every event type the game may emit."""
        return self.revealing | self.non_revealing

    def check_events(self, events: Iterable[dict]) -> None:
        """Each event's type is classified; a private event is a revealing one."""
        for e in events:
            assert e["type"] in self.classified, f"unclassified event type {e['type']!r}"
            assert e["visible_to"] is None or e["type"] in self.revealing, e["type"]

    def check_action(
        self, state: State, seat: int, action: Any, seen: set[str], *, unless_over: bool = False
    ) -> list[dict]:
        """``seat`` plays ``action``; its events are classified (their types are added to
        ``seen``) and, if all are quiet, the random generator and the hidden parts did not change
        (with ``unless_over``, not checked on the action that ends the game). Returns the events."""
        rng_before, hidden_before = state.rng.state, self.hidden(state)
        events = state.apply(seat, action)
        seen |= set(types(events))
        self.check_events(events)
        if unless_over and state.outcome() is not None:
            return events
        if all(e["type"] in self.non_revealing for e in events):
            # An action undo could take back drew nothing at random and showed nothing hidden.
            assert state.rng.state == rng_before, (action, types(events))
            assert self.hidden(state) == hidden_before, (action, types(events))
        return events

    def play_out(self, state: State, rng: random.Random, seen: set[str], *, unless_over: bool = False) -> None:
        """Plays random legal actions (as ``step`` does) to the end, each through ``check_action``."""
        while state.outcome() is None:
            seat = rng.choice(state.to_move())
            self.check_action(state, seat, rng.choice(state.legal_actions(seat)), seen, unless_over=unless_over)
