"""Every sentence the bot shows has a translation, with the placeholders the code fills in."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.i18n import COUNTS, catalogue, placeholders, t

ROOT = Path(__file__).resolve().parent.parent


def literal_keys() -> dict[str, set[str]]:
    """Keys passed as literal strings to t(...), with the keyword names given."""
    keys: dict[str, set[str]] = {}
    for path in (ROOT / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    if any(k.arg is None for k in node.keywords):
                        continue
                    keys.setdefault(first.value, set()).update(k.arg for k in node.keywords)
    return keys


def test_every_literal_key_exists_with_matching_placeholders() -> None:
    english = catalogue("en")
    for key, given in literal_keys().items():
        assert key in english, f"missing translation {key!r}"
        needed = placeholders(english[key])
        assert needed <= given, f"{key!r} needs {sorted(needed - given)}"


def test_refusal_keys_exist() -> None:
    english = catalogue("en")
    for path in (ROOT / "bot").rglob("*.py"):
        for key in re.findall(r'Refusal\(\s*"([^"]+)"', path.read_text(encoding="utf-8")):
            assert key in english, f"{path.name}: missing translation {key!r}"


def test_unknown_locale_falls_back_to_english() -> None:
    assert t("lobby.joined", "xx-YY") == t("lobby.joined")


def test_a_count_of_one_takes_the_singular_form_when_there_is_one() -> None:
    assert t("tm-dice.effect.draw", n=1) == "draw 1 card"
    assert t("tm-dice.effect.draw", n=2) == "draw 2 cards"
    assert t("tm-dice.effect.draw", n="1") == "draw 1 card"  # counts parsed from effect texts
    assert t("fox-duet.event.gems-slid", count=1) == "1 gem slid toward the centre."
    assert t("lobby.joined", n=1) == t("lobby.joined")  # no singular form: the sentence itself


def test_every_singular_form_has_its_plural_with_the_same_placeholders() -> None:
    english = catalogue("en")
    for key, text in english.items():
        if key.endswith(".one"):
            base = key.removesuffix(".one")
            assert base in english, f"{key!r} has no plural {base!r}"
            assert placeholders(text) == placeholders(english[base]), key
            assert placeholders(text) & set(COUNTS), f"{key!r} names no count"


def test_no_sentence_hedges_its_plural() -> None:
    """Counts take the singular with ``<key>.one``, never "card(s)"."""
    for key, text in catalogue("en").items():
        assert "(s)" not in text, f"{key!r}: {text!r}"
