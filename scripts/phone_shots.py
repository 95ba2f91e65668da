"""Phone-sized screenshots of every game's board in the sandbox, in every language.

Starts the sandbox as ``./scripts/start`` does without a token (the bot on loopback), opens it in
headless Chromium as a phone (390 x 844, device scale factor 3), and for each game, player count and
language opens a table in a thread of its own (computers fill the other seats), plays a few turns by
clicking as Alice, and saves a screenshot of each board message as it shows inline in the channel:
``<out>/<lang>/<game>-<n>.png`` (``<game>`` with its player count: ``vivarium-4p``). A Vivarium take
step with seven or eight cards on offer is also saved, as ``<game>-offer<k>.png``.

    .venv/bin/python scripts/phone_shots.py                       # all, into /work/wt/_shots
    .venv/bin/python scripts/phone_shots.py --out shots --games vivarium-4p --languages zh-TW --turns 3

It needs the test tools (Playwright) and Debian's Chromium, as the browser tests do
(``tests/sandbox``), whose helpers it uses to start the sandbox and to click.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import random
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from engine import GAMES  # noqa: E402
from render.vivarium.board_picture import offered  # noqa: E402
from services.storage import Database  # noqa: E402
from tests.sandbox.conftest import CHROMIUM_ARGS, Started, chromium_path, started_sandbox  # noqa: E402
from tests.sandbox.test_sandbox_browser import BOARDS, HAND, Tab, play_one, run_command  # noqa: E402

PHONE = {"width": 390, "height": 844, "scale": 3}
OUT = Path("/work/wt/_shots")
LANGUAGES = {"en": "en-US", "zh-TW": "zh-TW", "pt-BR": "pt-BR"}  # table language: the client's locale
BIG_OFFER = 7  # a Vivarium take step with at least this many cards on offer is saved as well
# Whose turn it is now: Alice is asked (mentioned), or the game is over (no "My hand" on the newest board).
ALICE_OR_OVER = """([sel, hand]) => {
    const boards = document.querySelectorAll(sel);
    const last = boards[boards.length - 1];
    if (!last) return false;
    const mention = [...last.querySelectorAll(".content .mention")].some(m => m.innerText === "@Alice");
    return mention || !last.querySelector(hand);
}"""


@dataclass(frozen=True)
class Setup:
    """A table to open: the game, how many play (Alice and computers)."""

    game: str
    players: int

    @property
    def label(self) -> str:
        return f"{self.game}-{self.players}p"


SETUPS = (
    Setup("fox-duet", 2),
    Setup("noctiluca", 1),
    Setup("noctiluca", 3),
    Setup("vivarium", 2),
    Setup("vivarium", 4),
    Setup("tm-dice", 1),
    Setup("tm-dice", 3),
)


async def _public_view(database: Path, channel_id: int) -> dict[str, Any] | None:
    db = await Database.open(database)
    try:
        rows = await db.query("SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        if not rows:
            return None
        row = await db.get_game(rows[0]["id"])
        seats = await db.seats(row.id)
        state = GAMES[row.game].new(len(seats), row.seed, row.options, row.rules_version)
        for entry in await db.actions(row.id):
            state.apply(entry.seat, entry.action)
        return state.view(None)["public"]
    finally:
        await db.close()


def public_view(database: Path, channel_id: int) -> dict[str, Any] | None:
    """The public view of the game in that channel now (from a thread: Playwright keeps a loop in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _public_view(database, channel_id)).result()


def set_language(tab: Tab, locale: str) -> None:
    """Pick the client language from the menu in the top bar (on a phone, out of sight) and wait until taken."""
    tab.page.locator("#me-language").evaluate(
        "(menu, locale) => { menu.value = locale; menu.dispatchEvent(new Event('change')); }", locale
    )
    tab.page.wait_for_function("locale => S.me.locale === locale", arg=locale)


def open_table(tab: Tab, url: str, setup: Setup, language: str) -> None:
    """``/table create`` in #games with its own thread and computers in the other seats; open the thread, start."""
    page = tab.page
    set_language(tab, "en-US")  # the command is typed by its English name; the table's language is an option

    def fill() -> None:
        page.locator('.opt-field[data-option="game"] select').select_option(setup.game)
        page.locator('.opt-add[data-option="thread"]').click()
        page.locator('.opt-field[data-option="thread"] select').select_option("true")
        page.locator('.opt-add[data-option="language"]').click()
        page.locator('.opt-field[data-option="language"] select').select_option(language)
        if setup.players > 1:
            page.locator('.opt-add[data-option="computers"]').click()
            page.locator('.opt-field[data-option="computers"] input').fill(str(setup.players - 1))

    page.goto(f"{url}?as={tab.username}&channel=games")  # the page opens on the first channel listed: a thread
    page.wait_for_function("() => document.getElementById('channel-name').textContent === 'games'")
    threads = "() => [...document.querySelectorAll('#channel-list .channel.thread')].map(c => c.dataset.channelId)"
    before = page.evaluate(threads)
    run_command(tab, "table create", fill)
    page.wait_for_function(f"before => ({threads})().some(id => !before.includes(id))", arg=before)
    thread = next(i for i in page.evaluate(threads) if i not in before)  # the table's own thread, new
    page.goto(f"{url}?as={tab.username}&channel={thread}")
    page.wait_for_function(
        "id => document.querySelector('#channel-list .channel.current')?.dataset.channelId === id", arg=thread
    )
    set_language(tab, LANGUAGES[language])  # her hand and private answers in the table's language too
    page.locator('#messages .dbutton[data-custom-id^="mp:lobby:"][data-custom-id$=":start"]').last.click()
    tab.wait_for_boards(0)


# Scroll the channel to show a board message (see ``snap``).
PLACE = """(message, image) => {
    const scroller = message.closest(".scroller");
    const room = scroller ? scroller.clientHeight : window.innerHeight;
    if (message.getBoundingClientRect().height <= room) message.scrollIntoView({block: "start"});
    else image.scrollIntoView({block: image.getBoundingClientRect().height <= room ? "end" : "start"});
}"""


@dataclass(frozen=True)
class Shot:
    """A screenshot saved, and where the board's image was on it (CSS pixels) and its address on the page."""

    path: Path
    box: tuple[float, float, float, float]  # x, y, width, height
    source: str


def snap(tab: Tab, path: Path) -> Shot:
    """The phone's screen showing the newest board message as it shows inline in the channel: the message from
    its top if it fits the screen, else its picture whole, as low as it goes (the text above it shows as far as
    it fits), else the picture from its top."""
    board = tab.boards().last
    image = board.locator('img[data-filename="board.png"]')
    tab.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    board.evaluate(PLACE, image.element_handle())
    tab.page.wait_for_timeout(100)  # the scroll settles
    path.parent.mkdir(parents=True, exist_ok=True)
    tab.page.screenshot(path=str(path))
    box = image.bounding_box()
    assert box is not None
    return Shot(path, (box["x"], box["y"], box["width"], box["height"]), image.get_attribute("src") or "")


def play(tab: Tab, rng: random.Random) -> None:
    """One move of Alice's: from a menu on the board now and then (Vivarium's take step has them), else as
    the browser tests play (a button on the board, or from her hand)."""
    board = tab.boards().last
    menus = board.locator(".dselect")
    if not menus.count() or rng.random() < 0.3:
        play_one({"alice": tab}, rng)
        return
    shown = tab.shown()
    menu = menus.nth(rng.randrange(menus.count()))
    menu.locator(".dselect-box").click()
    options = menu.locator(".dselect-option")
    options.nth(rng.randrange(options.count())).click()
    tab.wait_for_board_change(shown)


def shoot(browser: Browser, started: Started, setup: Setup, language: str, out: Path, turns: int) -> list[Shot]:
    """Open a table of ``setup`` in ``language`` and save its boards as Alice plays ``turns`` moves."""
    tab = Tab(browser, started.url, "alice", PHONE["width"], PHONE["height"], PHONE["scale"])
    saved: list[Shot] = []
    rng = random.Random(29)
    folder = out / language
    try:
        open_table(tab, started.url, setup, language)
        thread = int(tab.page.locator("#channel-list .channel.current").get_attribute("data-channel-id") or 0)
        big_offer = setup.game != "vivarium"  # only Vivarium has one to look for
        moves = boards = stalls = 0
        while True:
            tab.page.wait_for_function(ALICE_OR_OVER, arg=[BOARDS, HAND], timeout=180_000)
            boards += 1
            saved.append(snap(tab, folder / f"{setup.label}-{boards}.png"))
            over = not tab.boards().last.locator(HAND).count()
            if not big_offer:
                public = public_view(started.database, thread) or {}
                shown = len(offered(public))
                if public.get("phase") == "take" and shown >= BIG_OFFER:
                    saved.append(snap(tab, folder / f"{setup.label}-offer{shown}.png"))
                    big_offer = True
            if over or (moves >= turns and big_offer) or moves >= turns * 6:
                break
            try:
                play(tab, rng)
            except (PlaywrightTimeout, AssertionError) as error:
                # A loaded machine is slow to draw, or the board changed under the click (a computer's step
                # edits it): wait for Alice's turn again, a few times at most.
                stalls += 1
                if stalls > 3:
                    raise
                print(f"{language} {setup.label}: waiting again ({str(error).splitlines()[0][:80]})", flush=True)
                continue
            stalls = 0
            moves += 1
        if tab.errors:
            raise RuntimeError(f"the page reported errors: {tab.errors}")
    except Exception:
        folder.mkdir(parents=True, exist_ok=True)
        tab.page.screenshot(path=str(folder / f"{setup.label}-failed.png"))  # what the page showed, to see why
        (folder / f"{setup.label}-failed.log").write_text(started.log()[-20_000:])  # and what the bot said
        raise
    finally:
        tab.close()
    return saved


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"the folder of the screenshots (default {OUT})")
    parser.add_argument("--games", nargs="*", default=[s.label for s in SETUPS], help="game-Np labels")
    parser.add_argument("--languages", nargs="*", default=list(LANGUAGES), choices=list(LANGUAGES))
    parser.add_argument("--turns", type=int, default=4, help="moves Alice plays per table (default 4)")
    args = parser.parse_args(argv)
    setups = [s for s in SETUPS if s.label in args.games]
    unknown = set(args.games) - {s.label for s in setups}
    if unknown:
        parser.error(f"unknown games {sorted(unknown)}; choose from {[s.label for s in SETUPS]}")
    executable = chromium_path()
    if executable is None:
        parser.error("Chromium is not installed (apt-get install chromium)")
    failed: list[str] = []
    with tempfile.TemporaryDirectory() as home, started_sandbox(Path(home)) as started, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            for language in args.languages:
                for setup in setups:
                    try:
                        paths = shoot(browser, started, setup, language, args.out, args.turns)
                    except Exception as error:  # the other tables are still worth their screenshots
                        failed.append(f"{language} {setup.label}")
                        print(f"{language} {setup.label}: failed: {error}", flush=True)
                        continue
                    print(f"{language} {setup.label}: {len(paths)} screenshots", flush=True)
        finally:
            browser.close()
    print(f"saved in {args.out}" + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
