"""The Vivarium board (public view only) and a seat's hand image (their secret contracts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import Palette, backdrop, draw_centred, fitted, font, seat_name, shadowed_box, wrap
from render.vivarium.cards import CONTRACT_EDGE, CONTRACT_FACE, INK, card_sprite, goal_lines
from render.vivarium.icons import HABITAT_COLORS, HABITAT_TEXT, badge, icon

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
STEP_TEXT = {
    "swap": "step 1: swap a chain token",
    "take": "step 2: take a card or 2 gems",
    "ability": "uses an equipment ability",
}


def _name(names: Sequence[str], seat: int | None) -> str:
    return seat_name(names, seat, 16)


def draw_header(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, W, HEADER_H), fill=Palette.PANEL_DARK)
    draw.text((20, HEADER_H / 2), "VIVARIUM", font=font(34, True), fill=Palette.ACCENT, anchor="lm")
    left = 230
    if public.get("phase") == "over":
        result = public.get("result") or {}
        winners = ", ".join(_name(names, s) for s in result.get("winners", []))
        text = f"Game over · winner: {winners}"
    else:
        current = public.get("current")
        step = STEP_TEXT.get(str(public.get("phase")), "")
        if public.get("phase") == "ability":
            step = f"uses {public.get('pending', {}).get('card', {}).get('name', 'an ability')}"
        text = (
            f"Round {public.get('round')}/{public.get('rounds', 7)} · turn {public.get('turn')} of 2 · "
            f"{_name(names, current)}: {step}"
        )
    shown, fnt = fitted(text, W - left - 20, 30, True, 18)
    draw.text((left, HEADER_H / 2), shown, font=fnt, fill=Palette.TEXT, anchor="lm")


def draw_grid(image: Image.Image, public: Mapping[str, Any]) -> None:
    draw = ImageDraw.Draw(image)
    reachable = {tuple(c) for c in public.get("reachable", [])}
    phase = public.get("phase")
    dim = bool(reachable) and phase in ("take", "ability")
    for i in range(4):
        x = GRID_X + i * (CARD_W + GAP) + CARD_W / 2
        draw.text((x, GRID_Y - 20), f"col {i + 1}", font=font(26, True), fill=Palette.CREAM, anchor="mm")
        y = GRID_Y + i * (CARD_H + GAP) + CARD_H / 2
        draw.text((GRID_X - 30, y), str(i + 1), font=font(40, True), fill=Palette.CREAM, anchor="mm")
    draw.text((GRID_X - 30, GRID_Y - 20), "row", font=font(18, True), fill=Palette.TEXT_MUTED, anchor="mm")
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
                draw_centred(draw, (x, y, x + CARD_W, y + CARD_H), "empty", 24, Palette.TEXT_MUTED)
                continue
            sprite = card_sprite(card, CARD_W, CARD_H)
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
        draw.text((cx, y + h / 2), str(n), font=font(round(size * 0.7), True), fill=color, anchor="mm")
    return w


def draw_priority(image: Image.Image, draw, cx: float, cy: float, token: Mapping[str, Any] | None, r: int) -> None:
    if token is None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=Palette.PANEL_EDGE, width=3)
        draw.text((cx, cy), "—", font=font(28, True), fill=Palette.TEXT_MUTED, anchor="mm")
        return
    icon_ = token.get("icon") or {}
    if "habitat" in icon_:
        color = HABITAT_COLORS.get(icon_["habitat"], (128, 128, 128))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color, outline=(250, 240, 210), width=max(2, r // 10))
        if r < 30:
            return
        label = str(icon_["habitat"]).upper()
        draw_centred(
            draw, (cx - r + 6, cy - 14, cx + r - 6, cy + 14), label, 20, HABITAT_TEXT.get(icon_["habitat"], INK), True
        )
    elif "type" in icon_:
        draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r), fill=(250, 245, 230), outline=(40, 34, 28), width=max(2, r // 10)
        )
        sprite = icon(str(icon_["type"]), round(r * 1.3))
        image.alpha_composite(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)))
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(200, 196, 186), outline=(40, 34, 28), width=4)
        draw.text((cx, cy), "blank", font=font(20, True), fill=INK, anchor="mm")


def _icon_label(token: Mapping[str, Any] | None) -> str:
    if token is None:
        return "none"
    icon_ = token.get("icon") or {}
    return str(icon_.get("type") or icon_.get("habitat") or "blank")


def draw_top(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
    shadowed_box(image, TOP_PANEL, 18, Palette.PANEL, Palette.PANEL_EDGE)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = TOP_PANEL
    draw.text((x0 + 18, y0 + 22), "MIDDLE", font=font(22, True), fill=Palette.TEXT_MUTED, anchor="lm")
    x: float = x0 + 18
    for token in public.get("middle", []):
        x += draw_domino(draw, x, y0 + 50, token["numbers"], 70) + 14
    down = public.get("facedown")
    if down:
        draw_domino(draw, x, y0 + 50, down["numbers"], 70, face_up=False)
        draw.text((x + 73, y0 + 136), "face down:", font=font(17, True), fill=Palette.TEXT_MUTED, anchor="mm")
        draw.text(
            (x + 73, y0 + 157),
            f"clears col {max(down['numbers'])}",
            font=font(17, True),
            fill=Palette.TEXT_MUTED,
            anchor="mm",
        )
    px = x0 + 330
    priority = public.get("priority", {})
    draw.text((px, y0 + 22), "PRIORITY", font=font(22, True), fill=Palette.TEXT_MUTED, anchor="lm")
    cur, nxt = priority.get("current"), priority.get("next")
    draw_priority(image, draw, px + 58, y0 + 98, cur, 50)
    draw.text((px + 58, y0 + 162), "NOW", font=font(20, True), fill=Palette.ACCENT, anchor="mm")
    draw_priority(image, draw, px + 178, y0 + 98, nxt, 40)
    draw.text((px + 178, y0 + 162), "NEXT", font=font(20, True), fill=Palette.TEXT, anchor="mm")
    tx = px + 238
    leader = priority.get("leader")
    label = _icon_label(cur)
    lines = [(f"+1 gem per {label}" if label not in ("blank", "none") else "no bonus this round", Palette.TEXT)]
    if public.get("phase") == "over":
        lines = [("final round played", Palette.TEXT)]
    elif label not in ("blank", "none"):
        lines.append((f"most {label}: {_name(names, leader) if leader is not None else 'nobody yet'}", Palette.ACCENT))
    lines.append((f"worth 2 pts · {priority.get('stack', 0)} left", Palette.TEXT_MUTED))
    for i, (text, color) in enumerate(lines):
        shown, fnt = fitted(text, x1 - tx - 12, 20, True, 14)
        draw.text((tx, y0 + 66 + i * 32), shown, font=fnt, fill=color, anchor="lm")


def draw_players(image: Image.Image, public: Mapping[str, Any], names: Sequence[str]) -> None:
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
        draw_player(image, box, public, player, names, result)


def _chip(draw, x: float, y: float, text: str, fill, ink, size: int = 20) -> float:
    fnt = font(size, True)
    w = fnt.getlength(text) + 16
    draw.rounded_rectangle((x, y - 15, x + w, y + 15), 9, fill=fill)
    draw.text((x + w / 2, y), text, font=fnt, fill=ink, anchor="mm")
    return w


def draw_player(image, box, public, player, names, result) -> None:
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    seat = player.get("seat", 0)
    current = public.get("current") == seat
    compact = (y1 - y0) < 200
    y = y0 + 26
    name = _name(names, seat)
    if public.get("first_player") == seat:
        x = x0 + 14 + _chip(draw, x0 + 14, y, "1st", Palette.ACCENT, INK, 18) + 8
    else:
        x = x0 + 14
    draw.text((x, y), name, font=font(28, True), fill=HIGHLIGHT if current else Palette.TEXT, anchor="lm")
    x += font(28, True).getlength(name) + 14
    image.alpha_composite(icon("gem", 30), (round(x), round(y - 15)))
    draw.text((x + 34, y), str(player.get("gems", 0)), font=font(28, True), fill=Palette.TEXT, anchor="lm")
    x += 80
    draw.text((x, y), f"★ {player.get('creature_points', 0)}", font=font(26, True), fill=(252, 214, 92), anchor="lm")
    x += 74
    for token in player.get("priority", []):
        draw_priority(image, draw, x + 14, y, token, 14)
        x += 32
    if result.get("scores"):
        draw.text((x1 - 16, y), f"{result['scores'][seat]} pts", font=font(30, True), fill=Palette.ACCENT, anchor="rm")
    else:
        tx = x1 - 14
        for token in reversed(player.get("tokens", [])):
            now = token.get("now", token["numbers"])
            changed = [a != b for a, b in zip(now, token["numbers"], strict=False)]
            tx -= 2 * 34 + 6
            draw_domino(draw, tx, y - 17, now, 34, changed=changed)
            tx -= 8
    counts = player.get("counts", {})
    row2 = y0 + (68 if compact else 76)
    x = x0 + 14
    for kind in TYPES:
        image.alpha_composite(badge(kind, 32), (round(x), round(row2 - 16)))
        draw.text(
            (x + 36, row2),
            str(counts.get("type", {}).get(kind, 0)),
            font=font(24, True),
            fill=Palette.TEXT,
            anchor="lm",
        )
        x += 60
    x += 4
    for habitat in HABITATS:
        value = counts.get("habitat", {}).get(habitat, 0)
        x += _chip(draw, x, row2, f"{habitat[:3]} {value}", HABITAT_COLORS[habitat], HABITAT_TEXT[habitat], 18) + 4
    x += 6
    for ic in ICONS:
        value = counts.get("icon", {}).get(ic, 0)
        image.alpha_composite(icon(ic, 28), (round(x), round(row2 - 14)))
        draw.text((x + 29, row2), str(value), font=font(22, True), fill=Palette.TEXT, anchor="lm")
        x += 47
    row3 = row2 + (40 if compact else 46)
    contracts = player.get("contracts", [])
    x = x0 + 14
    if not contracts:
        draw.text((x, row3), "no contract yet", font=font(18), fill=Palette.TEXT_MUTED, anchor="lm")
    for contract in contracts:
        progress = contract.get("progress", {})
        text = f"{contract.get('name')}: {progress.get('have', 0)} → {progress.get('points', 0)}"
        fnt = font(18, True)
        w = fnt.getlength(text) + 16
        if x + w > x1 - 10:
            draw.text((x, row3), "…", font=fnt, fill=Palette.TEXT, anchor="lm")
            break
        good = progress.get("points", 0) > 0
        draw.rounded_rectangle(
            (x, row3 - 14, x + w, row3 + 14), 8, fill=CONTRACT_FACE if good else (120, 100, 70), outline=CONTRACT_EDGE
        )
        draw.text((x + 8, row3), text, font=fnt, fill=INK if good else (246, 234, 196), anchor="lm")
        x += w + 6
    if not compact:
        equipment = [c for c in player.get("collection", []) if c.get("kind") == "equipment"]
        seat_details = (result.get("details") or [{}] * (seat + 1))[seat] if result else {}
        if seat_details:
            parts = ("creatures", "gems", "priority tokens", "contracts", "starting contracts", "equipment")
            text = " · ".join(f"{p} {seat_details.get(p, 0)}" for p in parts)
        else:
            text = "Equipment: " + ", ".join(str(c.get("name")) for c in equipment) if equipment else ""
        if text:
            shown, fnt = fitted(text, x1 - x0 - 28, 18, bool(seat_details), 14)
            draw.text(
                (x0 + 14, row3 + 38),
                shown,
                font=fnt,
                fill=Palette.TEXT if seat_details else Palette.TEXT_MUTED,
                anchor="lm",
            )
    if y1 - y0 >= 260:
        draw_tiles(draw, image, x0 + 14, row3 + 84, x1 - 14, player.get("collection", []))


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
            draw.text(
                (x + 13, y),
                str(card.get("points", 0)),
                font=font(20, True),
                fill=HABITAT_TEXT.get(habitat, INK),
                anchor="mm",
            )
            x += 29
        x += 14


def draw_board(public: Mapping[str, Any], names: Sequence[str], *, locale: str = "en") -> Image.Image:
    image = backdrop((W, H)).copy().convert("RGBA")
    draw_header(image, public, names)
    draw_grid(image, public)
    draw_top(image, public, names)
    draw_players(image, public, names)
    return image.convert("RGB")


# --- the hand: a seat's secret starting contracts ---------------------------------------------------
HAND_W, HAND_H = 1400, 700


def draw_hand(
    public: Mapping[str, Any], private: Mapping[str, Any], names: Sequence[str], seat: int, *, locale: str = "en"
) -> Image.Image:
    image = backdrop((HAND_W, HAND_H)).copy().convert("RGBA")
    draw = ImageDraw.Draw(image)
    draw.text(
        (40, 48),
        f"{_name(names, seat)} · secret starting contracts",
        font=font(40, True),
        fill=Palette.TEXT,
        anchor="lm",
    )
    contracts = list(private.get("contracts", []))
    w = (HAND_W - 80 - 40) // max(1, len(contracts))
    for i, contract in enumerate(contracts):
        box = (40 + i * (w + 40), 100, 40 + i * (w + 40) + w, HAND_H - 40)
        draw_secret(image, box, contract)
    return image.convert("RGB")


def draw_secret(image: Image.Image, box, contract: Mapping[str, Any]) -> None:
    shadowed_box(image, box, 22, CONTRACT_FACE, CONTRACT_EDGE, 6)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    goal = contract.get("goal", {})
    flt = goal.get("filter", {})
    draw.rounded_rectangle((x0 + 10, y0 + 10, x1 - 10, y0 + 60), 14, fill=CONTRACT_EDGE)
    draw_centred(draw, (x0 + 10, y0 + 10, x1 - 10, y0 + 60), "SECRET CONTRACT", 28, (255, 248, 230), True)
    draw_centred(draw, (x0 + 20, y0 + 70, x1 - 20, y0 + 120), str(contract.get("name")), 42, INK, True)
    if "habitat" in flt:
        color = HABITAT_COLORS.get(flt["habitat"], (128, 128, 128))
        draw.ellipse(((x0 + x1) / 2 - 56, y0 + 130, (x0 + x1) / 2 + 56, y0 + 242), fill=color, outline=INK, width=4)
        draw_centred(
            draw,
            ((x0 + x1) / 2 - 52, y0 + 170, (x0 + x1) / 2 + 52, y0 + 202),
            str(flt["habitat"]).upper(),
            22,
            HABITAT_TEXT.get(flt["habitat"], INK),
            True,
        )
    elif "type" in flt:
        sprite = badge(str(flt["type"]), 112)
        image.alpha_composite(sprite, (round((x0 + x1) / 2 - 56), y0 + 130))
    lines = goal_lines(goal)
    fnt = font(30, True)
    y = y0 + 280
    for part in lines[:1]:
        for line in wrap(part, fnt, x1 - x0 - 40, 2):
            draw.text(((x0 + x1) / 2, y), line, font=fnt, fill=INK, anchor="mm")
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
            draw.text((bx + tw / 2, y + 40), f"{least}+", font=font(32, True), fill=INK, anchor="mm")
            draw.text((bx + tw / 2, y + 84), f"{points} pts", font=font(28, True), fill=INK, anchor="mm")
        y += 130
    else:
        for line in lines[1:]:
            draw.text(((x0 + x1) / 2, y), line, font=fnt, fill=INK, anchor="mm")
            y += 38
    text = f"You have {have} → {progress.get('points', 0)} pts now"
    shown, f2 = fitted(text, x1 - x0 - 40, 34, True, 18)
    draw.text(((x0 + x1) / 2, y1 - 40), shown, font=f2, fill=(120, 60, 10), anchor="mm")
