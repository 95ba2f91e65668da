"""The seams between languages the typography issue found, each at its cause: the log pager's
"step" for pages, computers named in another table's language and level, decimals with a point in
Portuguese standings, sample names split on an ASCII comma, relative times of "0 hours"."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.history_ui import LogPage, PastBoard, pager
from bot.howto_ui import page_png
from l10n.words import t
from league import formats
from league.tournament_records import Entrant, Pairing, Tournament
from services import computer_turns as computers
from services.computer_turns import computer_user, reworded
from services.player_profiles import display_names
from services.storage import Database
from services.storage.db import SeatRow

ALICE = 1_500_000_000_000_000_001
WHEN = datetime(2026, 11, 1, tzinfo=UTC)


def labels(view: Any) -> list[str]:
    return [item.item.label for item in view.children]


def test_the_log_pager_turns_pages_and_the_past_board_steps_through_moves() -> None:
    assert labels(pager(LogPage, 7, 2, 3, 1, "zh-TW")) == ["⏮ 第一頁", "◀ 上一頁", "下一頁 ▶", "最後一頁 ⏭"]
    assert labels(pager(PastBoard, 7, 2, 9, 0, "zh-TW")) == ["⏮ 第一步", "◀ 上一步", "下一步 ▶", "最後一步 ⏭"]
    assert all("página" in label.lower() for label in labels(pager(LogPage, 7, 2, 3, 1, "pt-BR")))
    assert labels(pager(LogPage, 7, 2, 3, 1, "en")) == ["⏮ First", "◀ Back", "Forward ▶", "Last ⏭"]


def test_a_computer_is_named_in_the_readers_language_with_its_own_level() -> None:
    stored = computers.name(1, "easy", "pt-BR")
    assert stored == "Bot 1 (fácil)"
    assert reworded(1, stored, "zh-TW") == "電腦 1（簡單）"
    assert reworded(2, computers.name(2, "hard", "zh-TW"), "en") == "Bot 2 (hard)"
    assert reworded(1, "Bot 1 (normal)", "pt-BR") == "Bot 1 (normal)"
    assert reworded(ALICE, "Bot 1 (fácil)", "zh-TW") == "Bot 1 (fácil)", "a person named so keeps their name"
    assert reworded(3, "Robo", "zh-TW") == "Robo" and reworded(3, None, "en") is None


def test_a_past_board_names_the_computer_in_its_readers_language() -> None:
    from bot.posting import Poster

    flow = Poster.__new__(Poster)
    flow.locale = "en"
    seats = [SeatRow(7, 0, ALICE, WHEN, "Alice"), SeatRow(7, 1, computer_user(1), WHEN, "Bot 1 (fácil)")]
    assert flow.seat_names(seats, "zh-TW") == ["Alice", "電腦 1（簡單）"]
    assert flow.seat_names(seats) == ["Alice", "Bot 1 (fácil)"], "no reader: the name as seated"


async def test_a_computers_name_from_another_table_never_reaches_a_leaderboard(db: Database) -> None:
    """Computer user ids are reused at every table; a picture naming players by their last seat
    showed "Bot 1 (fácil)" from a Portuguese table on a Chinese leaderboard."""
    row = await db.create_game("fox-duet", 1, 2, ALICE, {"level": 1}, 1, "Alice")
    await db.join(row.id, computer_user(1), display_name="Bot 1 (fácil)")
    names = await display_names(db, [ALICE, computer_user(1)])
    assert names == {ALICE: "Alice"}


def test_sample_names_split_on_each_languages_comma() -> None:
    assert "、" in t("howto.sample-names", "zh-TW")
    assert page_png("fox-duet", 0, "zh-TW")[:8] == b"\x89PNG\r\n\x1a\n"


def pod_tournament() -> Tournament:
    return Tournament(
        id=1, guild_id=1, channel_id=1, organiser_id=1, name="Copa", game="vivarium", options={},
        format="swiss", table_size=3, rounds=None, best_of=1, advance=1, round_days=7,
        time_limit_hours=None, timeout_action=None, settle="forfeit", cap=None, signup_deadline=None,
        seed=0, status="running", round=2, signup_message_id=None,
    )  # fmt: skip


@pytest.mark.parametrize(("locale", "mark"), [("pt-BR", ","), ("en", "."), ("zh-TW", ".")])
def test_standings_decimals_follow_the_tournaments_language(locale: str, mark: str) -> None:
    entrants = [Entrant(user, f"P{user}", None, user, "active") for user in range(1, 7)]
    result: dict[str, Any] = {"how": "played", "ranks": [1, 2, 3], "scores": [30, 20, 10], "won": [True, False, False]}
    history = [Pairing(1, 0, (1, 2, 3), result=result), Pairing(1, 1, (4, 5, 6), result=result)]
    history += [Pairing(2, 0, (1, 5, 6), result=result)]
    table = formats.standings(pod_tournament(), entrants, history, locale)
    shown = [value for line in table.lines for value in (line.points, *line.tiebreaks)]
    fractions = [value for value in shown if not value.isdigit()]
    assert fractions, shown
    other = "." if mark == "," else ","
    assert all(mark in value and other not in value for value in fractions), fractions


class StubRunner:
    """What a report reads of the runner: its database (the store is stubbed) and the language."""

    def __init__(self, locale: str) -> None:
        self.db = None
        self.locale = locale

    async def language(self, tournament: Tournament) -> str:
        return self.locale


@pytest.fixture
def pod_field(monkeypatch: pytest.MonkeyPatch) -> None:
    from services.storage import tournaments as store

    names = {1: "小安", 2: "小布", 3: "Carol", 4: "Dave", 5: "Eve", 6: "João"}
    field = [Entrant(user, name, None, user, "active") for user, name in names.items()]
    first: dict[str, Any] = {"how": "played", "ranks": [1, 2, 3], "scores": [30, 20, 10], "won": [True, False, False]}
    second: dict[str, Any] = {"how": "played", "ranks": [2, 1, 3], "scores": [17, 25, 0], "won": [False, True, False]}
    history = [
        Pairing(1, 0, (1, 2, 3), result=first),
        Pairing(1, 1, (4, 5, 6), result=first),
        Pairing(2, 0, (1, 5, 6), result=second),
        Pairing(2, 1, (2, 3, 4), result=first),
    ]

    async def entrants(db: Any, tournament_id: int) -> list[Entrant]:
        return field

    async def pairings(db: Any, tournament_id: int, round_number: int | None = None) -> list[Pairing]:
        return history

    async def rounds(db: Any, tournament_id: int) -> list[Any]:
        return [store.Round(1, "settled", 0, None, 1, None), store.Round(2, "settled", 0, None, 1, None)]

    monkeypatch.setattr(store, "entrants", entrants)
    monkeypatch.setattr(store, "pairings", pairings)
    monkeypatch.setattr(store, "rounds", rounds)


async def test_chinese_standings_join_their_tiebreaks_with_full_width_punctuation(pod_field: None) -> None:
    from l10n.tools import ascii_joins
    from services import tournament_reports as pictures

    report = await pictures.report(StubRunner("zh-TW"), pod_tournament(), 2, "zh-TW")  # type: ignore[arg-type]
    first = report.text.splitlines()[0]
    assert first.startswith("1. 小布：4.5（對手平均 2.63，得分 50，第一名 1），"), first
    assert not ascii_joins(report.text) and not ascii_joins(report.alt), report.alt
    assert first in report.alt.splitlines()  # the alt text has the standings, a line each


async def test_portuguese_standings_write_decimal_commas(pod_field: None) -> None:
    from services import tournament_reports as pictures

    report = await pictures.report(StubRunner("pt-BR"), pod_tournament(), 2, "pt-BR")  # type: ignore[arg-type]
    first = report.text.splitlines()[0]
    assert first.startswith("1. 小布: 4,5 (Méd. adv. 2,63, Pontuações 50, 1º lugares 1), partidas: 2"), first
    assert "2.63" not in report.text and "2.63" not in report.alt


def test_a_fox_duet_card_names_its_ability_in_the_languages_parentheses() -> None:
    from services.wording.fox_duet import card_name

    card = {"suit": "rose", "rank": 7, "ability": "gift"}
    assert card_name(card, "en") == "Rose 7 (Gift)"
    assert card_name(card, "zh-TW") == "玫瑰 7（禮物）"
    assert card_name(card, "pt-BR") == "Rosa 7 (Presente)"
