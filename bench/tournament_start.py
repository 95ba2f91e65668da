"""How soon `/tournament start` answers, and how soon round 1's pairings are posted.

The real bot (``MeepleBot``, its render workers and a SQLite file in a temporary folder) against
the loopback emulator, in one process as the emulator tests run it. ``--entrants`` members sign
up with the **Join** button; then the organiser runs `/tournament start`, and the script prints,
from the moment the command is sent:

- ``first answer``: the bot's first callback (the deferral, shown as "thinking…" on Discord);
- ``final answer``: the private reply that replaces "thinking…";
- ``pairings``: the round's pairings posted in the tournament's channel, with a link to every
  table (``--limit``: the target, 2 s by default);
- ``tables ready``: every table's board posted in its thread.

The drawing workers are started before (a board drawn once), as in a bot that has been running;
``--cold`` leaves them to start with the first board, which then waits for them (seconds on a
loaded machine; the answer and the pairings do not).

Each run is a fresh emulator, bot and database; ``--runs`` repeats it and prints each run and the
median. ``--profile FILE`` writes a cProfile of the bot's event loop during one start (open it
with ``python -m pstats FILE``); py-spy works too: ``py-spy record -o out.svg -- .venv/bin/python
bench/tournament_start.py``.

    .venv/bin/python bench/tournament_start.py [--entrants 16] [--game vivarium] [--format swiss]
        [--players-per-table 2] [--runs 3] [--cold] [--profile FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # before bench/ itself, whose ai.py would hide the ai package

from bot.client import MeepleBot  # noqa: E402
from emulator.emulator import Emulator  # noqa: E402
from emulator.testing import make_world, running  # noqa: E402
from services.config import Config  # noqa: E402

PATIENCE = 120.0


@dataclass(frozen=True)
class Run:
    first_answer: float
    final_answer: float
    pairings: float
    tables_ready: float
    tables: int


async def one_run(args: argparse.Namespace, folder: Path, profile: cProfile.Profile | None) -> Run:
    async with Emulator(heartbeat_interval=1.0) as emu:
        world = make_world(emu)
        users = []
        for n in range(args.entrants):
            user = emu.add_user(f"p{n}", global_name=f"Player {n:02d}")
            emu.add_member(world.guild, user)
            users.append(user)
        config = Config(
            token=emu.bot_token,
            database=folder / "meeple.db",
            dev_guild=world.guild.id,
            api_base=emu.base_url,
            log_level="WARNING",
        )
        async with running(emu, MeepleBot(config)) as bot:
            options = {"name": "Bench", "game": args.game, "format": args.format}
            if args.players_per_table:
                options["players_per_table"] = args.players_per_table
            created = await (await emu.slash(world.owner, world.channel, "tournament create", options)).final_message()
            found = re.search(r"#(\d+)", created.content)
            assert found, created.content
            tid = int(found.group(1))
            signup = next(m for m in reversed(emu.messages(world.channel)) if f"#{tid})" in m.content)
            for user in users:
                await (await emu.click(user, signup, label="Join")).final_message()
            await bot.tournaments.idle()
            if not args.cold:
                await warm_up(bot, args.game)
            before = len(emu.messages(world.channel))

            def pairings_posted() -> bool:
                return any("<#" in m.content for m in emu.messages(world.channel)[before:])

            tables: list = []

            def boards_posted() -> bool:
                posted = [m for m in emu.messages(world.channel)[before:] if "<#" in m.content]
                if not posted:
                    return False
                linked = {int(x) for x in re.findall(r"<#(\d+)>", posted[0].content)}
                tables[:] = [emu.state.channels[x] for x in linked if x in emu.state.channels]
                return all(any(m.attachments for m in c.messages) for c in tables)

            async def timed(waiting: object) -> float:
                await waiting  # type: ignore[misc]
                return time.perf_counter() - began

            if profile is not None:
                profile.enable()
            began = time.perf_counter()
            invocation = await emu.slash(world.owner, world.channel, "tournament start", {"tournament": tid})
            first, final, pairings, ready = await asyncio.gather(
                timed(invocation.response(PATIENCE)),
                timed(invocation.final_message(PATIENCE)),
                timed(emu.wait_until(pairings_posted, PATIENCE, "the pairings")),
                timed(emu.wait_until(boards_posted, PATIENCE, "every table's board")),
            )
            if profile is not None:
                profile.disable()
            await bot.tournaments.idle()
            return Run(first, final, pairings, ready, len(tables))


async def warm_up(bot: MeepleBot, game: str) -> None:
    """Draw a board and a hand once, as a bot that has been running has: the drawing workers are
    started at the first drawing (seconds on a loaded machine), which ``--cold`` measures too."""
    from engine import GAMES

    state = GAMES[game].new(2, 1)
    view = state.view(0)
    assert bot.flow is not None
    pictures = bot.flow.pictures
    await asyncio.gather(*(pictures.board(0, game, view, ["A", "B"], "en") for _ in range(max(1, pictures.workers))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=16)
    parser.add_argument("--game", default="vivarium")
    parser.add_argument("--format", default="swiss")
    parser.add_argument("--players-per-table", type=int, default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=float, default=2.0, help="the target for the pairings, in seconds")
    parser.add_argument("--cold", action="store_true", help="measure with drawing workers not yet started")
    parser.add_argument("--profile", type=Path, default=None, help="write a cProfile of the first run here")
    args = parser.parse_args()
    print(f"load average before: {_load()}", flush=True)
    runs: list[Run] = []
    for n in range(args.runs):
        profile = cProfile.Profile() if args.profile is not None and n == 0 else None
        with tempfile.TemporaryDirectory() as folder:
            run = asyncio.run(one_run(args, Path(folder), profile))
        if profile is not None:
            profile.dump_stats(args.profile)
        runs.append(run)
        print(
            f"run {n + 1}: {run.tables} tables; first answer {run.first_answer * 1000:.0f} ms, "
            f"final answer {run.final_answer * 1000:.0f} ms, pairings {run.pairings * 1000:.0f} ms, "
            f"tables ready {run.tables_ready * 1000:.0f} ms",
            flush=True,
        )
    median = {
        "first answer": statistics.median(r.first_answer for r in runs),
        "final answer": statistics.median(r.final_answer for r in runs),
        "pairings": statistics.median(r.pairings for r in runs),
        "tables ready": statistics.median(r.tables_ready for r in runs),
    }
    print(
        f"/tournament start, {args.entrants} entrants, {args.game} {args.format}, median of {len(runs)}: "
        + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in median.items())
    )
    verdict = "within" if median["pairings"] < args.limit else "OVER"
    print(f"pairings posted {verdict} the {args.limit:.1f} s target; load average after: {_load()}")


def _load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


if __name__ == "__main__":
    main()
