"""The conformance suite of docs/ENGINE.md, run over every registered game, player count and option."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from engine import ACTION_KINDS, GAMES, Action, IllegalAction, Outcome

SEEDS = 200
MAX_STEPS = 5000
# Every seed is played to the end. The per-step checks (wrong seat, garbage, round trip, secrets)
# run at every step of the first FULL_SEEDS seeds and at every SAMPLE_EVERY-th step of the next
# SAMPLED_SEEDS: long games (a thousand steps) would otherwise take minutes per player count.
FULL_SEEDS = 2
SAMPLED_SEEDS = 12
SAMPLE_EVERY = 10
REPLAY_SEEDS = 25
GARBAGE = ["", "   ", "xyzzy", "play", "play nothing-99", "concede now please", "\x00\n", "🦊", "a" * 500]


def cases() -> list[tuple[str, int, dict]]:
    out = []
    for key, game in GAMES.items():
        spec = game.options()
        names = sorted(spec)
        combos = list(itertools.product(*(spec[n]["choices"] for n in names))) or [()]
        for players in range(game.min_players, game.max_players + 1):
            for combo in combos:
                out.append((key, players, dict(zip(names, combo, strict=True))))
    return out


def ids(case: tuple[str, int, dict]) -> str:
    key, players, options = case
    return f"{key}-{players}p-" + "-".join(f"{k}{v}" for k, v in options.items())


def private_ids(value: object) -> set[str]:
    """Ids of the objects in a private view (cards, contracts...): what must not leak."""
    found: set[str] = set()
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            found.add(value["id"])
        for item in value.values():
            found |= private_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= private_ids(item)
    return found


def check_step(state, game, rng: random.Random) -> None:
    movers = state.to_move()
    assert movers, "a running game must have someone to act"
    for seat in range(state.players):
        actions = state.legal_actions(seat)
        if seat in movers:
            assert actions, f"seat {seat} must act but has no legal action"
            assert len(set(actions)) == len(actions), "legal actions must be distinct"
            for a in actions:
                assert Action(str(a)) == a
        else:
            assert actions == []
    # wrong seat, garbage text: IllegalAction, state unchanged
    before = state.to_dict()
    outsider = next((s for s in range(state.players) if s not in movers), None)
    if outsider is not None:
        with pytest.raises(IllegalAction):
            state.apply(outsider, state.legal_actions(movers[0])[0])
    for text in rng.sample(GARBAGE, 3):
        with pytest.raises(IllegalAction):
            state.apply(movers[0], text)
    for bad_seat in (-1, state.players, "0", None):
        with pytest.raises(IllegalAction):
            state.apply(bad_seat, "x")
    assert state.to_dict() == before
    # round trip
    data = json.loads(json.dumps(before))
    assert game.load(data).to_dict() == before
    # secrets (each view worked out once: a view is the costly part of a step)
    public = state.view(None)
    public_text = json.dumps(public)
    assert public["private"] == {}
    views = [state.view(seat) for seat in range(state.players)]
    private_texts = [json.dumps(view["private"]) for view in views]
    for seat, view in enumerate(views):
        assert view["public"] == public["public"]
        for secret in private_ids(view["private"]):
            assert f'"{secret}"' not in public_text, f"seat {seat}'s {secret} is in the public view"
            for other in range(state.players):
                if other != seat:
                    assert f'"{secret}"' not in private_texts[other], (
                        f"seat {seat}'s {secret} is in seat {other}'s view"
                    )


def play(key: str, players: int, options: dict, seed: int, full_checks: bool | int) -> tuple[list, object]:
    """Play one random game; ``full_checks`` True checks every step, an int every n-th step."""
    game = GAMES[key]
    state = game.new(players, seed, options)
    assert state.version == 0
    rng = random.Random(seed)
    log = []
    steps = 0
    while state.outcome() is None:
        assert steps < MAX_STEPS, "the game did not finish"
        every = 1 if full_checks is True else int(full_checks)
        if every and steps % every == 0:
            check_step(state, game, rng)
        seat = rng.choice(state.to_move())
        actions = state.legal_actions(seat)
        # Conceding ends a game at once; random play that concedes would never reach the end.
        keep = [a for a in actions if state.action_kind(a) not in ("concede", "resign")] or actions
        action = rng.choice(keep)
        random.seed(rng.random())  # disturb the global generator: the engine must not use it
        # A checked game applies the text through ``apply`` (which refuses what is not legal); an
        # unchecked one passes the action just taken from ``legal_actions`` of this very position
        # to ``apply_known``, its contract (test_apply_known_gives_the_same_events... holds them equal).
        events = state.apply(seat, str(action)) if full_checks else state.apply_known(seat, action)
        json.dumps(events)
        for e in events:
            assert "type" in e and "visible_to" in e
            assert e["visible_to"] is None or all(isinstance(s, int) for s in e["visible_to"])
        log.append((seat, str(action)))
        steps += 1
        assert state.version == steps
    assert state.to_move() == []
    for seat in range(players):
        assert state.legal_actions(seat) == []
    return log, state


# The seeds of one case run as CHUNKS test items, so the workers share a long game's seeds.
CHUNKS = 4


@pytest.mark.parametrize("chunk", range(CHUNKS), ids=lambda c: f"seeds{c}")
@pytest.mark.parametrize("case", cases(), ids=ids)
def test_random_play_finishes_and_keeps_the_contract(case, chunk: int) -> None:
    key, players, options = case
    game = GAMES[key]
    for seed in range(chunk, SEEDS, CHUNKS):
        checks = True if seed < FULL_SEEDS else SAMPLE_EVERY if seed < FULL_SEEDS + SAMPLED_SEEDS else 0
        log, state = play(key, players, options, seed, full_checks=checks)
        outcome = state.outcome()
        assert isinstance(outcome, Outcome)
        assert len(outcome.scores) == players and len(outcome.details) == players
        assert all(0 <= w < players for w in outcome.winners)
        json.dumps(outcome.to_dict())
        if seed < REPLAY_SEEDS:
            replay = game.new(players, seed, options)
            for seat, text in log:
                replay.apply(seat, text)
            assert replay.to_dict() == state.to_dict(), "replay from the seed must be identical"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_game_metadata_and_bad_setup(key: str) -> None:
    game = GAMES[key]
    assert game.id == key and game.title
    assert 1 <= game.min_players <= game.max_players
    for name, info in game.options().items():
        assert info["default"] in info["choices"], name
    with pytest.raises(ValueError):
        game.new(game.max_players + 1, 1)
    with pytest.raises(ValueError):
        game.new(game.min_players - 1, 1)
    with pytest.raises(ValueError):
        game.new(game.min_players, 1, {"no-such-option": 1})
    with pytest.raises(ValueError):
        game.load({"game": "something-else"})
    with pytest.raises(ValueError):
        game.load("not a dict")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_same_seed_same_game_whatever_the_global_random(key: str) -> None:
    game = GAMES[key]
    random.seed(1)
    a = game.new(game.min_players, 42).to_dict()
    random.seed(2)
    random.random()
    b = game.new(game.min_players, 42).to_dict()
    assert a == b
    assert game.new(game.min_players, 43).to_dict() != a


@pytest.mark.parametrize("key", sorted(GAMES))
def test_refused_action_leaves_state_unchanged(key: str) -> None:
    game = GAMES[key]
    state = game.new(game.min_players, 7)
    before = state.to_dict()
    for text in GARBAGE:
        with pytest.raises(IllegalAction) as info:
            state.apply(state.to_move()[0], text)
        assert str(info.value)
    assert state.to_dict() == before


@pytest.mark.parametrize("key", sorted(GAMES))
def test_rules_versions_are_declared_and_every_save_keeps_its_own(key: str) -> None:
    game = GAMES[key]
    versions = game.rules_versions
    assert isinstance(game.rules_version, int) and not isinstance(game.rules_version, bool)
    assert all(isinstance(v, int) and v >= 1 for v in versions)
    assert tuple(sorted(set(versions))) == tuple(versions) and game.rules_version in versions
    assert game.new(game.min_players, 3).rules_version == game.rules_version
    for version in versions:
        state = game.new(game.min_players, 3, rules_version=version)
        assert state.rules_version == version
        data = json.loads(json.dumps(state.to_dict()))
        assert data["rules_version"] == version
        again = game.load(data)
        assert again.rules_version == version and again.to_dict() == data
    # A save written before rules had versions is played by version 1.
    old = game.new(game.min_players, 3, rules_version=1).to_dict()
    del old["rules_version"]
    assert game.load(old).rules_version == 1
    for bad in (0, max(versions) + 1, "1", True, 1.0):
        with pytest.raises(ValueError, match="rules version"):
            game.new(game.min_players, 3, rules_version=bad)
        with pytest.raises(ValueError, match="rules version"):
            game.load({**old, "rules_version": bad})


@pytest.mark.parametrize("key", sorted(GAMES))
def test_action_kinds_are_declared_and_known(key: str) -> None:
    game = GAMES[key]
    assert set(game.action_kinds.values()) <= ACTION_KINDS
    assert all(isinstance(verb, str) and verb == Action(verb).text for verb in game.action_kinds)
    for seed in range(3):
        state = game.new(game.min_players, seed)
        rng = random.Random(seed)
        while state.outcome() is None:
            seat = rng.choice(state.to_move())
            actions = state.legal_actions(seat)
            for action in actions:
                kind = state.action_kind(action)
                assert kind is None or kind in ACTION_KINDS
                assert kind == game.action_kind(action) == state.action_kind(action.text)
            keep = [a for a in actions if state.action_kind(a) not in ("concede", "resign")] or actions
            state.apply(seat, rng.choice(keep))


@pytest.mark.parametrize("key", sorted(GAMES))
def test_apply_known_gives_the_same_events_and_position_as_apply(key: str) -> None:
    """``State.apply_known`` (the search's shortcut for an action taken from ``legal_actions``
    of the same position) changes the position exactly as ``apply`` does, step by step through
    whole games at every player count."""
    game = GAMES[key]
    for players in range(game.min_players, game.max_players + 1):
        checked, known = game.new(players, 7), game.new(players, 7)
        rng = random.Random(players)
        while checked.outcome() is None:
            seat = rng.choice(checked.to_move())
            action = rng.choice(checked.legal_actions(seat))
            assert known.apply_known(seat, action) == checked.apply(seat, action)
            assert known.to_dict() == checked.to_dict()
        assert known.outcome() == checked.outcome()
