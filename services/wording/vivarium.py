"""Vivarium in words, for Discord: the turn's steps, the cards, the round's end, the score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import Action, Event, Outcome, View
from engine.vivarium import CardView, PriorityView, VivariumPrivate, VivariumPublic
from l10n.typography import shortened
from l10n.words import listing, t
from render.vivarium.card_pictures import name_of
from services.wording import GameAdapter, SeenView, help_line

# What choices are worded from (a seat's or a spectator's view), and a seat's own view.
Seen = SeenView[VivariumPublic, VivariumPrivate]
Mine = View[VivariumPublic, VivariumPrivate]

TYPE_EMOJI = {"animal": "\N{PAW PRINTS}", "plant": "\N{HERB}", "mineral": "\N{ROCK}", "dragon": "\N{DRAGON}"}
GEM = "\N{GEM STONE}"
SWAP = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}"
EQUIPMENT = "\N{WRENCH}"
CONTRACT = "\N{SCROLL}"
# Choices offered in a menu when there are several: their labels name a card or two dominoes.
MENU_VERBS = ("take", "adjust")


def domino(numbers: list[int]) -> str:
    return f"[{numbers[0]}|{numbers[1]}]"


def filter_text(flt: Mapping[str, Any], locale: str) -> str:
    """``forest animal``, ``lamp``, ``3-point creature``: what a filter counts, in the locale's word order."""
    habitat = t(f"vivarium.habitat.{flt['habitat']}", locale) if "habitat" in flt else None
    kind = t(f"vivarium.type.{flt['type']}", locale) if "type" in flt else None
    if "points" in flt:
        return t("vivarium.filter.points-creature", locale, points=flt["points"])
    if habitat is not None and kind is not None:
        return t("vivarium.filter.habitat-type", locale, habitat=habitat, type=kind)
    if "icon" in flt:
        return t(f"vivarium.icon.{flt['icon']}", locale)
    return habitat or kind or ""


def goal_text(goal: Mapping[str, Any], locale: str) -> str:
    kind = goal["kind"]
    if kind in ("count", "total"):
        what = filter_text(goal["filter"], locale) if kind == "count" else t("vivarium.goal.creature-points", locale)
        tiers = listing([t("vivarium.goal.tier", locale, least=a, points=p) for a, p in goal["tiers"]], locale)
        return t("vivarium.goal.count", locale, what=what, tiers=tiers)
    if kind == "per":
        return t("vivarium.goal.per", locale, points=goal["points"], what=filter_text(goal["filter"], locale))
    if kind == "sets":
        return t(f"vivarium.goal.sets.{goal['of']}", locale, points=goal["points"])
    first, second = (filter_text(f, locale) for f in goal["filters"])
    return t("vivarium.goal.pairs", locale, points=goal["points"], first=first, second=second)


def ability_text(ability: Mapping[str, Any], locale: str) -> str:
    kind = ability["kind"]
    values = {k: v for k, v in ability.items() if k in ("points", "every")}
    if "filter" in ability:
        values["what"] = filter_text(ability["filter"], locale)
    return t(f"vivarium.ability.{kind}", locale, **values)


def card_name(card: CardView, locale: str) -> str:
    """``Shadow Stag (forest animal, 3 pts)``, ``Spyglass (lens equipment)``, ``Herd Permit (contract)``."""
    if card["kind"] == "creature":
        return t(
            "vivarium.card.creature",
            locale,
            name=name_of(card, locale),
            habitat=t(f"vivarium.habitat.{card['habitat']}", locale),
            type=t(f"vivarium.type.{card['type']}", locale),
            points=card["points"],
        )
    if card["kind"] == "equipment":
        return t(
            "vivarium.card.equipment",
            locale,
            name=name_of(card, locale),
            icon=t(f"vivarium.icon.{card['icon']}", locale),
        )
    return t("vivarium.card.contract", locale, name=name_of(card, locale, "contract"))


def card_detail(card: CardView, locale: str) -> str:
    if card["kind"] == "equipment":
        return t("vivarium.detail.equipment", locale, gems=card["gems"], ability=ability_text(card["ability"], locale))
    if card["kind"] == "contract":
        return goal_text(card["goal"], locale)
    return t("vivarium.detail.creature", locale, points=card["points"])


def priority_name(token: PriorityView | None, locale: str) -> str:
    if token is None:
        return t("vivarium.priority.none", locale)
    icon = token.get("icon")
    if not icon:
        return t("vivarium.priority.blank", locale)
    return filter_text(icon, locale)


class VivariumAdapter(GameAdapter[VivariumPublic, Seen, Mine]):
    game_id = "vivarium"

    # -- choices ----------------------------------------------------------------------------
    def _me(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        public = view.get("public", {})
        current = public.get("current")
        players = public.get("players_info", [])
        return players[current] if isinstance(current, int) and 0 <= current < len(players) else {}

    def _token(self, token_id: str, view: Mapping[str, Any]) -> list[int]:
        public = view.get("public", {})
        tokens = [*public.get("middle", []), *([public["facedown"]] if public.get("facedown") else [])]
        for player in public.get("players_info", []):
            tokens += player.get("tokens", [])
        for token in tokens:
            if token["id"] == token_id:
                return list(token.get("now", token["numbers"]))
        return [0, 0]

    def _cell(self, action: Action, view: Mapping[str, Any]) -> tuple[int, int, CardView | None]:
        row, col = (int(a.split("=")[1]) for a in action.args)
        grid = view.get("public", {}).get("grid", [])
        card = grid[row - 1][col - 1] if len(grid) >= row and len(grid[row - 1]) >= col else None
        return row, col, card

    def action_label(self, action: Action, view: Seen, locale: str, names: Sequence[str] = ()) -> str:
        verb, args = action.verb, action.args
        if verb == "swap":
            mine, theirs = (a.split("=")[1] for a in args)
            label = t(
                "vivarium.action.swap",
                locale,
                mine=domino(self._token(mine, view)),
                theirs=domino(self._token(theirs, view)),
            )
        elif verb == "adjust":
            now = self._token(args[0], view)
            old, new = (int(a.split("=")[1]) for a in args[1:])
            before, after = list(now), list(now)
            if old in now:  # not applied yet: the usual case, a choice being offered
                after[after.index(old)] = new
            elif new in now:  # already applied: the "Done" line after the move
                before[before.index(new)] = old
            label = t("vivarium.action.adjust", locale, before=domino(before), after=domino(after))
        elif verb == "take":
            row, col, card = self._cell(action, view)
            if card is None:  # already taken: the "Done" line after the move
                label = t("vivarium.action.take-cell", locale, row=row, col=col)
            else:
                label = t("vivarium.action.take", locale, row=row, col=col, card=card_name(card, locale))
        elif verb == "gems":
            label = t("vivarium.action.gems", locale)
        elif verb == "clear":
            label = t("vivarium.action.clear", locale, col=action.args[0].split("=")[1])
        elif verb == "skip":
            label = t("vivarium.action.skip", locale)
        else:
            label = action.text
        return shortened(label, 80)

    def action_description(self, action: Action, view: Seen, locale: str) -> str | None:
        if action.verb == "take":
            _, _, card = self._cell(action, view)
            return shortened(card_detail(card, locale), 100) if card else None
        if action.verb == "adjust":
            return shortened(t("vivarium.action.adjust.cost", locale, gems=self._me(view).get("gems", 0)), 100)
        return None

    def action_emoji(self, action: Action, view: Seen) -> str | None:
        if action.verb == "take":
            _, _, card = self._cell(action, view)
            if card is None:
                return None
            if card["kind"] == "creature":
                return TYPE_EMOJI.get(card.get("type") or "")
            return EQUIPMENT if card["kind"] == "equipment" else CONTRACT
        if action.verb in ("gems", "adjust"):
            return GEM
        if action.verb == "swap":
            return SWAP
        return None

    def action_is_private(self, action: Action) -> bool:
        return False  # every choice is made in the open: tokens, grid and gems are public

    def choice_groups(self, actions: list[Action], view: Seen, locale: str) -> list[tuple[str, list[Action]]]:
        """Step 2 offers up to 8 cards, 7 shifts of a number and the gems: the cards in one menu
        (each with its details), the shifts in another, the rest as buttons; 3 rows, not 4 of
        long buttons that a phone shows one per line."""
        groups = [(verb, chosen) for verb in MENU_VERBS if len(chosen := [a for a in actions if a.verb == verb]) > 1]
        grouped = {a.text for _, chosen in groups for a in chosen}
        rest = [a for a in actions if a.text not in grouped]
        return [*groups, ("", rest)] if rest else groups

    # -- events -----------------------------------------------------------------------------
    def describe_event(self, event: Event, names: list[str], locale: str) -> str | None:
        kind = event["type"]

        def name(key: str = "seat") -> str:
            seat = event.get(key)
            return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

        if kind == "first player":
            return t("vivarium.event.first-player", locale, name=name())
        if kind == "setup":
            return t("vivarium.event.setup", locale, next=priority_name(event["priority_next"], locale))
        if kind == "starting contracts":
            return t("vivarium.event.starting", locale)
        if kind == "swap":
            return t(
                "vivarium.event.swap",
                locale,
                name=name(),
                gave=domino(event["gave"]["numbers"]),
                took=domino(event["took"]["numbers"]),
            )
        if kind == "gem spent":
            before = list(event["numbers"])
            before[before.index(event["after"])] = event["before"]
            return t(
                "vivarium.event.gem-spent",
                locale,
                name=name(),
                before=domino(before),
                after=domino(event["numbers"]),
            )
        if kind == "gems taken":
            return t("vivarium.event.gems", locale, name=name(), count=event["count"], total=event["gems"])
        if kind == "card taken":
            line = t(
                "vivarium.event.taken",
                locale,
                name=name(),
                card=card_name(event["card"], locale),
                row=event["row"],
                col=event["col"],
            )
            if event.get("gems"):
                line += " " + t("vivarium.event.taken.gems", locale, count=event["gems"])
            if event.get("priority_gem"):
                line += " " + t("vivarium.event.taken.priority", locale)
            return line
        if kind == "ability":
            card = name_of(event["card"], locale)
            if event.get("skipped"):
                return t("vivarium.event.ability.skipped", locale, name=name(), card=card)
            if event.get("unused"):
                return t("vivarium.event.ability.unused", locale, card=card)
            if event["ability"] == "gems-per":
                return t("vivarium.event.ability.gems", locale, name=name(), card=card, count=event["gems"])
            return t("vivarium.event.ability.swap", locale, name=name(), card=card)
        if kind == "column cleared":
            if event["cause"] == "ability":
                return t(
                    "vivarium.event.cleared.ability",
                    locale,
                    name=name(),
                    card=name_of(event["card"], locale),
                    col=event["col"],
                    count=len(event["cards"]),
                )
            return t("vivarium.event.cleared.two-player", locale, col=event["col"], count=len(event["cards"]))
        if kind == "priority awarded":
            token = priority_name(event["token"], locale)
            if event["seat"] is None:
                return t("vivarium.event.priority.nobody", locale, round=event["round"], token=token)
            return t(
                "vivarium.event.priority",
                locale,
                round=event["round"],
                name=name(),
                token=token,
                count=event["counts"][event["seat"]],
            )
        if kind == "round ended":
            return t("vivarium.event.round-ended", locale, name=name("first"))
        if kind == "tokens flipped":
            return t(
                "vivarium.event.flipped",
                locale,
                revealed=domino(event["revealed"]["numbers"]),
                hidden=domino(event["hidden"]["numbers"]),
            )
        if kind == "grid refilled":
            return t("vivarium.event.refilled", locale, count=len(event["cards"])) if event["cards"] else None
        if kind == "priority revealed":
            return t(
                "vivarium.event.priority-revealed",
                locale,
                round=event["round"],
                current=priority_name(event["current"], locale),
                next=priority_name(event["next"], locale),
            )
        if kind == "game over":
            key = (
                "vivarium.event.game-over-resigned" if event.get("resigned") is not None else "vivarium.event.game-over"
            )
            return t(key, locale)
        return None

    def status(self, public: VivariumPublic, locale: str) -> str:
        priority = public.get("priority", {})
        return t(
            "vivarium.status",
            locale,
            round=public["round"],
            rounds=public["rounds"],
            turn=public["turn"],
            current=priority_name(priority.get("current"), locale),
            next=priority_name(priority.get("next"), locale),
        )

    def prompt(self, public: VivariumPublic, mentions: list[str], locale: str) -> str:
        who = " ".join(mentions)
        status = self.status(public, locale)
        phase = public.get("phase", "swap")
        if phase == "ability":
            pending = public.get("pending", {})
            card = pending.get("card", {})
            return (
                status
                + "\n"
                + t(
                    f"vivarium.prompt.ability.{pending.get('ability')}",
                    locale,
                    who=who,
                    card=name_of(card, locale, "equipment") if "id" in card else "?",  # in the board's language
                )
            )
        return status + "\n" + t(f"vivarium.prompt.{phase}", locale, who=who)

    def hand_text(self, view: Mine, locale: str) -> str:
        private = view.get("private", {})
        lines = [t("vivarium.hand.title", locale)]
        for contract in private.get("contracts", []):
            progress = contract.get("progress", {})
            lines.append(
                t(
                    "vivarium.hand.contract",
                    locale,
                    name=name_of(contract, locale, "contract"),
                    goal=goal_text(contract["goal"], locale),
                    have=progress.get("have", 0),
                    points=progress.get("points", 0),
                )
            )
        return "\n".join(lines)

    def outcome_lines(self, outcome: Outcome, names: list[str], locale: str) -> list[str]:
        lines = [t("vivarium.outcome.title", locale)]
        order = sorted(range(len(outcome.scores)), key=lambda s: -outcome.scores[s])
        for seat in order:
            d = outcome.details[seat] if seat < len(outcome.details) else {}
            lines.append(
                t(
                    "vivarium.outcome.line",
                    locale,
                    name=names[seat] if seat < len(names) else "?",
                    total=outcome.scores[seat],
                    creatures=d.get("creatures", 0),
                    gems=d.get("gems", 0),
                    priority=d.get("priority tokens", 0),
                    contracts=d.get("contracts", 0),
                    starting=d.get("starting contracts", 0),
                    equipment=d.get("equipment", 0),
                )
                + (
                    " " + t("vivarium.outcome.resigned", locale, points=d["resignation"])
                    if d.get("resignation")
                    else ""
                )
            )
        winners = listing((names[s] for s in outcome.winners if s < len(names)), locale)
        key = "vivarium.outcome.shared" if len(outcome.winners) > 1 else "vivarium.outcome.winner"
        lines.append(t(key, locale, names=winners))
        return lines

    def board_facts(self, public: VivariumPublic, names: Sequence[str], locale: str) -> list[str]:
        facts = []
        for seat, player in enumerate(public.get("players_info", [])):
            parts = [
                t("vivarium.alt.gems", locale, count=player.get("gems", 0)),
                t("vivarium.alt.creature-points", locale, points=player.get("creature_points", 0)),
                t(
                    "vivarium.alt.cards",
                    locale,
                    count=len(player.get("collection", [])) + len(player.get("contracts", [])),
                ),
                t("vivarium.alt.priority", locale, count=len(player.get("priority", []))),
            ]
            name = names[seat] if seat < len(names) else "?"
            facts.append(t("vivarium.alt.player", locale, name=name, parts=listing(parts, locale)))
        middle = [domino(token["numbers"]) for token in public.get("middle", [])]
        if middle:
            facts.append(t("vivarium.alt.middle", locale, tokens=listing(middle, locale)))
        if public.get("phase") in ("take", "ability"):
            grid = public.get("grid", [])
            cells = []
            for row, col in public.get("reachable", []):
                card = grid[row - 1][col - 1] if len(grid) >= row and len(grid[row - 1]) >= col else None
                if card is not None:
                    cells.append(t("vivarium.alt.cell", locale, row=row, col=col, card=card_name(card, locale)))
            if cells:
                facts.append(t("vivarium.alt.reachable", locale, cards=t("alt.list-separator", locale).join(cells)))
        return facts

    def turn_started(self, events: Sequence[Event], before: VivariumPublic, after: VivariumPublic) -> bool:
        """Each turn of a round is a turn (the same seat may take two in a row)."""
        return (before.get("round"), before.get("turn")) != (after.get("round"), after.get("turn"))

    def push_events(self) -> set[str]:
        return {"starting contracts"}

    def choice_help(self, view: Mine, seat: int, locale: str) -> str | None:
        return help_line(self.game_id, view.get("public", {}).get("phase", ""), locale)


ADAPTER = VivariumAdapter()
