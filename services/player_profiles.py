"""Profiles and leaderboard pictures: what /meeple profile and /meeple leaderboard show.

Everything is read from the stored results, ratings and rating history of one server; the words
come from the catalogue and the pictures from render/rating_pictures.py, drawn by the picture service
(``services.pictures``), never on the event loop.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import render.rating_pictures as cards
from engine import GAMES
from l10n.words import day, game_title, listing, percent, t
from league import rating_maths as ratings
from services import computer_turns as computers
from services.computer_turns import is_computer
from services.storage import profiles as profile_store
from services.storage import ratings as rating_store

if TYPE_CHECKING:
    from services.pictures import Pictures
    from services.storage import Database

RECENT = 5
# The trend on a profile: the change of the shown rating over this many latest rated games.
TREND_GAMES = 5


@dataclass(frozen=True)
class Played:
    """One finished game of the player's on this server."""

    game_id: int
    game: str
    url: str
    score: int
    rank: int
    players: int
    won: bool
    finished_at: datetime


async def display_names(db: Database, user_ids: list[int]) -> dict[int, str]:
    """The name each player last sat down with (no Discord call: the seats remember it)."""
    # The latest seat wins. Not a computer's: its number is reused at every table, each naming it
    # in that table's language and level ("Bot 1 (fácil)"); computers.seat_labels names those.
    return {user: name for user, name in await profile_store.seat_names(db, user_ids) if not is_computer(user)}


async def played(db: Database, guild_id: int, user_id: int) -> list[Played]:
    """The player's finished games on this server, latest first."""
    return [
        Played(
            row.game_id,
            row.game,
            f"https://discord.com/channels/{guild_id}/{row.channel_id}/{row.board_message_id}"
            if row.board_message_id
            else "",
            row.score,
            row.rank,
            row.players,
            bool(row.won),
            datetime.fromisoformat(row.finished_at),
        )
        for row in await profile_store.finished_games(db, guild_id, user_id)
    ]


async def trend(db: Database, guild_id: int, game: str, user_id: int) -> int | None:
    """How the shown rating moved over the latest rated games (None before any)."""
    rows = await profile_store.rating_moves(db, guild_id, game, user_id, TREND_GAMES)
    if not rows:
        return None
    return ratings.shown(rows[0][2], rows[0][3]) - ratings.shown(rows[-1][0], rows[-1][1])


def trend_text(moved: int) -> str:
    """A rating's trend as the profile card draws it, arrow and number apart: "▲ 12", "▼ 3"."""
    return f"{'▲' if moved > 0 else '▼'} {abs(moved)}"


def standing(one: Played, loc: str) -> str:
    """How a finished game went for the player: a place among rivals ("2 of 4") in a competitive
    game; won or lost in a co-operative or solo one, where everyone shares the result."""
    if one.game in ratings.COMPETITIVE and one.players > 1:
        return t("profile.place", loc, rank=one.rank, count=one.players)
    return t("profile.result.won" if one.won else "profile.result.lost", loc, score=one.score)


@dataclass(frozen=True)
class Profile:
    text: str
    png: bytes


async def profile(
    db: Database, pictures: Pictures, guild_id: int, user_id: int, mention: str, name: str, loc: str
) -> Profile | None:
    """The player's profile on this server, in words and as a card; None if they finished no game."""
    games = await played(db, guild_id, user_id)
    if not games:
        return None
    rated = await rating_store.player_ratings(db, guild_id, user_id)
    count = Counter(p.game for p in games)
    won = Counter(p.game for p in games if p.won)
    lines = [t("record.title", loc, player=mention, count=len(games))]
    games_card: list[cards.ProfileGame] = []
    for game, number in count.most_common():
        title = game_title(game, loc) if game in GAMES else game
        best = max(p.score for p in games if p.game == game)
        line = t("record.line", loc, game=title, played=number, won=won[game], best=best)
        shown = ""
        moved = None
        if (rating := rated.get(game)) is not None:
            moved = await trend(db, guild_id, game, user_id)
            key = "record.rating.provisional" if rating.provisional else "record.rating"
            line += t(key, loc, rating=rating.shown, count=rating.games, needed=ratings.PROVISIONAL_GAMES)
            if moved:
                line += t("profile.trend", loc, change=trend_text(moved), count=TREND_GAMES)
            shown = str(rating.shown)
        lines.append(line)
        games_card.append(
            cards.ProfileGame(
                title,
                shown,
                moved,
                t("profile.card.played", loc, count=number, won=won[game]),
                t(
                    "profile.card.best.provisional"
                    if game in rated and rated[game].provisional
                    else "profile.card.best",
                    loc,
                    best=best,
                ),
            )
        )
    lines.append(t("profile.recent", loc))
    recent_card = []
    for one in games[:RECENT]:
        title = game_title(one.game, loc) if one.game in GAMES else one.game
        place = standing(one, loc)
        url = one.url
        stamp = int(one.finished_at.timestamp())
        lines.append(t("profile.recent.line", loc, game=title, place=place, when=f"<t:{stamp}:d>", url=url))
        recent_card.append(f"{title} · {place} · {day(one.finished_at, loc)}")
    png = await pictures.draw(
        cards.profile_png,
        name,
        t("profile.card.subtitle", loc, count=len(games)),
        games_card,
        t("profile.card.recent", loc),
        recent_card,
    )
    return Profile("\n".join(lines), png)


def ranked(board: list[ratings.Rating]) -> list[tuple[str, ratings.Rating]]:
    """Established players ranked 1, 2.. by rating, then the provisional ones, unranked ("–")."""
    established = [r for r in board if not r.provisional]
    return [(str(n), r) for n, r in enumerate(established, start=1)] + [("–", r) for r in board if r.provisional]


async def leaderboard_png(
    db: Database,
    pictures: Pictures,
    game: str,
    entries: list[tuple[str, ratings.Rating]],
    page: int,
    pages: int,
    loc: str,
) -> bytes:
    """One page of the ratings leaderboard as a picture, provisional players muted."""
    names = await display_names(db, [r.user_id for _, r in entries])
    rows = [
        cards.BoardRow(
            rank,
            names.get(rating.user_id, t("profile.unknown-player", loc)),
            str(rating.shown),
            t("profile.card.games", loc, count=rating.games),
            rating.provisional,
        )
        for rank, rating in entries
    ]
    title = t("leaderboard.card.title", loc, game=game_title(game, loc))
    subtitle = t("leaderboard.card.subtitle", loc, page=page, pages=pages, needed=ratings.PROVISIONAL_GAMES)
    return await pictures.draw(cards.leaderboard_png, title, subtitle, rows)


SCORES_PER_MODE = 5


async def scores_png(db: Database, pictures: Pictures, guild_id: int, game: str, loc: str) -> bytes:
    """The best games per Fox Duet level or solo mode as a picture: the top five of each mode."""
    best = await rating_store.score_records(db, guild_id, game)
    counts = await rating_store.score_counts(db, guild_id, game)
    names = await display_names(db, sorted({u for records in best.values() for r in records for u in r.user_ids}))
    rows: list[cards.BoardRow] = []
    for mode, records in best.items():
        played, won = counts[mode]
        label = t("scores.mode.solo", loc) if mode == "solo" else t("scores.mode.level", loc, level=mode[6:])
        summary = t("scores.card.mode", loc, count=played, won=won, rate=percent(won, played, loc))
        rows.append(cards.BoardRow("", label, "", summary, heading=True))
        for n, record in enumerate(records[:SCORES_PER_MODE], start=1):
            labels = await computers.seat_labels(db, record.game_id, record.user_ids, loc)
            who = listing(
                (
                    label if is_computer(u) else names.get(u, t("profile.unknown-player", loc))
                    for u, label in zip(record.user_ids, labels, strict=True)
                ),
                loc,
            )
            rows.append(cards.BoardRow(str(n), who, str(record.score), t("scores.card.won", loc) if record.won else ""))
    title = t("scores.card.title", loc, game=game_title(game, loc))
    return await pictures.draw(cards.leaderboard_png, title, t("scores.card.subtitle", loc), rows)
