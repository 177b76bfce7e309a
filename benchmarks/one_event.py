"""Whole-process side of the tournament-organizer row: one event's standings in swissframe.

    python benchmarks/one_event.py EVENT.json [WARM_RUNS]

Reads the same EVENT.json as ``js_peer/standings.mjs`` (one row per match), builds the
results table with ``sf.from_matches`` (the "load"), computes ``sf.standings`` with the MTG
ruleset without the 0.33 floor (what tournament-organizer computes), and prints one JSON
object shaped like the node script's: CPU and wall ms of the load, of the first (cold)
standings call and the median of WARM_RUNS further calls, and the standings rows.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import sys
import time
from fractions import Fraction
from typing import Any

import polars as pl

import swissframe as sf

NOFLOOR = dataclasses.replace(sf.rules.MTG, name="mtg-nofloor", floor=Fraction(0))


def _timed(fn: Any) -> tuple[Any, float, float]:
    c, t = time.process_time(), time.perf_counter()
    out = fn()
    return out, (time.process_time() - c) * 1e3, (time.perf_counter() - t) * 1e3


def main() -> None:
    path = sys.argv[1]
    warm = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with open(path, encoding="utf-8") as f:
        event = json.load(f)

    def load() -> pl.DataFrame:
        m = event["matches"]
        return sf.from_matches(pl.DataFrame({
            "round": [x["round"] for x in m], "player_a": [x["a"] for x in m],
            "player_b": [x["b"] for x in m], "games_a": [x["ga"] for x in m],
            "games_b": [x["gb"] for x in m], "games_drawn": [x["gd"] for x in m]},
            schema={"round": pl.Int64, "player_a": pl.String, "player_b": pl.String,
                    "games_a": pl.Int64, "games_b": pl.Int64, "games_drawn": pl.Int64}),
            default_event_id=event["name"])

    results, load_cpu, load_wall = _timed(load)
    table, cold_cpu, cold_wall = _timed(lambda: sf.standings(results, NOFLOOR))
    runs = [_timed(lambda: sf.standings(results, NOFLOOR))[1:] for _ in range(warm)]
    print(json.dumps({
        "load_cpu_ms": load_cpu, "load_wall_ms": load_wall,
        "cold_cpu_ms": cold_cpu, "cold_wall_ms": cold_wall,
        "warm_cpu_ms": statistics.median(r[0] for r in runs) if runs else None,
        "warm_wall_ms": statistics.median(r[1] for r in runs) if runs else None,
        "rows": table.select("player_id", "match_points", "mwp", "gwp", "omwp", "ogwp")
        .to_dicts()}))


if __name__ == "__main__":
    main()
