"""The images' font stack: names mixing Latin, accents, CJK and emoji are drawn as written, on one baseline."""

from __future__ import annotations

import random
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageFont

import render
from engine import GAMES
from engine.resources import data_file
from render import fonts
from render.common import clean_text, ellipsize, font, put_text, seat_name, wrap
from tests.render.text_bounds import overflows, recorded_text

BG = (22, 46, 34)
INK = (246, 240, 222)
MIXED = "小明 João 🦊Zoë"
UNASSIGNED = "\u0378"  # no font draws it: Pillow shows the base font's missing-glyph box

needs_emoji = pytest.mark.skipif(
    fonts.stack().emoji is None, reason="Noto Color Emoji is not installed (scripts/setup.sh installs it)"
)


@pytest.fixture
def fresh_fonts() -> Iterator[None]:
    """Faces found anew for the test, and again after it (a test moves fonts away)."""
    fonts.clear_caches()
    yield
    fonts.clear_caches()


def drawn(
    text: str, fnt: ImageFont.FreeTypeFont, anchor: str = "ls", size: tuple[int, int] = (700, 160)
) -> Image.Image:
    image = Image.new("RGB", size, BG)
    put_text(ImageDraw.Draw(image), (40, 100), text, font=fnt, fill=INK, anchor=anchor)
    return image


def ink_box(image: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(image, Image.new("RGB", image.size, BG)).getbbox()


def glyph_mask(char: str, fnt: ImageFont.FreeTypeFont) -> bytes:
    image = Image.new("L", (120, 120), 0)
    put_text(ImageDraw.Draw(image), (20, 90), char, font=fnt, fill=255, anchor="ls")
    return image.tobytes()


def coloured_pixels(image: Image.Image) -> int:
    """Pixels far from grey: neither the background nor the cream ink (orange fur, green, blue)."""
    data = image.convert("RGB").tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for r, g, b in pixels if max(r, g, b) - min(r, g, b) > 80 and (r, g, b) != BG)


@pytest.mark.parametrize("bold", [False, True])
def test_every_character_of_a_mixed_name_has_its_own_glyph(bold: bool) -> None:
    fnt = font(40, bold)
    missing = glyph_mask(UNASSIGNED, fnt)
    for char in "小明Joãoë" + ("🦊" if fonts.stack(bold).emoji else ""):
        mask = glyph_mask(char, fnt)
        assert any(mask), f"{char!r} draws nothing"
        assert mask != missing, f"{char!r} draws the missing-glyph box"


def test_each_run_of_a_mixed_name_is_inked_where_its_advance_says() -> None:
    fnt = font(40, True)
    image = drawn(MIXED, fnt)
    pen = 40.0
    for piece in ["小明", " ", "João", " ", "🦊", "Zoë"]:
        width = fnt.getlength(piece)
        column = image.crop((round(pen) + 1, 40, round(pen + width) - 1, 150))
        if piece.strip():
            assert ink_box(column) is not None, f"{piece!r} left no ink at {pen:.0f}"
        pen += width
    assert pen - 40 == pytest.approx(fnt.getlength(MIXED))


@needs_emoji
def test_emoji_are_drawn_in_colour_and_text_in_its_ink() -> None:
    fnt = font(40, True)
    fox_x = 40 + fnt.getlength("小明 João ")
    image = drawn(MIXED, fnt)
    fox = image.crop((round(fox_x), 40, round(fox_x + fnt.getlength("🦊")), 150))
    assert coloured_pixels(fox) > 100
    words = image.crop((40, 40, round(fox_x) - 2, 150))
    assert coloured_pixels(words) == 0
    # A mask image (no colour) still gets the emoji's shape.
    mask = Image.new("L", (300, 120), 0)
    put_text(ImageDraw.Draw(mask), (10, 90), "🦊", font=fnt, fill=255, anchor="ls")
    assert mask.getbbox() is not None


@pytest.mark.parametrize("anchor", ["la", "ls", "lm", "mm", "ma", "rm", "rs", "lt", "lb", "ld", "md"])
@pytest.mark.parametrize("text", [MIXED, "阿里巴巴與四十大盜", "Zoë · 小明 ▶"])
def test_textbbox_holds_the_ink_and_agrees_with_the_advance(anchor: str, text: str) -> None:
    fnt = font(36, True)
    image = drawn(text, fnt, anchor, size=(1000, 200))
    box = ImageDraw.Draw(image).textbbox((40, 100), text, font=fnt, anchor=anchor)
    ink = ink_box(image)
    assert ink is not None
    assert box[0] - 1 <= ink[0] and ink[2] <= box[2] + 1 and box[1] - 1 <= ink[1] and ink[3] <= box[3] + 1
    assert box[2] - box[0] == pytest.approx(fnt.getlength(text), abs=2)
    assert ImageDraw.Draw(image).textlength(text, font=fnt) == fnt.getlength(text)
    left = {"l": 40, "m": 40 - fnt.getlength(text) / 2, "r": 40 - fnt.getlength(text)}[anchor[0]]
    assert box[0] == pytest.approx(left, abs=1)


def test_latin_words_keep_their_baseline_beside_cjk_and_emoji() -> None:
    """The 'João' of a mixed line is drawn exactly as 'João' alone, on the same baseline."""
    fnt = font(40, True)
    offset = fnt.getlength("小明 ")
    for anchor in ("ls", "la", "lm"):
        mixed = drawn("小明 João", fnt, anchor)
        alone = drawn("João", fnt, anchor)
        x = round(40 + offset)
        width = round(fnt.getlength("João"))
        shifted = mixed.crop((x, 0, x + width, 160))
        assert ImageChops.difference(shifted, alone.crop((40, 0, 40 + width, 160))).getbbox() is None, anchor


def test_latin_text_takes_pillows_own_path_unchanged() -> None:
    fnt = font(30, True)
    plain = ImageFont.truetype(BytesIO(data_file("fonts", "DejaVuSans-Bold.ttf").read_bytes()), 30)
    for text in ("Round 1/3 · Trick 1/11", "Zoë ◀ 12 ▶", "Defeat: the team conceded"):
        for anchor in ("la", "mm", "rs"):
            assert fnt.getbbox(text, anchor=anchor) == plain.getbbox(text, anchor=anchor)
            assert bytes(fnt.getmask(text, anchor=anchor)) == bytes(plain.getmask(text, anchor=anchor))
        assert fnt.getlength(text) == plain.getlength(text)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "Zoë", "小", "明", "🦊", "🇧🇷", " ", "ã", "·", "❤️", "👍🏽"]), min_size=1, max_size=8)
)
def test_any_mix_is_inked_inside_its_textbbox(pieces: list[str]) -> None:
    text = "".join(pieces)
    fnt = font(28)
    image = drawn(text, fnt, "mm", size=(700, 200))
    box = ImageDraw.Draw(image).textbbox((40, 100), text, font=fnt, anchor="mm")
    ink = ink_box(image)
    if ink is not None:
        assert box[0] - 1 <= ink[0] and ink[2] <= box[2] + 1 and box[1] - 1 <= ink[1] and ink[3] <= box[3] + 1


def test_seat_name_keeps_cjk_accents_and_emoji() -> None:
    names = ["小明", "João", "🦊Zoë", "\u0378\U0003fffe\x07"]
    assert seat_name(names, 0) == "小明"
    assert seat_name(names, 1) == "João"
    assert seat_name(names, 2) == ("🦊Zoë" if fonts.stack().emoji else "Zoë")
    assert seat_name(names, 3) == "Player 4"
    assert seat_name(["  \u200b\u202e "], 0) == "Player 1"
    assert seat_name(["\ud800Zoë\udfff"], 0) == "Zoë"  # lone surrogates, as JSON escapes can make


def test_clean_text_drops_controls_and_what_nothing_draws() -> None:
    assert clean_text("A\x00li\u202ece\u0378  小明\n") == "Alice 小明"
    assert clean_text("e\u0301") == "e\u0301"  # a combining accent stays on its letter


def test_long_cjk_names_are_cut_by_width_not_by_count() -> None:
    """A CJK character is about two Latin letters wide: a 20-letter slot holds 9 of them and the '…'."""
    long = "阿里巴巴與四十大盜的故事很長的名字"
    assert seat_name([long], 0) == "阿里巴巴與四十大盜…"
    assert seat_name(["Bartholomew Fitzgerald"], 0) == "Bartholomew Fitzger…"
    fnt = font(28, True)
    assert fnt.getlength(seat_name([long], 0)) < fnt.getlength(seat_name(["MMMMMMMMMMMMMMMMMMMMMM"], 0))


@needs_emoji
@pytest.mark.parametrize(
    "sequence",
    ["👨\u200d👩\u200d👧", "👍🏽", "🇧🇷", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "1️⃣", "❤️"],
)
def test_cutting_never_splits_an_emoji_sequence(sequence: str) -> None:
    for cut in range(4, 14):
        shown = seat_name([f"Zoë{sequence * 6}"], 0, cut)
        assert shown.endswith("…")
        body = shown[len("Zoë") : -1]
        assert body == sequence * (len(body) // len(sequence)), (cut, shown)
    fnt = font(28)
    for width in range(40, 260, 17):
        body = ellipsize(f"Zoë{sequence * 6}", fnt, width).removesuffix("…")[len("Zoë") :]
        assert body == sequence * (len(body) // len(sequence)), width


def test_wrap_breaks_chinese_between_characters_not_before_punctuation() -> None:
    fnt = font(24)
    text = "玩家小明，輪到你了。請選擇一張牌出牌，或者放棄這一回合的行動"
    lines = wrap(text, fnt, 200, max_lines=5)
    assert "".join(lines) == text
    assert len(lines) > 1 and all(fnt.getlength(line) <= 200 for line in lines)
    assert not any(line[0] in "，。" for line in lines)
    latin = "The fox runs through the forest to the river"
    lines = wrap(latin, fnt, 200, max_lines=5)
    assert " ".join(lines) == latin and len(lines) > 1 and all(fnt.getlength(line) <= 200 for line in lines)


def test_missing_system_fonts_fall_back_to_the_shipped_subset(fresh_fonts: None, monkeypatch) -> None:
    monkeypatch.setattr(fonts, "CJK_PATHS", {False: ["/nonexistent/a.ttc"], True: ["/nonexistent/b.ttc"]})
    monkeypatch.setattr(fonts, "EMOJI_PATHS", ["/nonexistent/emoji.ttf"])
    assert fonts.stack().faces[-1].name.endswith("(subset)")
    assert seat_name(["小明", "🦊Zoë"], 0) == "小明"
    assert seat_name(["小明", "🦊Zoë"], 1) == "Zoë"
    assert glyph_mask("明", font(40, True)) != glyph_mask(UNASSIGNED, font(40, True))
    state = GAMES["fox-duet"].new(2, 1)
    assert render.render_board("fox-duet", state.view(None), ["小明", "🦊Zoë"])


def test_every_font_missing_still_draws(fresh_fonts: None, monkeypatch, tmp_path: Path) -> None:
    broken = tmp_path / "broken.ttc"
    broken.write_bytes(b"not a font")
    monkeypatch.setattr(fonts, "CJK_PATHS", {False: [str(broken)], True: [str(broken)]})
    monkeypatch.setattr(fonts, "EMOJI_PATHS", [str(broken)])
    monkeypatch.setattr(fonts, "CJK_SUBSET", "NoSuchFont.otf")
    assert [face.name for face in fonts.stack().faces] == ["DejaVuSans.ttf"]
    assert seat_name(["小明", "🦊Zoë"], 0) == "Player 1"
    assert seat_name(["小明", "🦊Zoë"], 1) == "Zoë"
    state = GAMES["vivarium"].new(2, 1)
    assert render.render_board("vivarium", state.view(None), ["小明", "🦊Zoë"])
    monkeypatch.setattr(fonts, "DEJAVU", {False: "Gone.ttf", True: "Gone-Bold.ttf"})
    fonts.clear_caches()
    assert fonts.stack().faces == ()
    assert font(30).getlength("Zoë") > 0
    assert render.render_board("vivarium", state.view(None), ["小明", "🦊Zoë"])


def played(game: str, players: int, steps: int, seed: int):
    """A position after ``steps`` random moves that keep the game going (no concession)."""
    state = GAMES[game].new(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, rng.choice([a for a in actions if a.verb not in ("concede", "resign")] or actions))
    return state


NAMES = ["小明", "João", "🦊Zoë", "阿里巴巴與四十大盜的故事很長的名字"]


@pytest.mark.parametrize("game,players", [("fox-duet", 2), ("noctiluca", 4), ("vivarium", 4), ("tm-dice", 4)])
@pytest.mark.parametrize("steps", [30, 3000])
def test_cjk_and_emoji_names_stay_in_their_slots(game: str, players: int, steps: int) -> None:
    """Names drawn on boards and hands never leave the image nor run into other words."""
    state = played(game, players, steps, seed=2)
    for names in (NAMES[:players], NAMES[::-1][:players]):
        with recorded_text() as records:
            render.render_board(game, state.view(None), names)
            render.render_hand(game, state.view(players - 1), names, players - 1)
        assert any("小明" in r.text or "阿里巴巴" in r.text for r in records)
        problems = [p for p in overflows(records) if any(part in p for part in ("小明", "João", "Zoë", "阿里巴巴"))]
        assert problems == []


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "1", "P", "LA"])
def test_mixed_text_draws_on_every_image_mode(mode: str) -> None:
    image = Image.new(mode, (500, 120))
    fill = 7 if mode == "P" else "white"
    put_text(
        ImageDraw.Draw(image), (10, 60), MIXED + " 👨\u200d👩\u200d👧", font=font(30, True), fill=fill, anchor="lm"
    )
    assert image.getbbox() is not None
    if mode == "P":
        assert image.getcolors() is not None and {index for _, index in image.getcolors()} == {0, 7}
