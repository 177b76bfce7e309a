"""Tests for swissframe.sensitivity: top-N moves, Kendall tau, cut-line margins."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import polars as pl
import pytest
from scipy.stats import kendalltau

import swissframe as sf
from swissframe.sensitivity import sensitivity, standard_variants
from tests.cut.test_cut import random_event
from tests.helpers import Opp, event_from_opponents


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
