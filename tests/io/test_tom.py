"""Tests for swissframe.io.tom: hand-written fixtures for every documented outcome code,
malformed files, safe XML, the stored real TOM files, and garbage input."""

from __future__ import annotations

import contextlib
import warnings
from pathlib import Path

import defusedxml.ElementTree
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from swissframe.errors import DataError, ImportFormatError, ImportNotesWarning, SwissframeError
from swissframe.io.tom import (
    TOM_OUTCOMES,
    TOM_ROUND_TYPES,
    TOM_STANDING_TYPES,
    TomEvents,
    event_keys,
    parse_tom,
    read_tom,
)
from swissframe.io.trf import read_any
from swissframe.schema import validate_results
from tests import helpers
from tests.helpers import SHARED_ROOT

FIXTURES = helpers.FIXTURES / "tom"
SHARED = SHARED_ROOT
REAL = SHARED / "data" / "realworld" / "pokemon-tom"


def _real(*parts: str) -> Path:
    if not (SHARED / "data" / "realworld").is_dir():
        pytest.skip("../shared/data/realworld not found: real-data tests need the shared folder")
    return REAL.joinpath(*parts)


OT = ("BadConfigStudios_OpenTourney", "docs", "superpowers", "fixtures", "tom-tournaments")
CM = ("rosematcha_ciphermaniac", "tests", "fixtures", "tdf", "harness")


def _row(df: pl.DataFrame, rnd: int, pid: str) -> dict[str, object]:
    return df.filter((pl.col("round") == rnd) & (pl.col("player_id") == pid)).row(0, named=True)


# --------------------------------------------------------------- the outcome table


def test_outcome_table_documents_exactly_the_known_codes() -> None:
    assert sorted(TOM_OUTCOMES) == [0, 1, 2, 3, 4, 5, 8, 10]
    assert TOM_OUTCOMES[4].unplayed == "full_bye"
    assert TOM_OUTCOMES[5].unplayed == "pairing_bye"


# --------------------------------------------------------------- all codes fixture


@pytest.fixture(scope="module")
def all_codes() -> TomEvents:
    return read_tom(FIXTURES / "all_codes.tdf")


def test_all_codes_rows(all_codes: TomEvents) -> None:
    res = all_codes.results
    assert res.height == 25
    assert res["event_id"].unique().to_list() == ["all_codes"]
    validate_results(res).collect()
    keep = ["opponent_id", "games_won", "games_lost", "games_drawn", "phase", "unplayed",
            "scheduled_opponent_id", "tom_outcome"]

    def get(rnd: int, pid: str) -> tuple[object, ...]:
        r = _row(res, rnd, pid)
        return tuple(r[k] for k in keep)

    # 1 player1 win / 2 player2 win / 3 tie
    assert get(1, "101") == ("102", 1, 0, 0, "swiss", None, "102", "player1_win")
    assert get(1, "102") == ("101", 0, 1, 0, "swiss", None, "101", "player1_win")
    assert get(1, "104") == ("103", 1, 0, 0, "swiss", None, "103", "player2_win")
    assert get(1, "103") == ("104", 0, 1, 0, "swiss", None, "104", "player2_win")
    assert get(1, "105") == ("106", 0, 0, 1, "swiss", None, "106", "tie")
    assert get(1, "106") == ("105", 0, 0, 1, "swiss", None, "105", "tie")
    # 4 earned bye vs 5 random bye: same record, distinguishable
    assert get(1, "107") == (None, 1, 0, 0, "swiss", "full_bye", None, "earned_bye")
    assert get(3, "107") == (None, 1, 0, 0, "swiss", "pairing_bye", None, "random_bye")
    # 8 forced loss (late entrant)
    assert get(1, "108") == (None, 0, 1, 0, "swiss", "absent", None, "forced_loss")
    # 10 double loss: a loss for both, against each other (the double_loss flag)
    assert get(2, "101") == ("104", 0, 1, 0, "swiss", None, "104", "double_loss")
    assert get(2, "104") == ("101", 0, 1, 0, "swiss", None, "101", "double_loss")
    assert res.filter(pl.col("double_loss"))["player_id"].sort().to_list() == ["101", "104"]
    # top cut
    assert get(4, "101") == ("107", 1, 0, 0, "playoff", None, "107", "player1_win")
    assert res.filter(pl.col("phase") == "playoff").height == 2
    # the dropped player has no rows after round 2
    assert res.filter(pl.col("player_id") == "102")["round"].to_list() == [1, 2]


def test_all_codes_players(all_codes: TomEvents) -> None:
    p = all_codes.players
    assert p.height == 8
    by = {r["player_id"]: r for r in p.iter_rows(named=True)}
    assert by["102"]["dropped_after_round"] == 2
    assert by["107"]["earned_byes"] == 1
    assert (by["107"]["seed"], by["107"]["order"]) == (2, 2)
    assert (by["101"]["seed"], by["101"]["order"]) == (1, 1)
    assert by["108"]["late"] is True
    assert sum(r["late"] for r in by.values()) == 1
    assert by["101"]["name"] == "Ann One"
    assert by["101"]["birth_year"] == 1990
    assert set(p["division"]) == {"masters"}
    assert set(p["division_source"]) == {"pod"}
    assert dict(p.select("player_id", "swiss_rounds_played").iter_rows()) == {
        "101": 3, "102": 2, "103": 3, "104": 3, "105": 3, "106": 3, "107": 3, "108": 3}


def test_all_codes_structure_and_published(all_codes: TomEvents) -> None:
    s = all_codes.structure.row(0, named=True)
    assert (s["swiss_rounds"], s["topcut_rounds"], s["cut"], s["players"]) == (3, 1, 2, 8)
    assert s["finalized"] is True
    assert s["pod_label"] == "masters"
    assert str(s["start_date"]) == "2026-03-14"
    pub = all_codes.published
    assert pub.height == 8
    fin = pub.filter(pl.col("standing") == "finished")
    assert fin["player_id"].to_list() == ["101", "107", "108", "103", "104", "105", "102"]
    assert fin["swiss_place"].to_list() == [1, 2, 3, 4, 5, 6, 7]
    dnf = pub.filter(pl.col("standing") == "dnf")
    assert dnf["player_id"].to_list() == ["106"]
    assert dnf["swiss_place"].to_list() == [None]


def test_pending_matches_are_reported_not_results() -> None:
    ev = read_tom(FIXTURES / "pending.tdf")
    assert ev.results.height == 6
    assert ev.pending.select("round", "player_id", "opponent_id").rows() == [
        (2, "1", "4"), (2, "4", "1")]
    assert ev.structure["finalized"].to_list() == [False]
    assert ev.published.height == 0


def test_combined_pod_is_one_event_ranked_per_division() -> None:
    ev = read_tom(FIXTURES / "combined.tdf")
    assert sorted(ev.results["event_id"].unique()) == ["combined:juniors",
                                                       "combined:seniors+masters"]
    p = ev.players.filter(pl.col("event_id") == "combined:seniors+masters")
    assert dict(zip(p["player_id"], p["division"], strict=True)) == {
        "201": "masters", "202": "masters", "203": "masters",
        "204": "seniors", "205": "seniors", "206": "seniors"}
    assert set(p["division_source"]) == {"standings"}
    # opponents across divisions stay in the same event
    assert _row(ev.results, 1, "201")["opponent_id"] == "204"
    st_ = ev.structure.select("event_id", "division", "players", "published_player_count")
    assert st_.rows() == [("combined:juniors", "juniors", 2, 2),
                          ("combined:seniors+masters", "masters", 3, 3),
                          ("combined:seniors+masters", "seniors", 3, 3)]
    assert ev.unseated["player_id"].to_list() == ["399"]
    assert ev.published.filter(pl.col("division") == "seniors")["player_id"].to_list() == [
        "205", "206", "204"]


def test_many_files_and_event_keys(tmp_path: Path) -> None:
    a = tmp_path / "a" / "final.tdf"
    b = tmp_path / "b" / "final.tdf"
    for f in (a, b):
        f.parent.mkdir()
        f.write_bytes((FIXTURES / "pending.tdf").read_bytes())
    ev = read_tom([a, b])
    assert sorted(ev.results["event_id"].unique()) == ["a/final", "b/final"]
    assert ev.results.height == 12
    assert event_keys(["x.tdf", "x.trf"]) == ["x.tdf", "x.trf"]
    with pytest.raises(DataError, match="more than once"):
        read_tom([a, a])
    with pytest.raises(DataError, match="distinct ids"):
        read_tom([a, b], event_ids=["same", "same"])
    assert read_tom([a], event_ids=["mine"]).results["event_id"].unique().to_list() == ["mine"]


def _stacked(parts: list[TomEvents]) -> dict[str, pl.DataFrame]:
    """Each frame of ``parts`` stacked, as reading the files one by one and stacking gives
    (a file without a disqualified player has no flag: False)."""
    out = {}
    for name in ("results", "players", "structure", "published", "pending", "unseated",
                 "unknown", "empty_rounds"):
        frame = pl.concat([getattr(p, name) for p in parts], how="diagonal")
        if "disqualified" in frame.columns:
            frame = frame.with_columns(pl.col("disqualified").fill_null(value=False))
        out[name] = frame
    return out


@pytest.mark.parametrize("chunk_rows", [1, 40, None])
def test_files_read_together_are_each_file_read_alone_stacked(
        tmp_path: Path, chunk_rows: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """read_tom builds the frames of many files at once, keyed by the file: the same
    tables as each file read alone, stacked in the given order — with pods (combined,
    several), a disqualified player in one file only, pending matches, podless players,
    unknown elements, empty rounds, and two files whose player ids are the same."""
    # (files built into frames a chunk at a time: every file its own chunk, a few,
    # or all at once)
    if chunk_rows is not None:
        monkeypatch.setattr("swissframe.io._files.CHUNK_ROWS", chunk_rows)
    files = sorted(FIXTURES.glob("*.tdf"))
    empty = tmp_path / "empty_round.tdf"
    text = (FIXTURES / "pending.tdf").read_text(encoding="utf-8")
    start, end = text.index("<rounds>"), text.index("</rounds>") + len("</rounds>")
    empty.write_text(text[:start] + '<rounds><round number="1" type="2"><matches>'
                     "</matches></round></rounds><matchx/>" + text[end:], encoding="utf-8")
    order = [files[3], empty, *files, files[0]]
    keys = [f"k{i}" for i in range(len(order))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        together = read_tom(order, event_ids=keys)
        alone = _stacked([read_tom([f], event_ids=[k]) for f, k in zip(order, keys,
                                                                       strict=True)])
    assert together.empty_rounds.height
    assert together.results["disqualified"].any()
    for name, frame in alone.items():
        assert_frame_equal(getattr(together, name), frame, check_column_order=False)


@pytest.mark.parametrize("chunk_rows", [1, 40, None])
def test_the_first_damaged_file_in_the_given_order_is_the_one_named(
        tmp_path: Path, chunk_rows: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A damaged file is named as when each file was read and built in turn: the first
    one in the given order, whether its damage is found parsing the XML or building the
    frames (a seed given twice) — not the first one the batch build comes across."""
    # (files built into frames a chunk at a time: every file its own chunk, a few,
    # or all at once)
    if chunk_rows is not None:
        monkeypatch.setattr("swissframe.io._files.CHUNK_ROWS", chunk_rows)
    text = (FIXTURES / "all_codes.tdf").read_text(encoding="utf-8")
    seeds = tmp_path / "seeds.tdf"
    seeds.write_text(text.replace("<seed>2</seed>", "<seed>1</seed>", 1), encoding="utf-8")
    broken = tmp_path / "broken.tdf"
    broken.write_text(text[: len(text) // 2], encoding="utf-8")
    good = FIXTURES / "pending.tdf"
    drop = tmp_path / "drop.tdf"
    drop.write_text(text.replace("<dropped><status>1</status><round>2</round></dropped>",
                                 "<dropped><status>1</status><round>9</round></dropped>"),
                    encoding="utf-8")
    for paths, named in (([good, seeds, broken], "seeds.tdf"),
                         ([good, broken, seeds], "broken.tdf"),
                         ([drop, seeds], "drop.tdf"), ([seeds, drop], "seeds.tdf"),
                         ([good, seeds, tmp_path / "missing.tdf"], "seeds.tdf")):
        with pytest.raises(SwissframeError) as caught:
            read_tom(paths)
        assert named in str(caught.value), (paths, str(caught.value))


def test_read_any_dispatches_by_extension_and_content(tmp_path: Path) -> None:
    odd = tmp_path / "night.sav"
    odd.write_bytes((FIXTURES / "pending.tdf").read_bytes())
    trf = helpers.FIXTURES / "trf" / "latin1_cr.trf"
    res = read_any([FIXTURES / "all_codes.tdf", odd, trf])
    assert sorted(res["event_id"].unique()) == ["all_codes", "latin1_cr", "night"]
    assert res.height == 25 + 6 + 2
    assert {"tom_outcome", "trf_code", "color", "unplayed"} <= set(res.columns)
    assert read_any(odd, format="tom").height == 6
    with pytest.raises(DataError, match="unknown format"):
        read_any(odd, format="xml")
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01 nothing")
    with pytest.raises(ImportFormatError, match="--format"):
        read_any(junk)


# --------------------------------------------------------------- malformed input


def _mutate(tmp_path: Path, old: str, new: str, name: str = "bad.tdf") -> Path:
    text = (FIXTURES / "all_codes.tdf").read_text()
    assert old in text
    out = tmp_path / name
    out.write_text(text.replace(old, new, 1))
    return out


@pytest.mark.parametrize("code", ["6", "7", "9", "11", "-1", "x"])
def test_unknown_outcome_codes_are_refused(tmp_path: Path, code: str) -> None:
    bad = _mutate(tmp_path, '<match outcome="3">', f'<match outcome="{code}">')
    with pytest.raises(ImportFormatError, match=r"round 1.*outcome|outcome.*round 1") as exc:
        read_tom(bad)
    assert "Hint:" in str(exc.value)
    assert "bad.tdf" in str(exc.value)


def test_round_types_are_read_by_the_documented_codes(tmp_path: Path) -> None:
    # a Swiss round repeats the root type: 2 (one division) or 3 (a Cup); 1 is the top cut
    assert TOM_ROUND_TYPES == {"1": "playoff", "2": "swiss", "3": "swiss"}
    cup = read_tom(_mutate(tmp_path, '<round number="2" type="2"', '<round number="2" type="3"'))
    assert cup.results.filter(pl.col("round") == 2)["phase"].unique().to_list() == ["swiss"]
    assert read_tom(FIXTURES / "all_codes.tdf").results.filter(
        pl.col("round") == 4)["phase"].unique().to_list() == ["playoff"]


@pytest.mark.parametrize(("new", "said"), [
    ('<round number="2" type="4"', "unknown round type '4'"),
    ('<round number="2" type="0"', "unknown round type '0'"),
    ('<round number="2" type=""', "unknown round type ''"),
    ('<round number="2" type="swiss"', "unknown round type 'swiss'"),
    ('<round number="2"', "no round type"),
])
def test_unknown_round_types_are_refused(tmp_path: Path, new: str, said: str) -> None:
    # an unknown code was read as Swiss: a round of another kind counted in the Swiss
    # standings without a word
    bad = _mutate(tmp_path, '<round number="2" type="2"', new)
    with pytest.raises(ImportFormatError, match=said) as exc:
        read_tom(bad)
    text = str(exc.value)
    assert "bad.tdf, pod 2, round 2:" in text
    assert "Hint: TOM writes 1 (top cut), 2 (swiss), 3 (swiss)" in text


def test_standings_types_are_the_documented_kinds() -> None:
    # finished (ranked, dropped players too) and dnf (disqualified): every real file
    assert TOM_STANDING_TYPES == ("finished", "dnf")
    files = [f for f in sorted(_real().rglob("*")) if f.suffix in (".tdf", ".xml")]
    assert len(files) == 5
    written = {pod.get("type") for f in files
               for pod in defusedxml.ElementTree.parse(f).iterfind("standings/pod")}
    assert written == set(TOM_STANDING_TYPES)  # (their dnf lists are empty)
    assert set(read_tom(files).published["standing"].to_list()) == {"finished"}


@pytest.mark.parametrize(("new", "said"), [
    ('<pod category="2" type="dropped">', "unknown standings type 'dropped'"),
    ('<pod category="2" type="DNF">', "unknown standings type 'DNF'"),
    ('<pod category="2" type="">', "unknown standings type ''"),
    ('<pod category="2">', "no standings type"),
])
def test_unknown_standings_types_are_refused(tmp_path: Path, new: str, said: str) -> None:
    # any kind was stored as given and none read as finished: a list of another kind was
    # ranked, or its disqualified players were not, without a word (class 92)
    bad = _mutate(tmp_path, '<pod category="2" type="dnf">', new)
    with pytest.raises(ImportFormatError, match=said) as exc:
        read_tom(bad)
    text = str(exc.value)
    assert "bad.tdf, standings pod 2, player '106':" in text
    assert "Hint: TOM writes finished or dnf (disqualified)" in text



_R2 = '<round number="2" type="2" stage="6" >\n\t\t\t\t\t<matches>'
_R3 = '\t\t\t\t<round number="3"'


def _read_once_cases() -> list[tuple[str, str, str]]:
    """(fixture, parent, child) for every value the reader reads once that a fixture has."""
    import xml.etree.ElementTree as ET

    from swissframe.io.tom import _READ_ONCE

    cases = []
    for parent, children in _READ_ONCE.items():
        for child in children:
            for name in ("all_codes.tdf", "three_divisions.tdf"):
                root = ET.parse(FIXTURES / name).getroot()
                if any(p.find(child) is not None for p in root.iter(parent)):
                    cases.append((name, parent, child))
                    break
    return cases


@pytest.mark.parametrize(("fixture", "parent", "child"), _read_once_cases())
def test_a_value_the_reader_reads_once_given_twice_is_refused(
        tmp_path: Path, fixture: str, parent: str, child: str) -> None:
    """Class 131: a player's second <byes>, <seed> or <dropped>, a match's second
    <tablenumber> … was left unread without a word (the first was read, whatever the
    second said); every element the reader reads once is refused when given twice."""
    import xml.etree.ElementTree as ET

    tree = ET.parse(FIXTURES / fixture)
    owner = next(p for p in tree.getroot().iter(parent) if p.find(child) is not None)
    first = owner.find(child)
    assert first is not None
    owner.insert(list(owner).index(first) + 1, ET.fromstring(ET.tostring(first)))
    bad = tmp_path / "bad.tdf"
    tree.write(bad, encoding="UTF-8", xml_declaration=True)
    with pytest.raises(ImportFormatError, match=rf"bad.tdf.*: <{parent}[^>]*> holds two "
                       rf"<{child}> elements, and only one would be read\..*Hint: "):
        read_tom(bad)
    assert read_tom(FIXTURES / fixture).results.height  # (the file as TOM saves it)


def test_the_values_read_once_are_checked_where_tom_writes_them() -> None:
    assert {(p, c) for _, p, c in _read_once_cases()} >= {
        ("player", "byes"), ("player", "seed"), ("player", "dropped"), ("dropped", "round"),
        ("match", "tablenumber"), ("player", "late")}


@pytest.mark.parametrize(("old", "new", "said"), [
    # a round's matches written straight into it, without <matches>
    (_R2, '<round number="2" type="2" stage="6" >\n\t\t\t\t\t<x>',
     r"bad.tdf, pod 2, round 2: a <match> at tournament/pods/pod/rounds/round/x/match, "),
    ("<matches>\n\t\t\t\t\t\t<match outcome=\"10\">",
     "<match outcome=\"10\">", r"a <match> at tournament/pods/pod/rounds/round/match, "
     r"where a TOM save never puts one.*TOM writes it at "
     r"tournament/pods/pod/rounds/round/matches/match\)"),
    # a second <rounds> of the pod, a <pod> inside a pod, a second <pods>
    (_R3, f"</rounds><rounds>{_R3}", r"bad.tdf, pod 2: <pod> holds two <rounds> elements"),
    ("\t\t\t<rounds>", '<pod category="1"><rounds></rounds></pod><rounds>',
     r"bad.tdf, pod 1: a <pod> at tournament/pods/pod/pod, "),
    ("\t</pods>", '</pods><pods><pod category="1"></pod></pods>',
     r"<tournament> holds two <pods> elements, and only one would be read"),
    ("<standings>", '<data><name>again</name></data><standings>',
     r"<tournament> holds two <data> elements"),
])
def test_an_element_where_the_reader_does_not_read_it_is_refused(
        tmp_path: Path, old: str, new: str, said: str) -> None:
    """Class 101: a <match> outside its round's <matches>, a second <rounds> or <pods>, a
    <pod> nested in a pod were left out of the results without a word (their rounds lost,
    validate clean): refused, naming the element, where it is, and where TOM writes it."""
    text = (FIXTURES / "all_codes.tdf").read_text()
    if new.endswith("<x>"):  # (the round's <matches> renamed: its matches under <x>)
        text = text.replace("</matches>\n\t\t\t\t</round>\n\t\t\t\t<round number=\"3\"",
                            "</x>\n\t\t\t\t</round>\n\t\t\t\t<round number=\"3\"", 1)
    elif old.startswith("<matches>"):
        text = text.replace("</matches>\n\t\t\t\t</round>\n\t\t\t\t<round number=\"3\"",
                            "\n\t\t\t\t</round>\n\t\t\t\t<round number=\"3\"", 1)
    assert old in text
    bad = tmp_path / "bad.tdf"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(ImportFormatError, match=said) as exc:
        read_tom(bad)
    assert "Hint: " in str(exc.value)
    assert read_tom(FIXTURES / "all_codes.tdf").results.height  # (the file as TOM saves it)


@pytest.mark.parametrize(("old", "new", "said"), [
    ('<player id="102" place="7" />', '<player id="101" place="7" />',
     r"bad.tdf, player 101: <standings> lists the player twice, in the 'finished' list of "
     r"pod 2 \(place 1\) and in the 'finished' list of pod 2 \(place 7\)"),
    ('<player id="106" place="8" />', '<player id="106" place="8" /><player id="101" />',
     r"player 101: .* 'finished' list of pod 2 \(place 1\) and in the 'dnf' list of pod 2"),
    ('<pod category="2" type="dnf">', '<pod category="2" type="finished">',
     r"<standings> holds two 'finished' lists of pod 2 \(masters\)"),
])
def test_standings_that_list_a_player_or_a_list_twice_are_refused(
        tmp_path: Path, old: str, new: str, said: str) -> None:
    """Class 102: a player listed twice was two published places, and a player in both the
    finished and the dnf list was disqualified without a word; two lists of one kind and pod
    were read as one (places 1, 2, 1, 2)."""
    with pytest.raises(ImportFormatError, match=said) as exc:
        read_tom(_mutate(tmp_path, old, new))
    assert "Hint: " in str(exc.value)

@pytest.mark.parametrize(("old", "new", "said"), [
    ('<player id="107" place="2" />', '<player id="107" place="1" />',
     r"bad.tdf, player 107: <standings> gives place 1 of the masters division to players "
     r"101 and 107"),
    ('<player id="107" place="2" />', '<player id="107" />',
     r"bad.tdf, player 107: <standings> gives the player no place in the masters division"),
    ('<player id="107" place="2" />', '<player id="107" place="0" />',
     r"bad.tdf, player 107: <standings> gives the player place 0 in the masters division"),
    ('<player id="106" place="8" />', '<player id="106" place="2" />',
     r"player 106: <standings> gives place 2 of the masters division to players 107 and 106"),
])
def test_standings_places_missing_below_one_or_given_twice_are_refused(
        tmp_path: Path, old: str, new: str, said: str) -> None:
    """Class 118: a published place left out, 0, or given to two players of a division (the
    finished and dnf lists share one numbering) was kept without a word; verify-ref compared
    the standings with an order the file does not give."""
    with pytest.raises(ImportFormatError, match=said) as exc:
        read_tom(_mutate(tmp_path, old, new))
    assert "Hint: " in str(exc.value)


def test_a_roster_player_missing_from_players_is_refused(tmp_path: Path) -> None:
    """Class 117: a pod roster's userid that <players> does not list was left out of the
    players, the no-shows and the standings without a word (a match seat so is refused)."""
    bad = _mutate(tmp_path, '<player userid="101" />',
                  '<player userid="101" /><player userid="999" />')
    with pytest.raises(ImportFormatError,
                       match=r"bad.tdf, pod 2 roster: player 999 is not listed in <players>"):
        read_tom(bad)


def test_truncated_file(tmp_path: Path) -> None:
    data = (FIXTURES / "all_codes.tdf").read_bytes()
    for cut in (len(data) // 3, len(data) - 20):
        f = tmp_path / f"cut{cut}.tdf"
        f.write_bytes(data[:cut])
        with pytest.raises(ImportFormatError, match="truncated"):
            read_tom(f)


def test_wrong_root(tmp_path: Path) -> None:
    f = tmp_path / "other.tdf"
    f.write_text('<?xml version="1.0"?><event><players/></event>')
    with pytest.raises(ImportFormatError, match=r"root element is <event>"):
        read_tom(f)


def test_entity_expansion_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "bomb.tdf"
    f.write_text('<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa">'
                 '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><tournament>&b;</tournament>')
    with pytest.raises(ImportFormatError, match="unsafe XML"):
        read_tom(f)


def test_external_entity_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "xxe.tdf"
    f.write_text('<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                 "<tournament>&x;</tournament>")
    with pytest.raises(ImportFormatError, match="unsafe XML"):
        read_tom(f)


@pytest.mark.parametrize(("old", "new", "pattern"), [
    ('<match outcome="4"><player userid="107"/>',
     '<match outcome="4"><player1 userid="107"/><player2 userid="108"/>', "needs 1 seat"),
    ('<match outcome="1"><player1 userid="101"/><player2 userid="102"/>',
     '<match outcome="1"><player userid="101"/>', "needs 2 seat"),
    ('<player2 userid="102"/>', '<player2 userid="999"/>', "player 999 is not listed"),
    ('<player2 userid="102"/>', "", r"one <player> or one <player1> and one <player2>; "
     r"this one has 1 <player1>"),
    # a third seat was ignored without a word: the match read as its first two seats
    ('<player2 userid="102"/>', '<player2 userid="102"/><player2 userid="103"/>',
     r"this one has 1 <player1>, 2 <player2>"),
    ('<match outcome="4"><player userid="107"/>',
     '<match outcome="4"><player userid="107"/><player userid="108"/>', "has 2 <player>"),
    ('<pod category="2" stage="5">', '<pod category="5" stage="5">', "unknown pod category"),
    ('<round number="2"', '<round number="1"', "round 1 appears twice"),
    ('<round number="2"', '<round number="0"', "must be ≥ 1"),
    ("<byes>1</byes>", "<byes>one</byes>", "not an integer"),
    ('<player id="103" place="4" />', '<player id="555" place="4" />', "missing from <players>"),
    ('<player1 userid="102"/><player2 userid="103"/>',
     '<player1 userid="102"/><player2 userid="102"/>', "themself"),
    ('<match outcome="2"><player1 userid="105"/><player2 userid="108"/>',
     '<match outcome="2"><player1 userid="105"/><player2 userid="107"/>', "duplicate"),
    ('<player userid="104">', '<player userid="103">',
     r"userid\(s\) \['103'\] listed more than once"),
])
def test_malformed_content(tmp_path: Path, old: str, new: str, pattern: str) -> None:
    bad = _mutate(tmp_path, old, new)
    with pytest.raises(ImportFormatError, match=pattern) as exc:
        read_tom(bad)
    assert "Hint:" in str(exc.value)


def test_missing_file_is_an_import_error(tmp_path: Path) -> None:
    with pytest.raises(ImportFormatError, match="cannot read"):
        read_tom(tmp_path / "nope.tdf")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_garbage_bytes_only_raise_swissframe_errors(data: bytes) -> None:
    with contextlib.suppress(SwissframeError):
        parse_tom(data)


_XMLISH = st.lists(st.sampled_from([
    "<tournament>", "</tournament>", "<players>", "</players>", '<player userid="1">',
    '<player userid="2"/>', "</player>", "<pods>", "</pods>", '<pod category="2">',
    '<pod category="10">', "</pod>", "<rounds>", "</rounds>", '<round number="1" type="1">',
    '<round number="2" type="2">', '<round number="3" type="7">', "</round>", "<matches>",
    "</matches>", '<match outcome="1">',
    '<match outcome="5">', '<match outcome="10">', "</match>", '<player1 userid="1"/>',
    '<player2 userid="2"/>', "<standings>", "</standings>", '<player id="1" place="1"/>',
    "<dropped><status>1</status><round>1</round></dropped>", "<byes>2</byes>", "x", "&amp;",
]), max_size=40)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_XMLISH)
def test_xml_shaped_garbage_only_raises_swissframe_errors(parts: list[str]) -> None:
    try:
        ev = parse_tom("".join(parts))
    except SwissframeError:
        return
    validate_results(ev.results).collect()


# --------------------------------------------------------------- stored real files


@pytest.mark.realworld
def test_real_files_counts() -> None:
    files = [_real(*OT, "cg-league-night-2026-07-28.xml"),
             _real(*OT, "round-rock-summer-2026-06-20.xml"),
             _real(*CM, "challenge", "11-final.tdf"),
             _real(*CM, "earned-challenge", "11-final.tdf"),
             _real(*CM, "drop-after-swiss", "challenge-final.tdf")]
    ev = read_tom(files)
    validate_results(ev.results).collect()
    counts = dict(ev.results.group_by("event_id").len().iter_rows())
    assert counts == {"cg-league-night-2026-07-28": 44, "round-rock-summer-2026-06-20": 55,
                      "challenge/11-final": 34, "earned-challenge/11-final": 34,
                      "challenge-final": 100}
    players = dict(ev.players.group_by("event_id").len().iter_rows())
    assert players == {"cg-league-night-2026-07-28": 16, "round-rock-summer-2026-06-20": 23,
                       "challenge/11-final": 9, "earned-challenge/11-final": 9,
                       "challenge-final": 20}
    rounds = dict(ev.structure.unique("event_id").select("event_id", "swiss_rounds").iter_rows())
    assert rounds == {"cg-league-night-2026-07-28": 3, "round-rock-summer-2026-06-20": 3,
                      "challenge/11-final": 4, "earned-challenge/11-final": 4,
                      "challenge-final": 5}
    assert ev.structure["topcut_rounds"].sum() == 0
    assert ev.results["phase"].unique().to_list() == ["swiss"]
    assert ev.pending.height == 0
    # the round-rock file carries 10 players of another pod
    assert ev.unseated.height == 10
    # byes: one earned (outcome 4) in each ciphermaniac file, random byes elsewhere
    byes = (ev.results.filter(pl.col("unplayed").is_not_null())
            .group_by("event_id", "unplayed").len().sort("event_id", "unplayed").rows())
    assert byes == [("challenge-final", "full_bye", 1), ("challenge-final", "pairing_bye", 1),
                    ("challenge/11-final", "full_bye", 1),
                    ("challenge/11-final", "pairing_bye", 1),
                    ("earned-challenge/11-final", "full_bye", 1),
                    ("earned-challenge/11-final", "pairing_bye", 1),
                    ("round-rock-summer-2026-06-20", "pairing_bye", 1)]
    ties = ev.results.filter(pl.col("tom_outcome") == "tie").group_by("event_id").len()
    assert dict(ties.iter_rows()) == {"cg-league-night-2026-07-28": 2,
                                      "round-rock-summer-2026-06-20": 2,
                                      "challenge/11-final": 2, "earned-challenge/11-final": 8,
                                      "challenge-final": 8}
    drops = dict(ev.players.group_by("event_id").agg(
        pl.col("dropped_after_round").is_not_null().sum()).iter_rows())
    assert drops == {"cg-league-night-2026-07-28": 2, "round-rock-summer-2026-06-20": 5,
                     "challenge/11-final": 1, "earned-challenge/11-final": 1,
                     "challenge-final": 1}
    # four round-rock players dropped before round 1 was paired: listed, but no rows
    no_shows = ev.players.filter(pl.col("swiss_rounds_played") == 0)
    assert sorted(no_shows["player_id"]) == ["5720830", "5813598", "5829174", "6049977"]
    assert set(no_shows["dropped_after_round"]) == {1}
    assert ev.published.filter(pl.col("player_id").is_in(no_shows["player_id"].implode()))[
        "place"].sort().to_list() == [20, 21, 22, 23]


@pytest.mark.realworld
def test_real_combined_pod_divisions() -> None:
    ev = read_tom(_real(*OT, "cg-league-night-2026-07-28.xml"))
    divs = dict(ev.players.group_by("division").len().iter_rows())
    assert divs == {"masters": 12, "seniors": 1, "juniors": 3}
    pub = ev.published.filter(pl.col("division") == "masters")
    assert pub.height == 12
    assert pub["place"].to_list() == list(range(1, 13))
    s = ev.structure.select("division", "players", "published_player_count", "cut").rows()
    assert s == [("juniors", 3, 3, 0), ("masters", 12, 12, 0), ("seniors", 1, 1, 0)]


def test_players_without_any_pod_are_warned_of(tmp_path: Path) -> None:
    """A TOM save listing players but no pod (before the first pairing) read as nothing at
    all — an empty table, and ``validate`` said "no problems found": the players vanished
    without a word. It now warns, naming the file and how many players it lists."""
    import re

    text = (FIXTURES / "all_codes.tdf").read_text()
    path = tmp_path / "early.tdf"
    path.write_text(re.sub(r"<pods>.*</pods>", "<pods></pods>", text, flags=re.S))
    with pytest.warns(UserWarning, match=r"early\.tdf: \d+ players listed but no pod"):
        assert read_tom(path).results.height == 0


def test_many_podless_files_are_one_warning_and_read_says_each_note_once(
        tmp_path: Path) -> None:
    """A folder of TOM saves without pods warned once per file (10,000 files, 10,000
    lines): one warning now counts them. Unknown elements were said twice by
    ``swissframe.read`` (the reader's warning and its import-notes summary): once now."""
    import re
    import warnings

    import swissframe as sf
    from swissframe.io.tom import parse_tom

    text = (FIXTURES / "all_codes.tdf").read_text()
    early = re.sub(r"<pods>.*</pods>", "<pods></pods>", text, flags=re.S)
    for i in range(3):
        (tmp_path / f"early{i}.tdf").write_text(early)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_tom(sorted(tmp_path.glob("*.tdf")))
    said = [str(w.message) for w in caught]
    assert len(said) == 1
    assert said[0].startswith("3 files list players but no pod (TomEvents.unseated); the "
                              f"first, {tmp_path / 'early0.tdf'}: ")
    with pytest.warns(UserWarning, match=r"one\.tdf: \d+ players listed but no pod"):
        parse_tom(early, source="one.tdf")  # (one file parsed alone still says it)
    odd = tmp_path / "odd" / "odd.tdf"
    odd.parent.mkdir()
    odd.write_text(text.replace("<players>", "<players><mystery/>", 1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        src = sf.read(odd)
    mentions = [str(w.message) for w in caught if "unknown" in str(w.message)]
    assert len(mentions) == 1
    assert "unknown_element ×1" in mentions[0]
    assert src.notes.filter(pl.col("kind") == "unknown_element").height == 1


@pytest.mark.parametrize("declaration", ['<?xml version="1.0" encoding="UTF-8"?>\n', ""])
def test_a_file_in_a_windows_code_page_that_claims_utf8_is_named_so(
        tmp_path: Path, declaration: str) -> None:
    """An editor re-saved a TOM file in Windows-1252 ("Pé" in a name): the error said the
    file was truncated or damaged. It names the byte and the fix; a file that declares its
    code page is read."""
    body = ('<tournament type="2" stage="5"><players><player userid="1"><firstname>Pé'
            '</firstname></player><player userid="2"/></players><pods><pod category="2">'
            '<rounds><round number="1" type="3"><matches><match outcome="1">'
            '<player1 userid="1"/><player2 userid="2"/></match></matches></round></rounds>'
            '</pod></pods></tournament>')
    path = tmp_path / "cup.tdf"
    path.write_bytes((declaration + body).encode("cp1252"))
    with pytest.raises(ImportFormatError, match=r"cup\.tdf: not well-formed XML .* Hint: "
                       r"byte \d+ \(e9 3c 2f 66\) is not UTF-8, as the file declares"):
        read_tom(path)
    path.write_bytes(('<?xml version="1.0" encoding="windows-1252"?>\n' + body)
                     .encode("cp1252"))
    assert read_tom(path).players["name"].to_list() == ["Pé", None]


@pytest.mark.parametrize(("encoding", "first", "last"), [
    ("Shift_JIS", "太郎", "山田"), ("EUC-JP", "ポケ", "カード"), ("GBK", "小明", "王"),
    ("Big5", "志明", "陳"), ("EUC-KR", "민준", "김"), ("cp1251", "Дмитрий", "Шостакович"),
    ("ISO-8859-8", "דוד", "כהן")])
def test_a_file_in_a_declared_multibyte_encoding_is_read(
        tmp_path: Path, encoding: str, first: str, last: str) -> None:
    """A well-formed file declaring Shift_JIS, EUC-JP, GBK, Big5 or EUC-KR was refused:
    the XML parser reads only single-byte code pages itself ("multi-byte encodings are not
    supported. Hint: re-export the file from TOM"; bad data 158). Decoded by the codec the
    declaration names; a byte that is not in it is named."""
    body = (f'<tournament type="2" stage="5"><players><player userid="1"><firstname>{first}'
            f'</firstname><lastname>{last}</lastname></player><player userid="2"/></players>'
            '<pods><pod category="2"><rounds><round number="1" type="3"><matches>'
            '<match outcome="1"><player1 userid="1"/><player2 userid="2"/></match>'
            '</matches></round></rounds></pod></pods></tournament>')
    path = tmp_path / "cup.tdf"
    data = (f'<?xml version="1.0" encoding="{encoding}"?>\n' + body).encode(encoding)
    path.write_bytes(data)
    assert read_tom(path).players["name"].to_list() == [f"{first} {last}", None]
    at = data.index(b"</firstname>")
    path.write_bytes(data[:at] + b"\xff\xff" + data[at:])
    if encoding in ("cp1251", "ISO-8859-8"):  # (0xff is a letter of these single-byte pages)
        return
    with pytest.raises(ImportFormatError, match=rf"cup\.tdf: byte {at} \(ff ff .*\) is not "
                       rf"{encoding}, the encoding the XML declaration names\. Hint: "):
        read_tom(path)


@pytest.mark.parametrize("encoding", ["x-nonsense", "rot13", "zlib", "mbcs"])
def test_a_declared_encoding_that_is_no_text_encoding_is_named(
        tmp_path: Path, encoding: str) -> None:
    """A declaration naming an encoding Python does not know (``x-nonsense``, Windows'
    ``mbcs`` elsewhere) or one that is not a text encoding (``rot13``, ``zlib``) ended in a
    bare ``LookupError`` traceback from the XML parser (``standings`` and ``validate``)."""
    body = ('<tournament type="2" stage="5"><players><player userid="1"/>'
            '<player userid="2"/></players></tournament>')
    path = tmp_path / "cup.tdf"
    path.write_text(f'<?xml version="1.0" encoding="{encoding}"?>\n{body}')
    with pytest.raises(ImportFormatError, match=rf"cup\.tdf: the XML declaration names an "
                       rf"encoding .*{encoding}.* Hint: declare the encoding"):
        read_tom(path)


@pytest.mark.parametrize("number", ["1_0", "١", "٢"])
def test_a_number_is_read_in_ascii_digits(tmp_path: Path, number: str) -> None:
    """Class 79: Python's int() read a round number "1_0" as round 10 and "١" (Arabic-Indic)
    as round 1, without a word; the one reading of a whole number in a file's text
    (``schema.whole_text``) takes ASCII digits, as a CSV cell is read."""
    body = ('<tournament type="2" stage="5"><players><player userid="1"/><player userid="2"/>'
            f'</players><pods><pod category="2"><rounds><round number="{number}" type="3">'
            '<matches><match outcome="1"><player1 userid="1"/><player2 userid="2"/></match>'
            '</matches></round></rounds></pod></pods></tournament>')
    path = tmp_path / "cup.tdf"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"cup\.tdf, pod 2: round number is '.*', not an "
                       r"integer in digits 0-9"):
        read_tom(path)
    path.write_text(body.replace(f'number="{number}"', 'number=" 1 "'), encoding="utf-8")
    assert read_tom(path).results["round"].unique().to_list() == [1]


def test_a_dnf_player_is_flagged_disqualified_and_verify_agrees(tmp_path: Path) -> None:
    # disqualified.tdf is combined.tdf with Masters' 2nd (203) listed under the dnf pod
    # (TRH §5.7.3: removed from the standings): the reader flags 203's last Swiss row, the
    # standings give 203 no rank and close up (202 2nd), and 203's draw still counts for
    # 206, whose values are those of combined.tdf
    import swissframe as sf

    ev = read_tom(FIXTURES / "disqualified.tdf")
    flagged = ev.results.filter(pl.col("disqualified"))
    assert flagged.select("player_id", "round").rows() == [("203", 1)]
    assert ev.results.filter(pl.col("player_id") != "203")["disqualified"].sum() == 0
    st = sf.standings(ev.results, "pokemon")
    masters = st.filter(pl.col("player_id").is_in(["201", "202", "203"]))
    ranks = dict(zip(masters["player_id"], masters["rank"], strict=True))
    assert ranks["203"] is None
    plain = sf.standings(read_tom(FIXTURES / "combined.tdf").results, "pokemon")
    assert_same = ["match_points", "omwp", "oomwp"]
    assert (st.filter(pl.col("player_id") == "206").select(assert_same).rows()
            == plain.filter(pl.col("player_id") == "206").select(assert_same).rows())
    # the disqualified follow every ranked player of their event
    pod = st.filter(pl.col("event_id") == "disqualified:seniors+masters")
    assert pod["player_id"].to_list()[-1] == "203"
    got = sf.verify_tom(ev, earned_bye="bye")
    status = dict(zip(got["player_id"], got["status"], strict=True))
    assert status["203"] == "disqualified"
    assert got.filter(pl.col("player_id") != "203")["status"].unique().to_list() == ["match"]
    assert got["match"].all()
    # with a file that lists no one as dnf: the column is False there
    both = read_tom([FIXTURES / "combined.tdf", FIXTURES / "disqualified.tdf"])
    assert both.results["disqualified"].null_count() == 0
    assert both.results["disqualified"].sum() == 1
    # and a file without a dnf player has no column (the standings are unchanged)
    assert "disqualified" not in read_tom(FIXTURES / "combined.tdf").results.columns


def test_a_pod_player_who_plays_no_match_is_listed_not_dropped(tmp_path: Path) -> None:
    """A no-show — a player of the pod's roster with no match — was left out of the
    results and the standings without a word (round-rock: TOM places 23 players, the
    standings showed 19, ``validate`` "no problems"). Listed as a format's routine
    (``no_match``: a note, not a warning), naming file, event and player."""
    import swissframe as sf

    text = (FIXTURES / "pending.tdf").read_text()
    text = text.replace('<player userid="4"><firstname>D</firstname>',
                        '<player userid="5"><firstname>E</firstname><lastname>E</lastname>'
                        '</player>\n\t\t<player userid="4"><firstname>D</firstname>', 1)
    text = text.replace('<player userid="3" /><player userid="4" />',
                        '<player userid="3" /><player userid="4" /><player userid="5" />', 1)
    path = tmp_path / "noshow.tdf"
    path.write_text(text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        src = sf.read(path, on_error="collect")
    said = " ".join(str(w.message) for w in caught)
    assert "no-show" not in said  # (a routine: not warned)
    none = src.notes.filter(pl.col("kind") == "no_match")
    assert none.select("event_id", "player_id").rows() == [("noshow", "5")]
    assert none["file"].to_list() == [str(path)]
    assert "E E is a player of the event but plays no match" in none["detail"][0]
    assert "5" not in src.results["player_id"].to_list()
    report = sf.validate(src)
    notes = report.problems.filter(pl.col("kind") == "format_note")
    assert notes["player_id"].to_list() == ["5"]
    assert notes["severity"].to_list() == ["note"]
    # (the pending seats are said as pending, not as no-shows)
    assert set(src.notes.filter(pl.col("kind") == "pending")["player_id"]) == {"1", "4"}


@pytest.mark.parametrize("value", ["0", "-1", "-9223372036854775808"])
def test_a_drop_round_below_1_is_refused(tmp_path: Path, value: str) -> None:
    """Class 133: a <dropped> round of 0 or -1 was read as the player's drop round
    (``dropped_after_round`` 0 or -1, a round no event has), ``validate`` clean; rounds are
    numbered from 1, as the reader already says of a <round number>."""
    text = (FIXTURES / "all_codes.tdf").read_text(encoding="utf-8")
    good = "<dropped><status>1</status><round>2</round></dropped>"
    assert good in text
    bad = tmp_path / "bad.tdf"
    bad.write_text(text.replace(good, f"<dropped><status>1</status><round>{value}</round>"
                                      "</dropped>"), encoding="utf-8")
    with pytest.raises(ImportFormatError, match=rf"bad\.tdf, player 102: <dropped> gives "
                       rf"round {value}, and rounds are numbered from 1.*Hint: "):
        read_tom(bad)
    # (a drop whose status says the player did not drop is not read, whatever its round)
    bad.write_text(text.replace(good, f"<dropped><status>0</status><round>{value}</round>"
                                      "</dropped>"), encoding="utf-8")
    assert read_tom(bad).players.filter(pl.col("player_id") == "102")[
        "dropped_after_round"].to_list() == [None]


@pytest.mark.parametrize(("value", "ok"), [("4", True), ("5", True), ("6", False),
                                           ("9223372036854775807", False)])
def test_a_drop_round_past_the_next_round_is_refused(tmp_path: Path, value: str,
                                                     ok: bool) -> None:
    """Class 140: a <dropped> round past the event's last round was read as the player's
    drop round without a word. TOM records the round in progress: the last round (4 in
    this pod, the top cut's), or the next one before it is paired (5: what a no-show
    dropped before round 1 gets, round 1), read as written; 6 and beyond are in no file
    TOM writes."""
    text = (FIXTURES / "all_codes.tdf").read_text(encoding="utf-8")
    good = "<dropped><status>1</status><round>2</round></dropped>"
    bad = tmp_path / "bad.tdf"
    bad.write_text(text.replace(good, f"<dropped><status>1</status><round>{value}</round>"
                                      "</dropped>"), encoding="utf-8")
    if ok:
        assert read_tom(bad).players.filter(pl.col("player_id") == "102")[
            "dropped_after_round"].to_list() == [int(value)]
        return
    with pytest.raises(ImportFormatError, match=rf"bad\.tdf, player 102: <dropped> gives "
                       rf"round {value}, past the rounds of the player's pod \(masters\), "
                       r"whose last round is 4: .*Hint: the file is damaged"):
        read_tom(bad)


def test_a_drop_before_round_1_is_paired_is_read(tmp_path: Path) -> None:
    """Class 140: a save before round 1 is paired (a pod with no round) may hold a drop
    for round 1, as the real files' no-shows have; round 2 is refused."""
    text = (FIXTURES / "pending.tdf").read_text(encoding="utf-8")
    start, end = text.index("<rounds>"), text.index("</rounds>") + len("</rounds>")
    early = text[:start] + "<rounds></rounds>" + text[end:]
    player = '<player userid="2"><firstname>B</firstname><lastname>B</lastname>'
    assert player in early
    path = tmp_path / "early.tdf"
    for rnd in (1, 2):
        path.write_text(early.replace(player, player + "<dropped><status>1</status><round>"
                                      f"{rnd}</round></dropped>"), encoding="utf-8")
        if rnd == 1:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                assert read_tom(path).players.filter(pl.col("player_id") == "2")[
                    "dropped_after_round"].to_list() == [1]
        else:
            with pytest.raises(ImportFormatError, match=r"early\.tdf, player 2: <dropped> "
                               r"gives round 2, past .*which has no round yet"):
                read_tom(path)


@pytest.mark.parametrize(("old", "new", "said"), [
    ("<byes>1</byes>", "<byes>-3</byes>",
     r"player 107: <byes> -3, a count of earned byes below 0\. Hint: "),
    ("<seed>2</seed>", "<seed>0</seed>",
     r"player 107: <seed> 0, and seeds are Swiss places, numbered from 1\. Hint: "),
    ("<seed>2</seed>", "<seed>-9223372036854775808</seed>", r"player 107: <seed> -9223"),
    ("<seed>2</seed>", "<seed>1</seed>",
     r"player 107: <seed> 1 of the masters division is given to players 101 and 107; "
     r"a seed is a Swiss place, one per player\. Hint: "),
])
def test_a_seed_or_earned_byes_out_of_range_is_refused(tmp_path: Path, old: str, new: str,
                                                       said: str) -> None:
    """Class 147: a player's ``<byes>`` below 0 was read as ``earned_byes`` -3, a ``<seed>``
    below 1 or given to two players of one division as their Swiss place
    (``published.swiss_place``, what ``verify-ref`` compares the standings with) —
    without a word, where a published place of either kind was refused (class 118)."""
    bad = _mutate(tmp_path, old, new)
    with pytest.raises(ImportFormatError, match=rf"bad\.tdf, {said}"):
        read_tom(bad)
    fine = _mutate(tmp_path, "<seed>2</seed>", "<seed>3</seed>", "fine.tdf")
    assert read_tom(fine).published.filter(pl.col("player_id") == "107")[
        "swiss_place"].to_list() == [3]


@pytest.mark.parametrize(("late", "read"), [
    ("<late>true</late>", True), ("<late/>", True), ("<late> YES </late>", True),
    ("<late>1</late>", True), ("<late>false</late>", False), ("<late>no</late>", False),
    ("<late>0</late>", False), ("", False), ("<late>maybe</late>", None),
    ("<late>2</late>", None)])
def test_a_late_flag_is_read_as_every_flag_or_refused(tmp_path: Path, late: str,
                                                      read: bool | None) -> None:
    """Class 148: ``<late>`` holding anything but ``false`` or ``0`` was read as late
    (``<late>no</late>``, ``<late>maybe</late>``); it is read as every reader reads a
    flag (``schema.flag_text``), and any other text is refused naming file and player."""
    path = _mutate(tmp_path, "<late>true</late>", late, "late.tdf")
    if read is None:
        with pytest.raises(ImportFormatError, match=r"late\.tdf, player 108: <late> holds "
                           r"'\w+', which is no flag\. Hint: "):
            read_tom(path)
        return
    assert read_tom(path).players.filter(pl.col("player_id") == "108")[
        "late"].to_list() == [read]


_DROP = "<dropped><status>1</status><round>2</round></dropped>"


@pytest.mark.parametrize(("dropped", "read"), [
    (_DROP, 2), ("<dropped><status> 1 </status><round>2</round></dropped>", 2),
    ("<dropped><status>0</status><round>2</round></dropped>", None),
    ("<dropped><status>0</status></dropped>", None),
    # (no status: a drop after its round, as OpenTourney's notes and ciphermaniac read it)
    ("<dropped><round>2</round></dropped>", 2),
    ("<dropped><status/><round>2</round></dropped>", 2), ("", None),
    ("<dropped><status>2</status><round>2</round></dropped>", "<status> '2'"),
    ("<dropped><status>true</status><round>2</round></dropped>", "<status> 'true'"),
    ("<dropped><status>-1</status><round>2</round></dropped>", "<status> '-1'"),
    ("<dropped><status>01</status><round>2</round></dropped>", "<status> '01'"),
    ("<dropped><status>1</status></dropped>", "gives no <round>"),
    ("<dropped><round/></dropped>", "gives no <round>"), ("<dropped/>", "gives no <round>")])
def test_a_drop_status_is_read_as_tom_writes_it_or_refused(
        tmp_path: Path, dropped: str, read: int | str | None) -> None:
    """Class 151: a ``<dropped><status>`` other than 0 was read as a drop, whatever it
    held (``2``, ``true``, ``-1``), and a drop without its ``<round>`` as no drop, without
    a word. TOM writes 1 with the round (every real file, TOM's own saves) and 0 is read
    as no drop; anything else is refused naming file and player."""
    path = _mutate(tmp_path, _DROP, dropped, "drop.tdf")
    if isinstance(read, str):
        with pytest.raises(ImportFormatError, match=rf"drop\.tdf, player 102: <dropped> "
                           rf"(holds )?{read}.*Hint: "):
            read_tom(path)
        return
    assert read_tom(path).players.filter(pl.col("player_id") == "102")[
        "dropped_after_round"].to_list() == [read]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(status=st.text(st.characters(codec="ascii", exclude_characters="<>&",
                                    exclude_categories=["Cc"]), min_size=1, max_size=6))
def test_any_other_drop_status_is_refused(status: str) -> None:
    """Class 151: every status but 1 and 0 (spaces aside) is an ImportFormatError naming
    the file and the player; never read as a drop or as none."""
    text = (FIXTURES / "all_codes.tdf").read_text(encoding="utf-8")
    doc = text.replace(_DROP, f"<dropped><status>{status}</status><round>2</round></dropped>")
    said = status.strip()
    if said in ("", "0", "1"):
        players = parse_tom(doc, source="drop.tdf").players
        assert players.filter(pl.col("player_id") == "102")["dropped_after_round"].to_list(
            ) == [None if said == "0" else 2]
        return
    with pytest.raises(ImportFormatError, match=r"drop\.tdf, player 102: <dropped> holds "
                       r"<status> .*Hint: "):
        parse_tom(doc, source="drop.tdf")


# ------------------------------------------- class 195: a round listed with no match


@pytest.mark.parametrize("inside", ["<matches></matches>", "", "<matches/>"])
def test_a_tom_round_listed_with_no_match_is_noted(tmp_path: Path, inside: str) -> None:
    """Class 195 (TOM's twin of the decklist reader's): a ``<round>`` with no match has no
    row, so it was read as no round at all — a lost last round left the standings of the
    rounds before it, exit 0, and ``validate`` said no problems. It is in
    ``TomEvents.empty_rounds``, warned by ``read_tom`` and an ``empty_round`` import note
    of ``read`` (none of the real files or fixtures lists one)."""
    text = (FIXTURES / "all_codes.tdf").read_text()
    end = text.rindex("</round>") + len("</round>")
    f = tmp_path / "cup.tdf"
    f.write_text(text[:end] + f'<round number="5" type="1" stage="8">{inside}</round>'
                 + text[end:])
    with pytest.warns(UserWarning, match=r"cup\.tdf: 1 round listed with no match, e\.g\. "
                                         r"round 5 of 'cup'"):
        ev = read_tom(f)
    assert ev.empty_rounds.rows() == [(str(f), "cup", 5)]
    assert ev.results.equals(read_tom(FIXTURES / "all_codes.tdf", event_ids=["cup"]).results)
    with pytest.warns(ImportNotesWarning, match=r"1 import note \(empty_round ×1\)"):
        notes = sf.read(f).notes
    assert notes.filter(pl.col("kind") == "empty_round").select("event_id", "round").rows() == [
        ("cup", 5)]


def test_a_read_prints_one_line(all_codes: TomEvents) -> None:
    """Printing the result dumped every frame, 6.8 KB (bad data 246)."""
    text = repr(all_codes)
    assert text.startswith("TomEvents: 1 event, 8 players, 25 result rows, 8 published "
                           "placings, 0 pending seats — .results, .players")
    assert "\n" not in text
    assert all_codes._repr_html_().startswith("<div><strong>TomEvents</strong>: 1 event")
