"""Noctiluca in words, for Discord: the dive step by step, storing, passing, jars and the storm."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine import Action, Event, Outcome, View
from engine.noctiluca import DieView, NoctilucaPrivate, NoctilucaPublic
from l10n.typography import shortened
from l10n.words import listing, t
from services.wording import GameAdapter, SeenView, help_line

# What choices are worded from (a seat's or a spectator's view), and a seat's own view.
Seen = SeenView[NoctilucaPublic, NoctilucaPrivate]
Mine = View[NoctilucaPublic, NoctilucaPrivate]

COLOURS = ("orange", "green", "purple", "blue")
COLOUR_EMOJI = {
    "orange": "\N{LARGE ORANGE CIRCLE}",
    "green": "\N{LARGE GREEN CIRCLE}",
    "purple": "\N{LARGE PURPLE CIRCLE}",
    "blue": "\N{LARGE BLUE CIRCLE}",
}
KEYCAP = {n: f"{n}\N{VARIATION SELECTOR-16}\N{COMBINING ENCLOSING KEYCAP}" for n in range(1, 7)}
PRIVATE_VERBS = {"keep", "take"}
PARTS = ("majorities", "tokens", "jar points", "favourite", "leftovers", "storm tokens", "storm dice")


def colour_name(colour: str, locale: str) -> str:
    return t(f"noctiluca.colour.{colour}", locale)


def jar_name(jar_id: str, locale: str) -> str:
    """``Gold 3``: a jar by its colour and number."""
    colour, _, number = jar_id.partition("-")
    return t("noctiluca.jar", locale, colour=t(f"noctiluca.jar-colour.{colour}", locale), number=number)


def count_text(colours: list[str], locale: str) -> str:
    """``2 blue, 1 green`` (in the house order of colours), or ``nothing``."""
    counts = Counter(colours)
    parts = [t("noctiluca.count", locale, count=counts[c], colour=colour_name(c, locale)) for c in COLOURS if counts[c]]
    return listing(parts, locale) if parts else t("noctiluca.nothing", locale)


def dice_text(dice: list[DieView], locale: str) -> str:
    return count_text([d["colour"] for d in dice], locale)


def jar_summary(jar: Mapping[str, Any], locale: str) -> str:
    """``Gold 3: 3 orange, 2 blue · 1 pt``."""
    return t(
        "noctiluca.jar-summary",
        locale,
        jar=jar_name(jar["id"], locale),
        slots=count_text(jar["slots"], locale),
        points=jar["points"],
    )


def jar_progress(jar: Mapping[str, Any], locale: str) -> str:
    """``Gold 3 (needs 1 orange, 2 blue)``."""
    missing = [c for c, d in zip(jar["slots"], jar["dice"], strict=True) if d is None]
    return t("noctiluca.jar-progress", locale, jar=jar_name(jar["id"], locale), needs=count_text(missing, locale))


def jar_from_id(jar_id: str, view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The jar ``jar_id`` wherever ``view`` (a seat's or a spectator's) shows it: a ``JarCard``, or a
    ``JarInPlay`` (with its dice) on a seat's shelf."""
    public, private = view.get("public", {}), view.get("private", {})
    for j in private.get("hand", []):
        if j["id"] == jar_id:
            return j
    for seat in public.get("seats", []):
        for j in seat["jars"] + seat["delivered"]:
            if j["id"] == jar_id:
                return j
    for p in public.get("piles", []):
        if p["top"] and p["top"]["id"] == jar_id:
            return p["top"]
    return None


def path_dice(public: NoctilucaPublic, shore: int, kind: str, number: int | None = None) -> list[DieView]:
    spaces = public["shores"][shore - 1]["paths"][kind]
    return [d for sid in spaces for d in public["spaces"][sid]["dice"] if number is None or d["face"] == number]


def fits(public: NoctilucaPublic, seat: int, dice: list[DieView]) -> int:
    """How many of ``dice`` the seat's jars could hold."""
    free = Counter(
        c for j in public["seats"][seat]["jars"] for c, d in zip(j["slots"], j["dice"], strict=True) if d is None
    )
    have = Counter(d["colour"] for d in dice)
    return sum(min(have[c], free[c]) for c in have)


class NoctilucaAdapter(GameAdapter[NoctilucaPublic, Seen, Mine]):
    game_id = "noctiluca"

    # -- choices ---------------------------------------------------------------------------
    def action_label(self, action: Action, view: Seen, locale: str, names: Sequence[str] = ()) -> str:
        verb, args = action.verb, action.args
        public = view.get("public", {})
        if verb == "keep":
            return t("noctiluca.action.keep", locale, a=jar_name(args[0], locale), b=jar_name(args[1], locale))
        if verb == "shore":
            shore = int(args[0])
            if public.get("shores"):
                short, long = (len(path_dice(public, shore, kind)) for kind in ("short", "long"))
                return t("noctiluca.action.shore-reach", locale, shore=shore, short=short, long=long)
            return t("noctiluca.action.shore", locale, shore=shore)
        if verb == "path":
            pending = public.get("pending", {})
            if public.get("shores") and "shore" in pending:
                dice = dice_text(path_dice(public, pending["shore"], args[0]), locale)
                return shortened(t(f"noctiluca.action.path-reach.{args[0]}", locale, dice=dice), 80)
            return t(f"noctiluca.action.path.{args[0]}", locale)
        if verb == "number":
            number = int(args[0])
            pending = public.get("pending", {})
            if "shore" in pending and "path" in pending:
                taken = path_dice(public, pending["shore"], pending["path"], number)
                return shortened(
                    t("noctiluca.action.number-takes", locale, number=number, dice=dice_text(taken, locale)), 80
                )
            return t("noctiluca.action.number", locale, number=number)
        if verb == "store":
            if args[0] == "none":
                return t("noctiluca.action.store-none", locale)
            return t(
                "noctiluca.action.store", locale, colour=colour_name(args[0], locale), jar=jar_name(args[1], locale)
            )
        if verb == "deliver":
            return t("noctiluca.action.deliver", locale, jar=jar_name(args[0], locale))
        if verb == "pile":
            pile = public.get("piles", [])[int(args[0]) - 1] if public.get("piles") else None
            if pile and pile["top"]:
                return shortened(
                    t("noctiluca.action.pile", locale, pile=args[0], jar=jar_summary(pile["top"], locale)), 80
                )
            return t("noctiluca.action.pile-plain", locale, pile=args[0])
        if verb == "take":
            jar = jar_from_id(args[0], view)
            return shortened(t("noctiluca.action.take", locale, jar=jar_summary(jar, locale) if jar else args[0]), 80)
        return action.text

    def action_description(self, action: Action, view: Seen, locale: str) -> str | None:
        verb, args = action.verb, action.args
        public = view.get("public", {})
        if verb == "keep":
            parts = [jar_summary(j, locale) for a in args if (j := jar_from_id(a, view))]
            return shortened(" / ".join(parts), 100)
        if verb == "shore" and public.get("shores"):
            shore = int(args[0])
            return shortened(
                t(
                    "noctiluca.describe.shore",
                    locale,
                    short=len(path_dice(public, shore, "short")),
                    long=len(path_dice(public, shore, "long")),
                ),
                100,
            )
        if verb == "path" and public.get("pending", {}).get("shore"):
            shore = public["pending"]["shore"]
            return shortened(
                t("noctiluca.describe.path", locale, dice=dice_text(path_dice(public, shore, args[0]), locale)), 100
            )
        if verb == "number":
            pending = public.get("pending", {})
            if "path" in pending:
                dice = path_dice(public, pending["shore"], pending["path"], int(args[0]))
                fit = fits(public, public["current"], dice)
                return shortened(t("noctiluca.describe.number", locale, dice=dice_text(dice, locale), fit=fit), 100)
        if verb == "store" and args[0] != "none":
            jar = jar_from_id(args[1], view)
            return shortened(jar_progress(jar, locale), 100) if jar and "dice" in jar else None
        if verb == "deliver" or verb == "take":
            jar = jar_from_id(args[0], view)
            return shortened(jar_summary(jar, locale), 100) if jar else None
        return None

    def action_emoji(self, action: Action, view: Seen) -> str | None:
        verb, args = action.verb, action.args
        if verb == "store" and args[0] in COLOUR_EMOJI:
            return COLOUR_EMOJI[args[0]]
        if verb == "number":
            return KEYCAP[int(args[0])]
        return None

    def action_is_private(self, action: Action) -> bool:
        return action.verb in PRIVATE_VERBS

    # -- events ----------------------------------------------------------------------------
    def describe_event(self, event: Event, names: list[str], locale: str) -> str | None:
        kind = event["type"]

        def name(key: str = "seat") -> str:
            seat = event.get(key)
            return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

        simple = {
            "first player": lambda: t("noctiluca.event.first-player", locale, name=name(), pawns=event["pawns"][0]),
            "favourite dealt": lambda: t(
                "noctiluca.event.favourite", locale, colour=colour_name(event["favourite"]["colour"], locale)
            ),
            "jars dealt": lambda: t(
                "noctiluca.event.jars-dealt", locale, jars=listing([jar_name(j, locale) for j in event["jars"]], locale)
            ),
            "jars kept": lambda: t(
                "noctiluca.event.jars-kept", locale, jars=listing([jar_name(j, locale) for j in event["jars"]], locale)
            ),
            "jar choice made": lambda: t("noctiluca.event.jar-choice-made", locale, name=name()),
            "deck formed": lambda: t("noctiluca.event.deck-formed", locale, size=event["size"]),
            "piles formed": lambda: t(
                "noctiluca.event.piles-formed", locale, sizes=listing(map(str, event["sizes"]), locale)
            ),
            "turn": lambda: None,
            "pawn placed": lambda: t(
                "noctiluca.event.pawn", locale, name=name(), shore=event["shore"], left=event["pawns_left"]
            ),
            "path chosen": lambda: t(f"noctiluca.event.path.{event['path']}", locale, name=name()),
            "dive": lambda: t(
                "noctiluca.event.dive",
                locale,
                name=name(),
                number=event["number"],
                dice=count_text([_colour(d) for d in event["taken"]], locale),
            ),
            "stored": lambda: t(
                "noctiluca.event.stored-passed" if event["passed"] else "noctiluca.event.stored",
                locale,
                name=name(),
                colour=colour_name(_colour(event["die"]), locale),
                jar=jar_name(event["jar"], locale),
            ),
            "passing": lambda: t(
                "noctiluca.event.passing",
                locale,
                name=name(),
                dice=count_text([_colour(d) for d in event["dice"]], locale),
            ),
            "dice passed": lambda: t(
                "noctiluca.event.dice-passed",
                locale,
                name=name("to"),
                dice=count_text([_colour(d) for d in event["dice"]], locale),
            ),
            "declined": lambda: t("noctiluca.event.declined", locale, name=name()),
            "to lid": lambda: t(
                "noctiluca.event.to-lid", locale, dice=count_text([_colour(d) for d in event["dice"]], locale)
            ),
            "to storm": lambda: t(
                "noctiluca.event.to-storm", locale, dice=count_text([_colour(d) for d in event["dice"]], locale)
            ),
            "no jar left": lambda: t("noctiluca.event.no-jar-left", locale, name=name()),
            "jars drawn": lambda: t(
                "noctiluca.event.jars-drawn", locale, jars=listing([jar_name(j, locale) for j in event["jars"]], locale)
            ),
            "choosing jar": lambda: t("noctiluca.event.choosing-jar", locale, name=name()),
            "jar to bottom": lambda: t(
                "noctiluca.event.jar-to-bottom",
                locale,
                jars=listing([jar_name(j, locale) for j in event["jars"]], locale),
            ),
            "round ended": lambda: t("noctiluca.event.round-ended", locale, round=event["round"]),
            "round started": lambda: t("noctiluca.event.round-started", locale, name=name("first")),
            "storm turns": lambda: t(
                "noctiluca.event.storm-turns", locale, section=t(f"noctiluca.section.{event['section']}", locale)
            ),
        }
        if kind in simple:
            return simple[kind]()
        if kind == "jars revealed":
            lines = [
                t(
                    "noctiluca.event.revealed",
                    locale,
                    name=names[seat] if seat < len(names) else "?",
                    jars=listing([jar_name(j, locale) for j in kept], locale),
                )
                for seat, kept in enumerate(event["kept"])
            ]
            return "\n".join(lines)
        if kind == "board filled":
            key = "noctiluca.event.board-short" if event["short"] else "noctiluca.event.board-filled"
            return t(key, locale, round=event["round"], short=event["short"])
        if kind == "delivered":
            token = event["token"]
            if token is None:
                return t("noctiluca.event.delivered-no-token", locale, name=name(), jar=jar_name(event["jar"], locale))
            return t(
                "noctiluca.event.delivered",
                locale,
                name=name(),
                jar=jar_name(event["jar"], locale),
                token=token["value"],
                colour=t(f"noctiluca.jar-colour.{token['colour']}", locale),
            )
        if kind == "new jar":
            if "pile" in event:
                return t(
                    "noctiluca.event.new-jar-pile",
                    locale,
                    name=name(),
                    jar=jar_name(event["jar"], locale),
                    pile=event["pile"],
                )
            return t("noctiluca.event.new-jar", locale, name=name(), jar=jar_name(event["jar"], locale))
        if kind == "storm discard":
            if event["jar"] is None:
                return t("noctiluca.event.storm-no-card", locale)
            token = event["token"]
            if token is None:
                return t("noctiluca.event.storm-discard-no-token", locale, jar=jar_name(event["jar"], locale))
            return t(
                "noctiluca.event.storm-discard",
                locale,
                jar=jar_name(event["jar"], locale),
                value=token["value"],
                colour=t(f"noctiluca.jar-colour.{token['colour']}", locale),
            )
        if kind == "storm roll":
            return t(
                "noctiluca.event.storm-roll",
                locale,
                roll=event["roll"],
                section=t(f"noctiluca.section.{event['section']}", locale),
                dice=count_text([_colour(d) for d in event["removed"]], locale),
            )
        if kind == "final scores":
            return t("noctiluca.event.final", locale)
        return None

    # -- prompts and private text ----------------------------------------------------------
    def status(self, public: NoctilucaPublic, locale: str) -> str:
        return t(
            "noctiluca.status",
            locale,
            round=public["round"],
            lid=public["lid_total"],
            direction=t(f"noctiluca.direction.{public['direction']}", locale),
        )

    def prompt(self, public: NoctilucaPublic, mentions: list[str], locale: str) -> str:
        who = " ".join(mentions)
        phase = public.get("phase")
        pending = public.get("pending", {})
        status = self.status(public, locale)
        values: dict[str, object] = {"who": who}
        if phase in ("path", "number"):
            values["shore"] = pending["shore"]
        if phase == "store":
            values["dice"] = dice_text(pending["hand"], locale)
        if phase == "pass":
            values["dice"] = dice_text(pending["dice"], locale)
        key = f"noctiluca.prompt.{phase}"
        if phase == "pass" and len(pending["dice"]) == 1:
            key = "noctiluca.prompt.pass-single"
        if phase == "shore" and public.get("solo"):
            key = "noctiluca.prompt.shore-solo"
        return status + "\n" + t(key, locale, **values)

    def board_facts(self, public: NoctilucaPublic, names: Sequence[str], locale: str) -> list[str]:
        facts = []
        for seat, info in enumerate(public.get("seats", [])):
            parts = [
                t("noctiluca.alt.tokens", locale, points=sum(tok["value"] for tok in info.get("tokens", []))),
                t("noctiluca.alt.delivered", locale, count=len(info.get("delivered", []))),
            ]
            jars = [jar_progress(jar, locale) for jar in info.get("jars", [])]
            if jars:
                parts.append(t("noctiluca.alt.jars", locale, jars=listing(jars, locale)))
            name = names[seat] if seat < len(names) else t("player.fallback", locale, number=seat + 1)
            facts.append(t("noctiluca.alt.seat", locale, name=name, parts=listing(parts, locale)))
        return facts

    def hand_text(self, view: Mine, locale: str) -> str:
        private = view.get("private", {})
        public = view.get("public", {})
        lines = []
        fav = private.get("favourite")
        if fav:
            lines.append(t("noctiluca.hand.favourite", locale, colour=colour_name(fav["colour"], locale)))
        if public.get("phase") == "keep" and private.get("hand"):
            lines.append(t("noctiluca.hand.dealt", locale))
            lines += [f"- {jar_summary(j, locale)}" for j in private["hand"]]
            if kept_ids := private.get("kept"):
                kept = listing([jar_name(j, locale) for j in kept_ids], locale)
                lines.append(t("noctiluca.hand.kept", locale, jars=kept))
        elif private.get("offer"):
            lines.append(t("noctiluca.hand.offer", locale))
            lines += [f"- {jar_summary(j, locale)}" for j in private["hand"]]
        seat = self._seat_of(view)
        if seat is not None and public.get("seats"):
            jars = public["seats"][seat]["jars"]
            if jars:
                lines.append(t("noctiluca.hand.jars", locale))
                lines += [f"- {jar_progress(j, locale)}" for j in jars]
        return "\n".join(lines)

    @staticmethod
    def _seat_of(view: Mapping[str, Any]) -> int | None:
        seat = view.get("private", {}).get("seat")
        return seat if isinstance(seat, int) else None

    def outcome_lines(self, outcome: Outcome, names: list[str], locale: str) -> list[str]:
        lines = [t("noctiluca.outcome.title", locale)]
        for seat, detail in enumerate(outcome.details):
            shown = [p for p in PARTS if p in detail]
            if detail.get("resignation"):
                shown.append("resignation")
            parts = listing(
                [t(f"noctiluca.part.{p.replace(' ', '-')}", locale, points=detail[p]) for p in shown], locale
            )
            lines.append(
                t(
                    "noctiluca.outcome.line",
                    locale,
                    name=names[seat] if seat < len(names) else "?",
                    total=detail["total"],
                    parts=parts,
                    jars=detail["delivered jars"],
                    colour=colour_name(detail["favourite colour"], locale),
                )
            )
        if len(outcome.details) == 1:
            key = "noctiluca.outcome.solo-won" if outcome.winners else "noctiluca.outcome.solo-lost"
            lines.append(t(key, locale, total=outcome.scores[0]))
        else:
            winners = listing((names[w] if w < len(names) else "?" for w in outcome.winners), locale)
            key = "noctiluca.outcome.shared" if len(outcome.winners) > 1 else "noctiluca.outcome.winner"
            lines.append(t(key, locale, names=winners))
        return lines

    # A turn is the diver's: the passing round and the deliveries of others are steps of it.
    turn_follows_movers = False

    def turn_started(self, events: Sequence[Event], before: NoctilucaPublic, after: NoctilucaPublic) -> bool:
        """The engine says when a diver's turn begins (event ``turn``; solo, every dive)."""
        return any(event.get("type") == "turn" for event in events)

    def push_events(self) -> set[str]:
        return {"jars drawn"}

    def choice_help(self, view: Mine, seat: int, locale: str) -> str | None:
        return help_line(self.game_id, view.get("public", {}).get("phase", ""), locale)


def _colour(die: str) -> str:
    return {"o": "orange", "g": "green", "p": "purple", "b": "blue"}[die[0]]


ADAPTER = NoctilucaAdapter()
