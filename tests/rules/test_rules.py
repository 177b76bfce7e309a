"""Rulesets as data: presets for every game (rules.md §3: YGO-F1/F2, FAB-F1/F2, LOR-F1,
SWU-F1/F2, OP-F1/F2), validation of ruleset definitions, user-defined rulesets and the
``swissframe rules`` command."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import itertools
import json
import pathlib
import re
from fractions import Fraction
from typing import Final

import polars as pl
import pytest

import swissframe as sf
from swissframe.cli.commands import rules as rules_cmd
from swissframe.errors import RulesetError
from swissframe.rules import Criterion, Ruleset
from swissframe.tiebreakers import decode_ygo_number
from tests.helpers import Opp, event_from_opponents

G = {"W": (2, 0, 0), "L": (0, 2, 0), "D": (1, 1, 0), "w": (1, 0, 0), "l": (0, 1, 0),
     "d": (0, 0, 1)}


def solo(records: dict[str, list[str | tuple[int, int, int]]]) -> pl.DataFrame:
    """Each player meets one-off fillers; entries are result letters, 'BYE', or games."""
    rows = []
    filler = itertools.count()
    for pid, res in records.items():
        for rnd, r in enumerate(res, start=1):
            if r == "BYE":
                rows.append(("e", rnd, pid, None, 2, 0, 0))
                continue
            g = G[r] if isinstance(r, str) else r
            f = f"f{next(filler)}"
            rows.append(("e", rnd, pid, f, *g))
            rows.append(("e", rnd, f, pid, g[1], g[0], g[2]))
    return pl.DataFrame(rows, orient="row", schema=["event_id", "round", "player_id",
                                                    "opponent_id", "games_won", "games_lost",
                                                    "games_drawn"])


def col(st_: pl.DataFrame, name: str) -> dict[str, object]:
    return dict(zip(st_["player_id"].to_list(), st_[name].to_list(), strict=True))


def matches(spec: list[tuple[int, str, str, tuple[int, int, int]]]) -> pl.DataFrame:
    m = pl.DataFrame([(r, a, b, *g) for r, a, b, g in spec], orient="row",
                     schema=["round", "player_a", "player_b", "games_a", "games_b",
                             "games_drawn"])
    return sf.from_matches(m)


# ------------------------------------------------------------------ presets exist


def test_every_issue_preset_is_registered_and_cites_a_source() -> None:
    for name in ("pokemon", "pokemon-2016", "mtg", "mtg-1999", "mtg-wer", "mtg-1/3",
                 "yugioh", "yugioh-ddd", "fab", "melee-two-game", "swu", "one-piece", "digimon",
                 "fide",
                 "fide-2026", "fide-2009"):
        rs = sf.rules.get(name)
        assert rs.name == name
        assert rs.source, name


@pytest.mark.parametrize("name", sorted(sf.rules.PRESETS))
def test_a_preset_cites_documents_a_user_can_open(name: str) -> None:
    """A source names the official document (MTR, TRH, FIDE Handbook C.07, a policy, a
    platform's help page) or a page of the repository's ``docs/``: never the shared
    folder's ``rules.md`` / ``SOURCES.md``, which a user of the package does not have
    (``swissframe rules`` and every report footer print it)."""
    source = sf.rules.get(name).source
    assert source
    assert "rules.md" not in source, source
    assert "SOURCES" not in source, source
    root = pathlib.Path(__file__).parents[2]
    for page in re.findall(r"docs/[\w.-]+\.md", source):
        assert (root / page).is_file(), page


@pytest.mark.parametrize("name", sorted(sf.rules.PRESETS))
def test_every_preset_runs(name: str) -> None:
    rs = sf.rules.get(name)
    res = solo({"a": ["W", "L", "D"], "b": ["L", "W", "BYE"]})
    if rs.snapshot == "stage":
        res = res.with_columns(stage=pl.lit("day1"))
    st_ = sf.standings(res, rs)
    assert st_["rank"].min() == 1
    assert st_.columns[:14] == list(importlib.import_module("swissframe.standings")
                                    .STANDINGS_COLUMNS)


# ------------------------------------------------------------------ Yu-Gi-Oh!


def test_ygo_f1_decode() -> None:
    assert decode_ygo_number(33726677) == (33, Fraction(726, 1000), Fraction(677, 1000), None)
    assert decode_ygo_number(6444518009) == (6, Fraction(444, 1000), Fraction(518, 1000), 9)


def pkm_f3() -> pl.DataFrame:
    return matches([(1, "A", "B", G["w"]), (1, "C", "D", G["w"]), (2, "A", "C", G["w"]),
                    (2, "B", "D", G["w"]), (3, "D", "A", G["w"]), (3, "B", "C", G["w"])])


def test_ygo_f2_printed_number_and_ddd() -> None:
    st_ = sf.standings(pkm_f3(), "yugioh-ddd")
    assert col(st_, "ygo_tiebreaker")["A"] == 6_444_518_009
    assert col(st_, "ygo_tiebreaker")["B"] == 6_444_518_001
    assert col(st_, "lost_round_squares") == {"A": 9, "B": 1, "C": 4 + 9, "D": 1 + 4}
    assert st_["player_id"].to_list()[:2] == ["A", "B"]
    plain = sf.standings(pkm_f3(), "yugioh")
    assert col(plain, "ygo_tiebreaker")["A"] == 6_444_518
    assert plain.filter(pl.col("player_id").is_in(["A", "B"]))["rank"].to_list() == [1, 1]
    rounded = dataclasses.replace(
        sf.rules.YUGIOH, name="ygo-round",
        columns=(sf.rules.yugioh_number(loss_squares=True, rounding="round"),))
    assert col(sf.standings(pkm_f3(), rounded), "ygo_tiebreaker")["A"] == 6_444_519_009


# ------------------------------------------------------------------ Flesh and Blood


def test_fab_f1_cumulative_tiebreaker() -> None:
    st_ = sf.standings(solo({"wwl": ["W", "W", "L"], "wlw": ["W", "L", "W"],
                             "lww": ["L", "W", "W"], "wdl": ["W", "D", "L"]}), "fab")
    ctb = col(st_, "ctb")
    assert (ctb["wwl"], ctb["wlw"], ctb["lww"], ctb["wdl"]) == (2.5625, 2.3125, 2.25, 1.3125)
    pml = col(st_, "pml")
    assert [pml[p] for p in ("wwl", "wlw", "lww", "wdl")] == [pytest.approx(1 / 3)] * 4
    order = [p for p in st_["player_id"].to_list() if p in ("wwl", "wlw", "lww")]
    assert order == ["wwl", "wlw", "lww"]
    assert col(st_, "match_points")["wdl"] == 1  # a draw is worth 0 points


def test_fab_f2_lower_oml_ranks_higher() -> None:
    res = matches([(1, "A", "B", G["w"]), (1, "C", "D", G["d"]), (2, "A", "C", G["w"]),
                   (2, "B", "D", G["w"])])
    st_ = sf.standings(res, "fab")
    assert col(st_, "match_points") == {"A": 2, "B": 1, "C": 0, "D": 0}
    assert (col(st_, "ctb")["C"], col(st_, "ctb")["D"]) == (0.0, 0.0)
    assert (col(st_, "pml")["C"], col(st_, "pml")["D"]) == (0.5, 0.5)
    assert (col(st_, "omlp")["C"], col(st_, "omlp")["D"]) == (0.25, 0.5)
    assert st_["player_id"].to_list() == ["A", "B", "C", "D"]


def test_fab_pml_a_bye_is_not_a_match_played() -> None:
    # FaB Pairings and Tiebreaker Policy: "every round, each player plays a match against
    # another player, unless they have been awarded a bye"; PML = losses / matches played.
    # P: bye, W, L and Q: W, W, L both have 2 points and CTB 1 → 2.25 → 2.5625; P's PML
    # is 1/2 (two matches), Q's 1/3, so Q ranks above P (counting the bye: 1/3 each, and
    # OML% would rank P first).
    res = solo({"P": ["BYE", "W", "L"], "Q": ["W", "W", "L"]})
    st_ = sf.standings(res, "fab")
    assert col(st_, "ctb")["P"] == col(st_, "ctb")["Q"] == 2.5625
    assert (col(st_, "pml")["P"], col(st_, "pml")["Q"]) == (0.5, pytest.approx(1 / 3))
    order = [p for p in st_["player_id"].to_list() if p in "PQ"]
    assert order == ["Q", "P"]
    counted = dataclasses.replace(sf.rules.FAB, name="fab-bye-played", criteria=(
        sf.rules.POINTS, Criterion("ctb"),
        Criterion("pml", descending=False, params=(("byes", True),)),
        Criterion("omlp", descending=False, params=(("byes", True),)), Criterion("octb")))
    assert col(sf.standings(res, counted), "pml")["P"] == pytest.approx(1 / 3)


def test_fab_pml_of_a_player_whose_only_round_is_a_bye_is_0() -> None:
    # Class 137: PML = "Player total losses / total matches played" and a bye is no match
    # played, so a player whose only round is a bye had no PML (null), which ranked them
    # below every player tied with them on points and CTB. They have lost no match: PML
    # 0, as a player who played and lost none (Q). OML% stays null: they met no opponent
    # (as MTG's OMW% of a player with only byes).
    res = solo({"P": ["BYE"], "Q": ["W"], "R": ["BYE", "L"]})
    st_ = sf.standings(res, "fab")
    assert (col(st_, "pml")["P"], col(st_, "pml")["Q"], col(st_, "pml")["R"]) == (0, 0, 1)
    assert col(st_, "omlp")["P"] is None
    assert st_.select(pl.col("pml").is_null().sum()).item() == 0


# ------------------------------------------------------------------ Lorcana / melee two-game


def test_lor_f1_two_game_points() -> None:
    st_ = sf.standings(solo({"P": [(2, 0, 0), (1, 1, 0), (1, 0, 1)],
                             "Q": [(1, 1, 0), (2, 0, 0), (0, 0, 2)]}), "melee-two-game")
    assert col(st_, "match_points")["P"] == 13
    assert col(st_, "match_points")["Q"] == 10
    assert col(st_, "game_wins")["P"] == 4
    assert col(st_, "game_wins")["Q"] == 3
    # P's fillers scored 0 (lost 0-2), 3 (1-1) and 0 (0-1 + a drawn game), 1 round each
    assert col(st_, "omp")["P"] == pytest.approx(3 / 21)


def test_melee_two_game_sweep_bonus_and_bye() -> None:
    st_ = sf.standings(solo({"S": ["BYE", (0, 2, 0)]}), "melee-two-game")
    assert col(st_, "match_points")["S"] == 7
    assert col(st_, "match_points")["f0"] == 7


# ------------------------------------------------------------------ Star Wars: Unlimited


def test_swu_f1_floor_3333() -> None:
    res = event_from_opponents({"S": [Opp((1, 1, 0), "L"), Opp((0, 2, 0), "W")]})
    st_ = sf.standings(res, "swu")
    assert col(st_, "omwp")["S"] == pytest.approx(0.41665, abs=1e-12)


def test_swu_f2_match_and_game_rates() -> None:
    st_ = sf.standings(solo({"S": [(2, 1, 0), (1, 1, 1), (0, 2, 0)]}), "swu")
    assert col(st_, "mwp")["S"] == pytest.approx(4 / 9)
    assert col(st_, "gwp")["S"] == pytest.approx(10 / 24)


def test_swu_ranks_by_match_wins_not_points() -> None:
    res = solo({"X": ["W", "L", "L", "L"], "Y": ["D", "D", "D", "D"]})
    swu = sf.standings(res, "swu")
    mtg = sf.standings(res, "mtg")
    assert col(swu, "match_points")["Y"] > col(swu, "match_points")["X"]
    ranks = col(swu, "rank")
    assert ranks["X"] < ranks["Y"]
    assert col(mtg, "rank")["Y"] < col(mtg, "rank")["X"]
    assert col(swu, "match_wins")["X"] == 1


# ------------------------------------------------------------------ One Piece


def test_op_f1_byes_excluded_floor_033() -> None:
    res = event_from_opponents({"P": [Opp((0, 4, 0), "W"), Opp((3, 1, 0), "L"),
                                      Opp((0, 0, 0), "BYE"), Opp((2, 2, 0), "W")]})
    st_ = sf.standings(res, "one-piece")
    assert col(st_, "mwp")["P"] == pytest.approx(2 / 3)
    assert col(st_, "omwp")["P"] == pytest.approx(0.526667, abs=1e-6)
    assert col(st_, "omwp")["P"] == pytest.approx((0.33 + 0.75 + 0.5) / 3, abs=1e-15)


def test_op_f2_double_loss() -> None:
    res = pl.DataFrame({"round": [1, 1], "player_id": ["X", "Y"], "opponent_id": [None, None],
                        "games_won": [0, 0], "games_lost": [1, 1], "games_drawn": [0, 0]},
                       schema_overrides={"opponent_id": pl.String})
    st_ = sf.standings(res, "one-piece")
    assert col(st_, "losses") == {"X": 1, "Y": 1}
    assert col(st_, "mwp") == {"X": 0.33, "Y": 0.33}
    assert col(st_, "match_points") == {"X": 0, "Y": 0}


# ------------------------------------------------------------------ Digimon


def test_digimon_preset_is_mtg_like_with_oomw_after_own_rate() -> None:
    # rules.md §3.6 [?]: MTG-like (3/1/0, floor 0.33), points → OMW% → own win rate →
    # opponents' OMW%. On MTG-F5 (rules.md §1.7, floor 0.33 variant) the order is MTG's;
    # E and C tie on points and OMW% decides (0.442778 vs 0.405185).
    assert [c.name for c in sf.rules.DIGIMON.criteria] == ["match_points", "omwp", "mwp",
                                                            "oomwp"]
    m = pl.DataFrame({"round": [1, 1, 1, 2, 2, 3, 3],
                      "player_a": ["A", "C", "E", "A", "E", "A", "C"],
                      "player_b": ["B", "D", None, "C", "B", "E", "B"],
                      "games_a": [2, 2, None, 1, 2, 0, 2], "games_b": [1, 0, None, 1, 1, 0, 0],
                      "games_drawn": [0, 0, None, 1, 0, 3, 0]})
    st_ = sf.standings(sf.from_matches(m), "digimon")
    assert st_["player_id"].to_list() == ["E", "C", "A", "D", "B"]
    assert [round(x, 6) for x in st_["omwp"]][:3] == [0.442778, 0.405185, 0.628519]
    assert col(st_, "mwp")["E"] == pytest.approx(7 / 9)
    # equal points and OMW%: the own win rate decides. X dropped after 4 rounds (6 points,
    # MW 6/12), Y played all 5 (6 points, MW 6/15); every opponent's MW is 1/2
    four = [Opp((1, 1, 0), "W"), Opp((1, 1, 0), "W"), Opp((2, 2, 0), "L"),
            Opp((2, 2, 0), "L")]
    res = event_from_opponents({"X": four, "Y": [*four, Opp((3, 3, 0), "L")]})
    st2 = sf.standings(res, "digimon")
    x, y = (st2.filter(pl.col("player_id") == p).row(0, named=True) for p in "XY")
    assert x["match_points"] == y["match_points"] == 6
    assert x["omwp"] == y["omwp"] == 0.5
    assert (x["mwp"], y["mwp"]) == (0.5, pytest.approx(0.4))
    assert x["rank"] < y["rank"]


# ------------------------------------------------------------------ rulesets as data


def test_user_defined_ruleset_in_a_few_lines() -> None:
    mine = Ruleset(name="league", points_win=2, points_draw=1, floor=Fraction(1, 4),
                   criteria=(Criterion("match_points"), Criterion("ctb"),
                             Criterion("pml", descending=False)))
    st_ = sf.standings(solo({"early": ["W", "L"], "late": ["L", "W"]}), mine)
    assert col(st_, "match_points")["early"] == 2
    assert st_["player_id"].to_list().index("early") < st_["player_id"].to_list().index("late")


def test_a_ruleset_that_ranks_by_nothing_is_refused() -> None:
    """No criteria and ``points_first=False``: every analysis sorted on no column and
    ended in Polars' bare ``ValueError`` (bad data 202); match points alone still rank."""
    with pytest.raises(RulesetError, match=r"ranks by nothing.*Hint"):
        Ruleset(name="x", criteria=(), points_first=False)
    with pytest.raises(RulesetError, match="ranks by nothing"):
        dataclasses.replace(sf.rules.SWU, name="x", criteria=())
    points_only = Ruleset(name="x", criteria=())
    ranked = sf.standings(solo({"a": ["W", "W"]}), points_only)
    assert ranked.filter(pl.col("player_id") == "a")["rank"].to_list() == [1]


@pytest.mark.parametrize(("function", "key", "value", "said"), [
    ("buchholz", "cut", -1, r"cut must be a whole number ≥ 0, got -1"),
    ("buchholz", "cut", 1.5, r"cut must be a whole number ≥ 0, got 1\.5"),
    ("buchholz", "median", None, r"median must be a whole number ≥ 0, got None"),
    ("sb", "cut", "x", r"cut must be a whole number"),
    ("random", "seed", 1.5, r"seed must be a whole number"),
    ("random", "seed", None, r"seed must be a whole number"),
    ("omp", "max_per_round", 0, r"max_per_round must be a whole number ≥ 1"),
    ("koya", "limit", 1.5, r"limit=1\.5 is not a fraction from 0 to 1"),
    ("koya", "limit", Fraction(3, 2), r"limit=Fraction\(3, 2\) is not a fraction"),
    ("pml", "byes", "no", r"byes takes True or False, got 'no'"),
    ("direct_encounter", "forfeits", 1, r"forfeits takes True or False"),
    ("ygo_number", "rounding", "x", r"rounding='x' is not one of 'truncate'"),
])
def test_a_criterion_parameter_of_the_wrong_kind_is_refused(
        function: str, key: str, value: object, said: str) -> None:
    """A criterion's parameter value is of its default's kind (bad data 206): a flag took
    anything by its truth, a count a float or None (``seed=1.5`` gave every player one
    random key, ``cut=-1`` cut one), ``rounding='x'`` truncated, and others were bare
    ``TypeError``s or Polars' errors."""
    rules = Ruleset(name="x", criteria=(Criterion("match_points"),
                                        Criterion("c", function, params=((key, value),))))
    with pytest.raises(RulesetError, match=rf"ruleset 'x': criterion 'c' \({function}\): "
                       rf"{said}.*Hint"):
        sf.standings(solo({"a": ["W"]}), rules)


def test_a_criterion_parameter_of_its_kind_is_kept() -> None:
    """A negative seed is a seed, a fraction a koya limit, True a flag (bad data 206)."""
    for function, key, value in (("random", "seed", -5), ("koya", "limit", Fraction(1, 3)),
                                 ("pml", "byes", True), ("buchholz", "cut", 10**6)):
        rules = Ruleset(name="x", criteria=(Criterion("match_points"),
                                            Criterion("c", function, params=((key, value),))))
        assert sf.standings(solo({"a": ["W"]}), rules).height == 2


def test_unknown_criterion_and_bad_definitions_raise() -> None:
    bad = Ruleset(name="bad", criteria=(Criterion("match_points"), Criterion("nope")))
    with pytest.raises(sf.DataError, match="not a registered tiebreaker"):
        sf.standings(solo({"a": ["W"]}), bad)
    with pytest.raises(RulesetError, match="late_rounds"):
        Ruleset(name="x", late_rounds="sometimes")  # type: ignore[arg-type]
    with pytest.raises(RulesetError, match="unplayed_rounds"):
        Ruleset(name="x", unplayed_rounds="fide-1999")  # type: ignore[arg-type]
    with pytest.raises(RulesetError, match="reuse a criterion"):
        Ruleset(name="x", criteria=(Criterion("bh", function="buchholz"),),
                columns=(Criterion("bh", function="sb"),))
    with pytest.raises(RulesetError, match="unknown ruleset"):
        sf.rules.get("no-such-game")


@pytest.mark.parametrize(("typed", "meant"), [("mgt", "'mtg'"), ("MGT", "'mtg'"),
                                              ("pokeman", "'pokemon'"),
                                              ("fide2026", "'fide-2026'")])
def test_a_mistyped_ruleset_name_is_answered_with_the_nearest(typed: str, meant: str) -> None:
    with pytest.raises(RulesetError, match=f"unknown ruleset '{typed}'. Hint: did you mean "
                       f".*{meant}"):
        sf.rules.get(typed)
    # a name near none: every name, as before
    with pytest.raises(RulesetError, match=r"one of \['cardsrealm'"):
        sf.rules.get("zzz")


def test_fraction_fields_are_coerced() -> None:
    r = Ruleset(name="x", points_game_win=3, earned_bye_opponent=0.75)  # type: ignore[arg-type]
    assert r.points_game_win == Fraction(3)
    assert r.earned_bye_opponent == Fraction(3, 4)


# ------------------------------------------------------------------ CLI


def test_cli_rules_lists_presets(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd")
    rules_cmd.add_parser(sub)
    assert rules_cmd.run(parser.parse_args(["rules"])) == 0
    out = capsys.readouterr().out
    for name in ("pokemon", "fab", "fide-2026", "swu", "one-piece", "yugioh"):
        assert f"\n{name} " in f"\n{out}"
    assert "↑pml → ↑omlp" in out
    # the rates' clamps said where a criterion reads a rate (chess's scores read none)
    lines = {line.split()[0]: line for line in out.splitlines() if line[:1].strip()}
    assert lines["mtg"].endswith("points 3/1/0/3, floor 0.33, cap 1")
    assert lines["pokemon"].endswith("floor 0.25, cap 1 (0.75 dropped)")
    assert lines["fide"].endswith("points 1/0.5/0/1")
    assert rules_cmd.run(parser.parse_args(["rules", "fide", "--format", "json"])) == 0
    detail = json.loads(capsys.readouterr().out)
    assert detail[0]["unplayed_rounds"] == "fide-2023"
    assert [c["name"] for c in detail[0]["criteria"]][:3] == ["match_points", "bh_c1", "bh"]
    # a number that is no score says what it counts (direct encounter: tied players)
    assert {c["name"]: c.get("unit") for c in detail[0]["criteria"]}["direct_encounter"] \
        == "tied players ranked below"
    assert "unit" not in detail[0]["criteria"][1]
    assert rules_cmd.run(parser.parse_args(["rules", "--format", "csv"])) == 0
    assert capsys.readouterr().out.startswith("name,points,criteria")


def test_match_outcomes_are_a_ruleset_s_data_checked_once() -> None:
    """A match's outcome space (the cut analyses') is ruleset data: the card games' best of
    three by default, a chess game's win, loss or draw in the FIDE presets; a space that
    is not the same from both seats, or not triples of whole numbers, is refused where the
    ruleset is made."""
    assert sf.rules.MTG.match_outcomes == sf.rules.BEST_OF_THREE
    for name in ("fide", "fide-2026", "fide-2009"):
        assert sf.rules.get(name).match_outcomes == ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    given = Ruleset(name="lists", match_outcomes=[[1, 0, 0], [0, 1, 0]])  # type: ignore[arg-type]
    assert given.match_outcomes == ((1, 0, 0), (0, 1, 0))
    with pytest.raises(RulesetError, match=r"same from both seats.*Hint"):
        Ruleset(name="one-sided", match_outcomes=((2, 1, 0), (0, 2, 0), (2, 0, 0)))
    with pytest.raises(RulesetError, match=r"match_outcomes.*triples.*Hint"):
        Ruleset(name="text", match_outcomes="2-0")  # type: ignore[arg-type]


def test_what_a_criterion_counts_follows_its_function_and_parameters() -> None:
    """FIDE direct encounter counts the tied players it ranks below the player (C.07 Art.
    6, not points): the surfaces read that from the criterion (``Criterion.unit``), so a
    criterion of any name or ruleset that runs the function says it, and the reading in
    points says points."""
    de = next(c for c in sf.rules.FIDE.criteria if c.function == "direct_encounter")
    assert de.unit == "tied players ranked below"
    assert Criterion("de", function="direct_encounter").unit == de.unit
    assert dataclasses.replace(de, params=(("method", "points"),)).unit \
        == "points against the tied players"
    assert dataclasses.replace(de, params=(("method", "fide"),)).unit == de.unit
    # Pokémon's head-to-head is a match's result, +1 / -1 (a bare "1 vs -1" read as a score)
    h2h = next(c for c in sf.rules.POKEMON.criteria if c.function == "head_to_head")
    assert h2h.unit == "+1 beat the other tied player, -1 lost to them"
    # a percentage, points, a Buchholz say what they are: no unit
    assert {c.unit for r in (sf.rules.MTG, sf.rules.POKEMON, sf.rules.FIDE)
            for c in r.criteria
            if c.function not in ("direct_encounter", "head_to_head")} == {""}


@pytest.mark.parametrize(("field", "value", "says"), [
    ("points_win", float("inf"), "points_win=inf is not a finite number"),
    ("points_win", True, "points_win=True is not a finite number"),
    ("earned_bye_opponent", float("inf"), "earned_bye_opponent=inf is not a finite number"),
    ("earned_bye_opponent", "x", "earned_bye_opponent='x' is not a finite number"),
    ("earned_bye_opponent", 2, "earned_bye_opponent=2 is not a win rate from 0 to 1"),
    ("points_win", 10**40, r"count about 2\*\*132 units of 1/1 point, more than the 1,048,576"),
    ("points_win", 2**62, "more than the 1,048,576"),
    ("points_win", Fraction(1, 10**40), "units of 1/about 2\\*\\*132 point"),
    ("points_draw", 1e-7, "units of 1/10,000,000 point"),
    ("draw_value", 2, "draw_value=2 must be a fraction of a win from 0 to 1"),
    ("drawn_game_value", -1, "drawn_game_value=-1 must be a fraction of a win from 0 to 1"),
    ("draw_value", Fraction(1, 2**63), "denominator is at most 2\\*\\*62"),
    ("sweep_games", -2, "sweep_games=-2 must be a whole number of games ≥ 1"),
])
def test_a_ruleset_number_that_is_not_a_finite_number_of_its_range_is_refused(
        field: str, value: object, says: str) -> None:
    """Class 100: ``points_win=inf`` was Python's bare ``OverflowError``, an unknown
    ``earned_bye_opponent`` a bare ``ValueError`` at ranking time, ``True`` read as 1; the
    float ``0.1`` (2**55 units of a point) overflowed a 90-round total without a word (the
    winner of every round ranked last), ``2**62`` points ranked the 2-0 player second,
    ``10**40`` points or a worth of ``Fraction(1, 2**63)`` were Polars' bare errors."""
    with pytest.raises(RulesetError, match=rf"ruleset 'mtg': .*{says}.*Hint: "):
        dataclasses.replace(sf.rules.MTG, **{field: value})


def test_points_as_small_fractions_rank_as_their_scale() -> None:
    """The largest points allowed rank as the preset does, and ``Fraction('0.1')`` (the
    float's decimal) is read: the bound refuses only what overflows."""
    ev = sf.simulate(40, rounds=8, seed=3).results
    for name in ("mtg", "pokemon", "fide", "fab", "melee-two-game"):
        base = sf.rules.get(name)
        scale = Fraction(2**18)  # (3 × 2**18 units fit MAX_POINT_UNITS)
        big = dataclasses.replace(base, **{f: getattr(base, f) * scale for f in (
            "points_win", "points_draw", "points_loss", "points_bye", "points_game_win",
            "points_sweep")})
        assert sf.standings(ev, big).select("player_id", "rank").equals(
            sf.standings(ev, base).select("player_id", "rank"))
    tenth = dataclasses.replace(sf.rules.MTG, points_draw="0.1")
    assert tenth.points_draw == Fraction(1, 10)


def test_a_float_in_a_ruleset_is_the_decimal_it_is_written_as() -> None:
    """``floor=0.33`` was the float's binary value, 5944751508129055/2**54, not the
    preset's 33/100 (seen by the twenty-ninth session's API pass): a ruleset written with
    floats ranked otherwise than the same ruleset written with fractions where values tie
    as the rules read them. A float is now the decimal it prints as, NumPy's too; ``0.1``
    point is a tenth (it was 2**55 units, refused as too many)."""
    np = pytest.importorskip("numpy")
    assert dataclasses.replace(sf.rules.MTG, floor=0.33) == sf.rules.MTG
    assert dataclasses.replace(sf.rules.MTG, floor=np.float64(0.33)).floor == Fraction(33, 100)
    assert dataclasses.replace(sf.rules.MTG, points_draw=0.1).points_draw == Fraction(1, 10)
    fide = sf.rules.get("fide")
    assert dataclasses.replace(fide, points_draw=0.5) == fide
    assert sf.rules.pokemon(tie_value=0.33).draw_value == Fraction(33, 100)
    # (the float 1/3 is its 16 digits: the third is Fraction(1, 3))
    assert dataclasses.replace(sf.rules.MTG, floor=1 / 3).floor == Fraction(
        3333333333333333, 10**16)
    ev = sf.simulate(24, rounds=5, seed=7).results
    floats = dataclasses.replace(sf.rules.MTG, name="mtg-floats", floor=0.33)
    assert sf.standings(ev, floats).equals(sf.standings(ev, "mtg"))


def test_a_rulesets_whole_numbers_may_be_numpys() -> None:
    """``sweep_games=np.int64(2)`` was refused while ``points_win=np.int64(3)`` was read
    (review): any whole number is one, kept as Python's ``int``."""
    np = pytest.importorskip("numpy")
    r = dataclasses.replace(sf.rules.MELEE_TWO_GAME, sweep_games=np.int64(2),
                            points_game_win=np.int64(3))
    assert type(r.sweep_games) is int
    assert r == sf.rules.MELEE_TWO_GAME


@pytest.mark.parametrize(("field", "value", "says"), [
    ("criteria", "omwp", r"ruleset 'mtg': criteria must be a tuple of Criterion, got str 'omwp'"),
    ("criteria", (("omwp", "omwp"),),
     r"ruleset 'mtg': criteria must be a tuple of Criterion, got tuple \('omwp', 'omwp'\)"),
    ("columns", "gwp", r"ruleset 'mtg': columns must be a tuple of Criterion, got str"),
    ("options", None, r"platform options must be a mapping, got NoneType None"),
    ("vur_kinds", ("nope",), r"vur_kinds=\('nope',\) must be a tuple of unplayed kinds"),
    ("vur_kinds", "absent", r"vur_kinds='absent' must be a tuple of unplayed kinds"),
    ("bye_games", (2**62, 0, 0), r"bye_games=\(4611686018427387904, 0, 0\); expected three "
                                 r"whole numbers \(won, lost, drawn\) from 0 to 2,147,483,647"),
    ("name", None, r"a ruleset's name must be non-empty text, got None"),
    ("name", "", r"a ruleset's name must be non-empty text, got ''"),
])
def test_a_ruleset_field_of_the_wrong_shape_is_refused(field: str, value: object,
                                                        says: str) -> None:
    """Class 112: ``criteria="omwp"`` or ``(("omwp", "omwp"),)`` and ``options=None`` were a
    bare ``AttributeError``/``TypeError`` when ranking; an unknown ``vur_kinds`` entry (or
    one kind as text, read letter by letter) counted no round as voluntarily unplayed, and
    a bye of ``2**62`` games gave a null GW%, without a word."""
    with pytest.raises(RulesetError, match=rf"{says}.*Hint: "):
        dataclasses.replace(sf.rules.MTG, **{field: value})


def test_a_rulesets_criteria_given_as_lists_are_read_as_tuples() -> None:
    """A list of criteria, or of parameter pairs, is read as its tuple (it was ``TypeError:
    unhashable type: 'list'`` when ranking): the ruleset ranks as the preset does."""
    ev = sf.simulate(12, rounds=4, seed=2).results
    listed = dataclasses.replace(sf.rules.MTG, name="listed", criteria=[
        dataclasses.replace(c, params=list(c.params)) for c in sf.rules.MTG.criteria])
    assert listed.criteria == sf.rules.MTG.criteria
    assert sf.standings(ev, listed).equals(sf.standings(ev, sf.rules.MTG))


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"name": ""}, r"criterion '': name must be non-empty text"),
    ({"name": 5}, r"criterion 5: name must be non-empty text, got 5"),
    ({"name": "x", "function": None}, r"criterion 'x': function must be text, got None"),
    ({"name": "x", "params": ("cut",)}, r"criterion 'x': params must be \(key, value\) pairs"),
])
def test_a_criterion_field_of_the_wrong_shape_is_refused(kwargs: dict[str, object],
                                                         says: str) -> None:
    """Class 112: a criterion's name or function that is no text, or parameters that are
    not pairs, ended in Polars' or Python's bare errors when ranking."""
    with pytest.raises(RulesetError, match=rf"{says}.*Hint: "):
        Criterion(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["wins", "gwp", "opponents", "rank", "player_id", "round",
                                  "dropped", "disqualified", "through_round"])
def test_a_criterion_named_like_a_standings_column_is_refused(name: str) -> None:
    """Class 113: a criterion named like a column the ranking holds but computing another
    function was replaced by that column without a word (``Criterion("wins", "ogwp")``
    ranked by wins, ``Criterion("gwp", "ogwp")`` by GW%) or ended in Polars'
    ``DuplicateError`` (``rank``, ``player_id``, ``round``)."""
    ev = sf.simulate(12, rounds=4, seed=2).results
    rs = dataclasses.replace(sf.rules.MTG, name="mine", criteria=(
        Criterion("match_points"), Criterion(name, "ogwp")))
    for call in (lambda: sf.standings(ev, rs), lambda: sf.standings_by_round(ev, rs),
                 lambda: sf.explain(ev, str(ev["player_id"][0]), rs)):
        with pytest.raises(RulesetError, match=rf"ruleset 'mine': criterion '{name}' \(function "
                           r"'ogwp'\) is named like a column the standings hold already"):
            call()
    # a name a criterion of that function gives itself, or one no column has, is kept
    ok = dataclasses.replace(rs, criteria=(Criterion("match_points"), Criterion("gwp"),
                                           Criterion("omwp", "ogwp"), Criterion("x", "omwp")))
    mine, mtg = (sf.standings(ev, r).sort("player_id") for r in (ok, sf.rules.MTG))
    assert mine["omwp"].equals(mtg["ogwp"], check_names=False)


def test_a_criterion_parameter_its_function_does_not_take_is_refused() -> None:
    """Class 113: an unknown parameter was a bare ``TypeError`` ("omwp() got an unexpected
    keyword argument") when ranking; it is named with the function's parameters."""
    ev = sf.simulate(12, rounds=4, seed=2).results
    rs = dataclasses.replace(sf.rules.FIDE, name="mine", criteria=(
        Criterion("points"), Criterion("bh", "buchholz", params=(("cuts", 1),))))
    with pytest.raises(RulesetError, match=r"criterion 'bh': function 'buchholz' takes no "
                       r"parameter 'cuts'. Hint: its parameters are \['cut', 'median'"):
        sf.standings(ev, rs)


@pytest.mark.parametrize("name", sorted(sf.rules.PRESETS))
def test_a_ruleset_s_cached_hash_is_its_fields_hash_and_is_not_pickled(name: str) -> None:
    """``Ruleset.__hash__`` computes the fields' hash once (the engine's caches look it up
    several times a call): the value a frozen dataclass gives, equal for equal rulesets,
    and left out of a pickle or a copy (string hashes differ between processes)."""
    import copy
    import pickle

    rules = sf.rules.get(name)
    fields = tuple(getattr(rules, f.name) for f in dataclasses.fields(rules))
    assert hash(rules) == hash(fields) == hash(rules)  # (the second: the cached value)
    renamed = dataclasses.replace(rules, name=f"{name}-copy")
    assert hash(renamed) == hash((f"{name}-copy", *fields[1:]))
    same = dataclasses.replace(renamed, name=name)
    assert same == rules
    assert hash(same) == hash(rules)
    for back in (pickle.loads(pickle.dumps(rules)), copy.copy(rules), copy.deepcopy(rules)):
        assert back == rules
        assert hash(back) == hash(rules)
    state = rules.__getstate__()
    assert set(state) == {f.name for f in dataclasses.fields(rules)}


#: The shared tables a user can reach (bad data 245), by module and name: as dicts, an
#: assignment changed what every later call read (``PRESETS["mtg"] = POKEMON`` ranked
#: ``rules="mtg"`` by Pokémon's rules), without a word.
SHARED_TABLES: Final = [
    ("swissframe.rules", "PRESETS"), ("swissframe.rules", "LABELS"),
    ("swissframe.rules", "UNITS"), ("swissframe.rules", "PARAM_UNITS"),
    ("swissframe", "SIM_RULES"), ("swissframe", "ROUND_TABLES"),
    ("swissframe.platforms", "PLATFORMS"), ("swissframe.platforms", "MELEE_ERAS"),
    ("swissframe.cut", "ID_SCORES"), ("swissframe.validate", "KINDS"),
    ("swissframe.compare", "CRITERION_LABELS"), ("swissframe.compare", "COLUMN_HEADINGS"),
]


@pytest.mark.parametrize(("module", "name"), SHARED_TABLES)
def test_a_shared_table_cannot_be_changed_by_a_caller(module: str, name: str) -> None:
    table = getattr(importlib.import_module(module), name)
    key = next(iter(table))
    with pytest.raises(TypeError):
        table[key] = None
    with pytest.raises((TypeError, AttributeError)):
        table.pop(key)  # type: ignore[attr-defined]
    assert next(iter(table)) == key


def test_register_still_adds_a_ruleset_by_name() -> None:
    mine = dataclasses.replace(sf.rules.MTG, name="test-shared-registry")
    assert sf.rules.register(mine) is mine
    assert sf.rules.get("test-shared-registry") is mine
    assert sf.rules.PRESETS["test-shared-registry"] is mine


@pytest.mark.parametrize(("spelled", "name"), [
    ("MTG", "mtg"), (" mtg", "mtg"), ("Mtg-1/3", "mtg-1/3"), ("pokémon", "pokemon"),
    ("POKÉMON", "pokemon"), ("poke\u0301mon", "pokemon"), ("ｍｔｇ", "mtg"),
    ("fide_2026", "fide-2026"), ("fide 2026", "fide-2026"), ("One Piece", "one-piece"),
    ("SWU", "swu")])
def test_a_ruleset_name_is_found_in_any_case_and_spelling(spelled: str, name: str) -> None:
    """Each was "unknown ruleset 'MTG'. Hint: did you mean 'mtg', …?" though it names one
    ruleset and no other, while rules="AUTO" was taken (bad data 247)."""
    assert sf.rules.get(spelled) is sf.rules.PRESETS[name]


def test_a_ruleset_name_in_another_case_ranks_as_the_name() -> None:
    from tests.helpers import REPO_ROOT

    res = sf.read_results(REPO_ROOT / "data" / "events" / "store-championship.csv")
    assert sf.standings(res, "Pokémon").equals(sf.standings(res, "pokemon"))
    assert sf.sensitivity(res, ["MTG", "FaB"], top=4)["ruleset"].to_list() == ["mtg", "fab"]
    with pytest.raises(RulesetError, match=r"unknown ruleset 'pokemn'\. Hint: did you mean "
                                           r"'pokemon'"):
        sf.rules.get("pokemn")


def test_a_file_names_its_ruleset_in_any_case(tmp_path: pathlib.Path) -> None:
    f = tmp_path / "e.csv"
    f.write_text("round,player_a,player_b,games_a,games_b,games_drawn,ruleset\n"
                 "1,A,B,2,0,0,Pokémon\n", encoding="utf-8")
    assert sf.read(f).events["ruleset"].to_list() == ["pokemon"]


def test_a_name_that_reads_as_another_ruleset_is_not_registered() -> None:
    """Names are found in any case: a second ruleset spelled like a registered one would
    make the name mean two rulesets."""
    sf.rules.register(dataclasses.replace(sf.rules.MTG, name="test-fold-a"))
    with pytest.raises(RulesetError, match=r"the ruleset name 'Test_Fold_A' reads as the "
                                           r"ruleset 'test-fold-a'"):
        sf.rules.register(dataclasses.replace(sf.rules.FAB, name="Test_Fold_A"))
    assert sf.rules.get("TEST-FOLD-A").name == "test-fold-a"
