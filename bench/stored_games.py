"""Games at a given stage, written into the bot's database before it starts (``load.py --stage stored``).

Each table's game is opened, joined and started through the bot's own ``GameService`` (so its
timing, language and rules version are what ``/table create`` would store), then played by
seeded random legal moves through the engine (concessions and resignations left out), each
committed with ``Database.commit_move`` as the bot commits a move. The moves before the last
were delivered long ago: the start's jobs are marked done and those moves carry no job. The last
move carries its board job (``services.game_service.delivery_jobs``: the board with that move's public
events), left pending: at start-up the bot's durable outbox (``Flow.resume_all``,
``Delivery.resume``) posts every seeded game's current board, exactly as after a restart, and
the load's users click on those boards.

How far in: the whole random game is played in the engine first (its length ``L``), then
``fraction * L`` of its moves are stored (a late game at most ``LATE_LEFT`` moves from its end),
at least one, at most ``MAX_MOVES_IN`` and never the last (the game is still running). The same
seed replays the same moves, so the stored game is the start of a game that ends.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine import GAMES
from services.game_service import GameService, delivery_jobs
from services.storage import Database, jobs

MAX_MOVES_IN = 300
# A random game that has not ended after this many moves is taken as this long (tm-dice played
# at random by 2-4 players runs to 800-1,700 moves; people end it far sooner).
LONGEST = 2_000
# Where a stage stands, as a share of its game's length.
STAGES = {"early": 0.15, "middle": 0.5, "late": 0.9}
# A late game is at most this many moves from its end, so that late games end during a run.
LATE_LEFT = 10


@dataclass(frozen=True)
class StoredTable:
    """One table to seed: who sits where (Discord ids and names, in seat order) and how far in."""

    game: str
    guild_id: int
    channel_id: int
    players: Sequence[tuple[int, str]]
    language: str
    stage: str
    seed: int


@dataclass(frozen=True)
class Seeded:
    game_id: int
    moves_in: int
    length: int  # moves of the whole random game (LONGEST when it did not end by then)


def random_game(key: str, players: int, seed: int) -> list[tuple[int, str]]:
    """(seat, action) of a seeded random game of ``key`` from its deal to its end (or LONGEST moves)."""
    game = GAMES[key]
    rng = random.Random(f"{key}:{players}:{seed}")
    state = game.new(players, seed, game.resolve_options({}))
    played: list[tuple[int, str]] = []
    while state.outcome() is None and len(played) < LONGEST:
        seat = rng.choice(state.to_move())
        actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in ("concede", "resign")]
        if not actions:
            break
        action = rng.choice(actions)
        state.apply(seat, action)
        played.append((seat, str(action)))
    return played


def moves_in(stage: str, length: int) -> int:
    """Moves to store of a game ``length`` moves long: at least one, never its last."""
    wanted = round(STAGES[stage] * length)
    if stage == "late":
        wanted = max(wanted, length - LATE_LEFT)
    return max(1, min(MAX_MOVES_IN, length - 1, wanted))


async def seed_table(service: GameService, table: StoredTable) -> Seeded:
    db, key = service.db, table.game
    game = GAMES[key]
    played = random_game(key, len(table.players), table.seed)
    target = moves_in(table.stage, len(played))
    (creator, creator_name), *others = table.players
    row = await service.create(
        key, table.guild_id, table.channel_id, creator, creator_name, {}, seed=table.seed, language=table.language
    )
    for user, name in others:
        await service.join(row.id, user, name)
    await service.start(row.id, creator)
    for job in await jobs.pending(db, row.id):  # the first board and hands: posted long ago
        await jobs.complete(db, job.id)
    state = game.new(len(table.players), table.seed, row.options)
    for number, (seat, action) in enumerate(played[:target], start=1):
        events = state.apply(seat, action)
        outcome = state.outcome()
        last = number == target
        board = [spec for spec in delivery_jobs(key, state.version, events) if spec.kind == "board"] if last else []
        committed = await db.commit_move(
            row.id,
            state.version - 1,
            seat,
            action,
            state.to_dict(),
            outcome.to_dict() if outcome is not None else None,
            board,
        )
        if not committed:
            raise RuntimeError(f"{key} game {row.id}: move {number} was not stored")
    stored = await db.get_game(row.id)
    if stored is None or stored.status != "running" or stored.version != target:
        raise RuntimeError(f"{key} game {row.id}: stored at {stored and stored.version}, not running at {target}")
    return Seeded(row.id, target, len(played))


async def seed(target: str | Path, tables: Sequence[StoredTable]) -> list[Seeded]:
    """Open (and migrate) the bot's database and store every table's game; one ``Seeded`` per table."""
    db = await Database.open(target)
    try:
        service = GameService(db)
        return [await seed_table(service, table) for table in tables]
    finally:
        await db.close()
