"""A disqualified player on every surface: the terminal standings (80 columns), explain,
why and cut (docs/rules-decisions.md "Disqualification")."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from swissframe.cli import main
from tests.cli.test_terminal import _fits, run_raw, screen
from tests.engine.test_disqualified import SIX, _dq


@pytest.fixture
def six(tmp_path: Path) -> Path:
    """The six-player event with E (3rd without the flag) disqualified in round 3."""
    path = tmp_path / "six.csv"
    _dq(SIX, "E", 3).write_csv(path)
    return path


def test_standings_on_a_terminal_say_dq_and_fit_80_columns(six: Path) -> None:
    (code, raw), = run_raw([["standings", str(six), "--quiet"]], columns=80)
    assert code == 0
    lines = screen(raw)
    _fits(lines)
    rows = [line.split("┆") for line in lines if line.startswith("│")]
    order = [(r[0].strip("│ "), r[1].strip()) for r in rows[1:]]
    assert order == [("A", "1"), ("C", "2"), ("B", "3"), ("D", "4"), ("F", "5"), ("E", "DQ")]
    assert any(line.startswith("rank: DQ = disqualified") for line in lines), lines


def test_standings_file_and_top(six: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.csv"
    assert main(["standings", str(six), "-o", str(out), "--quiet"]) == 0
    table = pl.read_csv(out)
    assert table.columns.index("disqualified") == table.columns.index("dropped") + 1
    assert table.filter(pl.col("player_id") == "E")["rank"].to_list() == [None]
    # --top 3: the DQ'd 3rd is not in it, B moved up
    top = tmp_path / "top.csv"
    assert main(["standings", str(six), "--top", "3", "-o", str(top), "--quiet"]) == 0
    assert pl.read_csv(top)["player_id"].to_list() == ["A", "C", "B"]


def test_explain_and_why_say_the_player_is_disqualified(
        six: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(six), "--player", "E", "--quiet"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "disqualified (no rank)" in text
    assert "E was disqualified: removed from the standings" in text
    assert main(["why", str(six), "E", "B", "--quiet"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "'E' was disqualified in event" in err
    assert "Traceback" not in err
    # two ranked players: as before, B moved up to 3rd
    assert main(["why", str(six), "C", "B", "--quiet"]) == 0
    assert "C (2nd) beat B (3rd)" in capsys.readouterr().out


def test_cut_a_disqualified_player_cannot_make_it_and_the_next_moves_in(
        six: Path, tmp_path: Path) -> None:
    out = tmp_path / "cut.csv"
    assert main(["cut", str(six), "--top", "3", "-o", str(out), "--quiet"]) == 0
    table = pl.read_csv(out)
    e = table.filter(pl.col("player_id") == "E").row(0, named=True)
    assert (e["status_win"], e["status_draw"], e["status_loss"]) == ("eliminated",) * 3
    assert e["standing_in_cut"] == "out"
    # without the flag E (6 points before the last round) is in whatever happens, and B
    # and C (3 points) only with a win
    SIX.write_csv(tmp_path / "six_plain.csv")
    plain = tmp_path / "plain.csv"
    assert main(["cut", str(tmp_path / "six_plain.csv"), "--top", "3", "-o", str(plain),
                 "--quiet"]) == 0
    before = pl.read_csv(plain).filter(pl.col("player_id").is_in(["E", "B"]))
    status = dict(zip(before["player_id"], before["status_win"], strict=True))
    assert status["E"] == "guaranteed"
    assert dict(zip(before["player_id"], before["status_draw"], strict=True))["B"] != \
        "guaranteed"
    # with E disqualified, B moves in with a draw
    b = table.filter(pl.col("player_id") == "B").row(0, named=True)
    assert b["status_draw"] == "guaranteed"
    (code, raw), = run_raw([["cut", str(six), "--top", "3", "--all", "--quiet"]])
    assert code == 0
    lines = screen(raw)
    _fits(lines)
    e_line = next(x for x in lines if x.split()[1:2] == ["E"])
    assert e_line.split()[-3:] == ["out", "out", "out"], e_line


def test_a_combined_pods_disqualified_player_follows_the_ranked_of_their_division(
        ) -> None:
    # the file's masters and seniors are one pod ranked per division: the division's
    # re-rank sorted a null rank first, so M3 X (DQ) headed the masters
    tdf = Path(__file__).parents[1] / "fixtures" / "tom" / "disqualified.tdf"
    (code, raw), = run_raw([["standings", str(tdf), "--quiet"]], columns=80)
    assert code == 0
    rows = [line.split("┆") for line in screen(raw) if line.startswith("│")]
    # (the ranking's columns first: rank, then the division its ranks start again in)
    masters = [(r[0].strip("│ "), r[1].strip()) for r in rows if r[2].strip() == "masters"]
    assert masters == [("M1 X", "1"), ("M2 X", "2"), ("M3 X", "DQ")]
    # the legend under the pod that has a DQ, not under the juniors' table, which has none
    lines = screen(raw)
    legends = [i for i, line in enumerate(lines) if line.startswith("rank: DQ")]
    assert len(legends) == 1, lines
    assert lines.index("Two Pods, one DQ (seniors+masters)") < legends[0]


def test_standings_chart_leaves_a_disqualified_player_out(six: Path) -> None:
    import swissframe as sf
    from swissframe import charts

    table = sf.standings(pl.read_csv(six), "mtg")
    rows = charts.chart_standings(table, top=8).to_dict()["datasets"]
    shown = {r["player_id"] for data in rows.values() for r in data}
    assert shown == {"A", "B", "C", "D", "F"}
