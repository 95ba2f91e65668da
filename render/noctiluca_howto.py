"""Noctiluca's "How to play" pages (``render.scenes.Scene``), in its board's pixels (render/noctiluca.py)."""

from __future__ import annotations

from render.scenes import BOARD, Public, Scene

JARS = (905, 245, 1580, 540)  # the seats' jars, right of the pool
ROUND = (910, 60, 1250, 105)


def shore(public: Public) -> bool:
    return public.get("phase") == "shore"


def number(public: Public) -> bool:
    return public.get("phase") == "number"


def delivered(public: Public) -> bool:
    return public.get("phase") == "shore" and any(s.get("delivered") for s in public.get("seats", []))


SCENES = (
    Scene("goal", BOARD, ((110, 150, 790, 770), JARS, ROUND), shore),
    Scene("dive", (0, 40, 800, 900), (), number),
    Scene("store", (900, 0, 1600, 560), ((915, 60, 1580, 215), JARS), delivered),
    Scene("end", (0, 40, 800, 900), ((80, 60, 800, 830),), None),
    Scene("score", (880, 0, 1600, 900), (JARS, ROUND), None),
)
