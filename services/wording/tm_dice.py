"""Terraforming Mars: The Dice Game in words, for Discord: every step of a turn, one at a time."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine import Action, Event, Outcome, View
from engine.tm_dice import CONTENT, TMDicePrivate, TMDicePublic, payment
from l10n.typography import shortened
from l10n.words import clauses, content_name, listing, t
from services.wording import GameAdapter, SeenView, help_line

# What choices are worded from (a seat's or a spectator's view), and a seat's own view.
Seen = SeenView[TMDicePublic, TMDicePrivate]
Mine = View[TMDicePublic, TMDicePrivate]

# Choices that name a hidden card: only shown in the player's private "My hand" answer.
PRIVATE_VERBS = {"corporation", "play", "discard", "bonus"}
COLOUR_EMOJI = {
    "green": "\N{LARGE GREEN CIRCLE}",
    "gray": "\N{MEDIUM WHITE CIRCLE}",
    "blue": "\N{LARGE BLUE CIRCLE}",
    "red": "\N{LARGE RED CIRCLE}",
    "yellow": "\N{LARGE YELLOW CIRCLE}",
}
GENERAL = ("raise-temperature", "place-ocean", "place-greenery", "place-city", "buy-vp")
PARTS = ("terraforming and tiles", "awards", "milestones", "card vp")


def face(f: str, locale: str) -> str:
    return t(f"tm-dice.face.{f}", locale)


def colour(c: str, locale: str) -> str:
    return t(f"tm-dice.colour.{c}", locale)


def die(f: str, locale: str) -> str:
    """``heat (red)``: a die by its face and colour."""
    return t("tm-dice.die", locale, face=face(f, locale), colour=colour(CONTENT.face_colour[f], locale))


def effect_text(effect: str, locale: str) -> str:
    kind, _, arg = effect.partition(":")
    if kind in ("gain", "set") and arg == "any":
        return t(f"tm-dice.effect.{kind}-any", locale)
    if kind in ("gain", "set", "attack"):
        return t(f"tm-dice.effect.{kind}", locale, colour=colour(arg, locale))
    if kind == "face":
        return t("tm-dice.effect.face", locale, die=die(arg, locale))
    if kind == "special":
        return t("tm-dice.effect.special", locale, tile=t(f"tm-dice.tile.{arg}", locale))
    if kind in ("vp", "wild", "draw"):
        return t(f"tm-dice.effect.{kind}", locale, n=arg)
    return t(f"tm-dice.effect.{kind}", locale)


def cost_text(cost: Iterable[str], locale: str) -> str:
    return listing([face(f, locale) for f in cost], locale) or t("tm-dice.nothing", locale)


def payment_text(action: Action, public: TMDicePublic, locale: str, kept: bool = False) -> str:
    """A way to pay in words: ``2 heat + 1 wild token``; with ``kept``, the dice and tokens it keeps.

    ``action`` is ``pay wild=...`` for the cost of the step in the public view ``public``.
    """
    step = public.get("step")
    cost = step.get("cost", {}) if step else {}
    seat = step["seat"] if step else None
    held: dict[str, int] = {}
    wild_held = 0
    if kept and seat is not None:  # what the payer keeps: the dice and tokens of the seat paying
        held, wild_held = public["seats"][seat]["dice"], public["seats"][seat]["wild"]
    paid = payment(action.args[0], cost, held, wild_held)
    if kept:
        parts = [t("tm-dice.pay.dice", locale, n=n, face=face(f, locale)) for f, n in paid["kept"].items()]
        if paid["kept_wild"]:
            parts.append(t("tm-dice.pay.wild", locale, n=paid["kept_wild"]))
        return listing(parts, locale) or t("tm-dice.nothing", locale)
    parts = [t("tm-dice.pay.dice", locale, n=n, face=face(f, locale)) for f, n in paid["dice"].items()]
    wild = sum(paid["wild"].values())
    if wild:
        parts.append(t("tm-dice.pay.wild", locale, n=wild))
    return " + ".join(parts)


def corp_name(corp_id: str, locale: str) -> str:
    return content_name("tm-dice", "corporation", corp_id, CONTENT.corporations[corp_id]["name"], locale)


def card_title(card_id: str, locale: str) -> str:
    return content_name("tm-dice", "card", card_id, CONTENT.cards[card_id]["name"], locale)


def bonus_name(bonus_id: str, locale: str) -> str:
    return content_name("tm-dice", "bonus", bonus_id, CONTENT.bonus_cards[bonus_id]["name"], locale)


def milestone_name(milestone_id: str, locale: str) -> str:
    return content_name("tm-dice", "milestone", milestone_id, CONTENT.milestones[milestone_id]["name"], locale)


def card_summary(card_id: str, locale: str) -> str:
    """A project card in one line: name, colour, cost, what it does, VP."""
    c = CONTENT.cards[card_id]
    if c["colour"] == "red":
        does = listing([effect_text(e, locale) for e in c.get("effects", [])], locale)
    elif "action" in c:
        a = c["action"]
        does = t(
            f"tm-dice.card.action.{a['type']}",
            locale,
            cost=cost_text(a["cost"], locale),
            effects=listing([effect_text(e, locale) for e in a["effects"]], locale),
        )
    else:
        does = t(
            "tm-dice.card.produces", locale, dice=listing([colour(x, locale) for x in c.get("production", [])], locale)
        )
    text = t(
        "tm-dice.card.line",
        locale,
        name=card_title(card_id, locale),
        colour=t(f"tm-dice.card-colour.{c['colour']}", locale),
        cost=cost_text(c["cost"], locale),
        does=does,
    )
    if c["vp"]:
        text += " " + t("tm-dice.card.vp", locale, n=c["vp"])
    if c["end_vp"]:
        text += " " + t("tm-dice.card.end-vp", locale, n=c["end_vp"])
    return text


def corp_summary(corp_id: str, locale: str) -> str:
    c = CONTENT.corporations[corp_id]
    return t(
        "tm-dice.corporation.line",
        locale,
        name=corp_name(corp_id, locale),
        start=listing([effect_text(e, locale) for e in c["start"]], locale),
        dice=listing([colour(x, locale) for x in c["production"]], locale),
    )


def bonus_summary(bonus_id: str, locale: str) -> str:
    b = CONTENT.bonus_cards[bonus_id]
    parts = [effect_text(e, locale) for e in b["effects"]]
    if b["end_vp"]:
        parts.append(t("tm-dice.card.end-vp", locale, n=b["end_vp"]))
    for p in b["passive"]:
        kind, _, n = p.partition(":")
        parts.append(t(f"tm-dice.passive.{kind}", locale, n=n))
    return t("tm-dice.bonus.line", locale, name=bonus_name(bonus_id, locale), does=listing(parts, locale))


class TMDiceAdapter(GameAdapter[TMDicePublic, Seen, Mine]):
    game_id = "tm-dice"

    # -- choices ---------------------------------------------------------------------------
    def action_label(self, action: Action, view: Seen, locale: str, names: Sequence[str] = ()) -> str:
        verb, args = action.verb, action.args
        if verb in GENERAL or verb in ("production", "action", "support", "skip", "end", "more"):
            return shortened(t(f"tm-dice.action.{verb}", locale), 80)
        if verb in ("keep-hand", "discard-cards", "return-rest", "keep-all", "leave-dice"):
            return shortened(t(f"tm-dice.action.{verb}", locale), 80)
        if verb == "corporation":
            return shortened(corp_name(args[0], locale), 80)
        if verb in ("play", "discard", "use", "free"):
            return shortened(t(f"tm-dice.action.{verb}", locale, card=card_title(args[0], locale)), 80)
        if verb == "bonus":
            return shortened(bonus_name(args[0], locale), 80)
        if verb == "roll" or verb == "colour":
            return shortened(t(f"tm-dice.action.{verb}", locale, colour=colour(args[0], locale)), 80)
        if verb == "turn" and len(args) == 3:  # turn <face> to <face>: die and face in one step
            return shortened(
                t("tm-dice.action.turn-to", locale, die=die(args[0], locale), face=face(args[2], locale)), 80
            )
        if verb in ("keep", "drop", "turn", "lose", "give", "return"):
            what = t("tm-dice.wild", locale) if args[0] == "wild" else die(args[0], locale)
            return shortened(t(f"tm-dice.action.{verb}", locale, die=what), 80)
        if verb in ("to", "take"):
            return shortened(t(f"tm-dice.action.{verb}", locale, face=face(args[0], locale)), 80)
        if verb in ("discard-to-turn", "discard-to-draw"):
            return shortened(t(f"tm-dice.action.{verb}", locale), 80)
        if verb == "pay":
            key = "tm-dice.action.pay-proposed" if self.action_is_suggested(action, view) else "tm-dice.action.pay"
            return shortened(t(key, locale, what=payment_text(action, view["public"], locale)), 80)
        if verb == "resolve":
            return shortened(t("tm-dice.action.resolve", locale, effect=effect_text(args[0], locale)), 80)
        if verb == "hex":
            return shortened(t("tm-dice.action.hex", locale, hex=args[0].upper()), 80)
        if verb == "open":
            what = " ".join(args)
            if what.startswith("row "):
                return shortened(t("tm-dice.action.open-row", locale, row=what[4:].upper()), 80)
            return shortened(t(f"tm-dice.category.{what}", locale), 80)
        return shortened(action.text, 80)

    def action_description(self, action: Action, view: Seen, locale: str) -> str | None:
        verb, args = action.verb, action.args
        if verb in ("play", "discard", "use", "free") and args[0] in CONTENT.cards:
            return shortened(card_summary(args[0], locale), 100)
        if verb == "corporation":
            return shortened(corp_summary(args[0], locale), 100)
        if verb == "bonus":
            return shortened(bonus_summary(args[0], locale), 100)
        if verb in GENERAL:
            return shortened(t(f"tm-dice.describe.{verb}", locale), 100)
        if verb == "pay":
            return shortened(
                t("tm-dice.describe.pay", locale, what=payment_text(action, view["public"], locale, kept=True)), 100
            )
        return None

    def action_is_suggested(self, action: Action, view: Seen) -> bool:
        step = view["public"].get("step")
        return action.verb == "pay" and step is not None and step.get("proposal") == action.text

    def action_emoji(self, action: Action, view: Seen) -> str | None:
        args = action.args
        if action.verb in ("roll", "colour") and args and args[0] in COLOUR_EMOJI:
            return COLOUR_EMOJI[args[0]]
        if (
            action.verb in ("keep", "drop", "turn", "lose", "give", "take", "to", "return")
            and args
            and args[0] in CONTENT.face_colour
        ):
            return COLOUR_EMOJI[CONTENT.face_colour[args[0]]]
        return None

    def action_is_private(self, action: Action) -> bool:
        return action.verb in PRIVATE_VERBS or (action.verb == "open" and action.args in (["play"], ["discard"]))

    # -- events ----------------------------------------------------------------------------
    def describe_event(self, event: Event, names: list[str], locale: str) -> str | None:
        kind = event["type"]

        def name(key: str = "seat") -> str:
            seat = event.get(key)
            return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

        if kind == "awards rolled":
            faces = listing([face(a["face"], locale) for a in event["awards"]], locale)
            return t("tm-dice.event.awards", locale, faces=faces)
        if kind == "milestones drawn":
            return t(
                "tm-dice.event.milestones",
                locale,
                names=listing([milestone_name(m, locale) for m in event["milestones"]], locale),
            )
        if kind == "corporation revealed":
            return t(
                "tm-dice.event.corporation",
                locale,
                name=name(),
                corporation=corp_name(event["corporation"]["id"], locale),
            )
        if kind == "corporation kept":
            return t("tm-dice.event.kept", locale, corporation=corp_name(event["corporation"], locale))
        if kind in ("die rolled", "die taken"):
            return t(
                f"tm-dice.event.{kind.replace(' ', '-')}",
                locale,
                name=name(),
                colour=colour(CONTENT.face_colour[event["face"]], locale),
                face=face(event["face"], locale),
            )
        if kind == "turn started":
            return None
        if kind == "turn kind":
            return t(f"tm-dice.event.turn-{event['kind']}", locale, name=name(), turn=event["turn"])
        if kind == "card played":
            return t("tm-dice.event.played", locale, name=name(), card=card_summary(event["card"]["id"], locale))
        if kind == "card used":
            return t("tm-dice.event.used", locale, name=name(), card=card_title(event["card"], locale))
        if kind == "general action":
            return t(
                "tm-dice.event.general", locale, name=name(), action=t(f"tm-dice.action.{event['action']}", locale)
            )
        if kind == "tile placed":
            tile = t(f"tm-dice.tile.{event['tile']}", locale)
            return t("tm-dice.event.tile", locale, name=name(), tile=tile, hex=event["hex"].upper())
        if kind == "parameter raised":
            return t(f"tm-dice.event.raised.{event['parameter']}", locale, name=name())
        if kind == "parameter maxed":
            return t(
                "tm-dice.event.maxed", locale, name=name(), parameter=t(f"tm-dice.param.{event['parameter']}", locale)
            )
        if kind == "parameter completed":
            return t("tm-dice.event.completed", locale, parameter=t(f"tm-dice.param.{event['parameter']}", locale))
        if kind == "end triggered":
            return t("tm-dice.event.end", locale, turn=event["last_turn"])
        if kind == "milestone claimed":
            return t(
                "tm-dice.event.milestone", locale, name=name(), milestone=milestone_name(event["milestone"], locale)
            )
        if kind == "milestone removed":
            return t("tm-dice.event.milestone-removed", locale, milestone=milestone_name(event["milestone"], locale))
        if kind == "bonus played":
            return t("tm-dice.event.bonus", locale, name=name(), card=bonus_summary(event["card"]["id"], locale))
        if kind == "die lost":
            return t("tm-dice.event.lost", locale, name=name(), die=die(event["face"], locale))
        if kind == "dice left":
            return t("tm-dice.event.dice-left", locale, name=name())
        if kind == "die turned":
            return t(
                "tm-dice.event.turned",
                locale,
                name=name(),
                old=face(event["old"], locale),
                new=face(event["new"], locale),
            )
        if kind == "gift" and event["resource"]:
            what = t("tm-dice.wild", locale) if event["resource"] == "wild" else die(event["resource"], locale)
            return t("tm-dice.event.gift", locale, name=name(), to=name("to"), what=what)
        if kind == "cards drawn" and event["visible_to"] is not None and event.get("cards"):
            return t(
                "tm-dice.event.drawn",
                locale,
                cards=clauses((card_summary(c["id"], locale) for c in event["cards"]), locale, strong=True),
            )
        if kind == "bonus cards shown" and event["visible_to"] is not None:
            return t("tm-dice.event.bonus-shown", locale, n=len(event["cards"]))
        if kind == "wild gained":
            return t("tm-dice.event.wild", locale, name=name(), n=event["count"])
        if kind == "skipped":
            return t("tm-dice.event.skipped", locale, effect=effect_text(event["effect"], locale))
        if kind == "game over":
            return t("tm-dice.event.over", locale)
        return None

    def describe_events(self, events: list[Event], names: list[str], locale: str) -> list[str]:
        """As ``describe_event``, with a run of dice rolled by one player told in one line."""
        lines: list[str] = []
        run: list[Event] = []

        def flush() -> None:
            if len(run) > 1:
                faces = Counter(e["face"] for e in run)
                rolled = listing(
                    [
                        t("tm-dice.rolled-face", locale, face=face(f, locale), n=n) if n > 1 else face(f, locale)
                        for f, n in faces.items()
                    ],
                    locale,
                )
                seat = run[0]["seat"]
                who = names[seat] if 0 <= seat < len(names) else "?"
                lines.append(t("tm-dice.event.dice-rolled", locale, name=who, n=len(run), faces=rolled))
            elif run and (line := self.describe_event(run[0], names, locale)):
                lines.append(line)
            run.clear()

        for e in events:
            if e["type"] == "die rolled" and (not run or run[0]["seat"] == e["seat"]):
                run.append(e)
                continue
            flush()
            if e["type"] == "die rolled":
                run.append(e)
            elif line := self.describe_event(e, names, locale):
                lines.append(line)
        flush()
        return lines

    # -- prompts and private text ----------------------------------------------------------
    def status(self, public: TMDicePublic, locale: str) -> str:
        params = public["parameters"]
        return t(
            "tm-dice.status",
            locale,
            turn=public["turn"],
            temperature=params["temperature"]["value"],
            oxygen=params["oxygen"]["value"],
            oceans=params["oceans"]["position"],
        )

    def prompt(self, public: TMDicePublic, mentions: list[str], locale: str) -> str:
        who = " ".join(mentions)
        status = self.status(public, locale)
        if public["stage"] == "corp":
            return status + "\n" + t("tm-dice.prompt.corp", locale, who=who)
        step = public.get("step")
        if step is None:
            return status + "\n" + t("tm-dice.prompt.turn", locale, who=who)
        kind = step["kind"]
        values: dict[str, object] = {"who": who}
        if kind == "place":
            values["tile"] = t(f"tm-dice.tile.{step['tile']}", locale)
        if kind == "lose":
            values["colour"] = colour(step["colour"], locale)
        if kind == "pay":
            values["cost"] = listing(
                [t("tm-dice.pay.dice", locale, n=n, face=face(f, locale)) for f, n in step["cost"].items()], locale
            )
        if kind == "effects":
            values["effects"] = listing([effect_text(e, locale) for e in step["effects"]], locale)
        return status + "\n" + t(f"tm-dice.prompt.{kind}", locale, **values)

    def board_facts(self, public: TMDicePublic, names: Sequence[str], locale: str) -> list[str]:
        facts = []
        for seat, info in enumerate(public.get("seats", [])):
            parts = [
                t("tm-dice.alt.vp", locale, points=info.get("vp", 0)),
                t("tm-dice.alt.played", locale, count=len(info["red"]) + len(info["blue"]) + len(info["green"])),
                t("tm-dice.alt.hand", locale, count=info.get("hand", 0)),
            ]
            dice = [
                t("tm-dice.pay.dice", locale, n=n, face=face(f, locale)) for f, n in info.get("dice", {}).items() if n
            ]
            if dice:
                parts.append(t("tm-dice.alt.dice", locale, dice=listing(dice, locale)))
            name = names[seat] if seat < len(names) else t("player.fallback", locale, number=seat + 1)
            corp = info.get("corporation") if info.get("chosen") else None
            if corp:
                name = t("tm-dice.alt.corporation", locale, name=name, corporation=corp_name(corp["id"], locale))
            facts.append(t("tm-dice.alt.seat", locale, name=name, parts=listing(parts, locale)))
        return facts

    def hand_text(self, view: Mine, locale: str) -> str:
        private = view["private"]
        lines = []
        if private.get("corporations"):
            lines.append(t("tm-dice.hand.corporations", locale))
            lines += [f"- {corp_summary(c['id'], locale)}" for c in private["corporations"]]
        if private.get("bonus_choice"):
            lines.append(t("tm-dice.hand.bonus", locale))
            lines += [f"- {bonus_summary(b['id'], locale)}" for b in private["bonus_choice"]]
        lines.append(t("tm-dice.hand.title", locale, n=len(private.get("hand", []))))
        lines += [f"- {card_summary(c['id'], locale)}" for c in private.get("hand", [])]
        return "\n".join(lines)

    def outcome_lines(self, outcome: Outcome, names: list[str], locale: str) -> list[str]:
        lines = [t("tm-dice.outcome.title", locale)]
        for seat, detail in enumerate(outcome.details):
            shown = PARTS + (("resignation",) if detail.get("resignation") else ())
            parts = listing([t(f"tm-dice.part.{p.replace(' ', '-')}", locale, points=detail[p]) for p in shown], locale)
            lines.append(
                t(
                    "tm-dice.outcome.line",
                    locale,
                    name=names[seat] if seat < len(names) else "?",
                    total=detail["total"],
                    parts=parts,
                )
            )
        if len(outcome.details) == 1:
            key = "tm-dice.outcome.solo-won" if outcome.winners else "tm-dice.outcome.solo-lost"
            if "resignation" in outcome.details[0]:
                key = "tm-dice.outcome.solo-resigned"
            lines.append(t(key, locale, total=outcome.details[0]["total"]))
        else:
            winners = listing((names[w] if w < len(names) else "?" for w in outcome.winners), locale)
            key = "tm-dice.outcome.shared" if len(outcome.winners) > 1 else "tm-dice.outcome.winner"
            lines.append(t(key, locale, names=winners))
        return lines

    def turn_started(self, events: Sequence[Event], before: TMDicePublic, after: TMDicePublic) -> bool:
        """A new turn by the engine's count (``turn started``; solo, the same seat again)."""
        return any(event.get("type") == "turn started" for event in events)

    def push_events(self) -> set[str]:
        return {"dealt", "cards drawn", "bonus cards shown"}

    def choice_help(self, view: Mine, seat: int, locale: str) -> str | None:
        public = view["public"]
        if public.get("stage") == "corp":
            return help_line(self.game_id, "corp", locale)
        step = public.get("step")
        return help_line(self.game_id, step["kind"] if step else "", locale)


ADAPTER = TMDiceAdapter()
