"""The records a Terraforming Mars dice state keeps: plain JSON dicts, saved as they are by
``to_dict`` and checked field by field when loaded (engine/tm_dice/persist.py)."""

from __future__ import annotations

from typing import Any

# A seat: corporation and the ones offered, dice held by face, wild tokens, VP, hand, played
# cards by colour, used blue cards, bonus cards, thresholds reached (``state.new_seat``).
Player = dict[str, Any]
# A step waiting on the queue: its ``kind``, ``seat`` and the fields of its kind (steps.py, effects.py).
Task = dict[str, Any]
# A tile on the map: ``{"tile": kind, "owner": seat or None}``.
Tile = dict[str, Any]
