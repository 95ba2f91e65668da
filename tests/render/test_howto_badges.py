"""A "How to play" page's numbered badges never hide the words of the board part they point at."""

from __future__ import annotations

import pytest

from render import RENDERERS
from render.howto import SCENES, _sample, page_image
from tests.render.text_bounds import recorded_text

NAMES = ["Joaquim da Conceição", "Bot 2 (difícil)"]
CASES = [
    (game, index) for game, scenes in SCENES.items() for index, scene in enumerate(scenes) if scene.source == "board"
]


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


@pytest.mark.parametrize(("game", "index"), CASES)
def test_no_badge_covers_a_label_of_the_board(game: str, index: int) -> None:
    scene = SCENES[game][index]
    labels = [f"label {k}" for k in range(4)]
    page = page_image(game, index, "title", labels, NAMES, "pt-BR")
    ox, oy, scale, (cx0, cy0, cx1, cy1) = page.info["board_part"]
    state, _ = _sample(game, scene, NAMES, "pt-BR")
    with recorded_text() as records:
        RENDERERS[game].board(state.view(None)["public"], NAMES, locale="pt-BR", phone=False)
    words = [
        (
            r.text,
            (
                ox + (r.box[0] - cx0) * scale,
                oy + (r.box[1] - cy0) * scale,
                ox + (r.box[2] - cx0) * scale,
                oy + (r.box[3] - cy0) * scale,
            ),
        )
        for r in records
        if r.image == 0 and overlap(r.box, (cx0, cy0, cx1, cy1)) > 0
    ]
    assert words, "the board part shows some words"
    hidden = []
    for _, (x, y), radius in page.info["badges"]:
        # The badge's disc, and its dark ring, as a square: a word under its corner counts too.
        disc = (x - radius - 4, y - radius - 4, x + radius + 4, y + radius + 4)
        hidden += [text for text, box in words if overlap(disc, box) > 4]
    assert not hidden, f"{game} page {index}: badges hide {hidden}"
