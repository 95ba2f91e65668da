"""Setting up a game of Vivarium exactly as the rulebook lists the steps."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, event
from engine.rng import Rng
from engine.vivarium.content import (
    BLANK_PRIORITY,
    CHAIN,
    CONTRACTS,
    CREATURES,
    PRIORITY,
    STARTING,
    equipment_deck,
    priority_view,
)
from engine.vivarium.grid import ROW_DECK, cell_index

if TYPE_CHECKING:
    from engine.vivarium.state import VivariumState

STARTING_GEMS = 1
PRIORITY_REMOVED = 2


def chain_tokens_for(players: int) -> list[str]:
    """4 players use every chain token; 3 remove the two four-dot ones; 2 also the three-dot one."""
    removed = {4: set(), 3: {4}, 2: {3, 4}}[players]
    return [t for t in sorted(CHAIN) if CHAIN[t].dots not in removed]


def setup(state: VivariumState, seed: int) -> None:
    """Steps 2-8 of the setup; the events go to ``state.setup_events``."""
    rng = state.rng = Rng(seed)
    n = state.players
    events: list[Event] = []
    # 2-3. Shuffle the three decks; fill the grid: rows 1-2 creatures, row 3 equipment, row 4 contracts.
    equipment = equipment_deck(state.rules_version)
    decks = {"creature": list(CREATURES), "equipment": list(equipment), "contract": list(CONTRACTS)}
    for deck in decks.values():
        rng.shuffle(deck)
    state.decks = decks
    state.grid = [None] * 16
    for row in range(1, 5):
        for col in range(1, 5):
            state.grid[cell_index(row, col)] = decks[ROW_DECK[row]].pop()
    # 4. The blank priority token aside; shuffle the other 8, 2 back to the box, 6 stacked face down.
    others = [p for p in sorted(PRIORITY) if p != BLANK_PRIORITY]
    rng.shuffle(others)
    state.priority_removed = sorted(others[:PRIORITY_REMOVED])
    state.priority_stack = others[PRIORITY_REMOVED:]
    state.priority_current = BLANK_PRIORITY
    state.priority_next = state.priority_stack.pop()
    # 5. One random habitat and one random type starting contract each, face down.
    habitat = [s for s in sorted(STARTING) if STARTING[s]["deck"] == "habitat"]
    kind = [s for s in sorted(STARTING) if STARTING[s]["deck"] == "type"]
    rng.shuffle(habitat)
    rng.shuffle(kind)
    state.starting = [[habitat[i], kind[i]] for i in range(n)]
    # 6. Chain tokens by player count; 2 each at random, the rest in the middle (2p: one face down).
    tokens = chain_tokens_for(n)
    rng.shuffle(tokens)
    state.tokens = [sorted(tokens[2 * i : 2 * i + 2]) for i in range(n)]
    rest = tokens[2 * n :]
    if n == 2:
        state.facedown = rest[rng.below(2)]
        state.middle = [t for t in rest if t != state.facedown]
    else:
        state.facedown = None
        state.middle = sorted(rest)
    # 7-8. One gem each; a random first player.
    state.gems = [STARTING_GEMS] * n
    state.first = rng.below(n)
    state.collections = [[] for _ in range(n)]
    state.priority_won = [[] for _ in range(n)]
    state.discard = []
    state.round, state.turn = 1, 0
    state.phase, state.pending, state.numbers = "swap", {}, {}
    state.result = None
    events.append(event("first player", None, seat=state.first))
    events.append(
        event(
            "setup",
            None,
            grid=[state.grid[i] for i in range(16)],
            tokens=[list(t) for t in state.tokens],
            middle=list(state.middle),
            facedown=state.facedown,
            priority_current=priority_view(state.priority_current),
            priority_next=priority_view(state.priority_next),
        )
    )
    for seat in range(n):
        events.append(event("starting contracts", [seat], seat=seat, contracts=list(state.starting[seat])))
    state.setup_events = events
