"""Drawing workers are replaced between two drawings once they have grown or served their count."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from io import BytesIO

import pytest
from PIL import Image

import render
from ai.workers import RecyclingPool, measured, rss_bytes
from engine import GAMES
from services import pictures as pictures_module
from services.pictures import Pictures

GIB = 2**30
NAMES = ["Ann", "Bo"]


def results(pool: RecyclingPool, count: int) -> list[int]:
    """The pid of the worker that ran each of ``count`` tasks given one after another."""
    return [pool.submit(os.getpid).result(timeout=120) for _ in range(count)]


def test_a_worker_is_replaced_after_its_number_of_tasks() -> None:
    pool = RecyclingPool(1, max_rss=GIB, max_tasks=2)
    try:
        pids = results(pool, 4)
    finally:
        pool.shutdown()
    assert pids[0] == pids[1] != pids[2] == pids[3]
    assert pool.replaced == 2
    assert os.getpid() not in pids


def test_a_worker_past_its_memory_is_replaced_and_the_tasks_go_on() -> None:
    pool = RecyclingPool(1, max_rss=1)  # every worker is over one byte after its first task
    try:
        pids = results(pool, 3)
    finally:
        pool.shutdown()
    assert len(set(pids)) == 3
    assert pool.replaced == 3


def test_a_failing_task_fails_its_caller_and_keeps_its_worker() -> None:
    pool = RecyclingPool(1, max_rss=GIB)
    try:
        first = pool.submit(os.getpid).result(timeout=120)
        failed: Future[int] = pool.submit(int, "not a number")
        with pytest.raises(ValueError):
            failed.result(timeout=120)
        assert pool.submit(os.getpid).result(timeout=120) == first
    finally:
        pool.shutdown()
    assert pool.replaced == 0


def test_a_killed_worker_fails_its_task_and_the_next_task_gets_a_new_one() -> None:
    pool = RecyclingPool(1, max_rss=GIB)
    try:
        first = pool.submit(os.getpid).result(timeout=120)
        sleeping = pool.submit(time.sleep, 60)
        os.kill(first, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            sleeping.result(timeout=120)
        assert pool.submit(os.getpid).result(timeout=120) not in (first, os.getpid())
    finally:
        pool.shutdown()
    assert pool.replaced == 1


def test_a_task_reports_the_rss_of_its_worker() -> None:
    result, rss = measured(GIB, sum, [1, 2, 3])
    assert result == 6
    assert 10 * 2**20 < rss and abs(rss - rss_bytes()) < 64 * 2**20


async def test_pictures_keep_drawing_across_replaced_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pictures_module, "WORKER_MAX_DRAWINGS", 1)
    game = GAMES["fox-duet"]
    state = game.new(2, 5)
    pictures = Pictures(workers=1)
    try:
        for game_id in (1, 2, 3):
            png = await pictures.board(game_id, "fox-duet", state.view(None), NAMES, "en")
            assert png == render.render_board("fox-duet", state.view(None), NAMES, "en")
            assert pictures.pids() == []  # retired as its drawing came back; the next starts with the next one
        hand = await pictures.hand(1, state.version, "fox-duet", state.view(0), NAMES, 0, "en")
        assert Image.open(BytesIO(hand)).size[0] > 0
        pool = pictures._pool
        assert isinstance(pool, RecyclingPool)
        assert pool.replaced == 4  # one worker per drawing, and not one pool broken
    finally:
        pictures.close()
    assert pictures.drawn["board"] == 3
