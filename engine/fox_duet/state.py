"""FoxDuetState: one position of The Fox in the Forest Duet, its phases and its rules.

Phases (``self.phase``):

- ``play``: the leader, then the follower, plays a card.
- ``fox-pick``: whoever played a fox (3) names a player; ``fox-swap``: that player may trade a
  hand card for the decree card.
- ``gift``: after a gift (7), both players secretly pick a hand card; they are exchanged when
  both have picked.
- ``gazelle``: the trick's winner may ignore the footprints of a card (or of both gazelles).
- ``direction``: with a musician (1) in the trick, the winner chooses the way the tracker moves.
- ``forest``: at a round's end, the players choose the end that takes a forest token.
- ``over``: the game has ended; ``self.result`` says how.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import (
    Action,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Record,
    Saved,
    State,
    Term,
    event,
    illegal,
    wrong_step,
)
from engine.fox_duet import board, cards
from engine.fox_duet.board import GEM_TOKENS, LEVELS, SIDES
from engine.fox_duet.cards import CARDS, FOX, GAZELLE, GIFT, MUSICIAN, ROYAL, SUITS, card_view, sort_hand
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.fox_duet.views import FoxDuetPrivate, FoxDuetPublic

HAND_SIZE = 11
TRICKS_PER_ROUND = 11
ROUNDS = 3
ROUND_BONUS = {1: 20, 2: 10, 3: 0}  # round 1 is our choice; the seed gives +10 for round 2
POINTS_PER_FOREST_TOKEN = 3
PHASES = ("play", "fox-pick", "fox-swap", "gift", "gazelle", "direction", "forest", "over")
# The verb each step takes; a step's name in messages is the key fox-duet.illegal.step.<phase>.
STEP_VERBS = {
    "play": "play",
    "fox-pick": "fox-pick",
    "fox-swap": "swap",
    "gift": "give",
    "gazelle": "ignore",
    "direction": "toward",
    "forest": "forest",
}


class FoxDuetState(State["FoxDuetPublic", "FoxDuetPrivate"]):
    players = 2

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = 2
        self.version = 0
        self.level = 1
        self.rng = Rng(0)
        self.covered: list[bool] = []
        self.gems: list[int] = []
        self.tracker = 0
        self.forest_left = 0
        self.forest_total = 0
        self.supply = 0
        self.collected = 0
        self.round = 1
        self.trick = 1
        self.dealer = 0
        self.leader = 1
        self.hands: list[list[str]] = [[], []]
        self.deck: list[str] = []
        self.decree = ""
        self.trick_cards: list[Record] = []
        self.discard: list[str] = []
        self.last_trick: Record | None = None
        # What each seat has shown the other this round (for ``determinize``): ``voids[s]``, the
        # suits ``s`` failed to follow (in SUITS order); ``shown[s]``, the cards in ``s``'s hand
        # the partner saw arrive there (its own gift, an old decree card). Every other card in
        # ``s``'s hand was dealt to it, so none of them is of a suit in ``voids[s]``.
        self.voids: list[list[str]] = [[], []]
        self.shown: list[list[str]] = [[], []]
        # Whether earlier tricks of the round stay in view (the "memory aid" option; always in
        # rules version 1).
        self.memory_aid = True
        self.phase = "play"
        self.pending: Record = {}
        self.result: Record | None = None
        self.setup_events: list[Event] = []

    # -- setup -------------------------------------------------------------------------------
    @property
    def side(self) -> board.Side:
        return SIDES[LEVELS[self.level].side]

    def setup(self, level: int, seed: int) -> None:
        """Set up a fresh game as the rulebook says; the events go to ``self.setup_events``."""
        info = LEVELS[level]
        self.level = level
        self.rng = Rng(seed)
        side = self.side
        self.covered = [False] * len(side)
        self.gems = board.setup_gems_for(side, info.diamonds)
        self.tracker = side.start
        self.forest_left = self.forest_total = info.forest_tokens
        self.supply = GEM_TOKENS - sum(self.gems)
        self.collected = 0
        starter = self.rng.below(2)
        events = [event("starting player", None, seat=starter)]
        events += self._deal(1, starter)
        self.setup_events = events

    def _deal(self, round_: int, dealer: int) -> list[Event]:
        deck = list(cards.ALL_CARD_IDS)
        self.rng.shuffle(deck)
        other = 1 - dealer
        self.round, self.trick, self.dealer, self.leader = round_, 1, dealer, other
        self.hands = [[], []]
        self.hands[other] = sort_hand(deck[0 : 2 * HAND_SIZE : 2])
        self.hands[dealer] = sort_hand(deck[1 : 2 * HAND_SIZE : 2])
        self.decree = deck[2 * HAND_SIZE]
        self.deck = deck[2 * HAND_SIZE + 1 :]
        self.trick_cards, self.discard, self.last_trick = [], [], None
        self.voids, self.shown = [[], []], [[], []]
        self.phase, self.pending = "play", {}
        events = [
            event("deal", [s], round=round_, dealer=dealer, seat=s, hand=[card_view(c) for c in self.hands[s]])
            for s in (0, 1)
        ]
        events.append(
            event(
                "deal",
                None,
                round=round_,
                dealer=dealer,
                leader=other,
                decree=card_view(self.decree),
                deck_size=len(self.deck),
            )
        )
        return events

    # -- contract hooks ----------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        score = self.result["score"]
        if self.result["won"]:
            details = dict(self.result["details"])
            return Outcome([score, score], [0, 1], [dict(details), dict(details)])
        lost = {"result": "lost", "reason": self.result["reason"]}
        return Outcome([0, 0], [], [dict(lost), dict(lost)])

    def _to_move(self) -> list[int]:
        phase, pending = self.phase, self.pending
        if phase == "play":
            return [self.leader if not self.trick_cards else 1 - self.leader]
        if phase == "fox-pick":
            return [pending["fox_player"]]
        if phase == "fox-swap":
            return [pending["chooser"]]
        if phase == "gift":
            return [s for s in (0, 1) if pending["picks"][s] is None]
        if phase in ("gazelle", "direction"):
            return [pending["winner"]]
        if phase == "forest":
            return [0, 1]
        return []

    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == "play":
            led = self.trick_cards[0]["card"] if self.trick_cards else None
            actions = [Action.of("play", c) for c in cards.playable(self.hands[seat], led)]
        elif phase == "fox-pick":
            actions = [Action("fox-pick me"), Action("fox-pick partner")]
        elif phase == "fox-swap":
            actions = [Action.of("swap", c) for c in self.hands[seat]] + [Action("swap none")]
        elif phase == "gift":
            actions = [Action.of("give", c) for c in self.hands[seat]]
        elif phase == "gazelle":
            actions = [Action("ignore none")] + [Action.of("ignore", p["card"]) for p in self.trick_cards]
            if self._count(GAZELLE) == 2:
                actions.append(Action("ignore both"))
        elif phase == "direction":
            actions = [Action("toward 0"), Action("toward 1")]
        elif phase == "forest":
            actions = [Action.of(f"forest end={e}") for e in self.pending["ends"]]
        else:
            return []
        return actions + [Action("concede")]

    def _explain_illegal(self, seat: int, action: Action) -> str | IllegalAction:
        verb, args = action.verb, action.args
        expected = STEP_VERBS.get(self.phase)
        known = ("play", "fox-pick", "swap", "give", "ignore", "toward", "forest", "concede")
        if verb in known and verb != expected and verb != "concede":
            return wrong_step("fox-duet", self.phase, verb, expected)
        if verb in ("play", "give", "swap") and args and cards.is_card(args[0]) and args[0] not in self.hands[seat]:
            return illegal("fox-duet.illegal.not-held", "You do not hold {card}.", card=args[0])
        if verb == "play" and len(args) == 1 and args[0] in self.hands[seat]:
            led = CARDS[self.trick_cards[0]["card"]].suit
            suit = Term(f"fox-duet.suit.{led}", led)
            return illegal(
                "fox-duet.illegal.follow-suit", "You must follow the led suit ({suit}) while you can.", suit=suit
            )
        return super()._explain_illegal(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        verb, args = action.verb, action.args
        if verb == "concede":
            return self._lose("conceded", conceded_by=seat)
        if verb == "play":
            return self._play(seat, args[0])
        if verb == "fox-pick":
            chooser = seat if args[0] == "me" else 1 - seat
            return self._fox_pick(seat, chooser)
        if verb == "swap":
            return self._fox_swap(seat, None if args[0] == "none" else args[0])
        if verb == "give":
            return self._gift_pick(seat, args[0])
        if verb == "ignore":
            return self._gazelle(seat, args[0])
        if verb == "toward":
            return self._direction(seat, int(args[0]))
        if verb == "forest":
            return self._forest(seat, int(args[0].split("=", 1)[1]))
        raise illegal("illegal.not-an-action", "That is not an action.")  # unreachable: apply checked it

    # -- playing cards and resolving abilities -----------------------------------------------
    def _count(self, ability: str) -> int:
        return sum(1 for p in self.trick_cards if CARDS[p["card"]].ability == ability)

    def _play(self, seat: int, card_id: str) -> list[Event]:
        self._leave_hand(seat, card_id)
        lead = not self.trick_cards
        if not lead:
            led = CARDS[self.trick_cards[0]["card"]]
            suit = led.suit
            if led.ability != ROYAL and CARDS[card_id].suit != suit and suit not in self.voids[seat]:
                self.voids[seat] = [s for s in SUITS if s in self.voids[seat] or s == suit]
        self.trick_cards.append({"seat": seat, "card": card_id})
        events = [
            event(
                "card played",
                None,
                seat=seat,
                card=card_view(card_id),
                lead=lead,
                round=self.round,
                trick=self.trick,
            )
        ]
        ability = CARDS[card_id].ability
        if ability == FOX:
            if not self.hands[0] and not self.hands[1]:
                events.append(event("decree kept", None, seat=seat, reason="empty-hands"))
            else:
                self.phase, self.pending = "fox-pick", {"fox_player": seat}
                return events
        elif ability == GIFT:
            empty = [s for s in (0, 1) if not self.hands[s]]
            if empty:
                events.append(event("gift skipped", None, seat=seat, reason="empty-hand", empty=empty))
            else:
                self.phase, self.pending = "gift", {"picks": [None, None]}
                return events
        return events + self._after_card()

    def _after_card(self) -> list[Event]:
        if len(self.trick_cards) == 1:
            self.phase, self.pending = "play", {}
            return []
        return self._resolve_trick()

    def _fox_pick(self, seat: int, chooser: int) -> list[Event]:
        events = [event("fox picked", None, seat=seat, chooser=chooser)]
        if not self.hands[chooser]:
            events.append(event("decree kept", None, seat=chooser, reason="empty-hand"))
            return events + self._after_card()
        self.phase, self.pending = "fox-swap", {"fox_player": seat, "chooser": chooser}
        return events

    def _fox_swap(self, seat: int, card_id: str | None) -> list[Event]:
        if card_id is None:
            events = [event("decree kept", None, seat=seat, reason="chose")]
        else:
            old = self.decree
            self._leave_hand(seat, card_id)
            self.hands[seat] = sort_hand(self.hands[seat] + [old])
            self.shown[seat] = sort_hand(self.shown[seat] + [old])
            self.decree = card_id
            events = [event("decree swapped", None, seat=seat, old=card_view(old), new=card_view(card_id))]
        return events + self._after_card()

    def _gift_pick(self, seat: int, card_id: str) -> list[Event]:
        picks = self.pending["picks"]
        picks[seat] = card_id
        events = [event("gift chosen", [seat], seat=seat, card=card_view(card_id))]
        if None in picks:
            return events
        for s in (0, 1):
            self._leave_hand(s, picks[s])
        for s in (0, 1):
            received = picks[1 - s]
            self.hands[s] = sort_hand(self.hands[s] + [received])
            self.shown[s] = sort_hand(self.shown[s] + [received])  # the giver knows where it went
            events.append(event("gift exchanged", [s], seat=s, received=card_view(received), given=card_view(picks[s])))
        return events + self._after_card()

    def _leave_hand(self, seat: int, card_id: str) -> None:
        self.hands[seat].remove(card_id)
        if card_id in self.shown[seat]:
            self.shown[seat].remove(card_id)

    # -- finishing a trick ---------------------------------------------------------------------
    def _trump(self) -> str:
        return CARDS[self.decree].suit

    def _resolve_trick(self) -> list[Event]:
        winner = cards.trick_winner([(p["seat"], p["card"]) for p in self.trick_cards], self._trump())
        if self._count(GAZELLE):
            self.phase, self.pending = "gazelle", {"winner": winner}
            return []
        return self._after_gazelle(winner, [])

    def _gazelle(self, seat: int, choice: str) -> list[Event]:
        trick = [p["card"] for p in self.trick_cards]
        ignored = [] if choice == "none" else trick if choice == "both" else [choice]
        steps = self._steps(ignored)
        events = [event("footprints ignored", None, seat=seat, ignored=[card_view(c) for c in ignored], steps=steps)]
        return events + self._after_gazelle(seat, ignored)

    def _steps(self, ignored: list[str]) -> int:
        return sum(CARDS[p["card"]].footprints for p in self.trick_cards if p["card"] not in ignored)

    def _after_gazelle(self, winner: int, ignored: list[str]) -> list[Event]:
        steps = self._steps(ignored)
        if self._count(MUSICIAN) and steps > 0:
            self.phase, self.pending = "direction", {"winner": winner, "steps": steps}
            return []
        return self._move(winner, steps, winner)

    def _direction(self, seat: int, toward: int) -> list[Event]:
        steps = self.pending["steps"]
        events = [event("direction chosen", None, seat=seat, toward=toward)]
        return events + self._move(seat, steps, toward)

    def _move(self, winner: int, steps: int, toward: int) -> list[Event]:
        plays = [{"seat": p["seat"], "card": p["card"]} for p in self.trick_cards]
        events = [
            event(
                "trick won",
                None,
                round=self.round,
                trick=self.trick,
                winner=winner,
                cards=[{"seat": p["seat"], "card": card_view(p["card"])} for p in plays],
                steps=steps,
                toward=toward,
            )
        ]
        start = self.tracker
        target = board.move(start, steps, toward, self.covered)
        gem = False
        lost = False
        if target is None:
            events.append(event("overshoot", None, **{"from": start}, toward=toward, steps=steps))
            if self.forest_left == 0:
                lost = True
            else:
                self.forest_left -= 1
                self.tracker = self.side.start
                events.append(event("tracker moved", None, **{"from": start}, to=self.tracker, steps=0, reset=True))
                events += board.cover_end(self.covered, self.gems, toward, "overshoot", self.forest_left, None)
        else:
            self.tracker = target
            events.append(event("tracker moved", None, **{"from": start}, to=target, steps=steps, reset=False))
            if self.gems[target]:
                self.gems[target] -= 1
                self.collected += 1
                gem = True
                events.append(
                    event("gem collected", None, space=target, gems_on_board=sum(self.gems), collected=self.collected)
                )
        self.last_trick = {
            "cards": plays,
            "winner": winner,
            "steps": steps,
            "toward": toward,
            "overshoot": target is None,
            "gem": gem,
        }
        self.discard += [p["card"] for p in plays]
        self.trick_cards = []
        self.leader = winner
        if lost:
            return events + self._lose("no-forest-token")
        if sum(self.gems) == 0:
            return events + self._win()
        if self.trick == TRICKS_PER_ROUND:
            return events + self._end_round()
        self.trick += 1
        self.phase, self.pending = "play", {}
        return events

    # -- round end ---------------------------------------------------------------------------
    def _end_round(self) -> list[Event]:
        events = [event("round ended", None, round=self.round, gems_on_board=sum(self.gems))]
        if self.round == ROUNDS:
            return events + self._lose("time")
        added: dict[int, int] = {}
        for index, point in enumerate(self.side.points):
            if point.plus and self.supply > 0:
                to = board.plus_target(self.covered, index, self.side.start)
                self.gems[to] += 1
                self.supply -= 1
                added[to] = added.get(to, 0) + 1
        events.append(
            event(
                "gems added",
                None,
                added=[{"space": s, "count": n} for s, n in sorted(added.items())],
                supply=self.supply,
            )
        )
        if self.forest_left == 0:
            return events + self._lose("no-forest-token")
        ends = board.open_ends(self.covered, self.tracker)
        if len(ends) == 1:
            return events + self._place_round_token(ends[0], None)
        self.phase, self.pending = "forest", {"ends": ends}
        return events

    def _forest(self, seat: int, end: int) -> list[Event]:
        return self._place_round_token(end, seat)

    def _place_round_token(self, end: int, chosen_by: int | None) -> list[Event]:
        self.forest_left -= 1
        events = board.cover_end(self.covered, self.gems, end, "round-end", self.forest_left, chosen_by)
        return events + self._deal(self.round + 1, 1 - self.dealer)

    # -- the end -----------------------------------------------------------------------------
    def score_details(self) -> Record:
        base = LEVELS[self.level].score
        in_hand = len(self.hands[0]) + len(self.hands[1])
        bonus = ROUND_BONUS[self.round]
        forest = POINTS_PER_FOREST_TOKEN * self.forest_left
        return {
            "level": base,
            "cards in hand": in_hand,
            "round bonus": bonus,
            "forest tokens": forest,
            "total": base + in_hand + bonus + forest,
        }

    def _win(self) -> list[Event]:
        details = self.score_details()
        self.result = {
            "won": True,
            "reason": "all-gems",
            "score": details["total"],
            "round": self.round,
            "details": details,
        }
        self.phase, self.pending = "over", {}
        return [event("game won", None, score=details["total"], round=self.round, trick=self.trick, details=details)]

    def _resign(self, seat: int) -> list[Event]:
        # In a co-operative game one player leaving ends it for the team, as conceding does.
        return self._lose("conceded", conceded_by=seat)

    def _lose(self, reason: str, conceded_by: int | None = None) -> list[Event]:
        self.result = {"won": False, "reason": reason, "score": 0, "round": self.round, "details": {}}
        self.phase, self.pending = "over", {}
        data = {"reason": reason, "round": self.round, "trick": self.trick, "gems_on_board": sum(self.gems)}
        if conceded_by is not None:
            data["seat"] = conceded_by
        return [event("game lost", None, **data)]

    # -- views (shape: docs/fox-duet-view.md) ------------------------------------------------
    def _public_view(self) -> FoxDuetPublic:
        from engine.fox_duet.views import public_view

        return public_view(self)

    def _private_view(self, seat: int) -> FoxDuetPrivate:
        from engine.fox_duet.views import private_view

        return private_view(self, seat)

    # -- determinizing (docs/ENGINE-EXTENSIONS.md) --------------------------------------------
    def _determinize(self, seat: int, seed: int) -> FoxDuetState:
        from engine.fox_duet.determinize import determinize

        return determinize(self, seat, seed)

    # -- saving ------------------------------------------------------------------------------
    def _to_dict(self) -> Saved:
        from engine.fox_duet.persist import state_to_dict

        return state_to_dict(self)
