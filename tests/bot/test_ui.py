"""Custom ids of persistent components: within Discord's 100 characters, parsed back exactly."""

from __future__ import annotations

import pytest

from bot.ui import ActButton, act_custom_id


@pytest.mark.parametrize("action", ["play dove-7", "resolve set:any", "forest end=0"])
def test_an_action_survives_its_custom_id(action: str) -> None:
    custom_id = act_custom_id(12, 34, action)
    match = ActButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match and (match["gid"], match["ver"], match["action"]) == ("12", "34", action)


def test_a_custom_id_over_discords_limit_is_refused() -> None:
    with pytest.raises(ValueError):
        act_custom_id(1, 1, "x" * 100)
