"""Issue 19's benchmark table: every workload side by side with its peer, as ratios.

Usage::

    python benchmarks/run.py                      # every row, modest sizes (1k bulk events)
    python benchmarks/run.py --full               # the issue's sizes: 10k events + 100k scale row
    python benchmarks/run.py --rows bulk by-round --events 10000
    python benchmarks/run.py --archive 15         # + out-of-core sf.recompute of 15 × 10k events

Rows (``--rows``): ``bulk`` (sf.standings vs DuckDB SQL, validation included), ``bulk-names``
(the same with each event's players named apart, as an archive of real events names them),
``by-round``
(sf.standings_by_round vs sf.standings), ``event-64`` / ``event-256`` (one event vs the
plain-Python Fraction loop), ``pokemon-64`` / ``pokemon-256`` / ``fide-64`` / ``fide-256``
(the same events' Pokémon and FIDE standings vs their plain-Python loops), ``js-64``
(one event vs tournament-organizer 4.1.1 under node: whole process, and the CPU of the
computation inside each process), ``import``
(``import swissframe`` vs ``import polars``, fresh processes), ``decklist``
(``sf.read_decklist_cache`` vs a gunzip + orjson floor), ``chart`` (``swissframe chart
standings`` vs ``swissframe standings`` on the same file, whole processes), ``pokemon``
(Pokémon standings vs MTG standings of the first 2,000 bulk events: what another game's
rules cost), ``tom`` / ``trf`` (``sf.read_tom`` / ``sf.read_trf`` of a season of small
files, one event each, vs a floor: parsing each file's XML safely, or reading each player
line's round blocks as fixed-column fields),
``scale`` (``--full`` only: 100k events, per-row time vs the bulk row).

Method: every row runs ours and the peer alternately (A B A B …) after one warm-up of each,
``--repeats`` pairs (default 5); a row reports both medians and the median of the pairwise
ratios ours / peer (so load drift hits both sides of a pair), and the 1-minute load average
(``os.getloadavg``) seen before each pair. In-process rows are timed
(wall and CPU) inside two worker processes, one per side, that load the data once and run
on request (``run.py serve ROW SIDE``), so the sides never share an interpreter, allocator
or thread pool (the scale row, whose two workers do not fit in memory together, starts a
fresh worker for each run, alone: load, warm-up, one timed call); each worker's peak RSS
is its ``VmHWM`` (with the RSS after loading the
data). Whole-process rows are timed from here and
their peak RSS read by ``/usr/bin/time`` (``%M``: Linux carries a parent's RSS high-water
mark into a child's ``ru_maxrss``, so this process's own ``wait4`` would over-report).
Before timing, every row checks that the two sides computed the same thing.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import gc
import gzip
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

import defusedxml.ElementTree as SafeET  # noqa: E402
import polars as pl  # noqa: E402
from gen import CACHE, cached, generate, one_event  # noqa: E402

import swissframe as sf  # noqa: E402

COLS = ["event_id", "player_id", "rank", "match_points", "wins", "losses", "draws", "byes",
        "rounds_played", "dropped", "mwp", "gwp", "omwp", "ogwp"]
#: The real-world decklist cache: ``shared/data/realworld/…`` in a folder above the checkout.
DECKLIST = next((d / "shared/data/realworld/fbettega_MTG_decklistcache" for d in ROOT.parents
                 if (d / "shared/data/realworld/fbettega_MTG_decklistcache").is_dir()),
                ROOT.parent / "shared/data/realworld/fbettega_MTG_decklistcache")
CHART_FILE = ROOT / "data" / "events" / "store-championship.csv"
JS_PEER = HERE / "js_peer"
#: The workers' and whole processes' environment. Without PYTHONDONTWRITEBYTECODE (set in
#: some shells): each whole-process row's warm-up run writes the bytecode of modules edited
#: since their last import, as an installed package has it, so the timed runs do not compile
#: them again (a stale cache once added 130 ms to every `import swissframe`).
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
#: MTG percentages without the 0.33 floor: what tournament-organizer computes.
NOFLOOR = dataclasses.replace(sf.rules.MTG, name="mtg-nofloor", floor=Fraction(0))
ALL_ROWS = ["bulk", "bulk-names", "by-round", "event-64", "event-256", "pokemon-64",
            "pokemon-256", "fide-64", "fide-256", "js-64", "import", "decklist", "chart",
            "pokemon", "tom", "trf", "scale"]
#: One-event rows (one ``one_event`` vs a ``python_peer`` loop): the row's name less its
#: size -> the ruleset; the size -> (players, Swiss rounds).
ONE_EVENT_RULES = {"event": "mtg", "pokemon": "pokemon", "fide": "fide"}
ONE_EVENT_SIZES = {"64": (64, 6), "256": (256, 8)}
#: Events of the ``pokemon`` row (the first of the bulk table).
POKEMON_EVENTS = 2_000
#: Files of the ``tom`` and ``trf`` rows (``season_files.py``: one event of 16-96 players
#: each, as a season of club events is kept).
SEASON_FILES = 1_000


def _decklist_dir() -> Path:
    return Path(os.environ.get("SWISSFRAME_DECKLIST_CACHE", DECKLIST))


# ---------------------------------------------------------------- correctness checks


def check_equal(ref: pl.DataFrame, other: pl.DataFrame, name: str, *, tol: float = 0.0,
                cols: Sequence[str] = COLS) -> float:
    """Assert identical standings rows on ``cols`` (ranks and integers exactly; floats
    within ``tol``); the largest float difference."""
    a = ref.select(cols).sort("event_id", "player_id")
    b = other.select(cols).sort("event_id", "player_id")
    if a.height != b.height:
        raise SystemExit(f"{name}: {b.height} rows, swissframe {a.height}")
    worst = 0.0
    for c in cols:
        if a[c].dtype == pl.Float64:
            both_null = a[c].is_null() & b[c].is_null()
            diff = (a[c] - b[c]).abs()
            if not (both_null | (diff <= tol)).fill_null(value=False).all():
                raise SystemExit(f"{name}: column {c} differs from swissframe")
            worst = max(worst, float(diff.max() or 0.0))  # type: ignore[arg-type]
        elif not (a[c] == b[c]).fill_null(value=False).all() and not a[c].equals(b[c]):
            bad = a.filter(a[c] != b[c]).head(3)
            raise SystemExit(f"{name}: column {c} differs from swissframe:\n{bad}")
    return worst


def check_rank_blocks(ref: pl.DataFrame, other: pl.DataFrame, name: str) -> int:
    """Assert that ``ref``'s ranks order ``other``'s: where ``other`` gives k players one
    rank r (a peer that cannot draw the final random order), ``ref`` gives them the ranks
    r … r + k − 1, one each; every other rank equal. The number of players in such
    blocks."""
    ranks = (ref.select("event_id", "player_id", "rank")
             .join(other.select("event_id", "player_id", pl.col("rank").alias("_peer")),
                   on=["event_id", "player_id"], how="full", coalesce=True))
    if ranks["rank"].null_count() or ranks["_peer"].null_count():
        raise SystemExit(f"{name}: not the same players as swissframe")
    blocks = ranks.group_by("event_id", "_peer").agg(
        pl.len().alias("k"), pl.col("rank").min().alias("lo"), pl.col("rank").max().alias("hi"),
        pl.col("rank").n_unique().alias("distinct"))
    bad = blocks.filter((pl.col("lo") != pl.col("_peer"))
                        | (pl.col("hi") != pl.col("_peer") + pl.col("k") - 1)
                        | (pl.col("distinct") != pl.col("k")))
    if bad.height:
        raise SystemExit(f"{name}: ranks differ from swissframe:\n{bad.head(5)}")
    return int(blocks.filter(pl.col("k") > 1)["k"].sum())


def check_last_round(df: pl.DataFrame, rules: str) -> int:
    """Assert that the last Swiss round of ``standings_by_round`` is ``standings``; the
    by-round table's height."""
    br = sf.standings_by_round(df, rules)
    last = df.filter(pl.col("phase") == "swiss").group_by("event_id").agg(
        pl.col("round").max().alias("last"))
    final = br.join(last, on="event_id").filter(pl.col("round") == pl.col("last"))
    check_equal(sf.standings(df, rules), final, "standings_by_round (last round)")
    return br.height


# ---------------------------------------------------------------- in-process workloads

Side = Callable[[], object]


def _bulk_frame(n: int) -> pl.DataFrame:
    return pl.read_parquet(cached(n, kind="uniform"))


def _named_apart(df: pl.DataFrame) -> pl.DataFrame:
    """The bulk events with each event's players named apart (``p12`` of ``ev000123`` is
    ``p12 of ev000123``), as real events name their players: 810k distinct ids instead of
    the generator's 160, and longer than the 12 bytes Polars keeps inline."""
    def named(c: str) -> pl.Expr:
        return (pl.col(c) + " of " + pl.col("event_id")).alias(c)

    return df.with_columns(named("player_id"), named("opponent_id"))


def _duck() -> Callable[[pl.DataFrame], pl.DataFrame]:
    import duckdb
    from duckdb_peer import standings_duckdb
    con = duckdb.connect()
    return lambda df: standings_duckdb(df, con)


def setup(row: str, args: argparse.Namespace, *, check: bool
          ) -> tuple[Side, Side, str, dict[str, Any]]:
    """(ours, peer, what the check found, facts about the workload) for an in-process row."""
    if row in ("bulk", "scale", "bulk-names"):
        n = args.scale_events if row == "scale" else args.events
        df = _bulk_frame(n)
        if row == "bulk-names":
            df = _named_apart(df)
        duck = _duck()
        note = "not checked here (the bulk row checks the same code)"
        if check:
            # the scale row checks its first 12,000 events (both sides on the whole 100k
            # table would not fit in RAM beside it), more rows than one batch of
            # swissframe's (_batches.BATCH_ROWS), so the batches are checked too
            part = df
            if row == "scale" and n > 12_000:
                first = df["event_id"].unique(maintain_order=True).head(12_000)
                part = df.filter(pl.col("event_id").is_in(first.implode()))
            check_equal(sf.standings(part, "mtg"), duck(part), "duckdb_sql")
            note = f"DuckDB identical on every column of {part['event_id'].n_unique():,} events"
        return (lambda: sf.standings(df, "mtg"), lambda: duck(df), note,
                {"events": n, "rows": df.height})
    if row == "by-round":
        df = _bulk_frame(args.events)
        note = ""
        if check:
            n_rows = check_last_round(df, "mtg")
            note = (f"last round of {n_rows:,} (round, player) rows identical to "
                    "sf.standings")
        return (lambda: sf.standings_by_round(df, "mtg"), lambda: sf.standings(df, "mtg"),
                note, {"events": args.events, "rows": df.height})
    if row == "pokemon":
        # another game's rules on the same events: what Pokémon's drop-round snapshot,
        # OOMW% and head-to-head cost beyond MTG's standings
        df = _bulk_frame(max(args.events, POKEMON_EVENTS))
        first = df["event_id"].unique(maintain_order=True).head(POKEMON_EVENTS)
        df = df.filter(pl.col("event_id").is_in(first.implode()))
        note = ""
        if check:
            n_rows = check_last_round(df, "pokemon")
            note = ("Pokémon standings identical to the last round of its "
                    f"standings_by_round ({n_rows:,} rows)")
        return (lambda: sf.standings(df, "pokemon"), lambda: sf.standings(df, "mtg"), note,
                {"events": first.len(), "rows": df.height})
    if row.rsplit("-", 1)[0] in ONE_EVENT_RULES:
        import python_peer
        game, size = row.rsplit("-", 1)
        rules = ONE_EVENT_RULES[game]
        peer_fn = {"mtg": python_peer.standings_python,
                   "pokemon": python_peer.standings_python_pokemon,
                   "fide": python_peer.standings_python_fide}[rules]
        players, rounds = ONE_EVENT_SIZES[size]
        ev = one_event(players, rounds, seed=1)
        note = ""
        if check:
            note = _check_one_event(sf.standings(ev, rules), peer_fn(ev), rules)
        return (lambda: sf.standings(ev, rules), lambda: peer_fn(ev), note,
                {"events": 1, "rows": ev.height, "players": players, "rounds": rounds})
    if row == "decklist":
        import orjson
        root = _decklist_dir()
        files = sorted(root.rglob("*.json.gz")) + sorted(root.rglob("*.json"))

        def floor() -> int:
            n = 0
            for f in files:
                doc = orjson.loads(gzip.decompress(f.read_bytes()) if f.suffix == ".gz"
                                   else f.read_bytes())
                n += sum(len(r.get("Matches") or []) for r in doc.get("Rounds") or [])
            return n

        note = ""
        if check:
            got = sf.read_decklist_cache(root)
            matches = floor()
            note = (f"{len(files):,} files: ours {got.events.height:,} events, "
                    f"{got.results.height:,} result rows; floor parsed {matches:,} matches")
        return (lambda: sf.read_decklist_cache(root), floor, note,
                {"events": len(files), "rows": 0})
    if row in ("tom", "trf"):
        from season_files import season
        files = sorted((season(SEASON_FILES) / row).iterdir())
        read = sf.read_tom if row == "tom" else sf.read_trf

        def floor() -> int:
            # (the least any reader does: each file parsed as the format is, safely for
            # XML, and its results counted — no checks, no table)
            n = 0
            for f in files:
                if row == "tom":
                    root = SafeET.fromstring(f.read_bytes(), forbid_dtd=True,
                                             forbid_entities=True, forbid_external=True)
                    n += sum(1 for _ in root.iter("match"))
                else:  # each player line's start number and round blocks read as fields
                    for line in f.read_bytes().decode("utf-8").splitlines():
                        if not line.startswith("001"):
                            continue
                        int(line[4:8])
                        for at in range(91, len(line), 10):
                            block = line[at:at + 8]
                            if block[7:8].strip():
                                n += 1
                                int(block[:4])
                                _ = block[5:6] in "wb-"
            return n

        note = ""
        if check:
            got = read(files)
            note = (f"{len(files):,} files: ours {got.results.height:,} result rows of "
                    f"{got.players.height:,} players; the floor counted {floor():,} "
                    f"{'matches' if row == 'tom' else 'round blocks'}")
        return (lambda: read(files), floor, note, {"events": len(files), "rows": 0})
    raise SystemExit(f"unknown in-process row {row!r}")


def _check_one_event(ours: pl.DataFrame, peer: pl.DataFrame, rules: str) -> str:
    """What :func:`setup`'s check of a one-event row found (it stops the run on any
    difference). MTG: the standings columns. Pokémon and FIDE: every column of
    ``sf.standings`` but Pokémon's ``random`` (a seeded hash the peer does not draw);
    ranks equal, except that players the peer leaves tied on every other criterion (only
    the random order separates them) take swissframe's ranks of their block."""
    if rules == "mtg":
        worst = check_equal(ours, peer, "pure_python", tol=1e-12)
        return f"Fraction loop: same ranks and integers, floats within {worst:.0e}"
    lot = "random" in ours.columns
    cols = [c for c in ours.columns if c != "random"]
    name = f"python_peer {rules}"
    worst = check_equal(ours, peer, name, tol=1e-12,
                        cols=[c for c in cols if c != "rank"] if lot else cols)
    tied = check_rank_blocks(ours, peer, name) if lot else 0
    ranks = (f"; ranks equal but {tied} players tied before the random order (ours ranks "
             "them within their block)" if tied else "; ranks equal")
    return (f"{rules} loop: every column{' but random' if lot else ''} equal, floats within "
            f"{worst:.0e}{ranks}")


def _rss_mib() -> float:
    """This process's peak RSS (VmHWM: reset at exec, unlike ru_maxrss)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def serve(row: str, side: str, args: argparse.Namespace) -> None:
    """A measuring worker: load one side of ``row`` once, then on each stdin line ``run``
    time one call (wall and CPU seconds) and on ``rss`` report the peak RSS; JSON lines."""
    ours, peer, _, _ = setup(row, args, check=False)
    fn = ours if side == "ours" else peer
    print(json.dumps({"rss_base_mib": _rss_mib()}), flush=True)
    for line in sys.stdin:
        if line.strip() == "run":
            c, t = time.process_time(), time.perf_counter()
            fn()
            print(json.dumps({"wall": time.perf_counter() - t,
                              "cpu": time.process_time() - c}), flush=True)
        elif line.strip() == "rss":
            kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            print(json.dumps({"rss_peak_mib": _rss_mib(), "children_peak_mib": kids}),
                  flush=True)


class Worker:
    """One side of an in-process row in its own process (``run.py serve ROW SIDE``): the two
    sides never share an interpreter, allocator or thread pool, and each has its own RSS."""

    def __init__(self, row: str, side: str, args: argparse.Namespace) -> None:
        cmd = [sys.executable, __file__, "serve", row, side, "--events", str(args.events),
               "--scale-events", str(args.scale_events)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=ENV)
        self.ready = self._read()

    def _read(self) -> dict[str, float]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"worker {self.proc.args} died")
        return json.loads(line)  # type: ignore[no-any-return]

    def ask(self, what: str) -> dict[str, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(what + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def alternate_fresh(row: str, args: argparse.Namespace, repeats: int) -> dict[str, Any]:
    """:func:`alternate` for a row whose two workers do not fit in memory together (the
    scale row: ours ≈ 6 GiB, DuckDB ≈ 18 GiB at 100,000 events): each run is a fresh
    worker, alone, that loads the data, makes one warm-up call and one timed call. The
    peak RSS is the largest of a side's workers."""
    res: dict[str, Any] = {k: [] for k in ("ours", "peer", "ours_cpu", "peer_cpu", "load")}
    rss: dict[str, dict[str, float]] = {}
    for _ in range(repeats):
        res["load"].append(os.getloadavg()[0])
        for side in ("ours", "peer"):
            w = Worker(row, side, args)
            try:
                w.ask("run")
                r = w.ask("run")
                peak = {**w.ready, **w.ask("rss")}
            finally:
                w.close()
            res[side].append(r["wall"])
            res[f"{side}_cpu"].append(r["cpu"])
            if peak["rss_peak_mib"] >= rss.get(side, {}).get("rss_peak_mib", 0.0):
                rss[side] = peak
    for side in ("ours", "peer"):
        res[f"{side}_rss"] = rss[side]
    return res


def alternate(row: str, args: argparse.Namespace, repeats: int) -> dict[str, Any]:
    """Both sides' workers, one warm-up each, then ``repeats`` pairs ours, peer; wall and
    CPU seconds per run, the load before each pair, each worker's RSS."""
    if row == "scale":
        return alternate_fresh(row, args, repeats)
    workers = {}
    try:
        for side in ("ours", "peer"):  # one after the other: loading does not overlap
            workers[side] = Worker(row, side, args)
        for w in workers.values():
            w.ask("run")
        res: dict[str, Any] = {k: [] for k in ("ours", "peer", "ours_cpu", "peer_cpu", "load")}
        for _ in range(repeats):
            res["load"].append(os.getloadavg()[0])
            for side, w in workers.items():
                r = w.ask("run")
                res[side].append(r["wall"])
                res[f"{side}_cpu"].append(r["cpu"])
        for side, w in workers.items():
            res[f"{side}_rss"] = {**w.ready, **w.ask("rss")}
        return res
    finally:
        for w in workers.values():
            w.close()


# ---------------------------------------------------------------- whole-process workloads

TIME = shutil.which("time", path="/usr/bin:/bin")


def run_process(cmd: list[str], cwd: Path) -> dict[str, Any]:
    """One whole process: wall and CPU seconds, peak RSS (MiB) and its stdout."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf, \
            tempfile.TemporaryFile("w+") as out:
        full = [TIME, "-f", "%M", "-o", tf.name, *cmd] if TIME else cmd
        t = time.perf_counter()
        p = subprocess.Popen(full, cwd=cwd, env=ENV, stdout=out, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"failed ({status}): {' '.join(cmd)}")
        rss = (float(tf.read().split()[-1]) / 1024 if TIME else ru.ru_maxrss / 1024)
        out.seek(0)
        return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss": rss, "out": out.read()}


def alternate_processes(ours: list[str], peer: list[str], repeats: int, cwd: Path
                        ) -> dict[str, list[Any]]:
    run_process(ours, cwd)
    run_process(peer, cwd)
    res: dict[str, list[Any]] = {"ours_runs": [], "peer_runs": [], "load": []}
    for _ in range(repeats):
        res["load"].append(os.getloadavg()[0])
        res["ours_runs"].append(run_process(ours, cwd))
        res["peer_runs"].append(run_process(peer, cwd))
    return res


def _event_json(path: Path) -> pl.DataFrame:
    """The 64-player, 6-round event (first seed without a rematch: tournament-organizer
    counts a repeated opponent once, MTR and swissframe twice) in match form."""
    for seed in range(100):
        ev = one_event(64, 6, seed=seed)
        paired = ev.filter(pl.col("opponent_id").is_not_null())
        if paired.select("player_id", "opponent_id").is_duplicated().any():
            continue
        m = ev.filter(pl.col("opponent_id").is_null()
                      | (pl.col("player_id") < pl.col("opponent_id"))).sort("round", "player_id")
        path.write_text(json.dumps({
            "name": f"ev64-s{seed}", "rounds": 6,
            "players": sorted(ev["player_id"].unique().to_list()),
            "matches": [{"round": r["round"], "a": r["player_id"], "b": r["opponent_id"],
                         "ga": r["games_won"], "gb": r["games_lost"], "gd": r["games_drawn"]}
                        for r in m.iter_rows(named=True)]}))
        return ev
    raise SystemExit("no rematch-free seed")


def _compare_js(ours_out: str, peer_out: str) -> str:
    a = {r["player_id"]: r for r in json.loads(ours_out)["rows"]}
    b = {r["player_id"]: r for r in json.loads(peer_out)["rows"]}
    if a.keys() != b.keys():
        raise SystemExit("js-64: different players")
    worst = 0.0
    for pid, r in a.items():
        for c in ("match_points", "mwp", "gwp", "omwp", "ogwp"):
            d = abs(float(r[c] or 0.0) - float(b[pid][c] or 0.0))
            if d > 1e-12:
                raise SystemExit(f"js-64: {pid} {c}: swissframe {r[c]}, tournament-organizer "
                                 f"{b[pid][c]}")
            worst = max(worst, d)
    return f"{len(a)} players: points, MW%, GW%, OMW%, OGW% equal within {worst:.0e}"


def process_row(row: str, args: argparse.Namespace) -> dict[str, Any] | str:
    """A whole-process row, or the reason it is skipped."""
    py = sys.executable
    cli = str(Path(py).parent / "swissframe")
    tmp = CACHE / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    extra: dict[str, Any] = {}
    if row == "import":
        ours, peer = [py, "-c", "import swissframe"], [py, "-c", "import polars"]
        labels = ("import swissframe", "import polars")
        note = "fresh interpreters, same venv"
    elif row == "chart":
        png = tmp / "chart.png"
        ours = [cli, "chart", "standings", str(CHART_FILE), "-o", str(png)]
        peer = [cli, "standings", str(CHART_FILE)]
        labels = ("swissframe chart standings FILE -o x.png", "swissframe standings FILE")
        png.unlink(missing_ok=True)
        run_process(ours, ROOT)
        if not png.exists() or png.stat().st_size == 0:
            raise SystemExit("chart: no PNG written")
        note = f"{CHART_FILE.name}: PNG written ({png.stat().st_size:,} bytes)"
    elif row == "js-64":
        node, npm = shutil.which("node"), shutil.which("npm")
        if not node or not npm:
            return "skipped: node / npm not on PATH"
        if not (JS_PEER / "node_modules" / "tournament-organizer").is_dir():
            r = subprocess.run([npm, "install", "--no-audit", "--no-fund"], cwd=JS_PEER,
                               check=False, capture_output=True, text=True)
            if r.returncode:
                return f"skipped: npm install failed: {r.stderr.strip()[-200:]}"
        event = tmp / "event64.json"
        ev = _event_json(event)
        extra = {"rows": ev.height}
        ours = [py, str(HERE / "one_event.py"), str(event)]
        peer = [node, str(JS_PEER / "standings.mjs"), str(event)]
        labels = ("sf.standings (python process)", "tournament-organizer 4.1.1 (node)")
        note = _compare_js(run_process(ours, ROOT)["out"], run_process(peer, ROOT)["out"])
    else:
        raise SystemExit(f"unknown process row {row!r}")
    res = alternate_processes(ours, peer, args.repeats, ROOT)
    out: dict[str, Any] = {"row": row, "ours": labels[0], "peer": labels[1], "check": note,
                           "kind": "process", "load": res["load"], **extra}
    for side in ("ours", "peer"):
        runs = res[f"{side}_runs"]
        out[side + "_s"] = [r["wall"] for r in runs]
        out[side + "_cpu_s"] = [r["cpu"] for r in runs]
        out[side + "_rss"] = statistics.median(r["rss"] for r in runs)
        if row == "js-64":
            docs = [json.loads(r["out"]) for r in runs]
            for k in ("cold_cpu_ms", "warm_cpu_ms", "load_cpu_ms"):
                out[f"{side}_{k}"] = statistics.median(d[k] for d in docs)
    return out


# ---------------------------------------------------------------- driver


def inproc_row(row: str, args: argparse.Namespace) -> dict[str, Any] | str:
    if row == "decklist" and not _decklist_dir().is_dir():
        return f"skipped: {DECKLIST} not found"
    labels = {
        "bulk": ("sf.standings", "DuckDB SQL"),
        "bulk-names": ("sf.standings", "DuckDB SQL"),
        "scale": ("sf.standings", "DuckDB SQL"),
        "by-round": ("sf.standings_by_round", "sf.standings"),
        "event-64": ("sf.standings", "Fraction loop"),
        "event-256": ("sf.standings", "Fraction loop"),
        "pokemon-64": ('sf.standings(…, "pokemon")', "Pokémon Fraction loop"),
        "pokemon-256": ('sf.standings(…, "pokemon")', "Pokémon Fraction loop"),
        "fide-64": ('sf.standings(…, "fide")', "FIDE half-point loop"),
        "fide-256": ('sf.standings(…, "fide")', "FIDE half-point loop"),
        "decklist": ("sf.read_decklist_cache", "gunzip + orjson floor"),
        "pokemon": ('sf.standings(…, "pokemon")', 'sf.standings(…, "mtg")'),
        "tom": ("sf.read_tom", "defusedxml parse floor"),
        "trf": ("sf.read_trf", "fixed-column parse floor"),
    }[row]
    ours, peer, note, facts = setup(row, args, check=True)
    del ours, peer  # the check ran here; the timed runs are in the workers
    gc.collect()
    repeats = args.large_repeats if row == "scale" else args.repeats
    res = alternate(row, args, repeats)
    iso = {side: res[f"{side}_rss"] for side in ("ours", "peer")}
    out = {"row": row, "ours": labels[0], "peer": labels[1], "check": note, "kind": "inproc",
           "load": res["load"], **facts}
    for side in ("ours", "peer"):
        out[side + "_s"] = res[side]
        out[side + "_cpu_s"] = res[side + "_cpu"]
        out[side + "_rss"] = iso[side]["rss_peak_mib"]
        out[side + "_rss_base"] = iso[side]["rss_base_mib"]
        out[side + "_children_rss"] = iso[side]["children_peak_mib"]
    return out


def ratio(r: dict[str, Any]) -> float:
    return statistics.median(a / b for a, b in zip(r["ours_s"], r["peer_s"], strict=True))


def _fmt_s(x: float) -> str:
    return f"{x * 1e3:.1f} ms" if x < 1 else f"{x:.2f} s"


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| row | workload | ours | peer | ours median | peer median | ours / peer "
             "(median of pairs) | peak RSS MiB ours / peer | load (1 min) | check |",
             "|---|---|---|---|---:|---:|---:|---:|---|---|"]
    bulk = next((r for r in rows if r["row"] == "bulk"), None)
    for r in rows:
        o, p = statistics.median(r["ours_s"]), statistics.median(r["peer_s"])
        work = {"bulk": f"{r.get('events', 0):,} events, {r.get('rows', 0):,} rows",
                "bulk-names": f"{r.get('events', 0):,} events, {r.get('rows', 0):,} rows, "
                              "players named apart",
                "scale": f"{r.get('events', 0):,} events, {r.get('rows', 0):,} rows",
                "by-round": f"{r.get('events', 0):,} events, {r.get('rows', 0):,} rows",
                "event-64": f"64 players, 6 rounds ({r.get('rows', 0)} rows)",
                "event-256": f"256 players, 8 rounds ({r.get('rows', 0)} rows)",
                "pokemon-64": f"64 players, 6 rounds ({r.get('rows', 0)} rows)",
                "pokemon-256": f"256 players, 8 rounds ({r.get('rows', 0)} rows)",
                "fide-64": f"64 players, 6 rounds ({r.get('rows', 0)} rows)",
                "fide-256": f"256 players, 8 rounds ({r.get('rows', 0)} rows)",
                "js-64": f"64 players, 6 rounds ({r.get('rows', 0)} rows), whole process",
                "import": "fresh process",
                "decklist": f"{r.get('events', 0):,} files",
                "tom": f"{r.get('events', 0):,} TOM files (16-96 players)",
                "trf": f"{r.get('events', 0):,} TRF files (16-96 players)",
                "pokemon": f"{r.get('events', 0):,} events, {r.get('rows', 0):,} rows",
                "chart": "whole process"}[r["row"]]
        rss = f"{r['ours_rss']:.0f} / {r['peer_rss']:.0f}"
        if r["kind"] == "inproc":
            rss += f" (data {r['ours_rss_base']:.0f})"
        if r.get("ours_children_rss"):
            rss += f"; largest worker {r['ours_children_rss']:.0f}"
        loads = r["load"]
        extra = ""
        if r["row"] == "import":
            extra = f"; +{(o - p) * 1e3:.0f} ms"
        if r["row"] == "scale" and bulk:
            per = o / r["rows"] / (statistics.median(bulk["ours_s"]) / bulk["rows"])
            extra = f"; per row {per:.2f}× the bulk row"
        lines.append(
            f"| {r['row']} | {work} | {r['ours']} | {r['peer']} | {_fmt_s(o)} | {_fmt_s(p)} | "
            f"**{ratio(r):.2f}×**{extra} | {rss} | {min(loads):.1f}–{max(loads):.1f} | "
            f"{r['check']} |")
        if r["row"] == "js-64":
            lines.append(
                f"| js-64 (in-process CPU) | the same event, CPU of the computation inside each "
                f"process | sf.standings | getStandings() | cold {r['ours_cold_cpu_ms']:.1f} ms, "
                f"warm {r['ours_warm_cpu_ms']:.1f} ms | cold {r['peer_cold_cpu_ms']:.1f} ms, "
                f"warm {r['peer_warm_cpu_ms']:.1f} ms | **warm "
                f"{r['ours_warm_cpu_ms'] / r['peer_warm_cpu_ms']:.2f}×**, cold "
                f"{r['ours_cold_cpu_ms'] / r['peer_cold_cpu_ms']:.2f}× | | | load (JSON → "
                f"input): ours {r['ours_load_cpu_ms']:.1f} ms, peer "
                f"{r['peer_load_cpu_ms']:.1f} ms |")
    return "\n".join(lines)


def recompute_row(n_files: int) -> str:
    """The out-of-core run (no peer): ``n_files`` Parquet files of 10k archive-like events."""
    archive = CACHE / "archive"
    archive.mkdir(parents=True, exist_ok=True)
    files = []
    for i in range(n_files):
        p = archive / f"season-{i:03d}.parquet"
        if not p.exists():
            generate(10_000, seed=1000 + i).with_columns(
                (pl.lit(f"s{i:03d}-") + pl.col("event_id")).alias("event_id")
            ).write_parquet(p.with_suffix(".tmp"), row_group_size=256_000)
            p.with_suffix(".tmp").replace(p)
        files.append(str(p))
    out = CACHE / "archive_out"
    shutil.rmtree(out, ignore_errors=True)
    code = ("import sys, swissframe as sf; sf.recompute(sys.argv[2:], sys.argv[1], 'mtg', "
            "batch_rows=2_000_000)")
    r = run_process([sys.executable, "-c", code, str(out), *files], ROOT)
    return (f"sf.recompute of {n_files} files (out-of-core): {r['wall']:.1f} s, "
            f"peak RSS {r['rss']:.0f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", nargs="*", default=None, choices=ALL_ROWS)
    ap.add_argument("--full", action="store_true",
                    help="the issue's sizes: 10,000 bulk events and the 100,000-event scale row")
    ap.add_argument("--events", type=int, default=None, help="bulk events (default 1,000)")
    ap.add_argument("--scale-events", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--large-repeats", type=int, default=3, help="pairs in the scale row")
    ap.add_argument("--archive", type=int, default=0, metavar="FILES",
                    help="also run sf.recompute on FILES × 10k events (out-of-core)")
    ap.add_argument("--json", type=Path, default=CACHE / "results.json")
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        ap.add_argument("serve", choices=["serve"])
        ap.add_argument("row")
        ap.add_argument("side", choices=["ours", "peer"])
        args = ap.parse_args()
        serve(args.row, args.side, args)
        return
    ap.add_argument("--table", type=Path, default=None, metavar="JSON",
                    help="only print the table of an earlier run's JSON")
    args = ap.parse_args()
    if args.table:
        print(table(json.loads(args.table.read_text())))
        return
    if args.events is None:
        args.events = 10_000 if args.full else 1_000
    rows_wanted = args.rows or [r for r in ALL_ROWS if r != "scale" or args.full]
    import duckdb
    load = os.getloadavg()
    print(f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC; {platform.machine()}, "
          f"{os.cpu_count()} CPUs; load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
          f"python {platform.python_version()}; polars {pl.__version__}; "
          f"duckdb {duckdb.__version__}; swissframe {sf.__version__}; "
          f"git {_git_head()}", flush=True)
    results: list[dict[str, Any]] = []
    for row in rows_wanted:
        t = time.perf_counter()
        r = (process_row(row, args) if row in ("js-64", "import", "chart")
             else inproc_row(row, args))
        if isinstance(r, str):
            print(f"{row}: {r}", flush=True)
            continue
        results.append(r)
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1))  # after every row: a stopped run
        print(f"{row}: ours {_fmt_s(statistics.median(r['ours_s']))}, peer "
              f"{_fmt_s(statistics.median(r['peer_s']))}, ratio {ratio(r):.2f}× "
              f"({time.perf_counter() - t:.0f} s; {r['check']})", flush=True)
    extra = recompute_row(args.archive) if args.archive else ""
    print()
    print(table(results))
    if extra:
        print(extra)


def _git_head() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=False,
                       capture_output=True,
                       text=True)
    return r.stdout.strip() or "?"


if __name__ == "__main__":
    main()
