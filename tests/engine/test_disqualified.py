"""Disqualification: the ``disqualified`` flag of the contract.

MTG IPG §1.1 (shared rules.md §1.4): the player is removed from the standings and everyone
below moves up one place; completed results are not expunged (a drop, for the opponents'
math). Pokémon TRH §5.7.3: removed from the standings. Decisions: docs/rules-decisions.md
"Disqualification".
"""

from __future__ import annotations

from fractions import Fraction
from unittest import mock

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from swissframe.engine import _exact as ex_mod
from swissframe.engine import standings as st_mod
from swissframe.errors import SchemaError
from tests.engine.test_standings import PROPS, random_events, rich_events
from tests.helpers import reachable

#: Six players, three rounds (A beats B, C beats D, E beats F; A beats C, E beats D, B
#: beats F; A beats E, C beats B, D beats F). Points: A 9, C 6, E 6, B 3, D 3, F 0.
#: C and E tie on 6: OMW% C (D 1/3, A 1, B 1/3) = 5/9 against E (F 0.33, D 1/3, A 1) =
#: 1.6633/3, so C is 2nd and E 3rd; B (A 1, F 0.33, C 2/3) above D (C 2/3, E 2/3, F 0.33).
SIX = sf.from_matches(pl.DataFrame({
    "round": [1, 1, 1, 2, 2, 2, 3, 3, 3],
    "player_a": ["A", "C", "E", "A", "E", "B", "A", "C", "D"],
    "player_b": ["B", "D", "F", "C", "D", "F", "E", "B", "F"],
    "games_a": [2, 2, 2, 2, 2, 2, 2, 2, 2],
    "games_b": [0, 1, 0, 1, 0, 1, 1, 0, 0],
    "games_drawn": [0] * 9}))


def _dq(res: pl.DataFrame, player: str, from_round: int = 1) -> pl.DataFrame:
    """``res`` with ``player``'s rows from ``from_round`` on flagged."""
    return res.with_columns(disqualified=(pl.col("player_id") == player)
                            & (pl.col("round") >= from_round))


def _values(table: pl.DataFrame, col: str) -> dict[str, object]:
    return dict(zip(table["player_id"], table[col], strict=True))


def test_six_players_the_disqualified_third_is_removed_and_the_others_move_up() -> None:
    plain = sf.standings(SIX, "mtg")
    assert plain["player_id"].to_list() == ["A", "C", "E", "B", "D", "F"]
    assert plain["rank"].to_list() == [1, 2, 3, 4, 5, 6]
    # E is disqualified during round 3 (the loss to A is in the results)
    out = sf.standings(_dq(SIX, "E", 3), "mtg")
    assert out["player_id"].to_list() == ["A", "C", "B", "D", "F", "E"]
    assert out["rank"].to_list() == [1, 2, 3, 4, 5, None]
    assert _values(out, "disqualified") == {"A": False, "C": False, "B": False, "D": False,
                                            "F": False, "E": True}
    # E's opponents' OMW% are those without the flag: E's 2/3 still counts for them
    omw = _values(out, "omwp")
    assert omw["A"] == pytest.approx(float(Fraction(1, 3) + Fraction(2, 3) * 2) / 3)  # 5/9
    assert omw["D"] == pytest.approx((2 / 3 + 2 / 3 + 0.33) / 3)
    assert omw["F"] == pytest.approx(float(Fraction(2, 3) + Fraction(1, 3) * 2) / 3)  # 4/9
    # every value but the rank is the same as without the flag
    same = out.drop("rank", "disqualified").sort("player_id")
    assert_frame_equal(same, plain.drop("rank").sort("player_id"))
    # the status column sits with the other status column
    cols = out.columns
    assert cols.index("disqualified") == cols.index("dropped") + 1


def test_without_the_column_the_output_is_unchanged() -> None:
    plain = sf.standings(SIX, "mtg")
    assert "disqualified" not in plain.columns
    assert tuple(plain.columns) == st_mod.STANDINGS_COLUMNS
    no_one = sf.standings(SIX.with_columns(disqualified=pl.lit(value=False)), "mtg")
    assert_frame_equal(no_one.drop("disqualified"), plain)
    assert not no_one["disqualified"].any()
    # a null flag reads False
    nulls = sf.standings(SIX.with_columns(disqualified=pl.lit(None, dtype=pl.Boolean)), "mtg")
    assert_frame_equal(nulls, no_one)


def test_the_flag_on_any_one_row_disqualifies_the_player() -> None:
    one_row = SIX.with_columns(disqualified=(pl.col("player_id") == "E") & (pl.col("round") == 1))
    every_row = _dq(SIX, "E")
    assert_frame_equal(sf.standings(one_row, "mtg"), sf.standings(every_row, "mtg"))


def test_by_round_the_player_is_unranked_from_the_first_flagged_round() -> None:
    by = sf.standings_by_round(_dq(SIX, "C", 2), "mtg")
    c = by.filter(pl.col("player_id") == "C").sort("round")
    assert c["disqualified"].to_list() == [False, True, True]
    assert c["rank"].to_list()[0] is not None
    assert c["rank"].to_list()[1:] == [None, None]
    for rnd in (1, 2, 3):
        part = by.filter(pl.col("round") == rnd)
        assert_frame_equal(part.drop("round"),
                           sf.standings(_dq(SIX, "C", 2), "mtg", through_round=rnd))
        # the unranked follow every ranked player of the round
        assert part["rank"].is_null().to_list() == sorted(part["rank"].is_null().to_list())


def test_pokemon_head_to_head_and_random_order_are_kept_for_the_others() -> None:
    # three players tied on everything but head-to-head and the lot: the others keep
    # their order when one of them is disqualified
    res = pl.concat([SIX, SIX.with_columns(event_id=pl.lit("second"))])
    for rules in ("pokemon", "pokemon-2016", "fide", "fab", "yugioh"):
        plain = sf.standings(res, rules)
        out = sf.standings(_dq(res, "B", 2), rules)
        assert_frame_equal(_expected(plain, _dq(res, "B", 2)), out)


def test_a_match_form_carries_the_flag_per_seat() -> None:
    m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
                      "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0],
                      "disqualified_b": ["", "yes"]})
    long = sf.from_matches(m)
    assert _values(long, "disqualified") == {"A": False, "B": False, "C": False, "D": True}
    back = sf.to_matches(long)
    assert back["disqualified_a"].to_list() == [False, False]
    assert back["disqualified_b"].to_list() == [False, True]
    with pytest.raises(SchemaError, match="disqualified_a"):
        sf.from_matches(m.rename({"disqualified_b": "disqualified"}))
    with pytest.raises(SchemaError, match="not flags"):
        sf.from_matches(m.with_columns(disqualified_b=pl.lit("maybe")))


# ---------------------------------------------------------------------------- properties

def _expected(plain: pl.DataFrame, flagged: pl.DataFrame,
              keys: tuple[str, ...] = ("event_id",)) -> pl.DataFrame:
    """The standings of ``flagged`` from those without the flag (``plain``): every value
    the same, the disqualified (a flagged Swiss row) unranked after the ranked players
    of their event (both in their order), the others' ranks those of ``plain`` closed up
    (competition ranks of the plain ranks among the ranked)."""
    who = (flagged.filter(pl.col("disqualified") & (pl.col("phase") == "swiss")
                          if "phase" in flagged.columns else pl.col("disqualified"))
           .select(*keys, "player_id").unique().with_columns(_dq=pl.lit(value=True)))
    out = (plain.with_row_index("_i").join(who, on=[*keys, "player_id"], how="left")
           .with_columns(pl.col("_dq").fill_null(value=False)))
    closed = pl.col("rank").rank("min").over([*keys, "_dq"]).cast(pl.Int64)
    out = out.with_columns(rank=pl.when(~pl.col("_dq")).then(closed),
                           disqualified=pl.col("_dq"))
    # (stable: the order within an event as without the flag)
    out = out.sort([*keys, "_dq", "_i"])
    cols = plain.columns
    at = cols.index("dropped") + 1
    return out.select(*cols[:at], "disqualified", *cols[at:])


@st.composite
def _flagged(draw: st.DrawFn, events: st.SearchStrategy[pl.DataFrame]) -> pl.DataFrame:
    """Events with the flag on random rows (none, some players' one row, every row)."""
    res = draw(events)
    picks = draw(st.lists(st.booleans(), min_size=res.height, max_size=res.height))
    return res.with_columns(disqualified=pl.Series(picks, dtype=pl.Boolean)
                            & pl.lit(draw(st.booleans())))


PRESETS = st.sampled_from(["mtg", "mtg-1/3", "mtg-wer", "swu", "melee-two-game", "pokemon",
                           "pokemon-2016", "yugioh", "fab", "fide", "one-piece"])


@PROPS
@given(res=_flagged(random_events()), rules=PRESETS)
def test_disqualifying_changes_no_value_and_closes_up_the_others_ranks(
        res: pl.DataFrame, rules: str) -> None:
    plain = sf.standings(res.drop("disqualified"), rules)
    assert_frame_equal(sf.standings(res, rules), _expected(plain, res))


@PROPS
@given(res=_flagged(rich_events()), rules=PRESETS)
def test_by_round_disqualified_from_the_first_flagged_round(res: pl.DataFrame,
                                                           rules: str) -> None:
    plain = sf.standings_by_round(res.drop("disqualified"), rules)
    first = (res.filter(pl.col("disqualified") & (pl.col("phase") == "swiss"))
             .group_by("event_id", "player_id").agg(pl.col("round").min().alias("_from")))
    # the flag as it stood at each round: on every row of a player from the round of
    # their first flagged row
    at = (plain.select("event_id", "round", "player_id")
          .join(first, on=["event_id", "player_id"], how="left")
          .select("event_id", pl.col("round"), "player_id",
                  disqualified=(pl.col("_from") <= pl.col("round")).fill_null(value=False),
                  phase=pl.lit("swiss")))
    got = sf.standings_by_round(res, rules)
    assert_frame_equal(got, _expected(plain, at, ("event_id", "round")))


@PROPS
@given(res=_flagged(random_events()), rules=PRESETS)
def test_coded_and_packed_paths_equal_the_reference(res: pl.DataFrame, rules: str) -> None:
    ruleset = sf.rules.get(rules)
    frame, _ = st_mod._validated_coded(res, ())
    ref = st_mod._compute(frame.lazy(), ruleset, ("event_id",), None)
    fast = sf.standings(res, rules)
    assert_frame_equal(fast, ref)
    ref2 = st_mod._compute(frame.filter(pl.col("round") <= 2).lazy(), ruleset,
                           ("event_id",), None)
    assert_frame_equal(sf.standings(res, rules, through_round=reachable(res, 2)), ref2)
    by_ref = st_mod._by_round(res, rules, (), cumulative=False)
    by_fast = st_mod._by_round(res, rules, (), cumulative=True)
    assert_frame_equal(by_fast.sort("event_id", "round", "player_id"),
                       by_ref.sort("event_id", "round", "player_id"))
    # packed sort keys and the one order key (forced on a small table)
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):
        assert_frame_equal(sf.standings(res, rules), fast)
        assert_frame_equal(st_mod._by_round(res, rules, (), cumulative=True), by_fast)


@PROPS
@given(res=_flagged(random_events()))
def test_extra_keys_rank_the_disqualified_apart_in_each_scenario(res: pl.DataFrame) -> None:
    two = pl.concat([res.with_columns(scenario_id=pl.lit(i)) for i in (1, 2)])
    got = sf.standings(two, "mtg", keys=["scenario_id"])
    one = sf.standings(res, "mtg")
    for i in (1, 2):
        part = got.filter(pl.col("scenario_id") == i).drop("scenario_id")
        assert_frame_equal(part, one)
