"""The Brazilian Portuguese catalogue covers every English sentence, with the same placeholders.

It reads through the translation layer (``catalogue``), not the files, so it holds whatever format
the catalogues are stored in.
"""

from __future__ import annotations

from l10n import COUNTS, catalogue, content_name, placeholders, resolve_locale, t
from tests.support.content import content_items

LOCALE = "pt-BR"

def test_pt_br_is_its_own_locale() -> None:
    assert resolve_locale("pt-BR") == LOCALE
    assert resolve_locale("pt-PT") == "en"


def test_every_english_sentence_has_a_translation_with_the_same_placeholders() -> None:
    pt = catalogue(LOCALE)
    for key, english in catalogue("en").items():
        assert key in pt, f"no pt-BR translation for {key!r}"
        assert placeholders(pt[key]) == placeholders(english), key


def test_only_singular_forms_and_content_names_are_added() -> None:
    english, pt = catalogue("en"), catalogue(LOCALE)
    for key, text in pt.items():
        if key in english or key.startswith("content."):
            continue
        base = key.removesuffix(".one")
        assert key.endswith(".one") and base in english, f"{key!r} is not an English key"
        assert placeholders(text) == placeholders(english[base]), key
        assert placeholders(text) & set(COUNTS), f"{key!r} names no count"


def test_the_singular_is_used_for_a_count_of_one() -> None:
    assert t("tm-dice.effect.draw", LOCALE, n=1) == "compre 1 carta"
    assert t("tm-dice.effect.draw", LOCALE, n=3) == "compre 3 cartas"
    assert t("tm-dice.hand.title", LOCALE, n=1) == "Sua mão (1 carta):"  # a .one English does not need


def test_no_sentence_hedges_its_plural() -> None:
    for key, text in catalogue(LOCALE).items():
        assert "(s)" not in text and "(es)" not in text, f"{key!r}: {text!r}"


def test_every_content_item_has_a_short_name() -> None:
    for item in content_items():
        name = content_name(item.game, item.kind, item.ident, "\0missing", LOCALE)
        assert name != "\0missing", item.key
        assert 0 < len(name) <= 24, name
