"""MTG standings written directly as DuckDB SQL — the benchmark's hand-written peer.

Same definitions as ``sf.standings(results, "mtg")`` (MTR Appendix C): match points 3/1/0,
a bye is a 2-0 win counted in the player's own MW%, MW% and GW% floored at 0.33 (own GW%
too), OMW%/OGW% the mean over non-bye opponents (a repeat opponent counts twice), ranks by
match points → OMW% → GW% → OGW% with exact ties (competition ranks 1, 2, 2, 4).

Exact ties in SQL: every rate is also carried as a HUGEINT ``value × scale`` where the scale is
the lcm of the denominators that occur (computed in the same query with ``list_reduce``), and
a mean of ``k`` values is lifted by ``lcm(1..k_max) / k``. Floats are computed from the same
small integers so they are correctly rounded.
"""

from __future__ import annotations

from typing import Any

import duckdb
import polars as pl

SQL = r"""
WITH r AS (
    SELECT event_id, round, player_id, opponent_id,
           games_won AS gw, games_lost AS gl, games_drawn AS gd,
           opponent_id IS NULL AS unpaired
    FROM results WHERE phase = 'swiss'
),
p AS (
    SELECT event_id, player_id,
           count_if(gw > gl)::BIGINT AS wins,
           count_if(gw < gl)::BIGINT AS losses,
           count_if(gw = gl)::BIGINT AS draws,
           count_if(gw > gl AND unpaired)::BIGINT AS byes,
           count(*)::BIGINT AS rounds_played,
           count_if(NOT unpaired)::BIGINT AS opponents,
           sum(gw)::BIGINT AS gw, sum(gl)::BIGINT AS gl, sum(gd)::BIGINT AS gd,
           max(round) AS last_round
    FROM r GROUP BY event_id, player_id
),
p2 AS (
    SELECT *, 3 * wins + draws AS match_points,
           last_round < max(last_round) OVER (PARTITION BY event_id) AS dropped,
           gw + gl + gd AS games
    FROM p
),
sc AS (  -- exact scales: lcm of the denominators that occur (and of the floor's 100)
    SELECT list_reduce(list_concat([100::HUGEINT], list(DISTINCT 3 * rounds_played)::HUGEINT[]),
                       lambda a, b: lcm(a, b)) AS s_r,
           list_reduce(list_concat([100::HUGEINT],
                                   list(DISTINCT 3 * games) FILTER (games > 0)::HUGEINT[]),
                       lambda a, b: lcm(a, b)) AS s_g,
           list_reduce(range(1, greatest(max(opponents), 1) + 1)::HUGEINT[],
                       lambda a, b: lcm(a, b)) AS k_l
    FROM p2
),
rates AS (
    SELECT p2.*, sc.s_r, sc.s_g, sc.k_l,
           greatest(least(match_points::HUGEINT * (s_r // (3 * rounds_played)), s_r),
                    (33 * s_r) // 100) AS x_mwp,
           CASE WHEN games > 0 THEN
               greatest(least((3 * gw + gd)::HUGEINT * (s_g // (3 * games)), s_g),
                        (33 * s_g) // 100) END AS x_gwp,
           greatest(least(match_points::DOUBLE / (3 * rounds_played)::DOUBLE, 1.0), 0.33) AS mwp,
           CASE WHEN games > 0 THEN
               greatest(least((3 * gw + gd)::DOUBLE / (3 * games)::DOUBLE, 1.0), 0.33) END AS gwp
    FROM p2, sc
),
opp AS (
    SELECT r.event_id, r.player_id,
           sum(o.x_mwp) AS t_mw, count(o.x_mwp) AS k_mw,
           sum(o.x_gwp) AS t_gw, count(o.x_gwp) AS k_gw
    FROM r JOIN rates o ON o.event_id = r.event_id AND o.player_id = r.opponent_id
    WHERE NOT r.unpaired
    GROUP BY r.event_id, r.player_id
),
full_ AS (
    SELECT x.*,
           CASE WHEN k_mw > 0 THEN t_mw * (x.k_l // k_mw) END AS x_omwp,
           CASE WHEN k_mw > 0 THEN t_mw::DOUBLE / (k_mw::DOUBLE * x.s_r::DOUBLE) END AS omwp,
           CASE WHEN k_gw > 0 THEN t_gw * (x.k_l // k_gw) END AS x_ogwp,
           CASE WHEN k_gw > 0 THEN t_gw::DOUBLE / (k_gw::DOUBLE * x.s_g::DOUBLE) END AS ogwp
    FROM rates x LEFT JOIN opp USING (event_id, player_id)
)
SELECT event_id, player_id,
       rank() OVER (PARTITION BY event_id
                    ORDER BY match_points DESC, x_omwp DESC NULLS LAST, x_gwp DESC NULLS LAST,
                             x_ogwp DESC NULLS LAST)::BIGINT AS rank,
       match_points, wins, losses, draws, byes, rounds_played, dropped,
       mwp, gwp, omwp, ogwp
FROM full_
ORDER BY event_id, rank, player_id
"""


def standings_duckdb(results: pl.DataFrame | str, con: Any = None) -> pl.DataFrame:
    """MTG standings of every event in ``results`` (a DataFrame or a Parquet path)."""
    own = con is None
    con = con or duckdb.connect()
    try:
        if isinstance(results, str):
            con.execute("CREATE OR REPLACE VIEW results AS "
                        f"SELECT * FROM read_parquet('{results}')")
        else:
            con.register("results", results.to_arrow())
        return pl.from_arrow(con.sql(SQL).to_arrow_table())  # type: ignore[return-value]
    finally:
        if own:
            con.close()
