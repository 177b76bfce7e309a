"""Tests for swissframe.platforms: platform rulesets are data, era choice, options."""

from __future__ import annotations

import dataclasses
import datetime as dt
from fractions import Fraction

import polars as pl
import pytest

from swissframe import platforms as P  # noqa: N812
from swissframe import rules
from swissframe.errors import RulesetError
from swissframe.io.decklist import read_decklist_cache
from swissframe.schema import from_matches
from swissframe.standings import standings
from tests.helpers import FIXTURES

FIX = FIXTURES / "decklist"


def test_platform_rulesets_are_replacements_of_mtg() -> None:
    for r in P.PLATFORMS.values():
        assert isinstance(r, rules.Ruleset)
        if r is not P.MANATRADERS:  # ranks equal points by rounds played (issue 20)
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
                                        "cardsrealm-e1", "manatraders"]
    assert got["era"].to_list() == ["E1", "E2", "E3", "E3", "CR1", None]
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


def test_cardsrealm_era_switch_date() -> None:
    ev = pl.DataFrame({"event_id": ["a", "b"], "source": ["cardsrealm"] * 2,
                       "date": [dt.date(2025, 5, 19), dt.date(2025, 5, 20)], "decimals": [3, 3]})
    assert P.assign_rulesets(ev)["ruleset"].to_list() == ["cardsrealm-e1", "cardsrealm"]
    assert (P.CARDSREALM_E1.floor_own_gw, P.CARDSREALM.floor_own_gw) == (True, False)


def test_platform_values_stage_cutoffs_and_distinct_opponents() -> None:
    # Swiss: R1 A-B 2-0, C-D 2-0; R2 A-C 2-1, B-D 2-0. Final (playoff): A-C 2-0 again.
    rows = [(1, "A", "B", 2, 0, "swiss"), (1, "C", "D", 2, 0, "swiss"),
            (2, "A", "C", 2, 1, "swiss"), (2, "B", "D", 2, 0, "swiss"),
            (3, "A", "C", 2, 0, "playoff")]
    long = [(r, p, o, w, lo, ph) for r, p, o, w, lo, ph in rows] + [
        (r, o, p, lo, w, ph) for r, p, o, w, lo, ph in rows]
    df = pl.DataFrame(long, orient="row", schema=["round", "player_id", "opponent_id",
                                                  "games_won", "games_lost", "phase"])
    df = df.with_columns(event_id=pl.lit("e"), games_drawn=pl.lit(0),
                         stage=pl.when(pl.col("phase") == "playoff").then(pl.lit("playoff"))
                         .otherwise(pl.lit("day1")))
    v = P.platform_values(df, P.MELEE_E2).sort("player_id")
    # A, C played the final: evaluated after round 3; A's opponents B (1/2) and C (1/3),
    # C counted once. B, D: end of Swiss (round 2), A then 2/2 = 1, C 1/2.
    assert v["eval_round"].to_list() == [3, 2, 3, 2]
    omw = dict(zip(v["player_id"], v["omwp"], strict=True))
    assert omw["A"] == pytest.approx((1 / 2 + 1 / 3) / 2)
    assert omw["B"] == pytest.approx((1 + 1 / 3) / 2)  # A 2-0 after round 2; D 0-2 → 1/3
    assert omw["C"] == pytest.approx((1 / 3 + 1) / 2)  # D (0-2 → 1/3) and A (3-0), once
    assert omw["D"] == pytest.approx((1 / 2 + 1 / 2) / 2)
    # the engine alone (every meeting counted) would average C twice for A
    plain = dataclasses.replace(P.MELEE_E2, distinct_opponents=False)
    a = P.platform_values(df, plain).filter(pl.col("player_id") == "A")["omwp"].item()
    assert a == pytest.approx((1 / 2 + 1 / 3 + 1 / 3) / 3)


def _swiss_event(matches: list[tuple[int, str, str | None, int, int]]) -> pl.DataFrame:
    """One Swiss day from (round, A, B or None for a bye, A's games, B's games)."""
    m = pl.DataFrame(matches, orient="row",
                     schema=["round", "player_a", "player_b", "games_a", "games_b"],
                     schema_overrides={"player_b": pl.String})
    return from_matches(m.with_columns(games_drawn=pl.lit(0))).with_columns(
        event_id=pl.lit("e"), phase=pl.lit("swiss"), stage=pl.lit("day1"))


def _dropped_event() -> pl.DataFrame:
    # B drops after round 1; A beats B (R1), then loses to C (R2) and D (R3); byes D (R2),
    # C (R3). A's match-win rate: 1 after R1, 1/2 after R2, 1/3 after R3.
    return _swiss_event([(1, "A", "B", 2, 0), (1, "C", "D", 2, 0), (2, "C", "A", 2, 1),
                         (3, "D", "A", 2, 0), (2, "D", None, 2, 0), (3, "C", None, 2, 0)])


@pytest.mark.parametrize(("dropped", "eval_round", "omwp"), [
    ("stage_end", 3, 1 / 3), ("stage_end_minus_one", 2, 1 / 2), ("own_round", 1, 1.0)])
def test_dropped_cutoff_option(dropped: str, eval_round: int, omwp: float) -> None:
    rs = dataclasses.replace(P.MELEE_E2, options={**P.MELEE_E2.options,
                                                  "dropped_cutoff": dropped})
    v = P.platform_values(_dropped_event(), rs).sort("player_id")
    b = v.filter(pl.col("player_id") == "B")
    assert b["eval_round"].item() == eval_round
    assert b["omwp"].item() == pytest.approx(omwp)
    # everyone who played the last round is evaluated at the stage end regardless
    assert v.filter(pl.col("player_id") != "B")["eval_round"].to_list() == [3, 3, 3]


def test_dropped_cutoff_never_before_own_last_round() -> None:
    # C drops after round 2 = stage end - 1: "stage_end_minus_one" keeps round 2
    df = _dropped_event().filter(~((pl.col("round") == 3) & (pl.col("player_id") == "C")))
    rs = dataclasses.replace(P.MELEE_E2, options={**P.MELEE_E2.options,
                                                  "dropped_cutoff": "stage_end_minus_one"})
    v = P.platform_values(df, rs)
    got = dict(zip(v["player_id"], v["eval_round"], strict=True))
    assert got == {"A": 3, "B": 2, "C": 2, "D": 3}


def test_dropped_cutoff_unknown_value_is_a_ruleset_error() -> None:
    # the options are validated whole when the ruleset is built
    with pytest.raises(RulesetError, match=r"dropped_cutoff.*Hint"):
        dataclasses.replace(P.MELEE_E2, options={**P.MELEE_E2.options,
                                                 "dropped_cutoff": "yesterday"})


def test_opponent_mw_over_every_swiss_round_counts_missed_rounds_as_losses() -> None:
    # B beats A in round 1 and drops. After 3 rounds B has 3 points in 1 round played: MW 1
    # over the rounds B played (MTR), 3/9 = 1/3 over the event's 3 rounds (CardsRealm 2025).
    df = _swiss_event([(1, "B", "A", 2, 0), (1, "C", "D", 2, 0), (2, "A", "C", 2, 1),
                       (3, "A", "D", 2, 0), (2, "D", None, 2, 0), (3, "C", None, 2, 0)])
    played = dict(P.platform_values(df, P.CARDSREALM).select("player_id", "omwp").rows())
    event = dict(P.platform_values(df, P.CARDSREALM_E1).select("player_id", "omwp").rows())
    assert P.CARDSREALM_E1.opponent_mw_rounds == "event"
    assert played["A"] == pytest.approx((1 + 2 / 3 + 1 / 3) / 3)   # B 1, C 2/3, D 1/3
    assert event["A"] == pytest.approx((1 / 3 + 2 / 3 + 1 / 3) / 3)  # B 3/9 = 1/3
    assert played["C"] == event["C"] == pytest.approx((1 / 3 + 2 / 3) / 2)  # all played 3
    with pytest.raises(RulesetError, match=r"opponent_mw_rounds.*Hint"):
        dataclasses.replace(P.CARDSREALM, opponent_mw_rounds="all")


# ------------------------------------------------------------------ issue 14: typed options


def _plain_melee() -> rules.Ruleset:
    return dataclasses.replace(P.MELEE_E2, options={**P.MELEE_E2.options,
                                                    "playoff_in_tiebreakers": False})


def test_options_take_part_in_equality_and_hash() -> None:
    plain = _plain_melee()
    assert isinstance(plain.options, rules.PlatformOptions)
    assert plain != P.MELEE_E2
    assert len({plain, P.MELEE_E2}) == 2
    same = dataclasses.replace(P.MELEE_E2, options=dict(P.MELEE_E2.options))
    assert same == P.MELEE_E2
    assert hash(same) == hash(P.MELEE_E2)


def test_register_refuses_a_different_ruleset_under_a_preset_name() -> None:
    with pytest.raises(RulesetError, match=r"melee-e2.*Hint"):
        rules.register(_plain_melee())
    assert rules.get("melee-e2") is P.MELEE_E2
    assert rules.register(P.MELEE_E2) is P.MELEE_E2  # the same ruleset again: no-op


def test_options_are_validated_whole_when_built() -> None:
    with pytest.raises(RulesetError, match=r"unknown platform option.*roundng.*Hint"):
        dataclasses.replace(P.MELEE_E2, options={"roundng": "round"})
    with pytest.raises(RulesetError, match=r"compare.*Hint"):
        rules.PlatformOptions(compare=("omwp", "mwp"))
    with pytest.raises(RulesetError, match=r"playoff_in_tiebreakers.*Hint"):
        rules.PlatformOptions(playoff_in_tiebreakers="yes")  # type: ignore[arg-type]
    with pytest.raises(RulesetError, match=r"distinct_opponents.*Hint"):
        dataclasses.replace(P.MELEE_E2, distinct_opponents="yes")
    with pytest.raises(RulesetError, match=r"unopposed_loss_games.*Hint"):
        dataclasses.replace(P.MELEE_E2, unopposed_loss_games="skip")
    assert rules.PlatformOptions(compare="omwp").compare == ("omwp",)  # type: ignore[arg-type]


def test_nothing_registers_user_rulesets() -> None:
    from swissframe.verify import matching_rounds, verify

    before = dict(rules.PRESETS)
    ev = read_decklist_cache(FIX / "melee-byes-1-2024-07-13.json")
    own = dataclasses.replace(P.MELEE_E2, name="melee-e2-user-variant",
                              options={**P.MELEE_E2.options, "dropped_cutoff": "own_round"})
    eid = ev.events["event_id"].item()
    assert verify(ev, rules={eid: own})["ruleset"].unique().to_list() == [own.name]
    assert verify(ev, rules=own)["ruleset"].unique().to_list() == [own.name]
    assert matching_rounds(ev, rules=own).height == 3
    got = P.assign_rulesets(ev.events, overrides={"melee": own})
    assert got["ruleset"].to_list() == [own.name]
    assert before == rules.PRESETS
    # a user ruleset reusing a preset's name is ambiguous here, not silently registered
    with pytest.raises(RulesetError, match=r"melee-e2.*Hint"):
        verify(ev, rules={eid: _plain_melee()})


def test_value_match_compares_whole_names_not_substrings() -> None:
    from swissframe.verify import verify

    ev = read_decklist_cache(FIX / "melee-byes-1-2024-07-13.json")
    no_gw = dataclasses.replace(P.MELEE_E2, name="melee-e2-no-gw",
                                options={**P.MELEE_E2.options, "compare": ("omwp", "ogwp")})
    v = verify(ev, rules=no_gw)
    assert v["compared"].unique().to_list() == ["omwp,ogwp"]
    assert v["gwp_match"].is_null().all()  # "gwp" is a substring of "ogwp"
    assert v["ogwp_match"].all()


# ------------------------------------------------------------------ issue 20: Manatraders key


def _manatraders_event() -> pl.DataFrame:
    # A wins rounds 1-2 and drops (6 points in 2 rounds, OMW% 1/2); C and D end on 6 points
    # in 3 rounds. MTR order: C (OMW% 2/3), A (1/2), D (4/9); Manatraders: C, D, A.
    return _swiss_event([(1, "A", "B", 2, 0), (1, "C", "D", 2, 0), (1, "E", "F", 2, 0),
                         (2, "A", "C", 2, 1), (2, "D", "E", 2, 0), (2, "B", "F", 2, 0),
                         (3, "C", "E", 2, 0), (3, "D", "B", 2, 0), (3, "F", None, 2, 0)])


def test_manatraders_ranks_equal_points_by_rounds_played() -> None:
    df = _manatraders_event()
    mtg = standings(df, rules.MTG).filter(pl.col("match_points") == 6)
    assert mtg.select("player_id", "rank").rows() == [("C", 1), ("A", 2), ("D", 3)]
    mt = standings(df, "manatraders")
    top = mt.filter(pl.col("match_points") == 6)
    assert top.select("player_id", "rank", "rounds_played").rows() == [
        ("C", 1, 3), ("D", 2, 3), ("A", 3, 2)]
    assert mt.columns[:14] == standings(df, rules.MTG).columns[:14]
    assert P.option(P.MANATRADERS, "published_order") == "swiss"
    assert [c.name for c in P.MANATRADERS.criteria] == [
        "match_points", "rounds_played", "omwp", "gwp", "ogwp"]
