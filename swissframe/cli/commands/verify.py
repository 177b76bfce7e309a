"""``swissframe verify PATHS… [-o OUT]``: agreement with published standings per source/era.

The per-player table goes to ``-o`` in the format of its suffix (``.csv``, ``.parquet``,
``.json``, ``.xlsx`` …; see :mod:`swissframe.cli._common`).
"""

from __future__ import annotations

import argparse
import sys
import time

import polars as pl

from swissframe._display import count, fill
from swissframe.cli._common import (
    add_quiet,
    done,
    output_format,
    positive_int,
    reading,
    render_table,
    terminal_width,
    working,
    write_frame,
)
from swissframe.errors import SwissframeError
from swissframe.io._files import read
from swissframe.verify.published import matching_rounds, summarize, verify

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``verify`` subcommand.

    Examples
    --------
    >>> p = argparse.ArgumentParser(); sub = p.add_subparsers()
    >>> add_parser(sub)
    >>> p.parse_args(["verify", "a.json", "-o", "out.csv"]).output
    'out.csv'
    """
    p = subparsers.add_parser(
        "verify", help="recompute published OMW%%/GW%%/OGW%% of decklist-cache events",
        description="Read decklist-cache files (.json/.json.gz, folders, globs), recompute "
                    "each player's tiebreakers under the platform's rules and print the "
                    "agreement per source and era.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="decklist-cache files, folders or glob patterns")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write the per-player table here; the suffix chooses the format "
                        "(.csv, .tsv, .parquet, .json, .ndjson, .xlsx)")
    p.add_argument("--rules", metavar="NAME",
                   help="one ruleset for every event: a preset from 'swissframe rules' "
                        "(default: each platform's own)")
    p.add_argument("--melee-era", choices=["E1", "E2", "E3"],
                   help="force one melee.gg era instead of choosing from date/decimals")
    p.add_argument("--matching-rounds", action="store_true",
                   help="add to the per-player table the evaluation rounds whose recomputed "
                        "values equal the published ones (a diagnostic: as of when a "
                        "mismatched player was published)")
    p.add_argument("--workers", type=positive_int, default=None, metavar="N",
                   help="parser processes (default: one per core)")
    add_quiet(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``verify``; returns 0 (errors raise: exit status 2 in the CLI).

    Examples
    --------
    >>> from pathlib import Path
    >>> fix = Path("tests/fixtures/decklist/melee-byes-1-2024-07-13.json")
    >>> ns = argparse.Namespace(paths=[str(fix)], output=None, rules=None, melee_era=None,
    ...                         workers=1, matching_rounds=False)
    >>> run(ns) if fix.exists() else 0  # doctest: +ELLIPSIS
    read 1 event, ...
    0
    """
    from swissframe.io.decklist import DecklistEvents  # (when run: the parser imports
    # every command module, and every command paid for the reader)

    if args.output:
        output_format(None, args.output)  # an unknown suffix fails before the long read
    t0 = time.perf_counter()
    with working(args, reading(args.paths)):
        src = read(args.paths, workers=args.workers)
    ev = src.bundles.get("decklist")
    if not isinstance(ev, DecklistEvents) or src.source_kind != "decklist":
        other = ", ".join(sorted(set(src.events["source_kind"].to_list()) - {"decklist"}))
        msg = (f"verify compares decklist-cache files with their published standings; "
               f"the input holds {other or 'no decklist'} files. Hint: TOM and TRF files "
               "are checked by swissframe verify-ref.")
        raise SwissframeError(msg)
    t1 = time.perf_counter()
    with working(args, f"verifying {count(ev.events.height, 'event')}"):
        table = verify(ev, rules=args.rules, melee_era=args.melee_era)
        if getattr(args, "matching_rounds", False):
            found = matching_rounds(ev, rules=args.rules, melee_era=args.melee_era)
            table = table.join(found.rename({"rounds": "matching_rounds"}),
                               on=["event_id", "player_id"], how="left")
    t2 = time.perf_counter()
    done(args, f"read {count(ev.events.height, 'event')}, "
         f"{count(ev.results.height, 'result row')} in {t1 - t0:.1f} s; verified in "
         f"{t2 - t1:.1f} s; {count(ev.report.height, 'repair')} reported")
    summary = summarize(table).select(
        "source", "era", "events", "players", pl.col("share").alias("values_share"),
        pl.col("events_exact").alias("values_exact"), "order_share",
        pl.col("events_order_exact").alias("order_exact"), "omwp_share", "gwp_share",
        "ogwp_share")
    width = terminal_width()  # (in a pipe too, as every text table: write_frame)
    head = ("agreement per source and era: values (every compared value within one unit) "
            "and order (the published position)")
    print(fill(head, width=width) if width else head)  # (it ran to 110 columns)
    sys.stdout.write(render_table(summary, width=width))
    if args.output:
        write_frame(table, None, args.output, inputs=args.paths, args=args)
    return 0
