"""Per-game knowledge for the search, where the engine contract alone gives too little signal.

The hooks, all reading only the state they are given (in the search, a determinization):

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

import math
import random

from ai import fox_duet, noctiluca, tm_dice, vivarium
from engine import Action, Outcome, State

# Rollout length per game, as a share of the level's (the default is the level's own).
ROLLOUT_SHARE = {"fox-duet": 0.3, "noctiluca": 0.5, "vivarium": 0.25}
# What one determinization costs, in engine steps of the budget: where it copies a large state
# (Noctiluca's 84 dice, TM dice's decks) it takes several moves' time, and near the end of a
# game, where rollouts are short, determinizing is most of a decision's work.
DETERMINIZE_STEPS = {"noctiluca": 6, "tm-dice": 4}
# Games whose unfinished positions are valued by each seat's margin over the best other score,
# squeezed by a logistic of this scale (points), rather than by who leads: after a short rollout
# "who leads" flips on a point and says little, while the margin is what the moves changed.
MARGIN_SCALE = {"vivarium": 4.0, "tm-dice": 4.0}
# Games whose search tree is only this deep (the computer's own choice at the root), the rollout
# policy playing every later move. Fox Duet: in a tree shared by all determinizations the
# partner's moves are chosen by UCB across every hand the partner was dealt in them, as if it
# played one move whatever its hand (strategy fusion), while the policy plays each determinized
# hand for itself. On the same 30 seeds at level 2, two normal computers won 29 games this way, 23
# with the full tree and 23 with a tree of the computer's own moves only (the partner's played by
# the policy); with the full tree a larger budget played no better (docs/AI.md).
TREE_DEPTH = {"fox-duet": 1}
# Rollout moves of TM dice taken at random instead of by the goal-seeking player.
TM_EXPLORE = 0.15


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


def evaluate(state: State) -> list[float] | None:
    """Each seat's reward for an unfinished position; None if the game says nothing."""
    game = state.game.id
    if game == "fox-duet":
        public = state.view(None)["public"]
        collected = public["gems_collected"]
        on_board = public["gems_on_board"]
        progress = collected / (collected + on_board) if collected + on_board else 1.0
        total = public["forest_tokens_total"] or 1
        forest = public["forest_tokens_left"] / total
        value = 0.45 * progress + 0.15 * forest
        return [value, value]
    if game == "noctiluca":
        values = noctiluca.scores(noctiluca.own(state))
        if values is None:
            return None
        players = len(values)
        if players == 1:
            return outcome_rewards(values, [0] if values[0] >= 1 else [], 1)
        best = max(values)
        return outcome_rewards(values, [s for s in range(players) if values[s] == best], players)
    standing: Outcome | None = state.standing()
    if standing is None:
        return None
    scores = list(map(float, standing.scores))
    scale = MARGIN_SCALE.get(game)
    if scale and len(scores) > 1:
        return [margin_reward(scores, seat, scale) for seat in range(len(scores))]
    return outcome_rewards(scores, list(standing.winners), len(scores))


def margin_reward(scores: list[float], seat: int, scale: float) -> float:
    """``seat``'s lead over the best other score (negative: behind), squeezed into (0, 1)."""
    margin = scores[seat] - max(s for other, s in enumerate(scores) if other != seat)
    return 1.0 / (1.0 + math.exp(-margin / scale))


def policy(state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """The rollout's move for ``seat``, one of ``actions`` (never giving up: the caller's list)."""
    game = state.game.id
    if game == "noctiluca":
        return noctiluca.policy(noctiluca.own(state), seat, actions, rng)
    if game == "fox-duet":
        return fox_duet.policy(fox_duet.own(state), seat, actions, rng)
    if game == "vivarium":
        return vivarium.policy(vivarium.own(state), seat, actions, rng)
    if game == "tm-dice" and rng.random() >= TM_EXPLORE:
        text = tm_dice.choose(state, seat, [a.text for a in actions], rng)
        return next(a for a in actions if a.text == text)
    return rng.choice(actions)


def candidates(state: State, seat: int, actions: list[Action]) -> list[Action]:
    """The moves the search considers for ``seat`` (move ordering): a subset of ``actions``,
    best first, never empty. Every move by default; Noctiluca keeps the dives that store most
    (ai/noctiluca.py)."""
    if state.game.id == "noctiluca":
        return noctiluca.candidates(noctiluca.own(state), seat, actions) or actions
    return actions


def default_move(state: State, seat: int, actions: list[Action], seed: int) -> Action | None:
    """The move the search plays unless it is confident another is better (ismcts.confident),
    where a game's own player is strong and its long games leave the search's estimates noisy:
    in Terraforming Mars: The Dice Game, the goal-seeking player's move, read from a
    determinization (drawn from ``seed``) like everything else the search reads. None elsewhere:
    the search's most visited move is played."""
    if state.game.id != "tm-dice":
        return None
    world = state.determinize(seat, seed)
    text = tm_dice.choose(world, seat, [a.text for a in actions], random.Random(seed))
    return next(a for a in actions if a.text == text)


def determinize_steps(state: State) -> int:
    return DETERMINIZE_STEPS.get(state.game.id, 1)


def tree_depth(state: State) -> int | None:
    """How many moves deep the search's tree goes (None: as deep as it grows)."""
    return TREE_DEPTH.get(state.game.id)


def rollout_steps(state: State, steps: int) -> int:
    return max(4, round(steps * ROLLOUT_SHARE.get(state.game.id, 1.0)))
