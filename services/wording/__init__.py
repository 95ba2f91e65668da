"""How each game is worded and presented on Discord; the rules stay in ``engine``.

An adapter turns action texts and engine events into sentences (through ``l10n.words``) and says
which choices may be shown on the public board. Everything else in ``bot`` is game-agnostic.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Generic, TypeVar, Union

import engine
from engine import GAMES, Action, Event, NoSecrets, Outcome, View
from l10n.words import has, t

# A game's typed views (docs/ENGINE.md, "Typed views"): its adapter reads them and nothing else
# of the game but what its engine package exports.
PublicT = TypeVar("PublicT")
PrivateT = TypeVar("PrivateT")
# What a choice is worded from: a seat's view, or a spectator's (the public board's choices).
SeenView = Union[View[PublicT, PrivateT], View[PublicT, NoSecrets]]  # noqa: UP007 (a generic alias)
# An adapter's three kinds of input: the public view, a view choices are worded from (a seat's or
# a spectator's: ``SeenView``) and a seat's own view. A game's adapter is a
# ``GameAdapter[ItsPublic, SeenView[ItsPublic, ItsPrivate], View[ItsPublic, ItsPrivate]]``.
SeenT = TypeVar("SeenT")
SeatT = TypeVar("SeatT")


class GameAdapter(Generic[PublicT, SeenT, SeatT]):
    """Wording and presentation of one game; subclass per game and register in ``ADAPTERS``."""

    game_id: str = ""

    def action_label(self, action: Action, view: SeenT, locale: str, names: Sequence[str] = ()) -> str:
        """A button or menu label (at most 80 characters); ``names`` are the seats' display names."""
        return action.text

    def action_description(self, action: Action, view: SeenT, locale: str) -> str | None:
        """A select-menu option's second line, if useful."""
        return None

    def action_emoji(self, action: Action, view: SeenT) -> str | None:
        return None

    def action_is_private(self, action: Action) -> bool:
        """True when offering this choice in public would reveal hidden information."""
        return True

    def choice_groups(self, actions: list[Action], view: SeenT, locale: str) -> list[tuple[str, list[Action]]]:
        """How the board offers its public choices, so they fit a phone (5 rows of components at
        most): groups of ``(name, actions)``, a group named "" as buttons, any other as one menu
        (its placeholder ``<game-id>.choices.<name>``, options with descriptions). By default, buttons."""
        return [("", actions)]

    def action_is_suggested(self, action: Action, view: SeenT) -> bool:
        """True for the choice the bot proposes (shown as the highlighted button)."""
        return False

    @property
    def give_up_command(self) -> str:
        """The command that gives up a started game: "concede" where the rules have a concession
        (the team gives up, co-operative games), else "resign" (leave it, ranked last)."""
        return "concede" if "concede" in GAMES[self.game_id].action_kinds.values() else "resign"

    def action_is_dangerous(self, action: Action) -> bool:
        """True for choices that end the game for everyone (they need a confirmation): the
        actions the engine declares a concession or a resignation."""
        return GAMES[self.game_id].action_kind(action) in {"concede", "resign"}

    def describe_event(self, event: Event, names: list[str], locale: str) -> str | None:
        """One line for the log or the board message, or None when the event is not worth one."""
        return None

    def describe_events(self, events: list[Event], names: list[str], locale: str) -> list[str]:
        """The lines for a run of events (one move's); a game may merge related ones into one."""
        return [line for e in events if (line := self.describe_event(e, names, locale))]

    def status(self, public: PublicT, locale: str) -> str:
        """Where the game stands (round, turn...): the first line of the board's prompt."""
        raise NotImplementedError

    def prompt(self, public: PublicT, mentions: list[str], locale: str) -> str:
        """What the players who must act are asked to do, for the public board message: the
        ``status`` line, then what the mentioned players must do."""
        raise NotImplementedError

    def hand_text(self, view: SeatT, locale: str) -> str:
        """The private part of a view in words, for the 'My hand' answer and DMs."""
        return ""

    def board_facts(self, public: PublicT, names: Sequence[str], locale: str) -> list[str]:
        """What the board picture shows besides whose turn it is, in words for its alt text (the
        scores first): sentences read from the public view only, so they may stand in a channel."""
        return []

    def start_notice(self, locale: str) -> str | None:
        """Rules reminder posted when a game starts (e.g. table-talk rules)."""
        return None

    def outcome_lines(self, outcome: Outcome, names: list[str], locale: str) -> list[str]:
        raise NotImplementedError

    def option_label(self, name: str, value: object, locale: str) -> str:
        return f"{name}: {value}"

    def option_name(self, name: str, locale: str) -> str:
        """An option's name as players read it (the lobby menu's placeholder)."""
        return name

    def log_events(self, steps: Sequence[tuple[int, list[Event]]], public: PublicT) -> list[list[Event]]:
        """The events of each logged step (its version, its events) as the log may tell them now:
        a game may keep some from the players for a while (``public`` is the current public
        view). By default, all of them."""
        return [events for _, events in steps]

    def hidden_boards(self, steps: Sequence[tuple[int, list[Event]]], public: PublicT) -> range:
        """The versions whose past board ``/table history`` may not show now (by default none)."""
        return range(0)

    def push_events(self) -> set[str]:
        """Private event types after which the seat gets its hand by DM (a new deal, a gift)."""
        return set()

    def choice_help(self, view: SeatT, seat: int, locale: str) -> str | None:
        """What the seat's current decision means (a line of 'My hand' on its turn), or None."""
        return None

    # -- turns: which boards are one message (services/board_turns.py) ------------------------------------
    # Whether a seat newly to move starts a turn of its own (a new message mentioning it). A game
    # whose turn includes others' decisions (Noctiluca's passing round) says False: their
    # choices are steps of the current turn (a follow-up mentions a person asked in it).
    turn_follows_movers: bool = True

    def turn_started(self, events: Sequence[Event], before: PublicT, after: PublicT) -> bool:
        """Whether a move began a new turn for whoever is to move after it, even a seat that was
        already to move (a new round, a new dive): from its public ``events`` and the public
        views ``before`` and ``after`` it. By default only a change of movers does."""
        return False


def help_line(game_id: str, step: str, locale: str, **values: object) -> str | None:
    """The guide's line for one step of a game (``howto.help.<game>.<step>``), if it has one."""
    key = f"howto.help.{game_id}.{step}"
    return t(key, locale, **values) if has(key, locale) else None


# By game id: the platform's game-agnostic code cannot know which views an adapter reads.
ADAPTERS: dict[str, GameAdapter[Any, Any, Any]] = {}


def register(adapter: GameAdapter[Any, Any, Any]) -> GameAdapter[Any, Any, Any]:
    ADAPTERS[adapter.game_id] = adapter
    return adapter


def adapter_for(game_id: str) -> GameAdapter[Any, Any, Any]:
    return ADAPTERS[game_id]


def unregister(game_id: str) -> None:
    ADAPTERS.pop(game_id, None)


def _register_all() -> None:
    """The shipped games' adapters: ``ADAPTER`` of this package's module named like the game's
    engine package (``engine.shipped``)."""
    for package in engine.shipped().values():
        register(importlib.import_module(f"{__name__}.{package}").ADAPTER)


_register_all()
