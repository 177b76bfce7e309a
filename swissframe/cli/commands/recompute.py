"""``swissframe recompute SRC -o DEST``: standings of a whole Parquet archive, batch by batch.

Shows a progress bar (events done / total, rate, ETA) unless ``--quiet``, then prints the
row accounting (rows in = used + rejected, with reasons), which is also saved as
``DEST/_recompute.json``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tqdm import tqdm

from swissframe.bulk import Engine, recompute
from swissframe.cli._common import add_quiet, add_rules, positive_int, show_progress

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
    p.add_argument("source", help="Parquet file, folder (recursive) or glob")
    p.add_argument("-o", "--output", required=True, help="output folder (Parquet dataset)")
    add_rules(p)
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
    p.add_argument("--overwrite", action="store_true", help="replace existing part files")
    add_quiet(p)
    p.set_defaults(func=run)


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
    ...     overwrite=False, quiet=True)
    >>> run(ns)
    0
    """
    bar: Any = None
    engine: Engine = "dask" if args.scheduler or args.engine == "dask" else "polars"

    def progress(n: int) -> None:
        if bar is not None:
            bar.update(n)

    def on_plan(total: int) -> None:
        if bar is not None:
            bar.total = total
            bar.refresh()

    if show_progress(args):
        bar = tqdm(total=None, unit="event", desc="recompute", file=sys.stderr, leave=False)
    try:
        report = recompute(args.source, args.output, args.rules, engine=engine,
                           workers=args.workers, on_error=args.on_error,
                           batch_rows=args.batch_rows, overwrite=args.overwrite,
                           scheduler=args.scheduler, progress=progress, on_plan=on_plan)
    finally:
        if bar is not None:
            bar.close()
    if not args.quiet:
        print(report.summary())
    return 0
