"""Turn steps: the production turn and the action turn, each as a stack of small steps.

``state.queue`` is a stack of tasks (dicts with ``kind`` and ``seat``); the top one is asked
of its seat. A turn pushes, bottom to top: ``advance`` (end of turn), ``finish`` (last free
actions), then the turn's own steps. Each kind has a ``choices`` function (an empty list means
the step resolves by itself through ``auto``) and a ``resolve`` function taking the chosen
action's words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.core import Event, event
from engine.tm_dice import board, dice, effects, scoring
from engine.tm_dice.content import (
    BONUS_CARDS,
    CARDS,
    CORPORATIONS,
    GENERAL_ACTIONS,
    RULES,
    bonus_view,
)
from engine.tm_dice.effects import pop_task, push, push_effects, push_payment
from engine.tm_dice.records import Task

if TYPE_CHECKING:
    from engine.tm_dice.state import TMDiceState


# -- helpers --------------------------------------------------------------------------------
def usable_blue(s: TMDiceState, seat: int, kind: str) -> list[str]:
    player = s.seats[seat]
    return [
        c
        for c in player["blue"]
        if c not in player["used"]
        and (action := CARDS[c].blue_action())["type"] == kind
        and dice.can_pay(player, action["cost"])
    ]


def free_choices(s: TMDiceState, seat: int) -> list[tuple[str, str]]:
    return [("free", f"free {c}") for c in usable_blue(s, seat, "free")]


def use_blue(s: TMDiceState, seat: int, card_id: str) -> list[Event]:
    action = CARDS[card_id].blue_action()
    s.seats[seat]["used"].append(card_id)
    push_effects(s, seat, action["effects"], card_id)
    push_payment(s, seat, action["cost"])
    return [event("card used", None, seat=seat, card=card_id, action=action["type"])]


def general_possible(s: TMDiceState, seat: int, action_id: str) -> bool:
    g = GENERAL_ACTIONS[action_id]
    if not dice.can_pay(s.seats[seat], g["cost"]):
        return False
    for e in g["effects"]:
        if e in ("greenery", "city") and not board.legal_hexes(s.tiles, e):
            return False
    return True


def production_colours(s: TMDiceState, seat: int) -> list[str]:
    player = s.seats[seat]
    colours = list(CORPORATIONS[player["corp"]]["production"]) if player["corp"] else []
    for c in player["green"]:
        colours += CARDS[c].production
    return colours


def produce_dice(s: TMDiceState, seat: int, compensate: bool) -> list[Event]:
    """Take and roll the production dice; short of dice, take 1 wild token (production turn only)."""
    events: list[Event] = []
    short = False
    for colour in production_colours(s, seat):
        if s.pool[colour] > 0:
            events += effects.gain_rolled(s, seat, colour, "production")
        else:
            short = True
    if short and compensate:
        events.append(event("pool short", None, seat=seat))
        events += effects.gain_wild(s, seat, 1)
    return events


# -- turn start -----------------------------------------------------------------------------
def turn_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    """A production turn, or an action turn started by choosing its support action at once."""
    support = [c for c in support_choices(s, task) if c[0] not in ("free", "skip")]
    out = [("turn", "production")] + (support or [("turn", "action")])
    return out + free_choices(s, task["seat"])


def turn_resolve(s: TMDiceState, task: Task, words: list[str]) -> list[Event]:
    seat = task["seat"]
    if words[0] == "free":
        return use_blue(s, seat, words[1])
    pop_task(s, task)
    push(s, "advance", seat)
    push(s, "finish", seat)
    kind = "production" if words[0] == "production" else "action"
    events = [event("turn kind", None, seat=seat, kind=kind, turn=s.turn)]
    if kind == "production":
        push(s, "produce", seat)
        push(s, "discard", seat, open=False)
        push(s, "keep", seat, kept={})
        return events
    push(s, "main", seat)
    push(s, "support", seat, as_main=False)
    if words[0] == "action":
        return events
    return events + support_resolve(s, s.queue[-1], words)


# -- production -----------------------------------------------------------------------------
def keep_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    """Choose the dice to keep one at a time, up to the limit; the rest go back to the pool.

    Seed: 「保留至多 3 顆」 (keep *at most* 3): from rules version 2 a player holding no more than
    the limit keeps them all with one choice, or returns dice one at a time."""
    player = s.seats[task["seat"]]
    if dice.dice_count(player) <= effects.keep_limit(s, task["seat"]):
        if s.rules_version < 2 or not dice.dice_count(player):
            return []
        return [("keep", "keep-all")] + [("return", f"return {f}") for f in dice.held_faces(player)]
    kept = task["kept"]
    out = [("keep", f"keep {f}") for f in dice.held_faces(player) if player["dice"][f] > kept.get(f, 0)]
    return out + [("return", "return-rest")]


def keep_resolve(s: TMDiceState, task: Task, words: list[str]) -> list[Event]:
    seat = task["seat"]
    kept = task["kept"]
    if words[0] == "keep-all":
        return keep_auto(s, task)
    if words[0] == "return":
        dice.return_die(s.pool, s.seats[seat], words[1])
        return [event("dice returned", None, seat=seat, dice={words[1]: 1})]
    if words[0] == "keep":
        kept[words[1]] = kept.get(words[1], 0) + 1
        if sum(kept.values()) < effects.keep_limit(s, seat):
            return []
    player = s.seats[seat]
    returned: dict[str, int] = {}
    for f in dice.held_faces(player):
        for _ in range(player["dice"][f] - kept.get(f, 0)):
            dice.return_die(s.pool, player, f)
            returned[f] = returned.get(f, 0) + 1
    return [event("dice returned", None, seat=seat, dice=returned)] + keep_auto(s, task)


def keep_auto(s: TMDiceState, task: Task) -> list[Event]:
    pop_task(s, task)
    return [event("dice kept", None, seat=task["seat"], dice=dict(s.seats[task["seat"]]["dice"]))]


def discard_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    """First whether to discard at all, then the cards one at a time."""
    hand = s.seats[task["seat"]]["hand"]
    if not hand:
        return []
    if not task["open"]:
        return [("done", "keep-hand"), ("discard", "discard-cards")]
    return [("done", "keep-hand")] + [("discard", f"discard {c}") for c in hand]


def discard_resolve(s: TMDiceState, task: Task, words: list[str]) -> list[Event]:
    seat = task["seat"]
    if words[0] == "keep-hand":
        pop_task(s, task)
        return []
    if words[0] == "discard-cards":
        task["open"] = True
        return []
    s.seats[seat]["hand"].remove(words[1])
    s.discard.append(words[1])
    return [event("card discarded", None, seat=seat, card=words[1])]


def produce_auto(s: TMDiceState, task: Task) -> list[Event]:
    seat = task["seat"]
    player = s.seats[seat]
    pop_task(s, task)
    events = effects.draw(s, seat, max(0, RULES["hand_size"] - len(player["hand"])))
    events += produce_dice(s, seat, compensate=True)
    if player["used"]:
        events.append(event("blue cards readied", None, seat=seat, cards=list(player["used"])))
        player["used"] = []
    player["productions"] += 1
    if s.players == 1 and player["productions"] == 1 and s.bonus_deck:
        events += offer_bonus(s, seat)
    return events


# -- action turn ----------------------------------------------------------------------------
def support_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    seat = task["seat"]
    player = s.seats[seat]
    out = [("general", f"roll {c}") for c in dice.available_colours(s.pool)]
    if dice.dice_count(player) >= 2:
        out.append(("general", "discard-to-turn"))
    if dice.dice_count(player) >= 1:
        out.append(("general", "discard-to-draw"))
    out += [("card", f"use {c}") for c in usable_blue(s, seat, "support")]
    out += free_choices(s, seat)
    if not [c for c in out if c[0] != "free"]:
        out.append(("skip", "skip"))
    return out


def support_resolve(s: TMDiceState, task: Task, words: list[str]) -> list[Event]:
    seat = task["seat"]
    verb = words[0]
    if verb == "free":
        return use_blue(s, seat, words[1])
    pop_task(s, task)
    if verb == "roll":
        return effects.gain_rolled(s, seat, words[1], "support")
    if verb == "discard-to-turn":
        push(s, "drop", seat, purpose="turn")
    elif verb == "discard-to-draw":
        push(s, "drop", seat, purpose="draw")
    elif verb == "use":
        return use_blue(s, seat, words[1])
    return [event("action skipped", None, seat=seat, step="support")] if verb == "skip" else []


def drop_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    return [("drop", f"drop {f}") for f in dice.held_faces(s.seats[task["seat"]])]


def drop_resolve(s: TMDiceState, task: Task, words: list[str]) -> list[Event]:
    seat = task["seat"]
    pop_task(s, task)
    dice.return_die(s.pool, s.seats[seat], words[1])
    events = [event("die discarded", None, seat=seat, face=words[1])]
    if task["purpose"] == "turn":
        push_effects(s, seat, ["turn"], "support")
        return events
    return events + effects.draw(s, seat, 2)


def main_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    seat = task["seat"]
    player = s.seats[seat]
    out = [("general", g) for g in GENERAL_ACTIONS if general_possible(s, seat, g)]
    out += [("play", f"play {c}") for c in player["hand"] if dice.can_pay(player, CARDS[c].cost)]
    out += [("card", f"use {c}") for c in usable_blue(s, seat, "main")]
    if support_choices(s, {"seat": seat})[-1][1] != "skip":
        out.append(("general", "support"))
    out += free_choices(s, seat)
    if not [c for c in out if c[0] != "free"]:
        out.append(("skip", "skip"))
    return out


def main_resolve(s: TMDiceState, task: Task, words: list[str]) -> list[Event]:
    seat = task["seat"]
    verb = words[0]
    if verb == "free":
        return use_blue(s, seat, words[1])
    pop_task(s, task)
    if verb in GENERAL_ACTIONS:
        g = GENERAL_ACTIONS[verb]
        push_effects(s, seat, g["effects"], verb)
        push_payment(s, seat, g["cost"])
        return [event("general action", None, seat=seat, action=verb)]
    if verb == "play":
        card = CARDS[words[1]]
        events = effects.on_card_played(s, seat, card.id)
        push_effects(s, seat, card.effects, card.id)
        push_payment(s, seat, card.cost)
        return events
    if verb == "use":
        return use_blue(s, seat, words[1])
    if verb == "support":
        push(s, "support", seat, as_main=True)
        return []
    return [event("action skipped", None, seat=seat, step="main")]


def finish_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    free = free_choices(s, task["seat"])
    return [("end", "end")] + free if free else []


def finish_resolve(s: TMDiceState, task: Task, words: list[str]) -> list[Event]:
    if words[0] == "free":
        return use_blue(s, task["seat"], words[1])
    pop_task(s, task)
    return []


def pop_auto(s: TMDiceState, task: Task) -> list[Event]:
    pop_task(s, task)
    return []


# -- end of a turn, bonus cards, next turn --------------------------------------------------
def advance_auto(s: TMDiceState, task: Task) -> list[Event]:
    seat = task["seat"]
    player = s.seats[seat]
    for threshold in RULES["bonus_thresholds"]:
        if player["vp"] >= threshold and threshold not in player["thresholds"]:
            player["thresholds"].append(threshold)
            if s.bonus_deck:
                return [event("bonus earned", None, seat=seat, threshold=threshold), *offer_bonus(s, seat)]
    pop_task(s, task)
    events = scoring.claim_milestones(s)
    events += scoring.remove_solo_milestones(s)
    if s.end_at is not None and s.turn >= s.end_at:
        return events + scoring.finish(s)
    return events + start_turn(s, (seat + 1) % s.players)


def start_turn(s: TMDiceState, seat: int) -> list[Event]:
    s.turn += 1
    s.current = seat
    push(s, "turn", seat)
    return [event("turn started", None, seat=seat, turn=s.turn)]


def offer_bonus(s: TMDiceState, seat: int) -> list[Event]:
    """Ask ``seat`` to pick one of the remaining bonus cards, which it alone looks at."""
    push(s, "bonus", seat)
    return [event("bonus cards shown", [seat], seat=seat, cards=[bonus_view(b) for b in s.bonus_deck])]


def bonus_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    return [("bonus", f"bonus {b}") for b in s.bonus_deck]


def bonus_resolve(s: TMDiceState, task: Task, words: list[str]) -> list[Event]:
    seat = task["seat"]
    chosen = words[1]
    pop_task(s, task)
    s.bonus_deck.remove(chosen)
    s.seats[seat]["bonus"].append(chosen)
    push_effects(s, seat, BONUS_CARDS[chosen]["effects"], chosen)
    return [event("bonus played", None, seat=seat, card=bonus_view(chosen), left=len(s.bonus_deck))]


# -- set-up steps after the corporations are revealed ---------------------------------------
def start_production_auto(s: TMDiceState, task: Task) -> list[Event]:
    pop_task(s, task)
    return produce_dice(s, task["seat"], compensate=False)


def gift_choices(s: TMDiceState, task: Task) -> list[tuple[str, str]]:
    player = s.seats[task["seat"]]
    out = [("give", f"give {f}") for f in dice.held_faces(player)]
    if player["wild"]:
        out.append(("give", "give wild"))
    return out


def gift_resolve(s: TMDiceState, task: Task, words: list[str]) -> list[Event]:
    giver, to = task["seat"], task["to"]
    pop_task(s, task)
    if words[1] == "wild":
        s.seats[giver]["wild"] -= 1
        s.seats[to]["wild"] += 1
    else:
        dice.remove_die(s.seats[giver], words[1])
        dice.add_die(s.seats[to], words[1])
    return [event("gift", None, seat=giver, to=to, resource=words[1])]


def gift_auto(s: TMDiceState, task: Task) -> list[Event]:
    pop_task(s, task)
    return [event("gift", None, seat=task["seat"], to=task["to"], resource=None)]


def begin_auto(s: TMDiceState, task: Task) -> list[Event]:
    pop_task(s, task)
    return start_turn(s, s.first)


HANDLERS = {
    "turn": (turn_choices, None, turn_resolve),
    "keep": (keep_choices, keep_auto, keep_resolve),
    "discard": (discard_choices, pop_auto, discard_resolve),
    "produce": (lambda s, t: [], produce_auto, None),
    "support": (support_choices, None, support_resolve),
    "main": (main_choices, None, main_resolve),
    "drop": (drop_choices, None, drop_resolve),
    "finish": (finish_choices, pop_auto, finish_resolve),
    "advance": (lambda s, t: [], advance_auto, None),
    "bonus": (bonus_choices, None, bonus_resolve),
    "start-production": (lambda s, t: [], start_production_auto, None),
    "gift": (gift_choices, gift_auto, gift_resolve),
    "begin": (lambda s, t: [], begin_auto, None),
    "effects": (effects.effect_choices, effects.effect_auto, lambda s, t, w: effects.effect_resolve(s, t, w[1])),
    "pay": (
        effects.pay_choices,
        effects.pay_auto,
        lambda s, t, w: effects.pay_resolve(s, t, dice.parse_plan(w[1], t["cost"])),
    ),
    "pick-colour": (
        effects.colour_choices,
        None,
        lambda s, t, w: _pop_then(s, t, lambda: effects.gain_rolled(s, t["seat"], w[1], t["source"])),
    ),
    "pick-face": (
        effects.face_choices,
        None,
        lambda s, t, w: _pop_then(s, t, lambda: effects.gain_set(s, t["seat"], w[1], t["source"])),
    ),
    "turn-die": (effects.turn_choices, None, effects.turn_resolve),
    "lose": (effects.lose_choices, effects.lose_auto, lambda s, t, w: effects.lose_resolve(s, t, w[1])),
    "place": (
        effects.place_choices,
        effects.place_auto,
        lambda s, t, w: _pop_then(s, t, lambda: effects.place_tile(s, t["seat"], w[1], t["tile"])),
    ),
}


def _pop_then(s: TMDiceState, task: Task, then: Callable[[], list[Event]]) -> list[Event]:
    pop_task(s, task)
    return then()
