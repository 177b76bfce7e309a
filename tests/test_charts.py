"""Charts: tested through ``chart.to_dict()`` (encodings, fields, the data they carry), one
real PNG/SVG export, the opt-in theme, bad input, and the lazy import of Altair."""

from __future__ import annotations

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
from swissframe.errors import DataError, SchemaError, SwissframeError

alt = pytest.importorskip("altair")

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------------------- helpers


def values(spec: dict[str, Any], part: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The inline rows a (sub)spec draws: its own data, else the top-level data."""
    node = part if part is not None and "data" in part else spec
    return list(spec["datasets"][node["data"]["name"]])


def filters(part: dict[str, Any]) -> list[Any]:
    return [t["filter"] for t in part.get("transform", []) if "filter" in t]


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
    left, right = spec["hconcat"]
    rows = values(spec, left)
    labels = [r["label"] for r in rows]
    assert labels == ["1 Ann", "2= Bea", "2= Cal", "4= Dan", "4= Eve", "6 Fay", "7 Gus"]
    assert [r["zone"] for r in rows] == ["in the cut"] * 3 + ["tied at the cut"] * 2 + [
        "outside"] * 2
    # points groups alternate: 9 | 6 6 6 6 | 3 | 0
    assert [r["band"] for r in rows] == [1, 0, 0, 0, 0, 1, 0]
    bands, bars, text, rule = left["layer"]
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
    assert dots["transform"][0]["fold"] == ["omwp", "gwp", "ogwp"]
    assert dots["encoding"]["x"]["field"] == "value"
    assert dots["encoding"]["color"]["field"] == "tiebreaker"
    assert spec["title"]["text"] == "e: top 7, cut to top 4"


def test_chart_standings_top_and_no_cut() -> None:
    spec = charts.chart_standings(standings_frame(), top=3, cut=None,
                                  tiebreakers=["omwp"]).to_dict()
    left, right = spec["hconcat"]
    rows = values(spec, left)
    assert [r["player_id"] for r in rows] == ["Ann", "Bea", "Cal"]
    assert {r["zone"] for r in rows} == {"in the cut"}
    assert len(left["layer"]) == 3  # no cut rule
    assert right["layer"][1]["transform"][0]["fold"] == ["omwp"]
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


def test_chart_standings_race() -> None:
    res = small_event()
    by = sf.standings_by_round(res)
    spec = charts.chart_standings_race(by, top=2).to_dict()
    rows = values(spec, spec["layer"][0])
    final = sf.standings(res).head(2)["player_id"].to_list()
    assert sorted({r["player_id"] for r in rows}) == sorted(final)
    assert {r["round"] for r in rows} == {1, 2, 3}
    lines, points, rule = spec["layer"]
    assert points["mark"]["type"] == "point"
    assert [t["field"] for t in points["encoding"]["tooltip"]][:4] == [
        "player_id", "round", "rank", "match_points"]
    assert lines["mark"]["type"] == "line"
    assert lines["encoding"]["y"]["field"] == "rank"
    assert lines["encoding"]["y"]["scale"]["reverse"] is True
    assert lines["encoding"]["y"]["scale"]["type"] == "log"
    assert lines["encoding"]["x"]["field"] == "round"
    assert lines["encoding"]["color"]["sort"][0].startswith("1. ")
    assert rule["encoding"]["y"]["datum"] == 2.5
    lin = charts.chart_standings_race(by, top=2, log_rank=False).to_dict()
    assert "type" not in lin["layer"][0]["encoding"]["y"]["scale"]


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
    with pytest.raises(SchemaError, match="players"):
        charts.chart_cut_lines(rep.events)


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
    assert cells["encoding"]["color"]["field"] == "changes"
    rows = {(r["event_id"], r["ruleset"]): r for r in values(spec)}
    assert set(rows) == {("a", "mtg-1/3"), ("a", "pokemon"), ("b", "mtg-1/3"),
                         ("b", "pokemon")}
    assert rows["a", "pokemon"]["changes"] == 2
    assert rows["a", "pokemon"]["entering_names"] == "X, Z"
    assert rows["b", "mtg-1/3"]["changes"] == 0
    assert text["encoding"]["text"]["field"] == "changes"
    assert "50%" in spec["title"]["subtitle"]
    only = charts.chart_sensitivity(s, only_changed=True, baseline=True).to_dict()
    assert {r["event_id"] for r in values(only)} == {"a"}
    assert only["layer"][0]["encoding"]["x"]["sort"] == ["mtg", "mtg-1/3", "pokemon"]


def test_chart_sensitivity_from_engine() -> None:
    from swissframe.sensitivity import sensitivity

    s = sensitivity(small_event(), ["mtg", "mtg-1/3"], top=2)
    spec = charts.chart_sensitivity(s).to_dict()
    assert {r["ruleset"] for r in values(spec)} == {"mtg-1/3"}


# ------------------------------------------------------------------------------- bad input


def test_bad_input_errors() -> None:
    table = standings_frame()
    two = pl.concat([table, table.with_columns(event_id=pl.lit("f"))])
    with pytest.raises(DataError, match="holds 2") as err:
        charts.chart_standings(two)
    assert "Hint" in str(err.value)
    assert charts.chart_standings(two, event_id="f").to_dict()["title"]["text"].startswith("f:")
    with pytest.raises(DataError, match="'zzz' is not in the table"):
        charts.chart_standings(two, event_id="zzz")
    with pytest.raises(SchemaError, match=r"\['omwp'\]"):
        charts.chart_standings(table.drop("omwp"), tiebreakers=["omwp"])
    with pytest.raises(SchemaError, match="standings_by_round"):
        charts.chart_standings_race(table)
    with pytest.raises(DataError, match="top must be"):
        charts.chart_standings(table, top=0)
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
    rows = charts._standings_frame(table, top, cut).to_dicts()
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


# ------------------------------------------------------------------------------- CLI


def test_cli_chart_kinds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from swissframe.cli import main

    events = ROOT / "data" / "events"
    one = str(events / "store-championship.csv")
    for kind in ("standings", "race", "omw-ranges", "cut-status"):
        out = tmp_path / f"{kind}.json"
        assert main(["chart", kind, one, "--cut", "4", "-o", str(out)]) == 0
        assert f"wrote {out}" in capsys.readouterr().out
        assert '"$schema"' in out.read_text(encoding="utf-8")
    out = tmp_path / "lines.json"
    assert main(["chart", "cut-lines", str(events), "--cut", "2", "--sims", "3",
                 "-o", str(out)]) == 0
    assert '"players"' in out.read_text(encoding="utf-8")
    out = tmp_path / "sens.json"
    assert main(["chart", "sensitivity", str(events), "--cut", "4", "-o", str(out)]) == 0
    assert "mtg+floor=1/3" in out.read_text(encoding="utf-8")


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
