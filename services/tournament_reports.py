"""A tournament's standings, bracket and podium: worded here, drawn by render/tournament_pictures.py.

Every picture comes with the same facts as text (the message itself and the picture's alt text),
for screen readers and for anyone reading on a slow connection. Here a picture is worded, not
drawn: ``report`` and ``podium`` say what to draw (``services.pictures.Drawing``), and ``drawn_report``
and ``drawn_podium`` have the picture service draw it in a worker, never on the event loop (a big
bracket takes a good part of a second; its words, about 20 ms for 128 players, are laid out here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from l10n.words import aside, clauses, game_title, labelled, listing, series, t
from league import formats
from league.tournament_records import Entrant, Pairing, Podium, Report, Tournament
from render.tournament_pictures import BracketMatch, BracketSlot, StandingRow, bracket_png, podium_png, standings_png
from services import alt_text
from services.pictures import Drawing, Pictures, drawing
from services.storage import tournaments as store

if TYPE_CHECKING:
    from services.tournament_runner import Runner

TEXT_LINES = 24  # lines of the standings written out in a message (the picture has them all)


@dataclass(frozen=True)
class WordedReport:
    """A ``Report`` before its pictures are drawn."""

    text: str
    standings: Drawing
    alt: str
    bracket: Drawing | None = None
    bracket_alt: str = ""


@dataclass(frozen=True)
class WordedPodium:
    """A ``Podium`` before its picture is drawn."""

    text: str
    picture: Drawing
    alt: str


async def drawn_report(worded: WordedReport, pictures: Pictures) -> Report:
    """The report with its pictures, drawn by the picture service."""
    standings = await pictures.make(worded.standings)
    bracket = None if worded.bracket is None else await pictures.make(worded.bracket)
    return Report(worded.text, standings, worded.alt, bracket, worded.bracket_alt)


async def drawn_podium(worded: WordedPodium, pictures: Pictures) -> Podium:
    """The podium with its picture, drawn by the picture service."""
    return Podium(worded.text, await pictures.make(worded.picture), worded.alt)


def _name(names: dict[int, str], team: tuple[int, ...], loc: str) -> str:
    return listing((names.get(u, str(u)) for u in team), loc)


async def _standings(
    runner: Runner, tournament: Tournament, loc: str
) -> tuple[formats.Table, dict[int, str], list[Pairing], list[Entrant]]:
    entrants = await store.entrants(runner.db, tournament.id)
    history = await store.pairings(runner.db, tournament.id)
    names = {e.user_id: e.name for e in entrants}
    table = formats.standings(tournament, entrants, history, loc)
    return table, names, history, entrants


async def report(runner: Runner, tournament: Tournament, after_round: int | None, loc: str) -> WordedReport:
    """The standings, text and picture to draw, in ``loc`` (one language for the whole message)."""
    table, names, history, entrants = await _standings(runner, tournament, loc)
    settled = [r.number for r in await store.rounds(runner.db, tournament.id) if r.status == "settled"]
    shown_round = after_round or (settled[-1] if settled else 0)
    if tournament.status == "finished":
        subtitle = t("tournament.final-standings", loc, game=game_title(tournament.game, loc))
    elif shown_round:
        subtitle = t("tournament.after-round", loc, game=game_title(tournament.game, loc), round=shown_round)
    else:
        subtitle = t("tournament.before-start", loc, game=game_title(tournament.game, loc))
    top = table.lines[0].rank if table.lines else ""
    rows = [
        StandingRow(
            line.rank,
            _name(names, line.names, loc),
            line.points,
            line.tiebreaks,
            line.played,
            dropped=line.dropped,
            highlight=bool(line.rank) and line.rank == top,
        )
        for line in table.lines
    ]
    elimination = tournament.elimination
    points = t("tournament.col.place" if elimination else "tournament.col.points", loc)
    headings = (
        t("tournament.col.rank", loc),
        t("tournament.col.name", loc),
        "" if elimination else points,
        *table.headings,
        t("tournament.col.played", loc),
    )
    standings = drawing(standings_png, tournament.name, subtitle, headings, rows)
    text_lines = []
    for line in table.lines[:TEXT_LINES]:
        extra = clauses((f"{h} {v}" for h, v in zip(table.headings, line.tiebreaks, strict=True)), loc)
        if elimination:
            key = "tournament.placing-line" if line.rank else "tournament.alive-line"
            shown = t(key, loc, rank=line.rank, name=_name(names, line.names, loc), played=line.played)
            text_lines.append(shown + (" " + t("tournament.dropped-mark", loc) if line.dropped else ""))
            continue
        text_lines.append(
            t(
                "tournament.standing-line",
                loc,
                rank=line.rank or "–",
                name=_name(names, line.names, loc),
                points=aside(line.points or "–", extra, loc) if extra else line.points or "–",
                played=line.played,
            )
            + (" " + t("tournament.dropped-mark", loc) if line.dropped else "")
        )
    if len(table.lines) > TEXT_LINES:
        text_lines.append(t("tournament.standing-more", loc, count=len(table.lines) - TEXT_LINES))
    text = "\n".join(text_lines)
    alt = alt_text.fit([tournament.name, subtitle, *text_lines])
    bracket = None
    bracket_alt = ""
    if elimination:
        seeds = formats.seeds_of(entrants)
        bracket, bracket_alt = _bracket(tournament, names, history, seeds, loc)
    return WordedReport(text, standings, alt, bracket, bracket_alt)


def _bracket(
    tournament: Tournament, names: dict[int, str], history: list[Pairing], seeds: list[int], loc: str
) -> tuple[Drawing, str]:
    done = [p for p in history if p.result is not None]
    bracket: Any = formats.bracket_of(tournament, seeds, done)
    matches: list[BracketMatch] = []
    titles: dict[tuple[str, int], str] = {}
    alt: list[str] = []

    def name(player: int | None) -> str | None:
        return None if player is None else names.get(player, str(player))

    # One bracket (single elimination, duels or pods) needs no heading; double has three sections.
    single = tournament.format != "double"
    if tournament.table_size > 2:
        section = ""
        pods = [p for p in bracket.pods() if not p.walkover]
        for pod in pods:
            final = pod.id == "F"
            titles[(section, pod.round)] = t(
                "tournament.round.final-table" if final else "tournament.bracket-round", loc, round=pod.round
            )
            # Those who go on (or, in the final, the winners) are marked.
            marked = set(pod.advanced)
            if final and pod.ranks is not None:
                marked = {p for p, r in zip(pod.players, pod.ranks, strict=True) if r == min(pod.ranks)}
            matches.append(
                BracketMatch(section, pod.round, tuple(BracketSlot(name(p), "", p in marked) for p in pod.players))
            )
            if marked and pod.ranks is not None:
                alt.append(
                    labelled(
                        titles[(section, pod.round)],
                        series((name(p) or "" for p in pod.players if p in marked), loc),
                        loc,
                    )
                )
    else:
        views = bracket.matches()
        last = {b: max((m.round for m in views if m.bracket == b), default=0) for b in ("W", "L", "F")}
        for match in views:
            section = "" if single else t(f"tournament.section.{match.bracket}", loc)
            titles[(section, match.round)] = _round_title(tournament, match, last, loc)
            slots = []
            for i, player in enumerate(match.players):
                wins = str(match.wins[i]) if tournament.best_of > 1 and player is not None else ""
                slots.append(
                    BracketSlot(name(player), wins, winner=match.winner is not None and match.winner == player)
                )
            matches.append(BracketMatch(section, match.round, tuple(slots)))
            if match.winner is not None:
                alt.append(labelled(titles[(section, match.round)], name(match.winner), loc))
    subtitle = t("tournament.bracket-subtitle", loc, game=game_title(tournament.game, loc))
    picture = drawing(bracket_png, tournament.name, subtitle, titles, matches)
    return picture, alt_text.fit([tournament.name, t("tournament.bracket-title", loc), subtitle, *alt])


def _round_title(tournament: Tournament, match: Any, last: dict[str, int], loc: str) -> str:
    """Final, semi-finals, quarter-finals; the losers final; the grand final and its reset."""
    if match.bracket == "F":
        return t("tournament.round.reset" if match.id == "GF2" else "tournament.round.grand-final", loc)
    if match.bracket == "L":
        key = "tournament.round.losers-final" if match.round == last["L"] else "tournament.bracket-round"
        return t(key, loc, round=match.round)
    from_end = last["W"] - match.round
    if from_end == 0:
        return t("tournament.round.winners-final" if tournament.format == "double" else "tournament.round.final", loc)
    if from_end == 1:
        return t("tournament.round.semi-finals", loc)
    if from_end == 2:
        return t("tournament.round.quarter-finals", loc)
    return t("tournament.bracket-round", loc, round=match.round)


async def podium(runner: Runner, tournament: Tournament, loc: str) -> WordedPodium:
    table, names, _, _ = await _standings(runner, tournament, loc)
    places = []
    for line in table.lines[:8]:
        if not line.rank:
            continue
        detail = t("tournament.podium-points", loc, points=line.points) if line.points else ""
        places.append((line.rank, _name(names, line.names, loc), detail))
    title = t("tournament.podium-title", loc, game=game_title(tournament.game, loc))
    picture = drawing(podium_png, tournament.name, title, places)
    winners = [name for rank, name, _ in places if rank == "1"]
    text = t("tournament.champion", loc, name=tournament.name, winners=listing(winners, loc))
    mentions = " ".join(f"<@{u}>" for line in table.lines if line.rank == "1" for u in line.names)
    alt = alt_text.fit([tournament.name, title, *(f"{rank}. {name} {detail}" for rank, name, detail in places)])
    return WordedPodium(f"{text} {mentions}".strip(), picture, alt)


async def make_report(
    runner: Runner, tournament: Tournament, after_round: int | None = None, loc: str | None = None
) -> Report:
    """The standings (and bracket) worded in ``loc`` (by default the tournament's language) and drawn."""
    worded = await report(runner, tournament, after_round, loc or await runner.language(tournament))
    return await drawn_report(worded, runner.pictures)


async def make_podium(runner: Runner, tournament: Tournament) -> Podium:
    """The podium worded in the tournament's language and drawn."""
    worded = await podium(runner, tournament, await runner.language(tournament))
    return await drawn_podium(worded, runner.pictures)
