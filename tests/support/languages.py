"""Which language a message is in, judged from the catalogues themselves.

Every entry of every catalogue is cut into its words (placeholders left out): Latin words of four
letters or more, and single Chinese characters. A word is a sign of language M in a message meant
for language L when some entry of M has it and no entry of L does: "rodada" is Portuguese in an
English message, "round" English in a Portuguese one, "輪" Chinese in either. Nothing is listed by
hand, so a new entry is checked the day it is written, and a word both languages use ("rating",
"Vivarium", a game title kept in English) is never held against either.

What is not the catalogues' is taken out before the check: Discord markup (mentions, timestamps,
links, custom emoji), the names the test gave its people and tournaments, and the languages'
own names (繁體中文, Português (Brasil)), which every language offers as they are. Command and
option names inside sentences are the command tree's: a slash command and an
``option:`` or ``option=`` written in a sentence are left out too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from bot.languages import LANGUAGES
from l10n import entries

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
LATIN = re.compile(r"[^\W\d_]{4,}")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# Discord markup and links: <@1>, <#1>, <t:1:R>, </name sub:1>, <:emoji:1>, https://...
MARKUP = re.compile(r"</?[@#:a-zA-Z!&][^<>\s]*(?: [^<>]*)?>|https?://\S+")
COMMAND = re.compile(r"`?/[^\W\d_][\w-]*(?: [^\W\d_][\w-]*){0,2}`?|`?\b[\w-]+\s?[:=]`")


def words(text: str) -> set[str]:
    """The words of a text the check compares: Latin words (4+ letters, case folded) and
    single Chinese characters."""
    found = {w.casefold() for w in LATIN.findall(CJK.sub(" ", text))}
    found.update(CJK.findall(text))
    return found


@cache
def catalogue_words(locale: str) -> dict[str, str]:
    """Each word of a catalogue, with one key that has it (to name it in a failure)."""
    found: dict[str, str] = {}
    for key, entry in entries(locale).items():
        for form in entry.forms:
            for word in words(PLACEHOLDER.sub(" ", form)):
                found.setdefault(word, key)
    return found


@cache
def foreign_words(locale: str) -> dict[str, tuple[str, str]]:
    """The words that betray another language in a message meant for ``locale``:
    word -> (that language, one of its keys with the word)."""
    own = set(catalogue_words(locale)) | words(" ".join(LANGUAGES.values()))
    foreign: dict[str, tuple[str, str]] = {}
    for other in LANGUAGES:
        if other == locale:
            continue
        for word, key in catalogue_words(other).items():
            if word not in own:
                foreign.setdefault(word, (other, key))
    return foreign


def strip(text: str, allowed: Iterable[str] = ()) -> str:
    """The text without what is not the catalogues': markup, commands, the given names."""
    text = MARKUP.sub(" ", text)
    text = COMMAND.sub(" ", text)
    for name in sorted(allowed, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def other_languages(text: str, locale: str, allowed: Iterable[str] = ()) -> list[str]:
    """What in ``text`` belongs to another language than ``locale``, as 'word (language: key)'."""
    foreign = foreign_words(locale)
    return sorted(
        f"{word!r} ({foreign[word][0]}: {foreign[word][1]})" for word in words(strip(text, allowed)) if word in foreign
    )


@dataclass
class Seen:
    """Every text a test saw, each with what it was: message contents, labels, alt texts,
    thread names, the words drawn on pictures."""

    texts: dict[tuple[str, int, int], str] = field(default_factory=dict)

    def add(self, kind: str, ident: int, version: int, text: str) -> None:
        if text.strip():
            self.texts[(kind, ident, version)] = text

    def problems(self, locale: str, allowed: Iterable[str]) -> list[str]:
        allowed = list(allowed)
        found = []
        for (kind, ident, version), text in self.texts.items():
            wrong = other_languages(text, locale, allowed)
            if wrong:
                found.append(f"{kind} {ident}/{version}: {', '.join(wrong)} in {text!r}")
        return found


def message_texts(message) -> list[str]:  # noqa: ANN001 - an emulator Message
    """Everything a reader sees of a message as text: content, embeds, buttons, menus, alt texts."""
    parts = [message.text()]
    for button in message.buttons():
        parts.append(button.get("label") or "")
    for menu in message.selects():
        parts.append(menu.get("placeholder") or "")
        for option in menu.get("options") or []:
            parts += [option.get("label") or "", option.get("description") or ""]
    for attachment in message.attachments:
        parts.append(getattr(attachment, "description", None) or "")
    return parts
