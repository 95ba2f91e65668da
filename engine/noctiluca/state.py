"""NoctilucaState: one position of Noctiluca, its phases, and the dispatch of actions.

Phases (``self.phase``), with what ``self.pending`` holds:

- ``keep``: every seat secretly keeps 2 of its 3 dealt jars (``dealt``, ``kept`` per seat).
- ``shore``, ``path``, ``number``: the current player's dive, one step at a time
  (``shore``, then ``path``).
- ``store``: the diver's taken dice that fit several jars (``hand``).
- ``pass``: the dice nobody of the earlier players stored, in front of ``receiver``.
- ``deliver``: ``queue[0]`` has several full jars and picks which to deliver first.
- ``pile``: ``queue[0]`` takes a new jar from one of the piles.
- ``draw`` (solo): keep one of the two drawn jars (``offer``).
- ``over``: the game has ended; ``self.result`` holds the final scoring (``self.resigned``:
  the seat that resigned, if one did).

The rules themselves live in the sibling modules (setup, dive, delivery, storm, scoring).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from engine.core import Action, Event, Game, IllegalAction, Outcome, Record, Saved, State, illegal, wrong_step
from engine.noctiluca import content
from engine.noctiluca.content import DICE_COLOURS, Jar
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.noctiluca.views import NoctilucaPrivate, NoctilucaPublic

PHASES = ("keep", "shore", "path", "number", "store", "pass", "deliver", "pile", "draw", "over")
PATHS = ("short", "long")
# The verb each step takes; a step's name in messages is the key noctiluca.illegal.step.<phase>.
STEP_VERBS = {
    "keep": "keep",
    "shore": "shore",
    "path": "path",
    "number": "number",
    "store": "store",
    "pass": "store",
    "deliver": "deliver",
    "pile": "pile",
    "draw": "take",
}


class NoctilucaState(State["NoctilucaPublic", "NoctilucaPrivate"]):
    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.players = players
        self.version = 0
        self.rng = Rng(0)
        self.spaces: list[list[str]] = [[] for _ in content.SPACES]
        self.lid: dict[str, int] = {c: 0 for c in DICE_COLOURS}
        self.shores: list[Record | None] = [None] * len(content.SHORES)
        self.pawns: list[int] = [0] * players
        self.favourites: list[str] = [""] * players
        self.jars: list[list[Record]] = [[] for _ in range(players)]
        self.delivered: list[list[str]] = [[] for _ in range(players)]
        self.tokens: list[list[list[Any]]] = [[] for _ in range(players)]
        self.stacks: dict[str, list[int]] = {c: list(v) for c, v in content.STACKS.items()}
        self.piles: list[list[str]] = []
        self.deck: list[str] = []
        self.discard: list[str] = []
        # Solo: how many jars the player has put under the deck (the one not kept of each draw of
        # two). The deck's last min(to_bottom, len(deck)) jars are those, in that order: jars only
        # ever leave from the top, so the player knows them and where they are (determinize).
        self.to_bottom = 0
        self.round = 1
        self.direction = 1
        self.first = 0
        self.current = 0
        self.phase = "keep"
        self.pending: Record = {}
        self.last_dive: Record | None = None
        self.storm: Record | None = None
        self.result: Record | None = None
        self.resigned: int | None = None
        self.setup_events: list[Event] = []

    @property
    def solo(self) -> bool:
        return self.players == 1

    # -- turn order ----------------------------------------------------------------------------
    def after(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in this round's direction of play."""
        return (seat + self.direction * steps) % self.players

    def order_from(self, seat: int) -> list[int]:
        return [self.after(seat, k) for k in range(self.players)]

    # -- jars ----------------------------------------------------------------------------------
    @property
    def jar_cards(self) -> dict[str, Jar]:
        """The jar cards of this game's rules version: a game keeps the jars it started with."""
        return content.jar_set(self.rules_version)

    def jar(self, seat: int, jar_id: str) -> Record:
        for j in self.jars[seat]:
            if j["id"] == jar_id:
                return j
        raise illegal("noctiluca.illegal.no-jar", "You have no jar {jar}.", jar=jar_id[:20])

    def free_slots(self, j: Record, colour: str) -> int:
        free = 0
        for c, d in zip(self.jar_cards[j["id"]].slots, j["dice"], strict=True):
            if d is None and c == colour:
                free += 1
        return free

    @staticmethod
    def is_full(j: Record) -> bool:
        return all(d is not None for d in j["dice"])

    def jars_taking(self, seat: int, colour: str) -> list[Record]:
        return [j for j in self.jars[seat] if self.free_slots(j, colour) > 0]

    def can_store_any(self, seat: int, dice: list[str]) -> bool:
        return any(self.jars_taking(seat, content.die_colour(d)) for d in dice)

    # -- contract hooks ------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        return Outcome(list(self.result["scores"]), list(self.result["winners"]), list(self.result["details"]))

    def _to_move(self) -> list[int]:
        if self.phase == "keep":
            return [s for s in range(self.players) if self.pending["kept"][s] is None]
        if self.phase == "pass":
            return [self.pending["receiver"]]
        if self.phase in ("deliver", "pile", "draw"):
            return [self.pending["queue"][0]]
        if self.phase == "over":
            return []
        return [self.current]

    def _legal_actions(self, seat: int) -> list[Action]:
        phase, pending = self.phase, self.pending
        if phase == "keep":
            dealt = pending["dealt"][seat]
            return [Action.of("keep", a, b) for a, b in itertools.combinations(dealt, 2)]
        if phase == "shore":
            return [Action.of("shore", i + 1) for i, p in enumerate(self.shores) if p is None]
        if phase == "path":
            return [Action.of("path", k) for k in PATHS]
        if phase == "number":
            return [Action.of("number", n) for n in range(1, 7)]
        if phase == "store":
            from engine.noctiluca.dive import ambiguous_colours

            return [
                Action.of("store", c, j["id"])
                for c in ambiguous_colours(self, seat, pending["hand"])
                for j in self.jars_taking(seat, c)
            ]
        if phase == "pass":
            colours = [c for c in DICE_COLOURS if any(content.die_colour(d) == c for d in pending["dice"])]
            choices = [Action.of("store", c, j["id"]) for c in colours for j in self.jars_taking(seat, c)]
            return choices + [Action("store none")]
        if phase == "deliver":
            return [Action.of("deliver", j["id"]) for j in self.jars[seat] if self.is_full(j)]
        if phase == "pile":
            return [Action.of("pile", i + 1) for i, p in enumerate(self.piles) if p]
        if phase == "draw":
            return [Action.of("take", jar_id) for jar_id in pending["offer"]]
        return []

    def _explain_illegal(self, seat: int, action: Action) -> str | IllegalAction:
        verb = action.verb
        expected = STEP_VERBS.get(self.phase)
        if verb == "shore" and self.phase == "shore":
            return illegal(
                "noctiluca.illegal.shore-taken",
                "That shore is taken or does not exist: pick a free shore from 1 to 12.",
            )
        if verb == "pile" and self.phase == "pile":
            return illegal("noctiluca.illegal.pile-empty", "That pile is empty or does not exist.")
        known = {"keep", "shore", "path", "number", "store", "deliver", "pile", "take"}
        if verb in known and verb != expected:
            return wrong_step("noctiluca", self.phase, verb, expected)
        return super()._explain_illegal(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        from engine.noctiluca import dive, jar_delivery, setup

        verb, args = action.verb, action.args
        if verb == "keep":
            return setup.keep(self, seat, args)
        if verb == "shore":
            return dive.choose_shore(self, seat, int(args[0]))
        if verb == "path":
            return dive.choose_path(self, seat, args[0])
        if verb == "number":
            return dive.choose_number(self, seat, int(args[0]))
        if verb == "store":
            if self.phase == "store":
                return dive.diver_store(self, seat, args[0], args[1])
            return dive.receiver_store(self, seat, None if args[0] == "none" else (args[0], args[1]))
        if verb == "deliver":
            return jar_delivery.deliver_chosen(self, seat, args[0])
        if verb == "pile":
            return jar_delivery.take_from_pile(self, seat, int(args[0]) - 1)
        if verb == "take":
            return jar_delivery.take_drawn(self, seat, args[0])
        raise illegal("illegal.not-an-action", "That is not an action.")  # unreachable: apply checked it

    def _resign(self, seat: int) -> list[Event]:
        from engine.noctiluca.scoring import resign

        return resign(self, seat)

    def _standing(self) -> Outcome | None:
        from engine.noctiluca.scoring import standing

        return standing(self)

    def _determinize(self, seat: int, seed: int) -> NoctilucaState:
        from engine.noctiluca.determinize import determinize

        return determinize(self, seat, seed)

    def _public_view(self) -> NoctilucaPublic:
        from engine.noctiluca.views import public_view

        return public_view(self)

    def _private_view(self, seat: int) -> NoctilucaPrivate:
        from engine.noctiluca.views import private_view

        return private_view(self, seat)

    def _to_dict(self) -> Saved:
        from engine.noctiluca.persist import state_to_dict

        return state_to_dict(self)
