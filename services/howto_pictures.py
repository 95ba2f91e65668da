"""A How to play page's picture, worded and drawn in a drawing worker (``services.pictures``).

``bot.howto_ui`` answers with it; a worker imports this module, so it holds no Discord and no
database: only the catalogue's words and ``render.howto``.
"""

from __future__ import annotations

import re

from l10n.words import has, t
from render.howto import pages, render_page


def labels(game_id: str, page: str, loc: str) -> list[str]:
    """The lines of a page's numbered list: ``howto.<game>.<page>.label.1``, ``.2``... while they exist."""
    found: list[str] = []
    while has(key := f"howto.{game_id}.{page}.label.{len(found) + 1}", loc):
        found.append(t(key, loc))
    return found


def page_png(game_id: str, index: int, loc: str) -> bytes:
    page = pages(game_id)[index]
    # The names are listed as the language lists them ("Alice, Bob", "小安、小布").
    names = [name.strip() for name in re.split("[,、，]", t("howto.sample-names", loc))]
    title = t(f"howto.{game_id}.{page}.title", loc)
    return render_page(game_id, index, title, labels(game_id, page, loc), names, locale=loc)
