"""The words every surface uses for the same thing: why a player is not there (a day-2
cut is not a drop), a drawn match in the game's own word, a column's heading, an event's
name."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import swissframe as sf
from swissframe.cli import main

#: A day-2 event: A–H play day 1 (G and H leave after round 1), A–D make day 2.
DAY2_ROWS = [(1, "A", "E", 2, 0), (1, "B", "F", 2, 0), (1, "C", "G", 2, 0),
             (1, "D", "H", 2, 0), (2, "A", "B", 2, 0), (2, "C", "D", 2, 0),
             (2, "E", "F", 2, 0), (3, "A", "C", 2, 0), (3, "B", "D", 2, 0),
             (4, "A", "B", 0, 2), (4, "C", "D", 2, 1)]


def _day2(tmp_path: Path) -> Path:
    f = tmp_path / "day2.csv"
    f.write_text("round,player_id,opponent_id,games_won,games_lost,games_drawn,stage\n" + "".join(
        f"{r},{a},{b},{x},{y},0,day{1 + (r > 2)}\n{r},{b},{a},{y},{x},0,day{1 + (r > 2)}\n"
        for r, a, b, x, y in DAY2_ROWS))
    return f


def _cells(out: str) -> dict[str, list[str]]:
    """A box table's rows by their first cell."""
    rows = [[c.strip() for c in line.strip("│").split("┆")]
            for line in out.splitlines() if line.startswith("│")]
    return {r[0]: r for r in rows}


def test_standings_and_explain_say_who_did_not_make_day_two(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``swissframe standings`` of a day-2 event showed the engine's ``dropped`` flag
    ("yes") for the players who did not make day 2 (a real melee event: 90 of them), and
    ``explain`` said "E dropped after round 2"; ``cut`` and the report said "did not make
    day 2". Every surface now says it through ``cut._words.absence_notes``; the data keep
    the engine's ``dropped`` column."""
    monkeypatch.setenv("COLUMNS", "200")
    f = _day2(tmp_path)
    assert main(["standings", str(f), "--quiet"]) == 0
    rows = _cells(capsys.readouterr().out)
    head = rows.pop("player_id") if "player_id" in rows else rows.pop("player")
    at = head.index("note")
    # (said short in the column, "no day 2", and in full under the table)
    assert {p: r[at] for p, r in rows.items()} == {
        "A": "", "B": "", "C": "", "D": "", "E": "no day 2",
        "F": "no day 2", "G": "dropped", "H": "dropped"}
    assert main(["standings", str(f), "--quiet"]) == 0
    assert ("note: no day 2 = did not make day 2 (the cut after day 1; not a drop)"
            in capsys.readouterr().out)
    assert main(["standings", str(f), "--format", "csv", "--quiet"]) == 0
    csv = capsys.readouterr().out
    assert "dropped" in csv.splitlines()[0].split(",")  # (the data keep the flag)
    assert main(["explain", str(f), "--player", "E", "--quiet"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "E did not make day 2 (last round played: 2)." in out, out
    assert "dropped" not in out
    assert main(["explain", str(f), "--player", "G", "--quiet"]) == 0
    assert "G dropped after round 1." in capsys.readouterr().out
    assert main(["standings", str(f), "--through-round", "3", "--quiet"]) == 0
    rows = _cells(capsys.readouterr().out)
    assert rows["E"][at] == "no day 2"


def _six(tmp_path: Path) -> Path:
    """Six players, three rounds, a drawn match in round 1 (C–D)."""
    f = tmp_path / "six.csv"
    f.write_text("round,player_a,player_b,games_a,games_b,games_drawn\n"
                 "1,A,B,2,0,0\n1,C,D,1,1,1\n1,E,F,2,1,0\n"
                 "2,A,E,2,0,0\n2,C,B,2,0,0\n2,D,F,0,2,0\n"
                 "3,A,C,1,2,0\n3,E,D,2,0,0\n3,B,F,0,2,0\n")
    return f


def test_pokemon_surfaces_call_a_drawn_match_a_tie(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Pokémon calls a drawn match a tie (TRH §5.3.1, W/L/T; rules.md §2.1); ``cut`` said
    "in with a draw", "if draw", "a draw 1" and ``explain`` "draw" of a Pokémon event.
    The word is the ruleset's ``draw_word``; MTG keeps "draw"."""
    f = str(_six(tmp_path))
    assert main(["cut", f, "--rules", "pokemon", "--top", "2", "--all", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "if tie" in out, out
    assert "if draw" not in out, out
    words = " ".join(out.split())
    assert "or a tie (" in words, words
    assert "a tie 1, a loss 0" in words, words
    assert "draw" not in words.replace("draw lots", ""), words
    assert main(["explain", f, "--player", "C", "--rules", "pokemon", "--quiet"]) == 0
    row = next(x for x in capsys.readouterr().out.splitlines() if x.split()[:2] == ["1", "D"])
    assert row.split()[2] == "tie", row
    assert main(["cut", f, "--rules", "mtg", "--top", "2", "--all", "--quiet"]) == 0
    assert "if draw" in capsys.readouterr().out
    assert main(["explain", f, "--player", "C", "--rules", "mtg", "--quiet"]) == 0
    row = next(x for x in capsys.readouterr().out.splitlines() if x.split()[:2] == ["1", "D"])
    assert row.split()[2] == "draw", row


def test_chess_cut_advice_speaks_of_places_not_intentional_draws(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``cut`` of a chess event advised "draw safe for B only", "both can draw in": an
    intentional draw into a playoff, which chess has neither of (a draw is a result, the
    places go by the final standings). It now says what a draw does to the places."""
    f = str(_six(tmp_path))
    assert main(["cut", f, "--rules", "fide", "--top", "2", "--all", "--quiet"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for card_words in ("draw safe", "can draw in", "play ("):
        assert card_words not in out, out
    assert any(s in out for s in ("a draw keeps", "neither is safe with a draw",
                                  "a draw leaves both out")), out


def test_every_cli_table_heads_a_criterion_as_explain_names_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The standings headed their columns by the data's names (``omwp``, ``bh_c1``,
    ``match_points``) beside labels (``DE``, ``points``), while ``explain`` and ``why``
    said ``OMW%``, ``BH-C1``; every box table now heads a column through one mapping
    (``compare.column_heading``, applied by ``cli._common.render_table``), and the data
    keep their names. (At 200 columns a chess table shows every column and DE's legend
    line: that ended in "UnboundLocalError: … 'textwrap'".)"""
    monkeypatch.setenv("COLUMNS", "200")
    f = str(_six(tmp_path))
    heads = {}
    for rules in ("mtg", "fide", "pokemon"):
        assert main(["standings", f, "--rules", rules, "--quiet"]) == 0
        rows = _cells(capsys.readouterr().out)
        heads[rules] = next(r for r in rows.values() if "rank" in r)
    assert heads["mtg"][:7] == ["player", "rank", "match points", "record", "OMW%", "GW%",
                                "OGW%"]
    assert heads["fide"][2:8] == ["points", "record", "BH-C1", "BH", "SB", "DE"]
    assert heads["pokemon"][4:7] == ["OMW%", "OOMW%", "head-to-head"]
    assert main(["explain", f, "--player", "A", "--rules", "mtg", "--quiet"]) == 0
    said = capsys.readouterr().out
    assert all(f"{label} " in said for label in ("OMW%", "GW%", "OGW%"))
    assert main(["sensitivity", f, "--rules", "mtg", "--top", "2", "--quiet"]) == 0
    sens = next(r for r in _cells(capsys.readouterr().out).values() if "ruleset" in r)
    assert "Kendall τ" in sens
    assert "kendall_tau" not in sens
    assert main(["standings", f, "--format", "csv", "--quiet"]) == 0
    assert {"omwp", "match_points", "player_id"} <= set(
        capsys.readouterr().out.splitlines()[0].split(","))


TRF = Path(__file__).parents[1] / "fixtures" / "trf" / "all_codes.trf"


def test_every_surface_names_an_event_by_one_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The standings, ``cut`` and ``explain`` named a TRF event by its file's stem
    ("all_codes"), the charts by the file's own name ("Fixture Open") and the report by
    either or a title made of the stem ("League Night"). One rule now,
    ``io._files.event_names``: the file's own name, else the stem."""
    import swissframe as sf

    f = str(TRF)
    assert main(["standings", f, "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "Fixture Open"
    assert main(["cut", f, "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(" — Fixture Open")
    player = sf.read(f).names["name"][0]
    assert main(["explain", f, "--player", player, "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith(f"{player} — Fixture Open, ")
    assert "<h1>Fixture Open</h1>" in sf.report(f, n_sims=0).html
    src = sf.read(f)
    assert src.event_names == {"all_codes": "Fixture Open"}
    assert main(["chart", "standings", f, "-o", str(tmp_path / "c.svg"), "--quiet"]) == 0
    assert "Fixture Open" in (tmp_path / "c.svg").read_text()
    six = _six(tmp_path)  # (a table: the stem)
    assert main(["standings", str(six), "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "six"
    assert "<h1>six</h1>" in sf.report(str(six), n_sims=0).html


@pytest.mark.parametrize("columns", [["player_id", "player"], ["event_id", "event"],
                                     ["match_points", "points"], ["points", "match_points"]])
def test_a_table_whose_headings_would_repeat_a_column_keeps_the_names(
        columns: list[str]) -> None:
    """A heading (``player_id`` → "player", FIDE's ``match_points`` → "points") equal to
    another column's own name was Polars' DuplicateError in every text table."""
    from swissframe.cli._common import render_table

    df = pl.DataFrame({c: ["1"] for c in columns})
    head = render_table(df, rules=[sf.rules.FIDE]).splitlines()[1]
    assert [h.strip() for h in head.strip("│").split("┆")] == columns


def test_a_long_name_gives_way_to_the_note_at_80_columns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A large event's long names (29 characters) left no room for the day-2 note at 80
    columns: the name column now gives way (down to 14 characters, "…") for a ranking
    column, and only for one — never to show a column the ranking does not name."""
    import io

    from swissframe.cli._common import render_table, write_per_event

    df = pl.DataFrame({"player": ["Bartholomew Featherstonehaugh", "Al"], "rank": [1, 2],
                       "match points": [40, 12], "OMW%": [0.6243, 0.5], "GW%": [0.7, 0.5],
                       "note": [None, "no day 2"], "byes": [0, 0]})
    lines = render_table(df, width=80, keep=1, priority=["rank", "match points", "OMW%",
                                                         "GW%", "note"]).splitlines()
    assert all(len(x) <= 80 for x in lines)
    assert "note" in lines[1]
    assert "byes" not in lines[1]  # (the name was not cut for it)
    assert any("Bartholomew" in x and "…" in x for x in lines)
    # where everything fits, the name is whole
    assert "Bartholomew Featherstonehaugh" in render_table(df, width=200, keep=1)
    # an event's long name is wrapped at words above its table, not cut by the terminal
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    named = df.with_columns(event_id=pl.lit("e")).select("event_id", "player", "rank")
    write_per_event(named, stream=out, names={"e": "Regional Championship - SCG CON "
                                              "Houston - Season 4 - Round 1 - Saturday - "
                                              "9:00 am"})
    head = out.getvalue().splitlines()[:2]
    assert head == ["Regional Championship - SCG CON Houston - Season 4 - Round 1 - "
                    "Saturday - 9:00", "am"]


def test_validate_names_the_one_file_and_event_once(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Each problem's line opened with the file's path and the event's id (a decklist
    file: 150 characters each, over two lines at 80 columns before the problem itself):
    the file and event all problems share are said once, above them; problems of several
    files still name theirs."""
    rows = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
                         "player_b": ["B", "D", "C", "D"], "games_a": [3, 2, 3, 2],
                         "games_b": [0, 0, 0, 1], "games_drawn": [0] * 4})
    one = tmp_path / ("a-very-long-event-file-name-" * 3 + ".csv")
    rows.write_csv(one)
    assert main(["validate", str(one), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert out.count(str(one)) == 1
    assert f"all in file {one}" in out
    assert f"all in event '{one.stem}'" in out
    problems = [x for x in out.splitlines() if x.startswith("  - ")]
    assert len(problems) == 2
    assert all(x.startswith("  - round ") for x in problems)
    other = tmp_path / "b.csv"
    rows.write_csv(other)
    assert main(["validate", str(one), str(other), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "all in file" not in out
    assert all(x.startswith("  - file ") for x in out.splitlines() if x.startswith("  - "))


@pytest.mark.filterwarnings("ignore::swissframe.errors.ImportNotesWarning")
def test_chess_explain_tells_each_unplayed_round_and_counts_its_wins(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``explain`` of a TRF tells a forfeit, a bye of each kind and an absence in chess
    words (C.07 Art. 16.2), never the card games' "unopposed loss", and its WIN line
    still counts a forfeit win against nobody (the round's result was "bye") and a
    pairing-allocated bye among the rounds won (C.07 Art. 7.2)."""
    f = "tests/fixtures/trf/all_codes.trf"
    outs = {}
    for player in ("Delta, Dan", "Echo, Eve", "Hotel, Hal", "Bravo, Ben"):
        assert main(["explain", f, "--player", player, "--rules", "fide"]) == 0
        outs[player] = " ".join(capsys.readouterr().out.split())
    text = " ".join(outs.values())
    assert "unopposed loss" not in text
    for words in ("forfeit win", "forfeit loss", "pairing-allocated bye", "zero-point bye",
                  "absent"):
        assert words in text, words
    assert "WIN = 1 (round 3)" in outs["Delta, Dan"]
    assert "WIN = 3 (rounds 1, 2, 3)" in outs["Echo, Eve"]
