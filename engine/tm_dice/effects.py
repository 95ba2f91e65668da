"""Card effects (the icons of the rules), terraforming and tiles, as small steps.

An effect is a short text (``gain:green``, ``ocean``, ``attack:blue``; the list is in
docs/rules/tm-dice.md). ``perform`` applies one at once, or pushes the task that asks the
player for the choice it needs. An effect that cannot be carried out is skipped with an event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine.core import Event, event
from engine.tm_dice import board, dice
from engine.tm_dice.content import (
    BONUS_CARDS,
    CARDS,
    FACE_COLOUR,
    GENERAL_ACTIONS,
    HEXES,
    PARAMETERS,
    RULES,
    TRACK_BONUS,
    TRACKS,
    card_view,
)
from engine.tm_dice.records import Task

if TYPE_CHECKING:
    from engine.tm_dice.state import TMDiceState

PARAM_OF_TILE = {"ocean": "oceans", "greenery": "oxygen"}


def push(s: TMDiceState, kind: str, seat: int, **data: object) -> None:
    s.queue.append({"kind": kind, "seat": seat, **data})


def pop_task(s: TMDiceState, task: Task) -> None:
    """Remove ``task``, which must be the step being asked (the top of the stack)."""
    if not s.queue or s.queue[-1] is not task:
        raise AssertionError("only the current step can be removed")
    s.queue.pop()


def push_effects(s: TMDiceState, seat: int, effects: Iterable[str], source: str) -> None:
    if effects:
        push(s, "effects", seat, effects=list(effects), source=source)


def push_payment(s: TMDiceState, seat: int, cost: Iterable[str]) -> None:
    counts: dict[str, int] = {}
    for face in cost:
        counts[face] = counts.get(face, 0) + 1
    if counts:
        push(s, "pay", seat, cost=counts)


# -- gaining dice, cards and tokens ---------------------------------------------------------
def gain_rolled(s: TMDiceState, seat: int, colour: str, why: str) -> list[Event]:
    if not dice.take_from_pool(s.pool, colour):
        return [event("skipped", None, seat=seat, effect=f"gain:{colour}", reason="pool-empty")]
    face = dice.roll(s.rng, colour)
    dice.add_die(s.seats[seat], face)
    return [event("die rolled", None, seat=seat, colour=colour, face=face, reason=why)]


def gain_set(s: TMDiceState, seat: int, face: str, why: str) -> list[Event]:
    colour = FACE_COLOUR[face]
    if not dice.take_from_pool(s.pool, colour):
        return [event("skipped", None, seat=seat, effect=f"face:{face}", reason="pool-empty")]
    dice.add_die(s.seats[seat], face)
    return [event("die taken", None, seat=seat, colour=colour, face=face, reason=why)]


def gain_wild(s: TMDiceState, seat: int, n: int) -> list[Event]:
    n = min(n, s.wild_supply)
    if n <= 0:
        return [event("skipped", None, seat=seat, effect="wild", reason="no-tokens")]
    s.wild_supply -= n
    s.seats[seat]["wild"] += n
    return [event("wild gained", None, seat=seat, count=n)]


def draw(s: TMDiceState, seat: int, n: int) -> list[Event]:
    """Draw ``n`` cards; an empty deck is refilled by shuffling the discard pile."""
    drawn: list[str] = []
    events: list[Event] = []
    for _ in range(n):
        if not s.deck and s.discard:
            s.deck = list(s.discard)
            s.reshuffled = sorted(s.discard)
            s.discard = []
            s.rng.shuffle(s.deck)
            events.append(event("deck reshuffled", None, size=len(s.deck)))
        if not s.deck:
            break
        drawn.append(s.deck.pop())
    s.seats[seat]["hand"].extend(drawn)
    events.append(event("cards drawn", None, seat=seat, count=len(drawn)))
    if drawn:
        events.append(event("cards drawn", [seat], seat=seat, cards=[card_view(c) for c in drawn]))
    return events


def add_vp(s: TMDiceState, seat: int, n: int, why: str) -> list[Event]:
    if n <= 0:
        return []
    s.seats[seat]["vp"] += n
    return [event("vp", None, seat=seat, vp=n, reason=why, total=s.seats[seat]["vp"])]


# -- terraforming ---------------------------------------------------------------------------
def completed(s: TMDiceState) -> list[str]:
    return [p for p in PARAMETERS if getattr(s, p) >= TRACKS[p]["steps"]]


def raise_parameter(s: TMDiceState, seat: int, param: str) -> list[Event]:
    """One terraforming step: 2 VP, or 1 VP once the parameter is complete; bonus spaces pay."""
    if getattr(s, param) >= TRACKS[param]["steps"]:
        return [event("parameter maxed", None, seat=seat, parameter=param)] + add_vp(s, seat, 1, "terraform-maxed")
    before = len(completed(s))
    position = getattr(s, param) + 1
    setattr(s, param, position)
    events = [event("parameter raised", None, seat=seat, parameter=param, position=position)]
    events += add_vp(s, seat, 2, "terraform")
    bonus = TRACK_BONUS[param].get(position)
    if bonus:
        events.append(event("track bonus", None, seat=seat, parameter=param, position=position, effects=list(bonus)))
        push_effects(s, seat, bonus, f"track:{param}")
    done = len(completed(s))
    if done > before:
        events.append(event("parameter completed", None, seat=seat, parameter=param))
        events += check_end_trigger(s, done)
    return events


def check_end_trigger(s: TMDiceState, done: int) -> list[Event]:
    if s.players == 1:
        # A solo game always has a last turn (set at setup, checked on load).
        if done == len(PARAMETERS) and s.end_at is not None and s.end_at > s.turn + 1:
            s.end_at = s.turn + 1
            return [event("end triggered", None, seat=s.current, last_turn=s.end_at)]
        return []
    if done >= 2 and s.end_at is None:
        s.end_at = s.turn + s.players
        return [event("end triggered", None, seat=s.current, last_turn=s.end_at)]
    return []


def place_tile(s: TMDiceState, seat: int, label: str, tile: str) -> list[Event]:
    vp = board.placement_vp(s.tiles, label, tile)
    s.tiles[label] = {"tile": tile, "owner": seat}
    events = [event("tile placed", None, seat=seat, tile=tile, hex=label)]
    if tile in ("ocean", "greenery"):
        events += raise_parameter(s, seat, PARAM_OF_TILE[tile])
    elif tile == "city":
        events += add_vp(s, seat, 2, "city")
    events += add_vp(s, seat, vp, f"{tile}-adjacency")
    push_effects(s, seat, HEXES[label]["bonus"], f"hex:{label}")
    return events


# -- one effect -----------------------------------------------------------------------------
def perform(s: TMDiceState, seat: int, effect: str, source: str) -> list[Event]:
    kind, _, arg = effect.partition(":")
    player = s.seats[seat]
    if kind == "gain":
        colours = dice.available_colours(s.pool)
        if arg != "any":
            return gain_rolled(s, seat, arg, source)
        if len(colours) <= 1:
            return gain_rolled(s, seat, colours[0], source) if colours else _skip(seat, effect, "pool-empty")
        push(s, "pick-colour", seat, source=source)
        return []
    if kind == "set":
        colours = dice.available_colours(s.pool) if arg == "any" else [arg] if s.pool[arg] > 0 else []
        if not colours:
            return _skip(seat, effect, "pool-empty")
        push(s, "pick-face", seat, colours=colours, source=source)
        return []
    if kind == "face":
        return gain_set(s, seat, arg, source)
    if kind == "turn":
        if not dice.held_faces(player):
            return _skip(seat, effect, "no-dice")
        # The icon's turn is optional from rules version 2; the support action "discard a die
        # to turn another" (source "support") always turns.
        optional = {"may_leave": True} if s.rules_version >= 2 and source != "support" else {}
        push(s, "turn-die", seat, face=None, **optional)
        return []
    if kind == "attack":
        events = [event("attack", None, seat=seat, colour=arg)]
        for other in reversed(s.turn_order_from(seat)[1:]):
            push(s, "lose", other, colour=arg)
        return events
    if kind in ("temperature", "oxygen"):
        return raise_parameter(s, seat, kind)
    if kind in ("ocean", "greenery", "city", "special"):
        tile = arg if kind == "special" else kind
        if kind == "ocean" and s.oceans >= TRACKS["oceans"]["steps"]:
            return raise_parameter(s, seat, "oceans")
        if not board.legal_hexes(s.tiles, tile):
            return _skip(seat, effect, "no-area")
        push(s, "place", seat, tile=tile)
        return []
    n = int(arg)
    if kind == "vp":
        return add_vp(s, seat, n, source)
    if kind == "wild":
        return gain_wild(s, seat, n)
    if kind == "draw":
        return draw(s, seat, n)
    raise AssertionError(f"unknown effect {effect!r}")  # content.py checked every effect


def _skip(seat: int, effect: str, reason: str) -> list[Event]:
    return [event("skipped", None, seat=seat, effect=effect, reason=reason)]


# -- the tasks of this module: choices and resolution ---------------------------------------
def effect_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    distinct = list(dict.fromkeys(task["effects"]))
    if len(distinct) <= 1:
        return []
    return [("effect", f"resolve {e}") for e in distinct]


def effect_auto(s: TMDiceState, task: Task) -> list[Event]:
    if not task["effects"]:
        pop_task(s, task)
        return []
    return effect_resolve(s, task, task["effects"][0])


def effect_resolve(s: TMDiceState, task: Task, effect: str) -> list[Event]:
    task["effects"].remove(effect)
    if not task["effects"]:
        pop_task(s, task)
    return perform(s, task["seat"], effect, task["source"])


def pay_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    """Every way to pay, the proposal first (``ranked_plans``); none when only one way exists."""
    plans = ranked_plans(s, task)
    if len(plans) < 2:
        return []
    return [("pay", f"pay {dice.plan_text(plan)}") for plan in plans]


def ranked_plans(s: TMDiceState, task: Task) -> list[dict[str, int]]:
    """The ways to pay ``task``'s cost, the one that keeps the most useful resources first.

    What is kept is judged by what it still lets the player pay for: the five general actions
    and the actions of the player's blue cards. Only what everyone sees counts (never the cards
    in hand), because the ways to pay are buttons on the public board and their order must not
    tell anything about a hand. First, more of those things payable at once; then fewer
    resources missing over all of them; then fewer wild tokens spent (a wild token pays for any
    resource, so it is worth at least any die); then the content's order.
    """
    seat = task["seat"]
    player = s.seats[seat]
    cost = task["cost"]
    plans = dice.payment_plans(player, cost)
    if len(plans) < 2:
        return plans
    targets = [Counter(g["cost"]) for g in GENERAL_ACTIONS.values()]
    targets += [Counter(CARDS[c].blue_action()["cost"]) for c in player["blue"]]

    def key(indexed: tuple[int, dict[str, int]]) -> tuple[int, int, int, int]:
        index, plan = indexed
        held, wild = dice.left_after(player, plan, cost)
        missing = [dice.shortfall({"dice": held}, dict(t)) - wild for t in targets]
        return (
            -sum(m <= 0 for m in missing),
            sum(max(0, m) for m in missing),
            sum(plan.values()),
            index,
        )

    return [plan for _, plan in sorted(enumerate(plans), key=key)]


def pay_auto(s: TMDiceState, task: Task) -> list[Event]:
    """The only way to pay: pay it."""
    plans = dice.payment_plans(s.seats[task["seat"]], task["cost"])
    return pay_resolve(s, task, plans[0])


def pay_resolve(s: TMDiceState, task: Task, plan: dict[str, int]) -> list[Event]:
    player = s.seats[task["seat"]]
    used = {f: n - plan[f] for f, n in task["cost"].items() if n > plan[f]}
    wild = sum(plan.values())
    dice.pay_plan(s.pool, player, task["cost"], plan)
    s.wild_supply += wild
    pop_task(s, task)
    return [event("paid", None, seat=task["seat"], faces=used, wild=wild)]


def colour_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    return [("colour", f"colour {c}") for c in dice.available_colours(s.pool)]


def face_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    return [(c, f"take {f}") for c in task["colours"] if s.pool[c] > 0 for f in dice.faces_of(c)]


def turn_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    """Die and face in one step when that fits in 25 choices, else the die first, then the face.

    Seed: 「玩家能將 1 顆骰子轉至任意骰面」 (the player *may* turn 1 die to any face): from rules
    version 2 the icon's step (``may_leave``) also offers leaving the dice as they are."""
    leave = [("leave", "leave-dice")] if task.get("may_leave") else []
    if task["face"] is not None:
        return [("face", f"to {f}") for f in dice.faces_of(FACE_COLOUR[task["face"]]) if f != task["face"]] + leave
    held = dice.held_faces(s.seats[task["seat"]])
    both = [("die", f"turn {f} to {g}") for f in held for g in dice.faces_of(FACE_COLOUR[f]) if g != f]
    if len(both) + len(leave) <= 25:
        return both + leave
    return [("die", f"turn {f}") for f in held] + leave


def turn_resolve(s: TMDiceState, task: Task, words: list[str]) -> list[Event]:
    if words[0] == "leave-dice":
        pop_task(s, task)
        return [event("dice left", None, seat=task["seat"])]
    if words[0] == "turn":
        task["face"] = words[1]
        if len(words) == 2:
            return []
        words = words[2:]
    player = s.seats[task["seat"]]
    dice.remove_die(player, task["face"])
    dice.add_die(player, words[1])
    pop_task(s, task)
    return [event("die turned", None, seat=task["seat"], old=task["face"], new=words[1])]


def lose_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    faces = [f for f in dice.held_faces(s.seats[task["seat"]]) if FACE_COLOUR[f] == task["colour"]]
    return [("lose", f"lose {f}") for f in faces] if len(faces) > 1 else []


def lose_auto(s: TMDiceState, task: Task) -> list[Event]:
    faces = [f for f in dice.held_faces(s.seats[task["seat"]]) if FACE_COLOUR[f] == task["colour"]]
    pop_task(s, task)
    if not faces:
        return [event("no loss", None, seat=task["seat"], colour=task["colour"])]
    dice.return_die(s.pool, s.seats[task["seat"]], faces[0])
    return [event("die lost", None, seat=task["seat"], face=faces[0])]


def lose_resolve(s: TMDiceState, task: Task, face: str) -> list[Event]:
    pop_task(s, task)
    dice.return_die(s.pool, s.seats[task["seat"]], face)
    return [event("die lost", None, seat=task["seat"], face=face)]


def place_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    return [(f"row {board.row_of(h)}", f"hex {h}") for h in board.legal_hexes(s.tiles, task["tile"])]


def place_auto(s: TMDiceState, task: Task) -> list[Event]:
    pop_task(s, task)
    return _skip(task["seat"], task["tile"], "no-area")


def on_card_played(s: TMDiceState, seat: int, card_id: str) -> list[Event]:
    """Move a card from hand to table; its ribbon VP and any 'on green' passive pay at once."""
    card = CARDS[card_id]
    player = s.seats[seat]
    player["hand"].remove(card_id)
    player[card.colour].append(card_id)
    events = [event("card played", None, seat=seat, card=card_view(card_id))]
    events += add_vp(s, seat, card.vp, card_id)
    if card.colour == "green":
        events += add_vp(s, seat, sum(passive_sum(s, seat, "on-green")), "on-green")
    return events


def passive_sum(s: TMDiceState, seat: int, kind: str) -> list[int]:
    player = s.seats[seat]
    texts = [p for c in player["blue"] for p in CARDS[c].passive]
    texts += [p for b in player["bonus"] for p in BONUS_CARDS[b]["passive"]]
    return [int(t.split(":")[1]) for t in texts if t.split(":")[0] == kind]


def keep_limit(s: TMDiceState, seat: int) -> int:
    return RULES["keep_dice"] + sum(passive_sum(s, seat, "keep"))
