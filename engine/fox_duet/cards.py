"""The 30 cards of The Fox in the Forest Duet: suits, ranks, footprints, abilities, sorting.

The card list lives in ``data/fox-duet/cards.json`` and is checked against a schema when this
module is imported; the rules below only read the resulting tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.content import ContentError, OneOf, Range, load
from engine.core import Record

ABILITY_NAMES = ("musician", "fox", "gazelle", "gift", "royal")

CARDS_SCHEMA = {
    "suits": [str],
    "abilities": [
        {
            "name": OneOf(*ABILITY_NAMES),
            "rank": Range(1, 10),
            "short": str,
            "summary": str,
        }
    ],
    "cards": [
        {
            "id": str,
            "suit": str,
            "rank": Range(1, 10),
            "footprints": Range(0, 3),
            "ability": OneOf(None, *ABILITY_NAMES),
        }
    ],
}

if TYPE_CHECKING:
    from engine.fox_duet.views import CardView

MUSICIAN, FOX, GAZELLE, GIFT, ROYAL = ABILITY_NAMES


@dataclass(frozen=True)
class Card:
    id: str
    suit: str
    rank: int
    footprints: int
    ability: str | None

    def to_view(self) -> CardView:
        return {
            "id": self.id,
            "suit": self.suit,
            "rank": self.rank,
            "footprints": self.footprints,
            "ability": self.ability,
        }


def _build(data: Record) -> tuple[tuple[str, ...], dict[str, Card], dict[str, Record]]:
    suits = tuple(data["suits"])
    if len(suits) != 3 or len(set(suits)) != 3:
        raise ContentError("fox-duet/cards.json: exactly 3 different suits are needed")
    abilities = {a["name"]: a for a in data["abilities"]}
    if sorted(abilities) != sorted(ABILITY_NAMES):
        raise ContentError("fox-duet/cards.json: every ability must be described exactly once")
    ability_by_rank = {a["rank"]: a["name"] for a in data["abilities"]}
    cards: dict[str, Card] = {}
    footprints_by_rank: dict[int, int] = {}
    for raw in data["cards"]:
        card = Card(raw["id"], raw["suit"], raw["rank"], raw["footprints"], raw["ability"])
        where = f"fox-duet/cards.json: card {card.id!r}"
        if card.id != f"{card.suit}-{card.rank}":
            raise ContentError(f"{where}: its id must be '<suit>-<rank>'")
        if card.suit not in suits:
            raise ContentError(f"{where}: unknown suit {card.suit!r}")
        if card.id in cards:
            raise ContentError(f"{where}: listed twice")
        if card.ability != ability_by_rank.get(card.rank):
            raise ContentError(f"{where}: rank {card.rank} must have ability {ability_by_rank.get(card.rank)!r}")
        if footprints_by_rank.setdefault(card.rank, card.footprints) != card.footprints:
            raise ContentError(f"{where}: footprints differ from other cards of rank {card.rank}")
        cards[card.id] = card
    if len(cards) != 30 or {(c.suit, c.rank) for c in cards.values()} != {(s, r) for s in suits for r in range(1, 11)}:
        raise ContentError("fox-duet/cards.json: the deck must hold ranks 1-10 of each suit, 30 cards")
    return suits, cards, abilities


SUITS, CARDS, ABILITIES = _build(load("fox-duet/cards.json", CARDS_SCHEMA))

# Deck order: by suit (as listed in the data), then by rank. Hands are sorted this way.
ALL_CARD_IDS: tuple[str, ...] = tuple(sorted(CARDS, key=lambda cid: (SUITS.index(CARDS[cid].suit), CARDS[cid].rank)))
_ORDER = {cid: i for i, cid in enumerate(ALL_CARD_IDS)}


def card(card_id: str) -> Card:
    return CARDS[card_id]


def card_view(card_id: str) -> CardView:
    return CARDS[card_id].to_view()


def sort_hand(card_ids: list[str]) -> list[str]:
    return sorted(card_ids, key=_ORDER.__getitem__)


def is_card(value: object) -> bool:
    return isinstance(value, str) and value in CARDS


def has_ability(card_id: str, ability: str) -> bool:
    return CARDS[card_id].ability == ability


def trick_winner(plays: list[tuple[int, str]], trump: str) -> int:
    """The seat that wins a finished trick of (seat, card) pairs in play order.

    Any trump in the trick: the highest trump wins. Otherwise the highest card of the led suit.
    """
    led_suit = CARDS[plays[0][1]].suit
    trumps = [(CARDS[c].rank, s) for s, c in plays if CARDS[c].suit == trump]
    if trumps:
        return max(trumps)[1]
    followers = [(CARDS[c].rank, s) for s, c in plays if CARDS[c].suit == led_suit]
    return max(followers)[1]


def playable(hand: list[str], led: str | None) -> list[str]:
    """Cards of ``hand`` that may be played on a trick led by ``led`` (None when leading).

    The follower must follow the led suit if able; a led royal (9) lifts that duty.
    """
    if led is None or CARDS[led].ability == ROYAL:
        return list(hand)
    suit = CARDS[led].suit
    same = [c for c in hand if CARDS[c].suit == suit]
    return same or list(hand)
