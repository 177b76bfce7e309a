"""The engine's fast paths give what their reference paths give (issue 19).

- ``standings_by_round`` on validation's id codes (``_cumulative.build(coded=...)``) equals
  the cumulative path hashing the ids itself and the repeated-rows reference (which
  ``standings_by_round`` itself takes below ``CUMULATIVE_MIN_ROWS`` repeated rows), with
  its cutoffs taken from the coded rows or collected, and its ids decoded from
  validation's dictionaries or gathered from the rows;
- ranking with ``rank_exact(unique=True)`` (an unstable sort, the order total through
  player_id) equals the stable sort;
- the coded one-pass ``standings`` equals the keyed reference ``_compute``;
- the means of floored rates from Int64 and float arithmetic (``mean_exact(least=...)``)
  equal the Int128 long division (:func:`_exact.ratio_float`), bit for bit;
- ranking on narrowed and packed keys (``standings._rank_table``, tables of at least
  ``_exact.PACK_MIN_ROWS`` players) equals the plain sort of the columns that small
  tables take;
- the columns ranking moves packed in one Int64 (``standings._pack_payload``), the
  opponents' two base sums packed in one Int64 (``tiebreakers._packed_width``) and the
  criteria of one shared frame attached in one join (``Context.projection``) give what
  one column and one join each give; the opponents' segment sums of packed gathers
  (``_exact._sum_fields``) give what one gather per column gives;
- the opponents' base sums summed in the chess terms' group-by
  (``tiebreakers.SUMS_FROM_TERMS``) equal their own join and group-by;
- the record's counts summed side by side in one Int64 (``aggregate_players(packed=...)``,
  the coded path's ``_record_of`` on a large table) equal one sum per count, and bounds
  that do not hold send the record back to one sum per count.
"""

from __future__ import annotations

import dataclasses
import math
from datetime import date
from fractions import Fraction
from typing import Final
from unittest import mock

import polars as pl
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from swissframe import _collect
from swissframe import schema as schema_mod
from swissframe.engine import _cumulative as cu_mod
from swissframe.engine import _exact as ex_mod
from swissframe.engine import _record as rec_mod
from swissframe.engine import standings as st_mod
from swissframe.engine import tiebreakers as tb_mod
from swissframe.engine._exact import ExactScale, mean_exact, rank_exact
from swissframe.engine._record import (
    SumBounds,
    aggregate_players,
    points_of_counts,
    prepare_rows,
    scale_groups,
)
from swissframe.schema import code_bits
from tests.engine.test_standings import PROPS, random_events, rich_events
from tests.helpers import reachable
from tests.test_pokemon import pkm_f3

PRESETS = st.sampled_from(["mtg", "mtg-1/3", "mtg-wer", "mtg-1999", "swu", "melee-two-game",
                           "pokemon", "yugioh", "fab", "fide"])


def _by_round_hashing(res: pl.DataFrame, rules: str) -> pl.DataFrame:
    """``standings_by_round`` with the cumulative path coding the ids itself."""
    ruleset = sf.rules.get(rules)
    frame, _ = st_mod._validated_coded(res, ())
    lf = frame.lazy()
    rounds = (lf.filter(pl.col("phase") == "swiss").select("event_id", "round").unique()
              .rename({"round": st_mod.THROUGH}))
    return st_mod._compute(lf, ruleset, ("event_id",), rounds, codes=None)


@PROPS
@given(res=random_events(), rules=PRESETS)
def test_by_round_on_validation_codes_equals_hashing_and_reference(res: pl.DataFrame,
                                                                   rules: str) -> None:
    fast = st_mod._by_round(res, rules, (), cumulative=True)  # (small: not the default)
    assert_frame_equal(fast, _by_round_hashing(res, rules))
    assert_frame_equal(sf.standings_by_round(res, rules), fast)
    ref = st_mod._by_round(res, rules, (), cumulative=False)
    assert_frame_equal(fast.sort("event_id", "round", "player_id"),
                       ref.sort("event_id", "round", "player_id"))


@PROPS
@given(res=rich_events(), rules=PRESETS)
def test_by_round_cutoffs_from_the_codes_equal_the_collected_cutoffs(res: pl.DataFrame,
                                                                     rules: str) -> None:
    # standings_by_round's cutoffs are every round of the Swiss rows: the grid takes them
    # from the coded rows (own_rounds) instead of collecting the cutoffs' ids
    frame, codes = st_mod._validated_coded(res, ())
    lf, ruleset = frame.lazy(), sf.rules.get(rules)
    rounds = (lf.filter(pl.col("phase") == "swiss").select("event_id", "round").unique()
              .rename({"round": st_mod.THROUGH}))
    own = st_mod._compute(lf, ruleset, ("event_id",), rounds, codes=codes, own_rounds=True)
    collected = st_mod._compute(lf, ruleset, ("event_id",), rounds, codes=codes)
    assert_frame_equal(own, collected)
    assert_frame_equal(own, _by_round_hashing(res, rules))


@PROPS
@given(res=random_events(), rules=PRESETS)
def test_coded_standings_equal_the_keyed_reference(res: pl.DataFrame, rules: str) -> None:
    ruleset = sf.rules.get(rules)
    frame, _ = st_mod._validated_coded(res, ())
    ref = st_mod._compute(frame.lazy(), ruleset, ("event_id",), None)
    assert_frame_equal(sf.standings(res, rules), ref)
    two = sf.standings(res, rules, through_round=reachable(res, 2))
    ref2 = st_mod._compute(frame.filter(pl.col("round") <= 2).lazy(), ruleset,
                           ("event_id",), None)
    assert_frame_equal(two, ref2)


#: Rulesets whose final standings take each player as of a round of their own (a player
#: who left early at their last round, or at the end of their stage), so ``standings``
#: computes criteria at several cutoffs; with group criteria and OOMW%.
SNAPSHOT_RULES = st.sampled_from([
    sf.rules.get("pokemon"), sf.rules.get("pokemon-2016"),
    dataclasses.replace(sf.rules.get("pokemon"), name="pokemon-stage", snapshot="stage"),
    dataclasses.replace(sf.rules.MTG, name="mtg-last", snapshot="last_round"),
    dataclasses.replace(sf.rules.get("yugioh"), name="yugioh-last", snapshot="last_round",
                        columns=()),
])


@PROPS
@given(res=rich_events(), rules=SNAPSHOT_RULES, through=st.sampled_from([None, 2, 3]))
def test_snapshot_standings_equal_the_repeated_rows(res: pl.DataFrame, rules: sf.Ruleset,
                                                    through: int | None) -> None:
    """Standings that take players at rounds of their own: the criteria from the running
    sums at the rounds needed (OOMW% too, through ``Context.opponent_totals``) and the
    head-to-head from the tied players' rows only (``GroupContext.rows_of``) equal the
    rows repeated once per cutoff (the definition)."""
    frame, _ = st_mod._validated_coded(res, ())
    if through is not None:
        frame = frame.filter(pl.col("round") <= through)
    fast = st_mod._compute(frame.lazy(), rules, ("event_id",), None)
    ref = st_mod._compute(frame.lazy(), rules, ("event_id",), None, cumulative=False)
    assert_frame_equal(fast, ref, check_exact=True)


@PROPS
@given(res=rich_events(), rules=SNAPSHOT_RULES, through=st.sampled_from([None, 2, 3]))
def test_own_last_round_in_one_query_equals_the_rounds_of_evaluation_joined(
        res: pl.DataFrame, rules: sf.Ruleset, through: int | None) -> None:
    """The final standings of a ruleset taking each player at their last round, in one
    query (``_at_own_last_round``), equal ``eval_rounds`` joined to the criteria at the
    rounds it names (late entrants' added losses, drops, a skipped round number)."""
    frame, _ = st_mod._validated_coded(res, ())
    if through is not None:
        frame = frame.filter(pl.col("round") <= through)
    got = st_mod._compute(frame.lazy(), rules, ("event_id",), None, cumulative=False)
    ref = st_mod._compute(frame.lazy(), rules, ("event_id",), None, cumulative=False,
                          one_query=False)
    assert_frame_equal(got, ref, check_exact=True)


@given(width=st.integers(1, 6), height=st.integers(0, 5), data=st.data())
def test_columns_dropped_without_a_query_equal_dataframe_drop(width: int, height: int,
                                                             data: st.DataObject) -> None:
    """``standings._without`` (a shallow copy, columns dropped in place: what the group
    criteria's tie windows are taken off with) gives ``DataFrame.drop``'s table and
    leaves its input as it was (it fails when the input itself is dropped from)."""
    frame = pl.DataFrame({f"c{i}": [i * 10 + j for j in range(height)] for i in range(width)},
                         schema={f"c{i}": pl.Int128 if i % 2 else pl.Int64
                                 for i in range(width)})
    before = frame.clone()
    gone = data.draw(st.lists(st.sampled_from(frame.columns), unique=True))
    assert_frame_equal(st_mod._without(frame, *gone), frame.drop(gone))
    assert_frame_equal(frame, before)


#: Rulesets with group criteria: head-to-head (tie groups without ranks), the older
#: Pokémon order's last-round opponent (ranks), direct encounter, random orders.
GROUP_RULES = st.sampled_from(["pokemon", "pokemon-2016", "fide", "fide-2026", "fab",
                               dataclasses.replace(sf.rules.get("pokemon"),
                                                   name="pokemon-final", snapshot="final")])


def _group_reference(res: pl.DataFrame, rules: str | sf.Ruleset, *, one: bool
                     ) -> pl.DataFrame:
    """``_compute`` with every group criterion's tie groups from a ranking pass."""
    ruleset = sf.rules.get(rules)
    frame, _ = st_mod._validated_coded(res, ())
    spec = tb_mod.TIEBREAKER_SPECS["head_to_head"]
    with mock.patch.dict(tb_mod.TIEBREAKER_SPECS,
                         {"head_to_head": dataclasses.replace(spec, ranks=True)}):
        return st_mod._compute(frame.lazy(), ruleset, ("event_id",), None,
                               cumulative=False, one=one)


@PROPS
@given(res=rich_events(), rules=GROUP_RULES)
def test_group_criteria_in_one_plan_equal_ranking_passes_within_the_keys(
        res: pl.DataFrame, rules: str | sf.Ruleset) -> None:
    """Head-to-head's tie groups from windows (``TiebreakerSpec.ranks=False``) and one
    event ranked as one group (``one``) equal a ranking pass for the groups and the ranks
    within the event key (the reference)."""
    ruleset = sf.rules.get(rules)
    frame, _ = st_mod._validated_coded(res, ())
    got = st_mod._compute(frame.lazy(), ruleset, ("event_id",), None, cumulative=False)
    assert_frame_equal(got, _group_reference(res, rules, one=False), check_exact=True)
    assume(res.height > 0)
    first = res.filter(pl.col("event_id") == res["event_id"][0])
    one, _ = st_mod._validated_coded(first, ())
    got = st_mod._compute(one.lazy(), ruleset, ("event_id",), None, cumulative=False,
                          one=True)
    assert_frame_equal(got, _group_reference(first, rules, one=False), check_exact=True)
    assert_frame_equal(sf.standings(first, ruleset), got)


#: Values up to 2**43 (segment sums fit Int64: summed whole), 2**62 (Int64 values whose
#: sums of three do not fit: split), 2**69 (Int128 values: split), 2**98 (the upper half's
#: sums do not fit Int64: declined).
@pytest.mark.parametrize("factor", [2**40, 2**59, 2**66, 2**95])
def test_opponent_sums_of_values_of_any_size_equal_the_sums_of_the_rows(factor: int) -> None:
    """``_cumulative.opponent_sums`` sums an exact value whole where a segment's sums fit
    Int64, split in two Int64 halves where they do not (Int64 values and Int128 ones):
    each gives the sum over the opponents met by each cutoff of their value at that cutoff,
    as the rows say it; where even a half's sums would overflow it declines (None: the
    caller takes the reference path)."""
    from swissframe.engine._record import aggregate_players, cutoff_rows, prepare_rows

    m = pl.DataFrame({"round": [1, 1, 2, 2, 3, 3], "player_a": ["A", "C", "A", "B", "A", "B"],
                      "player_b": ["B", "D", "C", "D", "D", "C"],
                      "games_a": [2, 2, 2, 1, 0, 2], "games_b": [0, 1, 1, 2, 2, 1],
                      "games_drawn": [0] * 6})
    frame, _ = st_mod._validated_coded(sf.from_matches(m), ())
    rules, keys, through = sf.rules.MTG, ("event_id",), st_mod.THROUGH
    cutoffs = pl.DataFrame({"event_id": ["event"] * 3, through: [1, 2, 3]})
    schema = aggregate_players(prepare_rows(cutoff_rows(frame.lazy(), keys, cutoffs.lazy()),
                                            rules), (*keys, through)).collect_schema()
    grid = cu_mod.build(prepare_rows(frame.lazy(), rules).collect(), keys, cutoffs, through,
                        schema)
    assert grid is not None
    base = grid.base.with_row_index("_row").with_columns(
        _x_v=((pl.col("_row") % 7 + 1).cast(pl.Int128) * factor
              + pl.lit(factor - 1, dtype=pl.Int128)))
    got = cu_mod.opponent_sums(grid, base, ["_e", through, "player_id"], {"v": 1})
    if factor == 2**95:
        assert got is None
        return
    assert got is not None
    # the definition: per (cutoff, player), the opponents of the rows up to the cutoff,
    # each opponent's value at that cutoff
    codes = grid.ids.with_row_index("_code").with_columns(pl.col("_code").cast(pl.Int64))
    values = (base.select(through, pl.col("player_id").alias("_code"), "_x_v")
              .join(codes, on="_code"))  # (cutoff, code, event_id, player_id, value)
    rows = (frame.filter(pl.col("opponent_id").is_not_null()).join(cutoffs, on="event_id")
            .filter(pl.col("round") <= pl.col(through)))
    opp = values.select(through, "event_id", pl.col("player_id").alias("opponent_id"), "_x_v")
    want = (rows.join(opp, on=[through, "event_id", "opponent_id"])
            .group_by(through, "event_id", "player_id").agg(pl.col("_x_v").sum().alias("_t"))
            .join(values.select(through, "event_id", "player_id", "_code"),
                  on=[through, "event_id", "player_id"]))
    by_row = dict(zip(zip(want[through], want["_code"], strict=True), want["_t"],
                      strict=True))
    for c, p, t in got.select(through, "player_id", "_t_v").collect().iter_rows():
        assert t == by_row.get((c, p), 0), (c, p)


def _pokemon_rows_as_given() -> sf.Ruleset:
    """Pokémon on its rows as given: B below misses round 2, a loss under the preset's
    ``late_rounds="loss"``, which takes the table off the running sums these tests read."""
    return dataclasses.replace(sf.rules.get("pokemon"), late_rounds="as_given")


def test_pokemon_criteria_are_taken_from_the_running_sums() -> None:
    """The test above would pass as well if the running sums declined: here they must
    not (OOMW% at the drop rounds, four players, one dropping after round 1)."""
    m = pl.DataFrame({"round": [1, 1, 2, 3], "player_a": ["A", "C", "A", "A"],
                      "player_b": ["B", "D", "C", "B"], "games_a": [2, 0, 2, 1],
                      "games_b": [0, 2, 1, 2], "games_drawn": [0, 0, 0, 0]})
    frame, _ = st_mod._validated_coded(sf.from_matches(m), ())
    cutoffs = pl.LazyFrame({"event_id": ["event"] * 3, st_mod.THROUGH: [1, 2, 3]})
    rules = _pokemon_rows_as_given()
    got = st_mod._cumulative_criteria(frame.lazy(), rules, ("event_id",), cutoffs)
    assert got is not None
    table = st_mod._decode(*got)
    ref = st_mod._cutoff_criteria(frame.lazy(), rules, ("event_id",), cutoffs,
                                  cumulative=False)
    order = ["event_id", st_mod.THROUGH, "player_id"]
    assert_frame_equal(table.select(ref.columns).sort(order), ref.sort(order),
                       check_exact=True)


def test_an_opponents_mean_the_running_sums_cannot_give_sends_back_to_the_rows() -> None:
    """When the grid declines OOMW%'s sums (an overflow: ``opponent_sums`` gives None), the
    running-sums path declines as a whole and the repeated rows give the table — the same
    table, not a partial one or an error."""
    m = pl.DataFrame({"round": [1, 1, 2, 3], "player_a": ["A", "C", "A", "A"],
                      "player_b": ["B", "D", "C", "B"], "games_a": [2, 0, 2, 1],
                      "games_b": [0, 2, 1, 2], "games_drawn": [0, 0, 0, 0]})
    frame, _ = st_mod._validated_coded(sf.from_matches(m), ())
    rules = _pokemon_rows_as_given()
    real = cu_mod.opponent_sums

    def declines_other_values(grid: object, players: pl.DataFrame, keys: list[str],
                              sources: dict[str, int]) -> pl.DataFrame | None:
        if "_v" in sources:  # OOMW%'s values, summed through Context.opponent_totals
            return None
        return real(grid, players, keys, sources)  # type: ignore[arg-type]

    cutoffs = pl.LazyFrame({"event_id": ["event"] * 3, st_mod.THROUGH: [1, 2, 3]})
    with mock.patch.object(cu_mod, "opponent_sums", declines_other_values):
        assert st_mod._cumulative_criteria(frame.lazy(), rules, ("event_id",), cutoffs) is None
        got = st_mod._compute(frame.lazy(), rules, ("event_id",), None)
    ref = st_mod._compute(frame.lazy(), rules, ("event_id",), None, cumulative=False)
    assert_frame_equal(got, ref, check_exact=True)


@PROPS
@given(values=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3),
                                 st.none() | st.integers(0, 3)), min_size=1, max_size=30),
       seed=st.integers(0, 1000))
def test_unique_ranking_equals_the_stable_sort(values: list[tuple[int, int, int | None]],
                                               seed: int) -> None:
    frame = (pl.DataFrame(values, orient="row", schema=["_e", "a", "b"])
             .with_row_index("player_id").sample(fraction=1.0, shuffle=True, seed=seed))
    args = (["_e"], ["a", "b"], [True, False])
    stable = rank_exact(frame.lazy(), *args, tiebreak=["player_id"], tie_name="t").collect()
    fast = rank_exact(frame.lazy(), *args, tiebreak=["player_id"], tie_name="t",
                      unique=True).collect()
    assert_frame_equal(fast, stable)


def _competition_ranks(rows: list[tuple[int, int | None, int | None]],
                       descending: tuple[bool, bool]) -> list[int]:
    """Plain-Python competition ranks (1, 2, 2, 4) within each group (the first value) by
    the other two, nulls last whatever the direction: the definition ``rank_exact``
    vectorises."""
    def key(v: int | None, desc: bool) -> tuple[int, int]:
        return (1, 0) if v is None else (0, -v if desc else v)

    out = []
    for g, a, b in rows:
        mine = (key(a, descending[0]), key(b, descending[1]))
        out.append(1 + sum(1 for g2, a2, b2 in rows if g2 == g
                           and (key(a2, descending[0]), key(b2, descending[1])) < mine))
    return out


@PROPS
@given(values=st.lists(st.tuples(st.integers(0, 2), st.none() | st.integers(-3, 3),
                                 st.none() | st.integers(-3, 3)), min_size=1, max_size=30),
       descending=st.tuples(st.booleans(), st.booleans()), keyed=st.booleans())
def test_ranking_equals_competition_ranks_with_and_without_keys(
        values: list[tuple[int, int | None, int | None]], descending: tuple[bool, bool],
        keyed: bool) -> None:
    # without keys (one event: standings rank it so) every row is one group
    rows = values if keyed else [(0, a, b) for _, a, b in values]
    frame = pl.DataFrame(rows, orient="row", schema=["_e", "a", "b"]).with_row_index(
        "player_id")
    keys = ["_e"] if keyed else []
    got = (rank_exact(frame.lazy(), keys, ["a", "b"], list(descending),
                      tiebreak=["player_id"], unique=True)
           .collect().sort("player_id")["rank"].to_list())
    assert got == _competition_ranks(rows, descending)
    if not keyed:  # one group ranked by run ids: the ranks and tie ids of a one-key group
        args = (["a", "b"], list(descending))
        alone = rank_exact(frame.lazy(), [], *args, tiebreak=["player_id"], tie_name="t",
                           unique=True).collect()
        keyed_alike = rank_exact(frame.lazy(), ["_e"], *args, tiebreak=["player_id"],
                                 tie_name="t", unique=True).collect()
        assert_frame_equal(alone, keyed_alike)


@PROPS
@given(scale=st.integers(1, 2**40), k_max=st.integers(1, 12),
       floor=st.sampled_from([Fraction(1, 3), Fraction(33, 100), Fraction(1, 4),
                              Fraction(1, 2**11)]),
       data=st.data())
def test_floored_means_as_quotients_equal_the_long_division(scale: int, k_max: int,
                                                            floor: Fraction,
                                                            data: st.DataObject) -> None:
    lo = math.ceil(floor * scale)
    sums, counts = [], []
    for _ in range(20):
        k = data.draw(st.integers(0, k_max))
        sums.append(sum(data.draw(st.integers(lo, scale)) for _ in range(k)))
        counts.append(k)
    frame = pl.DataFrame({"t": pl.Series(sums, dtype=pl.Int128), "k": counts})
    inner = ExactScale(scale)
    ref = mean_exact(pl.col("t"), pl.col("k"), inner, k_max)
    fast = mean_exact(pl.col("t"), pl.col("k"), inner, k_max, least=floor)
    assert ref[2] == fast[2]
    assert_frame_equal(frame.select(ref[0].alias("x"), ref[1].alias("f")),
                       frame.select(fast[0].alias("x"), fast[1].alias("f")), check_exact=True)


@PROPS
@given(k_max=st.integers(1, 12), data=st.data())
def test_unfloored_means_of_a_small_scale_as_quotients_equal_the_long_division(
        k_max: int, data: st.DataObject) -> None:
    """A rate with no floor (FIDE's) at a scale whose every mean above 0 is at least
    ``2**-11`` (``k_max · scale ≤ 2**11``): the float quotient, as for a floored rate."""
    scale = data.draw(st.integers(1, 2**11 // k_max))
    sums, counts = [], []
    for _ in range(20):
        k = data.draw(st.integers(0, k_max))
        sums.append(sum(data.draw(st.integers(0, scale)) for _ in range(k)))
        counts.append(k)
    frame = pl.DataFrame({"t": pl.Series(sums, dtype=pl.Int128), "k": counts})
    inner = ExactScale(scale)
    ref = mean_exact(pl.col("t"), pl.col("k"), inner, k_max)
    fast = mean_exact(pl.col("t"), pl.col("k"), inner, k_max, least=Fraction(0))
    assert ref[2] == fast[2]
    assert str(fast[1]) != str(ref[1])  # (the quotient, not the long division)
    assert_frame_equal(frame.select(ref[0].alias("x"), ref[1].alias("f")),
                       frame.select(fast[0].alias("x"), fast[1].alias("f")), check_exact=True)


@PROPS
@given(res=random_events(), rules=PRESETS)
def test_packed_sums_and_one_join_equal_one_column_and_one_join_each(res: pl.DataFrame,
                                                                     rules: str) -> None:
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):  # (small tables are not packed)
        fast = sf.standings(res, rules)
        slow = st_mod._compute(st_mod._validated_coded(res, ())[0].lazy(),
                               sf.rules.get(rules), ("event_id",), None)
    with (mock.patch.object(tb_mod, "_packed_width", return_value=None),
          mock.patch.object(tb_mod.Context, "projection", return_value=None)):
        plain = sf.standings(res, rules)
        plain_ref = st_mod._compute(st_mod._validated_coded(res, ())[0].lazy(),
                                    sf.rules.get(rules), ("event_id",), None)
    assert_frame_equal(fast, plain)
    assert_frame_equal(slow, plain_ref)


def test_sums_are_not_packed_when_the_two_values_are_null_apart() -> None:
    # D's only match is 0-0-0: no games (GW% null) but a round played (MW% not null)
    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
                      "player_b": ["B", "D", "C", None], "games_a": [2, 0, 2, 2],
                      "games_b": [0, 0, 1, 0], "games_drawn": [0, 0, 0, 0]})
    res = sf.from_matches(m)
    frame, _ = st_mod._validated_coded(res, ())
    rules = sf.rules.get("mtg")
    ctx = st_mod.context(frame.lazy(), rules, ("event_id",))
    fits = tb_mod._int64_sums(ctx, ["_x_mwp_opp", "_x_gwp_opp"])
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):  # (as on a table large enough)
        assert tb_mod._packed_width(ctx, fits) is None
        ctx.players = ctx.players.filter(pl.col("player_id") != "D")
        assert tb_mod._packed_width(ctx, fits) is not None  # D was what kept them apart
    assert tb_mod._packed_width(ctx, fits) is None  # small: never packed
    out = sf.standings(res, rules)
    # packed anyway, C's OMW% would lose D (a null packed value counts for neither sum)
    with mock.patch.object(tb_mod, "_packed_width", return_value=11):
        wrong = sf.standings(res, rules)
    assert out.filter(pl.col("player_id") == "C")["omwp"].item() == 2 / 3  # (A 1 + D 1/3) / 2
    assert wrong.filter(pl.col("player_id") == "C")["omwp"].item() != 2 / 3


@PROPS
@given(res=rich_events(), rules=PRESETS, how=st.sampled_from(["table", "within", "search"]),
       data=st.data())
def test_the_record_and_opponents_sums_from_sorted_seats_equal_the_group_by_and_join(
        res: pl.DataFrame, rules: str, how: str, data: st.DataObject) -> None:
    """The coded path's record read from validation's sorted seats
    (``_record.seat_record``) and the opponents' sums over each player's rows beside the
    players (``standings._seat_opponent_sums``; the opponents found by
    ``_cumulative.opponent_positions`` through the table of codes, of codes within an event where
    each id plays in one event, or by a search in the sorted codes) give the standings
    the group-by and the joins give, and the keyed reference: one event and several, Swiss
    rows only (else no seats are kept)."""
    if data.draw(st.booleans()):  # (rich_events' playoff rows keep the seats unsorted)
        res = res.filter(pl.col("phase") == "swiss")
    if data.draw(st.booleans()):
        first = res["event_id"].min()
        res = res.filter(pl.col("event_id") == first)
    slots = 2**23 if how == "table" else 0
    if how == "within":  # (each event's players named apart; the codes span more slots)
        res = res.with_columns(pl.col(c) + "@" + pl.col("event_id")
                               for c in ("player_id", "opponent_id"))
        slots = 2**code_bits(res["player_id"].n_unique())
    # (and the record's pieces and segment sums on two threads, as on a large table)
    threads = 0 if data.draw(st.booleans()) else _collect.PARALLEL_MIN_ROWS
    with (mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0),
          mock.patch.object(schema_mod, "_SEAT_ORDER_MIN_ROWS", 0)):
        with (mock.patch.object(cu_mod, "SLOT_TABLE_MAX", slots),
              mock.patch.object(_collect, "PARALLEL_MIN_ROWS", threads)):
            fast = sf.standings(res, rules)
        with mock.patch.object(st_mod, "seat_record", return_value=None):
            plain = sf.standings(res, rules)
    assert_frame_equal(fast, plain)
    # (and the keyed reference, which reads every row's own phase: where seats are kept
    # every row is Swiss, and the coded path compares no row's phase: IdCodes.swiss)
    frame, _ = st_mod._validated_coded(res, ())
    assert_frame_equal(fast, st_mod._compute(frame.lazy(), sf.rules.get(rules),
                                             ("event_id",), None))


@PROPS
@given(res=random_events(), one=st.booleans(), threaded=st.booleans())
def test_the_record_from_sorted_seats_is_the_packed_group_by_sorted_by_player(
        res: pl.DataFrame, one: bool, threaded: bool) -> None:
    """``_record.seat_record`` is ``aggregate_players``' packed record, sorted by player,
    and says where each player's rows and opponents are (``threaded``: its pieces two at
    once, as on a large table)."""
    if one:
        res = res.filter(pl.col("event_id") == res["event_id"].min())
    rules = sf.rules.get("mtg")
    with mock.patch.object(schema_mod, "_SEAT_ORDER_MIN_ROWS", 0):
        frame, codes = st_mod._validated_coded(res, ())
    assert codes is not None
    assert codes.seats is not None
    assert codes.rounds is not None
    unit = None if codes.events.len() == 1 else 2**codes.player_bits
    e = pl.col("_e") * (unit or 0)
    rows = pl.concat([frame.drop("player_id", "opponent_id"),
                      codes.codes.select(player_id=e + pl.col("_p"),
                                         opponent_id=e + pl.col("_o"))], how="horizontal")
    prepared = prepare_rows(rows.lazy(), rules)
    bounds = SumBounds(rounds=codes.rounds[1] - codes.rounds[0] + 1, games=(0, 2 ** 4))
    with mock.patch.object(_collect, "PARALLEL_MIN_ROWS",
                           0 if threaded else _collect.PARALLEL_MIN_ROWS):
        got = rec_mod.seat_record(prepared, codes.seats, bounds, event_unit=unit,
                                  points=points_of_counts(rules))
    assert got is not None
    record, where = got
    want = aggregate_players(prepared, (), event_unit=unit, packed=bounds,
                             points=points_of_counts(rules)).collect().sort("player_id")
    assert_frame_equal(record, want)
    starts = [0, *where.lengths.cum_sum().to_list()[:-1]]
    for i, (player, start, n) in enumerate(zip(record["player_id"], starts, where.lengths,
                                               strict=True)):
        at = where.index.slice(start, n)
        assert (rows["player_id"].gather(at) == player).all(), i
        assert rows["round"].gather(at).is_sorted()
        assert where.opponents.slice(start, n).equals(rows["opponent_id"].gather(at),
                                                     check_names=False)


@PROPS
@given(res=random_events(), rules=PRESETS)
def test_ranking_with_packed_payload_equals_the_columns_moved_apart(res: pl.DataFrame,
                                                                    rules: str) -> None:
    def apart(lf: pl.LazyFrame, *_: object) -> tuple[pl.LazyFrame, object]:
        return lf, lambda frame: frame

    # (small tables skip packing altogether: forced here, so the packed path is the one run)
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):
        fast = sf.standings(res, rules)
        with mock.patch.object(st_mod, "_pack_payload", side_effect=apart):
            plain = sf.standings(res, rules)
    assert_frame_equal(fast, plain)


@PROPS
@given(res=random_events(), rules=PRESETS)
def test_packed_ranking_equals_the_plain_sort_of_small_tables(res: pl.DataFrame,
                                                              rules: str) -> None:
    # below _exact.PACK_MIN_ROWS players ranking sorts the columns as they are (rank_exact's
    # reference); above, narrowed and packed keys: the same table either way
    plain = sf.standings(res, rules)
    plain_by_round = st_mod._by_round(res, rules, (), cumulative=True)
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):
        assert_frame_equal(sf.standings(res, rules), plain)
        assert_frame_equal(st_mod._by_round(res, rules, (), cumulative=True), plain_by_round)


@PROPS
@given(columns=st.lists(st.lists(st.integers(0, 2**20), min_size=6, max_size=6), min_size=1,
                        max_size=4),
       src=st.lists(st.integers(0, 5), max_size=30),
       cuts=st.lists(st.integers(0, 30), max_size=6),
       # wide values: fewer columns a packing (2**55: one each); negative: no packing
       wide=st.sampled_from([0, 2**40, 2**55]), negative=st.booleans())
def test_segment_sums_of_packed_gathers_equal_one_gather_per_column(
        columns: list[list[int]], src: list[int], cuts: list[int], wide: int,
        negative: bool) -> None:
    columns = [[v * (wide or 1) // 2**20 if wide else v for v in c] for c in columns]
    if negative:
        columns[0][0] = -1
    values = pl.DataFrame({f"c{i}": pl.Series(c, dtype=pl.Int64)
                           for i, c in enumerate(columns)})
    ends = sorted(min(c, len(src)) for c in cuts)
    lengths = pl.Series([b - a for a, b in zip([0, *ends], [*ends, len(src)], strict=True)],
                        dtype=pl.Int64)
    srcs = pl.Series(src, dtype=pl.Int64)
    fast = ex_mod.segment_sums(values, srcs, lengths)
    with mock.patch.object(ex_mod, "_sum_fields", return_value=None):
        plain = ex_mod.segment_sums(values, srcs, lengths)
    assert_frame_equal(fast, plain)
    with mock.patch.object(_collect, "PARALLEL_MIN_ROWS", 0):  # halves gathered at once
        assert_frame_equal(ex_mod.segment_sums(values, srcs, lengths), fast)
        with mock.patch.object(ex_mod, "_sum_fields", return_value=None):
            assert_frame_equal(ex_mod.segment_sums(values, srcs, lengths), plain)
    for i, column in enumerate(columns):
        expected = [sum(column[k] for k in src[a:a + n])
                    for a, n in zip([0, *ends], lengths.to_list(), strict=True)]
        assert fast[f"c{i}"].to_list() == expected


def test_sum_fields_leave_room_for_the_sums_of_the_longest_segment() -> None:
    # 3 values of up to 5 sum to at most 15 (4 bits, not 3), so two such columns take 8
    values = pl.DataFrame({"a": [5, 0], "b": [1, 5]})
    (layout,) = ex_mod._sum_fields(values, pl.Series([3, 0])) or []
    assert layout.fields == (("a", 0, 0, 4), ("b", 0, 4, 4))
    # a column too wide for one Int64 of sums, or with a negative value: no packing
    assert ex_mod._sum_fields(pl.DataFrame({"a": [2**62]}), pl.Series([2])) is None
    assert ex_mod._sum_fields(pl.DataFrame({"a": [-1, 3]}), pl.Series([2])) is None


#: The running-sums grid's pieces, each put on its plain path by a patch.
_BY_ROUND_PLAIN: Final = {
    # the opponents' values gathered packed in few lanes, or one gather per column
    "one_gather_per_column": lambda: mock.patch.object(ex_mod, "_sum_fields",
                                                       return_value=None),
    # the grid's pairs find their opponent's block through _cumulative.opponent_positions:
    # a table of the players' keys, or (past SLOT_TABLE_MAX slots) a search in them
    "opponents_searched_for": lambda: mock.patch.object(cu_mod, "SLOT_TABLE_MAX", 0),
    # as on a large grid: the opponents' positions found in two halves at once (and the
    # segment sums' gathers), stacked in the order one pass gives
    "pieces_on_two_threads": lambda: mock.patch.object(_collect, "PARALLEL_MIN_ROWS", 0),
    # each (event, time) looked up in dense tables where they are small (_time_lookup),
    # else joined on the two columns
    "time_axis_joined": lambda: mock.patch.object(cu_mod, "_time_lookup", return_value=None),
}


@pytest.mark.parametrize("piece", list(_BY_ROUND_PLAIN))
@PROPS
@given(res=random_events(), rules=PRESETS)
def test_by_round_with_a_piece_on_its_plain_path_equals_the_fast_path(
        piece: str, res: pl.DataFrame, rules: str) -> None:
    fast = st_mod._by_round(res, rules, (), cumulative=True)
    with _BY_ROUND_PLAIN[piece]():
        plain = st_mod._by_round(res, rules, (), cumulative=True)
    assert_frame_equal(fast, plain)


@PROPS
@given(res=rich_events(), rules=PRESETS)
def test_by_round_rows_in_validation_s_seat_order_equal_the_rows_sorted(
        res: pl.DataFrame, rules: str) -> None:
    # the grid's rows put in (player, round) order by validation's sorted seats (kept for
    # a large table of Swiss rows) instead of a sort of their own
    res = res.filter(pl.col("phase") == "swiss")
    with mock.patch.object(schema_mod, "_SEAT_ORDER_MIN_ROWS", 0):
        assert res.height == 0 or st_mod._validated_coded(res, ())[1].seats is not None  # type: ignore[union-attr]
        seated = st_mod._by_round(res, rules, (), cumulative=True)
    with mock.patch.object(schema_mod, "_SEAT_ORDER_MIN_ROWS", 2**62):
        plain = st_mod._by_round(res, rules, (), cumulative=True)
    assert_frame_equal(seated, plain)


@given(codes=st.lists(st.integers(0, 300), unique=True),
       faced=st.lists(st.one_of(st.none(), st.integers(0, 400))), search=st.booleans())
def test_opponent_positions_are_each_code_s_place_among_the_players_or_null(
        codes: list[int], faced: list[int | None], search: bool) -> None:
    players = sorted(codes)
    with mock.patch.object(cu_mod, "SLOT_TABLE_MAX", 0 if search else 2**23):
        got = cu_mod.opponent_positions(pl.Series(players, dtype=pl.Int64),
                                        pl.Series(faced, dtype=pl.Int64))
    place = {c: i for i, c in enumerate(players)}
    assert got.dtype == pl.UInt32
    assert got.to_list() == [place.get(f) for f in faced if f is not None]


_KEY_VALUES = [
    (pl.String, ["b", "a"]), (pl.Categorical, ["b", "a"]), (pl.Int32, [7, -3]),
    (pl.UInt64, [2**64 - 1, 0]), (pl.Int128, [2**100, -(2**100)]),
    (pl.Enum(["z", "a"]), ["a", "z"]), (pl.Float64, [10.0, 9.0]),
    (pl.Date, [date(2024, 1, 10), date(2023, 5, 1)]),
]


@pytest.mark.parametrize(("dtype", "values"), _KEY_VALUES, ids=str)
def test_by_round_running_sums_equal_repeated_rows_for_keys_of_every_dtype(
        dtype: pl.DataType, values: list[object]) -> None:
    """The running sums code the keys (``_cumulative._codable``); a key whose codes would
    not order as its values (an Enum, floats, dates) or not fit Int64 takes the reference
    path, so both give one table: no cast error, no other order."""
    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
                      "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
                      "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    one = sf.from_matches(m)
    res = pl.concat([one.with_columns(scenario=pl.lit(v).cast(dtype)) for v in values])
    fast = st_mod._by_round(res, "mtg", ["scenario"], cumulative=True)
    assert_frame_equal(fast, st_mod._by_round(res, "mtg", ["scenario"], cumulative=False))
    assert fast.height == 2 * 8


def test_a_criterion_named_twice_is_sorted_on_once_by_every_path() -> None:
    """``Criterion("match_points")`` after others, with ``points_first``, names points twice
    (criteria themselves are distinct): the packed ranking narrowed the column twice (a
    duplicate-name error from 20,000 players on). Sorting on a column again orders
    nothing, so ``ranking_keys`` keeps the first."""
    from swissframe.engine._record import ranking_keys
    from swissframe.rules import Criterion, Ruleset
    rules = Ruleset(name="omw-then-points", criteria=(Criterion("omwp"),
                                                      Criterion("match_points")))
    assert [n for n, _, _ in ranking_keys(rules)] == ["match_points", "omwp"]
    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
                      "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
                      "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    res = sf.from_matches(m)
    plain = sf.standings(res, rules)
    assert plain.select("player_id", "rank").rows() == [("A", 1), ("C", 2), ("D", 3), ("B", 4)]
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):
        assert_frame_equal(sf.standings(res, rules), plain)
        assert_frame_equal(st_mod._by_round(res, rules, (), cumulative=True),
                           st_mod._by_round(res, rules, (), cumulative=False))


@PROPS
@given(columns=st.lists(st.tuples(st.integers(-(2**20), 2**20), st.integers(0, 2**20)),
                        min_size=1, max_size=5),
       rows=st.integers(1, 6), seed=st.integers(0, 99))
def test_bit_fields_unpack_what_they_pack(columns: list[tuple[int, int]], rows: int,
                                          seed: int) -> None:
    """Every layout reads back its columns (minimums zero or not, one field or several,
    the top field unmasked), up to the columns it leaves out past 62 bits."""
    import random
    rng = random.Random(seed)
    frame = pl.DataFrame({f"c{i}": pl.Series([rng.randint(lo, lo + span) for _ in range(rows)],
                                             dtype=pl.Int64)
                          for i, (lo, span) in enumerate(columns)})
    stats = {c: (frame[c].min(), frame[c].max(), 0) for c in frame.columns}
    layout = ex_mod.bit_fields(frame.columns, stats, limit=62)
    assert layout.fields
    back = frame.select(layout.pack().alias("_p")).select(**layout.unpack(pl.col("_p")))
    kept = [c for c, *_ in layout.fields]
    assert_frame_equal(back, frame.select(kept))


@settings(max_examples=300, deadline=None)  # (cheap: small frames, no engine call)
@given(values=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 8), st.booleans()),
                       min_size=1, max_size=40),
       vur_first=st.booleans(), median=st.sampled_from([0, 1]), seed=st.integers(0, 1000))
# the cut value is the unique highest (a VUR above every played value): the highest of the
# rest is then the second; and the highest twice
@example(values=[(0, 5, True), (0, 3, False), (0, 4, False)], vur_first=True, median=1,
         seed=0)
@example(values=[(0, 5, True), (0, 5, False), (0, 4, False)], vur_first=True, median=1,
         seed=0)
def test_buchholz_cut_one_in_one_group_by_equals_the_sorted_cut(
        values: list[tuple[int, int, bool]], vur_first: bool, median: int, seed: int) -> None:
    """Buchholz Cut-1 and Median-1 (FIDE's) sum without sorting every row: the same
    per-player sums as cutting the sorted rows (VURs first, ties of equal values included;
    a player with nothing left has no row)."""
    from swissframe.engine import _chess

    terms = (pl.DataFrame(values, orient="row", schema=["player_id", "_val", "_vur"])
             .sample(fraction=1.0, shuffle=True, seed=seed).lazy())
    pk = ["player_id"]
    ref = (_chess._cut_sorted(terms, pk, 1 - median, median, vur_first=vur_first)
           .group_by(pk).agg(pl.col("_val").sum().alias("_s")))
    fast = _chess._cut_one_sum(terms, pk, vur_first=vur_first, median=median)
    assert_frame_equal(fast.collect(), ref.collect(), check_row_order=False)


@PROPS
@given(rows=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 12)), min_size=1,
                     max_size=60),
       dtype=st.sampled_from([pl.Int64, pl.Int32, pl.Int16]))
def test_event_rounds_packed_equal_the_unique_pairs(rows: list[tuple[int, int]],
                                                    dtype: pl.DataType) -> None:
    narrow = pl.DataFrame(rows, schema={"_e": pl.Int64, "round": dtype}, orient="row")
    want = narrow.select("_e", pl.col("round").alias("_t")).unique().sort("_e", "_t")
    assert_frame_equal(cu_mod._event_rounds(narrow).sort("_e", "_t"), want)


def _bounds_of(codes: object) -> SumBounds:
    assert isinstance(codes, sf.schema.IdCodes)
    assert codes.rounds is not None
    assert codes.games is not None
    return SumBounds(rounds=codes.rounds[1] - codes.rounds[0] + 1, games=codes.games)


@PROPS
@given(res=rich_events(), rules=PRESETS)
def test_packed_record_equals_one_sum_per_count(res: pl.DataFrame, rules: str) -> None:
    frame, codes = st_mod._validated_coded(res, ())
    assume(codes is not None)  # (an empty table)
    bounds = _bounds_of(codes)
    rows = prepare_rows(frame.lazy(), sf.rules.get(rules))
    plain = aggregate_players(rows, ("event_id",)).collect()
    packed = aggregate_players(rows, ("event_id",), packed=bounds).collect()
    assert bounds.held(packed)
    assert_frame_equal(packed, plain, check_row_order=False)
    points = points_of_counts(sf.rules.get(rules))
    if points is not None:  # the points from the counts: the sum of the rows' points
        counted = aggregate_players(rows, ("event_id",), packed=bounds, points=points)
        assert_frame_equal(counted.collect(), plain, check_row_order=False)


@PROPS
@given(res=rich_events(), rules=PRESETS)
def test_standings_with_packed_record_equal_one_sum_per_count(res: pl.DataFrame,
                                                              rules: str) -> None:
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):  # (as on a table large enough)
        fast = sf.standings(res, rules)
        with mock.patch("swissframe.engine._record._packed_counts", return_value=[]):
            plain = sf.standings(res, rules)
    assert_frame_equal(fast, plain)


def test_record_bounds_that_do_not_hold_send_back_to_one_sum_per_count() -> None:
    # A plays three rounds; bounds of one round a player give each count one bit, so A's
    # three wins would carry into the losses: held() says so and _record_of sums apart
    res = sf.from_matches(pl.DataFrame({
        "round": [1, 2, 3], "player_a": ["A", "A", "A"], "player_b": ["B", "C", "D"],
        "games_a": [2, 2, 2], "games_b": [0, 1, 0], "games_drawn": [0, 0, 0]}))
    with mock.patch.object(schema_mod, "_SEAT_ORDER_MIN_ROWS", 0):  # (and sorted seats)
        frame, codes = st_mod._validated_coded(res, ())
    assert codes is not None
    assert codes.seats is not None
    rows = prepare_rows(frame.lazy(), sf.rules.get("mtg"))
    plain = aggregate_players(rows, ("event_id",)).collect()
    short = SumBounds(rounds=1, games=(0, 2))
    wrong = aggregate_players(rows, ("event_id",), packed=short).collect()
    assert not short.held(wrong)
    a_wins = pl.col("player_id") == "A"
    assert wrong.filter(a_wins)["wins"].item() != 3  # what the guard is for
    lying = dataclasses.replace(codes, rounds=(1, 1))
    coded = st_mod._validated_coded(res, ())[0]
    unit = 2**lying.player_bits
    e = pl.col("_e")
    keyed = pl.concat([coded.drop("event_id", "player_id", "opponent_id"),
                       lying.codes.select(player_id=e * unit + pl.col("_p"),
                                          opponent_id=e * unit + pl.col("_o"))],
                      how="horizontal")
    for seats in (False, True):  # (the group-by, or the sums over the sorted seats)
        with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):
            got, where = st_mod._record_of(prepare_rows(keyed.lazy(), sf.rules.get("mtg")),
                                           lying, sf.rules.get("mtg"), unit, seats=seats)
        assert where is None
        assert got.sort("player_id")["wins"].to_list() == \
            plain.sort("player_id")["wins"].to_list()
        assert got.filter(pl.col("player_id") == 0)["wins"].item() == 3  # A, code 0


_WIDE = st.one_of(st.none(), st.integers(-(2**70), 2**70), st.integers(-5, 5),
                  st.integers(2**63 - 3, 2**63 + 3))


@PROPS
@given(rows=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 9), _WIDE, _WIDE, _WIDE),
                     min_size=1, max_size=40, unique_by=lambda r: (r[0], r[1])),
       fits=st.booleans())
def test_ranking_on_int128_columns_fitting_int64_or_not_equals_the_plain_sort(
        rows: list[tuple[int, int, int | None, int | None, int | None]], fits: bool) -> None:
    # _rank_table takes an Int128 sort column whose values all fit Int64 as Int64, and
    # narrows or keeps the others: the ranks are those of the plain sort either way
    def clip(v: int | None) -> int | None:
        return None if v is None else max(min(v, 2**62), -(2**62)) if fits else v

    table = pl.DataFrame(
        {"_e": [r[0] for r in rows], "player_id": [r[1] for r in rows],
         "_x_match_points": [r[0] * 3 + r[1] % 4 for r in rows],
         "_x_omwp": [clip(r[2]) for r in rows], "_x_gwp": [clip(r[3]) for r in rows],
         "_x_ogwp": [clip(r[4]) for r in rows], "wins": [r[1] % 3 for r in rows]},
        schema={"_e": pl.Int64, "player_id": pl.Int64, "_x_match_points": pl.Int128,
                "_x_omwp": pl.Int128, "_x_gwp": pl.Int128, "_x_ogwp": pl.Int128,
                "wins": pl.Int64})
    rules = sf.rules.get("mtg")
    plain = st_mod._rank(table.lazy(), rules, ("_e",)).collect()
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):
        fast = st_mod._rank_table(table, rules, ("_e",), ["wins"]).collect()
    key = ["_e", "player_id"]
    assert_frame_equal(fast.select(*key, "rank", "wins").sort(key),
                       plain.select(*key, "rank", "wins").sort(key))


#: Values of one sort column: a few, spread over 61 bits, so that four such columns fit one
#: order key only by their dense codes (``standings._order_key``); or a null.
_FEW_WIDE = st.one_of(st.none(), st.sampled_from([0, 1, 2**40 + 7, 2**60, 2**61 - 1]))


@PROPS
@given(rows=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 9), _FEW_WIDE, _FEW_WIDE,
                               _FEW_WIDE, st.integers(0, 3)),
                     min_size=1, max_size=40, unique_by=lambda r: (r[0], r[1])),
       wide=st.booleans(), keyed=st.booleans())
def test_ranking_on_one_order_key_equals_the_plain_sort(
        rows: list[tuple[int, int, int | None, int | None, int | None, int]],
        wide: bool, keyed: bool) -> None:
    # _rank_table sorts on one Int64 or Int128 key when the keys, the sort columns and the
    # tiebreak fit 126 bits, narrowing a column of few values to its dense codes where
    # they would not fit otherwise (nulls last, descending columns): the ranks and the
    # order are those of the plain sort
    table = pl.DataFrame(
        {"_e": [r[0] for r in rows], "player_id": [r[1] for r in rows],
         "_x_match_points": [r[5] for r in rows], "_x_omwp": [r[2] for r in rows],
         "_x_gwp": [r[3] for r in rows], "_x_ogwp": [r[4] for r in rows],
         "wins": [r[1] % 3 for r in rows]},
        schema={"_e": pl.Int64, "player_id": pl.Int64, "_x_match_points": pl.Int64,
                "_x_omwp": pl.Int128 if wide else pl.Int64,
                "_x_gwp": pl.Int128 if wide else pl.Int64,
                "_x_ogwp": pl.Int128 if wide else pl.Int64, "wins": pl.Int64})
    rules = sf.rules.get("mtg")
    # (one event, no key: the group is the whole table, told by no bit of the key)
    keys: tuple[str, ...] = ("_e",) if keyed else ()
    if not keyed:
        table = table.with_columns(_e=0, player_id=pl.int_range(pl.len()))
    plain = st_mod._rank(table.lazy(), rules, keys).collect()
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):
        fast = st_mod._rank_table(table, rules, keys, ["wins"]).collect()
    cols = ["_e", "player_id", "rank", "wins"] if keyed else ["player_id", "rank", "wins"]
    assert_frame_equal(fast.select(cols), plain.select(cols))


#: One field of a packed key: an Int128 column or not, descending or not, a scale and
#: four values of -8..8 times it, or null — mostly the ends, so that the widths reach 62
#: bits (2**57, both ends: 62) and pass them (2**58, 2**59: 63 and 64 bits).
_FIELD = st.tuples(st.booleans(), st.booleans(),
                   st.sampled_from([1, 2**20, 2**40, 2**55, 2**57, 2**58, 2**59]),
                   st.lists(st.one_of(st.none(), st.sampled_from([-8, -7, -1, 0, 1, 7, 8])),
                            min_size=4, max_size=4))


@settings(max_examples=300, deadline=None)  # (a few ms each)
@given(fields=st.lists(_FIELD, min_size=1, max_size=5),
       big=st.lists(st.integers(-(2**70), 2**70), min_size=4, max_size=4))
# (an Int64 column of 64 bits: its offsets in Int128; 62 + 4 bits: the key in Int128)
@example(fields=[(False, False, 2**59, [8, -8, 5, 0]), (False, True, 1, [0, 8, 3, 7])],
         big=[0] * 4)
@example(fields=[(False, False, 2**57, [8, -8, 7, None]), (False, True, 1, [0, 8, 3, 7])],
         big=[0] * 4)
def test_packed_key_is_each_field_s_offset_in_its_bits(
        fields: list[tuple[bool, bool, int, list[int | None]]], big: list[int]) -> None:
    # _packed_expr packs the leading fields in Int64 while they fit 62 bits and the rest
    # in Int128: the key is, exactly, the fields' offsets (from the minimum, or from the
    # maximum when descending; a null one past every value) side by side in their bits
    columns, packed, wide = {}, [], []
    for i, (in128, desc, scale, steps) in enumerate(fields):
        name = f"c{i}"
        values = [None if k is None else k * scale for k in steps]
        if in128:  # (an Int128 column the ranking keeps as it is: values past Int64)
            values = [None if v is None else v * 2**8 + b
                      for v, b in zip(values, big, strict=True)]
            wide.append(name)
        columns[name] = pl.Series(values, dtype=pl.Int128 if in128 else pl.Int64)
        set_ = [v for v in values if v is not None]
        lo, hi = (min(set_), max(set_)) if set_ else (0, 0)
        nulls = len(values) - len(set_)
        packed.append((name, desc, st_mod._field_width(lo, hi, nulls), (lo, hi, nulls)))
    bits = sum(p[2] for p in packed)
    assume(bits <= st_mod.ORDER_BITS)
    dtype = pl.Int64 if bits <= 62 else pl.Int128
    got = pl.DataFrame(columns).select(st_mod._packed_expr(packed, wide, dtype).alias("k"))
    assert got["k"].dtype == dtype
    want = []
    for row in range(4):
        key = 0
        for name, desc, width, (lo, hi, _) in packed:
            v = columns[name][row]
            key = key * 2**width + (hi - lo + 1 if v is None else hi - v if desc else v - lo)
        want.append(key)
    assert got["k"].to_list() == want


def test_order_key_takes_dense_codes_only_where_the_columns_would_not_fit() -> None:
    # three sort columns of two values each, 2**61 apart: 1 + 3 · 62 bits (with the
    # player's) do not fit 126; one column's dense codes (1 bit) make them fit, and no
    # other column is coded
    far = [0, 2**61]
    table = pl.DataFrame({"_e": [0, 0], "player_id": [0, 1], "a": far, "b": far, "c": far})
    stats = st_mod._int_stats(table, table.columns)
    lead = ["_e", "a", "b", "c", "player_id"]
    coded, got = st_mod._order_key(table, lead, [False, True, False, True, False],
                                   dict(stats), [], narrowable=["a", "b", "c"], keys=1)
    assert got is not None
    key, split = got
    assert [c for c in coded.columns if c.startswith("__dense_")] == ["__dense_a"]
    k = coded.select(key.alias("k"))["k"]
    assert k.dtype == pl.Int128  # (1 + 62 + 62 + 1 bits)
    # below the event's bit: a's code (1), b and c (62 each), the player's (1)
    assert split == (1 + 62 + 62 + 1, 1)
    assert k.arg_sort().to_list() == [1, 0]  # a descending: the larger value first
    # without the room: no key, the table as it was (no codes to move through the sort),
    # and the caller sorts on the columns
    wider = table.with_columns(d=pl.Series(far), e=pl.Series(far))
    back, none = st_mod._order_key(wider, [*lead, "d", "e"], [False] * 7,
                                   st_mod._int_stats(wider, wider.columns), [],
                                   narrowable=["a"])
    assert none is None
    assert back.columns == wider.columns
    # columns that fit 62 bits as they are: no codes, and an Int64 key
    one = table.select("_e", "player_id", a=pl.Series([0, 2**40]))
    kept, got = st_mod._order_key(one, ["_e", "a", "player_id"], [False, True, False],
                                  st_mod._int_stats(one, one.columns), [], narrowable=["a"])
    assert got is not None
    assert kept.columns == one.columns
    assert kept.select(got[0].alias("k"))["k"].dtype == pl.Int64


@pytest.mark.parametrize("drop", ["all_of_d", "d_round_1"])
def test_grid_declines_a_pairing_whose_opponent_has_no_block_by_then(drop: str) -> None:
    # rows validation would refuse (a mirror missing): an opponent with no rows at all, or
    # none until after the round it was met, gives no grid (None), so that the caller
    # takes the repeated rows; a whole table gives one
    from swissframe.engine._record import aggregate_players, cutoff_rows, prepare_rows

    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
                      "player_b": ["B", "D", "D", "C"], "games_a": [2, 2, 2, 1],
                      "games_b": [0, 1, 1, 2], "games_drawn": [0] * 4})
    frame, _ = st_mod._validated_coded(sf.from_matches(m), ())
    rules, keys, through = sf.rules.MTG, ("event_id",), st_mod.THROUGH
    cutoffs = pl.DataFrame({"event_id": ["event"] * 2, through: [1, 2]})
    schema = aggregate_players(prepare_rows(cutoff_rows(frame.lazy(), keys, cutoffs.lazy()),
                                            rules), (*keys, through)).collect_schema()

    def grid(rows: pl.DataFrame) -> object:
        return cu_mod.build(prepare_rows(rows.lazy(), rules).collect(), keys, cutoffs,
                            through, schema)

    assert grid(frame) is not None
    d = pl.col("player_id") == "D"
    broken = frame.filter(~d if drop == "all_of_d" else ~(d & (pl.col("round") == 1)))
    assert grid(broken) is None


@PROPS
@given(res=rich_events(), through=st.sampled_from([None, 1, 2, 3]))
def test_no_missed_round_by_the_codes_equals_the_group_by(res: pl.DataFrame,
                                                          through: int | None) -> None:
    """``late_rounds_needed`` told by validation's codes (``_none_missed``: a row in the
    round before each row's) decides as the group-by does; where the codes say no one
    missed a round, the group-by finds no one (late entrants, a skipped round number,
    several events, a cutoff)."""
    from swissframe.engine import _record as rec_mod
    from swissframe.schema import codes_of_rows

    frame, codes = st_mod._validated_coded(res, ())
    assume(codes is not None)  # (no row: nothing to tell)
    assert codes is not None
    if through is not None:
        mask = frame.get_column("round") <= through
        frame, kept = frame.filter(mask), codes_of_rows(codes, mask)
        assume(kept is not None)
        assert kept is not None
        codes = kept
    keys = ("event_id",)
    pokemon = sf.rules.get("pokemon")
    if rec_mod._none_missed(frame, codes):
        assert rec_mod._with_missed_rounds(frame.lazy(), keys).collect().height == 0
    assert (rec_mod.late_rounds_needed(frame, pokemon, keys, codes)
            == rec_mod.late_rounds_needed(frame, pokemon, keys))


def test_no_missed_round_by_the_codes_on_one_whole_event() -> None:
    from swissframe.engine import _record as rec_mod

    m = pl.DataFrame({"round": [1, 1, 2, 2, 3], "player_a": ["A", "C", "A", "B", "A"],
                      "player_b": ["B", "D", "C", "D", None], "games_a": [2, 2, 2, 1, 2],
                      "games_b": [0, 1, 1, 2, 0], "games_drawn": [0] * 5})
    frame, codes = st_mod._validated_coded(sf.from_matches(m), ())
    assert codes is not None
    assert rec_mod._none_missed(frame, codes)  # C, B, D dropped: no round missed
    late = frame.filter(~((pl.col("player_id") == "D") & (pl.col("round") == 1))
                        & ~((pl.col("opponent_id") == "D") & (pl.col("round") == 1)))
    frame2, codes2 = st_mod._validated_coded(late, ())
    assert codes2 is not None
    assert not rec_mod._none_missed(frame2, codes2)  # D entered in round 2


_FIDE_DE_FIRST = dataclasses.replace(
    sf.rules.FIDE, name="fide-de-first",
    criteria=(sf.rules.FIDE.criteria[0], sf.rules.Criterion("direct_encounter"),
              sf.rules.Criterion("win")))


@PROPS
@given(res=random_events(), rules=st.sampled_from([sf.rules.FIDE, _FIDE_DE_FIRST]))
def test_direct_encounter_without_encounters_equals_its_passes(res: pl.DataFrame,
                                                               rules: sf.Ruleset) -> None:
    """Direct encounter where no two players are tied (``GroupContext.largest_tie``) or
    no two tied players met (``tiebreakers._no_encounters``) skips its passes, and gives
    what the passes give."""
    got = sf.standings(res, rules)
    with (mock.patch.object(tb_mod, "_no_encounters", return_value=False),
          mock.patch.object(tb_mod.GroupContext, "largest_tie", return_value=None)):
        ref = sf.standings(res, rules)
    assert_frame_equal(got, ref, check_exact=True)


_FIDE_DE_POINTS = dataclasses.replace(
    sf.rules.FIDE, name="fide-de-points",
    criteria=(*sf.rules.FIDE.criteria[:4],
              sf.rules.Criterion("direct_encounter", params=(("method", "points"),)),
              sf.rules.Criterion("win")))


@PROPS
@given(res=random_events(max_events=1),
       rules=st.sampled_from([sf.rules.FIDE, sf.rules.FIDE_2009, _FIDE_DE_FIRST,
                              _FIDE_DE_POINTS]))
def test_untied_ranking_equals_the_ranking_query(res: pl.DataFrame, rules: sf.Ruleset) -> None:
    """One event's final standings where no two players tie before direct encounter,
    ranked by one sort of the criteria's table (``standings._untied_ranking``), equal
    them ranked in ``_finish``'s query (``UNTIED_RANKING=False``)."""
    got = sf.standings(res, rules)
    with mock.patch.object(st_mod, "UNTIED_RANKING", False):
        ref = sf.standings(res, rules)
    assert_frame_equal(got, ref, check_exact=True)


def test_untied_ranking_ranks_an_event_of_no_ties_by_one_sort() -> None:
    """The untied ranking is taken where no two players tie on points, BH-C1, BH and
    SB (and not for direct encounter by points, whose columns it does not declare), and
    gives the ranking query's table."""
    m = pl.DataFrame({"round": [1, 1, 2, 2, 3, 3], "player_a": ["A", "C", "A", "B", "A", "B"],
                      "player_b": ["B", "D", "C", "D", "D", "C"],
                      "games_a": [1, 1, 1, 0, 1, 1], "games_b": [0, 0, 0, 0, 0, 0],
                      "games_drawn": [0, 0, 0, 1, 0, 0]})  # A 3, B 1½, C 1, D ½
    res = sf.from_matches(m)
    for rules, taken in ((sf.rules.FIDE, 1), (_FIDE_DE_POINTS, 0)):
        with mock.patch.object(st_mod, "_untied_ranking",
                               wraps=st_mod._untied_ranking) as spy:
            got = sf.standings(res, rules)
        assert spy.call_count == taken, rules.name
        with mock.patch.object(st_mod, "UNTIED_RANKING", False):
            ref = sf.standings(res, rules)
        assert_frame_equal(got, ref, check_exact=True)
    assert got["rank"].to_list() == [1, 2, 3, 4]


def test_criterion_columns_known_without_the_schema_equal_the_schema() -> None:
    """A criterion frame registered with its columns (``Context.with_columns_known``,
    which ``_attach_fused`` reads instead of resolving the plan) has those columns."""
    m = pl.DataFrame({"round": [1, 1, 2, 2, 3], "player_a": ["A", "C", "A", "B", "A"],
                      "player_b": ["B", "D", "C", "D", "D"], "games_a": [1, 0, 1, 0, 0],
                      "games_b": [0, 0, 0, 1, 0], "games_drawn": [0, 1, 0, 0, 1]})
    frame, _ = st_mod._validated_coded(sf.from_matches(m), ())
    ctx = st_mod.context(frame.lazy(), sf.rules.FIDE, ("event_id",))
    seen = 0
    for name, fn in tb_mod.TIEBREAKERS.items():
        try:
            got = fn(ctx, name=name)
        except Exception:  # (a criterion needing a column this table lacks)
            continue
        if any(f is got for f, _ in ctx.known_columns):
            seen += 1
            schema = [c for c in got.collect_schema().names() if c not in ctx.pkeys]
            assert ctx.columns_of(got) == schema, name
    assert seen >= 8


_CHESS_COLUMNS = (
    sf.rules.buchholz(), sf.rules.buchholz(cut=1), sf.rules.buchholz(median=1),
    sf.rules.buchholz(cut=2), sf.rules.Criterion("sb"),
    sf.rules.Criterion("sb_c1", function="sb", params=(("cut", 1),)),
    sf.rules.Criterion("ps"), sf.rules.Criterion("ps_c1", function="ps", params=(("cut", 1),)),
    sf.rules.Criterion("fb", function="fore_buchholz"),
    sf.rules.Criterion("fb_c1", function="fore_buchholz", params=(("cut", 1),)),
    sf.rules.Criterion("win"), sf.rules.Criterion("won"), sf.rules.Criterion("vur"),
    sf.rules.Criterion("ge"), sf.rules.Criterion("num"), sf.rules.Criterion("bpg"))


@PROPS
@given(res=random_events(),
       rule=st.sampled_from(["fide-2023", "fide-2026", "fide-2009", "as_played"]),
       through=st.sampled_from([None, 2]))
def test_chess_sums_of_one_group_by_equal_each_criterion_s_own(
        res: pl.DataFrame, rule: str, through: int | None) -> None:
    """Buchholz (plain, Cut-1, Median-1; Fore Buchholz too), SB, PS and the counts as
    projections of one group-by of the chess terms and one of the rows, joined once
    (``_chess.SHARED_SUMS``): the same standings as a group-by and a join each."""
    from swissframe.engine import _chess

    rules = dataclasses.replace(sf.rules.FIDE, name=f"sums-{rule}", unplayed_rounds=rule,
                                columns=_CHESS_COLUMNS)
    shared = sf.standings(res, rules, through_round=reachable(res, through))
    with mock.patch.object(_chess, "SHARED_SUMS", False):
        own = sf.standings(res, rules, through_round=reachable(res, through))
    assert_frame_equal(shared, own)


@PROPS
@given(res=random_events(),
       rule=st.sampled_from(["fide-2023", "fide-2026", "fide-2009", "as_played"]),
       through=st.sampled_from([None, 2]), one=st.booleans())
def test_chess_scores_from_the_record_equal_the_terms_own_group_by(
        res: pl.DataFrame, rule: str, through: int | None, one: bool) -> None:
    """The players' scores of the chess terms (the score, the adjusted score) summed
    with the record (``_chess.SCORES_IN_RECORD``): the same standings as the terms' own
    group-by, for every criterion reading the terms (Fore Buchholz keeps its own: its
    last round is scored as a draw), each unplayed-round rule, a cutoff, and one event
    (without its key) or several."""
    from swissframe.engine import _chess

    if one:
        res = res.filter(pl.col("event_id") == res["event_id"].min())
    rules = dataclasses.replace(
        sf.rules.FIDE, name=f"scores-{rule}", unplayed_rounds=rule,
        columns=(*_CHESS_COLUMNS, sf.rules.Criterion("abh"),
                 sf.rules.Criterion("ks", function="koya"), sf.rules.Criterion("aob")))
    record = sf.standings(res, rules, through_round=reachable(res, through))
    with mock.patch.object(_chess, "SCORES_IN_RECORD", False):
        own = sf.standings(res, rules, through_round=reachable(res, through))
    assert_frame_equal(record, own)


@PROPS
@given(res=rich_events(), rule=st.sampled_from(["fide-2023", "fide-2009", "as_played"]),
       through=st.sampled_from([None, 2]), one=st.booleans(),
       columns=st.lists(st.sampled_from(_CHESS_COLUMNS), unique=True, max_size=6))
def test_chess_counts_from_the_record_equal_the_rows_own_group_by(
        res: pl.DataFrame, rule: str, through: int | None, one: bool,
        columns: list[sf.rules.Criterion]) -> None:
    """The counts and the progressive score the ruleset's criteria read summed with the
    record (``_chess.COUNTS_IN_RECORD``): the same standings as the rows' own group-by,
    whichever of them the ruleset names (the record sums those only), with PS cut or
    not, each unplayed-round rule, a cutoff, and one event or several."""
    from swissframe.engine import _chess

    if one:
        res = res.filter(pl.col("event_id") == res["event_id"].min())
    rules = dataclasses.replace(sf.rules.FIDE, name=f"counts-{rule}", unplayed_rounds=rule,
                                columns=tuple(columns))
    record = sf.standings(res, rules, through_round=reachable(res, through))
    with mock.patch.object(_chess, "COUNTS_IN_RECORD", False):
        own = sf.standings(res, rules, through_round=reachable(res, through))
    assert_frame_equal(record, own)


@PROPS
@given(res=rich_events(), rule=st.sampled_from(["fide-2023", "fide-2026", "fide-2009",
                                                "as_played"]),
       through=st.sampled_from([None, 2]), one=st.booleans(),
       first=st.lists(st.sampled_from(_CHESS_COLUMNS), unique=True, max_size=3),
       variant=st.sampled_from(["plain", "distinct", "earned", "packed"]))
def test_opponent_sums_from_the_chess_terms_equal_their_own_join(
        res: pl.DataFrame, rule: str, through: int | None, one: bool,
        first: list[sf.rules.Criterion], variant: str) -> None:
    """The opponents' base sums (OMW%, OGW%) summed in the chess terms' group-by, each
    row's opponent's values taken in the terms' join of the opponents
    (``tiebreakers.SUMS_FROM_TERMS``): the same standings as their own join and
    group-by — whichever chess criteria come first (a Buchholz cutting two values
    materialises the terms, Fore Buchholz has terms of its own: the sums then take their
    own join), each unplayed-round rule, a cutoff, one event or several, each opponent
    once (``distinct_opponents``: their own join), an earned bye counted as an opponent,
    and the two sums packed in one Int64 (a table as large as the bulk's)."""
    if one:
        res = res.filter(pl.col("event_id") == res["event_id"].min())
    fide = sf.rules.FIDE
    names = {c.name for c in first}
    rules = dataclasses.replace(
        fide, name=f"sums-{rule}-{variant}", unplayed_rounds=rule,
        criteria=(fide.criteria[0], *first, *[c for c in fide.criteria[1:]
                                             if c.name not in names]),
        columns=tuple(c for c in fide.columns if c.name not in names),
        distinct_opponents=variant == "distinct",
        earned_bye_opponent=Fraction(1, 2) if variant == "earned" else None)
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0 if variant == "packed" else
                           ex_mod.PACK_MIN_ROWS):
        terms = sf.standings(res, rules, through_round=reachable(res, through))
        with mock.patch.object(tb_mod, "SUMS_FROM_TERMS", False):
            own = sf.standings(res, rules, through_round=reachable(res, through))
    assert_frame_equal(terms, own)


def test_opponent_sums_from_the_chess_terms_are_taken() -> None:
    """The chess terms' group-by gives FIDE's opponents' sums (the test above compares
    their values): OMW% and OGW% are projections of the terms' sums, no join of their
    own."""
    from swissframe.engine import _chess

    m = pl.DataFrame({"round": [1, 1, 2, 2, 3], "player_a": ["A", "C", "A", "B", "A"],
                      "player_b": ["B", "D", "C", "D", "D"], "games_a": [1, 0, 1, 0, 0],
                      "games_b": [0, 0, 0, 1, 0], "games_drawn": [0, 1, 0, 0, 1]})
    frame, _ = st_mod._validated_coded(sf.from_matches(m), ())
    ctx = st_mod.context(frame.lazy(), sf.rules.FIDE, ("event_id",))
    st_mod._criteria_of(ctx, lazy=True)
    sums = ctx.cache[tb_mod.OPPONENT_SUMS_KEY][0]
    assert sums is ctx.cache[_chess._SUMS_KEYS[False]][0]
    projected = {e.meta.output_name() for _, source, columns in ctx.projections
                 if source is sums for e in columns}
    assert {"omwp", "ogwp", "bh", "sb"} <= projected


#: Rulesets for one event computed without its key (``standings._one_event``): both
#: Pokémon orders (drop-round snapshot, head-to-head, last-round opponent, random), the
#: FIDE presets with each unplayed-round rule (inferred absences, chess terms, direct
#: encounter), and other games' criteria (MTG, its drop-round variant, FaB, SWU, melee
#: points, Yu-Gi-Oh!, an earned bye counted as an opponent).
KEYLESS_RULES = st.sampled_from([
    sf.rules.get("pokemon"), sf.rules.get("pokemon-2016"),
    dataclasses.replace(sf.rules.get("pokemon"), name="pokemon-final", snapshot="final"),
    sf.rules.pokemon(earned_bye_opponent=Fraction(3, 4), late_below=True, name="pk-earned"),
    sf.rules.get("fide"), sf.rules.get("fide-2026"), sf.rules.get("fide-2009"),
    dataclasses.replace(sf.rules.get("fide"), name="fide-played", unplayed_rounds="as_played"),
    sf.rules.MTG, dataclasses.replace(sf.rules.MTG, name="mtg-last", snapshot="last_round"),
    sf.rules.get("fab"), sf.rules.get("swu"), sf.rules.get("melee-two-game"),
    sf.rules.get("yugioh-ddd"),
])


@PROPS
@given(res=rich_events(max_events=1), rules=KEYLESS_RULES,
       through=st.sampled_from([None, 2, 3]), dq=st.booleans())
def test_one_event_without_its_key_equals_the_keyed_reference(
        res: pl.DataFrame, rules: sf.Ruleset, through: int | None, dq: bool) -> None:
    """One event's standings computed without the event key (``_one_event``: joins,
    group-bys, windows and sorts by player and cutoff alone) equal ``_compute`` keyed by
    the event, on the repeated rows and the running sums alike, and ``standings`` takes
    it (late entrants' losses, absences, drops, a skipped round number, ties)."""
    assume(res.height > 0)
    if dq:  # (the last row's player disqualified from that round on)
        res = res.with_columns(disqualified=pl.int_range(pl.len()) == pl.len() - 1)
    frame, codes = st_mod._validated_coded(res, ())
    assert codes is not None
    ruleset = st_mod.late_rounds_needed(frame, rules, ("event_id",), codes)
    if through is not None:
        frame = frame.filter(pl.col("round") <= through)
    event = str(codes.events[0])
    for cumulative in (False, True):
        if not st_mod._keyless_ok(ruleset, cumulative=cumulative):
            continue
        got = st_mod._one_event(frame, ruleset, event, cumulative=cumulative)
        ref = st_mod._compute(frame.lazy(), ruleset, ("event_id",), None,
                              cumulative=cumulative, one=True)
        assert_frame_equal(got, ref, check_exact=True)
    with mock.patch.object(st_mod, "KEYLESS", new=False):
        ref = sf.standings(res, rules, through_round=reachable(res, through))
    assert_frame_equal(sf.standings(res, rules, through_round=reachable(res, through)), ref,
                       check_exact=True)


def _long_event(rounds: int, games: int) -> pl.DataFrame:
    """Two players meeting ``rounds`` times, each match ``games``-0 (a long event: its
    exact scales do not pass ``scale_groups``' test without reading the record)."""
    rows = [(r, a, b, games, 0) for r in range(1, rounds + 1) for a, b in (("A", "B"),)]
    return sf.from_matches(pl.DataFrame(rows, orient="row", schema=[
        "round", "player_a", "player_b", "games_a", "games_b"]).with_columns(
        games_drawn=pl.lit(0)), default_event_id="long")


@PROPS
@given(res=random_events(), rules=PRESETS)
@example(res=_long_event(45, 2), rules="mtg")
@example(res=_long_event(12, 400), rules="pokemon")
def test_scale_groups_from_validation_bounds_equal_reading_the_rows(res: pl.DataFrame,
                                                                    rules: str) -> None:
    """``scale_groups`` given validation's bounds of the rounds and game counts
    (``standings._row_bounds``) groups the events as reading the rows does: the bounds
    only skip the read where they pass the test themselves."""
    ruleset = sf.rules.get(rules)
    frame, codes = st_mod._validated_coded(res, ())
    bounds = st_mod._row_bounds(codes)
    assert bounds is not None
    for span in (False, True):
        got = scale_groups(frame, ruleset, span=span, bounds=bounds)
        ref = scale_groups(frame, ruleset, span=span)
        if got is None:
            assert ref is None
        else:
            assert ref is not None
            assert [(g.to_list(), a) for g, a in got] == [(g.to_list(), a) for g, a in ref]


@PROPS
@given(rows=st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.booleans(),
                               st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
                               st.booleans(), st.sampled_from([None, "full_bye", "bye"])),
                     min_size=1, max_size=30),
       rules=PRESETS, flags=st.booleans())
def test_points_of_counts_are_the_sum_of_the_rows_points(
        rows: list[tuple[str, bool, int, int, int, bool, str | None]], rules: str,
        flags: bool) -> None:
    """``points_of_counts`` (the packed record's ``_pts`` from its counts) equals the sum
    of ``row_points`` over the rows, for every preset whose points it can give: byes,
    unopposed losses and draws, double losses, earned byes."""
    ruleset = sf.rules.get(rules)
    points = points_of_counts(ruleset)
    assume(points is not None)
    frame = pl.DataFrame(
        [(p, 1 if paired else None, w, lo, d, dl, kind) for p, paired, w, lo, d, dl, kind
         in rows],
        schema={"player_id": pl.String, "opponent_id": pl.Int64, "games_won": pl.Int64,
                "games_lost": pl.Int64, "games_drawn": pl.Int64, "double_loss": pl.Boolean,
                "unplayed": pl.String}, orient="row").with_columns(
        pl.lit("swiss").alias("phase"), pl.int_range(pl.len()).alias("round"),
        pl.col("opponent_id").cast(pl.String))
    if not flags:
        frame = frame.drop("double_loss", "unplayed")
    prepared = prepare_rows(frame.lazy(), ruleset)
    bounds = SumBounds(rounds=len(rows), games=(0, 3))
    plain = aggregate_players(prepared, ()).collect()
    counted = aggregate_players(prepared, (), packed=bounds, points=points).collect()
    assert bounds.held(counted)
    assert_frame_equal(counted, plain, check_row_order=False)


#: Pokémon's orders, and head-to-head right after the points (many groups of two players
#: who met; an event with no two players on equal points now and then).
_PKM_H2H_LAST = dataclasses.replace(sf.rules.get("pokemon"), name="pokemon-h2h-last",
                                    criteria=(sf.rules.POINTS, sf.rules.HEAD_TO_HEAD))
PAIRS_RULES = st.sampled_from([
    "pokemon", "pokemon-2016", _PKM_H2H_LAST,
    dataclasses.replace(sf.rules.get("pokemon"), name="pokemon-h2h", criteria=(
        sf.rules.POINTS, sf.rules.HEAD_TO_HEAD, sf.rules.random_order(seed=7)))])


@PROPS
@given(res=rich_events(), rules=PAIRS_RULES, one=st.booleans())
@example(res=pkm_f3().with_columns(event_id=pl.lit("e")), rules="pokemon",
         one=True)  # (two groups of two who met)
@example(res=sf.from_matches(pl.DataFrame({
    "round": [1, 1, 2, 2, 3, 3], "player_a": ["A", "C", "A", "B", "A", "B"],
    "player_b": ["B", "D", "C", "D", "D", "C"], "games_a": [1, 1, 1, 0, 1, 1],
    "games_b": [0, 0, 0, 0, 0, 0], "games_drawn": [0, 0, 0, 1, 0, 0]})),
    rules=_PKM_H2H_LAST, one=True)  # (A 9, B 4, C 3, D 1: no two tied)
def test_head_to_head_with_no_two_players_tied_equals_its_plan(
        res: pl.DataFrame, rules: str | sf.Ruleset, one: bool) -> None:
    """Head-to-head where no two players are tied before it (``GroupContext.largest_tie``
    < 2) takes its declared columns (``TiebreakerSpec.untied``: 0 for everyone, no plan
    of the rows, no join) and gives what its plan gives (the reference: the groups'
    sizes not known), one event ranked as one group or every event by its key."""
    ruleset = rules if isinstance(rules, sf.Ruleset) else sf.rules.get(rules)
    if one:
        assume(res.height > 0)
        res = res.filter(pl.col("event_id") == res["event_id"][0])
    frame, _ = st_mod._validated_coded(res, ())
    got = st_mod._compute(frame.lazy(), ruleset, ("event_id",), None, cumulative=False,
                          one=one)
    with mock.patch.object(tb_mod.GroupContext, "largest_tie", return_value=None):
        ref = st_mod._compute(frame.lazy(), ruleset, ("event_id",), None,
                              cumulative=False, one=one)
    assert_frame_equal(got, ref, check_exact=True)


@PROPS
@given(res=rich_events(), rules=PRESETS, through=st.sampled_from([None, 2]), data=st.data())
def test_swiss_rows_kept_as_they_are_equal_the_phase_filtered_rows(
        res: pl.DataFrame, rules: str, through: int | None, data: st.DataObject) -> None:
    """Where validation counted Swiss rows only (``IdCodes.swiss``), the coded path keeps
    every row without comparing its phase (``prepare_rows(swiss=True)``) and, with no
    cutoff, reads who faced whom from the codes' own columns (the criteria's
    ``tiebreakers._faced``): the standings the phase filter and the prepared rows give
    (the codes told nothing of the phases). The general path (FIDE, Pokémon) likewise
    keeps the rows as they are in each plan that filtered their phases
    (``_record.swiss_rows``: the prepared rows, the inferred absences, the players'
    last rounds), against ``_compute`` told nothing. One event and several, a
    disqualification, a cutoff; with playoff rows the codes say nothing."""
    if data.draw(st.booleans()):  # (rich_events' playoff rows: not only Swiss)
        res = res.filter(pl.col("phase") == "swiss")
    if data.draw(st.booleans()):
        res = res.filter(pl.col("event_id") == res["event_id"].min())
    if data.draw(st.booleans()):  # a player disqualified from their last round
        last = res.filter(pl.col("phase") == "swiss").group_by("player_id").agg(
            pl.col("round").max()).sort("player_id").head(1)
        if last.height:
            who, when = last.row(0)
            res = res.with_columns(disqualified=(pl.col("player_id") == who)
                                   & (pl.col("round") >= when))
    validated = st_mod.validated_with_codes

    def told_nothing(*args: object, **kwargs: object) -> object:
        frame, codes = validated(*args, **kwargs)  # type: ignore[arg-type]
        return frame, None if codes is None else dataclasses.replace(codes, swiss=False)

    fast = sf.standings(res, rules, through_round=reachable(res, through))
    with mock.patch.object(st_mod, "validated_with_codes", side_effect=told_nothing):
        plain = sf.standings(res, rules, through_round=reachable(res, through))
    assert_frame_equal(fast, plain, check_exact=True)
    # the general path's plans too (one event without its key, several with it), against
    # the definition: _compute told nothing of the phases, every plan filtering them
    frame, _ = st_mod._validated_coded(res, ())
    if through is not None:
        frame = frame.filter(pl.col("round") <= through)
    ref = st_mod._compute(frame.lazy(), sf.rules.get(rules), ("event_id",), None,
                          cumulative=False)
    assert_frame_equal(fast, ref, check_exact=True)
