"""Vivarium's "How to play" pages (``render.scenes.Scene``), in its board's pixels (render/vivarium/)."""

from __future__ import annotations

from render.scenes import BOARD, Public, Scene, at_start

SCORES = (830, 260, 1585, 570)


def take(public: Public) -> bool:
    return public.get("phase") == "take" and public.get("round", 1) >= 2


SCENES = (
    Scene("goal", (0, 60, 810, 900), ((55, 100, 805, 490), (55, 500, 805, 690), (55, 700, 805, 890)), at_start),
    Scene("turn", BOARD, ((840, 110, 1155, 200), (1410, 260, 1580, 310), (55, 100, 805, 890)), take),
    Scene("round", (820, 60, 1600, 900), ((1155, 110, 1390, 250), SCORES), take),
    Scene("score", (820, 60, 1600, 900), (SCORES,), None),
)
