"""Organiser corrections are stored as values and worded when shown, in the reader's language
(pt-BR standings showed "round 1, table 1: …" and "round 2 ended ()")."""

from __future__ import annotations

import json

import pytest

from bot.cogs.tournament import audit_line
from bot.languages import LANGUAGES
from l10n.words import t
from league.tournament_records import AuditLine
from tests.support.languages import other_languages

WHEN = "2026-11-26T18:02:03.000Z"


def line(action: str, values: dict, reason: str = "") -> AuditLine:
    return AuditLine(7, action, json.dumps(values), reason, WHEN)


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_every_correction_is_worded_in_the_readers_language_without_empty_parentheses(locale: str) -> None:
    lines = [
        line("result", {"round": 1, "table": 1, "ranks": [[11, 2], [12, 1]]}, "xq"),
        line("extend", {"round": 2, "days": 3}),
        line("end-round", {"round": 2}),
        line("remove", {"user": 11}, "xq"),
        line("replace", {"old": 11, "new": 13}, "xq"),
        line("cancel", {}, "xq"),
    ]
    for entry in lines:
        text = audit_line(entry, locale)
        assert "()" not in text and "（）" not in text, text
        assert not other_languages(text, locale, ["xq"]), (other_languages(text, locale, ["xq"]), text)
    result = audit_line(lines[0], locale)
    assert "<@11>" in result and "<@12>" in result
    assert t("tournament.audit.end-round", locale, round=2) in audit_line(lines[2], locale)


def test_the_day_is_written_as_the_locale_writes_it() -> None:
    ended = line("end-round", {"round": 2})
    assert audit_line(ended, "en").startswith("Nov 26, 2026 ")
    assert audit_line(ended, "pt-BR").startswith("26 de nov. de 2026 ")
    assert audit_line(ended, "zh-TW").startswith("2026年11月26日 ")


def test_a_correction_stored_before_values_is_shown_as_it_was() -> None:
    old = AuditLine(7, "end-round", "round 2 ended", "", WHEN)
    assert old.values is None
    assert audit_line(old, "pt-BR").endswith("<@7>: round 2 ended")
