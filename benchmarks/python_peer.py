"""MTG standings in straightforward pure Python (dicts and Fractions) — a benchmark peer.

The same definitions as ``sf.standings(results, "mtg")``; exact ties via ``Fraction``.
"""

from __future__ import annotations

from collections import defaultdict
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
