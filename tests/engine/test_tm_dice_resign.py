"""Terraforming Mars: The Dice Game's extensions: resigning (docs/ENGINE-EXTENSIONS.md) and the
revealing events for undo."""

from __future__ import annotations

import random

import pytest

from engine import GAMES, IllegalAction
from engine.tm_dice import scoring
from engine.tm_dice.content import HEXES, PARAMETERS, TRACKS
from services.game_service import GameService
from services.wording.tm_dice import TMDiceAdapter
from tests.engine.test_tm_dice_rules import position
from tests.support import resign

G = GAMES["tm-dice"]

# Every event type tm-dice emits that shows nothing hidden and no random outcome. A new event type
# must be added here or to ``TMDice.revealing_events``; the tests below fail otherwise.
NON_REVEALING = {
    "action skipped",
    "attack",
    "blue cards readied",
    "card used",
    "corporation chosen",
    "dice kept",
    "dice left",
    "dice returned",
    "die discarded",
    "die lost",
    "die taken",
    "die turned",
    "end triggered",
    "general action",
    "gift",
    "milestone claimed",
    "milestone removed",
    "no loss",
    "paid",
    "parameter completed",
    "parameter maxed",
    "parameter raised",
    "player resigned",
    "pool short",
    "skipped",
    "tile placed",
    "track bonus",
    "turn kind",
    "turn started",
    "vp",
    "wild gained",
}
MUST_REVEAL = {
    "awards rolled",
    "milestones drawn",
    "dealt",
    "corporation kept",
    "corporation revealed",
    "die rolled",
    "cards drawn",
    "deck reshuffled",
    "card played",
    "card discarded",
    "bonus earned",
    "bonus cards shown",
    "bonus played",
    "game over",
}
PARTS = ("terraforming and tiles", "awards", "milestones", "card vp")


def midgame(players: int, seed: int, steps: int = 60):
    return resign.midgame(G, players, seed, steps)


def check_resignation(state, seat: int) -> None:
    scored = [d["total"] for d in scoring.final_details(G.load(state.to_dict()))]
    events, outcome = resign.resign_and_check(state, seat, scored, final_type="game over")
    assert state.stage == "over" and state.resigned == seat
    for s in range(state.players):
        with pytest.raises(IllegalAction, match="over"):
            state.apply(s, "production")
    assert all(e["visible_to"] is None for e in events)
    # Nothing is left mid-step: no queue, hands discarded, every card and die accounted for.
    assert state.queue == [] and all(p["hand"] == [] for p in state.seats)
    others = resign.others(state, seat)
    # The others keep the rules' final scoring of the position.
    for s in others:
        assert sum(outcome.details[s][p] for p in PARTS) == outcome.details[s]["total"]
    detail = outcome.details[seat]
    assert sum(detail[p] for p in PARTS) + detail["resignation"] == detail["total"]
    if others:
        lowest = min(outcome.scores[s] for s in others)
        assert outcome.scores[seat] == min(scored[seat], lowest - 1)
        # The rules' winners: the highest score, then the most production dice.
        assert outcome.winners == resign.expected_winners(
            state, outcome.scores, seat, lambda s: scoring.production_count(state, s)
        )
    else:  # solo: a loss, a score of 0
        assert outcome.winners == [] and outcome.scores == [0]
        assert "all parameters" in detail
    resign.check_saved_resignation(G, state, seat, outcome)


# -- resigning -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_not_to_move_resigns_mid_game(players: int, seed: int) -> None:
    state = midgame(players, seed, steps=40 + 60 * seed)
    assert state.stage == "play"
    waiting = [s for s in range(state.players) if s not in state.to_move()]
    check_resignation(state, waiting[seed % len(waiting)])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_seat_to_move_resigns_mid_game(players: int, seed: int) -> None:
    state = midgame(players, seed, steps=30 + 70 * seed)
    assert state.stage == "play"
    check_resignation(state, state.to_move()[0])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resigning_late_in_the_game(players: int) -> None:
    """Near the end: milestones claimed, awards contested, cards with end VP on the table."""
    for seed in range(20):
        state = G.new(players, seed)
        rng = random.Random(seed)
        while state.outcome() is None and state.end_at is None:
            resign.step(state, rng)
        if state.outcome() is None:
            break
    else:
        pytest.skip("no game reached its last round")
    check_resignation(state, (state.to_move()[0] + 1) % players)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_resigning_while_corporations_are_chosen(players: int) -> None:
    """Before the game began: the corporations go back unrevealed, nobody has a point or a
    production die, so every other seat shares the win."""
    state = G.new(players, 7)
    state.apply(0, state.legal_actions(0)[0])  # seat 0 has chosen in secret
    if players > 1:
        check_resignation(state, 0)  # not to move any more
        assert sorted(state.outcome().winners) == list(range(1, players))
    else:
        assert state.stage == "play"
        state = G.new(1, 7)
        check_resignation(state, 0)
    assert all(s["corporation"] is None for s in state.view(None)["public"]["seats"])
    assert all(p["corp"] is None and p["offer"] == [] for p in state.seats)
    fresh = G.new(players, 8)
    check_resignation(fresh, players - 1)  # to move


def test_the_seat_to_move_resigns_before_choosing_while_others_have_chosen() -> None:
    state = G.new(3, 4)
    state.apply(0, state.legal_actions(0)[0])
    state.apply(2, state.legal_actions(2)[1])
    assert state.to_move() == [1]
    check_resignation(state, 1)
    assert state.outcome().winners == [0, 2]
    assert state.outcome().scores == [0, -1, 0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_leader_who_resigns_still_ranks_last(players: int) -> None:
    for seed in range(60):
        state = midgame(players, seed, steps=300)
        scores = [d["total"] for d in scoring.final_details(state)]
        leader = max(range(players), key=lambda s: scores[s])
        if sorted(scores)[-2] < scores[leader]:
            break
    else:
        pytest.skip("no position with a single leader found")
    check_resignation(state, leader)
    outcome = state.outcome()
    assert outcome.scores[leader] == min(outcome.scores)
    assert outcome.scores[leader] == min(outcome.scores[s] for s in range(players) if s != leader) - 1


def test_a_tie_among_the_others_goes_to_the_most_production_dice() -> None:
    """Ties (rules): most production dice; the resigning seat's own production does not count."""
    for seed in range(200):
        state = midgame(4, seed, steps=4 + seed % 30)
        if state.stage != "play":
            continue
        scores = [d["total"] for d in scoring.final_details(state)]
        others = [1, 2, 3]
        best = max(scores[s] for s in others)
        tied = [s for s in others if scores[s] == best]
        production = {s: scoring.production_count(state, s) for s in tied}
        if len(tied) > 1 and len(set(production.values())) > 1:
            break
    else:
        pytest.skip("no tie with different production found")
    check_resignation(state, 0)
    top = max(production.values())
    assert state.outcome().winners == [s for s in tied if production[s] == top]
    assert len(state.outcome().winners) < len(tied)


def test_solo_resigning_is_a_loss_even_with_every_parameter_complete() -> None:
    state = midgame(1, 5, steps=50)
    for p in ("temperature", "oxygen"):
        setattr(state, p, TRACKS[p]["steps"])
    for label, info in HEXES.items():
        if info["area"] == "ocean" and label not in state.tiles:
            state.tiles[label] = {"tile": "ocean", "owner": None}
    state.oceans = TRACKS["oceans"]["steps"]
    state = G.load(state.to_dict())
    assert all(getattr(state, p) >= TRACKS[p]["steps"] for p in PARAMETERS)
    total = scoring.final_details(state)[0]["total"]
    assert total > 0
    check_resignation(state, 0)
    detail = state.outcome().details[0]
    assert detail["all parameters"] is True and detail["resignation"] == -total


def test_resigning_a_finished_game_or_a_bad_seat_is_refused_and_changes_nothing() -> None:
    for players in (1, 2):
        resign.check_bad_seats_and_finished_game_refused(G, players, 5, bad_seats=(players, -1, "0", None, True))


@pytest.mark.parametrize("steps", [1, 120])
def test_a_failing_resignation_leaves_the_state_unchanged(monkeypatch, steps: int) -> None:
    """Also while corporations are chosen, where resigning first puts them back."""
    resign.check_failing_resignation_changes_nothing(monkeypatch, midgame(3, 4, steps=steps), scoring, "final_details")


def test_a_save_from_before_resigning_existed_still_loads() -> None:
    loaded, data = resign.check_save_without_resigned_loads(G, midgame(3, 2))
    assert loaded.to_dict() == {**data, "resigned": None}


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(resigned=7), "'resigned'"),
        (lambda d: d.update(resigned=-1), "'resigned'"),
        (lambda d: d.update(resigned=True), "'resigned'"),
        (lambda d: d.update(resigned="1"), "'resigned'"),
        (lambda d: d.update(resigned=d["result"]["winners"][0]), "not among its winners"),
    ],
)
def test_a_damaged_resignation_is_refused(damage, message: str) -> None:
    resign.check_damaged_resignation_refused(G, midgame(3, 1), damage, message)


def test_the_outcome_is_worded_with_the_resignation() -> None:
    adapter = TMDiceAdapter()
    names = ["Ann", "Bob", "Cy"]
    state = midgame(3, 3, steps=200)
    state.resign(2)
    lines = adapter.outcome_lines(state.outcome(), names, "en")
    assert len(lines) == 5 and "for resigning" in lines[3]
    assert all("{" not in line for line in lines)
    solo = midgame(1, 3, steps=100)
    events = solo.resign(0)
    lines = adapter.outcome_lines(solo.outcome(), names[:1], "en")
    assert "resigned" in lines[-1] and all("{" not in line for line in lines)
    for e in events:
        line = adapter.describe_event(e, names[:1], "en")
        assert line is None or (line and "{" not in line)


# -- revealing events ----------------------------------------------------------------------------
def hidden(state) -> tuple:
    """What nobody (or only one seat) can see, and the random generator: the deck, the discard
    pile, the bonus cards, the hands, the corporations offered (and chosen, before the reveal),
    and each seat's private view (the bonus cards it looks at)."""
    return (
        state.rng.state,
        list(state.deck),
        list(state.discard),
        list(state.bonus_deck),
        [list(p["hand"]) for p in state.seats],
        [list(p["offer"]) for p in state.seats],
        [p["corp"] for p in state.seats] if state.stage == "corp" else None,
        [state.private_view(s) for s in range(state.players)],
    )


def test_every_event_type_is_classified_and_quiet_events_reveal_nothing() -> None:
    guard = resign.EventGuard(G.revealing_events, NON_REVEALING, hidden)
    guard.check_sets(MUST_REVEAL)
    seen: set[str] = set()
    for players in range(1, 5):
        for seed in range(5):
            state = G.new(players, seed)
            rng = random.Random(seed)
            seen |= {e["type"] for e in state.setup_events}
            for e in state.setup_events:
                assert e["type"] in guard.revealing
            while state.outcome() is None:
                seat = rng.choice(state.to_move())
                guard.check_action(state, seat, str(rng.choice(state.legal_actions(seat))), seen)
        seen |= {e["type"] for e in midgame(players, 1, steps=80).resign(0)}
    # The rare one: no support and no main action possible at all (adaptation 4).
    s = position(2)
    for colour in s.pool:
        s.pool[colour] = 0
    s.seats[1]["dice"] = {"heat": 12, "water": 12, "plant": 12, "city": 12, "money": 12}
    s.queue.append({"kind": "turn", "seat": 0})
    for action in ("action", "skip", "skip"):
        guard.check_action(s, 0, action, seen)
    assert seen == guard.classified, seen ^ guard.classified


def test_undo_after_a_public_choice_but_not_after_a_die_roll() -> None:
    service = GameService(db=None)
    state = G.new(2, 11)
    for seat in (0, 1):
        events = state.apply(seat, state.legal_actions(seat)[0])
        assert not service.undoable("tm-dice", seat, state, events)  # a secret choice, the reveal
    while state.queue[-1]["kind"] != "gift":  # the starting bonuses
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    # The first player gives one of their resources to the last: public, nothing random, and the
    # first player's turn starts at once.
    assert state.to_move() == [0]
    gift = next(a for a in state.legal_actions(0) if a.verb == "give")
    events = state.apply(0, gift)
    assert [e["type"] for e in events] == ["gift", "turn started"]
    assert state.to_move() == [0]
    assert service.undoable("tm-dice", 0, state, events)
    # Starting an action turn by rolling a die: the same player still acts, but the roll is shown.
    roll = next(a for a in state.legal_actions(0) if a.verb == "roll")
    events = state.apply(0, roll)
    assert "die rolled" in [e["type"] for e in events]
    assert state.to_move() == [0] and state.queue[-1]["kind"] == "main"
    assert not service.undoable("tm-dice", 0, state, events)
    # A general action paid with dice the player holds: public, same player (placing the tile).
    rng = random.Random(11)
    for _ in range(3000):
        seat = state.to_move()[0]
        general = [a for a in state.legal_actions(seat) if a.verb in ("place-city", "place-greenery", "place-ocean")]
        if general and state.queue[-1]["kind"] == "main":
            events = state.apply(seat, general[0])
            if state.to_move() == [seat] and all(e["type"] in NON_REVEALING for e in events):
                assert service.undoable("tm-dice", seat, state, events)
                break
            continue
        resign.step(state, rng)
        assert state.outcome() is None
    else:
        pytest.fail("no general action found")
    # Resigning is never taken back: the game is over, nobody is to move.
    events = state.resign(1)
    assert not service.undoable("tm-dice", 1, state, events)
