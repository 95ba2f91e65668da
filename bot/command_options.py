"""Check a slash command's options against the command's own declaration, before it runs.

Discord enforces types, ranges and choices in its client, but a forged or replayed payload
skips the client, and discord.py does not check them again (``Range`` and ``choices`` only
describe the option to Discord). So every command's options are checked here, against the
same schema the bot syncs to Discord; a bad one is refused naming the option as Discord shows it
to the reader (``OptionRef``), before anything is stored.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from bot.command_l10n import choice_key
from l10n.words import Listed, OptionRef, Term
from league.refusal import Refusal

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
# Which lists of the payload's ``resolved`` data hold an entity option's object.
RESOLVED = {
    USER: ("users",),
    CHANNEL: ("channels",),
    ROLE: ("roles",),
    MENTIONABLE: ("users", "roles"),
    ATTACHMENT: ("attachments",),
}
STRING_LIMIT = 6000  # Discord's own limit on a string option
SAFE_INTEGER = 2**53  # Discord's integers are JSON numbers: beyond this they lose precision
NAME_SHOWN = 32  # an option's name is at most 32 characters; a forged one is cut to that


def leaf_options(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The options given to the command itself, below its group and subcommand."""
    options = list(data.get("options") or [])
    while (
        len(options) == 1
        and isinstance(options[0], dict)
        and options[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
    ):
        options = list(options[0].get("options") or [])
    return options


def check_options(
    schema: Sequence[Mapping[str, Any]], given: Sequence[Any], resolved: Mapping[str, Any], command: str = ""
) -> None:
    """Raise a Refusal naming the first option of ``command`` (its qualified name) that its
    declaration ``schema`` does not allow."""
    declared = {option["name"]: option for option in schema}
    seen: set[str] = set()
    for option in given:
        if not isinstance(option, dict) or not isinstance(option.get("name"), str):
            raise Refusal("error.option-unknown", option="?")
        name = option["name"]
        spec = declared.get(name)
        if spec is None or name in seen:
            raise Refusal("error.option-unknown", option=name[:NAME_SHOWN])
        seen.add(name)
        check_value(spec, option, resolved, command)
    for name, spec in declared.items():
        if spec.get("required") and name not in seen:
            raise Refusal("error.option-missing", option=OptionRef(command, name) if command else name)


def check_value(
    spec: Mapping[str, Any], option: Mapping[str, Any], resolved: Mapping[str, Any], command: str = ""
) -> None:
    declared = spec["name"]
    # A declared option: named as the reader's Discord shows it.
    name: object = OptionRef(command, declared) if command else declared
    kind, value = spec["type"], option.get("value")
    if option.get("type") != kind:
        raise Refusal("error.option-type", option=name)
    if kind == STRING:
        if not isinstance(value, str):
            raise Refusal("error.option-type", option=name)
        low, high = spec.get("min_length", 0), spec.get("max_length", STRING_LIMIT)
        if not low <= len(value) <= high:
            raise Refusal("error.option-length", option=name, low=low, high=high)
    elif kind in (INTEGER, NUMBER):
        number = isinstance(value, int) or (kind == NUMBER and isinstance(value, float) and math.isfinite(value))
        if isinstance(value, bool) or not number or not isinstance(value, int | float):
            raise Refusal("error.option-whole-number" if kind == INTEGER else "error.option-type", option=name)
        if kind == INTEGER and not -SAFE_INTEGER < value < SAFE_INTEGER:
            raise Refusal("error.option-whole-number", option=name)
        check_range(name, value, spec.get("min_value"), spec.get("max_value"))
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise Refusal("error.option-type", option=name)
    elif kind in RESOLVED:
        found = isinstance(value, str) and value.isdigit()
        if not found or not any(value in (resolved.get(group) or {}) for group in RESOLVED[kind]):
            raise Refusal("error.option-type", option=name)
    else:
        raise Refusal("error.option-type", option=name)
    choices = spec.get("choices")
    if choices and value not in [choice["value"] for choice in choices]:
        # Each choice as the reader's Discord lists it (the command tree's translation of its name).
        shown = tuple(Term(choice_key(choice["name"]), choice["name"]) for choice in choices)
        raise Refusal("error.option-choice", option=name, choices=Listed(shown, conjunction=True))


def check_range(name: object, value: float, low: float | None, high: float | None) -> None:
    if low is not None and high is not None and not low <= value <= high:
        raise Refusal("error.option-range", option=name, low=low, high=high)
    if low is not None and value < low:
        raise Refusal("error.option-min", option=name, low=low)
    if high is not None and value > high:
        raise Refusal("error.option-max", option=name, high=high)
