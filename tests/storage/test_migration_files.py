"""Reading migration files: naming, numbering and statement splitting."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.storage.migrate import MIGRATIONS_DIR, MigrationError, load_migrations, split_statements


def write(directory: Path, name: str, sql: str = "CREATE TABLE t (x);") -> None:
    (directory / name).write_text(sql, encoding="utf-8")


def test_shipped_migrations_are_numbered_from_one_without_gaps() -> None:
    numbers = [migration.number for migration in load_migrations(MIGRATIONS_DIR)]
    assert numbers == list(range(1, len(numbers) + 1))


def test_migrations_are_ordered_by_number(tmp_path: Path) -> None:
    write(tmp_path, "0002_second.sql")
    write(tmp_path, "0001_first.sql")
    assert [migration.name for migration in load_migrations(tmp_path)] == ["first", "second"]


def test_other_files_in_the_directory_are_ignored(tmp_path: Path) -> None:
    write(tmp_path, "0001_first.sql")
    write(tmp_path, "README.md", "notes")
    assert len(load_migrations(tmp_path)) == 1


def test_gap_in_numbers_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "0001_first.sql")
    write(tmp_path, "0003_third.sql")
    with pytest.raises(MigrationError, match="0002 is missing"):
        load_migrations(tmp_path)


def test_numbers_not_starting_at_one_are_refused(tmp_path: Path) -> None:
    write(tmp_path, "0002_second.sql")
    with pytest.raises(MigrationError, match="0001 is missing"):
        load_migrations(tmp_path)


def test_duplicate_number_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "0001_first.sql")
    write(tmp_path, "0001_other.sql")
    with pytest.raises(MigrationError, match="share number 0001"):
        load_migrations(tmp_path)


def test_misnamed_sql_file_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "1_first.sql")
    with pytest.raises(MigrationError, match="NNNN_name.sql"):
        load_migrations(tmp_path)


def test_transaction_control_in_a_migration_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "0001_first.sql", "CREATE TABLE t (x);\nCOMMIT;\nCREATE TABLE u (y);")
    with pytest.raises(MigrationError, match="transaction control"):
        load_migrations(tmp_path)


def test_split_statements_keeps_a_trigger_body_whole() -> None:
    sql = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER t_guard BEFORE DELETE ON t
    BEGIN
        SELECT RAISE(ABORT, 'no; never');
    END;
    /* trailing comment */
    """
    statements = split_statements(sql)
    assert len(statements) == 2
    assert "DEFAULT 'a;b'" in statements[0]
    assert statements[1].strip().startswith("CREATE TRIGGER") and statements[1].strip().endswith("END;")


def test_split_statements_keeps_a_last_statement_without_semicolon() -> None:
    assert [s.strip() for s in split_statements("SELECT 1; SELECT 2")] == ["SELECT 1;", "SELECT 2;"]
