"""Numbers, dates, times and joined phrases as each language writes them (CLDR through Babel).

Pure: no discord, no clock. Every number with a fraction, date, relative time and every list or
clause the code joins for a reader goes through here, so that Portuguese reads "2,33", Chinese
"（對手分 0，得分 17）" and "Carol 1、Dave 2", and English stays "2.33", "(Opp. avg 0, Scores 17)".

Where CLDR has the pattern (decimals, percentages, dates, relative times, list patterns) Babel
gives it; the few joins CLDR has no pattern for (a parenthesis, a label and its value, clauses
joined by a comma or a semicolon) are catalogue sentences (``typography.*``), so that a new
language writes its own punctuation in its ``.po`` file like everything else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from fractions import Fraction

from babel.dates import format_date, format_timedelta
from babel.numbers import format_percent

from l10n import Number, _exact, decimal, po_name, resolve_locale, series, t

__all__ = [
    "ago",
    "aside",
    "babel_locale",
    "clauses",
    "day",
    "decimal",
    "iso_week",
    "labelled",
    "parenthesized",
    "percent",
    "series",
    "shortened",
]


def babel_locale(locale: str | None) -> str:
    """The Babel identifier of the catalogue ``locale`` reads (``zh-TW`` -> ``zh_TW``; ``fr`` -> ``en``)."""
    return po_name(resolve_locale(locale))


def percent(part: Number, whole: Number, locale: str | None = None) -> str:
    """``part`` of ``whole`` as a whole percentage in the locale's pattern ("67%", "67 %" where CLDR spaces it)."""
    ratio = Fraction(0) if not whole else Fraction(part) / Fraction(whole)
    return format_percent(_exact(ratio * 100, 0) / 100, locale=babel_locale(locale))


def day(moment: date | datetime, locale: str | None = None) -> str:
    """A calendar date as the locale writes it: "Nov 26, 2026", "2026年11月26日", "26 de nov. de 2026"."""
    return format_date(moment, "medium", locale=babel_locale(locale))


def iso_week(label: str, locale: str | None = None) -> str:
    """An ISO week as stored and typed ("2026-W48") in words: "week 48 of 2026", "2026 年第 48 週";
    anything else is returned as it is."""
    found = re.fullmatch(r"(\d{4})-W(\d{2})", label)
    if found is None:
        return label
    return t("typography.week", locale, year=found[1], week=int(found[2]))


def ago(elapsed: timedelta, locale: str | None = None) -> str:
    """How long ago something happened, in words: "less than an hour ago", "3 hours ago", "há 2 dias".

    Hours are the finest step (games by post move in hours, not minutes); under an hour (or a
    clock slightly behind) reads "less than an hour ago", never "0 hours ago".
    """
    if elapsed < timedelta(hours=1):
        return t("typography.ago.under-an-hour", locale)
    return format_timedelta(
        -elapsed, granularity="hour", threshold=1, add_direction=True, format="long", locale=babel_locale(locale)
    )


def parenthesized(text: object, locale: str | None = None) -> str:
    """``text`` in the locale's parentheses: "(…)", "（…）"."""
    return t("typography.parenthesis", locale, text=text)


def aside(text: object, note: object, locale: str | None = None) -> str:
    """``text`` followed by a note in parentheses: "3 (Opp. avg 2.33)", "3（對手分 2.33）"."""
    return t("typography.aside", locale, text=text, aside=note)


def labelled(label: object, value: object, locale: str | None = None) -> str:
    """A label and its value: "Level: 2", "等級：2"."""
    return t("typography.label", locale, label=label, value=value)


def clauses(parts: Iterable[object], locale: str | None = None, *, strong: bool = False) -> str:
    """Clauses or facts one after the other, separated by the locale's comma ("，" in Chinese), or by
    its semicolon (``strong``: "；") when the parts hold commas of their own."""
    key = "typography.semicolon" if strong else "typography.comma"
    words = [str(part) for part in parts]
    if not words:
        return ""
    joined = words[-1]
    for word in reversed(words[:-1]):
        joined = t(key, locale, first=word, rest=joined)
    return joined


ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"
_BREAKS = " \n,;:·/→、，；：（("  # a text may be cut after any of these
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def shortened(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters (a label's or a description's room on Discord): whole
    when it fits, else cut after its last whole word that fits, with an ellipsis saying so.

    A cut never leaves half a word ("raise the oxyg"), which reads as a word of its own, and in
    another language at that ("rest" of "restantes"). Chinese, written without spaces, is cut
    between two characters. When the last break is in the first half of the room (one very long
    word), the text is cut at the room.
    """
    if len(text) <= limit:
        return text
    room = text[: limit - 1]
    after = text[limit - 1]
    between_words = after in _BREAKS or room[-1] in _BREAKS or bool(_CJK.match(after) and _CJK.match(room[-1]))
    if not between_words:
        last = max(room.rfind(mark) for mark in _BREAKS)
        if last >= limit // 2:
            room = room[: last + 1]
    return room.rstrip(_BREAKS) + ELLIPSIS
