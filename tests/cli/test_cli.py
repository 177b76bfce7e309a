"""The command line: standings in every output format, clean one-line errors."""

from __future__ import annotations

import dataclasses
import json
import re
import warnings
from pathlib import Path

import polars as pl
import pytest

import swissframe as sf
from swissframe.cli import main
from tests.helpers import REPO_ROOT, SHARED_ROOT

ROOT = REPO_ROOT
EVENTS = ROOT / "data" / "events"


def test_standings_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(EVENTS / "store-championship.csv")]) == 0
    out = capsys.readouterr().out
    assert "Alice" in out
    assert "OMW%" in out  # (a criterion headed as explain writes it: compare.column_heading)
    first = next(line for line in out.splitlines() if "Alice" in line)
    assert "│ Alice   ┆ 1    ┆ 10 " in first  # (the terminal's table, in a pipe too)


def test_a_library_warning_is_one_line_after_the_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A column named like swissframe's own is dropped with a warning: the CLI shows it as
    one ``swissframe: warning:`` line on stderr (not Python's two-line warning inside the
    progress line), and the output is the file's without that column."""
    src = pl.read_csv(EVENTS / "league-night.csv")
    odd = tmp_path / "odd.csv"
    src.with_columns(_note=pl.lit("x")).write_csv(odd)
    assert main(["standings", str(EVENTS / "league-night.csv"), "--format", "csv"]) == 0
    plain = capsys.readouterr().out
    assert main(["standings", str(odd), "--format", "csv", "--quiet"]) == 0
    got = capsys.readouterr()
    assert got.out == plain
    warned = [line for line in got.err.splitlines() if "warning" in line]
    assert warned == [line for line in got.err.splitlines() if line.strip()]
    assert len(warned) == 1
    assert warned[0].startswith("swissframe: warning: column(s) ['_note']")


def test_standings_csv_json_parquet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = str(EVENTS / "league-night.csv")
    assert main(["standings", f, "--format", "csv"]) == 0
    csv = capsys.readouterr().out
    assert csv.splitlines()[0].startswith("event_id,player_id,rank,match_points")
    assert main(["standings", f, "--format", "json", "--through-round", "1"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert max(r["match_points"] for r in rows) == 3
    out = tmp_path / "s.parquet"
    assert main(["standings", f, "--format", "parquet", "-o", str(out)]) == 0
    assert pl.read_parquet(out).height == 6


def test_event_filter_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(EVENTS), "--event", "league-night", "--rules", "mtg-1/3",
                 "--format", "csv"]) == 0
    df = pl.read_csv(capsys.readouterr().out.encode())
    assert set(df["event_id"]) == {"league-night"}


@pytest.mark.parametrize(("argv", "needle"), [
    (["standings", "does-not-exist.csv"], "no such file, folder or glob match"),
    (["standings", str(EVENTS), "--rules", "nope"], "unknown ruleset 'nope'"),
    (["standings", str(EVENTS), "--event", "nope"], "--event 'nope' is no event of the input"),
])
def test_errors_are_one_line(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
                             ) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert needle in err
    assert "Traceback" not in err


def test_invalid_file_names_event_round_player(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("round,player_a,player_b,games_a,games_b,games_drawn\n1,A,A,2,0,0\n")
    assert main(["standings", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "event 'bad', round 1, player 'A'" in err


def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--data", str(ROOT / "data")]) == 0
    out = capsys.readouterr().out
    assert "store-championship" in out
    assert "Alice" in out


def test_explain_command(capsys: pytest.CaptureFixture[str]) -> None:
    f = str(EVENTS / "store-championship.csv")
    assert main(["explain", f, "--player", "Alice", "--format", "csv"]) == 0
    df = pl.read_csv(capsys.readouterr().out.encode())
    assert df["opponent_id"].drop_nulls().to_list() == ["Bob", "Ines", "Chandra", "Farid"]
    ines = df.filter(pl.col("opponent_id") == "Ines").row(0, named=True)
    assert (ines["opp_mwp_raw"], ines["opp_mwp"]) == (0.25, 0.33)  # floored, and said so
    assert "floor" in ines["note"]
    assert main(["explain", f, "--player", "Nobody"]) == 2
    assert "Nobody" in capsys.readouterr().err


def test_sensitivity_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sensitivity", str(EVENTS), "--top", "4", "--compare", "pokemon",
                 "--format", "csv"]) == 0
    df = pl.read_csv(capsys.readouterr().out.encode())
    assert set(df["ruleset"]) == {"mtg", "pokemon"}
    assert set(df["event_id"]) == {"league-night", "store-championship"}
    assert df.filter(pl.col("ruleset") == "mtg")["kendall_tau"].to_list() == [1.0, 1.0]
    # (the README's --compare NAME…: several names after one flag, as the flag repeated)
    assert main(["sensitivity", str(EVENTS), "--top", "4", "--compare", "pokemon",
                 "mtg-1/3", "--format", "csv"]) == 0
    several = pl.read_csv(capsys.readouterr().out.encode())
    assert main(["sensitivity", str(EVENTS), "--top", "4", "--compare", "pokemon",
                 "--compare", "mtg-1/3", "--format", "csv"]) == 0
    assert several.equals(pl.read_csv(capsys.readouterr().out.encode()))
    assert set(several["ruleset"]) == {"mtg", "pokemon", "mtg-1/3"}


ROUND_ROCK = (SHARED_ROOT / "data" / "realworld" / "pokemon-tom" / "BadConfigStudios_OpenTourney"
              / "docs" / "superpowers" / "fixtures" / "tom-tournaments"
              / "round-rock-summer-2026-06-20.xml")


def test_sensitivity_shows_names_as_standings_do(capsys: pytest.CaptureFixture[str]) -> None:
    """A TOM file's players were their TOM ids (1000001) in the places at the cut."""
    tom = REPO_ROOT / "tests" / "fixtures" / "tom" / "all_codes.tdf"
    assert main(["sensitivity", str(tom), "--top", "2", "--format", "csv", "--quiet"]) == 0
    df = pl.read_csv(capsys.readouterr().out.encode())
    assert set(df["place_n"]) == {"Ann One"}
    assert set(df["place_n1"]) == {"Hal Eight"}


@pytest.mark.skipif(not ROUND_ROCK.exists(), reason=f"no shared data at {ROUND_ROCK}")
def test_sensitivity_of_a_real_tom_file_names_who_enters_and_leaves(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sensitivity", str(ROUND_ROCK), "--format", "json", "--quiet"]) == 0
    rows = {r["ruleset"]: r for r in json.loads(capsys.readouterr().out)}
    moved = rows["pokemon+floor=1/3"]
    assert (moved["entering"], moved["leaving"]) == (["Player4 Anon"], ["Player22 Anon"])


def test_named_keeps_the_id_of_a_shared_name() -> None:
    from swissframe.io._files import Source, read

    src: Source = read(REPO_ROOT / "tests" / "fixtures" / "tom" / "all_codes.tdf")
    event = src.events["event_id"][0]
    two = src.names["player_id"].head(2).to_list()
    twins = src.names.with_columns(
        pl.when(pl.col("player_id").is_in(two)).then(pl.lit("Sam")).otherwise("name")
        .alias("name"))
    src = dataclasses.replace(src, names=twins)
    t = pl.DataFrame({"event_id": [event], "entering": [two]})
    assert src.named(t, "entering")["entering"].to_list() == [[f"Sam ({i})" for i in two]]


@pytest.mark.parametrize("flags", [[], ["--quiet"]])
@pytest.mark.parametrize("command", [["standings"], ["explain", "--player", "A"],
                                     ["chart", "standings"]])
def test_every_command_says_what_the_read_left_out(command: list[str], flags: list[str],
                                                    tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A match kept as an unreported 0-0-0 was said only by ``validate``: ``standings``,
    ``explain``, ``chart`` … ended with exit 0 and no word of it. Each now prints the read's
    warning line (kept by ``--quiet``, which silences progress and notes, not warnings)."""
    deck = REPO_ROOT / "tests" / "fixtures" / "decklist" / "melee-unreported-3-2024-07-13.json"
    out = ["-o", str(tmp_path / "x.png")] if command[0] == "chart" else []
    assert main([command[0], *command[1:], str(deck), *flags, *out]) == 0
    err = capsys.readouterr().err
    assert "swissframe: warning: 1 import note (unreported_match ×1)" in err
    assert "swissframe validate FILE" in err


# ------------------------------------------------------- one validation per command (issue 19)


@pytest.mark.parametrize(("argv", "checks"), [
    (["standings", "{data}", "--format", "csv"], 1),
    (["standings", "{data}", "--event", "{event}", "--format", "csv"], 1),
    (["sensitivity", "{data}", "--format", "csv", "--top", "4"], 1),
    # (the chart's event is kept inside it: its rows, a new table, are checked again)
    (["chart", "standings", "{data}", "--event", "{event}", "-o", "{out}"], 2),
], ids=["standings", "standings --event", "sensitivity", "chart"])
def test_a_command_checks_its_rows_once(argv: list[str], checks: int, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``read`` validates the rows, and the analyses take them as validated with read's id
    codes (``cli._common.input_rows``) instead of checking every row again: one check of
    the file's rows per command, where there were two, and the same output."""
    from swissframe import schema

    results = sf.simulate([9, 16], rules="mtg", n_events=3, seed=5).results
    data = tmp_path / "season.parquet"
    results.write_parquet(data)
    event = results["event_id"].unique().sort()[1]
    # (the engine's columns are read once a process, from a probe event it validates: made
    # here, so that the count is the command's whatever ran before in this process — alone,
    # or first on a pytest worker, the chart counted it)
    schema._engine_columns()

    def run(out: Path) -> tuple[str, int]:
        calls = []
        checked = schema._checked

        def counted(*args: object, **kwargs: object) -> object:
            calls.append(1)
            return checked(*args, **kwargs)  # type: ignore[arg-type]

        with monkeypatch.context() as patch:
            patch.setattr(schema, "_checked", counted)
            line = [a.format(data=data, event=event, out=out) for a in argv]
            assert main([*line, "--quiet"]) == 0
        text = capsys.readouterr().out
        return (out.read_text() if out.exists() else text), len(calls)

    once, n_once = run(tmp_path / "once.json")
    # read's codes withheld: every analysis checks the rows itself, as before
    table = schema.validated_table
    monkeypatch.setattr(schema, "validated_table",
                        lambda *a, **k: (table(*a, **k)[0], None))
    twice, n_twice = run(tmp_path / "twice.json")
    assert n_once == checks
    assert n_twice == checks + 1
    assert once == twice


def test_rows_put_in_place_of_the_read_ones_are_checked(tmp_path: Path) -> None:
    """read's codes vouch for the frame read validated, not for another put in its
    place: such rows are checked by the analyses, and their problems found."""
    import dataclasses

    from swissframe.cli._common import input_rows

    path = tmp_path / "season.parquet"
    sf.simulate([9, 16], rules="mtg", n_events=2, seed=5).results.write_parquet(path)
    assert sf.read(path)._validated is None  # (kept only when asked: the CLI's)
    src = sf.read(path, _keep_codes=True)
    assert src._validated is not None
    with input_rows(src, None) as rows:
        assert rows is src.results
        sf.standings(rows, "mtg")
    broken = src.results.with_columns(games_won=pl.lit(9, dtype=pl.Int64))
    other = dataclasses.replace(src, results=broken)
    with input_rows(other, None) as rows, pytest.raises(sf.ValidationError):
        sf.standings(rows, "mtg")


def test_a_command_on_an_event_with_only_playoff_rows_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Class 73: ``standings`` of a playoff bracket exported on its own printed an empty
    table, exit 0; ``report`` failed with an internal ``OutOfBoundsError``; ``chart`` said
    "the table holds 0 ()" or "the Swiss has rounds 1–0", ``cut`` "no pairings for the
    round analysed". Each names the event and that it has only playoff rows."""
    rows = sf.read_results(EVENTS / "league-night.csv").with_columns(
        pl.lit("swiss").alias("phase"))
    bracket = rows.filter(pl.col("round") == 3).with_columns(
        pl.lit("top4").alias("event_id"), pl.lit("playoff").alias("phase"))
    path = tmp_path / "night.csv"
    pl.concat([rows, bracket]).write_csv(path)
    assert main(["standings", str(path), "--format", "csv"]) == 0
    assert "warning: 1 event with only playoff rows (a knockout event" in (
        capsys.readouterr().err)
    said = r"event 'top4' has only playoff rows \(6 playoff rows in round 3"
    for argv in (["chart", "standings", str(path), "--event", "top4", "-o",
                  str(tmp_path / "c.json")],
                 ["chart", "omw-ranges", str(path), "--event", "top4", "-o",
                  str(tmp_path / "o.json")],
                 ["cut", str(path), "--event", "top4"],
                 ["report", str(path), "--event", "top4", "-o", str(tmp_path / "r.html")]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert re.search(said, err), (argv, err)
        assert "internal" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night.csv"]


def test_a_terminal_that_reports_no_size_is_read_as_80_columns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A pseudo-terminal that reports 0 columns (``script`` run from a non-terminal) gave
    tables 40 columns wide, the floor; an unknown width is the 80-column fallback."""
    import os

    from swissframe.cli._common import terminal_width

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(os, "get_terminal_size",
                        lambda fd=1: os.terminal_size((0, 0)))
    assert terminal_width() == 80


def test_explain_shows_every_chess_tiebreaker(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``explain`` for chess showed only the Buchholz sum: each criterion of the ruleset
    has its arithmetic (by tiebreaker function: explain.ARITHMETIC), and it gives the
    standings' value."""
    from tests.helpers import DE_DECIDES, decisive

    path = tmp_path / "chess.csv"
    decisive(DE_DECIDES).write_csv(path)
    st = sf.standings(decisive(DE_DECIDES), "fide").filter(pl.col("player_id") == "P1")
    assert main(["explain", str(path), "--player", "P1", "--rules", "fide"]) == 0
    out = capsys.readouterr().out
    words = " ".join(out.split())
    from swissframe.compare import format_value

    for label, col in (("BH-C1", "bh_c1"), ("BH", "bh"), ("SB", "sb")):
        value = format_value(col, st[col][0], 4)
        assert re.search(rf"(^| ){re.escape(label)} = [^=]+ = {re.escape(value)}( |$)",
                         words), (label, value, out)
    assert f"WIN = {st['win'][0]} (round" in words
    assert "SB = " in words
    assert "×" in words.split("SB = ")[1].split("=")[0]
    # direct encounter names the tied players and the games between them
    assert ("DE = 1 (tied players ranked below): level on Points, BH-C1, BH, SB with P5; "
            "beat P5 (round 2) (C.07 Art. 6)") in words


def test_explain_says_a_dropped_players_standing_is_frozen(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Pokémon freezes a dropped player's standing at their last round: ``explain`` showed
    the opponents' records of then (an opponent 1-0-0 who finished 1-2-0) without a word
    (found by a user-level check); it says so, naming the round. MTG's final snapshot says
    nothing of the kind."""
    tdf = str(REPO_ROOT / "tests" / "fixtures" / "tom" / "all_codes.tdf")
    assert main(["explain", tdf, "--player", "102", "--quiet"]) == 0
    words = " ".join(capsys.readouterr().out.split())
    assert ("Ben Two dropped after round 2. The ruleset freezes a dropped player's standing "
            "at the round they last played") in words
    assert "records and rates below are as of round 2." in words
    assert main(["explain", tdf, "--player", "102", "--rules", "mtg", "--quiet"]) == 0
    assert "freezes" not in capsys.readouterr().out


def test_a_bare_command_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    """``swissframe`` alone was "error: the following arguments are required: COMMAND"
    (found by a user-level check): it prints what the commands are."""
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: swissframe")
    assert "standings" in out


def test_sensitivity_says_what_its_rows_compare(capsys: pytest.CaptureFixture[str]) -> None:
    """The table never said what N was nor which ruleset the others are against (found by
    a user-level check): a line under the event's name says both."""
    assert main(["sensitivity", str(ROOT / "data" / "events" / "store-championship.csv"),
                 "--top", "4", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("who enters or leaves the top 4 under each ruleset, against the first "
                      "row's:")


def _zero_round_files(folder: Path) -> dict[str, Path]:
    """One file of each format with no round played: a TRF's player lines without round
    blocks, a TOM save before its first pairing, a CSV header alone, a decklist-cache file
    with no round."""
    fixtures = ROOT / "tests" / "fixtures"
    trf = folder / "zero.trf"
    trf.write_text("".join(line[:89] + "\n" if line.startswith("001") else line + "\n"
                           for line in (fixtures / "trf" / "all_codes.trf").read_text()
                           .splitlines()))
    text = (fixtures / "tom" / "pending.tdf").read_text(encoding="utf-8")
    start, end = text.index("<rounds>"), text.index("</rounds>") + len("</rounds>")
    tom = folder / "unpaired.tdf"
    tom.write_text(text[:start] + "<rounds></rounds>" + text[end:], encoding="utf-8")
    csv = folder / "header.csv"
    csv.write_text("event_id,round,player_id,opponent_id,games_won,games_lost,games_drawn\n")
    doc = json.loads((fixtures / "decklist" / "melee-byes-1-2024-07-13.json").read_text())
    deck = folder / "melee-none-1-2024-07-13.json"
    deck.write_text(json.dumps({**doc, "Rounds": []}))
    return {"trf": trf, "tom": tom, "table": csv, "decklist": deck}


def test_validate_assumes_the_ruleset_every_command_reads_of_a_file_with_no_round(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Class 142: ``validate`` of a TRF with no round played named ``mtg`` (the rows'
    ruleset column, and there are no rows) where ``standings`` named FIDE's, and counted
    0 events; the ruleset comes from the events read (``Source.events``) for every
    command and for ``sf.validate`` of a ``Source``, in each format."""
    files = _zero_round_files(tmp_path)
    expected = {"trf": "fide-2026", "tom": "pokemon", "table": "mtg", "decklist": "melee-e2"}
    for kind, path in files.items():
        with warnings.catch_warnings():  # (what each read says of its empty file)
            warnings.simplefilter("ignore")
            src = sf.read(path)
        assert sf.validate(src).rules == expected[kind], kind
        assert sf.validate(src).events == src.events["event_id"].n_unique(), kind
        said = {}
        for command in ("standings", "validate"):
            main([command, str(path)])
            err = capsys.readouterr()
            said[command] = [line for line in err.err.splitlines()
                             if line.startswith("rules: ")]
            if command == "validate":
                events = src.events.height
                assert f"rules {expected[kind]}, " in err.out, (kind, err.out)
                assert f" {events} event{'' if events == 1 else 's'}," in err.out, (kind, err.out)
        assert said["standings"] == said["validate"], kind
        assert said["validate"][0].startswith(f"rules: {expected[kind]}"), said


def test_validate_of_files_calling_for_several_rulesets_says_which(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Class 142: the events of several files call for several rulesets; ``validate``
    checks them against one (``mtg``) and says which the files call for, a TRF with no
    round among them."""
    files = _zero_round_files(tmp_path)
    main(["validate", str(files["trf"]), str(ROOT / "tests" / "fixtures" / "tom"
                                             / "all_codes.tdf")])
    err = capsys.readouterr().err
    assert "rules: mtg (the files call for fide-2026, pokemon; --rules to choose)" in err


def test_every_command_says_the_same_of_a_file_with_no_round(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Class 146: of a file with no round played, ``explain`` and ``why`` said "player
    '1' is not in any of the 0 events" (a player of the file, in its one event),
    ``--event`` naming its event "event(s) ['zero'] not in the input. Hint: events
    present: []", and ``cut`` "no pairings for the round analysed"; ``standings``,
    ``report`` and ``chart`` said it each in its own words. One sentence now
    (``io._files.NO_RESULTS``), then what it means for the command's output."""
    from swissframe.io._files import NO_RESULTS, NO_RESULTS_HINT

    files = _zero_round_files(tmp_path)
    trf, tom = str(files["trf"]), str(files["tom"])
    runs = [(["explain", trf, "--player", "1"], 2), (["why", tom, "1", "2"], 2),
            (["explain", trf, "--player", "1", "--event", "zero"], 2),
            (["standings", trf, "--event", "zero"], 0), (["cut", trf, "--top", "2"], 2),
            (["report", tom, "-o", str(tmp_path / "r.html")], 2),
            (["standings", str(files["table"])], 0)]
    for argv, code in runs:
        assert main(argv) == code, argv
        err = " ".join(capsys.readouterr().err.split())
        assert "0 events" not in err, (argv, err)
        assert "not in the input" not in err, (argv, err)
        event = "event 'zero' has no result rows (no round played)"
        assert (f"{NO_RESULTS}: " in err or f"{event}: " in err), (argv, err)
        assert "Hint: " in err, argv
    assert main(["explain", trf, "--player", "1", "--event", "zero"]) == 2
    assert (f"error: {event}: no player has a round to show. {NO_RESULTS_HINT}"
            in " ".join(capsys.readouterr().err.split()))



def test_recompute_counts_the_events_read(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Class 150: ``recompute`` of a file with no round played said "events: 0 in" (it
    counted the events of the rows converted, and there are none) where every other
    command counts the events read; beside a file with rounds, that event was in no
    dataset, and files calling for different rulesets, one with no round, went to one
    ``mtg`` dataset (the rows' rulesets). Now the events read are counted, in their
    ruleset's dataset, and an output with no standings is said as ``standings`` says it
    (``io._files.NO_RESULTS``)."""
    from swissframe.io._files import NO_RESULTS

    files = _zero_round_files(tmp_path)
    for kind, path in files.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            events = sf.read(path).events["event_id"].n_unique()
        out = tmp_path / f"out-{kind}"
        assert main(["recompute", str(path), "-o", str(out)]) == 0, kind
        said = capsys.readouterr()
        assert f"events: {events} in, 0 recomputed, 0 skipped; " in said.out, kind
        assert ("no round played: 1 event (no standings)" in said.out) == bool(events), kind
        assert f"swissframe: warning: {NO_RESULTS}: the output has no standings." in " ".join(
            said.err.split()), kind
        manifest = json.loads((out / "_recompute.json").read_text())
        assert (manifest["events_in"], manifest["events_unplayed"]) == (events, events), kind
    # beside an event with rounds, of the same ruleset: one dataset, both events in
    both = tmp_path / "both"
    both.mkdir()
    (both / "zero.trf").write_bytes(files["trf"].read_bytes())
    (both / "played.trf").write_bytes((ROOT / "tests" / "fixtures" / "trf" / "all_codes.trf")
                                      .read_bytes())
    assert main(["recompute", str(both), "-o", str(tmp_path / "o1")]) == 0
    said = capsys.readouterr()
    assert "events: 2 in, 1 recomputed, 0 skipped; " in said.out
    assert "no round played: 1 event (no standings)" in said.out
    assert NO_RESULTS not in said.err
    # of another ruleset: its own dataset, as every command names the file's ruleset
    (both / "zero.trf").unlink()
    (both / "unpaired.tdf").write_bytes(files["tom"].read_bytes())
    assert main(["recompute", str(both), "-o", str(tmp_path / "o2")]) == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "o2").iterdir()) == [
        "ruleset=fide-2026", "ruleset=pokemon"]
    assert "events: 1 in, 0 recomputed, 0 skipped; " in out
    assert "events: 1 in, 1 recomputed, 0 skipped; " in out
    assert out.count("no round played: 1 event (no standings)") == 1


def test_recompute_plans_and_counts_the_unplayed_events(tmp_path: Path) -> None:
    """Class 150: ``sf.recompute(..., unplayed=n)`` (the command line's events with no
    round): in the plan's total and the progress count, so a bar ends full."""
    from swissframe.bulk import recompute

    src = tmp_path / "a.parquet"
    pl.read_csv(EVENTS / "league-night.csv").write_parquet(src)
    planned: list[int] = []
    counted: list[int] = []
    report = recompute(src, tmp_path / "out", unplayed=2, on_plan=planned.append,
                       progress=counted.append)
    assert planned == [report.events_in] == [report.events_done + 2]
    assert sum(counted) == report.events_in
    assert report.events_unplayed == 2
    with pytest.raises(sf.DataError, match="unplayed"):
        recompute(src, tmp_path / "out2", unplayed=-1)

def test_verify_ref_names_the_files_it_does_not_check_in_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``verify-ref`` of one CSV said "x.csv are not"; one file is, several are."""
    one = tmp_path / "one.csv"
    one.write_text("event_id,round,player_id,opponent_id,games_won,games_lost,games_drawn\n"
                   "e,1,A,B,2,0,0\ne,1,B,A,0,2,0\n")
    assert main(["verify-ref", str(one)]) == 2
    assert f"files; {one} is not. Hint: " in " ".join(capsys.readouterr().err.split())
    two = tmp_path / "two.csv"
    two.write_bytes(one.read_bytes())
    assert main(["verify-ref", str(one), str(two)]) == 2
    assert f"files; {one}, {two} are not. Hint: " in " ".join(capsys.readouterr().err.split())


def test_cut_text_reads_each_events_rows_once(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Bad data 262: `swissframe cut`'s text filtered the whole results table (and the
    tables of rounds and of absent players) once per event: quadratic in the events. Each
    event's rows are now a slice of one sort: the whole-table filters do not grow with
    the events, and the text is each event's own."""
    def whole_table_filters(n: int) -> tuple[int, str]:
        df = (sf.simulate(6, 3, n_events=n, seed=5, id_policy=None).results
              .sample(fraction=1.0, shuffle=True, seed=2))
        path = tmp_path / f"s{n}.csv"
        df.write_csv(path)
        real = pl.DataFrame.filter
        seen = [0]

        def counted(self: pl.DataFrame, *args: object, **kwargs: object) -> pl.DataFrame:
            if self.height >= df.height * 2 // 3 and "games_won" in self.columns:
                seen[0] += 1
            return real(self, *args, **kwargs)  # type: ignore[arg-type]

        with monkeypatch.context() as m:
            m.setattr(pl.DataFrame, "filter", counted)
            assert main(["cut", str(path), "--top", "2", "--sims", "0", "--all"]) == 0
        return seen[0], capsys.readouterr().out

    three, _ = whole_table_filters(3)
    six, text = whole_table_filters(6)
    assert six == three
    assert text.count("before round 3 — ") == 6
