"""The one way to reach the project's data files: ``data/`` in a checkout, ``meeple_data`` once installed.

``data/`` is mapped to the package ``meeple_data`` (pyproject.toml), so ``importlib.resources``
finds it in a wheel install, an editable install and a zip alike; nothing depends on where the
source tree is or on the working directory. Engine, renderers and bot all read through here.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

DATA_PACKAGE = "meeple_data"


def data_file(*parts: str) -> Traversable:
    """The data file or folder at ``parts`` (``data_file("fonts", "DejaVuSans.ttf")``); it may not exist."""
    found = resources.files(DATA_PACKAGE)
    for part in parts:
        for piece in part.split("/"):
            if piece in ("", ".", ".."):
                raise ValueError(f"not a data file name: {part!r}")
            found = found.joinpath(piece)
    return found
