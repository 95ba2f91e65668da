"""A finished game's replay: rebuilt and drawn in a drawing worker, after live boards, frame by frame."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import random
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render.replay
import services.replays
from bot.client import MeepleBot
from emulator.testing import running
from engine import GAMES
from render import RENDERERS
from render.replay import (
    LAST_FRAME_MS,
    MIN_WIDTH,
    STEP_MS,
    encode_animation,
    extension_of,
    replay_animation,
    smaller,
)
from services import history
from services.pictures import Pictures, _Job
from services.replays import LoggedPositions, ReplayOrder, draw_replay, publics
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import is_board

NAMES = ["Ann", "Bo"]


def fox_order(seed: int = 4, moves: int | None = None, locale: str = "en") -> ReplayOrder:
    """A seeded Fox Duet game's order: played to its end, or for ``moves`` moves."""
    game = GAMES["fox-duet"]
    state = game.new(2, seed, {}, rules_version=game.rules_version)
    chooser = random.Random(seed)
    actions: list[tuple[int, str]] = []
    while state.outcome() is None and (moves is None or len(actions) < moves):
        seat = state.to_move()[0]
        legal = [a for a in state.legal_actions(seat) if game.action_kind(a) not in ("concede", "resign")]
        action = chooser.choice(legal)
        state.apply(seat, action)
        actions.append((seat, action.text))
    return ReplayOrder("fox-duet", 2, seed, {}, game.rules_version, actions, NAMES, locale)


def durations(data: bytes) -> list[int]:
    with Image.open(io.BytesIO(data)) as image:
        found = []
        for index in range(image.n_frames):
            image.seek(index)
            image.load()
            found.append(image.info["duration"])
        return found


def test_the_worker_rebuilds_every_position_from_the_log() -> None:
    order = fox_order(moves=6)
    views = publics(order)
    state = GAMES["fox-duet"].new(2, order.seed, {}, rules_version=order.rules_version)
    assert len(views) == 7 and views[0] == state.view(None)["public"]
    for seat, text in order.actions:
        state.apply(seat, text)
    assert views[-1] == state.view(None)["public"]
    positions = LoggedPositions(order)  # as a replay asks: forward, and back to the start on a retry
    assert [positions[6], positions[2], positions[0], positions[-1]] == [views[6], views[2], views[0], views[6]]
    assert len(positions) == 7 and positions[1:3] == views[1:3]
    with pytest.raises(IndexError):
        positions[7]


def test_the_worker_replays_a_resignation_as_the_bots_log_does() -> None:
    """``resign`` in the log is the out-of-turn extension (services.history.apply_logged), here too."""
    resigning = [key for key, game in GAMES.items() if game.supports_resign()]
    assert resigning
    for key in resigning:
        game = GAMES[key]
        players = max(2, game.min_players)
        state = game.new(players, 3, {}, rules_version=game.rules_version)
        seat = state.to_move()[0]
        first = state.legal_actions(seat)[0].text
        log = [(seat, first), ((seat + 1) % players, "resign")]
        order = ReplayOrder(key, players, 3, {}, game.rules_version, log, NAMES[:players], "en")
        for entry_seat, text in log:
            history.apply_logged(state, entry_seat, text)
        assert state.outcome() is not None
        assert LoggedPositions(order)[-1] == state.view(None)["public"]


async def test_a_replay_is_drawn_in_a_worker_process_and_never_in_this_one(monkeypatch: pytest.MonkeyPatch) -> None:
    def here(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a replay drawn in the bot process")

    # Patched here only: a worker process imports the real ones.
    monkeypatch.setattr(services.replays, "draw_replay", here)
    monkeypatch.setattr(render.replay, "replay_animation", here)
    pictures = Pictures(workers=1)
    try:
        order = fox_order(moves=5)
        data = await pictures.replay(1, order)
        assert pictures.drawn["replay"] == 1 and pictures.pids()
        assert extension_of(data) == "webp"
        with Image.open(io.BytesIO(data)) as image:
            assert image.n_frames == 6 and image.width == 800
    finally:
        pictures.close()


class RecordingPictures(Pictures):
    """Pictures that note the order of what they draw, and hold the workers until ``gate`` opens."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.gate = asyncio.Event()
        self.order: list[str] = []

    async def _draw(self, job: _Job) -> bytes:
        self.order.append(job.kind)
        await self.gate.wait()
        return f"{job.kind}".encode()


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_replay_waits_behind_boards_and_hands() -> None:
    pictures = RecordingPictures(workers=1)
    view = GAMES["fox-duet"].new(2, 1).view(None)
    first = asyncio.create_task(pictures.board(1, "fox-duet", view, NAMES, "en", latest=True))
    await asyncio.sleep(0)
    replay = asyncio.create_task(pictures.replay(2, fox_order(moves=1)))
    await asyncio.sleep(0)
    board = asyncio.create_task(pictures.board(3, "fox-duet", view, NAMES, "en", latest=True))
    hand = asyncio.create_task(pictures.hand(4, 0, "fox-duet", view, NAMES, 0, "en"))
    await asyncio.sleep(0)
    assert not pictures.busy or pictures.queue_limit <= 3  # a replay waiting does not make clicks wait
    pictures.gate.set()
    await asyncio.gather(first, replay, board, hand)
    assert pictures.order == ["board", "hand", "board", "replay"]


async def test_replays_leave_a_worker_free_for_live_boards() -> None:
    pictures = RecordingPictures(workers=2)
    view = GAMES["fox-duet"].new(2, 1).view(None)
    replays = [asyncio.create_task(pictures.replay(game, fox_order(moves=1))) for game in (1, 2)]
    await settle()
    assert pictures.order == ["replay"]  # the second replay waits: one worker stays for boards
    board = asyncio.create_task(pictures.board(3, "fox-duet", view, NAMES, "en", latest=True))
    await settle()
    assert pictures.order == ["replay", "board"]
    pictures.gate.set()
    await asyncio.gather(*replays, board)
    assert pictures.order == ["replay", "board", "replay"]


@pytest.fixture
def live_frames(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    """Count the images alive as big as a frame (the renderers' caches of small pieces are left
    out), among those made from now on: every Pillow image goes through ``Image.__init__``. What
    was alive before is frozen out of the collector, so each count's collection looks only at the
    test's own objects (a worker that ran hundreds of tests holds millions)."""
    made: list[weakref.ref[Image.Image]] = []  # images are unhashable: no WeakSet
    init = Image.Image.__init__

    def counted(self: Image.Image, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(weakref.ref(self))

    monkeypatch.setattr(Image.Image, "__init__", counted)
    gc.collect()
    gc.freeze()

    def count() -> int:
        gc.collect()
        made[:] = [ref for ref in made if ref() is not None]
        return sum(1 for ref in made if (image := ref()) is not None and image.width >= 320)

    try:
        yield count
    finally:
        gc.unfreeze()


def test_frames_are_streamed_into_the_encoder_not_kept(
    monkeypatch: pytest.MonkeyPatch, live_frames: Callable[[], int]
) -> None:
    """However many frames, only a few images are alive at once while the replay is drawn."""
    seen: list[int] = []

    class CountingSink:
        def __init__(self) -> None:
            self.frames = 0

        def add(self, frame: Image.Image) -> None:
            self.frames += 1
            seen.append(live_frames())

        def finish(self) -> tuple[bytes, str]:
            return b"", "webp"

    monkeypatch.setattr(render.replay, "new_sink", CountingSink)
    views = publics(fox_order(moves=29))
    RENDERERS["fox-duet"].board(views[0], NAMES)  # the renderer's own caches, filled once
    before = live_frames()
    replay_animation("fox-duet", views, NAMES, caption=lambda step, steps: f"{step}/{steps}")
    assert len(seen) == 30
    assert max(seen) - before <= 2, seen  # the frame being added, never the 29 before


def test_the_webp_encoder_lets_each_frame_go_once_added() -> None:
    alive: list[weakref.ref[Image.Image]] = []

    def frames() -> Iterator[Image.Image]:
        for shade in range(12):
            gc.collect()
            assert sum(ref() is not None for ref in alive) <= 1, "an earlier frame is still held"
            frame = Image.new("RGB", (160, 90), (shade * 20, 40, 90))
            alive.append(weakref.ref(frame))
            yield frame

    data, extension = encode_animation(frames())
    assert extension == "webp" and extension_of(data) == "webp"
    assert durations(data) == [STEP_MS] * 11 + [LAST_FRAME_MS]


def test_without_the_streaming_encoder_pillow_draws_the_same_animation(monkeypatch: pytest.MonkeyPatch) -> None:
    views = publics(fox_order(moves=3))
    streamed, _ = replay_animation("fox-duet", views, NAMES)
    monkeypatch.setattr(render.replay, "streaming_webp", lambda: False)
    kept, extension = replay_animation("fox-duet", views, NAMES)
    assert extension == "webp" and durations(kept) == durations(streamed) == [STEP_MS] * 3 + [LAST_FRAME_MS]
    with Image.open(io.BytesIO(kept)) as a, Image.open(io.BytesIO(streamed)) as b:
        assert a.size == b.size and a.n_frames == b.n_frames == 4


def test_an_oversized_replay_skips_the_sizes_that_cannot_fit() -> None:
    # 10 MB for 120 frames 800 wide against 8 MB: the first step (600 wide, 72 frames) is enough.
    assert smaller(800, 120, 300, 120, 10_000_000, 8_000_000) == (600, 72)
    # 50 MB: 600x72 (~22 MB) and 450x43 (~9.5 MB) would not fit either; 337x25 (~4 MB) should.
    assert smaller(800, 120, 300, 120, 50_000_000, 8_000_000) == (337, 25)
    # A short game has fewer frames than the limit: only the width shrinks.
    assert smaller(800, 120, 15, 15, 9_000_000, 8_000_000) == (600, 72)
    # Never below the smallest width, whatever the size.
    assert smaller(800, 120, 300, 120, 10**12, 8_000_000)[0] == MIN_WIDTH


def test_an_over_budget_replay_draws_again_once_not_at_every_step(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[int] = []
    real = RENDERERS["fox-duet"]

    class Counting:
        def board(self, public: Any, names: Any, *, locale: str = "en", phone: bool = True) -> Image.Image:
            drawn.append(1)
            return real.board(public, names, locale=locale, phone=phone)

    views = publics(fox_order(moves=14))
    full, _ = replay_animation("fox-duet", views, NAMES)
    monkeypatch.setitem(RENDERERS, "fox-duet", Counting())
    # Half the size: 600 and 450 wide (~73 and ~53 %) would not do, 337 (~39 %) should; only it is drawn.
    fitted, _ = replay_animation("fox-duet", views, NAMES, budget=len(full) // 2)
    assert len(fitted) <= len(full) // 2
    assert len(drawn) == 15 + 15, "drawn in full once, then once at the size expected to fit"
    with Image.open(io.BytesIO(fitted)) as image:
        assert image.width == 337 and image.n_frames == 15


def test_draw_replay_captions_every_frame_in_the_tables_language() -> None:
    english = draw_replay(fox_order(moves=2))
    portuguese = draw_replay(fox_order(moves=2, locale="pt-BR"))
    with Image.open(io.BytesIO(english)) as a, Image.open(io.BytesIO(portuguese)) as b:
        a.seek(1)
        b.seek(1)
        band_a = a.convert("RGB").crop((0, 0, a.width, 30)).tobytes()
        band_b = b.convert("RGB").crop((0, 0, b.width, 30)).tobytes()
    assert band_a != band_b


def test_the_replay_benchmark_runs_both_ways(tmp_path: Path) -> None:
    """bench/replay.py on a tiny configuration, so it keeps working (no timing is checked)."""
    out = tmp_path / "replay.json"
    done = subprocess.run(
        [sys.executable, "bench/replay.py", "--game", "fox-duet", "--seeds", "1", "--max-moves", "3"]
        + ["--json", str(out)],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "load average before" in done.stdout and "load average after" in done.stdout
    rows = json.loads(out.read_text())["rows"]
    assert [(r["log"], r["way"]) for r in rows] == [(log, way) for log in ("short", "long") for way in ("old", "new")]
    for old, new in (rows[:2], rows[2:]):
        assert old["frames"] == new["frames"] == 4 and old["width"] == new["width"] == 800
        assert old["peak_mb"] > 0 and new["cpu_s"] > 0 and old["bot_cpu_ms"] > new["bot_cpu_ms"]


# -- through the emulator -------------------------------------------------------------------


async def test_the_bots_threads_never_draw_or_rebuild_a_replay(emu, world, config_for, monkeypatch) -> None:
    threads: list[str] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        raise AssertionError("a replay drawn in the bot process")

    monkeypatch.setattr(services.replays, "draw_replay", spy)
    monkeypatch.setattr(services.replays, "publics", spy)
    monkeypatch.setattr(render.replay, "replay_animation", spy)
    monkeypatch.setattr(render.replay, "encode_animation", spy)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as meeple:
        await join_and_start(emu, world, await open_table(emu, world))
        asked = await emu.slash(world.alice, world.channel, "table resign")
        confirm = await asked.final_message()
        await (await emu.click(world.alice, confirm, label=confirm.buttons()[0]["label"])).response()

        def final() -> Any:
            boards = [m for m in emu.messages(world.channel) if is_board(m)]
            return boards[-1] if boards else None

        await emu.wait_until(
            lambda: final() is not None and len(final().attachments) == 2, what="the replay attached", timeout=60
        )
        replay = final().attachments[1]
        assert replay.filename == "replay.webp"
        assert replay.description.startswith("Animated replay of ")  # its alt text: game, players, moves
        assert "Alice" in replay.description and "Bob" in replay.description
        assert meeple.flow.pictures.drawn["replay"] == 1
        assert threads == []


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_draws_a_replay_of_its_moves(key: str) -> None:
    """A few moves of each game, at its largest table, drawn as the worker draws a finished game's
    replay (the whole-game emulator tests skip their replays; this keeps every renderer's frames
    drawn): an animation of one frame per position, the last one the final position."""
    game = GAMES[key]
    players = game.max_players
    state = game.new(players, 11, {}, rules_version=game.rules_version)
    chooser = random.Random(11)
    actions: list[tuple[int, str]] = []
    while state.outcome() is None and len(actions) < 5:
        seat = state.to_move()[0]
        legal = [a for a in state.legal_actions(seat) if game.action_kind(a) not in ("concede", "resign")]
        action = chooser.choice(legal)
        state.apply(seat, action)
        actions.append((seat, action.text))
    names = ["Ann", "Bo", "小明", "Zé 🎲"][:players]
    order = ReplayOrder(key, players, 11, {}, game.rules_version, actions, names, "pt-BR")
    data = draw_replay(order)
    with Image.open(io.BytesIO(data)) as image:
        assert image.n_frames == len(actions) + 1, (key, image.n_frames)
    assert LoggedPositions(order)[-1] == state.view(None)["public"]
