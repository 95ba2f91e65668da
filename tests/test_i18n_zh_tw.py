"""The Traditional Chinese (Taiwan) catalogue: complete, with the placeholders and markup the code relies on.

Checked through the translation layer (not the files), so the checks hold whatever format the catalogues
are stored in.
"""

from __future__ import annotations

import re

import pytest

from l10n import catalogue, content_name, placeholders, resolve_locale, t
from tests.support.content import content_items

ZH = "zh-TW"

# Characters that exist only in Simplified Chinese: one of them in a zh-TW sentence is a slip.
SIMPLIFIED_ONLY = set(
    "这个们为时说对发进过会还没让给张设戏无选择务开关级输赢从应该将与实现点数币觉种图标积结胜败组场轮顺队员"
    "钟爱龙宝环边记举价钱岛样经营资产阶单双动画线连锁优项围条权请读调"
)

# Markup a translation must keep exactly as often as English has it (Discord markdown, mentions, times).
MARKUP = ("**", "`", "__", "<#", "<@", "<t:", "\n")

def english_sentences() -> dict[str, str]:
    """English sentences, singular forms left out: Chinese has one form for every count."""
    return {key: text for key, text in catalogue("en").items() if not key.endswith(".one")}


def test_zh_tw_is_a_locale_of_its_own() -> None:
    assert resolve_locale("zh-TW") == ZH
    assert resolve_locale("zh-CN") == "en"


def test_every_english_sentence_has_a_chinese_one() -> None:
    chinese = catalogue(ZH)
    missing = sorted(key for key in english_sentences() if key not in chinese)
    assert not missing, missing


def test_no_chinese_key_is_unknown_to_english() -> None:
    english = catalogue("en")
    stray = sorted(key for key in catalogue(ZH) if key not in english and not key.startswith("content."))
    assert not stray, stray


def test_chinese_writes_no_singular_forms() -> None:
    singular = sorted(key for key in catalogue(ZH) if key.endswith(".one"))
    assert not singular, singular


def test_placeholders_are_the_english_ones() -> None:
    chinese = catalogue(ZH)
    for key, text in english_sentences().items():
        if key in chinese:
            assert placeholders(chinese[key]) == placeholders(text), key


def test_markup_is_kept() -> None:
    chinese = catalogue(ZH)
    for key, text in english_sentences().items():
        if key not in chinese:
            continue
        for mark in MARKUP:
            assert chinese[key].count(mark) == text.count(mark), f"{key!r}: {mark!r}"


def test_slash_commands_are_quoted_unchanged() -> None:
    chinese = catalogue(ZH)
    for key, text in english_sentences().items():
        if key in chinese:
            for command in re.findall(r"/(?:table|meeple|tournament) [a-z-]+", text):
                assert command in chinese[key], f"{key!r}: {command}"


def test_sentences_are_traditional_chinese() -> None:
    for key, text in catalogue(ZH).items():
        slips = sorted(set(text) & SIMPLIFIED_ONLY)
        assert not slips, f"{key!r}: {slips}"


def test_sentences_fit_discord() -> None:
    for key, text in catalogue(ZH).items():
        assert len(text) <= 2000, key
        if ".button" in key or key.endswith((".confirm", ".first", ".back", ".next", ".forward", ".last")):
            assert len(text) <= 80, key


@pytest.mark.parametrize(("game", "kind", "ident", "english"), content_items())
def test_every_content_name_is_translated_and_short(game: str, kind: str, ident: str, english: str) -> None:
    name = content_name(game, kind, ident, english, ZH)
    assert name != english
    assert len(name) <= 8, name


def test_equal_english_names_stay_equal() -> None:
    """Two equipment cards share a name in English (the same tool, another power): they do in Chinese too."""
    chinese: dict[tuple[str, str], set[str]] = {}
    for game, kind, ident, english in content_items():
        chinese.setdefault((kind, english), set()).add(content_name(game, kind, ident, english, ZH))
    assert all(len(names) == 1 for names in chinese.values())


def test_a_filled_sentence_reads_chinese() -> None:
    text = t("fox-duet.event.trick-won", ZH, name="小安", trick=3, steps=2, end=t("fox-duet.end", ZH, name="小布"))
    assert text == "小安 贏得第 3 墩：往小布那端走 2 步。"
    favourite = t("noctiluca.hand.favourite", ZH, colour=t("noctiluca.colour.blue", ZH))
    assert favourite.startswith("你的祕密鐘情顏色：**藍色**")
