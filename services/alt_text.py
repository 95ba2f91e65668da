"""Alt text: every picture the bot posts says in words what it shows (Discord's attachment
``description``), in the language of whoever reads the message it is on.

A board's alt text is built from the public view only (whose turn, the current choice, the
scores, what just happened), so it may stand in a channel; a hand's describes the hand to its
owner and is only ever put on a DM or an answer only they see. Each game's facts come from its
wording adapter (``GameAdapter.board_facts``); this module puts them together and keeps them
within Discord's limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine import Outcome
from l10n.typography import shortened
from l10n.words import game_title, t
from services.wording import adapter_for

LIMIT = 1024  # Discord's limit on an attachment's description, in characters

_MENTION = re.compile(r"<@!?(\d+)>")
_CUSTOM_EMOJI = re.compile(r"<a?:(\w+):\d+>")
_LINK = re.compile(r"\[([^\]]*)\]\(<?https?://[^)>]*>?\)")
_URL = re.compile(r"<?https?://\S+>?")
_MARKS = re.compile(r"\*\*|__|~~|\|\||`")
_HEADING = re.compile(r"^\s*(?:#{1,3}|>|-#)\s+")
_SPACES = re.compile(r"[ \t]+")


def plain(text: str, names: Mapping[int, str] | None = None) -> str:
    """Text as a screen reader should say it: mentions as names (or dropped), no Markdown, no links."""
    known = names or {}
    text = _MENTION.sub(lambda m: known.get(int(m.group(1)), ""), text)
    text = _CUSTOM_EMOJI.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _URL.sub("", text)
    text = _MARKS.sub("", text)
    lines = (_SPACES.sub(" ", _HEADING.sub("", line)).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def fit(parts: Iterable[str], names: Mapping[int, str] | None = None) -> str:
    """The parts as one description of at most ``LIMIT`` characters (cut with an ellipsis)."""
    text = plain("\n".join(p for p in parts if p), names)
    return shortened(text, LIMIT)


def board(
    game: str,
    public: Mapping[str, Any],
    movers: Sequence[int],
    names: Sequence[str],
    locale: str,
    lines: Sequence[str] = (),
    outcome: Outcome | None = None,
    users: Sequence[int] = (),
) -> str:
    """A board's alt text, from the public view: whose turn and the current choice (or the final
    result), the scores, then what just happened (``lines``: the board message's public lines)."""
    adapter = adapter_for(game)
    title = game_title(game, locale)
    if outcome is not None:
        parts = [t("alt.board.final", locale, game=title), *adapter.outcome_lines(outcome, list(names), locale)]
    else:
        parts = [t("alt.board", locale, game=title)]
        if movers:
            parts.append(adapter.prompt(public, [names[s] for s in movers if s < len(names)], locale))
        else:
            parts.append(adapter.status(public, locale))
        parts.extend(adapter.board_facts(public, names, locale))
    happened = [line for line in lines if line]
    if happened:
        parts.append(t("alt.board.happened", locale))
        parts.extend(happened)
    return fit(parts, dict(zip(users, names, strict=False)))


def past_board(game: str, public: Mapping[str, Any], names: Sequence[str], locale: str, title: str) -> str:
    """A board of the history (``title`` says which move it shows): the position, in words."""
    adapter = adapter_for(game)
    parts = [t("alt.history", locale, game=game_title(game, locale)), title, adapter.status(public, locale)]
    return fit([*parts, *adapter.board_facts(public, names, locale)])


def hand(game: str, view: Mapping[str, Any], locale: str) -> str:
    """A hand's alt text, for its owner only: the private view in words."""
    text = adapter_for(game).hand_text(view, locale)
    return fit([t("alt.hand", locale, game=game_title(game, locale)), text or t("alt.hand.empty", locale)])


def lines(title: str, body: Iterable[str], names: Mapping[int, str] | None = None) -> str:
    """A picture that shows what its message says (a profile, a leaderboard): the title and lines."""
    return fit([title, *body], names)


def mentioned(texts: Iterable[str]) -> list[int]:
    """The user ids mentioned in ``texts`` (to look their names up for the alt text)."""
    found: list[int] = []
    for text in texts:
        for match in _MENTION.finditer(text):
            if (user := int(match.group(1))) not in found:
                found.append(user)
    return found
