"""Each tournament format behind one face for the runner: checks, rounds, tables, standings.

The formats themselves are pure modules (swiss, pods, round_robin, elimination, duplicate); this
module turns the stored rows into their inputs and their answers into pairings and pictures.

- ``swiss`` with 2 players a table: Swiss pairings (league/swiss.py); with 3 or 4,
  Swiss with pods (pods.py).
- ``round-robin``: everyone meets everyone once (2 players a table).
- ``single`` / ``double``: elimination brackets for duels (elimination.Bracket), best of 1 or 3;
  ``single`` with 3 or 4 a table is pod elimination (elimination.PodBracket).
- ``duplicate``: every team plays the round's same deal (duplicate.py).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import GAMES, AnyState, Outcome, registry
from l10n.words import decimal, t, title_term
from league import duplicate, elimination, pods, round_robin, swiss
from league.refusal import Refusal
from league.tournament_records import Entrant, Pairing, Tournament

CO_OPERATIVE = registry.co_operative_games()  # as each game declares (``Game.facts``), read live
DUPLICATE_SIZES = registry.duplicate_sizes()
MIN_ENTRANTS = 2
EXAMPLE_FIELD = 16  # the sign-up message says how many rounds a field of this many would play


# -- checks ------------------------------------------------------------------------------------
def check_settings(
    game: str, format_: str, table_size: int | None, rounds: int | None, best_of: int, advance: int
) -> int:
    """Refuse impossible settings at create; return the table size to use."""
    spec = GAMES[game]
    if format_ == "duplicate":
        size = DUPLICATE_SIZES.get(game)
        if size is None:
            raise Refusal("tournament.duplicate-games")
        if table_size is not None and table_size != size:
            raise Refusal("tournament.duplicate-size", game=title_term(spec.id, spec.title), count=size)
    else:
        if game in CO_OPERATIVE:
            raise Refusal("tournament.co-op-duplicate-only", game=title_term(spec.id, spec.title))
        size = table_size or 2
        if not max(2, spec.min_players) <= size <= spec.max_players:
            raise Refusal(
                "tournament.bad-table-size",
                game=title_term(spec.id, spec.title),
                size=size,
                low=max(2, spec.min_players),
                high=spec.max_players,
            )
        if format_ in ("round-robin", "double") and size != 2:
            raise Refusal("tournament.duels-only", format=format_)
    if rounds is not None and rounds < 1:
        raise Refusal("tournament.bad-rounds")
    if rounds is not None and format_ in ("single", "double"):
        raise Refusal("tournament.rounds-elimination")
    if best_of != 1 and (format_ not in ("single", "double") or size != 2):
        raise Refusal("tournament.best-of-elimination")
    if advance != 1 and not (format_ == "single" and size > 2):
        raise Refusal("tournament.advance-pods")
    if format_ == "single" and size > 2 and advance >= size:
        raise Refusal("tournament.advance-too-many", size=size)
    return size


def check_start(tournament: Tournament, entrants: int, partners: dict[int, int]) -> None:
    """Refuse a start that cannot be played (too few entrants, a Fox Duet player left alone)."""
    teams = entrants // 2 if tournament.format == "duplicate" and tournament.table_size == 2 else entrants
    if teams < MIN_ENTRANTS:
        raise Refusal("tournament.too-few", count=entrants)
    if tournament.format == "duplicate" and tournament.table_size == 2:
        try:
            duplicate.team_up(list(range(entrants)), {}, random.Random(0))
        except ValueError as exc:
            raise Refusal("tournament.odd-team", count=entrants) from exc
    if tournament.pods:
        minimum = max(2, GAMES[tournament.game].min_players)
        try:
            pods.pod_sizes(entrants, tournament.table_size, minimum)
        except ValueError as exc:
            raise Refusal("tournament.pods-impossible", count=entrants, size=tournament.table_size) from exc
        if tournament.elimination and entrants <= tournament.table_size:
            raise Refusal("tournament.too-few", count=entrants)


def default_rounds(tournament: Tournament, entrants: int) -> int | None:
    """Rounds when the organiser gave none (docs/TOURNAMENTS.md)."""
    if tournament.elimination:
        return None
    if tournament.format == "round-robin":
        return round_robin.round_count(entrants)
    if tournament.format == "duplicate":
        return 3
    if tournament.pods:
        return max(2, math.ceil(math.log(max(entrants, 2)) / math.log(tournament.table_size)) + 1)
    return max(1, math.ceil(math.log2(max(entrants, 2))))


def teams_for(
    tournament: Tournament, order: Sequence[int], partners: dict[int, int], rng: random.Random
) -> list[tuple[int, ...]]:
    try:
        return duplicate.team_up(list(order), partners, rng)
    except ValueError as exc:
        raise Refusal("tournament.odd-team", count=len(order)) from exc


# -- rounds ------------------------------------------------------------------------------------
def seeds_of(entrants: Sequence[Entrant]) -> list[int]:
    return [e.user_id for e in sorted(entrants, key=lambda e: (e.seed_order is None, e.seed_order or 0, e.user_id))]


def _dropped(entrants: Sequence[Entrant]) -> set[int]:
    return {e.user_id for e in entrants if not e.active}


def _done(history: Sequence[Pairing]) -> list[Pairing]:
    return [p for p in history if p.result is not None]


def _bye(number: int, slot: int, player: int) -> Pairing:
    return Pairing(number, slot, (player,), result={"how": "bye", "ranks": [1], "scores": [0], "won": [True]})


def winner_of(pairing: Pairing, seed_of: dict[int, int]) -> int:
    """The player a duel's result sends on: the better rank, else (a tie) the better seed."""
    assert pairing.result is not None
    ranks = pairing.result["ranks"]
    return min(range(len(pairing.players)), key=lambda i: (ranks[i], seed_of.get(pairing.players[i], 1 << 30)))


def next_tables(
    tournament: Tournament, entrants: Sequence[Entrant], history: Sequence[Pairing], number: int
) -> list[Pairing] | None:
    """The tables of round ``number``, or None when the tournament is over."""
    seeds = seeds_of(entrants)
    dropped = _dropped(entrants)
    done = _done(history)
    if tournament.elimination:
        return _elimination_tables(tournament, seeds, dropped, done, number)
    if tournament.rounds is not None and number > tournament.rounds:
        return None
    if len([s for s in seeds if s not in dropped]) < 1:
        return None
    if tournament.format == "duplicate":
        teams = _teams(entrants)
        playing = [team for team in teams if not set(team) & dropped]
        if not playing:
            return None
        return [Pairing(number, slot, team) for slot, team in enumerate(playing)]
    if tournament.format == "round-robin":
        schedule = round_robin.schedule(seeds)
        if number > len(schedule):
            return None
        tables: list[Pairing] = []
        for table in schedule[number - 1]:
            present = tuple(p for p in table if p not in dropped)
            if not present:
                continue
            if len(present) == 1:
                tables.append(_bye(number, len(tables), present[0]))
            else:
                tables.append(Pairing(number, len(tables), present))
        return tables
    if tournament.pods:
        placed = [pods.Placed(p.round, p.players, tuple(p.result["ranks"]), tuple(p.result["scores"])) for p in done]  # type: ignore[index]
        minimum = max(2, GAMES[tournament.game].min_players)
        groups = pods.pair_round(seeds, placed, tournament.table_size, dropped=dropped, minimum=minimum)
    else:
        played = [swiss.Played(p.round, p.players, tuple(p.result["ranks"]), tuple(p.result["scores"])) for p in done]  # type: ignore[index]
        groups = swiss.pair_round(seeds, played, dropped=dropped)
    tables = []
    for group in groups:
        if len(group) == 1:
            tables.append(_bye(number, len(tables), group[0]))
        else:
            tables.append(Pairing(number, len(tables), tuple(group)))
    return tables


def _teams(entrants: Sequence[Entrant]) -> list[tuple[int, ...]]:
    """Duplicate teams in seed order: a Fox Duet pair (partners), or one solo player."""
    seen: set[int] = set()
    teams: list[tuple[int, ...]] = []
    for user in seeds_of(entrants):
        if user in seen:
            continue
        entrant = next(e for e in entrants if e.user_id == user)
        team = (user,) if entrant.partner_id is None else (user, entrant.partner_id)
        seen.update(team)
        teams.append(team)
    return teams


def bracket_of(tournament: Tournament, seeds: Sequence[int], done: Sequence[Pairing]) -> Any:
    """The elimination bracket rebuilt from the seeds and every recorded result, in order."""
    seed_of = {u: n for n, u in enumerate(seeds)}
    if tournament.table_size > 2:
        bracket: Any = elimination.PodBracket(seeds, size=tournament.table_size, advance=tournament.advance)
        for pairing in done:
            if pairing.match_id is not None and pairing.result is not None:
                # Ranks in seat order, the order the bracket seated the pod in.
                bracket.record(pairing.match_id, tuple(pairing.result["ranks"]))
        return bracket
    bracket = elimination.Bracket(seeds, double=tournament.format == "double", best_of=tournament.best_of)
    for pairing in done:
        if pairing.match_id is not None:
            bracket.record(pairing.match_id, pairing.players[winner_of(pairing, seed_of)])
    return bracket


def _elimination_tables(
    tournament: Tournament, seeds: list[int], dropped: set[int], done: list[Pairing], number: int
) -> list[Pairing] | None:
    tables: list[Pairing] = []
    settled = list(done)
    seed_of = {u: n for n, u in enumerate(seeds)}
    while True:
        bracket = bracket_of(tournament, seeds, settled)
        if bracket.done:
            return tables or None
        ready = bracket.ready()
        walkovers = [r for r in ready if set(r.players) & dropped]
        if not walkovers:
            for game in ready:
                tables.append(Pairing(number, len(tables), tuple(game.players), game.match_id, game.game))
            return tables
        # A dropped player loses their matches without a table (a walkover), at once.
        for game in walkovers:
            players = tuple(game.players)
            out = [p in dropped for p in players]
            order = sorted(range(len(players)), key=lambda i: (out[i], seed_of.get(players[i], 0)))
            ranks = [0] * len(players)
            for position, i in enumerate(order):
                ranks[i] = position + 1
            walkover = Pairing(
                number,
                len(tables),
                players,
                game.match_id,
                game.game,
                result={
                    "how": "walkover",
                    "ranks": ranks,
                    "scores": [0] * len(players),
                    "won": [r == 1 for r in ranks],
                    "forfeited": out,
                },
            )
            tables.append(walkover)
            settled.append(walkover)


# -- standings ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    rank: str
    names: tuple[int, ...]
    points: str
    tiebreaks: tuple[str, ...]
    played: str
    dropped: bool = False


@dataclass(frozen=True)
class Table:
    headings: tuple[str, ...]  # the tie-break columns' titles
    lines: list[Line]


def standings(tournament: Tournament, entrants: Sequence[Entrant], history: Sequence[Pairing], loc: str) -> Table:
    seeds = seeds_of(entrants)
    dropped = _dropped(entrants)
    done = _done(history)
    if tournament.format == "duplicate":
        teams = _teams(entrants)
        scores = [
            duplicate.Score(p.players, p.round, bool(p.result["won"][0]), int(p.result["scores"][0]))  # type: ignore[index]
            for p in done
        ]
        rows = duplicate.standings(teams, scores)
        return Table(
            (t("tournament.col.wins", loc), t("tournament.col.total", loc), t("tournament.col.best", loc)),
            [
                Line(
                    str(r.rank),
                    r.team,
                    decimal(pods.match_points(r.points), loc),
                    (str(r.wins), str(r.total), str(r.best)),
                    str(r.played),
                    bool(set(r.team) & dropped),
                )
                for r in rows
            ],
        )
    if tournament.elimination:
        bracket = bracket_of(tournament, seeds, done)
        lines: list[Line] = []
        for place, players in bracket.placements():
            for player in players:
                played = sum(1 for p in done if player in p.players and p.result and p.result.get("how") != "bye")
                lines.append(Line(str(place), (player,), "", (), str(played), player in dropped))
        placed = {line.names[0] for line in lines}
        alive = [s for s in seeds if s not in placed]
        for player in alive:
            played = sum(1 for p in done if player in p.players and p.result and p.result.get("how") != "bye")
            lines.append(Line("", (player,), t("tournament.still-in", loc), (), str(played), player in dropped))
        return Table((), lines)
    if tournament.pods:
        pod_history = [
            pods.Placed(p.round, p.players, tuple(p.result["ranks"]), tuple(p.result["scores"]))  # type: ignore[index]
            for p in done
        ]
        pod_rows = pods.standings(seeds, pod_history)
        return Table(
            (t("tournament.col.opponents", loc), t("tournament.col.scores", loc), t("tournament.col.firsts", loc)),
            [
                Line(
                    str(r.rank),
                    (r.player,),
                    decimal(pods.match_points(r.points), loc),
                    (decimal(pods.match_points(r.opponents), loc), str(r.score_sum), str(r.wins)),
                    str(r.played),
                    r.player in dropped,
                )
                for r in pod_rows
            ],
        )
    duel_history = [
        swiss.Played(p.round, p.players, tuple(p.result["ranks"]), tuple(p.result["scores"]))  # type: ignore[index]
        for p in done
    ]
    swiss_rows = swiss.standings(seeds, duel_history)
    return Table(
        (t("tournament.col.buchholz", loc), t("tournament.col.scores", loc)),
        [
            Line(
                str(r.rank),
                (r.player,),
                str(r.points),
                (str(r.buchholz), str(r.score_sum)),
                str(r.played),
                r.player in dropped,
            )
            for r in swiss_rows
        ],
    )


# -- words -------------------------------------------------------------------------------------
def match_label(tournament: Tournament, match_id: str, entrants: int, loc: str) -> str:
    """A bracket match's name as players say it: "Semi-final 1", "Final", "Round 1, match 3"."""
    name = elimination.match_name(match_id, entrants, double=tournament.format == "double")
    return t(f"tournament.match.{name.kind}", loc, round=name.round, number=name.number)


def table_label(tournament: Tournament, pairing: Pairing, loc: str, entrants: int = 0) -> str:
    """A table's name in its round: "Table 2", or its match's name in an elimination
    (``entrants``: how many entered, which sets the bracket's rounds), with the game of a best of 3."""
    if pairing.match_id is not None:
        label = match_label(tournament, pairing.match_id, entrants, loc)
        return (
            label
            if tournament.best_of == 1 and pairing.game_number == 1
            else t("tournament.match-game", loc, match=label, game=pairing.game_number)
        )
    return t("tournament.table", loc, table=pairing.slot + 1)


def bye_points(tournament: Tournament) -> int:
    """The match points a bye is worth: a win in a duel, a first place in a pod (docs/TOURNAMENTS.md)."""
    return pods.BYE // 12 if tournament.pods else swiss.WIN


def pairing_line(tournament: Tournament, pairing: Pairing, names: dict[int, str], loc: str, mention: bool) -> str:
    """One line of a round's pairings; ``names`` holds every entrant (whose count sets a bracket's rounds)."""

    def person(user: int) -> str:
        return f"<@{user}>" if mention else names.get(user, str(user))

    who = " – ".join(person(u) for u in pairing.players)
    if pairing.result is not None and pairing.result.get("how") == "bye":
        key = "tournament.line.bye-pod" if tournament.pods else "tournament.line.bye-duel"
        return t(key, loc, players=who, points=bye_points(tournament))
    label = table_label(tournament, pairing, loc, len(names))
    if pairing.result is not None and pairing.result.get("how") == "walkover":
        # Ranked by the bracket: those who go on first (one in a duel, ``advance`` in a pod).
        going = tournament.advance if tournament.table_size > 2 else 1
        result = pairing.result
        on = [u for u, r in zip(pairing.players, result["ranks"], strict=True) if r <= going]
        out = [u for u, lost in zip(pairing.players, result["forfeited"], strict=True) if lost]
        return t(
            "tournament.line.walkover",
            loc,
            table=label,
            players=", ".join(person(u) for u in on),
            out=", ".join(person(u) for u in out),
        )
    if pairing.thread_id is not None:
        return t("tournament.line.table", loc, table=label, players=who, channel=pairing.thread_id)
    return t("tournament.line.pending", loc, table=label, players=who)


def draw_note(
    tournament: Tournament, pairing: Pairing, seeds: Sequence[int], names: dict[int, str], loc: str, mention: bool
) -> str | None:
    """Why a drawn elimination duel sends one player on (the better seed, as ``winner_of``
    decides), or None when the duel had a winner. ``seeds``: every entrant, best seed first."""
    result = pairing.result
    if not tournament.elimination or pairing.match_id is None or result is None or len(pairing.players) != 2:
        return None
    ranks = result["ranks"]
    if ranks[0] != ranks[1] or result.get("how") in ("bye", "walkover"):
        return None
    seed_of = {u: n for n, u in enumerate(seeds)}
    winner = pairing.players[winner_of(pairing, seed_of)]
    loser = next(u for u in pairing.players if u != winner)

    def who(user: int) -> str:
        return f"<@{user}>" if mention else names.get(user, str(user))

    values = {
        "match": table_label(tournament, pairing, loc, len(seeds)),
        "winner": who(winner),
        "loser": who(loser),
        "winner_seed": seed_of.get(winner, 0) + 1,
        "loser_seed": seed_of.get(loser, 0) + 1,
    }
    if result.get("how") not in ("played", "scored"):
        return t("tournament.draw.no-winner", loc, **values)
    score = t("tournament.draw.score", loc, a=result["scores"][0], b=result["scores"][1])
    if tournament.best_of > 1:
        key = "tournament.draw.game"
    else:
        key = "tournament.draw.double" if tournament.format == "double" else "tournament.draw.single"
    return t(key, loc, score=score, **values)


def standing_now(state: AnyState) -> Outcome | None:
    """The game scored as it stands, when the game can say (the engine's ``standing``)."""
    standing = getattr(state, "standing", None)
    if not callable(standing):
        return None
    result = standing()
    return result if isinstance(result, Outcome) else None
