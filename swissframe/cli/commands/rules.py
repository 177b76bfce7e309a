"""``swissframe rules [NAME…]``: list the ruleset presets with their ranking criteria.

Without names, one line per preset (name, points, criteria in order — ``↑`` marks "lower is
better" — floor/cap and the source it cites). With names, every field of those presets.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from fractions import Fraction
from typing import Final

import orjson
import polars as pl

from swissframe import rules as _rules
from swissframe.rules._ruleset import fraction_text

__all__ = ["add_parser", "presets_table", "run"]

FORMATS: Final = ("table", "csv", "json")


def presets_table(names: list[str] | None = None) -> pl.DataFrame:
    """One row per preset: name, points, criteria, clamps, source.

    Examples
    --------
    >>> t = presets_table(["pokemon"])
    >>> t.select("name", "points", "criteria").row(0)
    ('pokemon', '3/1/0/3', 'match_points → omwp → oomwp → head_to_head → random')
    """
    chosen = [_rules.get(n) for n in names] if names else list(_rules.PRESETS.values())
    rows = []
    for r in chosen:
        crit = " → ".join(("↑" if not c.descending else "") + c.name for c in r.criteria)
        if not r.points_first and (not r.criteria or r.criteria[0].name != "match_points"):
            crit = crit + " (not by points)"
        rows.append({
            "name": r.name,
            "points": "/".join(fraction_text(p) for p in (r.points_win, r.points_draw,
                                                          r.points_loss, r.points_bye)),
            "criteria": crit,
            "columns": ", ".join(c.name for c in r.columns),
            "floor": fraction_text(r.floor),
            "cap": fraction_text(r.cap) + ("" if r.cap_dropped == r.cap
                                  else f" ({fraction_text(r.cap_dropped)} dropped)"),
            "snapshot": r.snapshot,
            "description": r.description,
            "source": r.source,
        })
    cols = ("name", "points", "criteria", "columns", "floor", "cap", "snapshot",
            "description", "source")
    return pl.DataFrame(rows, schema=dict.fromkeys(cols, pl.String))


def _details(name: str) -> dict[str, object]:
    r = _rules.get(name)
    out: dict[str, object] = {}
    for f in dataclasses.fields(r):
        v = getattr(r, f.name)
        if isinstance(v, Fraction):
            out[f.name] = fraction_text(v)
        elif f.name in ("criteria", "columns"):
            # (what the number counts where the name does not say it: Criterion.unit)
            out[f.name] = [{"name": c.name, "function": c.function,
                            "descending": c.descending, "params": dict(c.params),
                            **({"unit": c.unit} if c.unit else {})} for c in v]
        elif isinstance(v, tuple):
            out[f.name] = list(v)
        elif f.name == "options":
            out[f.name] = {k: str(x) for k, x in dict(v).items()}
        else:
            out[f.name] = v
    return out


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``swissframe rules``."""
    p = subparsers.add_parser(
        "rules", help="list the ruleset presets and their criteria",
        description="List every ruleset preset (name, points, ranking criteria in order, "
        "floor/cap, cited source). Give preset names to see all their fields.")
    p.add_argument("names", nargs="*", metavar="NAME", help="presets to show in full")
    p.add_argument("--format", choices=FORMATS, default="table", help="output format")


def run(args: argparse.Namespace) -> int:
    """Print the presets; exit 0 (an unknown name raises RulesetError: exit 2 in the CLI)."""
    names: list[str] = list(args.names or [])
    if names:
        details = [_details(n) for n in names]
        if args.format == "json":
            sys.stdout.write(orjson.dumps(details, option=orjson.OPT_INDENT_2).decode() + "\n")
            return 0
        for d in details:
            sys.stdout.write(f"{d['name']}\n")
            for k, v in d.items():
                if k != "name":
                    sys.stdout.write(f"  {k}: {v}\n")
        return 0
    table = presets_table()
    if args.format == "json":
        sys.stdout.write(orjson.dumps(table.to_dicts(), option=orjson.OPT_INDENT_2).decode()
                         + "\n")
    elif args.format == "csv":
        sys.stdout.write(table.write_csv())
    else:
        from swissframe._display import fill
        from swissframe.cli._common import terminal_width
        from swissframe.sensitivity import option_matters

        width = max(len(n) for n in table["name"])
        total, pad = terminal_width(), " " * (width + 2)
        for r in table.iter_rows(named=True):
            # (the clamps of the win rates, where a criterion reads a rate: FIDE's
            # "floor 0, cap 1" was said of rankings that read none)
            clamps = (f", floor {r['floor']}, cap {r['cap']}"
                      if option_matters(_rules.get(r["name"]), "floor") else "")
            sys.stdout.write(f"{r['name']:<{width}}  points {r['points']}{clamps}\n")
            line = pad
            for i, step in enumerate(r["criteria"].split(" → ")):  # break only after an arrow
                piece = step if i == 0 else f" → {step}"
                if len(line) + len(piece) > total and line.strip():
                    sys.stdout.write(line + " →\n")
                    line, piece = pad, step
                line += piece
            sys.stdout.write(line + "\n")
            # (a path kept whole: "docs/fidelity-tom-trf.md" cut at a hyphen cannot be
            # copied)
            sys.stdout.write(fill(r["source"], width=total, initial_indent=pad,
                                           subsequent_indent=pad, break_on_hyphens=False,
                                           break_long_words=False) + "\n")
    return 0
