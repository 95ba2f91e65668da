"""The Fox Duet public board: status header, path with gems and tracker, decree, trick, counters.

The page layout (``W``, ``H``, ``HEADER``, ``BOARD_CARD`` ...) is shared with ``hand``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    Color,
    Palette,
    backdrop,
    circle,
    dashed_slot,
    draw_runs,
    fit_runs,
    fitted,
    font,
    panel_title,
    paste_sprite,
    runs_width,
    seat_name,
    shadowed_box,
    wrap,
)
from render.fox_duet.cards import CARD_BACK, paste_card
from render.fox_duet.icons import FOX_ORANGE, GEM_COLORS, SUITS, icon, suit_style

# --- layout (pixels) --------------------------------------------------------------------------
W, H = 1600, 900
MARGIN = 36
HEADER = (MARGIN, 18, W - MARGIN, 114)

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

PHASE_TEXT = {  # phase: (the pending key naming who acts, else to_move; text for one; for both)
    "fox-pick": ("fox_player", " played a Fox: pick who may swap with the decree", ""),
    "fox-swap": ("chooser", " may swap a card with the decree (Fox)", ""),
    "gazelle": ("winner", " may ignore a Gazelle's footprints", ""),
    "direction": ("winner", " picks the way to move {steps} steps (Musician)", ""),
    "gift": ("", " picks a card to trade (Gift)", " pick cards to trade (Gift)"),
    "forest": ("", " chooses where the forest token goes", " choose where the forest token goes"),
}
LOSS_TEXT = {
    "no-forest-token": "a forest token was needed and none was left",
    "time": "round 3 ended with gems still on the path",
    "conceded": "the team conceded",
}


def status_runs(public: Mapping[str, Any], names: Sequence[str]) -> tuple[list[tuple[str, Color]], str]:
    """The status line as coloured pieces, and its tone: "turn", "won" or "lost"."""
    phase = public.get("phase")
    pending = public.get("pending") or {}
    if phase == "over":
        result = public.get("result") or {}
        if result.get("won"):
            return [(f"Victory! All gems collected · score {result.get('score', 0)}", Palette.TEXT)], "won"
        reason = LOSS_TEXT.get(str(result.get("reason")), "the game is over")
        return [(f"Defeat: {reason}", Palette.TEXT)], "lost"
    if phase == "play":
        doing = " to follow" if public.get("trick_cards") else f" to lead trick {public.get('trick')}"
        key, one, many = "", doing, doing
    else:
        key, one, many = PHASE_TEXT.get(str(phase), ("", " to act", " to act"))
    seats = [pending[key]] if key in pending else list(public.get("to_move") or [public.get("leader")])
    who = " & ".join(seat_name(names, s) for s in seats) or "Nobody"
    doing = (one if len(seats) == 1 else many).format(steps=pending.get("steps", 0))
    runs: list[tuple[str, Color]] = [(who, Palette.ACCENT), (doing, Palette.TEXT)]
    ready = [seat for seat, done in enumerate(pending.get("chosen") or []) if done]
    if phase == "gift" and ready:  # who has picked, never which card
        runs.append((" · " + " & ".join(seat_name(names, s) for s in ready) + " ready", Palette.TEXT_MUTED))
    return runs, "turn"


def draw_header(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
    runs, tone = status_runs(public, names)
    fill = {"won": (36, 110, 60), "lost": (128, 40, 40)}.get(tone, Palette.PANEL)
    shadowed_box(image, HEADER, PANEL_RADIUS, fill, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = HEADER
    strip = {"won": Palette.GOOD, "lost": Palette.BAD}.get(tone, Palette.ACCENT)
    draw.rounded_rectangle((x0 + 14, y0 + 16, x0 + 24, y1 - 16), radius=5, fill=strip)
    right = f"Round {public.get('round', 1)}/3 · Trick {public.get('trick', 1)}/11"
    sub = f"Level {public.get('level', 1)} · side {public.get('side', 'A')}"
    rfont = font(34, True)
    draw.text((x1 - 24, y0 + 42), right, font=rfont, fill=Palette.TEXT, anchor="rm")
    draw.text((x1 - 24, y0 + 76), sub, font=font(24), fill=Palette.TEXT_MUTED, anchor="rm")
    room = x1 - x0 - 72 - rfont.getlength(right) - 40
    shown, fnt = fit_runs(runs, room, 46, bold=True, min_size=24)
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
    draw.text((cx + 4, cy + 2), f"×{count}", font=font(34, True), fill=Palette.TEXT, anchor="lm")


def draw_path(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
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
    for i, (x, sp) in enumerate(zip(xs, spaces, strict=True)):
        covered = bool(sp.get("covered"))
        box = (x - GEM_BOX_W / 2, GEM_BOX_TOP, x + GEM_BOX_W / 2, GEM_BOX_TOP + GEM_BOX_H)
        box_fill = (14, 28, 22) if covered else Palette.PANEL_DARK
        draw.line((x, box[3], x, NODE_Y - NODE_R), fill=Palette.PANEL_EDGE, width=4)
        draw.rounded_rectangle(box, radius=16, fill=box_fill, outline=Palette.PANEL_EDGE, width=3)
        draw_gems(image, draw, x, (box[1] + box[3]) / 2, int(sp.get("gems", 0)))
        if sp.get("plus"):
            circle(draw, (box[2] - 16, box[1] + 4), 18, fill=PLUS_FILL, outline=Palette.TEXT, width=2)
            draw.text((box[2] - 16, box[1] + 4), "+", font=font(30, True), fill=Palette.TEXT, anchor="mm")
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
        label = "START" if i == start else str(abs(i - start))
        colour = START_FILL if i == start else Palette.TEXT_MUTED
        draw.text((x, DIST_Y), label, font=font(24 if i == start else 26, True), fill=colour, anchor="mm")
    tracker = public.get("tracker")
    if isinstance(tracker, int) and 0 <= tracker < n:
        x = xs[tracker]
        circle(draw, (x, NODE_Y), TRACKER_SIZE / 2 + 8, outline=FOX_ORANGE, width=6)
        paste_sprite(image, icon("fox", TRACKER_SIZE), (x, NODE_Y))
    half = (PATH_X1 - PATH_X0) / 2 - 60
    left, lf = fitted(f"◀ {seat_name(names, 0)}", half, 34, bold=True, min_size=20)
    right, rf = fitted(f"{seat_name(names, 1)} ▶", half, 34, bold=True, min_size=20)
    draw.text((PATH_X0 - 56, END_LABEL_Y), left, font=lf, fill=Palette.TEXT, anchor="lm")
    draw.text((PATH_X1 + 56, END_LABEL_Y), right, font=rf, fill=Palette.TEXT, anchor="rm")


def draw_decree(image: Image.Image, public: Mapping[str, Any]) -> None:
    box = DECREE_PANEL
    shadowed_box(image, box, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    panel_title(draw, box, "DECREE")
    decree = public.get("decree")
    if not decree:
        return
    cw, _ = BOARD_CARD
    cx = (box[0] + box[2]) / 2
    paste_card(image, decree, (round(cx - cw / 2), box[1] + 58), BOARD_CARD)
    suit = str(decree.get("suit"))
    st = suit_style(suit)
    runs: list[tuple[str, Color]] = [(st.label, st.bright), (" is trump", Palette.TEXT)]
    fnt = font(30, True)
    icon_w = 44 if suit in SUITS else 0
    x = cx - (icon_w + runs_width(runs, fnt)) / 2
    y = box[3] - 44
    if suit in SUITS:
        paste_sprite(image, icon(suit, 40), (x + 18, y))
    draw_runs(draw, (x + icon_w, y), runs, fnt)


def draw_trick(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
    box = TRICK_PANEL
    shadowed_box(image, box, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    cards = list(public.get("trick_cards") or [])
    last = public.get("last_trick") or {}
    showing_last = not cards and bool(last)
    title = "LAST TRICK" if showing_last else f"TRICK {public.get('trick', 1)}"
    panel_title(draw, box, title)
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
        name, nf = fitted(seat_name(names, seat), slot_w, 28, bold=True, min_size=18)
        draw.text((sx + slot_w / 2, top), name, font=nf, fill=Palette.TEXT, anchor="mm")
        card_xy = (round(sx + (slot_w - cw) / 2), top + 26)
        play = next((p for p in plays if p.get("seat") == seat), None)
        if play:
            if seat == winner:
                draw.rounded_rectangle(
                    (card_xy[0] - 7, card_xy[1] - 7, card_xy[0] + cw + 7, card_xy[1] + ch + 7),
                    radius=20,
                    fill=Palette.ACCENT,
                )
            paste_card(image, play["card"], card_xy, BOARD_CARD)
            tag = "WON" if seat == winner else ("LED" if k == 0 else "")
            if tag:
                draw.text(
                    (sx + slot_w / 2, card_xy[1] + ch + 26),
                    tag,
                    font=font(24, True),
                    fill=Palette.ACCENT if tag == "WON" else Palette.TEXT_MUTED,
                    anchor="mm",
                )
        else:
            waiting = "to lead" if k == 0 else "to follow"
            dashed_slot(draw, (card_xy[0], card_xy[1], card_xy[0] + cw, card_xy[1] + ch), waiting)
    tx = box[0] + 24 + 2 * (slot_w + 14) + 10
    width = box[2] - 24 - tx
    lines = trick_notes(public, names, showing_last)
    y = top - 10
    for text, size, colour in lines:
        fnt = font(size, True)
        for line in wrap(text, fnt, width, 3):
            draw.text((tx, y), line, font=fnt, fill=colour, anchor="lt")
            y += size + 10
        y += 12


def trick_notes(public: Mapping[str, Any], names: Sequence[str], showing_last: bool) -> list[tuple[str, int, Color]]:
    """Lines beside the trick: its outcome, or the footprints at stake and the last result."""
    notes: list[tuple[str, int, Color]] = []
    last = public.get("last_trick")
    if showing_last and last:
        notes += outcome_notes(last, names, public)
        return notes
    cards = public.get("trick_cards") or []
    if cards:
        steps = sum(int(p["card"].get("footprints", 0)) for p in cards)
        notes.append((f"Footprints: {steps}", 30, Palette.TEXT))
        led = suit_style(str(cards[0]["card"].get("suit")))
        notes.append((f"{led.label} led", 26, led.bright))
    elif public.get("phase") != "over":
        notes.append(("No cards yet", 28, Palette.TEXT_MUTED))
    if last:
        prev = outcome_notes(last, names, public)[:2]
        notes.append(("Previous trick: " + ", ".join(t for t, _, _ in prev), 22, Palette.TEXT_MUTED))
    return notes


def outcome_notes(
    last: Mapping[str, Any], names: Sequence[str], public: Mapping[str, Any]
) -> list[tuple[str, int, Color]]:
    """What a finished trick did: its winner, the fox's move, and a gem or an overshoot."""
    winner = seat_name(names, last.get("winner"))
    steps = int(last.get("steps", 0))
    toward = last.get("toward")
    arrow = "◀" if toward == 0 else "▶"
    notes: list[tuple[str, int, Color]] = [(f"{winner} won", 34, Palette.ACCENT)]
    if steps == 0:
        notes.append(("0 steps: the fox stays", 28, Palette.TEXT))
    else:
        notes.append(
            (f"{arrow} {steps} step{'s' if steps != 1 else ''} toward {seat_name(names, toward)}", 28, Palette.TEXT)
        )
    if last.get("overshoot"):
        lost = (public.get("result") or {}).get("reason") == "no-forest-token"
        what = "no forest token left to cover the end" if lost else "back to start, forest token placed"
        notes.append((f"Overshoot: {what}", 26, (255, 150, 140)))
    elif last.get("gem"):
        notes.append(("+1 gem collected", 28, GEM_COLORS["light"]))
    else:
        notes.append(("No gem there", 26, Palette.TEXT_MUTED))
    return notes


def draw_info(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
    box = INFO_PANEL
    shadowed_box(image, box, PANEL_RADIUS, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, _ = box
    panel_title(draw, box, "FOREST TOKENS")
    total = int(public.get("forest_tokens_total", 0))
    left = int(public.get("forest_tokens_left", 0))
    for k in range(total):
        paste_sprite(image, icon("forest", 52, "" if k < left else "faint"), (x0 + 52 + k * 58, y0 + 84))
    draw.text(
        (x0 + 52 + max(total, 1) * 58 - 16, y0 + 84),
        f"{left} of {total} left",
        font=font(30, True),
        fill=Palette.TEXT if left else (255, 150, 140),
        anchor="lm",
    )
    panel_title(draw, (x0, y0 + 116, x1, 0), "GEMS")
    rows = [
        (str(public.get("gems_on_board", 0)), Palette.TEXT, " on the path"),
        (str(public.get("gems_collected", 0)), GEM_COLORS["light"], " collected"),
    ]
    for k, (number, colour, label) in enumerate(rows):
        y = y0 + 190 + k * 52
        paste_sprite(image, icon("gem", 44), (x0 + 48, y))
        draw_runs(draw, (x0 + 80, y), [(number, colour), (label, Palette.TEXT_MUTED)], font(32, True))
    panel_title(draw, (x0, y0 + 262, x1, 0), "CARDS IN HAND")
    draw.text(
        (x1 - 24, y0 + 292),
        f"DECK {public.get('deck_size', 0)}",
        font=font(24, True),
        fill=Palette.TEXT_MUTED,
        anchor="rm",
    )
    sizes = list(public.get("hand_sizes") or [0, 0])
    y = y0 + 344
    col_w = (x1 - x0 - 48) / 2
    for seat, count in enumerate(sizes[:2]):
        x = x0 + 24 + seat * col_w
        draw.rounded_rectangle((x, y - 20, x + 28, y + 20), radius=5, fill=CARD_BACK, outline=Palette.TEXT, width=2)
        number = f" {count}"
        nf = font(30, True)
        label, lf = fitted(seat_name(names, seat), col_w - 50 - nf.getlength(number), 30, True, 18)
        x += 40
        x += draw_runs(draw, (x, y), [(label, Palette.TEXT)], lf)
        draw_runs(draw, (x, y), [(number, Palette.ACCENT)], nf)


def draw_board(public: Mapping[str, Any], names: Sequence[str], *, locale: str = "en") -> Image.Image:
    """Draw the public board of a view: path, tracker, decree, trick, counters and status."""
    image = backdrop((W, H)).copy()
    draw_header(image, public, names)
    draw_path(image, public, names)
    draw_decree(image, public)
    draw_trick(image, public, names)
    draw_info(image, public, names)
    return image
