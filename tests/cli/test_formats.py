"""Every input format through every command: a TRF, a TDF with three divisions, a folder of
decklist-cache JSON and a CSV, each read by the one reader, ranked by the ruleset the data
calls for (printed on stderr), with names and divisions where the source has them."""

from __future__ import annotations

import shutil
from pathlib import Path
from unittest import mock

import orjson
import polars as pl
import pytest

import swissframe as sf
from swissframe import bulk
from swissframe.cli import main
from tests.helpers import FIXTURES, REPO_ROOT

DECKS = ("melee-byes-1-2024-07-13.json", "topdeck-demo-abc123-2024-07-13.json")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """Per format: the path, an event to draw, a player, the rules line expected."""
    deck = tmp_path_factory.mktemp("decklists")
    for name in DECKS:
        shutil.copyfile(FIXTURES / "decklist" / name, deck / name)
    return {
        "trf": {"path": str(FIXTURES / "trf" / "all_codes.trf"), "event": "all_codes",
                "player": "Alpha, Ann", "rules": "rules: fide-2026", "name": "Hotel, Hal"},
        "tdf": {"path": str(FIXTURES / "tom" / "three_divisions.tdf"),
                "event": "three_divisions:seniors", "player": "Ada Senior",
                "rules": "rules: pokemon", "name": "Dev Master"},
        "decklist": {"path": str(deck), "event": "melee-byes-1-2024-07-13", "player": "A",
                     "rules": "rules: melee-e2 (1 event), topdeck (1 event)", "name": ""},
        "csv": {"path": str(REPO_ROOT / "data" / "events" / "store-championship.csv"),
                "event": "store-championship", "player": "Alice", "rules": "rules: mtg",
                "name": ""},
    }


FORMATS = ("trf", "tdf", "decklist", "csv")


def _rules_line(err: str) -> str:
    """The ``rules: …`` line of stderr (after any warning line, e.g. the import notes)."""
    return next((line for line in err.splitlines() if line.startswith("rules:")), err)


@pytest.mark.parametrize("fmt", FORMATS)
def test_standings(fmt: str, inputs: dict[str, dict[str, str]],
                   capsys: pytest.CaptureFixture[str]) -> None:
    i = inputs[fmt]
    assert main(["standings", i["path"], "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert _rules_line(err).startswith(i["rules"])
    # one line for the rules, and one warning where the read left something out (the
    # TRF fixture's pending games, which the results leave out)
    assert err.count("\n") == 1 + (fmt == "trf")
    if fmt == "trf":
        assert err.startswith("swissframe: warning: 2 import notes (pending ×2)")
    table = pl.read_csv(out.encode())
    if fmt == "trf":  # FIDE tie-breaks, not MTG percentages
        assert {"bh_c1", "bh", "sb"} <= set(table.columns)
    if fmt == "tdf":  # one ranking per division, names beside the ids
        assert table.columns[:4] == ["event_id", "division", "player_id", "name"]
        assert table.group_by("division").agg(pl.col("rank").min(), pl.len()).sort(
            "division").rows() == [("juniors", 1, 4), ("masters", 1, 4), ("seniors", 1, 4)]
        assert "oomwp" in table.columns
    if i["name"]:
        assert i["name"] in table["name"].to_list()
    if fmt == "decklist":  # found in a folder without --input-format
        assert set(table["event_id"]) == {d.removesuffix(".json") for d in DECKS}


@pytest.mark.parametrize("fmt", FORMATS)
def test_rules_override(fmt: str, inputs: dict[str, dict[str, str]],
                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", inputs[fmt]["path"], "--rules", "mtg", "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines()[-1] == "rules: mtg (from --rules)"
    assert "omwp" in pl.read_csv(out.encode()).columns


@pytest.mark.parametrize("fmt", FORMATS)
def test_explain_by_name_or_id(fmt: str, inputs: dict[str, dict[str, str]],
                               capsys: pytest.CaptureFixture[str]) -> None:
    i = inputs[fmt]
    assert main(["explain", i["path"], "--player", i["player"], "--event", i["event"],
                 "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert _rules_line(err).startswith("rules: ")
    assert pl.read_csv(out.encode()).height >= 2


@pytest.mark.parametrize("fmt", FORMATS)
def test_cut(fmt: str, inputs: dict[str, dict[str, str]],
             capsys: pytest.CaptureFixture[str]) -> None:
    i = inputs[fmt]
    assert main(["cut", i["path"], "--top", "2"]) == 0
    out, err = capsys.readouterr()
    assert _rules_line(err).startswith(i["rules"])
    assert "Top 2 before round" in out
    # (each event by its name, the file's own else the stem: io._files.event_names)
    assert f"— {sf.read(i['path']).event_names[i['event']]}" in out
    if fmt == "tdf":
        assert "Three Divisions (seniors)" in out  # (each division's event, by its name)
        assert "Ada Senior" in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_sensitivity(fmt: str, inputs: dict[str, dict[str, str]],
                     capsys: pytest.CaptureFixture[str]) -> None:
    i = inputs[fmt]
    assert main(["sensitivity", i["path"], "--top", "2", "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert _rules_line(err).startswith(i["rules"])
    assert pl.read_csv(out.encode()).height >= 1


@pytest.mark.parametrize("fmt", FORMATS)
def test_chart(fmt: str, inputs: dict[str, dict[str, str]], tmp_path: Path,
               capsys: pytest.CaptureFixture[str]) -> None:
    i = inputs[fmt]
    out = tmp_path / "fig.json"
    assert main(["chart", "standings", i["path"], "--event", i["event"], "-o", str(out)]) == 0
    assert _rules_line(capsys.readouterr().err).startswith(i["rules"])
    assert orjson.loads(out.read_bytes())


@pytest.mark.parametrize("fmt", FORMATS)
def test_validate(fmt: str, inputs: dict[str, dict[str, str]],
                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", inputs[fmt]["path"], "--format", "json"]) == 0
    doc = orjson.loads(capsys.readouterr().out)
    assert doc["ok"]
    assert doc["rules"] == {"trf": "fide-2026", "tdf": "pokemon", "decklist": "mtg",
                            "csv": "mtg"}[fmt]


@pytest.mark.parametrize("fmt", FORMATS)
def test_verify(fmt: str, inputs: dict[str, dict[str, str]],
                capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["verify", inputs[fmt]["path"]])
    out, err = capsys.readouterr()
    if fmt == "decklist":
        assert rc == 0
        assert "read 2 events," in out
    else:  # a clear pointer to the command that checks TOM / TRF files
        assert rc == 2
        assert "verify-ref" in err


@pytest.mark.parametrize("fmt", FORMATS)
def test_recompute(fmt: str, inputs: dict[str, dict[str, str]], tmp_path: Path,
                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recompute", inputs[fmt]["path"], "-o", str(tmp_path / "out")]) == 0
    assert _rules_line(capsys.readouterr().err).startswith("rules: ")
    parts = pl.read_parquet(tmp_path / "out" / "**" / "*.parquet")
    assert parts.height > 0
    if fmt == "decklist":  # two platforms: one dataset per ruleset
        assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
            "ruleset=melee-e2", "ruleset=topdeck"]


def test_mixed_folder_reads_every_format(inputs: dict[str, dict[str, str]], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in FORMATS:
        src = Path(inputs[fmt]["path"])
        if src.is_dir():
            shutil.copytree(src, tmp_path / fmt)
        else:
            shutil.copyfile(src, tmp_path / src.name)
    assert main(["standings", str(tmp_path), "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert "inferred per event" in err
    events = set(pl.read_csv(out.encode())["event_id"])
    assert {"all_codes", "store-championship", "three_divisions:juniors",
            "melee-byes-1-2024-07-13"} <= events


@pytest.mark.parametrize("fmt", ["csv", "decklist"])
def test_recompute_resumes_a_converted_input(fmt: str, inputs: dict[str, dict[str, str]],
                                             tmp_path: Path) -> None:
    """``--resume`` over CSV or decklist input: the CLI converts it to a Parquet file of its
    own, new at every run, so the run was compared on that file and never matched ("cannot
    be resumed"); it is now compared on the files read. A changed input is still refused."""
    src = tmp_path / "src"
    given = Path(inputs[fmt]["path"])
    if given.is_dir():
        shutil.copytree(given, src)
    else:
        src.mkdir()
        shutil.copyfile(given, src / given.name)
    out = tmp_path / "out"
    save = bulk._save_batch

    def killed_after_saving(dest: str, res: object) -> None:
        save(dest, res)  # type: ignore[arg-type]
        raise _Killed

    def interrupted_run(*flags: str) -> Path:
        with mock.patch.object(bulk, "_save_batch", killed_after_saving), \
                pytest.raises(_Killed):
            main(["recompute", str(src), "-o", str(out), "--quiet", *flags])
        manifest = next(out.glob(f"**/{bulk.MANIFEST}"))
        assert orjson.loads(manifest.read_bytes())["status"] == "running"
        return manifest

    manifest = interrupted_run()
    assert main(["recompute", str(src), "-o", str(out), "--quiet", "--resume"]) == 0
    assert orjson.loads(manifest.read_bytes())["status"] == "complete"
    assert pl.read_parquet(out / "**" / "*.parquet").height > 0
    # a changed input: the interrupted run cannot be finished with it
    manifest = interrupted_run("--overwrite")
    first = sorted(p for p in src.rglob("*") if p.is_file())[0]
    first.write_bytes(first.read_bytes() + b"\n")
    assert main(["recompute", str(src), "-o", str(out), "--quiet", "--resume"]) == 2
    assert orjson.loads(manifest.read_bytes())["status"] == "running"


class _Killed(BaseException):
    """Stands for a kill at a batch boundary (not an Exception: nothing may swallow it)."""


@pytest.mark.parametrize("fmt", FORMATS)
def test_report_closes_with_the_rules_it_ranked_by(fmt: str, inputs: dict[str, dict[str, str]],
                                                   tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``report`` was the one command reading results that never said which ruleset its
    pages rank by (found by a user-level check)."""
    out = tmp_path / "r.html"
    assert main(["report", inputs[fmt]["path"], "--sims", "0", "-o", str(out)]) == 0
    assert _rules_line(capsys.readouterr().err).startswith("rules: ")


@pytest.mark.parametrize(("command", "out", "fmt"), [
    (["standings"], "x.png", "csv"), (["standings"], "x.csv.gz", "csv"),
    (["standings"], "x.HTML", "json"), (["validate"], "x.tdf", "csv"),
    (["cut", "--top", "4"], "x.pdf", "parquet"), (["standings"], "x.xls", "csv")])
def test_format_given_for_a_file_of_another_kind_is_refused(
        command: list[str], out: str, fmt: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Bad data 222: ``--format`` chooses the format of a name with no known table suffix
    (``-o /dev/stdout``, ``x.dat``), and so it wrote a CSV named ``x.png``, an uncompressed
    CSV named ``x.csv.gz``, a CSV named like a TOM file (``x.tdf``), Parquet named ``x.pdf``,
    exit 0. A suffix of another kind of file is refused before anything is read."""
    trf = str(FIXTURES / "trf" / "all_codes.trf")
    code = main([command[0], trf, *command[1:], "-o", str(tmp_path / out), "--format", fmt])
    err = capsys.readouterr().err
    assert code == 2
    assert "names a ." in err, err
    assert list(tmp_path.iterdir()) == []
    assert main(["standings", trf, "-o", str(tmp_path / "x.dat"), "--format", "csv",
                 "--quiet"]) == 0  # (a suffix of no known kind: --format chooses)
    assert (tmp_path / "x.dat").read_text().startswith("event_id")
