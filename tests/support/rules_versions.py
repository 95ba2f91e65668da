"""A rule changed behind a version switch, for tests: Vivarium's rules version ``NEW``.

``upgrade_vivarium(monkeypatch)`` edits Vivarium the way a real rule change is made (docs/PLATFORM.md,
"Changing a rule"): the current version ``OLD`` becomes ``NEW`` (one more), every earlier version
stays playable, and the changed rule branches on ``state.rules_version``. In version ``NEW``
changing a number of a chain token costs two gems instead of one (players start with one gem, so
an ``OLD`` log that spends the first gem is illegal under ``NEW``). monkeypatch undoes it all.
"""

from __future__ import annotations

import pytest

from engine import Action, Event
from engine.vivarium import Vivarium
from engine.vivarium.state import VivariumState

GEMS_PER_CHANGE_V2 = 2
OLD = Vivarium.rules_version  # what the real code plays today
NEW = OLD + 1


def upgrade_vivarium(monkeypatch: pytest.MonkeyPatch) -> None:
    legal_v1, apply_v1 = VivariumState._legal_actions, VivariumState._apply

    def legal(self: VivariumState, seat: int) -> list[Action]:
        actions = legal_v1(self, seat)
        if self.rules_version >= NEW and self.gems[seat] < GEMS_PER_CHANGE_V2:
            actions = [a for a in actions if a.verb != "adjust"]
        return actions

    def apply(self: VivariumState, seat: int, action: Action) -> list[Event]:
        events = apply_v1(self, seat, action)
        if self.rules_version >= NEW and action.verb == "adjust":
            self.gems[seat] -= GEMS_PER_CHANGE_V2 - 1  # version 1 already spent one
        return events

    monkeypatch.setattr(VivariumState, "_legal_actions", legal)
    monkeypatch.setattr(VivariumState, "_apply", apply)
    monkeypatch.setattr(Vivarium, "rules_version", NEW)
    monkeypatch.setattr(Vivarium, "rules_versions", (*Vivarium.rules_versions, NEW))
