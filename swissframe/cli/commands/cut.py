"""``swissframe cut FILE --top 8 [--round R]``: ID advice per table and every player's cut
status / probability before round R (default: the last Swiss round of each event).

The rounds before R are the results; round R's rows give the pairings (a player without a
row in R has dropped). ``--pairings FILE`` analyses a round that is paired but not played.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import polars as pl

from swissframe.cut import cut_status, id_advice, status_summary
from swissframe.errors import SwissframeError
from swissframe.io._files import FORMATS, read, read_table_file
from swissframe.rules._infer import by_ruleset, describe
from swissframe.rules._ruleset import get

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``swissframe cut``."""
    p = subparsers.add_parser(
        "cut", help="cut status and intentional-draw advice before a round",
        description="For round R (default: the last Swiss round) print each table's ID "
        "advice and every player's status (guaranteed / possible / eliminated) and "
        "probability of making the top N after a win, a draw or a loss.")
    p.add_argument("file", metavar="FILE",
                   help="results: CSV/Parquet, decklist-cache JSON, TOM .tdf or TRF (file, "
                   "folder or glob)")
    p.add_argument("--top", type=int, default=8, help="size of the cut (default 8)")
    p.add_argument("--round", type=int, default=None, dest="round_",
                   help="round to analyse (default: the last Swiss round)")
    p.add_argument("--pairings", metavar="FILE", default=None,
                   help="pairings of an unplayed round (player_id, opponent_id[, event_id])")
    p.add_argument("--rules", default=None,
                   help="ruleset preset (default: inferred from the data)")
    p.add_argument("--input-format", choices=("auto", *FORMATS), default="auto")
    p.add_argument("--sims", type=int, default=100,
                   help="Monte Carlo scenarios per large event (default 100; 0: none)")
    p.add_argument("--exact-limit", type=int, default=3125,
                   help="enumerate events with at most this many scenarios (default 3125)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--all", action="store_true",
                   help="list every player (default: players not eliminated in every outcome)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _split(results: pl.DataFrame, round_: int | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    swiss = results.filter(pl.col("phase") == "swiss") if "phase" in results.columns else results
    last = swiss.group_by("event_id").agg(pl.col("round").max().alias("_R"))
    if round_ is not None:
        last = last.with_columns(_R=pl.lit(round_, dtype=pl.Int64))
    s = swiss.join(last, on="event_id")
    prior = s.filter(pl.col("round") < pl.col("_R")).drop("_R")
    pairs = s.filter(pl.col("round") == pl.col("_R")).select(
        "event_id", "round", "player_id", "opponent_id")
    return prior, pairs


def _show(df: pl.DataFrame) -> None:
    with pl.Config(tbl_rows=-1, tbl_cols=-1, tbl_width_chars=160, fmt_str_lengths=40,
                   tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True,
                   float_precision=3):
        print(df)


def run(args: argparse.Namespace) -> int:
    """Run ``swissframe cut``; 0 on success, 1 on a data error."""
    try:
        src = read(args.file, format=getattr(args, "input_format", "auto"))
        results = src.results
        if args.pairings:
            prior, pairs = results, read_table_file(Path(args.pairings))
        else:
            prior, pairs = _split(results, args.round_)
        if pairs.height == 0:
            print("cut: no pairings for the requested round.", file=sys.stderr)
            return 1

        groups = [(args.rules, prior)] if args.rules else by_ruleset(prior)
        statuses, advice = [], []
        for name, rows in groups:  # one analysis per ruleset the data calls for
            # an inferred platform preset counts players at their stage's end; the cut
            # analysis ranks the Swiss as it stands before round R
            rules = get(name) if args.rules else dataclasses.replace(get(name), snapshot="final")
            ids = rows.lazy().select("event_id").unique().collect()
            pr = (pairs.join(ids, on="event_id", how="semi") if "event_id" in pairs.columns
                  else pairs)
            st = cut_status(rows, pr, args.top, rules, n_sims=args.sims,
                            exact_limit=args.exact_limit, seed=args.seed,
                            progress=not args.quiet and sys.stderr.isatty())
            statuses.append(st)
            advice.append(id_advice(rows, pr, args.top, rules, status=st))
        st = src.label(pl.concat(statuses, how="diagonal_relaxed"))
        adv = pl.concat(advice, how="diagonal_relaxed")
        print(describe(src.events, args.rules), file=sys.stderr)
    except SwissframeError as exc:
        print(f"cut: {exc}", file=sys.stderr)
        return 1
    for (ev,), a in adv.group_by("event_id", maintain_order=True):
        print(f"== {ev}: top {args.top} ==")
        _show(a.select("table", "player_a", "player_b", "a_draw", "b_draw", "advice",
                       "a_gain_draw", "b_gain_draw"))
        s = st.filter(pl.col("event_id") == ev)
        index = [c for c in ("division", "player_id", "name") if c in s.columns]
        wide = s.pivot(on="outcome", index=index, values=["status", "probability"],
                       aggregate_function="first")
        if not args.all:
            alive = s.group_by("player_id").agg((pl.col("status") != "eliminated").any()
                                                 .alias("_a"))
            wide = wide.join(alive.filter("_a").select("player_id"), on="player_id")
        _show(wide.sort("player_id"))
    summ = status_summary(st).select(
        pl.sum("statuses"), pl.sum("exact"), pl.sum("possible_undecided")).row(0)
    print(f"{summ[0]} statuses, {summ[1]} decided exactly, {summ[2]} possible (undecided).")
    return 0
