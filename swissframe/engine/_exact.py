"""Exact (rational) comparison of tiebreaker values — the one place ties are decided.

Why: a tiebreaker such as OMW% is a mean of fractions (``mean(1/3, 2/3, 1)`` versus
``mean(1/2, 1/2, 1)``). Computed in floats, two values that are equal as rationals can differ
in the last bit and split a tie the rules say is a tie (MTG-F6 in the rules reference).

Mechanism: every rate is carried twice — a ``Float64`` column for people, and an exact
integer twin named ``_x_<column>`` holding ``value × scale`` for a scale that makes it an
integer (Int64 where the scale proves every value fits, else Int128: :func:`exact_dtype`).
A player's own rate ``n / d`` (floored and capped) uses the scale
``M = lcm(all denominators that occur)``; a mean of ``k`` such values, ``T / (k·M)``, becomes
``T · (K / k)`` at scale ``M·K`` with ``K = lcm(1..k_max)``. Ranks compare only the exact
twins, so equal rationals always tie and distinct ones never do.

The scales are Python integers chosen from the data once per computation (a handful of
distinct denominators); :func:`swissframe.engine._record.scale_groups` decides which events
share one, so an event whose scales would exceed Int128 (a long event: 40+ rounds, or game
counts with many distinct totals) is computed on its own and only it falls back — to values
rounded to :data:`FALLBACK_DIGITS` decimals (:class:`RoundedScale`), with an
:class:`~swissframe.errors.ExactnessWarning` naming it. A mean's float comes from its exact
value alone (:func:`ratio_float`), so it does not depend on the scale either.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import polars as pl

from swissframe._collect import concurrently, parallel, with_columns
from swissframe.errors import ExactnessWarning

#: Largest magnitude an exact key may reach (leaves headroom below 2**127 for sums).
LIMIT = 2**120
#: Decimals kept by the float fallback when an exact scale would overflow Int128.
FALLBACK_DIGITS = 12
EXACT = "_x_"


def per_group(expr: pl.Expr, keys: Sequence[str]) -> pl.Expr:
    """``expr`` over the groups of ``keys``; over the whole frame where there are none
    (one event computed without its key: ``standings._standings``)."""
    return expr.over(list(keys)) if keys else expr


def join_keys(left: pl.LazyFrame, right: pl.LazyFrame, keys: Sequence[str]) -> pl.LazyFrame:
    """``left`` inner-joined to ``right`` on ``keys``; every pair where there are none
    (one event computed without its key, as :func:`per_group`)."""
    return (left.join(right, on=list(keys), how="inner") if keys
            else left.join(right, how="cross"))


#: Bits an exact column held on Int64 may use (:func:`exact_dtype`): values below
#: ``2**62`` leave a sign bit and one spare, as the ranking's packed keys do.
INT64_BITS: Final = 62


def exact_dtype(bound: int) -> type[pl.Int64] | type[pl.Int128]:
    """The integer type of an exact column whose values lie in ``[-bound, bound]``: Int64
    where ``bound`` is below ``2**INT64_BITS``, else Int128 — the one place it is decided
    (the rates' columns, :meth:`ExactScale.ratio`, and the means', :func:`mean_exact`,
    read it from their scales before the query).

    Int64 where the scale proves every value fits: the same integers, so the same ties and
    order, at half the memory and arithmetic of Int128 (four such columns of 4M rows in
    the by-round table); the readers that sum or multiply them widen first.

    Examples
    --------
    >>> exact_dtype(2**61), exact_dtype(2**62)
    (Int64, Int128)
    """
    return pl.Int64 if bound < 2**INT64_BITS else pl.Int128


def exact_name(column: str) -> str:
    """Name of the exact integer twin of ``column``."""
    return EXACT + column


def lcm_of(values: Iterable[int]) -> int:
    """Least common multiple of positive integers (1 for none)."""
    out = 1
    for v in values:
        if v > 0:
            out = math.lcm(out, int(v))
    return out


@dataclass(frozen=True)
class ExactScale:
    """An integer scale: a value ``v`` is held exactly as the integer ``v × scale``."""

    scale: int

    def fits(self, bound: int = 1) -> bool:
        """Whether values up to ``bound`` in magnitude stay below :data:`LIMIT`."""
        return self.scale * max(bound, 1) < LIMIT

    @property
    def dtype(self) -> type[pl.Int64] | type[pl.Int128]:
        """The type of a rate at this scale (a value from 0 to 1, so at most ``scale``):
        :func:`exact_dtype`."""
        return exact_dtype(self.scale)

    def lit(self, value: Fraction | int) -> pl.Expr:
        """The exact integer for a constant (which must be a multiple of 1/scale), of a
        rate's type (:attr:`dtype`) when it is one (from -1 to 1)."""
        f = Fraction(value)
        num = f.numerator * self.scale
        if num % f.denominator:
            msg = f"internal: {f} is not representable at scale {self.scale}"
            raise AssertionError(msg)
        return pl.lit(num // f.denominator, dtype=self.dtype if abs(f) <= 1 else pl.Int128)

    def ratio(self, num: pl.Expr, den: pl.Expr) -> pl.Expr:
        """``num / den`` held exactly (``0 ≤ num ≤ den``, den must divide the scale), of
        the type :attr:`dtype`; null where den is 0."""
        if self.scale < 2**63:
            # the quotient scale // den on Int64: an Int128 division costs several times more
            d64 = den.cast(pl.Int64)
            step = pl.lit(self.scale, dtype=pl.Int64) // d64
            if self.dtype == pl.Int64:  # (num ≤ den: num · step ≤ scale)
                return pl.when(d64 > 0).then(num.cast(pl.Int64) * step).otherwise(None)
            return (pl.when(d64 > 0).then(num.cast(pl.Int128) * step.cast(pl.Int128))
                    .otherwise(None))
        den128 = den.cast(pl.Int128)
        return (pl.when(den128 > 0)
                .then(num.cast(pl.Int128) * (pl.lit(self.scale, dtype=pl.Int128) // den128))
                .otherwise(None))


@dataclass(frozen=True)
class RoundedScale(ExactScale):
    """The overflow fallback of :class:`ExactScale`: values rounded to ``1 / scale``
    (ties then decided on rounded values, see :func:`warn_fallback`)."""

    def lit(self, value: Fraction | int) -> pl.Expr:
        """``value × scale``, rounded (of :attr:`dtype` as :meth:`ExactScale.lit`)."""
        f = Fraction(value)
        return pl.lit(round(f * self.scale), dtype=self.dtype if abs(f) <= 1 else pl.Int128)

    def ratio(self, num: pl.Expr, den: pl.Expr) -> pl.Expr:
        """``num / den × scale`` rounded; null where den is 0."""
        return (pl.when(den > 0)
                .then((num.cast(pl.Float64) / den.cast(pl.Float64) * self.scale).round(0)
                      .cast(self.dtype)))


#: The scale of the rounding fallback's keys (:func:`fallback_key`): a criterion that
#: falls back is at this scale, whatever the exact one would have been.
FALLBACK_SCALE: Final = RoundedScale(10**FALLBACK_DIGITS)


#: Least value :func:`mean_exact` may take as a plain float quotient: from ``2**-11`` up,
#: :func:`ratio_float`'s 64 fraction bits and sticky bit hold a float's round and sticky
#: bits, so it is the correctly rounded quotient.
_QUOTIENT_LEAST = Fraction(1, 2**11)


def mean_exact(total: pl.Expr, count: pl.Expr, inner: ExactScale, k_max: int, *,
               least: Fraction | None = None) -> tuple[pl.Expr, pl.Expr, ExactScale]:
    """Exact mean of ``count`` values whose exact sum at scale ``inner`` is ``total``.

    Returns ``(exact, float, outer_scale)``; ``exact`` (of the type
    :func:`exact_dtype` names for ``outer_scale``) is null where ``count`` is 0, and
    everywhere when ``outer_scale`` does not fit (the caller then falls back). The float
    is :func:`ratio_float` of ``total / (count · inner)``: it depends on the mean's value
    only, not on the scale, so an event's values do not change with the events computed
    beside it.

    ``least`` (not None) declares every value averaged to lie in ``[least, 1]`` (a
    floored rate; ``0``: a rate with no floor). Then, where the sums are small enough, the
    same columns come from Int64 and float arithmetic instead of Int128 divisions (the
    costliest step on millions of players): with ``total`` and ``count · inner`` below
    ``2**53`` their float quotient is correctly rounded, which is what
    :func:`ratio_float` gives from ``2**-11`` up — so where every mean is that large
    (``least`` is) or 0 (a mean above 0 is at least ``1 / (k_max · inner)``: a rate of
    a few rounds at a small scale, FIDE's match rate).
    """
    k_lcm = lcm_of(range(1, max(k_max, 1) + 1))
    outer = ExactScale(inner.scale * k_lcm)
    cnt = count.cast(pl.Int128)
    den_bits = (max(k_max, 1) * inner.scale).bit_length()
    if (least is not None and least <= 1 and den_bits <= 53 and outer.scale < 2**62
            and (least >= _QUOTIENT_LEAST
                 or Fraction(1, max(k_max, 1) * inner.scale) >= _QUOTIENT_LEAST)):
        # every value ≤ 1: total ≤ count · inner < 2**53, and the mean at the outer scale
        # is at most outer.scale < 2**62
        c64 = count.cast(pl.Int64)
        mean = total.cast(pl.Int64) * (pl.lit(k_lcm, dtype=pl.Int64) // c64)
        dtype = exact_dtype(outer.scale)  # (each mean at most 1: at most outer.scale)
        exact = (pl.when(c64 > 0)
                 .then(mean if dtype == pl.Int64 else mean.cast(dtype))
                 .otherwise(None))
        flt = pl.when(c64 > 0).then(
            total.cast(pl.Float64) / (c64.cast(pl.Float64) * float(inner.scale)))
        return exact, flt, outer
    if outer.fits() and den_bits < 120:
        wide = total * (pl.lit(k_lcm, dtype=pl.Int128) // cnt)
        dtype = exact_dtype(outer.scale)  # (as above: the type its scale decides)
        exact = (pl.when(cnt > 0)
                 .then(wide if dtype == pl.Int128 else wide.cast(dtype))
                 .otherwise(None))
        flt = pl.when(cnt > 0).then(
            ratio_float(total, cnt * pl.lit(inner.scale, dtype=pl.Int128), den_bits))
    elif inner.scale.bit_length() <= _FLOAT_MAX_BITS:
        exact = pl.lit(None, dtype=pl.Int128)
        flt = pl.when(cnt > 0).then(
            total.cast(pl.Float64) / (cnt.cast(pl.Float64) * float(inner.scale)))
    else:  # a scale beyond a float (an event of thousands of rounds): no Int128 total is
        # at it, and the callers, whose outer scale does not fit either, take their means
        # from the values' floats (warn_fallback)
        exact = pl.lit(None, dtype=pl.Int128)
        flt = pl.when(cnt > 0).then(pl.lit(None, dtype=pl.Float64))
    return exact, flt, outer


#: The most bits of an integer ``float()`` converts whatever its value (from 1024 bits:
#: OverflowError).
_FLOAT_MAX_BITS: Final = 1023


#: Fraction bits :func:`ratio_float` computes (beyond the 53 of a float, with a sticky bit).
_FLOAT_BITS = 64


def ratio_float(num: pl.Expr, den: pl.Expr, den_bits: int) -> pl.Expr:
    """``num / den`` (integers, ``num ≥ 0``, ``0 < den < 2**den_bits``) as a Float64 that
    is a function of the rational alone: the integer part plus the first 64 bits of the
    fraction and a sticky bit (so a fraction below 1 is correctly rounded). Equal
    rationals at different scales give the same float, bit for bit.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"n": [1, 10**20], "d": [3, 3 * 10**20]},
    ...                   schema={"n": pl.Int128, "d": pl.Int128})
    >>> df.select(ratio_float(pl.col("n"), pl.col("d"), 70))["n"].to_list()
    [0.3333333333333333, 0.3333333333333333]
    """
    n, d = num.cast(pl.Int128), den.cast(pl.Int128)
    step = max(126 - den_bits, 1)  # r < den, so r · 2**step stays inside Int128
    whole, rest = n // d, n % d
    frac: pl.Expr = pl.lit(0, dtype=pl.Int128)
    done = 0
    while done < _FLOAT_BITS:
        s = min(step, _FLOAT_BITS - done)
        rest = rest * pl.lit(2**s, dtype=pl.Int128)
        frac = frac * pl.lit(2**s, dtype=pl.Int128) + rest // d
        rest = rest % d
        done += s
    frac = frac * 2 + (rest > 0).cast(pl.Int128)
    return whole.cast(pl.Float64) + frac.cast(pl.Float64) * 2.0 ** -(_FLOAT_BITS + 1)


#: Slack for a decimal's float (0.125 * 100 is 12.4999…): published rounding is decided
#: on the decimal the float stands for.
_DECIMAL_SLACK = 1e-9


def to_decimals(values: pl.Expr, decimals: pl.Expr | int, *, mode: str = "round") -> pl.Expr:
    """A float shown with ``decimals`` places the way published software does it:
    ``"round"`` half-up (the values here are rates, never negative), ``"truncate"`` cut.

    The one place where a published rounding is written (platform values, TieBreakServer's
    AOB, the reference values' decimals).

    >>> df = pl.DataFrame({"x": [0.125, 0.375, 0.5]})
    >>> df.select(to_decimals(pl.col("x"), 2))["x"].to_list()
    [0.13, 0.38, 0.5]
    >>> df.select(to_decimals(pl.col("x"), 2, mode="truncate"))["x"].to_list()
    [0.12, 0.37, 0.5]
    """
    scale = pl.lit(10.0).pow(decimals)
    shift = 0.5 if mode == "round" else 0.0
    return (values * scale + shift + _DECIMAL_SLACK).floor() / scale


def fallback_key(value: pl.Expr) -> pl.Expr:
    """Rounded-float key used only when an exact scale would overflow (at
    :data:`FALLBACK_SCALE`)."""
    return (value * 10.0**FALLBACK_DIGITS).round(0).cast(pl.Int128)


def warn_fallback(what: str, *, bits: int) -> None:
    """Report that exact tie detection fell back to rounding for ``what``, whose exact scale
    would take ``bits`` bits (a number, not the scale: one may be too large to build)."""
    msg = (f"exact tie detection for {what} needs a scale of {bits} bits, more "
           f"than Int128 holds; ties are decided on values rounded to {FALLBACK_DIGITS} "
           "decimals instead. Hint: this only happens for very long events.")
    warnings.warn(msg, ExactnessWarning, stacklevel=3)


def rank_exact(frame: pl.LazyFrame, keys: Sequence[str], sort_columns: Sequence[str],
               descending: Sequence[bool], *, rank_name: str = "rank",
               tie_name: str | None = None, tiebreak: Sequence[str] = (),
               packed: int = 0, unique: bool = False,
               order: tuple[str, tuple[int, int]] | None = None) -> pl.LazyFrame:
    """Competition ranks (1, 2, 2, 4) within ``keys`` by exact columns, nulls last.

    Players equal on every column in ``sort_columns`` share a rank; ``tiebreak`` columns
    only order rows inside a tie (e.g. player_id, for a stable display). When ``tie_name``
    is given, a per-row tie-group id is added too. ``packed > 0``: ``sort_columns[0]`` is an
    ascending, null-free integer that orders rows as ``keys`` followed by ``packed - 1``
    further sort columns would (the keys are then not sort columns themselves, only where a
    group starts). ``unique``: ``keys`` and ``tiebreak`` identify a row, so the order is
    total and the sort need not be stable (a stable sort of millions of rows costs more).
    ``order``: ``(column, (below_keys, below_sort))``, a null-free integer column whose
    values are distinct and order the rows as ``keys``, ``sort_columns`` and ``tiebreak``
    do, and its bits below the keys' fields and below the sort columns' (the
    tiebreak's): the sort is on it alone, and rows are in one group, or tied, where it
    shifted right by those bits is equal (the columns are not read: ``sort_columns`` may
    be empty).
    """
    if packed:
        columns = [*sort_columns, *tiebreak]
        desc = [False, *descending[1:]] + [False] * len(tiebreak)
    else:
        columns = [*keys, *sort_columns, *tiebreak]
        desc = [False] * len(keys) + list(descending) + [False] * len(tiebreak)
    tie = tie_name or "__tie"
    ordered = (frame.sort(order[0]) if order is not None else
               frame.sort(columns, descending=desc, nulls_last=True,
                          maintain_order=not (unique and tiebreak)))
    if order is not None:
        starts, ranks = _split_rank_exprs(*order, bool(keys), rank_name, tie)
    elif not keys:  # one group (one event): see _run_ranks
        return with_columns(ordered, *_run_ranks(tuple(sort_columns), rank_name, tie_name))
    else:
        starts, ranks = _rank_exprs(tuple(keys), tuple(sort_columns), rank_name, tie)
    out = with_columns(with_columns(ordered, *starts), *ranks).drop("__new", "__gs")
    return out if tie_name else out.drop(tie)


@functools.lru_cache(maxsize=256)
def _run_ranks(sort_columns: tuple[str, ...], rank_name: str, tie: str | None
               ) -> tuple[pl.Expr, ...]:
    """:func:`rank_exact` of sorted rows that form one group: each run of rows equal on
    ``sort_columns`` (nulls equal to nulls, as in ``_rank_exprs``) gets an id that grows
    along the rows, so the least position of its id is where the run starts, its
    competition rank less one. One expression where ``_rank_exprs`` has a comparison per
    column: every expression costs a small input's query its planning (one 64-player
    event, 1.27 -> 0.39 M instructions)."""
    run = pl.struct(*sort_columns).rle_id()
    rank = run.rank("min").cast(pl.Int64).alias(rank_name)
    # (the tie ids of _rank_exprs, in its column order: 1, 2, … along the runs)
    return (rank,) if tie is None else ((run + 1).alias(tie), rank)


@functools.lru_cache(maxsize=256)
def _split_rank_exprs(order: str, split: tuple[int, int], keyed: bool, rank_name: str,
                      tie: str) -> tuple[tuple[pl.Expr, ...], tuple[pl.Expr, ...]]:
    """:func:`_rank_exprs` told by one order key's leading bits (``rank_exact``'s
    ``order``): a group starts where the bits above ``split[0]`` change, a tie group
    where those above ``split[1]`` do (``keyed`` False: one group)."""
    key = pl.col(order)

    def changes(bits: int) -> pl.Expr:
        lead = key // 2**bits if bits else key
        return lead.ne_missing(lead.shift(1))

    first = pl.int_range(pl.len(), dtype=pl.Int64) == 0
    group_start = (first | changes(split[0])) if keyed else first
    return _run_exprs(group_start, group_start | changes(split[1]), rank_name, tie)


def _run_exprs(group_start: pl.Expr, new: pl.Expr, rank_name: str, tie: str
               ) -> tuple[tuple[pl.Expr, ...], tuple[pl.Expr, ...]]:
    """The two steps of :func:`_rank_exprs` from where each group and each tie group
    starts along the sorted rows."""
    # After the sort every key group and every tie group is a run of rows, so positions
    # come from forward fills over the run starts: linear scans instead of two windowed
    # group-bys (`.over`), which dominated ranking on large tables.
    row = pl.int_range(pl.len(), dtype=pl.Int64)
    rank = (pl.when(pl.col("__new")).then(row).forward_fill()
            - pl.when(pl.col("__gs")).then(row).forward_fill() + 1)
    return ((new.alias("__new"), group_start.alias("__gs")),
            (pl.col("__new").cum_sum().alias(tie), rank.alias(rank_name)))


@functools.lru_cache(maxsize=256)
def _rank_exprs(keys: tuple[str, ...], sort_columns: tuple[str, ...], rank_name: str,
                tie: str) -> tuple[tuple[pl.Expr, ...], tuple[pl.Expr, ...]]:
    """:func:`rank_exact`'s two steps after the sort, built once per columns (building
    them is a sizeable part of ranking one small event)."""
    first = pl.int_range(pl.len(), dtype=pl.Int64) == 0
    group_start = pl.any_horizontal(first, *[pl.col(c).ne_missing(pl.col(c).shift(1))
                                             for c in keys])
    new = pl.any_horizontal(group_start, *[pl.col(c).ne_missing(pl.col(c).shift(1))
                                           for c in sort_columns])
    return _run_exprs(group_start, new, rank_name, tie)


#: Binary digits kept by :func:`ratio_key`.
RATIO_BITS = 64


def ratio_key(num: pl.Expr, den: pl.Expr) -> pl.Expr:
    """An exact, order-preserving Int128 key for ``num / den`` without a common scale.

    ``floor(num · 2**64 / den)``: equal rationals give equal keys, and two distinct ones
    with denominators below 2**32 differ by more than 2**-64, so their keys differ in the
    same order. Needs ``0 ≤ num < 2**62``. Null where ``den`` is 0.
    """
    den128 = den.cast(pl.Int128)
    return (pl.when(den128 > 0)
            .then((num.cast(pl.Int128) * pl.lit(2**RATIO_BITS, dtype=pl.Int128)) // den128)
            .otherwise(None))


#: Tables of fewer rows than this are not packed (:func:`packs`).
PACK_MIN_ROWS = 20_000


def packs(rows: int | None) -> bool:
    """Whether the bulk-only packings (sort keys and payloads packed into one Int64 for
    ranking, the opponents' two sums packed through their join) pay off on a table of
    ``rows`` rows (None: not known, so yes).

    Packing costs a query or two (the columns' ranges, whether the two sums are null
    together) and a few hundred expression nodes, more than it saves below about 40,000
    players (one 64-player event: 9.75 -> 7.40 ms a ``standings`` call unpacked; 40
    events, 3,188 players: 20.2 -> 19.1 ms; 500 events, 42,338 players: 73 -> 75 ms).
    Packed and plain give the same table (``tests/engine/test_fast_paths.py`` runs both).
    """
    return rows is None or rows >= PACK_MIN_ROWS


@dataclass(frozen=True)
class BitFields:
    """Null-free integer columns side by side in one Int64, each as its value minus its
    minimum in as many bits as its range needs: ``(column, minimum, bit offset, width)``.

    The one layout behind every packed payload (the columns ranking moves through its
    sort, the opponents' values gathered at once); :func:`bit_fields` lays it out.
    """

    fields: tuple[tuple[str, int, int, int], ...]

    def pack(self) -> pl.Expr:
        """The packed Int64 of a row."""
        out: pl.Expr | None = None
        for c, low, off, _ in self.fields:
            # (no operation for a zero minimum or offset: each is a pass over the column)
            part = pl.col(c).cast(pl.Int64)
            part = part - pl.lit(low, dtype=pl.Int64) if low else part
            part = part * pl.lit(2**off, dtype=pl.Int64) if off else part
            out = part if out is None else out + part
        return pl.lit(0, dtype=pl.Int64) if out is None else out

    def unpack(self, packed: pl.Expr) -> dict[str, pl.Expr]:
        """Each column's value (Int64) read back from ``packed`` (≥ 0, as packing gives:
        the last field has nothing above it to mask off)."""
        out = {}
        for i, (c, low, off, width) in enumerate(self.fields):
            value = packed // pl.lit(2**off, dtype=pl.Int64) if off else packed
            if i < len(self.fields) - 1:
                value = value % pl.lit(2**width, dtype=pl.Int64)
            out[c] = value + pl.lit(low, dtype=pl.Int64) if low else value
        return out


def bit_fields(columns: Iterable[str],
               stats: dict[str, tuple[int | None, int | None, int]], *,
               limit: int) -> BitFields:
    """The layout of ``columns`` in order (``stats``: min, max, null count per column):
    columns with nulls are left out, and the layout stops before the first column that
    would take it past ``limit`` bits.

    Examples
    --------
    >>> bit_fields(["a", "b", "c"], {"a": (0, 5, 0), "b": (1, 1, 2), "c": (-2, 1, 0)},
    ...            limit=62).fields
    (('a', 0, 0, 3), ('c', -2, 3, 2))
    """
    fields: list[tuple[str, int, int, int]] = []
    bits = 0
    for c in columns:
        low, high, nulls = stats[c]
        if nulls or low is None or high is None:
            continue
        width = max((high - low).bit_length(), 1)
        if bits + width > limit:
            break
        fields.append((c, low, bits, width))
        bits += width
    return BitFields(tuple(fields))


def sum_layouts(bounds: dict[str, int]) -> list[BitFields] | None:
    """Columns of values ≥ 0 side by side in as few Int64 as hold each one's largest sum
    (``bounds``), in order (:func:`~swissframe.engine._exact.bit_fields` at minimum 0, at
    most 63 bits each): a sum of packed values is then the columns' sums side by side, no
    field carrying into the next. (Minimum 0: a field holds the sum of its values, not of
    their distances from a minimum, which would need the count of values to undo.) None
    when one column's sums need more than 63 bits."""
    stats: dict[str, tuple[int | None, int | None, int]] = {
        n: (0, b, 0) for n, b in bounds.items()}
    layouts: list[BitFields] = []
    rest = list(bounds)
    while rest:
        layout = bit_fields(rest, stats, limit=63)
        if not layout.fields:
            return None
        layouts.append(layout)
        rest = rest[len(layout.fields):]
    return layouts


def segment_sums(values: pl.DataFrame, src: pl.Series, lengths: pl.Series, *,
                 packed: bool = True) -> pl.DataFrame:
    """Per segment, the sums of each column of ``values`` gathered at ``src``, over
    consecutive runs of ``lengths`` gathered rows.

    The gathered values are cut into segments as one list per segment, made from their
    buffer and the segments' offsets without a copy (:func:`as_lists`), and summed by the
    list kernel: running sums over every gathered value, and the copies and gathers that
    take their differences, cost more than three times as much, as does a sorted group-by.
    Columns are gathered and summed packed side by side (:func:`_sum_fields`) where their
    sums fit: 13.9M values of 4M segments, 870 -> 240 ms. ``packed=False``: each column
    as it is (a caller that packed its columns itself, from bounds it knows)."""
    if src.len() == 0:
        return values.select(pl.all().head(0).extend_constant(0, lengths.len()))
    offsets = pl.concat([pl.Series([0], dtype=pl.Int64), lengths.cast(pl.Int64).cum_sum()])
    layouts = _sum_fields(values, lengths) if packed else None
    if layouts is None:  # one gather and one sum per column
        return pl.DataFrame([_gathered_sums(values.get_column(n), src, offsets)
                             for n in values.columns])
    parts = []
    for layout in layouts:
        sums = _gathered_sums(values.select(layout.pack().alias("_p")).to_series(), src,
                              offsets)
        parts.append(sums.to_frame().select(**layout.unpack(pl.col("_p"))))
    return pl.concat(parts, how="horizontal").select(values.columns)


def _gathered_sums(column: pl.Series, src: pl.Series, offsets: pl.Series) -> pl.Series:
    """Per segment (``offsets``: see :func:`as_lists`), the sum of ``column`` gathered at
    ``src``. A large gather is split at the middle segment, its halves gathered and summed
    at once (:func:`~swissframe._collect.concurrently`): a gather and a list sum are
    single-threaded kernels, and these gathers (3.7M rows of the coded standings' record
    and opponents' sums) are the largest of the call."""
    def summed(part: pl.Series, cuts: pl.Series) -> pl.Series:
        out: pl.Series = as_lists(column.gather(part), cuts).list.sum()
        return out

    segments = offsets.len() - 1
    if segments < 2 or not parallel(src.len()):
        return summed(src, offsets)
    half = segments // 2
    cut = offsets[half]
    low, high = concurrently(functools.partial(summed, src.slice(0, cut),
                                               offsets.slice(0, half + 1)),
                             functools.partial(summed, src.slice(cut), offsets.slice(half) - cut),
                             rows=src.len())
    out: pl.Series = low.append(high)
    return out


def as_lists(values: pl.Series, offsets: pl.Series) -> pl.Series:
    """``values`` cut at ``offsets`` (``len + 1`` of them, from 0 to ``values.len()``) into
    one list per segment, sharing ``values``' buffer (Arrow's list layout is exactly a
    values buffer and offsets)."""
    import pyarrow as pa  # (not on ``import swissframe``: only large inputs)

    array = pa.LargeListArray.from_arrays(offsets.to_arrow(), values.rechunk().to_arrow())
    lists = pl.from_arrow(array)
    assert isinstance(lists, pl.Series)
    return lists.alias(values.name)


def _sum_fields(values: pl.DataFrame, lengths: pl.Series) -> list[BitFields] | None:
    """The columns of ``values`` packed for sums over a segment of up to ``lengths.max()``
    values (:func:`~swissframe.engine._exact.sum_layouts` of each column's largest such
    sum). None when a column has nulls or negative values, or one column's sums need more
    than 63 bits (the columns are then gathered one by one)."""
    most = lengths.max()
    row = values.select(pl.all().min().name.suffix(":lo"), pl.all().max().name.suffix(":hi"),
                        pl.all().null_count().name.suffix(":n")).row(0, named=True)
    if not isinstance(most, int) or any(
            row[f"{n}:n"] or row[f"{n}:lo"] is None or row[f"{n}:lo"] < 0
            for n in values.columns):
        return None
    return sum_layouts({n: int(row[f"{n}:hi"]) * max(most, 1) for n in values.columns})
