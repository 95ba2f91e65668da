"""TMDiceState: set-up, the contract hooks and the loop that runs the stack of steps.

Stages: ``corp`` (every seat secretly keeps 1 of its 2 corporations, all at once), ``play``
(the stack of steps in ``queue``; see steps.py) and ``over`` (``resigned``: the seat that
resigned, if one did; docs/ENGINE-EXTENSIONS.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import Action, Event, Game, IllegalAction, Outcome, Saved, State, event, illegal
from engine.rng import Rng
from engine.tm_dice import board, effects, scoring, steps
from engine.tm_dice.content import (
    BONUS_CARDS,
    CARD_IDS,
    COLOURS,
    CORPORATIONS,
    DICE_PER_COLOUR,
    MILESTONES,
    PARAMETERS,
    RULES,
    SOLO_SETUP,
    WILD_TOKENS,
    card_view,
    corporation_view,
)
from engine.tm_dice.dice import roll
from engine.tm_dice.records import Player, Task, Tile

if TYPE_CHECKING:
    from engine.tm_dice.views import TMDicePrivate, TMDicePublic

MAX_CHOICES = 25
PAGE = MAX_CHOICES - 1
STAGES = ("corp", "play", "over")


def new_seat() -> Player:
    return {
        "corp": None,
        "offer": [],
        "hand": [],
        "dice": {},
        "wild": 0,
        "vp": 0,
        "red": [],
        "blue": [],
        "green": [],
        "used": [],
        "bonus": [],
        "thresholds": [],
        "productions": 0,
    }


class TMDiceState(State["TMDicePublic", "TMDicePrivate"]):
    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.players = players
        self.version = 0
        self.rng = Rng(0)
        self.stage = "corp"
        self.temperature = 0
        self.oxygen = 0
        self.oceans = 0
        self.tiles: dict[str, Tile] = {}
        self.pool = {c: DICE_PER_COLOUR for c in COLOURS}
        self.wild_supply = WILD_TOKENS
        self.deck: list[str] = []
        self.discard: list[str] = []
        # The cards the discard pile held when it was last shuffled into a new deck (None: never,
        # the deck is the one dealt from at the start). Every discard is public, so everyone
        # knows them: cards drawn since come from them, and the cards the others held at that
        # moment are still in their hands unless seen played or discarded (determinize).
        self.reshuffled: list[str] | None = None
        self.bonus_deck: list[str] = []
        self.awards: list[str] = []
        self.milestones: list[str] = []
        self.claimed: dict[str, int] = {}
        self.removed: list[str] = []
        self.seats = [new_seat() for _ in range(players)]
        self.first = 0
        self.current = 0
        self.turn = 0
        self.end_at: int | None = None
        self.queue: list[Task] = []
        self.result: dict[str, Any] | None = None
        self.resigned: int | None = None
        self.setup_events: list[Event] = []

    # -- set-up ------------------------------------------------------------------------------
    def setup(self, seed: int) -> None:
        self.rng = Rng(seed)
        events: list[Event] = []
        if self.players == 1:
            solo = RULES["solo"]
            for p in PARAMETERS:
                setattr(self, p, solo["start"][p])
            for role in ("city", "ocean", "greenery"):
                self.tiles[SOLO_SETUP[role]] = {"tile": role, "owner": None}
            self.end_at = solo["turns"]
        self.deck = list(CARD_IDS)
        self.rng.shuffle(self.deck)
        self.bonus_deck = self.rng.sample(sorted(BONUS_CARDS), RULES["bonus_cards_by_players"][str(self.players)])
        award_colours = self.rng.sample(list(COLOURS), 3)
        self.awards = [roll(self.rng, c) for c in award_colours]
        for c in award_colours:  # the award dice stay on the board, out of the pool
            self.pool[c] -= 1
        events.append(
            event(
                "awards rolled",
                None,
                awards=[{"colour": c, "face": f} for c, f in zip(award_colours, self.awards, strict=True)],
            )
        )
        self.milestones = self.rng.sample(sorted(MILESTONES), 3)
        events.append(event("milestones drawn", None, milestones=list(self.milestones)))
        corps = sorted(CORPORATIONS)
        self.rng.shuffle(corps)
        for seat, player in enumerate(self.seats):
            player["hand"] = [self.deck.pop() for _ in range(RULES["starting_cards"])]
            n = RULES["corporations_dealt"]
            player["offer"] = corps[seat * n : seat * n + n]
            events.append(
                event(
                    "dealt",
                    [seat],
                    seat=seat,
                    hand=[card_view(c) for c in player["hand"]],
                    corporations=[corporation_view(c) for c in player["offer"]],
                )
            )
        events.append(event("dealt", None, cards=RULES["starting_cards"], first=self.first))
        self.setup_events = events

    def turn_order_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.players for i in range(self.players)]

    def _reveal(self) -> list[Event]:
        events: list[Event] = []
        for seat in self.turn_order_from(self.first):
            player = self.seats[seat]
            player["offer"] = []
            events.append(event("corporation revealed", None, seat=seat, corporation=corporation_view(player["corp"])))
        self.stage = "play"
        self.current = self.first
        effects.push(self, "begin", self.first)
        if self.players > 1:
            effects.push(self, "gift", self.first, to=(self.first - 1) % self.players)
        for seat in reversed(self.turn_order_from(self.first)):
            effects.push(self, "start-production", seat)
            effects.push_effects(self, seat, CORPORATIONS[self.seats[seat]["corp"]]["start"], self.seats[seat]["corp"])
        return events

    # -- the contract ------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        return Outcome(
            list(self.result["scores"]), list(self.result["winners"]), [dict(d) for d in self.result["details"]]
        )

    def _to_move(self) -> list[int]:
        if self.stage == "corp":
            return [s for s in range(self.players) if self.seats[s]["corp"] is None]
        if self.stage == "play" and self.queue:
            return [self.queue[-1]["seat"]]
        return []

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.stage == "corp":
            return [Action.of("corporation", c) for c in self.seats[seat]["offer"]]
        return [Action(t) for t in self.menu(self.queue[-1])]

    def choices(self, task: Task) -> list[tuple[str, str]]:
        return steps.HANDLERS[task["kind"]][0](self, task)

    def menu(self, task: Task) -> list[str]:
        """The texts offered now: all choices when they fit in one step, else by category, by page.

        A list of one category only (the ways to pay) goes straight to its pages, so its first
        choice (the proposal) stays one click away.
        """
        ch = self.choices(task)
        if len(ch) <= MAX_CHOICES:
            return [t for _, t in ch]
        cats = list(dict.fromkeys(c for c, _ in ch))
        items = [t for c, t in ch if c == task.get("cat") or len(cats) == 1]
        if not items:
            return [f"open {c}" for c in cats]
        if len(items) <= MAX_CHOICES:
            return items
        pages = -(-len(items) // PAGE)
        page = task.get("page", 0) % pages
        return items[page * PAGE : (page + 1) * PAGE] + ["more"]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        words = action.text.split(" ")
        if self.stage == "corp":
            self.seats[seat]["corp"] = words[1]
            events = [
                event("corporation chosen", None, seat=seat),
                event("corporation kept", [seat], seat=seat, corporation=words[1]),
            ]
            if all(p["corp"] for p in self.seats):
                events += self._reveal()
                events += self._run()
            return events
        task = self.queue[-1]
        if words[0] == "open":
            task["cat"], task["page"] = " ".join(words[1:]), 0
            return []
        if words[0] == "more":
            task["page"] = task.get("page", 0) + 1
            return []
        task.pop("cat", None)
        task.pop("page", None)
        resolve = steps.HANDLERS[task["kind"]][2]
        assert resolve is not None, "only a step with choices is played, and such a step has a resolver"
        events = resolve(self, task, words)
        return events + self._run()

    def _run(self) -> list[Event]:
        """Resolve every step that needs no decision, until one does or the game ends."""
        events: list[Event] = []
        while self.result is None and self.queue:
            task = self.queue[-1]
            if self.choices(task):
                break
            auto = steps.HANDLERS[task["kind"]][1]
            assert auto is not None, "a step without choices resolves by itself"
            events += auto(self, task)
        if self.result is None:
            events += scoring.claim_milestones(self)
        else:
            self.stage = "over"
        return events

    def _resign(self, seat: int) -> list[Event]:
        return scoring.resign(self, seat)

    def _standing(self) -> Outcome | None:
        return scoring.standing(self)

    def _explain_illegal(self, seat: int, action: Action) -> str | IllegalAction:
        if self.stage == "corp":
            return illegal(
                "tm-dice.illegal.corporation-first", "Choose one of your two corporations first (corporation <id>)."
            )
        task = self.queue[-1]
        offered = self.menu(task)
        verbs = sorted({t.split(" ")[0] for t in offered})
        accepted = ", ".join(verbs)[:200]
        return illegal(
            "tm-dice.illegal.not-now",
            "“{action}” is not possible now; this step ({step}) accepts: {accepted}.",
            action=action.text[:40],
            step=task["kind"],
            accepted=accepted,
        )

    def _determinize(self, seat: int, seed: int) -> TMDiceState:
        from engine.tm_dice.determinize import determinize

        return determinize(self, seat, seed)

    def _public_view(self) -> TMDicePublic:
        from engine.tm_dice.views import public_view

        return public_view(self)

    def _private_view(self, seat: int) -> TMDicePrivate:
        from engine.tm_dice.views import private_view

        return private_view(self, seat)

    def _to_dict(self) -> Saved:
        from engine.tm_dice.persist import state_to_dict

        return state_to_dict(self)


__all__ = ["MAX_CHOICES", "STAGES", "TMDiceState", "board", "new_seat"]
