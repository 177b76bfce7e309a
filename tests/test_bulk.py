"""Tests of swissframe.bulk.recompute: batching, row accounting, errors, Dask equality."""

from __future__ import annotations

import argparse
import importlib.util
import os
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


def test_a_users_tmp_files_in_the_output_folder_are_left_alone(tmp_path: Path) -> None:
    """Only the run's own temporaries (``part-*.parquet.tmp``, the manifest's) are cleared:
    an output folder of the user's held ``thesis-draft.tmp``, which a run deleted."""
    df = _archive(3)
    _write_split(df, tmp_path / "src", 1)
    out = tmp_path / "out"
    out.mkdir()
    (out / "thesis-draft.tmp").write_text("mine")
    (out / "part-00007.parquet.tmp").write_text("a killed run's")
    recompute(tmp_path / "src", out)
    assert (out / "thesis-draft.tmp").read_text() == "mine"
    assert not (out / "part-00007.parquet.tmp").exists()


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
    # bars only on a terminal (tests/cli/test_terminal.py); the one note says the ruleset
    assert [line for line in out.err.splitlines() if not line.startswith("rules: ")] == []


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


# ------------------------------------------------------------------ interrupted runs (crash-safe)


class _Killed(BaseException):
    """Stands for a kill at a batch boundary (not an Exception: nothing may swallow it)."""


def _interrupt_after(n: int) -> object:
    seen = [0]

    def progress(_events: int) -> None:
        seen[0] += 1
        if seen[0] >= n:
            raise _Killed

    return progress


def test_a_converted_source_is_resumed_on_its_origin(tmp_path: Path) -> None:
    """``origin=``: the source is a conversion made anew by each run (another path, another
    mtime); resuming compares the files it was made from. One file may be given as it is
    (not read as the characters of its name); a changed origin is refused."""
    df = _archive(12)
    origin = tmp_path / "results.csv"
    origin.write_text("stands for the file the archive was converted from\n")
    out = tmp_path / "out"
    df.write_parquet(tmp_path / "first.parquet")
    with pytest.raises(_Killed):
        recompute(tmp_path / "first.parquet", out, batch_events=2, origin=str(origin),
                  progress=_interrupt_after(2))  # type: ignore[arg-type]
    df.write_parquet(tmp_path / "second.parquet")  # the next run's conversion
    with pytest.raises(DataError, match="cannot be resumed"):  # compared on the source
        recompute(tmp_path / "second.parquet", out, batch_events=2, resume=True)
    before = os.stat(origin)
    origin.write_text("changed\n")
    with pytest.raises(DataError, match="cannot be resumed"):
        recompute(tmp_path / "second.parquet", out, batch_events=2, resume=True,
                  origin=[origin])
    origin.write_text("stands for the file the archive was converted from\n")
    os.utime(origin, ns=(before.st_atime_ns, before.st_mtime_ns))
    rep = recompute(tmp_path / "second.parquet", out, batch_events=2, resume=True,
                    origin=origin)
    assert orjson.loads((out / MANIFEST).read_bytes())["resumed_batches"] >= 1
    assert rep.events_done == 12
    assert_frame_equal(_read(out), _reference(df))


def test_interrupted_run_is_marked_refused_and_resumable(tmp_path: Path) -> None:
    df = _archive(12)
    _write_split(df, tmp_path / "src", 3)
    out = tmp_path / "out"
    with pytest.raises(_Killed):
        recompute(tmp_path / "src", out, batch_events=2,
                  progress=_interrupt_after(3))  # type: ignore[arg-type]
    manifest = orjson.loads((out / MANIFEST).read_bytes())
    assert manifest["status"] == "running"
    parts = sorted(out.glob("part-*.parquet"))
    assert 1 <= len(parts) < 6
    for p in parts:  # every part present is whole
        pl.read_parquet(p)
    assert not list(out.glob("*.tmp"))
    with pytest.raises(DataError, match="interrupted"):
        recompute(tmp_path / "src", out, batch_events=2)
    with pytest.raises(DataError, match="cannot be resumed"):
        recompute(tmp_path / "src", out, batch_events=3, resume=True)
    rep = recompute(tmp_path / "src", out, batch_events=2, resume=True)
    assert rep.rows_in == df.height == rep.rows_used
    assert rep.events_done == 12
    assert orjson.loads((out / MANIFEST).read_bytes())["status"] == "complete"
    assert orjson.loads((out / MANIFEST).read_bytes())["resumed_batches"] >= 2
    assert_frame_equal(_read(out), _reference(df))
    assert not (out / "_scratch").exists()
    assert not (out / "_batches").exists()


@pytest.mark.parametrize("manifest", [b"[1]", b'"x"', b"7", b"{", b"", b"/dev/zero"])
def test_a_damaged_manifest_is_an_unreadable_run(tmp_path: Path, manifest: bytes) -> None:
    """Class 189: ``recompute``'s manifest holding JSON that is no object (a list, a text:
    damaged, or edited by hand) was a bare ``AttributeError`` ('list' object has no
    attribute 'get') of any run into that folder; a link to ``/dev/zero`` was read until
    memory ran out. It is an unreadable run: refused, not resumed, and overwritten on
    ``--overwrite``."""
    from swissframe.cli import main

    df = _archive(4)
    df.write_parquet(tmp_path / "a.parquet")
    out = tmp_path / "out"
    recompute(tmp_path / "a.parquet", out, batch_events=2)
    (out / MANIFEST).unlink()
    if manifest == b"/dev/zero":
        (out / MANIFEST).symlink_to("/dev/zero")
    else:
        (out / MANIFEST).write_bytes(manifest)
    with pytest.raises(DataError, match="interrupted recompute run"):
        recompute(tmp_path / "a.parquet", out, batch_events=2)
    with pytest.raises(DataError, match="cannot be resumed"):
        recompute(tmp_path / "a.parquet", out, batch_events=2, resume=True)
    assert main(["recompute", str(tmp_path / "a.parquet"), "-o", str(out), "--resume"]) == 2
    recompute(tmp_path / "a.parquet", out, batch_events=2, overwrite=True)
    assert_frame_equal(_read(out), _reference(df))


def test_a_damaged_batch_record_is_redone(tmp_path: Path) -> None:
    """Class 189: a batch's record of an interrupted run is read on ``--resume``: one whose
    fields are missing or of other types (``"batch": "x"``, a list, ``"file": 3``), or
    whose problems file is gone, ended in a bare ``KeyError``/``TypeError``/
    ``ValueError`` or Polars' ``FileNotFoundError``; such a batch is redone, as an
    unreadable record was, and the output is the uninterrupted run's."""
    df = _archive(12)
    df.write_parquet(tmp_path / "a.parquet")
    out = tmp_path / "out"
    with pytest.raises(_Killed):
        recompute(tmp_path / "a.parquet", out, batch_events=2,
                  progress=_interrupt_after(5))  # type: ignore[arg-type]
    records = sorted((out / "_batches").glob("part-*.json"))
    assert len(records) >= 4
    damaged = [b"[1]", b'{"batch": "x"}', None, None]
    doc = orjson.loads(records[2].read_bytes())
    records[2].write_bytes(orjson.dumps({**doc, "file": 3}))
    doc = orjson.loads(records[3].read_bytes())
    records[3].write_bytes(orjson.dumps({**doc, "problems": 1}))  # (no problems file)
    for rec, data in zip(records, damaged, strict=False):
        if data is not None:
            rec.write_bytes(data)
    rep = recompute(tmp_path / "a.parquet", out, batch_events=2, resume=True)
    whole = recompute(tmp_path / "a.parquet", tmp_path / "whole", batch_events=2)
    assert rep.events_done == whole.events_done
    assert_frame_equal(_read(out), _read(tmp_path / "whole"))
    assert orjson.loads((out / MANIFEST).read_bytes())["resumed_batches"] == len(records) - 4


def test_one_archive_named_twice_is_read_once(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Class 197 (recompute's twin): an archive named by two spellings (``a.parquet`` and
    ``sub/../a.parquet``, a link to it) was read twice, every seat a duplicate: the run
    stopped on "duplicate_seat". Each file is read once, by its resolved form."""
    df = _archive(4)
    df.write_parquet(tmp_path / "a.parquet")
    (tmp_path / "sub").mkdir()
    (tmp_path / "b.parquet").symlink_to(tmp_path / "a.parquet")
    monkeypatch.chdir(tmp_path)
    rep = recompute(["a.parquet", "sub/../a.parquet", "b.parquet"], tmp_path / "out",
                    batch_events=2)
    assert rep.rows_in == df.height
    assert_frame_equal(_read(tmp_path / "out"), _reference(df))


def test_overwrite_restarts_an_interrupted_run(tmp_path: Path) -> None:
    df = _archive(8)
    df.write_parquet(tmp_path / "a.parquet")
    out = tmp_path / "out"
    with pytest.raises(_Killed):
        recompute(tmp_path / "a.parquet", out, batch_events=2,
                  progress=_interrupt_after(2))  # type: ignore[arg-type]
    rep = recompute(tmp_path / "a.parquet", out, batch_events=4, overwrite=True)
    assert rep.batches == 2
    assert len(list(out.glob("part-*.parquet"))) == 2
    assert_frame_equal(_read(out), _reference(df))


def test_scratch_of_a_killed_run_is_removed(tmp_path: Path) -> None:
    df = _archive(6)
    df.write_parquet(tmp_path / "a.parquet")
    scratch = tmp_path / "scratch"
    stale = scratch / "swissframe-recompute-999999999-abc"  # no such process
    stale.mkdir(parents=True)
    (stale / "c00000.parquet").write_bytes(b"x")
    recompute(tmp_path / "a.parquet", tmp_path / "out", batch_events=2, scratch=scratch)
    assert not stale.exists()
    assert list(scratch.iterdir()) == []


def test_output_inside_the_source_is_not_read_back(tmp_path: Path) -> None:
    df = _archive(5)
    _write_split(df, tmp_path / "src", 2)
    first = recompute(tmp_path / "src", tmp_path / "src" / "out")
    again = recompute(tmp_path / "src", tmp_path / "src" / "out", overwrite=True)
    assert first.rows_in == again.rows_in == df.height


@pytest.mark.parametrize("kw", [{"batch_rows": 0}, {"batch_rows": -5}, {"workers": 0},
                                {"batch_events": 0}, {"resume": True, "overwrite": True},
                                # (None where the signature takes a number, a scratch that
                                # is no path: bare TypeErrors; bad data 185)
                                {"workers": None}, {"batch_rows": None}, {"scratch": 3}])
def test_bad_settings_are_refused(tmp_path: Path, kw: dict[str, object]) -> None:
    _archive(2).write_parquet(tmp_path / "a.parquet")
    with pytest.raises(DataError):
        recompute(tmp_path / "a.parquet", tmp_path / "out", **kw)  # type: ignore[arg-type]
    assert not (tmp_path / "out").exists()
    recompute(tmp_path / "a.parquet", tmp_path / "ok", batch_events=None)  # (allowed there)


@pytest.mark.slow
def test_kill_9_leaves_whole_parts_and_a_resumable_run(tmp_path: Path) -> None:
    """A real SIGKILL at a random moment, repeatedly: no truncated part, resume completes."""
    import os
    import signal
    import subprocess
    import sys
    import time

    df = pl.concat([_event(f"e{i:03d}", 40, 6, i) for i in range(120)])
    df.write_parquet(tmp_path / "a.parquet")
    out = tmp_path / "out"
    code = ("import sys; from swissframe.bulk import recompute; "
            f"recompute({str(tmp_path / 'a.parquet')!r}, {str(out)!r}, batch_events=4, "
            "resume='--resume' in sys.argv)")
    for attempt in range(6):
        proc = subprocess.Popen([sys.executable, "-c", code, *(["--resume"] if attempt else [])])
        time.sleep(1.0 + 0.3 * attempt)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        for p in out.glob("part-*.parquet"):
            pl.read_parquet(p)  # never truncated
    if orjson.loads((out / MANIFEST).read_bytes())["status"] != "complete":
        rep = recompute(tmp_path / "a.parquet", out, batch_events=4, resume=True)
        assert rep.rows_used == df.height
    assert_frame_equal(_read(out), _reference(df))
    assert not (out / "_scratch").exists() or not any((out / "_scratch").iterdir())


def test_a_broken_or_mistyped_file_of_an_archive_is_named(tmp_path: Path) -> None:
    """A truncated Parquet file used to fail with a hint about game counts, naming no file."""
    src = tmp_path / "src"
    src.mkdir()
    _archive(3).write_parquet(src / "good.parquet")
    data = (src / "good.parquet").read_bytes()
    (src / "truncated.parquet").write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportFormatError, match=r"truncated\.parquet.*complete"):
        recompute(src, tmp_path / "out")
    (src / "truncated.parquet").unlink()
    pl.DataFrame({"round": ["x"], "player_id": [1]}).write_parquet(src / "typed.parquet")
    with pytest.raises(SchemaError, match=r"typed\.parquet"):
        recompute(src, tmp_path / "out")


def test_skip_validates_each_batch_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """on_error="skip": a batch with an invalid event is validated once; its valid events
    are ranked from that validation's normalised rows and codes (schema.trusted) and equal
    their standings computed alone."""
    from swissframe import schema
    calls: list[int] = []
    real = schema._checked

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    df = _bad_archive()
    df.write_parquet(tmp_path / "a.parquet")
    monkeypatch.setattr(schema, "_checked", counted)
    rep = recompute(tmp_path / "a.parquet", tmp_path / "out", on_error="skip", batch_rows=30)
    monkeypatch.undo()
    # one per file (the schema check of its empty head) and one per batch
    assert len(calls) == 1 + rep.batches
    good = df.filter(pl.col("event_id") != "e01")
    assert_frame_equal(_read(tmp_path / "out"), _reference(good))
    assert rep.events_done == 3
    assert rep.rows_rejected == df.height - good.height


def test_csv_inputs_are_not_read_from_the_output_folder(tmp_path: Path) -> None:
    """`recompute SRC -o SRC/out` over CSV files: a rerun read its own Parquet output back
    as input (the converting reader did not skip the output folder, as Parquet inputs do)."""
    from swissframe.cli import main

    src = tmp_path / "src"
    src.mkdir()
    _archive(3).write_csv(src / "events.csv")
    out = src / "out"
    assert main(["recompute", str(src), "-o", str(out), "--quiet"]) == 0
    first = _read(out)
    assert main(["recompute", str(src), "-o", str(out), "--overwrite", "--quiet"]) == 0
    assert_frame_equal(_read(out), first)


@pytest.mark.parametrize("case", ["phase_in_one_file", "categorical_ids", "no_event_id"])
def test_parquet_files_that_differ_in_optional_columns_are_one_archive(
        tmp_path: Path, case: str) -> None:
    """Files differing in an optional column, in the ids' type, or without event_id (the
    event "event") are read as the reader reads them (they were internal Polars errors
    planning the batches, leaving a run marked interrupted)."""
    df = _archive(4)
    src = tmp_path / "src"
    src.mkdir()
    if case == "no_event_id":
        one = df.filter(pl.col("event_id") == df["event_id"].min())
        one.drop("event_id").write_parquet(src / "f0.parquet")
        expected = _reference(one.with_columns(event_id=pl.lit("event")))
    else:
        ids = sorted(df["event_id"].unique().to_list())
        a = df.filter(pl.col("event_id").is_in(ids[:2]))
        b = df.filter(pl.col("event_id").is_in(ids[2:]))
        if case == "phase_in_one_file":
            a = a.drop("phase", strict=False)
            b = b.with_columns(phase=pl.lit("swiss"))
        else:
            b = b.with_columns(pl.col("event_id").cast(pl.Categorical))
        a.write_parquet(src / "f0.parquet")
        b.write_parquet(src / "f1.parquet")
        expected = _reference(df)
    recompute(src, tmp_path / "out")
    assert_frame_equal(_read(tmp_path / "out"), expected, check_column_order=False)


@pytest.mark.parametrize("name", ["batch_rows", "batch_events", "workers"])
def test_a_count_past_64_bits_is_refused_before_the_output_folder(tmp_path: Path,
                                                                  name: str) -> None:
    """(2**70 passed the check and ended in orjson's "Integer exceeds 64-bit range" writing
    the manifest, leaving an empty output folder behind.)"""
    sf.from_matches(pl.DataFrame({
        "event_id": ["e"], "round": [1], "player_a": ["A"], "player_b": ["B"],
        "games_a": [2], "games_b": [0], "games_drawn": [0]})).write_parquet(tmp_path / "a.parquet")
    needle = rf"{name} must be a whole number from 1 to 9,223,372,036,854,775,807, got 11805"
    with pytest.raises(sf.DataError, match=needle):
        recompute(tmp_path / "a.parquet", tmp_path / "out", **{name: 2**70})
    assert not (tmp_path / "out").exists()


def test_a_column_pyarrow_cannot_read_is_recomputed_and_a_bad_file_leaves_no_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Class 74: an archive whose round column is Int128 (Polars writes it; pyarrow, which
    planned the chunks from the row groups, does not read it) was refused as "cannot read
    Parquet metadata … Integers with more than 64 bits not implemented. Hint: is the file
    complete?" — after the output folder and a "running" manifest were made, so the next
    run asked for --resume or --overwrite. Such a file is sliced by rows and recomputed as
    ``standings`` ranks it; a file whose metadata cannot be read leaves no folder."""
    df = _archive(4)
    df.with_columns(pl.col("round").cast(pl.Int128)).write_parquet(
        tmp_path / "wide.parquet", row_group_size=7)
    recompute(tmp_path / "wide.parquet", tmp_path / "out", batch_rows=10)
    assert_frame_equal(_read(tmp_path / "out"), _reference(df), check_column_order=False)
    import pyarrow.parquet as pq

    def unreadable(path: str) -> None:
        raise OSError(5, "Input/output error", path)

    monkeypatch.setattr(pq, "ParquetFile", unreadable)  # (Polars reads it; pyarrow fails)
    with pytest.raises(ImportFormatError, match=r"cannot read \S*wide\.parquet"):
        recompute(tmp_path / "wide.parquet", tmp_path / "out2")
    assert not (tmp_path / "out2").exists()


def test_decklist_events_of_a_ruleset_with_a_slash_in_its_name_are_recomputed(
        tmp_path: Path) -> None:
    """Class 75: a decklist file of an unknown platform is ranked by ``mtg-1/3``, whose
    name was a folder path (``SCRATCH/mtg-1/3``, ``OUT/ruleset=mtg-1/3``): every such
    ``recompute`` ended in "…/mtg-1/3: No such file or directory. Hint: check the path",
    and left its scratch folder behind until the next run. The partition folder is
    percent-encoded as Hive writes it (Polars reads the name back)."""
    from swissframe.cli import main

    src = tmp_path / "src"
    src.mkdir()
    for name, uri in (("store", None), ("melee", "https://melee.gg/Tournament/View/1")):
        doc = {"Tournament": {"Name": name, "Uri": uri, "Date": "2026-03-03T00:00:00"},
               "Rounds": [{"RoundName": "Round 1", "Matches": [
                   {"Player1": "A", "Player2": "B", "Result": "2-0-0"},
                   {"Player1": "C", "Player2": "D", "Result": "2-1-0"}]}],
               "Standings": None}
        (src / f"{name}.json").write_bytes(orjson.dumps(doc))
    assert main(["recompute", str(src / "store.json"), "-o", str(tmp_path / "one"),
                 "--quiet"]) == 0
    assert _read(tmp_path / "one")["player_id"].to_list() == ["A", "C", "B", "D"]
    assert main(["recompute", str(src), "-o", str(tmp_path / "two"), "--quiet"]) == 0
    assert sorted(p.name for p in (tmp_path / "two").iterdir()) == [
        "ruleset=melee-e3", "ruleset=mtg-1%2F3"]
    back = pl.read_parquet(tmp_path / "two" / "*" / "part-*.parquet", hive_partitioning=True)
    assert sorted(back["ruleset"].unique()) == ["melee-e3", "mtg-1/3"]


def test_an_archive_and_an_output_named_with_glob_characters(tmp_path: Path) -> None:
    """Class 84: recompute read each Parquet file by a glob-expanding scan: a file or an
    output folder named "arch [1]" was "expanded paths were empty"."""
    src = tmp_path / "arch [1]"
    src.mkdir()
    df = _archive(3)
    df.write_parquet(src / "part[0].parquet")
    recompute(src / "part[0].parquet", tmp_path / "out [2]")
    got = pl.concat([pl.read_parquet(f, glob=False)
                     for f in sorted((tmp_path / "out [2]").glob("part-*.parquet"))])
    assert_frame_equal(got.sort("event_id", "rank", "player_id"), _reference(df),
                       check_column_order=False)


@pytest.mark.parametrize("at", [500, 3000])
def test_a_damaged_file_of_an_archive_is_named(tmp_path: Path, at: int) -> None:
    """One byte added inside a Parquet data page of an archive's file: the event plan or a
    chunk's read ended in Polars' ComputeError ("Dictionary Index is out-of-bounds", "zstd
    error"), said by the command line as "a swissframe bug", naming no file (class 95)."""
    from tests.helpers import REPO_ROOT

    data = (REPO_ROOT / "data" / "season" / "pokemon_results.parquet").read_bytes()
    src = tmp_path / "src"
    src.mkdir()
    (src / "damaged.parquet").write_bytes(data[:at] + b"\x00" + data[at:])
    with pytest.raises(ImportFormatError, match=r"cannot read \S*damaged\.parquet as "
                       r"Parquet: the file is damaged \(.+\)\. Hint: "):
        recompute(src, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_dask_by_a_scheduler_address_equals_single_machine(tmp_path: Path) -> None:
    """A scheduler given by its address is connected before the output folder is made and
    closed after; the run equals the single-machine one."""
    dist = pytest.importorskip("distributed")
    df = _bad_archive()
    _write_split(df, tmp_path / "src", 3)
    local = recompute(tmp_path / "src", tmp_path / "local", on_error="skip", batch_rows=40)
    with dist.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                           dashboard_address=None) as cluster:
        remote = recompute(tmp_path / "src", tmp_path / "dask", on_error="skip",
                           batch_rows=40, engine="dask", scheduler=cluster.scheduler_address)
    assert [pl.read_parquet(f).equals(pl.read_parquet(g))
            for f, g in zip(local.files, remote.files, strict=True)] == [True] * len(local.files)


def test_a_scheduler_address_where_none_answers_leaves_no_output(tmp_path: Path) -> None:
    """(Dask's "missing port number" or "Timed out trying to connect" was said with the
    CLI's "check the path", and left a "running" manifest asking for --resume)"""
    pytest.importorskip("distributed")
    _write_split(_bad_archive(), tmp_path / "src", 2)
    with pytest.raises(DataError, match=r"cannot reach the Dask scheduler at 'nonsense': "
                                        r".*Hint: start one"):
        recompute(tmp_path / "src", tmp_path / "out", engine="dask", scheduler="nonsense")
    assert not (tmp_path / "out").exists()
