"""``swissframe validate FILE…``: list every problem of the input files, grouped by kind.

Exit status: 0 when no error is found (warnings are printed; ``--strict`` makes them count;
a format's routine, listed as a note, never does),
1 when problems are found, 2 when an input cannot be read (the readable files are still
checked and reported).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Final

import orjson
import polars as pl

from swissframe._display import count
from swissframe.cli._common import (
    add_quiet,
    add_rules,
    atomic_path,
    done,
    for_terminal,
    machine_text,
    note,
    output_format,
    reading,
    rows_said,
    say,
    working,
    wrote,
)
from swissframe.cli._common import write_frame as _write_frame
from swissframe.errors import SwissframeError
from swissframe.io import _files
from swissframe.rules._infer import AUTO, describe
from swissframe.validate import (
    ValidationReport,
    file_problem,
    read_problems,
    validate_read,
)

__all__ = ["add_parser", "read_for_validation", "run"]

FORMATS: Final = ("table", "csv", "tsv", "json", "ndjson", "parquet", "xlsx")
INPUT_FORMATS: Final = ("auto", *_files.FORMATS)
ORIGIN: Final = "_sf_file"


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``swissframe validate``."""
    p = subparsers.add_parser(
        "validate", help="list every problem of results files, grouped by kind",
        description="Check results files (CSV/Parquet, decklist-cache JSON, TOM, TRF) and "
        "list every problem with event, round, player and the offending values. Exit 0: "
        "no errors; 1: problems found; 2: an input could not be read.")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="results files or folders: CSV/Parquet, decklist-cache .json(.gz), "
                        "TOM .tdf/.xml or TRF files")
    add_rules(p, what="the ruleset the checks assume")
    p.add_argument("--best-of", default="auto", metavar="N",
                   help="games per match for the score checks: a number ≥ 1, 'none' to skip, "
                   "or 'auto' (default: 3 for tables and decklists, 1 for TOM and TRF)")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="report format: the readable report (table), JSON (summary and "
                        "problems), or the problems as CSV / TSV / NDJSON / Parquet / Excel "
                        "(default: from the suffix of -o, else table)")
    p.add_argument("--input-format", choices=INPUT_FORMATS, default="auto",
                   help="how to read FILE (default: auto, recognised by its content)")
    p.add_argument("--strict", action="store_true", help="warnings also give exit status 1")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write the report here; the suffix chooses the format (.txt, .json, "
                        ".csv, .tsv, .ndjson, .parquet, .xlsx)")
    add_quiet(p)


def read_for_validation(items: Sequence[str], input_format: str = "auto"
                        ) -> tuple[pl.DataFrame | None, list[pl.DataFrame], _files.Source | None]:
    """Read every file through :func:`swissframe.io._files.read` without stopping at a bad
    one.

    Returns the combined rows (with the file in column ``_sf_file``; None when no file was
    readable), problem frames (unreadable files, importer notes, bad cells), and what was
    read (None when no file was: its ``files``, each file's format — what the ``auto``
    best-of reads, :func:`swissframe.validate.resolve_best_of` — and its ``events``, whose
    rulesets the checks assume, as every command's).
    """
    notes: list[pl.DataFrame] = []
    expanded: list[str] = []
    for item in items:  # a path that matches nothing is a problem, not the end
        try:
            _files.expand(item, format=input_format)
        except SwissframeError as exc:
            text = " | ".join(x.strip() for x in str(exc).splitlines() if x.strip())
            if "no such file" in text:
                text = "no such file or folder"
            notes.append(file_problem("unreadable_file", text, file=_files.shown(item)))
            continue
        expanded.append(item)
    if not expanded:
        return None, notes, None
    src = _files.read(expanded, format=input_format, on_error="collect", validate=False)
    notes += read_problems(src)
    if src.results.height == 0 and not src.events.height:
        return None, notes, None
    combined = src.results.rename({"source_file": ORIGIN})
    return combined, notes, src


def _best_of(text: str) -> int | str | None:
    """``--best-of``'s argument as :func:`~swissframe.validate.resolve_best_of` reads it."""
    t = text.strip().lower()
    if t in ("auto", "none") or (t.isascii() and t.isdigit() and int(t) > 0):
        return None if t == "none" else t if t == "auto" else int(t)
    msg = (f"--best-of {text!r}: expected a number ≥ 1, 'auto' or 'none' (no score checks). "
           "Hint: 1, 3 or 5.")
    raise SwissframeError(msg)


def render(report: ValidationReport, fmt: str) -> str:
    """The report as text (``table``), CSV or JSON (summary + problems)."""
    if fmt in ("csv", "tsv"):
        return report.problems.write_csv(separator="," if fmt == "csv" else "\t")
    if fmt == "json":
        doc = {"ok": report.ok, "clean": report.clean, "rows": report.rows,
               "events": report.events, "rules": report.rules, "best_of": report.best_of,
               "files": list(report.files), "summary": report.summary.to_dicts(),
               "problems": report.problems.to_dicts()}
        return orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode() + "\n"
    # (report.problems is Python's; a command line lists every row in a file)
    return report.text(more="-o problems.csv lists every one") + "\n"


def run(args: argparse.Namespace) -> int:
    """Run ``swissframe validate``; the exit status is described in the module docstring."""
    fmt = output_format(args.format, args.output)
    if fmt not in FORMATS:
        msg = (f"validate writes {', '.join(FORMATS)}, not {fmt}. Hint: -o report.json or "
               "-o problems.csv.")
        raise SwissframeError(msg)
    asked = _best_of(str(args.best_of))  # (a bad --best-of fails before reading)
    with working(args, reading(args.files)):
        combined, notes, src = read_for_validation(args.files, args.input_format)
    table = combined if combined is not None else pl.DataFrame(
        schema={"event_id": pl.String, "round": pl.Int64, "player_id": pl.String,
                "opponent_id": pl.String, "games_won": pl.Int64, "games_lost": pl.Int64,
                "games_drawn": pl.Int64, ORIGIN: pl.String})
    with working(args, "checking"):  # (the steps of sf.validate of a Source: one helper)
        report = validate_read(table, src, rules=args.rules or AUTO, best_of=asked,
                               origin=ORIGIN, extra=notes)
    events = src.events if src is not None else pl.DataFrame(
        schema={"event_id": pl.String, "ruleset": pl.String, "ruleset_reason": pl.String})
    note(args, describe(events, args.rules, one=True))
    if fmt in ("csv", "tsv", "ndjson", "parquet", "xlsx"):  # (said after the summary)
        _write_frame(report.problems, fmt, args.output, inputs=args.files)
    elif args.output:
        with atomic_path(args.output, args.files) as tmp:
            tmp.write_text(render(report, fmt), encoding="utf-8")
    else:
        sys.stdout.write(for_terminal(render(report, fmt), sys.stdout) if fmt == "table"
                         else machine_text(render(report, fmt), sys.stdout))
    code = (2 if (report.problems["kind"] == "unreadable_file").any() else
            1 if not report.ok or (args.strict and not report.clean) else 0)
    if args.output:  # (--quiet silences it on success; a problem found is said)
        first = str(report).splitlines()[0]
        if code:
            say(first)
        else:
            done(args, first)
        # (what was written, after what was found, as the reader reads them)
        wrote(args, args.output, rows_said(report.problems) if fmt != "json"
              else count(report.problems.height, "problem"))
    return code
