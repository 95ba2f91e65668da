"""What a channel must never show: the cards in players' hands that the rules keep secret."""

from __future__ import annotations

from engine import GAMES
from services.wording.fox_duet import card_name
from tests.support.driver import labels


def hidden_fox_cards(seed: int, options: dict, log: list[tuple[int, str]], since: int | None = None) -> list[str]:
    """Names (as the bot words them) of every card now in a hand that the rules keep secret.

    Replays the game: a decree card taken into a hand by the fox lay face up on the table, so
    it is public; everything else in a hand is secret. A card played face up in the moves that
    one board tells (the moves from index ``since`` on; by default the last move) is named by
    that board even when a new round has just dealt the same card into a hand again: the board
    tells the play, not the new hand. A gazelle's choice is its own move, so the board after it
    also tells the card played one move earlier.
    """
    state = GAMES["fox-duet"].new(2, seed, options)
    events = list(getattr(state, "setup_events", []))
    start = len(log) - 1 if since is None else since
    told: list[dict] = []
    for index, (seat, action) in enumerate(log):
        applied = state.apply(seat, action)
        events += applied
        if index >= start:
            told += applied
    revealed = {
        event[key]["id"]
        for event in events
        if event["visible_to"] is None
        for key in ("decree", "old", "new")
        if isinstance(event.get(key), dict)
    }
    revealed |= {e["card"]["id"] for e in told if e["type"] == "card played" and e["visible_to"] is None}
    return [
        card_name(card, "en")
        for seat in range(state.players)
        for card in state.view(seat)["private"]["hand"]
        if card["id"] not in revealed
    ]


def assert_no_hand_shown(message, hidden: list[str]) -> None:
    text = " ".join([message.content, *labels(message)])
    for name in hidden:
        assert name not in text, f"{name} (in a hand) is shown in the channel: {text!r}"
