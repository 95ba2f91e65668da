"""services/tasks.py: background tasks kept until they end, an error said once, loops started again."""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest

from services.tasks import Tasks, awaited, log_every_task


async def test_a_task_nobody_else_holds_is_kept_until_it_ends() -> None:
    tasks, gate, finished = Tasks(), asyncio.Event(), []

    async def work() -> None:
        await gate.wait()
        finished.append(True)

    tasks.start(work(), name="meeple-test-kept")  # the task object is dropped at once
    for _ in range(3):
        gc.collect()
        await asyncio.sleep(0)
    assert len(tasks) == 1
    gate.set()
    await tasks.idle()
    assert finished == [True] and len(tasks) == 0, "it ran to its end, then was let go"


async def test_an_error_is_logged_once_with_the_task_name_and_not_its_data(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    tasks = Tasks()

    async def fails(hand: str) -> None:
        raise ValueError("broken")

    task = tasks.start(fails("secret-hand"), name="meeple-test-fails")
    await tasks.idle()
    assert isinstance(task.exception(), ValueError)
    said = [r for r in caplog.records if r.exc_info]
    assert len(said) == 1, "said once, however many look at the task"
    assert "meeple-test-fails" in said[0].getMessage()
    assert "secret-hand" not in said[0].getMessage()


async def test_an_owner_says_the_error_in_its_own_words_or_leaves_it_to_who_awaits(
    caplog: pytest.LogCaptureFixture,
) -> None:
    tasks, seen = Tasks(), []

    async def fails() -> None:
        raise KeyError("x")

    tasks.start(fails(), name="meeple-test-own", on_error=seen.append)
    awaited_task = tasks.start(fails(), name="meeple-test-awaited", on_error=awaited)
    await tasks.idle()
    assert [type(e) for e in seen] == [KeyError]
    assert not [r for r in caplog.records if r.exc_info], "neither is logged by the group"
    with pytest.raises(KeyError):
        await awaited_task


async def test_a_loop_that_must_not_die_starts_again_after_a_pause_that_doubles(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pauses: list[float] = []
    now = [0.0]

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        await asyncio.sleep(0)

    tasks = Tasks(sleep=sleep, clock=lambda: now[0])
    runs = []

    async def loop() -> None:
        runs.append(len(runs))
        if len(runs) <= 4:
            raise OSError("the database is away")
        if len(runs) == 5:
            now[0] += 1000  # a long healthy run, then a failure: the pause starts over
            raise OSError("away again")

    task = tasks.forever(loop, "meeple-test-loop", first=1, most=5, healthy=300)
    await asyncio.wait_for(task, 5)
    assert len(runs) == 6, "started again after each failure, until it returned"
    assert pauses == [1, 2, 4, 5, 1]
    assert tasks.restarts == 5
    failed = [r for r in caplog.records if r.exc_info]
    assert len(failed) == 5 and all("meeple-test-loop" in r.getMessage() for r in failed)
    assert task.done() and task.exception() is None


async def test_close_cancels_and_awaits_every_task_and_no_loop_starts_again() -> None:
    tasks, cancelled = Tasks(), []

    async def waits_forever(tag: str) -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await asyncio.sleep(0)  # some cleanup with an await: close waits for it
            cancelled.append(tag)
            raise

    async def loop() -> None:
        await waits_forever("loop")

    one = tasks.start(waits_forever("one"), name="meeple-test-one")
    ticker = tasks.forever(loop, "meeple-test-ticker")
    await asyncio.sleep(0)
    assert await tasks.close() == 2
    assert sorted(cancelled) == ["loop", "one"], "each was cancelled and its cleanup awaited"
    assert one.cancelled() and ticker.done() and len(tasks) == 0
    assert tasks.closing


async def test_close_gives_a_grace_to_finish_first() -> None:
    tasks, done = Tasks(), []

    async def short() -> None:
        await asyncio.sleep(0.01)
        done.append(True)

    tasks.start(short(), name="meeple-test-short")
    assert await tasks.close(grace=5) == 0
    assert done == [True]


def test_bot_starts_background_tasks_only_through_the_helper() -> None:
    """A bare ``create_task`` or ``ensure_future`` drops its task unless someone keeps it: the
    helper is the one place that does (and says its errors)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    bare = []
    for path in sorted(p for folder in ("bot", "services", "league") for p in (root / folder).rglob("*.py")):
        if path == root / "services" / "tasks.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in {"create_task", "ensure_future"}:
                bare.append(f"{path.relative_to(root)}:{node.lineno} {node.attr}")
    assert bare == []


async def test_every_task_is_logged_with_what_it_waits_on(caplog: pytest.LogCaptureFixture) -> None:
    """SIGUSR1's answer (bot/__main__.py): each task's name and the line it waits at."""
    tasks, gate = Tasks(), asyncio.Event()

    async def stuck_on_the_gate() -> None:
        await gate.wait()

    tasks.start(stuck_on_the_gate(), name="meeple-test-stuck")
    await asyncio.sleep(0)
    with caplog.at_level(logging.WARNING, logger="meeple.tasks"):
        log_every_task()
    said = "\n".join(r.getMessage() for r in caplog.records)
    assert "meeple-test-stuck" in said and "stuck_on_the_gate" in said and "await gate.wait()" in said
    gate.set()
    await tasks.close()
