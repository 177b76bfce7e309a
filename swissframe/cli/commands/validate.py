"""``swissframe validate FILE…``: list every problem of the input files, grouped by kind.

Exit status: 0 when no error is found (warnings are printed; ``--strict`` makes them count),
1 when problems are found, 2 when an input cannot be read (the readable files are still
checked and reported).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import orjson
import polars as pl

from swissframe.cli._common import (
    add_quiet,
    add_rules,
    atomic_path,
    output_format,
    reading,
    working,
)
from swissframe.cli._common import write_frame as _write_frame
from swissframe.errors import SwissframeError
from swissframe.validate import PROBLEM_SCHEMA, ValidationReport, _validate, coerce, file_problem

__all__ = ["add_parser", "read_for_validation", "run"]

FORMATS: Final = ("table", "csv", "tsv", "json", "ndjson", "parquet", "xlsx")
INPUT_FORMATS: Final = ("auto", "table", "decklist", "tom", "trf")
_SUFFIXES: Final[dict[str, tuple[str, ...]]] = {
    "table": (".csv", ".tsv", ".parquet", ".pq"),
    "decklist": (".json", ".json.gz"),
    "tom": (".tdf", ".xml"),
    "trf": (".trf", ".txt", ".input"),
}
#: Games per match by input format (TOM and TRF record match results, not games).
BEST_OF_BY_FORMAT: Final = {"table": 3, "decklist": 3, "tom": 1, "trf": 1}
ORIGIN: Final = "_sf_file"
_MATCH_INT: Final = ("round", "games_a", "games_b", "games_drawn")
_ID_OVERRIDES: Final = {"event_id": pl.String, "player_id": pl.String,
                        "opponent_id": pl.String, "player_a": pl.String, "player_b": pl.String}


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
                   help="how to read FILE (default: auto, from the file name)")
    p.add_argument("--strict", action="store_true", help="warnings also give exit status 1")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write the report here; the suffix chooses the format (.txt, .json, "
                        ".csv, .tsv, .ndjson, .parquet, .xlsx)")
    add_quiet(p)


def _format_of(path: Path, forced: str) -> str | None:
    if forced != "auto":
        return forced
    name = path.name.lower()
    for fmt, suffixes in _SUFFIXES.items():
        if name.endswith(suffixes):
            return fmt
    return None


def _expand(items: Sequence[str], forced: str) -> tuple[list[tuple[Path, str]], list[str]]:
    """(file, format) pairs, and the inputs that matched nothing or have no known format."""
    found: list[tuple[Path, str]] = []
    bad: list[str] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            files = sorted(f for f in p.rglob("*") if f.is_file())
            picked = [(f, fmt) for f in files
                      if (fmt := _format_of(f, forced)) is not None
                      and not f.name.lower().endswith((".txt", ".xml"))]
            if not picked:
                bad.append(f"{item}: no results file in this folder")
            found.extend(picked)
        elif p.is_file():
            fmt = _format_of(p, forced)
            if fmt is None:
                bad.append(f"{item}: unknown file type (use --input-format)")
            else:
                found.append((p, fmt))
        else:
            bad.append(f"{item}: no such file or folder")
    seen: dict[Path, None] = {}
    unique = []
    for f, fmt in found:
        if f.resolve() not in seen:
            seen[f.resolve()] = None
            unique.append((f, fmt))
    return unique, bad


def _read_table(path: Path) -> tuple[pl.DataFrame, list[pl.DataFrame]]:
    name = path.name.lower()
    if name.endswith((".parquet", ".pq")):
        df = pl.read_parquet(path)
    else:
        df = pl.read_csv(path, separator="\t" if name.endswith(".tsv") else ",",
                         infer_schema_length=10_000, schema_overrides=_ID_OVERRIDES)
    if "event_id" not in df.columns:
        df = df.with_columns(pl.lit(path.name.split(".")[0], dtype=pl.String).alias("event_id"))
    notes: list[pl.DataFrame] = []
    if "player_a" in df.columns and "player_id" not in df.columns:
        from swissframe.schema import from_matches

        # seat A / B double as player / opponent so that cell problems name them
        seats = df.with_columns(pl.col("player_a").alias("player_id"),
                                pl.col("player_b").alias("opponent_id")) \
            if "player_b" in df.columns else df
        cast, problems = coerce(seats, int_columns=[c for c in _MATCH_INT if c in df.columns],
                                str_columns=[c for c in ("event_id", "player_a", "player_b")
                                             if c in df.columns])
        notes = [p.collect() for p in problems]
        if cast is None:
            msg = (f"{path}: the match table's columns cannot be read: "
                   + "; ".join(n["detail"][0] for n in notes if n.height))
            raise SwissframeError(msg)
        df = from_matches(cast.drop("_sf_row", "player_id", "opponent_id", strict=False)
                          .collect())
    return df, notes


def _read_importer(path: Path, fmt: str, key: str) -> tuple[pl.DataFrame, list[pl.DataFrame]]:
    notes: list[pl.DataFrame] = []
    if fmt == "decklist":
        from swissframe.io.decklist import read_decklist_cache

        dl = read_decklist_cache([path], workers=1)
        rep = dl.report
        if rep.height:
            notes.append(rep.select(
                pl.lit("warning").alias("severity"), pl.lit("import_note").alias("kind"),
                pl.col("event_id").cast(pl.String), pl.col("round").cast(pl.Int64),
                pl.col("player_id").cast(pl.String),
                pl.format("{}: {}", pl.col("kind"), pl.col("detail")).alias("detail")))
        return dl.results, notes
    if fmt == "tom":
        from swissframe.io.tom import read_tom

        tom = read_tom([path], event_ids=[key])
        results, pending = tom.results, tom.pending
    else:
        from swissframe.io.trf import read_trf

        trf = read_trf([path], event_ids=[key])
        results, pending = trf.results, trf.pending
    if pending.height:
        notes.append(pending.select(
            pl.lit("warning").alias("severity"), pl.lit("import_note").alias("kind"),
            pl.col("event_id").cast(pl.String), pl.col("round").cast(pl.Int64),
            pl.col("player_id").cast(pl.String), pl.col("opponent_id").cast(pl.String),
            pl.lit("pending: paired but no result yet; left out of the results")
            .alias("detail")))
    return results, notes


def _decklist_batch(paths: Sequence[Path]) -> tuple[pl.DataFrame, list[pl.DataFrame]] | None:
    """All decklist files in one importer call (parallel); None when any file fails, so
    that the caller reads them one by one and names the bad ones."""
    from swissframe.io.decklist import read_decklist_cache

    try:
        dl = read_decklist_cache(list(paths))
    except (SwissframeError, OSError, UnicodeError, pl.exceptions.PolarsError):
        return None
    where = dl.events.select("event_id", pl.col("path").cast(pl.String).alias(ORIGIN))
    results = dl.results.join(where, on="event_id", how="left")
    notes = []
    if dl.report.height:
        notes.append(_note_frame(dl.report.join(where, on="event_id", how="left").select(
            pl.lit("warning").alias("severity"), pl.lit("import_note").alias("kind"),
            pl.col("event_id").cast(pl.String), pl.col("round").cast(pl.Int64),
            pl.col("player_id").cast(pl.String), pl.col(ORIGIN).alias("file"),
            pl.format("{}: {}", pl.col("kind"), pl.col("detail")).alias("detail"))))
    return results, notes


def _note_frame(e: pl.DataFrame) -> pl.DataFrame:
    fill = [pl.lit(None, dtype=dt).alias(c) for c, dt in PROBLEM_SCHEMA.items()
            if c not in e.columns]
    return e.with_columns(fill).select(list(PROBLEM_SCHEMA)).cast(pl.Schema(PROBLEM_SCHEMA))


def read_for_validation(items: Sequence[str], input_format: str = "auto"
                        ) -> tuple[pl.DataFrame | None, list[pl.DataFrame], list[str], str]:
    """Read every file without stopping at a bad one.

    Returns the combined rows (with the file in column ``_sf_file``; None when no file was
    readable), problem frames (unreadable files, importer notes), the files read, and the
    format used for the ``auto`` best-of (the most common one).
    """
    from swissframe.io.tom import event_keys

    pairs, bad = _expand(items, input_format)
    notes = [file_problem("unreadable_file", b.split(": ", 1)[1], file=b.split(": ", 1)[0])
             for b in bad]
    keys = event_keys([f for f, _ in pairs]) if pairs else []
    frames: list[pl.DataFrame] = []
    formats: list[str] = []
    read: list[str] = []
    decklists = [p for p, fmt in pairs if fmt == "decklist"]
    batch = _decklist_batch(decklists) if len(decklists) > 1 else None
    if batch is not None:
        df, extra = batch
        frames.append(df)
        notes.extend(extra)
        formats.extend(["decklist"] * len(decklists))
        read.extend(str(p) for p in decklists)
    for (path, fmt), key in zip(pairs, keys, strict=True):
        if batch is not None and fmt == "decklist":
            continue
        try:
            if fmt == "table":
                df, extra = _read_table(path)
            else:
                df, extra = _read_importer(path, fmt, key)
        except (SwissframeError, OSError, UnicodeError, pl.exceptions.PolarsError) as exc:
            text = " | ".join(x.strip() for x in str(exc).splitlines() if x.strip())
            notes.append(file_problem("unreadable_file", f"{type(exc).__name__}: {text}",
                                      file=str(path)))
            continue
        notes.extend(_note_frame(e.with_columns(pl.lit(str(path)).alias("file")))
                     for e in extra)
        frames.append(df.with_columns(pl.lit(str(path), dtype=pl.String).alias(ORIGIN)))
        formats.append(fmt)
        read.append(str(path))
    combined: pl.DataFrame | None = None
    if frames:
        try:
            combined = pl.concat(frames, how="diagonal_relaxed")
        except pl.exceptions.PolarsError:  # incompatible dtypes across files: compare as text
            combined = pl.concat([f.with_columns(pl.all().cast(pl.String, strict=False))
                                  for f in frames], how="diagonal_relaxed")
    common = max(sorted(set(formats)), key=formats.count) if formats else "table"
    return combined, notes, read, common


def _best_of(text: str, fmt: str) -> int | None:
    t = text.strip().lower()
    if t == "auto":
        return BEST_OF_BY_FORMAT.get(fmt, 3)
    if t == "none":
        return None
    if t.isdigit() and int(t) > 0:
        return int(t)
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
    return str(report) + "\n"


def run(args: argparse.Namespace) -> int:
    """Run ``swissframe validate``; the exit status is described in the module docstring."""
    fmt = output_format(args.format, args.output)
    if fmt not in FORMATS:
        msg = (f"validate writes {', '.join(FORMATS)}, not {fmt}. Hint: -o report.json or "
               "-o problems.csv.")
        raise SwissframeError(msg)
    _best_of(str(args.best_of), "table")  # a bad --best-of fails before reading
    with working(args, reading(args.files)):
        combined, notes, read, common = read_for_validation(args.files, args.input_format)
    best_of = _best_of(str(args.best_of), common)
    table = combined if combined is not None else pl.DataFrame(
        schema={"event_id": pl.String, "round": pl.Int64, "player_id": pl.String,
                "opponent_id": pl.String, "games_won": pl.Int64, "games_lost": pl.Int64,
                "games_drawn": pl.Int64, ORIGIN: pl.String})
    with working(args, "checking"):
        report = _validate(table, rules=args.rules, best_of=best_of, origin=ORIGIN, extra=notes)
    report = ValidationReport(problems=report.problems, rows=report.rows, events=report.events,
                              rules=report.rules, best_of=report.best_of, files=tuple(read))
    if fmt in ("csv", "tsv", "ndjson", "parquet", "xlsx"):
        _write_frame(report.problems, fmt, args.output, inputs=args.files)
    elif args.output:
        with atomic_path(args.output, args.files) as tmp:
            tmp.write_text(render(report, fmt), encoding="utf-8")
    else:
        sys.stdout.write(render(report, fmt))
    if args.output:
        first = str(report).splitlines()[0]
        print(f"{first} Report written to {args.output}.")
    if (report.problems["kind"] == "unreadable_file").any():
        return 2
    if not report.ok or (args.strict and not report.clean):
        return 1
    return 0
