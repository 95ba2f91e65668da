"""What a tournament is made of, as values: the tournament, its entrants, rounds, pairings and
organiser corrections. Pure (no storage, no Discord): the formats, standings and pictures read
these, and ``services.storage.tournaments`` reads and writes them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

FORMATS = ("swiss", "round-robin", "single", "double", "duplicate")


@dataclass(frozen=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    game: str
    options: dict[str, Any]
    format: str
    table_size: int
    rounds: int | None
    best_of: int
    advance: int
    round_days: int
    time_limit_hours: int | None
    timeout_action: str | None
    settle: str
    cap: int | None
    signup_deadline: datetime | None
    seed: int
    status: str
    round: int
    signup_message_id: int | None
    # The language of its posts, tables and pictures, fixed at creation (migration 0015); None
    # for a tournament from before, which speaks its server's current language.
    language: str | None = None

    @property
    def pods(self) -> bool:
        """Tables of 3 or 4 in a competitive format (Swiss with pods, pod elimination)."""
        return self.format != "duplicate" and self.table_size > 2

    @property
    def elimination(self) -> bool:
        return self.format in ("single", "double")


@dataclass(frozen=True)
class Entrant:
    user_id: int
    name: str
    partner_id: int | None
    seed_order: int | None
    status: str

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True)
class Round:
    number: int
    status: str
    seed: int
    deadline: datetime
    announced: bool
    pairings_message_id: int | None


@dataclass(frozen=True)
class Pairing:
    round: int
    slot: int
    players: tuple[int, ...]
    match_id: str | None = None
    game_number: int = 1
    thread_id: int | None = None
    game_id: int | None = None
    result: dict[str, Any] | None = field(default=None)


@dataclass(frozen=True)
class AuditLine:
    actor_id: int
    action: str
    detail: str
    reason: str
    created_at: str

    @property
    def values(self) -> dict[str, Any] | None:
        """What the correction changed, as stored for wording in any language (a JSON object);
        None for a line written before, whose detail is English text."""
        if not self.detail.startswith("{"):
            return None
        try:
            found = json.loads(self.detail)
        except ValueError:
            return None
        return found if isinstance(found, dict) else None


@dataclass(frozen=True)
class Report:
    """Standings (and a bracket) as posted: the text, the pictures drawn, their alt texts."""

    text: str
    standings_png: bytes
    alt: str
    bracket_png: bytes | None = None
    bracket_alt: str = ""


@dataclass(frozen=True)
class Podium:
    """The podium as posted: the text, the picture drawn, its alt text."""

    text: str
    png: bytes
    alt: str
