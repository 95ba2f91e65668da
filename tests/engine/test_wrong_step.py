"""A game's own verb at the wrong step of a turn is refused with the step named (Fox Duet and
Noctiluca, through engine.core.wrong_step), and with "the game is over" after the end; nothing
changes."""

from __future__ import annotations

import json

import pytest

from engine import GAMES, IllegalAction, Term


@pytest.mark.parametrize(("game", "verb"), [("fox-duet", "forest end=0"), ("noctiluca", "deliver gold-1")])
def test_a_known_verb_at_the_wrong_step_names_the_step_and_changes_nothing(game: str, verb: str) -> None:
    state = GAMES[game].new(2, 4)  # the first step: Fox Duet's first card, Noctiluca's jars to keep
    seat = state.to_move()[0]
    phase = vars(state)["phase"]
    before = json.dumps(state.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction) as refused:
        state.apply(seat, verb)
    assert refused.value.key == "illegal.wrong-step"
    step = refused.value.values["step"]
    assert isinstance(step, Term) and step.key == f"{game}.illegal.step.{phase}"
    assert refused.value.values["verb"] == verb.split()[0]
    assert str(refused.value) == f"Now is not the time for “{verb.split()[0]}”: the current step is “{phase}”."
    assert json.dumps(state.to_dict(), sort_keys=True) == before


def test_after_the_end_the_refusal_says_the_game_is_over() -> None:
    from engine.core import wrong_step

    refused = wrong_step("noctiluca", "over", "shore", None)
    assert refused.key == "illegal.game-over" and str(refused) == "The game is over."
