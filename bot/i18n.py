"""The bot's name for the translation layer, which lives in ``l10n`` (shared with ``render``)."""

from l10n import (
    COUNTS,
    DEFAULT_LOCALE,
    CommandRef,
    OptionRef,
    Phrase,
    Term,
    available_locales,
    catalogue,
    content_name,
    game_title,
    has,
    listing,
    placeholders,
    resolve_locale,
    t,
    title_term,
)

__all__ = [
    "COUNTS",
    "DEFAULT_LOCALE",
    "CommandRef",
    "OptionRef",
    "Phrase",
    "Term",
    "available_locales",
    "catalogue",
    "content_name",
    "game_title",
    "has",
    "listing",
    "placeholders",
    "resolve_locale",
    "t",
    "title_term",
]
