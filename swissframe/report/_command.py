"""``swissframe report FILE… [--event EVENT] [--rules R] [--top 8] -o report.html``: an
article-ready, self-contained HTML page per event (a season page for many events; a folder
``-o DIR`` holds the season page and one linked page per event)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from swissframe.cli._common import (
    EVENT_HELP,
    add_files,
    add_quiet,
    add_rules,
    non_negative_int,
    note,
    one_event_id,
    positive_int,
    reading,
    refuse_output,
    working,
    wrote,
)

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``swissframe report``."""
    p = subparsers.add_parser(
        "report", help="article-ready offline HTML report of an event or a season",
        description="Write a self-contained HTML page (no network needed) with the standings, "
        "the cut and what decided it, the race, the situation before the last round and the "
        "tiebreaker sensitivity. Several events give a season page; -o DIR writes the season "
        "page as DIR/index.html with one linked page per event.")
    add_files(p)
    p.add_argument("--event", metavar="EVENT", default=None,
                   help=f"report on this event only: {EVENT_HELP} (default: the only "
                        "event, or a season)")
    add_rules(p)
    p.add_argument("--top", type=positive_int, default=None,
                   help="size of the cut, or the places that matter where the game has no "
                   "playoff (chess: the top N places); default: the event's playoff where "
                   "its file holds one (a decklist file's Top 8), else 8")
    p.add_argument("--title", default=None, help="page title (default: the event's name)")
    p.add_argument("--sims", type=non_negative_int, default=100,
                   help="simulations for undecided cut statuses (default 100)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="random seed (default 0)")
    p.add_argument("--season", action="store_true",
                   help="a season page even for a single event")
    p.add_argument("-o", "--output", metavar="OUT", default="report.html",
                   help="a .html file, or a folder: a season's pages, or one event's "
                   "page as FOLDER/index.html (default: report.html)")
    add_quiet(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``swissframe report``; 0 on success (errors raise ``SwissframeError``)."""
    from swissframe.io._files import names_a_folder, output_target, read
    from swissframe.report import report
    from swissframe.report._event import check_page_path
    from swissframe.rules._infer import describe

    refuse_output(args.output, args.files, example="report.html")
    out = Path(args.output)
    check_page_path(args.output)  # (the API's rule: before the long read)
    t0 = time.perf_counter()
    with working(args, reading(args.files)):
        src = read(args.files, format=args.input_format)
    with working(args, "building the report"):
        rep = report(src, event_id=one_event_id(src, args.event), rules=args.rules, top=args.top,
                     title=args.title, n_sims=args.sims, seed=args.seed,
                     season=True if args.season else None)
        # one event's page named without a suffix is NAME.html; a folder (its trailing
        # separator kept) is its own: a season's pages, or an event's index.html; a device
        # or a named pipe is written as it is (-o /dev/stdout made /dev/stdout.html, and a
        # reader of the pipe waited for ever: bad data 221)
        one_page = not hasattr(rep, "events") and not names_a_folder(args.output)
        stream = output_target(args.output)[1]
        written = rep.save(out.with_suffix(".html") if one_page and not out.suffix
                           and not stream else args.output)
    took = f"in {time.perf_counter() - t0:.1f} s"
    if stream:
        wrote(args, written, took)
    else:
        size = (written.stat().st_size if written.is_file()
                else sum(f.stat().st_size for f in written.rglob("*.html")))
        wrote(args, written, f"{size / 1e6:.2f} MB, {took}")
    # (which rulesets the pages rank by, as every other command closes)
    note(args, describe(src.events, args.rules))
    return 0
