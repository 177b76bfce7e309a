"""The ``swissframe`` command line: a thin shell over the public API.

Errors print one clear line and exit with status 2 (``--debug`` shows the traceback).
Subcommands that live with their feature (``verify``, ``simulate``, ``cut``, ``recompute``,
``rules``, ``chart``, ``validate``) are modules of :mod:`swissframe.cli.commands`, each with
``add_parser(subparsers)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Final

import polars as pl

from _swissframe_cli import interrupted
from swissframe import __version__
from swissframe.cli._common import (
    Parser,
    absence_notes_of,
    add_event,
    add_files,
    add_output,
    add_quiet,
    add_rules,
    add_through_round,
    add_top,
    check_round,
    flush_notes,
    flush_warnings,
    input_rows,
    legible_output,
    note,
    output_format,
    reading,
    show_error,
    usable_streams,
    working,
    write_frame,
    write_per_event,
)
from swissframe.errors import SwissframeError
from swissframe.io._files import read, resolved
from swissframe.rules._infer import AUTO, auto_rules, describe, run_auto
from swissframe.schema import DISQUALIFIED

__all__ = ["build_parser", "main", "write_frame"]

#: Feature subcommands, in help order; a module that is not present is simply not offered.
COMMAND_MODULES: Final = ("explain", "why", "validate", "rules", "verify", "verify_reference",
                          "simulate", "cut", "recompute", "chart")
#: Errors mapped to one line at the boundary (everything swissframe raises on purpose, file
#: system errors, and engine errors that escaped the checks, which are reported as bugs).
BOUNDARY_ERRORS: Final = (SwissframeError, OSError, MemoryError, pl.exceptions.PolarsError,
                          pl.exceptions.PanicException)


def _cmd_standings(args: argparse.Namespace) -> int:
    from swissframe.engine.standings import standings

    with working(args, reading(args.files)):
        src = read(args.files, format=args.input_format, _keep_codes=True)
    on_terminal = output_format(args.format, args.output) == "table" and args.output is None
    with input_rows(src, args.event) as results:
        check_round(args, results)
        with working(args, "ranking"):
            table = standings(results, args.rules or AUTO, through_round=args.through_round,
                              keys=src.keys)
            # (who left, in words: a player who did not make day 2 did not drop)
            # (only where someone left: absences reads every player's rounds)
            notes = (absence_notes_of(results, args.through_round, short=True)
                     if on_terminal and (bool(table["dropped"].any())
                                         or "stage" in results.columns) else None)
    table = src.label(table)
    if args.top is not None:
        table = table.filter(pl.col("rank") <= args.top)
    # the text table to stdout reads as on a terminal, in a pipe too (| less, | head, > x):
    # fitted to the width terminal_width() finds; the whole table is --format csv / -o
    if on_terminal:
        used = [args.rules] if args.rules else auto_rules(src.events)[1]
        _standings_on_terminal(table, used, notes=notes, names=src.event_names)
    else:
        write_frame(table, args.format, args.output, inputs=args.files, args=args)
    note(args, describe(src.events, args.rules))  # after the output: no error line after it
    return 0


def _standings_on_terminal(table: pl.DataFrame, rules: Sequence[str], *,
                           heading: str = "{}\n",
                           whole: str = "use --format csv or -o FILE.csv",
                           notes: pl.DataFrame | None = None,
                           names: Mapping[str, str] | None = None) -> None:
    """One table per event under its name, the ranking columns kept first when the
    terminal is narrow: the player (name where the files hold one), rank, points, record,
    then the criteria of the rulesets used (``rules``; MTG's when none is known).
    A column is headed in the game's word where the rulesets used agree on one (chess:
    "points"; :func:`~swissframe.compare.column_heading`); one whose number its name does
    not explain is headed by its short label, with a legend line under the table when it
    is shown (``Criterion.unit``: "DE: direct encounter (tied players ranked below)").
    ``heading`` and ``whole``: see :func:`~swissframe.cli._common.write_per_event`.
    ``notes`` (``event_id, player_id, note``:
    :func:`~swissframe.cli._common.absence_notes_of`) says why a player left in a ``note``
    column instead of the ``dropped`` flag: "did not make day 2" is not "dropped".
    ``names``: each event's name (``Source.event_names``) for its heading."""
    from swissframe.compare import column_heading, criterion_label, criterion_unit
    from swissframe.cut._words import absent_words, short_absence_legend
    from swissframe.rules import get

    used = [get(r) for r in (rules or ["mtg"])]
    criteria = list(dict.fromkeys(c.name for r in used for c in r.criteria))
    columns = list(dict.fromkeys(c.name for r in used for c in (*r.criteria, *r.columns)))
    # a number whose heading does not say what it counts (cli._common.headings): say it
    # under the table ("DE: direct encounter (tied players ranked below)"; the unit alone
    # where the heading is the criterion's name: "head-to-head: +1 beat …")
    legend = {name: (criterion_unit(name, used[0])
                     if column_heading(name, used[0]) == criterion_label(name, used[0])
                     else criterion_label(name, used[0], unit=True))
              for name in columns if name in table.columns and criterion_unit(name, used[0])}
    # (a combined pod's division right after the rank: its ranks start again per division;
    # a single division's is a constant column, kept last)
    apart = "division" in table.columns and bool(
        table.group_by("event_id").agg(pl.col("division").n_unique() > 1)
        .get_column("division").any())
    # (why a player left, "no day 2", before the criteria that order few players: a
    # large event's day-2 note was the first column left out at 80 columns)
    priority = ["rank", *(["division"] if apart else []), "match_points", "record",
                *criteria[:3], "note", *criteria[3:],
                *([] if apart else ["division"]), "dropped"]
    if notes is not None and "dropped" in table.columns:
        ids = pl.col("event_id", "player_id").cast(pl.String)
        said = table.select(ids).join(notes.select(ids, "note"), on=["event_id", "player_id"],
                                      how="left", maintain_order="left")["note"]
        # (a player who did not make day 2 is no drop, and a platform's stage snapshot
        # does not flag them dropped: their note is said all the same)
        table = table.with_columns(note=pl.when(pl.col("dropped")).then(
            said.fill_null("dropped")).when(said != absent_words("dropped", None))
            .then(said)).drop("dropped")
        if table["note"].null_count() == table.height:  # (nobody left: no empty column)
            table = table.drop("note")
    def notes_legend(event: pl.DataFrame) -> dict[str, str]:
        # ("no day 2" said in full under the table where its rows show it)
        said = (short_absence_legend(event["note"].drop_nulls().to_list())
                if "note" in event.columns else None)
        return {"note": said} if said else {}

    dq_legend = None
    if DISQUALIFIED in table.columns and table[DISQUALIFIED].any():
        # a disqualified player has no rank: "DQ" says why (removed from the standings),
        # under the tables of the events that have one
        table = table.with_columns(rank=pl.when(pl.col(DISQUALIFIED)).then(pl.lit("DQ"))
                                   .otherwise(pl.col("rank").cast(pl.String)))

        def dq_legend(event: pl.DataFrame) -> dict[str, str]:
            return ({"rank": "DQ = disqualified (no rank; results still count for "
                     "opponents)"} if (event["rank"] == "DQ").any() else {})
    who = "name" if "name" in table.columns else "player_id"
    cols = [c for c in table.columns if c not in ("event_id", who)]
    at = cols.index("wins") if "wins" in cols else len(cols)
    record = pl.format("{}-{}-{}", "wins", "losses", "draws").alias("record")
    shown = table.select("event_id", who, *cols[:at], record,
                         *(c for c in cols[at:] if c not in ("wins", "losses", "draws")))
    # the ranking's columns in its order (MTG: points, OMW%, GW%, OGW% — the table's own
    # order put GW% before OMW%), then the rest as the table gives them
    ranking = [c for c in dict.fromkeys(("rank", *(["division"] if apart else []),
                                         "match_points", "record", *criteria))
               if c in shown.columns]
    shown = shown.select("event_id", who, *ranking,
                         *(c for c in shown.columns if c not in ("event_id", who, *ranking)))
    def legend_of(event: pl.DataFrame) -> dict[str, str]:
        return {**notes_legend(event),
                **(dq_legend(event) if dq_legend is not None else {})}

    write_per_event(shown, priority, heading=heading, whole=whole, legend=legend,
                    legend_of=legend_of, rules=used, names=names)


def _cut_criterion_words(table: pl.DataFrame) -> pl.DataFrame:
    """A sensitivity table for the terminal: ``cut_criterion`` in the game's word of the
    event's baseline ruleset, as the standings head that column (chess: "points")."""
    from swissframe.compare import column_heading
    from swissframe.rules import get

    if "cut_criterion" not in table.columns or table.height == 0:
        return table
    parts = []
    for _, grp in table.group_by("event_id", maintain_order=True):
        try:
            rs = get(str(grp["ruleset"][0]))
        except SwissframeError:  # (a ruleset given as a file or object: its own names)
            parts.append(grp)
            continue
        names = grp["cut_criterion"].drop_nulls().unique().to_list()
        parts.append(grp.with_columns(pl.col("cut_criterion").replace(
            {c: column_heading(c, rs) for c in names})))
    return pl.concat(parts)


def _cmd_demo(args: argparse.Namespace) -> int:
    from swissframe.engine.standings import standings
    from swissframe.io.tables import read_results

    data = Path(args.data)
    events = data / "events"
    if not events.is_dir():
        msg = f"no bundled events at {events}. Hint: run from the repository root."
        raise SwissframeError(msg)
    results = read_results(events)
    print(f"# swissframe demo: {results['event_id'].n_unique()} hand-written events in "
          f"{events}\n(rules: mtg, MTR Appendix C)\n")
    table = standings(results, "mtg")
    # (who left, in words, as `standings` says it: a "dropped" column of "no"s it was)
    notes = absence_notes_of(results, None, short=True)
    for (event,), grp in table.group_by("event_id", maintain_order=True):
        print(f"## {event}", flush=True)
        # (as `swissframe standings` shows it, in a pipe too: tiebreakers first)
        _standings_on_terminal(grp, ["mtg"], heading="", notes=notes, whole=(
            f"swissframe standings {events} -o FILE.csv has them all"))
        print()
    season = sorted((data / "season").glob("*_results.parquet"))
    for path in season:
        rules = path.name.removesuffix("_results.parquet")  # the file names its ruleset
        res = pl.read_parquet(path, glob=False)
        t0 = time.perf_counter()
        try:
            st = standings(res, rules)
        except SwissframeError as exc:
            print(f"(skipping {path.name}: {_one_line(exc)})")
            continue
        took = time.perf_counter() - t0
        top = st.filter(pl.col("rank") == 1)["match_points"].cast(pl.Float64)
        # (lines under 80 columns: the README's first command, in a default terminal)
        print(f"## simulated season ({rules}): {res['event_id'].n_unique()} events, "
              f"{res.height:,} result rows")
        print(f"   -> {st.height:,} standings rows in {took:.2f} s; winners' match points: "
              f"mean {top.mean() or 0.0:.1f}, max {top.max() or 0.0:.0f}\n")
    return 0


def _cmd_sensitivity(args: argparse.Namespace) -> int:
    from swissframe.sensitivity import sensitivity, standard_variants

    with working(args, reading(args.files)):
        src = read(args.files, format=args.input_format, _keep_codes=True)

    def one(rows: pl.DataFrame, baseline: str) -> pl.DataFrame:
        rulesets = ([baseline, *args.compare] if args.compare
                    else standard_variants(baseline))
        return sensitivity(rows, rulesets, top=args.top)

    with input_rows(src, args.event) as results, \
            working(args, "ranking under each ruleset"):
        table = one(results, args.rules) if args.rules else run_auto(one, results)
    # the players as standings, explain and why show them (a TOM or TRF id is a number)
    table = src.named(table, "entering", "leaving", "place_n", "place_n1")
    if output_format(args.format, args.output) == "table" and args.output is None:
        # (what the rows compare: the top N under each ruleset against the first row's)
        write_per_event(_cut_criterion_words(table),
                        ["entering", "leaving", "kendall_tau", "cut_criterion"],
                        heading=f"{{}}\nwho enters or leaves the top {args.top} under each "
                                "ruleset, against the first row's:\n", names=src.event_names)
    else:
        write_frame(table, args.format, args.output, inputs=args.files, args=args)
    note(args, describe(src.events, args.rules))
    return 0


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    """The argument parser and the feature modules it dispatches to."""
    parser = Parser(
        prog="swissframe",
        description="Swiss-system standings, tiebreakers and cut analysis. Every command "
        "writes a readable table, or CSV / TSV / Parquet / JSON / Excel chosen by the suffix "
        "of -o; errors are one line and exit with status 2.")
    parser.add_argument("--version", action="version", version=f"swissframe {__version__}",
                        help="print the version and exit")
    parser.add_argument("--debug", action="store_true",
                        help="show the full traceback of an error (also after the command)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("standings", help="standings of one or many events",
                       description="Rank every player of every event in FILE under a "
                       "ruleset, with points, record and tiebreakers.")
    add_files(p)
    add_rules(p, default=None)
    add_event(p)
    add_through_round(p, what="the standings")
    add_top(p, default=None, what="only the places 1 to N (default: every player)")
    add_output(p, what="the standings")
    add_quiet(p)
    p.set_defaults(func=_cmd_standings)

    p = sub.add_parser("demo", help="standings of the bundled data/ (the README's demo)",
                       description="Print the standings of the hand-written events and the "
                       "simulated season shipped in data/.")
    p.add_argument("--data", default="data", metavar="DIR",
                   help="the data folder (default: ./data)")
    p.set_defaults(func=_cmd_demo)

    p = sub.add_parser("sensitivity", help="how the top N changes under other rulesets",
                       description="Rank each event under --rules and under other rulesets "
                       "and report who enters and leaves the top N under each.")
    add_files(p)
    add_rules(p, default=None, what="the baseline ruleset")
    p.add_argument("--baseline", dest="rules", metavar="NAME", help=argparse.SUPPRESS)
    p.add_argument("--compare", action="extend", nargs="+", default=[], metavar="NAME",
                   help="compare with these rulesets instead of the standard variants of "
                        "--rules (floors, bye rule, drawn games, one tiebreaker fewer); "
                        "one or more names, or the option repeated")
    add_event(p)
    add_top(p, default=8, what="size of the top that is compared")
    add_output(p, what="the comparison")
    add_quiet(p)
    p.set_defaults(func=_cmd_sensitivity)

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
    from swissframe.report import _command as report_command  # swissframe report

    modules["report"] = report_command  # a module like the others: add_parser, run
    modules["report"].add_parser(sub)
    for command in sub.choices.values():  # --debug also after the command
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                             help="show the full traceback of an error")
        for action in command._actions:
            if action.dest in _PATH_DESTS or action.metavar in _PATH_METAVARS:
                action.type = _named_path(action.type, output=(
                    action.dest in _OUTPUT_DESTS or action.metavar == "OUT"))
    return parser, modules


#: The options and arguments that name a file or a folder (by destination or metavar).
_PATH_DESTS: Final = frozenset({"files", "paths", "source", "output", "pairings", "reference",
                                "held", "data", "players_output", "events_output",
                                "font_dirs"})
_PATH_METAVARS: Final = frozenset({"FILE", "OUT", "TABLE", "DIR", "PATH"})
#: Those that name what a command writes.
_OUTPUT_DESTS: Final = frozenset({"output", "players_output", "events_output"})


def _distinct_outputs(args: argparse.Namespace) -> None:
    """Refuse two output options of one command that name one file (``simulate -o s.csv
    --players-output s.csv``, or ``./s.csv``, or a link to it): each was written in turn
    over the one before, and the command said it wrote the first (bad data 127). Checked
    before anything is computed (a simulation can take minutes)."""
    given = [(dest, os.fspath(v)) for dest in ("output", *sorted(_OUTPUT_DESTS - {"output"}))
             if (v := getattr(args, dest, None)) is not None]
    seen: dict[str, tuple[str, str]] = {}
    for dest, path in given:
        try:
            key = os.path.normcase(os.fspath(resolved(path)))
        except OSError:  # (a loop of links: the write names it)
            continue
        if key in seen:
            first, said = seen[key]
            msg = (f"{_option(first)} {said!r} and {_option(dest)} {path!r} name one file: the "
                   "second would be written over the first. Hint: give each output its own "
                   "file name.")
            raise SwissframeError(msg)
        seen[key] = (dest, path)


def _option(dest: str) -> str:
    return "-o" if dest == "output" else "--" + dest.replace("_", "-")


def _named_path(kind: Any, *, output: bool = False) -> Callable[[str], Any]:
    """argparse type of a path argument: ``kind`` (text when None) of a text that is not
    empty. An empty path ('', an unset shell variable) was the working folder read as input
    (every results file under it), or an option taken as not given (``--pairings ''``);
    ``-`` (standard output to many tools) was written as a file named ``-``."""
    def read(text: str) -> Any:
        if text == "":
            msg = "an empty path ('') names no file. Hint: name a file or a folder"
            raise argparse.ArgumentTypeError(msg)
        if text == "-":  # (-o - wrote a file named '-', with --format; stdout was meant)
            msg = ("'-' is standard output to many tools, but swissframe writes files. "
                   "Hint: name a file (./- for one named '-'); where -o may be left out, "
                   "standard output is where the command writes (--format csv or json for "
                   "data)" if output else
                   "'-' is standard input to many tools, but swissframe reads files. Hint: "
                   "save the input to a file and name it, or write ./- for a file of that "
                   "name")
            raise argparse.ArgumentTypeError(msg)
        return text if kind is None else kind(text)
    read.__name__ = getattr(kind, "__name__", "path")  # (argparse names it on a failure)
    return read


def _fast_altair_import() -> None:
    """Block ``rfc3987_syntax`` (2–20 s of grammar compilation at import) for Altair.

    jsonschema imports it, when installed, only to check the ``iri`` string format, which
    Altair's Vega-Lite schema does not use; jsonschema then skips that one check. Done for
    every command that draws (``chart``; ``report``, whose charts paid 3-8 s for it), in
    the command's process only (a library must not change what its host can import), and
    only when neither is imported yet.
    """
    if "rfc3987_syntax" not in sys.modules and "jsonschema" not in sys.modules:
        sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``swissframe`` command.

    Every error ends as one line on stderr, ``swissframe: error: … Hint: …``, and exit
    status 2 (``--debug`` raises it instead, with its traceback). A Ctrl-C at any moment
    (the command modules' imports, parsing, the work) ends it with
    ``swissframe: interrupted`` and status 130 (``_swissframe_cli.interrupted``; the
    console script, ``_swissframe_cli.main``, says the same while this module is imported).
    """
    try:
        # (an output whose encoding lacks a character — cp1252, ASCII — writes an escape
        # and says so, not a UnicodeEncodeError traceback: bad data 172)
        with usable_streams(), legible_output():
            return _main(argv)
    except KeyboardInterrupt as exc:  # (or SIGTERM: _swissframe_cli.Terminated)
        return interrupted(exc)


def _main(argv: Sequence[str] | None) -> int:
    """:func:`main`, but for a Ctrl-C."""
    _fast_altair_import()
    parser, modules = build_parser()
    if not (sys.argv[1:] if argv is None else argv):  # a bare `swissframe`: what it does
        parser.print_help()
        return 0
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # (said by the command's parser: its --help has the options it takes,
            # the top one's hint pointed at 'swissframe --help', which lists commands)
            commands = next(a for a in parser._actions if a.dest == "command")
            commands.choices[args.command].error(  # type: ignore[index]
                f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # usage errors (already printed), --help, --version
        return exc.code if isinstance(exc.code, int) else 2
    flush_notes(ok=False)  # nothing left over from an earlier call in this process
    try:
        # the library's warnings (an ignored column, a rounded tie-break) are shown like
        # notes, one "swissframe: warning:" line each once the command has succeeded, not
        # as Python's two-line warnings in the middle of a progress line
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _distinct_outputs(args)
            if args.command in modules:
                code = int(modules[args.command].run(args))
            else:
                code = int(args.func(args))
            sys.stdout.flush()  # (a full disk behind stdout is an error of this command)
        flush_warnings(caught)
        flush_notes(ok=True)
        return code
    except BrokenPipeError:  # `swissframe … | head`: the reader has what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout
        return 0
    except BOUNDARY_ERRORS as exc:
        flush_notes(ok=False)
        if getattr(args, "debug", False):
            raise
        sys.stdout.flush()
        show_error(exc)
        return 2


def _one_line(exc: BaseException) -> str:
    """The message as one line (multi-line listings are folded with ' | ')."""
    return " | ".join(line.strip() for line in str(exc).splitlines() if line.strip())


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
