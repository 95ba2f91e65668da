"""Terraforming Mars: The Dice Game's "How to play" pages (``render.scenes.Scene``), in its board's
pixels (render/tm_dice.py)."""

from __future__ import annotations

from render.scenes import Public, Scene, at_start

TRACKS = ((675, 150, 755, 865), (760, 150, 840, 865), (845, 150, 925, 865))  # temperature, oxygen, oceans


def turn(public: Public) -> bool:
    step = public.get("step") or {}
    return public.get("stage") != "corp" and step.get("kind") == "turn" and public.get("turn", 0) >= 3


SCENES = (
    Scene("goal", (0, 80, 940, 900), TRACKS, at_start),
    Scene("production", (935, 0, 1600, 330), ((945, 160, 1585, 300),), turn),
    Scene("action", (0, 150, 940, 900), ((40, 190, 660, 750), (675, 150, 925, 865)), turn),
    Scene("end", (0, 0, 1600, 900), ((670, 80, 930, 870),), None),
    Scene("score", (935, 0, 1600, 560), ((940, 10, 1585, 150), (945, 160, 1585, 520)), None),
)
