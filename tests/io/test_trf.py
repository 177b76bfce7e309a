"""Tests for swissframe.io.trf: every TRF result code on hand-written files, malformed
lines, the stored real TRF files, and garbage input."""

from __future__ import annotations

import contextlib
import re
import warnings
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from swissframe.errors import ImportFormatError, SwissframeError
from swissframe.io.trf import TRF_RESULT_CODES, TrfEvents, parse_trf, read_trf
from swissframe.schema import UNPLAYED_KINDS, validate_results
from tests import helpers
from tests.helpers import SHARED_ROOT

FIXTURES = helpers.FIXTURES / "trf"
SHARED = SHARED_ROOT
REAL = SHARED / "data" / "realworld" / "chess-trf"
HELD = ("OttoMilvang_TieBreakServer", "tests", "fixtures")


def _real(*parts: str) -> Path:
    if not (SHARED / "data" / "realworld").is_dir():
        pytest.skip("../shared/data/realworld not found: real-data tests need the shared folder")
    return REAL.joinpath(*parts)


def line(no: int, name: str, pts: str, rank: str, blocks: list[str]) -> str:
    """A TRF-16 player line with the standard columns (blocks are 'OOOO C R')."""
    head = f"001 {no:>4} m    {name:<33} {'':>4} {'':<3} {'':>11} {'':<10} {pts:>4} {rank:>4}  "
    assert len(head) == 91
    return (head + "".join(f"{b:<10}" for b in blocks)).rstrip()


def two_players(b1: str, b2: str) -> str:
    return line(1, "A", "1.0", "1", [b1]) + "\n" + line(2, "B", "0.0", "2", [b2]) + "\n"


# --------------------------------------------------------------- code table


def test_code_table_covers_every_trf16_code() -> None:
    assert set(TRF_RESULT_CODES) == set("1=0WDL+-UFHZ ")
    assert {c.unplayed for c in TRF_RESULT_CODES.values()} - {None} == set(UNPLAYED_KINDS)


# --------------------------------------------------------------- all codes fixture


@pytest.fixture(scope="module")
def all_codes() -> TrfEvents:
    return read_trf(FIXTURES / "all_codes.trf")


def _get(ev: TrfEvents, rnd: int, pid: str) -> tuple[object, ...]:
    r = ev.results.filter((pl.col("round") == rnd) & (pl.col("player_id") == pid)).row(
        0, named=True)
    return tuple(r[k] for k in ("opponent_id", "games_won", "games_lost", "games_drawn",
                                "color", "unplayed", "scheduled_opponent_id", "trf_code"))


def test_every_result_code(all_codes: TrfEvents) -> None:
    ev = all_codes
    assert ev.results.height == 24
    validate_results(ev.results).collect()
    assert _get(ev, 1, "1") == ("2", 1, 0, 0, "w", None, "2", "1")
    assert _get(ev, 1, "2") == ("1", 0, 1, 0, "b", None, "1", "0")
    assert _get(ev, 1, "3") == ("4", 0, 0, 1, "w", None, "4", "=")
    assert _get(ev, 1, "5") == ("6", 1, 0, 0, "w", None, "6", "W")
    assert _get(ev, 1, "6") == ("5", 0, 1, 0, "b", None, "5", "L")
    assert _get(ev, 1, "7") == ("8", 0, 0, 1, "w", None, "8", "D")
    # forfeit: opponent kept, mirror holds the opposite forfeit
    assert _get(ev, 2, "1") == ("3", 1, 0, 0, "b", "forfeit_win", "3", "+")
    assert _get(ev, 2, "3") == ("1", 0, 1, 0, "w", "forfeit_loss", "1", "-")
    # double forfeit: no opponent, scheduled opponent kept
    assert _get(ev, 2, "2") == (None, 0, 1, 0, "w", "forfeit_loss", "4", "-")
    assert _get(ev, 2, "4") == (None, 0, 1, 0, "b", "forfeit_loss", "2", "-")
    # byes
    assert _get(ev, 2, "5") == (None, 1, 0, 0, None, "pairing_bye", None, "U")
    assert _get(ev, 2, "6") == (None, 1, 0, 0, None, "full_bye", None, "F")
    assert _get(ev, 2, "7") == (None, 0, 0, 1, None, "half_bye", None, "H")
    assert _get(ev, 2, "8") == (None, 0, 1, 0, None, "zero_bye", None, "Z")
    # not paired → absent; forfeit win without an opponent
    assert _get(ev, 3, "2") == (None, 0, 1, 0, None, "absent", None, None)
    assert _get(ev, 3, "4") == (None, 1, 0, 0, None, "forfeit_win", None, "+")
    assert _get(ev, 3, "8") == ("7", 1, 0, 0, "b", None, "7", "W")


def test_pending_round_is_not_a_result(all_codes: TrfEvents) -> None:
    assert all_codes.results["round"].max() == 3
    assert all_codes.pending.select("round", "player_id", "opponent_id", "color").rows() == [
        (4, "1", "2", "w"), (4, "2", "1", "b")]


def test_players_and_header(all_codes: TrfEvents) -> None:
    p = all_codes.players
    assert p["player_id"].to_list() == [str(i) for i in range(1, 9)]
    first = p.row(0, named=True)
    assert (first["name"], first["sex"], first["title"], first["rating"], first["federation"],
            first["fide_id"], first["birth_date"]) == (
        "Alpha, Ann", "f", "WFM", 2100, "NOR", "1000001", "1990/01/01")
    assert p["points"].to_list() == [2.0, 0.0, 1.5, 1.5, 3.0, 1.0, 1.0, 1.5]
    assert p["points"].to_list() == p["points_computed"].to_list()
    assert p["rank"].to_list() == [2, 8, 3, 4, 1, 6, 7, 5]
    h = all_codes.header.row(0, named=True)
    assert h["name"] == "Fixture Open"
    assert str(h["start_date"]) == "2026-03-01"
    assert (h["rounds_declared"], h["rounds_in_file"], h["rounds_completed"], h["players"]) == (
        4, 4, 3, 8)
    assert h["chief_arbiter"] == "Arbiter, Ann"
    assert all_codes.records["code"].to_list()[-1] == "XXR"


def test_latin1_and_cr_line_ends() -> None:
    ev = read_trf(FIXTURES / "latin1_cr.trf")
    assert ev.players["name"].to_list() == ["Müller, Jörg", "Ng, Åsa"]
    assert ev.results.height == 2


def test_many_files() -> None:
    ev = read_trf([FIXTURES / "all_codes.trf", FIXTURES / "latin1_cr.trf"])
    assert dict(ev.results.group_by("event_id").len().iter_rows()) == {
        "all_codes": 24, "latin1_cr": 2}
    assert ev.header.height == 2


@pytest.mark.parametrize("chunk_rows", [1, 40, None])
def test_files_read_together_are_each_file_read_alone_stacked(
        tmp_path: Path, chunk_rows: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """read_trf builds the frames of many files at once: the same tables as each file
    read alone, stacked in the given order — absent rounds (rounds completed differ by
    file), pending blocks, unknown records, records not applied, header notes, and files
    with the same start numbers."""
    # (files built into frames a chunk at a time: every file its own chunk, a few,
    # or all at once)
    if chunk_rows is not None:
        monkeypatch.setattr("swissframe.io._files.CHUNK_ROWS", chunk_rows)
    extra = tmp_path / "short.trf"
    extra.write_text("012 Short\nXXR 1\nZZZ odd\n299 2 1.0\n"
                     + line(1, "A", "1.0", "1", ["   2 w 1", "   3 b  "])
                     + "\n" + line(2, "B", "0.0", "2", ["   1 b 0"])
                     + "\n" + line(3, "C", "0.0", "3", ["", "   1 w  "]) + "\n",
                     encoding="utf-8")
    order = [extra, FIXTURES / "all_codes.trf", FIXTURES / "latin1_cr.trf"]
    keys = ["z", "x", "y"]  # (not in sorted order: the files' order is kept)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        together = read_trf(order, event_ids=keys)
        alone = [read_trf([f], event_ids=[k]) for f, k in zip(order, keys, strict=True)]
    assert together.pending.height
    assert together.unknown.height
    assert together.not_applied.height
    for name in ("results", "players", "header", "records", "pending", "unknown",
                 "not_applied"):
        assert_frame_equal(getattr(together, name),
                           pl.concat([getattr(a, name) for a in alone], how="vertical"))


@pytest.mark.parametrize("chunk_rows", [1, 40, None])
def test_the_first_damaged_file_in_the_given_order_is_the_one_named(
        tmp_path: Path, chunk_rows: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A damaged file is named as when each file was read and built in turn: the first
    one in the given order, whether its damage is found reading its lines or building
    the frames (two seats of a game with one colour, a record given twice)."""
    # (files built into frames a chunk at a time: every file its own chunk, a few,
    # or all at once)
    if chunk_rows is not None:
        monkeypatch.setattr("swissframe.io._files.CHUNK_ROWS", chunk_rows)
    colours = tmp_path / "colours.trf"
    colours.write_text(two_players("   2 w 1", "   1 w 0"), encoding="utf-8")
    twice = tmp_path / "twice.trf"
    twice.write_text("042 2024/01/01\n042 2025/01/01\n" + two_players("   2 w 1", "   1 b 0"),
                     encoding="utf-8")
    broken = tmp_path / "broken.trf"
    broken.write_text("012 no players\n", encoding="utf-8")
    mismatch = tmp_path / "mismatch.trf"
    mismatch.write_text(two_players("   2 w +", "   1 b 0"), encoding="utf-8")
    good = FIXTURES / "all_codes.trf"
    for paths, named in (([good, twice, colours], "twice.trf"),
                         ([good, colours, twice], "colours.trf"),
                         ([twice, broken], "twice.trf"), ([broken, twice], "broken.trf"),
                         ([twice, mismatch], "twice.trf"), ([mismatch, colours], "mismatch"),
                         ([good, colours, tmp_path / "missing.trf"], "colours.trf")):
        with pytest.raises(SwissframeError) as caught:
            read_trf(paths)
        assert named in str(caught.value), (paths, str(caught.value))


@pytest.mark.parametrize(("raw", "expected"), [
    ("2024-08-01", "2024-08-01"), ("2026/02/28", "2026-02-28"), ("28. 07. 2005", "2005-07-28"),
    ("1999.12.31", "1999-12-31"), ("sometime", None), ("2026/13/01", None),
    ("02/13/2026", "2026-02-13"), ("13/02/2026", "2026-02-13"), ("20240801", "2024-08-01"),
    ("2026-02-30", None), ("24/08/01", None), ("２０２４/08/01", None)])
def test_start_date_formats(raw: str, expected: str | None) -> None:
    ev = parse_trf(f"042 {raw}\n" + two_players("   2 w 1", "   1 b 0"))
    got = ev.header["start_date"][0]
    assert (str(got) if got is not None else None) == expected


@pytest.mark.parametrize(("raw", "era", "note"), [
    ("2026-02-30", "fide-2026", r"'2026-02-30' is not a date .*ranked by fide-2026, the rules "
                                r"in force today"),
    ("2024-13-45", "fide-2026", r"'2024-13-45' is not a date"),
    ("01/07/2023", "fide", r"'01/07/2023' is 2023-07-01 read day first and 2023-01-07 read "
                           r"month first, dates of different FIDE rules: read day first "
                           r"\(fide, not fide-2009\)"),
    ("02/13/2026", "fide", None), ("03/04/2025", "fide", None), ("", "fide-2026", None)])
def test_an_unreadable_or_ambiguous_start_date_is_a_note_naming_the_era(
        tmp_path: Path, raw: str, era: str, note: str | None) -> None:
    """An unreadable 042 date silently chose today's FIDE rules, and 02/13/2026 (13 Feb,
    month first) was no date at all: now a day above 12 says which number is the day, and
    a date present but unreadable, or read day first where month first is another FIDE
    era, is an import note (a warning, and a validate note) naming the 042 text, the era
    chosen and the presets to pass."""
    import swissframe as sf
    from swissframe.cli import main

    path = tmp_path / "dated.trf"
    path.write_text(f"042 {raw}\n" + two_players("   2 w 1", "   1 b 0"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        src = sf.read(path)
    assert src.events["ruleset"].to_list() == [era]
    texts = [str(w.message) for w in caught]
    notes = src.notes.filter(pl.col("kind") == "start_date")["detail"].to_list()
    if note is None:
        assert notes == []
        assert not any("042" in t for t in texts)
        return
    assert len(notes) == 1
    assert re.search(note, notes[0])
    assert notes[0].endswith("Hint: write it as YYYY/MM/DD in the file, or pass --rules "
                             "fide-2009 (started before 1 Jul 2023), fide (to 28 Feb 2026) or "
                             "fide-2026 (rules= in Python) if that is not the event's era.")
    # said once, by read's import-notes warning (the TRF reader's own warning of it was a
    # second line for the same note)
    assert [t for t in texts if "042" in t] == [t for t in texts if t.startswith(
        f"1 import note (start_date ×1), e.g. {path}, event 'dated': 042 start date")]
    assert len([t for t in texts if "042" in t]) == 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sf.read_trf(path)
    assert [str(w.message) for w in caught] == [f"{path}: {notes[0]}"]
    assert main(["validate", str(path)]) == 0  # (a warning: the ranking is computable)


def test_start_date_notes_of_many_files_are_one_warning(tmp_path: Path) -> None:
    """read_trf warned once per file with a start-date note: a folder of 10,000 such
    files printed 10,000 lines. One warning now counts them and quotes the first."""
    for i in range(4):
        (tmp_path / f"t{i}.trf").write_text("042 sometime in 2024\n"
                                           + two_players("   2 w 1", "   1 b 0"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ev = read_trf(sorted(tmp_path.glob("*.trf")))
    texts = [str(w.message) for w in caught]
    assert len(texts) == 1
    assert texts[0].startswith("4 files have a start-date note (TrfEvents.header's "
                               f"start_date_note); the first, {tmp_path / 't0.trf'}: 042 "
                               "start date 'sometime in 2024' is not a date")
    assert ev.header["start_date_note"].null_count() == 0


@pytest.mark.parametrize(("char", "named"), [("\x00", "a NUL byte"),
                                             ("\x01", r"a control character \(U\+0001\)")])
def test_a_control_character_in_a_player_line_is_named_not_called_misaligned(
        char: str, named: str) -> None:
    """A NUL byte in a name shifted the fields after it and was reported as "points
    (columns 81-84) are '1.' … misaligned"."""
    text = two_players("   2 w 1", "   1 b 0").replace("A ", f"A{char} ", 1)  # (one more)
    with pytest.raises(ImportFormatError, match=rf"club, line 1: {named} at column 16 of a "
                                                r"player line \(001\).*misaligned\. Hint: the "
                                                r"file is damaged there"):
        parse_trf(text, source="club")
    # (in place of a character, the line stays aligned and is read: class 21)
    kept = two_players("   2 w 1", "   1 b 0").replace("A ", f"A{char}", 1)
    assert parse_trf(kept).results.height == 2


# --------------------------------------------------------------- malformed input


@pytest.mark.parametrize(("b1", "b2", "pattern"), [
    ("   2 w X", "   1 b 0", "unknown result code 'X'"),
    ("   2 r 1", "   1 b 0", "unknown colour 'r'"),
    ("  2 w 1 ", "   1 b 0", "malformed round block"),
    ("   0 - 1", "   1 b 0", "without an opponent"),
    ("   2 - H", "", "Hint: a bye's opponent is 0000"),
    ("  x2 w 1", "   1 b 0", "opponent number"),
    ("   2 w 1", "   1 b 1", "mirror_mismatch"),
    ("   2 w 1", "", "missing_mirror"),
    ("   9 w 1", "", "unknown_opponent"),
    ("   2 w 1", "   1 w 0", "both have colour 'w'"),
    ("   2 w +", "   1 b +", "mirror_mismatch"),
    ("   1 w 1", "", "themself"),
    # one seat a forfeit, the other a game played (class 105): accepted without a word
    ("   2 w +", "   1 b 0", r"forfeit_mismatch.*'1' vs '2': 1 reports a forfeit_win, 2 "
                            r"reports a game played"),
    ("   2 w 1", "   1 b -", r"forfeit_mismatch.*2 reports a forfeit_loss, 1 reports a game"),
    ("   2 w =", "   1 b =", None),
    ("   2 w +", "   1 b -", None),
])
def test_malformed_blocks(b1: str, b2: str, pattern: str | None) -> None:
    if pattern is None:  # (the well-formed pairs beside them)
        assert parse_trf(two_players(b1, b2), source="ok.trf").results.height == 2
        return
    with pytest.raises(ImportFormatError, match=pattern) as exc:
        parse_trf(two_players(b1, b2), source="bad.trf")
    msg = str(exc.value)
    assert "bad.trf" in msg
    assert "Hint:" in msg


def test_malformed_lines_name_line_and_player() -> None:
    good = two_players("   2 w 1", "   1 b 0")
    with pytest.raises(ImportFormatError, match=r"line 2, player 2, round 1"):
        parse_trf(good.replace("   1 b 0", "   1 b ?"), source="f.trf")
    with pytest.raises(ImportFormatError, match="start number"):
        parse_trf("001 abcd m    X\n", source="f.trf")
    with pytest.raises(ImportFormatError, match="points"):
        parse_trf(line(1, "A", "1,5", "1", []) + "\n", source="f.trf")
    with pytest.raises(ImportFormatError, match="rank"):
        parse_trf(line(1, "A", "1.0", "1st", []) + "\n", source="f.trf")
    with pytest.raises(ImportFormatError, match=r"number\(s\) \['1'\] appear on more than one 001"):
        parse_trf(good + line(1, "A again", "0.0", "3", []) + "\n", source="f.trf")
    with pytest.raises(ImportFormatError, match="no player lines"):
        parse_trf("012 Only a header\n", source="f.trf")
    # (class 141: an XXR that is no number of rounds is read as none declared, a note)
    assert parse_trf("XXR nine\n" + good, source="f.trf").header[
        "rounds_note"].to_list() == ["XXR 'nine' is not a number of rounds (a whole number ≥ "
                                     "1): read as not declared"]
    misaligned = good.replace("001    1 m    A", "001    1 m     A", 1)
    with pytest.raises(ImportFormatError, match="misaligned"):
        parse_trf(misaligned, source="f.trf")


def test_truncated_file(tmp_path: Path) -> None:
    data = (FIXTURES / "all_codes.trf").read_bytes()
    head = data[: data.index(b"001    1")]
    f = tmp_path / "cut.trf"
    f.write_bytes(head)
    with pytest.raises(ImportFormatError, match="truncated"):
        read_trf(f)
    # cut inside the round blocks: one-sided pairings are reported
    f.write_bytes(data[: len(data) - 60])
    with pytest.raises(ImportFormatError, match="missing_mirror"):
        read_trf(f)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600))
def test_garbage_bytes_only_raise_swissframe_errors(data: bytes) -> None:
    with contextlib.suppress(SwissframeError):
        parse_trf(data)


_BLOCK = st.builds(lambda o, c, r: f"{o:>4} {c} {r}  ",
                   st.sampled_from(["0", "1", "2", "3", "0000", "", "12"]),
                   st.sampled_from(["w", "b", "-", " ", "x"]),
                   st.sampled_from([*TRF_RESULT_CODES, "?"]))
_LINE = st.builds(lambda no, blocks: line(no, "P", "1.0", "1", []).ljust(91) + "".join(blocks),
                  st.integers(0, 4), st.lists(_BLOCK, max_size=4))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINE, max_size=5))
def test_trf_shaped_garbage_only_raises_swissframe_errors(lines: list[str]) -> None:
    try:
        ev = parse_trf("\n".join(lines))
    except SwissframeError:
        return
    validate_results(ev.results).collect()
    assert set(ev.results["unplayed"].drop_nulls()) <= set(UNPLAYED_KINDS)


# --------------------------------------------------------------- stored real files


@pytest.mark.realworld
def test_real_files_counts() -> None:
    files = [_real(*HELD, "held_swiss_5.trf"), _real(*HELD, "held_swiss_9.trf"),
             _real(*HELD, "held_round_robin.trf"),
             _real(*HELD, "swiss_with_many_unplayed_rounds.RETYPED.trf"),
             _real("sklangen_TRF", "tests", "example1.trf"),
             _real("BieremaBoyzProgramming_bbpPairings", "test", "tests", "dutch_2025_C5.input"),
             _real("BieremaBoyzProgramming_bbpPairings", "test", "tests", "dutch_2025_C9.input")]
    ev = read_trf(files)
    validate_results(ev.results).collect()
    rows = dict(ev.results.group_by("event_id").len().iter_rows())
    assert rows == {"held_swiss_5": 80, "held_swiss_9": 144, "held_round_robin": 30,
                    "swiss_with_many_unplayed_rounds.RETYPED": 105, "example1": 1988,
                    "dutch_2025_C5": 13, "dutch_2025_C9": 5}
    players = dict(ev.header.select("event_id", "players").iter_rows())
    assert players == {"held_swiss_5": 16, "held_swiss_9": 16, "held_round_robin": 6,
                       "swiss_with_many_unplayed_rounds.RETYPED": 15, "example1": 284,
                       "dutch_2025_C5": 6, "dutch_2025_C9": 5}
    # every declared score reconciles with the imported rows
    diff = ev.players.filter((pl.col("points") - pl.col("points_computed")).abs() > 1e-9)
    assert diff.height == 0
    kinds = (ev.results.filter(pl.col("unplayed").is_not_null())
             .group_by("event_id", "unplayed").len().sort("event_id", "unplayed").rows())
    assert kinds == [
        ("dutch_2025_C5", "zero_bye", 1), ("dutch_2025_C9", "zero_bye", 1),
        ("example1", "absent", 26), ("example1", "forfeit_loss", 11),
        ("example1", "forfeit_win", 11),
        ("held_round_robin", "forfeit_loss", 1), ("held_round_robin", "forfeit_win", 1),
        ("held_swiss_5", "forfeit_loss", 2), ("held_swiss_5", "forfeit_win", 2),
        ("held_swiss_5", "half_bye", 2), ("held_swiss_5", "pairing_bye", 3),
        ("held_swiss_5", "zero_bye", 3),
        ("held_swiss_9", "forfeit_loss", 2), ("held_swiss_9", "forfeit_win", 2),
        ("held_swiss_9", "half_bye", 2), ("held_swiss_9", "pairing_bye", 3),
        ("held_swiss_9", "zero_bye", 3),
        ("swiss_with_many_unplayed_rounds.RETYPED", "forfeit_loss", 10),
        ("swiss_with_many_unplayed_rounds.RETYPED", "forfeit_win", 6),
        ("swiss_with_many_unplayed_rounds.RETYPED", "full_bye", 2),
        ("swiss_with_many_unplayed_rounds.RETYPED", "half_bye", 6),
        ("swiss_with_many_unplayed_rounds.RETYPED", "pairing_bye", 4),
        ("swiss_with_many_unplayed_rounds.RETYPED", "zero_bye", 5)]
    hdr = {r["event_id"]: r for r in ev.header.iter_rows(named=True)}
    assert str(hdr["swiss_with_many_unplayed_rounds.RETYPED"]["start_date"]) == "2026-02-28"
    assert str(hdr["example1"]["start_date"]) == "2005-07-28"
    assert str(hdr["held_swiss_5"]["start_date"]) == "2024-08-01"
    assert (hdr["dutch_2025_C5"]["rounds_declared"], hdr["dutch_2025_C5"]["rounds_completed"]) \
        == (3, 2)
    assert hdr["held_swiss_9"]["rounds_declared"] == 9


@pytest.mark.realworld
def test_real_held_swiss_5_matches_the_fide_cross_table() -> None:
    """The TEC exercise cross-table in rules.md CH-F1, row by row for a few players."""
    ev = read_trf(_real(*HELD, "held_swiss_5.trf"))

    def row(pid: str) -> list[tuple[object, ...]]:
        return ev.results.filter(pl.col("player_id") == pid).sort("round").select(
            "opponent_id", "color", "trf_code").rows()

    assert row("4") == [("12", "b", "1"), (None, None, "H"), ("13", "w", "1"),
                        ("3", "w", "="), ("1", "b", "=")]
    assert row("9") == [("1", "b", "0"), ("10", "w", "0"), (None, None, "H"),
                        ("11", "b", "-"), (None, None, "U")]
    assert row("12") == [("4", "w", "0"), (None, None, "U"), ("14", "w", "+"),
                         (None, None, "Z"), (None, None, "Z")]
    scores = dict(ev.players.select("player_id", "points").iter_rows())
    assert scores == {"1": 3.5, "2": 4.0, "3": 3.5, "4": 3.5, "5": 2.5, "6": 3.0, "7": 1.5,
                      "8": 2.5, "9": 1.5, "10": 1.0, "11": 2.5, "12": 2.0, "13": 1.5,
                      "14": 2.0, "15": 2.0, "16": 3.5}


@pytest.mark.realworld
def test_real_double_forfeits_keep_the_scheduled_opponent() -> None:
    ev = read_trf(_real(*HELD, "swiss_with_many_unplayed_rounds.RETYPED.trf"))
    dbl = ev.results.filter(pl.col("opponent_id").is_null()
                            & pl.col("scheduled_opponent_id").is_not_null())
    assert dbl.select("round", "player_id", "scheduled_opponent_id").sort(
        "round", "player_id").rows() == [(1, "11", "4"), (1, "4", "11"), (2, "13", "4"),
                                         (2, "4", "13")]


@pytest.mark.parametrize("odd", ["\x85", "\x0c", "\x1c", "\u2028"])
def test_a_name_with_a_line_separator_keeps_its_line(tmp_path: Path, odd: str) -> None:
    """Lines end at \\n, \\r\\n or \\r only: a cp1252 "…" decodes (as Latin-1) to U+0085,
    which str.splitlines took for a line end, so the rest of the player's line (their
    rounds) was dropped without a word."""
    def line(no: int, name: str, pts: str, rank: int, blocks: list[str]) -> str:
        return f"001 {no:>4}      {name}".ljust(80) + f"{pts:>4} {rank:>4}  " + "".join(blocks)

    def blk(opp: int, col: str, res: str) -> str:
        return f"{opp:>4} {col} {res}  "

    def trf(name: str) -> bytes:
        rows = ["012 Test",
                line(1, "Alpha", "2.0", 1, [blk(2, "w", "1"), blk(2, "b", "1")]),
                line(2, "Bravo", "0.0", 3, [blk(1, "b", "0"), blk(1, "w", "0")]),
                line(3, name, "2.0", 2, [blk(0, "-", "U"), blk(0, "-", "U")])]
        text = "\n".join(rows) + "\n"
        return text.encode("latin-1" if odd != "\u2028" else "utf-8")

    for folder, name in (("odd", f"Charl{odd}e"), ("plain", "Charlie")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "event.trf").write_bytes(trf(name))
    odd_ev, plain = (read_trf(tmp_path / f / "event.trf") for f in ("odd", "plain"))
    assert odd_ev.unknown.height == 0
    assert odd_ev.results.drop("source", strict=False).equals(
        plain.results.drop("source", strict=False))
    # (a byte a Windows-1252 file means as a letter is read as that letter: 0x85 is "…")
    shown = odd.encode("latin-1").decode("cp1252") if odd != "\u2028" else odd
    assert odd_ev.players.filter(pl.col("player_id") == "3")["name"].item() == f"Charl{shown}e"


def test_a_number_past_int64_is_named_not_a_polars_error(tmp_path: Path) -> None:
    """XXR (the number of rounds) of 23 digits: a Polars append error leaked; now the
    record and the file are named (class 141: a note, the number read as not declared)."""
    player = "001    1      Alpha".ljust(80) + " 1.0    1     0 - U  "
    path = tmp_path / "x.trf"
    path.write_text(f"012 Test\nXXR 99999999999999999999999\n{player}\n")
    with pytest.warns(UserWarning, match=r"x\.trf: XXR '9+' is too large a number of "
                      r"rounds for any tournament: read as not declared\. Hint"):
        assert read_trf(path).header["rounds_declared"].to_list() == [None]


def test_games_past_the_declared_rounds_are_a_note(tmp_path: Path) -> None:
    """``XXR 2`` on a file with games in round 4 was read without a word; it is now an
    import note naming both numbers (fewer rounds than declared is an event in progress,
    and says nothing)."""
    import warnings

    import swissframe as sf
    from swissframe.errors import ImportNotesWarning

    text = (FIXTURES / "all_codes.trf").read_text()
    fewer = tmp_path / "fewer.trf"
    fewer.write_text(text.replace("XXR 4", "XXR 2"))
    with pytest.warns(ImportNotesWarning, match=r"rounds_declared ×1"):
        src = sf.read(fewer)
    assert src.notes.filter(pl.col("kind") == "rounds_declared")["detail"].to_list() == [
        "XXR declares 2 rounds but the player lines hold round 4: the results are read "
        "as they are"]
    more = tmp_path / "more.trf"
    more.write_text(text.replace("XXR 4", "XXR 9"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        src = sf.read(more)
    assert "rounds_declared" not in src.notes["kind"].to_list()
    assert not any("XXR" in str(w.message) for w in caught)


@pytest.mark.parametrize("value", ["0", "00", "-1", "+3", "1.5", "abc", "99999999999999999999"])
@pytest.mark.parametrize("played", [True, False])
def test_a_declared_round_count_that_is_no_number_is_a_note(tmp_path: Path, value: str,
                                                             played: bool) -> None:
    """Class 141: ``XXR 0`` was read as "0 rounds declared" without a word, and ``XXR -1``
    or ``XXR abc`` refused the whole file as misaligned (no column of it is). A number of
    rounds is a whole number ≥ 1: anything else is read as none declared, with a note
    naming the file and the record, from ``read_trf`` (a warning) and ``sf.read`` (an
    import note), as a number below the rounds played already was (class 49); on a file
    with no round played as on one with rounds."""
    import swissframe as sf
    from swissframe.errors import ImportNotesWarning

    text = (FIXTURES / "all_codes.trf").read_text()
    assert "XXR 4" in text
    if not played:  # (the player lines without their round blocks)
        text = "\n".join(line[:89] if line.startswith("001") else line
                         for line in text.splitlines()) + "\n"
    path = tmp_path / "odd.trf"
    path.write_text(text.replace("XXR 4", f"XXR {value}"))
    said = (rf"XXR '{re.escape(value[:20])}' is "
            + ("too large a number of rounds for any tournament: " if value.isdigit()
               and int(value) else r"not a number of rounds \(a whole number ≥ 1\): "))
    with pytest.warns(UserWarning, match=rf"odd\.trf: {said}read as not declared\. Hint: "):
        ev = read_trf(path)
    assert ev.header["rounds_declared"].to_list() == [None]
    with pytest.warns(ImportNotesWarning, match=r"rounds_declared ×1"):
        src = sf.read(path)
    notes = src.notes.filter(pl.col("kind") == "rounds_declared")
    assert notes.select("file", "event_id").rows() == [(str(path), "odd")]
    assert re.fullmatch(f"{said}read as not declared", notes["detail"][0])


def test_fewer_declared_rounds_than_played_warn_from_read_trf(tmp_path: Path) -> None:
    """Class 141: the note of class 49 (``XXR 2`` on a file with games in round 4) was
    ``sf.read``'s only: ``read_trf`` read it without a word."""
    path = tmp_path / "fewer.trf"
    path.write_text((FIXTURES / "all_codes.trf").read_text().replace("XXR 4", "XXR 2"))
    with pytest.warns(UserWarning, match=r"fewer\.trf: XXR declares 2 rounds but the "
                      r"player lines hold round 4: .*Hint: "):
        ev = read_trf(path)
    assert ev.header["rounds_declared"].to_list() == [2]


# --------------------------------------------------------------- TRF-2026 (FIDE handbook TRF26)


def _club(colours: tuple[str, str] = ("w", "b"), bye: str = "U", half: str = "H") -> str:
    """4 players, 2 rounds: 1 beats 2, 3 draws 4; then 1 draws 3, 2 a bye, 4 a half bye."""
    w, b = colours
    return (line(1, "A", "1.5", "1", [f"   2 {w} 1", f"   3 {b} ="]) + "\n"
            + line(2, "B", "1.0", "2", [f"   1 {b} 0", f"0000 - {bye}"]) + "\n"
            + line(3, "C", "1.0", "3", [f"   4 {w} =", f"   1 {w} ="]) + "\n"
            + line(4, "D", "1.0", "4", [f"   3 {b} =", f"0000 - {half}"]) + "\n")


def test_trf2026_letter_codes_are_case_insensitive() -> None:
    """TRF26: "Letter codes are case-insensitive": 'W'/'B' colours and 'u'/'h' byes were
    refused as an unknown colour or result code."""
    plain = parse_trf(_club(), event_key="club")
    upper = parse_trf(_club(("W", "B"), bye="u", half="h"), event_key="club")
    assert upper.results.equals(plain.results)
    assert upper.results.select("round", "player_id", "color", "unplayed", "trf_code").filter(
        pl.col("round") == 2).rows() == [
        (2, "1", "b", None, "="), (2, "2", None, "pairing_bye", "U"),
        (2, "3", "w", None, "="), (2, "4", None, "half_bye", "H")]


def test_trf2026_records_are_known_and_142_declares_the_rounds() -> None:
    """The records TRF26 adds (142 … 802), its National Rating Support records (a
    federation code laid out as a player line's static part) and ``###`` comments were
    each reported as an unknown record that might hide a player line."""
    nrs = "GER    1 m    Anna, National".ljust(48) + "1850 BAY"
    text = ("012 Club\n### a comment line\n142 2\n152 W\n162 W 1.0 D 0.5 L 0.0\n"
            "172 GER FIDON\n182 Swiss-Manager\n192 FIDE_DUTCH\n202 BH:C1,BH,SB\n"
            "212 PTS,BH:C1\n222 5400+30\n250 00.0 01.0 001 001 0001 0002\n"
            "260 001 002    1    4\n240 H 002  004\n" + _club() + nrs + "\n")
    ev = parse_trf(text, event_key="club")
    assert ev.unknown.height == 0
    assert ev.not_applied.height == 0  # 162 gives the defaults; 240 agrees with the blocks
    assert ev.header.select("rounds_declared", "rounds_completed").row(0) == (2, 2)
    assert ev.results.equals(parse_trf(_club(), event_key="club").results)


def test_trf2026_records_that_change_scores_are_reported_not_applied(tmp_path: Path) -> None:
    """162 (another scoring system), 299 (abnormal points) and a 240 bye that the round
    blocks do not show would change the scores; they were ignored as unknown records.
    They are listed and said, and the results are the round blocks'."""
    import swissframe as sf
    from swissframe.errors import ImportNotesWarning

    text = ("012 Club\n162 W 3.0 D 1.0 L 0.0\n299 H         0.5    2    2\n"
            "240 F 002  004\n" + _club())
    ev = parse_trf(text, event_key="club")
    assert ev.not_applied.select("line", "code", "detail").rows() == [
        (2, "162", "record 162 declares a scoring system (W 3, D 1) other than 1 / ½ / 0: "
                   "the standings score 1 / ½ / 0"),
        (3, "299", "record 299 (abnormal points) is not applied: the standings count the "
                   "round blocks only"),
        (4, "240", "record 240 gives a F bye in round 2 to 4, whose round block does not "
                   "show it: the standings count the round blocks only")]
    assert ev.results.equals(parse_trf(_club(), event_key="club").results)
    path = tmp_path / "club.trf"
    path.write_text(text)
    with pytest.warns(ImportNotesWarning, match=r"not_applied ×3"):
        src = sf.read(path)
    assert src.notes.filter(pl.col("kind") == "not_applied")["detail"].to_list()[0] == (
        "line 2: record 162 declares a scoring system (W 3, D 1) other than 1 / ½ / 0: "
        "the standings score 1 / ½ / 0")
    with pytest.warns(UserWarning, match=r"3 records that would change the scores are"):
        read_trf(path)


@pytest.mark.parametrize(("encoding", "name", "read"), [
    ("cp1252", "Šimková, Žofie – Œuvre", "Šimková, Žofie – Œuvre"),
    ("utf-8", "Šťastný, Žofie", "Šťastný, Žofie"),
    ("latin-1", "Müller \x81", "Müller \x81"),  # 0x81: undefined in cp1252
])
def test_names_are_read_as_windows_1252_when_not_utf8(encoding: str, name: str,
                                                       read: str) -> None:
    """Swiss-Manager and Vega (Windows programs) write names in Windows-1252: read as
    Latin-1, "Š", "Ž", "Œ", "–" became control characters U+0080…U+009F."""
    trf = ("012 Club\n" + line(1, name, "1.0", "1", ["   2 w 1"]) + "\n"
           + line(2, "B", "0.0", "2", ["   1 b 0"]) + "\n").encode(encoding)
    ev = parse_trf(trf, event_key="club")
    assert ev.players["name"].to_list() == [read, "B"]


def test_points_are_read_in_ascii_digits() -> None:
    """Class 79: the points field's pattern (``\\d``) took other scripts' digits ("٤.٠")
    for a number, which float() then read as 4.0."""
    text = _club()
    assert parse_trf(text, event_key="club").players.height == 4
    with pytest.raises(ImportFormatError, match=r"points \(columns 81-84\) are '١\.٥', not a "
                       r"number"):
        parse_trf(text.replace(" 1.5", " ١.٥", 1), event_key="club")


_READ_RECORDS = ["012", "022", "032", "042", "052", "062", "072", "092", "102", "XXR"]


@settings(max_examples=40, deadline=None)
@given(code=st.sampled_from(_READ_RECORDS), other=st.sampled_from(["2015/03/01", "9", "Other"]),
       before=st.booleans())
def test_a_header_record_given_twice_differently_is_refused(
        code: str, other: str, before: bool) -> None:
    """Bad data 132: a second 042 start date (which chooses the FIDE era, so the
    ruleset), XXR or 012 … was left unread without a word, the first line read. Given
    twice with different values it is refused naming both lines; the same value twice
    is one value, read as the file alone."""
    text = (FIXTURES / "all_codes.trf").read_text()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(code + " "))
    same = [*lines[:at + 1], lines[at], *lines[at + 1:]]
    assert parse_trf("\n".join(same)).header.equals(parse_trf(text).header)
    if lines[at][4:].strip() == other:
        return
    extra = f"{code} {other}"
    twice = ([*lines[:at], extra, *lines[at:]]) if before else (
        [*lines[:at + 1], extra, *lines[at + 1:]])
    with pytest.raises(ImportFormatError, match=rf"the {code} record \(.*\) is given twice, "
                       r"differently: line \d+ '.*', line \d+ '.*'; only the first would be "
                       r"read\. Hint: "):
        parse_trf("\n".join(twice))


def test_the_number_of_rounds_is_one_value_in_xxr_or_142() -> None:
    text = (FIXTURES / "all_codes.trf").read_text().replace("XXR 4", "XXR 4\n142 7", 1)
    with pytest.raises(ImportFormatError, match=r"the 142 record \(number of rounds\) is "
                       r"given twice, differently: line 10 '4', line 11 '7'"):
        parse_trf(text)


def _in_bytes(text: str) -> bytes:
    """``text`` as a program counting UTF-8 bytes writes it: each player line's name field
    padded, or cut, to 33 bytes (C's ``%-33.33s``)."""
    out = []
    for ln in text.split("\n"):
        name = ln[14:47].rstrip().encode("utf-8")[:33]
        out.append(ln[:14].encode() + name.ljust(33) + ln[47:].encode("utf-8")
                   if ln.startswith("001") else ln.encode("utf-8"))
    return b"\n".join(out)


#: Letters of names in scripts of one, two and three UTF-8 bytes.
_LETTERS = st.sampled_from([*"Abz ,-", *"éüøŁŠçÑ", *"ДмитрийЁ", *"山田太郎김민준", "e\u0301"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_LETTERS, min_size=1, max_size=14).map("".join).filter(
    lambda s: s.strip() == s and len(s) <= 33 and not s.isascii()))
def test_names_laid_out_in_utf8_bytes_are_refused_by_name(name: str) -> None:
    """A TRF written by a program counting bytes pads each name to 33 bytes of UTF-8: the
    fields after a name of accented, Cyrillic or CJK letters started a column early for
    each extra byte, and the error said ``points (columns 81-84) are '.0'`` (bad data 157).
    The error names the name and the cause; the same file laid out in characters reads."""
    text = ("012 Club\n" + line(1, name, "1.0", "1", ["   2 w 1"]) + "\n"
            + line(2, "B", "0.0", "2", ["   1 b 0"]) + "\n")
    assert parse_trf(text.encode("utf-8"), event_key="club").players["name"][0] == name
    data = _in_bytes(text)
    if len(name.encode("utf-8")) > 33:  # (cut inside or between characters)
        with pytest.raises(ImportFormatError, match=r"line 2: .*(cut inside a character|"
                           r"padded to 33 bytes of UTF-8)"):
            parse_trf(data, event_key="club")
        return
    with pytest.raises(ImportFormatError, match=(
            rf"club, line 2: the name {re.escape(repr(name))} is padded to 33 bytes of UTF-8, "
            rf"not 33 characters, so each field after it starts "
            rf"{len(name.encode()) - len(name)} columns? early .* Hint: TRF-16 counts")):
        parse_trf(data, event_key="club")


def test_a_name_cut_inside_a_character_is_not_read_as_windows_1252() -> None:
    """Cut to 33 bytes, a long Cyrillic name ended inside a character: the file was no
    UTF-8, so it was read as Windows-1252 and every name came out garbled (``MÃ¼ller``,
    ``Ð¨Ð¾Ñ…``) without a word (bad data 157). A Windows-1252 file still reads."""
    text = ("012 Club\n" + line(1, "Müller, Jörg", "1.0", "1", ["   2 w 1"]) + "\n"
            + line(2, "Шостакович, Дмитрий", "0.0", "2", ["   1 b 0"]) + "\n")
    data = _in_bytes(text)
    with pytest.raises(ImportFormatError, match=(
            r"club, line 3: the file is UTF-8 but for a name cut inside a character at "
            r"column 47 \('Шостакович, Дмитр'…\).*Hint: TRF-16 counts characters")):
        parse_trf(data, event_key="club")
    latin = text.replace("Шостакович, Дмитрий", "Šostakovič, Dmitrij").replace("č", "c")
    assert parse_trf(latin.encode("cp1252"), event_key="club").players["name"].to_list() == [
        "Müller, Jörg", "Šostakovic, Dmitrij"]


# ------------------------------------------- class 191: a tab in a fixed-column player line


def test_a_tab_in_a_player_line_is_refused_outside_its_name() -> None:
    """Class 191: an editor that wrote a run of blanks of a player line as a tab shifted
    every field after it a few columns left; the line still read (shorter than column
    92, so without round blocks) and the player's rounds were lost without a word: a
    ``0000 - U`` bye (a point) read as an absence (found on a real file, bbpPairings'
    ``dutch_2025_C9.input``, its runs of four blanks written as tabs). A tab outside the
    name is refused naming the line and column; a tab inside the name is one of its
    characters."""
    rows = [line(1, "A", "1.0", "1", ["   2 w 1"]), line(2, "B", "0.0", "2", ["   1 b 0"]),
            line(3, "C", "1.0", "1", ["0000 - U"]).replace(" m    ", "      ")]
    whole = parse_trf("\n".join(rows) + "\n", event_key="e").results
    bye = whole.filter(pl.col("player_id") == "3")
    assert bye["unplayed"].to_list() == ["pairing_bye"]
    tabbed = rows[2].replace("    ", "\t")
    with pytest.raises(ImportFormatError, match=r"^club\.trf, line 3: a tab at column 4 of a "
                       r"player line \(001\), in '001\\t3\\t  C\\t.*': TRF-16 is fixed-column"):
        parse_trf("\n".join([*rows[:2], tabbed]) + "\n", event_key="e", source="club.trf")
    named = rows[2].replace("C" + " " * 32, "C\tx" + " " * 30)  # (its columns kept)
    assert parse_trf("\n".join([*rows[:2], named]) + "\n", event_key="e").results.equals(whole)


# ------------------------------------- class 226: a header record's code followed by a tab


def test_a_record_code_followed_by_a_tab_is_that_record() -> None:
    """Class 226: a header written with a tab after its code (``042<TAB>2024/08/01``, a
    file edited with tabs) was read as a comment line, without a word: the start date was
    lost, so the standings took today's FIDE rules (``fide-2026``) instead of the event's
    (``fide-2023``), and the name and number of rounds were lost too. The tab separates the
    code from the record's value as a blank does; an unknown code so written is an unknown
    record (warned of), no longer a silent comment."""
    players = two_players("   2 w 1", "   1 b 0")
    blank = f"012 Club Open\n042 2024/08/01\nXXR 5\n{players}"
    tabbed = blank.replace("012 ", "012\t").replace("042 ", "042\t\t").replace("XXR ", "XXR\t")
    want = parse_trf(blank, event_key="e")
    got = parse_trf(tabbed, event_key="e")
    head = ["name", "start_date_raw", "start_date", "rounds_declared"]
    assert got.header.select(head).row(0) == want.header.select(head).row(0) == (
        "Club Open", "2024/08/01", want.header["start_date"][0], 5)
    assert want.header["start_date"][0] is not None
    assert got.results.equals(want.results)
    assert got.unknown.height == 0
    odd = parse_trf(f"QQQ\tsomething\n{players}", event_key="e")
    assert odd.unknown["value"].to_list() == ["QQQ\tsomething"]


# -------------------- class 228: the TRF(x) extensions' scoring records (XXS, BBW … BBU)


@pytest.mark.parametrize(("records", "said"), [
    ("XXS W=3 D=1", [(1, "XXS", "W 3, D 1")]),
    ("XXS FL=0 W=3 D=2 PAB=2 WL=1 BL=1 ZPB=1",
     [(1, "XXS", "W 3, D 2, PAB 2, WL 1, BL 1, ZPB 1")]),
    ("XXS W=3\nXXS D=1", [(1, "XXS", "W 3"), (2, "XXS", "D 1")]),
    ("BBW  3.0\nBBD  1.0\nBBL  0.0", [(1, "BBW", "BBW 3"), (2, "BBD", "BBD 1")]),
    ("BBU  0.5", [(1, "BBU", "BBU 0.5")]),
    ("XXS W=1 D=0.5 WL=0 PAB=1.0 HPB=.5", []),
    ("BBW  1.0\nBBD  0.5\nBBF  0.0", []),
])
def test_a_trfx_scoring_record_is_reported_not_applied(records: str,
                                                       said: list[tuple[int, str, str]]) -> None:
    """Class 228: JaVaFo's ``XXS`` and bbpPairings' ``BBW``/``BBD``/``BBL``/``BBZ``/``BBF``/
    ``BBU`` declare a scoring system (3 / 1 / 0 football scoring, a half-point pairing bye)
    as TRF-2026's record 162 does; they were known extensions and ignored without a word,
    so the standings scored 1 / ½ / 0 where the file's points were 3 / 1 / 0. Each one
    declaring other points than 1 / ½ / 0 is listed (``not_applied``), as 162 is."""
    ev = parse_trf(records + "\n" + two_players("   2 w 1", "   1 b 0"), event_key="e")
    assert ev.not_applied.select("line", "code", "detail").rows() == [
        (n, code, f"record {code} declares a scoring system ({what}) other than 1 / ½ / 0: "
         "the standings score 1 / ½ / 0") for n, code, what in said]
    assert ev.unknown.height == 0


# ----------------- class 229: declared points the round blocks do not give, said on read


def test_declared_points_the_round_blocks_do_not_give_are_said(tmp_path: Path) -> None:
    """Class 229: a player's declared total (columns 81-84, the organiser's) that the
    round blocks do not give — a penalty or bonus, a result given outside the blocks,
    another scoring system — was compared by ``verify-ref`` only: ``sf.read``,
    ``read_trf``, ``validate`` and ``standings`` ranked the blocks' totals and said
    nothing of the organiser's. Each such player is an import note ``declared_points``
    (a warning of ``read_trf``); a file whose totals agree says nothing."""
    import swissframe as sf
    from swissframe.errors import ImportNotesWarning

    agree = two_players("   2 w 1", "   1 b 0")
    path = tmp_path / "club.trf"
    path.write_text(agree)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sf.read(path).notes.height == 0
        read_trf(path)
    path.write_text(agree.replace(" 0.0    2", " 1.0    2"))  # (B declares 1.0, blocks 0)
    with pytest.warns(ImportNotesWarning, match=r"declared_points ×1"):
        src = sf.read(path)
    assert src.notes.select("kind", "player_id", "detail").rows() == [
        ("declared_points", "2", "the file declares 1 point, the round blocks give 0: the "
         "standings count the round blocks")]
    report = sf.validate(src)
    assert report.problems.filter(pl.col("kind") == "import_note")["player_id"].to_list() == [
        "2"]
    with pytest.warns(UserWarning, match=r"club: 1 player whose declared points are not "
                      r"what their round blocks give, e\.g\. player 2 \(B\): the file declares "
                      r"1 point, the round blocks give 0: the standings count the round "
                      r"blocks\. Hint: check the standings"):
        read_trf(path)


# ------------------------------------ class 230: a team tournament ranked player by player


@pytest.mark.parametrize("team_line", [
    "013 ΓΑΖΙ 1                             1    2",  # TRF-16 (Swiss-Manager's team export)
    "310    1 ΓΑΖΙ 1",  # TRF-2026's team section
])
def test_a_team_tournament_is_said_to_be_ranked_player_by_player(
        tmp_path: Path, team_line: str) -> None:
    """Class 230: a team tournament's TRF (Swiss-Manager writes the teams' boards as 001
    lines and each team as a 013 record; a real Cretan team cup's export was read) was
    ranked player by player with the individual FIDE rules, and nothing said that the
    organiser's standings are the teams' (match and game points), which the readers do
    not compute. Such a file is an import note ``team_event`` (a warning of
    ``read_trf``); the players' own standings are unchanged."""
    import swissframe as sf
    from swissframe.errors import ImportNotesWarning

    players = two_players("   2 w 1", "   1 b 0")
    path = tmp_path / "cup.trf"
    path.write_text(f"012 Cup\n092 Team Swiss System\n{players}{team_line}\n",
                    encoding="utf-8")
    with pytest.warns(ImportNotesWarning, match=r"team_event ×1"):
        src = sf.read(path)
    assert src.notes.select("kind", "detail").rows() == [
        ("team_event", "a team tournament (1 team records 013 / 310): its players are "
         "ranked one by one; the teams' standings (match and game points) are not computed")]
    assert src.results.drop("source_file", "ruleset").equals(
        parse_trf(players, event_key="cup").results)
    with pytest.warns(UserWarning, match=r"^cup: a team tournament \(1 team records"):
        read_trf(path)


# --------------------- class 232: no 042 start date, but the round dates (132) say the era


def test_the_first_round_date_is_the_start_date_when_042_is_absent_or_unreadable(
        tmp_path: Path) -> None:
    """Class 232: a file without an ``042`` start date (or with one that is no date, such
    as ``24/11/23``) was ranked by today's FIDE rules (``fide-2026``) while its ``132``
    record gave every round's date (TRF-16: ``YY/MM/DD`` from column 92; Swiss-Manager
    writes it): a 2024 event ranked by the 2026 rules, whose unplayed-round dummy differs.
    The first round's date is then the start date, said in a note; a readable 042 wins."""
    import swissframe as sf

    players = (line(1, "A", "2.0", "1", ["   2 w 1", "0000 - U"]) + "\n"
               + line(2, "B", "0.0", "2", ["   1 b 0", "0000 - Z"]) + "\n")
    dates = "132" + " " * 88 + "24/08/01  24/08/02\n"
    want = parse_trf(f"012 T\n042 2024/08/01\n{players}", event_key="e")
    for head, said in [("", "absent"), ("042 24/08/01\n", "'24/08/01' not a date")]:
        got = parse_trf(f"012 T\n{head}{dates}{players}", event_key="e")
        assert got.header["start_date"].to_list() == want.header["start_date"].to_list()
        assert got.header["start_date_note"][0] == (
            f"042 start date {said}: the first round's date in record 132, '24/08/01', read "
            "as 2024-08-01; ranked by fide. Hint: write the start date as YYYY/MM/DD in 042, "
            "or pass --rules fide-2009 (started before 1 Jul 2023), fide (to 28 Feb 2026) or "
            "fide-2026 (rules= in Python) if that is not the event's era.")
        path = tmp_path / "club.trf"
        path.write_text(f"012 T\n{head}{dates}{players}")
        with pytest.warns(UserWarning, match=r"start_date ×1"):
            src = sf.read(path)
        assert src.events["ruleset"].to_list() == ["fide"]  # (not fide-2026, today's)
    kept = parse_trf(f"012 T\n042 2026/03/05\n{dates}{players}", event_key="e").header
    assert kept.select("start_date_raw", "start_date_note").row(0) == ("2026/03/05", None)
    none = parse_trf(f"012 T\n{players}", event_key="e").header
    assert none.select("start_date", "start_date_note").row(0) == (None, None)


def test_a_read_prints_one_line(all_codes: TrfEvents) -> None:
    """Printing the result dumped every frame, 6.1 KB (bad data 246)."""
    text = repr(all_codes)
    assert text.startswith("TrfEvents: 1 event, 8 players, 24 result rows, 2 pending "
                           "seats — .results, .players")
    assert "\n" not in text
    assert all_codes._repr_html_().startswith("<div><strong>TrfEvents</strong>: 1 event")
