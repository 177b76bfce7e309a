"""The ``swissframe`` command line: a thin shell over the public API.

Errors print one clear line and exit with status 2 (``--debug`` shows the traceback).
Subcommands that live with their feature (``verify``, ``simulate``, ``cut``, ``recompute``,
``rules``, ``chart``, ``validate``) are modules of :mod:`swissframe.cli.commands`, each with
``add_parser(subparsers)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

import polars as pl

from swissframe.errors import SwissframeError
from swissframe.io._files import FORMATS, read
from swissframe.rules._infer import AUTO, describe, run_auto

__all__ = ["main"]

#: Feature subcommands, in help order; a module that is not present is simply not offered.
COMMAND_MODULES: Final = ("validate", "rules", "verify", "verify_reference", "simulate", "cut",
                          "recompute", "chart")
OUTPUT_FORMATS: Final = ("table", "csv", "parquet", "json")
INPUT_FORMATS: Final = ("auto", *FORMATS)
RULES_HELP: Final = "ruleset preset (default: inferred from the data, see docs/inference.md)"


def write_frame(df: pl.DataFrame, fmt: str, out: str | None) -> None:
    """Write ``df`` as a readable table, CSV, Parquet or JSON, to ``out`` or stdout."""
    if fmt == "parquet":
        if out is None:
            msg = "--format parquet needs -o OUT. Hint: add -o standings.parquet."
            raise SwissframeError(msg)
        df.write_parquet(out)
        return
    if fmt == "csv":
        text = df.write_csv()
    elif fmt == "json":
        text = df.write_json()
    else:
        floats = [c for c, t in df.schema.items() if t == pl.Float64]
        shown = df.with_columns(pl.col(floats).round(4))
        with pl.Config(tbl_rows=-1, tbl_cols=-1, tbl_width_chars=200, fmt_str_lengths=40,
                       tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
            text = str(shown) + "\n"
    if out is None:
        sys.stdout.write(text)
    else:
        Path(out).write_text(text, encoding="utf-8")


def _cmd_standings(args: argparse.Namespace) -> int:
    from swissframe.engine.standings import standings

    src = read(args.files, format=args.input_format)
    results = src.results
    if args.event:
        known = set(results["event_id"].unique().to_list())
        missing = [e for e in args.event if e not in known]
        if missing:
            msg = (f"event(s) {missing} not in the input. Hint: events present: "
                   f"{sorted(known)[:10]}{' …' if len(known) > 10 else ''}.")
            raise SwissframeError(msg)
        results = results.filter(pl.col("event_id").is_in(args.event))
    table = standings(results, args.rules or AUTO, through_round=args.through_round,
                      keys=src.keys)
    print(describe(src.events, args.rules), file=sys.stderr)
    write_frame(src.label(table), args.format, args.output)
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from swissframe.engine.standings import standings
    from swissframe.io.tables import read_results

    data = Path(args.data)
    events = data / "events"
    if not events.is_dir():
        msg = f"no bundled events at {events}. Hint: run from the repository root."
        raise SwissframeError(msg)
    results = read_results(events)
    print(f"# swissframe demo — {results['event_id'].n_unique()} hand-written events in "
          f"{events} (rules: mtg, MTR Appendix C)\n")
    table = standings(results, "mtg")
    for (event,), grp in table.group_by("event_id", maintain_order=True):
        print(f"## {event}")
        write_frame(grp.drop("event_id"), "table", None)
        print()
    season = sorted((data / "season").glob("*_results.parquet"))
    for path in season:
        rules = path.name.removesuffix("_results.parquet")  # the file names its ruleset
        res = pl.read_parquet(path)
        t0 = time.perf_counter()
        try:
            st = standings(res, rules)
        except SwissframeError as exc:
            print(f"(skipping {path.name}: {_one_line(exc)})")
            continue
        took = time.perf_counter() - t0
        top = st.filter(pl.col("rank") == 1)["match_points"].cast(pl.Float64)
        print(f"## simulated season ({rules}): {res['event_id'].n_unique()} events, "
              f"{res.height:,} result rows -> {st.height:,} standings rows in {took:.2f} s")
        print(f"   winners' match points: mean {top.mean() or 0.0:.1f}, "
              f"max {top.max() or 0.0:.0f}\n")
    return 0


def _cmd_explain(args: argparse.Namespace) -> int:
    from swissframe.engine.explain import explain

    src = read(args.files, format=args.input_format)
    player = src.player_id(args.player, args.event)
    rules = args.rules or src.ruleset_of(args.event)
    table = explain(src.results, player, rules, event_id=args.event,
                    through_round=args.through_round)
    print(describe(src.events, args.rules), file=sys.stderr)
    write_frame(table, args.format, args.output)
    return 0


def _cmd_sensitivity(args: argparse.Namespace) -> int:
    from swissframe.sensitivity import sensitivity, standard_variants

    src = read(args.files, format=args.input_format)

    def one(rows: pl.DataFrame, baseline: str) -> pl.DataFrame:
        rulesets = ([baseline, *args.rules] if args.rules else standard_variants(baseline))
        return sensitivity(rows, rulesets, top=args.top)

    table = (one(src.results, args.baseline) if args.baseline
             else run_auto(one, src.results))
    print(describe(src.events, args.baseline), file=sys.stderr)
    if args.format in ("table", "csv"):  # list columns: one readable cell each
        table = table.with_columns(pl.col(pl.List(pl.String)).list.join(", "))
    write_frame(table, args.format, args.output)
    return 0


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    """The argument parser and the feature modules it dispatches to."""
    parser = argparse.ArgumentParser(
        prog="swissframe",
        description="Swiss-system standings, tiebreakers and cut analysis.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("standings", help="standings of one or many events")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="CSV/Parquet results, decklist-cache JSON, TOM .tdf or TRF files")
    p.add_argument("--rules", default=None, help=RULES_HELP)
    p.add_argument("--event", action="append", metavar="ID", help="only this event (repeatable)")
    p.add_argument("--through-round", type=int, metavar="R", help="standings after round R")
    p.add_argument("--format", choices=OUTPUT_FORMATS, default="table")
    p.add_argument("--input-format", choices=INPUT_FORMATS, default="auto")
    p.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    p.set_defaults(func=_cmd_standings)

    p = sub.add_parser("demo", help="standings of the bundled data/ (the README's demo)")
    p.add_argument("--data", default="data", help="the data folder (default: ./data)")
    p.set_defaults(func=_cmd_demo)

    p = sub.add_parser("explain", help="one player's tiebreakers, opponent by opponent")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--player", required=True, help="the player id (or name)")
    p.add_argument("--event", metavar="ID", help="the event (needed when FILE has several)")
    p.add_argument("--rules", default=None, help=RULES_HELP)
    p.add_argument("--through-round", type=int, metavar="R")
    p.add_argument("--format", choices=OUTPUT_FORMATS, default="table")
    p.add_argument("--input-format", choices=INPUT_FORMATS, default="auto")
    p.add_argument("-o", "--output", metavar="OUT")
    p.set_defaults(func=_cmd_explain)

    p = sub.add_parser("sensitivity", help="how the top N changes under other rulesets")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--top", type=int, default=8)
    p.add_argument("--baseline", default=None,
                   help="baseline ruleset (default: inferred from the data)")
    p.add_argument("--rules", action="append", metavar="NAME",
                   help="an alternative ruleset (repeatable; default: the standard variants "
                   "of the baseline — floors, bye rule, drawn games, one tiebreaker fewer)")
    p.add_argument("--format", choices=OUTPUT_FORMATS, default="table")
    p.add_argument("--input-format", choices=INPUT_FORMATS, default="auto")
    p.add_argument("-o", "--output", metavar="OUT")
    p.set_defaults(func=_cmd_sensitivity)

    from swissframe.report import _command as report_command  # swissframe report
    report_command.add_parser(sub)

    modules: dict[str, ModuleType] = {}
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"swissframe.cli.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"swissframe.cli.commands.{name}":
                raise
            continue
        module.add_parser(sub)
        modules[name] = module
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``swissframe`` command."""
    parser, modules = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command in modules:
            return int(modules[args.command].run(args))
        return int(args.func(args))
    except (SwissframeError, OSError) as exc:
        if args.debug:
            raise
        print(f"swissframe: error: {exc}".splitlines()[0] if isinstance(exc, OSError)
              else f"swissframe: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("swissframe: interrupted", file=sys.stderr)
        return 130


def _one_line(exc: BaseException) -> str:
    """The message as one line (multi-line listings are folded with ' | ')."""
    return " | ".join(line.strip() for line in str(exc).splitlines() if line.strip())


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
