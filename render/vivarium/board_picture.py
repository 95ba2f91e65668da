"""The Vivarium board (public view only) and a seat's hand image (their secret contracts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.vivarium import VivariumPrivate, VivariumPublic
from l10n import t
from render.common import (
    Palette,
    backdrop_rgba,
    draw_centred,
    fit_font,
    fitted,
    font,
    put_text,
    seat_name,
    shadowed_box,
    wrap,
)
from render.phone import Key, KeyLine, key_size, with_band
from render.vivarium.card_pictures import CONTRACT_EDGE, CONTRACT_FACE, INK, card_sprite, goal_lines, name_of, word
from render.vivarium.icons import HABITAT_COLORS, HABITAT_TEXT, badge, icon
from render.vivarium.offer import tiles_strip

W, H = 1600, 900
HEADER_H = 62
GRID_X, GRID_Y = 58, 104
CARD_W, CARD_H, GAP = 180, 190, 8
RIGHT_X = GRID_X + 4 * CARD_W + 3 * GAP + 26
RIGHT_W = W - RIGHT_X - 18
TOP_PANEL = (RIGHT_X, 74, W - 18, 250)
PLAYERS_Y = 262
HIGHLIGHT = Palette.ACCENT
TYPES = ("animal", "plant", "mineral", "dragon")
HABITATS = ("mountain", "forest", "desert", "swamp")
ICONS = ("lamp", "mister", "net", "lens")
STEPS = ("swap", "take", "ability")
TITLE_W = 200  # the widest the game's name may be in the header


def _name(names: Sequence[str], seat: int | None, locale: str) -> str:
    # The whole name (up to seat_name's 20 characters): every place it goes shrinks it to its room.
    return seat_name(names, seat, locale=locale)


def header_text(public: Mapping[str, Any], names: Sequence[str], locale: str) -> str:
    """The round, the turn, who plays and the step of their turn (or who won)."""
    phase = str(public.get("phase"))
    if phase == "over":
        winners = (public.get("result") or {}).get("winners", [])
        listed = t("vivarium.render.separator", locale).join(_name(names, s, locale) for s in winners)
        return t("vivarium.render.game-over" + (".shared" if len(winners) > 1 else ""), locale, names=listed)
    card = (public.get("pending") or {}).get("card")
    if phase == "ability" and card:
        step = t("vivarium.render.step.uses", locale, card=name_of(card, locale))
    else:
        step = t(f"vivarium.render.step.{phase}", locale) if phase in STEPS else ""
    return t(
        "vivarium.render.status",
        locale,
        round=public.get("round"),
        rounds=public.get("rounds", 7),
        turn=public.get("turn"),
        name=_name(names, public.get("current"), locale),
        step=step,
    )


def phone_keys(public: Mapping[str, Any], names: Sequence[str], locale: str) -> list[Key]:
    """The board's key lines, read inline on a phone: whose turn and step, then each player's gems and points."""
    result = public.get("result") or {}
    scores = []
    for player in public.get("players_info", []):
        seat = player.get("seat", 0)
        if result.get("scores"):
            points = t("vivarium.render.points", locale, points=result["scores"][seat])
            scores.append(f"{_name(names, seat, locale)} {points}")
        else:
            scores.append(f"{_name(names, seat, locale)} 💎{player.get('gems', 0)} ★{player.get('creature_points', 0)}")
    return [Key("turn", [header_text(public, names, locale)], Palette.ACCENT), Key("scores", scores, Palette.TEXT)]


def draw_header(image: Image.Image, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    """The game's name and ``header_text`` in a strip across the top (the board drawn without its band)."""
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, W, HEADER_H), fill=Palette.PANEL_DARK)
    title, tf = fitted(t("vivarium.render.title", locale), TITLE_W, 34, True, 20)
    put_text(draw, (20, HEADER_H / 2), title, font=tf, fill=Palette.ACCENT, anchor="lm")
    left = 20 + tf.getlength(title) + 30
    shown, fnt = fitted(header_text(public, names, locale), W - left - 20, 30, True, 16)
    put_text(draw, (left, HEADER_H / 2), shown, font=fnt, fill=Palette.TEXT, anchor="lm")


def draw_grid(image: Image.Image, public: Mapping[str, Any], locale: str) -> None:
    draw = ImageDraw.Draw(image)
    reachable = {tuple(c) for c in public.get("reachable", [])}
    phase = public.get("phase")
    dim = bool(reachable) and phase in ("take", "ability")
    for i in range(4):
        x = GRID_X + i * (CARD_W + GAP) + CARD_W / 2
        label, lf = fitted(t("vivarium.render.col", locale, number=i + 1), CARD_W - 8, 26, True, 14)
        put_text(draw, (x, GRID_Y - 20), label, font=lf, fill=Palette.CREAM, anchor="mm")
        y = GRID_Y + i * (CARD_H + GAP) + CARD_H / 2
        put_text(draw, (GRID_X - 30, y), str(i + 1), font=font(40, True), fill=Palette.CREAM, anchor="mm")
    row, rf = fitted(t("vivarium.render.row", locale), 2 * (GRID_X - 30) - 8, 18, True, 10)
    put_text(draw, (GRID_X - 30, GRID_Y - 20), row, font=rf, fill=Palette.TEXT_MUTED, anchor="mm")
    grid = public.get("grid", [])
    for r, row in enumerate(grid[:4]):
        for c, card in enumerate(row[:4]):
            x = GRID_X + c * (CARD_W + GAP)
            y = GRID_Y + r * (CARD_H + GAP)
            hot = (r + 1, c + 1) in reachable
            if hot:
                draw.rounded_rectangle((x - 6, y - 6, x + CARD_W + 6, y + CARD_H + 6), 18, fill=HIGHLIGHT)
            if card is None:
                draw.rounded_rectangle(
                    (x, y, x + CARD_W, y + CARD_H), 14, fill=Palette.PANEL_DARK, outline=Palette.PANEL_EDGE, width=2
                )
                empty = t("vivarium.render.empty", locale)
                draw_centred(draw, (x + 8, y, x + CARD_W - 8, y + CARD_H), empty, 24, Palette.TEXT_MUTED)
                continue
            sprite = card_sprite(card, CARD_W, CARD_H, locale)
            image.alpha_composite(sprite, (x, y))
            if dim and not hot:
                shade_box = Image.new("RGBA", (CARD_W, CARD_H), (10, 20, 14, 120))
                image.alpha_composite(shade_box, (x, y))


def draw_domino(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    numbers: Sequence[int],
    size: int,
    face_up: bool = True,
    changed: Sequence[bool] = (False, False),
) -> float:
    """A chain token as a domino of two numbered halves; return its width."""
    w, h = size * 2 + 6, size
    fill = (250, 244, 226) if face_up else (90, 96, 92)
    draw.rounded_rectangle((x, y, x + w, y + h), round(size * 0.2), fill=fill, outline=(40, 34, 28), width=3)
    draw.line((x + w / 2, y + 6, x + w / 2, y + h - 6), fill=(40, 34, 28), width=3)
    for i, n in enumerate(numbers[:2]):
        cx = x + size / 2 + 3 + i * (size + 3)
        color = (200, 70, 30) if changed[i] else INK if face_up else (200, 200, 196)
        put_text(draw, (cx, y + h / 2), str(n), font=font(round(size * 0.7), True), fill=color, anchor="mm")
    return w


def draw_priority(
    image: Image.Image, draw, cx: float, cy: float, token: Mapping[str, Any] | None, r: int, locale: str
) -> None:
    if token is None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=Palette.PANEL_EDGE, width=3)
        put_text(draw, (cx, cy), "—", font=font(28, True), fill=Palette.TEXT_MUTED, anchor="mm")
        return
    icon_ = token.get("icon") or {}
    if "habitat" in icon_:
        color = HABITAT_COLORS.get(icon_["habitat"], (128, 128, 128))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color, outline=(250, 240, 210), width=max(2, r // 10))
        if r < 30:
            return
        label = word("habitat", icon_["habitat"], locale).upper()
        ink = HABITAT_TEXT.get(icon_["habitat"], INK)
        draw_centred(draw, (cx - r + 6, cy - 14, cx + r - 6, cy + 14), label, 20, ink, True, 10)
    elif "type" in icon_:
        draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r), fill=(250, 245, 230), outline=(40, 34, 28), width=max(2, r // 10)
        )
        sprite = icon(str(icon_["type"]), round(r * 1.3))
        image.alpha_composite(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)))
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(200, 196, 186), outline=(40, 34, 28), width=4)
        if r >= 30:  # a small disc has no room for the word
            blank = t("vivarium.priority.blank", locale)
            draw_centred(draw, (cx - r + 6, cy - 14, cx + r - 6, cy + 14), blank, 20, INK, True, 10)


def _icon_label(token: Mapping[str, Any] | None, locale: str) -> str:
    """What a priority token counts, in ``locale``; empty for none or the blank token."""
    icon_ = (token or {}).get("icon") or {}
    if "type" in icon_:
        return word("type", icon_["type"], locale)
    if "habitat" in icon_:
        return word("habitat", icon_["habitat"], locale)
    return ""


def label(draw, xy: tuple[float, float], text: str, size: int, fill, room: float, anchor: str = "mm") -> None:
    """A short bold label, shrunk (then cut) to ``room`` pixels."""
    shown, fnt = fitted(text, room, size, True, 10)
    put_text(draw, xy, shown, font=fnt, fill=fill, anchor=anchor)


def draw_top(image: Image.Image, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    shadowed_box(image, TOP_PANEL, 18, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = TOP_PANEL
    px = x0 + 330
    label(draw, (x0 + 18, y0 + 22), t("vivarium.render.middle", locale), 22, Palette.TEXT_MUTED, px - x0 - 36, "lm")
    x: float = x0 + 18
    for token in public.get("middle", []):
        x += draw_domino(draw, x, y0 + 50, token["numbers"], 70) + 14
    down = public.get("facedown")
    if down:
        draw_domino(draw, x, y0 + 50, down["numbers"], 70, face_up=False)
        room = min(160, px - 10 - x)
        label(draw, (x + 73, y0 + 136), t("vivarium.render.face-down", locale), 17, Palette.TEXT_MUTED, room)
        clears = t("vivarium.render.clears", locale, number=max(down["numbers"]))
        label(draw, (x + 73, y0 + 157), clears, 17, Palette.TEXT_MUTED, room)
    priority = public.get("priority", {})
    label(draw, (px, y0 + 22), t("vivarium.render.priority", locale), 22, Palette.TEXT_MUTED, x1 - px - 18, "lm")
    cur, nxt = priority.get("current"), priority.get("next")
    draw_priority(image, draw, px + 58, y0 + 98, cur, 50, locale)
    label(draw, (px + 58, y0 + 162), t("vivarium.render.priority-now", locale), 20, Palette.ACCENT, 110)
    draw_priority(image, draw, px + 178, y0 + 98, nxt, 40, locale)
    label(draw, (px + 178, y0 + 162), t("vivarium.render.priority-next", locale), 20, Palette.TEXT, 110)
    tx = px + 238
    leader = priority.get("leader")
    what = _icon_label(cur, locale)
    if public.get("phase") == "over":
        lines = [(t("vivarium.render.final-round", locale), Palette.TEXT)]
    elif what:
        most = _name(names, leader, locale) if leader is not None else t("vivarium.render.nobody-yet", locale)
        lines = [(t("vivarium.render.bonus", locale, what=what), Palette.TEXT)]
        most_line = t("vivarium.render.most", locale, what=what, name=most)
        if fit_font(most_line, x1 - tx - 12, 20, True, 14).getlength(most_line) <= x1 - tx - 12:
            lines.append((most_line, Palette.ACCENT))
        else:  # a long name goes on a line of its own rather than be cut
            heading = t("vivarium.render.most", locale, what=what, name="\x00").partition("\x00")[0].rstrip()
            lines += [(heading, Palette.ACCENT), (most, Palette.ACCENT)]
    else:
        lines = [(t("vivarium.render.no-bonus", locale), Palette.TEXT)]
    lines.append((t("vivarium.render.worth", locale, left=priority.get("stack", 0)), Palette.TEXT_MUTED))
    step = 32 if len(lines) <= 3 else 26
    for i, (text, color) in enumerate(lines):
        shown, fnt = fitted(text, x1 - tx - 12, 20, True, 14)
        put_text(draw, (tx, y0 + 66 + i * step - (len(lines) > 3) * 8), shown, font=fnt, fill=color, anchor="lm")


def draw_players(image: Image.Image, public: Mapping[str, Any], names: Sequence[str], locale: str) -> None:
    players = public.get("players_info", [])
    n = max(1, len(players))
    gap = 10
    height = (H - 14 - PLAYERS_Y - gap * (n - 1)) // n
    result = public.get("result") or {}
    for i, player in enumerate(players):
        box = (RIGHT_X, PLAYERS_Y + i * (height + gap), W - 18, PLAYERS_Y + i * (height + gap) + height)
        current = public.get("current") == player.get("seat")
        shadowed_box(
            image, box, 16, Palette.PANEL, HIGHLIGHT if current else Palette.PANEL_EDGE, 4 if current else 2, 4
        )
        draw_player(image, box, public, player, names, result, locale)


def _chip(draw, x: float, y: float, text: str, fill, ink, size: int = 20) -> float:
    fnt = font(size, True)
    w = fnt.getlength(text) + 16
    draw.rounded_rectangle((x, y - 15, x + w, y + 15), 9, fill=fill)
    put_text(draw, (x + w / 2, y), text, font=fnt, fill=ink, anchor="mm")
    return w


def _chip_width(text: str, size: int) -> float:
    return font(size, True).getlength(text) + 16


def draw_player(image, box, public, player, names, result, locale: str) -> None:
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    seat = player.get("seat", 0)
    current = public.get("current") == seat
    compact = (y1 - y0) < 200
    y = y0 + 26
    # Right to left first: the score (or chain tokens) and the counters keep their room, the name takes the rest.
    if result.get("scores"):
        score = t("vivarium.render.points", locale, points=result["scores"][seat])
        score_font = font(30, True)
        right_w = score_font.getlength(score)
        put_text(draw, (x1 - 16, y), score, font=score_font, fill=Palette.ACCENT, anchor="rm")
    else:
        tx = x1 - 14
        for token in reversed(player.get("tokens", [])):
            now = token.get("now", token["numbers"])
            changed = [a != b for a, b in zip(now, token["numbers"], strict=False)]
            tx -= 2 * 34 + 6
            draw_domino(draw, tx, y - 17, now, 34, changed=changed)
            tx -= 8
        right_w = x1 - 14 - tx
    x = x0 + 14
    if public.get("first_player") == seat:
        x += _chip(draw, x, y, t("vivarium.render.first", locale), Palette.ACCENT, INK, 18) + 8
    gems = str(player.get("gems", 0))
    stars = f"★ {player.get('creature_points', 0)}"
    counters_w = 34 + font(28, True).getlength(gems) + 16 + font(26, True).getlength(stars) + 14
    counters_w += 32 * len(player.get("priority", []))
    room = x1 - 16 - right_w - 16 - counters_w - 14 - x
    name, nf = fitted(_name(names, seat, locale), max(40, room), 28, True, 16)
    put_text(draw, (x, y), name, font=nf, fill=HIGHLIGHT if current else Palette.TEXT, anchor="lm")
    x += nf.getlength(name) + 14
    image.alpha_composite(icon("gem", 30), (round(x), round(y - 15)))
    put_text(draw, (x + 34, y), gems, font=font(28, True), fill=Palette.TEXT, anchor="lm")
    x += 34 + font(28, True).getlength(gems) + 16
    put_text(draw, (x, y), stars, font=font(26, True), fill=(252, 214, 92), anchor="lm")
    x += font(26, True).getlength(stars) + 14
    for token in player.get("priority", []):
        draw_priority(image, draw, x + 14, y, token, 14, locale)
        x += 32
    counts_y = y0 + (68 if compact else 76)
    draw_counts(image, draw, x0 + 14, counts_y, x1 - 14, player.get("counts", {}), locale)
    text = "" if compact else equipment_text(player, result, seat, locale)
    tiles = y1 - y0 >= 260
    # Top to bottom: the contracts take the room the equipment line and the tiles (when shown) leave them.
    top = counts_y + (20 if compact else 32)
    bottom = y1 - 6 - (30 if text else 0) - (48 if tiles else 0)
    end = draw_contracts(draw, x0 + 14, top, x1 - 10, bottom, player.get("contracts", []), locale, compact)
    if text:
        details = bool(result.get("details"))
        shown, fnt = fitted(text, x1 - x0 - 28, 18, details, 14)
        fill = Palette.TEXT if details else Palette.TEXT_MUTED
        put_text(draw, (x0 + 14, end + 18), shown, font=fnt, fill=fill, anchor="lm")
        end += 30
    if tiles:
        draw_tiles(draw, image, x0 + 14, max(y0 + 206, end + 30), x1 - 14, player.get("collection", []))


def equipment_text(player: Mapping[str, Any], result: Mapping[str, Any], seat: int, locale: str) -> str:
    """The line under a player's contracts: the final score's details, or the equipment they own."""
    equipment = [c for c in player.get("collection", []) if c.get("kind") == "equipment"]
    seat_details = (result.get("details") or [{}] * (seat + 1))[seat] if result else {}
    if seat_details:
        parts = {
            "creatures": "creatures",
            "gems": "gems",
            "priority": "priority tokens",
            "contracts": "contracts",
            "starting": "starting contracts",
            "equipment": "equipment",
        }
        return t("vivarium.render.details", locale, **{k: seat_details.get(p, 0) for k, p in parts.items()})
    if equipment:
        listed = t("vivarium.render.separator", locale).join(name_of(c, locale) for c in equipment)
        return t("vivarium.render.equipment", locale, names=listed)
    return ""


# Sizes of a player's counters row, largest first: habitat chip text, type number, icon number, and
# whether the chip names its habitat (the colour alone tells it when room is short).
COUNT_SIZES = ((18, 24, 22, True), (16, 22, 20, True), (14, 20, 18, True), (12, 18, 16, True), (14, 18, 16, False))


def draw_counts(image, draw, x0: float, y: float, x1: float, counts: Mapping[str, Any], locale: str) -> None:
    """A player's types, habitats and icons in one row, a size smaller while the numbers would not fit."""
    types = [str(counts.get("type", {}).get(kind, 0)) for kind in TYPES]
    icons = [str(counts.get("icon", {}).get(ic, 0)) for ic in ICONS]
    habitats = [str(counts.get("habitat", {}).get(h, 0)) for h in HABITATS]
    for chip_size, type_size, icon_size, named in COUNT_SIZES:
        chips = [
            f"{t(f'vivarium.render.habitat-short.{h}', locale)} {v}" if named else v
            for h, v in zip(HABITATS, habitats, strict=True)
        ]
        type_steps = [max(60.0, 42 + font(type_size, True).getlength(v)) for v in types]
        icon_steps = [max(47.0, 35 + font(icon_size, True).getlength(v)) for v in icons]
        width = sum(type_steps) + 4 + sum(_chip_width(c, chip_size) + 4 for c in chips) + 6 + sum(icon_steps)
        if width <= x1 - x0:
            break
    x = x0
    for kind, value, step in zip(TYPES, types, type_steps, strict=True):
        image.alpha_composite(badge(kind, 32), (round(x), round(y - 16)))
        put_text(draw, (x + 36, y), value, font=font(type_size, True), fill=Palette.TEXT, anchor="lm")
        x += step
    x += 4
    for habitat, chip in zip(HABITATS, chips, strict=True):
        x += _chip(draw, x, y, chip, HABITAT_COLORS[habitat], HABITAT_TEXT[habitat], chip_size) + 4
    x += 6
    for ic, value, step in zip(ICONS, icons, icon_steps, strict=True):
        image.alpha_composite(icon(ic, 28), (round(x), round(y - 14)))
        put_text(draw, (x + 29, y), value, font=font(icon_size, True), fill=Palette.TEXT, anchor="lm")
        x += step


# A player's contracts are chips in rows: they shrink from the first size, a row more as they need it,
# down to the last, and are never cut (a name is read in full, if small, on a tap).
CONTRACT_SIZES = (18, 16, 14, 12, 11, 10)
CHIP_PAD, CHIP_GAP, ROW_GAP = 8, 6, 2


def chip_height(size: int) -> int:
    return size + 8 if size >= 14 else size + 7


def chip_rows(texts: Sequence[str], width: float, size: int) -> list[list[str]]:
    """``texts`` as chips laid out in rows of at most ``width`` (a chip wider than that alone in its row)."""
    fnt = font(size, True)
    rows: list[list[str]] = []
    x = width + 1
    for text in texts:
        w = fnt.getlength(text) + 2 * CHIP_PAD
        if rows and x + CHIP_GAP + w <= width:
            rows[-1].append(text)
            x += CHIP_GAP + w
        else:
            rows.append([text])
            x = w
    return rows


def contract_layout(texts: Sequence[str], width: float, height: float) -> tuple[list[list[str]], int]:
    """The rows and size of the largest chips that fit ``width`` x ``height``: the smallest size when none does."""
    for size in CONTRACT_SIZES:
        rows = chip_rows(texts, width, size)
        fits = all(font(size, True).getlength(r[0]) + 2 * CHIP_PAD <= width for r in rows)
        if fits and len(rows) * (chip_height(size) + ROW_GAP) - ROW_GAP <= height:
            return rows, size
    return rows, size


def draw_contracts(
    draw,
    x0: float,
    top: float,
    x1: float,
    bottom: float,
    contracts: Sequence[Mapping[str, Any]],
    locale: str,
    centred: bool = False,
) -> float:
    """The contracts a player took, as chips with their progress, in rows from ``top`` (``centred``: in the middle
    of ``top``-``bottom``); return where they end."""
    if not contracts:
        shown, fnt = fitted(t("vivarium.render.no-contract", locale), x1 - x0, 18, False, 12)
        put_text(draw, (x0, top + chip_height(18) / 2), shown, font=fnt, fill=Palette.TEXT_MUTED, anchor="lm")
        return top + chip_height(18)
    texts = []
    for contract in contracts:
        progress = contract.get("progress", {})
        texts.append(
            t(
                "vivarium.render.contract-progress",
                locale,
                name=name_of(contract, locale, "contract"),
                have=progress.get("have", 0),
                worth=progress.get("points", 0),
            )
        )
    rows, size = contract_layout(texts, x1 - x0, bottom - top)
    fnt = font(size, True)
    h = chip_height(size)
    good = [c.get("progress", {}).get("points", 0) > 0 for c in contracts]
    k = 0
    y = top + (max(0, (bottom - top) - len(rows) * (h + ROW_GAP) + ROW_GAP) / 2 if centred else 0)
    for row in rows:
        x = x0
        for text in row:
            w = fnt.getlength(text) + 2 * CHIP_PAD
            face, ink = (CONTRACT_FACE, INK) if good[k] else ((120, 100, 70), (246, 234, 196))
            draw.rounded_rectangle((x, y, x + w, y + h), 8 if size >= 14 else 6, fill=face, outline=CONTRACT_EDGE)
            put_text(draw, (x + CHIP_PAD, y + h / 2), text, font=fnt, fill=ink, anchor="lm")
            x += w + CHIP_GAP
            k += 1
        y += h + ROW_GAP
    return y - ROW_GAP


def draw_tiles(draw, image, x0: float, y: float, x1: float, collection: Sequence[Mapping[str, Any]]) -> None:
    """The creatures collected, grouped by type; each tile shows its habitat colour and points."""
    x = x0
    for kind in TYPES:
        cards = sorted(
            (c for c in collection if c.get("kind") == "creature" and c.get("type") == kind),
            key=lambda c: (HABITATS.index(c["habitat"]) if c.get("habitat") in HABITATS else 9, c.get("points", 0)),
        )
        if not cards:
            continue
        if x + 32 + 30 * len(cards) > x1:
            break
        image.alpha_composite(badge(kind, 30), (round(x), round(y - 15)))
        x += 34
        for card in cards:
            habitat = str(card.get("habitat"))
            draw.rounded_rectangle(
                (x, y - 20, x + 26, y + 20), 5, fill=HABITAT_COLORS.get(habitat, (128, 128, 128)), outline=(20, 20, 20)
            )
            put_text(
                draw,
                (x + 13, y),
                str(card.get("points", 0)),
                font=font(20, True),
                fill=HABITAT_TEXT.get(habitat, INK),
                anchor="mm",
            )
            x += 29
        x += 14


def draw_board(public: VivariumPublic, names: Sequence[str], *, locale: str = "en", phone: bool = True) -> Image.Image:
    """Draw the public board of a view, worded in ``locale``: grid, middle tokens, priority, players.

    With ``phone`` the header strip gives way to the band of key lines (``render.phone``); without it
    (the guide's pictures) the board is drawn alone, header and all.
    """
    image = backdrop_rgba((W, H))
    if not phone:
        draw_header(image, public, names, locale)
    draw_grid(image, public, locale)
    draw_top(image, public, names, locale)
    draw_players(image, public, names, locale)
    if not phone:
        return image.convert("RGB")
    # At a step choosing a card, the cards on offer go between the band and the board (``on_offer``).
    keys = phone_keys(public, names, locale)
    return with_band(image.convert("RGB"), keys, crop_top=HEADER_H, between=on_offer(public, locale))


# --- the cards on offer, drawn large for a phone -----------------------------------------------------
# At the steps that choose a card of the grid (take one, or the one an ability works on), the cards that
# may be chosen are drawn again above the board, each under the cell it is in ("R2 C3", as the menu
# names it), large enough that their names and texts read on a phone showing the picture 360 px wide.
OFFER_PHASES = ("take", "ability")
OFFER_PAD, OFFER_GAP = 24, 20
OFFER_MAX_W = 500  # a card on offer at most this wide (three in a row; seven or eight are tiles: offer.py)


def offered(public: Mapping[str, Any]) -> list[tuple[int, int, Mapping[str, Any]]]:
    """The cells that may be chosen now and their cards (row and column from 1), in reading order."""
    if public.get("phase") not in OFFER_PHASES:
        return []
    grid = public.get("grid", [])
    found = []
    for row, col in sorted(tuple(cell) for cell in public.get("reachable", [])):
        card = grid[row - 1][col - 1] if 0 < row <= len(grid) and 0 < col <= len(grid[row - 1]) else None
        if card is not None:
            found.append((row, col, card))
    return found


def on_offer(public: Mapping[str, Any], locale: str) -> Image.Image | None:
    """The strip of the cards on offer, each under its cell's name; None when the step chooses no card."""
    cards = offered(public)
    if not cards:
        return None
    if len(cards) > 6:  # four large cards in a row would read too small: short tiles, two in a row
        return tiles_strip(cards, W, locale)
    per_row = 3  # two rows at most, of three large cards
    w = min(OFFER_MAX_W, (W - 2 * OFFER_PAD - (per_row - 1) * OFFER_GAP) // per_row)
    h = round(w * CARD_H / CARD_W)
    size = key_size(W)
    fnt = font(size, True)
    caption = round(size * 1.3)
    rows = -(-len(cards) // per_row)
    height = OFFER_PAD + rows * (caption + h + OFFER_GAP) - OFFER_GAP + OFFER_PAD
    strip = Image.new("RGB", (W, height), Palette.PANEL_DARK)
    draw = ImageDraw.Draw(strip)
    lines: list[KeyLine] = []
    for i, (row, col, card) in enumerate(cards):
        r, k = divmod(i, per_row)
        in_row = min(per_row, len(cards) - r * per_row)
        x = (W - in_row * w - (in_row - 1) * OFFER_GAP) // 2 + k * (w + OFFER_GAP)
        y = OFFER_PAD + r * (caption + h + OFFER_GAP)
        text = t("vivarium.render.cell", locale, row=row, col=col)
        xy = (x + w / 2, y + caption / 2)
        put_text(draw, xy, text, font=fnt, fill=HIGHLIGHT, anchor="mm")
        box = draw.textbbox(xy, text, font=fnt, anchor="mm")
        lines.append(KeyLine("choice", text, tuple(float(v) for v in box), size))  # type: ignore[arg-type]
        sprite = card_sprite(card, w, h, locale)
        strip.paste(sprite, (x, y + caption), sprite)
    strip.info["key_lines"] = lines
    return strip


# --- the hand: a seat's secret starting contracts ---------------------------------------------------
HAND_W, HAND_H = 1400, 700


def draw_hand(
    public: VivariumPublic, private: VivariumPrivate, names: Sequence[str], seat: int, *, locale: str = "en"
) -> Image.Image:
    """Draw a seat's secret starting contracts with their progress, worded in ``locale``."""
    image = backdrop_rgba((HAND_W, HAND_H))
    draw = ImageDraw.Draw(image)
    heading = t("vivarium.render.hand-title", locale, name=_name(names, seat, locale))
    shown, fnt = fitted(heading, HAND_W - 80, 40, True, 22)
    put_text(draw, (40, 48), shown, font=fnt, fill=Palette.TEXT, anchor="lm")
    contracts = list(private.get("contracts", []))
    w = (HAND_W - 80 - 40) // max(1, len(contracts))
    for i, contract in enumerate(contracts):
        box = (40 + i * (w + 40), 100, 40 + i * (w + 40) + w, HAND_H - 40)
        draw_secret(image, box, contract, locale)
    return image.convert("RGB")


def draw_secret(image: Image.Image, box, contract: Mapping[str, Any], locale: str) -> None:
    shadowed_box(image, box, 22, CONTRACT_FACE, CONTRACT_EDGE, 6)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    goal = contract.get("goal", {})
    flt = goal.get("filter", {})
    draw.rounded_rectangle((x0 + 10, y0 + 10, x1 - 10, y0 + 60), 14, fill=CONTRACT_EDGE)
    secret = t("vivarium.render.secret-contract", locale)
    draw_centred(draw, (x0 + 24, y0 + 10, x1 - 24, y0 + 60), secret, 28, (255, 248, 230), True)
    name = name_of(contract, locale, "contract")
    draw_centred(draw, (x0 + 20, y0 + 70, x1 - 20, y0 + 120), name, 42, INK, True, 20)
    if "habitat" in flt:
        color = HABITAT_COLORS.get(flt["habitat"], (128, 128, 128))
        draw.ellipse(((x0 + x1) / 2 - 56, y0 + 130, (x0 + x1) / 2 + 56, y0 + 242), fill=color, outline=INK, width=4)
        draw_centred(
            draw,
            ((x0 + x1) / 2 - 52, y0 + 170, (x0 + x1) / 2 + 52, y0 + 202),
            word("habitat", flt["habitat"], locale).upper(),
            22,
            HABITAT_TEXT.get(flt["habitat"], INK),
            True,
            10,
        )
    elif "type" in flt:
        sprite = badge(str(flt["type"]), 112)
        image.alpha_composite(sprite, (round((x0 + x1) / 2 - 56), y0 + 130))
    lines = goal_lines(goal, locale)
    fnt = font(30, True)
    y = y0 + 280
    for part in lines[:1]:
        for line in wrap(part, fnt, x1 - x0 - 40, 2):
            put_text(draw, ((x0 + x1) / 2, y), line, font=fnt, fill=INK, anchor="mm")
            y += 38
    progress = contract.get("progress", {})
    have = int(progress.get("have", 0))
    tiers = goal.get("tiers", [])
    if tiers:
        tw = (x1 - x0 - 60) / len(tiers)
        for i, (least, points) in enumerate(tiers):
            bx = x0 + 30 + i * tw
            reached = have >= least
            draw.rounded_rectangle(
                (bx + 6, y + 10, bx + tw - 6, y + 110),
                14,
                fill=(90, 170, 90) if reached else (255, 250, 236),
                outline=INK,
                width=3,
            )
            put_text(draw, (bx + tw / 2, y + 40), f"{least}+", font=font(32, True), fill=INK, anchor="mm")
            worth, wf = fitted(t("vivarium.render.points", locale, points=points), tw - 20, 28, True, 14)
            put_text(draw, (bx + tw / 2, y + 84), worth, font=wf, fill=INK, anchor="mm")
        y += 130
    else:
        for part in lines[1:]:
            for line in wrap(part, fnt, x1 - x0 - 40, 2):
                put_text(draw, ((x0 + x1) / 2, y), line, font=fnt, fill=INK, anchor="mm")
                y += 38
    text = t("vivarium.render.you-have", locale, have=have, points=progress.get("points", 0))
    shown, f2 = fitted(text, x1 - x0 - 40, 34, True, 18)
    put_text(draw, ((x0 + x1) / 2, y1 - 40), shown, font=f2, fill=(120, 60, 10), anchor="mm")
