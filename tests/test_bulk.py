"""Tests of swissframe.bulk.recompute: batching, row accounting, errors, Dask equality."""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import orjson
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from swissframe.bulk import MANIFEST, REJECTED, recompute
from swissframe.errors import DataError, ImportFormatError, SchemaError, ValidationError


def _event(event_id: str, n_players: int, n_rounds: int, seed: int) -> pl.DataFrame:
    """A small valid event: rotating pairings, results from a fixed pattern, bye if odd."""
    players = [f"{event_id}-p{i}" for i in range(n_players)]
    rows = []
    for r in range(1, n_rounds + 1):
        order = players[r % n_players:] + players[:r % n_players]
        for k in range(0, n_players - 1, 2):
            a, b = order[k], order[k + 1]
            res = [(2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 0, 3), (1, 1, 1)][(seed + r + k) % 5]
            rows.append({"event_id": event_id, "round": r, "player_a": a, "player_b": b,
                         "games_a": res[0], "games_b": res[1], "games_drawn": res[2]})
        if n_players % 2:
            rows.append({"event_id": event_id, "round": r, "player_a": order[-1],
                         "player_b": None, "games_a": None, "games_b": None,
                         "games_drawn": None})
    return sf.from_matches(pl.DataFrame(rows, schema={
        "event_id": pl.String, "round": pl.Int64, "player_a": pl.String, "player_b": pl.String,
        "games_a": pl.Int64, "games_b": pl.Int64, "games_drawn": pl.Int64}))


def _archive(n_events: int = 6) -> pl.DataFrame:
    return pl.concat([_event(f"e{i:02d}", 3 + i % 5, 3 + i % 3, i) for i in range(n_events)])


def _write_split(df: pl.DataFrame, folder: Path, n_files: int) -> None:
    """Write ``df`` as ``n_files`` files, rows dealt round-robin so events span files."""
    folder.mkdir(parents=True, exist_ok=True)
    idx = df.with_row_index("_i")
    for k in range(n_files):
        idx.filter(pl.col("_i") % n_files == k).drop("_i").write_parquet(
            folder / f"part{k}.parquet")


def _read(dest: Path) -> pl.DataFrame:
    return pl.read_parquet(dest / "part-*.parquet").sort("event_id", "rank", "player_id")


def _reference(df: pl.DataFrame) -> pl.DataFrame:
    return sf.standings(df).sort("event_id", "rank", "player_id")


def test_batches_equal_one_call(tmp_path: Path) -> None:
    df = _archive(8)
    _write_split(df, tmp_path / "src", 3)
    rep = recompute(tmp_path / "src", tmp_path / "out", batch_rows=40)
    assert rep.batches > 2
    assert_frame_equal(_read(tmp_path / "out"), _reference(df))
    assert rep.rows_in == df.height == rep.rows_used
    assert rep.rows_rejected == 0
    assert rep.events_in == rep.events_done == 8
    assert rep.standings_rows == _reference(df).height
    manifest = orjson.loads((tmp_path / "out" / MANIFEST).read_bytes())
    assert manifest["rows_in"] == df.height
    assert manifest["batches"] == rep.batches


def test_glob_and_batch_events(tmp_path: Path) -> None:
    df = _archive(5)
    _write_split(df, tmp_path / "src", 2)
    rep = recompute(str(tmp_path / "src" / "*.parquet"), tmp_path / "out", batch_events=2)
    assert rep.batches == 3  # 5 events, at most 2 per batch
    assert_frame_equal(_read(tmp_path / "out"), _reference(df))


def test_playoff_rows_are_counted_as_used(tmp_path: Path) -> None:
    df = _archive(2)
    playoff = pl.DataFrame({"event_id": ["e00", "e00"], "round": [9, 9],
                            "player_id": ["e00-p0", "e00-p1"], "opponent_id": ["e00-p1", "e00-p0"],
                            "games_won": [2, 0], "games_lost": [0, 2], "games_drawn": [0, 0],
                            "phase": ["playoff", "playoff"]})
    full = pl.concat([df.with_columns(phase=pl.lit("swiss")), playoff])
    full.write_parquet(tmp_path / "a.parquet")
    rep = recompute(tmp_path / "a.parquet", tmp_path / "out")
    assert (rep.rows_in, rep.rows_used, rep.rows_playoff) == (full.height, full.height, 2)


def _bad_archive() -> pl.DataFrame:
    df = _archive(4).with_columns(pl.col("games_won").cast(pl.Int64))
    # make one seat of one match in event e01 contradict its mirror
    hit = (pl.col("event_id") == "e01") & (pl.col("round") == 1) & (
        pl.col("player_id") == "e01-p1")
    return df.with_columns(pl.when(hit).then(pl.lit(7)).otherwise(pl.col("games_won"))
                           .alias("games_won"))


def test_invalid_event_stops_by_default(tmp_path: Path) -> None:
    df = _bad_archive()
    df.write_parquet(tmp_path / "a.parquet")
    with pytest.raises(ValidationError, match=r"e01.*round 1") as info:
        recompute(tmp_path / "a.parquet", tmp_path / "out", batch_rows=30)
    assert "Hint:" in str(info.value)
    assert not list((tmp_path / "out").glob("part-*.parquet"))  # no partial dataset left


def test_invalid_event_skipped_when_asked(tmp_path: Path) -> None:
    df = _bad_archive()
    df.write_parquet(tmp_path / "a.parquet")
    rep = recompute(tmp_path / "a.parquet", tmp_path / "out", on_error="skip", batch_rows=30)
    bad_rows = df.filter(pl.col("event_id") == "e01").height
    assert rep.rows_rejected == bad_rows
    assert rep.rejected_by_reason == {"mirror_mismatch": bad_rows}
    assert rep.rows_in == rep.rows_used + rep.rows_rejected == df.height
    assert (rep.events_in, rep.events_done, rep.events_rejected) == (4, 3, 1)
    good = df.filter(pl.col("event_id") != "e01")
    assert_frame_equal(_read(tmp_path / "out"), _reference(good))
    rejected = pl.read_parquet(tmp_path / "out" / REJECTED)
    assert set(rejected["event_id"]) == {"e01"}
    assert "rejected: mirror_mismatch" in rep.summary()


def test_null_event_id_rows(tmp_path: Path) -> None:
    df = _archive(2)
    stray = df.head(1).with_columns(pl.lit(None, dtype=pl.String).alias("event_id"))
    pl.concat([df, stray]).write_parquet(tmp_path / "a.parquet")
    with pytest.raises(ValidationError, match="no event_id"):
        recompute(tmp_path / "a.parquet", tmp_path / "out")
    rep = recompute(tmp_path / "a.parquet", tmp_path / "out2", on_error="skip")
    assert rep.rejected_by_reason == {"null_event_id": 1}
    assert rep.rows_in == df.height + 1 == rep.rows_used + rep.rows_rejected


def test_input_errors(tmp_path: Path) -> None:
    with pytest.raises(ImportFormatError, match="no Parquet files"):
        recompute(tmp_path / "nothing", tmp_path / "out")
    _archive(1).drop("games_drawn").write_parquet(tmp_path / "a.parquet")
    with pytest.raises(SchemaError, match="games_drawn"):
        recompute(tmp_path / "a.parquet", tmp_path / "out")
    _archive(1).write_parquet(tmp_path / "a.parquet")
    recompute(tmp_path / "a.parquet", tmp_path / "out")
    with pytest.raises(DataError, match="overwrite"):
        recompute(tmp_path / "a.parquet", tmp_path / "out")
    recompute(tmp_path / "a.parquet", tmp_path / "out", overwrite=True)
    with pytest.raises(DataError, match="on_error"):
        recompute(tmp_path / "a.parquet", tmp_path / "o2", on_error="ignore")  # type: ignore[arg-type]


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n_events=st.integers(1, 7), n_files=st.integers(1, 3), batch_rows=st.integers(1, 200),
       workers=st.integers(1, 2))
def test_property_any_batching_equals_one_call(tmp_path_factory: pytest.TempPathFactory,
                                               n_events: int, n_files: int, batch_rows: int,
                                               workers: int) -> None:
    tmp = tmp_path_factory.mktemp("prop")
    df = _archive(n_events)
    _write_split(df, tmp / "src", n_files)
    rep = recompute(tmp / "src", tmp / "out", batch_rows=batch_rows, workers=workers)
    assert_frame_equal(_read(tmp / "out"), _reference(df))
    assert rep.rows_in == rep.rows_used == df.height
    assert rep.events_done == n_events


def test_cli_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from swissframe.cli.commands import recompute as cmd

    _bad_archive().write_parquet(tmp_path / "a.parquet")
    parser = argparse.ArgumentParser()
    cmd.add_parser(parser.add_subparsers())
    args = parser.parse_args(["recompute", str(tmp_path / "a.parquet"), "-o",
                              str(tmp_path / "out"), "--on-error", "skip", "--batch-rows", "25"])
    assert cmd.run(args) == 0
    out = capsys.readouterr()
    assert "rejected: mirror_mismatch" in out.out
    assert out.err == ""  # bars only on a terminal (tests/cli/test_terminal.py)


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                    reason="dask[distributed] not installed: pip install 'swissframe[distributed]'")
def test_dask_local_cluster_equals_single_machine(tmp_path: Path) -> None:
    df = _bad_archive()
    _write_split(df, tmp_path / "src", 3)
    local = recompute(tmp_path / "src", tmp_path / "local", on_error="skip", batch_rows=40)
    dist = recompute(tmp_path / "src", tmp_path / "dask", on_error="skip", batch_rows=40,
                     engine="dask", workers=2)
    assert local.files
    assert len(local.files) == len(dist.files)
    for a, b in zip(local.files, dist.files, strict=True):
        assert Path(a).name == Path(b).name
        assert_frame_equal(pl.read_parquet(a), pl.read_parquet(b))
    assert local.to_dict() | {"seconds": 0, "dest": "", "files": []} == \
        dist.to_dict() | {"seconds": 0, "dest": "", "files": []}
