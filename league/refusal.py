"""A request the platform turns down, worded for the reader by the catalogues."""

from __future__ import annotations


class Refusal(Exception):
    """A request the platform turns down; ``key`` and ``values`` are worded by the i18n layer."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values
