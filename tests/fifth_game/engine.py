"""Tiny Duel, the tests' fifth game: the rules, following docs/ENGINE.md.

Two players, cards 1 to 9. Each is dealt three cards in secret (the other three stay unseen);
a random player leads. A trick: the leader plays a card face up, the other answers with one;
the higher card wins the trick, and its winner leads the next. After three tricks, whoever won
more tricks wins the game (three tricks between two: never a tie).
"""

from __future__ import annotations

from engine.core import Action, Event, Game, Outcome, State, illegal
from engine.facts import GameFacts
from engine.rng import Rng

GAME_ID = "tiny-duel"
CARDS = tuple(range(1, 10))
HAND = 3


def card_id(value: int) -> str:
    return f"c{value}"


def value_of(card: str) -> int:
    return int(card[1:])


class TinyDuel(Game):
    id = GAME_ID
    title = "Tiny Duel"
    min_players = 2
    max_players = 2
    revealing_events = frozenset({"card played"})
    # Competitive and rated (the default facts), and no weekly challenge; a duplicate tournament
    # deals every pair the same cards.
    facts = GameFacts(duplicate_size=None)

    def _new(self, players: int, seed: int, options: dict, rules_version: int) -> TinyDuelState:
        rng = Rng(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        hands = [sorted(deck[:HAND]), sorted(deck[HAND : 2 * HAND])]
        leader = rng.below(2)
        state = TinyDuelState(self, hands, leader, rng.state)
        state.rules_version = rules_version
        state.setup_events = [{"type": "starting player", "seat": leader, "visible_to": None}] + [
            {"type": "deal", "seat": seat, "cards": [card_id(v) for v in hands[seat]], "visible_to": [seat]}
            for seat in range(2)
        ]
        return state

    def _load(self, data: dict) -> TinyDuelState:
        hands = [[int(v) for v in hand] for hand in data["hands"]]
        if len(hands) != 2 or any(v not in CARDS for hand in hands for v in hand):
            raise ValueError("'hands' must be two lists of cards 1-9")
        state = TinyDuelState(self, hands, int(data["leader"]), int(data["rng"]))
        state.trick = [(int(seat), int(v)) for seat, v in data["trick"]]
        state.tricks = [int(n) for n in data["tricks"]]
        state.played = [int(v) for v in data["played"]]
        state.version = int(data["version"])
        state.setup_events = list(data.get("setup_events", []))
        return state


class TinyDuelState(State):
    def __init__(self, game: TinyDuel, hands: list[list[int]], leader: int, rng: int) -> None:
        self.game = game
        self.players = 2
        self.version = 0
        self.hands = hands
        self.leader = leader
        self.rng = rng
        self.trick: list[tuple[int, int]] = []  # (seat, value) played to the trick under way
        self.tricks = [0, 0]
        self.played: list[int] = []
        self.setup_events: list[Event] = []

    def _to_move(self) -> list[int]:
        return [self.leader if not self.trick else 1 - self.leader]

    def _legal_actions(self, seat: int) -> list[Action]:
        return [Action.of("play", card_id(v)) for v in self.hands[seat]]

    def _explain_illegal(self, seat: int, action: Action):
        return illegal("tiny-duel.illegal.not-in-hand", "You can only play a card from your hand.")

    def _apply(self, seat: int, action: Action) -> list[Event]:
        value = value_of(action.args[0])
        self.hands[seat].remove(value)
        self.trick.append((seat, value))
        self.played.append(value)
        events: list[Event] = [{"type": "card played", "seat": seat, "card": card_id(value), "visible_to": None}]
        if len(self.trick) == 2:
            winner = max(self.trick, key=lambda play: play[1])[0]
            self.tricks[winner] += 1
            self.leader = winner
            self.trick = []
            events.append({"type": "trick won", "seat": winner, "visible_to": None})
        return events

    def outcome(self) -> Outcome | None:
        if sum(self.tricks) < HAND:
            return None
        return self._score()

    def _score(self) -> Outcome:
        best = max(self.tricks)
        winners = [seat for seat in range(2) if self.tricks[seat] == best]
        return Outcome(list(self.tricks), winners, [{"tricks": n} for n in self.tricks])

    def _standing(self) -> Outcome | None:
        return self._score()

    def _public_view(self) -> dict:
        over = sum(self.tricks) == HAND
        return {
            "phase": "over" if over else "play",
            "trick_number": min(HAND, sum(self.tricks) + 1),
            "leader": self.leader,
            "trick": [{"seat": seat, "card": card_id(v)} for seat, v in self.trick],
            "tricks": list(self.tricks),
            "hand_sizes": [len(hand) for hand in self.hands],
            "played": [card_id(v) for v in self.played],
        }

    def _private_view(self, seat: int) -> dict:
        return {"hand": [{"id": card_id(v), "value": v} for v in self.hands[seat]]}

    def _to_dict(self) -> dict:
        return {
            "hands": [list(hand) for hand in self.hands],
            "leader": self.leader,
            "rng": self.rng,
            "trick": [list(play) for play in self.trick],
            "tricks": list(self.tricks),
            "played": list(self.played),
            "setup_events": list(self.setup_events),
        }

    def _determinize(self, seat: int, seed: int) -> TinyDuelState:
        """The other hand redrawn from the cards ``seat`` has not seen."""
        copy = self.game.load(self.to_dict())
        assert isinstance(copy, TinyDuelState)
        other = 1 - seat
        unseen = [v for v in CARDS if v not in self.hands[seat] and v not in self.played]
        Rng(seed).shuffle(unseen)
        copy.hands[other] = sorted(unseen[: len(self.hands[other])])
        copy.rng = seed
        return copy
