"""Vivarium: every contract and starting contract goal (data/vivarium/contracts.json).

合約卡:在游戲結束時,每位玩家會根據自己合約卡上的收集目標獲得分數 (end-of-game points for a
collection goal). The goals are ours: docs/rules/vivarium.md.
"""

from __future__ import annotations

import pytest

from engine.vivarium.content import CONTRACTS, STARTING
from engine.vivarium.scoring import goal_of, progress, score

ANIMALS = ["animal-mountain-1", "animal-forest-2", "animal-desert-3", "animal-swamp-1", "animal-mountain-2"]
PLANTS = ["plant-mountain-1", "plant-forest-2", "plant-desert-3", "plant-swamp-1", "plant-swamp-2"]
MINERALS = ["mineral-mountain-1", "mineral-forest-2", "mineral-desert-3", "mineral-swamp-1", "mineral-swamp-2"]
DRAGONS = ["dragon-mountain-1", "dragon-forest-2", "dragon-desert-3", "dragon-desert-1"]

CASES = [
    # contract, collection, points
    ("c01", ANIMALS[:2], 0),
    ("c01", ANIMALS[:3], 4),
    ("c01", ANIMALS[:5], 8),
    ("c02", PLANTS[:3], 4),
    ("c02", PLANTS[:5], 8),
    ("c03", MINERALS[:2], 0),
    ("c03", MINERALS[:4], 4),
    ("c04", DRAGONS[:1], 0),
    ("c04", DRAGONS[:2], 3),
    ("c04", DRAGONS[:4], 8),
    ("c05", ["animal-mountain-1", "plant-mountain-1", "mineral-mountain-1"], 4),
    ("c06", ["animal-forest-2", "plant-forest-2", "mineral-forest-2", "dragon-forest-2", "animal-forest-1"], 8),
    ("c07", ["animal-desert-3", "plant-desert-3"], 0),
    ("c07", ["animal-desert-3", "plant-desert-3", "dragon-desert-1"], 4),
    ("c08", ["plant-swamp-1", "plant-swamp-2", "animal-swamp-1", "e06"], 4),
    ("c09", [ANIMALS[0], PLANTS[0], MINERALS[0]], 0),
    ("c09", [ANIMALS[0], PLANTS[0], MINERALS[0], DRAGONS[0]], 4),
    ("c09", ANIMALS[:2] + PLANTS[:2] + MINERALS[:2] + DRAGONS[:1] + ["e03"], 8),
    ("c10", ["animal-mountain-1", "plant-forest-2", "mineral-desert-3", "dragon-desert-1"], 0),
    ("c10", ["animal-mountain-1", "plant-forest-2", "mineral-desert-3", "plant-swamp-1"], 4),
    ("c11", ["e01", "e05", "e09"], 0),
    ("c11", ["e01", "e05", "e09", "e13"], 5),
    ("c11", ["e01", "e02", "e05", "e06", "e09", "e10", "e13", "e14"], 10),
    ("c12", ["e01", "e02", "e03", "e05"], 6),
    ("c13", ["e13", "e14", "e01"], 4),
    ("c14", ["e05", "e06", "e09"], 3),
    ("c14", ["e05", "e06", "e09", "e10"], 6),
    ("c15", DRAGONS[:3] + MINERALS[:2], 6),
    ("c15", DRAGONS[:3], 0),
    ("c16", ANIMALS[:1] + PLANTS[:4], 2),
    ("c17", ["dragon-desert-3", "plant-desert-3", "animal-desert-3", "mineral-desert-2"], 0),
    ("c17", ["dragon-desert-3", "plant-desert-3", "animal-desert-3", "mineral-desert-3"], 4),
    ("c17", [f"{t}-{h}-3" for t in ("animal", "plant") for h in ("mountain", "forest", "desert")], 8),
    ("c18", ["dragon-desert-3", "plant-desert-3"], 0),
    ("c18", ["dragon-desert-3", "plant-desert-3", "animal-swamp-3"], 5),
    ("c18", [f"animal-{h}-3" for h in ("mountain", "forest", "desert", "swamp")] + ["plant-swamp-3"], 9),
    ("c19", MINERALS[:3] + ANIMALS[:1], 3),
    ("c20", ["plant-swamp-1", "plant-forest-1"], 0),
    ("c20", ["plant-swamp-1", "plant-swamp-3"], 5),
    ("c21", ["dragon-desert-1", "dragon-desert-2", "dragon-swamp-1"], 5),
    ("c21", ["dragon-desert-1", "e03"], 0),
    ("s-mountain", ["animal-mountain-1", "plant-mountain-1"], 0),
    ("s-mountain", ["animal-mountain-1", "plant-mountain-1", "e13"], 3),
    ("s-forest", [f"{t}-forest-{p}" for t in ("animal", "plant") for p in (1, 2, 3)], 6),
    ("s-desert", [f"{t}-desert-{p}" for t in ("animal", "plant", "mineral") for p in (1, 2)] + ["dragon-desert-1"], 10),
    ("s-swamp", ["animal-swamp-1", "plant-swamp-1", "mineral-swamp-1"], 3),
    ("s-animal", ANIMALS[:5], 6),
    ("s-plant", PLANTS[:2], 0),
    ("s-plant", PLANTS[:3], 3),
    ("s-mineral", MINERALS[:3], 3),
    ("s-dragon", DRAGONS[:2] + ["e03"], 3),
]


@pytest.mark.parametrize(("contract", "collection", "points"), CASES, ids=[f"{c}-{p}" for c, _, p in CASES])
def test_contract_goal_scores_what_it_says(contract, collection, points):
    """每位玩家會根據自己合約卡上的收集目標獲得分數: each contract scores its own goal."""
    assert progress(goal_of(contract), collection)["points"] == points


def test_every_contract_and_starting_contract_is_tested():
    """All 21 contracts and 8 starting contracts appear in the table above, fulfilled at least once."""
    fulfilled = {c for c, _, p in CASES if p > 0}
    assert fulfilled == set(CONTRACTS) | set(STARTING)


def test_contracts_taken_from_the_grid_and_starting_contracts_both_score():
    """完成的合約卡上的分數: contracts taken from the grid and the secret starting ones both count."""
    collection = ANIMALS[:3] + ["c01"]
    parts = score(collection, 0, [], ["s-animal", "s-swamp"])
    assert parts["contracts"] == 4 and parts["starting contracts"] == 3 and parts["fulfilled"] == 2


def test_a_contract_card_itself_counts_for_nothing_else():
    """Contract cards have no type, habitat or icon."""
    assert progress(goal_of("c09"), ["c01", "c02", "c03", "c04"])["have"] == 0
    assert score(["c01"], 0, [], [])["creatures"] == 0


def test_progress_shows_the_parts_of_a_set_or_pair_goal():
    """Progress for sets and pairs names how many of each part the collection holds (for the pictures)."""
    got = progress(goal_of("c15"), DRAGONS[:3] + MINERALS[:1])
    assert got == {"have": 1, "parts": [3, 1], "points": 3}
