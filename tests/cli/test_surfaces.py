"""What a user reads in a real terminal (80 columns) from commands on a chess (TRF) and a
Pokémon (TOM) event: the players under the names the file gives them, the game's own
vocabulary, and no progress bar left on the screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from swissframe.cli import main
from tests.cli.test_terminal import STORE, _fits, run_raw, screen
from tests.helpers import SHARED_ROOT


def test_cut_simulation_bar_is_erased() -> None:
    # `cut` with simulated probabilities left "simulating: 100%|████| 4/4 …" on the screen
    # above the answer (tqdm's default leave=True), though every other bar is erased
    (code, raw), = run_raw([["cut", STORE, "--top", "4", "--exact-limit", "0"]])
    assert code == 0
    assert "simulating" in raw  # drawn on a terminal stderr …
    lines = screen(raw)
    assert not any("simulating" in x for x in lines), lines  # … and erased
    assert "Top 4 before round 4" in "\n".join(lines)
    _fits(lines)


TRF = "tests/fixtures/trf/all_codes.trf"
TOM = "tests/fixtures/tom/three_divisions.tdf"


@pytest.mark.filterwarnings("ignore::swissframe.errors.ImportNotesWarning")
def test_chess_and_pokemon_players_by_name_in_their_games_words() -> None:
    """``explain`` and ``why`` on a TRF or TOM file printed the players as the file's
    numbers ("6 — held_swiss_9", "2 (3rd) beat 1 (4th)") though the user typed names,
    and an MTG summary on a chess player ("OMW% 57.64%, GW% 66.67%, OGW% …", an
    "opp. MW%" column); ``why`` said "match points" for a chess score."""
    (c1, ex), (c2, why), (c3, tom), (c4, twhy) = run_raw([
        ["explain", TRF, "--player", "Echo, Eve", "--quiet"],
        ["why", TRF, "Echo, Eve", "Alpha, Ann", "--quiet"],
        ["explain", TOM, "--player", "Dev Junior", "--quiet"],
        ["why", TOM, "Dev Junior", "Ada Junior", "--quiet"]])
    assert c1 == c2 == c3 == c4 == 0
    ex_lines = screen(ex)
    assert ex_lines[0] == "Echo, Eve — Fixture Open, fide-2026"  # (the file's own name)
    assert ex_lines[1].startswith("rank 1, 3 points, record 3-0-0, BH-C1 3.5, BH 4.5, SB 4.5")
    text = "\n".join(ex_lines)
    assert "MW%" not in text  # (nor OMW%)
    assert "GW%" not in text
    assert "Foxtrot, Fay" in text  # an opponent, by name
    # the bye, as Buchholz counts it (its note wraps: words, not lines)
    assert "Buchholz counts 1.5 for this round" in " ".join(text.split())
    assert "left out of averages" not in text
    why_lines = screen(why)
    assert why_lines[0] == "Echo, Eve (1st) beat Alpha, Ann (2nd) on points: 3 vs 2."
    assert any(x.startswith("points ") for x in why_lines)
    assert "match points" not in "\n".join(why_lines)
    tom_text = "\n".join(screen(tom))
    assert screen(tom)[0].startswith("Dev Junior — Three Divisions (juniors), pokemon")
    assert "OMW% 41.67%, OOMW% 55.56%" in tom_text
    assert "GW%" not in tom_text
    assert "(Cleo Junior): win rate" in tom_text
    assert screen(twhy)[0].startswith("Dev Junior (1st) beat Ada Junior (2nd) on match points")
    # the order drawn by lot shows no digits (its seeded key's were 16 of them)
    lot = next(x for x in screen(twhy) if x.startswith("random draw"))
    assert lot.split()[2:] == ["by", "lot", "by", "lot"]
    for raw in (ex, why, tom, twhy):
        _fits(screen(raw))


def test_explain_says_one_point() -> None:
    """It said "1 points"."""
    ((code, out),) = run_raw([["explain", TRF, "--player", "Golf, Gus", "--quiet"]])
    assert code == 0
    assert screen(out)[1].startswith("rank 7, 1 point, record 0-1-2"), screen(out)


def test_the_demo_fits_80_columns_and_shows_the_tiebreakers() -> None:
    """`make demo` is a new user's first command: at 80 columns its tables keep the
    ranking columns (points, record, OMW% …) as `standings` does, say how to see the
    others, and no line wraps (the full tables were cut to wins, losses, byes, dropped)."""
    ((code, raw),) = run_raw([["demo"]])
    assert code == 0
    lines = screen(raw)
    _fits(lines)
    text = "\n".join(lines)
    assert "OMW%" in text
    assert "record" in text
    assert "-o FILE.csv has them all" in text
    # (who dropped, as `standings` says it: a `note` column; a `dropped` column of "no"s
    # it was, beside standings' own table of the same file)
    store = text[text.index("## store-championship"):]
    head = next(line for line in store.splitlines() if line.startswith("│ player"))
    assert [c.strip(" │") for c in head.split("┆")][-1] == "note", head
    assert re.search(r"Elena .*┆ dropped +│", store), store


def test_every_help_page_says_what_the_command_does() -> None:
    """``explain --help`` printed "OMW%%, OGW%%" (a description is not %-formatted) and
    named only MTG's tiebreakers; ``recompute --help`` gave --rules two defaults; ``report
    --help`` said decklist files are ranked under mtg (they get their platform's preset)."""
    import argparse

    from swissframe.cli._main import build_parser

    parser, _ = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    pages = {name: p.format_help() for name, p in sub.choices.items()}
    for name, text in pages.items():
        assert "%%" not in text, name
        for option in text.split("\n  -")[1:]:
            assert option.count("(default") <= 1, (name, option)
    assert "Buchholz" in pages["explain"]
    rules_help = pages["standings"].split("\n  --rules NAME")[1].split("\n  --")[0]
    assert rules_help in pages["report"]


def test_an_unknown_ruleset_gets_the_nearest_names() -> None:
    (code, raw), = run_raw([["standings", STORE, "--rules", "Fid", "--quiet"]])
    assert code == 2
    assert "did you mean 'fide'?" in " ".join(x.strip() for x in screen(raw))


HELD9 = (SHARED_ROOT / "data" / "realworld" / "chess-trf" / "OttoMilvang_TieBreakServer"
         / "tests" / "fixtures" / "held_swiss_9.trf")


@pytest.mark.skipif(not HELD9.exists(), reason=f"shared real-world data not found at {HELD9}")
def test_chess_cut_in_chess_words() -> None:
    """``cut`` on a chess event printed its scores as "4.0" and "5.5" (the standings print
    4 and 5.5) and stated its probability model as "each table ending 2-0, 2-1, 1-2, 0-2
    or 0-0-3", scores no chess game has."""
    (code, raw), = run_raw([["cut", str(HELD9), "--quiet"]])
    assert code == 0
    lines = screen(raw)
    _fits(lines)
    reine = next(x for x in lines if " Reine " in x and "possible" in x)
    assert reine.split()[:3] == ["8", "Reine", "4"], reine
    assert not any(".0 " in x or x.endswith(".0") for x in lines), lines
    words = " ".join(" ".join(lines).split())
    # a chess game's outcomes (Ruleset.match_outcomes): a win, a loss or a draw, each 1/3
    # (the card games' best of three gave a draw 1 chance in 5)
    assert "a win for either player (1 chance in 3 each) or a draw (1 in 3)" in words
    assert "each table ending 2-0" not in words
    # a chess table ends in a result: no game scores (a card game's legend keeps them,
    # tests/cli/test_contract.py)
    assert "2-1" not in words
    assert "in games" not in words


COMBINED_POD = Path(__file__).parents[1] / "fixtures" / "tom" / "combined.tdf"


def test_why_and_explain_rank_a_combined_pod_per_division(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A combined TOM pod is paired together and ranked per age division (``standings``
    prints masters 1-3, seniors 1-3): ``why`` and ``explain`` said the pod's ranks (M3 X
    "3rd", M2 X "6th") and compared players of two divisions without a word."""
    assert main(["why", str(COMBINED_POD), "M3 X", "M2 X", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("M3 X (2nd) beat M2 X (3rd) on match points")
    assert main(["explain", str(COMBINED_POD), "--player", "M2 X", "--quiet"]) == 0
    assert "rank 3," in capsys.readouterr().out
    assert main(["why", str(COMBINED_POD), "M3 X", "S1 X", "--quiet"]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert ("M3 X (masters) and S1 X (seniors) are ranked in different age divisions"
            in said)
    assert "Hint: compare two players of one division." in said


def test_a_combined_pod_shows_its_division_beside_the_rank_at_80_columns() -> None:
    """A combined pod's ranks start again per division (masters 1-3, then seniors 1-3):
    at 80 columns the division was the first column left out, so the table read as two
    players ranked 1st. It is kept right after the rank where an event ranks several
    divisions apart (a single division's is a constant column, kept last), and
    head-to-head says what its +1 / -1 mean."""
    (code, raw), (one_code, one) = run_raw(
        [["standings", str(COMBINED_POD), "--event", "combined:seniors+masters"],
         ["standings", str(COMBINED_POD.with_name("all_codes.tdf"))]], columns=80)
    assert code == one_code == 0
    lines = screen(raw)
    _fits(lines)
    head = next(x for x in lines if "rank" in x)
    assert "division" in head
    one_head = next(x for x in screen(one) if "rank" in x)
    assert "division" not in one_head
    # (why a player left, before head-to-head, which orders two tied players who met)
    assert "note" in one_head
    assert any("(+10 more columns: head-to-head" in x for x in screen(one))
    (wide_code, wide), = run_raw([["standings", str(COMBINED_POD.with_name("all_codes.tdf"))]],
                                 columns=100)
    assert wide_code == 0
    assert any("head-to-head: +1 beat the other tied player, -1 lost to them" in x
               for x in screen(wide))


@pytest.mark.parametrize("rules", ["melee-e2", "cardsrealm-e1"])
def test_omw_ranges_under_a_platforms_counting_says_the_option_that_draws_them(
        rules: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``chart omw-ranges`` of any melee.gg or CardsRealm file (their presets are the files'
    defaults) ended in the ranges' own refusal, whose hint is Python's
    ``dataclasses.replace(rules, …)``: the command line's words name ``--rules mtg``."""
    out = tmp_path / "omw.png"
    assert main(["chart", "omw-ranges", STORE, "--rules", rules, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"ruleset '{rules}' sets distinct_opponents=" in err
    assert "Hint: --rules mtg draws the ranges under the MTR" in err
    assert "dataclasses" not in err
    assert not out.exists()
