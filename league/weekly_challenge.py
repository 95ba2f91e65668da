"""The weekly challenge: everyone on a server plays the same deal of a solo mode or Fox Duet level.

Every ISO week (UTC, from Monday 00:00) each server gets one seed per mode, drawn with
``secrets`` the first time anyone asks for it and stored, so a restart never changes the week's
deal. ``/meeple challenge`` opens the player's own table with that seed in a private thread;
the table is then played like any other. docs/CHALLENGE.md has the rules and the choices.

This module is the challenge's rules, pure: its modes, its weeks, how a week's board ranks. The
seeds, attempts and boards are stored by ``services.storage.challenge``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.facts import ChallengeMode
from engine.registry import challenge_modes

Mode = ChallengeMode
MODES = challenge_modes()  # every game's declared modes (``Game.facts.challenge``), read live


def now() -> datetime:
    """The clock the challenge reads (a test moves it to another week)."""
    return datetime.now(UTC)


def week_of(moment: datetime) -> str:
    """The ISO week of ``moment`` in UTC, as stored: ``2026-W48``."""
    year, week, _ = moment.astimezone(UTC).isocalendar()
    return f"{year:04d}-W{week:02d}"


def deal_is_secret(week: str, moment: datetime) -> bool:
    """Whether a week's deals are still being played at ``moment`` (a past week's is no secret)."""
    return week == week_of(moment)


@dataclass(frozen=True)
class Entry:
    """One finished attempt on the challenge board."""

    rank: int
    game_id: int
    user_ids: tuple[int, ...]
    score: int
    won: bool


def ranked(finished: Iterable[tuple[int, tuple[int, ...], int, bool]]) -> list[Entry]:
    """Finished attempts (game, players, score, won) in the games' own order: a win beats a loss
    (Fox Duet's target, Noctiluca's storm), then the higher score; equal standing shares a rank
    (1, 1, 3)."""
    entries: list[Entry] = []
    ordered = sorted(finished, key=lambda f: (not f[3], -f[2], f[0]))
    for n, (game_id, users, score, won) in enumerate(ordered):
        same = entries and (entries[-1].won, entries[-1].score) == (won, score)
        rank = entries[-1].rank if same else n + 1
        entries.append(Entry(rank, game_id, users, score, won))
    return entries
