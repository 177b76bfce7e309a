"""Tests for swissframe.platforms: platform rulesets are data, era choice, options."""

from __future__ import annotations

import dataclasses
import datetime as dt
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

from swissframe import platforms as P  # noqa: N812
from swissframe import rules
from swissframe.errors import RulesetError
from swissframe.io.decklist import read_decklist_cache
from swissframe.standings import standings

FIX = Path(__file__).resolve().parent / "fixtures" / "decklist"


def test_platform_rulesets_are_replacements_of_mtg() -> None:
    for r in P.PLATFORMS.values():
        assert isinstance(r, rules.Ruleset)
        assert r.criteria == rules.MTG.criteria
        assert rules.get(r.name) is r
    assert (P.MELEE_E1.drawn_game_value, P.MELEE_E1.floor_own_gw) == (Fraction(0), True)
    assert (P.MELEE_E2.drawn_game_value, P.MELEE_E2.floor_own_gw) == (Fraction(1, 3), False)
    assert (P.MELEE_E3.drawn_game_value, P.MELEE_E3.floor_own_gw) == (Fraction(1, 3), True)
    assert {P.MELEE_E2.floor, P.CARDSREALM.floor} == {Fraction(1, 3)}
    assert {P.TOPDECK.floor, P.MANATRADERS.floor} == {Fraction(33, 100)}
    assert P.MELEE_E2.snapshot == "stage"


def test_assign_rulesets_by_date_and_decimals_and_overrides() -> None:
    ev = pl.DataFrame({
        "event_id": ["a", "b", "c", "d", "e", "f"],
        "source": ["melee", "melee", "melee", "melee", "cardsrealm", "manatraders"],
        "date": [dt.date(2024, 2, 1), dt.date(2024, 9, 1), dt.date(2025, 12, 1),
                 dt.date(2024, 3, 1), dt.date(2025, 1, 1), dt.date(2024, 2, 29)],
        "decimals": [6, 8, 8, 7, 3, 3]})
    got = P.assign_rulesets(ev)
    assert got["ruleset"].to_list() == ["melee-e1", "melee-e2", "melee-e3", "melee-e3",
                                        "cardsrealm", "manatraders"]
    assert got["era"].to_list() == ["E1", "E2", "E3", "E3", None, None]
    forced = P.assign_rulesets(ev, melee_era_override="e1", overrides={"b": "mtg"})
    assert forced["ruleset"].to_list()[:4] == ["melee-e1", "mtg", "melee-e1", "melee-e1"]
    with pytest.raises(RulesetError, match="E4"):
        P.assign_rulesets(ev, melee_era_override="E4")


def test_melee_eras_change_gw() -> None:
    ev = read_decklist_cache([FIX / "melee-draws-2-2024-07-13.json",
                              FIX / "melee-unreported-3-2024-07-13.json"])
    res = ev.results.select("event_id", "round", "player_id", "opponent_id", "games_won",
                            "games_lost", "games_drawn", "phase", "stage")

    def gw(r: rules.Ruleset, event: str, player: str) -> float:
        t = standings(res.filter(pl.col("event_id").str.starts_with(event)), r)
        return float(t.filter(pl.col("player_id") == player)["gwp"].item())

    # C: 2-0-0 then an ID 0-0-3: drawn games worth 0 (E1) → 2/5; worth 1/3 → 3/5.
    assert gw(P.MELEE_E1, "melee-draws", "C") == pytest.approx(2 / 5)
    assert gw(P.MELEE_E2, "melee-draws", "C") == pytest.approx(3 / 5)
    # B lost 0-2: own GW% 0 unfloored in E2, floored to 1/3 in E3.
    assert gw(P.MELEE_E2, "melee-unreported", "B") == pytest.approx(0.0)
    assert gw(P.MELEE_E3, "melee-unreported", "B") == pytest.approx(1 / 3)


def test_prepare_results_counts_playoff_as_last_stage() -> None:
    ev = read_decklist_cache(FIX / "melee-named-playoff-4-2024-07-13.json")
    prep = P.prepare_results(ev.results, P.MELEE_E2)
    assert set(prep["phase"]) == {"swiss"}
    assert prep.group_by("round").agg(pl.col("stage").first()).sort("round")["stage"].to_list() \
        == ["day1", "day1", "playoff", "playoff"]
    # Topdeck keeps the playoff out; "drop" removes unreported rows.
    assert P.prepare_results(ev.results, P.TOPDECK).equals(ev.results)
    un = read_decklist_cache(FIX / "melee-unreported-3-2024-07-13.json").results
    dropper = dataclasses.replace(P.MELEE_E2, name="x",
                                  options={**P.MELEE_E2.options, "unreported": "drop"})
    assert P.prepare_results(un, dropper).height == 2


def test_publish_round_truncate_none() -> None:
    df = pl.DataFrame({"x": [0.41666666, 0.5670000000000001, 0.123456789],
                       "d": [3, 3, None]})
    rnd = df.select(P.publish(pl.col("x"), pl.col("d"), P.MANATRADERS))["x"].to_list()
    cut = df.select(P.publish(pl.col("x"), pl.col("d"), P.CARDSREALM))["x"].to_list()
    raw = df.select(P.publish(pl.col("x"), pl.col("d"), P.TOPDECK))["x"].to_list()
    assert rnd == pytest.approx([0.417, 0.567, 0.123456789])
    assert cut == pytest.approx([0.416, 0.567, 0.123456789])
    assert raw == df["x"].to_list()
