"""Dice, the pool and paying costs.

A player's dice are kept as counts by face (``{"heat": 2, "plant": 1}``): two dice of one
colour showing the same face are the same resource, so no choice ever depends on which of them
is used. The pool counts dice by colour. Wild tokens pay for any one resource.
"""

from __future__ import annotations

from collections import Counter

from engine.rng import Rng
from engine.tm_dice.content import ALL_FACES, COLOURS, FACE_COLOUR, FACES, die_face


def dice_count(player: dict) -> int:
    return sum(player["dice"].values())


def held_faces(player: dict) -> list[str]:
    """Faces the player holds at least one die of, in the content's order."""
    return [f for f in ALL_FACES if player["dice"].get(f, 0) > 0]


def held_colours(player: dict) -> set[str]:
    return {FACE_COLOUR[f] for f in held_faces(player)}


def add_die(player: dict, face: str) -> None:
    player["dice"][face] = player["dice"].get(face, 0) + 1


def remove_die(player: dict, face: str) -> None:
    left = player["dice"][face] - 1
    if left:
        player["dice"][face] = left
    else:
        del player["dice"][face]


def take_from_pool(pool: dict, colour: str) -> bool:
    if pool[colour] <= 0:
        return False
    pool[colour] -= 1
    return True


def return_die(pool: dict, player: dict, face: str) -> None:
    remove_die(player, face)
    pool[FACE_COLOUR[face]] += 1


def roll(rng: Rng, colour: str) -> str:
    return die_face(colour, rng.below(6))


def available_colours(pool: dict) -> list[str]:
    return [c for c in COLOURS if pool[c] > 0]


def faces_of(colour: str) -> tuple[str, str, str]:
    return FACES[colour]


# -- paying ---------------------------------------------------------------------------------
def shortfall(player: dict, cost: dict[str, int]) -> int:
    """Wild tokens needed on top of the player's dice to pay ``cost``."""
    return sum(max(0, n - player["dice"].get(face, 0)) for face, n in cost.items())


def can_pay(player: dict, cost: list[str] | tuple[str, ...] | dict[str, int]) -> bool:
    need = dict(Counter(cost)) if not isinstance(cost, dict) else cost
    return shortfall(player, need) <= player["wild"]


def wild_range(player: dict, cost: dict[str, int], face: str) -> tuple[int, int]:
    """Fewest and most wild tokens that may pay for ``face`` while the rest stays payable."""
    n = cost[face]
    have = player["dice"].get(face, 0)
    least = max(0, n - have)
    others = shortfall(player, {f: k for f, k in cost.items() if f != face})
    most = min(n, player["wild"] - others)
    return least, most


def pay_face(pool: dict, player: dict, cost: dict[str, int], face: str, wild: int) -> None:
    """Pay all of ``face`` in ``cost``: ``wild`` tokens, the rest with dice back to the pool."""
    n = cost.pop(face)
    player["wild"] -= wild
    for _ in range(n - wild):
        return_die(pool, player, face)


def pay_forced(pool: dict, player: dict, cost: dict[str, int]) -> tuple[str, int, int] | None:
    """Pay every face of ``cost`` that leaves no choice; return the first real choice, if any.

    The choice is ``(face, least, most)``: how many wild tokens pay for that face.
    """
    forced = True
    while forced:
        forced = False
        for face in [f for f in ALL_FACES if f in cost]:
            least, most = wild_range(player, cost, face)
            if least == most:
                pay_face(pool, player, cost, face, least)
                forced = True
    for face in [f for f in ALL_FACES if f in cost]:
        least, most = wild_range(player, cost, face)
        return face, least, most
    return None
