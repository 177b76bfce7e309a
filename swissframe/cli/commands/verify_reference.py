"""``swissframe verify-ref FILES… [-o OUT]``: TOM placings and TRF tie-breaks against the
reference software.

TOM files (``.tdf``/``.xml``) are checked with
:func:`swissframe.verify_reference.verify_tom`; TRF files (``.trf``) with
:func:`~swissframe.verify_reference.verify_trf`, using every TieBreakServer table found next
to the file (``<name>.<YYYY-MM-DD>[.all].txt``, where ``<name>`` is the TRF's name up to its
first dot), the tables given with ``--reference`` and Held's answers from ``--held
SOURCES.md`` (for an event named ``held_swiss_5``). The lead wires it in
``swissframe/cli.py`` by adding ``"verify_reference"`` to ``COMMAND_MODULES``.
"""

from __future__ import annotations

import argparse
import glob
import re
from pathlib import Path

import polars as pl

from swissframe._display import fill
from swissframe.cli._common import (
    add_quiet,
    output_format,
    printable,
    reading,
    terminal_width,
    working,
    write_frame,
)
from swissframe.errors import SwissframeError
from swissframe.io._files import event_keys, expand, shown
from swissframe.verify.reference import (
    read_held_values,
    read_tiebreakserver_table,
    summarize_reference,
    verify_tom,
    verify_trf,
)

__all__ = ["add_parser", "find_tables", "run"]

_TABLE = re.compile(r"^(?P<name>[^.]+)\.\d{4}-\d{2}-\d{2}(\.all)?\.txt$")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``verify-ref`` subcommand.

    Examples
    --------
    >>> p = argparse.ArgumentParser(); sub = p.add_subparsers()
    >>> add_parser(sub)
    >>> a = p.parse_args(["verify-ref", "x.trf", "--rule-set", "fide-2026", "-o", "o.csv"])
    >>> a.rule_set, a.output, a.earned_bye
    ('fide-2026', 'o.csv', 'both')
    """
    p = subparsers.add_parser(
        "verify-ref", help="check TOM/TRF files against the reference software's values",
        description="Recompute TOM Swiss placings per division and TRF tie-breaks, and print "
                    "the agreement with TOM's published order, TieBreakServer tables and "
                    "Held's answers, per file and tie-break.")
    p.add_argument("files", nargs="+", metavar="FILE", help=".tdf/.xml (TOM) or .trf files")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write the per-value table here; the suffix chooses the format "
                        "(.csv, .tsv, .parquet, .json, .ndjson, .xlsx)")
    p.add_argument("--reference", action="append", default=[], metavar="TABLE",
                   help="a TieBreakServer .txt table for the (single) TRF file (repeatable)")
    p.add_argument("--held", metavar="FILE",
                   help="read Held's answers for held_swiss_5 from this SOURCES.md")
    p.add_argument("--rule-set", default="auto", choices=["auto", "fide-2023", "fide-2026"],
                   help="FIDE rule set (default: from the reference or the 042 start date)")
    p.add_argument("--earned-bye", default="both", metavar="READING",
                   help="TOM earned-bye readings: both, all, bye, 3/4 or own (default: both)")
    add_quiet(p)
    p.set_defaults(func=run)


def find_tables(trf: Path) -> list[Path]:
    """TieBreakServer tables stored next to a TRF file (same name up to the first dot).

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for n in ("ev.RETYPED.trf", "ev.2026-03-01.txt", "ev.2026-03-01.all.txt", "x.txt"):
    ...     _ = (d / n).write_text("")
    >>> [p.name for p in find_tables(d / "ev.RETYPED.trf")]
    ['ev.2026-03-01.all.txt', 'ev.2026-03-01.txt']
    """
    name = trf.name.split(".")[0]
    return sorted(p for p in trf.parent.glob(f"{glob.escape(name)}.*.txt")
                  if (m := _TABLE.match(p.name)) and m["name"] == name)


def _trf_references(files: list[Path], keys: list[str], args: argparse.Namespace
                    ) -> pl.DataFrame | None:
    parts = []
    if args.reference and len(files) != 1:
        msg = "--reference needs exactly one TRF file. Hint: run once per TRF file."
        raise SwissframeError(msg)
    for f, key in zip(files, keys, strict=True):
        tables = [Path(t) for t in args.reference] or find_tables(f)
        parts += [read_tiebreakserver_table(t, event_id=key) for t in tables]
        if args.held and key.split("/")[-1].split(".")[0] == "held_swiss_5":
            parts.append(read_held_values(args.held, event_id=key))
    return pl.concat(parts) if parts else None


def _check_files(args: argparse.Namespace, tom: list[tuple[Path, str]],
                 trf: list[tuple[Path, str]], tables: list[pl.DataFrame],
                 summaries: list[pl.DataFrame]) -> None:
    """Verify the TOM and TRF files, appending the per-value tables and their summaries."""
    from swissframe.io.tom import read_tom  # (when run: the parser imports every command
    from swissframe.io.trf import read_trf  # module, and every command paid for the readers)

    if tom:
        ev = read_tom([f for f, _ in tom], event_ids=[k for _, k in tom])
        t = verify_tom(ev, earned_bye=args.earned_bye)
        tables.append(t.with_columns(kind=pl.lit("tom")))
        summaries.append(summarize_reference(t))
    if trf:
        ev_trf = read_trf([f for f, _ in trf], event_ids=[k for _, k in trf])
        ref = _trf_references([f for f, _ in trf], [k for _, k in trf], args)
        t = verify_trf(ev_trf, rule_set=args.rule_set, reference=ref)
        tables.append(t.with_columns(kind=pl.lit("trf")))
        summaries.append(summarize_reference(t))


def _print_verdict(summaries: list[pl.DataFrame], *, output: str | None, width: int) -> bool:
    """Print one closing line over every file, reference and tie-break; True when every
    compared value agrees.

    (The per-group lines only gave counts such as ``BH 15/16``: a run whose exit status was
    1 did not say that anything differed, nor where to look.)

    Examples
    --------
    >>> s = pl.DataFrame({"event_id": ["e", "e"], "reference": ["Held /V2"] * 2,
    ...     "rule_set": ["fide-2026"] * 2, "tiebreak": ["BH", "SB"], "compared": [16, 16],
    ...     "matched": [15, 16], "not_implemented": [0, 0], "not_derived": [0, 0]})
    >>> _print_verdict([s], output=None, width=80)
    1 of 32 compared values differs: e against Held /V2 (BH). Hint: -o FILE.csv writes
    each value beside its reference.
    False
    >>> _print_verdict([s.with_columns(matched=pl.col("compared"))], output=None, width=80)
    All 32 compared values agree.
    True
    """
    rows = [r for s in summaries for r in s.iter_rows(named=True)]
    compared = sum(r["compared"] for r in rows)
    differ = compared - sum(r["matched"] for r in rows)
    if not differ:
        line = (f"All {compared:,} compared values agree." if compared
                else "No value was compared: the files carry no reference values.")
        print(fill(line, width=width, break_on_hyphens=False))
        return True
    # the groups that differ, said as the lines above say them: a TOM division with its
    # reading, a TRF reference with its tie-breaks
    groups: dict[str, list[str]] = {}
    for r in rows:
        if r["matched"] == r["compared"]:
            continue
        if "reading" in r:
            groups.setdefault(f"{r['event_id']}: {r['division']} ({r['reading']} "
                              "earned-bye reading)", [])
        else:
            groups.setdefault(f"{r['event_id']} against {r['reference']}",
                              []).append(str(r["tiebreak"]))
    where = [printable(g + (f" ({', '.join(tbs)})" if tbs else ""))
             for g, tbs in groups.items()]
    shown_where = ", ".join(where[:4]) + (f" and {len(where) - 4} more" if len(where) > 4
                                          else "")
    verb = "differs" if differ == 1 else "differ"
    line = f"{differ:,} of {compared:,} compared values {verb}: {shown_where}."
    if not output:
        line += " Hint: -o FILE.csv writes each value beside its reference."
    print(fill(line, width=width, break_on_hyphens=False))
    return False


def run(args: argparse.Namespace) -> int:
    """Run ``verify-ref``; returns 0 when every compared value matches, 1 otherwise, 2 on
    bad input (errors raise; the CLI prints them as one line).

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "club.trf").write_text(
    ...     "042 2024/01/01\\n"
    ...     "001    1      A" + " " * 66 + "1.0    1     2 w 1\\n"
    ...     "001    2      B" + " " * 66 + "0.0    2     1 b 0\\n")
    >>> _ = (d / "club.2024-01-01.txt").write_text(
    ...     "StartNo\\tRank\\tPTS\\tSB\\n1\\t1\\t1.0\\t0.00\\n2\\t2\\t0.0\\t0.00\\nCheck: True\\n")
    >>> ns = argparse.Namespace(files=[str(d / "club.trf")], output=None, reference=[],
    ...     held=None, rule_set="auto", earned_bye="both")
    >>> run(ns)  # doctest: +ELLIPSIS
    club: TRF ...
    0
    """
    if args.output:
        output_format(None, args.output)
    found, _ = expand(args.files)  # formats judged by content, as every command does
    kinds = dict(found)
    files = [f for f, kind in found if kind in ("tom", "trf")]
    if len(files) < len(found):
        other = sorted({shown(f) for f, kind in found if kind not in ("tom", "trf")})
        msg = (f"verify-ref checks TOM and TRF files; {', '.join(other[:3])}"
               f"{' …' if len(other) > 3 else ''} {'is' if len(other) == 1 else 'are'} not. "
               "Hint: decklist-cache files are checked by swissframe verify.")
        raise SwissframeError(msg)
    keys = event_keys(files)
    tom = [(f, k) for f, k in zip(files, keys, strict=True) if kinds[f] == "tom"]
    trf = [(f, k) for f, k in zip(files, keys, strict=True) if kinds[f] == "trf"]
    # (a reference for no file given was dropped without a word: the output then said
    # nothing of it, as if it had been compared)
    if args.reference and not trf:
        msg = ("--reference gives a TieBreakServer table for a TRF file, and no TRF file is "
               "given. Hint: pass the TRF file the table is for.")
        raise SwissframeError(msg)
    if args.held and not any(k.split("/")[-1].split(".")[0] == "held_swiss_5"
                             for _, k in trf):
        msg = ("--held gives Held's answers for held_swiss_5.trf, and no file given is "
               "held_swiss_5. Hint: pass held_swiss_5.trf beside --held, or leave --held out.")
        raise SwissframeError(msg)
    tables: list[pl.DataFrame] = []
    summaries: list[pl.DataFrame] = []
    with working(args, reading(args.files)):
        _check_files(args, tom, trf, tables, summaries)
    width = terminal_width()
    for s in summaries:
        # a TRF's tie-breaks under one line per event and reference, wrapped to the
        # terminal (one line each ran to 90-114 columns and 150 lines for one file)
        groups: dict[str, list[str]] = {}
        for row in s.iter_rows(named=True):
            extra = "; ".join(f"{row[k]} not {k.removeprefix('not_')}"
                              for k in ("not_implemented", "not_derived") if row.get(k))
            counts = f"{row['matched']}/{row['compared']}" + (f" ({extra})" if extra else "")
            # (the event is named by its file: an escape sequence in a file's name recoloured
            # the terminal, as ids did before cli._common.printable)
            event = printable(str(row["event_id"]))
            if "reading" in row:  # a TOM division
                print(fill(f"{event}: {row['division']} ({row['reading']} "
                                    f"earned-bye reading): {counts}", width=width,
                                    subsequent_indent="    ", break_on_hyphens=False))
                continue
            head = (f"{event}: {printable(str(row['reference']))} "
                    f"[{printable(str(row['rule_set']))}]")
            # (no-break spaces: a tie-break and its counts stay on one line)
            groups.setdefault(head, []).append(f"{row['tiebreak']} {counts}"
                                               .replace(" ", "\u00a0"))
        for head, items in groups.items():
            print(fill(head, width=width, subsequent_indent="    ",
                                break_on_hyphens=False))
            print(fill(", ".join(items), width=width, initial_indent="  ",
                                subsequent_indent="  ", break_on_hyphens=False)
                  .replace("\u00a0", " "))
    ok = _print_verdict(summaries, output=args.output, width=width)
    if args.output:
        write_frame(pl.concat(tables, how="diagonal_relaxed"), None, args.output,
                    inputs=[*args.files, *args.reference, *([args.held] if args.held else [])],
                    args=args)
    return 0 if ok else 1
