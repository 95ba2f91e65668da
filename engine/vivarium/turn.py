"""A player's turn: the compulsory swap, gems spent on token numbers, the card (or 2 gems), and
the instant abilities of equipment cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Action, Event, event
from engine.vivarium import grid as g
from engine.vivarium.content import CARDS, CHAIN, PRIORITY, card_view, chain_view
from engine.vivarium.scoring import count, matches

if TYPE_CHECKING:
    from engine.vivarium.state import VivariumState

GEMS_INSTEAD = 2


# -- what may be done ---------------------------------------------------------------------------
def swap_actions(state: VivariumState, seat: int) -> list[Action]:
    """Give one of your tokens for one in the middle. Tokens showing the same numbers are the
    same in play (their dots only sort them out at set-up), so each different swap is offered
    once, with the first of such tokens."""
    actions, seen = [], set()
    for mine in state.tokens[seat]:
        for mid in state.middle:
            key = (tuple(sorted(CHAIN[mine].numbers)), tuple(sorted(CHAIN[mid].numbers)))
            if key not in seen:
                seen.add(key)
                actions.append(Action(f"swap give={mine} take={mid}"))
    return actions


def adjust_actions(state: VivariumState, seat: int) -> list[Action]:
    """One gem raises or lowers one number of one of your tokens by 1, within 1 to 4.

    Two tokens showing the same numbers give the same choices with the same result (the change
    lasts this turn only), so only the first of them is offered.
    """
    if state.gems[seat] < 1:
        return []
    actions = []
    shown: list[list[int]] = []
    for tok in state.tokens[seat]:
        numbers = sorted(state.numbers[tok])
        if numbers in shown:
            continue
        shown.append(numbers)
        for value in sorted(set(state.numbers[tok])):
            if value > 1:
                actions.append(Action(f"adjust {tok} from={value} to={value - 1}"))
            if value < 4:
                actions.append(Action(f"adjust {tok} from={value} to={value + 1}"))
    return actions


def take_cells(state: VivariumState, seat: int) -> list[tuple[int, int]]:
    return g.reachable([state.numbers[t] for t in state.tokens[seat]], state.grid)


def take_actions(state: VivariumState, seat: int) -> list[Action]:
    cells = [Action(f"take row={r} col={c}") for r, c in take_cells(state, seat)]
    return adjust_actions(state, seat) + cells + [Action("gems")]


def pending_actions(state: VivariumState, seat: int) -> list[Action]:
    kind = state.pending["ability"]
    if kind == "clear-column":
        cols = [c for c in range(1, 5) if g.column_cells(c, state.grid)]
        return [Action(f"clear col={c}") for c in cols] + [Action("skip")]
    if kind == "swap-again":
        return swap_actions(state, seat) + [Action("skip")]
    return [Action(f"take row={r} col={c}") for r, c in state.pending["cells"]] + [Action("skip")]


# -- doing it -----------------------------------------------------------------------------------
def swap(state: VivariumState, seat: int, mine: str, theirs: str) -> list[Event]:
    state.tokens[seat] = sorted([t for t in state.tokens[seat] if t != mine] + [theirs])
    state.middle = sorted([t for t in state.middle if t != theirs] + [mine])
    return [event("swap", None, seat=seat, gave=chain_view(mine), took=chain_view(theirs))]


def start_take(state: VivariumState, seat: int) -> None:
    state.phase = "take"
    state.numbers = {t: list(CHAIN[t].numbers) for t in state.tokens[seat]}


def adjust(state: VivariumState, seat: int, tok: str, old: int, new: int) -> list[Event]:
    numbers = state.numbers[tok]
    numbers[numbers.index(old)] = new
    state.gems[seat] -= 1
    return [
        event(
            "gem spent",
            None,
            seat=seat,
            token=chain_view(tok),
            before=old,
            after=new,
            numbers=list(numbers),
            gems=state.gems[seat],
        )
    ]


def take_gems(state: VivariumState, seat: int) -> list[Event]:
    state.gems[seat] += GEMS_INSTEAD
    state.numbers = {}
    return [event("gems taken", None, seat=seat, count=GEMS_INSTEAD, gems=state.gems[seat])]


def take_card(state: VivariumState, seat: int, row: int, col: int, bonus: bool = False) -> list[Event]:
    """Take the card at (row, col): its gems, the priority gem, then its instant ability.

    Leaves ``state.phase`` on an ability step when the card asks for a choice, else ``"done"``.
    """
    state.numbers = {}
    index = g.cell_index(row, col)
    card_id = state.grid[index]
    assert card_id is not None, "the move was checked: the cell holds a card"
    state.grid[index] = None
    state.collections[seat].append(card_id)
    card = CARDS[card_id]
    gained = card.gems if card.kind == "equipment" else 0
    icon = PRIORITY[state.priority_current].icon
    priority_gem = 1 if icon is not None and matches(card_id, icon) else 0
    state.gems[seat] += gained + priority_gem
    events = [
        event(
            "card taken",
            None,
            seat=seat,
            row=row,
            col=col,
            card=card_view(card_id),
            gems=gained,
            priority_gem=priority_gem,
            total_gems=state.gems[seat],
            bonus=bonus,
        )
    ]
    state.phase, state.pending = "done", {}
    ability = card.ability.get("kind") if card.kind == "equipment" else None
    if ability == "gems-per":
        extra = count(state.collections[seat], card.ability["filter"]) * card.ability["points"]
        state.gems[seat] += extra
        events.append(event("ability", None, seat=seat, card=card_view(card_id), ability=ability, gems=extra))
    elif ability == "clear-column":
        if any(g.column_cells(c, state.grid) for c in range(1, 5)):
            state.phase, state.pending = "ability", {"ability": ability, "card": card_id}
    elif ability == "swap-again":
        state.phase, state.pending = "ability", {"ability": ability, "card": card_id}
    elif ability in ("extra-row", "extra-column", "take-small"):
        if ability == "extra-row":
            cells = g.row_cells(row, state.grid)
        elif ability == "extra-column":
            cells = g.column_cells(col, state.grid)
        else:
            cells = [
                g.cell_of(i)
                for i, c in enumerate(state.grid)
                if c is not None and CARDS[c].kind == "creature" and CARDS[c].points == 1
            ]
        if cells:
            state.phase = "ability"
            state.pending = {"ability": ability, "card": card_id, "cells": [list(c) for c in cells]}
        else:
            events.append(event("ability", None, seat=seat, card=card_view(card_id), ability=ability, unused=True))
    return events


def resolve_pending(state: VivariumState, seat: int, action: Action) -> list[Event]:
    """Answer an instant ability's question (a column to clear, a second swap, a card to take)."""
    pending = state.pending
    card = card_view(pending["card"])
    kind = pending["ability"]
    if action.verb == "skip":
        state.phase, state.pending = "done", {}
        return [event("ability", None, seat=seat, card=card, ability=kind, skipped=True)]
    if kind == "clear-column":
        col = int(action.args[0].split("=")[1])
        removed = g.clear_column(col, state.grid, state.discard)
        state.phase, state.pending = "done", {}
        return [
            event(
                "column cleared",
                None,
                seat=seat,
                col=col,
                cards=[card_view(c) for c in removed],
                cause="ability",
                card=card,
            )
        ]
    if kind == "swap-again":
        mine, theirs = (a.split("=")[1] for a in action.args)
        state.phase, state.pending = "done", {}
        return [event("ability", None, seat=seat, card=card, ability=kind)] + swap(state, seat, mine, theirs)
    row, col = (int(a.split("=")[1]) for a in action.args)
    return take_card(state, seat, row, col, bonus=True)
