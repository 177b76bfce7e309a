"""Regenerate the tables of ``docs/fidelity.md`` from the real corpus in ``../shared``.

Usage::

    .venv/bin/python scripts/fidelity_report.py                 # ../shared next to the repo
    .venv/bin/python scripts/fidelity_report.py --shared /path/to/shared

Prints Markdown: agreement per source and era (:func:`swissframe.verify.summarize`), the
melee.gg player groups, the melee.gg mismatch classes, the CardsRealm split by record
consistency, and the order tables (issue 20): order agreement per source and era, the order
mismatch classes per source, how exact ties on the published values are broken, and which
key follows OMW% in Manatraders' order.

The mismatch *classes* use a diagnostic that the method itself never uses,
:func:`swissframe.verify.matching_rounds`: for every melee.gg player it recomputes the values
at every cutoff round of the event and lists the rounds whose values equal the published
ones. That tells *which* round melee.gg published a mismatched player as of; it is fitted to
the published values, so it only classifies misses and is never fed back into
:func:`swissframe.verify.verify`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

import polars as pl

import swissframe as sf

ROOT = Path(__file__).resolve().parents[1]
_VALUES = ("omwp", "gwp", "ogwp")
#: Events from this date on no longer show melee.gg's frozen-drop anomalies.
AFTER_ANOMALIES = dt.date(2025, 11, 13)


def _markdown(df: pl.DataFrame) -> str:
    head = "| " + " | ".join(df.columns) + " |"
    sep = "|" + "---|" * len(df.columns)
    rows = ["| " + " | ".join("" if v is None else (f"{v:.4f}" if isinstance(v, float)
                                                      else str(v)) for v in r) + " |"
            for r in df.rows()]
    return "\n".join([head, sep, *rows])


def _players(ev: sf.DecklistEvents) -> pl.DataFrame:
    """Per player: last stage played, own last round, that stage's end, the event end."""
    r = ev.results.with_columns(
        pl.when(pl.col("phase") == "playoff").then(pl.lit("playoff"))
        .otherwise(pl.col("stage")).alias("stage"))
    last = (r.sort("round").group_by("event_id", "player_id")
            .agg(pl.col("stage").last().alias("st"), pl.col("round").max().alias("own")))
    ends = r.group_by("event_id", "stage").agg(pl.col("round").max().alias("send"))
    evend = r.group_by("event_id").agg(pl.col("round").max().alias("eend"))
    return (last.join(ends.rename({"stage": "st"}), on=["event_id", "st"])
            .join(evend, on="event_id")
            .with_columns((pl.col("own") < pl.col("send")).alias("dropped")))


def melee_report(ev: sf.DecklistEvents, manifest: pl.DataFrame) -> None:
    complete = manifest.filter(pl.col("rounds_complete") == "1").select("event_id")
    v = (sf.verify(ev).filter(pl.col("in_rounds") & pl.col("in_standings"))
         .join(complete, on="event_id", how="semi"))
    print(f"\n## melee.gg, rounds complete: {v['event_id'].n_unique()} events, "
          f"{v.height} players, {int(v['match'].sum())} matched "
          f"({v['match'].mean():.2%})\n")
    print("mismatching values: " + ", ".join(
        f"{c} {int((~v[f'{c}_match']).sum())}" for c in _VALUES))
    dated = v.join(ev.events.select("event_id", "date"), on="event_id")
    recent = dated.filter(pl.col("date") >= AFTER_ANOMALIES)
    print(f"events from {AFTER_ANOMALIES}: {recent.height} players, "
          f"{recent['match'].mean():.2%} matched")
    print()
    print(_markdown(sf.summarize(v).select("era", "events", "players", "matched", "share",
                                           "events_exact")))

    p = _players(ev).join(ev.events.select("event_id", "swiss_rounds", "playoff_rounds"),
                          on="event_id")
    t = v.select("event_id", "player_id", "match").join(p, on=["event_id", "player_id"])
    group = (pl.when(pl.col("swiss_rounds") == 0)
             .then(pl.lit("knockout events (bracket from round 1)"))
             .when(pl.col("playoff_rounds") == 0)
             .then(pl.when("dropped").then(pl.lit("Swiss-only events, dropped before the end"))
                   .otherwise(pl.lit("Swiss-only events, played to the end")))
             .when(pl.col("st") == "playoff").then(pl.lit("playoff events, playoff players"))
             .when("dropped")
             .then(pl.lit("playoff events, dropped before the end of their stage"))
             .otherwise(pl.lit("playoff events, played to the end of their stage, no playoff")))
    print()
    print(_markdown(t.with_columns(group.alias("group")).group_by("group").agg(
        pl.len().alias("players"), (~pl.col("match")).sum().alias("mismatched"),
        pl.col("match").mean().alias("matched")).sort("group")))

    # mismatch classes (diagnostic: which cutoff would have matched)
    fitted = sf.matching_rounds(ev).rename({"rounds": "fits"})
    miss = t.filter(~pl.col("match")).join(fitted, on=["event_id", "player_id"], how="left")
    fits = pl.col("fits")
    has = fits.list.contains
    # events where every informative dropped player fits stage end - 1 and not the end
    d = t.join(fitted, on=["event_id", "player_id"], how="left").filter(
        "dropped", pl.col("st") != "playoff")
    f_end, f_m1 = has(pl.col("send")).fill_null(False), has(pl.col("send") - 1).fill_null(False)
    frozen = (d.filter(f_end != f_m1).group_by("event_id")
              .agg(f_m1.filter(f_end != f_m1).mean().alias("_s"))
              .filter(pl.col("_s") >= 0.8).select("event_id"))
    in_frozen = pl.col("event_id").is_in(frozen["event_id"].implode())
    ko = pl.col("swiss_rounds") == 0
    cls = (pl.when(ko & (pl.col("own") == 1) & has(pl.col("own")).fill_null(False))
           .then(pl.lit("knockout, first-round loser published as of round 1"))
           .when(ko).then(pl.lit("knockout, another round"))
           .when(pl.col("dropped") & has(pl.col("send") - 1).fill_null(False) & in_frozen)
           .then(pl.lit("dropped, event froze every dropped player at stage end - 1"))
           .when(pl.col("dropped") & has(pl.col("send") - 1).fill_null(False))
           .then(pl.lit("dropped, stage end - 1 fits (other events)"))
           .when(pl.col("dropped") & has(pl.col("own")).fill_null(False))
           .then(pl.lit("dropped, own last round fits"))
           .when(pl.col("dropped") & (fits.list.len() > 0))
           .then(pl.lit("dropped, some other round fits"))
           .when("dropped").then(pl.lit("dropped, no round fits"))
           .when((pl.col("st") != "playoff") & has(pl.col("eend")).fill_null(False))
           .then(pl.lit("played to the end of the Swiss, end-of-event values fit"))
           .when(pl.col("st") == "playoff").then(pl.lit("playoff player, another round"))
           .when(fits.list.len() > 0).then(pl.lit("played to the end, another round fits"))
           .otherwise(pl.lit("played to the end, no round fits")))
    print(f"\nevents freezing every dropped player at stage end - 1: {frozen.height}")
    print()
    print(_markdown(miss.with_columns(cls.alias("class")).group_by("class")
                    .agg(pl.len().alias("players")).sort("players", descending=True)))


def cardsrealm_report(ev: sf.DecklistEvents) -> None:
    v = sf.verify(ev).filter(pl.col("in_rounds") & pl.col("in_standings"))
    print(f"\n## CardsRealm: {v.height} players, {int(v['match'].sum())} matched "
          f"({v['match'].mean():.2%})\n")
    won, lost = pl.col("games_won"), pl.col("games_lost")
    rec = (ev.results.filter(pl.col("phase") == "swiss").group_by("event_id", "player_id")
           .agg((won > lost).sum().alias("w"), (won < lost).sum().alias("l"),
                (won == lost).sum().alias("d")))
    same = ((pl.col("w") == pl.col("wins")) & (pl.col("l") == pl.col("losses"))
            & (pl.col("d") == pl.col("draws"))).fill_null(value=False)
    consistent = (ev.published.join(rec, on=["event_id", "player_id"], how="left")
                  .group_by("event_id").agg(same.all().alias("consistent")))
    t = v.join(consistent, on="event_id")
    per_event = t.group_by("era", "consistent", "event_id").agg(
        pl.len().alias("n"), pl.col("match").sum().alias("m"),
        pl.col("match").all().alias("exact"))
    print(_markdown(per_event.group_by("era", "consistent").agg(
        pl.len().alias("events"), pl.col("n").sum().alias("players"),
        (pl.col("m").sum() / pl.col("n").sum()).alias("matched"),
        pl.col("exact").sum().alias("events_exact"))
        .sort("era", "consistent", descending=[False, True])))


def _order_classes(v: pl.DataFrame, ev: sf.DecklistEvents) -> pl.DataFrame:
    """Every player whose published position is not reproduced, by the first cause that
    applies (checked in this order)."""
    po = (ev.results.filter(pl.col("phase") == "playoff").select("event_id", "player_id")
          .unique().with_columns(pl.lit(True).alias("_po")))
    flags = v.group_by("event_id").agg(
        (~pl.col("in_rounds") | ~pl.col("in_standings")).any().alias("_absent"),
        (~pl.col("match")).filter(pl.col("in_rounds") & pl.col("in_standings")).any()
        .alias("_other_miss"))
    t = (v.filter(pl.col("in_rounds") & pl.col("in_standings"))
         .join(po, on=["event_id", "player_id"], how="left").join(flags, on="event_id"))
    inexact = pl.any_horizontal(
        ((pl.col(c) - pl.col(f"{c}_published")).abs() > 1e-12) & pl.col(f"{c}_match")
        .fill_null(value=False) for c in _VALUES)
    cls = (pl.when(pl.col("rank_match").is_null())
           .then(pl.lit("playoff player, bracket not derivable (playoff match unreported)"))
           .when(pl.col("_absent"))
           .then(pl.lit("event lists players absent from its rounds (or the reverse)"))
           .when(pl.col("_po").fill_null(value=False) & (pl.col("ruleset").str.starts_with(
               "melee") | (pl.col("ruleset") == "topdeck")))
           .then(pl.lit("playoff player (bracket)"))
           .when(~pl.col("match")).then(pl.lit("own values not reproduced"))
           .when(inexact).then(pl.lit("own values equal only within the one-unit tolerance"))
           .when(pl.col("_other_miss"))
           .then(pl.lit("values reproduced; another player's values are not"))
           .otherwise(pl.lit("every value of the event reproduced (order rule)")))
    return (t.filter(~pl.col("rank_match").fill_null(value=False))
            .with_columns(cls.alias("class")).group_by("source", "class")
            .agg(pl.len().alias("players"))
            .sort("source", "players", descending=[False, True]))


def _ties(v: pl.DataFrame, ev: sf.DecklistEvents) -> pl.DataFrame:
    """Exact ties on the published points and values: how the published order breaks them
    (pairs in name order, ~50% when the order has nothing to do with names)."""
    t = (v.filter(pl.col("in_rounds") & pl.col("in_standings"))
         .join(ev.published.select("event_id", "player_id", "points"),
               on=["event_id", "player_id"])
         .filter(pl.col("rank_match").is_not_null()))
    key = ["event_id", "points", "omwp_published", "gwp_published", "ogwp_published"]
    t = t.with_columns(pl.len().over(key).alias("_n")).filter(pl.col("_n") > 1)
    groups = t.sort("published_rank").group_by("source", *key, maintain_order=True).agg(
        pl.len().alias("n"), pl.col("player_id"),
        pl.col("rank_match").all().alias("agree"))
    pairs = groups.filter(pl.col("n") == 2).with_columns(
        (pl.col("player_id").list.get(0) < pl.col("player_id").list.get(1)).alias("_asc"),
        (pl.col("player_id").list.get(0).str.to_lowercase()
         < pl.col("player_id").list.get(1).str.to_lowercase()).alias("_asc_ci"))
    return (groups.group_by("source").agg(pl.len().alias("tie_groups"),
                                          pl.col("n").sum().alias("players"),
                                          pl.col("agree").mean().alias("groups_agreeing"))
            .join(pairs.group_by("source").agg(pl.len().alias("pairs"),
                                               pl.col("_asc").mean().alias("pairs_name_order"),
                                               pl.col("_asc_ci").mean()
                                               .alias("pairs_name_order_ci")),
                  on="source", how="left").sort("source"))


def _manatraders_pairs(v: pl.DataFrame, ev: sf.DecklistEvents) -> str:
    """Consecutive published players equal on points, rounds played and OMW%: how often
    GW% and OGW% put them in the published order."""
    played = (ev.results.filter(pl.col("phase") == "swiss").group_by("event_id", "player_id")
              .agg(pl.len().alias("_rp")))
    t = (v.filter(pl.col("source") == "manatraders", pl.col("in_rounds"),
                  pl.col("in_standings"))
         .join(ev.published.select("event_id", "player_id", "points"),
               on=["event_id", "player_id"])
         .join(played, on=["event_id", "player_id"]).sort("event_id", "published_rank"))
    nxt = [pl.col(c).shift(-1).over("event_id").alias(f"{c}_n")
           for c in ("points", "_rp", "omwp", "gwp", "ogwp")]
    q = t.with_columns(nxt).filter((pl.col("points") == pl.col("points_n"))
                                   & (pl.col("_rp") == pl.col("_rp_n"))
                                   & (pl.col("omwp") == pl.col("omwp_n")))
    gw = int((q["gwp"] >= q["gwp_n"]).sum())
    ogw = int((q["ogwp"] >= q["ogwp_n"]).sum())
    return (f"Manatraders, consecutive players equal on points, rounds played and OMW%: "
            f"{q.height} pairs; GW% orders {gw} of them, OGW% {ogw}")


def order_report(table: pl.DataFrame, ev: sf.DecklistEvents, manifest: pl.DataFrame) -> None:
    """The order tables of docs/fidelity.md (issue 20), from :func:`swissframe.verify.verify`'s
    whole table (players only in the standings or only in the rounds included)."""
    v = table.filter(pl.col("in_rounds") & pl.col("in_standings"))
    print("\n## Order: agreement per source and era\n")
    print(_markdown(sf.summarize(v).select(
        "source", "era", "events", "players", pl.col("share").alias("values"),
        "ranked", "order_matched", pl.col("order_share").alias("order"),
        "events_order_exact")))
    complete = manifest.filter(pl.col("rounds_complete") == "1").select("event_id")
    mel = (v.filter(pl.col("source") == "melee").join(complete, on="event_id", how="semi")
           .join(ev.events.select("event_id", "date"), on="event_id"))
    recent = mel.filter(pl.col("date") >= AFTER_ANOMALIES)
    print(f"\nmelee.gg rounds complete: {mel.height} players, values {mel['match'].mean():.2%}, "
          f"order {mel['rank_match'].mean():.2%}; from {AFTER_ANOMALIES}: {recent.height} "
          f"players, values {recent['match'].mean():.2%}, order "
          f"{recent['rank_match'].mean():.2%}")
    print()
    print(_markdown(sf.summarize(mel, by=("era",)).select(
        "era", "events", "players", pl.col("share").alias("values"),
        pl.col("order_share").alias("order"), "events_order_exact")))
    print("\n## Order mismatch classes\n")
    print(_markdown(_order_classes(table, ev)))
    print("\n## Exact ties on the published values\n")
    print(_markdown(_ties(v, ev)))
    print()
    print(_manatraders_pairs(v, ev))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared",
                    help="the shared folder holding data/realworld (default: ../shared)")
    args = ap.parse_args(argv)
    real = args.shared / "data" / "realworld"
    if not (real / "manifest.csv").exists():
        print(f"no corpus at {real}. Hint: pass --shared.", file=sys.stderr)
        return 2
    manifest = pl.read_csv(real / "manifest.csv", infer_schema_length=0).with_columns(
        pl.col("stored_path").str.split("/").list.last()
        .str.replace(r"\.json(\.gz)?$", "").alias("event_id"))
    root = real / "fbettega_MTG_decklistcache"
    ev = sf.read_decklist_cache(root)
    print("## All sources\n")
    table = sf.verify(ev)
    v = table.filter(pl.col("in_rounds") & pl.col("in_standings"))
    print(_markdown(sf.summarize(v).select("source", "era", "events", "players", "matched",
                                           "share", "events_exact")))
    order_report(table, ev, manifest)
    melee_ids = manifest.filter(pl.col("source") == "MTGmelee")
    mel = sf.read_decklist_cache([real / p for p in melee_ids.filter(
        pl.col("rounds_complete") == "1")["stored_path"]])
    melee_report(mel, melee_ids)
    cr = manifest.filter(pl.col("source") == "CardsRealm")
    cardsrealm_report(sf.read_decklist_cache([real / p for p in cr["stored_path"]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
