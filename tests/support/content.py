"""Our own content items with a name (cards, corporations, creatures...): where the catalogues'
``content.<game>.<kind>.<id>`` keys come from."""

from __future__ import annotations

import json
from typing import NamedTuple

from engine.resources import data_file

# (game, data file, list in it, kind in the key)
SOURCES = [
    ("tm-dice", "bonus", "bonus_cards", "bonus"),
    ("tm-dice", "cards", "cards", "card"),
    ("tm-dice", "corporations", "corporations", "corporation"),
    ("tm-dice", "milestones", "milestones", "milestone"),
    ("vivarium", "contracts", "contracts", "contract"),
    ("vivarium", "contracts", "starting_contracts", "contract"),
    ("vivarium", "creatures", "creatures", "creature"),
    ("vivarium", "equipment", "equipment", "equipment"),
]


class Item(NamedTuple):
    game: str
    kind: str
    ident: str
    english: str

    @property
    def key(self) -> str:
        return f"content.{self.game}.{self.kind}.{self.ident}"


def content_items() -> list[Item]:
    """Every named item of the data files, with its English name."""
    items = []
    for game, file, listed, kind in SOURCES:
        for entry in json.loads(data_file(game, f"{file}.json").read_text(encoding="utf-8"))[listed]:
            items.append(Item(game, kind, entry["id"], entry["name"]))
    return items
