"""The one place where the bot's SQL (written for SQLite) becomes PostgreSQL.

The callers write SQLite's dialect everywhere: ``?`` placeholders, ``INSERT OR IGNORE``, the
clock ``strftime('%Y-%m-%dT%H:%M:%fZ', 'now')``, ``cursor.lastrowid``. On PostgreSQL each
statement is rewritten here once (and cached): ``$n`` placeholders, ``ON CONFLICT DO NOTHING``,
the same clock text from ``statement_timestamp()`` and ``RETURNING id``. Migrations go through
``migration_to_postgres`` (types, table options, the clock). Constraint failures from PostgreSQL
are raised as ``IntegrityError``, a ``sqlite3.IntegrityError`` worded like SQLite's ("CHECK
constraint failed: ..."), so every caller catches one exception on both backends.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

# SQLite's clock as every timestamp is written (see 0001_initial), and PostgreSQL's equivalent:
# the same text, fixed for one statement (as SQLite's 'now' is), in UTC, to the millisecond.
SQLITE_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
POSTGRES_NOW = "to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"


def stamp(moment: datetime) -> str:
    """``2026-11-22T11:18:18.399Z``: the form of every timestamp in the database."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def parse_stamp(text: str) -> datetime:
    return datetime.fromisoformat(text)


# Literals, quoted names, comments and dollar-quoted bodies are copied as they are; only the
# rest is rewritten.
_TOKENS = re.compile(
    r"""(?P<skip>'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|/\*.*?\*/|\$\$.*?\$\$)"""
    r"""|(?P<mark>\?)|(?P<word>[A-Za-z_][A-Za-z_0-9]*)|(?P<other>.)""",
    re.DOTALL,
)
_INSERT_OR = re.compile(r"\A\s*INSERT\s+OR\s+(\w+)\s+INTO\b", re.IGNORECASE)
_INSERT_INTO = re.compile(r"\A\s*INSERT\s+INTO\s+([A-Za-z_][A-Za-z_0-9]*)", re.IGNORECASE)
_RETURNS_ROWS = re.compile(r"\A\s*(SELECT|WITH|VALUES|SHOW|TABLE)\b", re.IGNORECASE)
_TABLE_OPTIONS = re.compile(r"\)\s*(?:STRICT|WITHOUT\s+ROWID)(?:\s*,\s*(?:STRICT|WITHOUT\s+ROWID))?\s*;", re.I)
# SQLite-only constructs a portable migration must not use: a PostgreSQL variant file is needed.
# (GLOB with a literal pattern is translated; json_valid and json_type exist on PostgreSQL too,
# defined by the variant of 0001_initial.)
_NOT_PORTABLE = re.compile(
    r"\b(CREATE\s+TRIGGER|DROP\s+TRIGGER|AUTOINCREMENT|PRAGMA|INSERT\s+OR|strftime|julianday|datetime)\b",
    re.IGNORECASE,
)
_REGEX_SPECIAL = set(".^$+(){}|\\")
_TYPES = {"INTEGER": "BIGINT", "REAL": "DOUBLE PRECISION", "TEXT": 'TEXT COLLATE "C"'}


class IntegrityError(sqlite3.IntegrityError):
    """A constraint refused a PostgreSQL write; worded like SQLite's message for the same failure."""


class NotPortable(ValueError):
    """SQL that has no PostgreSQL translation here (a migration needs a variant file)."""


@dataclass(frozen=True)
class Statement:
    """A statement rewritten for PostgreSQL."""

    sql: str
    returns_rows: bool  # run it with fetch (SELECT, RETURNING), else with execute (a status)
    returns_id: bool  # RETURNING id was added so that the cursor has a lastrowid


def _has_word(sql: str, word: str) -> bool:
    return any(m["word"] and m["word"].upper() == word for m in _TOKENS.finditer(sql))


def to_postgres(sql: str, id_tables: frozenset[str] = frozenset()) -> Statement:
    """Rewrite one statement of the bot's SQLite dialect for PostgreSQL.

    ``id_tables`` are the tables whose ``id`` PostgreSQL generates: an INSERT into one of them
    gets ``RETURNING id``, which stands in for SQLite's ``lastrowid``.
    """
    conflict = ""
    match = _INSERT_OR.match(sql)
    if match is not None:
        if match[1].upper() != "IGNORE":
            raise NotPortable(f"INSERT OR {match[1]} has no PostgreSQL translation; write ON CONFLICT ... DO UPDATE")
        sql = "INSERT INTO" + sql[match.end() :]
        conflict = " ON CONFLICT DO NOTHING"
    sql = sql.replace(SQLITE_NOW, POSTGRES_NOW)
    number = 0
    pieces: list[str] = []
    for token in _TOKENS.finditer(sql):
        if token["mark"]:
            number += 1
            pieces.append(f"${number}")
        elif token["skip"] and token[0].startswith(("--", "/*")):
            pieces.append(" ")  # a comment could hide what is appended below
        else:
            pieces.append(token[0])
    text = "".join(pieces).rstrip().rstrip(";").rstrip()
    if conflict:
        if _has_word(text, "ON") and re.search(r"\bON\s+CONFLICT\b", text, re.IGNORECASE):
            raise NotPortable("INSERT OR IGNORE with its own ON CONFLICT clause")
        text += conflict
    returning = _has_word(text, "RETURNING")
    returns_id = False
    insert = _INSERT_INTO.match(text)
    if insert is not None and insert[1].lower() in id_tables and not returning:
        text += " RETURNING id"
        returning = returns_id = True
    return Statement(text, returning or _RETURNS_ROWS.match(text) is not None, returns_id)


def migration_to_postgres(sql: str, *, variant: bool = False) -> str:
    """A migration's text for PostgreSQL: column types, table options and the clock translated.

    A portable file (plain CREATE TABLE / INDEX, ALTER TABLE ADD COLUMN) runs as translated; a
    file using SQLite-only constructs raises NotPortable unless it is a PostgreSQL variant
    (``variant=True``), which is written in PostgreSQL's dialect for what cannot be translated
    (regular expressions for GLOB, a JSON check function, triggers, identity columns) and has
    only its types, table options and clock translated, so it stays line by line comparable.
    Upper-case INTEGER, REAL and TEXT are types (TEXT gets byte order, SQLite's BINARY
    collation); a variant writes PostgreSQL-only types in lower case.
    """
    if not variant:
        code = " ".join(t[0] for t in _TOKENS.finditer(sql.replace(SQLITE_NOW, "")) if not t["skip"])
        found = _NOT_PORTABLE.search(code)
        if found is not None:
            raise NotPortable(f"{found[0]} is SQLite-only: this migration needs a PostgreSQL variant file")
    sql = _TABLE_OPTIONS.sub(");", sql.replace(SQLITE_NOW, POSTGRES_NOW))
    pieces: list[str] = []
    glob = ""  # "~" or "!~" once GLOB is read, until its pattern comes
    for token in _TOKENS.finditer(sql):
        word = token["word"]
        if word and word.upper() == "GLOB":
            negated = bool(pieces) and _last_word(pieces).upper() == "NOT"
            if negated:
                _drop_last_word(pieces)
            glob = "!~" if negated else "~"
            pieces.append(glob)
        elif glob and token[0].isspace():
            pieces.append(token[0])
        elif glob:
            if not (token["skip"] and token[0].startswith("'")):
                raise NotPortable("GLOB is translated only with a literal pattern")
            pieces.append("'" + glob_to_regex(token[0][1:-1].replace("''", "'")).replace("'", "''") + "'")
            glob = ""
        else:
            pieces.append(_TYPES.get(word, word) if word else token[0])
    return "".join(pieces)


def glob_to_regex(pattern: str) -> str:
    """SQLite's GLOB pattern as an anchored POSIX regular expression (``*``, ``?``, ``[...]``, ``[^...]``)."""
    out = ["^"]
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "[" and (close := pattern.find("]", index + 2)) != -1:
            out.append(pattern[index : close + 1])
            index = close
        else:
            out.append("\\" + char if char in _REGEX_SPECIAL else char)
        index += 1
    return "".join(out) + "$"


def _last_word(pieces: list[str]) -> str:
    for piece in reversed(pieces):
        if not piece.isspace():
            return piece
    return ""


def _drop_last_word(pieces: list[str]) -> None:
    while pieces and pieces[-1].isspace():
        pieces.pop()
    pieces.pop()


# SQLSTATE class 23, by code: the words SQLite starts the same failure's message with.
_CONSTRAINT_WORDS = {"23505": "UNIQUE", "23514": "CHECK", "23503": "FOREIGN KEY", "23502": "NOT NULL"}


def integrity_error(exc: Exception) -> IntegrityError | None:
    """The IntegrityError for a PostgreSQL constraint failure (SQLSTATE class 23), else None."""
    state = str(getattr(exc, "sqlstate", "") or "")
    if not state.startswith("23"):
        return None
    words = _CONSTRAINT_WORDS.get(state)
    message = str(exc)
    return IntegrityError(f"{words} constraint failed: {message}" if words else message)
