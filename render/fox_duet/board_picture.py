"""The Fox Duet public board: status header, path with gems and tracker, decree, trick, counters.

The page layout (``W``, ``H``, ``HEADER``, ``BOARD_CARD`` ...) is shared with ``hand``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.fox_duet import FoxDuetPublic
from l10n import t
from render.common import (
    LAST_RESORT_SIZE,
    Box,
    Color,
    Palette,
    backdrop,
    circle,
    dashed_slot,
    draw_runs,
    ellipsize,
    fit_runs,
    fitted,
    fitted_lines,
    font,
    panel_title,
    paste_sprite,
    put_text,
    runs_width,
    seat_name,
    shadowed_box,
)
from render.fox_duet.card_pictures import CARD_BACK, paste_card
from render.fox_duet.icons import FOX_ORANGE, GEM_COLORS, SUITS, icon, suit_label, suit_style
from render.phone import Key, with_band

# --- layout (pixels) --------------------------------------------------------------------------
W, H = 1600, 900
MARGIN = 36
HEADER = (MARGIN, 18, W - MARGIN, 114)
RIGHT_W = 520  # the widest the header's round and level lines may grow
HEADER_CROP = 122  # the board's top, where the header was, is left out under the band of key lines

PATH_X0, PATH_X1 = 104, W - 104
GEM_BOX_TOP, GEM_BOX_W, GEM_BOX_H = 146, 112, 94
NODE_Y, NODE_R = 322, 40
TRAIL_W = 26
TRACKER_SIZE = 116
FOREST_TOKEN_SIZE = 100
DIST_Y = 406
END_LABEL_Y = 448

PANEL_TOP, PANEL_BOTTOM = 486, H - 28
DECREE_PANEL = (MARGIN, PANEL_TOP, 300, PANEL_BOTTOM)
TRICK_PANEL = (320, PANEL_TOP, 1060, PANEL_BOTTOM)
INFO_PANEL = (1080, PANEL_TOP, W - MARGIN, PANEL_BOTTOM)
BOARD_CARD = (176, 248)
PANEL_RADIUS = 22

# --- look -------------------------------------------------------------------------------------
TRAIL = (138, 104, 66)
TRAIL_EDGE = (84, 62, 38)
TRAIL_COVERED = (64, 70, 56)
NODE_FILL = (242, 231, 203)
NODE_EDGE = (92, 66, 40)
START_FILL = (255, 214, 120)
PLUS_FILL = (60, 150, 84)
LOSS = (255, 150, 140)
CHANGE = (200, 225, 205)  # the key line saying what the last trick did

# phase: the pending key naming who acts (else ``to_move``), and the status line's key.
PHASE_STATUS = {
    "fox-pick": ("fox_player", "fox-duet.render.status.fox-pick"),
    "fox-swap": ("chooser", "fox-duet.render.status.fox-swap"),
    "gazelle": ("winner", "fox-duet.render.status.gazelle"),
    "direction": ("winner", "fox-duet.render.status.direction"),
    "gift": ("", "fox-duet.render.status.gift"),
    "forest": ("", "fox-duet.render.status.forest"),
}
# Phases where both players act at once word it in the plural (``.both``).
BOTH_FORMS = frozenset({"gift", "forest"})
LOSS_REASONS = ("no-forest-token", "time", "conceded")
# Stands for the highlighted name while a sentence is translated, so it can be cut around it.
MARK = "\x00"


def runs_around(text: str, value: str, fill: Color, accent: Color) -> list[tuple[str, Color]]:
    """``text`` (holding ``MARK`` once) as coloured runs, ``value`` in ``accent`` where the mark is.

    The translated sentence decides where the highlighted name goes: before, inside or after.
    """
    before, _, after = text.partition(MARK)
    runs = [(before, fill), (value, accent), (after, fill)]
    return [(piece, colour) for piece, colour in runs if piece]


def both(names: Sequence[str], seats: Sequence[Any], locale: str) -> str:
    """One seat's name, or the two joined ("Ann & Bo")."""
    shown = [seat_name(names, s, locale=locale) for s in seats]
    if len(shown) >= 2:
        return t("fox-duet.render.both", locale, first=shown[0], second=shown[1])
    return shown[0] if shown else t("fox-duet.render.nobody", locale)


def status_runs(
    public: Mapping[str, Any], names: Sequence[str], locale: str = "en"
) -> tuple[list[tuple[str, Color]], str]:
    """The status line as coloured pieces, and its tone: "turn", "won" or "lost"."""
    phase = public.get("phase")
    pending = public.get("pending") or {}
    if phase == "over":
        result = public.get("result") or {}
        if result.get("won"):
            return [(t("fox-duet.render.won", locale, score=result.get("score", 0)), Palette.TEXT)], "won"
        reason = str(result.get("reason"))
        why = t(f"fox-duet.render.lost.{reason if reason in LOSS_REASONS else 'other'}", locale)
        return [(t("fox-duet.render.lost", locale, reason=why), Palette.TEXT)], "lost"
    if phase == "play":
        who_key, key = (
            "",
            "fox-duet.render.status.follow" if public.get("trick_cards") else "fox-duet.render.status.lead",
        )
    else:
        who_key, key = PHASE_STATUS.get(str(phase), ("", "fox-duet.render.status.act"))
    seats = [pending[who_key]] if who_key in pending else list(public.get("to_move") or [public.get("leader")])
    if len(seats) > 1 and phase in BOTH_FORMS:
        key += ".both"
    text = t(key, locale, who=MARK, trick=public.get("trick", 1), steps=pending.get("steps", 0))
    runs = runs_around(text, both(names, seats, locale), Palette.TEXT, Palette.ACCENT)
    ready = [seat for seat, done in enumerate(pending.get("chosen") or []) if done]
    if phase == "gift" and ready:  # who has picked, never which card
        runs.append(
            (" · " + t("fox-duet.render.status.ready", locale, who=both(names, ready, locale)), Palette.TEXT_MUTED)
        )
    return runs, "turn"


def draw_header(image: Image.Image, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    runs, tone = status_runs(public, names, locale)
    fill = {"won": (36, 110, 60), "lost": (128, 40, 40)}.get(tone, Palette.PANEL)
    shadowed_box(image, HEADER, PANEL_RADIUS, fill, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = HEADER
    strip = {"won": Palette.GOOD, "lost": Palette.BAD}.get(tone, Palette.ACCENT)
    draw.rounded_rectangle((x0 + 14, y0 + 16, x0 + 24, y1 - 16), radius=5, fill=strip)
    right = t("fox-duet.render.progress", locale, round=public.get("round", 1), trick=public.get("trick", 1))
    sub = t("fox-duet.render.level", locale, level=public.get("level", 1), side=public.get("side", "A"))
    # The round and trick keep their size; the status line shrinks (then is cut) beside them.
    right, rfont = fitted(right, RIGHT_W, 34, bold=True, min_size=24)
    sub, sfont = fitted(sub, RIGHT_W, 24, min_size=18)
    put_text(draw, (x1 - 24, y0 + 42), right, font=rfont, fill=Palette.TEXT, anchor="rm")
    put_text(draw, (x1 - 24, y0 + 76), sub, font=sfont, fill=Palette.TEXT_MUTED, anchor="rm")
    room = x1 - x0 - 72 - max(rfont.getlength(right), sfont.getlength(sub)) - 40
    shown, fnt = fit_runs(runs, room, 46, bold=True, min_size=22)
    draw_runs(draw, (x0 + 44, (y0 + y1) / 2), shown, fnt)


def draw_gems(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, count: int) -> None:
    if count <= 0:
        return
    if count <= 3:
        size = (50, 44, 36)[count - 1]
        step = size + 2
        for i in range(count):
            paste_sprite(image, icon("gem", size), (cx + (i - (count - 1) / 2) * step, cy))
        return
    paste_sprite(image, icon("gem", 44), (cx - 24, cy))
    put_text(draw, (cx + 4, cy + 2), f"×{count}", font=font(34, True), fill=Palette.TEXT, anchor="lm")


def draw_path(image: Image.Image, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    draw = ImageDraw.Draw(image)
    spaces = list(public.get("spaces") or [])
    n = len(spaces)
    if n == 0:
        return
    xs = [PATH_X0 + (PATH_X1 - PATH_X0) * i / max(1, n - 1) for i in range(n)]
    start = next((i for i, sp in enumerate(spaces) if sp.get("start")), n // 2)
    diamonds_count = public.get("level") == 3
    for i in range(n - 1):
        covered = spaces[i].get("covered") or spaces[i + 1].get("covered")
        colour, edge = (TRAIL_COVERED, TRAIL_COVERED) if covered else (TRAIL, TRAIL_EDGE)
        draw.line((xs[i], NODE_Y, xs[i + 1], NODE_Y), fill=edge, width=TRAIL_W + 8)
        draw.line((xs[i], NODE_Y, xs[i + 1], NODE_Y), fill=colour, width=TRAIL_W)
    spacing = (PATH_X1 - PATH_X0) / max(1, n - 1)
    for i, (x, sp) in enumerate(zip(xs, spaces, strict=True)):
        covered = bool(sp.get("covered"))
        box = (x - GEM_BOX_W / 2, GEM_BOX_TOP, x + GEM_BOX_W / 2, GEM_BOX_TOP + GEM_BOX_H)
        box_fill = (14, 28, 22) if covered else Palette.PANEL_DARK
        draw.line((x, box[3], x, NODE_Y - NODE_R), fill=Palette.PANEL_EDGE, width=4)
        draw.rounded_rectangle(box, radius=16, fill=box_fill, outline=Palette.PANEL_EDGE, width=3)
        draw_gems(image, draw, x, (box[1] + box[3]) / 2, int(sp.get("gems", 0)))
        if sp.get("plus"):
            circle(draw, (box[2] - 16, box[1] + 4), 18, fill=PLUS_FILL, outline=Palette.TEXT, width=2)
            put_text(draw, (box[2] - 16, box[1] + 4), "+", font=font(30, True), fill=Palette.TEXT, anchor="mm")
        if sp.get("diamond"):
            dx, dy = box[0] + 16, box[1] + 4
            diamond = [(dx, dy - 16), (dx + 14, dy), (dx, dy + 16), (dx - 14, dy)]
            on = GEM_COLORS["light"] if diamonds_count else (96, 110, 100)
            draw.polygon(diamond, fill=Palette.PANEL_DARK, outline=on, width=4)
        if covered:
            paste_sprite(image, icon("forest", FOREST_TOKEN_SIZE), (x, NODE_Y))
        else:
            if i == start:  # the start circle: a double ring
                circle(draw, (x, NODE_Y), NODE_R + 10, fill=NODE_EDGE)
                circle(draw, (x, NODE_Y), NODE_R + 5, fill=START_FILL)
            circle(draw, (x, NODE_Y), NODE_R, fill=START_FILL if i == start else NODE_FILL, outline=NODE_EDGE, width=5)
        if i == start:
            label, lfont = fitted(t("fox-duet.render.start", locale), spacing - 24, 24, bold=True, min_size=16)
            put_text(draw, (x, DIST_Y), label, font=lfont, fill=START_FILL, anchor="mm")
        else:
            put_text(draw, (x, DIST_Y), str(abs(i - start)), font=font(26, True), fill=Palette.TEXT_MUTED, anchor="mm")
    tracker = public.get("tracker")
    if isinstance(tracker, int) and 0 <= tracker < n:
        x = xs[tracker]
        circle(draw, (x, NODE_Y), TRACKER_SIZE / 2 + 8, outline=FOX_ORANGE, width=6)
        paste_sprite(image, icon("fox", TRACKER_SIZE), (x, NODE_Y))
    half = (PATH_X1 - PATH_X0) / 2 - 60
    left, lf = fitted(f"◀ {seat_name(names, 0, locale=locale)}", half, 34, bold=True, min_size=20)
    right, rf = fitted(f"{seat_name(names, 1, locale=locale)} ▶", half, 34, bold=True, min_size=20)
    put_text(draw, (PATH_X0 - 56, END_LABEL_Y), left, font=lf, fill=Palette.TEXT, anchor="lm")
    put_text(draw, (PATH_X1 + 56, END_LABEL_Y), right, font=rf, fill=Palette.TEXT, anchor="rm")


def title(draw: ImageDraw.ImageDraw, box: Box, text: str, room: float | None = None) -> float:
    """A panel's heading, cut to the panel's width (or ``room``); return its drawn width."""
    fnt = font(24, True)
    shown = ellipsize(text, fnt, room if room is not None else box[2] - box[0] - 48)
    panel_title(draw, box, shown)
    return fnt.getlength(shown)


def draw_decree(image: Image.Image, public: Mapping[str, Any], locale: str) -> None:
    box = DECREE_PANEL
    shadowed_box(image, box, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    title(draw, box, t("fox-duet.render.decree", locale))
    decree = public.get("decree")
    if not decree:
        return
    cw, _ = BOARD_CARD
    cx = (box[0] + box[2]) / 2
    paste_card(image, decree, (round(cx - cw / 2), box[1] + 58), BOARD_CARD, locale)
    suit = str(decree.get("suit"))
    st = suit_style(suit)
    text = t("fox-duet.render.is-trump", locale, suit=MARK)
    icon_w = 44 if suit in SUITS else 0
    runs, fnt = fit_runs(
        runs_around(text, suit_label(suit, locale), Palette.TEXT, st.bright),
        box[2] - box[0] - 24 - icon_w,
        30,
        bold=True,
        min_size=16,
    )
    x = cx - (icon_w + runs_width(runs, fnt)) / 2
    y = box[3] - 44
    if suit in SUITS:
        paste_sprite(image, icon(suit, 40), (x + 18, y))
    draw_runs(draw, (x + icon_w, y), runs, fnt)


def draw_trick(image: Image.Image, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    box = TRICK_PANEL
    shadowed_box(image, box, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    cards = list(public.get("trick_cards") or [])
    last = public.get("last_trick") or {}
    showing_last = not cards and bool(last)
    if showing_last:
        title(draw, box, t("fox-duet.render.last-trick", locale))
    else:
        title(draw, box, t("fox-duet.render.trick", locale, trick=public.get("trick", 1)))
    plays = list(last.get("cards") or []) if showing_last else cards
    leader = public.get("leader", 0)
    seats = [p.get("seat") for p in plays]
    order = seats + [s for s in ((leader, 1 - leader) if leader in (0, 1) else (0, 1)) if s not in seats]
    cw, ch = BOARD_CARD
    slot_w = cw + 24
    top = box[1] + 66
    winner = last.get("winner") if showing_last else None
    for k, seat in enumerate(order[:2]):
        sx = box[0] + 24 + k * (slot_w + 14)
        name, nf = fitted(seat_name(names, seat, locale=locale), slot_w, 28, bold=True, min_size=18)
        put_text(draw, (sx + slot_w / 2, top), name, font=nf, fill=Palette.TEXT, anchor="mm")
        card_xy = (round(sx + (slot_w - cw) / 2), top + 26)
        play = next((p for p in plays if p.get("seat") == seat), None)
        if play:
            if seat == winner:
                draw.rounded_rectangle(
                    (card_xy[0] - 7, card_xy[1] - 7, card_xy[0] + cw + 7, card_xy[1] + ch + 7),
                    radius=20,
                    fill=Palette.ACCENT,
                )
            paste_card(image, play["card"], card_xy, BOARD_CARD, locale)
            won = seat == winner
            tag = (
                t("fox-duet.render.won-tag", locale)
                if won
                else (t("fox-duet.render.led-tag", locale) if k == 0 else "")
            )
            if tag:
                shown, tf = fitted(tag, slot_w, 24, bold=True, min_size=16)
                colour = Palette.ACCENT if won else Palette.TEXT_MUTED
                put_text(draw, (sx + slot_w / 2, card_xy[1] + ch + 26), shown, font=tf, fill=colour, anchor="mm")
        else:
            waiting = t("fox-duet.render.to-lead" if k == 0 else "fox-duet.render.to-follow", locale)
            dashed_slot(draw, (card_xy[0], card_xy[1], card_xy[0] + cw, card_xy[1] + ch), waiting)
    tx = box[0] + 24 + 2 * (slot_w + 14) + 10
    notes = trick_notes(public, names, showing_last, locale)
    draw_notes(draw, notes, (tx, top - 10, box[2] - 24, box[3] - 18))


def draw_notes(draw: ImageDraw.ImageDraw, notes: Sequence[tuple[str, int, Color]], box: Box) -> None:
    """The notes beside the trick, wrapped; all a size smaller while they would run off the panel."""
    x0, y0, x1, y1 = box
    for scale in (1.0, 0.9, 0.8, 0.7, 0.6):
        blocks = []
        for text, size, c in notes:  # a note too long for three lines shrinks on alone, never cut
            lines, fnt, _ = fitted_lines(text, x1 - x0, 3, round(size * scale), True, min(LAST_RESORT_SIZE, size))
            blocks.append((lines, round(fnt.size), c))
        height = sum(len(lines) * (size + 10) + 12 for lines, size, _ in blocks) - 12
        if height <= y1 - y0:
            break
    y = y0
    for lines, size, colour in blocks:
        fnt = font(size, True)
        for line in lines:
            put_text(draw, (x0, y), line, font=fnt, fill=colour, anchor="lt")
            y += size + 10
        y += 12


def trick_notes(
    public: Mapping[str, Any], names: Sequence[str], showing_last: bool, locale: str = "en"
) -> list[tuple[str, int, Color]]:
    """Lines beside the trick: its outcome, or the footprints at stake and the last result."""
    notes: list[tuple[str, int, Color]] = []
    last = public.get("last_trick")
    if showing_last and last:
        notes += outcome_notes(last, names, public, locale)
        return notes
    cards = public.get("trick_cards") or []
    if cards:
        steps = sum(int(p["card"].get("footprints", 0)) for p in cards)
        notes.append((t("fox-duet.render.footprints", locale, total=steps), 30, Palette.TEXT))
        suit = str(cards[0]["card"].get("suit"))
        notes.append(
            (t("fox-duet.render.suit-led", locale, suit=suit_label(suit, locale)), 26, suit_style(suit).bright)
        )
    elif public.get("phase") != "over":
        notes.append((t("fox-duet.render.no-cards-yet", locale), 28, Palette.TEXT_MUTED))
    if last:
        won, moved = (text for text, _, _ in outcome_notes(last, names, public, locale)[:2])
        notes.append((t("fox-duet.render.previous", locale, won=won, moved=moved), 22, Palette.TEXT_MUTED))
    return notes


def outcome_notes(
    last: Mapping[str, Any], names: Sequence[str], public: Mapping[str, Any], locale: str = "en"
) -> list[tuple[str, int, Color]]:
    """What a finished trick did: its winner, the fox's move, and a gem or an overshoot."""
    winner = seat_name(names, last.get("winner"), locale=locale)
    steps = int(last.get("steps", 0))
    toward = last.get("toward")
    arrow = "◀" if toward == 0 else "▶"
    notes: list[tuple[str, int, Color]] = [(t("fox-duet.render.trick-winner", locale, name=winner), 34, Palette.ACCENT)]
    if steps == 0:
        notes.append((t("fox-duet.render.fox-stays", locale), 28, Palette.TEXT))
    else:
        moved = t(
            "fox-duet.render.moved", locale, arrow=arrow, steps=steps, name=seat_name(names, toward, locale=locale)
        )
        notes.append((moved, 28, Palette.TEXT))
    if last.get("overshoot"):
        lost = (public.get("result") or {}).get("reason") == "no-forest-token"
        notes.append((t("fox-duet.render.overshoot.lost" if lost else "fox-duet.render.overshoot", locale), 26, LOSS))
    elif last.get("gem"):
        notes.append((t("fox-duet.render.gem-collected", locale), 28, GEM_COLORS["light"]))
    else:
        notes.append((t("fox-duet.render.no-gem", locale), 26, Palette.TEXT_MUTED))
    return notes


def draw_info(image: Image.Image, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    box = INFO_PANEL
    shadowed_box(image, box, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, _ = box
    title(draw, box, t("fox-duet.render.forest-tokens", locale))
    total = int(public.get("forest_tokens_total", 0))
    left = int(public.get("forest_tokens_left", 0))
    for k in range(total):
        paste_sprite(image, icon("forest", 52, "" if k < left else "faint"), (x0 + 52 + k * 58, y0 + 84))
    tx = x0 + 52 + max(total, 1) * 58 - 16
    shown, fnt = fitted(t("fox-duet.render.tokens-left", locale, left=left, total=total), x1 - 24 - tx, 30, True, 16)
    put_text(draw, (tx, y0 + 84), shown, font=fnt, fill=Palette.TEXT if left else LOSS, anchor="lm")
    title(draw, (x0, y0 + 116, x1, 0), t("fox-duet.render.gems", locale), x1 - x0 - 48)
    rows = [
        (str(public.get("gems_on_board", 0)), Palette.TEXT, "fox-duet.render.on-path"),
        (str(public.get("gems_collected", 0)), GEM_COLORS["light"], "fox-duet.render.collected"),
    ]
    for k, (number, colour, key) in enumerate(rows):
        y = y0 + 190 + k * 52
        paste_sprite(image, icon("gem", 44), (x0 + 48, y))
        runs = runs_around(t(key, locale, number=MARK), number, Palette.TEXT_MUTED, colour)
        shown_runs, rfont = fit_runs(runs, x1 - 24 - (x0 + 80), 32, bold=True, min_size=16)
        draw_runs(draw, (x0 + 80, y), shown_runs, rfont)
    heading_w = title(draw, (x0, y0 + 262, x1, 0), t("fox-duet.render.cards-in-hand", locale), (x1 - x0 - 48) * 0.62)
    deck, dfont = fitted(
        t("fox-duet.render.deck", locale, size=public.get("deck_size", 0)), x1 - x0 - 48 - heading_w - 16, 24, True, 14
    )
    put_text(draw, (x1 - 24, y0 + 292), deck, font=dfont, fill=Palette.TEXT_MUTED, anchor="rm")
    sizes = list(public.get("hand_sizes") or [0, 0])
    # One row per player, the whole panel wide: a name at its longest keeps a readable size.
    for seat, count in enumerate(sizes[:2]):
        x: float = x0 + 24
        y = y0 + 326 + seat * 34
        draw.rounded_rectangle((x, y - 16, x + 22, y + 16), radius=4, fill=CARD_BACK, outline=Palette.TEXT, width=2)
        number = f" {count}"
        nf = font(28, True)
        label, lf = fitted(seat_name(names, seat, locale=locale), x1 - x0 - 90 - nf.getlength(number), 26, True, 16)
        x += 34
        x += draw_runs(draw, (x, y), [(label, Palette.TEXT)], lf)
        draw_runs(draw, (x, y), [(number, Palette.ACCENT)], nf)


def phone_keys(public: Mapping[str, Any], names: Sequence[str], locale: str = "en") -> list[Key]:
    """The board's key lines, read inline on a phone: whose turn and the trick, the gems and tokens, the last trick."""
    runs, tone = status_runs(public, names, locale)
    status = "".join(text for text, _ in runs)
    progress = t("fox-duet.render.progress", locale, round=public.get("round", 1), trick=public.get("trick", 1))
    level = t("fox-duet.render.level", locale, level=public.get("level", 1), side=public.get("side", "A"))
    fill = {"won": (140, 230, 150), "lost": LOSS}.get(tone, Palette.ACCENT)
    led = [play["card"] for play in public.get("trick_cards") or [] if play.get("card")][:1]
    # The card led, which the other must follow: the choice's one fact not otherwise in the band.
    answer = [
        t("fox-duet.render.suit-led", locale, suit=f"{suit_label(str(card.get('suit')), locale)} {card.get('rank')}")
        for card in led
    ]
    keys = [Key("turn", [status, *answer, progress, level], fill)]
    counts = [
        t(
            "fox-duet.render.key.gems",
            locale,
            collected=public.get("gems_collected", 0),
            on_path=public.get("gems_on_board", 0),
        ),
        t(
            "fox-duet.render.key.tokens",
            locale,
            left=public.get("forest_tokens_left", 0),
            total=public.get("forest_tokens_total", 0),
        ),
    ]
    decree = public.get("decree")
    if decree:
        counts.append(t("fox-duet.render.trump", locale, suit=suit_label(str(decree.get("suit")), locale)))
    keys.append(Key("scores", counts, Palette.TEXT))
    last = public.get("last_trick")
    if last:
        keys.append(Key("change", [text for text, _, _ in outcome_notes(last, names, public, locale)], CHANGE))
    return keys


def draw_board(public: FoxDuetPublic, names: Sequence[str], *, locale: str = "en", phone: bool = True) -> Image.Image:
    """Draw the public board of a view, worded in ``locale``: key lines, path, tracker, decree, trick, counters.

    With ``phone`` the header of status, round and level gives way to the band of key lines
    (``render.phone``); without it (the guide's pictures) the board is drawn alone, header and all.
    """
    image = backdrop((W, H))
    if not phone:
        draw_header(image, public, names, locale)
    draw_path(image, public, names, locale)
    draw_decree(image, public, locale)
    draw_trick(image, public, names, locale)
    draw_info(image, public, names, locale)
    if not phone:
        return image
    return with_band(image, phone_keys(public, names, locale), crop_top=HEADER_CROP)
