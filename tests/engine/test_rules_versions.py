"""Rules versions and action kinds, the engine's additions of docs/ENGINE-EXTENSIONS.md."""

from __future__ import annotations

import random

import pytest

from engine import GAMES, Action, IllegalAction
from engine.fox_duet import FoxDuet
from engine.fox_duet.state import FoxDuetState
from tests.support.rules_versions import NEW, OLD, upgrade_vivarium


def swap_then_adjust(state) -> list[tuple[int, str]]:
    """Play the mover's swap, then a change of a number that spends their one gem."""
    seat = state.to_move()[0]
    log = [(seat, state.legal_actions(seat)[0].text)]
    state.apply(*log[0])
    adjust = next(a for a in state.legal_actions(seat) if a.verb == "adjust")
    state.apply(seat, adjust)
    return log + [(seat, adjust.text)]


def test_an_old_log_replays_and_continues_under_its_own_rules_after_a_rule_change(monkeypatch) -> None:
    game = GAMES["vivarium"]
    state = game.new(2, 11)
    log = swap_then_adjust(state)
    played, legal_after = state.to_dict(), [a.text for a in state.legal_actions(log[0][0])]
    upgrade_vivarium(monkeypatch)
    replay = game.new(2, 11, rules_version=OLD)
    for seat, text in log:
        replay.apply(seat, text)
    assert replay.to_dict() == played and played["rules_version"] == OLD
    loaded = game.load(played)
    assert [a.text for a in loaded.legal_actions(log[0][0])] == legal_after
    # The same log under the new rules is another game: the change of number is refused.
    fresh = game.new(2, 11)
    assert fresh.rules_version == NEW
    fresh.apply(*log[0])
    with pytest.raises(IllegalAction):
        fresh.apply(*log[1])


def test_a_set_up_that_ignores_the_rules_version_is_caught() -> None:
    class Careless(FoxDuet):
        rules_versions = (1, 2)

        def _new(self, players: int, seed: int, options: dict, rules_version: int) -> FoxDuetState:
            state = FoxDuetState(self)
            state.setup(options["level"], seed)
            return state

    assert Careless().new(2, 1, rules_version=1).rules_version == 1
    with pytest.raises(RuntimeError, match="rules_version"):
        Careless().new(2, 1, rules_version=2)


def test_an_unknown_rules_version_names_the_versions_this_code_plays() -> None:
    with pytest.raises(ValueError, match=r"The Fox in the Forest Duet has no rules version 7; .* version\(s\) 1, 2$"):
        GAMES["fox-duet"].new(2, 1, rules_version=7)
    data = GAMES["fox-duet"].new(2, 1).to_dict()
    with pytest.raises(ValueError, match="no rules version 7"):
        GAMES["fox-duet"].load({**data, "rules_version": 7})


def kinds_seen(key: str, players: int, seeds: int) -> dict[str, str | None]:
    """Every legal action's verb met in random games, with the kind the engine gives it."""
    game, seen = GAMES[key], {}
    for seed in range(seeds):
        state, rng = game.new(players, seed), random.Random(seed)
        while state.outcome() is None:
            seat = rng.choice(state.to_move())
            actions = state.legal_actions(seat)
            for action in actions:
                seen.setdefault(action.verb, state.action_kind(action))
            state.apply(seat, rng.choice([a for a in actions if a.verb != "concede"] or actions))
    return seen


def test_fox_duet_declares_its_concede_and_nothing_else() -> None:
    seen = kinds_seen("fox-duet", 2, 3)
    assert seen.pop("concede") == "concede"
    assert set(seen.values()) == {None}


def test_vivarium_declining_an_instant_ability_is_a_pass() -> None:
    seen = kinds_seen("vivarium", 2, 3)
    assert seen.pop("skip") == "pass"
    assert set(seen.values()) == {None}


def test_tm_dice_skip_is_a_pass_and_ending_a_turn_is_not() -> None:
    game = GAMES["tm-dice"]
    assert game.action_kind(Action("skip")) == "pass"
    assert game.action_kind("end") is None
    seen = kinds_seen("tm-dice", 1, 1)
    assert {v for k, v in seen.items() if k != "skip"} == {None}


def test_noctiluca_has_no_concede_and_no_pass() -> None:
    assert set(kinds_seen("noctiluca", 2, 2).values()) == {None}
    assert GAMES["noctiluca"].action_kind("store none") is None
