"""The Terraforming Mars: The Dice Game board and hand images, drawn from views of real positions."""

from __future__ import annotations

import pytest

from engine.tm_dice import TMDice
from render.common import encode_png
from render.phone import key_lines
from render.tm_dice import BOARD_BUDGET, HAND_BUDGET, RENDERER, H, W, effect_label, face_word, track_labels
from tests.render.fits_common import played as played_game
from tests.support.render_checks import check_landscape_png, random_position, without_private

NAMES = ["Alice", "Bob", "Carol", "Dmitri"]
GAME = TMDice()


def position(players: int, steps: int, seed: int = 7):
    return random_position(GAME, players, steps, seed)


STAGES = {
    "corporations-4p": (4, 0),
    "mid-4p": (4, 600),
    "mid-3p": (3, 400),
    "mid-2p": (2, 300),
    "end-2p": (2, 20000),
    "solo-mid": (1, 150),
    "solo-end": (1, 20000),
}


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_board_is_a_landscape_png_within_budget(stage: str) -> None:
    players, steps = STAGES[stage]
    s = position(players, steps)
    png = encode_png(RENDERER.board(s.view(None)["public"], NAMES[:players]), BOARD_BUDGET, optimize=False)
    image = check_landscape_png(png, BOARD_BUDGET)
    assert image.width == W and image.height > H  # the band of key lines above the board


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_hand_is_a_landscape_png_within_budget(stage: str) -> None:
    players, steps = STAGES[stage]
    s = position(players, steps)
    view = s.view(0)
    png = encode_png(RENDERER.hand(view["public"], view["private"], NAMES[:players], 0), HAND_BUDGET, optimize=False)
    check_landscape_png(png, HAND_BUDGET)


def test_board_never_reads_the_private_part() -> None:
    s = position(3, 200)
    view = s.view(0)
    RENDERER.board(view["public"], NAMES[:3])
    import render

    if GAME.id in render.RENDERERS:  # once registered, through the platform's entry point
        render.render_board(GAME.id, without_private(view), NAMES)


def test_tracks_are_labelled_with_their_values() -> None:
    """Render: the temperature track reads -32 C to +8 C in 4 C steps; oxygen 0-9 %."""
    labels = track_labels(GAME.new(2, 1).view(None)["public"])
    assert labels["temperature"][1][0] == "-32°C" and labels["temperature"][1][-1] == "8°C"
    assert labels["oxygen"][1][0] == "0%" and labels["oceans"][1][-1] == "7"


@pytest.mark.parametrize("locale", ["en", "zh-TW", "pt-BR"])
def test_every_effect_has_a_readable_label(locale: str) -> None:
    from engine.tm_dice.content import BONUS_CARDS, CARDS, CORPORATIONS, HEXES

    effects = {e for c in CARDS.values() for e in c.effects} | {e for b in BONUS_CARDS.values() for e in b["effects"]}
    effects |= {e for c in CARDS.values() if c.action for e in c.action["effects"]}
    effects |= {e for h in HEXES.values() for e in h["bonus"]} | {e for c in CORPORATIONS.values() for e in c["start"]}
    for e in effects:
        label = effect_label(e, locale)
        assert label and ":" not in label and "{" not in label, e


@pytest.mark.parametrize("locale", ["en", "zh-TW", "pt-BR"])
def test_every_step_a_player_is_asked_is_named_in_words_in_the_header(locale: str) -> None:
    from engine.tm_dice.steps import HANDLERS
    from l10n import catalogue
    from render.tm_dice import STEP_WORDS

    asked = {kind for kind, (_, _, resolve) in HANDLERS.items() if resolve is not None}
    assert asked <= set(STEP_WORDS), sorted(asked - set(STEP_WORDS))
    missing = [kind for kind in STEP_WORDS if f"tm-dice.render.step.{kind}" not in catalogue(locale)]
    assert not missing, missing


@pytest.mark.parametrize("locale", ["en", "zh-TW", "pt-BR"])
def test_the_band_lists_the_dice_of_the_player_to_move(locale: str) -> None:
    """On a phone the dice in a seat's panel are 3 px words: the band lists those of the player to move."""
    checked = 0
    for view, _ in played_game("tm-dice", 2, 7)[:60]:
        public = view["public"]
        step = public.get("step")
        image = RENDERER.board(public, ["Alice", "Bob"], locale=locale)
        band = " ".join(line.text for line in key_lines(image) if line.role == "turn")
        held = public["seats"][step["seat"]]["dice"] if step and public["stage"] != "corp" else {}
        for face, n in held.items():
            if n:
                assert face_word(face, locale) + (f" ×{n}" if n > 1 else "") in band, (face, n, band)
                checked += 1
    assert checked >= 10
