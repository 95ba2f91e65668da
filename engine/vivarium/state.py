"""VivariumState: one position of Vivarium, its steps and the dispatch of actions.

Steps (``self.phase``) of the player to act (``self.current``):

- ``swap``: swap one of your chain tokens with a face-up token in the middle (compulsory).
- ``take``: spend gems to adjust your tokens' numbers (``adjust``), then take a card the
  tokens reach (``take``) or 2 gems (``gems``).
- ``ability``: an equipment card just taken asks a question (``self.pending``): a column to
  clear, a second swap, or a card to take; ``skip`` declines.
- ``over``: the game has ended (``self.resigned``: the seat that resigned, if one did).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Action, Event, Game, IllegalAction, Outcome, Record, Saved, State, illegal
from engine.rng import Rng
from engine.vivarium import rounds, turn
from engine.vivarium.rounds import TURNS_EACH

if TYPE_CHECKING:
    from engine.vivarium.views import VivariumPrivate, VivariumPublic

PHASES = ("swap", "take", "ability", "over")


class VivariumState(State["VivariumPublic", "VivariumPrivate"]):
    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.players = players
        self.version = 0
        self.rng = Rng(0)
        self.grid: list[str | None] = [None] * 16
        self.decks: dict[str, list[str]] = {"creature": [], "equipment": [], "contract": []}
        self.discard: list[str] = []
        self.tokens: list[list[str]] = []
        self.middle: list[str] = []
        self.facedown: str | None = None
        self.gems: list[int] = []
        self.collections: list[list[str]] = []
        self.priority_won: list[list[str]] = []
        self.starting: list[list[str]] = []
        self.priority_removed: list[str] = []
        self.priority_stack: list[str] = []
        self.priority_current: str = ""
        self.priority_next: str | None = None
        self.first = 0
        self.round = 1
        self.turn = 0
        self.phase = "swap"
        self.pending: Record = {}
        self.numbers: dict[str, list[int]] = {}
        self.result: Record | None = None
        self.resigned: int | None = None
        self.setup_events: list[Event] = []

    @property
    def current(self) -> int:
        return (self.first + self.turn) % self.players

    # -- contract hooks ----------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        return Outcome(
            list(self.result["scores"]), list(self.result["winners"]), [dict(d) for d in self.result["details"]]
        )

    def _to_move(self) -> list[int]:
        return [] if self.phase == "over" else [self.current]

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "swap":
            return turn.swap_actions(self, seat)
        if self.phase == "take":
            return turn.take_actions(self, seat)
        if self.phase == "ability":
            return turn.pending_actions(self, seat)
        return []

    def _explain_illegal(self, seat: int, action: Action) -> str | IllegalAction:
        verb = action.verb
        if self.phase == "swap" and verb in ("take", "gems", "adjust"):
            return illegal(
                "vivarium.illegal.swap-first", "First swap one of your chain tokens with a token in the middle."
            )
        if self.phase == "take" and verb == "swap":
            return illegal("vivarium.illegal.swapped-already", "You have already swapped a chain token this turn.")
        if verb == "take" and self.phase == "take":
            return illegal(
                "vivarium.illegal.out-of-reach",
                "Your chain tokens do not reach that card (row from one token, column from the other).",
            )
        if verb == "adjust" and self.phase == "take":
            return illegal("vivarium.illegal.adjust", "You need a gem, and numbers stay from 1 to 4.")
        return super()._explain_illegal(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        verb, args = action.verb, action.args
        if self.phase == "swap":
            mine, theirs = (a.split("=", 1)[1] for a in args)
            events = turn.swap(self, seat, mine, theirs)
            turn.start_take(self, seat)
            return events
        if self.phase == "take":
            if verb == "adjust":
                old, new = (int(a.split("=", 1)[1]) for a in args[1:])
                return turn.adjust(self, seat, args[0], old, new)
            if verb == "gems":
                events = turn.take_gems(self, seat)
                self.phase = "done"
            else:
                row, col = (int(a.split("=", 1)[1]) for a in args)
                events = turn.take_card(self, seat, row, col)
        elif self.phase == "ability":
            events = turn.resolve_pending(self, seat, action)
        else:
            raise illegal("illegal.game-over", "The game is over.")
        if self.phase == "done":
            events += self._end_turn()
        return events

    def _end_turn(self) -> list[Event]:
        self.numbers, self.pending = {}, {}
        self.turn += 1
        events: list[Event] = []
        if self.turn == TURNS_EACH * self.players:
            events += rounds.end_round(self)
            if self.phase == "over":
                return events
        self.phase = "swap"
        return events

    def _resign(self, seat: int) -> list[Event]:
        return rounds.resign(self, seat)

    def _standing(self) -> Outcome | None:
        return rounds.standing(self)

    def _determinize(self, seat: int, seed: int) -> VivariumState:
        from engine.vivarium.determinize import determinize

        return determinize(self, seat, seed)

    # -- views and saving --------------------------------------------------------------------
    def _public_view(self) -> VivariumPublic:
        from engine.vivarium.views import public_view

        return public_view(self)

    def _private_view(self, seat: int) -> VivariumPrivate:
        from engine.vivarium.views import private_view

        return private_view(self, seat)

    def _to_dict(self) -> Saved:
        from engine.vivarium.persist import state_to_dict

        return state_to_dict(self)
