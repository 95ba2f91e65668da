"""Fox Duet, rules version 2: 「每輪遊戲進行時，玩家無法查看先前牌墩」 (during a round players may
not look at earlier tricks), and the "memory aid" table option that keeps the last trick in view."""

from __future__ import annotations

import random

from engine import GAMES

GAME = GAMES["fox-duet"]


def after_a_trick(state, seed: int = 1):
    """Play random legal moves until a trick has been won and the next one is under way."""
    rng = random.Random(seed)
    while state.outcome() is None:
        if state.last_trick is not None and state.trick_cards:
            return state
        seat = state.to_move()[0]
        state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if a.verb != "concede"]))
    raise AssertionError("the game ended before a second trick began")


def test_earlier_tricks_are_not_in_view_during_a_round() -> None:
    """「每輪遊戲進行時，玩家無法查看先前牌墩」: the board shows the trick being played, not the last one."""
    state = after_a_trick(GAME.new(2, 4))
    public = state.view(None)["public"]
    assert state.rules_version == 2 and public["memory_aid"] is False
    assert public["last_trick"] is None and public["trick_cards"]
    for seat in (0, 1):
        assert state.view(seat)["public"]["last_trick"] is None


def test_the_memory_aid_option_keeps_the_last_trick_in_view() -> None:
    """A table option (off by default) for groups that want the last trick in view."""
    assert GAME.options()["memory"] == {"choices": ["off", "on"], "default": "off"}
    state = after_a_trick(GAME.new(2, 4, {"memory": "on"}))
    public = state.view(None)["public"]
    assert public["memory_aid"] is True and public["last_trick"] is not None
    assert GAME.load(state.to_dict()).view(None)["public"]["last_trick"] == public["last_trick"]


def test_rules_version_1_games_keep_the_last_trick_in_view() -> None:
    """A game keeps the rules it started with: version 1 showed the last trick."""
    state = after_a_trick(GAME.new(2, 4, rules_version=1))
    assert state.view(None)["public"]["last_trick"] is not None
    old_save = state.to_dict()
    del old_save["memory_aid"]  # saved before rules version 2
    assert GAME.load(old_save).view(None)["public"]["last_trick"] is not None


def test_hiding_earlier_tricks_changes_no_play() -> None:
    """The option only changes what is shown: the same moves give the same game."""
    hidden, shown = GAME.new(2, 9), GAME.new(2, 9, {"memory": "on"})
    rng = random.Random(9)
    while hidden.outcome() is None:
        seat = hidden.to_move()[0]
        actions = [a for a in hidden.legal_actions(seat) if a.verb != "concede"]
        assert actions == [a for a in shown.legal_actions(seat) if a.verb != "concede"]
        action = rng.choice(actions)
        assert hidden.apply(seat, action) == shown.apply(seat, action)
    assert hidden.outcome() == shown.outcome()
    # At the end the last trick is shown again, memory aid or not.
    assert hidden.view(None)["public"]["last_trick"] == shown.view(None)["public"]["last_trick"]
