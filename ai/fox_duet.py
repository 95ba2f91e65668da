"""The Fox in the Forest Duet knowledge for the search: a rollout policy that steers the tracker.

Random rollouts overshoot and miss gems so often that nearly every rollout is lost, whatever
the move searched. The policy plays each trick for where it sends the tracker: a follower
plays the card whose trick lands the tracker on the most gems (an overshoot costs a forest
token, the last one the game); a leader plays the card whose trick, with the partner's best
answer by the same rule, lands best; a gazelle's winner ignores the footprints and a musician's
winner picks the direction that land best. The fox, the gift and the round's forest token stay
random, and ``EXPLORE`` of the steps too, so rollouts stay varied.

Reads only the state it is given: in the search, a determinization (where the partner's hand is
one drawn consistently with what the seat has seen).
"""

from __future__ import annotations

import random
from typing import Any, cast

from ai.knowledge import Knowledge
from engine import Action, State
from engine.fox_duet import board
from engine.fox_duet.cards import CARDS, MUSICIAN, playable, trick_winner
from engine.fox_duet.state import FoxDuetState


def own(state: State[Any, Any]) -> FoxDuetState:
    """``state`` as a FoxDuetState (for ai/knowledge.py, which dispatched on ``state.game.id``)."""
    return cast(FoxDuetState, state)


EXPLORE = 0.15
OVERSHOOT = -2.0  # a forest token lost; with none left the game is lost
LOST = -10.0


def landing(state: FoxDuetState, steps: int, toward: int) -> float:
    """How good it is for the tracker to move ``steps`` toward ``toward``'s end now."""
    target = board.move(state.tracker, steps, toward, state.covered)
    if target is None:
        return LOST if state.forest_left == 0 else OVERSHOOT
    gems = state.gems[target]
    return 1.0 + 0.1 * gems if gems else 0.0


def trick_value(state: FoxDuetState, plays: list[tuple[int, str]]) -> float:
    """A finished trick of (seat, card) pairs: the best the winner can make of it (a musician
    lets the winner choose the direction)."""
    winner = trick_winner(plays, CARDS[state.decree].suit)
    steps = sum(CARDS[c].footprints for _, c in plays)
    if steps and any(CARDS[c].ability == MUSICIAN for _, c in plays):
        return max(landing(state, steps, 0), landing(state, steps, 1))
    return landing(state, steps, winner)


def answer(state: FoxDuetState, seat: int, led: tuple[int, str]) -> float:
    """The follower's best trick after ``led``: the value of its best card."""
    hand = [c for c in state.hands[seat] if c != led[1]]
    return max((trick_value(state, [led, (seat, c)]) for c in playable(hand, led[1])), default=0.0)


def policy(state: FoxDuetState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    if rng.random() < EXPLORE:
        return rng.choice(actions)
    phase = state.phase
    scored: list[tuple[float, float, Action]] = []
    if phase == "play":
        partner = 1 - seat
        for action in actions:
            if action.verb != "play":
                continue
            card = action.args[0]
            if state.trick_cards:
                led = state.trick_cards[0]
                value = trick_value(state, [(led["seat"], led["card"]), (seat, card)])
            else:
                value = answer(state, partner, (seat, card))
            scored.append((value, rng.random(), action))
    elif phase == "gazelle":
        trick = [p["card"] for p in state.trick_cards]
        winner = state.pending["winner"]
        for action in actions:
            if action.verb != "ignore":
                continue
            choice = action.args[0]
            ignored = [] if choice == "none" else trick if choice == "both" else [choice]
            steps = sum(CARDS[c].footprints for c in trick if c not in ignored)
            musician = steps and any(CARDS[c].ability == MUSICIAN for c in trick)
            value = (
                max(landing(state, steps, 0), landing(state, steps, 1)) if musician else landing(state, steps, winner)
            )
            scored.append((value, rng.random(), action))
    elif phase == "direction":
        steps = state.pending["steps"]
        scored = [(landing(state, steps, int(a.args[0])), rng.random(), a) for a in actions if a.verb == "toward"]
    if scored:
        return max(scored)[2]
    return rng.choice([a for a in actions if a.verb != "concede"] or actions)


class FoxDuetKnowledge(Knowledge):
    """Co-operative, and not scorable half played (``standing`` is None): a position is worth the
    share of the gems collected and the forest tokens still left (each one a later chance). Its
    rollouts are kept short. Its tree holds only the computer's own choice (flat Monte Carlo over
    determinizations), the partner played by the policy on each determinized hand: in a tree
    shared by all determinizations the partner's moves are chosen by UCB across every hand the
    partner was dealt in them, as if it played one move whatever its hand (strategy fusion). On
    the same 30 seeds at level 2, two normal computers won 29 games this way, 23 with the full
    tree and 23 with a tree of the computer's own moves only (docs/AI.md)."""

    game_id = "fox-duet"
    rollout_share = 0.3
    depth = 1

    def evaluate(self, state: State) -> list[float] | None:
        public = state.view(None)["public"]
        collected = public["gems_collected"]
        on_board = public["gems_on_board"]
        progress = collected / (collected + on_board) if collected + on_board else 1.0
        total = public["forest_tokens_total"] or 1
        forest = public["forest_tokens_left"] / total
        value = 0.45 * progress + 0.15 * forest
        return [value, value]

    def policy(self, state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
        return policy(cast(FoxDuetState, state), seat, actions, rng)


KNOWLEDGE = FoxDuetKnowledge()
