"""Tests for swissframe.sensitivity: top-N moves, Kendall tau, cut-line margins."""

from __future__ import annotations

import dataclasses
import importlib
import random
from fractions import Fraction

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from scipy.stats import kendalltau

import swissframe as sf
from swissframe.sensitivity import _kendall, sensitivity, standard_variants
from tests.cut.test_cut import random_event
from tests.helpers import REPO_ROOT, Opp, event_from_opponents

# (the module itself: swissframe.sensitivity, the attribute, is the function)
sensitivity_module = importlib.import_module("swissframe.sensitivity")


def _f6() -> pl.DataFrame:
    """MTG-F6: X and Y tied on points; the floor constant decides who is ahead."""
    return event_from_opponents({
        "X": [Opp((1, 2, 0), "W", (2, 1, 0)), Opp((2, 1, 0), "W", (2, 1, 0)),
              Opp((3, 0, 0), "L", (1, 2, 0))],
        "Y": [Opp((0, 3, 0), "W", (2, 0, 0)), Opp((2, 1, 0), "W", (2, 1, 0)),
              Opp((3, 0, 0), "L", (1, 2, 0))],
    })


def test_floor_flips_the_cut_mtg_f6() -> None:
    res = _f6()
    base = sf.standings(res, "mtg")
    x = base.filter(pl.col("player_id").is_in(["X", "Y"])).sort("rank")
    assert x["player_id"].to_list() == ["X", "Y"]
    pos_x = base["player_id"].to_list().index("X") + 1
    s = sensitivity(res, ["mtg", "mtg-1/3"], top=pos_x)
    alt = s.filter(pl.col("ruleset") == "mtg-1/3").row(0, named=True)
    assert alt["entering"] == ["Y"]
    assert alt["leaving"] == ["X"]
    b = s.filter(pl.col("ruleset") == "mtg").row(0, named=True)
    assert b["entering"] == []
    assert b["leaving"] == []
    assert b["kendall_tau"] == pytest.approx(1.0)
    # baseline: X above Y by OMW% (0.666667 - 0.665556 = 1/900)
    assert b["place_n"] == "X"
    assert b["place_n1"] == "Y"
    assert b["cut_criterion"] == "omwp"
    assert b["cut_gap"] == pytest.approx(float(Fraction(2, 3) - (Fraction(33, 100)
                                                                   + Fraction(2, 3) + 1) / 3))
    # with 1/3 the OMW% are equal and GW% decides (0.70 vs 0.60 -> Y)
    assert alt["cut_criterion"] == "gwp"
    assert alt["place_n"] == "Y"
    assert alt["kendall_tau"] < 1.0


def test_kendall_matches_scipy() -> None:
    res = pl.concat([random_event(s, f"k{s}", players=10, rounds=4)[0] for s in range(4)])
    rules = [sf.rules.MTG, dataclasses.replace(sf.rules.MTG, name="omw-only",
                                               criteria=sf.rules.MTG.criteria[:2])]
    s = sensitivity(res, rules, top=4)
    a = sf.standings(res, rules[0]).select("event_id", "player_id", pl.col("rank").alias("a"))
    b = sf.standings(res, rules[1]).select("event_id", "player_id", pl.col("rank").alias("b"))
    j = a.join(b, on=["event_id", "player_id"])
    for (ev,), g in j.group_by("event_id"):
        tau = kendalltau(g["a"].to_list(), g["b"].to_list()).statistic
        got = s.filter((pl.col("event_id") == ev) & (pl.col("ruleset") == "omw-only"))
        assert got["kendall_tau"][0] == pytest.approx(tau, abs=1e-12)


def test_exact_tie_at_the_line() -> None:
    m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
                      "games_a": [2, 2], "games_b": [0, 0], "games_drawn": [0, 0]})
    s = sensitivity(sf.from_matches(m), ["mtg"], top=1).row(0, named=True)
    assert s["cut_tied"]
    assert s["cut_criterion"] == "tie"
    assert s["cut_gap"] == 0.0


def test_defaults_and_errors() -> None:
    res = _f6()
    s = sensitivity(res, top=2)
    assert s["ruleset"].to_list() == [r.name for r in standard_variants("mtg")]
    with pytest.raises(sf.DataError, match="top must be"):
        sensitivity(res, ["mtg"], top=0)
    with pytest.raises(sf.RulesetError):
        sensitivity(res, ["nope"])


def _kendall_by_pairs(ranked: pl.DataFrame, baseline: str) -> pl.DataFrame:
    """The definition, every pair of players listed (quadratic): the reference."""
    base = ranked.filter(pl.col("ruleset") == baseline).select(
        "event_id", "player_id", pl.col("rank").alias("_b"))
    alt = ranked.select("event_id", "ruleset", "player_id", pl.col("rank").alias("_a"))
    j = alt.join(base, on=["event_id", "player_id"])
    left = j.rename({"player_id": "_p", "_a": "_a1", "_b": "_b1"})
    right = j.select("event_id", "ruleset", pl.col("player_id").alias("_q"),
                     pl.col("_a").alias("_a2"), pl.col("_b").alias("_b2"))
    pairs = left.join(right, on=["event_id", "ruleset"]).filter(pl.col("_p") < pl.col("_q"))
    sa = (pl.col("_a1") - pl.col("_a2")).sign()
    sb = (pl.col("_b1") - pl.col("_b2")).sign()
    return (pairs.group_by("event_id", "ruleset")
            .agg(_s=(sa * sb).sum().cast(pl.Float64), _ta=(sa != 0).sum().cast(pl.Float64),
                 _tb=(sb != 0).sum().cast(pl.Float64))
            .select("event_id", "ruleset",
                    (pl.col("_s") / (pl.col("_ta") * pl.col("_tb")).sqrt()).alias("kendall_tau")))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.integers(0, 6), st.integers(0, 2)),
                min_size=0, max_size=4), st.booleans())
def test_kendall_equals_the_pairwise_definition(events: list[tuple[int, int, int]],
                                                wide: bool) -> None:
    # events of 1–40 players, ranks with few distinct values (many ties) or none, and a
    # player missing from one ruleset; Knight's count must equal the sum over every pair
    rows = []
    for e, (n, spread, seed) in enumerate(events):
        rng = random.Random(e * 97 + n * 7 + spread * 3 + seed)
        for label in ("base", "alt", "alt2"):
            for p in range(n):
                if label == "alt2" and p == 0 and seed == 1:
                    continue  # not ranked under this ruleset: left out of its pairs
                rank = rng.randint(1, spread + 1) if spread else rng.randint(1, 10**6)
                rows.append((f"e{e}", label, f"p{p}", rank))
    ranked = pl.DataFrame(rows, schema={"event_id": pl.String, "ruleset": pl.String,
                                        "player_id": pl.String, "rank": pl.Int64},
                          orient="row")
    keys = ["event_id", "ruleset"]
    # (wide: the merge levels' sort keys on Int128, as ranges too wide for Int64 take)
    with pytest.MonkeyPatch.context() as mp:
        if wide:
            mp.setattr(sensitivity_module, "_INT64_KEYS", 0)
        got = _kendall(ranked, "base").sort(keys)
    want = _kendall_by_pairs(ranked, "base").sort(keys)
    assert_frame_equal(got, want, check_exact=True)
    for (ev, label), g in ranked.filter(pl.col("ruleset") == "base").join(
            ranked, on=["event_id", "player_id"]).group_by("event_id", "ruleset_right"):
        if g.height > 1 and g["rank"].n_unique() > 1 and g["rank_right"].n_unique() > 1:
            tau = kendalltau(g["rank_right"].to_list(), g["rank"].to_list()).statistic
            row = got.filter((pl.col("event_id") == ev) & (pl.col("ruleset") == label))
            assert row["kendall_tau"][0] == pytest.approx(tau, abs=1e-12)


@pytest.mark.filterwarnings("ignore::swissframe.errors.ImportNotesWarning")  # (pending)
@pytest.mark.parametrize(("base", "path"), [
    ("fide", "tests/fixtures/trf/all_codes.trf"),
    ("pokemon", "tests/fixtures/tom/three_divisions.tdf")])
def test_standard_variants_leave_out_options_no_criterion_reads(base: str, path: str) -> None:
    """Chess's sensitivity table (CLI, chart, HTML report) listed 'floor 1/3 instead of 0',
    'byes left out of own MW%', 'a drawn game worth 0': MTG options that no FIDE criterion
    reads, each 'changing nothing'; Pokémon's listed 'a drawn game worth 0' (OMW%/OOMW%
    read no games). Those variants are left out — and they indeed changed nothing."""
    kept = [r.name for r in standard_variants(base)]
    assert not any("drawn-game" in n or "own-mw" in n or "own-gw" in n for n in kept), kept
    if base == "fide":
        assert kept == ["fide", "fide-without-win"]
    results = sf.read(str(REPO_ROOT / path)).results
    b = sf.rules.get(base)
    before = sf.standings(results, b)
    for change in ({"floor": Fraction(1, 3)}, {"bye_in_own_rate": not b.bye_in_own_rate},
                   {"drawn_game_value": Fraction(0)}):
        key = next(iter(change))
        if key == "floor" and base != "fide":
            continue  # (Pokémon's win rates do read the floor)
        after = sf.standings(results, dataclasses.replace(b, name="x", **change))
        assert after["player_id"].to_list() == before["player_id"].to_list(), change


def test_a_disqualified_player_is_in_no_cut_and_no_rank_correlation() -> None:
    # E (3rd without the flag) disqualified: removed from the standings, so the top 3 is
    # A, C, B under every ruleset, the field is five players, and the rank correlation is
    # of the five (the null rank was a player ranked nowhere, counted as a tie)
    from tests.engine.test_disqualified import SIX, _dq

    out = sf.sensitivity(_dq(SIX, "E", 3), ["mtg", "mtg-1/3"], top=3)
    assert out["players"].to_list() == [5, 5]
    assert out["place_n"].to_list() == ["B", "B"]
    assert out["place_n1"].to_list() == ["D", "D"]
    assert out["kendall_tau"].to_list() == [1.0, 1.0]


def test_a_cut_drawn_by_lot_has_no_gap() -> None:
    """B and C are level on points, OMW%, OOMW% and head-to-head: Pokémon's random draw
    decides place 2. Its ``cut_gap`` was the lot keys' difference (-3.3e15, negative though
    place 2 is ahead), which notebook 02 printed beside real margins."""
    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
                      "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 2],
                      "games_b": [0, 0, 0, 0], "games_drawn": [0, 0, 0, 0]})
    out = sensitivity(sf.from_matches(m), ["pokemon", "mtg"], top=2)
    rows = {r["ruleset"]: r for r in out.iter_rows(named=True)}
    assert rows["pokemon"]["cut_criterion"] == "random"
    assert rows["pokemon"]["cut_gap"] is None
    assert {rows["pokemon"]["place_n"], rows["pokemon"]["place_n1"]} == {"B", "C"}
    assert (rows["mtg"]["cut_criterion"], rows["mtg"]["cut_gap"]) == ("tie", 0.0)
