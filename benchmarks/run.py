"""Benchmarks of issue 9: sf.standings vs DuckDB SQL vs pure Python; by-round; scaling; archive.

Usage::

    python benchmarks/run.py                       # 1k, 10k, 100k events + 50M-row archive
    python benchmarks/run.py --sizes 1000 10000 --repeats 5 --no-archive
    python benchmarks/run.py measure sf 10000      # one isolated measurement (JSON line)

Timings run in one process per workload size, methods alternating, median of ``--repeats``
runs after one warm-up run each. Peak memory is measured separately: every (method, size)
runs once in a fresh subprocess that reports its peak RSS (``ru_maxrss``) and its RSS after
loading the data (so the method's own share is visible). Results are correctness-checked:
DuckDB and pure Python must give identical values and ranks to swissframe.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import duckdb  # noqa: E402
import polars as pl  # noqa: E402
from duckdb_peer import standings_duckdb  # noqa: E402
from gen import CACHE, cached, generate  # noqa: E402
from python_peer import standings_python  # noqa: E402

import swissframe as sf  # noqa: E402
from swissframe.bulk import recompute  # noqa: E402

COLS = ["event_id", "player_id", "rank", "match_points", "wins", "losses", "draws", "byes",
        "rounds_played", "dropped", "mwp", "gwp", "omwp", "ogwp"]
ARCHIVE = CACHE / "archive"
#: standings_by_round gathers every opponent's values once per later round (≈ rounds/2 times
#: the paired rows; 3.3 GiB peak at 10k events), so 100k events would need ≈ 30 GiB, more than
#: the 24 GiB benchmark machine has.
BY_ROUND_MAX = 10_000


def _rss_mib() -> float:
    """This process's peak RSS. VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the
    parent across fork/exec, so a measurement subprocess would report its parent's peak."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def methods() -> dict[str, Callable[[pl.DataFrame], pl.DataFrame]]:
    con = duckdb.connect()
    return {
        "sf.standings": lambda df: sf.standings(df, "mtg"),
        "duckdb_sql": lambda df: standings_duckdb(df, con),
        "sf.standings_by_round": lambda df: sf.standings_by_round(df, "mtg"),
        "pure_python": standings_python,
    }


def check_equal(ref: pl.DataFrame, other: pl.DataFrame, name: str, *, tol: float = 0.0) -> float:
    """Assert identical rows (ranks and integers exactly; floats within ``tol``)."""
    a = ref.select(COLS).sort("event_id", "player_id")
    b = other.select(COLS).sort("event_id", "player_id")
    if a.height != b.height:
        raise SystemExit(f"{name}: {b.height} rows, swissframe {a.height}")
    worst = 0.0
    for c in COLS:
        if a[c].dtype == pl.Float64:
            both_null = a[c].is_null() & b[c].is_null()
            diff = (a[c] - b[c]).abs()
            if not (both_null | (diff <= tol)).fill_null(value=False).all():
                raise SystemExit(f"{name}: column {c} differs from swissframe")
            worst = max(worst, float(diff.max() or 0.0))
        elif not (a[c] == b[c]).fill_null(value=False).all() and not a[c].equals(b[c]):
            bad = a.filter(a[c] != b[c]).head(3)
            raise SystemExit(f"{name}: column {c} differs from swissframe:\n{bad}")
    return worst


def measure(method: str, n: int) -> dict[str, float]:
    """One run of ``method`` on ``n`` events in this (fresh) process: seconds and RSS."""
    if method == "recompute":
        files = archive_files(n)
        base = _rss_mib()
        out = CACHE / "archive_out"
        shutil.rmtree(out, ignore_errors=True)
        t = time.perf_counter()
        rep = recompute(files, out, "mtg", batch_rows=2_000_000)
        sec = time.perf_counter() - t
        return {"seconds": sec, "rss_base_mib": base, "rss_peak_mib": _rss_mib(),
                "rows": rep.rows_in, "events": rep.events_in, "batches": rep.batches}
    df = pl.read_parquet(cached(n))
    base = _rss_mib()
    fn = methods()[method]
    t = time.perf_counter()
    fn(df)
    sec = time.perf_counter() - t
    return {"seconds": sec, "rss_base_mib": base, "rss_peak_mib": _rss_mib(), "rows": df.height}


def isolated(method: str, n: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "measure", method, str(n)], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def archive_files(n_files: int) -> list[Path]:
    """``n_files`` Parquet files of 10,000 events each (~3.4M rows each), distinct ids."""
    ARCHIVE.mkdir(parents=True, exist_ok=True)
    files = []
    for i in range(n_files):
        p = ARCHIVE / f"season-{i:03d}.parquet"
        if not p.exists():
            df = generate(10_000, seed=1000 + i).with_columns(
                (pl.lit(f"s{i:03d}-") + pl.col("event_id")).alias("event_id"))
            df.write_parquet(p.with_suffix(".tmp"), row_group_size=256_000)
            p.with_suffix(".tmp").replace(p)
        files.append(p)
    return files


def timing(n: int, repeats: int, python_max: int) -> dict[str, list[float]]:
    """Median-ready run times per method on ``n`` events, methods alternating."""
    df = pl.read_parquet(cached(n))
    fns = methods()
    names = [m for m in fns if (m != "pure_python" or n <= python_max)
             and (m != "sf.standings_by_round" or n <= BY_ROUND_MAX)]
    ref = fns["sf.standings"](df)
    check_equal(ref, fns["duckdb_sql"](df), "duckdb_sql")
    if "pure_python" in names:
        worst = check_equal(ref, fns["pure_python"](df), "pure_python", tol=1e-12)
        print(f"  pure_python equal to swissframe (max float difference {worst:.1e})")
    print(f"  duckdb_sql: identical values and ranks on {ref.height} standings rows")
    times: dict[str, list[float]] = {m: [] for m in names}
    for i in range(repeats):
        for m in names:
            if m == "pure_python" and i >= (repeats if n <= 1_000 else 1):
                continue
            t = time.perf_counter()
            fns[m](df)
            times[m].append(time.perf_counter() - t)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--large-repeats", type=int, default=1,
                    help="runs per method above 10k events (the scaling point)")
    ap.add_argument("--python-max", type=int, default=10_000,
                    help="largest size the pure-Python peer runs on")
    ap.add_argument("--archive-files", type=int, default=15,
                    help="files of 10k events (~3.4M rows each) in the out-of-core run")
    ap.add_argument("--no-archive", action="store_true")
    ap.add_argument("--json", type=Path, default=CACHE / "results.json")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {platform.processor() or '?'}; "
          f"python {platform.python_version()}; polars {pl.__version__}; "
          f"duckdb {duckdb.__version__}; swissframe {sf.__version__}")
    rows: list[dict[str, object]] = []
    for n in args.sizes:
        cached(n)
        print(f"{n} events:")
        times = timing(n, args.repeats if n <= 10_000 else args.large_repeats, args.python_max)
        for m, ts in times.items():
            iso = isolated(m, n)
            rows.append({"events": n, "rows": iso["rows"], "method": m,
                         "median_s": statistics.median(ts), "runs": len(ts),
                         "rss_base_mib": iso["rss_base_mib"], "rss_peak_mib": iso["rss_peak_mib"]})
            print(f"  {m:24s} median {statistics.median(ts):8.3f} s over {len(ts)} "
                  f"run(s); peak RSS {iso['rss_peak_mib']:.0f} MiB")
    if not args.no_archive:
        print(f"out-of-core: recompute of {args.archive_files} files")
        archive_files(args.archive_files)
        iso = isolated("recompute", args.archive_files)
        rows.append({"events": iso["events"], "rows": iso["rows"], "method": "sf.recompute",
                     "median_s": iso["seconds"], "runs": 1, "rss_base_mib": iso["rss_base_mib"],
                     "rss_peak_mib": iso["rss_peak_mib"]})
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=1))
    print()
    print(table(rows))


def table(rows: list[dict[str, object]]) -> str:
    """The markdown comparison table (ratios to DuckDB and to sf.standings of the same size)."""
    duck = {r["events"]: r["median_s"] for r in rows if r["method"] == "duckdb_sql"}
    std = {r["events"]: r["median_s"] for r in rows if r["method"] == "sf.standings"}
    lines = ["| events | rows | method | median s (runs) | × DuckDB | × sf.standings | "
             "µs/row | peak RSS MiB (data loaded) |",
             "|---:|---:|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        s = float(r["median_s"])  # type: ignore[arg-type]
        d = duck.get(r["events"])
        st = std.get(r["events"])
        lines.append(
            f"| {r['events']:,} | {r['rows']:,} | {r['method']} | {s:.2f} ({r['runs']}) | "
            f"{'' if d is None else f'{s / float(d):.2f}'} | "  # type: ignore[arg-type]
            f"{'' if st is None else f'{s / float(st):.2f}'} | "  # type: ignore[arg-type]
            f"{s / float(r['rows']) * 1e6:.2f} | "  # type: ignore[arg-type]
            f"{float(r['rss_peak_mib']):.0f} ({float(r['rss_base_mib']):.0f}) |")  # type: ignore[arg-type]
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "measure":
        print(json.dumps(measure(sys.argv[2], int(sys.argv[3]))))
    else:
        main()
