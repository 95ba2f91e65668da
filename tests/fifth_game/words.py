"""Tiny Duel in words: its wording adapter (``services.wording.GameAdapter``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Action, Event, Outcome
from l10n.words import listing, t
from services.wording import GameAdapter
from tests.fifth_game.engine import GAME_ID, value_of


class TinyDuelAdapter(GameAdapter):
    game_id = GAME_ID

    def action_label(self, action: Action, view: dict, locale: str, names: Sequence[str] = ()) -> str:
        return t("tiny-duel.action.play", locale, card=value_of(action.args[0]))

    def action_is_private(self, action: Action) -> bool:
        return True  # the choices are the cards of a hidden hand

    def describe_event(self, event: Event, names: list[str], locale: str) -> str | None:
        seat = event.get("seat")
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        if event["type"] == "starting player":
            return t("tiny-duel.event.starting-player", locale, name=name)
        if event["type"] == "deal":
            cards = listing([str(value_of(card)) for card in event["cards"]], locale)
            return t("tiny-duel.event.your-deal", locale, cards=cards)
        if event["type"] == "card played":
            return t("tiny-duel.event.card-played", locale, name=name, card=value_of(event["card"]))
        if event["type"] == "trick won":
            return t("tiny-duel.event.trick-won", locale, name=name)
        return None

    def status(self, public: dict, locale: str) -> str:
        return t("tiny-duel.status", locale, number=public["trick_number"])

    def prompt(self, public: dict, mentions: list[str], locale: str) -> str:
        key = "tiny-duel.prompt.lead" if not public["trick"] else "tiny-duel.prompt.answer"
        return self.status(public, locale) + "\n" + t(key, locale, who=" ".join(mentions))

    def hand_text(self, view: dict, locale: str) -> str:
        cards = listing([str(card["value"]) for card in view.get("private", {}).get("hand", [])], locale)
        return t("tiny-duel.hand", locale, cards=cards)

    def outcome_lines(self, outcome: Outcome, names: list[str], locale: str) -> list[str]:
        winners = listing([names[seat] for seat in outcome.winners], locale)
        return [t("tiny-duel.outcome", locale, names=winners, count=max(outcome.scores))]

    def board_facts(self, public: dict, names: Sequence[str], locale: str) -> list[str]:
        return [
            t("tiny-duel.alt.tricks", locale, name=names[seat], count=public["tricks"][seat])
            for seat in range(min(2, len(names)))
        ]

    def push_events(self) -> set[str]:
        return {"deal"}
