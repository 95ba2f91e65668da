"""A deterministic, goal-seeking player for Terraforming Mars: The Dice Game (tests and bench).

``choose(state, seat, offered, rng)`` returns one of ``offered``, the action texts the seat is
offered now. It reads the state (its own hand and dice, the tracks, the full list of choices of
the current step) but never acts on anything else. The plan is simple and greedy:

- aim at the goal closest to payable (a terraforming general action, a worthwhile card in
  hand, a blue card's main action), and keep, roll, take and turn dice towards it;
- as the main action, take whatever is worth most: a terraforming general action, a card that
  terraforms or adds production, a city or VP, else a second support action;
- take a production turn when nothing worth doing is payable and production adds dice;
- always pay the proposed way (the first one), and walk the ``open``/``more`` menus to the
  choice it wants.

``rng`` is part of the shared policy signature; this player needs no randomness.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from ai.knowledge import Knowledge
from engine import Action, State
from engine.tm_dice import board, dice, effects, scoring
from engine.tm_dice.content import BONUS_CARDS, CARDS, CORPORATIONS, FACE_COLOUR, FACES, GENERAL_ACTIONS, HEXES

PARAM_OF = {"temperature": "temperature", "oxygen": "oxygen", "ocean": "oceans", "greenery": "oxygen"}
TERRAFORMING = {"raise-temperature": "temperature", "place-ocean": "oceans", "place-greenery": "oxygen"}
SUPPORT_VALUE = 0.6  # a second support action as the main action: about one more die


# What one decision computes again and again (the next goal, the faces' weights), kept for the
# length of one ``choose`` call only: the state does not change while this player decides.
_MEMO: dict[tuple[str, int], object] = {}


def choose(state, seat: int, offered: list[str], rng: random.Random) -> str:
    """The action this player takes now, one of ``offered``."""
    _MEMO.clear()
    try:
        return _choose(state, seat, offered)
    finally:
        _MEMO.clear()


def _choose(state, seat: int, offered: list[str]) -> str:
    if state.stage == "corp":
        return max(offered, key=lambda t: corporation_value(t.split(" ")[1]))
    task = state.queue[-1]
    full = state.choices(task)
    wanted = pick(state, seat, task, [t for _, t in full])
    category = dict((t, c) for c, t in full)[wanted]
    for text in (wanted, f"open {category}", "more"):
        if text in offered:
            return text
    return offered[0]


def pick(state, seat: int, task: dict, texts: list[str]) -> str:
    """The wanted choice among all of the step's ``texts`` (before menus split them)."""
    kind = task["kind"]
    if kind == "turn":
        return "production" if wants_production(state, seat) else best_support(state, seat, texts)
    if kind == "support":
        return best_support(state, seat, texts)
    if kind == "main":
        return max(texts, key=lambda t: main_value(state, seat, t))
    if kind == "keep" and "keep-all" in texts:
        return "keep-all"  # holding no more than the limit: every die is worth keeping
    if kind in ("keep", "pick-face"):
        return max(texts, key=lambda t: face_score(state, seat, t.split(" ")[-1]))
    if kind in ("gift", "lose", "drop"):
        # Least useful first; a die of the target's colour last (it may be the one to turn).
        colour = FACE_COLOUR[target_face(state, seat)]
        faces = {t: t.split(" ")[-1] for t in texts}
        return min(texts, key=lambda t: (face_score(state, seat, faces[t]), FACE_COLOUR.get(faces[t]) == colour))
    if kind == "discard":
        junk = [c for c in state.seats[seat]["hand"] if card_value(state, c) <= 0]
        if not junk:
            return "keep-hand"
        return "discard-cards" if "discard-cards" in texts else f"discard {junk[0]}"
    if kind == "pick-colour":
        return max(texts, key=lambda t: face_score(state, seat, FACES[t.split(" ")[1]][0]))
    if kind == "turn-die":
        turns = [t for t in texts if t != "leave-dice"]
        best = max(turns, key=lambda t: turn_gain(state, seat, task, t))
        return "leave-dice" if "leave-dice" in texts and turn_gain(state, seat, task, best) <= 0 else best
    if kind == "place":
        return max(texts, key=lambda t: hex_value(state, t.split(" ")[1], task["tile"]))
    if kind == "bonus":
        return max(texts, key=lambda t: bonus_value(state, t.split(" ")[1]))
    if kind == "finish":
        return "end"
    return texts[0]  # pay: the proposal; effects: any order


# -- what things are worth --------------------------------------------------------------------
def open_parameter(state, param: str) -> bool:
    return param not in effects.completed(state)


def effect_value(state, effect: str) -> float:
    return _effect_value(effect, tuple(effects.completed(state)), state.players > 1)


@lru_cache(maxsize=4096)
def _effect_value(effect: str, closed: tuple[str, ...], rivals: bool) -> float:
    """A rough worth of one icon, in VP-like units; terraforming weighs most while it counts.
    Cached: it depends only on the parameters completed and on whether anyone can be attacked
    (the computer players' rollouts ask it thousands of times a decision)."""
    kind, _, arg = effect.partition(":")
    if kind in PARAM_OF:
        return 1.0 if PARAM_OF[kind] in closed else 3.0
    if kind == "city":
        return 2.5
    if kind in ("vp", "wild"):
        return float(arg)
    if kind == "draw":
        return 0.3 * int(arg)
    if kind == "attack":
        return 0.2 if rivals else 0.0
    if kind == "special":
        return 1.0
    return 0.7  # a die gained, set or turned


def card_value(state, card_id: str) -> float:
    return _card_value(card_id, tuple(effects.completed(state)), state.players > 1)


@lru_cache(maxsize=4096)
def _card_value(card_id: str, closed: tuple[str, ...], rivals: bool) -> float:
    """What playing a card brings (effects, VP, production, a reusable action) less its cost."""
    card = CARDS[card_id]
    value = sum(_effect_value(e, closed, rivals) for e in card.effects) + card.vp + card.end_vp
    value += 2.0 * len(card.production)
    if card.action:
        value += 2 * sum(_effect_value(e, closed, rivals) for e in card.action["effects"]) - 0.5 * len(
            card.action["cost"]
        )
    return value + passive_value(card.passive) - 0.4 * len(card.cost)


def passive_value(passives) -> float:
    """``keep:N`` (N more dice kept) and ``on-green:N`` (N VP per green card) alike."""
    return sum(1.5 * int(p.split(":")[1]) for p in passives)


def bonus_value(state, bonus_id: str) -> float:
    bonus = BONUS_CARDS[bonus_id]
    return sum(effect_value(state, e) for e in bonus["effects"]) + bonus["end_vp"] + passive_value(bonus["passive"])


def corporation_value(corp_id: str) -> float:
    """Production dice count most (they come back every production turn), more so in the
    colours of the terraforming actions (red heat, blue water, green plants)."""
    corp = CORPORATIONS[corp_id]
    production = corp["production"]
    terraforming = sum(c in ("red", "blue", "green") for c in production)
    return 2 * len(production) + terraforming + len(set(production)) + 0.5 * len(corp["start"])


def missing(player: dict, cost: Counter) -> int:
    """Resources still lacking to pay ``cost``, wild tokens counted."""
    return max(0, dice.shortfall(player, dict(cost)) - player["wild"])


def goals(state, seat: int) -> list[tuple[Counter, float]]:
    """What this seat works towards, closest to payable first: open terraforming general
    actions, worthwhile cards in hand and unused main actions of its blue cards (cost, value)."""
    player = state.seats[seat]
    found = [
        (Counter(g["cost"]), main_value(state, seat, gid))
        for gid, g in GENERAL_ACTIONS.items()
        if gid in TERRAFORMING and open_parameter(state, TERRAFORMING[gid])
    ]
    found += [(Counter(CARDS[c].cost), card_value(state, c)) for c in player["hand"] if card_value(state, c) >= 2]
    found += [
        (Counter(action["cost"]), main_value(state, seat, f"use {c}"))
        for c in player["blue"]
        if (action := CARDS[c].action) and action["type"] == "main" and c not in player["used"]
    ]
    if not found:
        found = [(Counter(g["cost"]), main_value(state, seat, gid)) for gid, g in GENERAL_ACTIONS.items()]
    return sorted(found, key=lambda goal: (missing(player, goal[0]), -goal[1]))


def next_goal(state, seat: int) -> Counter:
    """The cost of the closest goal not yet payable (the one rolls and turns work towards)."""
    if ("goal", seat) not in _MEMO:
        _MEMO[("goal", seat)] = _next_goal(state, seat)
    return _MEMO[("goal", seat)]  # type: ignore[return-value]


def _next_goal(state, seat: int) -> Counter:
    ranked = [cost for cost, _ in goals(state, seat)]
    return next((cost for cost in ranked if missing(state.seats[seat], cost) > 0), ranked[0])


def target_face(state, seat: int) -> str:
    """The lacking face of the next goal most likely rolled (common before uncommon, rare)."""
    player = state.seats[seat]
    cost = next_goal(state, seat)
    lacking = [f for f in cost if player["dice"].get(f, 0) < cost[f]] or list(cost)
    return min(lacking, key=lambda f: FACES[FACE_COLOUR[f]].index(f))


def face_weights(state, seat: int) -> dict[str, float]:
    """How much each face is wanted: the next goal's faces most, then the terraforming faces,
    then the other general actions' and the worthwhile cards' faces."""
    if ("weights", seat) not in _MEMO:
        _MEMO[("weights", seat)] = _face_weights(state, seat)
    return _MEMO[("weights", seat)]  # type: ignore[return-value]


def _face_weights(state, seat: int) -> dict[str, float]:
    weights: dict[str, float] = {}
    for gid, g in GENERAL_ACTIONS.items():
        param = TERRAFORMING.get(gid)
        weights[g["cost"][0]] = 5.0 if param and open_parameter(state, param) else 2.0
    for card_id in state.seats[seat]["hand"]:
        if card_value(state, card_id) > 1:
            for face in CARDS[card_id].cost:
                weights[face] = weights.get(face, 0.0) + 1.0
    for face in next_goal(state, seat):
        weights[face] = weights.get(face, 0.0) + 10.0
    return weights


def face_score(state, seat: int, face: str) -> float:
    """A face's worth to this seat; dice of a face already held stack towards its action.

    A wild token is worth more than any die; a word that is no face (``return-rest``) nothing.
    """
    if face == "wild":
        return 30.0
    if face not in FACE_COLOUR:
        return -1.0
    weight = face_weights(state, seat).get(face, 0.0)
    return weight + (weight > 0) * state.seats[seat]["dice"].get(face, 0)


def main_value(state, seat: int, text: str) -> float:
    verb, _, arg = text.partition(" ")
    if verb in GENERAL_ACTIONS:
        g = GENERAL_ACTIONS[verb]
        return sum(effect_value(state, e) for e in g["effects"]) - 0.3 * len(g["cost"])
    if verb == "play":
        return card_value(state, arg)
    if verb == "use":
        action = CARDS[arg].action or {"effects": [], "cost": []}  # only blue cards with an action are offered
        return sum(effect_value(state, e) for e in action["effects"]) - 0.3 * len(action["cost"])
    return SUPPORT_VALUE if verb == "support" else 0.0


def best_main_now(state, seat: int) -> float:
    texts = [t for _, t in state.choices({"kind": "main", "seat": seat})]
    return max(main_value(state, seat, t) for t in texts)


def wants_production(state, seat: int) -> bool:
    """Produce when nothing worth doing is payable and production adds at least 2 dice."""
    if best_main_now(state, seat) >= 2 or turn_helps(state, seat):
        return False
    lost = max(0, dice.dice_count(state.seats[seat]) - effects.keep_limit(state, seat))
    return scoring.production_count(state, seat) - lost >= 2


def turn_helps(state, seat: int) -> bool:
    """Discarding one die and turning another would make the next goal payable."""
    player = state.seats[seat]
    cost = next_goal(state, seat)
    if missing(player, cost) != 1:
        return False
    face = target_face(state, seat)
    spare = Counter({f: n - cost[f] for f, n in player["dice"].items() if n > cost[f]})
    turnable = sum(n for f, n in spare.items() if FACE_COLOUR[f] == FACE_COLOUR[face])
    return turnable >= 1 and sum(spare.values()) >= 2


def best_support(state, seat: int, texts: list[str]) -> str:
    """Turn a die when that completes the target, else roll its colour (or the best other)."""
    if "discard-to-turn" in texts and turn_helps(state, seat):
        return "discard-to-turn"
    colour = FACE_COLOUR[target_face(state, seat)]
    if f"roll {colour}" in texts:
        return f"roll {colour}"
    rolls = [t for t in texts if t.startswith("roll ")]
    if rolls:
        return max(rolls, key=lambda t: face_score(state, seat, FACES[t.split(" ")[1]][0]))
    return "action" if "action" in texts else texts[0]


def turn_gain(state, seat: int, task: dict, text: str) -> float:
    """``turn f to g`` (or ``turn f`` / ``to g`` in two steps): the gain of g over f."""
    words = text.split(" ")
    old = task["face"] if words[0] == "to" else words[1]
    new = words[-1] if words[0] == "to" or len(words) == 4 else None
    if new is None:
        return max(face_score(state, seat, g) for g in FACES[FACE_COLOUR[old]]) - face_score(state, seat, old)
    return face_score(state, seat, new) - face_score(state, seat, old)


def hex_value(state, label: str, tile: str) -> float:
    """Adjacency VP and the printed bonus; ties go to the first hex in label order."""
    return board.placement_vp(state.tiles, label, tile) + len(HEXES[label]["bonus"])


# Rollout moves taken at random instead of by the goal-seeking player.
EXPLORE = 0.15


class TMDiceKnowledge(Knowledge):
    """The goal-seeking player plays the rollouts and is the default move (its long games leave
    the search's estimates noisy); positions valued by the margin; determinizing copies decks."""

    game_id = "tm-dice"
    determinize_cost = 4
    margin_scale = 4.0
    # A turn searches afresh after each roll: counted in engine steps, as the budget is, so a turn
    # stays the same for the same seed on any machine. Measured at four players, hard: a decision
    # is about 2 s of CPU, and turns of three or four such decisions kept a person waiting 7-8 s
    # for one computer.
    turn_budgets = 1.5

    def policy(self, state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
        if rng.random() >= EXPLORE:
            text = choose(state, seat, [a.text for a in actions], rng)
            return next(a for a in actions if a.text == text)
        return rng.choice(actions)

    def default_move(self, state: State, seat: int, actions: list[Action], seed: int) -> Action | None:
        """The goal-seeking player's move, read from a determinization (drawn from ``seed``) like
        everything else the search reads."""
        world = state.determinize(seat, seed)
        text = choose(world, seat, [a.text for a in actions], random.Random(seed))
        return next(a for a in actions if a.text == text)


KNOWLEDGE = TMDiceKnowledge()
