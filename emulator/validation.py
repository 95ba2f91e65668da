"""Discord's documented limits on messages, embeds, components, modals and choices."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from emulator import components as comp
from emulator.errors import EMPTY_MESSAGE, ApiError, form_error
from emulator.model import COMPONENTS_V2

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_V2_COMPONENTS = 40
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_CHOICES = 25
MAX_MODAL_TITLE = 45
MAX_OPTION_TEXT = 100  # a select option's label, value and description
MAX_PLACEHOLDER = 150
MAX_CHOICE_VALUE = 100  # an autocomplete choice's value
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes

_EMBED_LIMITS = {"title": 256, "description": 4096}


def _too_long(path: str, limit: int) -> ApiError:
    return form_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def validate_message(payload: dict[str, Any], *, file_count: int = 0, partial: bool = False) -> None:
    """Raise ApiError like Discord for an over-limit or empty message payload."""
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        raise form_error("content", "BASE_TYPE_STRING", "Could not interpret value as string.")
    if content and len(content) > MAX_CONTENT:
        raise _too_long("content", MAX_CONTENT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise form_error("embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    for index, embed in enumerate(embeds):
        validate_embed(embed, f"embeds.{index}")
    flags = int(payload.get("flags") or 0)
    components = payload.get("components") or []
    validate_components(components, v2=bool(flags & COMPONENTS_V2))
    if flags & COMPONENTS_V2 and (content or embeds):
        raise form_error("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "Cannot use content/embeds")
    validate_allowed_mentions(payload.get("allowed_mentions"))
    if partial:
        return
    has_attachments = file_count > 0 or bool(payload.get("attachments"))
    if not (content or embeds or components or has_attachments or payload.get("sticker_ids") or payload.get("poll")):
        raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message")


def validate_allowed_mentions(allowed: dict[str, Any] | None, path: str = "allowed_mentions") -> None:
    """`parse: ["users"]` with a `users` list (or `roles` with `roles`) is refused: they exclude each other."""
    if not isinstance(allowed, dict):
        return
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            raise form_error(
                f"{path}.{kind}",
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse: ["{kind}"] and a {kind} list are mutually exclusive',
            )


def validate_auto_archive(payload: dict[str, Any]) -> None:
    """A thread's `auto_archive_duration` is 60, 1440, 4320 or 10080 minutes."""
    value = payload.get("auto_archive_duration")
    if value is not None and value not in AUTO_ARCHIVE_DURATIONS:
        raise form_error(
            "auto_archive_duration", "BASE_TYPE_CHOICES", f"Value must be one of {list(AUTO_ARCHIVE_DURATIONS)}."
        )


def _paths(components: list[dict[str, Any]], prefix: str = "components") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every component with its form path (`components.0.components.1`), as Discord names fields."""
    for index, component in enumerate(components):
        here = f"{prefix}.{index}"
        yield here, component
        yield from _paths(list(component.get("components") or []), f"{here}.components")
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield f"{here}.{key}", component[key]
                yield from _paths(list(component[key].get("components") or []), f"{here}.{key}.components")


def _validate_select_texts(components: list[dict[str, Any]]) -> None:
    for path, component in _paths(components):
        if component.get("type") not in comp.SELECT_TYPES:
            continue
        if len(component.get("placeholder") or "") > MAX_PLACEHOLDER:
            raise _too_long(f"{path}.placeholder", MAX_PLACEHOLDER)
        for index, option in enumerate(component.get("options") or []):
            for key in ("label", "value", "description"):
                if len(str(option.get(key) or "")) > MAX_OPTION_TEXT:
                    raise _too_long(f"{path}.options.{index}.{key}", MAX_OPTION_TEXT)


def validate_embed(embed: dict[str, Any], path: str) -> None:
    """Embed field limits and the 6000-character total."""
    total = 0
    for key, limit in _EMBED_LIMITS.items():
        value = embed.get(key) or ""
        if len(value) > limit:
            raise _too_long(f"{path}.{key}", limit)
        total += len(value)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        raise form_error(f"{path}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for index, fld in enumerate(fields):
        name, value = fld.get("name"), fld.get("value")
        if not name or value is None or value == "":
            raise form_error(f"{path}.fields.{index}.value", "BASE_TYPE_REQUIRED", "This field is required")
        if len(name) > 256:
            raise _too_long(f"{path}.fields.{index}.name", 256)
        if len(str(value)) > 1024:
            raise _too_long(f"{path}.fields.{index}.value", 1024)
        total += len(name) + len(str(value))
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > 2048:
        raise _too_long(f"{path}.footer.text", 2048)
    if len(author) > 256:
        raise _too_long(f"{path}.author.name", 256)
    total += len(footer) + len(author)
    if total > MAX_EMBED_TOTAL:
        raise form_error(path, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def validate_components(components: list[dict[str, Any]], *, v2: bool = False) -> None:
    """Row/button counts, custom_id/label lengths, select texts and custom_id uniqueness."""
    _validate_select_texts(components)
    if v2:
        if sum(1 for _ in comp.walk(components)) > MAX_V2_COMPONENTS:
            raise form_error("components", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_V2_COMPONENTS} or fewer in length.")
    else:
        if len(components) > MAX_ROWS:
            raise form_error("components", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
        for r, row in enumerate(components):
            if row.get("type") != comp.ACTION_ROW:
                raise form_error(f"components.{r}.type", "UNION_TYPE_CHOICES", "Value must be an action row")
            children = row.get("components") or []
            if not children:
                raise form_error(f"components.{r}.components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
            if any(c.get("type") in comp.SELECT_TYPES for c in children) and len(children) > 1:
                raise form_error(f"components.{r}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Select alone")
            if len(children) > MAX_ROW_BUTTONS:
                raise form_error(f"components.{r}.components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    seen: set[str] = set()
    for component in comp.walk(components):
        custom_id = component.get("custom_id")
        if component.get("type") == comp.BUTTON:
            style = component.get("style")
            if style == comp.LINK_STYLE and not component.get("url"):
                raise form_error("components", "BUTTON_COMPONENT_URL_REQUIRED", "A link button needs a url")
            if style not in (comp.LINK_STYLE, comp.PREMIUM_STYLE) and not custom_id:
                raise form_error("components", "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A button needs a custom_id")
            if len(component.get("label") or "") > MAX_LABEL:
                raise _too_long("components.label", MAX_LABEL)
        if component.get("type") in comp.SELECT_TYPES:
            options = component.get("options") or []
            if component["type"] == comp.STRING_SELECT and not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                raise form_error("components.options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                raise form_error("components.options", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Duplicate value")
        if custom_id is not None:
            if len(custom_id) > MAX_CUSTOM_ID:
                raise _too_long("components.custom_id", MAX_CUSTOM_ID)
            if custom_id in seen:
                raise form_error(
                    "components", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
                )
            seen.add(custom_id)


def validate_modal(data: dict[str, Any]) -> None:
    """Modal title, custom_id and component count limits."""
    title = data.get("title") or ""
    if not title:
        raise form_error("data.title", "BASE_TYPE_REQUIRED", "This field is required")
    if len(title) > MAX_MODAL_TITLE:
        raise _too_long("data.title", MAX_MODAL_TITLE)
    custom_id = data.get("custom_id") or ""
    if not custom_id or len(custom_id) > MAX_CUSTOM_ID:
        raise form_error("data.custom_id", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        raise form_error("data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")


def validate_choices(choices: list[dict[str, Any]]) -> None:
    """Autocomplete: at most 25 choices, names 1..100 characters, string values at most 100."""
    if len(choices) > MAX_CHOICES:
        raise form_error("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for index, choice in enumerate(choices):
        if not 1 <= len(str(choice.get("name", ""))) <= 100:
            raise form_error(f"data.choices.{index}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100.")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > MAX_CHOICE_VALUE:
            raise _too_long(f"data.choices.{index}.value", MAX_CHOICE_VALUE)
