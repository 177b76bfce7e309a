"""``swissframe recompute SRC -o DEST``: standings of a whole Parquet archive, batch by batch.

Shows a progress bar (events done / total, rate, ETA) unless ``--quiet``, then prints the
row accounting (rows in = used + rejected, with reasons), which is also saved as
``DEST/_recompute.json``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import polars as pl

from swissframe.cli._common import (
    add_quiet,
    add_rules,
    counting,
    done,
    note,
    positive_int,
    reading,
    show_progress,
    working,
)
from swissframe.cli._common import (
    progress as progress_bar,  # (run's own progress(n) feeds it)
)
from swissframe.errors import DataWarning
from swissframe.io._files import NO_RESULTS, NO_RESULTS_HINT, Source, expand, read, resolved
from swissframe.rules._infer import DEFAULT, RULESET_COLUMN, by_ruleset, describe

if TYPE_CHECKING:  # (the archive recomputation and tqdm load when the command runs: the
    # parser imports every command module, and every command paid for them)
    from swissframe.bulk import Engine

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``recompute`` subcommand.

    Examples
    --------
    >>> p = argparse.ArgumentParser(); sub = p.add_subparsers()
    >>> add_parser(sub)
    >>> a = p.parse_args(["recompute", "archive/", "-o", "out", "--on-error", "skip"])
    >>> a.source, a.output, a.on_error, a.workers, a.engine
    ('archive/', 'out', 'skip', 1, 'polars')
    """
    p = subparsers.add_parser(
        "recompute", help="recompute standings of a Parquet archive (out-of-core, distributed)",
        description="Read a Parquet results archive (file, folder or glob) in batches of "
                    "events and write standings as a Parquet dataset, with row accounting.")
    p.add_argument("source", help="Parquet file, folder (recursive) or glob; other formats "
                   "(CSV, decklist JSON, TOM, TRF) are read whole first")
    p.add_argument("-o", "--output", required=True, help="output folder (Parquet dataset)")
    add_rules(p, what="the ruleset")
    p.add_argument("--workers", type=positive_int, default=1, metavar="N",
                   help="batches in parallel (polars) or local Dask workers (dask)")
    p.add_argument("--engine", choices=["polars", "dask"], default="polars",
                   help="run batches with Polars in processes (default) or on Dask")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler address, e.g. tcp://host:8786 (implies --engine dask)")
    p.add_argument("--on-error", choices=["stop", "skip"], default="stop",
                   help="invalid events: stop with the report (default) or skip and report")
    p.add_argument("--batch-rows", type=positive_int, default=2_000_000, metavar="N",
                   help="rows per batch (bounds memory; default 2,000,000)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace what an earlier run left in the output folder")
    p.add_argument("--resume", action="store_true",
                   help="finish an interrupted run (same inputs and settings): keep the "
                        "batches it finished, compute the rest")
    add_quiet(p)
    p.set_defaults(func=run)


def hive_folder(column: str, value: str) -> str:
    """The folder of a Hive partition ``column=value``, the value percent-encoded as Hive
    writes it (and Polars and pyarrow read it back): a ``/`` in a ruleset's name
    (``mtg-1/3``) is no folder of its own, and no value is ``.`` or ``..``.

    >>> hive_folder("ruleset", "mtg-1/3"), hive_folder("ruleset", "..")
    ('ruleset=mtg-1%2F3', 'ruleset=%2E%2E')
    """
    return f"{column}={quote(value, safe='').replace('.', '%2E')}"


def datasets(src: Source, rules: str | None) -> list[tuple[str, pl.DataFrame, int]]:
    """The datasets a read is recomputed as: ``(ruleset, rows, events with no round
    played)``, one under ``rules`` (``--rules``), else one per ruleset its events call for.

    The events read say which (:attr:`~swissframe.io._files.Source.events`), not the rows:
    an event with no round played has none, and was counted nowhere ("events: 0 in",
    bad data 150). Such an event is counted in its ruleset's dataset, which has no rows
    when no other event calls for that ruleset (a TRF saved before round 1: a
    ``fide-2026`` dataset of one event and no standings).

    >>> import swissframe as sf
    >>> src = sf.read(["data/events/store-championship.csv", "tests/fixtures/tom/all_codes.tdf"])
    >>> [(name, rows.height, unplayed) for name, rows, unplayed in datasets(src, None)]
    [('mtg', 34, 0), ('pokemon', 25, 0)]
    >>> [(name, rows.height, unplayed) for name, rows, unplayed in datasets(src, "mtg")]
    [('mtg', 59, 0)]
    """
    played = src.results["event_id"].unique()
    unplayed = (src.events.unique("event_id", keep="first")
                .filter(~pl.col("event_id").is_in(played.implode()))
                .get_column(RULESET_COLUMN).fill_null(DEFAULT).value_counts())
    counts = dict(unplayed.iter_rows())
    if rules:
        return [(rules, src.results, sum(counts.values()))]
    parts = ({str(n): rows.lazy().collect() for n, rows in by_ruleset(src.results)}
             if src.results.height else {})
    return [(n, parts.get(n, src.results.clear()), int(counts.get(n, 0)))
            for n in sorted(set(parts) | set(counts)) or [DEFAULT]]


def run(args: argparse.Namespace) -> int:
    """Run ``recompute``; returns the exit code (0 ok). Errors propagate to the CLI shell.

    Examples
    --------
    >>> import tempfile, polars as pl
    >>> d = tempfile.mkdtemp()
    >>> pl.DataFrame({"event_id": ["e"], "round": [1], "player_id": ["a"],
    ...     "opponent_id": [None], "games_won": [2], "games_lost": [0],
    ...     "games_drawn": [0]}).write_parquet(f"{d}/a.parquet")
    >>> ns = argparse.Namespace(source=d, output=f"{d}/out", rules="mtg", workers=1,
    ...     engine="polars", scheduler=None, on_error="stop", batch_rows=1000,
    ...     overwrite=False, resume=False, quiet=True)
    >>> run(ns)
    0
    """

    from swissframe.bulk import SCRATCH_PREFIX, clean_scratch, in_output, recompute

    bar: Any = None
    engine: Engine = "dask" if args.scheduler or args.engine == "dask" else "polars"

    def progress(n: int) -> None:
        if bar is not None:
            bar.update(n)

    def on_plan(total: int) -> None:
        if bar is not None:  # (each dataset's events after those of the ones done)
            bar.total = bar.n + total
            bar.refresh()

    scratch = None
    origin: list[str] | None = None
    jobs = [(args.source, args.rules or DEFAULT, Path(args.output), 0)]
    found, _ = expand(args.source)
    found = [(f, k) for f, k in found if not in_output(f, args.output)]
    line = (f"rules: {args.rules} (from --rules)" if args.rules
            else f"rules: {DEFAULT} (a Parquet archive names no game; --rules to override)")
    if any(k != "table" or not f.name.lower().endswith((".parquet", ".pq")) for f, k in found):
        # not a Parquet archive: read it whole through the one reader, recompute from Parquet;
        # events calling for different rulesets go to one dataset each, OUT/ruleset=NAME/
        with working(args, reading([args.source])):  # (the progress line every command
            # shows while it reads: a folder's files counted)
            src = read([f for f, _ in found])
        # what --resume compares: the files read, not their conversion (new every run)
        origin = sorted(str(resolved(f)) for f, _ in found)
        # the converted inputs: named like recompute's own scratch (process id first), so
        # the next run removes them if this process is killed
        clean_scratch(Path(tempfile.gettempdir()))
        scratch = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-"))
    try:
        if scratch is not None:
            groups = datasets(src, args.rules)
            jobs = []
            for i, (name, rows, unplayed) in enumerate(groups):
                # (a folder per ruleset: numbered in the scratch, named in the output as a
                # Hive partition, percent-encoded — "mtg-1/3" was two folders, the first
                # never made: "…/mtg-1/3: No such file or directory")
                (scratch / str(i)).mkdir()
                rows.lazy().drop("source_file", "ruleset").collect().write_parquet(
                    scratch / str(i) / "results.parquet")
                dest = (Path(args.output) if len(groups) == 1
                        else Path(args.output) / hive_folder("ruleset", name))
                jobs.append((str(scratch / str(i)), name, dest, unplayed))
            line = describe(src.events, args.rules)
        note(args, line)
        # (the bar after the conversion: an input that cannot be read leaves no bar behind)
        if show_progress(args):
            bar = progress_bar(args, total=None, unit="event", desc="recompute",
                               bar_format=counting("event"))
        rows_in = 0
        for source, rules, dest, unplayed in jobs:
            report = recompute(source, dest, rules, engine=engine,
                               workers=args.workers, on_error=args.on_error,
                               batch_rows=args.batch_rows, overwrite=args.overwrite,
                               resume=args.resume,
                               scheduler=args.scheduler, progress=progress, on_plan=on_plan,
                               origin=origin, unplayed=unplayed)
            rows_in += report.rows_in
            if len(jobs) > 1:
                done(args, f"{dest}:\n{report.summary()}")
    finally:
        if bar is not None:
            bar.close()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    if len(jobs) == 1:
        done(args, report.summary())
    if not rows_in:  # (as standings says it: bad data 146)
        warnings.warn(f"{NO_RESULTS}: the output has no standings. {NO_RESULTS_HINT}",
                      DataWarning, stacklevel=2)
    return 0
