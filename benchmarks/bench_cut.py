"""Benchmark: cut status for a 1,000-player event's final round (500 tables).

Run: ``.venv/bin/python benchmarks/bench_cut.py [players] [rounds] [sims]``.
Generates a Swiss-like event (points-sorted pairings, uniform results incl. 0-0-3 IDs),
then times next_round_ranges, cut_status without probabilities (points + exact ranges),
and cut_status with Monte Carlo probabilities — on the fast scenario path and on the engine
path (one standings run per scenario, the definition) — and reports the cost per scenario:
(time with ``sims`` scenarios − time without) / ``sims``, median of ``repeats`` runs.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's package

from swissframe import cut

SCORES = [(2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0), (0, 0, 3)]


def synthetic(n: int, rounds: int, seed: int = 0) -> tuple[pl.DataFrame, pl.DataFrame]:
    rng = np.random.default_rng(seed)
    ids = [f"p{i:05d}" for i in range(n)]
    pts = np.zeros(n)
    rows = []

    def pair() -> list[tuple[int, int | None]]:
        order = np.lexsort((rng.random(n), -pts))
        out: list[tuple[int, int | None]] = [(int(order[t]), int(order[t + 1]))
                                             for t in range(0, n - 1, 2)]
        if n % 2:
            out.append((int(order[-1]), None))
        return out

    for r in range(1, rounds + 1):
        for a, b in pair():
            if b is None:
                rows.append(("e", r, ids[a], None, 2, 0, 0))
                pts[a] += 3
                continue
            gw, gl, gd = SCORES[rng.integers(0, 5)]
            rows += [("e", r, ids[a], ids[b], gw, gl, gd), ("e", r, ids[b], ids[a], gl, gw, gd)]
            pts[a] += 3 if gw > gl else 1 if gw == gl else 0
            pts[b] += 3 if gl > gw else 1 if gw == gl else 0
    res = pl.DataFrame(rows, schema=["event_id", "round", "player_id", "opponent_id",
                                     "games_won", "games_lost", "games_drawn"], orient="row")
    prs = []
    for a, b in pair():
        prs.append(("e", rounds + 1, ids[a], None if b is None else ids[b]))
        if b is not None:
            prs.append(("e", rounds + 1, ids[b], ids[a]))
    return res, pl.DataFrame(prs, schema=["event_id", "round", "player_id", "opponent_id"],
                             orient="row")


def _timed(fn: object, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    sims = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    res, pairs = synthetic(n, rounds)
    print(f"{n} players, {rounds} rounds played, {pairs.height // 2} final-round tables")
    cut.cut_status(res, pairs, 8, n_sims=0)  # warm-up
    t = time.perf_counter()
    cut.next_round_ranges(res, pairs)
    print(f"next_round_ranges: {time.perf_counter() - t:.3f} s")
    base = _timed(lambda: cut.cut_status(res, pairs, 8, n_sims=0, exact_limit=0), repeats)
    st = cut.cut_status(res, pairs, 8, n_sims=0, exact_limit=0)
    s = cut.status_summary(st).row(0, named=True)
    print(f"cut_status (points + ranges, no probability): {base:.3f} s; "
          f"{s['statuses']} statuses, {s['exact']} decided, {s['possible_undecided']} possible")
    fast = _timed(lambda: cut.cut_status(res, pairs, 8, n_sims=sims, exact_limit=0),
                  repeats)
    print(f"fast path:   {sims} scenarios {fast:.3f} s -> "
          f"{(fast - base) / sims * 1e3:.2f} ms per scenario")
    orig = cut.fast_model
    cut.fast_model = lambda rf: None  # type: ignore[assignment]
    try:
        e_sims = max(10, min(sims, 50))
        eng = _timed(lambda: cut.cut_status(res, pairs, 8, n_sims=e_sims, exact_limit=0,
                                            batch=25), repeats)
    finally:
        cut.fast_model = orig  # type: ignore[assignment]
    print(f"engine path: {e_sims} scenarios {eng:.3f} s -> "
          f"{(eng - base) / e_sims * 1e3:.2f} ms per scenario")
    ratio = (eng - base) / e_sims / ((fast - base) / sims)
    print(f"per-scenario ratio engine / fast: {ratio:.0f}x")


if __name__ == "__main__":
    main()
