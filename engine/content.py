"""Game content from ``data/``: JSON files checked against a small schema.

Reading these files happens once, when a game module is imported; the rules themselves do no
I/O. Schemas are plain Python values:

- a type (``int``, ``str``, ``bool``): the value must be of that type;
- ``Range(lo, hi)``: an int within [lo, hi];
- ``OneOf(a, b, ...)``: one of the listed values;
- ``[schema]``: a list whose every item matches ``schema``;
- ``{"key": schema, ...}``: a dict with exactly these keys (``Optional(schema)`` keys may be
  left out).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.core import Record
from engine.resources import data_file
from engine.rng import Rng


class ContentError(ValueError):
    """A data file does not match its schema."""


@dataclass(frozen=True)
class Range:
    lo: int
    hi: int


class OneOf:
    def __init__(self, *values: Any) -> None:
        self.values = values


@dataclass(frozen=True)
class Optional:
    schema: Any


def check(value: Any, schema: Any, where: str = "$") -> None:
    """Raise ContentError naming the first place where ``value`` breaks ``schema``."""
    if isinstance(schema, Range):
        if not isinstance(value, int) or isinstance(value, bool) or not schema.lo <= value <= schema.hi:
            raise ContentError(f"{where}: expected an integer from {schema.lo} to {schema.hi}, got {value!r}")
    elif isinstance(schema, OneOf):
        if value not in schema.values:
            raise ContentError(f"{where}: expected one of {list(schema.values)}, got {value!r}")
    elif isinstance(schema, list):
        if not isinstance(value, list):
            raise ContentError(f"{where}: expected a list, got {type(value).__name__}")
        for i, item in enumerate(value):
            check(item, schema[0], f"{where}[{i}]")
    elif isinstance(schema, dict):
        if not isinstance(value, dict):
            raise ContentError(f"{where}: expected an object, got {type(value).__name__}")
        required = {k for k, s in schema.items() if not isinstance(s, Optional)}
        missing = sorted(required - set(value))
        if missing:
            raise ContentError(f"{where}: missing key {missing[0]!r}")
        extra = sorted(set(value) - set(schema))
        if extra:
            raise ContentError(f"{where}: unexpected key {extra[0]!r}")
        for key, sub in schema.items():
            if key in value:
                check(value[key], sub.schema if isinstance(sub, Optional) else sub, f"{where}.{key}")
    elif schema is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ContentError(f"{where}: expected an integer, got {value!r}")
    elif isinstance(schema, type):
        if not isinstance(value, schema):
            raise ContentError(f"{where}: expected {schema.__name__}, got {type(value).__name__}")
    else:
        raise TypeError(f"bad schema at {where}: {schema!r}")


def load(relative: str, schema: Any) -> Any:
    """Load ``data/<relative>`` and check it against ``schema``."""
    try:
        path = data_file(relative)
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ContentError(f"{relative}: file not found") from exc
    except json.JSONDecodeError as exc:
        raise ContentError(f"{relative}: not valid JSON ({exc})") from exc
    check(value, schema, relative)
    return value


def check_keys(data: Record, keys: Iterable[str], optional: Iterable[str] = ()) -> None:
    """A save holds every one of ``keys``, and nothing beyond them, ``optional`` and the header
    (``game``, ``players``, ``version``, ``rules_version``); else a ValueError naming the first
    key amiss."""
    keys = list(keys)
    missing = [k for k in keys if k not in data]
    if missing:
        raise ValueError(f"missing key {missing[0]!r}")
    extra = sorted(set(data) - set(keys) - set(optional) - {"game", "players", "version", "rules_version"})
    if extra:
        raise ValueError(f"unexpected key {extra[0]!r}")


def saved_rng(value: Any) -> Rng:
    """The generator of a save, from its ``rng`` field (the whole state of a SplitMix64)."""
    rng = Rng(0)
    rng.state = bounded_int(value, "'rng'", 0, (1 << 64) - 1)
    return rng


def bounded_int(value: Any, where: str, lo: int, hi: int) -> int:
    """``value`` if it is an integer from ``lo`` to ``hi``; else a ValueError naming ``where``."""
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{where} must be an integer from {lo} to {hi}, not {value!r}")
    return value


def resigned_seat(value: Any, players: int, over: bool, winners: list[int]) -> int | None:
    """A saved ``resigned`` field: null, or a seat of a finished game that it did not win."""
    if value is None:
        return None
    bounded_int(value, "'resigned'", 0, players - 1)
    if not over or value in winners:
        raise ValueError("'resigned' is a seat of a finished game, not among its winners")
    return value
