"""The one reader (swissframe.io._files): sniffing, expansion, limits and the importer
robustness classes of issue 16 (4, 6, 8, 9, 10, 12, 14), one test per class."""

from __future__ import annotations

import datetime as dt
import errno
import gzip
import os
import re
import shutil
import sys
import threading
import warnings
import zlib
from pathlib import Path
from typing import Any

import hypothesis
import orjson
import polars as pl
import pytest
from hypothesis import settings
from hypothesis import strategies as st

import swissframe as sf
from swissframe.cli import main
from swissframe.errors import (
    DataError,
    ImportFormatError,
    ImportNotesWarning,
    SchemaError,
    ValidationError,
)
from swissframe.io import _files
from tests.helpers import FIXTURES, REPO_ROOT, bounded

CSV = REPO_ROOT / "data" / "events" / "store-championship.csv"
LEAGUE = REPO_ROOT / "data" / "events" / "league-night.csv"
DECK = FIXTURES / "decklist" / "melee-byes-1-2024-07-13.json"
TRF = FIXTURES / "trf" / "all_codes.trf"
TDF = FIXTURES / "tom" / "all_codes.tdf"


def _copy(src: Path, dest: Path) -> Path:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)
    return dest


# ------------------------------------------------------------------ sniffing, expansion


def test_formats_are_sniffed_by_content_not_suffix(tmp_path: Path) -> None:
    odd = {"table": _copy(CSV, tmp_path / "a.dat"), "trf": _copy(TRF, tmp_path / "b.dat"),
           "tom": _copy(TDF, tmp_path / "c.dat"), "decklist": _copy(DECK, tmp_path / "d.dat")}
    gz = tmp_path / "e.bin"
    gz.write_bytes(gzip.compress(DECK.read_bytes()))
    pq = tmp_path / "f.bin"
    sf.read_results(CSV).drop("phase").write_parquet(pq)
    for kind, f in odd.items():
        assert _files.sniff(f) == kind
    assert _files.sniff(gz) == "decklist"
    assert _files.sniff(pq) == "table"
    src = sf.read(tmp_path)
    assert sorted(src.events["source_kind"].to_list()) == sorted(
        ["table", "table", "trf", "tom", "decklist", "decklist"])


def test_folder_of_mixed_formats_reads_every_file_and_reports_the_rest(tmp_path: Path) -> None:
    """Class 10: `standings DIR` on mixed formats ranked only the CSV (exit 0)."""
    _copy(CSV, tmp_path / "store.csv")
    _copy(TRF, tmp_path / "chess" / "club.trf")
    _copy(DECK, tmp_path / "deck" / DECK.name)
    (tmp_path / "README.md").write_text("notes\n")
    src = sf.read(tmp_path)
    assert sorted(src.events["event_id"].to_list()) == [
        "club", "melee-byes-1-2024-07-13", "store"]
    assert src.source_kind == "mixed"
    assert src.notes.filter(pl.col("kind") == "skipped_file")["file"].to_list() == [
        str(tmp_path / "README.md")]
    assert src.results.group_by("event_id").agg(pl.col("source_file").n_unique())[
        "source_file"].to_list() == [1, 1, 1]
    table = sf.standings(src.results, keys=src.keys)
    assert set(table["event_id"]) == {"club", "melee-byes-1-2024-07-13", "store"}


def test_named_file_of_unknown_format_and_missing_path_name_the_path(tmp_path: Path) -> None:
    junk = tmp_path / "notes.md"
    junk.write_text("# hello\n")
    with pytest.raises(ImportFormatError, match=r"notes\.md: not a results table"):
        sf.read(junk)
    with pytest.raises(ImportFormatError, match="no such file, folder or glob"):
        sf.read(tmp_path / "nope.csv")
    assert len(sf.read(str(REPO_ROOT / "data" / "events" / "*.csv")).events) == 2


# ---------------------------------------------------------- class 4: optional columns


def test_optional_column_absent_from_one_file_takes_its_default(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = sf.read_results(CSV)
    with_phase = long.with_columns(pl.lit("swiss").alias("phase"))
    with_phase.write_csv(tmp_path / "a.csv")
    long.drop("phase").with_columns(pl.lit("b").alias("event_id")).write_csv(tmp_path / "b.csv")
    res = sf.read_results(tmp_path)
    assert res["phase"].unique().to_list() == ["swiss"]
    assert res.height == 2 * with_phase.height
    assert sf.read(tmp_path).results["phase"].null_count() == 0
    assert main(["validate", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "0 errors" in out
    assert "phase" not in out


# ----------------------------------------------------------- class 6: decompression bombs


def test_decompression_bomb_stops_at_the_limit_which_can_be_raised(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = orjson.loads(DECK.read_bytes())
    doc["Padding"] = " " * 200_000  # compresses to a few hundred bytes
    bomb = tmp_path / "melee-bomb-1-2024-07-13.json.gz"
    bomb.write_bytes(gzip.compress(orjson.dumps(doc)))
    assert bomb.stat().st_size < 5_000
    with pytest.raises(ImportFormatError, match=r"bomb.*limit of 100,000 bytes.*max_bytes="):
        sf.read_decklist_cache(bomb, max_bytes=100_000)
    with pytest.raises(ImportFormatError, match="limit of 100,000 bytes"):
        sf.read(bomb, max_bytes=100_000)
    monkeypatch.setenv("SWISSFRAME_MAX_BYTES", "100000")
    with pytest.raises(ImportFormatError, match="SWISSFRAME_MAX_BYTES"):
        sf.read_decklist_cache(bomb)
    monkeypatch.setenv("SWISSFRAME_MAX_BYTES", "1000000")
    assert sf.read_decklist_cache(bomb).results.height > 0
    with pytest.raises(ImportFormatError, match="limit of 1,000 bytes"):  # plain files too
        sf.read_trf(TRF, max_bytes=1000)


def test_decompression_is_streamed(tmp_path: Path) -> None:
    """A 64 MiB expansion with a 1 MiB limit never holds more than ~1 MiB."""
    bomb = tmp_path / "x.json.gz"
    comp = zlib.compressobj(wbits=31)
    chunk = b" " * 2**20
    bomb.write_bytes(b"".join([comp.compress(b"{")] + [comp.compress(chunk) for _ in range(64)]
                              + [comp.compress(b"}"), comp.flush()]))
    with pytest.raises(ImportFormatError, match="limit of 1,048,576 bytes"):
        _files.read_decompressed(bomb, limit=2**20)


# ---------------------------------------------------------- class 8: foreign errors


def test_foreign_importer_errors_become_import_errors_naming_the_file(tmp_path: Path) -> None:
    raw = gzip.compress(DECK.read_bytes())
    bad = tmp_path / "melee-bad-1-2024-07-13.json.gz"
    bad.write_bytes(raw[:20] + bytes(b ^ 0xFF for b in raw[20:60]) + raw[60:])
    with pytest.raises(ImportFormatError, match=r"melee-bad-1-2024-07-13\.json\.gz"):
        sf.read_decklist_cache(bad)
    trunc = tmp_path / "melee-trunc-1-2024-07-13.json.gz"
    trunc.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(ImportFormatError, match="truncated"):
        sf.read(trunc)
    doc = orjson.loads(DECK.read_bytes())
    doc["Rounds"][0]["Matches"][0]["Result"] = "99999999999999999999-0-0"
    huge = tmp_path / "melee-huge-1-2024-07-13.json"
    huge.write_bytes(orjson.dumps(doc))
    with pytest.raises(ImportFormatError, match=r"melee-huge-1-2024-07-13\.json: .*9999999999"):
        sf.read_decklist_cache(huge)
    tdf = tmp_path / "long.tdf"
    tdf.write_text(TDF.read_text().replace('round number="1"', 'round number="1' + "0" * 22 + '"',
                                           1))
    with pytest.raises(ImportFormatError, match=r"long\.tdf.*round number"):
        sf.read_tom(tdf)


def test_string_and_categorical_event_ids_across_files(tmp_path: Path) -> None:
    base = sf.read_results(CSV).drop("phase")
    base.with_columns(pl.lit("a").alias("event_id")).write_parquet(tmp_path / "a.parquet")
    base.with_columns(pl.lit("b").cast(pl.Categorical).alias("event_id")).write_parquet(
        tmp_path / "b.parquet")
    assert sorted(sf.read(tmp_path).results["event_id"].unique()) == ["a", "b"]
    assert sf.read_results(tmp_path).height == 2 * base.height


def test_validate_checks_the_good_file_and_exits_2_for_the_bad_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _copy(CSV, tmp_path / "good.csv")
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00garbage-deflate-stream")
    assert main(["validate", str(good), str(bad), "--format", "json"]) == 2
    doc = orjson.loads(capsys.readouterr().out)
    assert doc["files"] == [str(good)]
    assert doc["rows"] == sf.read_results(CSV).drop("phase").height
    assert [p["file"] for p in doc["problems"] if p["kind"] == "unreadable_file"] == [str(bad)]


# ---------------------------------------------------------- class 9: non-UTF-8 names


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses non-UTF-8 file names")
def test_non_utf8_file_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = os.fsdecode(b"caf\xe9")
    csv = _copy(CSV, tmp_path / f"{name}.csv")
    deck = _copy(DECK, tmp_path / "deck" / f"melee-{name}-1-2024-07-13.json")
    trf = _copy(TRF, tmp_path / "chess" / f"club-{name}.trf")
    assert main(["standings", str(csv), "--format", "csv"]) == 0
    assert "caf\\xe9" in capsys.readouterr().out
    assert main(["validate", str(tmp_path), "--format", "json"]) == 0
    doc = orjson.loads(capsys.readouterr().out)
    assert len(doc["files"]) == 3
    assert sf.read_decklist_cache(deck).events["path"][0].endswith("1-2024-07-13.json")
    assert sf.read_trf(trf).results.height > 0


# ---------------------------------------------------------- class 10: silent drops


def test_garbled_trf_record_is_reported_not_dropped_silently(tmp_path: Path) -> None:
    lines = TRF.read_text(encoding="latin-1").splitlines()
    line = list(" " * 91)  # a player who only had a bye, with a garbled record code
    line[0:8], line[14:18], line[80:84] = "0O1    9", "Lone", " 1.0"
    lines.append("".join(line) + "  0000 - F")
    i = len(lines) - 1
    bad = tmp_path / "garbled.trf"
    bad.write_text("\n".join(lines) + "\n", encoding="latin-1")
    with pytest.warns(UserWarning, match=r"unknown record.*line"):
        ev = sf.read_trf(bad)
    assert ev.unknown["line"].to_list() == [i + 1]
    # read says it once, as an import note (the TRF reader's own warning was a second
    # line); with validate=False the caller lists the notes, as for every other note
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        src = sf.read(bad)
    said = [str(w.message) for w in caught if "unknown" in str(w.message)]
    assert len(said) == 1
    assert "unknown_record ×1" in said[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        src = sf.read(bad, validate=False)
    assert src.notes.filter(pl.col("kind") == "unknown_record").height == 1
    # column rulers and extension records are not reported (the XXR the file holds: a
    # second, different one is refused, bad data 132)
    ok = tmp_path / "ruler.trf"
    ok.write_text("DDD SSSS sTTT NNNN\nXXR 4\nBBW 1.0\n" + TRF.read_text(encoding="latin-1"),
                  encoding="latin-1")
    assert sf.read_trf(ok).unknown.height == 0


def test_unknown_tom_element_is_reported(tmp_path: Path) -> None:
    text = TDF.read_text()
    start = text.index("<match ")
    end = text.index("</match>", start) + len("</match>")
    bad = tmp_path / "matchx.tdf"
    bad.write_text(text[:start] + text[start:end].replace("<match ", "<matchx ")
                   .replace("</match>", "</matchx>") + text[end:])
    with pytest.warns(UserWarning, match=r"<matchx> in <matches>"):
        ev = sf.read_tom(bad)
    assert ev.unknown.select("parent", "tag").rows() == [("matches", "matchx")]


# ---------------------------------------------------------- class 12: errors name the file


def test_every_table_error_names_the_file(tmp_path: Path) -> None:
    _copy(CSV, tmp_path / "a.csv")
    sf.read_results(CSV).drop("phase").with_columns(pl.lit("b").alias("event_id"),
                                  pl.col("games_won").cast(pl.String) + "x"
                                  ).write_csv(tmp_path / "b.csv")
    with pytest.raises(SchemaError, match=r"b\.csv: mistyped column.*games_won"):
        sf.read_results(tmp_path)
    with pytest.raises(SchemaError, match=r"b\.csv"):
        sf.read(tmp_path)
    (tmp_path / "b.csv").unlink()
    sf.read_results(CSV).drop("phase").write_parquet(tmp_path / "c.parquet")
    data = (tmp_path / "c.parquet").read_bytes()
    (tmp_path / "c.parquet").write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportFormatError, match=r"c\.parquet"):
        sf.read_results(tmp_path)


# ---------------------------------------------------------- class 14: special paths


def _within(seconds: float, fn: object) -> BaseException | None:
    box: list[BaseException | None] = [None]

    def run() -> None:
        try:
            fn()  # type: ignore[operator]
        except BaseException as exc:  # handed to the test
            box[0] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "the reader hung"
    return box[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_named_pipe_and_devices_are_refused_without_hanging(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.trf"
    os.mkfifo(pipe)
    for call in (lambda: sf.read_tom(pipe), lambda: sf.read_trf(pipe), lambda: sf.read(pipe),
                 lambda: main(["--debug", "standings", str(pipe)])):
        exc = _within(10, call)
        assert isinstance(exc, ImportFormatError)
        assert "not a regular file" in str(exc)
    if Path("/dev/zero").exists():
        exc = _within(10, lambda: sf.read_trf("/dev/zero"))
        assert isinstance(exc, ImportFormatError)
        assert "/dev/zero" in str(exc)


# ---------------------------------------------------------- the ruleset follows the data


def test_rules_auto_follows_the_data_and_leaves_plain_tables_on_mtg() -> None:
    plain = sf.read_results(CSV)
    assert sf.standings(plain).equals(sf.standings(plain, "mtg"))
    src = sf.read([TRF, TDF, DECK, CSV])
    assert dict(src.events.select("source_kind", "ruleset").iter_rows()) == {
        "trf": "fide-2026", "tom": "pokemon", "decklist": "melee-e2", "table": "mtg"}
    auto = sf.standings(src.results)
    chess = src.events.filter(pl.col("source_kind") == "trf")["event_id"][0]
    trf_only = src.results.filter(pl.col("event_id") == chess)
    assert auto.filter(pl.col("event_id") == chess).drop_nulls("bh_c1").height == 8
    assert sf.standings(trf_only, "fide-2026").select("player_id", "rank").equals(
        auto.filter(pl.col("event_id") == chess).select("player_id", "rank"))
    by_round = sf.standings_by_round(src.results)
    assert set(by_round["event_id"]) == set(src.events["event_id"])


def test_fide_eras_agree_with_the_reference_checker() -> None:
    import datetime as dt

    from swissframe.rules._infer import infer_rulesets
    from swissframe.verify.reference import rule_set_for_date

    days = [dt.date(2023, 7, 1), dt.date(2026, 2, 28), dt.date(2026, 3, 1), None]
    ev = pl.DataFrame({"event_id": [str(i) for i in range(4)], "source_kind": ["trf"] * 4,
                       "start_date": days, "platform": [None] * 4, "decimals": [None] * 4},
                      schema_overrides={"platform": pl.String, "decimals": pl.Int64})
    got = infer_rulesets(ev)["ruleset"].to_list()
    assert got == [{"fide-2023": "fide"}.get(r, r) for r in map(rule_set_for_date, days)]
    older = ev.with_columns(pl.lit(dt.date(2005, 7, 28)).alias("start_date"))
    assert set(infer_rulesets(older)["ruleset"]) == {"fide-2009"}


def test_an_event_split_over_files_is_read_once(tmp_path: Path) -> None:
    """One event, a day per file: each row once (the ruleset of the event was joined once
    per file of the event, squared: two files gave every row four times)."""
    df = pl.read_csv(LEAGUE)
    df.filter(pl.col("round") <= 2).write_csv(tmp_path / "day1.csv")
    df.filter(pl.col("round") > 2).write_csv(tmp_path / "day2.csv")
    got = sf.read([tmp_path / "day1.csv", tmp_path / "day2.csv"]).results
    one = sf.read(LEAGUE).results
    assert got.height == one.height
    assert got.drop("source_file").sort("round", "player_id").equals(
        one.drop("source_file").sort("round", "player_id"))


def test_files_of_one_name_without_event_ids_are_two_events(tmp_path: Path) -> None:
    """An event named by its file: a/event.csv and b/event.csv are two events (they were
    merged into one named "event")."""
    df = pl.read_csv(LEAGUE).drop("event_id")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    df.write_csv(tmp_path / "a" / "event.csv")
    df.filter(pl.col("round") == 1).write_csv(tmp_path / "b" / "event.csv")
    got = sf.read([tmp_path / "a" / "event.csv", tmp_path / "b" / "event.csv"]).results
    alone = [sf.read(tmp_path / x / "event.csv").results for x in ("a", "b")]
    assert got.group_by("event_id").len().sort("event_id").rows() == [
        ("a/event", alone[0].height), ("b/event", alone[1].height)]
    assert alone[0]["event_id"].unique().to_list() == ["event"]


def test_a_column_repeated_in_the_header_is_refused_by_name(tmp_path: Path) -> None:
    head, *rows = CSV.read_text().splitlines()
    bad = tmp_path / "twice.csv"
    bad.write_text("\n".join([head + ",games_a", *[r + ",9" for r in rows]]) + "\n")
    with pytest.raises(SchemaError, match=r"twice\.csv: column\(s\) \['games_a'\] appear "
                                          r"more than once.*Hint"):
        sf.read(bad)


def test_a_file_missing_contract_columns_is_named_beside_other_files(tmp_path: Path) -> None:
    """A standings file read with results: its missing columns were filled with nulls by
    the combination of files and reported row by row, without its name."""
    (tmp_path / "standings.csv").write_text(
        "event_id,player_id,rank,match_points\nx,Alice,1,10\nx,Bob,2,9\n")
    shutil.copyfile(LEAGUE, tmp_path / "league-night.csv")
    for paths in ([tmp_path / "standings.csv"], [tmp_path]):
        with pytest.raises(SchemaError, match=r"standings\.csv: a long results table without "
                                              r"column\(s\) \['round', 'opponent_id'"):
            sf.read(paths)


def test_a_count_past_64_bits_is_named_with_its_file(tmp_path: Path) -> None:
    bad = tmp_path / "huge.csv"
    bad.write_text("event_id,round,player_id,opponent_id,games_won,games_lost,games_drawn\n"
                   "e,99999999999999999999,A,B,2,0,0\ne,99999999999999999999,B,A,0,2,0\n")
    with pytest.raises(SchemaError, match=r"huge\.csv: mistyped column\(s\): round holds "
                                          r"cells that are not whole numbers within 64 bits "
                                          r"\(row 1, .*'99999999999999999999'"):
        sf.read(bad)


def test_whole_cells_read_one_way_in_the_long_form_and_a_header_alone_is_no_rows(
        tmp_path: Path) -> None:
    """A long results file with "2.0" was refused ("games_won is Float64") while the
    match form and validate read it as 2 (schema.whole_numbers); a file of a header
    alone was "round is String, …" with no cell to name."""
    head, *rows = LEAGUE.read_text().splitlines()
    dotted = tmp_path / "dotted.csv"
    dotted.write_text("\n".join([head, *[r + ".0" for r in rows]]) + "\n")  # (drawn "1.0")
    named = ["event_id", "source_file"]
    assert sf.read(dotted).results.drop(named).equals(sf.read(LEAGUE).results.drop(named))
    # validate reads the file the same way (it reported "games_drawn is Float64" as an error)
    assert main(["validate", str(dotted)]) == 0
    alone = tmp_path / "alone.csv"
    alone.write_text(head + "\n")
    got = sf.read(alone).results
    assert got.height == 0
    assert sf.standings(got).height == 0
    half = tmp_path / "half.csv"  # (a cell that is not whole is still named)
    half.write_text("\n".join([head, *rows[:2], rows[2][: rows[2].rindex(",")] + ",0.5"]))
    with pytest.raises(SchemaError, match=r"games_drawn holds cells that are not whole "
                                          r"numbers .*\(row 3, .*: '0\.5'\)"):
        sf.read(half)


@pytest.mark.parametrize("sep", [";", "\t", "|"])
def test_a_csv_separated_by_semicolons_or_tabs_reads_as_with_commas(tmp_path: Path,
                                                                       sep: str) -> None:
    """A spreadsheet set to a comma-decimal locale saves "CSV" with semicolons: it was
    read as one column named 'event_id;round;…' and refused as neither table form."""
    comma = tmp_path / "comma.csv"
    shutil.copyfile(LEAGUE, comma)
    other = tmp_path / "other.csv"
    lines = LEAGUE.read_text().splitlines()
    assert all('"' not in line for line in lines)  # (a plain swap is the same file then)
    other.write_bytes(("\r\n".join(line.replace(",", sep) for line in lines) + "\r\n")
                      .encode("utf-8-sig"))
    named = ["event_id", "source_file"]  # (named after the file)
    got = sf.read(other).results.drop(named)
    assert got.equals(sf.read(comma).results.drop(named))


def test_csv_separator_reads_the_header_outside_quotes() -> None:
    assert _files.csv_separator(b'"last, first";round\n1;2') == ";"
    assert _files.csv_separator(b"a,b;c\n") == ","
    assert _files.csv_separator(b"player_id\n") == ","
    assert _files.csv_separator(b"") == ","


def test_a_utf16_table_is_read_and_a_legacy_code_page_is_named_by_line(tmp_path: Path) -> None:
    """Excel's "Unicode Text" is UTF-16 with a byte-order mark, tab-separated: it was
    read as columns named with NUL bytes. A cp1252 file was "invalid utf-8 sequence",
    with no line; it is not guessed at (the same bytes are other letters elsewhere)."""
    lines = LEAGUE.read_text().splitlines()
    text = "\r\n".join(line.replace(",", "\t") for line in lines) + "\r\n"
    (tmp_path / "unicode.txt").write_bytes(text.encode("utf-16"))  # (with its mark)
    assert _files.sniff(tmp_path / "unicode.txt") == "table"
    named = ["event_id", "source_file"]
    got = sf.read(tmp_path).results.drop(named)  # (a folder: found by sniffing)
    assert got.equals(sf.read(LEAGUE).results.drop(named))
    latin = tmp_path / "latin.csv"
    latin.write_bytes(("\n".join([lines[0], lines[1].replace("Kai", "José")]) + "\n")
                      .encode("cp1252"))
    with pytest.raises(ImportFormatError, match=r"latin\.csv: line 2 is not UTF-8 \(bytes "
                                                r"e9 .*Hint: save the file as UTF-8"):
        sf.read(latin)
    # UTF-16 without its mark: every other byte NUL, read as names full of NULs before
    bare = tmp_path / "bare.csv"
    bare.write_bytes(text.encode("utf-16-le"))
    with pytest.raises(ImportFormatError, match=r"bare\.csv: it holds NUL bytes \(byte 1\): "
                                                r"text in UTF-16 without a byte-order mark"):
        sf.read(bare)


def test_blank_lines_are_no_rows_and_a_row_of_separators_is_named_by_line(
        tmp_path: Path) -> None:
    """Polars reads a blank line as a row of nulls: two blank lines at the end of a CSV
    were "null in event_id, round, …" of event None. A row of only separators (a
    spreadsheet's used but empty row) is refused with its line."""
    lines = LEAGUE.read_text().splitlines()
    gaps = tmp_path / "gaps.csv"
    gaps.write_text("\n".join([*lines[:3], "", *lines[3:]]) + "\n\n\n")
    named = ["event_id", "source_file"]
    assert sf.read(gaps).results.drop(named).equals(sf.read(LEAGUE).results.drop(named))
    # a quoted id holding a blank line, beside a blank line at the end: no line count is
    # compared, so the blank inside the cell does not count as one
    quoted = tmp_path / "quoted.csv"
    quoted.write_text("\n".join([lines[0], *[r.replace("Kai", '"K\n\nai"') for r in lines[1:]]])
                      + "\n\n")
    assert "K\n\nai" in sf.read(quoted).results["player_id"].to_list()
    hollow = tmp_path / "hollow.csv"
    hollow.write_text("\n".join([*lines[:4], ",,,,,,", *lines[4:]]) + "\n")
    with pytest.raises(SchemaError, match=r"hollow\.csv: line\(s\) 5 hold no value"):
        sf.read(hollow)


@pytest.mark.parametrize("blank", ["   ", "\t", " \t ", "\u00a0"])
@pytest.mark.parametrize("table", [LEAGUE, CSV], ids=["long", "match"])
def test_a_line_of_blanks_is_a_blank_line(tmp_path: Path, blank: str, table: Path) -> None:
    """Class 194: a line of spaces or tabs (an editor's trailing whitespace), which the
    shape check already took for a blank line, was read as a row whose first cell held the
    blanks: the match form said "'   ' is not a whole number (row 2, None vs None)", the
    long form "null in round, player_id, … of event '   '". It is a blank line, no row,
    as an empty line is, by the readers and by ``validate``."""
    lines = table.read_text().splitlines()
    spaced = tmp_path / table.name
    spaced.write_text("\n".join([*lines[:3], blank, *lines[3:], blank]) + "\n")
    named = ["source_file"]
    assert sf.read(spaced).results.drop(named).equals(sf.read(table).results.drop(named))
    assert sf.validate(sf.read(spaced, validate=False)).ok


@pytest.mark.parametrize(("old", "new", "message"), [
    (",", ", ", r"spaced\.csv: neither .*Hint: column names are exact: rename ' round' → "
                r"'round', ' player_id' → 'player_id'.*spaces after its commas"),
    ("opponent_id", "Opponent_ID", r"without column\(s\) \['opponent_id'\].*Hint: column "
                                   r"names are exact: rename 'Opponent_ID' → 'opponent_id'\.$"),
], ids=["spaces", "case"])
def test_a_header_off_by_spaces_or_case_names_the_columns_to_rename(
        tmp_path: Path, old: str, new: str, message: str) -> None:
    """Column names are exact; a header written "event_id, round, …" or "Player_ID" was
    refused with only the list of its columns."""
    head, *rows = LEAGUE.read_text().splitlines()
    bad = tmp_path / "spaced.csv"
    bad.write_text("\n".join([head.replace(old, new), *rows]) + "\n")
    with pytest.raises(SchemaError, match=message):
        sf.read(bad)


@pytest.mark.parametrize(("column", "cells", "name"), [
    ("Phase", ["swiss", "swiss", "playoff", "playoff"], "phase"),
    ("Double_Loss", ["no", "no", "yes", "yes"], "double_loss"),
    (" event_id ", ["a", "a", "b", "b"], "event_id"),
    ("Stage ", ["1", "1", "1", "1"], "stage"),
], ids=["phase", "flag", "event", "stage"])
@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_an_optional_column_off_by_case_or_spaces_is_refused_not_ignored(
        tmp_path: Path, column: str, cells: list[str], name: str, suffix: str) -> None:
    """A column named like an optional one but for case or spaces was passed through as
    an extra column and its rows took the default without a word: ``Phase`` playoff
    rows were ranked as Swiss, ``Double_Loss`` double losses as draws, `` event_id ``
    events merged under the file's name. Refused with the rename (the pairings file of
    ``cut --pairings`` is read the same way)."""
    table = pl.DataFrame({"round": [1, 1, 2, 2], "player_id": ["A", "B", "A", "B"],
                          "opponent_id": ["B", "A", "B", "A"], "games_won": [2, 0, 0, 0],
                          "games_lost": [0, 2, 0, 0], "games_drawn": [0, 0, 0, 0],
                          column: cells})
    bad = tmp_path / f"named.{suffix}"
    table.write_csv(bad) if suffix == "csv" else table.write_parquet(bad)
    message = rf"named\.{suffix}: a column is named like one.*rename {column!r} → {name!r}"
    with pytest.raises(SchemaError, match=message):
        sf.read(bad)
    with pytest.raises(SchemaError, match=message):
        _files.read_table_file(bad, name_event=False)  # (a cut --pairings file)
    table.rename({column: name}).write_parquet(bad.with_suffix(".parquet"))
    assert sf.read(bad.with_suffix(".parquet")).results.height == 4



@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_a_column_named_twice_but_for_case_is_refused_naming_the_file(
        tmp_path: Path, suffix: str) -> None:
    """Class 106: a file with ``games_won`` and ``Games_Won`` was read by the first, the
    other ignored without a word (the exact duplicate was refused, class 20)."""
    table = pl.DataFrame({"round": [1, 1], "player_id": ["A", "B"], "opponent_id": ["B", "A"],
                          "games_won": [2, 0], "games_lost": [0, 2], "games_drawn": [0, 0],
                          "Games_Won": [0, 2]})
    bad = tmp_path / f"twice.{suffix}"
    table.write_csv(bad) if suffix == "csv" else table.write_parquet(bad)
    with pytest.raises(SchemaError, match=rf"twice\.{suffix}: a column is named twice but "
                       r"for case or spaces \('Games_Won' beside 'games_won'\)"):
        sf.read(bad)


@pytest.mark.parametrize("line", ["sep=,", "sep=;", '"sep=;"', "\ufeffsep=,", "SEP=|"])
def test_excel_s_separator_line_is_named(tmp_path: Path, line: str) -> None:
    """Class 107: a CSV whose first line is Excel's ``sep=;`` was read as a header of one
    or two columns: "rows with other than the header's 2 fields … give each row one value
    per header column", of every line, and the line itself never named."""
    sep = line.strip('"\ufeff')[-1]
    rows = ["event_id,round,player_id,opponent_id,games_won,games_lost,games_drawn",
            "e,1,A,B,2,0,0", "e,1,B,A,0,2,0"]
    bad = tmp_path / "excel.csv"
    bad.write_text("\n".join([line, *(r.replace(",", sep) for r in rows)]) + "\n",
                   encoding="utf-8")
    said = rf"excel\.csv: line 1 is {re.escape(repr(line.lstrip(chr(0xfeff))))}, the separator line"
    with pytest.raises(ImportFormatError, match=said + r".*Hint: delete line 1"):
        sf.read(bad)
    with pytest.raises(ImportFormatError, match=said):
        sf.read(tmp_path)  # (in a folder: sniffed as a table, and named)
    bad.write_text("\n".join(r.replace(",", sep) for r in rows) + "\n", encoding="utf-8")
    assert sf.read(bad).results.height == 2

def test_a_spreadsheet_workbook_is_named_as_one(tmp_path: Path) -> None:
    """An .xlsx given as results was "not a results table … Hint: force a format", which
    would not read it either."""
    book = tmp_path / "results.xlsx"
    sf.read(LEAGUE).results.drop("source_file").write_excel(book)
    with pytest.raises(ImportFormatError, match=r"results\.xlsx: a spreadsheet workbook "
                                                r"\(xlsx, xls or ods\).*Hint: save its sheet "
                                                r"as CSV UTF-8"):
        sf.read(book)


UNREPORTED = FIXTURES / "decklist" / "melee-unreported-3-2024-07-13.json"


def test_a_read_that_leaves_out_or_repairs_something_warns(tmp_path: Path) -> None:
    """What a read left out or repaired was only in ``Source.notes``: every CLI command
    but ``validate`` finished with exit 0 and said nothing of a skipped file or a match
    kept as an unreported 0-0-0. The reader now warns, once per read, with the count of
    each kind and where the first is; ``validate=False`` (a caller that lists the notes
    itself, as ``swissframe validate`` does) does not."""
    from swissframe.errors import ImportNotesWarning

    with pytest.warns(ImportNotesWarning, match=r"^1 import note \(unreported_match ×1\), "
                      r"e\.g\. .*melee-unreported.*round 1, player 'C': C vs D reported"):
        src = sf.read(UNREPORTED)
    assert src.notes.height == 1
    folder = tmp_path / "mixed"
    folder.mkdir()
    shutil.copyfile(CSV, folder / "store.csv")
    (folder / "notes.txt").write_text("bring snacks\n")
    with pytest.warns(ImportNotesWarning, match=r"skipped_file ×1.*notes\.txt"):
        sf.read(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sf.read(UNREPORTED, validate=False).notes.height == 1
        sf.read(CSV)  # nothing left out: no warning


def test_an_event_missing_a_whole_round_is_warned_of(tmp_path: Path) -> None:
    """A file whose event has no row at all in a round before its last (a round lost in
    the export) was ranked as if no one had played that round, and only ``validate`` said
    so (as an error). The reader now warns, by ``validate``'s own rule, naming the event
    and the rounds; a file with every round does not."""
    from swissframe.errors import DataWarning

    lines = CSV.read_text().splitlines()
    head, rows = lines[0], lines[1:]
    # renumber rounds 2.. up by one: round 2 is missing, the event has rows up to round 5
    shifted = [head, *(r if r.split(",")[0] == "1" else f"{int(r.split(',')[0]) + 1},"
                       + r.split(",", 1)[1] for r in rows)]
    path = tmp_path / "gap.csv"
    path.write_text("\n".join(shifted) + "\n")
    with pytest.warns(DataWarning, match=r"^1 event with no row at all in a round before its "
                      r"last, e\.g\. event 'gap': no row in round 2 \(the event has rows up to "
                      r"round 5\).*swissframe validate FILE"):
        sf.read(path)
    with pytest.warns(DataWarning, match="no row in round 2"):
        sf.read_results(path)  # (the table reader, too)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sf.read(CSV)
        sf.read_results(CSV)
        sf.read(path, validate=False)  # (validate lists it, as an error)


# ------------------------------------------- classes 34-38: a CSV file's text and shape


def _swap_round(path: Path, old: str, new: str) -> str:
    return "\n".join(new + line[len(old):] if line.startswith(old) else line
                     for line in CSV.read_text().splitlines()) + "\n"


@pytest.mark.parametrize("digit", ["４", "٤"])
def test_a_round_in_other_digits_than_ascii_is_a_named_cell_not_a_polars_error(
        tmp_path: Path, digit: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A fullwidth or Arabic-Indic 4 in the round column: Polars' inference took it for a
    digit, its parser did not ("could not parse `４` as dtype `i128` … increasing
    infer_schema_length"). The cell is now read as text and refused by the one reading
    of a whole-number cell, naming row, players and value, by standings and validate."""
    bad = tmp_path / "fw.csv"
    bad.write_text(_swap_round(CSV, "4,", f"{digit},"))
    with pytest.raises(SchemaError, match=rf"fw\.csv: match table column 'round' .*row 15, "
                                          rf"event 'fw', 'Alice' vs 'Farid': '{digit}'.*ASCII "
                                          r"digits 0-9"):
        sf.read(bad)
    assert main(["validate", str(bad), "--format", "json"]) == 1
    doc = orjson.loads(capsys.readouterr().out)
    kinds = {p["kind"] for p in doc["problems"]}
    assert "bad_value" in kinds
    assert "schema" not in kinds
    assert {p["value"] for p in doc["problems"] if p["kind"] == "bad_value"} == {digit}
    # (a column outside the contract holding such a digit is read as text, not an error)
    extra = tmp_path / "extra.csv"
    lines = CSV.read_text().splitlines()
    extra.write_text("\n".join([lines[0] + ",table"] + [f"{x},{digit if i == 3 else i}"
                                                         for i, x in enumerate(lines[1:])]))
    assert sf.read(extra).results["table"].dtype == pl.String


def test_standings_and_validate_read_a_match_csv_the_same_way(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`2e0` was 2 for standings (Polars read the column as floats) and "games_a is
    Float64" for validate; a header alone was an empty table for standings and four
    "round is String" errors for validate. One reading now: an exponent is not a whole
    number for either (named by its cell), and a header alone is no rows for both."""
    sci = tmp_path / "sci.csv"
    sci.write_text(CSV.read_text().replace("1,Alice,Bob,2,1,0", "1,Alice,Bob,2e0,1,0"))
    with pytest.raises(SchemaError, match=r"'games_a' .*row 1, event 'sci', round 1, 'Alice' "
                                          r"vs 'Bob': '2e0'"):
        sf.read(sci)
    assert main(["validate", str(sci), "--format", "json"]) == 1
    doc = orjson.loads(capsys.readouterr().out)
    assert [(p["kind"], p["value"]) for p in doc["problems"] if p["severity"] == "error"] \
        == [("bad_value", "2e0")]
    alone = tmp_path / "hdr.csv"
    alone.write_text(CSV.read_text().splitlines()[0] + "\n")
    assert sf.read(alone).results.height == 0
    assert main(["validate", str(alone)]) == 0
    # (a trailing .0 stays a whole number for both)
    dotted = tmp_path / "dotted.csv"
    dotted.write_text(CSV.read_text().replace("1,Alice,Bob,2,1,0", "1,Alice,Bob,2.0,1,0"))
    assert sf.read(dotted).results["games_won"].dtype == pl.Int64
    assert main(["validate", str(dotted)]) == 0


def test_an_unclosed_quote_is_named_by_its_line_briefly(tmp_path: Path) -> None:
    """Polars' message dumped the rest of the file ("offset 2 bytes", 1.6 kB)."""
    bad = tmp_path / "quote.csv"
    lines = CSV.read_text().splitlines()
    bad.write_text("\n".join([lines[0], lines[1].replace("Alice", '"Alice'), *lines[2:]]))
    with pytest.raises(ImportFormatError) as err:
        sf.read(bad)
    text = str(err.value)
    assert re.search(r'quote\.csv: a quote \(\"\) opened on line 2 is never closed: lines '
                     rf"2-{len(lines)} would be one cell\. Hint: close the quote", text)
    assert len(text) < 400
    assert "Chandra" not in text


def test_rows_wider_or_narrower_than_the_header_are_named_by_line(tmp_path: Path) -> None:
    """One extra field was "found more fields than defined in 'Schema' Consider setting
    'truncate_ragged_lines=True'" (no line, advice on Polars' arguments); a field short
    was filled with a null without a word."""
    lines = CSV.read_text().splitlines()
    wide = tmp_path / "wide.csv"
    wide.write_text("\n".join([lines[0], lines[1], lines[2] + ",7", *lines[3:]]) + "\n")
    with pytest.raises(ImportFormatError, match=r"wide\.csv: rows with other than the "
                                                r"header's 6 fields: line 3: 7 fields\. Hint: "
                                                r"give each row one value per header column"):
        sf.read(wide)
    short = tmp_path / "short.csv"
    short.write_text("\n".join([*lines[:4], lines[4].rsplit(",", 1)[0], *lines[5:]]) + "\n")
    with pytest.raises(ImportFormatError, match=r"short\.csv: .*line 5: 5 fields"):
        sf.read(short)
    # a quoted value holding the separator or a line break is one field
    quoted = tmp_path / "quoted.csv"
    quoted.write_text("\n".join([lines[0], lines[1].replace("Alice", '"Alice, ""A""\nB."'),
                                 *lines[2:]]) + "\n")
    assert 'Alice, "A"\nB.' in sf.read(quoted).results["player_id"].to_list()


def test_cr_only_line_endings_are_read_but_not_inside_quotes(tmp_path: Path) -> None:
    """A CSV whose lines end in CR alone (a classic Mac file) was one header line:
    "column(s) ['0', '0\\r1', …] appear more than once in the header"."""
    text = CSV.read_text()
    cr = tmp_path / "cr.csv"
    cr.write_bytes(text.replace("\n", "\r").encode())
    named = ["event_id", "source_file"]
    assert sf.read(cr).results.drop(named).equals(sf.read(CSV).results.drop(named))
    inside = tmp_path / "inside.csv"  # (a CR inside quotes is the cell's text)
    inside.write_bytes(text.replace("Alice", '"Al\rice"').replace("\n", "\r").encode())
    assert "Al\rice" in sf.read(inside, validate=False).results["player_id"].to_list()


def test_flag_cells_read_in_one_set_of_spellings_and_others_are_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A long CSV's double_loss written yes/no or 1/0 was "double_loss is String, expected
    Boolean. Hint: cast ids with pl.col(...)" (no file, no cell, a Python hint)."""
    long = sf.read(CSV).results.drop("source_file", "ruleset", "phase")
    # (round 1's matches double losses; not its bye: a double loss has two seats, class 233)
    first = (pl.col("round") == 1) & pl.col("opponent_id").is_not_null()
    spelled = long.with_columns(
        pl.when(first).then(pl.lit("YES")).otherwise(pl.lit("no")).alias("double_loss"))
    (tmp_path / "a").mkdir()
    good = tmp_path / "a" / "flags.csv"
    spelled.write_csv(good)
    got = sf.read(good).results
    assert got["double_loss"].dtype == pl.Boolean
    assert got.filter(first)["double_loss"].all()
    assert not got.filter(~first)["double_loss"].any()
    ones = tmp_path / "ones.csv"
    spelled.with_columns(pl.col("double_loss").replace({"YES": "1", "no": "0"})
                         ).write_csv(ones)
    assert sf.read(ones).results["double_loss"].equals(got["double_loss"])
    bad = tmp_path / "maybe.csv"
    spelled.with_columns(pl.when(pl.col("player_id") == "Bob").then(pl.lit("maybe"))
                         .otherwise("double_loss").alias("double_loss")).write_csv(bad)
    with pytest.raises(SchemaError, match=r"maybe\.csv: double_loss holds cells that are not "
                                          r"flags \(row 13, event 'store-championship', "
                                          r"round 3, 'Bob' vs 'Hiro': 'maybe'.*Hint: write a "
                                          r"flag as "
                                          r"true/false, yes/no, 1/0"):
        sf.read(bad)
    assert main(["validate", str(bad), "--format", "json"]) == 1
    doc = orjson.loads(capsys.readouterr().out)
    values = {(p["kind"], p["value"]) for p in doc["problems"] if p["severity"] == "error"}
    assert ("bad_value", "maybe") in values
    assert not any(k == "schema" for k, _ in values)


@pytest.mark.parametrize("cell", ["3", "03", "+3", " 3", "3.0", "2e0", "٤", "x", "",
                                  "99999999999999999999", "9223372036854775807"])
def test_a_whole_number_cell_reads_the_same_typed_by_polars_or_as_text(
        cell: str, tmp_path: Path) -> None:
    """A CSV's whole-number column is taken as Polars types it when it types it as Int64
    (reading every column as text first made a read twice as slow), else from its text:
    either way a cell reads as ``schema.whole_numbers`` reads its text — a value, or the
    column left as text for its cells to be named."""
    from swissframe.schema import whole_numbers

    path = tmp_path / "one.csv"
    quoted = f'"{cell}"' if cell != cell.strip() else cell
    path.write_text("event_id,round,player_id,opponent_id,games_won,games_lost,games_drawn\n"
                    f"e,1,A,B,{quoted},0,0\ne,1,B,A,0,2,0\n")
    want = pl.DataFrame({"g": [cell, "0"]}).select(whole_numbers("g", pl.String))["g"]
    got = _files.read_table_file(path)["games_won"]
    if want.null_count() and cell:
        assert got.dtype == pl.String  # (left as text: the caller names the cell)
    else:
        assert got.cast(pl.Int64).to_list() == want.to_list()


def test_a_broken_link_in_a_folder_is_a_skipped_file_note(tmp_path: Path) -> None:
    """A link that names no file (broken, or two links naming each other) inside a folder
    was dropped without a word (given by name it is an error); it is now a skipped file,
    said to be a link to no file."""
    folder = tmp_path / "season"
    folder.mkdir()
    shutil.copyfile(CSV, folder / "store.csv")
    (folder / "lost.csv").symlink_to(tmp_path / "nowhere.csv")
    (folder / "a.csv").symlink_to(folder / "b.csv")
    (folder / "b.csv").symlink_to(folder / "a.csv")
    with pytest.warns(sf.errors.ImportNotesWarning, match="skipped_file ×3"):
        src = sf.read(folder)
    notes = src.notes.select(pl.col("file").str.split("/").list.last(), "detail").sort("file")
    assert notes.rows() == [(n, "a link to no file (broken, or a loop of links)")
                            for n in ("a.csv", "b.csv", "lost.csv")]
    assert src.results["event_id"].unique().to_list() == ["store"]


def test_an_empty_last_cell_is_no_short_row(tmp_path: Path) -> None:
    """A file whose last column is the opponent, empty for a bye, is read as it is; a row
    that lacks the field (no trailing separator) is still named by its line. (The first
    is screened by separator counts, not by Python's CSV reader: 0.85 -> 0.36 s a
    million rows.)"""
    head = "event_id,round,player_id,games_won,games_lost,games_drawn,opponent_id\n"
    ok = tmp_path / "bye_last.csv"
    ok.write_text(head + "e,1,A,2,0,0,B\ne,1,B,0,2,0,A\ne,1,C,2,0,0,\n")
    assert sf.read(ok).results.filter(pl.col("player_id") == "C")["opponent_id"].to_list() \
        == [None]
    short = tmp_path / "short.csv"
    short.write_text(head + "e,1,A,2,0,0,B\ne,1,B,0,2,0,A\ne,1,C,2,0,0\n")
    with pytest.raises(ImportFormatError, match=r"line 4: 6 fields"):
        sf.read(short)


# ---------------------------------------------------------- UTF-16 / UTF-32 text of every format


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
@pytest.mark.parametrize("original", [TRF, TDF, DECK], ids=["trf", "tom", "decklist"])
def test_unicode_text_with_a_byte_order_mark_is_read_in_every_format(
        tmp_path: Path, original: Path, encoding: str) -> None:
    """A file a Windows tool saved as "Unicode" (UTF-16 with a byte-order mark): the
    sniffing took such text for a table or nothing (a folder's TRF/TOM/JSON file was
    skipped), a TRF was decoded as Latin-1 ("no player lines") and a decklist file was
    refused by the JSON parser. Each is read by its mark, to the results of the UTF-8
    file."""
    text = original.read_bytes().decode("utf-8-sig" if original != TRF else "latin-1")
    bom = {"utf-16": b"", "utf-16-be": b"\xfe\xff", "utf-32": b""}[encoding]
    folder = tmp_path / "in"
    folder.mkdir()
    unicode = folder / original.name
    unicode.write_bytes(bom + text.encode(encoding))
    plain = tmp_path / original.name
    plain.write_text(text, encoding="utf-8")
    assert _files.sniff(unicode) == _files.sniff(plain) != "table"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got, want = sf.read(folder).results, sf.read(plain).results
    assert got.drop("source_file").equals(want.drop("source_file"))
    assert got.height > 0


def test_a_damaged_utf16_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "event.trf"
    path.write_bytes("001    1      A".encode("utf-16") + b"\x00\xd8A")  # a lone surrogate
    with pytest.raises(ImportFormatError, match=r"event\.trf: the file starts with a UTF-16 "
                       r"byte-order mark but byte \d+ .* is not UTF-16\. Hint"):
        sf.read(path)


# ---------------------------------------------- class 73: an event with only playoff rows


def test_an_event_with_only_playoff_rows_is_warned_of(tmp_path: Path) -> None:
    """A playoff bracket exported on its own (a results file whose event has rows only in
    the playoff phase) left the standings without a word, exit 0. The readers warn, by
    ``validate``'s rule (``no_swiss_round``), instead of calling its Swiss rounds lost
    rounds."""
    from swissframe.errors import DataWarning

    rows = sf.read_results(LEAGUE).with_columns(pl.lit("swiss").alias("phase"))
    bracket = rows.filter(pl.col("round") == 3).with_columns(
        pl.lit("top4").alias("event_id"), pl.lit("playoff").alias("phase"))
    path = tmp_path / "night.csv"
    pl.concat([rows, bracket]).write_csv(path)
    for read in (sf.read, sf.read_results):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            read(path)
        assert [str(w.message) for w in caught if w.category is DataWarning] == [
            "1 event with only playoff rows (a knockout event, or a bracket without its "
            "Swiss rounds), e.g. event 'top4': 6 playoff rows in round 3 and no Swiss "
            "row: the event has no Swiss standings; the standings leave it out. Hint: if the "
            "event had Swiss rounds, they are missing from the export (or marked 'playoff'): "
            "swissframe validate FILE lists each."]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sf.read(LEAGUE)


# ------------------------------------ class 72: a Parquet column of a type with no text form


#: Column types Polars cannot cast to text (a Duration, a list, an array; bytes that are
#: not UTF-8): each cast was Polars' bare error ("casting from Duration('μs') to String
#: not supported", "invalid utf8"), with its expression and no hint.
NO_TEXT_FORM = {
    "duration": pl.Series([dt.timedelta(days=1)]),
    "list": pl.Series([[1]]),
    "array": pl.Series([[1]], dtype=pl.Array(pl.Int64, 1)),
    "bytes": pl.Series([b"\xff"]),
}


@pytest.mark.parametrize("kind", sorted(NO_TEXT_FORM))
@pytest.mark.parametrize(("column", "said"), [
    ("round", r"mistyped column\(s\): round is "),
    ("games_won", r"mistyped column\(s\): games_won is "),
    ("double_loss", r"double_loss holds cells that are not flags \(row 1, "),
    ("event_id", r"event_id is .*, expected text \(or whole numbers\)\. Hint: "),
    ("player_id", r"mistyped column\(s\): player_id is .*, expected text \(or whole "
                  r"numbers\)\. Hint: "),
    ("phase", r"mistyped column\(s\): phase is .*, expected text\. Hint: "),
])
def test_a_parquet_column_with_no_text_form_is_named_with_its_file(
        tmp_path: Path, kind: str, column: str, said: str) -> None:
    results = sf.read_results(LEAGUE)
    value = NO_TEXT_FORM[kind]
    results.with_columns(pl.Series([value[0]] * results.height, dtype=value.dtype)
                         .alias(column)).write_parquet(tmp_path / "odd.parquet")
    with pytest.raises(SchemaError, match=rf"odd\.parquet: {said}"):
        sf.read(tmp_path / "odd.parquet")


#: Id columns of a type that is not an id's (class 135): each was read by ``sf.read`` as its
#: text (``"1.0"``, ``"2026-01-01"``, ``"true"``) and refused by ``recompute``.
NOT_IDS = {
    "float": lambda ids: ids.cast(pl.Float64),
    "date": lambda ids: pl.date(2026, 1, 1) + pl.duration(days=ids),
    "bool": lambda ids: ids > 1,
    "decimal": lambda ids: ids.cast(pl.Decimal(10, 1)),
}


@pytest.mark.parametrize("kind", sorted(NOT_IDS))
@pytest.mark.parametrize("column", ["event_id", "player_id"])
def test_an_id_column_that_is_no_id_is_refused_by_read_and_recompute_alike(
        tmp_path: Path, kind: str, column: str) -> None:
    """Class 135: one rule of ids (``schema.is_id_type``) for ``sf.read`` and ``recompute``
    (and the other readers of ids): text or whole numbers. A float, date or Boolean
    ``event_id`` was read by ``sf.read`` as its text, then refused by ``recompute``."""
    from swissframe.bulk import recompute

    res = sf.read_results(LEAGUE).with_columns(pl.lit("e").alias("event_id"))
    ids = [column] if column == "event_id" else ["player_id", "opponent_id"]
    # (player and opponent by one numbering, so that each id is one player)
    codes = pl.concat([res["player_id"], res["opponent_id"]]).drop_nulls().unique().sort()
    dense = {c: pl.lit(1, dtype=pl.Int64) if c == "event_id" else pl.col(c).replace_strict(
        codes, list(range(1, codes.len() + 1)), return_dtype=pl.Int64) for c in ids}
    res.with_columns(NOT_IDS[kind](dense[c]).alias(c) for c in ids).write_parquet(
        tmp_path / "odd.parquet")
    said = (rf"odd\.parquet: (mistyped column\(s\): )?{column} is \w+.*, expected text "
            r"\(or whole numbers\)\. Hint: ")
    with pytest.raises(SchemaError, match=said):
        sf.read(tmp_path / "odd.parquet")
    with pytest.raises(SchemaError, match=said):
        recompute([str(tmp_path / "odd.parquet")], tmp_path / "out")


@pytest.mark.parametrize("column", ["event_id", "player_id"])
def test_whole_number_ids_are_read_as_text_by_read_and_recompute_alike(
        tmp_path: Path, column: str) -> None:
    """Class 135: whole-number ids (a platform's numbered events, a TRF's start numbers
    saved and read back) are read as their digits by ``sf.read`` and ``recompute`` alike:
    ``recompute`` refused an Int64 ``event_id`` that ``sf.read`` read, and ``sf.read``
    refused Int64 player ids (a CSV file's "7" is read as the text "7")."""
    from swissframe.bulk import recompute

    res = sf.read_results(LEAGUE).with_columns(pl.lit("7").alias("event_id"))
    codes = pl.concat([res["player_id"], res["opponent_id"]]).drop_nulls().unique().sort()
    ids = [column] if column == "event_id" else ["player_id", "opponent_id"]
    as_text = res.with_columns(
        pl.col(c).replace_strict(codes, [str(i) for i in range(1, codes.len() + 1)])
        for c in ids if c != "event_id")
    as_text.with_columns(pl.col(c).cast(pl.Int64) for c in ids).write_parquet(
        tmp_path / "n.parquet")
    expected = sf.standings(as_text, "mtg")
    src = sf.read(tmp_path / "n.parquet")
    assert src.results.schema[column] == pl.String
    assert sf.standings(src.results, "mtg").select(expected.columns).equals(expected)
    recompute([str(tmp_path / "n.parquet")], tmp_path / "out", rules="mtg")
    out = pl.read_parquet(tmp_path / "out" / "*.parquet")
    assert out.select("event_id", "player_id", "rank").sort("rank", "player_id").equals(
        expected.select("event_id", "player_id", "rank").sort("rank", "player_id"))


# --------------------------------------------------- class 82: a compressed file or an archive


def test_a_compressed_results_file_is_named_as_one(tmp_path: Path) -> None:
    """A gzipped CSV, TRF or TOM file, or a zip of results, was refused as "not a results
    table … (judged by its content). Hint: force a format" — and forced, as "it holds NUL
    bytes … UTF-16", "no player lines" or "not well-formed XML". Each says what it is and
    to unpack it (only decklist-cache JSON is read compressed); in a folder, the skipped
    file's note says so."""
    import zipfile

    csv = tmp_path / "night.csv.gz"
    csv.write_bytes(gzip.compress(LEAGUE.read_bytes()))
    trf = tmp_path / "club.trf.gz"
    trf.write_bytes(gzip.compress(b"012 Club\n001    1      A\n"))
    packed = tmp_path / "results.zip"
    with zipfile.ZipFile(packed, "w") as z:
        z.write(LEAGUE, "league-night.csv")
    said = r": {}, not a results file: swissframe reads compressed files only for decklist"
    for path, kind, fmt in ((csv, "gzip-compressed", "auto"), (csv, "gzip-compressed", "table"),
                            (trf, "gzip-compressed", "trf"), (trf, "gzip-compressed", "tom"),
                            (packed, "a zip archive", "auto")):
        with pytest.raises(ImportFormatError, match=re.escape(path.name) + said.format(kind)
                           + r".*Hint: (gunzip|unpack) it first"):
            sf.read(path, format=fmt)
    shutil.copyfile(LEAGUE, tmp_path / "league-night.csv")
    with pytest.warns(ImportNotesWarning, match="skipped_file"):
        src = sf.read(tmp_path)
    assert sorted(src.notes.filter(pl.col("kind") == "skipped_file")["detail"].to_list()) == [
        "a zip archive: only decklist-cache JSON is read compressed (.json.gz)",
        "gzip-compressed: only decklist-cache JSON is read compressed (.json.gz)",
        "gzip-compressed: only decklist-cache JSON is read compressed (.json.gz)"]


# ------------------------------------------ class 84: a file named with a glob's characters


@pytest.mark.parametrize("name", ["results [final].csv", "night[1].parquet", "a*b.csv",
                                  "what?.csv"])
def test_a_file_named_with_glob_characters_is_that_file(tmp_path: Path, name: str) -> None:
    """Polars read a path as a glob: "results [final].csv" or "night[1].parquet" matched
    nothing ("expanded paths were empty"), and "a*b.csv" matched every file of its folder
    that fits the pattern, read as one (another event's rows, or duplicate seats)."""
    path = tmp_path / name
    rows = sf.read_results(LEAGUE)
    if name.endswith(".parquet"):
        rows.write_parquet(path)
    else:
        shutil.copyfile(LEAGUE, path)
    shutil.copyfile(LEAGUE, tmp_path / "aXb.csv")  # (what a*b.csv also matched)
    shutil.copyfile(LEAGUE, tmp_path / "whatX.csv")
    assert sf.read(path).results.height == rows.height


@pytest.mark.parametrize("reader", ["read", "read_tom", "read_trf", "read_decklist_cache",
                                    "read_results"])
def test_an_empty_path_is_refused_by_every_reader(reader: str) -> None:
    # '' is Path('.'): every results file under the working folder was read (read,
    # read_results, read_decklist_cache), or pathlib's bare ValueError "has an empty name"
    import swissframe as sf

    with pytest.raises(ImportFormatError, match=r"an empty path \(''\) given as input"):
        getattr(sf, reader)("")
    with pytest.raises(ImportFormatError, match="an empty path"):
        getattr(sf, reader)(["data/events", ""])


SEASON = REPO_ROOT / "data" / "season"


@pytest.mark.parametrize(("name", "at"), [("pokemon_events.parquet", 1415),
                                          ("pokemon_results.parquet", 500),
                                          ("pokemon_results.parquet", 3000)])
def test_a_damaged_parquet_file_is_named_not_a_panic(tmp_path: Path, name: str,
                                                     at: int) -> None:
    """One byte added inside a Parquet data page: Polars' decoder panicked (a bare
    ``PanicException``, a BaseException, said by the command line as "a swissframe bug"),
    or failed with a ``ComputeError`` naming no file. An ``ImportFormatError`` naming the
    file, in ``sf.read`` and in ``validate``'s report (class 95)."""
    data = (SEASON / name).read_bytes()
    bad = tmp_path / "damaged.parquet"
    bad.write_bytes(data[:at] + b"\x00" + data[at:])
    with pytest.raises(ImportFormatError, match=r"cannot read \S*damaged\.parquet as "
                       r"Parquet: .*Hint: "):
        sf.read(bad)
    src = sf.read(bad, on_error="collect")
    assert len(src.problems) == 1
    assert "damaged.parquet as Parquet" in src.problems[0][1]


def test_no_byte_of_a_parquet_file_changed_ends_the_process(tmp_path: Path) -> None:
    """Every byte of a small Parquet file set to 0x19 (a page header's value count then
    read as negative, at some positions) and each file read in a child process: Polars'
    reader asked for 2**61 bytes there and the failed allocation aborted the process
    (SIGABRT) — a notebook's kernel died without a word. Each read now ends in a result or
    an error naming the file (``ImportFormatError``: class 96; a ``SchemaError`` where the
    byte renamed a column); a child that dies fails this test instead of the suite (≈ 6 s,
    1,400 reads)."""
    import subprocess
    import sys

    good = tmp_path / "good.parquet"
    pl.DataFrame({"event_id": ["e"] * 12, "round": [1] * 12,
                  "player_id": [f"p{i}" for i in range(12)],
                  "opponent_id": [f"p{i ^ 1}" for i in range(12)],
                  "games_won": [2, 0] * 6, "games_lost": [0, 2] * 6,
                  "games_drawn": [0] * 12}).write_parquet(good)
    script = tmp_path / "scan.py"
    script.write_text(f"""
import sys
from pathlib import Path
import swissframe as sf
data = Path({str(good)!r}).read_bytes()
bad = Path({str(tmp_path / "bad.parquet")!r})
refused = 0
for at in range(len(data)):
    bad.write_bytes(data[:at] + b"\\x19" + data[at + 1:])
    try:
        sf.read(bad, validate=False)
    except sf.SwissframeError as exc:
        assert "bad.parquet" in str(exc), str(exc)
        refused += 1
    except BaseException as exc:  # (a PanicException too: not a clean refusal)
        print("at", at, type(exc).__name__, exc)
        raise
print(len(data), refused)
""")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=600, check=False)
    assert run.returncode == 0, (run.returncode, run.stdout[-2000:], run.stderr[-2000:])
    size, refused = map(int, run.stdout.split()[-2:])
    assert 0 < refused < size


def test_a_panic_decoding_parquet_is_an_import_error(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever page makes the decoder panic, the read names the file (class 95)."""
    good = _copy(SEASON / "pokemon_results.parquet", tmp_path / "night.parquet")

    def panics(*args: object, **kwargs: object) -> pl.DataFrame:
        raise pl.exceptions.PanicException("invalid num_bits 47")

    monkeypatch.setattr(pl, "read_parquet", panics)
    with pytest.raises(ImportFormatError, match=r"night.parquet as Parquet: the file is "
                       r"damaged \(Polars failed decoding it: invalid num_bits 47\)"):
        sf.read(good)


def test_a_tables_ruleset_column_names_its_events_rules(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    """A results table naming its events' rulesets (what ``sf.read`` and ``swissframe
    simulate`` write) was ranked by them while its ``Source.events`` and the CLI's
    ``rules:`` line said ``mtg``, and the rows gained a ``ruleset_right`` column: the
    table's own names are the events' rulesets; an unknown name or two names in one event
    are refused, naming the file and the event."""
    from swissframe.cli import main

    rows = pl.DataFrame({"event_id": ["a", "a", "b", "b"], "round": [1] * 4,
                         "player_id": ["P", "Q", "R", "S"], "opponent_id": ["Q", "P", "S", "R"],
                         "games_won": [2, 0, 1, 1], "games_lost": [0, 2, 1, 1],
                         "games_drawn": [0] * 4, "ruleset": ["pokemon"] * 2 + [None] * 2})
    path = tmp_path / "named.csv"
    rows.write_csv(path)
    src = sf.read(path)
    assert "ruleset_right" not in src.results.columns
    assert src.events.sort("event_id")["ruleset"].to_list() == ["pokemon", "mtg"]
    assert src.results.sort("event_id")["ruleset"].to_list() == ["pokemon"] * 2 + ["mtg"] * 2
    assert main(["standings", str(path)]) == 0
    assert "rules: mtg (1 event), pokemon (1 event)" in capsys.readouterr().err
    for bad, said in ((["pokemon", "mtg", None, None], "names the rulesets 'mtg', 'pokemon'"),
                      (["pokémon-x"] * 2 + [None] * 2, "names the ruleset 'pokémon-x', which")):
        rows.with_columns(ruleset=pl.Series(bad, dtype=pl.String)).write_csv(path)
        with pytest.raises(sf.ImportFormatError, match=rf"named.csv: event 'a': .*{said}"):
            sf.read(path)


def test_a_simulated_file_is_read_back_by_its_own_rules(tmp_path: Path) -> None:
    """``swissframe simulate --rules pokemon`` wrote no game: read back, the season was
    ranked as MTG (GW%, OGW%). The file names its ruleset."""
    from swissframe.cli import main

    out = tmp_path / "sim.parquet"
    assert main(["simulate", "--players", "12", "--rules", "pokemon", "-o", str(out),
                 "--quiet"]) == 0
    assert sf.read(out).events["ruleset"].to_list() == ["pokemon"]


@pytest.mark.parametrize("prefix", ["001 ", "012 ", "XXR "])
def test_a_table_whose_rows_start_like_trf_records_is_read_as_a_table(
        tmp_path: Path, prefix: str) -> None:
    """Class 121: a CSV whose first column holds a player or an event written like a TRF
    record (``001 Kai``, ``012 Open``) was sniffed as TRF, before its header was looked
    at, and refused as a misaligned TRF line ("start number (columns 5-8) is 'Kai,'"),
    named or in a folder. The header is looked at first: a TRF's first line never names
    ``player_id`` or ``player_a``."""
    rows = pl.read_csv(REPO_ROOT / "data" / "events" / "league-night.csv")
    first = ["player_id", "opponent_id"]
    odd = rows.select(*first, *[c for c in rows.columns if c not in first]).with_columns(
        pl.col(first).str.replace(r"^Kai$", prefix + "Kai"))
    (tmp_path / "dir").mkdir()
    path = tmp_path / "dir" / "night.csv"
    odd.write_csv(path)
    assert _files.sniff(path) == "table"
    for given in (path, tmp_path / "dir"):
        got = sf.read(given).results
        assert (prefix + "Kai") in got["player_id"].to_list()
        assert got.height == rows.height
    trf = REPO_ROOT / "tests" / "fixtures"
    assert all(_files.sniff(f) == "trf" for f in trf.rglob("*.trf"))


@pytest.mark.parametrize("limit", [2**40, 2**62, 2**63 - 2])
def test_a_generous_size_limit_reads_a_small_file(limit: int) -> None:
    """Class 125: each reader asked for one byte more than ``max_bytes`` and a read
    allocates what it asks for: ``max_bytes=2**40`` (a user raising the limit generously)
    was a ``MemoryError`` reading a 9 KB TOM, TRF or decklist file. A read asks for one
    byte more than the file's size."""
    for f in (FIXTURES / "tom" / "all_codes.tdf",
              REPO_ROOT / "data" / "events" / "league-night.csv",
              *sorted((FIXTURES / "trf").glob("*.trf"))[:1],
              *sorted((FIXTURES / "decklist").glob("*.json*"))[:1]):
        assert sf.read(f, max_bytes=limit).results.height


@pytest.mark.parametrize("limit", [2**63 - 1, 2**70, 0])
def test_a_size_limit_past_what_a_read_can_ask_is_named(limit: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Class 125: ``max_bytes`` (or ``SWISSFRAME_MAX_BYTES``) of 2**63 - 1 or more was
    Python's bare ``OverflowError`` ("cannot fit 'int' into an index-sized integer") in
    every reader but the tables'; it is an ``ImportFormatError`` naming the bound."""
    tom = FIXTURES / "tom" / "all_codes.tdf"
    said = r"size limit .* is not a number of bytes from 1 to 9,223,372,036,854,775,806"
    with pytest.raises(ImportFormatError, match=said):
        sf.read(tom, max_bytes=limit)
    monkeypatch.setenv("SWISSFRAME_MAX_BYTES", str(limit))
    with pytest.raises(ImportFormatError, match=said):
        sf.read(tom)


@pytest.mark.parametrize("tail", [b"", b"\x00" * 7, gzip.compress(b" and more", mtime=0)],
                         ids=["none", "zero padding", "a further member"])
def test_a_gzip_is_read_whole_with_its_padding_and_further_members(tmp_path: Path,
                                                                   tail: bytes) -> None:
    """One member (returned as decompressed, without copies), one padded with NULs, or two
    members: the content of all of them; exactly at the limit it is read, one byte past it
    is refused."""
    body = b'{"Tournament": {}}' * 50
    f = tmp_path / "e.json.gz"
    f.write_bytes(gzip.compress(body) + tail)
    want = body + (gzip.decompress(tail) if tail.strip(b"\x00") else b"")
    assert _files.read_decompressed(f) == want
    assert _files.read_decompressed(f, limit=len(want)) == want
    with pytest.raises(ImportFormatError, match="limit"):
        _files.read_decompressed(f, limit=len(want) - 1)


def _gunzipped(path: Path, limit: int | None) -> bytes | str:
    """``read_decompressed``'s bytes, or its error's type and text."""
    try:
        return _files.read_decompressed(path, limit=limit)
    except ImportFormatError as exc:
        return f"ImportFormatError: {exc}"


@settings(max_examples=300, deadline=None)
@hypothesis.given(
    st.binary(max_size=300), st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)),
                                      max_size=3),
    st.sampled_from([None, 0x08, 0x20, 0x40, 0x80, 0xFF]),
    st.sampled_from([b"", b"\x00\x00", b"junk"]), st.sampled_from([None, 100, 10_000]))
def test_isal_reads_a_gzip_as_zlib_does(tmp_path_factory: pytest.TempPathFactory,
                                        body: bytes, changes: list[tuple[int, int]],
                                        flags: int | None, tail: bytes,
                                        limit: int | None) -> None:
    """ISA-L (optional) gunzips a one-member file; every other file, and every one it
    refuses, is read by zlib: gzip files with bytes changed (header flags, the deflate
    stream, CRC-32, length), a tail, under a limit give zlib's bytes or error text."""
    raw = bytearray(gzip.compress(body * 20) + tail)
    for at, byte in changes:
        raw[at % len(raw)] = byte
    raw[:2] = b"\x1f\x8b"
    if flags is not None:
        raw[3] = flags
    f = tmp_path_factory.mktemp("gz") / "e.json.gz"
    f.write_bytes(bytes(raw))
    fast = _gunzipped(f, limit)
    isal = _files._isal
    try:
        _files._isal = lambda: None  # type: ignore[assignment]  # (zlib alone)
        assert _gunzipped(f, limit) == fast
    finally:
        _files._isal = isal  # type: ignore[method-assign]


@pytest.mark.parametrize("flags", [0x20, 0x40, 0x80])
def test_a_gzip_header_with_a_reserved_flag_is_refused_as_zlib_does(tmp_path: Path,
                                                                    flags: int) -> None:
    """ISA-L reads a header with a reserved flag bit set, which zlib refuses: such a file is
    left to zlib, and refused as corrupt, naming the file."""
    raw = bytearray(gzip.compress(b'{"Tournament": {}}'))
    raw[3] |= flags
    f = tmp_path / "e.json.gz"
    f.write_bytes(bytes(raw))
    assert _files._isal() is not None
    with pytest.raises(ImportFormatError, match=r"e\.json\.gz: cannot read the gzip data, "
                       r"it is corrupt \(Error -3 while decompressing data: unknown header "
                       r"flags set\)"):
        _files.read_decompressed(f)


def test_a_folders_files_are_what_rglob_lists_less_hidden_names(tmp_path: Path) -> None:
    """``_folder_files`` (one scandir per folder) lists what ``rglob("*")`` filtered of
    hidden parts did: files (through links to files), nothing under a hidden folder; and
    apart, what it passes over: broken links and loops, links to folders (not followed), a
    FIFO."""
    for name in ("a/x.json", "a/.h/y.json", ".top", "b/z.csv", ".git/objects/o", "c/d/e.trf"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "a" / "to_b").symlink_to(tmp_path / "b")  # a link to a folder
    (tmp_path / "a" / "to_z").symlink_to(tmp_path / "b" / "z.csv")
    (tmp_path / "a" / "gone").symlink_to(tmp_path / "nowhere")
    (tmp_path / "c" / "loop1").symlink_to(tmp_path / "c" / "loop2")
    (tmp_path / "c" / "loop2").symlink_to(tmp_path / "c" / "loop1")
    os.mkfifo(tmp_path / "c" / "pipe")
    visible = [f for f in tmp_path.rglob("*")
               if not any(p.startswith(".") for p in f.relative_to(tmp_path).parts)]
    inside = [f for f in visible if not f.parent.is_symlink()]  # (rglob follows to_b)
    reference = (sorted(f for f in inside if f.is_file()),
                 sorted(f for f in inside if not f.is_file()
                        and (f.is_symlink() or not f.is_dir())))
    assert _files._folder_files(tmp_path) == reference
    files, passed = reference
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "a/to_z", "a/x.json", "b/z.csv", "c/d/e.trf"]
    assert [f.name for f in passed] == ["gone", "to_b", "loop1", "loop2", "pipe"]


def test_what_a_folders_read_passes_over_is_a_skipped_file_note(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A FIFO, a link to a folder and a sub-folder that cannot be listed were passed over
    without a word (bad data 212: a season's unreadable folder lost its events with exit
    0); each is now a skipped file saying why, and the results file beside them is read."""
    folder = tmp_path / "season"
    (folder / "locked").mkdir(parents=True)
    shutil.copyfile(CSV, folder / "store.csv")
    shutil.copyfile(CSV, folder / "locked" / "other.csv")
    os.mkfifo(folder / "pipe.csv")
    (folder / "elsewhere").symlink_to(tmp_path, target_is_directory=True)
    real_scandir = os.scandir

    def scandir(path: str) -> Any:  # (the tests run as root, whom permissions do not stop)
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(_files.os, "scandir", scandir)
    with pytest.warns(sf.errors.ImportNotesWarning, match="skipped_file ×3"):
        src = bounded(lambda: sf.read(folder), timeout=60)  # (a FIFO opened would block)
    notes = src.notes.select(pl.col("file").str.split("/").list.last(), "detail").sort("file")
    assert notes.rows() == [
        ("elsewhere", "a link to a folder, not followed (read the folder it names by its "
                      "own path)"),
        ("locked", "a folder that cannot be listed (no permission)"),
        ("pipe.csv", "a pipe, device or socket: not read (swissframe reads files of known "
                     "size)")]
    assert src.results["event_id"].unique().to_list() == ["store"]


@pytest.mark.parametrize("pattern", ["**/*.csv", "**", "a/**", "**/n*.csv", "a/*.csv",
                                     "*/*/*", "a**/*.csv", "**/.h/*.csv", "nothing/**"])
def test_a_glob_matches_what_glob_matches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          pattern: str) -> None:
    """Class 186: ``glob_files`` (the one reading of a glob, for ``read`` and
    ``recompute``) matches what ``glob.glob(..., recursive=True)`` does where no link to
    a folder is in the way: hidden names only where the pattern writes the dot, a
    trailing ``**`` matching the files below, ``**`` inside a name as ``*``."""
    import glob

    for name in ("a/n1.csv", "a/b/n2.csv", "a/.h/n3.csv", ".top.csv", "top.csv", "a/b/c/x.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    monkeypatch.chdir(tmp_path)
    reference = sorted(Path(g) for g in glob.glob(pattern, recursive=True) if Path(g).is_file())
    assert _files.glob_files(pattern) == reference
    absolute = sorted(Path(g) for g in glob.glob(str(tmp_path / pattern), recursive=True)
                      if Path(g).is_file())
    assert _files.glob_files(tmp_path / pattern) == absolute


def test_a_glob_does_not_go_round_a_link_to_a_folder_above(tmp_path: Path) -> None:
    """Class 186: ``**`` of a glob followed a link to a folder (Python's ``glob`` does),
    which a folder's read does not: a link to the folder above (``a/up -> ..``) read one
    CSV 41 times, under 41 paths round the loop (41 rows a seat: "duplicate_seat"), and
    two such links (``a/up``, ``a/self``) walked 2**40 paths, a hang of ``swissframe
    validate 'results/**/*.csv'`` and of ``recompute 'archive/**/*.parquet'``. The glob
    reads each file once, as the folder does."""
    from swissframe import bulk

    _copy(CSV, tmp_path / "a" / "n.csv")
    sf.read_results(CSV).write_parquet(tmp_path / "a" / "n.parquet")
    (tmp_path / "a" / "up").symlink_to("..")
    src = sf.read(tmp_path / "**" / "*.csv")
    assert src.files == [str(tmp_path / "a" / "n.csv")]
    assert src.results.height == sf.read(tmp_path / "a" / "n.csv").results.height
    (tmp_path / "a" / "self").symlink_to("../a")  # (two such links: the hang)
    assert bulk._files(str(tmp_path / "**" / "*.parquet")) == [str(tmp_path / "a" / "n.parquet")]


@pytest.mark.parametrize("reader", [sf.read, sf.read_results, sf.read_decklist_cache,
                                    sf.read_tom, sf.read_trf])
def test_a_path_no_file_can_have_is_the_reader_s_error(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       reader: object) -> None:
    """Class 190: paths the system refuses before any file is read ended in bare
    ``ValueError``/``OSError``s: a NUL byte (``embedded null byte``, from every reader),
    a name longer than the system takes (``File name too long``: ``sf.read``,
    ``read_results``, ``read_decklist_cache``), ``'.'`` or ``'./'`` given to
    ``read_tom``/``read_trf`` (pathlib's ``has an empty name``), a loop of links given
    to ``read_decklist_cache``; a folder given to a reader of one file was "not a regular
    file (a pipe, device or socket)". Each is an ``ImportFormatError`` naming the path."""
    read = reader  # (a reader of paths)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "folder").mkdir()
    cases = {"a\x00b.csv": "holds a NUL byte", "x" * 5000 + ".csv": "File name too long",
             "loop": "Too many levels of symbolic links"}
    if read in (sf.read_tom, sf.read_trf):
        cases |= {".": r"^\.: a folder, where a file is read", "./": "a folder, where",
                  "folder": r"^folder: a folder, where a file is read\. Hint: name a file"}
    for path, error in cases.items():
        with pytest.raises(ImportFormatError, match=error):
            read(path)  # type: ignore[operator]


def test_read_results_contract_error_names_the_files_of_its_events(tmp_path: Path) -> None:
    """Class 193: ``sf.read_results`` (the tables' own reader) refused a row of the
    contract (a duplicate seat) naming event, round and player but no file, as ``sf.read``
    did before class 138: given several files, which to open was not said."""
    lines = LEAGUE.read_text().splitlines()
    dup = tmp_path / "dup.csv"
    dup.write_text("\n".join([*lines, lines[1]]) + "\n")
    good = _copy(CSV, tmp_path / "good.csv")
    with pytest.raises(ValidationError, match=r"^[^ ]*dup\.csv: 1 problem in the results "
                       r"table \(duplicate_seat\):\n  - \[duplicate_seat\] event 'league-night'"):
        sf.read_results([good, dup])


@pytest.mark.parametrize("rows", [[1], [1, 2], [0]], ids=["one", "two", "first"])
def test_an_empty_event_id_is_an_event_with_its_ruleset(tmp_path: Path, rows: list[int],
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """Class 196: a long table with an empty ``event_id`` cell, read as ``validate`` reads
    it (``validate=False``, to list every problem), gave the null event no ruleset (a
    join that drops null keys), and ``swissframe validate`` ended in a traceback
    (``TypeError: '<' not supported between instances of 'str' and 'NoneType'``, sorting
    the rulesets' names). The null event takes its inferred ruleset, and ``validate``
    lists the empty cell (``null_value``), exit 1."""
    lines = LEAGUE.read_text().splitlines()
    for i in rows:
        lines[i + 1] = "," + lines[i + 1].split(",", 1)[1]
    f = tmp_path / "e.csv"
    f.write_text("\n".join(lines) + "\n")
    src = sf.read(f, validate=False)
    assert src.events["ruleset"].to_list() == ["mtg", "mtg"]
    assert src.results["ruleset"].null_count() == 0
    assert main(["validate", str(f)]) == 1
    out = capsys.readouterr()
    assert "null_value" in out.out
    assert "Traceback" not in out.err


@pytest.mark.parametrize("source", [LEAGUE, TDF, TRF, DECK], ids=["csv", "tom", "trf", "deck"])
def test_one_file_named_twice_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           source: Path) -> None:
    """Class 197: one file named by two spellings — a relative and an absolute path,
    ``sub/../x``, a link to it, a folder and the file in it by another path — was read
    twice: a table's every seat twice (18 ``duplicate_seat`` errors for a valid file), a
    TOM or TRF file as two events (its standings printed twice). Each file is read once,
    the first spelling kept, as the decklist reader already did."""
    monkeypatch.chdir(tmp_path)
    f = _copy(source, tmp_path / "in" / source.name)
    (tmp_path / "sub").mkdir()
    (tmp_path / "link").symlink_to(f)
    once = sf.read(f"in/{source.name}")
    for twice in ([f"in/{source.name}", f"sub/../in/{source.name}"],
                  [f"in/{source.name}", str(f)], [f"in/{source.name}", "link"],
                  [str(tmp_path / "in"), f"in/{source.name}"]):
        src = sf.read(twice)
        assert src.files == ([twice[0]] if twice[0] != str(tmp_path / "in") else [str(f)])
        assert src.results.drop("source_file").equals(once.results.drop("source_file"))


def test_a_read_s_contract_error_names_the_files_of_its_events(tmp_path: Path) -> None:
    """Class 138: a row the contract refuses (a round 0, a duplicate seat) in a file read by
    ``sf.read`` was a ``ValidationError`` naming event, round and player but no file: in
    a folder of files, which to open was not said. It names the file of each event
    listed (a decklist's ``Round 0`` and a CSV's round 0 alike)."""
    header = "event_id,round,player_id,opponent_id,games_won,games_lost,games_drawn\n"
    (tmp_path / "good.csv").write_text(header + "g,1,A,B,2,0,0\ng,1,B,A,0,2,0\n")
    (tmp_path / "bad.csv").write_text(header + "e,0,A,B,2,0,0\ne,0,B,A,0,2,0\n")
    with pytest.raises(sf.ValidationError, match=r"bad\.csv: 2 problems in the results "
                       r"table \(round_below_1\):\n  - \[round_below_1\] event 'e', round 0, "
                       r"player 'A' vs 'B'") as info:
        sf.read(tmp_path)
    assert "good.csv" not in str(info.value)
    assert info.value.problems.height == 2


def test_every_reader_names_a_file_as_the_user_gave_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Class 143: a decklist file's ``source_file`` (and ``path``, and its messages) was
    its resolved, absolute path where a CSV's, a TOM's and a TRF's are as given: one file
    given as ``in/x.json`` was named ``/home/…/in/x.json``. Every reader names it as
    given (``shown``), through a link too; two paths of one file are still one file."""
    from swissframe.io.decklist import read_decklist_cache

    fixtures = REPO_ROOT / "tests" / "fixtures"
    given = tmp_path / "in"
    given.mkdir()
    for f in (fixtures / "decklist" / "melee-byes-1-2024-07-13.json",
              fixtures / "tom" / "pending.tdf", fixtures / "trf" / "all_codes.trf",
              REPO_ROOT / "data" / "events" / "store-championship.csv"):
        shutil.copy(f, given / f.name)
    (tmp_path / "linked").symlink_to(given)
    monkeypatch.chdir(tmp_path)
    for folder in ("in", "linked"):
        names = sorted(f"{folder}/{f.name}" for f in given.iterdir())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            src = sf.read(folder)
        assert sorted(src.files) == names, folder
        assert sorted(set(src.results["source_file"])) == names
        assert set(src.notes["file"].drop_nulls()) <= set(names)
        # (the folder it is in still says the platform, a link's too)
        assert src.events.filter(pl.col("source_kind") == "decklist")[
            "platform"].to_list() == ["melee"]
    deck = "in/melee-byes-1-2024-07-13.json"
    assert read_decklist_cache([deck, str(given / "melee-byes-1-2024-07-13.json")]
                               ).events["path"].to_list() == [deck]
    bad = given / "melee-bad-1-2024-07-13.json"
    bad.write_text("{")
    with pytest.raises(ImportFormatError, match=r"cannot read in/melee-bad-1-2024-07-13\.json "):
        read_decklist_cache("in/melee-bad-1-2024-07-13.json")


@pytest.mark.parametrize("existing", [True, False])
@pytest.mark.parametrize("when", ["before", "after"])
def test_an_atomic_write_interrupted_at_any_step_leaves_old_or_new_and_no_scratch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existing: bool, when: str) -> None:
    """Class 144: a season's folder save interrupted (Ctrl-C) between its two renames
    left the old folder hidden beside the output (``.season.*.old``) and none in its
    place, and one as the scratch was being made or removed left ``.season.*.part``.
    Here a ``KeyboardInterrupt`` comes before, or after, each step that touches the disk
    in turn (making the scratch, its mode, each file written, each rename and removal) —
    also those of the cleanup, where it is a second Ctrl-C: the output is the old folder
    byte for byte or the new one whole, and nothing else is beside it. The file writer
    (``write_atomic``) the same."""
    import pathlib

    out = tmp_path / "out"
    out.mkdir()
    season = out / "season"

    def snapshot() -> dict[str, bytes] | None:
        return ({str(p.relative_to(season)): p.read_bytes() for p in season.rglob("*")
                 if p.is_file()} if season.exists() else None)

    def pages(folder: Path) -> None:
        (folder / "events").mkdir()
        for name in ("a", "b"):
            step()
            (folder / "events" / f"{name}.html").write_text(f"new {name}")
        step()
        (folder / "index.html").write_text("new index")

    calls = {"n": 0, "at": 0}

    def step() -> None:
        calls["n"] += 1
        if calls["n"] == calls["at"]:
            raise KeyboardInterrupt

    def hooked(fn: object) -> object:
        def run(*args: object, **kwargs: object) -> object:
            if when == "before":
                step()
            got = fn(*args, **kwargs)  # type: ignore[operator]
            if when == "after":
                step()
            return got
        return run

    for name in ("replace", "rename", "mkdir"):
        monkeypatch.setattr(os, name, hooked(getattr(os, name)))
    monkeypatch.setattr(shutil, "rmtree", hooked(shutil.rmtree))
    monkeypatch.setattr(_files, "_new_file", hooked(_files._new_file))
    for name in ("chmod", "rmdir", "unlink"):
        monkeypatch.setattr(pathlib.Path, name, hooked(getattr(pathlib.Path, name)))
    new = {"events/a.html": b"new a", "events/b.html": b"new b", "index.html": b"new index"}
    interrupted, at = True, 0
    while interrupted:
        at += 1
        shutil.rmtree(out)
        out.mkdir()
        if existing:
            (season / "events").mkdir(parents=True)
            (season / "events" / "old.html").write_text("old page")
            (season / "index.html").write_text("old index")
        before = snapshot()
        calls.update(n=0, at=at)
        try:
            _files.write_folder_atomic(season, pages, owned=lambda _: True)
            interrupted = False
        except KeyboardInterrupt:
            pass
        assert snapshot() in (before, new), (at, when)
        assert [p.name for p in out.iterdir()] == (["season"] if season.exists() else []), at
    assert at > 6  # (every step was interrupted once)
    assert snapshot() == new
    # (the file writer: the old file or the new, and no scratch)
    target = out / "f.txt"
    interrupted, at = True, 0
    while interrupted:
        at += 1
        target.write_text("old")
        calls.update(n=0, at=at)
        try:
            _files.write_atomic(target, lambda tmp: (step(), tmp.write_text("new")))
            interrupted = False
        except KeyboardInterrupt:
            pass
        assert target.read_text() in ("old", "new"), at
        assert sorted(p.name for p in out.iterdir()) == ["f.txt", "season"], at
    assert target.read_text() == "new"


def test_an_atomic_write_that_fails_names_the_output_not_its_temporary_file(
        tmp_path: Path) -> None:
    """Bad data 179: an error of the temporary file an output is written through named that
    file (``/proc/.x.png.a1dee9e4.part: No such file or directory``), a name the user never
    gave; it is the same kind of error, naming the output."""
    if Path("/proc/self").is_dir():  # (a folder no file can be made in)
        with pytest.raises(FileNotFoundError) as made:
            _files.write_atomic("/proc/x.png", lambda tmp: tmp.write_text("x"))
        assert made.value.filename == "/proc/x.png"
    out = tmp_path / "x.png"

    def full_disk(tmp: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp))

    with pytest.raises(OSError, match="No space left") as written:
        _files.write_atomic(out, full_disk)
    assert written.value.errno == errno.ENOSPC
    assert written.value.filename == str(out)
    assert list(tmp_path.iterdir()) == []  # (and no temporary file left)

    def another_file(tmp: Path) -> None:  # (an error about another file keeps its name)
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", "font.ttf")

    with pytest.raises(FileNotFoundError) as other:
        _files.write_atomic(out, another_file)
    assert other.value.filename == "font.ttf"


def test_a_write_error_naming_no_file_or_wrapped_by_a_library_names_the_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad data 215: a full disk as an output was written named no file (``No space left on
    device (writing the output)``, the CLI's hint then "write elsewhere with -o" to a user
    who had given -o), Polars' Parquet writer said it as ``ComputeError: … (os error 28)``
    (an "internal … swissframe bug"), or as ``Invalid thrift: transport error`` quoting no
    error, and xlsxwriter as a ``FileCreateError`` traceback. Each is the operating system's
    error naming the output, and no temporary file is left; swissframe's own errors and an
    error about another file are kept."""
    out = tmp_path / "x.parquet"

    def nameless(tmp: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    def polars_quoting(tmp: Path) -> None:
        msg = "parquet: underlying IO error: No space left on device (os error 28)"
        raise pl.exceptions.ComputeError(msg)

    def wrapped(tmp: Path) -> None:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError as exc:
            raise RuntimeError("[Errno 28] No space left on device") from exc

    for write in (nameless, polars_quoting, wrapped):
        with pytest.raises(OSError, match="No space left") as said:
            _files.write_atomic(out, write)
        assert said.value.errno == errno.ENOSPC, write
        assert said.value.filename == str(out), write
        assert list(tmp_path.iterdir()) == [], write

    def quoting_nothing(tmp: Path) -> None:
        raise pl.exceptions.ComputeError("parquet: Invalid thrift: transport error")

    class Full:
        f_bavail = 0

    with monkeypatch.context() as m:  # (a full disk: no free block where it was written)
        m.setattr(os, "statvfs", lambda _: Full())
        with pytest.raises(OSError, match="No space left") as said:
            _files.write_atomic(out, quoting_nothing)
        assert said.value.filename == str(out)
    with pytest.raises(pl.exceptions.ComputeError):  # (a disk with room: the error itself)
        _files.write_atomic(out, quoting_nothing)

    def ours(tmp: Path) -> None:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError:
            raise DataError("a chart of nothing. Hint: x.") from None

    with pytest.raises(DataError):
        _files.write_atomic(out, ours)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("fmt", ["csv", "parquet", "xlsx"])
def test_an_output_on_a_full_device_is_one_line_naming_it(
        fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad data 215: ``-o /dev/full`` (a device, written in place) said a full disk without
    naming the output, or as an internal bug (Parquet)."""
    pytest.importorskip("xlsxwriter")
    code = main(["standings", str(FIXTURES / "trf" / "all_codes.trf"), "-o", "/dev/full",
                 "--format", fmt, "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == ("swissframe: error: /dev/full: No space left on device. Hint: check the "
                   "path.\n"), err


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_an_output_on_a_read_only_file_system_names_the_output(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad data 216: on a read-only file system the scratch could not be made, and its
    cleanup (removing a name never made) failed too — ``EROFS``, not "no such file" — and
    that error replaced the write's: ``ro/.c.png.6b9d6e28.part: Read-only file system`` (a
    chart, a report page, a season's folder). The error names the output."""

    def read_only(path: object, *args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system", os.fspath(path))  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", read_only)
    monkeypatch.setattr(os, "mkdir", read_only)
    monkeypatch.setattr(os, "unlink", read_only)
    monkeypatch.setattr(os, "rmdir", read_only)
    out = tmp_path / ("c.png" if kind == "file" else "season")
    def save() -> None:
        if kind == "file":
            _files.write_atomic(out, lambda tmp: tmp.write_text("x"))
        else:
            _files.write_folder_atomic(out, lambda tmp: None, owned=lambda _: True)

    with pytest.raises(OSError, match="Read-only") as said:
        save()
    assert said.value.errno == errno.EROFS
    assert said.value.filename == str(out)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
@pytest.mark.parametrize("mode", [0o600, 0o640, 0o444])
def test_an_output_written_over_a_file_keeps_its_permissions(
        mode: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad data 219: an output written over an existing file was a new file renamed over
    it, with a new file's permissions: a private ``chmod 600`` table became readable by
    every user (0644), a read-only one writable. The new file keeps the old one's, through
    the API's writer and the CLI's ``-o`` (a link written through keeps its file's); a new
    output gets a new file's."""
    out = tmp_path / "out.csv"
    out.write_text("old")
    out.chmod(mode)
    _files.write_text_atomic(out, "new")
    assert out.read_text() == "new"
    assert stat_mode(out) == mode
    out.chmod(mode)
    link = tmp_path / "link.csv"
    link.symlink_to(out.name)
    assert main(["standings", str(FIXTURES / "trf" / "all_codes.trf"), "-o", str(link),
                 "--quiet"]) == 0, capsys.readouterr().err
    assert out.read_text().startswith("event_id")
    assert stat_mode(out) == mode
    fresh = tmp_path / "fresh.csv"
    _files.write_text_atomic(fresh, "x")
    umask = os.umask(0)
    os.umask(umask)
    assert stat_mode(fresh) == 0o666 & ~umask


def stat_mode(path: Path) -> int:
    return path.stat().st_mode & 0o7777


@pytest.mark.parametrize("name", ["a" * 251 + ".csv", "é" * 125 + ".csv", "日" * 83 + ".csv"])
def test_an_output_named_up_to_the_longest_name_a_folder_takes_is_written(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad data 220: an output whose name the folder takes (241 to 255 bytes) was refused
    as "File name too long": it is written through a scratch named ``.NAME.<8 hex>.part``,
    15 bytes longer. The scratch holds as much of the name as fits; the output is written
    under its own name, by the API's writer and the CLI's ``-o``, nothing left beside it."""
    assert len(os.fsencode(name)) <= 255
    out = tmp_path / name
    _files.write_text_atomic(out, "x")
    assert out.read_text() == "x"
    out.unlink()
    assert main(["standings", str(FIXTURES / "trf" / "all_codes.trf"), "-o", str(out),
                 "--quiet"]) == 0, capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == [name]


@pytest.mark.parametrize("link", ["gone", "loop"])
def test_an_output_under_a_link_naming_no_folder_says_so(
        link: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad data 223: an output under a link to a folder that is gone (or a loop of links)
    was ``dl: File exists. Hint: check the path.`` — of a folder where nothing is. The
    error names the link and what it names, for the API's writer and the CLI's ``-o``."""
    dl = tmp_path / "dl"
    if link == "gone":
        dl.symlink_to(tmp_path / "nowhere")
    else:
        dl.symlink_to(tmp_path / "other")
        (tmp_path / "other").symlink_to(dl)
    with pytest.raises(FileNotFoundError, match=r"is a link to .*which names no folder"):
        _files.write_text_atomic(dl / "x.png", "x")
    assert main(["standings", str(FIXTURES / "trf" / "all_codes.trf"), "-o",
                 str(dl / "x.csv")]) == 2
    err = capsys.readouterr().err
    assert "is a link to" in err or "Too many levels of symbolic links" in err, err
    assert "File exists" not in err
    assert not (tmp_path / "nowhere").exists()


# ----------------------------------------------------------- path arguments (bad data 243)



@pytest.mark.parametrize("read", [sf.read, sf.read_results, sf.read_tom, sf.read_trf,
                                  sf.read_decklist_cache])
def test_a_stream_or_a_url_given_as_input_is_named(read: Any) -> None:
    """An open text file (or a StringIO) was iterated line by line and each line looked
    up as a path ("no such file … 'round,player_a,…'"); a URL was "no such file"."""
    import io

    with CSV.open() as f, pytest.raises(
            ImportFormatError, match=r"got an open file \('.*store-championship\.csv'\)\. "
                                     r"Hint: pass its path, e\.g\. f\.name\."):
        read(f)
    for buffer in (io.StringIO(CSV.read_text()), io.BytesIO(CSV.read_bytes())):
        with pytest.raises(ImportFormatError, match=r"got data in memory \((StringIO|BytesIO)"
                                                    r"\)\. Hint: write it to a file"):
            read(buffer)
    with pytest.raises(ImportFormatError, match=r"^cannot read a URL \('https://example\.org/"
                                                r"x\.csv'\): swissframe reads and writes local "
                                                r"files only\. Hint: download it first"):
        read(["https://example.org/x.csv"])
    with pytest.raises(ImportFormatError, match=r"Hint: the local path is '/data/x\.csv'"):
        read("file:///data/x.csv")


def test_a_path_whose_fspath_names_no_text_is_named() -> None:
    class Odd:
        def __fspath__(self) -> object:
            return 3

    with pytest.raises(ImportFormatError, match=r"got Odd whose path is none"):
        sf.read(Odd())  # type: ignore[arg-type]


def test_a_home_path_is_read_and_written_under_the_home(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``~`` was looked up as a folder named ``~`` ("no such file"), and an output written
    there made a folder ``~`` in the working folder."""
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    shutil.copy(CSV, home / "e.csv")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    res = sf.read("~/e.csv").results
    assert res.equals(sf.read(home / "e.csv").results)
    assert sf.read_results(["~/e.csv"]).equals(sf.read_results(home / "e.csv"))
    pytest.importorskip("altair")
    chart = sf.charts.chart_standings(sf.standings(res))
    assert sf.charts.save(chart, "~/c.json") == home / "c.json"
    assert (home / "c.json").exists()
    assert main(["standings", str(CSV), "-o", "~/s.csv", "--quiet"]) == 0
    assert (home / "s.csv").exists()
    assert list(work.iterdir()) == []


def test_an_output_that_is_no_local_path_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A URL was written as a local folder ``http:``; bytes, a buffer or an open file
    ended in pathlib's bare TypeError."""
    import io

    pytest.importorskip("altair")
    monkeypatch.chdir(tmp_path)
    res = sf.read_results(CSV)
    chart = sf.charts.chart_standings(sf.standings(res))
    report = sf.report(res, n_sims=2)
    for save, what in ((lambda p: sf.charts.save(chart, p), "save: the chart's file"),
                       (report.save, "save: the report's file"),
                       (lambda p: sf.recompute(CSV, p), "recompute: dest")):
        with pytest.raises(sf.DataError, match=f"^{what}: a URL \\('http://x/out'\\): "
                                               "swissframe reads and writes local files only"):
            save("http://x/out")
        with pytest.raises(sf.DataError, match=f"^{what} must be a path, got bytes"):
            save(b"out.html")
        with pytest.raises(sf.DataError, match=f"^{what} must be a path, got data in memory "
                                               r"\(BytesIO\)\. Hint: write to a file's path"):
            save(io.BytesIO())
    assert main(["standings", str(CSV), "-o", "s3://bucket/s.csv"]) == 2
    assert "-o: a URL ('s3://bucket/s.csv')" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("given", "says"), [
    ("csv", "a .csv file is format 'table'; "), (".TDF", "a .tdf file is format 'tom'; "),
    ("json.gz", "a .json.gz file is format 'decklist'; "), ("xlsx", ""), ("nope", "")])
def test_a_format_named_by_a_suffix_is_told_the_format_that_reads_it(
        given: str, says: str) -> None:
    """``sf.read(path, format="csv")`` was refused by the list of formats alone, not saying
    that a CSV is format ``table`` (seen by the twenty-ninth session's API pass): a suffix of
    the one table of usual suffixes (``io._files.SUFFIXES``) names its format."""
    with pytest.raises(sf.ImportFormatError,
                       match=rf"unknown input format '{re.escape(given)}'\. Hint: "
                             rf"{re.escape(says)}use one of auto, table, decklist, tom, trf\."):
        sf.read(REPO_ROOT / "data" / "events", format=given)
