"""Finished details of the Discord layer that pure functions decide: the turn line of a computer's
turn, game thread names, the profile's trend and co-operative results, the start refusal's hint,
in every language."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.cogs.table import THREAD_NAME_LIMIT, thread_name
from engine import GAMES
from l10n.words import t
from services.computer_turns import computer_user, name, turn_line
from services.player_profiles import Played, standing, trend_text
from services.wording import adapter_for

LOCALES = ("en", "zh-TW", "pt-BR")
ALICE = 1575547438880522243


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", ["fox-duet", "vivarium", "tm-dice", "noctiluca"])
def test_nobody_tells_a_computer_to_open_my_hand(game: str, locale: str) -> None:
    state = GAMES[game].new(2, 7)
    users = [ALICE, computer_user(1)]
    names = ["Alice", name(1, "hard", locale)]
    public = state.view(None)["public"]
    my_hand = t("board.button.hand", locale)
    # Every seat a computer: whoever is to move, the line only says the computer is choosing.
    robots = [computer_user(1), computer_user(2)]
    robot_names = [name(1, "hard", locale), name(2, "easy", locale)]
    line = turn_line(adapter_for(game), public, state.to_move(), robots, robot_names, locale)
    assert my_hand not in line and "<@" not in line, line
    assert robot_names[state.to_move()[0]] in line
    assert line.startswith(adapter_for(game).status(public, locale))
    # A person to move is still asked to, by mention; a computer beside them is said to be choosing.
    both = turn_line(adapter_for(game), public, [0, 1], users, names, locale)
    assert f"<@{ALICE}>" in both and names[1] in both and f"<@{computer_user(1)}>" not in both


def test_a_computers_turn_line_reads_as_a_computer_choosing() -> None:
    state = GAMES["fox-duet"].new(2, 7)
    public = state.view(None)["public"]
    line = turn_line(adapter_for("fox-duet"), public, [0], [computer_user(1), ALICE], ["Bot 1 (hard)", "A"], "en")
    assert line.endswith("🤖 Bot 1 (hard) is choosing a move…")


@pytest.mark.parametrize("locale", LOCALES)
def test_thread_names_put_the_table_number_first_and_fit_discords_limit(locale: str) -> None:
    long = "Alexandra " * 12
    first, second = thread_name(41, "fox-duet", long, locale), thread_name(42, "fox-duet", long, locale)
    assert first.startswith("#41 ") and second.startswith("#42 ")
    assert len(first) <= THREAD_NAME_LIMIT and first[:20] != second[:20]
    assert t(f"game.title.{'fox-duet'}", locale) in first


def test_the_trend_arrow_stands_apart_from_its_number() -> None:
    assert trend_text(12) == "▲ 12" and trend_text(-3) == "▼ 3"
    line = t("record.rating", "en", rating=1012, count=7) + t("profile.trend", "en", change=trend_text(12), count=5)
    assert "games, ▲ 12 over the last 5" in line


@pytest.mark.parametrize("locale", LOCALES)
def test_co_operative_results_read_won_or_lost_never_a_rank(locale: str) -> None:
    when = datetime(2026, 11, 1, tzinfo=UTC)
    lost = Played(1, "fox-duet", "", 0, 1, 2, False, when)
    won = Played(2, "fox-duet", "", 45, 1, 2, True, when)
    ranked = Played(3, "vivarium", "", 30, 2, 3, False, when)
    place = t("profile.place", locale, rank=1, count=2)
    assert standing(lost, locale) == t("profile.result.lost", locale) != place
    assert standing(won, locale) == t("profile.result.won", locale, score=45) and "45" in standing(won, locale)
    assert standing(ranked, locale) == t("profile.place", locale, rank=2, count=3)


@pytest.mark.parametrize(("locale", "option"), [("en", "computers"), ("zh-TW", "電腦玩家"), ("pt-BR", "computadores")])
def test_a_refusal_to_start_names_the_computers_option_as_discord_shows_it(locale: str, option: str) -> None:
    for key in ("error.player-count", "error.player-count.exact"):
        text = t(key, locale, game="X", low=2, high=4, count=1)
        assert f"`{option}:`" in text, text


@pytest.mark.parametrize("computer_seat", [0, 1])
async def test_a_computers_public_decision_offers_people_no_buttons(computer_seat: int) -> None:
    """Vivarium's first swap (seed 1, seat 1 to move) is public: its buttons are on the board when
    a person is to choose, and none when the computer is."""
    from bot.posting import Poster
    from services.pictures import Pictures
    from services.storage.db import SeatRow

    flow = Poster.__new__(Poster)
    flow.locale = "en"
    flow.pictures = Pictures(workers=0)
    try:
        when = datetime(2026, 11, 1, tzinfo=UTC)
        users = [ALICE, ALICE + 1]
        users[computer_seat] = computer_user(1)
        seats = [SeatRow(7, n, user, when, f"P{n}") for n, user in enumerate(users)]
        row = type("Row", (), {"id": 7, "game": "vivarium", "language": "en"})()
        state = GAMES["vivarium"].new(2, 1)
        assert state.to_move() == [1]
        payload = await flow.board_payload(row, state, [], seats=seats)
        buttons = [item for item in payload["view"].children if getattr(item, "custom_id", "").startswith("mp:act:")]
        assert bool(buttons) == (computer_seat == 0), payload["content"]
        assert ("P1 is choosing a move" in payload["content"]) == (computer_seat == 1)
    finally:
        flow.pictures.close()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_team_concession_and_the_history_title_are_worded_in_every_language(locale: str) -> None:
    from l10n.words import catalogue

    own = catalogue(locale)  # the locale's own words, not an English fallback
    keys = ("concede.team.ask", "concede.team.proposed", "concede.team.yes", "concede.team.public", "lobby.full")
    assert all(own.get(key) for key in keys)
    assert "{name}" not in own["fox-duet.event.lost.conceded"], "the team concedes, not one player"
    assert own["concede.team.ask"] != own["resign.ask"] and own["concede.team.yes"] != own["concede.confirm"]
    shown = t("history.board-title", locale, step=5, last=107, move="Alice led Dove 3.")
    assert "5" in shown and "107" in shown and shown.endswith("Alice led Dove 3.")


@pytest.mark.parametrize("locale", LOCALES)
def test_challenge_threads_start_with_who_plays_which_deal(locale: str) -> None:
    mode = t("challenge.mode.fox-duet-2", locale)
    name_ = t("challenge.thread-name", locale, mode=mode, week="2026-W48", player="Alice")
    assert name_.startswith("Alice") and mode in name_ and name_.endswith("2026-W48")
