"""Every game's choices read differently on Discord: two buttons of one step never say the same."""

from __future__ import annotations

import random

import pytest

from engine import GAMES
from services.wording import adapter_for

CASES = [(game, n) for game in sorted(GAMES) for n in sorted({GAMES[game].min_players, GAMES[game].max_players})]


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_the_choices_of_a_step_have_different_labels(game: str, players: int) -> None:
    adapter = adapter_for(game)
    state = GAMES[game].new(players, 3)
    rng = random.Random(3)
    while state.outcome() is None:
        seat = rng.choice(state.to_move())
        actions = state.legal_actions(seat)
        for view in (state.view(seat), state.view(None)):
            labels = [adapter.action_label(a, view, "en") for a in actions if not adapter.action_is_dangerous(a)]
            twins = sorted({label for label in labels if labels.count(label) > 1})
            assert not twins, f"{game}, step {state.version}: {twins} label more than one choice"
        state.apply(seat, rng.choice(actions))
