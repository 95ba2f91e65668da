"""The contract of docs/ENGINE.md: Game, State, Action, Outcome, IllegalAction.

Subclasses implement the underscored hooks; the public methods here enforce the contract's
promises once for every game (seat checks, parsing of action text, the state left untouched
when an action is refused).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypedDict, TypeVar, overload

from engine.facts import GameFacts

Event = dict[str, Any]
# What an action means beyond its own game (docs/ENGINE-EXTENSIONS.md): the platform needs to
# know it for time-outs (forfeit, skip), confirmations and random play, whatever the verb.
ActionKind = Literal["concede", "resign", "pass"]
ACTION_KINDS: frozenset[str] = frozenset({"concede", "resign", "pass"})
# A saved state (``State.to_dict``, ``Game.load``): JSON-safe, its fields the game's own.
Saved = dict[str, Any]
# A JSON record inside a game's state or content (a pending decision, a jar in play, a goal), as
# saved by ``to_dict`` and checked field by field when loaded.
Record = dict[str, Any]
# Chosen options, by name: JSON scalars the game defines (``Game.options``).
Options = dict[str, Any]


class OptionSpec(TypedDict):
    """One option of ``Game.options``: the values it may take and the one a new game gets."""

    choices: list[Any]
    default: Any


class IllegalAction(ValueError):
    """An action a player may not take now; the message is safe to show to that player.

    Extension (docs/ENGINE-EXTENSIONS.md): ``key`` names the message in the bot's catalogues and
    ``values`` fill its ``{placeholders}`` (numbers, ids or ``Term``), so the bot words it in the
    reader's language; ``str()`` stays the English sentence. ``key`` is None for a message
    without one (the bot then shows the English).
    """

    def __init__(
        self, message: str = "", *, key: str | None = None, values: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.key = key
        self.values: dict[str, object] = dict(values or {})


@dataclass(frozen=True)
class Term:
    """A word of a message that is itself a message key (a suit, a step of the game): the bot
    translates it; ``str()`` is its English, for the engine's own English sentence."""

    key: str
    english: str

    def __str__(self) -> str:
        return self.english


def illegal(key: str, english: str, **values: object) -> IllegalAction:
    """The refusal ``key`` with ``values``; ``english`` is its English template, the same text as
    the key's in ``data/i18n/en.po`` (tests/test_i18n.py checks that they agree)."""
    return IllegalAction(english.format_map({name: str(v) for name, v in values.items()}), key=key, values=values)


def wrong_step(game: str, phase: str, verb: str, expected: str | None) -> IllegalAction:
    """The refusal of one of a game's verbs at the wrong step of a turn (``expected``: the verb of
    the step ``phase``, None once the game is over). The step is named by the catalogue's
    ``<game>.illegal.step.<phase>``."""
    if expected is None:
        return illegal("illegal.game-over", "The game is over.")
    step = Term(f"{game}.illegal.step.{phase}", phase)
    return illegal(
        "illegal.wrong-step",
        "Now is not the time for “{verb}”: the current step is “{step}”.",
        verb=verb[:20],
        step=step,
    )


@dataclass(frozen=True, order=True)
class Action:
    """An action, identified by its canonical text (``play dove-7``)."""

    text: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", normalise(self.text))

    def __str__(self) -> str:
        return self.text

    @classmethod
    def of(cls, *words: object) -> Action:
        return cls(" ".join(str(w) for w in words))

    @property
    def verb(self) -> str:
        return self.text.split(" ", 1)[0]

    @property
    def args(self) -> list[str]:
        return self.text.split(" ")[1:]


def normalise(text: str) -> str:
    return " ".join(text.strip().lower().split())


@dataclass(frozen=True)
class Outcome:
    scores: list[int]
    winners: list[int]
    details: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners), "details": copy.deepcopy(self.details)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(list(data["scores"]), list(data["winners"]), list(data.get("details", [])))


def event(type_: str, visible_to: list[int] | None = None, **data: Any) -> Event:
    """Build an event dict: data for the bot to word, never a sentence."""
    return {"type": type_, "visible_to": visible_to, **data}


# A game's public and private views (docs/ENGINE.md, "Typed views"): each game declares them as
# TypedDicts in engine/<game>/views.py and its state is a ``State[ItsPublic, ItsPrivate]``.
PublicT = TypeVar("PublicT")
PrivateT = TypeVar("PrivateT")


class NoSecrets(TypedDict):
    """The private part of a spectator's view (``view(None)``): nothing."""


class View(TypedDict, Generic[PublicT, PrivateT]):
    """What ``State.view`` returns: the public part, the same for every viewer, and one seat's
    secrets (``NoSecrets`` for a spectator)."""

    public: PublicT
    private: PrivateT


class State(Generic[PublicT, PrivateT]):
    """Base class for a game position. Subclasses implement the ``_`` hooks; a game's state is a
    ``State[Public, Private]`` of its typed views."""

    game: Game
    players: int
    version: int
    # Extension: the rules this game is played by (Game.rules_versions). Engine code of a rule
    # changed after version 1 branches on it, so a game keeps the rules it was started with.
    rules_version: int = 1

    # -- the contract ---------------------------------------------------------------------
    def to_move(self) -> list[int]:
        if self.outcome() is not None:
            return []
        return self._to_move()

    def legal_actions(self, seat: int) -> list[Action]:
        if not self._valid_seat(seat) or seat not in self.to_move():
            return []
        return self._legal_actions(seat)

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        if not self._valid_seat(seat):
            raise illegal("illegal.no-such-seat", "There is no such seat in this game.")
        if self.outcome() is not None:
            raise illegal("illegal.game-over", "The game is over.")
        if seat not in self._to_move():
            raise illegal("illegal.not-your-turn", "It is not your turn.")
        if isinstance(action, Action):
            chosen = action
        elif isinstance(action, str):
            chosen = Action(action)
        else:
            raise illegal("illegal.not-an-action", "That is not an action.")
        if chosen not in self._legal_actions(seat):
            reason = self._explain_illegal(seat, chosen)
            raise reason if isinstance(reason, IllegalAction) else IllegalAction(reason)
        # Every refusal happens above, before anything changes. A legal action never fails; if
        # one ever did (a bug), the platform only ever applies moves to a working copy.
        events = self._apply(seat, chosen)
        self.version += 1
        return events

    def apply_known(self, seat: int, action: Action) -> list[Event]:
        """``apply`` for a caller that took ``action`` from ``legal_actions(seat)`` of this very
        position (the same ``version``, nothing changed since), as a search does millions of
        times: the same events and the same position, without deriving the legal actions a
        second time to check it. Anything else goes through ``apply``."""
        events = self._apply(seat, action)
        self.version += 1
        return events

    # A state of a game not known where it is read (the registry's ``State[Any, Any]``: the
    # platform's game-agnostic code) has a view of no static shape; a game's own state returns its
    # typed views.
    @overload
    def view(self: State[dict[str, Any], dict[str, Any]], seat: int | None) -> Any: ...

    @overload
    def view(self, seat: int) -> View[PublicT, PrivateT]: ...

    @overload
    def view(self, seat: None) -> View[PublicT, NoSecrets]: ...

    def view(self, seat: int | None) -> View[PublicT, PrivateT] | View[PublicT, NoSecrets]:
        if seat is None:
            spectator: View[PublicT, NoSecrets] = {"public": self._public_view(), "private": {}}
            return spectator
        if not self._valid_seat(seat):
            raise ValueError("There is no such seat in this game.")
        return {"public": self._public_view(), "private": self._private_view(seat)}

    def private_view(self, seat: int) -> PrivateT:
        """``view(seat)["private"]`` alone: the seat's secrets, without working out the public
        part (for a caller that has it, or needs only the secrets)."""
        if not self._valid_seat(seat):
            raise ValueError("There is no such seat in this game.")
        return self._private_view(seat)

    def outcome(self) -> Outcome | None:
        raise NotImplementedError

    # -- extensions (docs/ENGINE-EXTENSIONS.md) ---------------------------------------------
    def resign(self, seat: int) -> list[Event]:
        """``seat`` leaves the game for good, at any time: the game ends with that seat last
        and the others ranked by the rules. Counts as an action (``version`` goes up) and is
        logged as the text ``resign``. Games without such a rule refuse it."""
        if not self._valid_seat(seat):
            raise illegal("illegal.no-such-seat", "There is no such seat in this game.")
        if self.outcome() is not None:
            raise illegal("illegal.game-over", "The game is over.")
        backup = self.to_dict()
        try:
            events = self._resign(seat)
        except BaseException:
            self._restore(self.game.load(backup))
            raise
        self.version += 1
        return events

    def _resign(self, seat: int) -> list[Event]:
        raise illegal("illegal.no-resigning", "This game has no rule for resigning.")

    def standing(self) -> Outcome | None:
        """The game scored as it stands, by its own final scoring, as if it ended now; None for a
        game that cannot say (docs/ENGINE-EXTENSIONS.md). A finished game gives its outcome.
        Nothing changes: tournaments settle a table unfinished at a round's deadline with it."""
        done = self.outcome()
        if done is not None:
            return done
        return self._standing()

    def _standing(self) -> Outcome | None:
        return None

    def action_kind(self, action: Action | str) -> ActionKind | None:
        """``"concede"``, ``"resign"``, ``"pass"`` or None: what ``action`` means to the platform,
        as the game declares it (``Game.action_kind``)."""
        return self.game.action_kind(action)

    def determinize(self, seat: int, seed: int) -> State[PublicT, PrivateT]:
        """A copy in which everything ``seat`` cannot see is drawn again (docs/ENGINE-EXTENSIONS.md).

        Other seats' hands, the order of decks, bags and piles, face-down tokens and the random
        generator's state are redrawn from ``seed``, consistently with everything ``seat`` has
        seen: ``seat``'s view and legal actions are unchanged, the hidden things are a valid
        arrangement of the real ones, and the copy plays on to an outcome. Computer players search
        over such copies, so they never use what their seat may not see. ``self`` is untouched.
        Every game implements it in ``_determinize``.
        """
        if not self._valid_seat(seat):
            raise ValueError("There is no such seat in this game.")
        return self._determinize(seat, seed)

    def _determinize(self, seat: int, seed: int) -> State[PublicT, PrivateT]:
        raise NotImplementedError(f"{self.game.id} has no determinization")

    def to_dict(self) -> Saved:
        data = self._to_dict()
        data["game"] = self.game.id
        data["players"] = self.players
        data["version"] = self.version
        data["rules_version"] = self.rules_version
        return data

    # -- helpers for subclasses -------------------------------------------------------------
    def _valid_seat(self, seat: object) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.players

    def _restore(self, other: State[PublicT, PrivateT]) -> None:
        self.__dict__.clear()
        self.__dict__.update(other.__dict__)

    def _explain_illegal(self, seat: int, action: Action) -> str | IllegalAction:
        """Why ``action`` is refused: an English sentence, or (extension) an ``IllegalAction``
        with its message key, which the bot can word in the reader's language."""
        return illegal("illegal.not-now", "“{action}” is not something you can do now.", action=action.text[:40])

    # -- hooks -----------------------------------------------------------------------------
    def _to_move(self) -> list[int]:
        raise NotImplementedError

    def _legal_actions(self, seat: int) -> list[Action]:
        raise NotImplementedError

    def _apply(self, seat: int, action: Action) -> list[Event]:
        raise NotImplementedError

    def _public_view(self) -> PublicT:
        raise NotImplementedError

    def _private_view(self, seat: int) -> PrivateT:
        raise NotImplementedError

    def _to_dict(self) -> Saved:
        raise NotImplementedError


# A state of a game not known where it is held (the registry's, the platform's game-agnostic
# code): its views have no static shape there.
AnyState = State[Any, Any]


class Game:
    """One game's definition: its options, how to set it up, how to load a saved state."""

    id: str
    title: str
    min_players: int
    max_players: int
    # Extension: the event types that show a hidden card or a random outcome. An action that
    # caused one of these, or any private event, can never be undone. None: the game does not
    # say, so no action of it can be undone.
    revealing_events: frozenset[str] | None = None
    # Extension: the version of the rules a new game is played by, and every version this code
    # can still play (a game in progress keeps the version it started with). A rule change
    # bumps ``rules_version``, adds it to ``rules_versions`` and branches on
    # ``state.rules_version``; the old branch stays as long as its version is listed.
    rules_version: int = 1
    rules_versions: tuple[int, ...] = (1,)
    # Extension: the actions that are a concession, a resignation or a pass, by verb (the
    # action's first word). A game whose kinds depend on more than the verb overrides
    # ``action_kind``.
    action_kinds: Mapping[str, ActionKind] = {}
    # Extension: what the platform needs to know (co-operative, rating, duplicate, challenge).
    facts: GameFacts = GameFacts()

    def options(self) -> dict[str, OptionSpec]:
        return {}

    def action_kind(self, action: Action | str) -> ActionKind | None:
        """What ``action`` means to the platform: ``"concede"`` (the game ends, lost for the team
        or the one who concedes), ``"resign"`` (the seat leaves, ranked last), ``"pass"`` (the
        seat declines to do anything this step) or None (an ordinary move)."""
        chosen = action if isinstance(action, Action) else Action(str(action))
        return self.action_kinds.get(chosen.verb)

    def supports_resign(self) -> bool:
        return type(self.new(self.min_players, 0))._resign is not State._resign

    def new(
        self, players: int, seed: int, options: Options | None = None, rules_version: int | None = None
    ) -> AnyState:
        """Check the player count, seed, options and rules version (None: the current one), then
        set up with ``_new``."""
        self.check_players(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("the seed must be an integer")
        resolved = self.resolve_options(options)
        version = self.check_rules_version(self.rules_version if rules_version is None else rules_version)
        state = self._new(players, seed, resolved, version)
        if state.rules_version != version:
            # The set-up must run under the version asked for, or a replay from the seed would
            # not be the game that was played.
            raise RuntimeError(f"{type(self).__name__}._new did not set the state's rules_version to {version}")
        return state

    def load(self, data: Saved) -> AnyState:
        """Check the common header, then rebuild with ``_load``; a damaged save is a ValueError.

        A save without ``rules_version`` (written before rules had versions) is version 1."""
        self.check_header(data)
        version = self.check_rules_version(data.get("rules_version", 1))
        try:
            state = self._load(data)
        except ValueError:
            raise
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"this saved state is damaged: {type(exc).__name__}: {exc}") from exc
        state.rules_version = version
        return state

    def _new(self, players: int, seed: int, options: Options, rules_version: int) -> AnyState:
        """Set up a game; the state's ``rules_version`` is set before anything the rules decide."""
        raise NotImplementedError

    def _load(self, data: Saved) -> AnyState:
        raise NotImplementedError

    # -- shared validation -----------------------------------------------------------------
    def check_rules_version(self, version: object) -> int:
        """``version`` if this code can play it; else a ValueError saying which it can."""
        if not isinstance(version, int) or isinstance(version, bool):
            raise ValueError(f"the rules version must be an integer, not {version!r}")
        if version not in self.rules_versions:
            known = ", ".join(str(v) for v in sorted(self.rules_versions))
            raise ValueError(f"{self.title} has no rules version {version}; this code plays version(s) {known}")
        return version

    def check_players(self, players: object) -> int:
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError("the player count must be an integer")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} takes {self.min_players} to {self.max_players} players, not {players}")
        return players

    def resolve_options(self, options: Options | None) -> Options:
        """Fill in defaults and refuse unknown options or values."""
        spec = self.options()
        given = dict(options or {})
        unknown = sorted(set(given) - set(spec))
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r} for {self.id}")
        resolved: Options = {}
        for name, info in spec.items():
            value = given.get(name, info["default"])
            if value not in info["choices"]:
                raise ValueError(f"option {name!r} must be one of {info['choices']}, not {value!r}")
            resolved[name] = value
        return resolved

    def check_header(self, data: object) -> Saved:
        """Validate the common part of a saved state."""
        if not isinstance(data, dict):
            raise ValueError("a saved state must be a dict")
        if data.get("game") != self.id:
            raise ValueError(f"this saved state is for {data.get('game')!r}, not {self.id!r}")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise ValueError("'version' must be a non-negative integer")
        self.check_players(data.get("players"))
        return data
