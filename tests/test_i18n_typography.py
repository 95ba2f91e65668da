"""Numbers, dates, relative times and joined phrases as each language writes them (l10n.typography),
and the catalogue check that keeps ASCII punctuation out of Chinese sentences."""

from __future__ import annotations

import importlib
import random
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from engine import GAMES
from l10n import Listed, entries, game_title, listing, series, t
from l10n import tools as i18n_tools
from l10n.typography import ago, aside, clauses, day, decimal, labelled, parenthesized, percent, shortened
from league.refusal import Refusal
from services.wording import adapter_for
from tests.test_i18n import write_catalogue

ZH, PT, EN = "zh-TW", "pt-BR", "en"


# -- numbers ----------------------------------------------------------------------------------
def test_decimals_take_the_locales_separator() -> None:
    assert [decimal(Fraction(7, 3), loc) for loc in (EN, ZH, PT)] == ["2.33", "2.33", "2,33"]
    assert [decimal(1234.5, loc) for loc in (EN, ZH, PT)] == ["1,234.5", "1,234.5", "1.234,5"]


def test_decimals_drop_trailing_zeros_and_round_halves_up() -> None:
    assert decimal(3, PT) == "3" and decimal(Decimal("2.50"), PT) == "2,5"
    assert decimal(Fraction(21, 8), EN) == "2.63", "2.625: halves up, not to even"
    assert decimal(2.675, EN) == "2.68", "the float as written, not its binary neighbour 2.67499..."
    assert decimal(Fraction(2, 3), EN, digits=0) == "1"


def test_a_language_without_a_catalogue_reads_english_numbers() -> None:
    assert decimal(Fraction(7, 3), "fr") == "2.33" and decimal(Fraction(7, 3), "pt-PT") == "2.33"


def test_percentages_are_whole_and_follow_the_locale() -> None:
    assert [percent(2, 3, loc) for loc in (EN, ZH, PT)] == ["67%", "67%", "67%"]
    assert percent(0, 0, EN) == "0%" and percent(1, 8, EN) == "13%"


# -- dates and times --------------------------------------------------------------------------
def test_dates_are_written_as_each_language_writes_them() -> None:
    moment = datetime(2026, 11, 26, 18, 30, tzinfo=UTC)
    assert day(moment, EN) == "Nov 26, 2026"
    assert day(moment, ZH) == "2026年11月26日"
    assert day(date(2026, 11, 26), PT) == "26 de nov. de 2026"


@pytest.mark.parametrize(
    ("locale", "under", "hours", "days"),
    [
        (EN, "less than an hour ago", "3 hours ago", "2 days ago"),
        (ZH, "不到一小時前", "3 小時前", "2 天前"),
        (PT, "há menos de uma hora", "há 3 horas", "há 2 dias"),
    ],
)
def test_relative_times_never_say_zero_hours(locale: str, under: str, hours: str, days: str) -> None:
    assert ago(timedelta(minutes=20), locale) == under
    assert ago(timedelta(seconds=-5), locale) == under, "a clock slightly behind is not the future"
    assert ago(timedelta(hours=3, minutes=10), locale) == hours
    assert ago(timedelta(hours=49), locale) == days
    assert "0" not in ago(timedelta(minutes=59), locale)


def test_a_day_less_an_hour_is_still_hours() -> None:
    assert ago(timedelta(hours=23), EN) == "23 hours ago"
    assert ago(timedelta(hours=1), PT) == "há 1 hora"


# -- joins ------------------------------------------------------------------------------------
def test_joins_in_english_and_portuguese_keep_ascii_punctuation() -> None:
    for loc in (EN, PT):
        assert parenthesized("x", loc) == "(x)"
        assert aside("3", "Opp. avg 2", loc) == "3 (Opp. avg 2)"
        assert labelled("Level", 2, loc) == "Level: 2"
        assert clauses(["a 1", "b 2", "c 3"], loc) == "a 1, b 2, c 3"
        assert clauses(["a", "b"], loc, strong=True) == "a; b"
        assert series(["Carol 1", "Dave 2"], loc) == "Carol 1, Dave 2"
    assert listing(["A", "B"], PT) == "A e B" and clauses([], EN) == "" and clauses(["only"], EN) == "only"


def test_joins_in_chinese_are_full_width() -> None:
    """The issue's seams: "(對手分 0, 得分 17)" and "名次：Carol 1, Dave 2"."""
    tiebreaks = clauses(["對手分 0", "得分 17"], ZH)
    assert aside("3", tiebreaks, ZH) == "3（對手分 0，得分 17）"
    assert parenthesized(tiebreaks, ZH) == "（對手分 0，得分 17）"
    assert t("tournament.line.ranks", ZH, ranks=series(["Carol 1", "Dave 2", "Eve 3"], ZH)) == (
        "名次：Carol 1、Dave 2、Eve 3"
    )
    assert labelled("等級", 2, ZH) == "等級：2"
    assert clauses(["第 1 輪：小安", "第 2 輪：小布"], ZH, strong=True) == "第 1 輪：小安；第 2 輪：小布"
    assert listing(["小安", "小布", "小卡"], ZH) == "小安、小布和小卡"


@pytest.mark.parametrize(
    "joined",
    [
        lambda: clauses(["對手分 0", "得分 17"], ZH),
        lambda: aside("積分", clauses(["對手分 2.33", "得分 17"], ZH), ZH),
        lambda: parenthesized("獲勝", ZH),
        lambda: labelled("名次", series(["小安 1", "小布 2"], ZH), ZH),
        lambda: clauses(["小安 1", "小布 2"], ZH, strong=True),
        lambda: t("tournament.line.ranks", ZH, ranks=series(["小安 1", "小布 2"], ZH)),
        lambda: t("error.option-choice", ZH, option="等級", choices=Listed(("簡單", "普通", "困難"))),
    ],
)
def test_code_side_joins_pass_the_catalogue_punctuation_check(joined) -> None:
    """Whatever the code joins for a Chinese reader passes the same rule as the catalogues."""
    text = joined()
    assert not i18n_tools.ascii_joins(text), text


def test_a_listed_value_is_joined_in_the_readers_language() -> None:
    """A refusal carries its list unjoined (``Listed``): each reader gets their own separators."""
    refusal = Refusal("error.option-choice", option="level", choices=Listed(("1", "2", "3")))
    assert "1, 2, 3" in t(refusal.key, EN, **refusal.values)
    assert "1、2、3" in t(refusal.key, ZH, **refusal.values)
    both = Listed(("小安", "小布"), conjunction=True)
    assert t("tournament.champion", ZH, name="盃", winners=both).count("小安和小布") == 1


# -- the catalogue check ----------------------------------------------------------------------
def test_the_check_finds_ascii_punctuation_joining_chinese(tmp_path: Path) -> None:
    dest = tmp_path / "po"
    english = {
        "a.pair": "({a}, {b})",
        "a.ranks": "Ranks: {ranks}",
        "a.shout": "Hi! Ok?",
        "a.ok": "x",
        "a.bare": "({a}, {b})",
    }
    write_catalogue(dest, EN, {**english, "a.cmd": "Use /meeple vacation days:0.", "a.name": "Or Português"})
    write_catalogue(
        dest,
        ZH,
        {
            "a.pair": "(對手分 {a}, 得分 {b})",
            "a.ranks": "名次: {ranks}",
            "a.shout": "好! 可以?",
            "a.bare": "({a}, {b})",
            "a.ok": "（對手分，得分）：好！",
            "a.cmd": "請用 /meeple vacation days:0 結束。",
            "a.name": "或 Português (Brasil)。",
        },
    )
    write_catalogue(dest, PT, {**english, "a.cmd": "Use /meeple vacation days:0.", "a.name": "Ou Português"})
    problems = i18n_tools.catalogue_problems(dest)
    flagged = sorted({p.split(" joins")[0] for p in problems})
    assert flagged == ["zh_TW.po: a.bare", "zh_TW.po: a.pair", "zh_TW.po: a.ranks", "zh_TW.po: a.shout"], problems
    assert sum("a.pair" in p for p in problems) == 2, "the parenthesis and the comma"
    assert all("use full-width" in p for p in problems)


@pytest.mark.parametrize(
    "text",
    [
        "{players}，第二次提醒：**{game}** 已等你 {hours} 小時。{url}",  # placeholders beside full-width marks
        "比分 2:1，共 1,000 分",  # numbers
        "用 `/table create game:fox-duet` 開桌，或看 https://example.com/a,b?c=1",  # code and URLs
        "請用 /meeple vacation days:0 結束。",  # command syntax as typed
        "Fox Duet, level 1",  # no Chinese beside the comma
        "{rank}. {players}：{score}",  # a number's full stop
        "或 Português (Brasil)。",  # a foreign name's own parentheses
    ],
)
def test_the_check_leaves_verbatim_ascii_alone(text: str) -> None:
    assert i18n_tools.ascii_joins(text) == []


def test_the_shipped_chinese_catalogue_has_no_ascii_joins() -> None:
    problems = [p for p in i18n_tools.catalogue_problems() if "ASCII" in p]
    assert problems == []


def test_no_translation_keeps_a_game_title_its_language_translates() -> None:
    """ "Noctiluca 單人" on a zh challenge board: a sentence names a game as the catalogue's title does."""
    for locale in (ZH, PT):
        for game_id, game in GAMES.items():
            if game_title(game_id, locale) == game.title:
                continue
            stuck = [
                key
                for key, entry in entries(locale).items()
                if not key.startswith("game.title.") and any(game.title in form for form in entry.forms)
            ]
            assert not stuck, (locale, game.title, stuck)
    assert t("challenge.mode.noctiluca-solo", ZH).startswith("繽紛夜光蟲")
    assert t("challenge.mode.tm-dice-solo", ZH).startswith("殖民火星")
    assert t("challenge.mode.tm-dice-solo", PT) == "Terraforming Mars: O Jogo de Dados solo"


# -- the code ---------------------------------------------------------------------------------
# Where numbers and times are written for machines, never for a reader: stored and logged
# timestamps, the health check's JSON, metrics.
MACHINE_OUTPUT = {"services/observe.py", "services/metrics.py", "services/logs.py"}


def formatting_in_code() -> list[str]:
    """Numbers and dates the code formats itself, where a reader could see them (bot/ and render/
    outside storage): a decimal or grouped format spec (``:.2f``, ``:,``, ``:%``), a date spec or
    ``strftime``, ``round(x, digits)``. Each of those goes through l10n.typography instead."""
    import ast
    import re

    root = Path(__file__).resolve().parent.parent
    found = []
    for folder in ("bot", "services", "league", "render", "l10n"):
        for path in sorted((root / folder).rglob("*.py")):
            if "storage" in path.relative_to(root).parts or path.relative_to(root).as_posix() in MACHINE_OUTPUT:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
                if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
                    spec = ast.unparse(node.format_spec)
                    if re.search(r"[,_%]|\.\d|[efgEFG]'$", spec):
                        found.append(f"{where} formats {spec}")
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                    if name == "strftime" or (name == "round" and len(node.args) + len(node.keywords) > 1):
                        found.append(f"{where} calls {name}")
    return found


def test_the_code_formats_no_number_or_date_itself() -> None:
    assert formatting_in_code() == []


def test_a_fractional_value_in_any_sentence_reads_as_its_language_writes_it() -> None:
    """A float, Decimal or Fraction given to ``t`` is worded by the locale; whole numbers stay as given."""
    assert t("typography.label", PT, label="Média", value=Fraction(7, 3)) == "Média: 2,33"
    assert t("typography.label", EN, label="Avg", value=2.5) == "Avg: 2.5"
    assert t("typography.label", ZH, label="平均", value=Decimal("2.50")) == "平均：2.5"
    assert t("typography.label", PT, label="Mesa", value=1234) == "Mesa: 1234", "ids and counts are not grouped"


# -- a text cut to fit Discord's room is cut between words -----------------------------------------


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("short", 20, "short"),
        ("Take a plant (green die) and raise the oxygen", 30, "Take a plant (green die) and…"),
        ("pegue 2 cartas e 1 dado; restantes ficam na mesa", 30, "pegue 2 cartas e 1 dado…"),
        ("拿取第 2 列、第 1 欄的太陽巨蛇（沙漠龍，3 分）", 12, "拿取第 2 列、第 1…"),
        ("拿取太陽巨蛇沙漠龍三分", 6, "拿取太陽巨…"),
        ("x" * 50, 20, "x" * 19 + "…"),
    ],
)
def test_a_shortened_text_ends_on_a_whole_word_and_says_it_was_cut(text: str, limit: int, expected: str) -> None:
    assert shortened(text, limit) == expected
    assert len(shortened(text, limit)) <= limit


def test_every_choice_label_and_description_cut_to_discords_room_ends_on_a_whole_word(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cards and effects long enough to be cut in a menu (TM dice's, in every language) end on a
    whole word and an ellipsis: never "raise the oxyg", which the one-language check reads as a word
    (the "rest" of Portuguese "restantes" in an English list)."""

    def texts(adapter, action, view, locale: str) -> list[tuple[str | None, int]]:  # noqa: ANN001
        return [
            (adapter.action_description(action, view, locale), 100),
            (adapter.action_label(action, view, locale), 80),
        ]

    cut = 0
    for game_id, players in (("tm-dice", 3), ("noctiluca", 3), ("vivarium", 3), ("fox-duet", 2)):
        adapter = adapter_for(game_id)
        module = importlib.import_module(type(adapter).__module__)
        state = GAMES[game_id].new(players, 1, None, None)
        rng = random.Random(1)
        for _ in range(150):
            if state.outcome() is not None:
                break
            seat = state.to_move()[0]
            actions = [a for a in state.legal_actions(seat) if a.verb not in ("concede", "resign")]
            view = state.view(seat)
            for locale in ("en", "zh-TW", "pt-BR"):
                for action in actions:
                    shown = texts(adapter, action, view, locale)
                    with monkeypatch.context() as whole:
                        whole.setattr(module, "shortened", lambda text, limit: text)
                        full = texts(adapter, action, view, locale)
                    for (text, room), (untouched, _) in zip(shown, full, strict=True):
                        if text == untouched:
                            continue
                        cut += 1
                        assert text and untouched and len(text) <= room and text.endswith("…"), text
                        kept = text[:-1]
                        assert untouched.startswith(kept), (text, untouched)
                        rest = untouched[len(kept) :]
                        chinese = "\u3400" <= kept[-1] <= "\u9fff" and "\u3400" <= rest[0] <= "\u9fff"
                        assert chinese or not (kept[-1].isalnum() and rest[0].isalnum()), (text, untouched)
            state.apply(seat, rng.choice(actions))
    assert cut > 0  # TM dice's long effects are cut: the check above saw some
