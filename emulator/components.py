"""Helpers over message component trees (as sent by the bot, plus Discord's numeric ids)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SECTION = 9
TEXT_DISPLAY = 10
CONTAINER = 17
LABEL = 18

SELECT_TYPES = frozenset({STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT})
LINK_STYLE = 5
PREMIUM_STYLE = 6


def walk(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component of a tree, depth first (rows, sections, containers, labels included)."""
    for component in components:
        yield component
        children = list(component.get("components") or [])
        if component.get("accessory"):
            children.append(component["accessory"])
        if component.get("component"):
            children.append(component["component"])
        yield from walk(children)


def assign_ids(components: list[dict[str, Any]]) -> None:
    """Give every component without one a sequential numeric `id`, as Discord does."""
    used = {c["id"] for c in walk(components) if isinstance(c.get("id"), int)}
    next_id = 1
    for component in walk(components):
        if not isinstance(component.get("id"), int):
            while next_id in used:
                next_id += 1
            component["id"] = next_id
            used.add(next_id)


def buttons(components: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """All buttons of a tree."""
    return [c for c in walk(components) if c.get("type") == BUTTON]


def selects(components: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """All select menus of a tree."""
    return [c for c in walk(components) if c.get("type") in SELECT_TYPES]


def find_button(
    components: Iterable[dict[str, Any]], *, label: str | None = None, custom_id: str | None = None
) -> dict[str, Any]:
    """The only button matching label and/or custom_id; raises LookupError otherwise."""
    if label is None and custom_id is None:
        raise ValueError("give a label or a custom_id")
    found = [
        b
        for b in buttons(components)
        if (label is None or b.get("label") == label) and (custom_id is None or b.get("custom_id") == custom_id)
    ]
    return _only(found, "button", label=label, custom_id=custom_id, among=buttons(components))


def find_select(
    components: Iterable[dict[str, Any]], *, custom_id: str | None = None, placeholder: str | None = None
) -> dict[str, Any]:
    """The only select matching custom_id and/or placeholder (or the only select at all)."""
    everything = selects(components)
    found = [
        s
        for s in everything
        if (custom_id is None or s.get("custom_id") == custom_id)
        and (placeholder is None or s.get("placeholder") == placeholder)
    ]
    return _only(found, "select", custom_id=custom_id, placeholder=placeholder, among=everything)


def find_component(components: Iterable[dict[str, Any]], custom_id: str) -> dict[str, Any]:
    """The component with that custom_id; raises LookupError otherwise."""
    everything = [c for c in walk(components) if "custom_id" in c]
    return _only(
        [c for c in everything if c["custom_id"] == custom_id], "component", custom_id=custom_id, among=everything
    )


def _only(found: list[dict[str, Any]], kind: str, *, among: list[dict[str, Any]], **criteria: Any) -> dict[str, Any]:
    wanted = ", ".join(f"{k}={v!r}" for k, v in criteria.items() if v is not None)
    if len(found) == 1:
        return found[0]
    have = [{k: c.get(k) for k in ("label", "custom_id", "placeholder") if c.get(k) is not None} for c in among]
    if not found:
        raise LookupError(f"no {kind} with {wanted or 'any criteria'}; the message has {have}")
    raise LookupError(f"{len(found)} {kind}s match {wanted or 'any criteria'}: {have}")
