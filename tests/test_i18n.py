"""The gettext catalogues: every sentence the bot shows has a translation, with the placeholders the
code fills in and the plural forms its language needs; and the Babel tooling around them."""

from __future__ import annotations

import ast
import shutil
from collections.abc import Iterator
from pathlib import Path

import babel
import pytest
from babel import Locale
from babel.messages.plurals import get_plural

from engine import GAMES, IllegalAction
from engine.fox_duet.state import STEP_VERBS as FOX_STEPS
from engine.noctiluca.state import STEP_VERBS as NOCTILUCA_STEPS
from l10n import Phrase, entries, plural_index, po_name, use_catalogues
from l10n import tools as i18n_tools
from l10n.words import COUNTS, available_locales, catalogue, placeholders, resolve_locale, t
from league.refusal import Refusal
from services.game_service import GameService
from services.storage import Database

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "data" / "i18n"


Forms = str | tuple[str, ...]


def write_catalogue(folder: Path, locale: str, messages: dict[str, Forms]) -> Path:
    """A ``.po`` file as the project keeps them: keys as msgids; a tuple of forms is a plural entry
    (its msgid_plural the key again), in the order of the locale's Plural-Forms."""
    folder.mkdir(parents=True, exist_ok=True)
    catalog = i18n_tools.new_catalogue(locale)
    for key, text in messages.items():
        if isinstance(text, tuple):
            catalog.add((key, key), text)
        else:
            catalog.add(key, text)
    path = folder / f"{po_name(locale)}.po"
    i18n_tools.write(catalog, path)
    return path


def real_catalogues_with(dest: Path, changes: dict[str, dict[str, Forms | None]]) -> None:
    """The repository's catalogues copied to ``dest`` (which the layer then reads), with ``changes``
    per locale: a text replaces a message's (all forms for a tuple), None removes the message."""
    for path in I18N.glob("*.po"):
        shutil.copy(path, dest / path.name)
    for locale, messages in changes.items():
        path = dest / f"{po_name(locale)}.po"
        catalog = i18n_tools.read(path)
        for key, text in messages.items():
            if text is None:
                catalog.delete(catalog[key].id)
            else:
                catalog[key].string = text
        i18n_tools.write(catalog, path)
    use_catalogues(dest)  # the files changed under the cache


@pytest.fixture
def catalogues(tmp_path: Path) -> Iterator[Path]:
    """An empty catalogue folder the translation layer reads instead of data/i18n."""
    folder = tmp_path / "po"
    folder.mkdir()
    use_catalogues(folder)
    yield folder
    use_catalogues(None)


# -- the shipped catalogues -------------------------------------------------------------------
def test_the_catalogues_are_complete_and_consistent() -> None:
    """Every .po has every English key, translated, not fuzzy, with the same placeholders in every
    form, as many plural forms as CLDR gives its language, and the CLDR Plural-Forms header."""
    assert i18n_tools.catalogue_problems() == []
    assert "en" in available_locales()


def test_every_literal_key_used_in_code_exists() -> None:
    """Babel's extraction (babel.cfg) finds the keys passed to t, Refusal and the engine's illegal."""
    found = i18n_tools.extracted_keys()
    for key in ("lobby.joined", "error.not-your-turn", "illegal.not-your-turn", "vivarium.illegal.swap-first"):
        assert key in found, key
    # Both branches of a conditional key are keys (Babel's own method would join them).
    assert {"tournament.col.place", "tournament.col.points"} <= set(found)
    assert i18n_tools.missing_keys() == []


def literal_calls() -> dict[str, set[str]]:
    """Keys passed as literal strings to t(...) in bot/, services/, league/ and render/, with the keyword
    names given."""
    keys: dict[str, set[str]] = {}
    for folder in ("bot", "services", "league", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t" and node.args:
                    first = node.args[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        if any(k.arg is None for k in node.keywords):
                            continue
                        keys.setdefault(first.value, set()).update(k.arg for k in node.keywords if k.arg)
    return keys


def test_the_code_fills_every_placeholder_of_every_form() -> None:
    english = entries("en")
    for key, given in literal_calls().items():
        assert key in english, f"missing translation {key!r}"
        needed = set().union(*(placeholders(form) for form in english[key].forms))
        assert needed <= given, f"{key!r} needs {sorted(needed - given)}"


def test_plural_messages_are_counted_and_nothing_hedges_its_plural() -> None:
    """A plural entry follows a count (n, count, points, days, steps); never "card(s)"."""
    plural = {key: entry for key, entry in entries("en").items() if entry.plural}
    assert "tm-dice.effect.draw" in plural and "fox-duet.event.gems-slid" in plural
    for key, entry in plural.items():
        assert len(entry.forms) == 2, key
        assert placeholders(entry.forms[0]) == placeholders(entry.forms[1]), key
        assert placeholders(entry.forms[0]) & set(COUNTS), f"{key!r} names no count"
    for key, text in catalogue("en").items():
        assert "(s)" not in text, f"{key!r}: {text!r}"


def test_a_count_takes_its_plural_form_in_english() -> None:
    assert t("tm-dice.effect.draw", n=1) == "draw 1 card"
    assert t("tm-dice.effect.draw", n=2) == "draw 2 cards"
    assert t("tm-dice.effect.draw", n=0) == "draw 0 cards"
    assert t("tm-dice.effect.draw", n="1") == "draw 1 card"  # counts parsed from effect texts
    assert t("fox-duet.event.gems-slid", count=1) == "1 gem slid toward the centre."
    assert t("lobby.joined", n=1) == t("lobby.joined")  # not a plural message: the sentence itself


def test_the_engine_english_of_each_refusal_is_the_catalogue_english() -> None:
    """IllegalAction's str() is its English; the engine writes it beside its key, and the two agree."""
    english = catalogue("en")
    found = 0
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "illegal":
                key, text = (a.value for a in node.args[:2] if isinstance(a, ast.Constant))
                assert english.get(key) == text, f"{path.name}: {key!r}"
                found += 1
    assert found >= 20
    for game, steps in (("fox-duet", FOX_STEPS), ("noctiluca", NOCTILUCA_STEPS)):
        for phase in steps:
            assert f"{game}.illegal.step.{phase}" in english, (game, phase)


def test_unknown_and_other_regions_fall_back_to_english(catalogues: Path) -> None:
    real_catalogues_with(catalogues, {"zh-TW": {"lobby.joined": None}})
    assert available_locales() == ["en", "pt-BR", "zh-TW"]
    for other in ("zh-CN", "pt-PT", "xx-YY", "", None):
        assert resolve_locale(other) == "en", other
    assert resolve_locale("zh-TW") == "zh-TW" and resolve_locale("pt_BR") == "pt-BR"
    assert t("illegal.not-your-turn", "zh-CN") == "It is not your turn."
    assert t("illegal.not-your-turn", "pt-PT") == "It is not your turn."
    assert t("lobby.joined", "xx-YY") == t("lobby.joined")
    # A key the catalogue lacks reads English; a sentence it has reads in its language.
    assert t("lobby.joined", "zh-TW") == t("lobby.joined")
    assert t("illegal.not-your-turn", "zh-TW") == "現在不是你的回合。"
    assert t("illegal.not-your-turn", "pt-BR") == "Não é a sua vez."


def cldr_plural_forms(locale: str) -> str:
    """The ``Plural-Forms`` header CLDR gives ``locale``, read from the installed (locked) Babel: the
    expectation and the catalogues follow the same source, so they cannot drift apart."""
    return f"Plural-Forms: {get_plural(po_name(locale)).plural_forms}"


def test_plural_forms_follow_cldr_in_portuguese_and_chinese(catalogues: Path) -> None:
    """CLDR: pt "one" is 0 and 1, "many" the exact millions, "other" the rest; zh has one form; en
    "one" is 1 only. The form a count takes is its CLDR category's, whatever the form's index."""
    assert i18n_tools.plural_categories("pt-BR") == ["one", "many", "other"]
    assert i18n_tools.plural_categories("en") == ["one", "other"]
    assert i18n_tools.plural_categories("zh-TW") == ["other"]
    real_catalogues_with(
        catalogues,
        {
            "pt-BR": {"tm-dice.effect.draw": ("compre {n} carta", "compre {n} de cartas", "compre {n} cartas")},
            "zh-TW": {"tm-dice.effect.draw": ("抽 {n} 張牌",)},
        },
    )
    assert t("tm-dice.effect.draw", "pt-BR", n=0) == "compre 0 carta"
    assert t("tm-dice.effect.draw", "pt-BR", n=1) == "compre 1 carta"
    assert t("tm-dice.effect.draw", "pt-BR", n=2) == "compre 2 cartas"
    assert t("tm-dice.effect.draw", "pt-BR", n=1_000_000) == "compre 1000000 de cartas"
    assert t("tm-dice.effect.draw", "zh-TW", n=1) == "抽 1 張牌"
    assert t("tm-dice.effect.draw", "zh-TW", n=5) == "抽 5 張牌"
    assert t("tm-dice.effect.draw", "en", n=0) == "draw 0 cards"
    categories = {locale: i18n_tools.plural_categories(locale) for locale in ("pt-BR", "en", "zh-TW")}
    cldr = {locale: Locale.parse(po_name(locale)).plural_form for locale in categories}
    for locale, numbers in (("pt-BR", (0, 1, 2, 10, 1_000_000)), ("en", (0, 1, 2)), ("zh-TW", (1, 5))):
        for n in numbers:
            assert categories[locale][plural_index(locale, n)] == cldr[locale](n), (locale, n)
    assert [plural_index("pt-BR", n) for n in (0, 1, 2, 10, 1_000_000)] == [0, 0, 2, 2, 1]
    headers = {p.name: p.read_text(encoding="utf-8").replace('"\n"', "") for p in catalogues.glob("*.po")}
    for locale in ("pt-BR", "zh-TW", "en"):
        assert cldr_plural_forms(locale) in headers[f"{po_name(locale)}.po"], locale


def test_a_catalogue_behind_the_installed_cldr_is_caught_with_a_clear_message(tmp_path: Path) -> None:
    """A catalogue written for another Babel's rule (pt-BR's two forms before CLDR's "many") is
    named with both headers and the Babel version, not left to read the wrong forms."""
    dest = tmp_path / "po"
    write_catalogue(dest, "en", {"a.count": ("{n} card", "{n} cards")})
    path = write_catalogue(dest, "pt-BR", {"a.count": ("{n} carta", "{n} cartas", "{n} cartas")})
    text = path.read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith('"Plural-Forms:'))
    start = text.index(header)
    end = text.index('\\n"', start) + 3
    path.write_text(text[:start] + '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' + text[end:], encoding="utf-8")
    problems = i18n_tools.catalogue_problems(dest)
    (problem,) = [p for p in problems if "Plural-Forms" in p]
    assert problem.startswith("pt_BR.po: Plural-Forms is 'nplurals=2; plural=(n > 1);'")
    assert f"Babel {babel.__version__}" in problem and get_plural("pt_BR").plural_forms in problem


def test_a_new_language_is_a_new_po_file_and_nothing_else(tmp_path: Path, catalogues: Path) -> None:
    shutil.copy(I18N / "en.po", catalogues / "en.po")
    assert available_locales() == ["en"]
    assert not (catalogues / "messages.pot").exists()
    created = i18n_tools.init("fr", catalogues)
    assert created.name == "fr.po" and (catalogues / "messages.pot").is_file()
    use_catalogues(catalogues)
    assert available_locales() == ["en", "fr"] and resolve_locale("fr-CA") == "fr"
    assert t("lobby.joined", "fr") == t("lobby.joined")  # untranslated: English
    text = created.read_text(encoding="utf-8")
    assert cldr_plural_forms("fr") in text.replace('"\n"', "")
    created.write_text(
        text.replace('msgid "lobby.joined"\nmsgstr ""', 'msgid "lobby.joined"\nmsgstr "Vous avez pris place."'),
        encoding="utf-8",
    )
    use_catalogues(catalogues)
    assert t("lobby.joined", "fr") == "Vous avez pris place."
    problems = i18n_tools.catalogue_problems(catalogues)
    assert "fr.po: lobby.title has an empty translation" in problems
    assert not any("lobby.joined" in p for p in problems)


# -- the checks can fail ----------------------------------------------------------------------
def test_check_reports_every_kind_of_broken_translation(tmp_path: Path) -> None:
    dest = tmp_path / "po"
    write_catalogue(dest, "en", {"a.count": ("{n} card", "{n} cards"), "a.name": "Hi {name}", "a.x": "x"})
    write_catalogue(dest, "pt-BR", {"a.count": ("", "{n} cartas"), "a.name": "Oi {nome}", "a.extra": "?"})
    write_catalogue(dest, "zh-TW", {"a.count": ("{n} 張",), "a.name": "{name} 你好", "a.x": "（s）"})
    problems = i18n_tools.catalogue_problems(dest)
    assert "pt_BR.po: a.count has an empty translation" in problems  # no "one" form (0 and 1)
    assert "pt_BR.po: a.x is missing" in problems
    assert "pt_BR.po: a.extra is not an English key" in problems
    assert any(p.startswith("pt_BR.po: a.name fills ['nome'], English ['name']") for p in problems)
    assert not [p for p in problems if p.startswith("zh_TW.po")]
    assert len(problems) == 4


# -- Babel update -----------------------------------------------------------------------------
def test_update_adds_new_keys_empty_and_drops_removed_ones(tmp_path: Path) -> None:
    dest = tmp_path / "po"
    write_catalogue(dest, "en", {"a.old": "Old", "a.kept": "Kept {name}", "a.n": ("{n} card", "{n} cards")})
    write_catalogue(dest, "zh-TW", {"a.old": "舊", "a.kept": "保留 {name}", "a.n": ("{n} 張牌",)})
    assert i18n_tools.update(dest) == ["messages.pot", "zh_TW.po"]  # the first template
    # English changes: a.old goes, b.new comes; the Chinese catalogue stays as translators left it.
    write_catalogue(dest, "en", {"a.kept": "Kept {name}", "a.n": ("{n} card", "{n} cards"), "b.new": "New"})
    assert i18n_tools.update(dest) == ["messages.pot", "zh_TW.po"]
    zh = i18n_tools.read(dest / "zh_TW.po")
    assert zh.get("a.old") is None and "a.old" not in (dest / "zh_TW.po").read_text(encoding="utf-8")
    assert zh["a.kept"].string == "保留 {name}"
    assert zh["b.new"].string == "" and not zh["b.new"].fuzzy
    assert i18n_tools.forms_of(zh["a.n"]) == ("{n} 張牌",)  # one form, as zh has
    assert i18n_tools.catalogue_problems(dest) == ["zh_TW.po: b.new has an empty translation"]
    pot = i18n_tools.read(dest / "messages.pot")
    assert sorted(i18n_tools.key_of(m) for m in pot if m.id) == ["a.kept", "a.n", "b.new"]
    assert pot["a.kept"].auto_comments == ["en: Kept {name}"]
    assert i18n_tools.update(dest) == []  # nothing left to do


# -- engine refusals, in the reader's language ------------------------------------------------
async def test_an_illegal_move_is_refused_in_the_readers_language(tmp_path: Path, catalogues: Path) -> None:
    """Through the service: the engine's key and values, worded for a zh-TW reader (a Term value,
    the step's name, translated too), and English for a reader whose language has no catalogue."""
    real_catalogues_with(catalogues, {"zh-TW": {"error.illegal": "不能這樣下：{reason}"}})
    db = await Database.open(tmp_path / "meeple.db")
    try:
        service = GameService(db)
        row = await service.create("fox-duet", 1, 500, 11, "Alice", {"level": 1})
        await service.join(row.id, 22, "Bob")
        await service.start(row.id, 11)
        state = await service.state(await service.get(row.id))
        mover = [11, 22][state.to_move()[0]]
        before = (await service.get(row.id)).state
        with pytest.raises(Refusal) as wrong_step:
            await service.act(row.id, mover, 0, "toward 0")
        with pytest.raises(Refusal) as nonsense:
            await service.act(row.id, mover, 0, "play nothing-0")
        assert (await service.get(row.id)).state == before
    finally:
        await db.close()
    refusal = wrong_step.value
    assert refusal.key == "error.illegal" and isinstance(refusal.values["reason"], Phrase)
    assert t(refusal.key, "zh-TW", **refusal.values) == "不能這樣下：現在不是「toward」的時候：目前的步驟是「出牌」。"
    assert t(refusal.key, "pt-BR", **refusal.values).endswith(
        "Agora não é hora de “toward”: a etapa atual é “jogar uma carta”."
    )
    assert t(refusal.key, "ja", **refusal.values) == (
        "That move is not allowed: Now is not the time for “toward”: the current step is “playing a card”."
    )
    assert t(nonsense.value.key, "zh-TW", **nonsense.value.values) == "不能這樣下：現在不能執行「play nothing-0」。"


def test_a_broken_translation_reads_english_rather_than_failing(catalogues: Path) -> None:
    """A translation naming a value the code does not give: English, not an exception (check reports it)."""
    real_catalogues_with(catalogues, {"pt-BR": {"lobby.joined": "Você sentou {lugar}."}})
    assert t("lobby.joined", "pt-BR") == t("lobby.joined", "en")
    assert t("illegal.not-your-turn", "pt-BR") == "Não é a sua vez."


def test_a_refusal_without_a_catalogue_entry_still_reads_its_english() -> None:
    """A game whose refusal key no catalogue has yet: the engine's own English is shown (in the
    reader's frame sentence)."""
    reason = Phrase("no-such-game.illegal.x", {"n": 3}, english="Three is too many.")
    assert t("error.illegal", "en", reason=reason) == "That move is not allowed: Three is too many."
    assert t("error.illegal", "zh-TW", reason=reason) == t("error.illegal", "zh-TW", reason="Three is too many.")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_games_refusals_carry_a_known_key_and_stay_english(game_id: str) -> None:
    """Old callers read ``str(exc)``: the English sentence, the catalogue's English filled in."""
    game = GAMES[game_id]
    state = game.new(game.min_players, 3)
    mover = state.to_move()[0]
    attempts = [
        (99, "anything"),
        (mover, "fly away"),
        (mover, "play"),
        (mover, "keep x y"),
        (mover, "take row=9 col=9"),
    ]
    waiting = [seat for seat in range(state.players) if seat not in state.to_move()]
    if waiting:
        attempts.append((waiting[0], str(state.legal_actions(mover)[0])))
    english = catalogue("en")
    for seat, text in attempts:
        with pytest.raises(IllegalAction) as info:
            state.apply(seat, text)
        exc = info.value
        assert exc.key in english, (game_id, text, exc.key)
        plain = {name: str(value) for name, value in exc.values.items()}  # a Term's English is its id
        assert str(exc) == english[exc.key].format_map(plain)


def test_game_titles_are_the_engines_in_english_and_the_seeds_in_chinese() -> None:
    """``game.title.<id>``: English is the engine's own title; zh-TW uses the seed rulebooks' names."""
    from l10n import game_title

    for game_id, game in GAMES.items():
        assert game_title(game_id, "en") == game.title
    assert game_title("noctiluca", "zh-TW") == "繽紛夜光蟲"  # the zh-TW rulebook's title
    assert game_title("vivarium", "zh-TW") == "生態園"  # "Vivarium(生態園)"


def test_lists_are_joined_as_each_language_joins_them() -> None:
    """CLDR's list patterns through Babel, not ", " everywhere (Chinese enumerates with 、)."""
    from l10n import listing

    assert listing(["plant", "event", "water"], "en") == "plant, event, and water"
    assert listing(["植物", "事件", "水"], "zh-TW") == "植物、事件和水"
    assert listing(["planta", "evento", "água"], "pt-BR") == "planta, evento e água"
    assert listing(["one"], "pt-BR") == "one" and listing([], "en") == ""


def test_the_english_content_names_are_the_data_files_names() -> None:
    """``content.<game>.<kind>.<id>`` in en.po is the template translators work from; the data files
    name the items. Each key is an item, each item a key, and the English is its name as written."""
    from tests.support.content import content_items

    items = {item.key: item.english for item in content_items()}
    english = {k: v for k, v in catalogue("en").items() if k.startswith("content.")}
    assert english == items
