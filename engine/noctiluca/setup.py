"""Setting up a game and a round: the dice in the pool, pawns, favourites, the first jars, piles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, event
from engine.noctiluca import content
from engine.noctiluca.content import COMPONENTS, DICE_COLOURS, JAR_IDS, SPACES
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.noctiluca.state import NoctilucaState


def new_game(s: NoctilucaState, seed: int) -> None:
    """Set up a fresh game as the rulebook says; the events go to ``s.setup_events``."""
    s.rng = Rng(seed)
    s.lid = {c: COMPONENTS["dice_per_colour"] for c in DICE_COLOURS}
    events = [fill_board(s, 1)]
    if s.solo:
        s.pawns = [COMPONENTS["solo_pawns_per_round"]]
        s.storm = {"tokens": [], "dice": [], "arrow": 0, "last": None}
        s.first = 0
    else:
        s.pawns = [COMPONENTS["pawns"] // s.players] * s.players
        # The rulebook's youngest player starts; the bot cannot know ages, so chance decides.
        s.first = s.rng.below(s.players)
    s.current = s.first
    events.append(event("first player", None, seat=s.first, pawns=list(s.pawns)))
    favourites = [f["colour"] for f in content.FAVOURITES]
    s.rng.shuffle(favourites)
    s.favourites = favourites[: s.players]
    for seat in range(s.players):
        card = content.FAVOURITE_BY_COLOUR[s.favourites[seat]]
        events.append(event("favourite dealt", [seat], seat=seat, favourite=dict(card)))
    deck = list(JAR_IDS)
    s.rng.shuffle(deck)
    dealt = []
    for seat in range(s.players):
        hand, deck = deck[: COMPONENTS["jars_dealt"]], deck[COMPONENTS["jars_dealt"] :]
        dealt.append(hand)
        events.append(event("jars dealt", [seat], seat=seat, jars=list(hand)))
    s.deck = deck
    s.phase = "keep"
    s.pending = {"dealt": dealt, "kept": [None] * s.players}
    s.setup_events = events


def keep(s: NoctilucaState, seat: int, jar_ids: list[str]) -> list[Event]:
    """Keep two dealt jars in secret; once everyone has chosen, all are revealed together."""
    s.pending["kept"][seat] = list(jar_ids)
    events = [event("jars kept", [seat], seat=seat, jars=list(jar_ids))]
    if any(k is None for k in s.pending["kept"]):
        return events + [event("jar choice made", None, seat=seat)]
    set_aside = []
    for who in range(s.players):
        kept = s.pending["kept"][who]
        s.jars[who] = [{"id": j, "dice": [None] * len(s.jar_cards[j].slots)} for j in kept]
        set_aside += [j for j in s.pending["dealt"][who] if j not in kept]
    events.append(event("jars revealed", None, kept=[list(k) for k in s.pending["kept"]]))
    deck = s.deck + set_aside
    s.rng.shuffle(deck)
    if s.solo:
        s.deck, s.piles = deck, []
        events.append(event("deck formed", None, size=len(deck)))
    else:
        count = COMPONENTS["piles"]
        s.piles = [deck[i::count] for i in range(count)]
        s.deck = []
        events.append(
            event("piles formed", None, tops=[p[0] if p else None for p in s.piles], sizes=[len(p) for p in s.piles])
        )
    s.phase, s.pending = "shore", {}
    events.append(event("turn", None, seat=s.current, round=s.round))
    return events


def fill_board(s: NoctilucaState, round_: int) -> Event:
    """Put dice of random colours and faces from the box lid on every space (4 inner, 5 outer).

    When the lid runs short, the dice are spread as evenly as possible at random: each die goes
    to a random space among those holding the fewest dice that still have room.
    """
    total = sum(s.lid.values())
    need = sum(sp.capacity for sp in SPACES)
    s.spaces = [[] for _ in SPACES]
    if total >= need:
        for sp in SPACES:
            s.spaces[sp.id] = [draw_die(s) for _ in range(sp.capacity)]
    else:
        for _ in range(total):
            open_ = [sp for sp in SPACES if len(s.spaces[sp.id]) < sp.capacity]
            fewest = min(len(s.spaces[sp.id]) for sp in open_)
            target = s.rng.choice([sp.id for sp in open_ if len(s.spaces[sp.id]) == fewest])
            s.spaces[target].append(draw_die(s))
    return event(
        "board filled",
        None,
        round=round_,
        spaces=[list(d) for d in s.spaces],
        short=max(0, need - total),
        lid=sum(s.lid.values()),
    )


def draw_die(s: NoctilucaState) -> str:
    """Take a random die out of the box lid and roll it."""
    pick = s.rng.below(sum(s.lid.values()))
    for colour in DICE_COLOURS:
        if pick < s.lid[colour]:
            s.lid[colour] -= 1
            return content.die(colour, s.rng.randint(1, 6))
        pick -= s.lid[colour]
    raise AssertionError("the box lid is empty")  # unreachable: callers count first


def to_lid(s: NoctilucaState, dice: list[str]) -> None:
    for d in dice:
        s.lid[content.die_colour(d)] += 1


def end_round(s: NoctilucaState) -> list[Event]:
    """Round 1 is over: pawns, a refilled pool, the marker to the last diver, the other way round."""
    last = s.current
    events: list[Event] = [event("round ended", None, round=s.round)]
    for space in s.spaces:
        to_lid(s, space)
    if s.solo:
        # Round 1's pawns stay on their shores and block them; the 6 other pawns come in.
        s.pawns = [COMPONENTS["solo_pawns_per_round"]]
    else:
        s.shores = [None] * len(s.shores)
        s.pawns = [COMPONENTS["pawns"] // s.players] * s.players
    s.round = 2
    s.direction = -1
    events.append(fill_board(s, 2))
    s.first = s.current = last
    s.last_dive = None
    s.phase, s.pending = "shore", {}
    events.append(event("round started", None, round=2, first=last, direction="reversed"))
    events.append(event("turn", None, seat=s.current, round=s.round))
    return events
