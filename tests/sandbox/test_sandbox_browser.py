"""The sandbox in a real browser: two people play a whole Fox Duet game by clicking in the page."""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import json
import os
import random
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageChops, ImageStat
from playwright.sync_api import Browser, Locator, Page

from engine import GAMES
from sandbox.world import THREAD_NAME
from services.storage import Database
from services.wording.fox_duet import card_name
from tests.sandbox.conftest import Started

BOARDS = '#messages .message:not(.ephemeral):has(img[data-filename="board.png"])'
EPHEMERAL = "#messages .message.ephemeral"
ACT = '.dbutton[data-custom-id^="mp:act:"]'
HAND = '.dbutton[data-custom-id^="mp:hand:"]'
# What the newest board shows: its message, its text, its picture, its buttons (JavaScript, over the boards).
BOARD_SIGNATURE = """boards => {
    const last = boards[boards.length - 1];
    if (!last) return "";
    const content = last.querySelector(".content");
    const ids = [...last.querySelectorAll(".dbutton, .dselect")].map(b => b.dataset.customId || "");
    const image = last.querySelector('img[data-filename="board.png"]');
    const picture = image ? image.getAttribute("src") || "" : "";  // an edit may change the picture alone
    return [last.dataset.id, content ? content.innerText : "", picture, ...ids].join("\\n");
}"""
SCREENSHOT_COPY = "MEEPLE_SANDBOX_SCREENSHOT"  # also save Alice's mid-game screenshot there (docs/sandbox.png)


class Tab:
    """One browser tab playing as one person."""

    def __init__(
        self, browser: Browser, url: str, username: str, width: int = 1440, height: int = 900, scale: float = 1
    ) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale)
        self.page: Page = self.context.new_page()
        # Generous: a loaded 2-core CI machine may take seconds for a render; a real failure still fails.
        self.page.set_default_timeout(45_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(f"{url}?as={username}")
        self.page.wait_for_selector(f'.user-tab.current[data-user="{username}"]')
        # attached, not visible: on a phone the channel list is a panel you open
        self.page.wait_for_selector("#channel-list .channel.current", state="attached")
        self.username = username

    def boards(self) -> Locator:
        return self.page.locator(BOARDS)

    def board_count(self) -> int:
        return self.boards().count()

    def wait_for_boards(self, more_than: int) -> None:
        self.page.wait_for_function(
            "([sel, n]) => document.querySelectorAll(sel).length > n", arg=[BOARDS, more_than], timeout=45_000
        )

    def shown(self) -> list:
        """The boards on the page and the newest one's message id, text and buttons: a step within
        a turn edits that board (the header's time, shown or not as messages group, is left out)."""
        return [
            self.board_count(),
            self.page.evaluate(f"() => ({BOARD_SIGNATURE})(document.querySelectorAll({BOARDS!r}))"),
        ]

    def wait_for_board_change(self, shown: list) -> None:
        self.page.wait_for_function(
            f"""([sel, n, seen]) => {{
                const boards = document.querySelectorAll(sel);
                return boards.length > n || ({BOARD_SIGNATURE})(boards) !== seen;
            }}""",
            arg=[BOARDS, *shown],
            timeout=45_000,
        )

    def text(self) -> str:
        return self.page.locator("body").inner_text()

    def image_sources(self) -> list[str]:
        return self.page.eval_on_selector_all("img", "imgs => imgs.map(i => i.getAttribute('src') || '')")

    def ephemeral_ids(self) -> list[str]:
        return self.page.eval_on_selector_all(EPHEMERAL, "ms => ms.map(m => m.dataset.id)")

    def new_ephemeral_with_choices(self, before: list[str]) -> Locator:
        """Wait for a new private answer that offers choices (the 'My hand' panel on your turn)."""
        self.page.wait_for_function(
            """([sel, before, act]) => [...document.querySelectorAll(sel)].some(m =>
                !before.includes(m.dataset.id) && !m.querySelector('.thinking')
                && (m.querySelector('.dselect') || m.querySelector(act)))""",
            arg=[EPHEMERAL, before, ACT],
        )
        fresh = [i for i in self.ephemeral_ids() if i not in before]
        return self.page.locator(f'{EPHEMERAL}[data-id="{fresh[-1]}"]')

    def close(self) -> None:
        self.context.close()


def world_of(url: str) -> dict:
    with urllib.request.urlopen(url + "api/world", timeout=10) as answer:
        return json.load(answer)


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def card_ids(value: object) -> set[str]:
    """Every card id mentioned anywhere in an event."""
    if isinstance(value, dict):
        found = {value["id"]} if isinstance(value.get("id"), str) else set()
        return found.union(*(card_ids(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(card_ids(v) for v in value))
    return set()


async def hidden_hands(database: Path) -> tuple[str, dict[int, dict[int, list[str]]]]:
    """The game's status, and for each viewer (user id) the cards of each other player's hand they cannot know.

    A card is known to a viewer once an event shown to them named it (played, revealed, given by them).
    """
    db = await Database.open(database)
    try:
        game_id = (await db.query("SELECT id FROM games ORDER BY id DESC LIMIT 1"))[0]["id"]
        row = await db.get_game(game_id)
        users = [seat.user_id for seat in await db.seats(game_id)]
        state = GAMES["fox-duet"].new(len(users), row.seed, row.options)
        events = list(getattr(state, "setup_events", []))
        for entry in await db.actions(game_id):
            events += state.apply(entry.seat, entry.action)
    finally:
        await db.close()
    secret: dict[int, dict[int, list[str]]] = {}
    for viewer in range(len(users)):
        known = set().union(*(card_ids(e) for e in events if e["visible_to"] is None or viewer in e["visible_to"]))
        secret[users[viewer]] = {
            users[owner]: [card_name(c, "en") for c in state.view(owner)["private"]["hand"] if c["id"] not in known]
            for owner in range(len(users))
            if owner != viewer
        }
    return row.status, secret


def read_hands(database: Path) -> tuple[str, dict[int, dict[int, list[str]]]]:
    """hidden_hands() from a thread of its own: Playwright's sync API keeps an event loop in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, hidden_hands(database)).result()


def shows_card(text: str, name: str) -> bool:
    """Whether `text` names the card (`Rose 1` is not `Rose 10`; the ability in brackets is optional)."""
    base = name.split(" (")[0]
    return re.search(rf"(?<![\w]){re.escape(base)}(?!\d)", text) is not None


def assert_hands_private(tabs: dict[int, Tab], database: Path, url: str) -> None:
    """Nobody's page shows another player's secret cards, as text or as a hand image."""
    _, secret = read_hands(database)
    for viewer_id, tab in tabs.items():
        text = tab.text()
        for cards in secret[viewer_id].values():
            shown = [name for name in cards if shows_card(text, name)]
            assert not shown, f"{tab.username}'s page shows cards from another hand: {shown}"
    own_images = {tab.username: [s for s in tab.image_sources() if "hand.png" in s] for tab in tabs.values()}
    for tab in tabs.values():
        others = [s for name, sources in own_images.items() if name != tab.username for s in sources]
        assert not set(others) & set(tab.image_sources()), f"{tab.username} sees another player's hand image"
        for source in others[-2:]:  # and the server refuses them when asked as the wrong person
            forged = re.sub(r"as=\d+", "as=" + str(next(k for k, v in tabs.items() if v is tab)), source)
            assert status_of(url + forged.lstrip("/")) == 404


def open_table_with_a_slash_command(alice: Tab) -> None:
    """Type /table create, pick the game from the dropdown, pick level=2 from the autocomplete list."""
    composer = alice.page.locator("#composer-input")
    composer.click()
    composer.type("/table cr")
    alice.page.locator(".popup-item", has_text="/table create").wait_for()
    alice.page.keyboard.press("Enter")
    alice.page.locator('.opt-field[data-option="game"] select').select_option("fox-duet")
    alice.page.locator('.opt-add[data-option="options"]').click()  # an optional option, added like on Discord
    options = alice.page.locator('.opt-field[data-option="options"] input')
    options.type("level")
    choices = alice.page.locator(".autocomplete-choice")
    choices.first.wait_for()
    assert [text.split(" (")[0] for text in choices.all_inner_texts()][::2] == ["Level 1", "Level 2", "Level 3"]
    alice.page.locator('.autocomplete-choice[data-value="level=2 memory=off"]').click()
    assert options.input_value() == "level=2 memory=off"
    options.press("Enter")


def play_one(tabs: dict[str, Tab], rng: random.Random, on_panel: Callable[[Tab, Locator], None] | None = None) -> None:
    """The person the newest board mentions makes a move by clicking; every tab then shows the next board.

    `on_panel` is called with the mover's tab and their private 'My hand' panel before they choose.
    """
    any_tab = next(iter(tabs.values()))
    board = any_tab.boards().last
    mentions = board.locator(".content .mention")
    assert mentions.count(), f"the newest board mentions nobody to act: {board.inner_text()!r}"
    mover = mentions.first.inner_text().lstrip("@").lower()
    tab = tabs[mover]
    counts = {name: t.shown() for name, t in tabs.items()}
    board = tab.boards().last
    public = board.locator(ACT)
    if public.count():
        public.nth(rng.randrange(public.count())).click()
    else:
        before = tab.ephemeral_ids()
        board.locator(HAND).click()  # "My hand", in the table's language
        panel = tab.new_ephemeral_with_choices(before)
        assert "Only you can see this" in panel.inner_text()
        if on_panel is not None:
            on_panel(tab, panel)
        buttons = panel.locator(ACT)
        if buttons.count():
            buttons.nth(rng.randrange(buttons.count())).click()
        else:
            menu = panel.locator(".dselect").first
            menu.locator(".dselect-box").click()
            options = menu.locator(".dselect-option")
            options.nth(rng.randrange(options.count())).click()
    for name, other in tabs.items():  # live: no tab is reloaded
        other.wait_for_board_change(counts[name])  # a new board, or the turn's board edited


def board_image_on_screen(tab: Tab, shot: Path, url: str) -> float:
    """Screenshot the page; return how far the board's area on screen is from the board PNG (0 = identical)."""
    image = tab.boards().last.locator('img[data-filename="board.png"]')
    image.scroll_into_view_if_needed()
    tab.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    assert image.evaluate("img => img.naturalWidth") > 0
    tab.page.screenshot(path=str(shot))
    box = image.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 100
    screen = Image.open(shot).convert("RGB")
    crop = screen.crop(
        (round(box["x"]), round(box["y"]), round(box["x"] + box["width"]), round(box["y"] + box["height"]))
    )
    with urllib.request.urlopen(url + image.get_attribute("src").lstrip("/"), timeout=10) as answer:
        original = Image.open(io.BytesIO(answer.read())).convert("RGB").resize(crop.size)
    difference = ImageStat.Stat(ImageChops.difference(crop, original)).mean
    return sum(difference) / len(difference)


def test_the_start_command_without_a_token_prints_the_address_and_how_to_get_a_token(sandbox: Started) -> None:
    assert f"Open  {sandbox.url}" in sandbox.banner
    assert "DISCORD_TOKEN" in sandbox.banner and ".env" in sandbox.banner and "README.md" in sandbox.banner
    assert status_of(sandbox.url) == 200
    people = [p["name"] for p in world_of(sandbox.url)["people"]]
    assert people == ["Alice", "Bob", "Carol", "Dave"]


def test_two_people_play_a_whole_fox_duet_game_by_clicking(sandbox: Started, browser: Browser, tmp_path: Path) -> None:
    world = world_of(sandbox.url)
    ids = {p["username"]: int(p["id"]) for p in world["people"]}
    alice, bob = Tab(browser, sandbox.url, "alice"), Tab(browser, sandbox.url, "bob")
    tabs = {"alice": alice, "bob": bob}
    started = time.monotonic()
    try:
        open_table_with_a_slash_command(alice)
        alice.page.locator(EPHEMERAL, has_text="Only you can see this").first.wait_for()
        lobby = bob.page.locator("#messages .message", has=bob.page.locator(".dbutton", has_text="Join"))
        lobby.wait_for()  # the lobby reached Bob's tab by itself
        assert not bob.page.locator(EPHEMERAL).count(), "Alice's private answer shows in Bob's tab"
        lobby.locator(".dbutton", has_text="Join").click()
        alice.page.locator("#messages .message .mention", has_text="@Bob").first.wait_for()
        alice.page.locator("#messages .dbutton", has_text="Start").click()
        for tab in tabs.values():
            tab.wait_for_boards(0)
            tab.page.locator("#dm-messages .message img").first.wait_for()  # the hand, by DM
        assert "Alice's hand" not in bob.page.locator("#dm-messages").inner_text()

        rng = random.Random(7)
        moves = 0
        by_id = {ids["alice"]: alice, ids["bob"]: bob}
        pictured: list[Path] = []

        def picture(tab: Tab, panel: Locator) -> None:
            """Once, mid-game, Alice's page with her private hand panel: the README's screenshot."""
            if pictured or moves < 4 or tab is not alice:
                return
            panel.locator("img").first.evaluate("img => img.decode()")
            tab.page.wait_for_timeout(300)  # let the page scroll to the panel's bottom
            pictured.append(tmp_path / "hand-panel.png")
            tab.page.screenshot(path=str(pictured[0]))
            if os.environ.get(SCREENSHOT_COPY):
                Path(os.environ[SCREENSHOT_COPY]).write_bytes(pictured[0].read_bytes())

        while alice.boards().last.locator(f'{ACT}, .dbutton:has-text("My hand")').count():  # the game goes on
            play_one(tabs, rng, picture)
            moves += 1
            assert moves < 400, "the game did not end"
            if moves % 5 == 1:
                assert_hands_private(by_id, sandbox.database, sandbox.url)
            if moves == 6:
                shot = tmp_path / "sandbox.png"
                assert board_image_on_screen(alice, shot, sandbox.url) < 12, "the screenshot does not show the board"
        status, _ = read_hands(sandbox.database)
        assert status == "finished", "the last board offers no move but the game is not stored as finished"
        final = alice.boards().last.locator(".content").inner_text()
        assert ("Team score" in final) or ("Game over" in final)
        assert bob.boards().last.locator(".content").inner_text() == final
        alice.page.locator('#dm-messages a.jump[data-message^="1"]').first.click()  # "Board: #games > message"
        alice.page.locator("#messages .message.flash").wait_for()  # jumps to that board and flashes it
        assert not alice.errors and not bob.errors, alice.errors + bob.errors
        print(f"a whole game in the browser: {moves} moves in {time.monotonic() - started:.1f}s")
    finally:
        alice.close()
        bob.close()


def test_switching_person_in_one_tab_hides_the_first_persons_private_answers(
    sandbox: Started, browser: Browser
) -> None:
    tab = Tab(browser, sandbox.url, "dave")
    try:
        tab.page.locator(f'.channel[data-name="{THREAD_NAME}"]').click()
        tab.page.wait_for_selector(f'.channel.current[data-name="{THREAD_NAME}"]')
        assert f"Welcome to {THREAD_NAME}" in tab.page.locator("#welcome").inner_text()
        composer = tab.page.locator("#composer-input")
        composer.click()
        composer.type("/table jo")
        tab.page.locator(".popup-item", has_text="/table join").wait_for()
        composer.press("Enter")
        tab.page.locator(".command-chip", has_text="/table join").wait_for()
        composer.press("Enter")  # no options: Enter sends it
        answer = tab.page.locator(EPHEMERAL).last
        answer.wait_for()
        assert "Only you can see this" in answer.inner_text()
        assert tab.page.locator("#messages .message .used", has_text="/table join").count() == 1
        tab.page.locator('.user-tab[data-user="carol"]').click()
        tab.page.wait_for_selector('.user-tab.current[data-user="carol"]')
        tab.page.wait_for_function("() => !document.querySelector('#messages .message.ephemeral')")
        assert "carol" in tab.page.url and "Game" in tab.page.url
        assert tab.page.locator("#dm-messages .message").count() == 0
        assert not tab.errors, tab.errors
    finally:
        tab.close()


PHONE = 400
OVERLAPS = """() => {
    // Every button and menu of every message: inside the screen, its label inside it, and no two overlapping.
    const problems = [];
    const width = document.documentElement.clientWidth;
    for (const message of document.querySelectorAll("#messages .message")) {
        const items = [...message.querySelectorAll(".components .dbutton, .components .dselect")];
        const boxes = items.map((item) => item.getBoundingClientRect());
        items.forEach((item, i) => {
            const name = (item.innerText || item.className).trim().slice(0, 40);
            const box = boxes[i];
            if (box.left < -0.5 || box.right > width + 0.5) problems.push(name + " runs off the screen");
            if (item.scrollHeight > item.clientHeight + 1 || item.scrollWidth > item.clientWidth + 1) {
                problems.push(name + "'s label spills out");
            }
            boxes.forEach((other, j) => {
                if (j <= i) return;
                const x = Math.min(box.right, other.right) - Math.max(box.left, other.left);
                const y = Math.min(box.bottom, other.bottom) - Math.max(box.top, other.top);
                const otherName = (items[j].innerText || "").trim().slice(0, 40);
                if (x > 0.5 && y > 0.5) problems.push(name + " overlaps " + otherName);
            });
        });
    }
    return {problems, items: document.querySelectorAll("#messages .components :is(.dbutton, .dselect)").length};
}"""


def box(tab: Tab, selector: str) -> dict[str, float]:
    found = tab.page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not on the page"
    return found


def slid_in(tab: Tab, selector: str) -> dict[str, float]:
    """A panel's box once it has slid onto the screen from its edge."""
    tab.page.locator(selector).wait_for()
    tab.page.wait_for_function(
        "sel => { const b = document.querySelector(sel).getBoundingClientRect();"
        " return b.left === 0 || b.right === document.documentElement.clientWidth; }",
        arg=selector,
    )
    tab.page.wait_for_timeout(300)  # the end of the slide
    return box(tab, selector)


def assert_buttons_fit(tab: Tab) -> int:
    """No button or menu overlaps another or leaves the screen; returns how many were checked."""
    found = tab.page.evaluate(OVERLAPS)
    assert not found["problems"], found["problems"]
    return found["items"]


def run_command(tab: Tab, name: str, fill: Callable[[], None] | None = None) -> None:
    composer = tab.page.locator("#composer-input")
    composer.click()
    composer.type("/" + name)
    tab.page.locator(".popup-item", has_text="/" + name).first.wait_for()
    composer.press("Enter")
    tab.page.locator(".command-chip", has_text="/" + name).wait_for()
    if fill is not None:
        fill()
    tab.page.keyboard.press("Enter")


def test_on_a_phone_the_channel_takes_the_width_and_the_lists_are_panels(sandbox: Started, browser: Browser) -> None:
    """400 px: the channel is full width, channels and DMs open as panels, buttons wrap without overlapping."""
    alice = Tab(browser, sandbox.url, "alice", width=PHONE, height=800)
    bob = Tab(browser, sandbox.url, "bob")  # at a desk, already open on #games
    page = alice.page
    try:
        assert box(alice, ".chat")["x"] == 0 and box(alice, ".chat")["width"] == PHONE
        assert box(alice, "#composer-box")["width"] <= PHONE and box(alice, ".notice")["width"] == PHONE
        tabs = [box(alice, f'.user-tab[data-user="{u}"]') for u in ("alice", "bob", "carol", "dave")]
        for i, one in enumerate(tabs):  # the four people's switches: on screen, side by side or wrapped
            assert one["x"] >= 0 and one["x"] + one["width"] <= PHONE
            for other in tabs[i + 1 :]:
                assert one["x"] + one["width"] <= other["x"] or one["y"] + one["height"] <= other["y"]
        assert not page.locator("#sidebar").is_visible() and not page.locator("#dm-panel").is_visible()

        page.locator("#open-channels").click()  # the channel list is one tap away
        channels = page.locator("#sidebar")
        shown = slid_in(alice, "#sidebar")
        assert shown["x"] == 0 and shown["width"] <= PHONE
        page.locator('#channel-list .channel[data-name="games"]').click()
        channels.wait_for(state="hidden")

        def thread_on() -> None:
            page.locator('.opt-field[data-option="game"] select').select_option("fox-duet")
            page.locator('.opt-add[data-option="thread"]').click()
            page.locator('.opt-field[data-option="thread"] select').select_option("true")
            assert box(alice, "#composer-box")["width"] <= PHONE

        run_command(alice, "table create", thread_on)
        reply = page.locator("#messages .message.ephemeral", has_text="its own thread").last
        link = reply.locator("a.jump:not([data-message])")  # the reply links the new thread (a <#id>)
        link.wait_for()
        thread_name = link.inner_text()  # a thread is named as it is, without a channel's "#"
        assert "unknown" not in thread_name and "No Access" not in thread_name and thread_name != THREAD_NAME
        bob_thread = bob.page.locator(
            f'#channel-list .channel.thread[data-channel-id="{link.get_attribute("data-channel")}"]'
        )
        bob_thread.wait_for()  # in Bob's open tab, without a reload
        assert bob_thread.get_attribute("data-name") == thread_name
        link.click()
        page.wait_for_function("name => document.getElementById('channel-name').textContent === name", arg=thread_name)
        bob_thread.click()
        bob.page.locator("#messages .dbutton", has_text="Join").click()
        page.locator("#messages .message .mention", has_text="@Bob").first.wait_for()
        assert assert_buttons_fit(alice) >= 3  # the lobby's Join, Leave, Start (and its menus)
        page.locator("#messages .dbutton", has_text="Start").click()
        alice.wait_for_boards(0)
        assert box(alice, BOARDS)["width"] <= PHONE

        badge = page.locator("#dm-badge")
        badge.wait_for()  # the hand arrived by DM: the closed panel says so
        page.locator("#open-dms").click()
        panel = page.locator("#dm-panel")
        shown = slid_in(alice, "#dm-panel")
        assert shown["x"] == 0 and shown["width"] == PHONE
        panel.locator(".message img").first.wait_for()
        assert "Alice's hand" in panel.inner_text() or "Your hand" in panel.inner_text()
        assert not badge.is_visible()
        page.locator("#close-dms").click()
        panel.wait_for(state="hidden")

        before = alice.ephemeral_ids()
        alice.boards().last.locator(".dbutton", has_text="My hand").click()
        page.wait_for_function(  # her hand, with its menu when it is her turn (who leads is dealt at random)
            "([sel, before]) => [...document.querySelectorAll(sel)].some(m => !before.includes(m.dataset.id)"
            " && m.querySelector('img') && !m.querySelector('.thinking'))",
            arg=[EPHEMERAL, before],
        )
        assert assert_buttons_fit(alice) >= 2  # the board's buttons, and the private answer's menu if any
        page.screenshot(path=str(sandbox.database.parent / "phone.png"))

        run_command(alice, "meeple list")
        listing = page.locator("#messages .message.ephemeral", has_text="Tables on this server")
        listing.wait_for()
        assert thread_name in listing.inner_text() and "#unknown" not in listing.inner_text()
        assert not alice.errors and not bob.errors, alice.errors + bob.errors
    finally:
        alice.close()
        bob.close()


def test_the_bot_started_quietly(sandbox: Started) -> None:
    """No voice-library warning at start, and no false "Can't keep up" about the heartbeat."""
    log = sandbox.log()
    for noise in ("PyNaCl", "davey", "Can't keep up", "heartbeat blocked"):
        assert noise not in log, f"the log says {noise!r}:\n{log[-3000:]}"
    warnings = [line for line in log.splitlines() if " WARNING discord." in line]
    assert not warnings, warnings


def pick_command(tab: Tab, typed: str, shown: str) -> None:
    """Type ``/typed`` and pick the command the picker shows as ``/shown``."""
    composer = tab.page.locator("#composer-input")
    composer.click()
    composer.type("/" + typed)
    exact = re.compile("^/" + re.escape(shown) + "$")
    tab.page.locator(".popup-item", has=tab.page.locator(".name", has_text=exact)).first.click()
    tab.page.locator(".command-chip", has_text=exact).wait_for()


def game_status(database: Path, channel_id: str) -> str:
    """The stored status of the game played in that channel."""

    async def read() -> str:
        db = await Database.open(database)
        try:
            return (await db.query("SELECT status FROM games WHERE channel_id = ?", (int(channel_id),)))[0]["status"]
        finally:
            await db.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, read()).result()


def test_a_weekly_challenge_is_played_to_its_end_in_a_private_thread_only_its_player_sees(
    sandbox: Started, browser: Browser, tmp_path: Path
) -> None:
    """`/meeple challenge` from the page: the answer names the private thread and opens it, the DM
    links it, nobody else lists it (not Bob's open tab, not Carol viewed in the same tab), and the
    solo game is played by clicking to its end; a second try is refused with a link to the first."""
    alice, bob = Tab(browser, sandbox.url, "alice"), Tab(browser, sandbox.url, "bob")
    page = alice.page
    try:
        pick_command(alice, "meeple chall", "meeple challenge")
        page.locator('.opt-field[data-option="mode"] select').select_option("noctiluca-solo")
        page.keyboard.press("Enter")
        reply = page.locator(EPHEMERAL, has_text="private thread").last
        link = reply.locator("a.jump")
        link.wait_for()
        thread_name = link.inner_text()
        assert "Noctiluca" in thread_name and "Alice" in thread_name, thread_name  # named for the game and player
        assert "unknown" not in reply.inner_text().lower() and "No Access" not in reply.inner_text()
        mine = page.locator(f'#channel-list .channel.thread.private[data-name="{thread_name}"]')
        mine.wait_for(state="attached")
        link.click()
        page.wait_for_function("name => document.getElementById('channel-name').textContent === name", arg=thread_name)
        assert "private thread" in page.locator("#channel-topic").inner_text()
        dm_link = page.locator("#dm-messages a.jump", has_text=thread_name).first
        dm_link.wait_for()  # "Your hand for Noctiluca in <the thread>": resolved, as on Discord
        assert thread_name not in bob.page.locator("#channel-list").inner_text()

        alice.wait_for_boards(0)
        rng = random.Random(11)
        moves = 0
        while alice.boards().last.locator(f'{ACT}, .dbutton:has-text("My hand")').count():
            play_one({"alice": alice}, rng)
            moves += 1
            assert moves < 300, "the challenge game did not end"
            if moves == 3:
                page.screenshot(path=str(tmp_path / "challenge.png"))
        assert "Game over" in alice.boards().last.locator(".content").inner_text()
        thread_id = page.locator(f'#channel-list .channel[data-name="{thread_name}"]').get_attribute("data-channel-id")
        assert thread_id and game_status(sandbox.database, thread_id) == "finished"
        assert thread_name not in bob.text()

        page.locator('#channel-list .channel[data-name="games"]').click()
        pick_command(alice, "meeple chall", "meeple challenge")
        page.locator('.opt-field[data-option="mode"] select').select_option("noctiluca-solo")
        page.keyboard.press("Enter")
        refusal = page.locator(EPHEMERAL, has_text="One attempt").last
        refusal.wait_for()
        assert refusal.locator("a.jump").inner_text() == thread_name  # the first attempt, linked

        page.locator("#channel-list .channel", has_text=thread_name).click()
        page.wait_for_function("name => document.getElementById('channel-name').textContent === name", arg=thread_name)
        page.locator('.user-tab[data-user="carol"]').click()  # view as Carol in the same tab
        page.wait_for_function("() => document.getElementById('channel-name').textContent === 'games'")
        assert thread_name not in page.locator("#channel-list").inner_text()
        assert "challenge" not in page.url
        assert not alice.errors and not bob.errors, alice.errors + bob.errors
    finally:
        alice.close()
        bob.close()


def test_a_partners_dm_links_the_private_challenge_thread(sandbox: Started, browser: Browser) -> None:
    """A Fox Duet challenge with Bob: Bob's tab lists the thread and his hand's DM links it by name."""
    carol, bob = Tab(browser, sandbox.url, "carol"), Tab(browser, sandbox.url, "bob")
    try:
        pick_command(carol, "meeple chall", "meeple challenge")
        carol.page.locator('.opt-field[data-option="mode"] select').select_option("fox-duet-1")
        carol.page.locator('.opt-add[data-option="partner"]').click()
        carol.page.locator('.opt-field[data-option="partner"] select').select_option(label="@Bob")
        carol.page.keyboard.press("Enter")
        link = carol.page.locator(EPHEMERAL, has_text="private thread").last.locator("a.jump")
        link.wait_for()
        thread_name = link.inner_text()
        assert "Fox Duet" in thread_name and "Carol" in thread_name, thread_name
        bob.page.locator(f'#channel-list .channel.private[data-name="{thread_name}"]').wait_for(state="attached")
        in_dm = bob.page.locator("#dm-messages a.jump", has_text=thread_name).first
        in_dm.wait_for()
        in_dm.click()
        bob.page.wait_for_function(
            "name => document.getElementById('channel-name').textContent === name", arg=thread_name
        )
        bob.page.locator(BOARDS).first.wait_for()
        assert not carol.errors and not bob.errors, carol.errors + bob.errors
    finally:
        carol.close()
        bob.close()


def test_renaming_yourself_shows_everywhere_and_reaches_the_bot(sandbox: Started, browser: Browser) -> None:
    """Dave becomes "Dave 🐉 達夫" from the page: his tab, Carol's open tab and the bot (the
    challenge thread it names for him) all use the new name."""
    dave, carol = Tab(browser, sandbox.url, "dave"), Tab(browser, sandbox.url, "carol")
    name = "Dave 🐉 達夫"
    try:
        dave.page.locator("#me-rename").click()
        field = dave.page.locator("#rename-input")
        field.fill("")
        field.press("Enter")
        dave.page.locator("#rename-error").wait_for()  # an empty name is refused
        field.fill(name)
        field.press("Enter")
        dave.page.locator("#rename-form").wait_for(state="hidden")
        assert dave.page.locator("#me-name").inner_text() == name
        assert dave.page.locator('.user-tab[data-user="dave"] .user-tab-name').inner_text() == name
        carol.page.locator('.user-tab[data-user="dave"] .user-tab-name', has_text=name).wait_for()  # live
        assert world_of(sandbox.url)["people"][3]["name"] == name

        pick_command(dave, "meeple chall", "meeple challenge")
        dave.page.locator('.opt-field[data-option="mode"] select').select_option("tm-dice-solo")
        dave.page.keyboard.press("Enter")
        link = dave.page.locator(EPHEMERAL, has_text="private thread").last.locator("a.jump")
        link.wait_for()
        assert name in link.inner_text(), link.inner_text()  # the bot named the thread with the new name
        used = dave.page.locator("#messages .message .used .who").last
        assert used.inner_text() == "@" + name
        assert not dave.errors and not carol.errors, dave.errors + carol.errors
    finally:
        dave.close()
        carol.close()


def test_enter_sends_a_command_once_its_required_options_are_filled(sandbox: Started, browser: Browser) -> None:
    """A command whose options are all optional goes at the first Enter (it used to add an option);
    one with a required option left empty says which, and sends nothing."""
    tab = Tab(browser, sandbox.url, "bob")
    page = tab.page
    try:
        pick_command(tab, "meeple prof", "meeple profile")
        assert page.locator('.opt-add[data-option="member"]').count() == 1
        page.keyboard.press("Enter")
        page.locator("#messages .message .used", has_text="/meeple profile").wait_for()
        assert page.locator(".command-chip").count() == 0 and page.locator(".opt-field").count() == 0
        page.locator(EPHEMERAL).last.wait_for()

        pick_command(tab, "table cre", "table create")
        page.keyboard.press("Enter")
        assert page.locator("#composer-error").inner_text() == "Fill in game first."
        assert page.locator('.opt-field.missing[data-option="game"]').count() == 1
        page.locator('.opt-add[data-option="casual"]').focus()
        page.keyboard.press("Enter")  # from an "add option" button too: still not sent, nothing added
        assert page.locator('.opt-field[data-option="casual"]').count() == 0
        assert page.locator(".command-chip").count() == 1
        page.locator('.opt-field[data-option="game"] select').select_option("vivarium")
        page.locator('.opt-add[data-option="casual"]').focus()
        page.keyboard.press("Enter")
        page.locator("#messages .message .used", has_text="/table create").wait_for()
        assert not tab.errors, tab.errors
    finally:
        tab.close()


def set_language(tab: Tab, locale: str) -> None:
    """Pick the client language from the menu, and wait until the sandbox has taken it."""
    tab.page.locator("#me-language").select_option(locale)
    tab.page.wait_for_function("locale => S.me.locale === locale", arg=locale)


# What the page writes for a message's text, as the reader sees it
RENDERED = "s => { const box = document.createElement('div'); box.innerHTML = markdown(s); return box.textContent; }"


def test_commands_and_timestamps_follow_the_clients_language(sandbox: Started, browser: Browser) -> None:
    """A zh-TW client sees the bot's zh-TW command names, options and choices (and types them); a
    pt-BR client the pt-BR ones; `<t:…>` markup is written once, in the client's locale."""
    tab = Tab(browser, sandbox.url, "carol")
    page = tab.page
    try:
        set_language(tab, "zh-TW")
        composer = page.locator("#composer-input")
        composer.click()
        composer.type("/")
        names = page.locator(".popup-item .name").all_inner_texts()
        assert "/牌桌 建立" in names and "/meeple 挑戰" in names and "/table create" not in names
        composer.press("Escape")
        composer.fill("")
        pick_command(tab, "挑戰", "meeple 挑戰")
        mode = page.locator('.opt-field[data-option="mode"]')
        assert mode.locator(".opt-name").inner_text() == "模式"
        assert "繽紛夜光蟲 單人" in mode.locator("select").inner_text()
        page.keyboard.press("Enter")
        assert page.locator("#composer-error").inner_text() == "Fill in 模式 first."
        page.locator(".command-cancel").click()

        stamp = 1_700_000_000  # 2023-11-14 22:13:20 UTC
        shown = page.evaluate(RENDERED, f"<t:{stamp}:D> (<t:{stamp}:R>) <t:{stamp}:d>")
        assert shown.count("2023") == 2 and "2023年11月1" in shown and "年前" in shown, shown
        assert "11/14/2023" not in shown and "PM" not in shown

        set_language(tab, "pt-BR")
        composer.click()
        composer.type("/mesa cr")
        assert "/mesa criar" in page.locator(".popup-item .name").all_inner_texts()
        shown = page.evaluate(RENDERED, f"<t:{stamp}:D> (<t:{stamp}:R>)")
        assert "de novembro de 2023" in shown and "há " in shown and shown.count("2023") == 1, shown

        set_language(tab, "en-US")
        shown = page.evaluate(RENDERED, f"<t:{stamp}:f>")
        assert "November 14, 2023" in shown and shown.count("2023") == 1, shown
        assert not tab.errors, tab.errors
    finally:
        tab.close()


def test_a_command_the_bot_mentions_shows_in_the_clients_language_and_opens_on_a_click(
    sandbox: Started, browser: Browser
) -> None:
    """The bot writes ``</tournament create:ID>`` (Discord's command mention); the page shows it as
    Discord does, in the reader's language, and a click puts the command in the message box."""
    tab = Tab(browser, sandbox.url, "carol")
    page = tab.page
    try:
        set_language(tab, "zh-TW")
        assert page.evaluate(RENDERED, "用 </table create:1> 開一桌") == "用 /牌桌 建立 開一桌"
        pick_command(tab, "錦標賽 列表", "錦標賽 列表")
        page.keyboard.press("Enter")
        mention = page.locator(f"{EPHEMERAL} .command-mention").last
        mention.wait_for()
        assert mention.inner_text() == "/錦標賽 建立"
        mention.click()
        page.locator(".command-chip", has_text=re.compile("^/錦標賽 建立$")).wait_for()
        assert not tab.errors, tab.errors
    finally:
        tab.close()
