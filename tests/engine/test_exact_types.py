"""The exact columns' integer type (``_exact.exact_dtype``): Int64 where the scale proves
every value fits, Int128 otherwise — the same integers either way, so the same standings.

- ``sf.standings`` and ``sf.standings_by_round`` are identical, frame for frame, with the
  exact columns on Int64 wherever they fit and with every one forced to Int128, for the
  presets' small scales and for a ruleset whose draws' worth makes the match rates' scale
  straddle Int64 (so both types occur under the default decision);
- one rate at any scale up to 2**70 is the exact integer ``n · scale / d``, of the type the
  decision names (Polars' Int64 arithmetic wraps silently, so this is what catches a
  decision naming Int64 for a scale it cannot hold: the tests with the decision made
  wrong on purpose check that it is caught).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from types import ModuleType
from unittest import mock

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from swissframe.engine import _chess as ch_mod
from swissframe.engine import _cumulative as cu_mod
from swissframe.engine import _exact as ex_mod
from swissframe.engine import _record as rec_mod
from swissframe.engine import standings as st_mod
from swissframe.engine import tiebreakers as tb_mod
from swissframe.engine._exact import ExactScale, exact_dtype
from tests.engine.test_standings import PROPS, random_events, rich_events

_MODULES: tuple[ModuleType, ...] = (ex_mod, rec_mod, st_mod, tb_mod, cu_mod, ch_mod)


def _clear_caches() -> None:
    """Forget the expressions built once per scale (they carry the type they were built
    with)."""
    for mod in _MODULES:
        for value in vars(mod).values():
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()


@contextmanager
def _int64_bits(bits: int) -> Iterator[None]:
    """The exact columns decided with ``bits`` as Int64's range (0: every one Int128)."""
    _clear_caches()
    try:
        with mock.patch.object(ex_mod, "INT64_BITS", bits):
            yield
    finally:
        _clear_caches()


def _huge_draws(denominator: int) -> sf.Ruleset:
    """MTG with a draw worth ``1 / denominator`` of a win: the match rates' scale is about
    ``denominator · lcm(rounds) · 100``."""
    return dataclasses.replace(sf.rules.get("mtg"), name=f"mtg-draw-1/{denominator}",
                               draw_value=Fraction(1, denominator))


RULES = st.sampled_from(["mtg", "mtg-1/3", "mtg-wer", "swu", "melee-two-game", "pokemon"]) | (
    # (2**50 + 1 and 2**52 + 1: the scales then fall either side of 2**62 with the rounds
    # played; 2**58 + 1: past it)
    st.sampled_from([2**50 + 1, 2**52 + 1, 2**58 + 1]).map(_huge_draws))


def _both(res: pl.DataFrame, rules: str | sf.Ruleset) -> tuple[pl.DataFrame, pl.DataFrame]:
    # (the ranking's narrowing and packing, which read the types, run from this size on)
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):
        return sf.standings(res, rules), sf.standings_by_round(res, rules)


@PROPS
@given(res=rich_events(), rules=RULES)
def test_int64_and_int128_exact_columns_give_identical_standings(
        res: pl.DataFrame, rules: str | sf.Ruleset) -> None:
    with _int64_bits(ex_mod.INT64_BITS):
        assert ExactScale(3).dtype == pl.Int64
        narrow = _both(res, rules)
    with _int64_bits(0):
        assert ExactScale(3).dtype == pl.Int128
        wide = _both(res, rules)
    for got, want in zip(narrow, wide, strict=True):
        assert_frame_equal(got, want, check_exact=True)


@PROPS
@given(res=random_events(), rules=RULES)
def test_the_exact_columns_are_int64_where_the_scale_fits(res: pl.DataFrame,
                                                          rules: str | sf.Ruleset) -> None:
    frame, _ = st_mod._validated_coded(res, ())
    ruleset = sf.rules.get(rules) if isinstance(rules, str) else rules
    ctx = st_mod.context(frame.lazy(), ruleset, ("event_id",))
    schema = ctx.players.collect_schema()
    for column, scale in (("_x_mwp", ctx.rate_scale), ("_x_gwp", ctx.game_scale)):
        want = pl.Int64 if scale.scale < 2**62 else pl.Int128
        assert schema[column] == want, (column, scale)
    assert schema["_x_match_points"] == pl.Int64


def _check_rate(scale: int, den: int, nums: list[int]) -> None:
    """``ExactScale(scale).ratio`` of ``nums / den`` (den divides the scale) is the exact
    integer, of the type the decision names; so is the constant 1."""
    frame = pl.DataFrame({"n": pl.Series(nums, dtype=pl.Int128),
                          "d": pl.Series([den] * len(nums), dtype=pl.Int128)})
    exact = ExactScale(scale)
    got = frame.select(exact.ratio(pl.col("n"), pl.col("d")).alias("x"),
                       exact.lit(1).alias("one"))
    assert got.schema["x"] == exact.dtype == exact_dtype(scale)
    assert got["x"].to_list() == [n * scale // den for n in nums]
    assert got["one"].to_list() == [scale] * len(nums)


@given(scale=st.integers(1, 2**70), data=st.data())
def test_a_rate_is_exact_in_the_type_its_scale_decides(scale: int,
                                                       data: st.DataObject) -> None:
    # den divides the scale (as the rates' denominators divide theirs), 0 ≤ num ≤ den
    divisors = [d for d in (1, 2, 3, 4, 6, 100, 2**31, 2**62) if scale % d == 0]
    den = data.draw(st.sampled_from([*divisors, scale]))
    _check_rate(scale, den, data.draw(st.lists(st.integers(0, den), min_size=1, max_size=5)))


@pytest.mark.parametrize("scale", [2**63, 2**63 + 2**62, 2**64 - 4])
def test_a_decision_naming_int64_past_its_range_is_caught(scale: int) -> None:
    # the check above with the decision made wrong (Int64 up to 2**64): a scale past
    # Int64 is then refused or computed wrong, never silently taken
    _check_rate(scale, 1, [0, 1])  # (right: Int128 from 2**62)
    with _int64_bits(64), pytest.raises((AssertionError, pl.exceptions.PolarsError)):
        _check_rate(scale, 1, [0, 1])


def test_a_wrong_type_decision_is_refused_with_huge_draws() -> None:
    # a draw worth 1/(2**61 + 1) of a win: the match rates' scale is past 2**63, so the
    # decision keeps Int128, and the standings are those of every column on Int128;
    # forced to Int64 (the check made wrong), the computation is refused, not silently
    # wrapped
    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
                      "player_b": ["B", "D", "C", "D"], "games_a": [1, 2, 1, 0],
                      "games_b": [1, 0, 0, 2], "games_drawn": [1, 0, 1, 0]})
    res = sf.from_matches(m)
    rules = _huge_draws(2**61 + 1)
    with _int64_bits(ex_mod.INT64_BITS):
        right = _both(res, rules)
    with _int64_bits(0):
        wide = _both(res, rules)
    for got, want in zip(right, wide, strict=True):
        assert_frame_equal(got, want, check_exact=True)
    # (a literal past Int64, the floor at that scale, is refused by Polars: its error)
    with _int64_bits(127), pytest.raises(pl.exceptions.PolarsError, match="i64"):
        _both(res, rules)
