"""Simulated Terraforming Mars: The Dice Game games with the goal-seeking test policy
(tests/support/tm_dice_policy.py): every game ends by the rules, in a sensible number of turns
and steps. Measured with bench/simulate_tm_dice.py over 200 seeds per player count: turns per
player 21-54 (2 players), 16-38 (3), 12-31 (4), solo always 50 or fewer; at most 558 engine steps
in a game (mean 224 / 290 / 309 / 320 for 1 / 2 / 3 / 4 players)."""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine.tm_dice import TMDice
from engine.tm_dice.content import PARAMETERS, RULES
from engine.tm_dice.effects import completed
from tests.support.tm_dice_policy import choose

SEEDS = range(4)
MAX_STEPS = 800


@cache
def played(players: int, seed: int):
    """The seeded game played to its end by the policy: (final state, steps taken)."""
    state = TMDice().new(players, seed)
    rng = random.Random(seed)
    steps = 0
    while state.outcome() is None and steps < MAX_STEPS:
        seat = state.to_move()[0]
        offered = [str(a) for a in state.legal_actions(seat)]
        action = choose(state, seat, offered, rng)
        assert action in offered
        state.apply(seat, action)
        steps += 1
    return state, steps


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_game_ends_within_bounded_steps(players):
    """Every game reaches its end (an outcome) and takes at most 800 steps (measured max 558)."""
    for seed in SEEDS:
        state, steps = played(players, seed)
        assert state.outcome() is not None, f"seed {seed}: no end after {steps} steps"
        assert steps <= MAX_STEPS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_end_one_round_after_the_second_parameter(players):
    """The end: when the second parameter is completed, every seat plays one more turn, then the
    game ends (``end_at`` is the last turn); the winners have the highest score."""
    for seed in SEEDS:
        state, _ = played(players, seed)
        assert len(completed(state)) >= 2
        assert state.turn == state.end_at
        outcome = state.outcome()
        assert outcome.winners and all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)


def test_two_player_game_length():
    """A 2-player game lasts a sensible number of turns: 15 to 80 per player (measured 21-54)."""
    for seed in SEEDS:
        state, _ = played(2, seed)
        assert 15 <= state.turn / 2 <= 80


def test_solo_ends_by_turn_fifty_and_wins_only_with_all_parameters():
    """Solo: 50 turns at most (one more turn once all 3 parameters are complete); a win and a
    score above 0 only with all 3 parameters complete."""
    for seed in SEEDS:
        state, _ = played(1, seed)
        assert state.turn <= RULES["solo"]["turns"]
        outcome = state.outcome()
        done = len(completed(state)) == len(PARAMETERS)
        assert bool(outcome.winners) == done
        assert (outcome.scores[0] > 0) == done
