"""Standings in straightforward pure Python (dicts and Fractions) — benchmark peers.

The same definitions as ``sf.standings(results, rules)`` for ``"mtg"``
(:func:`standings_python`), ``"pokemon"`` (:func:`standings_python_pokemon`) and
``"fide"`` (:func:`standings_python_fide`), written from the rules, not from swissframe's
engine; exact ties via ``Fraction`` (chess scores: half-point integers).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import polars as pl

FLOOR = Fraction(33, 100)


def _clamp(x: Fraction) -> Fraction:
    return min(max(x, FLOOR), Fraction(1))


def standings_python(results: pl.DataFrame) -> pl.DataFrame:
    """MTG standings of every event (input and output as Polars, the rest plain Python)."""
    cols = ["event_id", "round", "player_id", "opponent_id", "games_won", "games_lost",
            "games_drawn", "phase"]
    players: dict[tuple[str, str], list[int]] = {}
    faced: dict[tuple[str, str], list[str]] = defaultdict(list)
    for ev, rnd, pid, opp, gw, gl, gd, phase in results.select(cols).iter_rows():
        if phase != "swiss":
            continue
        # wins, losses, draws, byes, rounds, gw, gl, gd, last_round
        rec = players.setdefault((ev, pid), [0, 0, 0, 0, 0, 0, 0, 0, 0])
        if gw > gl:
            rec[0] += 1
            if opp is None:
                rec[3] += 1
        elif gw < gl:
            rec[1] += 1
        else:
            rec[2] += 1
        rec[4] += 1
        rec[5] += gw
        rec[6] += gl
        rec[7] += gd
        rec[8] = max(rec[8], rnd)
        if opp is not None:
            faced[(ev, pid)].append(opp)
    last: dict[str, int] = defaultdict(int)
    for (ev, _), rec in players.items():
        last[ev] = max(last[ev], rec[8])
    mw: dict[tuple[str, str], Fraction] = {}
    gwp: dict[tuple[str, str], Fraction | None] = {}
    for key, rec in players.items():
        mw[key] = _clamp(Fraction(3 * rec[0] + rec[2], 3 * rec[4]))
        games = rec[5] + rec[6] + rec[7]
        gwp[key] = _clamp(Fraction(3 * rec[5] + rec[7], 3 * games)) if games else None
    out: list[tuple[object, ...]] = []
    by_event: dict[str, list[tuple[object, ...]]] = defaultdict(list)
    for key, rec in players.items():
        ev, pid = key
        opps = faced.get(key, [])
        om = [mw[(ev, o)] for o in opps]
        og = [g for g in (gwp[(ev, o)] for o in opps) if g is not None]
        omwp = sum(om, Fraction(0)) / len(om) if om else None
        ogwp = sum(og, Fraction(0)) / len(og) if og else None
        mp = 3 * rec[0] + rec[2]
        by_event[ev].append((pid, mp, rec, mw[key], gwp[key], omwp, ogwp))
    for ev in sorted(by_event):
        def key(p: tuple[object, ...]) -> tuple[object, ...]:
            pid, mp, _, _, g, om, og = p
            return (-mp, om is None, -(om or 0), g is None, -(g or 0),  # type: ignore[operator]
                    og is None, -(og or 0), pid)  # type: ignore[operator]
        rows = sorted(by_event[ev], key=key)
        rank = 0
        prev: tuple[object, ...] | None = None
        for i, p in enumerate(rows):
            k = key(p)[:-1]
            if k != prev:
                rank, prev = i + 1, k
            pid, mp, rec, m, g, om, og = p
            assert isinstance(rec, list)
            out.append((ev, pid, rank, mp, rec[0], rec[1], rec[2], rec[3], rec[4],
                        rec[8] < last[ev], float(m),  # type: ignore[arg-type]
                        None if g is None else float(g),  # type: ignore[arg-type]
                        None if om is None else float(om),  # type: ignore[arg-type]
                        None if og is None else float(og)))  # type: ignore[arg-type]
    schema = {"event_id": pl.String, "player_id": pl.String, "rank": pl.Int64,
              "match_points": pl.Int64, "wins": pl.Int64, "losses": pl.Int64, "draws": pl.Int64,
              "byes": pl.Int64, "rounds_played": pl.Int64, "dropped": pl.Boolean,
              "mwp": pl.Float64, "gwp": pl.Float64, "omwp": pl.Float64, "ogwp": pl.Float64}
    return pl.DataFrame(out, schema=schema, orient="row")


# ---------------------------------------------------------------- Pokémon and FIDE
#
# Written from the rules reference (rules.md §2 Pokémon, §4 FIDE) and the presets' fields
# (swissframe.rules "pokemon" and "fide"), not from the engine: one record per player,
# exact values (Fractions; chess scores in half-point integers), Python's sorted for the
# order.

#: One Swiss row of a player: (round, opponent or None, games won, lost, drawn).
Row = tuple[int, str | None, int, int, int]

_SWISS_COLS = ["event_id", "round", "player_id", "opponent_id", "games_won", "games_lost",
               "games_drawn", "phase"]


def _swiss_rows(results: pl.DataFrame) -> dict[str, dict[str, list[Row]]]:
    """event -> player -> their Swiss rows in round order (playoff rows count nowhere)."""
    events: dict[str, dict[str, list[Row]]] = defaultdict(lambda: defaultdict(list))
    for ev, rnd, pid, opp, gw, gl, gd, phase in results.select(_SWISS_COLS).iter_rows():
        if phase == "swiss":
            events[ev][pid].append((rnd, opp, gw, gl, gd))
    for players in events.values():
        for rows in players.values():
            rows.sort(key=lambda r: r[0])
    return events


def _clamped(x: Fraction | None, low: Fraction, high: Fraction) -> Fraction | None:
    return None if x is None else min(max(x, low), high)


def _mean(values: list[Fraction]) -> Fraction | None:
    return sum(values, Fraction(0)) / len(values) if values else None


def _f(x: Fraction | None) -> float | None:
    return None if x is None else float(x)


def _desc(x: Fraction | None) -> tuple[bool, Fraction]:
    """Sort key of a value ranked higher first, a missing value (no opponent) last."""
    return (x is None, -x if x is not None else Fraction(0))


def _competition_ranks(keys: list[tuple[object, ...]]) -> list[int]:
    """1-based ranks of ``keys`` (already in order): equal keys share the first one's."""
    ranks: list[int] = []
    for i, k in enumerate(keys):
        ranks.append(ranks[-1] if i and k == keys[i - 1] else i + 1)
    return ranks


def _tie_groups(order: list[str], key: Mapping[str, tuple[object, ...]]) -> list[list[str]]:
    """Runs of equal ``key`` in ``order`` (players already sorted by it)."""
    groups: list[list[str]] = []
    for p in order:
        if groups and key[groups[-1][0]] == key[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


# Pokémon (TRH 2026 as TOM computes it; rules.md §2.2–2.3): win 3, tie 1, loss 0, bye 3;
# win % = (wins + ½ tie) / rounds, byes out of both, clamped to [25 %, 100 %], to
# [25 %, 75 %] for a player who dropped; GW% (a column only) counts a drawn game 1/3.
PKM_FLOOR, PKM_CAP, PKM_CAP_DROPPED = Fraction(1, 4), Fraction(1), Fraction(3, 4)
PKM_TIE, PKM_DRAWN_GAME = Fraction(1, 2), Fraction(1, 3)


@dataclass
class _PokemonRecord:
    """A player's values at one cutoff (after round ``through`` of the event)."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    rounds: int = 0
    last: int = 0
    games: list[int] = field(default_factory=lambda: [0, 0, 0])
    opponents: list[str] = field(default_factory=list)
    dropped: bool = False
    mwp: Fraction | None = None
    gwp: Fraction | None = None
    gwp_opp: Fraction | None = None
    omwp: Fraction | None = None
    ogwp: Fraction | None = None
    oomwp: Fraction | None = None

    @property
    def points(self) -> int:
        return 3 * self.wins + self.draws


def _pokemon_through(players: dict[str, list[Row]], through: int, wanted: Iterable[str]
                     ) -> dict[str, _PokemonRecord]:
    """The Pokémon values of the ``wanted`` players as the standings after round
    ``through`` show them (the others' records, with what those values read of them)."""
    recs: dict[str, _PokemonRecord] = {}
    for pid, rows in players.items():
        rec = _PokemonRecord()
        for rnd, opp, gw, gl, gd in rows:
            if rnd > through:
                break
            if gw > gl:
                rec.wins += 1
                rec.byes += opp is None  # a bye: a win on the record (3 points)
            elif gw < gl:
                rec.losses += 1
            else:
                rec.draws += 1
            rec.rounds += 1
            rec.last = rnd
            rec.games = [rec.games[0] + gw, rec.games[1] + gl, rec.games[2] + gd]
            if opp is not None:
                rec.opponents.append(opp)
        if rec.rounds:
            recs[pid] = rec
    last_round = max(r.last for r in recs.values())
    # the values read: the wanted players' own, their OMW% (of their opponents' win %),
    # OGW% and OOMW% (of their opponents' OMW%, so of the opponents' opponents' win %) —
    # at a drop round, a few players' only
    wanted = [p for p in wanted if p in recs]
    near = {o for p in wanted for o in (p, *recs[p].opponents)}
    far = {o for p in near for o in (p, *recs[p].opponents)}
    for pid in far:
        rec = recs[pid]
        rec.dropped = rec.last < last_round
        cap = PKM_CAP_DROPPED if rec.dropped else PKM_CAP
        # a bye is neither a win nor a round in the win % (TRH §5.3.3.1); a tie is ½
        played = rec.rounds - rec.byes
        tie = PKM_TIE
        raw = (Fraction((rec.wins - rec.byes) * tie.denominator + rec.draws * tie.numerator,
                        played * tie.denominator) if played else None)
        rec.mwp = _clamped(raw, PKM_FLOOR, cap)
        if pid in near:
            won, lost, drawn = rec.games
            games = won + lost + drawn
            dg = PKM_DRAWN_GAME
            raw_gw = (Fraction(won * dg.denominator + drawn * dg.numerator,
                               games * dg.denominator) if games else None)
            rec.gwp = _clamped(raw_gw, Fraction(0), cap)  # own GW%: capped, not floored
            rec.gwp_opp = _clamped(raw_gw, PKM_FLOOR, cap)  # as opponents average it
    for pid in near:
        rec = recs[pid]
        # (an opponent has played a round, so their win % is never missing; a missing
        # value would count nowhere, as in every mean here)
        rec.omwp = _mean([m for m in (recs[o].mwp for o in rec.opponents) if m is not None])
    for pid in wanted:
        rec = recs[pid]
        rec.ogwp = _mean([g for g in (recs[o].gwp_opp for o in rec.opponents)
                          if g is not None])
        rec.oomwp = _mean([o for o in (recs[o].omwp for o in rec.opponents) if o is not None])
    return recs


def _pokemon_event(players: dict[str, list[Row]]) -> list[tuple[object, ...]]:
    """One event's Pokémon standings rows (``rank`` shared by players only the random
    order would separate)."""
    for pid, rows in players.items():
        # every benchmark player plays from round 1 to their drop without a gap: the
        # ruleset's losses for missed rounds (late_rounds="loss") never apply
        if [r[0] for r in rows] != list(range(1, len(rows) + 1)):
            msg = f"pokemon peer: {pid} misses a round (not a benchmark event)"
            raise ValueError(msg)
    event_last = max(rows[-1][0] for rows in players.values())
    # a dropped player's values are those of the standings after the round they last
    # played (TOM's drop-round snapshot, rules.md §2.2); everyone else's the final ones
    by_last: dict[int, list[str]] = defaultdict(list)
    for pid, rows in players.items():
        by_last[rows[-1][0]].append(pid)
    recs: dict[str, _PokemonRecord] = {}
    for through, who in by_last.items():
        at = _pokemon_through(players, through, who)
        recs.update((p, at[p]) for p in who)
    key = {p: (-r.points, *_desc(r.omwp), *_desc(r.oomwp)) for p, r in recs.items()}
    order = sorted(recs, key=lambda p: (key[p], p))
    # head-to-head (TRH §5.5.1.1): exactly two players still tied who played each other,
    # the one who won more of their matches first; every other player 0
    h2h = dict.fromkeys(recs, 0)
    for group in _tie_groups(order, key):
        if len(group) == 2:
            a, b = group
            net = sum((gw > gl) - (gw < gl) for _, opp, gw, gl, _ in players[a] if opp == b)
            h2h[a], h2h[b] = (net > 0) - (net < 0), (net < 0) - (net > 0)
    full = {p: (*key[p], -h2h[p]) for p in recs}
    order = sorted(recs, key=lambda p: (full[p], p))
    ranks = _competition_ranks([full[p] for p in order])
    out: list[tuple[object, ...]] = []
    for pid, rank in zip(order, ranks, strict=True):
        r = recs[pid]
        out.append((pid, rank, r.points, r.wins, r.losses, r.draws, r.byes, r.rounds,
                    r.last < event_last, _f(r.mwp), _f(r.gwp), _f(r.omwp), _f(r.ogwp),
                    _f(r.oomwp), h2h[pid]))
    return out


POKEMON_SCHEMA = {"event_id": pl.String, "player_id": pl.String, "rank": pl.Int64,
                  "match_points": pl.Int64, "wins": pl.Int64, "losses": pl.Int64,
                  "draws": pl.Int64, "byes": pl.Int64, "rounds_played": pl.Int64,
                  "dropped": pl.Boolean, "mwp": pl.Float64, "gwp": pl.Float64,
                  "omwp": pl.Float64, "ogwp": pl.Float64, "oomwp": pl.Float64,
                  "head_to_head": pl.Int64}


def standings_python_pokemon(results: pl.DataFrame) -> pl.DataFrame:
    """Pokémon standings of every event, as ``sf.standings(results, "pokemon")``, less
    its final random order (the ``random`` column).

    Points → OMW% → OOMW% → head-to-head; the players those leave tied share a rank (the
    random order ranks them among themselves), every other rank is swissframe's. Only for
    events whose players play every round from round 1 to their drop (the benchmark's).

    Parameters
    ----------
    results
        Long results (one row per player and round; ``phase`` "swiss" rows are read).

    Returns
    -------
    pl.DataFrame
        One row per player: :data:`POKEMON_SCHEMA`.
    """
    out = [(ev, *row) for ev, players in sorted(_swiss_rows(results).items())
           for row in _pokemon_event(players)]
    return pl.DataFrame(out, schema=POKEMON_SCHEMA, orient="row")


# FIDE C.07 (2023; rules.md §4): score 1 / ½ / 0, a pairing bye 1; BH-C1 → BH → SB →
# direct encounter → WIN; BH-M1, PS, WON as columns. Unplayed rounds per Art. 16: an
# opponent's voluntarily unplayed rounds (VUR: here half-point byes and absences) after
# their last other round count as draws; each of the player's own unplayed rounds is a
# dummy opponent with the player's own score; Cut-n cuts a VUR first. A player with no row
# in a round after their first is absent (0-1-0: rules.md §9 item 5).
# Scores are held in half-points (integers, exact): a win 2, a draw 1, a loss 0.
WIN, DRAW, LOSS = 2, 1, 0


def _without_one(values: list[int], value: int) -> list[int]:
    rest = list(values)
    rest.remove(value)
    return rest


def _direct_encounter(group: list[str], points: dict[tuple[str, str], list[int]]
                      ) -> dict[str, int]:
    """C.07 Art. 6 in one tie group: per player, how many of the group it ranks below.

    The separate standings are each player's points against the others of a class (the
    average where a pair met twice); when every pair met they order the class and equal
    players are ranked among themselves again (6.2); else the players alone at the top
    whatever the missing games gave are split off, one by one, and the rest ranked again
    (6.3). ``points[(p, q)]``: p's half-points in each game played over the board
    against q.
    """
    def split(cls: list[str]) -> list[list[str]]:
        n = len(cls)
        if n < 2:
            return [cls]
        score: dict[str, Fraction] = {}
        met: dict[str, int] = {}
        for p in cls:
            pair = [Fraction(sum(points[(p, q)]), len(points[(p, q)]))
                    for q in cls if q != p and (p, q) in points]
            score[p], met[p] = sum(pair, Fraction(0)), len(pair)
        order = sorted(cls, key=lambda p: (-score[p], p))
        if all(m == n - 1 for m in met.values()):
            groups = _tie_groups(order, {p: (score[p],) for p in cls})
            return [cls] if len(groups) == 1 else [c for g in groups for c in split(g)]
        # the most each could reach by winning every game they did not have
        best = [score[p] + (n - 1 - met[p]) * WIN for p in order]
        lead = 0
        while lead < n and (lead == n - 1 or score[order[lead]] > max(best[lead + 1:])):
            lead += 1
        return [cls] if lead == 0 else [[p] for p in order[:lead]] + split(order[lead:])

    below, placed = {}, 0
    for cls in split(group):
        placed += len(cls)
        for p in cls:
            below[p] = len(group) - placed
    return below


@dataclass
class _FideRecord:
    """A player's FIDE values: scores and Buchholz in half-points, SB in quarter-points
    (half-points × half-points), rates as fractions."""

    score: int
    rounds: int
    dropped: bool
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    won: int = 0
    games: list[int] = field(default_factory=lambda: [0, 0, 0])
    opponents: list[str] = field(default_factory=list)
    bh: int = 0
    bh_c1: int = 0
    bh_m1: int = 0
    sb: int = 0
    ps: int = 0
    mwp: Fraction | None = None
    gwp: Fraction | None = None
    omwp: Fraction | None = None
    ogwp: Fraction | None = None


def _fide_points(gw: int, gl: int) -> int:
    """A round's half-points: a win 2 (a pairing bye is a win), a draw 1, a loss 0."""
    return WIN if gw > gl else DRAW if gw == gl else LOSS


def _fide_rows(players: dict[str, list[Row]]) -> dict[str, list[Row]]:
    """Each player's rows with an absence (``0-1-0``, no opponent) in every round of the
    event after their first in which they have none (C.07 Art. 16; rules.md §9 item 5)."""
    rounds = sorted({r[0] for rows in players.values() for r in rows})
    out: dict[str, list[Row]] = {}
    for pid, rows in players.items():
        have = {r[0] for r in rows}
        absent: list[Row] = [(r, None, 0, 1, 0) for r in rounds
                             if r > rows[0][0] and r not in have]
        out[pid] = sorted(rows + absent, key=lambda r: r[0])
    return out


def _is_vur(opp: str | None, gw: int, gl: int) -> bool:
    """A voluntarily unplayed round (Art. 16.2): a half-point bye or an absence (no
    opponent and not won; the results carry no forfeits or zero-point byes)."""
    return opp is None and gw <= gl


def _fide_record(rows: list[Row], score: dict[str, int], adjusted: dict[str, int],
                 pid: str, event_last: int) -> _FideRecord:
    rec = _FideRecord(score=score[pid], rounds=len(rows), dropped=rows[-1][0] < event_last)
    contrib: list[tuple[int, bool]] = []  # (opponent value, VUR?) per round
    running = 0
    for _, opp, gw, gl, gd in rows:
        if gw > gl:
            rec.wins += 1
            rec.byes += opp is None
            rec.won += opp is not None  # WON: over the board only
        elif gw < gl:
            rec.losses += 1
        else:
            rec.draws += 1
        rec.games = [rec.games[0] + gw, rec.games[1] + gl, rec.games[2] + gd]
        pts = _fide_points(gw, gl)
        # a game: the opponent's adjusted score; an unplayed round (bye, absence): a
        # dummy opponent with the player's own score (Art. 16.4, 2023 text)
        value = score[pid] if opp is None else adjusted[opp]
        contrib.append((value, _is_vur(opp, gw, gl)))
        rec.sb += value * pts
        if opp is not None:
            rec.opponents.append(opp)
        running += pts
        rec.ps += running
    values = [v for v, _ in contrib]
    rec.bh = sum(values)
    # Cut-1 / Median-1 (Art. 14) cut the lowest contribution, a VUR's first (Art. 16.5);
    # with one value (two for Median-1) nothing is left: 0
    vurs = [v for v, vur in contrib if vur]
    low = min(vurs) if vurs else min(values)
    if len(values) > 1:
        rec.bh_c1 = rec.bh - low
    if len(values) > 2:
        rest = _without_one(values, low)
        rec.bh_m1 = sum(_without_one(rest, max(rest)))
    won, lost, drawn = rec.games
    rec.mwp = Fraction(2 * rec.wins + rec.draws, 2 * rec.rounds)  # a draw is half a win
    games = won + lost + drawn
    rec.gwp = Fraction(2 * won + drawn, 2 * games) if games else None  # a drawn game ½
    return rec


def _fide_event(players: dict[str, list[Row]]) -> list[tuple[object, ...]]:
    """One event's FIDE standings rows."""
    rows_of = _fide_rows(players)
    event_last = max(rows[-1][0] for rows in rows_of.values())
    score = {p: sum(_fide_points(a, b) for _, _, a, b, _ in rows) for p, rows in rows_of.items()}
    # the score opponents see (Art. 16.3): VURs after the player's last other round
    # count as draws
    adjusted: dict[str, int] = {}
    for p, rows in rows_of.items():
        tail = 0
        for _, opp, gw, gl, _ in reversed(rows):
            if not _is_vur(opp, gw, gl):
                break
            tail += DRAW - _fide_points(gw, gl)
        adjusted[p] = score[p] + tail
    recs = {p: _fide_record(rows, score, adjusted, p, event_last)
            for p, rows in rows_of.items()}
    for rec in recs.values():  # opponents' MW% and GW% (columns, not criteria)
        rec.omwp = _mean([o for o in (recs[o].mwp for o in rec.opponents) if o is not None])
        rec.ogwp = _mean([o for o in (recs[o].gwp for o in rec.opponents) if o is not None])
    key = {p: (-r.score, -r.bh_c1, -r.bh, -r.sb) for p, r in recs.items()}
    order = sorted(recs, key=lambda p: (key[p], p))
    # direct encounter among the players those leave tied, on games over the board
    points: dict[tuple[str, str], list[int]] = defaultdict(list)
    for p, rows in rows_of.items():
        for _, opp, gw, gl, _ in rows:
            if opp is not None:
                points[(p, opp)].append(_fide_points(gw, gl))
    de = dict.fromkeys(recs, 0)
    for group in _tie_groups(order, key):
        if len(group) > 1:
            members = set(group)
            de.update(_direct_encounter(group, {pq: v for pq, v in points.items()
                                                if pq[0] in members and pq[1] in members}))
    full = {p: (*key[p], -de[p], -recs[p].wins) for p in recs}
    order = sorted(recs, key=lambda p: (full[p], p))
    ranks = _competition_ranks([full[p] for p in order])
    return [(p, rank, r.score / 2, r.wins, r.losses, r.draws, r.byes, r.rounds, r.dropped,
             _f(r.mwp), _f(r.gwp), _f(r.omwp), _f(r.ogwp), r.bh_c1 / 2, r.bh / 2, r.sb / 4,
             de[p], r.wins, r.bh_m1 / 2, r.ps / 2, r.won)
            for p, rank in zip(order, ranks, strict=True) for r in (recs[p],)]


FIDE_SCHEMA = {"event_id": pl.String, "player_id": pl.String, "rank": pl.Int64,
               "match_points": pl.Float64, "wins": pl.Int64, "losses": pl.Int64,
               "draws": pl.Int64, "byes": pl.Int64, "rounds_played": pl.Int64,
               "dropped": pl.Boolean, "mwp": pl.Float64, "gwp": pl.Float64,
               "omwp": pl.Float64, "ogwp": pl.Float64, "bh_c1": pl.Float64, "bh": pl.Float64,
               "sb": pl.Float64, "direct_encounter": pl.Int64, "win": pl.Int64,
               "bh_m1": pl.Float64, "ps": pl.Float64, "won": pl.Int64}


def standings_python_fide(results: pl.DataFrame) -> pl.DataFrame:
    """FIDE standings of every event, as ``sf.standings(results, "fide")``: every column
    and rank (no random order: players tied on every criterion share a rank).

    Parameters
    ----------
    results
        Long results (one row per player and round; ``phase`` "swiss" rows are read; no
        ``unplayed`` column: an unpaired win is a pairing bye, an unpaired draw a
        half-point bye, an unpaired loss an absence).

    Returns
    -------
    pl.DataFrame
        One row per player: :data:`FIDE_SCHEMA`.
    """
    out = [(ev, *row) for ev, players in sorted(_swiss_rows(results).items())
           for row in _fide_event(players)]
    return pl.DataFrame(out, schema=FIDE_SCHEMA, orient="row")
