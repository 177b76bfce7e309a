"""Fast synthetic workload for the benchmarks: many valid MTG events as one results table.

A stand-in for ``swissframe.simulate`` that only needs numpy: every round of every event is
generated at once (vectorised over events), with Swiss-style pairing (players sorted by
points inside their event, adjacent seats paired, odd one out gets the bye), drops, draws,
intentional draws (0-0-3) and a top-8 single-elimination playoff for events of 17+ players.

Sizes are mixed like a real archive: players per event log-normal, clipped to 2–1,500;
rounds from the player count (MTR Appendix E style) ± 1, clipped to 3–15. 10,000 events give
about 3.5 million rows.

Usage::

    python benchmarks/gen.py 10000          # writes benchmarks/.cache/events_10000.parquet
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import polars as pl

CACHE = Path(__file__).resolve().parent / ".cache"

# (games_won, games_lost, games_drawn) of seat A, and their probabilities
OUTCOMES = np.array([[2, 0, 0], [2, 1, 0], [1, 2, 0], [0, 2, 0],
                     [1, 1, 1], [1, 1, 0], [0, 0, 3], [1, 0, 0], [0, 1, 0]], dtype=np.int64)
PROBS = np.array([0.28, 0.2, 0.2, 0.24, 0.02, 0.02, 0.02, 0.01, 0.01])


def generate(n_events: int, seed: int = 0, *, mu: float = 3.4, sigma: float = 1.05
             ) -> pl.DataFrame:
    """Generate ``n_events`` valid MTG events (long results table), archive-like sizes."""
    rng = np.random.default_rng(seed)
    n_players = np.clip(np.rint(np.exp(rng.normal(mu, sigma, n_events))), 2, 1500).astype(np.int64)
    n_rounds = np.clip(np.ceil(np.log2(n_players)).astype(np.int64) + rng.integers(-1, 2, n_events),
                       3, 15)
    return _events(rng, n_players, n_rounds, drop_rate=0.15, playoff=True)


def generate_uniform(n_events: int, seed: int = 0, *, players: tuple[int, int] = (2, 160),
                     rounds: tuple[int, int] = (1, 9), drop_rate: float = 0.15) -> pl.DataFrame:
    """Issue 19's bulk workload: players uniform in ``players``, rounds uniform in ``rounds``
    (independent of the player count, so small events have rematches), byes when odd, drops,
    no playoff. 10,000 events ≈ 3.5M rows."""
    rng = np.random.default_rng(seed)
    n_players = rng.integers(players[0], players[1] + 1, n_events)
    n_rounds = rng.integers(rounds[0], rounds[1] + 1, n_events)
    return _events(rng, n_players, n_rounds, drop_rate=drop_rate, playoff=False)


def one_event(players: int, rounds: int, seed: int = 0, *, drop_rate: float = 0.15
              ) -> pl.DataFrame:
    """One event of exactly ``players`` players and ``rounds`` Swiss rounds."""
    rng = np.random.default_rng(seed)
    return _events(rng, np.array([players]), np.array([rounds]), drop_rate=drop_rate,
                   playoff=False)


def _events(rng: np.random.Generator, n_players: np.ndarray, n_rounds: np.ndarray, *,
            drop_rate: float, playoff: bool) -> pl.DataFrame:
    n_events = n_players.size
    n_players = n_players.astype(np.int64)
    n_rounds = n_rounds.astype(np.int64)
    total = int(n_players.sum())
    ev = np.repeat(np.arange(n_events, dtype=np.int64), n_players)
    start = np.concatenate([[0], np.cumsum(n_players)[:-1]])
    local = np.arange(total, dtype=np.int64) - start[ev]
    rounds_of = n_rounds[ev]
    drops = rng.random(total) < drop_rate
    last = np.where(drops, rng.integers(1, np.maximum(rounds_of, 2), total), rounds_of)
    points = np.zeros(total, dtype=np.int64)
    parts: list[dict[str, np.ndarray]] = []
    for r in range(1, int(n_rounds.max()) + 1):
        active = np.flatnonzero(last >= r)
        if active.size == 0:
            break
        order = np.lexsort((rng.random(active.size), -points[active], ev[active]))
        idx = active[order]
        e = ev[idx]
        first = np.r_[True, e[1:] != e[:-1]]
        grp_start = np.flatnonzero(first)
        counts = np.diff(np.r_[grp_start, idx.size])
        gid = np.cumsum(first) - 1
        pos = np.arange(idx.size) - grp_start[gid]
        n_e = counts[gid]
        is_a = (pos % 2 == 0) & (pos + 1 < n_e)
        is_bye = (pos % 2 == 0) & (pos + 1 == n_e)
        a = np.flatnonzero(is_a)
        res = OUTCOMES[rng.choice(len(OUTCOMES), size=a.size, p=PROBS)]
        pa, pb = idx[a], idx[a + 1]
        byes = idx[np.flatnonzero(is_bye)]
        nb = byes.size
        parts.append({
            "ev": np.concatenate([ev[pa], ev[pb], ev[byes]]),
            "round": np.full(2 * a.size + nb, r, dtype=np.int64),
            "player": np.concatenate([local[pa], local[pb], local[byes]]),
            "opp": np.concatenate([local[pb], local[pa], np.full(nb, -1)]),
            "gw": np.concatenate([res[:, 0], res[:, 1], np.full(nb, 2)]),
            "gl": np.concatenate([res[:, 1], res[:, 0], np.zeros(nb, dtype=np.int64)]),
            "gd": np.concatenate([res[:, 2], res[:, 2], np.zeros(nb, dtype=np.int64)]),
            "phase": np.zeros(2 * a.size + nb, dtype=np.int8),
        })
        win_a = res[:, 0] > res[:, 1]
        draw = res[:, 0] == res[:, 1]
        np.add.at(points, pa, np.where(win_a, 3, np.where(draw, 1, 0)))
        np.add.at(points, pb, np.where(~win_a & ~draw, 3, np.where(draw, 1, 0)))
        np.add.at(points, byes, 3)
    # top-8 playoff for events of 17+ players: three single-elimination rounds
    big = n_players[ev] >= 17
    cand = np.flatnonzero(big) if playoff else np.zeros(0, dtype=np.int64)
    order = np.lexsort((local[cand], -points[cand], ev[cand]))
    idx = cand[order]
    e = ev[idx]
    first = np.r_[True, e[1:] != e[:-1]]
    grp_start = np.flatnonzero(first)
    gid = np.cumsum(first) - 1
    pos = np.arange(idx.size) - grp_start[gid]
    alive = idx[pos < 8]
    for k in range(3):
        # alive is grouped by event, 8 / 4 / 2 per event in seed order: pair i with i+1
        a, b = alive[0::2], alive[1::2]
        res = np.where((rng.random(a.size) < 0.5)[:, None], [2, 1, 0], [0, 2, 0])
        parts.append({
            "ev": np.concatenate([ev[a], ev[b]]),
            "round": np.concatenate([n_rounds[ev[a]], n_rounds[ev[b]]]) + 1 + k,
            "player": np.concatenate([local[a], local[b]]),
            "opp": np.concatenate([local[b], local[a]]),
            "gw": np.concatenate([res[:, 0], res[:, 1]]),
            "gl": np.concatenate([res[:, 1], res[:, 0]]),
            "gd": np.zeros(2 * a.size, dtype=np.int64),
            "phase": np.ones(2 * a.size, dtype=np.int8),
        })
        alive = np.where(res[:, 0] > res[:, 1], a, b)
    cols = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    df = pl.DataFrame(cols)
    width = max(6, len(str(n_events)))
    return (df.sort("ev", "round", "player")
            .select(
                event_id=pl.lit("ev") + pl.col("ev").cast(pl.String).str.zfill(width),
                round=pl.col("round"),
                player_id=pl.lit("p") + pl.col("player").cast(pl.String),
                opponent_id=pl.when(pl.col("opp") >= 0)
                .then(pl.lit("p") + pl.col("opp").cast(pl.String)),
                games_won=pl.col("gw"), games_lost=pl.col("gl"), games_drawn=pl.col("gd"),
                phase=pl.when(pl.col("phase") == 1).then(pl.lit("playoff"))
                .otherwise(pl.lit("swiss"))))


def cached(n_events: int, seed: int = 0, *, kind: str = "archive") -> Path:
    """Path of the cached Parquet workload of ``n_events`` events (generated on first use);
    ``kind`` "archive" (:func:`generate`) or "uniform" (:func:`generate_uniform`)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    tag = "events" if kind == "archive" else "uniform"
    path = CACHE / f"{tag}_{n_events}_s{seed}.parquet"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        make = generate if kind == "archive" else generate_uniform
        make(n_events, seed).write_parquet(tmp, row_group_size=256_000)
        tmp.replace(path)
    return path


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    p = cached(n)
    print(p, pl.scan_parquet(p).select(pl.len()).collect().item(), "rows")
