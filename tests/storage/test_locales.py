"""Languages in storage (migration 0012): each user's last Discord locale, a table's and a server's language."""

from __future__ import annotations

import re
import sqlite3

import pytest

from services.storage import Database
from services.storage import async_play as store
from services.storage.db import watch_commits
from services.storage.locales import remember_locale, user_locale
from services.storage.migrate import MIGRATIONS_DIR
from tests.storage.conftest import ALICE, BOB, CHANNEL, GUILD


async def test_a_user_never_seen_has_no_locale(db: Database) -> None:
    assert await user_locale(db, ALICE) is None


async def test_a_new_locale_is_stored_and_a_changed_one_replaces_it(db: Database) -> None:
    assert await remember_locale(db, ALICE, "zh-TW")
    assert await remember_locale(db, BOB, "pt-BR")
    assert await remember_locale(db, ALICE, "en-US")
    assert (await user_locale(db, ALICE), await user_locale(db, BOB)) == ("en-US", "pt-BR")


async def test_an_unchanged_locale_writes_nothing(db: Database) -> None:
    """Every interaction shows its user's locale: only a change may cost a write."""
    await remember_locale(db, ALICE, "zh-TW")
    watch = watch_commits()
    assert not await remember_locale(db, ALICE, "zh-TW")
    assert not watch.committed


async def test_a_locale_that_is_no_locale_is_refused_by_the_table(db: Database) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        await remember_locale(db, ALICE, "")
    assert await user_locale(db, ALICE) is None


async def test_a_table_keeps_its_language_and_old_tables_have_none(db: Database) -> None:
    chosen = await db.create_game("fox-duet", GUILD, CHANNEL, ALICE, {}, seed=1, language="zh-TW")
    assert chosen.language == "zh-TW" and (await db.get_game(chosen.id)).language == "zh-TW"
    older = await db.create_game("fox-duet", GUILD, CHANNEL + 1, BOB, {}, seed=2)
    assert older.language is None


async def test_a_server_language_is_a_setting_like_the_others(db: Database) -> None:
    assert (await store.guild_settings(db, GUILD)).language is None
    changed = await store.update_guild_settings(db, GUILD, language="pt-BR", use_threads=True)
    assert changed.language == "pt-BR" and changed.use_threads


def test_the_migration_uses_only_portable_statements() -> None:
    """The same file must read on PostgreSQL: plain CREATE TABLE and ALTER TABLE ADD COLUMN."""
    sql = (MIGRATIONS_DIR / "0012_locales.sql").read_text(encoding="utf-8")
    code = "\n".join(line.split("--")[0] for line in sql.splitlines())
    assert not re.search(r"\b(STRICT|WITHOUT ROWID|GLOB|AUTOINCREMENT|PRAGMA|OR IGNORE|OR REPLACE)\b", code, re.I)
    statements = [s.strip() for s in code.split(";") if s.strip()]
    assert all(re.match(r"(CREATE TABLE|ALTER TABLE \w+ ADD COLUMN) ", s) for s in statements), statements
