"""The Fox in the Forest Duet in words, for Discord."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import Action, Event, Outcome, View
from engine.fox_duet import FoxDuetPrivate, FoxDuetPublic
from l10n.typography import shortened
from l10n.words import aside, listing, t
from services.wording import GameAdapter, SeenView, help_line

# What choices are worded from (a seat's or a spectator's view), and a seat's own view.
Seen = SeenView[FoxDuetPublic, FoxDuetPrivate]
Mine = View[FoxDuetPublic, FoxDuetPrivate]

SUIT_EMOJI = {"dove": "\N{DOVE OF PEACE}", "rose": "\N{ROSE}", "star": "\N{WHITE MEDIUM STAR}"}
PRIVATE_VERBS = {"play", "swap", "give"}


def card_name(card: Mapping[str, Any], locale: str) -> str:
    """``Rose 7 (Gift)``: suit, rank and ability name (of a view's card, or one made by ``card_from_id``)."""
    suit = t(f"fox-duet.suit.{card['suit']}", locale)
    text = t("fox-duet.card", locale, suit=suit, rank=card["rank"])
    if card.get("ability"):
        text = aside(text, t(f"fox-duet.ability.{card['ability']}", locale), locale)  # "玫瑰 7（禮物）"
    return text


def seat_name(names: Sequence[str], seat: int, locale: str) -> str:
    return names[seat] if 0 <= seat < len(names) else t("player.fallback", locale, number=seat + 1)


def card_from_id(card_id: str) -> dict[str, Any]:
    suit, _, rank = card_id.partition("-")
    abilities = {1: "musician", 3: "fox", 5: "gazelle", 7: "gift", 9: "royal"}
    number = int(rank) if rank.isdigit() else 0
    return {"id": card_id, "suit": suit, "rank": number, "ability": abilities.get(number)}


class FoxDuetAdapter(GameAdapter[FoxDuetPublic, Seen, Mine]):
    game_id = "fox-duet"

    def _end(self, seat: int, names: Sequence[str], locale: str) -> str:
        if 0 <= seat < len(names):
            return t("fox-duet.end", locale, name=names[seat])
        return t("fox-duet.end", locale, name=t("player.fallback", locale, number=seat + 1))

    def action_label(self, action: Action, view: Seen, locale: str, names: Sequence[str] = ()) -> str:
        verb, args = action.verb, action.args
        public = view.get("public", {})
        if verb in ("play", "swap", "give") and args and args[0] != "none":
            card = self._card_in_view(args[0], view)
            return t(f"fox-duet.action.{verb}", locale, card=card_name(card, locale))
        if verb == "swap":
            return t("fox-duet.action.keep-decree", locale)
        if verb == "fox-pick":
            return t(f"fox-duet.action.fox-pick.{args[0]}", locale)
        if verb == "ignore":
            if args[0] in ("none", "both"):
                return t(f"fox-duet.action.ignore-{args[0]}", locale)
            return t("fox-duet.action.ignore", locale, card=card_name(self._card_in_view(args[0], view), locale))
        if verb == "toward":
            return t("fox-duet.action.toward", locale, end=self._end(int(args[0]), names, locale))
        if verb == "forest":
            end = int(args[0].split("=")[1])
            return t("fox-duet.action.forest", locale, end=self._end(end, names, locale))
        if verb == "concede":
            return t("fox-duet.action.concede", locale)
        del public
        return action.text

    def action_description(self, action: Action, view: Seen, locale: str) -> str | None:
        if action.verb in ("play", "swap", "give") and action.args and action.args[0] != "none":
            card = self._card_in_view(action.args[0], view)
            parts = [t("fox-duet.footprints", locale, count=card.get("footprints", 0))]
            if card.get("ability"):
                parts.append(t(f"fox-duet.ability.{card['ability']}.summary", locale))
            return shortened(" · ".join(parts), 100)
        return None

    def action_emoji(self, action: Action, view: Seen) -> str | None:
        if action.verb in ("play", "swap", "give") and action.args and action.args[0] != "none":
            return SUIT_EMOJI.get(action.args[0].split("-")[0])
        return None

    def action_is_private(self, action: Action) -> bool:
        return action.verb in PRIVATE_VERBS

    def _card_in_view(self, card_id: str, view: Mapping[str, Any]) -> Mapping[str, Any]:
        for card in view.get("private", {}).get("hand", []):
            if card["id"] == card_id:
                return card
        public = view.get("public", {})
        for played in public.get("trick_cards", []):
            if played["card"]["id"] == card_id:
                return played["card"]
        return card_from_id(card_id)

    def describe_event(self, event: Event, names: list[str], locale: str) -> str | None:
        kind = event["type"]

        def name(key: str = "seat") -> str:
            seat = event.get(key)
            return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

        if kind == "starting player":
            return t("fox-duet.event.starting-player", locale, name=name())
        if kind == "deal":
            if "hand" in event:
                cards = listing([card_name(c, locale) for c in event["hand"]], locale)
                return t("fox-duet.event.your-deal", locale, round=event["round"], cards=cards)
            trump = t(f"fox-duet.suit.{event['decree']['suit']}", locale)
            return t(
                "fox-duet.event.deal",
                locale,
                round=event["round"],
                dealer=name("dealer"),
                card=card_name(event["decree"], locale),
                trump=trump,
                leader=name("leader"),
            )
        if kind == "card played":
            if event.get("card") is None:  # a card of an earlier trick of this round, kept hidden
                return t("fox-duet.event.played-hidden", locale, name=name())
            key = "fox-duet.event.led" if event.get("lead") else "fox-duet.event.followed"
            return t(key, locale, name=name(), card=card_name(event["card"], locale))
        if kind == "fox picked":
            return t("fox-duet.event.fox-picked", locale, name=name(), chooser=name("chooser"))
        if kind == "decree swapped":
            trump = t(f"fox-duet.suit.{event['new']['suit']}", locale)
            return t(
                "fox-duet.event.decree-swapped",
                locale,
                name=name(),
                old=card_name(event["old"], locale),
                new=card_name(event["new"], locale),
                trump=trump,
            )
        if kind == "decree kept":
            return t(f"fox-duet.event.decree-kept.{event.get('reason', 'chose')}", locale, name=name())
        if kind == "gift chosen":
            return t("fox-duet.event.gift-chosen", locale, card=card_name(event["card"], locale))
        if kind == "gift exchanged":
            return t(
                "fox-duet.event.gift-exchanged",
                locale,
                given=card_name(event["given"], locale),
                received=card_name(event["received"], locale),
            )
        if kind == "gift skipped":
            return t("fox-duet.event.gift-skipped", locale)
        if kind == "footprints ignored":
            if event.get("ignored") is None:  # hidden with the trick's cards
                return t("fox-duet.event.ignored-hidden", locale, name=name(), steps=event["steps"])
            ignored = event.get("ignored") or []
            if not ignored:
                return t("fox-duet.event.ignored-none", locale, name=name(), steps=event["steps"])
            cards = listing([card_name(c, locale) for c in ignored], locale)
            return t("fox-duet.event.ignored", locale, name=name(), cards=cards, steps=event["steps"])
        if kind == "direction chosen":
            return t("fox-duet.event.direction", locale, name=name(), end=self._end(event["toward"], names, locale))
        if kind == "trick won":
            return t(
                "fox-duet.event.trick-won",
                locale,
                name=name("winner"),
                trick=event["trick"],
                steps=event["steps"],
                end=self._end(event["toward"], names, locale),
            )
        if kind == "overshoot":
            return t("fox-duet.event.overshoot", locale, end=self._end(event["toward"], names, locale))
        if kind == "forest token placed":
            key = "fox-duet.event.forest-overshoot" if event["cause"] == "overshoot" else "fox-duet.event.forest-round"
            return t(key, locale, end=self._end(event["end"], names, locale), left=event["left"])
        if kind == "gems slid":
            return t("fox-duet.event.gems-slid", locale, count=event["count"])
        if kind == "gem collected":
            return t("fox-duet.event.gem", locale, left=event["gems_on_board"], collected=event["collected"])
        if kind == "round ended":
            return t("fox-duet.event.round-ended", locale, round=event["round"])
        if kind == "gems added":
            count = sum(a["count"] for a in event.get("added", []))
            return t("fox-duet.event.gems-added", locale, count=count) if count else None
        if kind == "game won":
            return t("fox-duet.event.won", locale, score=event["score"], round=event["round"])
        if kind == "game lost":
            return t(f"fox-duet.event.lost.{event['reason']}", locale, name=name())
        return None

    def status(self, public: FoxDuetPublic, locale: str) -> str:
        return t(
            "fox-duet.status",
            locale,
            round=public["round"],
            trick=public["trick"],
            gems=public["gems_on_board"],
            tokens=public["forest_tokens_left"],
        )

    def prompt(self, public: FoxDuetPublic, mentions: list[str], locale: str) -> str:
        who = " ".join(mentions)
        phase = public.get("phase", "play")
        return self.status(public, locale) + "\n" + t(f"fox-duet.prompt.{phase}", locale, who=who)

    def hand_text(self, view: Mine, locale: str) -> str:
        private = view.get("private", {})
        hand = private.get("hand", [])
        public = view.get("public", {})
        lines = []
        if public.get("decree"):
            trump = t(f"fox-duet.suit.{public['decree']['suit']}", locale)
            lines.append(t("fox-duet.hand.trump", locale, trump=trump, card=card_name(public["decree"], locale)))
        if hand:
            lines.append(
                t(
                    "fox-duet.hand.cards",
                    locale,
                    count=len(hand),
                    cards=listing([card_name(c, locale) for c in hand], locale),
                )
            )
        else:
            lines.append(t("fox-duet.hand.empty", locale))
        if gift := private.get("gift"):
            lines.append(t("fox-duet.hand.gift", locale, card=card_name(gift, locale)))
        return "\n".join(lines)

    def board_facts(self, public: FoxDuetPublic, names: Sequence[str], locale: str) -> list[str]:
        facts = [
            t(
                "fox-duet.alt.path",
                locale,
                space=public.get("tracker", 0) + 1,
                spaces=len(public.get("spaces", [])),
                gems=public.get("gems_collected", 0),
            )
        ]
        if public.get("decree"):
            facts.append(t("fox-duet.alt.decree", locale, card=card_name(public["decree"], locale)))
        played = [
            t(
                "fox-duet.alt.played",
                locale,
                name=seat_name(names, entry["seat"], locale),
                card=card_name(entry["card"], locale),
            )
            for entry in public.get("trick_cards", [])
        ]
        if played:
            facts.append(t("fox-duet.alt.trick", locale, cards=listing(played, locale)))
        return facts

    def start_notice(self, locale: str) -> str | None:
        return t("fox-duet.table-talk", locale)

    def outcome_lines(self, outcome: Outcome, names: list[str], locale: str) -> list[str]:
        details = outcome.details[0] if outcome.details else {}
        if outcome.winners:
            parts = listing(
                [
                    t(f"fox-duet.score.{k.replace(' ', '-')}", locale, value=v)
                    for k, v in details.items()
                    if k != "total"
                ],
                locale,
            )
            return [t("fox-duet.outcome.won", locale, score=outcome.scores[0], parts=parts)]
        return [t("fox-duet.outcome.lost", locale)]

    def option_label(self, name: str, value: object, locale: str) -> str:
        if name in ("level", "memory"):
            return t(f"fox-duet.option.{name}.{value}", locale)
        return f"{name}: {value}"

    def option_name(self, name: str, locale: str) -> str:
        if name in ("level", "memory"):
            return t(f"fox-duet.option.{name}", locale)
        return name

    def turn_started(self, events: Sequence[Event], before: FoxDuetPublic, after: FoxDuetPublic) -> bool:
        """A new round (a new deal) is a new turn; a trick won and led by the same seat is not."""
        return before.get("round") != after.get("round")

    def push_events(self) -> set[str]:
        return {"deal", "gift exchanged"}

    # -- earlier tricks stay hidden during a round (rules version 2, without the memory aid) ------
    @staticmethod
    def _hiding(public: FoxDuetPublic) -> bool:
        return not public.get("memory_aid", True) and public.get("phase") != "over"

    @staticmethod
    def _round_start(steps: Sequence[tuple[int, list[Event]]]) -> int:
        """The version the current round's boards start at: the step after the last round's end."""
        ends = [version for version, events in steps if any(e["type"] == "round ended" for e in events)]
        return ends[-1] if ends else 0

    def log_events(self, steps: Sequence[tuple[int, list[Event]]], public: FoxDuetPublic) -> list[list[Event]]:
        """「每輪遊戲進行時，玩家無法查看先前牌墩」: the log tells the round's tricks (who won, how far
        the tracker moved) but not their cards until the round ends."""
        if not self._hiding(public):
            return [events for _, events in steps]
        start = self._round_start(steps)
        return [events if version < start else [hide_cards(e) for e in events] for version, events in steps]

    def hidden_boards(self, steps: Sequence[tuple[int, list[Event]]], public: FoxDuetPublic) -> range:
        """The past boards of the current round show its earlier tricks: hidden until it ends
        (the current board is always shown)."""
        if not self._hiding(public) or not steps:
            return range(0)
        return range(self._round_start(steps), steps[-1][0])

    def choice_help(self, view: Mine, seat: int, locale: str) -> str | None:
        public = view.get("public", {})
        step = public.get("phase", "play")
        values: dict[str, object] = {}
        if step == "play":
            trick = public.get("trick_cards") or []
            if not trick:
                step = "play-lead"
            elif trick[0]["card"].get("ability") == "royal":  # a led royal lifts the duty to follow
                step = "play-free"
            else:
                step = "play-follow"
                values["suit"] = t(f"fox-duet.suit.{trick[0]['card']['suit']}", locale)
        return help_line(self.game_id, step, locale, **values)


def hide_cards(event: Event) -> Event:
    """The event without the cards of a trick (for the log of a round in progress)."""
    if event["type"] == "card played":
        return {**event, "card": None}
    if event["type"] == "footprints ignored" and event.get("ignored"):
        return {**event, "ignored": None}
    return event


ADAPTER = FoxDuetAdapter()
