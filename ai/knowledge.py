"""Per-game knowledge for the search, where the engine contract alone gives too little signal.

Each game declares one ``Knowledge`` object beside its other computer code (``KNOWLEDGE`` in
ai/<game>.py, found by the game's engine package name; a game registered from elsewhere, such as
a test's, brings its own: ``register``). The module-level functions below are what the search
calls; each asks the game's object. The hooks, all reading only the state they are given (in the
search, a determinization):

- ``policy``: the rollout's move. Noctiluca dives where its jars fill (ai/noctiluca.py), Vivarium
  takes the reachable card worth most (ai/vivarium.py), Fox Duet plays each trick for where it
  sends the tracker (ai/fox_duet.py) and Terraforming Mars: The Dice Game plays the goal-seeking
  player (ai/tm_dice.py), each with a share of random moves so rollouts stay varied.
- ``evaluate``: each seat's reward for a position a rollout stopped in. The default is the
  engine's ``standing``. Noctiluca adds the expected worth of half-filled jars. Fox Duet is
  co-operative and cannot be scored half played (``standing`` is None): its evaluation reads the
  public view, the share of the gems collected and the forest tokens still left (each one a
  later chance), and its rollouts are kept short.
- ``candidates``: the moves the search weighs at a node, best first (move ordering). Noctiluca
  keeps the dives that store most; the other games every legal move.
- ``tree_depth``: how deep the search's tree grows. Fox Duet's holds only the computer's own
  choice (flat Monte Carlo over determinizations): its partner is then played by the policy on
  each determinized hand.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import random

import engine
from engine import Action, Outcome, State


def outcome_rewards(scores: list[float], winners: list[int], players: int) -> list[float]:
    """Each seat's result in [0, 1]: winning counts most, the score's place in the field breaks
    ties between outcomes (a close loss beats a rout). Co-operative games: the team's result.
    Solo, the place is the score itself, squeezed into [0, 1] (a near miss beats a rout)."""
    low, high = min(scores), max(scores)
    spread = high - low
    out = []
    for seat in range(players):
        won = 1.0 / len(winners) if seat in winners and len(winners) < players else 0.0
        if winners and len(winners) == players:
            won = 1.0  # a co-operative win, or everyone tied
        if players == 1:
            place = min(1.0, max(0.0, (scores[seat] + 20) / 60))
        else:
            place = (scores[seat] - low) / spread if spread else 0.5
        out.append(0.75 * won + 0.25 * place)
    return out


def margin_reward(scores: list[float], seat: int, scale: float) -> float:
    """``seat``'s lead over the best other score (negative: behind), squeezed into (0, 1)."""
    margin = scores[seat] - max(s for other, s in enumerate(scores) if other != seat)
    return 1.0 / (1.0 + math.exp(-margin / scale))


class Knowledge:
    """What the search knows of one game beyond the contract; the defaults know nothing more."""

    game_id: str = ""
    # Rollout length, as a share of the level's.
    rollout_share: float = 1.0
    # What one determinization costs, in engine steps of the budget: where it copies a large
    # state it takes several moves' time.
    determinize_cost: int = 1
    # Unfinished positions valued by each seat's margin over the best other score, squeezed by a
    # logistic of this scale (points), rather than by who leads (None: by who leads).
    margin_scale: float | None = None
    # How deep the search's tree grows (None: as deep as it grows).
    depth: int | None = None
    # A whole turn's search, in its level's budgets, where a turn holds many searched decisions
    # (None: each decision searches a whole budget; ai/turn_budgets.py).
    turn_budgets: float | None = None

    def evaluate(self, state: State) -> list[float] | None:
        """Each seat's reward for an unfinished position; None if the game says nothing. By
        default the engine's ``standing``."""
        standing: Outcome | None = state.standing()
        if standing is None:
            return None
        scores = list(map(float, standing.scores))
        if self.margin_scale and len(scores) > 1:
            return [margin_reward(scores, seat, self.margin_scale) for seat in range(len(scores))]
        return outcome_rewards(scores, list(standing.winners), len(scores))

    def policy(self, state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
        """The rollout's move, one of ``actions``: at random by default."""
        return rng.choice(actions)

    def candidates(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        """The moves the search weighs, best first: every one by default."""
        return actions

    def default_move(self, state: State, seat: int, actions: list[Action], seed: int) -> Action | None:
        """The move played unless the search is confident another is better (None: its own)."""
        return None


KNOWLEDGE: dict[str, Knowledge] = {}
_NOTHING_MORE = Knowledge()


def register(knowledge: Knowledge) -> Knowledge:
    KNOWLEDGE[knowledge.game_id] = knowledge
    return knowledge


def unregister(game_id: str) -> None:
    KNOWLEDGE.pop(game_id, None)


def knowledge_of(game_id: str) -> Knowledge:
    """The game's knowledge: registered, else ``KNOWLEDGE`` of ai/<its engine package>.py, else
    the contract's alone (``Knowledge()``)."""
    found = KNOWLEDGE.get(game_id)
    if found is None:
        package = engine.shipped().get(game_id)
        module = f"{__package__}.{package}"
        if package is None or importlib.util.find_spec(module) is None:
            return _NOTHING_MORE  # a game without knowledge of its own: the contract alone
        found = register(importlib.import_module(module).KNOWLEDGE)
    return found


def evaluate(state: State) -> list[float] | None:
    """Each seat's reward for an unfinished position; None if the game says nothing."""
    return knowledge_of(state.game.id).evaluate(state)


def policy(state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """The rollout's move for ``seat``, one of ``actions`` (never giving up: the caller's list)."""
    return knowledge_of(state.game.id).policy(state, seat, actions, rng)


def candidates(state: State, seat: int, actions: list[Action]) -> list[Action]:
    """The moves the search considers for ``seat`` (move ordering): a subset of ``actions``,
    best first, never empty."""
    return knowledge_of(state.game.id).candidates(state, seat, actions) or actions


def default_move(state: State, seat: int, actions: list[Action], seed: int) -> Action | None:
    """The move the search plays unless it is confident another is better (ismcts.confident);
    None: the search's most visited move is played."""
    return knowledge_of(state.game.id).default_move(state, seat, actions, seed)


def determinize_steps(state: State) -> int:
    return knowledge_of(state.game.id).determinize_cost


def tree_depth(state: State) -> int | None:
    """How many moves deep the search's tree goes (None: as deep as it grows)."""
    return knowledge_of(state.game.id).depth


def rollout_steps(state: State, steps: int) -> int:
    return max(4, round(steps * knowledge_of(state.game.id).rollout_share))
