"""Standings under the MTG rulesets: every MTG fixture of the rules reference, exact ties,
through_round / standings_by_round, multi-event and property tests."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from tests.helpers import (
    Opp,
    check_standings_invariants,
    event_from_opponents,
    reference_standings,
)

MTG = sf.rules.MTG
MTG_THIRD = dataclasses.replace(MTG, floor=Fraction(1, 3))


def solo(records: dict[str, list[str | tuple[int, int, int]]], event_id: str = "e"
         ) -> pl.DataFrame:
    """Each listed player plays one-off fillers; an entry is 'W'/'L'/'D', 'BYE' or a game
    score tuple (won, lost, drawn)."""
    rows = []
    filler = itertools.count()
    for pid, res in records.items():
        for rnd, r in enumerate(res, start=1):
            if r == "BYE":
                rows.append((event_id, rnd, pid, None, 2, 0, 0))
                continue
            g = {"W": (2, 0, 0), "L": (0, 2, 0), "D": (1, 1, 0)}[r] if isinstance(r, str) else r
            f = f"f{next(filler)}"
            rows.append((event_id, rnd, pid, f, *g))
            rows.append((event_id, rnd, f, pid, g[1], g[0], g[2]))
    return pl.DataFrame(rows, orient="row", schema=["event_id", "round", "player_id",
                                                    "opponent_id", "games_won", "games_lost",
                                                    "games_drawn"])


def row(st_: pl.DataFrame, pid: str, event_id: str | None = None) -> dict:
    f = st_.filter(pl.col("player_id") == pid)
    if event_id is not None:
        f = f.filter(pl.col("event_id") == event_id)
    assert f.height == 1
    return f.row(0, named=True)


# ---------------------------------------------------------------- MTG-F1: points


def test_mtg_f1_match_points() -> None:
    st_ = sf.standings(solo({"a": ["W"] * 6 + ["L"] * 2, "b": ["W"] * 4 + ["L"] * 2 + ["D"] * 2}))
    assert row(st_, "a")["match_points"] == 18
    assert row(st_, "b")["match_points"] == 14


@pytest.mark.parametrize(
    ("games", "winner_gp", "loser_gp"),
    [((2, 0, 0), 6, 0), ((2, 1, 0), 6, 3), ((2, 0, 1), 7, 1)],
)
def test_mtg_f1_game_points(games: tuple[int, int, int], winner_gp: int, loser_gp: int) -> None:
    # own GW% unfloored (mtg-1999) exposes game points / (3 × games) directly
    st_ = sf.standings(solo({"w": [games]}), "mtg-1999")
    n = sum(games)
    assert row(st_, "w")["gwp"] == pytest.approx(winner_gp / (3 * n))
    assert row(st_, "f0")["gwp"] == pytest.approx(loser_gp / (3 * n))


# ---------------------------------------------------------------- MTG-F2: MW% with drops


def test_mtg_f2_match_win_percentage() -> None:
    rec = {
        "full": ["W"] * 5 + ["L"] * 2 + ["D"],  # 5-2-1 over 8 rounds
        "drop": ["W"] + ["L"] * 3,  # 1-3-0 then withdraws
        "bye": ["BYE", "W", "W", "L", "L"],  # 3-2-0 incl. a round-1 bye, then withdraws
        "anchor": ["W"] * 8,  # makes the event 8 rounds long
    }
    st_ = sf.standings(solo(rec))
    assert row(st_, "full")["mwp"] == pytest.approx(16 / 24)
    assert row(st_, "drop")["mwp"] == pytest.approx(0.33)
    assert row(st_, "drop")["dropped"] is True
    assert row(st_, "bye")["mwp"] == pytest.approx(0.60)
    assert row(st_, "bye")["byes"] == 1
    wer = sf.standings(solo(rec), "mtg-wer")
    assert row(wer, "bye")["mwp"] == pytest.approx(0.50)


# ---------------------------------------------------------------- MTG-F3: GW%


def test_mtg_f3_game_win_percentage() -> None:
    rec = {"p1": [(2, 0, 0), (2, 1, 0), (1, 2, 0), (2, 0, 0)],
           "p2": [(1, 2, 0), (1, 2, 0), (0, 2, 0), (1, 2, 0)]}
    st_ = sf.standings(solo(rec))
    assert row(st_, "p1")["gwp"] == pytest.approx(0.70)
    assert row(st_, "p2")["gwp"] == pytest.approx(0.33)  # 9/33 floored (today's MTR)
    old = sf.standings(solo(rec), "mtg-1999")
    assert row(old, "p2")["gwp"] == pytest.approx(9 / 33)  # SEED-F3: 1999 text, unfloored


# ---------------------------------------------------------------- MTG-F4: OMW%

F4_OPPONENTS = [  # (record, the subject's result against them), rounds in this order
    ((4, 4, 0), "W"), ((7, 1, 0), "L"), ((1, 3, 1), "W"), ((3, 3, 1), "W"),
    ((6, 2, 0), "W"), ((5, 2, 1), "W"), ((4, 3, 1), "W"), ((6, 1, 1), "L"),
]


def f4_events() -> pl.DataFrame:
    ex1 = event_from_opponents({"P": [Opp(r, res) for r, res in F4_OPPONENTS]}, "ex1")
    ex2_opps = [Opp((0, 0, 0), "BYE")] + [Opp(r, res) for r, res in F4_OPPONENTS[1:]]
    # example 2: the same player had a bye in round 1 instead of the 4-4-0 opponent; one more
    # win (3 byes … ) would change the record — the MTR keeps 6-2-0, so swap one win for the bye
    ex2 = event_from_opponents({"P": ex2_opps}, "ex2")
    return pl.concat([ex1, ex2])


@pytest.mark.parametrize(("rules", "ex1", "ex2"), [
    (MTG_THIRD, 0.616815, 0.633503),
    (MTG, 0.616399, 0.633027),
])
def test_mtg_f4_opponents_match_win(rules: sf.Ruleset, ex1: float, ex2: float) -> None:
    st_ = sf.standings(f4_events(), rules)
    assert row(st_, "P", "ex1")["omwp"] == pytest.approx(ex1, abs=5e-7)
    assert row(st_, "P", "ex2")["omwp"] == pytest.approx(ex2, abs=5e-7)
    # as the MTR prints them, to two decimals
    assert round(row(st_, "P", "ex1")["omwp"], 2) == 0.62
    assert round(row(st_, "P", "ex2")["omwp"], 2) == 0.63


def test_mtg_f4_exact_fraction() -> None:
    mws = [Fraction(12, 24), Fraction(21, 24), Fraction(1, 3), Fraction(10, 21),
           Fraction(18, 24), Fraction(16, 24), Fraction(13, 24), Fraction(19, 24)]
    st_ = sf.standings(f4_events(), MTG_THIRD)
    assert row(st_, "P", "ex1")["omwp"] == pytest.approx(float(sum(mws) / 8), rel=1e-15)
    assert row(st_, "P", "ex2")["omwp"] == pytest.approx(float(sum(mws[1:]) / 7), rel=1e-15)


def test_mtg_an_opponent_met_twice_counts_twice_in_omw() -> None:
    # rules.md §1.3 [?]: OMW% is the mean over "each opponent that player faced", one term
    # per match. A beat B (rounds 1 and 3) and lost to C; D beat B and C, lost to C first.
    # A, C and D finish 2-1; B 0-3 (MW 0 -> 0.33), C and D 2/3. A's opponents B, C, B:
    # (0.33 + 2/3 + 0.33)/3 = 199/450; D's C, B, C: 499/900; C's D, A, D: 2/3. Counting each
    # opponent once (melee.gg's distinct_opponents) would give A and D the same 0.498333.
    m = pl.DataFrame({"round": [1, 1, 2, 2, 3, 3], "player_a": ["A", "C", "C", "D", "A", "D"],
                      "player_b": ["B", "D", "A", "B", "B", "C"], "games_a": [2] * 6,
                      "games_b": [0] * 6, "games_drawn": [0] * 6})
    st_ = sf.standings(sf.from_matches(m), MTG)
    omw = {p: row(st_, p)["omwp"] for p in "ACD"}
    assert omw == pytest.approx({"A": 199 / 450, "C": 2 / 3, "D": 499 / 900}, rel=1e-15)
    assert [row(st_, p)["rank"] for p in "CDAB"] == [1, 2, 3, 4]


# ---------------------------------------------------------------- MTG-F5: a full event

F5_MATCHES = pl.DataFrame(
    {"round": [1, 1, 1, 2, 2, 3, 3],
     "player_a": ["A", "C", "E", "A", "E", "A", "C"],
     "player_b": ["B", "D", None, "C", "B", "E", "B"],
     "games_a": [2, 2, None, 1, 2, 0, 2],
     "games_b": [1, 0, None, 1, 1, 0, 0],
     "games_drawn": [0, 0, None, 1, 0, 3, 0]})


def test_mtg_f5_full_event_floor_third() -> None:
    st_ = sf.standings(sf.from_matches(F5_MATCHES), MTG_THIRD)
    assert st_["player_id"].to_list() == ["E", "C", "A", "D", "B"]
    assert st_["rank"].to_list() == [1, 2, 3, 4, 5]
    assert st_["match_points"].to_list() == [7, 7, 5, 0, 0]
    exp = {  # MW%, OMW%, GW% used, OGW% — exact fractions from the rules reference
        "E": (Fraction(7, 9), Fraction(4, 9), Fraction(15, 24), Fraction(11, 27)),
        "C": (Fraction(7, 9), Fraction(11, 27), Fraction(16, 21), Fraction(31, 81)),
        "A": (Fraction(5, 9), Fraction(17, 27), Fraction(13, 27), Fraction(289, 504)),
        "D": (Fraction(1, 3), Fraction(7, 9), Fraction(1, 3), Fraction(16, 21)),
        "B": (Fraction(1, 3), Fraction(19, 27), Fraction(1, 3), Fraction(2825, 4536)),
    }
    for pid, (mw, omw, gw, ogw) in exp.items():
        r = row(st_, pid)
        assert (r["mwp"], r["omwp"], r["gwp"], r["ogwp"]) == (
            float(mw), pytest.approx(float(omw), rel=1e-15), float(gw),
            pytest.approx(float(ogw), rel=1e-15)), pid
    d = row(st_, "D")
    assert d["dropped"] is True
    assert d["rounds_played"] == 1
    e = row(st_, "E")
    assert (e["wins"], e["draws"], e["byes"]) == (2, 1, 1)
    check_standings_invariants(st_, MTG_THIRD)


def test_mtg_f5_raw_game_win_percentage() -> None:
    # rules.md MTG-F5 "GW% (raw)": the player's own GW% before the floor (floor_own_gw off,
    # as the 1999 text reads it): E 15/24, C 16/21, A 13/27, D 0/6, B 6/24; the opponents'
    # averages still floor (OGW% unchanged), and so does the order
    raw = dataclasses.replace(MTG_THIRD, name="f5-raw", floor_own_gw=False)
    st_ = sf.standings(sf.from_matches(F5_MATCHES), raw)
    gw = {r["player_id"]: r["gwp"] for r in st_.iter_rows(named=True)}
    assert gw == {"E": 15 / 24, "C": 16 / 21, "A": 13 / 27, "D": 0.0, "B": 6 / 24}
    assert row(st_, "A")["ogwp"] == pytest.approx(float(Fraction(289, 504)), rel=1e-15)
    assert row(st_, "B")["ogwp"] == pytest.approx(float(Fraction(2825, 4536)), rel=1e-15)
    assert st_["player_id"].to_list() == ["E", "C", "A", "D", "B"]


def test_mtg_f5_floor_033_and_wer_variants() -> None:
    res = sf.from_matches(F5_MATCHES)
    st_ = sf.standings(res, MTG)
    got = {r["player_id"]: (round(r["omwp"], 6), round(r["ogwp"], 6))
           for r in st_.iter_rows(named=True)}
    assert got["E"] == (0.442778, 0.405741)
    assert got["C"] == (0.405185, 0.380494)
    assert got["A"] == (0.628519, 0.572302)
    assert st_["player_id"].to_list() == ["E", "C", "A", "D", "B"]
    wer = sf.standings(res, dataclasses.replace(MTG_THIRD, bye_in_own_rate=False))
    assert row(wer, "A")["omwp"] == pytest.approx(float(Fraction(16, 27)), rel=1e-15)
    assert row(wer, "B")["omwp"] == pytest.approx(float(Fraction(2, 3)), rel=1e-15)
    assert wer["player_id"].to_list() == ["E", "C", "A", "D", "B"]


# ---------------------------------------------------------------- MTG-F6: floor flip


def f6_event() -> pl.DataFrame:
    return event_from_opponents({
        # X: opponents 1-2-0 (natural 1/3), 2-1-0, 3-0-0; GW% 5/9
        "X": [Opp((1, 2, 0), "W", (2, 1, 0)), Opp((2, 1, 0), "W", (2, 1, 0)),
              Opp((3, 0, 0), "L", (1, 2, 0))],
        # Y: opponents 0-3-0 (floored), 2-1-0, 3-0-0; GW% 4/6 — higher than X's
        "Y": [Opp((0, 3, 0), "W", (2, 0, 0)), Opp((2, 1, 0), "W", (2, 0, 0)),
              Opp((3, 0, 0), "L", (0, 2, 0))],
    })


def test_mtg_f6_floor_third_ties_omw_and_gw_decides() -> None:
    st_ = sf.standings(f6_event(), MTG_THIRD)
    x, y = row(st_, "X"), row(st_, "Y")
    assert x["match_points"] == y["match_points"] == 6
    assert x["omwp"] == y["omwp"] == pytest.approx(2 / 3)
    assert y["rank"] < x["rank"]


def test_mtg_f6_floor_033_x_above_y() -> None:
    st_ = sf.standings(f6_event(), MTG)
    x, y = row(st_, "X"), row(st_, "Y")
    assert round(x["omwp"], 6) == 0.666667
    assert round(y["omwp"], 6) == 0.665556
    assert x["rank"] < y["rank"]


# ---------------------------------------------------------------- exact ties


def test_equal_rationals_tie_even_when_floats_differ() -> None:
    """mean(0.1, 0.2) and mean(0.3, 0.0) are both 3/20, but (0.1 + 0.2) / 2 != 0.3 / 2 in
    floats. With a zero floor, opponents' MW% of 3/30, 6/30, 9/30 and 0/30 give exactly
    these values; the two players must tie on OMW% and be split by GW%, not by float noise."""
    no_floor = dataclasses.replace(MTG, floor=Fraction(0), name="no-floor")
    assert (0.1 + 0.2) / 2 != (0.3 + 0.0) / 2
    ev = event_from_opponents({
        "X": [Opp((1, 9, 0), "L", (0, 2, 0)), Opp((2, 8, 0), "W", (2, 0, 0))],
        "Y": [Opp((3, 7, 0), "L", (1, 2, 0)), Opp((0, 10, 0), "W", (2, 1, 0))],
    })
    st_ = sf.standings(ev, no_floor)
    x, y = row(st_, "X"), row(st_, "Y")
    assert x["match_points"] == y["match_points"]
    assert Fraction(x["omwp"]).limit_denominator(1000) == Fraction(3, 20)
    assert Fraction(y["omwp"]).limit_denominator(1000) == Fraction(3, 20)
    # X has GW% 2/4 = 0.5, Y has 3/6 = 0.5: equal too, and so is OGW% by construction? no —
    # the ranking must be decided by the exact criteria only, never by float noise:
    ref = reference_standings(sf.validate_results(ev).collect(), no_floor)
    assert x["rank"] == ref[("e", "X")]["rank"]
    assert y["rank"] == ref[("e", "Y")]["rank"]


def test_full_tie_shares_rank() -> None:
    # two identical worlds: A and B have the same record against mirror-image opponents
    m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "B"], "player_b": ["C", "D"],
                      "games_a": [2, 2], "games_b": [0, 0], "games_drawn": [0, 0]})
    st_ = sf.standings(sf.from_matches(m))
    assert st_["rank"].to_list() == [1, 1, 3, 3]


def test_null_omw_ranks_below_any_value() -> None:
    m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "B"], "player_b": ["C", None],
                      "games_a": [2, None], "games_b": [0, None], "games_drawn": [0, None]})
    st_ = sf.standings(sf.from_matches(m))
    assert row(st_, "B")["omwp"] is None
    assert row(st_, "A")["rank"] == 1
    assert row(st_, "B")["rank"] == 2


# ---------------------------------------------------------------- phases, rounds, events


def test_playoff_rows_never_count() -> None:
    res = sf.from_matches(F5_MATCHES)
    po = pl.DataFrame({"event_id": ["event"] * 2, "round": [4, 4], "player_id": ["E", "C"],
                       "opponent_id": ["C", "E"], "games_won": [0, 2], "games_lost": [2, 0],
                       "games_drawn": [0, 0], "phase": ["playoff", "playoff"]})
    both = pl.concat([res.with_columns(phase=pl.lit("swiss")), po], how="diagonal")
    assert_frame_equal(sf.standings(both), sf.standings(res))


def test_through_round_matches_truncated_input() -> None:
    res = sf.from_matches(F5_MATCHES)
    for r in (1, 2, 3):
        a = sf.standings(res, through_round=r)
        b = sf.standings(res.filter(pl.col("round") <= r))
        assert_frame_equal(a, b)


def test_standings_by_round_equals_each_through_round() -> None:
    res = pl.concat([sf.from_matches(F5_MATCHES), f6_event().with_columns(
        event_id=pl.lit("f6"))], how="vertical_relaxed")
    by = sf.standings_by_round(res, MTG_THIRD)
    assert "round" in by.columns
    for (ev, r), grp in by.group_by(["event_id", "round"], maintain_order=True):
        one = sf.standings(res.filter(pl.col("event_id") == ev), MTG_THIRD, through_round=r)
        assert_frame_equal(grp.drop("round"), one, check_row_order=True)


def test_lazy_in_and_lazy_out() -> None:
    res = sf.from_matches(F5_MATCHES)
    out = sf.standings(res.lazy(), lazy=True)
    assert isinstance(out, pl.LazyFrame)
    assert_frame_equal(out.collect(), sf.standings(res))


def test_extra_key_column_computes_independent_scenarios() -> None:
    res = sf.from_matches(F5_MATCHES)
    two = pl.concat([res.with_columns(scenario_id=pl.lit(0)),
                     res.with_columns(scenario_id=pl.lit(1))])
    st_ = sf.standings(two, keys=["scenario_id"])
    assert st_.height == 10
    for _, grp in st_.group_by("scenario_id"):
        assert_frame_equal(grp.drop("scenario_id"), sf.standings(res))


def test_unknown_ruleset_is_a_clear_error() -> None:
    with pytest.raises(sf.RulesetError, match="unknown ruleset 'nope'"):
        sf.standings(sf.from_matches(F5_MATCHES), "nope")


# ---------------------------------------------------------------- properties


@st.composite
def random_events(draw: st.DrawFn, max_events: int = 3) -> pl.DataFrame:
    """Valid random events: random pairings each round (with byes, drops, draws, IDs)."""
    n_events = draw(st.integers(1, max_events))
    rows = []
    for e in range(n_events):
        n = draw(st.integers(2, 9))
        players = [f"p{i}" for i in range(n)]
        rounds = draw(st.integers(1, 5))
        active = list(players)
        for rnd in range(1, rounds + 1):
            order = draw(st.permutations(active))
            for i in range(0, len(order) - 1, 2):
                a, b = order[i], order[i + 1]
                g = draw(st.sampled_from([(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1),
                                          (0, 0, 3), (1, 1, 0), (2, 0, 1), (1, 0, 0)]))
                rows.append((f"ev{e}", rnd, a, b, *g))
                rows.append((f"ev{e}", rnd, b, a, g[1], g[0], g[2]))
            if len(order) % 2:
                g = draw(st.sampled_from([(2, 0, 0), (0, 2, 0)]))  # bye or unopposed loss
                rows.append((f"ev{e}", rnd, order[-1], None, *g))
            if len(active) > 2 and draw(st.booleans()):
                active.remove(draw(st.sampled_from(active)))  # a drop
    return pl.DataFrame(rows, orient="row", schema={
        "event_id": pl.String, "round": pl.Int64, "player_id": pl.String,
        "opponent_id": pl.String, "games_won": pl.Int64, "games_lost": pl.Int64,
        "games_drawn": pl.Int64})


RULESETS = st.sampled_from([MTG, MTG_THIRD, sf.rules.MTG_WER, sf.rules.MTG_1999])
PROPS = settings(max_examples=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@PROPS
@given(res=random_events(), rules=RULESETS)
def test_matches_fraction_reference(res: pl.DataFrame, rules: sf.Ruleset) -> None:
    st_ = sf.standings(res, rules)
    check_standings_invariants(st_, rules)
    ref = reference_standings(res, rules)
    for r in st_.iter_rows(named=True):
        exp = ref[(r["event_id"], r["player_id"])]
        assert r["rank"] == exp["rank"], (r, exp)
        for col, key in (("omwp", "omw"), ("ogwp", "ogw"), ("gwp", "gw"), ("mwp", "mw")):
            assert (r[col] is None) == (exp[key] is None)
            if r[col] is not None:
                assert r[col] == pytest.approx(float(exp[key]), abs=1e-12)


@PROPS
@given(res=random_events(), seed=st.integers(0, 2**16), rules=RULESETS)
def test_row_order_and_renaming_do_not_matter(res: pl.DataFrame, seed: int,
                                              rules: sf.Ruleset) -> None:
    base = sf.standings(res, rules)
    shuffled = res.sample(fraction=1.0, shuffle=True, seed=seed)
    assert_frame_equal(sf.standings(shuffled, rules), base)
    ren = {p: f"zz{seed}-{p}" for p in res["player_id"].unique().to_list()}
    renamed = res.with_columns(pl.col("player_id").replace(ren),
                               pl.col("opponent_id").replace(ren))
    back = sf.standings(renamed, rules).with_columns(
        pl.col("player_id").replace({v: k for k, v in ren.items()}))
    cols = list(base.columns)
    assert_frame_equal(back.select(cols).sort("event_id", "player_id"),
                       base.sort("event_id", "player_id"))


@PROPS
@given(res=random_events(), rules=RULESETS)
def test_many_events_together_equal_each_alone(res: pl.DataFrame, rules: sf.Ruleset) -> None:
    together = sf.standings(res, rules)
    for ev in res["event_id"].unique().sort().to_list():
        alone = sf.standings(res.filter(pl.col("event_id") == ev), rules)
        assert_frame_equal(together.filter(pl.col("event_id") == ev), alone)


@PROPS
@given(res=random_events())
def test_total_match_points_identity(res: pl.DataFrame) -> None:
    st_ = sf.standings(res)
    paired = res.filter(pl.col("opponent_id").is_not_null()
                        & (pl.col("player_id") < pl.col("opponent_id")))
    decisive = paired.filter(pl.col("games_won") != pl.col("games_lost")).group_by(
        "event_id").len()
    drawn = paired.filter(pl.col("games_won") == pl.col("games_lost")).group_by(
        "event_id").len()
    byes = res.filter(pl.col("opponent_id").is_null()
                      & (pl.col("games_won") > pl.col("games_lost"))).group_by("event_id").len()
    totals = st_.group_by("event_id").agg(pl.col("match_points").sum())
    for ev, total in totals.iter_rows():
        def n(frame: pl.DataFrame, ev: str = ev) -> int:
            f = frame.filter(pl.col("event_id") == ev)
            return int(f["len"][0]) if f.height else 0
        assert total == 3 * n(decisive) + 2 * n(drawn) + 3 * n(byes)


# ---------------------------------------------------------------- standings_by_round paths


@st.composite
def rich_events(draw: st.DrawFn, max_events: int = 3) -> pl.DataFrame:
    """Random events with what the by-round paths must handle: byes, unopposed losses,
    drops, late entrants, a skipped round number, playoff rows and a stage column."""
    n_events = draw(st.integers(1, max_events))
    rows = []
    for e in range(n_events):
        n = draw(st.integers(2, 8))
        players = [f"p{i}" for i in range(n)]
        late = draw(st.lists(st.sampled_from(players), max_size=2, unique=True))
        n_rounds = draw(st.integers(1, 5))
        numbers = list(range(1, n_rounds + 1))
        if n_rounds >= 3 and draw(st.booleans()):
            numbers = [r + (r > 2) for r in numbers]  # no round 3: an unplayed round
        active = [p for p in players if p not in late]
        for i, rnd in enumerate(numbers):
            if i == 1:
                active += late  # late entrants join in the second round played
            stage = "day1" if i < (len(numbers) + 1) // 2 else "day2"
            order = draw(st.permutations(active))
            for j in range(0, len(order) - 1, 2):
                a, b = order[j], order[j + 1]
                g = draw(st.sampled_from([(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 1, 1),
                                          (0, 0, 3), (1, 1, 0), (1, 0, 0)]))
                rows.append((f"ev{e}", rnd, a, b, *g, "swiss", stage))
                rows.append((f"ev{e}", rnd, b, a, g[1], g[0], g[2], "swiss", stage))
            if len(order) % 2:
                g = draw(st.sampled_from([(2, 0, 0), (0, 2, 0)]))
                rows.append((f"ev{e}", rnd, order[-1], None, *g, "swiss", stage))
            if len(active) > 2 and draw(st.booleans()):
                active.remove(draw(st.sampled_from(active)))
        if len(active) >= 2 and draw(st.booleans()):  # a playoff match after the Swiss
            a, b = active[0], active[1]
            rows.append((f"ev{e}", numbers[-1] + 1, a, b, 2, 0, 0, "playoff", "playoff"))
            rows.append((f"ev{e}", numbers[-1] + 1, b, a, 0, 2, 0, "playoff", "playoff"))
    return pl.DataFrame(rows, orient="row", schema={
        "event_id": pl.String, "round": pl.Int64, "player_id": pl.String,
        "opponent_id": pl.String, "games_won": pl.Int64, "games_lost": pl.Int64,
        "games_drawn": pl.Int64, "phase": pl.String, "stage": pl.String})


#: Rulesets of every shape: the MTG family (the cumulative path), platform presets (stage
#: and last-round snapshots, other floors), and rulesets whose criteria read the rows per
#: cutoff (Pokémon with group criteria and late rounds, FIDE, Flesh and Blood).
BY_ROUND_RULES = st.sampled_from([
    MTG, MTG_THIRD, sf.rules.MTG_WER, sf.rules.MTG_1999, sf.rules.get("swu"),
    sf.rules.get("one-piece"), sf.rules.get("melee-two-game"), sf.rules.get("melee-e1"),
    sf.rules.get("melee-e2"), sf.rules.get("topdeck"), sf.rules.get("cardsrealm"),
    sf.rules.get("manatraders"), dataclasses.replace(MTG, snapshot="last_round"),
    sf.rules.get("pokemon"), sf.rules.get("fide"), sf.rules.get("fab"),
])


@PROPS
@given(res=rich_events(), rules=BY_ROUND_RULES)
def test_by_round_is_standings_through_each_round(res: pl.DataFrame, rules: sf.Ruleset
                                                  ) -> None:
    """The definition: the rows of round k are ``standings(through_round=k)``."""
    by = sf.standings_by_round(res, rules)
    swiss = res.filter(pl.col("phase") == "swiss").select("event_id", "round").unique()
    assert by.select("event_id", "round").unique().sort(pl.all()).equals(swiss.sort(pl.all()))
    for ev, r in swiss.sort(pl.all()).iter_rows():
        one = sf.standings(res.filter(pl.col("event_id") == ev), rules, through_round=r)
        got = by.filter((pl.col("event_id") == ev) & (pl.col("round") == r)).drop("round")
        assert_frame_equal(got, one, check_row_order=True)


@PROPS
@given(res=rich_events(), rules=BY_ROUND_RULES, keyed=st.booleans())
def test_by_round_cumulative_path_equals_repeated_rows(res: pl.DataFrame, rules: sf.Ruleset,
                                                        keyed: bool) -> None:
    """The cumulative path against the repeated-rows reference, several events at once
    (and with an extra key, the same events twice)."""
    from swissframe.engine.standings import _by_round

    keys: list[str] = []
    if keyed:
        res = pl.concat([res.with_columns(scenario_id=pl.lit(s)) for s in (2, 1)])
        keys = ["scenario_id"]
    fast = _by_round(res, rules, keys, cumulative=True)  # (small inputs: not the default)
    assert_frame_equal(fast, _by_round(res, rules, keys, cumulative=False))
    assert_frame_equal(sf.standings_by_round(res, rules, keys=keys), fast)


def test_by_round_cumulative_path_is_taken_only_where_it_applies() -> None:
    from swissframe.engine.standings import _cumulative_ok

    for name in ("mtg", "mtg-1/3", "mtg-wer", "topdeck", "cardsrealm", "swu"):
        assert _cumulative_ok(sf.rules.get(name)), name
    # the running sums count every meeting, every row's games and an opponent's own
    # rounds: melee.gg's presets (each opponent once, a no-show's games left out) and
    # CardsRealm's first era (an opponent's rate over the event's rounds) take the rows
    for name in ("melee-e1", "melee-e2", "cardsrealm-e1"):
        assert not _cumulative_ok(sf.rules.get(name)), name
    assert _cumulative_ok(dataclasses.replace(
        sf.rules.get("melee-e1"), distinct_opponents=False, unopposed_loss_games="count"))
    # Pokémon's losses for missed rounds stand from the player's next round, which the
    # running sums do not know; a table where no one missed a round takes them
    # (_record.late_rounds_needed)
    pokemon = sf.rules.get("pokemon")
    assert not _cumulative_ok(pokemon)
    assert _cumulative_ok(dataclasses.replace(pokemon, late_rounds="as_given"))
    # FIDE's Buchholz and SB, FaB's CTB and Yu-Gi-Oh!'s printed number read the rows
    for name in ("fide", "fab", "yugioh"):
        assert not _cumulative_ok(sf.rules.get(name)), name


def test_by_round_null_game_rates_everywhere_stay_null() -> None:
    """Every match 0-0-0: no game rate anywhere, so OGW% is null (not 0) on both paths."""
    from swissframe.engine.standings import _by_round

    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
                      "player_b": ["B", "D", "C", "D"], "games_a": [0, 0, 0, 0],
                      "games_b": [0, 0, 0, 0], "games_drawn": [0, 0, 0, 0]})
    res = sf.from_matches(m)
    fast = _by_round(res, MTG, [], cumulative=True)
    assert fast["ogwp"].null_count() == fast.height
    assert_frame_equal(fast, _by_round(res, MTG, [], cumulative=False))


# ---------------------------------------------------------------- coded standings path


@PROPS
@given(res=rich_events(), rules=BY_ROUND_RULES, data=st.data())
def test_coded_path_equals_string_keyed_engine(res: pl.DataFrame, rules: sf.Ruleset,
                                               data: st.DataObject) -> None:
    """``standings`` on integer id codes (``_coded_standings``) against the engine on the
    id strings (``_compute``): every column, dtype and row order, for any ids (renamed to
    strings whose order differs from the generator's), with and without through_round."""
    from swissframe.engine.standings import _coded_ok, _compute, validated
    from swissframe.schema import WHITE_SPACE

    names = sorted(set(res["player_id"]) | set(res["opponent_id"].drop_nulls()))
    # (any text but blanks: an id of blanks only is the contract's empty_id)
    new = data.draw(st.lists(st.text(min_size=1, max_size=4).filter(
        lambda t: t.strip(WHITE_SPACE) != ""), min_size=len(names), max_size=len(names),
        unique=True))
    events = sorted(set(res["event_id"]))
    new_ev = data.draw(st.lists(st.text(max_size=3), min_size=len(events),
                                max_size=len(events), unique=True))
    res = res.with_columns(pl.col("player_id", "opponent_id").replace_strict(names, new,
                                                                             default=None),
                           pl.col("event_id").replace_strict(events, new_ev))
    through = data.draw(st.sampled_from([None, 1, 2, 4]))
    lf = validated(res, ())
    last = lf.filter(pl.col("phase") == "swiss").select(pl.col("round").max()).collect().item()
    if through is not None and last is not None and through > last:
        # (past every event's last Swiss round: the one error, not the final standings)
        with pytest.raises(sf.DataError, match=f"through_round={through}: the Swiss has"):
            sf.standings(res, rules, through_round=through)
        through = last
    if through is not None:
        lf = lf.filter(pl.col("round") <= through)
    ref = _compute(lf, rules, ("event_id",), None)
    got = sf.standings(res, rules, through_round=through)
    assert_frame_equal(got, ref, check_row_order=True, check_exact=True)
    if _coded_ok(rules) and res.height:  # an empty table has no codes
        from swissframe.engine.standings import _coded_standings
        from swissframe.schema import validated_with_codes

        frame, codes = validated_with_codes(res)
        assert codes is not None
        coded = _coded_standings(frame, codes, rules, through)
        assert coded is not None  # the path is taken, not the fallback
        assert_frame_equal(coded, ref, check_row_order=True, check_exact=True)


def test_coded_path_is_taken_for_the_mtg_family() -> None:
    from swissframe.engine.standings import _coded_ok

    for name in ("mtg", "mtg-1/3", "mtg-wer", "mtg-1999", "swu", "topdeck"):
        assert _coded_ok(sf.rules.get(name)), name
    for name in ("pokemon", "fide", "fab", "yugioh"):
        assert not _coded_ok(sf.rules.get(name)), name


@pytest.mark.parametrize("value", ["2", 2.5, True, None.__class__])
def test_through_round_of_the_wrong_type_is_a_clear_error(value: object) -> None:
    """``through_round="2"`` raised a bare TypeError from a comparison (issue 16 class 14)."""
    res = sf.simulate(8, rules="mtg", n_events=1, seed=1).results
    with pytest.raises(sf.DataError, match="whole round number"):
        sf.standings(res, through_round=value)  # type: ignore[arg-type]


def test_late_round_losses_appear_only_from_the_entry_round() -> None:
    # A beats B in round 1; L enters in round 2 and loses to A (B has the bye). With the
    # TRH §5.2.2 losses, after round 1 L has not entered: only A (3) and B (0) are listed.
    # After round 2, L has the added round-1 loss and the round-2 loss: 0 points, 2 rounds.
    from swissframe.rules import pokemon

    res = sf.from_matches(pl.DataFrame(
        {"round": [1, 2, 2], "player_a": ["A", "A", "B"], "player_b": ["B", "L", None],
         "games_a": [1, 1, None], "games_b": [0, 0, None], "games_drawn": [0, 0, None]}))
    rules = pokemon(late_rounds="loss", name="pk-late-loss")
    by = sf.standings_by_round(res, rules)
    after1 = by.filter(pl.col("round") == 1)
    assert after1.select("player_id", "match_points").rows() == [("A", 3), ("B", 0)]
    after2 = by.filter(pl.col("round") == 2).filter(pl.col("player_id") == "L")
    assert after2.select("losses", "rounds_played").rows() == [(2, 2)]


def test_missed_round_losses_are_of_the_rounds_the_event_played() -> None:
    # rounds numbered 1, 10**9: L, first seen in the second, missed one round (not 10**9)
    res = sf.from_matches(pl.DataFrame(
        {"round": [1, 10**9, 10**9], "player_a": ["A", "A", "B"], "player_b": ["B", "L", None],
         "games_a": [1, 1, None], "games_b": [0, 0, None], "games_drawn": [0, 0, None]}))
    got = sf.standings(res, "pokemon").filter(pl.col("player_id") == "L")
    assert got.select("losses", "rounds_played").rows() == [(2, 2)]


def _long_event(k: int) -> pl.DataFrame:
    """A beats B in each of ``k`` rounds; ``k`` more players appear only in the last."""
    rounds = [*range(1, k + 1), *[k] * (k // 2)]
    return sf.from_matches(pl.DataFrame(
        {"round": rounds, "player_a": ["A"] * k + [f"x{i}" for i in range(k // 2)],
         "player_b": ["B"] * k + [f"y{i}" for i in range(k // 2)],
         "games_a": [1] * len(rounds), "games_b": [0] * len(rounds),
         "games_drawn": [0] * len(rounds)}))


@pytest.mark.parametrize("preset", ["mtg", "yugioh", "fab", "fide", "swu", "pokemon"])
def test_an_event_of_thousands_of_rounds_ranks_on_rounded_values(preset: str) -> None:
    # exact scales of 2,000 rounds are thousands of bits: the rounded fallback, reported
    # (Yu-Gi-Oh!'s number read the fallback key at the exact scale; a mean's float
    # converted that scale to a float: OverflowError)
    rules = dataclasses.replace(sf.rules.get(preset), late_rounds="as_given")
    with pytest.warns(sf.errors.ExactnessWarning, match="rounded to 12 decimals"):
        st_ = sf.standings(_long_event(2_000), rules)
    assert st_.height == 2_002
    assert st_["player_id"][0] == "A"


def test_missed_rounds_beyond_any_event_are_refused_by_name() -> None:
    # A and B meet in 2,000 rounds; 2,000 players appear only in the last: 4 million
    # losses for 6,000 rows would be added. Refused, naming a player, before any row is
    from swissframe.engine import _record

    k = 2_000
    res = _long_event(k)
    assert res.height < _record.MISSED_ROWS_SLACK // 100
    with pytest.raises(sf.DataError, match=r"late_rounds='loss'.*player_id '[xy]\d+' has no "
                       r"row in 1,999 rounds.*Hint"):
        sf.standings(res, "pokemon")
    with pytest.raises(sf.DataError, match="late_rounds='as_given'"):
        sf.explain(res, "x1", "pokemon")
    as_given = dataclasses.replace(sf.rules.get("pokemon"), late_rounds="as_given")
    assert sf.standings(res, as_given).height == k + 2


@st.composite
def events_with_late_entrants(draw: st.DrawFn) -> pl.DataFrame:
    """Random events in which some players enter after round 1 (no row before), some sit
    a round out with no row and come back, some drop, and an unpaired player loses
    unopposed as an absence (``unplayed="absent"``) or has the bye: the rows the
    missed-round and absence rules add or skip."""
    rows = []
    for e in range(draw(st.integers(1, 2))):
        n, rounds = draw(st.integers(2, 7)), draw(st.integers(1, 4))
        entry = {f"p{i}": (1 if i < 2 else draw(st.integers(1, rounds))) for i in range(n)}
        gone: set[str] = set()
        for rnd in range(1, rounds + 1):
            active = [p for p, f in entry.items() if f <= rnd and p not in gone]
            if len(active) > 2 and draw(st.booleans()):  # away this round, no row
                active.remove(draw(st.sampled_from(active)))
            order = draw(st.permutations(active))
            for i in range(0, len(order) - 1, 2):
                a, b = order[i], order[i + 1]
                g = draw(st.sampled_from([(2, 0, 0), (1, 2, 0), (1, 1, 1), (0, 0, 3)]))
                rows.append((f"ev{e}", rnd, a, b, *g, None))
                rows.append((f"ev{e}", rnd, b, a, g[1], g[0], g[2], None))
            if len(order) % 2:
                absent = draw(st.booleans())
                rows.append((f"ev{e}", rnd, order[-1], None, 0 if absent else 2,
                             2 if absent else 0, 0, "absent" if absent else None))
            if len(active) > 2 and draw(st.booleans()):
                gone.add(draw(st.sampled_from(active)))
    return pl.DataFrame(rows, orient="row", schema={
        "event_id": pl.String, "round": pl.Int64, "player_id": pl.String,
        "opponent_id": pl.String, "games_won": pl.Int64, "games_lost": pl.Int64,
        "games_drawn": pl.Int64, "unplayed": pl.String})


def _sat_out() -> pl.DataFrame:
    """A and D have no row in round 3 and play again in round 4."""
    ms = [(1, "A", "B"), (1, "C", "D"), (2, "A", "C"), (2, "B", "D"), (3, "B", "C"),
          (4, "A", "D"), (4, "B", "C")]
    rows = [r for rnd, a, b in ms for r in (("ev0", rnd, a, b, 2, 0, 0, None),
                                           ("ev0", rnd, b, a, 0, 2, 0, None))]
    return pl.DataFrame(rows, orient="row", schema={
        "event_id": pl.String, "round": pl.Int64, "player_id": pl.String,
        "opponent_id": pl.String, "games_won": pl.Int64, "games_lost": pl.Int64,
        "games_drawn": pl.Int64, "unplayed": pl.String})


@pytest.mark.parametrize("missing", ["not_played", "absent"])
def test_a_round_sat_out_is_one_loss_under_both_missed_round_rules(missing: str) -> None:
    # late_rounds="loss" counts a round missed between two played ones, and so does
    # missing_rounds="absent" (an absence): together it is still one loss, from round 3 in
    # standings(through_round=3) as in standings_by_round (the two once disagreed there)
    from swissframe.engine.standings import _by_round

    rules = dataclasses.replace(MTG, name=f"mtg-loss-{missing}", late_rounds="loss",
                                missing_rounds=missing)  # type: ignore[arg-type]
    res = _sat_out()
    final = sf.standings(res, rules)
    # A won rounds 1, 2 and 4: the one loss is round 3's
    assert dict(zip(final["player_id"], final["losses"], strict=True))["A"] == 1
    at3 = sf.standings(res, rules, through_round=3)
    # after round 3 A has not come back: a loss only where round 3 is an absence
    assert dict(zip(at3["player_id"], at3["losses"], strict=True))["A"] == (
        1 if missing == "absent" else 0)
    for cumulative in (False, True):
        by = _by_round(res, rules, (), cumulative=cumulative)
        for (r,), grp in by.group_by(["round"], maintain_order=True):
            assert_frame_equal(grp.drop("round"),
                               sf.standings(res, rules, through_round=r))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(res=events_with_late_entrants(), base=st.sampled_from([MTG, sf.rules.POKEMON]),
       late=st.sampled_from(["as_given", "loss", "skip"]),
       missing=st.sampled_from(["not_played", "absent"]), cumulative=st.booleans())
def test_by_round_equals_through_round_with_added_and_skipped_rows(
        res: pl.DataFrame, base: sf.Ruleset, late: str, missing: str,
        cumulative: bool) -> None:
    """Each round of ``standings_by_round`` is ``standings(through_round=r)`` under every
    rule that adds rows (late entrants' losses, inferred absences) or skips them: the
    standings after round r are those of the rows up to r, on the running sums and on
    the repeated rows alike."""
    from swissframe.engine.standings import _by_round

    rules = dataclasses.replace(base, name=f"{base.name}-{late}-{missing}",
                                late_rounds=late, missing_rounds=missing)  # type: ignore[arg-type]
    by = _by_round(res, rules, (), cumulative=cumulative)
    for (ev, r), grp in by.group_by(["event_id", "round"], maintain_order=True):
        one = sf.standings(res.filter(pl.col("event_id") == ev), rules, through_round=r)
        assert_frame_equal(grp.drop("round"), one, check_row_order=True)
    rounds = by.select("event_id", "round").unique()
    played = res.select("event_id", "round").unique()
    assert rounds.sort(pl.all()).equals(played.sort(pl.all()))


def test_a_round_past_every_event_s_end_is_one_error_in_python_and_the_cli(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``through_round`` past an event's last round gave the final standings in Python and
    was refused by the CLI. One check now (``past_last_round``), read by both: a round after
    every event's last Swiss round is an error (a typo, or another event meant); an event
    that ended before it, beside one that did not, gets its final standings (the CLI says
    so in a note, silenced by --quiet). ``explain`` and ``compare`` check it alike."""
    from swissframe.cli import main

    five = sf.from_matches(F5_MATCHES)  # (3 rounds)
    rounds = int(five["round"].max())
    with pytest.raises(sf.DataError, match=rf"through_round={rounds + 1}: the Swiss has "
                                           rf"{rounds} rounds \(event 'event'\)\. Hint: pick "):
        sf.standings(five, through_round=rounds + 1)
    with pytest.raises(sf.DataError, match="the Swiss has"):
        sf.standings(five.lazy(), "mtg", through_round=rounds + 1)
    with pytest.raises(sf.DataError, match="the Swiss has"):
        sf.explain(five, "A", through_round=rounds + 1)
    with pytest.raises(sf.DataError, match="the Swiss has"):
        sf.compare(five, "A", "B", through_round=rounds + 1)
    # two events, one shorter: the shorter one's final standings, the other's cut
    # (a longer event: the same three rounds, then round 1's pairings again)
    six = pl.concat([five, five.filter(pl.col("round") == 1).with_columns(
        pl.lit(rounds + 1, dtype=five.schema["round"]).alias("round"))]).with_columns(
        pl.lit("six").alias("event_id"))
    both = pl.concat([five, six], how="diagonal_relaxed")
    longer = int(six["round"].max())
    assert longer > rounds
    got = sf.standings(both, through_round=rounds + 1)
    assert_frame_equal(got.filter(pl.col("event_id") == "event"), sf.standings(five))
    assert_frame_equal(got.filter(pl.col("event_id") == "six"),
                       sf.standings(six, through_round=rounds + 1))
    # auto rules, one ruleset's events all shorter than the round, another's not: no error
    mixed = pl.concat([five.with_columns(ruleset=pl.lit("mtg")),
                       six.with_columns(ruleset=pl.lit("pokemon"))], how="diagonal_relaxed")
    assert sf.standings(mixed, through_round=rounds + 1)["event_id"].n_unique() == 2
    with pytest.raises(sf.DataError, match="the longest of the 2 events"):
        sf.standings(both, through_round=longer + 1)
    # the CLI: the same error (its flag named), and the note
    path = tmp_path / "both.csv"
    both.write_csv(path)
    assert main(["standings", str(path), "--through-round", str(longer + 1)]) == 2
    assert (f"swissframe: error: --through-round {longer + 1}: the Swiss has {longer} rounds "
            "(the longest of the 2 events)") in capsys.readouterr().err
    assert main(["standings", str(path), "--through-round", str(rounds + 1),
                 "--format", "csv"]) == 0
    assert (f"1 event ended before round {rounds + 1} (event): its final standings are "
            "shown.") in capsys.readouterr().err
    assert main(["standings", str(path), "--through-round", str(rounds + 1), "--format",
                 "csv", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
