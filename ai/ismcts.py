"""Computer players: information-set Monte Carlo tree search over determinizations.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): every iteration draws a
determinization of the position from the computer's own seat (``State.determinize``: the
hidden things drawn again, consistently with what the seat has seen), walks down one tree
shared by all iterations, choosing among the actions legal in this determinization by UCB1
with availability counts, adds one node, plays on with the game's rollout policy, values where
the rollout stopped, and backs the result up. The move played is the root's most visited action.

Honest by construction: the search only ever reads determinizations, which depend on the
seat's view and the seed alone (tests/engine/test_determinize.py, tests/ai/). Deterministic
given a seed, so tests reproduce a game. Levels differ by the search budget alone.

Pure Python over the engine contract: ``standing`` evaluates a position when a rollout is cut
short; ai/knowledge.py adds what a game cannot say through the contract: rollout policies (every
game), evaluations (Fox Duet, Noctiluca, and the margin of Vivarium and TM dice) and move
ordering (Noctiluca). Moves are applied with ``State.apply_known``: each was just taken from
the legal actions of the same position.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ai import knowledge
from engine import Action, Game, Outcome, State

GIVE_UP = ("resign", "concede")


class Abandoned(Exception):
    """A search given up before its end: whoever asked for it no longer wants it (``stop``)."""


@dataclass(frozen=True)
class Level:
    """A level is a search budget, counted in engine steps (moves applied in the tree and the
    rollouts), so a decision costs about the same time in every game and stays reproducible
    (a budget in seconds would make the move depend on the machine's load); and how far each
    rollout plays before the position is scored as it stands."""

    name: str
    steps: int
    rollout_steps: int
    exploration: float = 0.7
    min_iterations: int = 8
    # Whether the game's default move (knowledge.default_move, Terraforming Mars: The Dice Game's
    # goal-seeking player) stands unless the search is confident of a better one. Only hard
    # trusts it: easy and normal play their search alone, noise and all. With the default at
    # normal too, both levels played the goal seeker's move nearly always and hard beat normal
    # in only 19 of 35 games (docs/AI.md).
    default: bool = True


LEVELS: dict[str, Level] = {
    "easy": Level("easy", steps=500, rollout_steps=20, default=False),
    "normal": Level("normal", steps=3000, rollout_steps=30, default=False),
    "hard": Level("hard", steps=10000, rollout_steps=40),
}


@dataclass
class Node:
    seat: int  # the seat whose action led here
    visits: int = 0
    total: float = 0.0  # the rewards of ``seat`` through this node
    squares: float = 0.0  # their squares (the spread of the rewards, for ``confident``)
    available: int = 0  # how often this action was legal when its parent was visited
    steps: int = 0  # the budget's engine steps spent by the iterations through this node
    children: dict[str, Node] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        if self.visits == 0:
            return math.inf
        return self.total / self.visits + exploration * math.sqrt(math.log(max(1, self.available)) / self.visits)


def playable(state: State, seat: int) -> list[Action]:
    """The seat's legal actions, never giving up while anything else is possible."""
    actions = state.legal_actions(seat)
    if type(state.game).action_kind is not Game.action_kind:  # kinds that depend on more than the verb
        kept = [a for a in actions if state.action_kind(a) not in GIVE_UP]
        return kept or actions
    # Otherwise the kinds are declared per verb (Game.action_kinds): the verbs that give up.
    quits = {verb for verb, kind in state.game.action_kinds.items() if kind in GIVE_UP}
    if not quits:
        return actions
    kept = [a for a in actions if a.verb not in quits]
    return kept or actions


def rewards(state: State, players: int) -> list[float]:
    """Each seat's result in [0, 1] (``knowledge.outcome_rewards``): a finished game by its
    outcome, an unfinished one by the game's evaluation (``knowledge.evaluate``)."""
    outcome: Outcome | None = state.outcome()
    if outcome is None:
        return knowledge.evaluate(state) or [0.5] * players
    return knowledge.outcome_rewards(list(map(float, outcome.scores)), list(outcome.winners), players)


def rollout(state: State, rng: random.Random, steps: int) -> int:
    """The game's rollout policy (``knowledge.policy``, never giving up) for at most ``steps``
    steps; the steps played."""
    for played in range(steps):
        if state.outcome() is not None:
            return played
        movers = state.to_move()
        if not movers:
            return played
        seat = movers[0] if len(movers) == 1 else rng.choice(movers)
        # The policy returns one of the legal actions it was given, at this very position.
        state.apply_known(seat, knowledge.policy(state, seat, playable(state, seat), rng))
    return steps


def choose(state: State, seat: int, level: str | Level = "normal", seed: int = 0) -> Action:
    """The computer's move for ``seat`` in ``state`` (``seat`` must be one of those to move)."""
    return weigh(state, seat, level, seed)[0]


def weigh(
    state: State,
    seat: int,
    level: str | Level = "normal",
    seed: int = 0,
    tree: Node | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[Action, Node | None]:
    """``choose``, with the search tree behind the move (None when there was nothing to weigh).

    ``tree``: a tree already grown for this very decision (``play_turn`` hands on the subtree of
    the seat's previous move of the same turn); the search goes on from it up to the level's
    budget instead of starting afresh. ``stop``: see ``search``."""
    budget = LEVELS[level] if isinstance(level, str) else level
    if seat not in state.to_move():
        raise ValueError(f"seat {seat} is not to move")
    options = playable(state, seat)
    if len(options) == 1:
        return options[0], None
    considered = knowledge.candidates(state, seat, options)
    if len(considered) == 1:
        return considered[0], None
    legal = {a.text: a for a in options}
    default = knowledge.default_move(state, seat, options, seed) if budget.default else None
    # The search may stop once its most visited move can no longer be overtaken (``settled``):
    # the move is then the one the whole budget would have chosen. With a default move, only
    # when the search agrees with it (else the confidence test below wants every iteration).
    settle = set(legal) if default is None else {default.text}
    root = search(state, seat, budget, seed, tree, settle=settle, stop=stop)
    order = {text: index for index, text in enumerate(legal)}
    best = max(
        (t for t in root.children if t in legal),
        key=lambda t: (root.children[t].visits, root.children[t].total, -order[t]),
    )
    if default is not None and best != default.text:
        weighed = root.children.get(default.text)
        if weighed is None or not confident(root.children[best], weighed):
            return default, root
    return legal[best], root


def search(
    state: State,
    seat: int,
    budget: Level,
    seed: int,
    tree: Node | None = None,
    settle: set[str] | None = None,
    stop: Callable[[], bool] | None = None,
) -> Node:
    """The search tree of ``seat``'s decision in ``state``: its root, whose children are the
    seat's moves weighed. Where a game limits the tree's depth (``knowledge.tree_depth``: Fox
    Duet keeps only the root, so its partner is played by the policy on each determinized hand
    rather than by one move chosen across all of them), the rollout takes over at that depth.

    ``tree``: a tree grown for this decision already (``ai/turn_budgets.py``): its steps count against
    the budget, and the search goes on growing it.

    ``settle``: stop before the budget is spent once the root's most visited move is one of
    these and no other move can catch up with it in the iterations left (``settled``): the move
    chosen by visits is the same, the rest of the budget would only have confirmed it.

    ``stop``: asked every few iterations; when it says so the search raises ``Abandoned`` (a
    search ahead nobody wants any more, services/computer_turns.py). It can only end a search, never change
    what a search that ends chooses."""
    rng = random.Random(seed)
    players = _players(state)
    root = tree if tree is not None else Node(seat=-1)
    cost = knowledge.determinize_steps(state)
    depth = knowledge.tree_depth(state)
    spent = root.steps
    iterations = root.visits
    least = cost + 1  # an iteration's fewest steps: its determinization and one move at the root
    while spent < budget.steps or iterations < budget.min_iterations:
        if stop is not None and iterations % SETTLE_EVERY == 0 and stop():
            raise Abandoned
        if settle is not None and iterations % SETTLE_EVERY == 0:
            left = max(-(-(budget.steps - spent) // least), budget.min_iterations - iterations)
            if settled(root, settle, left):
                break
        iterations += 1
        begun = spent
        spent += cost  # the determinization itself
        world = state.determinize(seat, rng.getrandbits(63))
        node = root
        path: list[Node] = []
        # Selection and expansion: the root is always the computer's own choice.
        while world.outcome() is None and (depth is None or len(path) < depth):
            movers = world.to_move()
            if not movers:
                break
            mover = seat if node is root else (movers[0] if len(movers) == 1 else rng.choice(movers))
            moves = {a.text: a for a in knowledge.candidates(world, mover, playable(world, mover))}
            texts = list(moves)
            for text in texts:
                child = node.children.get(text)
                if child is not None:
                    child.available += 1
            untried = [t for t in texts if t not in node.children]
            if untried:
                text = untried[rng.randrange(len(untried))]
                child = Node(seat=mover, available=1)
                node.children[text] = child
                world.apply_known(mover, moves[text])
                spent += 1
                path.append(child)
                break
            text = max(texts, key=lambda t: (node.children[t].ucb(budget.exploration), -texts.index(t)))
            world.apply_known(mover, moves[text])
            spent += 1
            node = node.children[text]
            path.append(node)
        spent += rollout(world, rng, knowledge.rollout_steps(world, budget.rollout_steps))
        result = rewards(world, players)
        root.visits += 1
        root.steps += spent - begun
        for visited in path:
            visited.visits += 1
            visited.steps += spent - begun
            reward = result[visited.seat] if visited.seat < len(result) else 0.5
            visited.total += reward
            visited.squares += reward * reward
    return root


# Iterations between two looks at whether the search has settled (``settled``).
SETTLE_EVERY = 8


def settled(root: Node, settle: set[str], left: int) -> bool:
    """Whether ``left`` more iterations cannot change the root's most visited move, one of
    ``settle``: it leads every other move by more than ``left`` visits (each iteration adds one
    visit to one root move), so ties and the order of the moves cannot matter either."""
    first = second = -1
    leader = None
    for text, child in root.children.items():
        if child.visits > first:
            first, second, leader = child.visits, first, text
        elif child.visits > second:
            second = child.visits
    return leader in settle and first - max(second, 0) > left


# How sure the search must be that its move beats the game's default move (knowledge.default_move)
# to play it instead: a one-sided z of 1.64, about 95 %.
CONFIDENCE_Z = 1.64


def confident(best: Node, default: Node) -> bool:
    """Whether ``best``'s mean reward is above ``default``'s by more than the noise of both
    (Welch's z on the rewards backed up through each)."""
    if best.visits < 2 or default.visits < 2:
        return False
    means = [n.total / n.visits for n in (best, default)]
    spreads = [max(0.0, n.squares / n.visits - (n.total / n.visits) ** 2) / (n.visits - 1) for n in (best, default)]
    error = math.sqrt(sum(spreads)) or 1e-9
    return (means[0] - means[1]) / error > CONFIDENCE_Z


def _players(state: State) -> int:
    players = getattr(state, "players", None)
    if isinstance(players, int):
        return players
    raise ValueError("the state does not say how many players it has")


def random_choice(state: State, seat: int, seed: int = 0) -> Action:
    """A legal move at random (never giving up): the baseline the levels are measured against."""
    return random.Random(seed).choice(playable(state, seat))


def decide(state: State, seat: int, level: str, seed: int) -> Action:
    """The move of a computer of ``level`` ("random" too, for measurements)."""
    if level == "random":
        return random_choice(state, seat, seed)
    return choose(state, seat, level, seed)
