"""A player's data (README, "Privacy"): the export, and forgetting a player, for ``/meeple
my-data`` and ``/meeple forget-me`` (bot.privacy_ui) and for the owner's command line:

    python -m bot my-data USER_ID [--out FILE]
    python -m bot forget-me USER_ID --yes

Forgetting first settles the player's open tables through the game service (a lobby is left,
a running game handed to a computer where the table allows it, else resigned where the game
allows it, else ended), then anonymises everything in one transaction (services.storage.privacy).
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from l10n.words import DEFAULT_LOCALE, t
from league.refusal import Refusal
from services import computer_turns as computers
from services.game_service import GameService, MoveResult
from services.storage import Database, GameRow, StorageError, jobs
from services.storage import privacy as store

if TYPE_CHECKING:
    from services.config import Config

How = Literal["left-lobby", "computer", "resigned", "ended"]


@dataclass
class Left:
    """How the player left one open table."""

    game_id: int
    how: How
    row: GameRow
    seat: int | None = None
    result: MoveResult | None = None
    computer: str | None = None


def former(number: int, loc: str | None) -> str:
    """The forgotten player as a public line names them, in ``loc``."""
    return t("privacy.former-player", loc, number=number)


async def reserve(db: Database) -> int:
    """The next anonymous number, reserved before the tables are settled (their lines name it)."""
    async with db.transaction() as conn:
        return await store.reserve_number(conn)


async def leave_games(
    service: GameService, user_id: int, number: int, default_locale: str, *, takeover: bool = True
) -> list[Left]:
    """Settle every open table of the player before they are forgotten; how each was left.

    ``takeover``: whether a computer may take a seat (a running bot plays it at once, a stopped
    one at its next start). A table that ended meanwhile is skipped.
    """
    db = service.db
    left: list[Left] = []
    for game_id, status in await store.open_games(db, user_id):
        try:
            if status == "lobby":
                row = await service.leave(game_id, user_id)
                left.append(Left(game_id, "left-lobby", row))
                continue
            row = await service.get(game_id)
            loc = row.language or default_locale
            if takeover and await computers.takes_over(db, game_id, user_id):
                async with service.lock(game_id):
                    row, seat, _ = await service.running_seat(game_id, user_id)
                    label = await computers.take_over(db, game_id, seat, user_id, loc)
                left.append(Left(game_id, "computer", row, seat, computer=label))
            elif service.game(row.game).supports_resign():
                result = await service.resign(game_id, user_id)
                left.append(Left(game_id, "resigned", result.row, result.seat, result))
            else:
                row = await service.abandon(game_id)
                left.append(Left(game_id, "ended", row))
        except (Refusal, StorageError):
            continue  # the table ended or changed meanwhile: the anonymisation covers what is left
    return left


def resign_line(number: int, row: GameRow, default_locale: str) -> str:
    return t("resign.public", row.language or default_locale, player=former(number, row.language or default_locale))


# -- the command line -----------------------------------------------------------------------


def parse_user(text: str) -> int | None:
    """A user id from the command line, or None (with the reason printed)."""
    try:
        return store.check_user_id(int(text.strip()))
    except (ValueError, store.NotAPlayer):
        print(f"{text!r} is not a Discord user id (a number such as 123456789012345678).", file=sys.stderr)
        return None


async def export_to(config: Config, user_id: int, out: str | None) -> int:
    async with await Database.open(config.database) as db:
        text = store.export_json(await store.export(db, user_id))
    if out is None or out == "-":
        sys.stdout.write(text)
        return 0
    path = Path(out).expanduser()
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"Cannot write {path}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"Wrote the data of user {user_id} to {path}", file=sys.stderr)
    return 0


async def forget_now(config: Config, user_id: int) -> int:
    async with await Database.open(config.database) as db:
        service = GameService(db)
        number = await reserve(db)
        names = await store.names_of(db, user_id)  # before a computer takes her seat, and its name
        left = await leave_games(service, user_id, number, DEFAULT_LOCALE)
        for gone in left:
            if gone.how == "resigned" and gone.result is not None:
                # Posted with the board at the bot's next start (it records the results then too).
                line = resign_line(number, gone.row, DEFAULT_LOCALE)
                seat = [gone.seat] if gone.seat is not None else []
                await jobs.annotate_board(db, gone.game_id, gone.result.state.version, [line], seat)
        done = await store.forget(db, user_id, number=number, names=names)
    for gone in left:
        print(f"game {gone.game_id}: {gone.how}")
    print(f"Forgot user {user_id}: now {done.label} ({done.changed} rows changed or deleted).")
    return 0


def command(name: str, user: str, config: Config, *, out: str | None = None, yes: bool = False) -> int:
    """``python -m bot my-data USER_ID [--out FILE]`` or ``python -m bot forget-me USER_ID --yes``."""
    user_id = parse_user(user)
    if user_id is None:
        return 2
    if name == "my-data":
        return asyncio.run(export_to(config, user_id, out))
    if not yes:
        print(
            f"This removes user {user_id}'s ratings, settings and vacations for good, resigns their running games"
            " and puts an anonymous label in place of their name and id everywhere else.\n"
            "Run it again with --yes to do it.",
            file=sys.stderr,
        )
        return 2
    return asyncio.run(forget_now(config, user_id))
