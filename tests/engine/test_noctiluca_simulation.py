"""Simulated Noctiluca games with a simple greedy diver: the content must give games of the
original's scale (jars delivered, scores, a solo mode that can be won)."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from engine import GAMES
from engine.noctiluca import content, dive

G = GAMES["noctiluca"]


def storable(s, seat: int, shore: int, kind: str, number: int) -> int:
    free = Counter(
        c for j in s.jars[seat] for c, d in zip(s.jar_cards[j["id"]].slots, j["dice"], strict=True) if d is None
    )
    taken = Counter(content.die_colour(d) for d in dive.dice_on_path(s, shore, kind, number))
    return sum(min(taken[c], free[c]) for c in taken)


def greedy(s, seat: int, rng: random.Random):
    """Dive where the most dice fit your jars; store whenever you can, in the jar nearest full."""
    actions = s.legal_actions(seat)
    if s.phase == "shore":
        scored = [
            (storable(s, seat, int(a.args[0]), k, n), rng.random(), a)
            for a in actions
            for k in ("short", "long")
            for n in range(1, 7)
        ]
        return max(scored)[2]
    if s.phase == "path":
        shore = s.pending["shore"]
        return max(
            (max(storable(s, seat, shore, a.args[0], n) for n in range(1, 7)), rng.random(), a) for a in actions
        )[2]
    if s.phase == "number":
        shore, kind = s.pending["shore"], s.pending["path"]
        return max((storable(s, seat, shore, kind, int(a.args[0])), rng.random(), a) for a in actions)[2]
    if s.phase in ("store", "pass"):
        stores = [a for a in actions if a.args[0] != "none"]
        if stores:
            return min(stores, key=lambda a: (s.jar(seat, a.args[1])["dice"].count(None), rng.random()))
    return rng.choice(actions)


def simulate(players: int, seeds: int, rules_version: int | None = None) -> dict:
    jars, spreads, lengths, wins, short = [], [], [], 0, 0
    for seed in range(seeds):
        s = G.new(players, seed, rules_version=rules_version)
        rng = random.Random(seed)
        steps = 0
        while s.outcome() is None:
            seat = s.to_move()[0]
            for e in s.apply(seat, greedy(s, seat, rng)):
                short += e["type"] == "board filled" and e["round"] == 2 and e["short"] > 0
            steps += 1
        outcome = s.outcome()
        jars.append(sum(len(d) for d in s.delivered))
        spreads.append(max(outcome.scores) - min(outcome.scores))
        lengths.append(steps)
        wins += bool(outcome.winners)
    return {
        "jars": statistics.mean(jars),
        "spread": statistics.mean(spreads),
        "steps": statistics.mean(lengths),
        "wins": wins / seeds,
        "short": short / seeds,
    }


@pytest.mark.parametrize("rules_version", G.rules_versions)
def test_four_players_deliver_about_fifteen_jars(rules_version: int) -> None:
    """Design target (reported of the published game): about 8-12 jars per 4-player game with casual play. Our greedy
    diver, who checks every shore, path and number, delivers more: about 15 with the version 1
    jars and 16 with version 2's (docs/rules/noctiluca.md, "Calibration": within 3 to 6 slots,
    fewer deliveries cost a round 2 short of dice or a solo mode that cannot be won)."""
    result = simulate(4, 12, rules_version)
    assert 13 <= result["jars"] <= 19, result
    assert result["spread"] > 0


def test_the_calibrated_jars_leave_round_2_short_of_dice_less_often() -> None:
    """Seed: the box lid is only rarely too short to refill the pool for round 2. Version 1's
    jars left it short in about a quarter of greedy 4-player games, version 2's in about 1 in 8."""
    old, new = simulate(4, 60, 1), simulate(4, 60, 2)
    assert new["short"] < old["short"], (old, new)
    assert new["short"] <= 0.2, new


@pytest.mark.parametrize("rules_version", G.rules_versions)
def test_the_solo_storm_can_be_beaten(rules_version: int) -> None:
    """Solo: a final score of 1 or more wins; a careful player must manage it in some games."""
    result = simulate(1, 40, rules_version)
    assert 0 < result["wins"] < 0.8, result
