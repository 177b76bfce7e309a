"""Charts: tested through ``chart.to_dict()`` (encodings, fields, the data they carry, the
titles and labels a reader sees, the ruleset's criteria), one real PNG/SVG export, the opt-in
theme, the offline renderer, bad input, and the lazy import of Altair."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import swissframe as sf
from swissframe import charts
from swissframe.cut import cut_status, id_report, next_round_ranges
from swissframe.cut._words import CutWords
from swissframe.errors import DataError, DataWarning, RulesetError, SchemaError, SwissframeError
from swissframe.rules import Criterion, Ruleset

alt = pytest.importorskip("altair")

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------------------- helpers


def values(spec: dict[str, Any], part: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The inline rows a (sub)spec draws: its own data, else the top-level data."""
    node = part if part is not None and "data" in part else spec
    return list(spec["datasets"][node["data"]["name"]])


def filters(part: dict[str, Any]) -> list[Any]:
    return [t["filter"] for t in part.get("transform", []) if "filter" in t]


def axis_titles(spec: dict[str, Any]) -> list[str]:
    """The x-axis titles of the standings chart's panels, left to right."""
    return [p["layer"][1]["encoding"]["x"]["title"] for p in spec["hconcat"]]


def subtitle(spec: dict[str, Any]) -> str:
    sub = spec["title"].get("subtitle", [])
    return " ".join(sub) if isinstance(sub, list) else str(sub)


def standings_frame() -> pl.DataFrame:
    """A hand-written standings table: an exact tie at 2 and one straddling the cut at 4-5."""
    return pl.DataFrame({
        "event_id": ["e"] * 7,
        "player_id": ["Ann", "Bea", "Cal", "Dan", "Eve", "Fay", "Gus"],
        "rank": [1, 2, 2, 4, 4, 6, 7],
        "match_points": [9, 6, 6, 6, 6, 3, 0],
        "omwp": [0.5, 0.6, 0.6, 0.55, 0.55, 0.5, 0.4],
        "gwp": [0.9, 0.6, 0.6, 0.5, 0.5, 0.4, 0.33],
        "ogwp": [0.5, 0.5, 0.5, 0.45, 0.45, 0.5, 0.5],
    })


def small_event() -> pl.DataFrame:
    """8 players, 3 rounds (hand-written), one event."""
    m = pl.DataFrame({
        "round": [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3],
        "player_a": ["A", "C", "E", "G", "A", "E", "B", "F", "A", "B", "C", "D"],
        "player_b": ["B", "D", "F", "H", "C", "G", "D", "H", "E", "F", "G", "H"],
        "games_a": [2, 2, 2, 2, 2, 1, 2, 2, 2, 0, 2, 2],
        "games_b": [0, 1, 0, 1, 1, 2, 0, 0, 0, 2, 1, 0],
        "games_drawn": [0] * 12,
    })
    return sf.from_matches(m).with_columns(event_id=pl.lit("small"))


# ------------------------------------------------------------------------------- import


def test_import_swissframe_does_not_import_altair() -> None:
    code = ("import sys, swissframe, swissframe.charts, swissframe.cli; "
            "bad = [m for m in ('altair', 'vl_convert', 'vega_datasets') if m in sys.modules]; "
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ------------------------------------------------------------------------------- standings


def test_chart_standings_data_and_encodings() -> None:
    c = charts.chart_standings(standings_frame(), cut=4)
    spec = c.to_dict()
    left, right = spec["hconcat"][:2]
    rows = values(spec, left)
    labels = [r["label"] for r in rows]
    assert labels == ["1 Ann", "2= Bea", "2= Cal", "4= Dan", "4= Eve", "6 Fay", "7 Gus"]
    assert [r["zone"] for r in rows] == ["in the cut"] * 3 + ["tied at the cut"] * 2 + [
        "outside"] * 2
    # points groups alternate: 9 | 6 6 6 6 | 3 | 0
    assert [r["band"] for r in rows] == [1, 0, 0, 0, 0, 1, 0]
    bands, bars, text, rule = left["layer"]
    assert len(spec["hconcat"]) == 4  # points, then OMW%, GW%, OGW% (the MTG criteria)
    assert bars["mark"]["type"] == "bar"
    assert bars["encoding"]["x"]["field"] == "match_points"
    assert bars["encoding"]["y"]["field"] == "label"
    assert bars["encoding"]["y"]["sort"] == labels
    assert bars["encoding"]["color"]["field"] == "zone"
    assert bars["encoding"]["color"]["scale"]["domain"] == ["in the cut", "tied at the cut",
                                                            "outside"]
    assert text["encoding"]["text"]["field"] == "match_points"
    assert filters(bands) == ["(datum.band === 1)"]
    assert rule["mark"]["type"] == "rule"
    assert rule["encoding"]["y"]["bandPosition"] == 1
    assert filters(rule) == ["(datum.position === 4)"]  # under place 4
    dots = right["layer"][1]
    assert dots["mark"]["type"] == "point"
    assert dots["encoding"]["x"]["field"] == "omwp"
    assert dots["encoding"]["x"]["axis"]["format"] == ".1~%"
    assert dots["encoding"]["color"]["field"] == "zone"
    assert filters(right["layer"][2]) == ["(datum.position === 4)"]  # the cut in every panel
    assert [p["layer"][1]["encoding"]["x"]["field"] for p in spec["hconcat"][1:]] == [
        "omwp", "gwp", "ogwp"]
    assert axis_titles(spec) == ["Points", "OMW%", "GW%", "OGW%"]
    assert spec["title"]["text"] == "e"  # no event name known: the id
    sub = subtitle(spec)
    assert "Top 7 of 7 players, cut to the top 4" in sub
    assert "ranked by Points → OMW% → GW% → OGW% (mtg)" in sub
    # Dan and Eve share rank 4 across the cut line: said in words
    assert "Places 4 and 5 are tied on every criterion" in sub
    assert "omwp" not in sub


def test_chart_standings_top_and_no_cut() -> None:
    spec = charts.chart_standings(standings_frame(), top=3, cut=None,
                                  tiebreakers=["omwp"]).to_dict()
    left, right = spec["hconcat"][:2]
    rows = values(spec, left)
    assert [r["player_id"] for r in rows] == ["Ann", "Bea", "Cal"]
    assert {r["zone"] for r in rows} == {"in the cut"}
    assert len(left["layer"]) == 3  # no cut rule
    assert len(spec["hconcat"]) == 2
    assert right["layer"][1]["encoding"]["x"]["field"] == "omwp"
    assert "gwp" not in rows[0]


def test_chart_standings_from_engine_matches_table() -> None:
    res = small_event()
    table = sf.standings(res)
    spec = charts.chart_standings(table, cut=4).to_dict()
    rows = values(spec, spec["hconcat"][0])
    assert [r["player_id"] for r in rows] == table["player_id"].to_list()
    assert [r["match_points"] for r in rows] == table["match_points"].to_list()
    assert [r["omwp"] for r in rows] == pytest.approx(table["omwp"].to_list())
    # A won all three (9 points) and is alone in the cut zone's first group
    assert rows[0]["player_id"] == "A"
    assert rows[0]["match_points"] == 9


@pytest.mark.parametrize(("rules", "titles", "order"), [
    ("mtg", ["Points", "OMW%", "GW%", "OGW%"], "Points → OMW% → GW% → OGW%"),
    ("pokemon", ["Points", "OMW%", "OOMW%"],
     "Points → OMW% → OOMW% → Head-to-head → Random"),
    ("fide", ["Points", "BH-C1", "BH", "SB", "WIN"], "Points → BH-C1 → BH → SB → DE → WIN"),
    ("fab", ["Points", "CTB", "PML (lower better)", "OML% (lower better)", "OCTB"],
     "Points → CTB → PML↑ → OML%↑ → OCTB → Random"),
    ("yugioh-ddd", ["Points", "OMW%", "OOMW%", "Lost-round squares"],
     "Points → OMW% → OOMW% → Lost-round squares"),
])
def test_chart_standings_plots_the_rulesets_criteria(rules: str, titles: list[str],
                                                     order: str) -> None:
    """Issue 15: the ruleset's own ordered criteria with their human labels, never the MTG
    trio; criteria without a value to plot (head-to-head, DE, random) only in the text."""
    table = sf.standings(small_event(), rules)
    spec = charts.chart_standings(table, cut=4, rules=rules).to_dict()
    assert axis_titles(spec) == titles
    fields = [p["layer"][1]["encoding"]["x"]["field"] for p in spec["hconcat"][1:]]
    crit = [c for c in sf.rules.get(rules).criteria if c.name in fields]
    assert [c.name for c in crit] == fields  # in the ruleset's order
    assert f"ranked by {order} ({rules})" in subtitle(spec)
    # the same table without rules=: the preset is recognised from its columns
    again = charts.chart_standings(table, cut=4).to_dict()
    assert axis_titles(again) == titles
    pct = [p["layer"][1]["encoding"]["x"]["axis"].get("format") for p in spec["hconcat"][1:]]
    ints = [table.schema[f].is_integer() for f in fields]
    assert pct == [".1~%" if t.split(" ")[0].endswith("%") else ("d" if i else None)
                   for t, i in zip(titles[1:], ints, strict=True)]


def test_chart_standings_labels_come_from_the_criteria() -> None:
    """One place for labels: the chart reads ``Criterion.label`` (default from
    ``swissframe.rules.LABELS``), so a custom label shows as given."""
    league = Ruleset(name="league", criteria=(Criterion("match_points"),
                                              Criterion("omwp", label="Opponents' MW%"),
                                              Criterion("gwp")))
    table = sf.standings(small_event(), league)
    spec = charts.chart_standings(table, cut=4, rules=league).to_dict()
    assert axis_titles(spec) == ["Points", "Opponents' MW%", "GW%"]
    assert sf.rules.LABELS["oomwp"] == "OOMW%"
    assert sf.rules.label_of("bh_c1") == "BH-C1"


def test_chart_standings_event_and_player_names() -> None:
    table = standings_frame().with_columns(
        event_name=pl.lit("Store Championship, Oslo"),
        name=pl.Series(["Ann A.", "Bea B.", None, "Dan D.", "Eve E.", "Fay F.", "Gus G."]))
    spec = charts.chart_standings(table, cut=4).to_dict()
    assert spec["title"]["text"] == "Store Championship, Oslo"
    labels = [r["label"] for r in values(spec, spec["hconcat"][0])]
    assert labels[:3] == ["1 Ann A.", "2= Bea B.", "2= Cal"]  # no name: the id
    assert charts.chart_standings(table, title="Mine").to_dict()["title"]["text"] == "Mine"


def test_chart_standings_says_what_decided_the_cut() -> None:
    table = standings_frame()
    # places 1 and 2: 9 against 6 points
    one = subtitle(charts.chart_standings(table, cut=1).to_dict())
    assert "The cut fell between points groups: place 1 has 9 points and place 2 has 6." in one
    # places 3 and 4 (Cal 2=, Dan 4=): same points, OMW% 60% vs 55%
    three = subtitle(charts.chart_standings(table, cut=3).to_dict())
    assert "Places 3 and 4 both have 6 points: OMW% decided the cut, 60.00% vs 55.00%" in three
    assert "opponents' results, not their own" in three
    # Pokémon: OOMW% separates 4th from 5th in this event (issue 15)
    res = small_event()
    pk = sf.standings(res, "pokemon")
    note = subtitle(charts.chart_standings(pk, cut=2, rules="pokemon").to_dict())
    assert "decided the cut" in note or "points groups" in note


def test_chart_standings_race() -> None:
    res = small_event()
    by = sf.standings_by_round(res)
    spec = charts.chart_standings_race(by, top=2, start_round=1, log_rank=True).to_dict()
    rows = values(spec, spec["layer"][0])
    final = sf.standings(res).head(2)["player_id"].to_list()
    assert sorted({r["player_id"] for r in rows}) == sorted(final)
    assert {r["round"] for r in rows} == {1, 2, 3}
    ties, lines, points, rule = spec["layer"]
    assert ties["mark"]["type"] == "rule"
    assert ties["encoding"]["y2"]["field"] == "rank_end"
    assert filters(ties) == ["(datum.tie_size > 1)"]
    assert points["mark"]["type"] == "point"
    assert [t["field"] for t in points["encoding"]["tooltip"]][:5] == [
        "player", "round", "rank", "tie_size", "match_points"]
    assert lines["mark"]["type"] == "line"
    assert lines["encoding"]["y"]["field"] == "rank"
    assert lines["encoding"]["y"]["scale"]["reverse"] is True
    assert lines["encoding"]["y"]["scale"]["type"] == "log"
    assert lines["encoding"]["x"]["field"] == "round"
    assert lines["encoding"]["color"]["sort"][0].startswith("1. ")
    assert rule["encoding"]["y"]["datum"] == 2.5
    assert 2 in lines["encoding"]["y"]["axis"]["values"]  # a tick at the cut
    lin = charts.chart_standings_race(by, top=2, log_rank=False).to_dict()
    assert lin["layer"][1]["encoding"]["y"]["scale"]["type"] == "linear"
    # 8 players, top 2: a log axis only pays beyond 4 x top ranks
    auto = charts.chart_standings_race(by, top=2).to_dict()
    assert auto["layer"][1]["encoding"]["y"]["scale"]["type"] == "linear"


def race_frame() -> pl.DataFrame:
    """By-round standings of 10 players: after round 1, five share rank 1 and five rank 6
    (no tiebreaker yet); from round 2 every rank is distinct except a pair at 3 in round 2."""
    players = [f"p{i}" for i in range(10)]
    rows = []
    for i, p in enumerate(players):
        rows.append({"round": 1, "player_id": p, "rank": 1 if i < 5 else 6})
        rows.append({"round": 2, "player_id": p, "rank": 3 if i in (2, 3) else i + 1})
        rows.append({"round": 3, "player_id": p, "rank": 10 - i})
    return pl.DataFrame(rows).with_columns(event_id=pl.lit("big"), match_points=pl.lit(3),
                                           event_name=pl.lit("The Big Open"))


def test_race_starts_when_ranks_carry_information() -> None:
    spec = charts.chart_standings_race(race_frame(), top=2).to_dict()
    rows = values(spec, spec["layer"][0])
    assert {r["round"] for r in rows} == {2, 3}  # round 1: five players per rank
    assert {r["player_id"] for r in rows} == {"p9", "p8"}  # the final top 2
    assert spec["title"]["text"] == "The Big Open"
    sub = subtitle(spec)
    assert "From round 2: until then up to 5 players shared a rank" in sub
    assert "2 players who finished in the top 2" in sub
    everything = charts.chart_standings_race(race_frame(), top=4, start_round=1).to_dict()
    rows = values(everything, everything["layer"][0])
    assert {r["round"] for r in rows} == {1, 2, 3}
    assert "From round" not in subtitle(everything)
    # a shared rank is drawn over the places it spans: p6..p9 shared rank 6 (6-10) in round 1
    r1 = [r for r in rows if r["round"] == 1]
    assert {(r["rank"], r["rank_end"]) for r in r1} == {(6, 10)}
    assert "Shaded bars" in subtitle(everything)
    with pytest.raises(DataError, match="start_round must be"):
        charts.chart_standings_race(race_frame(), start_round=0)


# ------------------------------------------------------------------------------- cut analysis


def final_round_split(res: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    last = int(res["round"].max())  # type: ignore[arg-type]
    prior = res.filter(pl.col("round") < last)
    pairs = res.filter(pl.col("round") == last).select("event_id", "round", "player_id",
                                                       "opponent_id")
    return prior, pairs


def test_chart_omw_ranges() -> None:
    prior, pairs = final_round_split(small_event())
    rg = next_round_ranges(prior, pairs)
    cur = sf.standings(prior)
    spec = charts.chart_omw_ranges(rg, cur, top=3).to_dict()
    bars, diamonds = spec["layer"]
    assert bars["mark"]["type"] == "bar"
    assert bars["encoding"]["x"]["field"] == "omwp_min"
    assert bars["encoding"]["x2"]["field"] == "omwp_max"
    assert bars["encoding"]["yOffset"]["field"] == "outcome"
    assert bars["encoding"]["color"]["scale"]["domain"] == ["win", "draw", "loss"]
    rows = values(spec, bars)
    top3 = cur.head(3)["player_id"].to_list()
    assert {r["player_id"] for r in rows} == set(top3)
    assert len(rows) == 9
    for r in rows:
        ref = rg.filter((pl.col("player_id") == r["player_id"])
                        & (pl.col("outcome") == r["outcome"]))
        assert r["omwp_min"] == pytest.approx(ref["omwp_min"][0])
        assert r["omwp_max"] == pytest.approx(ref["omwp_max"][0])
    now = values(spec, diamonds)
    assert [d["omwp_now"] for d in now] == pytest.approx(cur.head(3)["omwp"].to_list())
    assert diamonds["encoding"]["x"]["field"] == "omwp_now"
    # explicit contenders, in current rank order
    pick = [top3[2], top3[0]]
    spec2 = charts.chart_omw_ranges(rg, cur, players=pick).to_dict()
    assert [d["player_id"] for d in values(spec2, spec2["layer"][1])] == [top3[0], top3[2]]
    with pytest.raises(DataError, match="not in event"):
        charts.chart_omw_ranges(rg, cur, players=["Nobody"])


def test_chart_cut_status_counts() -> None:
    prior, pairs = final_round_split(small_event())
    status = cut_status(prior, pairs, top=2)
    cur = sf.standings(prior)
    spec = charts.chart_cut_status(status, cur, top=2).to_dict()
    assert spec["facet"]["column"]["field"] == "outcome"
    assert spec["facet"]["column"]["sort"] == ["win", "draw", "loss"]
    bars, labels = spec["spec"]["layer"]
    assert labels["encoding"]["text"]["field"] == "p_label"
    assert bars["encoding"]["x"]["aggregate"] == "sum"
    assert bars["encoding"]["color"]["field"] == "status"
    assert bars["encoding"]["color"]["scale"]["range"] == list(charts.STATUS_COLORS.values())
    rows = values(spec)
    # the counts per (points group, outcome, status) equal the status table's
    joined = status.join(cur.select("player_id", pl.col("match_points").alias("before")),
                         on="player_id").filter(pl.col("outcome") != "dropped")
    for r in rows:
        n = joined.filter((pl.col("before") == r["points_before"])
                          & (pl.col("outcome") == r["outcome"])
                          & (pl.col("status") == r["status"])).height
        assert r["players"] == n
    # the group probability label is the mean probability of the group
    six_win = [r for r in rows if r["points_before"] == 6 and r["outcome"] == "win"]
    ref = joined.filter((pl.col("before") == 6) & (pl.col("outcome") == "win"))
    assert six_win[0]["mean_probability"] == pytest.approx(ref["probability"].mean())
    # without standings, points before the round = points after a loss (MTG scoring)
    spec_b = charts.chart_cut_status(status, top=2).to_dict()
    assert sorted(map(str, values(spec_b))) == sorted(map(str, rows))


def test_chart_cut_lines_from_id_report() -> None:
    res = small_event()
    # make the final-round A-E match an intentional draw
    res = res.with_columns(
        pl.when((pl.col("round") == 3) & pl.col("player_id").is_in(["A", "E"]))
        .then(pl.lit(0)).otherwise(pl.col("games_won")).alias("games_won"),
        pl.when((pl.col("round") == 3) & pl.col("player_id").is_in(["A", "E"]))
        .then(pl.lit(0)).otherwise(pl.col("games_lost")).alias("games_lost"),
        pl.when((pl.col("round") == 3) & pl.col("player_id").is_in(["A", "E"]))
        .then(pl.lit(3)).otherwise(pl.col("games_drawn")).alias("games_drawn"))
    other = small_event().with_columns(event_id=pl.lit("other"))
    rep = id_report(pl.concat([res, other]), top=2, n_sims=5)
    field = pl.DataFrame({"event_id": ["small", "other"], "players": [8, 8]})
    spec = charts.chart_cut_lines(rep, field=field, top=2).to_dict()
    shift, ticks, dots = spec["layer"]
    rows = values(spec)
    by = {r["event_id"]: r for r in rows}
    assert by["small"]["ids"] == "IDs in the last round"
    assert by["other"]["ids"] == "no IDs in the last round"
    assert by["other"]["cf_points"] is None
    assert by["small"]["cf_points"] is not None
    assert by["small"]["match_points_n"] == rep.events.filter(
        pl.col("event_id") == "small")["match_points_n"][0]
    assert dots["encoding"]["x"]["scale"]["type"] == "log"
    assert dots["encoding"]["color"]["field"] == "ids"
    assert shift["encoding"]["y2"]["field"] == "cf_points"
    assert ticks["encoding"]["y"]["field"] == "cf_points"
    assert spec["title"]["text"] == "The top-2 cut line across 2 events"
    moved = round(by["small"]["cf_points"] - by["small"]["match_points_n"], 1)
    assert (": the same in the 1 event with them" if moved == 0 else
            f"{'lower' if moved < 0 else 'higher'} in 1 of 1 event with them") in subtitle(spec)
    with pytest.raises(SchemaError, match="players"):
        charts.chart_cut_lines(rep.events)


def test_chart_cut_lines_ticks_names_and_plural() -> None:
    ev = pl.DataFrame({"event_id": ["a", "b", "c", "d"], "players": [8, 40, 120, 300],
                       "match_points_n": [6, 12, 15, 19], "ids_final": [0, 2, 3, 0]})
    spec = charts.chart_cut_lines(ev, top=8).to_dict()
    dots = spec["layer"][2]
    assert dots["encoding"]["x"]["scale"]["type"] == "log"
    assert dots["encoding"]["x"]["axis"]["values"] == [8, 16, 32, 64, 128, 256]  # the cut
    assert dots["encoding"]["y"]["scale"]["domain"] == [5.0, 20.0]  # never below 0 points
    assert "Grey tick" not in subtitle(spec)  # nothing replayed: nothing to explain
    field = pl.DataFrame({"event_id": ["a", "b"], "players": [30, 60],
                          "event_name": ["Open A", "Open B"]})
    two = charts.chart_cut_lines(ev.head(2).drop("players"), field=field).to_dict()
    assert two["title"]["text"] == "The top-8 cut line across 2 events"
    assert values(two)[0]["event"] == "Open A"
    assert "(1 event with intentional draws" in subtitle(two)
    # one event is one dot on an empty plane (a field size compares events): refused,
    # naming the charts that draw one event's line
    with pytest.raises(DataError, match=r"compares events .* the input holds one, 'Open A'"
                       r".*chart standings draws its cut line"):
        charts.chart_cut_lines(ev.head(1).drop("players"), field=field)
    with pytest.raises(DataError, match=r"the points of place 3 .*its line under place 3"):
        charts.chart_cut_lines(ev.head(1), top=3, rules="fide")


def test_the_cut_lines_legend_lists_the_kinds_of_event_drawn() -> None:
    """A season where no event had an intentional draw in its last round listed "IDs in
    the last round" in the legend, beside no such dot (seen by the twenty-ninth session's
    surfaces pass); each kind keeps its colour and shape whatever else is drawn."""
    ev = pl.DataFrame({"event_id": ["a", "b", "c"], "players": [8, 40, 120],
                       "match_points_n": [6, 12, 15], "ids_final": [0, 0, 0]})
    dots = charts.chart_cut_lines(ev, top=8).to_dict()["layer"][2]["encoding"]
    assert dots["color"]["scale"]["domain"] == ["no IDs in the last round"]
    assert dots["shape"]["scale"]["range"] == ["square"]
    both = charts.chart_cut_lines(ev.with_columns(ids_final=pl.Series([0, 2, 0])),
                                  top=8).to_dict()["layer"][2]["encoding"]
    assert both["color"]["scale"]["domain"] == ["IDs in the last round",
                                                "no IDs in the last round"]
    assert both["color"]["scale"]["range"][1] == dots["color"]["scale"]["range"][0]
    assert both["shape"]["scale"]["range"] == ["circle", "square"]


def test_chart_cut_lines_of_a_narrow_field_range_has_numbers_on_its_axis() -> None:
    """Field sizes 19-22 with a top-8 cut: no doubling of 8 falls in the axis, whose one
    tick (8) lay outside it, so the x axis had no number at all (found by a user-level
    check). The least and largest field sizes are its ticks, and the title no longer
    says each tick doubles the field."""
    ev = pl.DataFrame({"event_id": ["a", "b"], "players": [19, 22],
                       "match_points_n": [6, 7], "ids_final": [0, 0]})
    x = charts.chart_cut_lines(ev, top=8).to_dict()["layer"][2]["encoding"]["x"]
    lo, hi = x["scale"]["domain"]
    assert x["axis"]["values"] == [19, 22]
    assert all(lo <= v <= hi for v in x["axis"]["values"])
    assert x["title"] == "Players (log scale)"


def test_chart_sensitivity() -> None:
    s = pl.DataFrame({
        "event_id": ["a", "a", "a", "b", "b", "b"],
        "ruleset": ["mtg", "mtg-1/3", "pokemon"] * 2,
        "players": [40, 40, 40, 90, 90, 90],
        "entering": [[], ["X"], ["X", "Z"], [], [], []],
        "leaving": [[], ["Y"], ["Y", "W"], [], [], []],
        "kendall_tau": [1.0, 0.98, 0.9, 1.0, 1.0, 0.99],
        "cut_criterion": ["omwp"] * 6,
    })
    spec = charts.chart_sensitivity(s).to_dict()
    cells, text = spec["layer"]
    assert cells["mark"]["type"] == "rect"
    assert cells["encoding"]["x"]["field"] == "ruleset"
    assert cells["encoding"]["x"]["sort"] == ["mtg-1/3", "pokemon"]
    assert cells["encoding"]["y"]["sort"] == ["b", "a"]  # largest event first
    assert cells["encoding"]["y"]["field"] == "event"
    assert cells["encoding"]["color"]["field"] == "changes"
    # whole numbers of players: a swatch per count, not a gradient between them (as the
    # season heatmap's legend was)
    legend = cells["encoding"]["color"]["legend"]
    assert (legend["type"], legend["values"]) == ("symbol", [0, 1, 2])
    rows = {(r["event_id"], r["ruleset"]): r for r in values(spec)}
    assert set(rows) == {("a", "mtg-1/3"), ("a", "pokemon"), ("b", "mtg-1/3"),
                         ("b", "pokemon")}
    assert rows["a", "pokemon"]["changes"] == 2
    assert rows["a", "pokemon"]["entering_names"] == "X, Z"
    assert rows["b", "mtg-1/3"]["changes"] == 0
    assert text["encoding"]["text"]["field"] == "changes"
    assert "50%" in subtitle(spec)
    assert spec["title"]["text"] == "Does the top cut depend on the tiebreaker rules?"
    assert "1 event of 2 (50%)" in subtitle(spec)
    assert "mtg-1/3 (1), pokemon (1)" in subtitle(spec)  # most first, then by name
    eight = charts.chart_sensitivity(s, top=8).to_dict()
    assert eight["title"]["text"] == "Does the top 8 depend on the tiebreaker rules?"
    assert "entering the top 8" in subtitle(eight)
    assert "top N" not in str(eight)
    assert {r["cut_criterion"] for r in values(eight)} == {"OMW%"}
    only = charts.chart_sensitivity(s, only_changed=True, baseline=True).to_dict()
    assert {r["event_id"] for r in values(only)} == {"a"}
    assert only["layer"][0]["encoding"]["x"]["sort"] == ["mtg", "mtg-1/3", "pokemon"]


def test_chart_sensitivity_event_labels_and_many_events() -> None:
    n = 80
    s = pl.DataFrame({
        "event_id": [f"e{i:02d}" for i in range(n) for _ in range(2)],
        "event_name": [("Legacy Open " if i % 2 else "A very long event name that a heatmap "
                        "row cannot show in full ") + str(i // 40) for i in range(n)
                       for _ in range(2)],
        "ruleset": ["mtg", "pokemon"] * n,
        "players": [100 + i for i in range(n) for _ in range(2)],
        "entering": [[] if r == 0 or i % 10 > 1 else ["X"] for i in range(n) for r in range(2)],
        "leaving": [[] if r == 0 or i % 10 > 1 else ["Y"] for i in range(n) for r in range(2)],
    })
    spec = charts.chart_sensitivity(s, top=8).to_dict()
    rows = values(spec)
    assert len(rows) == 16  # more than 60 events: only the 16 that change
    labels = spec["layer"][0]["encoding"]["y"]["sort"]
    assert len(labels) == len(set(labels)) == 16  # unique row labels
    assert all(len(label) <= 46 for label in labels)
    assert any(label.startswith("A very long event name") and "…" in label
               for label in labels)
    assert {f"Legacy Open 0 ({k})" for k in (1, 2, 3, 4)} <= set(labels)
    assert spec["layer"][0]["encoding"]["y"]["axis"].get("labels", True)  # labels shown
    assert "16 events of 80 (20%)" in subtitle(spec)
    assert "Showing the 16 with a change" in subtitle(spec)


def test_chart_sensitivity_from_engine() -> None:
    from swissframe.sensitivity import sensitivity

    s = sensitivity(small_event(), ["mtg", "mtg-1/3"], top=2)
    two = pl.concat([s, s.with_columns(event_id=pl.lit("e2"))])
    spec = charts.chart_sensitivity(two).to_dict()
    assert {r["ruleset"] for r in values(spec)} == {"mtg-1/3"}


def test_chart_sensitivity_of_one_event_names_who_moves() -> None:
    """One event drew one row of grey or orange cells: now each ruleset's row marks the
    players who enter (▲) and leave (▼) the top N; one that no ruleset changes is refused
    with a pointer to the table that says so."""
    s = pl.DataFrame({"event_id": ["a"] * 4, "event_name": ["Summer Cup"] * 4,
                      "ruleset": ["pokemon", "pokemon+floor=1/3", "pokemon+floor=0.33",
                                  "pokemon-x"],
                      "entering": [[], ["Ann"], [], ["Ann", "Bo"]],
                      "leaving": [[], ["Cy"], [], ["Cy", "Di"]]})
    spec = charts.chart_sensitivity(s, top=8).to_dict()
    one_third = "floor 1/3 instead of 0.25"
    rows = values(spec)
    assert {(r["ruleset"], r["player"], r["move"]) for r in rows} == {
        (one_third, "Ann", "enters the top 8"),
        (one_third, "Cy", "leaves the top 8"),
        ("pokemon-x", "Ann", "enters the top 8"), ("pokemon-x", "Bo", "enters the top 8"),
        ("pokemon-x", "Cy", "leaves the top 8"), ("pokemon-x", "Di", "leaves the top 8")}
    assert spec["title"]["text"].startswith("Summer Cup: who moves across the top 8")
    # every ruleset compared is a row, one that changes nothing named under the title
    # (the standard variants in words, as the report says them; another name as it is)
    assert spec["encoding"]["y"]["scale"]["domain"] == [
        one_third, "floor 0.33 instead of 0.25", "pokemon-x"]
    assert "No change under floor 0.33 instead of 0.25" in subtitle(spec)
    assert "2 rulesets of 3 change it" in subtitle(spec)
    still = s.with_columns(entering=pl.lit([], dtype=pl.List(pl.String)),
                           leaving=pl.lit([], dtype=pl.List(pl.String)))
    with pytest.raises(DataError, match=r"no ruleset changes the top 8 of 'Summer Cup' "
                       r".*nothing to draw\. Hint: swissframe sensitivity FILE"):
        charts.chart_sensitivity(still, top=8)


# ------------------------------------------------------------------------------- bad input


def test_bad_input_errors() -> None:
    table = standings_frame()
    two = pl.concat([table, table.with_columns(event_id=pl.lit("f"))])
    with pytest.raises(DataError, match="holds 2") as err:
        charts.chart_standings(two)
    assert "Hint" in str(err.value)
    assert charts.chart_standings(two, event_id="f").to_dict()["title"]["text"] == "f"
    with pytest.raises(DataError, match="'zzz' is not in the table"):
        charts.chart_standings(two, event_id="zzz")
    with pytest.raises(SchemaError, match=r"\['omwp'\]"):
        charts.chart_standings(table.drop("omwp"), tiebreakers=["omwp"])
    with pytest.raises(SchemaError, match="standings_by_round"):
        charts.chart_standings_race(table)
    with pytest.raises(DataError, match="top must be"):
        charts.chart_standings(table, top=0)
    # (a title not text was Altair's SchemaValidationError; tiebreakers a number, a bare
    # "not iterable"; one name alone is that column, not its letters)
    with pytest.raises(DataError, match=r"chart_standings: title must be text, got 1\.5"):
        charts.chart_standings(table, title=1.5)  # type: ignore[arg-type]
    with pytest.raises(DataError, match=r"chart_standings_race: title must be text"):
        charts.chart_standings_race(race_frame(), title={"a": 1})  # type: ignore[arg-type]
    with pytest.raises(DataError, match=r"tiebreakers must be column names, got 3"):
        charts.chart_standings(table, tiebreakers=3)  # type: ignore[arg-type]
    assert (charts.chart_standings(table, tiebreakers="omwp").to_dict()
            == charts.chart_standings(table, tiebreakers=["omwp"]).to_dict())
    # (None where the signature takes a number: Python's bare "'<' not supported")
    with pytest.raises(DataError, match=r"chart_standings: top must be .* got None"):
        charts.chart_standings(table, top=None)  # type: ignore[arg-type]
    assert charts.chart_standings(table, cut=None).to_dict()["hconcat"]  # (optional there)
    with pytest.raises(SchemaError, match="DataFrame"):
        charts.chart_standings([1, 2, 3])  # type: ignore[arg-type]
    with pytest.raises(SchemaError, match="cut_status"):
        charts.chart_cut_status(table)
    with pytest.raises(SchemaError, match="sensitivity"):
        charts.chart_sensitivity(table)
    # lazy frames are accepted
    assert charts.chart_standings(table.lazy()).to_dict()["hconcat"]


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.integers(0, 5), min_size=1, max_size=40),
       top=st.integers(1, 40), cut=st.integers(1, 12))
def test_standings_zones_property(points: list[int], top: int, cut: int) -> None:
    """Ranks from points alone (ties share a rank): the 'in the cut' rows are exactly those
    whose whole tie group fits in the top ``cut``; labels are unique and ordered."""
    n = len(points)
    table = (pl.DataFrame({"event_id": ["e"] * n, "player_id": [f"p{i:02d}" for i in range(n)],
                           "match_points": [3 * p for p in points]})
             .with_columns(rank=pl.col("match_points").rank("min", descending=True)
                           .cast(pl.Int64), omwp=pl.lit(0.5), gwp=pl.lit(0.5),
                           ogwp=pl.lit(0.5)))
    # the chart's data preparation (building an Altair spec costs ~0.5 s per example)
    rows = charts._standings_frame(table, top, cut, CutWords(cut, playoff=True)).to_dicts()
    assert len(rows) == min(top, n)
    assert len({r["label"] for r in rows}) == len(rows)
    assert [r["position"] for r in rows] == list(range(1, len(rows) + 1))
    sizes = table.group_by("rank").len()
    size = dict(zip(sizes["rank"].to_list(), sizes["len"].to_list(), strict=True))
    for r in rows:
        inside = r["rank"] + size[r["rank"]] - 1 <= cut
        assert (r["zone"] == "in the cut") == inside
        assert (r["zone"] == "tied at the cut") == (not inside and r["rank"] <= cut)
        assert r["label"].endswith(r["player_id"])
        assert ("=" in r["label"]) == (size[r["rank"]] > 1)


# ------------------------------------------------------------------------------- theme, save


def test_theme_is_registered_and_opt_in() -> None:
    charts.chart_standings(standings_frame())  # first use registers the theme
    assert charts.THEME in alt.theme.names()
    before = alt.theme.active
    try:
        assert charts.use_theme() == "swissframe"
        assert alt.theme.active == "swissframe"
        cfg = charts.theme_config()["config"]
        assert cfg["range"]["category"] == list(charts.OKABE_ITO)
        assert charts.use_theme(enable=False) == "default"
        assert alt.theme.active == "default"
    finally:
        alt.theme.enable(before)


def test_enable_offline_renders_without_network() -> None:
    """Notebook outputs: Altair's default HTML loads Vega from a CDN; the offline renderers
    inline it (html) or draw an image (svg/png)."""
    c = charts.chart_standings(standings_frame(), cut=4)
    before = alt.renderers.active
    with charts.enable_offline("svg"):
        assert alt.renderers.active == "svg"
        bundle = c._repr_mimebundle_()
    assert alt.renderers.active == before
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["image/svg+xml"].startswith("<svg")
    with pytest.raises(SwissframeError, match="unknown renderer"):
        charts.enable_offline("gif")  # type: ignore[arg-type]


def _offline_outputs(n: int) -> list[str]:
    """The HTML outputs of ``n`` charts displayed under :func:`charts.enable_offline`."""
    pytest.importorskip("vl_convert")
    table = standings_frame()
    drawn = [charts.chart_standings(table, cut=4),
             alt.Chart(table).mark_bar().encode(x="match_points:Q", y="player_id:N")]
    out = []
    with charts.enable_offline():
        assert alt.renderers.active == charts.OFFLINE_RENDERER
        for i in range(n):
            bundle = drawn[i % len(drawn)]._repr_mimebundle_()
            out.append((bundle[0] if isinstance(bundle, tuple) else bundle)["text/html"])
    return out


SCRIPT = re.compile(r"<script[^>]*>(.*?)</script>", re.DOTALL)


def test_offline_html_outputs_can_share_a_page() -> None:
    """Altair's ``template="inline"`` put vl-convert's bundle (``const Ti=…``) and
    ``const spec`` at a classic script's top level, which is page-wide: in a notebook page
    (nbconvert HTML, JupyterLab) the second chart stopped at "Identifier 'Ti' has already
    been declared". Each output's scripts are now functions of their own, the bundle run
    only while ``window.vegaEmbed`` is undefined, each chart in an element of its own."""
    outputs = _offline_outputs(2)
    ids = [re.findall(r'<div id="([^"]+)"', h) for h in outputs]
    assert all(len(i) == 1 for i in ids)
    assert ids[0] != ids[1]
    for html in outputs:
        scripts = [s.strip() for s in SCRIPT.findall(html)]
        assert len(scripts) == 2
        for s in scripts:  # (no top-level const/let/class/function: one function, called)
            assert s.startswith("(function () {"), s[:80]
            assert s.endswith("})();"), s[-80:]
        loader, draw = scripts
        assert loader.startswith("(function () {\nif (typeof window.vegaEmbed !== 'undefined')")
        assert "window.vegaEmbed=" in loader  # (the bundle publishes its globals itself)
        assert "vegaEmbed(el, spec, options)" in draw
        assert not EXTERNAL.search(html)


EXTERNAL = re.compile(r"<script[^>]*\bsrc\s*=|https?://cdn|unpkg\.com", re.IGNORECASE)

#: JupyterLab's way with an HTML output: set as innerHTML, each script re-created to run
#: (rendermime's evalInnerHTMLScriptTags), all outputs in one document.
JUPYTERLAB = """<script>
(function () {
  var outputs = %s;
  outputs.forEach(function (html) {
    var host = document.createElement('div');
    host.className = 'output';
    document.body.appendChild(host);
    host.innerHTML = html;
    Array.prototype.forEach.call(host.querySelectorAll('script'), function (old) {
      var s = document.createElement('script');
      Array.prototype.forEach.call(old.attributes, function (a) {
        s.setAttribute(a.name, a.value);
      });
      s.textContent = old.textContent;
      old.parentNode.replaceChild(s, old);
    });
  });
})();
</script>"""


@pytest.mark.parametrize("page_kind", ["nbconvert", "jupyterlab"])
def test_offline_html_outputs_all_render_in_one_page(page_kind: str, browser: Any,
                                                     tmp_path: Path) -> None:
    """Three chart outputs in one page, as nbconvert's HTML export writes them and as
    JupyterLab inserts them: every chart is drawn, no page error, no request."""
    outputs = _offline_outputs(3)
    if page_kind == "nbconvert":
        body = "".join(f'<div class="output">{h}</div>' for h in outputs)
    else:
        body = JUPYTERLAB % json.dumps(outputs).replace("</", "<\\/")
    page_path = tmp_path / "notebook.html"
    page_path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'></head>"
                         f"<body>{body}</body></html>", encoding="utf-8")
    page = browser.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_path.as_uri())
    count = ("Array.from(document.querySelectorAll('div.output'))"
             ".map(o => o.querySelectorAll('svg.marks, canvas.marks').length)")
    with contextlib.suppress(Exception):  # (asserted below, with what was drawn)
        page.wait_for_function(f"{count}.every(n => n >= 1)", timeout=20_000)
    drawn = page.evaluate(count)
    page.close()
    assert errors == []
    assert [u for u in requests if not u.startswith(("file://", "data:", "blob:"))] == []
    assert drawn == [1, 1, 1]


def test_save_png_svg_json(tmp_path: Path) -> None:
    pytest.importorskip("vl_convert")
    c = charts.chart_standings(standings_frame(), cut=4)
    png = charts.save(c, tmp_path / "fig.png")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(data[16:20], "big")
    assert width > 600  # scale 2
    svg = charts.save(c, tmp_path / "fig.svg")
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg")
    assert "Bea" in text
    js = charts.save(c, tmp_path / "fig.json")
    assert '"hconcat"' in js.read_text(encoding="utf-8")
    with pytest.raises(SwissframeError, match="unknown format"):
        charts.save(c, tmp_path / "fig.gif")


def test_save_checks_the_spec_unless_told_not_to(tmp_path: Path) -> None:
    """``validate=False`` (the ``chart`` command's, for this module's charts, whose specs
    the tests check) writes the spec without Altair's schema check; by default a chart
    Vega-Lite would refuse is refused before anything is written."""
    bad = alt.Chart(pl.DataFrame({"x": [1]})).mark_bar().encode(x="x:Q")
    bad.mark = "not-a-scale"  # (set after construction, which Altair checks too)
    with pytest.raises(alt.utils.schemapi.SchemaValidationError, match="not-a-scale"):
        charts.save(bad, tmp_path / "bad.json")
    assert not (tmp_path / "bad.json").exists()
    out = charts.save(bad, tmp_path / "bad.json", validate=False)
    assert '"not-a-scale"' in out.read_text(encoding="utf-8")
    c = charts.chart_standings(standings_frame(), cut=4)
    assert charts.save(c, tmp_path / "a.json", validate=False).read_text(
        encoding="utf-8") == charts.save(c, tmp_path / "b.json").read_text(encoding="utf-8")
    with pytest.raises(SwissframeError, match="validate"):
        charts.save(c, tmp_path / "c.json", validate="no")  # type: ignore[arg-type]


@pytest.mark.parametrize("suffix", ["png", "svg", "pdf"])
def test_an_image_draws_names_it_cannot_hold_as_escapes(suffix: str, tmp_path: Path) -> None:
    """A NUL (or another character XML forbids) in a player's name made vl-convert's text
    parser panic: the process aborted (no error line, exit -6) and left a partial
    ``.part`` file; a name of millions of characters kept it measuring for minutes. An
    image now draws such text escaped, long text cut, with one warning; the chart (its
    .json export) keeps the names."""
    pytest.importorskip("vl_convert")
    long = "L" * 1_000_000
    table = standings_frame().with_columns(
        pl.Series("player_id", ["A\x00nn", "B\x1bea", "Cal", long, "Eve", "Fay", "G\uffff"]))
    c = charts.chart_standings(table, cut=4)
    with pytest.warns(DataWarning, match=r"distinct texts? .*A\\x00nn'.*cut"):
        out = charts.save(c, tmp_path / f"fig.{suffix}")
    assert out.stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"fig.{suffix}"]
    if suffix == "svg":
        text = out.read_text(encoding="utf-8")
        assert "A\\x00nn" in text
        assert "\x00" not in text
        assert long not in text
    spec = charts.save(c, tmp_path / "fig.json").read_text(encoding="utf-8")
    assert "A\\u0000nn" in spec  # (the data as it is)
    assert long in spec


def test_html_export_escapes_names_and_is_the_reports_offline_page(tmp_path: Path) -> None:
    """A player named ``</script><script>…`` ran as script in Altair's inline HTML template
    (the spec's text was put raw in a <script>): the export is now the report's page, the
    spec escaped for a <script> element, the bundle inline, the CSP set."""
    pytest.importorskip("vl_convert")
    pwn = "</script><script>document.title='pwned'</script>"
    st = sf.standings(sf.from_matches(pl.DataFrame({
        "round": [1, 1], "player_a": ["Ann", pwn], "player_b": ["Bea", "Cy"],
        "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0]})))
    page = charts.save(charts.chart_standings(st, cut=2), tmp_path / "fig.html")
    html = page.read_text(encoding="utf-8")
    assert pwn not in html
    assert "<script>document.title" not in html
    assert "\\u003c/script\\u003e" in html  # the name, escaped inside the JSON spec
    assert 'data-chart="chart"' in html
    assert "Content-Security-Policy" in html
    assert not list(tmp_path.glob(".*part*"))  # no temporary left


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_save_draws_as_altair_does(tmp_path: Path, fmt: str) -> None:
    # save validates the spec once and calls vl-convert itself (Altair's own save
    # validated it a second time): the file is the one Altair's save writes
    pytest.importorskip("vl_convert")
    c = charts.chart_standings(standings_frame(), cut=4)
    ours = charts.save(c, tmp_path / f"ours.{fmt}", scale=2)
    theirs = tmp_path / f"altair.{fmt}"
    c.save(str(theirs), format=fmt, **({"scale_factor": 2} if fmt == "png" else {}))
    assert ours.read_bytes() == theirs.read_bytes()


def test_a_failed_save_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                      ) -> None:
    pytest.importorskip("vl_convert")
    c = charts.chart_standings(standings_frame(), cut=4)

    def broken(self: Path, data: bytes) -> int:  # (the drawn PNG, half written)
        with open(self, "wb") as f:
            f.write(data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", broken)
    with pytest.raises(OSError, match="No space"):
        charts.save(c, tmp_path / "fig.png")
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------------- CLI


def test_cli_chart_kinds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from swissframe.cli import main

    events = ROOT / "data" / "events"
    one = str(events / "store-championship.csv")
    for kind in ("standings", "race", "omw-ranges", "cut-status"):
        out = tmp_path / f"{kind}.json"
        assert main(["chart", kind, one, "--cut", "4", "-o", str(out)]) == 0
        assert f"wrote {out}" in capsys.readouterr().err
        assert '"$schema"' in out.read_text(encoding="utf-8")
    out = tmp_path / "lines.json"
    assert main(["chart", "cut-lines", str(events), "--cut", "2", "--sims", "3",
                 "-o", str(out)]) == 0
    assert '"players"' in out.read_text(encoding="utf-8")
    out = tmp_path / "sens.json"
    assert main(["chart", "sensitivity", str(events), "--cut", "4", "-o", str(out)]) == 0
    assert "floor 1/3 instead of 0.33" in out.read_text(encoding="utf-8")


def test_cli_chart_refuses_an_option_its_kind_does_not_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Class 84: ``chart race --top 5`` drew the top --cut, ``chart standings --also
    pokemon`` and ``--sims`` one ruleset and no replay, ``chart sensitivity --event X``
    every event: each option was ignored without a word. An option a kind does not read
    is refused; ``--event`` keeps that event's row in the per-event charts."""
    from swissframe.cli import main

    events = ROOT / "data" / "events"
    one = str(events / "store-championship.csv")
    out = tmp_path / "c.json"
    for argv, said in ((["race", one, "--top", "5"], "--top does not apply to the race chart"),
                       (["standings", one, "--also", "pokemon"],
                        "--also does not apply to the standings chart (only to sensitivity)"),
                       (["standings", one, "--sims", "9"], "--sims does not apply"),
                       (["sensitivity", str(events), "--round", "2"],
                        "--round does not apply to the sensitivity chart")):
        assert main(["chart", *argv, "-o", str(out)]) == 2, argv
        assert said in capsys.readouterr().err
    assert not out.exists()
    # (league-night alone: no ruleset changes its top 4, which the refusal names)
    assert main(["chart", "sensitivity", str(events), "--event", "league-night", "--cut", "4",
                 "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no ruleset changes the top 4 of 'league-night'" in err
    assert "store-championship" not in err


def test_cli_chart_follows_the_ruleset_and_the_names(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A TRF under FIDE plots BH-C1, BH, SB with the players' names and the event's name; a
    TOM file's pods are titled by division and plot OMW%, OOMW% (issues 15 and 17)."""
    import json

    from swissframe.cli import main

    fixtures = ROOT / "tests" / "fixtures"
    out = tmp_path / "fide.json"
    assert main(["chart", "standings", str(fixtures / "trf" / "all_codes.trf"), "--rules",
                 "fide", "--cut", "4", "-o", str(out)]) == 0
    spec = json.loads(out.read_text(encoding="utf-8"))
    assert spec["title"]["text"] == "Fixture Open"
    assert axis_titles(spec)[:4] == ["Points", "BH-C1", "BH", "SB"]
    labels = [r["label"] for r in values(spec, spec["hconcat"][0])]
    assert any("Alpha, Ann" in label for label in labels)
    out = tmp_path / "tom.json"
    assert main(["chart", "standings", str(fixtures / "tom" / "combined.tdf"), "--rules",
                 "pokemon", "--event", "combined:juniors", "--cut", "2", "-o", str(out)]) == 0
    spec = json.loads(out.read_text(encoding="utf-8"))
    assert spec["title"]["text"] == "Two Pods (juniors)"
    assert axis_titles(spec) == ["Points", "OMW%", "OOMW%"]
    capsys.readouterr()


@pytest.mark.parametrize(("command", "output"), [
    (["chart", "standings"], "f.json"),
    (["report"], "r.html"),  # (the report's charts paid 3-8 s for it)
])
def test_cli_drawing_commands_do_not_import_rfc3987_syntax(
        tmp_path: Path, command: list[str], output: str) -> None:
    """jsonschema's optional IRI checker compiles ~40 grammars at import (2-20 s); Altair
    never needs it, so the command's process blocks it (the PNG budget is 3 s)."""
    csv = str(ROOT / "data" / "events" / "league-night.csv")
    code = ("import sys; from swissframe.cli import main; "
            f"rc = main({[*command, csv, '-o', str(tmp_path / output), '--quiet']!r}); "
            "assert 'altair' in sys.modules; "
            "assert sys.modules.get('rfc3987_syntax', None) is None; sys.exit(rc)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_cli_chart_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from swissframe.cli import main

    events = str(ROOT / "data" / "events")
    assert main(["chart", "standings", events, "-o", str(tmp_path / "f.png")]) == 2
    assert "--event" in capsys.readouterr().err
    assert main(["chart", "standings", events, "--event", "league-night",
                 "-o", str(tmp_path / "f.gif")]) == 2
    assert ".png" in capsys.readouterr().err
    assert main(["chart", "cut-status", events, "--event", "league-night", "--round", "9",
                 "-o", str(tmp_path / "f.svg")]) == 2
    assert "rounds 1–3" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_no_row_limit() -> None:
    """Altair refuses frames over 5,000 rows; the charts pass inline rows instead."""
    n = 6000
    ev = pl.DataFrame({"event_id": [f"e{i}" for i in range(n)],
                       "players": [16 + i % 1000 for i in range(n)],
                       "match_points_n": [9 + i % 12 for i in range(n)],
                       "ids_final": [i % 3 for i in range(n)]})
    spec = charts.chart_cut_lines(ev).to_dict(validate=False)  # schema checks cost seconds
    assert len(values(spec)) == n


@pytest.mark.parametrize("scale", [float("nan"), float("inf"), 0, -1, 11, "2", True])
def test_a_png_scale_out_of_range_is_named(scale: object, tmp_path: Path) -> None:
    """``--scale nan`` (or 0, -1, 1e6) reached vl-convert, whose Rust code panicked: a
    backtrace and a Python traceback, exit 1. ``save`` refuses it, naming the scale."""
    chart = charts.chart_standings(sf.standings(sf.read_results(
        ROOT / "data" / "events" / "store-championship.csv")))
    with pytest.raises(sf.DataError, match=r"scale must be a finite number > 0 and ≤ 10.*"
                                           r"Hint: "):
        charts.save(chart, tmp_path / "fig.png", scale=scale)  # type: ignore[arg-type]
    assert not list(tmp_path.iterdir())


@pytest.mark.filterwarnings("ignore::swissframe.errors.ImportNotesWarning")
def test_points_in_chart_labels_as_the_standings_print_them() -> None:
    """A chess event's cut-status rows read "4.0 pts" (the float's text); the standings
    print 5 and 4.5. (Its OMW% ranges, which once read "Franck (5.0 pts)", are refused
    now: FIDE does not rank by OMW%.)"""
    res = sf.read(ROOT / "tests" / "fixtures" / "trf" / "all_codes.trf").results
    prior, pairs = final_round_split(res)
    cur = sf.standings(prior, "fide")
    spec = charts.chart_cut_status(cut_status(prior, pairs, top=2, rules="fide"), cur,
                                   top=2).to_dict()
    points = {d["points"] for d in values(spec, spec["spec"]["layer"][0])}
    assert points
    assert not any(".0 pts" in x for x in points), points
    # (and one point is "1 pt": it read "1 pts")
    assert "1 pt" in points, points
    assert "1 pts" not in points, points


CHESS = ROOT / "tests" / "fixtures" / "trf" / "all_codes.trf"


@pytest.mark.filterwarnings("ignore::swissframe.errors.ImportNotesWarning")
def test_omw_ranges_refuse_a_ruleset_that_does_not_rank_by_omw(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """OMW% ranges of a chess event said nothing a chess player ranks by (a person-test):
    a ruleset whose first opponent-based tiebreaker is not OMW% is refused, with the charts
    that apply; MTG, Pokémon and Yu-Gi-Oh! keep the chart."""
    from swissframe.cli import main

    res = sf.read(CHESS).results
    prior, pairs = final_round_split(res)
    cur = sf.standings(prior, "fide")
    rg = next_round_ranges(prior, pairs, "fide")
    for rules in (None, "fide"):  # (inferred from the standings' BH columns, or given)
        with pytest.raises(RulesetError, match=r"does not rank by OMW% \(its first "
                           r"opponent-based tiebreaker is BH-C1\).*Hint: .*cut-status"):
            charts.chart_omw_ranges(rg, cur, rules=rules)
    with pytest.raises(RulesetError, match="OML%"):
        charts.check_omw_ranges("fab")
    for ok in ("mtg", "pokemon", "yugioh", "swu"):
        charts.check_omw_ranges(ok)
    out = tmp_path / "omw.png"
    assert main(["chart", "omw-ranges", str(CHESS), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "chart omw-ranges: the fide-2026 ruleset does not rank by OMW%" in err, err
    assert "Hint:" in err
    assert not out.exists()


def test_chart_cut_lines_in_the_games_words() -> None:
    """A chess cut line is in "points" and not split by IDs (a chess draw is a result, not
    an intentional draw); MTG's axis and legend are unchanged."""
    import json

    ev = pl.DataFrame({"event_id": ["a", "b"], "players": [16, 40],
                       "match_points_n": [4.5, 5.0], "ids_final": [0, 0],
                       "cf_cut_points_mean": [None, 5.0], "final_ids_safe_both": [0, 0]})
    mtg = charts.chart_cut_lines(ev, top=8).to_dict()
    dots = mtg["layer"][2]
    assert dots["encoding"]["y"]["title"] == "Match points of place 8"
    # (the legend lists the kinds drawn: no event had an ID in its last round)
    assert dots["encoding"]["color"]["scale"]["domain"] == ["no IDs in the last round"]
    assert "with intentional draws in the last round" in subtitle(mtg)
    # (no event had an intentional draw: nothing is said of which way they move the line)
    assert "Grey tick: the mean cut line with those draws played out" in subtitle(mtg)
    assert "lower in" not in subtitle(mtg)
    chess = charts.chart_cut_lines(ev, top=8, rules="fide").to_dict()
    dots = chess["layer"][2]
    assert dots["encoding"]["y"]["title"] == "Points of place 8"
    assert "color" not in dots["encoding"]
    assert "shape" not in dots["encoding"]
    shown = json.dumps([chess["title"], [t.get("title", t.get("field"))
                                         for t in dots["encoding"]["tooltip"]]])
    assert "ids" not in shown, shown  # (final_ids_safe_both: not in a chess tooltip)
    assert "ID" not in shown, shown
    assert "intentional" not in shown, shown
    assert "a draw gives both" not in subtitle(chess)
    poke = charts.chart_cut_lines(ev, top=8, rules="pokemon").to_dict()
    assert poke["layer"][2]["encoding"]["y"]["title"] == "Match points of place 8"


@pytest.mark.filterwarnings("ignore::swissframe.errors.ImportNotesWarning")
def test_race_tooltip_shows_omw_only_where_the_ruleset_ranks_by_it() -> None:
    def tips(spec: dict[str, Any]) -> list[str]:
        return [t.get("title", t.get("field")) for t in spec["layer"][2]["encoding"]["tooltip"]]

    chess = sf.standings_by_round(sf.read(CHESS).results, "fide")
    assert "omwp" in chess.columns  # (the standings keep the stable columns)
    for rules in (None, "fide"):
        got = tips(charts.chart_standings_race(chess, top=2, rules=rules).to_dict())
        assert "OMW%" not in got, got
        assert "MW%" not in got, got
    by_round = sf.standings_by_round(small_event())
    mtg = tips(charts.chart_standings_race(by_round, top=2).to_dict())
    assert "OMW%" in mtg, mtg


def test_a_game_without_a_playoff_has_no_cut_in_its_charts() -> None:
    """A chess event has no cut (FIDE C.07 ranks the final standings): its standings,
    race and status charts said "cut to the top 8", "in the cut", "dashed line: the cut",
    "Cut status"; a card game's still say it (swissframe.cut._words)."""
    res = sf.from_matches(pl.DataFrame({
        "round": [1, 1, 2, 2, 3, 3], "player_a": ["A", "C", "A", "B", "A", "B"],
        "player_b": ["B", "D", "C", "D", "D", "C"], "games_a": [1, 1, 0, 1, 0, 1],
        "games_b": [0, 0, 0, 0, 1, 0], "games_drawn": [0, 0, 1, 0, 0, 0]}))
    def spec_text(chart: object) -> str:
        return json.dumps(chart.to_dict())  # type: ignore[attr-defined]
    chess = spec_text(charts.chart_standings(sf.standings(res, "fide"), cut=2, rules="fide"))
    assert "cut" not in chess.replace("BH-C1", "")
    assert "line under place 2" in chess
    assert "in the top 2" in chess
    mtg = spec_text(charts.chart_standings(sf.standings(res, "mtg"), cut=2, rules="mtg"))
    assert "cut to the top 2" in mtg
    assert "in the cut" in mtg
    race = " ".join(charts.chart_standings_race(sf.standings_by_round(res, "fide"), top=2,
                                                rules="fide").to_dict()["title"]["subtitle"])
    assert "dashed line: under place 2" in race
    assert "the cut" not in race
    prior, pairs = res.filter(pl.col("round") < 3), res.filter(pl.col("round") == 3)
    status = cut_status(prior, pairs, 2, "fide")
    shown = spec_text(charts.chart_cut_status(status, sf.standings(prior, "fide"), top=2,
                                              rules="fide"))
    assert "Top-2 status" in shown
    assert "Cut status" not in shown


def test_chart_cut_defaults_to_the_events_own_playoff(tmp_path: Path) -> None:
    """``swissframe chart standings`` drew a top-8 cut whatever the event: a file holding
    the event's playoff (here a Top 4) gives its cut; ``--cut`` wins; without playoff rows
    the top 8 places are drawn, not said to be a cut (a 19-player prerelease's chart said
    "cut to the top 8" while its report said "no playoff in the file")."""
    from swissframe.cli import main
    from tests.helpers import with_top4_playoff

    path = with_top4_playoff(tmp_path)

    def subtitle(*argv: str) -> str:
        out = tmp_path / "fig.json"
        assert main(["chart", "standings", str(path), *argv, "-o", str(out), "--quiet"]) == 0
        return " ".join(json.loads(out.read_text())["title"]["subtitle"])

    assert "cut to the top 4" in subtitle()
    assert "cut to the top 2" in subtitle("--cut", "2")
    # the Swiss rounds alone: no playoff rows, so no cut is said — the top 8 places, as
    # swissframe cut and the report say (cut._words.the_top); --cut 8 states one
    pl.read_parquet(path).filter(pl.col("phase") != "playoff").write_parquet(path)
    assert "line under place 8" in subtitle()
    assert "cut to the top" not in subtitle()
    assert "cut to the top 8" in subtitle("--cut", "8")


def test_a_chess_sensitivity_chart_has_no_cut() -> None:
    """The sensitivity chart of a chess event said "decided the cut (baseline)"; its
    baseline ruleset's words say "the line" (swissframe.cut._words), a card game's keep
    "the cut"."""
    from tests.helpers import DE_DECIDES, decisive

    # (two events: the heatmap across events, whose tooltip names what decided the line)
    res = pl.concat([decisive(DE_DECIDES).with_columns(event_id=pl.lit(e)) for e in "ab"])
    chess = json.dumps(charts.chart_sensitivity(
        sf.sensitivity(res, sf.standard_variants("fide"), top=3), top=3).to_dict())
    assert "the cut" not in chess
    assert "decided the line (baseline)" in chess
    mtg = json.dumps(charts.chart_sensitivity(
        sf.sensitivity(res, sf.standard_variants("mtg"), top=3), top=3).to_dict())
    assert "decided the cut (baseline)" in mtg


def test_a_chess_cut_lines_chart_has_no_cut() -> None:
    """chart_cut_lines titled a chess season "The top-3 cut line across 2 events"."""
    from tests.helpers import DE_DECIDES, decisive

    res = pl.concat([decisive(DE_DECIDES).with_columns(event_id=pl.lit(e)) for e in "ab"])
    field = res.group_by("event_id").agg(players=pl.col("player_id").n_unique())
    report = id_report(res, 3, "fide", n_sims=5)
    chess = charts.chart_cut_lines(report, field=field, top=3, rules="fide").to_dict()
    assert chess["title"]["text"] == "Place 3 across 2 events"
    assert "cut" not in json.dumps(chess)
    mtg = charts.chart_cut_lines(report, field=field, top=3, rules="mtg").to_dict()
    assert mtg["title"]["text"] == "The top-3 cut line across 2 events"


def test_a_pokemon_chart_calls_a_drawn_match_a_tie() -> None:
    """The cut-status facets and the OMW%-ranges legend and subtitle said "draw" of a
    Pokémon event (its record is W/L/T: ``Ruleset.draw_word``); the data keep "draw"."""
    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
                      "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
                      "games_b": [0, 1, 0, 1], "games_drawn": [0, 0, 0, 1]})
    res = sf.from_matches(m)
    pairs = pl.DataFrame({"player_id": ["A", "C", "B", "D"],
                          "opponent_id": ["C", "A", "D", "B"]})
    for rules, word in (("pokemon", "tie"), ("mtg", "draw")):
        status = sf.cut.cut_status(res, pairs, top=2, rules=rules)
        spec = charts.chart_cut_status(status, top=2, rules=rules).to_dict()
        assert f'"{word}"' in spec["facet"]["column"]["header"]["labelExpr"]
        ranges = sf.cut.next_round_ranges(res, pairs, rules=rules)
        spec = charts.chart_omw_ranges(ranges, sf.standings(res, rules), rules=rules).to_dict()
        bars = spec["layer"][0]["encoding"]["color"]
        assert f'"{word}"' in bars["legend"]["labelExpr"]
        assert f"win / {word} / loss" in " ".join(spec["title"]["subtitle"])


def _league_tables() -> dict[str, pl.DataFrame]:
    base = pl.read_csv(ROOT / "data" / "events" / "league-night.csv")
    last = base["round"].max()
    prior = base.filter(pl.col("round") < last)
    pairs = base.filter(pl.col("round") == last).select("event_id", "round", "player_id",
                                                         "opponent_id")
    return {"results": base, "standings": sf.standings(base),
            "by_round": sf.standings_by_round(base), "current": sf.standings(prior),
            "status": cut_status(prior, pairs, top=4, n_sims=5)}


@pytest.mark.parametrize(("table", "change", "says"), [
    ("standings", pl.col("rank").cast(pl.String), r"rank is String, expected whole number"),
    ("standings", pl.concat_list("player_id").alias("player_id"),
     r"player_id is List\(String\), expected text or whole number"),
    ("standings", pl.lit(None).alias("player_id"),
     r"player_id is Null, expected text or whole number"),
    ("standings", pl.lit(1.5).alias("player_id"),  # (class 135: the one rule of ids)
     r"player_id is Float64, expected text or whole number"),
    ("standings", pl.col("rounds_played").cast(pl.Float64) / 0,
     r"rounds_played is Float64, expected whole number"),
    ("by_round", pl.col("round").cast(pl.String), r"round is String, expected whole number"),
    ("status", pl.lit(float("nan")).alias("probability"),
     r"probability nan is not a probability from 0 to 1"),
])
def test_a_chart_table_of_other_types_than_the_analysis_writes_is_named(
        table: str, change: pl.Expr, says: str) -> None:
    """Class 123: a chart's table (an analysis's output, perhaps saved and read back) whose
    columns had other types — ranks as text, ids as objects or all null, a round as text, a
    probability NaN — ended in Polars' bare errors, a panic (``arg_sort`` on objects),
    Python's ``ValueError`` (``cannot convert float NaN to integer``) or Altair's
    ``SchemaValidationError``. A ``SchemaError`` names the column and the type expected."""
    t = _league_tables()
    bad = t[table].with_columns(change)
    draw = {"standings": lambda: charts.chart_standings(bad),
            "by_round": lambda: charts.chart_standings_race(bad),
            "status": lambda: charts.chart_cut_status(bad, t["current"])}[table]
    with pytest.raises(SchemaError, match=rf"{says}.*Hint: pass the output of"):
        charts.save(draw(), ROOT / "never-written.json")
    assert not (ROOT / "never-written.json").exists()


def test_a_table_of_whole_number_ids_read_back_from_csv_is_drawn(tmp_path: Path) -> None:
    """A TRF's (or TOM's) player ids are whole numbers: its standings or cut status saved
    to CSV and read back hold them as Int64, which class 123's check refused ("player_id
    is Int64, expected text") although they are read as text; lists, objects and a
    required column of no value are still refused (above)."""
    res = sf.read(ROOT / "tests" / "fixtures" / "trf" / "all_codes.trf").results
    saved = tmp_path / "standings.csv"
    sf.standings(res, "fide").write_csv(saved)
    back = pl.read_csv(saved)
    assert back.schema["player_id"] == pl.Int64
    charts.save(charts.chart_standings(back), tmp_path / "standings.json")
    last = res["round"].max()
    prior = res.filter(pl.col("round") < last)
    pairs = res.filter((pl.col("round") == last) & pl.col("opponent_id").is_not_null())
    status = cut_status(prior, pairs.select("event_id", "round", "player_id", "opponent_id"),
                        top=2, rules="fide", n_sims=0)
    status.write_csv(tmp_path / "status.csv")
    back = pl.read_csv(tmp_path / "status.csv")
    assert back.schema["player_id"] == pl.Int64
    charts.save(charts.chart_cut_status(back, top=2, rules="fide"), tmp_path / "status.json")


def test_an_image_cuts_a_long_name_everywhere_the_chart_names_it() -> None:
    """Bad data 218: a name past ``MAX_DRAWN_TEXT`` was cut in the chart's data alone, where
    its sort order still named it whole: the leader, named by 10,000 characters, was drawn
    last of the PNG and SVG standings (the HTML, uncut, right); and two names alike in
    their first 199 characters became one label, drawn on one line. The drawn spec names
    each cut text wherever it names the text, each distinct."""
    long = "L" * 10_000
    table = standings_frame().with_columns(
        pl.Series("player_id", [long, long + "x", "Cal", "Dan", "Eve", "Fay", "Gus"]))
    spec = charts.chart_standings(table, cut=4).to_dict()
    with pytest.warns(DataWarning, match="cut"):
        drawn = charts._drawable(spec)
    labels = {row["label"] for row in values(drawn) if "label" in row}
    assert len(labels) == 7, labels  # (two names alike in 199 characters: two labels)
    assert all(len(t) <= charts.MAX_DRAWN_TEXT for t in labels)
    orders: list[list[str]] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k == "sort" and isinstance(v, list) and v and isinstance(v[0], str):
                    orders.append(v)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(drawn)
    sorted_labels = [o for o in orders if set(o) & labels]
    assert sorted_labels
    for order in sorted_labels:  # (every label the order names is drawn: the leader first)
        assert set(order) <= labels, set(order) - labels
        assert order[0].startswith("1 L")


def test_the_cut_charts_name_the_round_they_analyse(tmp_path: Path) -> None:
    """``chart cut-status FILE --round 3`` of a 4-round event said "by points before the
    final round" (and omw-ranges "after the next round"): a chart of round 3 claimed to be
    the final round's. Given the round, both say it; without it, as before."""
    res = sf.read(ROOT / "data" / "events" / "store-championship.csv").results
    prior = res.filter(pl.col("round") < 3)
    pairs = res.filter(pl.col("round") == 3).select("event_id", "round", "player_id",
                                                    "opponent_id")
    cur = sf.standings(prior)
    status = cut_status(prior, pairs, top=4)
    spec = charts.chart_cut_status(status, cur, top=4, round_analysed=3).to_dict()
    assert "by points before round 3 and own result" in subtitle(spec)
    assert spec["spec"]["layer"][0]["encoding"]["y"]["title"] == "Points before round 3"
    plain = charts.chart_cut_status(status, cur, top=4).to_dict()
    assert "before the final round" in subtitle(plain)
    ranges = charts.chart_omw_ranges(next_round_ranges(prior, pairs), cur,
                                     round_analysed=3).to_dict()
    assert "contenders after round 3:" in subtitle(ranges)
    assert ranges["layer"][0]["encoding"]["x"]["title"] == "OMW% after round 3 (diamond: now)"
    with pytest.raises(DataError, match="round_analysed"):
        charts.chart_cut_status(status, cur, round_analysed=0)
    # the command line passes the round it analysed
    from swissframe.cli.commands import chart as chart_command

    captured: dict[str, Any] = {}
    real = charts.chart_cut_status

    def spy(*args: Any, **kwargs: Any) -> Any:
        captured.update(kwargs)
        return real(*args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(charts, "chart_cut_status", spy)
        ns = chart_command.argparse.Namespace(kind="cut-status", rules="mtg", event=None,
                                              top=None, cut=4, round=3)
        chart_command.build(ns, res)
    assert captured["round_analysed"] == 3


def test_the_cut_lines_say_which_way_the_played_out_draws_moved_each_line() -> None:
    """The subtitle said "Draws raise the line" of every chart: 24 real events drew a grey
    tick above the dot for 3 of them (a 14-player event's line went from 7 to 9 points)."""
    ev = pl.DataFrame({"event_id": list("abcde"), "players": [14, 30, 60, 120, 200],
                       "match_points_n": [7.0, 9.0, 13.0, 16.0, 20.0],
                       "ids_final": [2, 3, 0, 4, 5],
                       "cf_cut_points_mean": [9.0, 9.0, 12.0, 15.0, 19.04]})
    said = subtitle(charts.chart_cut_lines(ev, top=8).to_dict())
    assert "lower in 2 of 4 events with them, higher in 1, the same in 1 (a draw gives" in said
    ev = ev.with_columns(cf_cut_points_mean=pl.Series([9.0, 9.5, 12.0, 17.0, 20.0]))
    said = subtitle(charts.chart_cut_lines(ev, top=8).to_dict())
    assert "lower in 0 of 4 events with them, higher in 3" in said
    assert "a draw gives" not in said


def test_a_chart_of_more_names_than_vega_orders_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad data 261: `swissframe chart standings FILE --top 5000` (and `omw-ranges --top`,
    `race --cut`) ended in a traceback of vl-convert's JavaScript ("RangeError: Maximum
    call stack size exceeded"): the names are drawn in an explicit order, which Vega parses
    as one expression, and past about 1,450 its parser overflows. Each chart now refuses
    more than `MAX_DRAWN_NAMES` before it is built (here lowered to 2), naming the count,
    the bound and what to ask for."""
    monkeypatch.setattr(charts, "MAX_DRAWN_NAMES", 2)
    res = small_event()
    prior, pairs = final_round_split(res)
    cases = [
        lambda: charts.chart_standings(sf.standings(res), top=3),
        lambda: charts.chart_standings_race(sf.standings_by_round(res), top=3),
        lambda: charts.chart_omw_ranges(next_round_ranges(prior, pairs), sf.standings(prior),
                                        top=3),
    ]
    for make in cases:
        with pytest.raises(DataError, match=r"3 \w+ to draw, more than a chart orders \(2: "
                                            r"Vega fails past about 1,450\)\. Hint: top=2"):
            make()
    charts.chart_standings(sf.standings(res), top=2)  # (at the bound: drawn)


def test_save_names_vegas_own_failure(tmp_path: Path) -> None:
    """Bad data 261: a chart built elsewhere that Vega cannot draw (an axis ordered by
    2,000 names) was vl-convert's ValueError with a JavaScript stack; `save` now says it
    as a SwissframeError naming the file, Vega's first line and what to do, and writes
    nothing."""
    import altair as alt

    names = [f"p{i}" for i in range(2000)]
    c = (alt.Chart(alt.InlineData(values=[{"n": x, "v": 1} for x in names])).mark_point()
         .encode(y=alt.Y("n:N", sort=names), x="v:Q"))
    with pytest.raises(SwissframeError, match=r"cannot draw 'fig.svg': Vega failed \(Range"
                                              r"Error: Maximum call stack size exceeded\)"):
        charts.save(c, tmp_path / "fig.svg")
    assert list(tmp_path.iterdir()) == []
