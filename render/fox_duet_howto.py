"""The Fox in the Forest Duet's "How to play" pages (``render.scenes.Scene``), in its board's pixels."""

from __future__ import annotations

from render.common import Box
from render.fox_duet.board_picture import NODE_Y, PATH_X0, PATH_X1, TRACKER_SIZE, W
from render.scenes import Public, Scene, at_start

PATH = (0, 120, W, 470)  # the path, its gems and its ends, under the header
GEMS = (40, 140, W - 40, 245)  # the gems above the path


def trick_led(public: Public) -> bool:
    return public.get("phase") == "play" and len(public.get("trick_cards", [])) == 1


def token_placed(public: Public) -> bool:
    return public.get("phase") == "play" and public["forest_tokens_left"] < public["forest_tokens_total"]


def covered(public: Public) -> tuple[Box, ...]:
    """The first space a forest token covers (the spaces spread evenly along the path), and the gems."""
    spaces = public["spaces"]
    first = next((i for i, space in enumerate(spaces) if space["covered"]), 0)
    x = PATH_X0 + (PATH_X1 - PATH_X0) * first / max(1, len(spaces) - 1)
    half = TRACKER_SIZE / 2 + 4
    return ((x - half, NODE_Y - half, x + half, NODE_Y + half), GEMS)


SCENES = (
    Scene("goal", PATH, ((45, 140, 1560, 245), (745, 265, 855, 380), (40, 420, 1560, 470)), at_start),
    Scene("trick", (0, 470, 1070, 885), ((70, 535, 265, 800), (350, 570, 540, 835)), trick_led),
    Scene("powers", (20, 130, 1290, 880), (), at_start, source="hand"),
    Scene("end", PATH, covered, token_placed),
    Scene(
        "score",
        (1070, 15, 1585, 885),
        ((1120, 25, 1560, 115), (1085, 490, 1560, 620), (1085, 760, 1560, 870)),
        token_placed,
    ),
)
