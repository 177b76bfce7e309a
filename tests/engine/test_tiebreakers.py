"""Tiebreaker functions and the group-aware ranking: exact keys, registries, keys/rounds."""

from __future__ import annotations

import dataclasses
import warnings
from fractions import Fraction

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import swissframe as sf
from swissframe.engine._exact import ratio_key
from swissframe.engine.tiebreakers import (
    GROUP_TIEBREAKERS,
    TIEBREAKERS,
    Context,
    register_tiebreaker,
)
from swissframe.errors import ExactnessWarning
from swissframe.rules import Criterion
from tests.helpers import bounded


def matches(spec: list[tuple[int, str, str, str]]) -> pl.DataFrame:
    g = {"a": (1, 0, 0), "b": (0, 1, 0), "t": (0, 0, 1)}
    m = pl.DataFrame([(r, a, b, *g[x]) for r, a, b, x in spec], orient="row",
                     schema=["round", "player_a", "player_b", "games_a", "games_b",
                             "games_drawn"])
    return sf.from_matches(m)


PKM_F3 = [(1, "A", "B", "a"), (1, "C", "D", "a"), (2, "A", "C", "a"), (2, "B", "D", "a"),
          (3, "D", "A", "a"), (3, "B", "C", "a")]


fractions = st.tuples(st.integers(0, 10**6), st.integers(1, 10**6))


@settings(max_examples=200, deadline=None)
@given(st.lists(fractions, min_size=2, max_size=12))
def test_ratio_key_is_exact_and_order_preserving(pairs: list[tuple[int, int]]) -> None:
    df = pl.DataFrame(pairs, schema=["n", "d"], orient="row")
    keys = df.select(ratio_key(pl.col("n"), pl.col("d")).alias("k"))["k"].to_list()
    for (n1, d1), k1 in zip(pairs, keys, strict=True):
        for (n2, d2), k2 in zip(pairs, keys, strict=True):
            f1, f2 = Fraction(n1, d1), Fraction(n2, d2)
            assert (f1 < f2) == (k1 < k2)
            assert (f1 == f2) == (k1 == k2)


def test_registries_hold_every_preset_criterion() -> None:
    for rs in sf.rules.PRESETS.values():
        for c in (*rs.criteria, *rs.columns):
            assert c.function in TIEBREAKERS or c.function in GROUP_TIEBREAKERS, c


def test_group_criteria_per_event_key_and_by_round() -> None:
    one = matches(PKM_F3)
    two = pl.concat([one, one.with_columns(event_id=pl.lit("e2"),
                                          player_id=pl.col("player_id") + "2",
                                          opponent_id=pl.col("opponent_id") + "2")])
    st_ = sf.standings(two, "pokemon")
    h = dict(zip(st_["player_id"], st_["head_to_head"], strict=True))
    assert (h["A"], h["B"], h["A2"], h["B2"]) == (1, -1, 1, -1)
    by = sf.standings_by_round(two, "pokemon")
    for r in (1, 2, 3):
        direct = sf.standings(two, "pokemon", through_round=r)
        got = by.filter(pl.col("round") == r).drop("round").select(direct.columns)
        assert got.sort("event_id", "rank", "player_id").equals(
            direct.sort("event_id", "rank", "player_id")), r
    scen = pl.concat([one.with_columns(scenario=pl.lit(s)) for s in ("x", "y")])
    ks = sf.standings(scen, "pokemon", keys=["scenario"])
    assert ks.height == 8
    assert ks.filter(pl.col("scenario") == "y")["player_id"].to_list() == ["A", "B", "C", "D"]


def test_head_to_head_sees_only_ties_left_by_earlier_criteria() -> None:
    # with only match points before it, A/B and C/D are pairs that met → both decided
    rs = dataclasses.replace(sf.rules.POKEMON, name="pts-h2h",
                             criteria=(sf.rules.POINTS, sf.rules.HEAD_TO_HEAD))
    st_ = sf.standings(matches(PKM_F3), rs)
    assert dict(zip(st_["player_id"], st_["head_to_head"], strict=True)) == \
        {"A": 1, "B": -1, "C": 1, "D": -1}
    # if a criterion before it separates everyone, head-to-head has nothing to do
    rs2 = dataclasses.replace(sf.rules.POKEMON, name="lr-h2h", criteria=(
        sf.rules.POINTS, Criterion("lost_round_squares"), sf.rules.HEAD_TO_HEAD))
    st2 = sf.standings(matches(PKM_F3), rs2)
    assert set(st2["head_to_head"]) == {0}


def test_custom_tiebreaker_registration() -> None:
    @register_tiebreaker("name_length")
    def name_length(ctx: Context, *, name: str = "name_length") -> pl.LazyFrame:
        return ctx.players.select(*ctx.pkeys, pl.col("player_id").str.len_chars()
                                  .cast(pl.Int64).alias(name),
                                  pl.col("player_id").str.len_chars().cast(pl.Int128)
                                  .alias(f"_x_{name}"))

    try:
        rs = sf.Ruleset(name="len", criteria=(Criterion("match_points"),
                                              Criterion("name_length")))
        res = matches([(1, "Al", "Bob", "t")])
        st_ = sf.standings(res, rs)
        assert st_["player_id"].to_list() == ["Bob", "Al"]
    finally:
        TIEBREAKERS.pop("name_length", None)


def test_exact_ties_in_opponents_match_point_share() -> None:
    # both S1 and S2 face opponents whose shares are 1/7 overall, via different sums
    spec = [(1, "S1", "x1", "a"), (1, "S2", "y1", "a"), (2, "S1", "x2", "a"),
            (2, "S2", "y2", "a")]
    st_ = sf.standings(matches(spec), "melee-two-game")
    omp = dict(zip(st_["player_id"], st_["omp"], strict=True))
    assert omp["S1"] == omp["S2"] == 0.0
    ranks = dict(zip(st_["player_id"], st_["rank"], strict=True))
    assert ranks["S1"] == ranks["S2"]


def test_fab_ctb_and_octb_exact_with_many_rounds() -> None:
    spec = [(r, "P", f"o{r}", "a" if r % 2 else "b") for r in range(1, 16)]
    st_ = sf.standings(matches(spec), "fab")
    p = st_.filter(pl.col("player_id") == "P").row(0, named=True)
    ctb = Fraction(0)
    pts = 0
    for r in range(1, 16):
        pts += r % 2
        ctb = ctb / 4 + pts
    assert p["ctb"] == pytest.approx(float(ctb), rel=1e-15)


@pytest.mark.parametrize("first", [32, 10**6, 10**15])
def test_fab_ctb_depends_on_rounds_between_not_on_their_numbers(first: int) -> None:
    """CTB weighs a row by 1/4 per round to the player's last round, so an event numbered
    from 32 (or 10**15) ranks as the one numbered from 1. (The exact scale followed the
    largest round number: 32 rounds overflowed Int128 while building the weights; 10**15
    would have built a list of 2·10**15 of them.)"""
    spec = [(1, "P", "A", "a"), (1, "Q", "B", "a"), (2, "A", "Q", "a"), (3, "P", "B", "a"),
            (3, "Q", "A", "a")]
    want = sf.standings(matches(spec), "fab")
    got = bounded(lambda: sf.standings(
        matches([(r + first - 1, *rest) for r, *rest in spec]), "fab"))
    assert got.equals(want)


def test_fab_ctb_over_a_gap_of_a_billion_rounds_is_two_rounds() -> None:
    """Rounds numbered 1 and 10**9 are the event's two rounds (its rounds are the rounds it
    played): CTB exact, no fallback warning, in no time. Read as numbers, the gap needed a
    scale of 4**(10**9) and ranked on rounded values (P ≈ 2.3333)."""
    spec = [(1, "P", "A", "a"), (1, "Q", "B", "b"), (10**9, "P", "B", "a"),
            (10**9, "Q", "A", "a")]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ExactnessWarning)
        got = bounded(lambda: sf.standings(matches(spec), "fab"))
    ctb = dict(zip(got["player_id"], got["ctb"], strict=True))
    # P: 1 after round 1, then 1/4 + 2; Q: 0 then 0/4 + 1
    assert ctb["P"] == 2.25
    assert ctb["Q"] == 1.0


def test_lost_round_squares_of_a_huge_round_number_is_its_place() -> None:
    """A loss in the round numbered 2**32 squared to 2**64 (an error, before that a wrap to
    0, which ranked it as no loss at all). It is the event's first round: 1² = 1, as the
    round numbered 3 of an event that played only it."""
    for number in (3, 2**32):
        assert sf.standings(matches([(number, "A", "B", "a")]), "yugioh-ddd").filter(
            pl.col("player_id") == "B")["lost_round_squares"].item() == 1


def test_fab_ctb_of_a_returning_player_carries_the_total() -> None:
    """FaB policy: "CTB = tiebreaker last round / 4 + total match-win points", tracked every
    round. P wins round 1, has no row in round 2, wins round 3: after round 1 CTB = 0/4 + 1
    = 1; round 2 (no match, total still 1) 1/4 + 1 = 1.25; round 3 1.25/4 + 2 = 2.3125 —
    the same as Q's W, L, W (a missed round adds no match point, like a loss). Computing
    round 2 with a total of 0 gave 1/16 + 2 = 2.0625; skipping it 1/4 + 2 = 2.25.
    B (L, no row, L) stays 0; A (L, W, L): 0, 1, 1/4 + 1 = 1.25. P ranks above Q on PML
    (0 losses in 2 matches against 1 in 3)."""
    spec = [(1, "P", "A", "a"), (1, "Q", "B", "a"), (2, "A", "Q", "a"), (3, "P", "B", "a"),
            (3, "Q", "A", "a")]
    st_ = sf.standings(matches(spec), "fab")
    ctb = dict(zip(st_["player_id"], st_["ctb"], strict=True))
    assert ctb == {"P": 2.3125, "Q": 2.3125, "A": 1.25, "B": 0.0}
    octb = dict(zip(st_["player_id"], st_["octb"], strict=True))
    assert octb["P"] == (1.25 + 0.0) / 2
    assert st_["player_id"].to_list()[:2] == ["P", "Q"]
    # exact: P and Q tie on CTB as rationals
    from swissframe.engine.standings import _criteria

    crit = _criteria(matches(spec).lazy().with_columns(
        event_id=pl.lit("event"), phase=pl.lit("swiss")), sf.rules.FAB, ("event_id",))
    x = dict(zip(crit["player_id"], crit["_x_ctb"], strict=True))
    assert x["P"] == x["Q"]


@st.composite
def returning_events(draw: st.DrawFn) -> tuple[pl.DataFrame, list[tuple[int, str]]]:
    """Random FaB events in which some players have no row in a middle round."""
    n_rounds = draw(st.integers(3, 5))
    players = [f"p{i}" for i in range(draw(st.integers(4, 8)))]
    missing = {(r, p) for p in players for r in range(2, n_rounds)
               if draw(st.integers(0, 4)) == 0}
    rows = []
    for rnd in range(1, n_rounds + 1):
        here = [p for p in players if (rnd, p) not in missing]
        here = draw(st.permutations(here))
        for a, b in zip(here[::2], here[1::2], strict=False):
            res = draw(st.sampled_from([(1, 0, 0), (0, 1, 0), (0, 0, 1)]))
            rows += [(rnd, a, b, *res), (rnd, b, a, res[1], res[0], res[2])]
        if len(here) % 2:
            rows.append((rnd, here[-1], None, 1, 0, 0))
    df = pl.DataFrame(rows, orient="row", schema={
        "round": pl.Int64, "player_id": pl.String, "opponent_id": pl.String,
        "games_won": pl.Int64, "games_lost": pl.Int64, "games_drawn": pl.Int64})
    return df, sorted(missing)


@settings(max_examples=40, deadline=None)
@given(returning_events())
def test_fab_ctb_missed_round_counts_as_no_points(event: tuple[pl.DataFrame, list]) -> None:
    """Invariant of the policy's per-round update: a round a player has no row in (between
    their first and last rows) changes CTB exactly as a round scoring no match point —
    an unopposed loss row in its place gives the same exact CTB."""
    res, missing = event
    present = res.group_by("player_id").agg(pl.col("round").min().alias("lo"),
                                            pl.col("round").max().alias("hi"))
    bounds = dict(zip(present["player_id"], zip(present["lo"], present["hi"], strict=True),
                      strict=True))
    # (a round of the event only: a number no row of the event has is not a round, and
    # filling it would add one)
    played = set(res["round"])
    fill = [(r, p, None, 0, 1, 0) for r, p in missing
            if p in bounds and bounds[p][0] < r < bounds[p][1] and r in played]
    filled = pl.concat([res, pl.DataFrame(fill, orient="row", schema=res.schema)]) \
        if fill else res
    from swissframe.engine.standings import _criteria

    def ctb(df: pl.DataFrame) -> dict[str, int]:
        crit = _criteria(df.lazy().with_columns(event_id=pl.lit("e"), phase=pl.lit("swiss")),
                         sf.rules.FAB, ("event_id",))
        return dict(zip(crit["player_id"], crit["_x_ctb"], strict=True))

    assert ctb(res) == ctb(filled)


@pytest.mark.parametrize("number", ["33726677", None, -1, 2.5])
def test_decode_ygo_number_refuses_what_is_not_a_printed_number(number: object) -> None:
    """Text or None ended in a bare TypeError; a negative number decoded to nonsense."""
    with pytest.raises(sf.DataError, match=r"number must be a whole number ≥ 0"):
        sf.tiebreakers.decode_ygo_number(number)  # type: ignore[arg-type]


def test_direct_encounter_scales_each_tie_group_on_its_own() -> None:
    """Two players who drew in each of 50 rounds: ``standings_by_round`` under FIDE (direct
    encounter) took one scale for every cutoff's tie group, the multiple of 1, 2, …, 50
    meetings, past 2⁶², and refused the table (``DataError`` "met 3,099,044,… times"),
    though each cutoff's standings were computed. Each tie group now has its own scale,
    and every cutoff is what ``through_round`` gives (bad data 201)."""
    rows = [("e", r, a, b, 0, 0, 1) for r in range(1, 51) for a, b in (("a", "b"), ("b", "a"))]
    res = pl.DataFrame(rows, orient="row", schema=["event_id", "round", "player_id",
                                                   "opponent_id", "games_won", "games_lost",
                                                   "games_drawn"])
    rules = dataclasses.replace(sf.rules.FIDE, name="de", criteria=(
        sf.rules.POINTS, Criterion("direct_encounter")))
    with pytest.warns(ExactnessWarning):  # (the 50-round event's rates, not direct encounter)
        by_round = sf.standings_by_round(res, rules)
    for cut in (2, 3, 43, 49, 50):
        alone = sf.standings(res, rules, through_round=cut).sort("player_id")
        at = by_round.filter(pl.col("round") == cut).sort("player_id")
        assert at.select(alone.columns).equals(alone), cut


def test_fab_ctb_counts_the_rounds_played_not_their_numbers() -> None:
    """FaB policy: CTB is divided by 4 once a round of the tournament. An event numbered 1,
    2, 4 played three rounds (no row has the number 3): A (W, L, W) 1, 1.25, 2.3125; B (L,
    W, W) 0, 1, 2.25; C (W, W, L) 1, 2.25, 2.5625 — FAB-F1's values. Reading the number 3 as
    a round divided once more: A 2.328125, B 2.3125, C 2.640625; with the last round
    numbered 100 every CTB became a fixed point (A and B both ≈ 2.3333), an exactness
    warning, and A's earlier win no longer ranked A above B."""
    spec = [(1, "A", "B", "a"), (1, "C", "D", "a"), (2, "C", "A", "a"), (2, "B", "D", "a")]
    for last in (3, 4, 100):
        st_ = sf.standings(matches([*spec, (last, "A", "D", "a"), (last, "B", "C", "a")]),
                           "fab")
        ctb = dict(zip(st_["player_id"], st_["ctb"], strict=True))
        assert ctb == {"A": 2.3125, "B": 2.25, "C": 2.5625, "D": 0.0}, last
        assert st_["player_id"].to_list() == ["C", "A", "B", "D"], last


def test_yugioh_ddd_squares_the_round_s_place_not_its_number() -> None:
    """DDD (rules.md §3.1 [S]) sums the squares of the rounds lost, later losses scoring
    higher. Numbered 1, 2, 4 (three rounds played), a loss in the last round is 3² = 9, as
    in the event numbered 1, 2, 3; the number itself gave 16. Numbered 32, 33, 34 it gave
    34² = 1156, past the printed block's 999."""
    spec = [(0, "A", "B", "a"), (0, "C", "D", "a"), (1, "C", "A", "a"), (1, "B", "D", "a"),
            (2, "A", "D", "a"), (2, "B", "C", "a")]
    for numbers in ((1, 2, 3), (1, 2, 4), (32, 33, 34)):
        st_ = sf.standings(matches([(numbers[i], a, b, x) for i, a, b, x in spec]),
                           "yugioh-ddd")
        ddd = dict(zip(st_["player_id"], st_["lost_round_squares"], strict=True))
        assert ddd == {"A": 4, "B": 1, "C": 9, "D": 1 + 4 + 9}, numbers
        number = dict(zip(st_["player_id"], st_["ygo_tiebreaker"], strict=True))
        assert number["C"] % 1000 == 9, numbers
