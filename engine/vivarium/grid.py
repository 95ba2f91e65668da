"""The 4 x 4 grid: cells, reachable cells from two chain tokens, clearing and refilling."""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import Record

ROW_DECK = {1: "creature", 2: "creature", 3: "equipment", 4: "contract"}
SIZE = 4


def cell_index(row: int, col: int) -> int:
    return (row - 1) * SIZE + (col - 1)


def cell_of(index: int) -> tuple[int, int]:
    return index // SIZE + 1, index % SIZE + 1


def reachable(numbers: Iterable[Iterable[int]], grid: list[str | None]) -> list[tuple[int, int]]:
    """Cells holding a card whose row is a number on one token and column a number on the other."""
    first, second = (set(n) for n in numbers)
    cells = {(r, c) for r in first for c in second} | {(r, c) for r in second for c in first}
    return sorted(cell for cell in cells if grid[cell_index(*cell)] is not None)


def column_cells(col: int, grid: list[str | None]) -> list[tuple[int, int]]:
    return [(r, col) for r in range(1, SIZE + 1) if grid[cell_index(r, col)] is not None]


def row_cells(row: int, grid: list[str | None]) -> list[tuple[int, int]]:
    return [(row, c) for c in range(1, SIZE + 1) if grid[cell_index(row, c)] is not None]


def clear_column(col: int, grid: list[str | None], discard: list[str]) -> list[str]:
    """Remove every card of a column to the discard; return the removed cards, top to bottom."""
    removed: list[str] = []
    for row in range(1, SIZE + 1):
        i = cell_index(row, col)
        card = grid[i]
        if card is not None:
            removed.append(card)
            discard.append(card)
            grid[i] = None
    return removed


def refill(grid: list[str | None], decks: dict[str, list[str]]) -> list[Record]:
    """Fill every empty cell from its row's deck; equipment and contract gaps take creatures once
    their own deck is empty. A cell stays empty only when no deck can fill it."""
    placed = []
    for i, card in enumerate(grid):
        if card is not None:
            continue
        row, col = cell_of(i)
        source = ROW_DECK[row]
        if not decks[source]:
            source = "creature"
        if not decks[source]:
            continue
        grid[i] = decks[source].pop()
        placed.append({"row": row, "col": col, "card": grid[i], "deck": source})
    return placed
