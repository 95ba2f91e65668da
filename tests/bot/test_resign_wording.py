"""After a resignation the final lines show the resignation part, so a total matches its parts."""

from __future__ import annotations

import pytest

from engine import GAMES
from services.wording import adapter_for


@pytest.mark.parametrize("key", ["noctiluca", "vivarium", "tm-dice"])
def test_the_resigners_line_names_the_resignation_part(key: str) -> None:
    state = GAMES[key].new(3, 4)
    state.resign(1)
    outcome = state.outcome()
    assert outcome is not None and 1 not in outcome.winners
    lines = adapter_for(key).outcome_lines(outcome, ["Ann", "Ben", "Cat"], "en")
    ben = next(line for line in lines if line.startswith("Ben"))
    # At the start every score is equal, so the resigner must drop below the others.
    assert outcome.details[1]["resignation"] < 0
    assert "resign" in ben
