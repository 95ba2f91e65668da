"""Simulated Noctiluca games with a simple greedy diver: the content must give games of the
original's scale (jars delivered, scores, a solo mode that can be won)."""

from __future__ import annotations

import random
import statistics
from collections import Counter

from engine import GAMES
from engine.noctiluca import content, dive

G = GAMES["noctiluca"]


def storable(s, seat: int, shore: int, kind: str, number: int) -> int:
    free = Counter(
        c for j in s.jars[seat] for c, d in zip(content.JARS[j["id"]].slots, j["dice"], strict=True) if d is None
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


def simulate(players: int, seeds: int) -> dict:
    jars, spreads, lengths, wins = [], [], [], 0
    for seed in range(seeds):
        s = G.new(players, seed)
        rng = random.Random(seed)
        steps = 0
        while s.outcome() is None:
            seat = s.to_move()[0]
            s.apply(seat, greedy(s, seat, rng))
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
    }


def test_four_players_deliver_a_dozen_or_so_jars() -> None:
    """Design target (RULES-NOTES): about 8-12 jars per 4-player game with casual play; our greedy
    diver, who checks every shore, path and number, delivers a few more."""
    result = simulate(4, 12)
    assert 10 <= result["jars"] <= 18, result
    assert result["spread"] > 0


def test_the_solo_storm_can_be_beaten() -> None:
    """Solo: a final score of 1 or more wins; a careful player must manage it in some games."""
    result = simulate(1, 40)
    assert 0 < result["wins"] < 0.8, result
