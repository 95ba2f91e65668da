"""Dice, the pool and paying costs.

A player's dice are kept as counts by face (``{"heat": 2, "plant": 1}``): two dice of one
colour showing the same face are the same resource, so no choice ever depends on which of them
is used. The pool counts dice by colour. Wild tokens pay for any one resource.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import product

from engine.rng import Rng
from engine.tm_dice.content import ALL_FACES, COLOURS, FACE_COLOUR, FACES, die_face
from engine.tm_dice.records import Player


def dice_count(player: Player) -> int:
    return sum(player["dice"].values())


def held_faces(player: Player) -> list[str]:
    """Faces the player holds at least one die of, in the content's order."""
    return [f for f in ALL_FACES if player["dice"].get(f, 0) > 0]


def held_colours(player: Player) -> set[str]:
    return {FACE_COLOUR[f] for f in held_faces(player)}


def add_die(player: Player, face: str) -> None:
    player["dice"][face] = player["dice"].get(face, 0) + 1


def remove_die(player: Player, face: str) -> None:
    left = player["dice"][face] - 1
    if left:
        player["dice"][face] = left
    else:
        del player["dice"][face]


def take_from_pool(pool: dict[str, int], colour: str) -> bool:
    if pool[colour] <= 0:
        return False
    pool[colour] -= 1
    return True


def return_die(pool: dict[str, int], player: Player, face: str) -> None:
    remove_die(player, face)
    pool[FACE_COLOUR[face]] += 1


def roll(rng: Rng, colour: str) -> str:
    return die_face(colour, rng.below(6))


def available_colours(pool: dict[str, int]) -> list[str]:
    return [c for c in COLOURS if pool[c] > 0]


def faces_of(colour: str) -> tuple[str, str, str]:
    return FACES[colour]


# -- paying ---------------------------------------------------------------------------------
def shortfall(player: Player, cost: dict[str, int]) -> int:
    """Wild tokens needed on top of the player's dice to pay ``cost``."""
    return sum(max(0, n - player["dice"].get(face, 0)) for face, n in cost.items())


@cache
def _cost_counts(cost: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """A cost given as a list of faces, counted once (costs come from a fixed content list)."""
    return tuple(Counter(cost).items())


def can_pay(player: Player, cost: list[str] | tuple[str, ...] | dict[str, int]) -> bool:
    # The legal-action lists ask this a hundred thousand times a game: count each cost once and
    # stop as soon as the wild tokens cannot cover what the dice miss (same answer as shortfall).
    need = cost.items() if isinstance(cost, dict) else _cost_counts(tuple(cost))
    have = player["dice"]
    wild = player["wild"]
    missing = 0
    for face, n in need:
        short = n - have.get(face, 0)
        if short > 0:
            missing += short
            if missing > wild:
                return False
    return True


def payment_plans(player: Player, cost: dict[str, int]) -> list[dict[str, int]]:
    """Every way to pay ``cost``: how many wild tokens pay each face, the player's dice the rest.

    A plan names every face of the cost (0 for "dice only"); plans come in the content's face
    order, fewest wild tokens first.
    """
    faces = [f for f in ALL_FACES if f in cost]
    ranges = [range(max(0, cost[f] - player["dice"].get(f, 0)), cost[f] + 1) for f in faces]
    plans = [dict(zip(faces, counts, strict=True)) for counts in product(*ranges) if sum(counts) <= player["wild"]]
    return sorted(plans, key=lambda plan: sum(plan.values()))


def plan_text(plan: dict[str, int]) -> str:
    """``wild=none`` or ``wild=heat:1,money:2``: the wild tokens of a plan, by face."""
    used = [f"{face}:{n}" for face, n in plan.items() if n]
    return "wild=" + (",".join(used) or "none")


def parse_plan(text: str, cost: dict[str, int]) -> dict[str, int]:
    """The plan of ``plan_text`` for ``cost`` (faces it does not name are paid with dice)."""
    plan = dict.fromkeys(cost, 0)
    body = text.removeprefix("wild=")
    if body != "none":
        for part in body.split(","):
            face, _, n = part.partition(":")
            plan[face] = int(n)
    return plan


def left_after(player: Player, plan: dict[str, int], cost: dict[str, int]) -> tuple[dict[str, int], int]:
    """The dice (by face) and wild tokens the player keeps after paying ``cost`` by ``plan``."""
    left = dict(player["dice"])
    for face, n in cost.items():
        left[face] = left.get(face, 0) - (n - plan[face])
    return {f: n for f, n in left.items() if n > 0}, player["wild"] - sum(plan.values())


def pay_plan(pool: dict[str, int], player: Player, cost: dict[str, int], plan: dict[str, int]) -> None:
    """Pay all of ``cost``: ``plan[face]`` wild tokens for each face, dice back to the pool for the rest."""
    for face, n in list(cost.items()):
        player["wild"] -= plan[face]
        for _ in range(n - plan[face]):
            return_die(pool, player, face)
        del cost[face]
