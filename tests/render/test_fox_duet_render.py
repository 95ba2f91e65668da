"""The fox-duet board and hand images, drawn from hand-made views in the documented shape."""

from __future__ import annotations

import ast
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
from render.fox_duet import BOARD_BUDGET, HAND_BUDGET
from render.fox_duet.board_picture import suit_label
from render.phone import key_lines
from tests.render.fits_common import played as played_game

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Alice", "Bob"]
FOOTPRINTS = {1: 0, 2: 3, 3: 2, 4: 1, 5: 1, 6: 2, 7: 0, 8: 2, 9: 0, 10: 3}
ABILITY = {1: "musician", 3: "fox", 5: "gazelle", 7: "gift", 9: "royal"}
SIDE_A = [(1, False), (1, True), (2, False), (1, True), (1, True), (0, False), (1, True), (1, False), (2, True)]
SIDE_A += [(1, False), (1, False)]


def card(suit: str, rank: int) -> dict[str, Any]:
    return {
        "id": f"{suit}-{rank}",
        "suit": suit,
        "rank": rank,
        "footprints": FOOTPRINTS[rank],
        "ability": ABILITY.get(rank),
    }


def played(seat: int, suit: str, rank: int) -> dict[str, Any]:
    return {"seat": seat, "card": card(suit, rank)}


def spaces(gems: list[int] | None = None, covered: frozenset[int] | set[int] = frozenset()) -> list[dict[str, Any]]:
    return [
        {
            "covered": i in covered,
            "gems": (gems[i] if gems is not None else g),
            "plus": plus,
            "diamond": False,
            "start": i == 5,
        }
        for i, (g, plus) in enumerate(SIDE_A)
    ]


def make_view(private: Any = None, **public: Any) -> dict[str, Any]:
    """A view at the start of a level-1 game, with ``public`` keys overridden."""
    base: dict[str, Any] = {
        "game": "fox-duet",
        "level": 1,
        "side": "A",
        "round": 1,
        "trick": 1,
        "dealer": 0,
        "leader": 1,
        "phase": "play",
        "to_move": [1],
        "spaces": spaces(),
        "tracker": 5,
        "forest_tokens_left": 4,
        "forest_tokens_total": 4,
        "gems_on_board": 12,
        "gems_collected": 0,
        "gems_in_supply": 10,
        "decree": card("rose", 6),
        "trick_cards": [],
        "last_trick": None,
        "hand_sizes": [11, 11],
        "deck_size": 7,
        "pending": {},
        "result": None,
    }
    base.update(public)
    if private is None:
        private = {"hand": [card("dove", 2), card("rose", 5), card("star", 9)], "gift": None}
    return {"public": base, "private": private}


def start_of_game() -> dict[str, Any]:
    return make_view()


def fox_phase_mid_trick() -> dict[str, Any]:
    return make_view(
        round=2,
        trick=4,
        leader=0,
        phase="fox-pick",
        to_move=[0],
        tracker=3,
        trick_cards=[played(0, "star", 3)],
        pending={"fox_player": 0},
        last_trick={
            "cards": [played(1, "dove", 8), played(0, "dove", 4)],
            "winner": 1,
            "steps": 3,
            "toward": 1,
            "overshoot": False,
            "gem": True,
        },
        hand_sizes=[8, 8],
        gems_on_board=9,
        gems_collected=8,
        gems_in_supply=5,
    )


def covered_with_slid_gems() -> dict[str, Any]:
    gems = [0, 0, 3, 1, 0, 0, 2, 1, 5, 0, 0]
    return make_view(
        round=3,
        trick=2,
        leader=1,
        phase="play",
        to_move=[1],
        spaces=spaces(gems, covered={0, 1, 9, 10}),
        tracker=2,
        forest_tokens_left=0,
        gems_on_board=sum(gems),
        gems_collected=10,
        gems_in_supply=0,
        decree=card("dove", 3),
        last_trick={
            "cards": [played(0, "rose", 10), played(1, "dove", 7)],
            "winner": 1,
            "steps": 3,
            "toward": 0,
            "overshoot": True,
            "gem": False,
        },
        hand_sizes=[10, 10],
    )


def game_won() -> dict[str, Any]:
    return make_view(
        round=2,
        trick=9,
        phase="over",
        to_move=[],
        spaces=spaces([0] * 11, covered={10}),
        tracker=7,
        forest_tokens_left=2,
        gems_on_board=0,
        gems_collected=17,
        last_trick={
            "cards": [played(1, "star", 5), played(0, "star", 2)],
            "winner": 0,
            "steps": 4,
            "toward": 0,
            "overshoot": False,
            "gem": True,
        },
        hand_sizes=[2, 2],
        result={"won": True, "reason": "all-gems", "score": 37},
    )


def game_lost() -> dict[str, Any]:
    return make_view(
        level=2,
        side="B",
        round=3,
        trick=6,
        phase="over",
        to_move=[],
        spaces=[
            dict(s, diamond=i in (0, 3, 8))
            for i, s in enumerate(spaces([0, 0, 0, 0, 2, 0, 1, 0, 1, 0, 0], covered={0, 1, 2, 10}))
        ],
        tracker=5,
        forest_tokens_left=0,
        forest_tokens_total=3,
        gems_on_board=4,
        gems_collected=9,
        last_trick={
            "cards": [played(0, "rose", 2), played(1, "rose", 10)],
            "winner": 1,
            "steps": 6,
            "toward": 1,
            "overshoot": True,
            "gem": False,
        },
        hand_sizes=[5, 5],
        result={"won": False, "reason": "no-forest-token", "score": 0},
    )


def empty_hand() -> dict[str, Any]:
    return make_view(private={"hand": [], "gift": None}, hand_sizes=[0, 0], trick=11)


def full_hand() -> dict[str, Any]:
    hand = [card("dove", r) for r in (1, 3, 4, 9)]
    hand += [card("rose", r) for r in (2, 5, 7)]
    hand += [card("star", r) for r in (6, 8, 10, 1)]
    return make_view(
        private={"hand": hand, "gift": card("rose", 7)},
        phase="gift",
        to_move=[0],
        pending={"chosen": [False, True]},
    )


BOARD_VIEWS = {
    "start": start_of_game,
    "fox-mid-trick": fox_phase_mid_trick,
    "covered-slid-gems": covered_with_slid_gems,
    "won": game_won,
    "lost": game_lost,
}
HAND_VIEWS = {"hand-start": start_of_game, "hand-empty": empty_hand, "hand-11": full_hand}


class ForbiddenDict(dict):
    """A private part that fails the test if the board reads anything from it."""

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("render_board read view['private']")

    __getitem__ = get = keys = values = items = __iter__ = __len__ = __contains__ = __bool__ = _fail  # type: ignore


class GuardedView(dict):
    """A view whose "private" key may not even be looked up."""

    def __getitem__(self, key: str) -> Any:
        if key == "private":
            raise AssertionError("render_board looked up view['private']")
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        if key == "private":
            raise AssertionError("render_board looked up view['private']")
        return super().get(key, default)


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.verify()
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("name", sorted(BOARD_VIEWS))
def test_board_is_a_landscape_png_within_budget(name: str) -> None:
    data = render.render_board("fox-duet", BOARD_VIEWS[name](), NAMES)
    image = open_png(data)
    assert image.width > image.height
    assert len(data) <= BOARD_BUDGET


@pytest.mark.parametrize("name", sorted(HAND_VIEWS))
def test_hand_is_a_landscape_png_within_budget(name: str) -> None:
    data = render.render_hand("fox-duet", HAND_VIEWS[name](), NAMES, 0)
    image = open_png(data)
    assert image.width > image.height
    assert len(data) <= HAND_BUDGET


@pytest.mark.parametrize("name", sorted(BOARD_VIEWS))
def test_board_never_reads_the_private_part(name: str) -> None:
    view = BOARD_VIEWS[name]()
    guarded = GuardedView(public=view["public"], private=ForbiddenDict(hand=[card("dove", 1)]))
    open_png(render.render_board("fox-duet", guarded, NAMES))


def test_board_of_a_public_view_without_private_cards() -> None:
    view = start_of_game()
    view["private"] = {}
    open_png(render.render_board("fox-duet", view, NAMES))


def test_hand_of_a_public_view_is_refused() -> None:
    view = start_of_game()
    view["private"] = {}
    with pytest.raises(ValueError):
        render.render_hand("fox-duet", view, NAMES, 0)


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError):
        render.render_board("no-such-game", start_of_game(), NAMES)


def test_long_and_emoji_names_still_render() -> None:
    names = ["Élodie the Extremely Long-Named Forest Wanderer 🦊", "🌲🌲"]
    open_png(render.render_board("fox-duet", fox_phase_mid_trick(), names))
    open_png(render.render_hand("fox-duet", full_hand(), names, 0))


def test_encode_png_falls_back_to_fit_a_small_budget() -> None:
    from render.common import encode_png

    noisy = Image.effect_noise((800, 450), 80).convert("RGB")
    data = encode_png(noisy, 60_000)
    assert len(data) <= 60_000
    open_png(data)


def test_shrink_png_makes_a_board_smaller() -> None:
    data = render.render_board("fox-duet", start_of_game(), NAMES)
    smaller = render.shrink_png(data, len(data) // 4)
    assert len(smaller) <= len(data) // 4
    open_png(smaller)


def imported_top_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_render_imports_nothing_from_the_bot_or_storage() -> None:
    files = sorted((ROOT / "render").rglob("*.py"))
    assert files
    for path in files:
        bad = imported_top_modules(path) & {"bot", "discord", "aiosqlite", "sqlite3"}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_boards_and_hands_are_palette_pngs_within_budget() -> None:
    """Boards and hands go out as 256-colour palette PNGs (cheaper to encode, fewer bytes)."""
    for data in (
        render.render_board("fox-duet", fox_phase_mid_trick(), NAMES),
        render.render_hand("fox-duet", full_hand(), NAMES, 0),
    ):
        with Image.open(io.BytesIO(data)) as image:
            assert image.mode == "P"
            assert len(image.getcolors(256) or []) > 16  # still many colours: not a crushed image


def test_palette_encode_falls_back_to_fit_a_small_budget() -> None:
    from render.common import encode_png

    noisy = Image.effect_noise((800, 450), 80).convert("RGB")
    data = encode_png(noisy, 60_000, optimize=False, palette=True)
    assert len(data) <= 60_000
    open_png(data)


@pytest.mark.parametrize("locale", ["en", "zh-TW", "pt-BR"])
def test_the_band_names_the_card_to_follow(locale: str) -> None:
    """On a phone the trick's cards are small: the band says which card was led, the one the other must follow."""
    checked = 0
    for view, _ in played_game("fox-duet", 2, 11):
        public = view["public"]
        trick = public.get("trick_cards") or []
        image = render.RENDERERS["fox-duet"].board(public, ["Alice", "Bob"], locale=locale)
        band = " ".join(line.text for line in key_lines(image) if line.role == "turn")
        if trick:
            led = trick[0]["card"]
            assert f"{suit_label(str(led['suit']), locale)} {led['rank']}" in band, band
            checked += 1
        else:
            assert not any(f"{suit_label(s, locale)} " in band for s in ("rose", "star", "dove")), band
        if checked >= 6:
            break
    assert checked >= 6
