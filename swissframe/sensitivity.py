"""Sensitivity of a ranking to the rules: who enters or leaves the top N, rank correlation,
and the margin of each cut-line decision.

One engine pass per ruleset covers every event; comparisons are joins keyed by
``event_id`` (plus a ``ruleset`` key).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Final

import polars as pl

from swissframe._collect import collect, scoped
from swissframe.engine.standings import standings
from swissframe.engine.tiebreakers import TIEBREAKER_SPECS, drawn_by_lot
from swissframe.errors import DataError, check_top
from swissframe.rules._ruleset import Ruleset, get
from swissframe.schema import batched, validated_once

__all__ = ["sensitivity", "standard_variants"]

Frame = pl.DataFrame | pl.LazyFrame


def option_matters(rules: Ruleset, option: str) -> bool:
    """Whether changing ``option`` can change the ranking of ``rules``: a criterion reads
    it, or does not declare what it reads (``TiebreakerSpec.reads`` None: kept, to be
    safe). Read by :func:`standard_variants` and by ``swissframe rules`` (a ruleset none
    of whose criteria reads a rate shows no floor or cap).

    >>> option_matters(get("mtg"), "floor"), option_matters(get("fide"), "floor")
    (True, False)
    """
    specs = (TIEBREAKER_SPECS.get(c.function) for c in rules.criteria)
    return any(s is None or s.reads is None or option in s.reads for s in specs)


#: The one-option variants of :func:`standard_variants`: the name's suffix, the change,
#: and the words a chart or a report says it in (:func:`variant_label`; ``{was}``: the
#: base's own floor).
_VARIANTS: Final = (
    ("floor=1/3", {"floor": Fraction(1, 3)}, "floor 1/3{was}"),
    ("floor=0.33", {"floor": Fraction(33, 100)}, "floor 0.33{was}"),
    ("own-gw-unfloored", {"floor_own_gw": False}, "own GW% not floored"),
    ("bye-not-in-own-mw", {"bye_in_own_rate": False}, "byes left out of own MW%"),
    ("drawn-game=0", {"drawn_game_value": Fraction(0)}, "a drawn game worth 0"),
)


def variant_label(name: str, base: str) -> str:
    """A variant of :func:`standard_variants` in words, as a chart or a report says it;
    any other name as it is.

    Examples
    --------
    >>> variant_label("pokemon+floor=1/3", "pokemon")
    'floor 1/3 instead of 0.25'
    >>> variant_label("mtg-without-ogwp", "mtg")
    'without the last tiebreaker (OGW%)'
    >>> variant_label("my-rules", "mtg")
    'my-rules'
    """
    from swissframe.compare import criterion_label  # (compare imports the engine's users)
    from swissframe.rules import PRESETS
    from swissframe.rules._ruleset import fraction_text

    rest = name[len(base):] if name.startswith(base) else name
    known = PRESETS.get(base)
    was = "" if known is None else f" instead of {fraction_text(known.floor)}"
    words = {f"+{suffix}": text.format(was=was) for suffix, _, text in _VARIANTS}
    if rest in words:
        return words[rest]
    if rest.startswith("-without-"):
        return f"without the last tiebreaker ({criterion_label(rest[len('-without-'):])})"
    return name


def standard_variants(base: str | Ruleset = "mtg") -> list[Ruleset]:
    """The base ruleset and its usual one-option variants (rules.md §6–§7).

    Floor 1/3 vs 0.33, own GW% unfloored, bye excluded from own MW%, drawn games worth 0,
    and the base order without its last tiebreaker. A variant whose option no criterion
    of the base reads is left out (it could not change anything: a floor on win rates
    under chess's Buchholz, a drawn game's worth under Pokémon's OMW% and OOMW%).

    Examples
    --------
    >>> [r.name for r in standard_variants("mtg")]  # doctest: +NORMALIZE_WHITESPACE
    ['mtg', 'mtg+floor=1/3', 'mtg+own-gw-unfloored', 'mtg+bye-not-in-own-mw',
     'mtg+drawn-game=0', 'mtg-without-ogwp']
    >>> [r.name for r in standard_variants("pokemon")]
    ['pokemon', 'pokemon+floor=1/3', 'pokemon+floor=0.33', 'pokemon-without-random']
    >>> [r.name for r in standard_variants("fide")]
    ['fide', 'fide-without-win']
    """
    b = get(base)
    out = [b]
    for name, change, _ in _VARIANTS:
        key = next(iter(change))
        if getattr(b, key) != change[key] and option_matters(b, key):
            out.append(dataclasses.replace(b, name=f"{b.name}+{name}", **change))
    if len(b.criteria) > 1:
        out.append(dataclasses.replace(b, name=f"{b.name}-without-{b.criteria[-1].name}",
                                       criteria=b.criteria[:-1]))
    return out


def _ranked(results: Frame, rs: Ruleset, label: str) -> pl.DataFrame:
    st = standings(results, rs, lazy=True)
    crit = [c.name for c in rs.criteria if c.name != "match_points"]
    # (a disqualified player has no rank: removed from the standings, so from the cut
    # margins and the rank correlations too)
    return (st.filter(pl.col("rank").is_not_null())
            .with_columns(_pos=pl.int_range(1, pl.len() + 1).over("event_id"))
            .pipe(collect)
            .select("event_id", "player_id", "rank", "_pos",
                    pl.lit(label).alias("ruleset"),
                    pl.struct(["match_points", *crit]).alias("_values"),
                    pl.lit(",".join(["match_points", *crit])).alias("_crit")))


def _cut_margin(ranked: pl.DataFrame, rules: dict[str, Ruleset], top: int) -> pl.DataFrame:
    """First criterion separating place N from N+1, and the gap (N's value − N+1's)."""
    parts = []
    for label, rs in rules.items():
        crit = ["match_points", *(c.name for c in rs.criteria if c.name != "match_points")]
        desc = [True, *(c.descending for c in rs.criteria if c.name != "match_points")]
        # (a drawing of lots has no margin: its keys' difference, ~1e15 and of either sign,
        # read as a gap in a table or a median of gaps)
        lot = [False, *(drawn_by_lot(c.function) for c in rs.criteria
                        if c.name != "match_points")]
        sub = ranked.filter(pl.col("ruleset") == label)
        n = sub.filter(pl.col("_pos") == top).select(
            "event_id", "ruleset", pl.col("player_id").alias("place_n"),
            pl.col("rank").alias("_rn"), pl.col("_values").alias("_vn"))
        n1 = sub.filter(pl.col("_pos") == top + 1).select(
            "event_id", pl.col("player_id").alias("place_n1"), pl.col("rank").alias("_rn1"),
            pl.col("_values").alias("_vn1"))
        j = n.join(n1, on="event_id", how="left")
        first: pl.Expr = pl.lit(None, dtype=pl.String)
        gap: pl.Expr = pl.lit(None, dtype=pl.Float64)
        for c, d, by_lot in reversed(list(zip(crit, desc, lot, strict=True))):
            a = pl.col("_vn").struct.field(c).cast(pl.Float64)
            b = pl.col("_vn1").struct.field(c).cast(pl.Float64)
            differs = a.ne_missing(b)
            first = pl.when(differs).then(pl.lit(c)).otherwise(first)
            margin = pl.lit(None, dtype=pl.Float64) if by_lot else (a - b) if d else (b - a)
            gap = pl.when(differs).then(margin).otherwise(gap)
        parts.append(j.select(
            "event_id", "ruleset", "place_n", "place_n1",
            pl.when(pl.col("_rn") == pl.col("_rn1")).then(pl.lit("tie"))
            .otherwise(first).alias("cut_criterion"),
            pl.when(pl.col("_rn") == pl.col("_rn1")).then(0.0).otherwise(gap).alias("cut_gap"),
            (pl.col("_rn") == pl.col("_rn1")).fill_null(value=False).alias("cut_tied")))
    return pl.concat(parts)


def _kendall(ranked: pl.DataFrame, baseline: str) -> pl.DataFrame:
    """Kendall tau-b between each ruleset's ranks and the baseline's, per event.

    ``(n0 - n1 - n2 + n3 - 2·D) / sqrt((n0 - n1)·(n0 - n2))`` over a group's ``n``
    players: ``n0`` pairs, ``n1`` / ``n2`` pairs tied in the ruleset's / the baseline's
    rank, ``n3`` tied in both, and ``D`` discordant pairs (:func:`_discordant_pairs`) —
    the sum of sign products over every pair of players without listing the pairs, which
    took 41 s and 17.7 GB for one 5,000-player event. Null for a group of one player;
    NaN where every pair is tied in one of the two rankings (as 0 / 0).
    """
    base = ranked.filter(pl.col("ruleset") == baseline).select(
        "event_id", "player_id", pl.col("rank").alias("_b"))
    j = (ranked.select("event_id", "ruleset", "player_id", pl.col("rank").alias("_a"))
         .join(base, on=["event_id", "player_id"]))
    g = ["event_id", "ruleset"]

    def tied_pairs(cols: Sequence[str], name: str) -> pl.LazyFrame:
        # pairs inside each set of equal values: the sum of t·(t - 1) / 2 over the sets
        return (j.lazy().group_by(*g, *cols).agg(_t=pl.len().cast(pl.Int64))
                .group_by(g).agg((pl.col("_t") * (pl.col("_t") - 1) // 2).sum().alias(name)))

    counts = (j.lazy().group_by(g).agg(_n=pl.len().cast(pl.Int64))
              .filter(pl.col("_n") > 1)
              .join(tied_pairs(["_a"], "_n1"), on=g)
              .join(tied_pairs(["_b"], "_n2"), on=g)
              .join(tied_pairs(["_a", "_b"], "_n3"), on=g)
              .join(_discordant_pairs(j, g), on=g, how="left")
              .pipe(collect))
    n0 = pl.col("_n") * (pl.col("_n") - 1) // 2
    s = n0 - pl.col("_n1") - pl.col("_n2") + pl.col("_n3") - 2 * pl.col("_d").fill_null(0)
    ta, tb = n0 - pl.col("_n1"), n0 - pl.col("_n2")
    return counts.select(*g, (s.cast(pl.Float64)
                              / (ta.cast(pl.Float64) * tb.cast(pl.Float64)).sqrt())
                         .alias("kendall_tau"))


#: Sort keys of :func:`_discordant_pairs` below this are Int64, others Int128.
_INT64_KEYS: Final = 2**63


def _discordant_pairs(pairs: pl.DataFrame, keys: Sequence[str]) -> pl.LazyFrame:
    """Per group of ``keys``: the pairs of rows ordered one way by ``_a`` and the other by
    ``_b`` (strictly in both), ``_d``.

    Knight's count without a Python loop over the groups: with the rows sorted by ``_a``
    then ``_b``, ``D`` is the number of inversions of ``_b`` (rows tied in ``_a`` are in
    ``_b`` order, so they add none), counted as a merge sort would, one level at a time
    for every group at once: at level ``L`` each block of ``2·2**L`` positions has a left
    and a right half, and each right-half row adds the left-half rows with a larger
    ``_b``. Sorted by block, ``_b`` descending and right half first among equals (so an
    equal value is not counted), those are the left-half rows before it in its block: a
    running count of left-half rows less its value where the block starts. Every pair of
    positions is in the two halves of exactly one block, so the levels add up to ``D``;
    ``log2(n)`` sorts of one integer key instead of ``n²`` pairs.
    """
    g = list(keys)
    # the groups as dense integers in the sorted order (and the keys each stands for)
    rows = (pairs.lazy().sort(*g, "_a", "_b")
            .with_columns(_g=pl.struct(g).rle_id().cast(pl.Int64))
            .select(*g, "_g", "_b", _pos=pl.int_range(pl.len(), dtype=pl.Int64).over("_g"),
                    _n=pl.len().over("_g"))
            .pipe(collect))
    names = rows.lazy().select(*g, "_g").unique()
    stats = rows.select(pl.col("_n").max(), pl.col("_b").min().alias("lo"),
                        pl.col("_b").max().alias("hi"), pl.col("_g").max().alias("g"))
    top, lo, hi, last = (stats.item(0, c) for c in ("_n", "lo", "hi", "g"))
    if not isinstance(top, int) or top < 2:  # no group of two players
        return names.select(*g, _d=pl.lit(0, dtype=pl.Int64))
    width = int(hi) - int(lo) + 1
    # (block, _b descending, right half first) as one key: group · top + block, then the
    # value, then the half; Int64 unless the ranges are too wide for it
    dtype = pl.Int64 if (int(last) + 1) * top * width * 2 < _INT64_KEYS else pl.Int128
    levels = []
    for level in range((top - 1).bit_length()):
        half = 2**level
        right = (pl.col("_pos") // half) % 2 == 1
        block = pl.col("_g").cast(dtype) * top + pl.col("_pos") // (2 * half)
        key = (block * width + (int(hi) - pl.col("_b"))) * 2 + (~right).cast(dtype)
        left = (pl.col("_k") % 2).cast(pl.Int64)  # (a left-half row: the half bit is 1)
        blk = pl.col("_k") // (2 * width)
        seen = left.cum_sum()
        starts = pl.when(blk.ne_missing(blk.shift(1))).then(seen - left).forward_fill()
        levels.append(
            rows.lazy().filter(pl.col("_n") > half)  # (a group this small has no right half)
            .select(_k=key).sort("_k")
            .select(_g=(blk // top).cast(pl.Int64),
                    _d=pl.when(left == 0).then(seen - starts).otherwise(0))
            .group_by("_g").agg(pl.col("_d").sum()))
    return (pl.concat(levels).group_by("_g").agg(pl.col("_d").sum())
            .join(names, on="_g").select(*g, "_d"))


@scoped
def sensitivity(results: Frame, rulesets: Sequence[str | Ruleset] | None = None, top: int = 8
                ) -> pl.DataFrame:
    """How the top ``top`` and the ranking change across rulesets (the first is the baseline).

    Parameters
    ----------
    results
        Long results table (any number of events).
    rulesets
        Ruleset names or objects; the first is the baseline. Default:
        :func:`standard_variants` of ``"mtg"``.
    top
        Size of the cut (N). The top N are the first N places in the engine's order
        (exact ties inside it are ordered by player id; ``cut_tied`` flags a tie across
        the line).

    Returns
    -------
    DataFrame
        One row per (event, ruleset): ``event_id, ruleset, players`` (the ranked
        players: a disqualified one has no rank and is in no cut), ``entering, leaving``
        (lists of players entering/leaving the top N versus the baseline),
        ``kendall_tau`` (tau-b of the full ranking versus the baseline), ``place_n``,
        ``place_n1``, ``cut_criterion`` (first criterion that separated place N from
        N+1 under that ruleset; ``"tie"`` when they are exactly tied), ``cut_gap`` (N's
        value minus N+1's on that criterion, oriented so positive = N ahead; null where
        a drawing of lots decided, which has no margin) and ``cut_tied``.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> s = sensitivity(sf.from_matches(m), ["mtg", "mtg-1/3"], top=2)
    >>> s.select("ruleset", "entering", "kendall_tau", "cut_criterion").rows()
    [('mtg', [], 1.0, 'omwp'), ('mtg-1/3', [], 1.0, 'omwp')]
    """
    check_top(top)
    chosen = rulesets if rulesets is not None else standard_variants("mtg")
    if isinstance(chosen, (str, Ruleset)) or not isinstance(chosen, Iterable):
        # (one name would be read letter by letter; a number ended in a bare TypeError)
        msg = (f"rulesets must be a list of rulesets, got {chosen!r:.60}. Hint: e.g. "
               "rulesets=['mtg', 'mtg-1/3'].")
        raise DataError(msg)
    sets = [get(r) for r in chosen]
    if not sets:
        msg = "sensitivity needs at least one ruleset. Hint: the first one is the baseline."
        raise DataError(msg)
    labels: dict[str, Ruleset] = {}
    for i, rs in enumerate(sets):
        label = rs.name if rs.name not in labels else f"{rs.name}#{i}"
        labels[label] = rs
    # a very large table in batches of events (each event's rows are compared with
    # themselves only; six rulesets of 30,000 events took 32 s and 8.8 GB in one pass)
    results, out = batched(results, lambda part: _sensitivity(part, labels, top))
    return _sensitivity(results, labels, top) if out is None else out


def _sensitivity(results: Frame, labels: dict[str, Ruleset], top: int) -> pl.DataFrame:
    """:func:`sensitivity` of the whole of ``results`` in one pass."""
    baseline = next(iter(labels))
    with validated_once(results) as frame:  # (checked once, not once per ruleset)
        ranked = pl.concat([_ranked(frame, rs, label) for label, rs in labels.items()],
                           how="diagonal_relaxed")
    in_top = ranked.filter(pl.col("_pos") <= top).select("event_id", "ruleset", "player_id")
    base_top = in_top.filter(pl.col("ruleset") == baseline).select(
        "event_id", "player_id", _b=pl.lit(value=True))
    entering = (in_top.join(base_top, on=["event_id", "player_id"], how="anti")
                .group_by("event_id", "ruleset").agg(pl.col("player_id").sort().alias("entering")))
    grid = ranked.select("event_id", "ruleset").unique()
    leaving = (grid.join(base_top, on="event_id")
               .join(in_top.with_columns(_in=pl.lit(value=True)),
                     on=["event_id", "ruleset", "player_id"], how="left")
               .filter(pl.col("_in").is_null())
               .group_by("event_id", "ruleset").agg(pl.col("player_id").sort().alias("leaving")))
    counts = ranked.group_by("event_id", "ruleset").agg(players=pl.len())
    order = {label: i for i, label in enumerate(labels)}
    out = (counts.join(entering, on=["event_id", "ruleset"], how="left")
           .join(leaving, on=["event_id", "ruleset"], how="left")
           .with_columns(pl.col("entering", "leaving").fill_null([]))
           .join(_kendall(ranked, baseline), on=["event_id", "ruleset"], how="left")
           .join(_cut_margin(ranked, labels, top), on=["event_id", "ruleset"], how="left")
           .with_columns(_o=pl.col("ruleset").replace_strict(order, return_dtype=pl.Int64))
           .sort("event_id", "_o").drop("_o"))
    return out.select("event_id", "ruleset", "players", "entering", "leaving", "kendall_tau",
                      "place_n", "place_n1", "cut_criterion", "cut_gap", "cut_tied")

