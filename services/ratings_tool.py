"""The operator's ratings command: ``python -m services.ratings_tool rebuild [--db PATH]``
recomputes every rating from the stored results (docs/RATINGS.md), as ``/meeple rebuild-ratings``
does in a running bot."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from services.config import database_setting, load_config, redact_url
from services.storage import Database
from services.storage.ratings import rebuild


async def _rebuild_file(path: Path | str) -> int:
    db = await Database.open(path)
    try:
        async with db.transaction() as conn:
            return await rebuild(conn)
    finally:
        await db.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m services.ratings_tool", description="Skill ratings of Meeple Post."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    again = commands.add_parser("rebuild", help="recompute every rating from the stored results")
    again.add_argument("--db", help="the database file or postgresql:// URL (default: MEEPLE_DB, as the bot uses)")
    args = parser.parse_args(argv)
    path = database_setting(args.db) if args.db else load_config().database
    if isinstance(path, Path) and not path.exists():
        print(f"No database at {path}.", file=sys.stderr)
        return 1
    games = asyncio.run(_rebuild_file(path))
    print(f"Ratings rebuilt from {games} rated game(s) in {redact_url(str(path))}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
