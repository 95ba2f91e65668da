"""The tournament service and runner on a real SQLite file, without Discord: what they would say
goes to a ``TournamentPosting`` that keeps it (services/tournament_posting_port.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from l10n.words import t
from league.refusal import Refusal
from services.game_service import GameService
from services.pictures import Pictures
from services.storage import Database, GameRow, async_play
from services.storage import tournaments as store
from services.tournament_posting_port import Attachment, ChannelGone
from services.tournament_runner import Runner
from services.tournament_service import Member, Person, Settings, TournamentService

GUILD, CHANNEL = 7, 500
ORGANISER = Member(1, "Olga", manages_server=True)
PLAYERS = [Member(user, name) for user, name in ((11, "Ana"), (12, "Ben"), (13, "Caro"), (14, "Dan"))]
NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


class Kept:
    """A TournamentPosting that keeps everything the runner and the service say."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.channels = {CHANNEL}
        self.threads: list[tuple[int, str, bool, tuple[int, ...]]] = []
        self.posts: list[tuple[str, list[str], bool]] = []
        self.at_tables: list[tuple[int, str]] = []
        self.signups: list[int] = []
        self.delivered: list[int] = []
        self._ids = 9000

    def _next(self) -> int:
        self._ids += 1
        return self._ids

    async def server_language(self, guild_id: int, preferred: str | None = None) -> str:
        return "en"

    def table_locale(self, row: GameRow) -> str:
        return row.language or "en"

    def board_url(self, row: GameRow) -> str:
        return f"board of {row.id}"

    async def channel_exists(self, channel_id: int) -> bool:
        return channel_id in self.channels

    async def make_thread(self, channel_id: int, name: str, private: bool, members: Sequence[int]) -> int:
        if channel_id not in self.channels:
            raise ChannelGone(str(channel_id))
        thread = self._next()
        self.channels.add(thread)
        self.threads.append((channel_id, name, private, tuple(members)))
        return thread

    async def post(
        self, channel_id: int, text: str, pictures: Sequence[Attachment] = (), mentions: bool = False
    ) -> int | None:
        assert all(p.data.startswith(b"\x89PNG") and p.description for p in pictures)
        self.posts.append((text, [p.filename for p in pictures], mentions))
        return self._next()

    async def greet(self, row: GameRow, text: str) -> None:
        self.at_tables.append((row.id, text))

    async def announce(self, row: GameRow, text: str) -> None:
        self.at_tables.append((row.id, text))

    async def seat_changed(self, row: GameRow, seat: int, new_user: int, key: str, **values: object) -> None:
        self.at_tables.append((row.id, key))

    async def deliver(self, game_id: int) -> GameRow:
        self.delivered.append(game_id)
        return await self.games.get(game_id)

    async def signup_changed(self, tournament_id: int) -> None:
        self.signups.append(tournament_id)


@pytest_asyncio.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[TournamentService, Kept]]:
    db = await Database.open(tmp_path / "meeple.db")
    pictures = Pictures(workers=0)
    games = GameService(db)
    kept = Kept(games)
    runner = Runner(games, kept, pictures, lambda: NOW)
    try:
        yield TournamentService(games, runner, lambda: NOW, ("en", "zh-TW", "pt-BR")), kept
    finally:
        await runner.shutdown()
        pictures.close()
        await db.close()


async def refused(coro: Any) -> str:
    with pytest.raises(Refusal) as info:
        await coro
    return str(info.value.key)


async def test_a_swiss_tournament_runs_from_sign_up_to_its_podium(world: tuple[TournamentService, Kept]) -> None:
    service, kept = world
    cup = await service.create(ORGANISER, GUILD, CHANNEL, Settings("Cup", "vivarium", "swiss"), "en")
    assert (cup.status, cup.language, cup.table_size) == ("signup", "en", 2)
    for player in PLAYERS:
        assert await service.join(cup, player, None) == "joined"
    await service.start(cup, ORGANISER)
    await service.runner.idle()
    cup = await service.get(cup.id)
    assert cup.status == "running" and cup.rounds == 2
    tables = await service.pairings(cup.id, 1)
    assert len(tables) == 2 and all(p.game_id is not None and p.thread_id is not None for p in tables)
    assert [(channel, private) for channel, _, private, _ in kept.threads] == [(CHANNEL, False)] * 2
    title = t("tournament.pairings-title", "en", name="Cup", round=1)
    assert kept.posts[0][0].startswith(title) and kept.posts[0][2], "the pairings ping the players they mention"
    assert sorted(kept.delivered) == sorted(p.game_id for p in tables)
    for number in (1, 2):
        for table in (1, 2):
            assert await service.set_result(cup, ORGANISER, table, "1 2", "played on paper", None) == number
        cup = await service.get(cup.id)
    assert cup.status == "finished"
    pictures = [files for _, files, _ in kept.posts if files]
    assert pictures == [["standings.png"], ["standings.png"], ["podium.png"]]
    closed = t("tournament.closed-by-organiser", "en", reason="played on paper")
    assert [text for _, text in kept.at_tables if text == closed] == [closed] * 4, kept.at_tables
    assert [line.action for line in await service.audit_log(cup.id)] == ["start"] + ["result"] * 4


async def test_sign_up_refusals_change_nothing(world: tuple[TournamentService, Kept]) -> None:
    service, kept = world
    settings = Settings("Cup", "vivarium", "swiss", cap=2)
    assert await refused(service.create(PLAYERS[0], GUILD, CHANNEL, settings, "en")) == "tournament.create-rights"
    assert await refused(service.create(ORGANISER, GUILD, None, settings, "en")) == "tournament.text-channel"
    bad_language = Settings("Cup", "vivarium", "swiss", language="xx")
    assert await refused(service.create(ORGANISER, GUILD, CHANNEL, bad_language, "en")) == "language.unknown"
    assert not await service.of_guild(GUILD)
    cup = await service.create(ORGANISER, GUILD, CHANNEL, settings, "en")
    ana, ben, caro = PLAYERS[:3]
    assert await service.join(cup, ana, None) == "joined"
    assert await refused(service.join(cup, ana, None)) == "tournament.already-in"
    assert await refused(service.join(cup, ben, Person(ana.user_id))) == "tournament.partner-not-here"
    assert await service.join(cup, ben, None) == "joined"
    assert await refused(service.join(cup, caro, None)) == "tournament.full"
    assert await refused(service.start(cup, ana)) == "tournament.organiser-only"
    assert await refused(service.leave(cup, caro.user_id)) == "tournament.not-in"
    assert [e.user_id for e in await service.entrants(cup.id)] == [ana.user_id, ben.user_id]
    assert kept.signups == [cup.id, cup.id], "the sign-up message is redrawn after each change, only then"


async def test_a_table_creator_role_may_create_and_only_the_organiser_runs_it(
    world: tuple[TournamentService, Kept],
) -> None:
    service, _ = world
    await async_play.update_guild_settings(service.db, GUILD, creator_role_id=77)
    creator = Member(2, "Cleo", role_ids=frozenset({77}))
    cup = await service.create(creator, GUILD, CHANNEL, Settings("Cup", "vivarium", "swiss"), "en")
    assert cup.organiser_id == creator.user_id
    other_creator = Member(3, "Cy", role_ids=frozenset({77}))
    assert await refused(service.cancel(cup, other_creator, "no")) == "tournament.organiser-only"
    await service.cancel(cup, creator, "rain")
    assert (await service.get(cup.id)).status == "cancelled"
    assert await refused(service.cancel(cup, creator, "again")) == "tournament.over"


async def test_organiser_result_refuses_ranks_that_do_not_fit_the_table(world: tuple[TournamentService, Kept]) -> None:
    service, _ = world
    cup = await service.create(ORGANISER, GUILD, CHANNEL, Settings("Cup", "vivarium", "swiss"), "en")
    for player in PLAYERS:
        await service.join(cup, player, None)
    await service.start(cup, ORGANISER)
    await service.runner.idle()
    cup = await service.get(cup.id)
    before = await service.pairings(cup.id, 1)
    for ranks in ("1", "1 3", "one two", "1 2 3"):
        assert await refused(service.set_result(cup, ORGANISER, 1, ranks, "typo", None)) == "tournament.bad-ranks"
    assert await refused(service.set_result(cup, ORGANISER, 3, "1 2", "typo", None)) == "tournament.no-table"
    assert await service.pairings(cup.id, 1) == before
    assert await store.audit_log(service.db, cup.id) == await service.audit_log(cup.id)
